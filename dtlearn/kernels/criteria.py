"""What each criterion scores, compiled: the helpers every scan calls, a criterion's exact form
(its impurity of class weights, for a node and for each branch of a multiway split) beside its
fast form (a cut's, from sums kept while walking sorted rows), as scikit-learn keeps a
criterion's exact and proxy improvements in one class. Written with the same operations in the
same order wherever they are used: a tie between cuts is decided on these numbers.

- information gain (Quinlan 1986): sum_b n_b/n Ent(b) = (sum_b n_b log2 n_b - sum_b sum_k c_bk log2 c_bk) / n;
- Gini gain (Breiman et al. 1984): sum_b n_b/n Gini(b) = (n - sum_b sum_k c_bk^2 / n_b) / n;
- gain ratio (Quinlan 1993): the gain over the split information, the entropy of the branches'
  weights with the unknown rows' as one more branch; C4.5 release 8 first subtracts
  log2(#cuts) / N from a cut's gain (Quinlan 1996);
- regression (Breiman et al. 1984, ch. 8): the decrease in squared error, sum_b S_b^2 / n_b - S^2 / n.

`measures.SplitStats` holds the definitions; `tests/test_engine.py` holds these equal to them.
"""

from __future__ import annotations

import math

import numpy as np

# what the scans rank by, each criterion's record's `kernel` (handed on to the scans from here)
from ..criteria import BY_GAIN, BY_GINI, BY_RATIO  # noqa: F401
from ..jit import njit


@njit(cache=True, inline="always")
def ratio(numerator, denominator):
    """numerator / denominator, 0 where the denominator is not positive (`measures.ratio`)."""
    return numerator / denominator if denominator > 0 else 0.0


@njit(cache=True, inline="always")
def gain(before, after, rho):
    """The impurity a split removes, times rho, the node's share of known weight (C4.5); never
    below 0 (by concavity it is not, but for rounding noise)."""
    return max(rho * (before - after), 0.0)


@njit(cache=True)
def impurity(counts, total, rank_by):
    """A set's impurity from its class weights, as the criterion measures it: Gini, or entropy."""
    return gini(counts, total) if rank_by == BY_GINI else entropy(counts, total)


# --- information gain -----------------------------------------------------------------------------

@njit(cache=True, inline="always")
def xlogx(x):
    return x * math.log2(x) if x > 0.0 else 0.0


def xlogx_table(n):
    """x log2 x for x = 0, 1, ..., n: looked up for whole-number class weights (the common case),
    the very same numbers `xlogx` computes."""
    table = np.empty(n + 1)
    _fill_xlogx(table)
    return table


@njit(cache=True)
def _fill_xlogx(table):
    """`xlogx_table`'s loop; its array says the work to `jit` (a call with no array was run
    interpreted while the process warms: 1 ms a fit at 10,000 rows)."""
    for x in range(table.shape[0]):
        table[x] = xlogx(float(x))


@njit(cache=True)
def entropy(counts, total):
    """Ent(D) = -sum_k p_k log2 p_k (0 for an empty set)."""
    h = 0.0
    for c in counts:
        if c > 0.0 and total > 0.0:
            p = c / total
            h -= p * math.log2(p)
    return h + 0.0


@njit(cache=True, inline="always")
def _xlogx_of(x, table, lookup):
    """x log2 x, looked up in `table` when x is a whole number there (`lookup`)."""
    return table[int(x)] if lookup else xlogx(x)


@njit(cache=True, inline="always")
def entropy_gain_of_cut(left, known, n_left, n_right, n_known, rho, before, table, lookup):
    """A cut's information gain: `left` the class weights left of it, `known` the node's known
    ones; x log2 x looked up in `table` when every weight is a whole number (`lookup`)."""
    inner = 0.0
    for c in range(known.shape[0]):
        inner += _xlogx_of(left[c], table, lookup) + _xlogx_of(known[c] - left[c], table, lookup)
    outer = _xlogx_of(n_left, table, lookup) + _xlogx_of(n_right, table, lookup)
    return gain(before, (outer - inner) / n_known, rho)


# --- Gini gain ------------------------------------------------------------------------------------

@njit(cache=True)
def gini(counts, total):
    """Gini(D) = 1 - sum_k p_k^2 (0 for an empty set)."""
    if total <= 0.0:
        return 0.0
    s = 0.0
    for c in counts:
        p = c / total
        s += p * p
    return 1.0 - s


@njit(cache=True, inline="always")
def sum_of_squares(weights):
    total = 0.0
    for c in range(weights.shape[0]):
        total += weights[c] * weights[c]
    return total


@njit(cache=True, inline="always")
def squares_of_cut(left, known):
    """The sums of squared class weights left and right of a cut."""
    squares_left = 0.0
    squares_right = 0.0
    for c in range(known.shape[0]):
        r = known[c] - left[c]
        squares_left += left[c] * left[c]
        squares_right += r * r
    return squares_left, squares_right


@njit(cache=True, inline="always")
def moved_left(left, known, c, squares_left, squares_right):
    """A row of class c, weight 1, crosses the cut: the sums of squared class counts move by
    exact integers, (l + 1)^2 = l^2 + 2l + 1 on the left and (r - 1)^2 = r^2 - 2r + 1 on the
    right. Returns the new sums; `left` is updated."""
    squares_left += 2.0 * left[c] + 1.0
    squares_right += 1.0 - 2.0 * (known[c] - left[c])
    left[c] += 1.0
    return squares_left, squares_right


@njit(cache=True, inline="always")
def gini_gain_of_cut(squares_left, squares_right, n_left, n_right, n_known, rho, before):
    """A cut's Gini gain from the sums of squared class weights on each side."""
    kept = ratio(squares_left, n_left) + ratio(squares_right, n_right)
    return gain(before, (n_known - kept) / n_known, rho)


# --- gain ratio -----------------------------------------------------------------------------------

@njit(cache=True, inline="always")
def split_info_of_cut(n_all, n_known, n_left):
    """A cut's split information: the entropy of its two sides' weights and the unknown weight."""
    return (xlogx(n_all) - xlogx(n_left) - xlogx(n_known - n_left) - xlogx(n_all - n_known)) / n_all


@njit(cache=True, inline="always")
def threshold_correction(n_cuts, n_total):
    """C4.5 release 8's log2(#cuts) / N, the cuts counted among those the split rules allow."""
    return math.log2(max(n_cuts, 1)) / n_total


# --- regression -----------------------------------------------------------------------------------

@njit(cache=True, inline="always")
def squared_error_gain_of_cut(s_left, n_left, s_right, n_right, base, n_known, rho):
    """A cut's decrease in mean squared error, rho * (sum_b S_b^2 / n_b - S^2 / n) / n, from the
    sums of weights n and of weighted targets S on each side (`base`: S^2 / n of the node)."""
    kept = ratio(s_left * s_left, n_left) + ratio(s_right * s_right, n_right)
    return rho * (max(kept - base, 0.0) / n_known)
