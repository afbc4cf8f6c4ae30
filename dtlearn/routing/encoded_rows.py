"""Rows in a flat tree's encoding (`EncodedRows`), side by side as `kernels.route` reads them.

New rows are encoded with the training encoding: a numeric attribute's cell that is not a
number is missing; a categorical value is matched by its label (`formatting.label`), so the
number 1 matches "1", and a value the tree never saw (another spelling, `True` for a column
trained on "TRUE") is unknown. The tree's missing-value rule then decides (`prediction`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .. import kernels
from ..encoding import MISSING, UNSEEN, codes_for
from .flat_tree import FlatTree


@dataclass(frozen=True, eq=False)
class EncodedRows:
    """Rows side by side in a flat tree's encoding: a row's values, and its codes into the tree's vocabulary."""

    values: np.ndarray  # (rows, attributes) float, NaN = missing (a row's values side by side)
    codes: np.ndarray  # (rows, attributes) int64: MISSING, UNSEEN or a code into the vocabulary
    n: int

    def has_unknown(self, flat: FlatTree) -> bool:
        """Whether any value a test reads is missing or never seen."""
        return bool(self.unknown(flat).any())

    def unknown(self, flat: FlatTree) -> np.ndarray:
        """(rows,) bool: the rows with a missing or never-seen value of an attribute the tree tests
        (such a row may be shared between branches or follow a surrogate)."""
        out = np.zeros(self.n, dtype=bool)
        for i, numeric in enumerate(flat.numeric):
            if numeric:
                out |= np.isnan(self.values[:, i])
            if flat.vocabulary[i]:
                out |= self.codes[:, i] < 0
        return out

    def subset(self, which: np.ndarray) -> "EncodedRows":
        return EncodedRows(self.values[which], self.codes[which], int(np.count_nonzero(which)))

    def kernel_rows(self, weights=None) -> kernels.Rows:
        """The rows as `kernels.route` takes them, each of weight 1 unless `weights` says."""
        return kernels.Rows(self.values, self.codes, np.ones(self.n) if weights is None else weights)


def encode_rows(flat: FlatTree, frame: pd.DataFrame) -> EncodedRows:
    """New rows in the tree's encoding (see the module docstring)."""
    n = len(frame)
    values = np.full((n, len(flat.attributes)), np.nan)
    codes = np.full((n, len(flat.attributes)), MISSING, dtype=np.int64)
    for i, attribute in enumerate(flat.attributes):
        if attribute not in frame.columns:
            raise ValueError(f"The rows to predict have no column '{attribute}', which the tree tests.")
        column = frame[attribute]
        if flat.numeric[i]:
            values[:, i] = pd.to_numeric(column, errors="coerce").to_numpy(dtype=float, na_value=np.nan)
        if flat.vocabulary[i]:
            codes[:, i] = codes_for(column, flat.vocabulary[i])
    return EncodedRows(values, codes, n)


def encode_training(flat: FlatTree, encoded) -> EncodedRows:
    """The training rows (`encoding.Encoded`) in `flat`'s encoding, read as `branches` reads
    them: a category the tree's tests never mention is unseen (a subset test's second branch)."""
    n = encoded.n_rows
    values = np.full((n, len(flat.attributes)), np.nan)
    codes = np.full((n, len(flat.attributes)), MISSING, dtype=np.int64)
    for i, attribute in enumerate(flat.attributes):
        if flat.numeric[i]:
            values[:, i] = encoded.numeric(attribute)
        if flat.vocabulary[i]:
            where = {word: j for j, word in enumerate(flat.vocabulary[i])}
            lookup = [where.get(c, UNSEEN) for c in encoded.categories(attribute)]
            codes[:, i] = np.array(lookup + [MISSING], dtype=np.int64)[encoded.codes(attribute)]
    return EncodedRows(values, codes, n)
