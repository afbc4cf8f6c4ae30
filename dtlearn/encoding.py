"""A dataset turned into numpy arrays once, so that induction never touches pandas per node.

Categorical values become integer codes into an ordered tuple of labels (-1 = missing);
numeric values stay floats (NaN = missing); classes become codes into `classes`.
"""

from __future__ import annotations

import threading
import weakref
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import pandas as pd

from . import budget
from .data import Dataset, DataError
from .formatting import distinct_runs, labels, ordered_labels

MISSING, UNSEEN = -1, -2


def codes_for(column: pd.Series, categories: tuple[str, ...]) -> np.ndarray:
    """Positions of a column's values in `categories`: MISSING (-1) or UNSEEN (-2) otherwise.

    Labels are computed once per distinct value, not per row.
    """
    codes, uniques = pd.factorize(column, use_na_sentinel=True)
    lookup = {name: i for i, name in enumerate(categories)}
    mapping = np.array([lookup.get(name, UNSEEN) for name in labels(uniques)] + [MISSING], dtype=np.int64)
    return mapping[codes]  # codes == -1 picks the trailing MISSING


SQUARES_UP_TO = 1e300  # sums of squared targets kept this far below the largest float (1.8e308)


def _check_squares(y: np.ndarray, target: str) -> None:
    """Refuse a regression target whose sums of squares (the squared error of every node)
    would pass the largest float: 1e308 squared is inf, and each impurity and score would be
    inf or nan."""
    largest = float(np.abs(y).max()) if len(y) else 0.0
    if largest * largest * len(y) > SQUARES_UP_TO:
        shift = max(int(np.floor(np.log10(largest))) - 6, 1)
        raise DataError(f"The target '{target}' reaches {largest:.3g}: its squared errors would pass the "
                        f"largest number a float holds (about 1.8e308). Divide it by 1e{shift} and fit again.")


@dataclass(frozen=True, eq=False)
class Encoded:
    """Arrays for induction: numeric attributes as floats, categorical ones as codes, and the
    target as class codes (classification) or floats (regression).

    Split measures never see rows, only per-row *channels* summed over sets of rows:
    classification: one channel per class, w * factor[class] (factor from class priors or
    class weights, 1 by default), plus the plain case weight w when the factors differ from 1;
    regression: the moments (w, w y, w y^2).
    """

    data: Dataset
    task: str = "classification"
    class_factor: tuple | None = None  # multiplier per class; None: all 1
    classes: tuple[str, ...] = field(init=False)
    y: np.ndarray = field(init=False)  # class codes, or target values for regression

    def __post_init__(self) -> None:
        frame, target = self.data.frame, self.data.target
        if self.task == "regression":
            values = pd.to_numeric(frame[target], errors="coerce")
            if values.isna().any():
                raise DataError(f"A regression tree needs a numeric target; '{target}' holds text.")
            y = values.to_numpy(dtype=float)
            _check_squares(y, target)
            object.__setattr__(self, "classes", ())
            object.__setattr__(self, "y", y)
        else:
            classes = ordered_labels(frame[target])
            object.__setattr__(self, "classes", classes)
            object.__setattr__(self, "y", codes_for(frame[target], classes))

    @property
    def is_regression(self) -> bool:
        return self.task == "regression"

    @property
    def n_class_channels(self) -> int:
        return 3 if self.is_regression else len(self.classes)

    @property
    def sized(self) -> bool:
        """Whether a separate case-weight channel follows the class channels."""
        return self.class_factor is not None and not self.is_regression

    def channels(self, rows: np.ndarray, weights: np.ndarray) -> np.ndarray:
        """(channels, rows) values whose sums over a set of rows are its statistics."""
        width = 3 if self.is_regression else len(self.classes) + self.sized
        budget.check_bytes(17 * width * len(rows), f"The class weights of {len(rows):,} rows x {width:,} classes",
                           "Choose a target with fewer classes, or use fewer rows")  # a bool and a float a cell
        y = self.y[rows]
        if self.is_regression:
            return np.stack([weights, weights * y, weights * y * y])
        k = len(self.classes)
        factor = np.ones(k) if self.class_factor is None else np.asarray(self.class_factor)
        onehot = (y[None, :] == np.arange(k)[:, None]) * (weights * factor[y])[None, :]
        return np.vstack([onehot, weights[None, :]]) if self.sized else onehot

    def class_weights(self, rows: np.ndarray, weights: np.ndarray) -> np.ndarray:
        """Plain (case-weighted) class counts of a set of rows."""
        return np.bincount(self.y[rows], weights=weights, minlength=len(self.classes)).astype(float)

    @cached_property
    def attributes(self) -> tuple[str, ...]:
        return self.data.attributes

    @property
    def n_rows(self) -> int:
        return len(self.data.frame)

    @cached_property
    def numeric_attributes(self) -> tuple[str, ...]:
        return tuple(a for a in self.attributes if self.data.kinds[a] == "numeric")

    def kind(self, attribute: str) -> str:
        return self.data.kinds[attribute]

    def numeric(self, attribute: str) -> np.ndarray:
        """A numeric attribute's values (NaN: missing): the frame's own column, not a copy."""
        return self._numeric[attribute]

    @cached_property
    def _numeric(self) -> dict:
        return {a: self.data.frame[a].to_numpy(dtype=float, na_value=np.nan) for a in self.numeric_attributes}

    def categories(self, attribute: str) -> tuple[str, ...]:
        return self._categorical[attribute][1]

    def codes(self, attribute: str) -> np.ndarray:
        """Codes of any attribute; a numeric one is coded by its distinct values (ID3's view)."""
        return self._categorical[attribute][0]

    @cached_property
    def _categorical(self) -> dict:
        return _LazyCodes(self.data.frame, shared_codes(self.data))

    @cached_property
    def complete(self) -> bool:
        """No attribute value is missing: every row goes down one branch of every test it meets,
        with its whole weight (growth records each row's leaf; pruning re-sorts rows without
        sharing them)."""
        return not any(np.isnan(self.numeric(a)).any() if self.kind(a) == "numeric" else (self.codes(a) < 0).any()
                       for a in self.attributes)

    @cached_property
    def factor(self) -> np.ndarray:
        """Per-class multipliers (all 1 without priors or class weights)."""
        if self.is_regression:
            return np.ones(0)
        k = len(self.classes)
        return np.ones(k) if self.class_factor is None else np.asarray(self.class_factor, dtype=float)


