"""Judging a tree on data: seeded stratified splits, accuracy, confusion matrix, folds.

(Cross-validation and the overfitting curve grow trees: they are in `api`.)"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .data import DataError, Dataset
from .formatting import labels_of
from .encoding import codes_for


def _strata(data: Dataset) -> np.ndarray:
    column = data.frame[data.target]
    numeric = pd.api.types.is_numeric_dtype(column) and column.nunique() > 10
    if numeric:  # regression: stratify by quartile so every part sees the whole range
        return pd.qcut(column.rank(method="first"), 4, labels=False).to_numpy()
    return pd.factorize(labels_of(column), sort=True)[0]


def split_indices(data: Dataset, fractions, seed: int = 0, stratify: bool = True) -> list[np.ndarray]:
    """Row positions of parts with the given fractions (adding up to 1), shuffled with `seed`.

    Stratified: each class (numeric target: each quartile) is cut in the given proportions;
    the rows left over by rounding go to the parts in turn, the turn carried from one class to
    the next, so parts stay within a row of their share and none is left empty needlessly."""
    fractions = np.asarray(fractions, dtype=float)
    if (fractions <= 0).any() or abs(fractions.sum() - 1) > 1e-9:
        raise ValueError("The parts' fractions must be positive and add up to 1.")
    rng = np.random.default_rng(seed)
    groups = _strata(data) if stratify else np.zeros(len(data.frame), dtype=int)
    parts: list[list[int]] = [[] for _ in fractions]
    turn = np.argsort(-fractions, kind="stable")  # leftover rows: largest parts first
    position = 0
    for group in np.unique(groups):
        rows = rng.permutation(np.flatnonzero(groups == group))
        sizes = np.floor(len(rows) * fractions + 1e-9).astype(int)
        for _ in range(len(rows) - sizes.sum()):
            sizes[turn[position % len(turn)]] += 1
            position += 1
        for part, chunk in zip(parts, np.split(rows, np.cumsum(sizes)[:-1])):
            part.extend(chunk.tolist())
    return [np.sort(np.asarray(part, dtype=int)) for part in parts]


def subset(data: Dataset, rows) -> Dataset:
    return Dataset(data.frame.iloc[rows].reset_index(drop=True), data.target, data.kinds)


def train_test_split(data: Dataset, test_size: float = 0.25, seed: int = 0, stratify: bool = True):
    """(train, test) Datasets, stratified by class and reproducible from `seed`."""
    return _split(data, {"training": 1 - test_size, "test": test_size}, seed, stratify)


def train_validation_test_split(data: Dataset, validation: float = 0.2, test: float = 0.2, seed: int = 0,
                                stratify: bool = True):
    """(train, validation, test) Datasets; with `test` = 0 the third is None."""
    if test == 0:
        return (*_split(data, {"training": 1 - validation, "validation": validation}, seed, stratify), None)
    return _split(data, {"training": 1 - validation - test, "validation": validation, "test": test}, seed, stratify)


def _split(data: Dataset, fractions: dict, seed: int, stratify: bool) -> tuple:
    """The parts named in `fractions`, or a DataError naming the part a table too small leaves empty."""
    parts = split_indices(data, list(fractions.values()), seed, stratify)
    for (name, fraction), rows in zip(fractions.items(), parts):
        if not len(rows):
            n = len(data.frame)
            raise DataError(f"A {name} part of {fraction:.0%} of {n} row{'' if n == 1 else 's'} holds no row: "
                            "the table is too small to split this way.")
    return tuple(subset(data, rows) for rows in parts)


def accuracy(tree, data: Dataset) -> float:
    """Fraction of rows whose class the tree predicts (regression: use `mean_squared_error`)."""
    if len(data.frame) == 0:
        return float("nan")
    return float(np.mean(tree.predict(data.frame) == labels_of(data.frame[data.target])))


def error(tree, data: Dataset) -> float:
    return 1.0 - accuracy(tree, data)


def mean_squared_error(tree, data: Dataset) -> float:
    y = pd.to_numeric(data.frame[data.target]).to_numpy(dtype=float)
    return float(np.mean((tree.predict(data.frame) - y) ** 2))


def confusion_matrix(tree, data: Dataset) -> pd.DataFrame:
    """Counts of (actual class, predicted class); rows actual, columns predicted."""
    actual = pd.Series(labels_of(data.frame[data.target]), index=data.frame.index)
    labels = list(tree.classes) + sorted(set(actual) - set(tree.classes))
    predicted = pd.Categorical(tree.predict(data.frame), categories=labels)
    table = pd.crosstab(pd.Categorical(actual, categories=labels), predicted, dropna=False)
    table.index.name, table.columns.name = "actual", "predicted"
    return table


@dataclass(frozen=True)
class CrossValidation:
    scores: tuple[float, ...]  # accuracy per fold (regression: MSE per fold)

    @property
    def mean(self) -> float:
        return float(np.mean(self.scores))

    @property
    def std(self) -> float:
        return float(np.std(self.scores, ddof=1)) if len(self.scores) > 1 else 0.0


def fold_indices(data: Dataset, k: int, seed: int = 0) -> list[np.ndarray]:
    """k stratified folds of row positions."""
    if len(data.frame) < 2:  # "from 2 to 1" would ask for the impossible
        raise ValueError(f"Cross-validation needs at least 2 rows; this table has {len(data.frame)}.")
    if not isinstance(k, int) or k < 2 or k > len(data.frame):
        raise ValueError(f"The number of folds must be a whole number from 2 to {len(data.frame)}.")
    return split_indices(data, [1 / k] * k, seed)


def class_codes(tree, frame: pd.DataFrame, target: str) -> np.ndarray:
    """Target labels as positions in `tree.classes` (-2 for a class the tree never saw)."""
    return codes_for(frame[target], tree.classes)
