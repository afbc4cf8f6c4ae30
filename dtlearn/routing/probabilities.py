"""The class a distribution predicts: the most probable, a tie (within rounding) to the first."""

from __future__ import annotations

import numpy as np

TIED = 1e-9  # class shares this close (relative) to the largest are a tie: sums over branches round differently


def tied(distributions: np.ndarray) -> np.ndarray:
    """Which classes share the largest probability, along the last axis. A row shared between
    branches sums its leaves' shares in one order or another; rounding must not break a tie."""
    d = np.asarray(distributions, dtype=float)
    best = d.max(axis=-1, keepdims=True)
    return d >= best - TIED * np.maximum(np.abs(best), 1.0)


def most_probable(distributions: np.ndarray) -> np.ndarray:
    """The index of the most probable class along the last axis; a tie: the first class.

    >>> shares = np.array([[0.3, 0.1 + 0.2]])  # 0.3 and 0.30000000000000004: a tie in arithmetic
    >>> most_probable(shares).tolist(), np.argmax(shares, axis=-1).tolist()
    ([0], [1])
    """
    return np.argmax(tied(distributions), axis=-1)