class _LazyCodes(dict):
    """Codes per attribute, made on first use (most numeric attributes never need them); those of
    `shared`'s attributes taken from it."""

    def __init__(self, frame: pd.DataFrame, shared: dict | None = None) -> None:
        super().__init__()
        self._frame = frame
        self._shared = shared

    def __missing__(self, attribute: str):
        if self._shared is not None and attribute in self._shared.kinds:
            self[attribute] = self._shared[attribute]
        else:
            self[attribute] = categories_and_codes(self._frame[attribute])
        return self[attribute]


class _SharedCodes(dict):
    """A Dataset's categorical attributes' codes, made once for all its fits: read-only, so that no
    fit can change another's."""

    def __init__(self, data: Dataset) -> None:
        super().__init__()
        self._frame = data.frame
        self.kinds = {a for a, kind in data.kinds.items() if kind == "categorical"}

    def __missing__(self, attribute: str):
        codes, categories = categories_and_codes(self._frame[attribute])
        codes.setflags(write=False)
        return self.setdefault(attribute, (codes, categories))


# Dataset -> its _SharedCodes, freed with it. A Dataset does not change (frozen, its frame its own
# copy), so its codes hold for every fit of it: the app keeps one Dataset per table and fits it
# again for every algorithm and setting. Only categorical attributes are shared: their codes take
# no more room than the frame's own column, where a number's labels (ID3 on a numeric column)
# would hold a string per distinct value for as long as the table lives.
_SHARED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_SHARED_LOCK = threading.Lock()


def shared_codes(data: Dataset) -> _SharedCodes:
    """The codes of `data`'s categorical attributes, made once per Dataset object."""
    with _SHARED_LOCK:
        shared = _SHARED.get(data)
        if shared is None:
            shared = _SHARED[data] = _SharedCodes(data)
    return shared


def categories_and_codes(column: pd.Series) -> tuple[np.ndarray, tuple[str, ...]]:
    """(codes_for(column, categories), categories) with categories = ordered_labels(column), each
    distinct float labelled once (ID3 on a 1,000,000-row column of numbers labelled its million
    values twice: for the order, then for the codes)."""
    if not (isinstance(column.dtype, np.dtype) and column.dtype.kind == "f"):
        categories = ordered_labels(column)
        return codes_for(column, categories), categories
    codes, uniques = pd.factorize(column, use_na_sentinel=True)
    values = np.asarray(uniques, dtype=float)
    order = np.argsort(values, kind="stable")
    categories, position = distinct_runs(labels(values[order]))  # as ordered_labels: by value
    mapping = np.empty(len(values) + 1, dtype=np.int64)
    mapping[order], mapping[-1] = position, MISSING
    return mapping[codes], categories
