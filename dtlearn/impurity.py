"""Impurity of a vector of class weights: entropy, Gini, misclassification error.

Each public function takes class counts or weights (floats allowed). The `*_of` forms
work on the last axis of an array so that every candidate split is scored at once.
Conventions: base-2 logarithms, 0 log 0 = 0, and an empty set (total 0) has impurity 0.
"""

from __future__ import annotations

import numpy as np


def _as_weights(weights) -> np.ndarray:
    array = np.asarray(weights, dtype=float)
    if array.ndim != 1:
        raise ValueError("Give the class weights as a flat list of numbers.")
    if (array < 0).any() or not np.isfinite(array).all():
        raise ValueError("Class weights must be finite and not negative.")
    return array


def entropy(weights) -> float:
    """Ent(D) = -sum_k p_k log2 p_k (Quinlan 1986; seed 000 eq. 1).

    >>> round(entropy([9, 5]), 4)
    0.9403
    """
    return float(entropy_of(_as_weights(weights)))


def gini(weights) -> float:
    """Gini(D) = 1 - sum_k p_k^2 (Breiman et al. 1984; seed 000 eq. 5).

    >>> round(gini([9, 5]), 4)
    0.4592
    """
    return float(gini_of(_as_weights(weights)))


def misclassification(weights) -> float:
    """Error(D) = 1 - max_k p_k: the fraction a majority leaf gets wrong.

    >>> round(misclassification([9, 5]), 4)
    0.3571
    """
    return float(error_of(_as_weights(weights)))


def _proportions(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    total = counts.sum(axis=-1)
    safe = np.where(total > 0, total, 1.0)
    return counts / safe[..., None], total


def entropy_of(counts: np.ndarray) -> np.ndarray:
    p, _ = _proportions(counts)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(p > 0, -p * np.log2(np.where(p > 0, p, 1.0)), 0.0)
    return terms.sum(axis=-1) + 0.0  # + 0.0 turns -0.0 into 0.0


def gini_of(counts: np.ndarray) -> np.ndarray:
    p, total = _proportions(counts)
    return np.where(total > 0, 1.0 - (p * p).sum(axis=-1), 0.0)


def error_of(counts: np.ndarray) -> np.ndarray:
    p, total = _proportions(counts)
    return np.where(total > 0, 1.0 - p.max(axis=-1, initial=0.0), 0.0)


IMPURITY = {"entropy": entropy_of, "gini": gini_of, "error": error_of}
