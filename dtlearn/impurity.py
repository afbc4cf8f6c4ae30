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
    """Ent(D) = -sum_k p_k log2 p_k (Quinlan 1986).

    >>> round(entropy([9, 5]), 4)
    0.9403
    """
    return float(entropy_of(_as_weights(weights)))


def gini(weights) -> float:
    """Gini(D) = 1 - sum_k p_k^2 (Breiman et al. 1984).

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


def sum_last(values: np.ndarray) -> np.ndarray:
    """values.sum(axis=-1), written as a few whole-array additions when the last axis is short
    (classes, branches): numpy reduces a short contiguous axis element by element, which is slow
    for millions of candidates. Same order of additions, same result."""
    values = np.asarray(values)
    if values.ndim == 0 or values.shape[-1] > 8 or values.shape[-1] == 0:
        return values.sum(axis=-1)
    total = values[..., 0].copy()
    for i in range(1, values.shape[-1]):
        total += values[..., i]
    return total


def max_last(values: np.ndarray) -> np.ndarray:
    """values.max(axis=-1, initial=0) for a short last axis (see `sum_last`)."""
    values = np.asarray(values)
    if values.shape[-1] > 8:
        return values.max(axis=-1, initial=0.0)
    top = np.zeros(values.shape[:-1])
    for i in range(values.shape[-1]):
        top = np.maximum(top, values[..., i])
    return top


def _proportions(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    total = sum_last(counts)
    safe = np.where(total > 0, total, 1.0)
    return counts / safe[..., None], total


def entropy_of(counts: np.ndarray) -> np.ndarray:
    p, _ = _proportions(counts)
    terms = np.log2(p, where=p > 0, out=np.zeros(p.shape))  # 0 log 0 = 0
    np.multiply(terms, p, out=terms)
    return 0.0 - sum_last(terms)  # 0.0 - x: no -0.0


def gini_of(counts: np.ndarray) -> np.ndarray:
    p, total = _proportions(counts)
    return np.where(total > 0, 1.0 - sum_last(p * p), 0.0)


def error_of(counts: np.ndarray) -> np.ndarray:
    p, total = _proportions(counts)
    return np.where(total > 0, 1.0 - max_last(p), 0.0)


IMPURITY = {"entropy": entropy_of, "gini": gini_of, "error": error_of}
