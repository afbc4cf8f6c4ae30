"""What the criteria score, compiled: x log2 x, the entropy and Gini of class weights, and a
cut's Gini or entropy after it from running sums (the package's docstring gives the formulas).
"""

from __future__ import annotations

import math

import numpy as np

from ..jit import njit


BY_GAIN, BY_GINI, BY_RATIO = 0, 1, 2  # what a criterion ranks by: information gain, Gini gain, gain ratio


@njit(cache=True, inline="always")
def _xlogx(x):
    return x * math.log2(x) if x > 0.0 else 0.0


@njit(cache=True)
def _entropy(counts, total):
    if total <= 0.0:
        return 0.0
    h = 0.0
    for c in counts:
        if c > 0.0:
            p = c / total
            h -= p * math.log2(p)
    return h + 0.0


@njit(cache=True)
def _gini(counts, total):
    if total <= 0.0:
        return 0.0
    s = 0.0
    for c in counts:
        p = c / total
        s += p * p
    return 1.0 - s


@njit(cache=True)
def xlogx_table(n):
    """x log2 x for x = 0, 1, ..., n: looked up for whole-number class weights (the common case),
    the very same numbers `_xlogx` computes."""
    table = np.empty(n + 1)
    for x in range(n + 1):
        table[x] = _xlogx(float(x))
    return table


@njit(cache=True, inline="always")
def _sum_of_squares(weights):
    total = 0.0
    for c in range(weights.shape[0]):
        total += weights[c] * weights[c]
    return total


@njit(cache=True, inline="always")
def _moved_left(left, known, c, squares_left, squares_right):
    """A row of class c, weight 1, crosses the cut: the sums of squared class counts move by
    exact integers, (l + 1)^2 = l^2 + 2l + 1 on the left and (r - 1)^2 = r^2 - 2r + 1 on the
    right. Returns the new sums; `left` is updated."""
    squares_left += 2.0 * left[c] + 1.0
    squares_right += 1.0 - 2.0 * (known[c] - left[c])
    left[c] += 1.0
    return squares_left, squares_right


@njit(cache=True, inline="always")
def _gini_rank(squares_left, squares_right, n_left, n_right, n_known, rho, before):
    """A cut's Gini gain from the sums of squared class weights on each side (module docstring)."""
    kept = (squares_left / n_left if n_left > 0 else 0.0) + (squares_right / n_right if n_right > 0 else 0.0)
    return max(rho * (before - (n_known - kept) / n_known), 0.0)


@njit(cache=True, inline="always")
def _looked_up_after(left, known, n_left, n_right, n_known, table):
    """sum_b n_b/n Ent(b) of a cut with whole class counts, x log2 x looked up (module docstring)."""
    inner = 0.0
    for c in range(known.shape[0]):
        inner += table[int(left[c])] + table[int(known[c] - left[c])]
    outer = table[int(n_left)] + table[int(n_right)]
    return (outer - inner) / n_known
