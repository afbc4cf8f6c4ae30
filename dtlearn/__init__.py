"""dtlearn: decision-tree induction you can watch, with every number exact.

The public API (stable names):
    Dataset, read_csv, read_table_text, DataError, dataset_names, load_dataset
    entropy, gini, misclassification
    split_table, fit, infer_task, Tree
    partition
    worksheet (the module: worksheet, to_latex, to_markdown)
    budget (the module: Budget, within, TooCostly), for callers that serve many people
"""

from .catalog import dataset_info, dataset_names, load_dataset
from .csv_reader import read_csv, read_table_text
from .data import DataError, Dataset
from .arff import read_arff
from .impurity import entropy, gini, misclassification
from .induction import infer_task, split_table
from .evaluation import (accuracy, confusion_matrix, error, mean_squared_error, train_test_split,
                         train_validation_test_split)
from .partition import Rectangle, SplitLine, partition, split_lines
from .pruning import cost_complexity_path, rpart_cp_table
from .api import cost_complexity_cv, cross_validate, fit, overfitting_curve, prune
from .settings import ALGORITHMS, PRESETS, Settings, make_settings
from .tree import Node, Step, Tree
from . import display  # registers how trees and steps show in Jupyter (`_repr_html_`)
from . import worksheet  # exercise sheets and worked solutions, LaTeX or Markdown
from . import budget  # limits of one computation (the app's), and its progress
from .budget import Budget, TooCostly

__all__ = [
    "ALGORITHMS", "DataError", "Dataset", "Node", "PRESETS", "Rectangle", "Settings", "SplitLine", "Step",
    "Tree", "dataset_info", "dataset_names", "entropy", "fit", "gini", "infer_task", "load_dataset", "make_settings",
    "misclassification", "partition", "read_arff", "read_csv", "read_table_text", "split_lines", "split_table",
    "accuracy", "confusion_matrix", "cost_complexity_cv", "cost_complexity_path", "cross_validate", "error",
    "mean_squared_error", "overfitting_curve", "prune", "rpart_cp_table", "train_test_split",
    "train_validation_test_split", "display", "worksheet", "budget", "Budget", "TooCostly",
]
