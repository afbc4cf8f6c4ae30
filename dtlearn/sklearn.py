"""dtlearn's trees as scikit-learn estimators: `TreeClassifier` and `TreeRegressor`.

    from dtlearn.sklearn import TreeClassifier
    model = TreeClassifier(algorithm="c45").fit(X, y)    # X: a DataFrame or an array
    model.predict(X), model.predict_proba(X), model.score(X, y), model.apply(X)
    model.tree_                                          # the dtlearn Tree: steps, tables, drawing

They follow scikit-learn's conventions (parameters stored as given and checked when fitting,
fitted state with a trailing underscore, `classes_` in sorted order) and pass its
`parametrize_with_checks`, so they work in `Pipeline`, `cross_val_score` and `GridSearchCV`
and pickle. The tree is grown by `dtlearn.fit`, exactly as the library and the app grow it:
every parameter left at None takes the algorithm's preset (`dtlearn.PRESETS`), and a
DataFrame's non-numeric columns (object, string, category, bool) are categorical attributes,
split by value or by value subsets, never one-hot encoded. A 2-D array of strings is read the
same way, column by column. Missing values (NaN, None) are handled as the algorithm handles
them (C4.5's fractional cases, CART's surrogate splits).

Needs scikit-learn (`pip install "dtlearn[sklearn]"`); the rest of dtlearn does not.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

try:
    from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
    from sklearn.utils.multiclass import check_classification_targets
    from sklearn.utils.validation import _check_y, check_consistent_length, check_is_fitted, validate_data
except ImportError as missing:  # pragma: no cover - the core installs without scikit-learn
    raise ImportError('dtlearn.sklearn needs scikit-learn: pip install "dtlearn[sklearn]"') from missing

from .api import fit as fit_tree
from .api import prune
from .data import Dataset
from .formatting import label
from .routing import most_probable
from .settings import PRESET

__all__ = ["TreeClassifier", "TreeRegressor", "expected_failed_checks"]


class _Tree(BaseEstimator):
    """What both estimators share: turning X (and y) into a dtlearn Dataset, growing, routing."""

    _task = ""

    def _settings(self) -> dict:
        """The parameters given (not None), as dtlearn settings; ccp_alpha is applied after growth."""
        names = [name for name in self.get_params(deep=False) if name not in ("algorithm", "ccp_alpha")]
        return {name: getattr(self, name) for name in names if getattr(self, name) is not None}

    def _attributes(self, X, reset: bool) -> pd.DataFrame:
        """X as a DataFrame of attribute columns (named as at fit), checked as scikit-learn checks."""
        if isinstance(X, pd.DataFrame):
            validate_data(self, X, reset=reset, skip_check_array=True)  # feature names, n_features_in_
            frame = X
        else:
            try:
                frame = pd.DataFrame(validate_data(self, X, reset=reset, ensure_all_finite="allow-nan"))
            except ValueError:
                raw = np.asarray(X) if not hasattr(X, "toarray") else None
                if raw is None or raw.dtype.kind not in "OUS" or raw.ndim != 2:
                    raise
                # strings: categorical columns (numbers among them stay numbers)
                raw = validate_data(self, X, reset=reset, dtype=None, ensure_all_finite=False)
                frame = pd.DataFrame(raw).infer_objects()
        if frame.shape[0] == 0:
            raise ValueError(f"Found array with 0 sample(s) (shape={frame.shape}) while a minimum of 1 is required.")
        if frame.shape[1] == 0:
            raise ValueError(f"Found array with 0 feature(s) (shape={frame.shape}) while a minimum of 1 is required.")
        for name, column in frame.items():
            if pd.api.types.is_complex_dtype(column):
                raise ValueError(f"Complex data not supported (column {name}).")
            if pd.api.types.is_numeric_dtype(column) and not pd.api.types.is_bool_dtype(column):
                if np.isinf(column.to_numpy(dtype=float, na_value=np.nan)).any():
                    raise ValueError(f"Input X contains infinity (column {name}).")
        names = self._names(frame) if reset else list(self.tree_.kinds)
        return frame.set_axis(names, axis=1)

    def _names(self, frame: pd.DataFrame) -> list[str]:
        if hasattr(self, "feature_names_in_"):
            return [str(name) for name in self.feature_names_in_]
        if isinstance(frame.columns, pd.RangeIndex):
            return [f"x{i}" for i in range(frame.shape[1])]
        return [str(name) for name in frame.columns]  # not all strings: written as text

    def _grow(self, X, y, target: pd.Series) -> None:
        """Fit: the Dataset of X and the target column, grown by dtlearn with these settings."""
        frame = self._attributes(X, reset=True)
        check_consistent_length(frame, target)
        name = str(getattr(y, "name", None) or ("class" if self._task == "classification" else "target"))
        while name in frame.columns:
            name += "_"
        data = Dataset(frame.reset_index(drop=True).assign(**{name: target}), name)
        tree = fit_tree(data, self.algorithm, task=self._task, **self._settings())
        if self.ccp_alpha:
            tree = prune(tree, "cost_complexity", alpha=float(self.ccp_alpha))
        self.tree_ = tree

    def _rows(self, X) -> pd.DataFrame:
        check_is_fitted(self, "tree_")
        return self._attributes(X, reset=False).reset_index(drop=True)

    def apply(self, X) -> np.ndarray:
        """The id of the leaf each row reaches (`Tree.apply`; a missing value: the heaviest branch)."""
        rows = self._rows(X)
        return self.tree_.apply(rows)

    def get_depth(self) -> int:
        check_is_fitted(self, "tree_")
        return self.tree_.depth

    def get_n_leaves(self) -> int:
        check_is_fitted(self, "tree_")
        return self.tree_.n_leaves

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True  # missing values are the algorithm's business
        tags.input_tags.categorical = True  # a DataFrame's categorical columns are split as categories
        return tags


class TreeClassifier(ClassifierMixin, _Tree):
    """A classification tree grown by ID3, C4.5, CART or Zaki & Meira's algorithm.

    `algorithm` picks the preset ("cart" by default); every other parameter left at None keeps
    the preset's value (see `dtlearn.Settings` for each one's meaning). `ccp_alpha` > 0 prunes
    the grown tree by cost complexity (Breiman et al. 1984), as scikit-learn's own trees do.

    >>> from dtlearn import load_dataset
    >>> frame = load_dataset("tennis").frame
    >>> model = TreeClassifier(algorithm="id3").fit(frame.drop(columns="play"), frame["play"])
    >>> model.classes_.tolist(), model.tree_.root.test.attribute, model.get_n_leaves()
    (['No', 'Yes'], 'outlook', 5)
    """

    _task = "classification"

    def __init__(self, *, algorithm="cart", criterion=None, categorical_split=None, numeric_split=None,
                 reuse_attributes=None, max_depth=None, min_samples_split=None, min_samples_leaf=None,
                 min_purity=None, leaf_size=None, min_gain=None, stop_at_zero_gain=None, average_gain_rule=None,
                 min_branch_cases=None, threshold_correction=None, cut_tolerance=None,
                 threshold_at_data_value=None, threshold_by_ratio=None, collapse=None, max_exhaustive_values=None,
                 max_subset_size=None, prune=None, confidence=None, subtree_raising=None, missing_values=None,
                 max_surrogates=None, priors=None, class_weight=None, ccp_alpha=0.0):
        self.algorithm = algorithm
        self.criterion = criterion
        self.categorical_split = categorical_split
        self.numeric_split = numeric_split
        self.reuse_attributes = reuse_attributes
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_purity = min_purity
        self.leaf_size = leaf_size
        self.min_gain = min_gain
        self.stop_at_zero_gain = stop_at_zero_gain
        self.average_gain_rule = average_gain_rule
        self.min_branch_cases = min_branch_cases
        self.threshold_correction = threshold_correction
        self.cut_tolerance = cut_tolerance
        self.threshold_at_data_value = threshold_at_data_value
        self.threshold_by_ratio = threshold_by_ratio
        self.collapse = collapse
        self.max_exhaustive_values = max_exhaustive_values
        self.max_subset_size = max_subset_size
        self.prune = prune
        self.confidence = confidence
        self.subtree_raising = subtree_raising
        self.missing_values = missing_values
        self.max_surrogates = max_surrogates
        self.priors = priors
        self.class_weight = class_weight
        self.ccp_alpha = ccp_alpha

    def _settings(self) -> dict:
        settings = super()._settings()
        for name in ("priors", "class_weight"):  # keyed by the classes as y holds them; the tree by their labels
            if isinstance(settings.get(name), dict):
                settings[name] = {self._names_of_classes[self._index_of(c)]: v for c, v in settings[name].items()}
        return settings

    def _index_of(self, value) -> int:
        found = np.flatnonzero(self.classes_ == value)
        if len(found) == 0:
            raise ValueError(f"A class weight or prior names {value!r}, which is not a class: "
                             f"{self.classes_.tolist()}.")
        return int(found[0])

    def fit(self, X, y):
        """Grow the tree on X (rows by attributes) and the class labels y."""
        if y is None:
            raise ValueError(f"This {type(self).__name__} estimator requires y to be passed, but the target y is None.")
        labels = _check_y(y, estimator=self)
        check_classification_targets(labels)
        self.classes_, codes = np.unique(labels, return_inverse=True)
        names = [label(c) for c in self.classes_]
        if len(set(names)) < len(names):  # e.g. 0.1 and 0.1000000000001: make each written name unique
            names = [f"{n} [{i}]" for i, n in enumerate(names)]
        self._names_of_classes = names
        # a Categorical in the classes' sorted order, so the tree's classes (and its
        # predict_proba columns) come in the order of classes_
        target = pd.Series(pd.Categorical.from_codes(codes, categories=names))
        self._grow(X, y, target)
        return self

    def predict_proba(self, X) -> np.ndarray:
        """Class probabilities, columns in the order of `classes_` (`Tree.predict_proba`)."""
        rows = self._rows(X)
        return self.tree_.predict_proba(rows)

    def predict(self, X) -> np.ndarray:
        """The most probable class of each row (a tie: the first in `classes_`, as `Tree.predict`)."""
        probabilities = self.predict_proba(X)
        return self.classes_[most_probable(probabilities)]


class TreeRegressor(RegressorMixin, _Tree):
    """A regression tree (CART's squared error; Breiman et al. 1984), or Zaki & Meira's algorithm
    with a numeric target. Parameters as `TreeClassifier`'s that apply to regression, and
    `leaf_value` ("mean", or "median" for leaves that predict the median).

    >>> from dtlearn import load_dataset
    >>> frame = load_dataset("tips").frame
    >>> model = TreeRegressor(max_depth=2).fit(frame.drop(columns="tip"), frame["tip"])
    >>> model.get_depth(), model.get_n_leaves()
    (2, 4)
    """

    _task = "regression"

    def __init__(self, *, algorithm="cart", max_depth=None, min_samples_split=None, min_samples_leaf=None,
                 leaf_size=None, min_gain=None, stop_at_zero_gain=None, max_exhaustive_values=None,
                 max_subset_size=None, missing_values=None, max_surrogates=None, leaf_value=None, ccp_alpha=0.0):
        self.algorithm = algorithm
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.leaf_size = leaf_size
        self.min_gain = min_gain
        self.stop_at_zero_gain = stop_at_zero_gain
        self.max_exhaustive_values = max_exhaustive_values
        self.max_subset_size = max_subset_size
        self.missing_values = missing_values
        self.max_surrogates = max_surrogates
        self.leaf_value = leaf_value
        self.ccp_alpha = ccp_alpha

    def _settings(self) -> dict:
        return {**super()._settings(), "min_purity": None}  # Zaki's purity stop is for classes

    def fit(self, X, y):
        """Grow the tree on X (rows by attributes) and the numeric target y."""
        if y is None:
            raise ValueError(f"This {type(self).__name__} estimator requires y to be passed, but the target y is None.")
        values = _check_y(y, y_numeric=True, estimator=self)
        self._grow(X, y, pd.Series(values.astype(float)))
        return self

    def predict(self, X) -> np.ndarray:
        """The leaf value of each row (a missing tested value: the weighted mean of its branches)."""
        rows = self._rows(X)
        return np.asarray(self.tree_.predict(rows), dtype=float)


def expected_failed_checks(estimator) -> dict[str, str]:
    """The scikit-learn estimator checks that cannot hold, and why (for `parametrize_with_checks`
    and `check_estimator`, whose `expected_failed_checks` argument takes this function)."""
    c45 = getattr(PRESET.get(estimator.algorithm), "family", "") == "c45"  # C4.5's 2-case rule keeps leaves mixed
    if isinstance(estimator, TreeClassifier) and not c45:
        return {"check_class_weight_classifiers": (
            "An unpruned tree grows leaves that are pure whatever the class weights: the weights decide which "
            "split wins and the label of a mixed leaf (Breiman et al. 1984), so on the check's noisy blobs the "
            "other classes keep their pure leaves. scikit-learn's own trees pass it only because the check "
            "sets their min_weight_fraction_leaf, a setting dtlearn does not have.")}
    return {}
