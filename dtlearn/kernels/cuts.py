"""One numeric attribute's cuts at one node: each cut's rank (-inf where it breaks a split rule),
the weight left of it and its place, by a general loop and two loops for its commonest cases.
"""

from __future__ import annotations

import math

import numpy as np

from .. import rules
from ..jit import njit
from ..rules import NO_KNOWN, OK, ONE_BRANCH, SIZE_TOLERANCE, SMALL_LEAF, SMALL_SIDE
from .criteria import BY_GINI, _gini_rank, _looked_up_after, _moved_left, _sum_of_squares


_j48_min_split = njit(cache=True)(rules.j48_min_split)  # the rule itself, compiled


@njit(cache=True, inline="always")
def _rule(size_left, size_right, min_leaf, min_branch, n_classes):
    """The split rules of `splits.split_limits` for one cut: OK or the first rule it breaks
    (written out: a Python call per cut is slow; inlined into the scans)."""
    if size_left <= 0 or size_right <= 0:
        return NO_KNOWN if size_left + size_right <= 0 else ONE_BRANCH
    if min_leaf > 0 and min(size_left, size_right) < min_leaf - SIZE_TOLERANCE:
        return SMALL_LEAF
    if min_branch > 0 and min(size_left, size_right) < \
            _j48_min_split(size_left + size_right, min_branch, n_classes) - SIZE_TOLERANCE:
        return SMALL_SIDE
    return OK


@njit(cache=True, inline="always")
def _ranked(value, reason):
    """A cut's rank: its value, or -inf when it breaks split rule `reason`."""
    return value if reason == OK else -np.inf


@njit(cache=True, inline="always")
def _worse(worst, reason):
    """The most basic split rule broken so far, after a cut that breaks `reason` (or none)."""
    return worst if reason == OK else min(worst, reason)


@njit(cache=True, inline="always")
def _keep_cut(rank, left_mass, cut_at, count, p, n_left, worst, value, reason):
    """Cut number `count` (at place p, n_left to its left) kept for `_settle`: its rank, or -inf
    when it breaks split rule `reason`. Returns the most basic rule broken so far."""
    rank[count] = _ranked(value, reason)
    left_mass[count] = n_left
    cut_at[count] = p
    return _worse(worst, reason)


@njit(cache=True, nogil=True)
def _gini_whole_cuts(va, oa, cls, s, end, known, n_known, rho, before, tolerance, min_leaf, min_branch, n_classes,
                     left, rank, left_mass, cut_at, squares_left_at, squares_right_at):
    """`_scan_cuts` for its commonest case, Gini with whole class weights (every weight 1, no
    class weight; a cut's sizes are its counts): the same numbers, computed the same way, in a
    loop with no other case in it. Two passes: the first walks the rows and keeps each cut's
    sums of squares; the second ranks the cuts, which depend on each other no more, so the
    compiler ranks several at once in vector instructions (a third less time a cut)."""
    left[:] = 0.0
    n_left = 0.0
    count = 0
    squares_left = 0.0
    squares_right = _sum_of_squares(known)
    previous = va[s]
    for p in range(s, end):
        x = va[p]
        if p > s and previous + tolerance < x:
            squares_left_at[count] = squares_left
            squares_right_at[count] = squares_right
            left_mass[count] = n_left
            cut_at[count] = p
            count += 1
        squares_left, squares_right = _moved_left(left, known, cls[oa[p]], squares_left, squares_right)
        n_left += 1.0
        previous = x
    worst = 99
    for k in range(count):
        n_left = left_mass[k]
        n_right = n_known - n_left
        reason = _rule(n_left, n_right, min_leaf, min_branch, n_classes)
        rank[k] = _ranked(_gini_rank(squares_left_at[k], squares_right_at[k], n_left, n_right, n_known, rho, before),
                          reason)
        worst = _worse(worst, reason)
    return count, worst


@njit(cache=True, nogil=True)
def _entropy_whole_cuts(va, oa, cls, s, end, known, n_known, rho, before, tolerance, min_leaf, min_branch,
                        n_classes, table, left, rank, left_mass, cut_at):
    """`_scan_cuts` for information gain (and gain ratio, which ranks by it) with whole class
    weights: the same numbers, computed the same way, in a loop with no other case in it."""
    left[:] = 0.0
    n_left = 0.0
    count = 0
    worst = 99
    previous = va[s]
    for p in range(s, end):
        x = va[p]
        if p > s and previous + tolerance < x:
            n_right = n_known - n_left
            worst = _keep_cut(rank, left_mass, cut_at, count, p, n_left, worst,
                              max(rho * (before - _looked_up_after(left, known, n_left, n_right, n_known, table)), 0.0),
                              _rule(n_left, n_right, min_leaf, min_branch, n_classes))
            count += 1
        left[cls[oa[p]]] += 1.0
        n_left += 1.0
        previous = x
    return count, worst


@njit(cache=True, nogil=True)
def _scan_cuts(va, oa, cls, w, s, end, known, n_known, sizes_known, rho, before, unit, whole, sized, lookup, table,
               factor, rank_by, tolerance, min_leaf, min_branch, n_classes, left, rank, left_mass, cut_at):
    """Every cut of one attribute (values `va` in the order `oa`) at one node: each one's rank,
    the weight left of it and its place. Returns (count, the most basic rule broken). A function
    of its own, not a loop inside `scan_thresholds`: with fewer numbers alive the compiler keeps
    them in registers."""
    K = known.shape[0]
    left[:] = 0.0
    left_size = 0.0
    n_left = 0.0
    count = 0
    worst = 99
    # whole weights: the sums of squared class counts move row by row (`_moved_left`)
    squares_left = 0.0
    squares_right = _sum_of_squares(known)
    previous = va[s]
    for p in range(s, end):
        x = va[p]
        if p > s and previous + tolerance < x:
            n_right = n_known - n_left
            size_left = left_size if sized else n_left
            size_right = sizes_known - size_left
            if rank_by == BY_GINI:
                if not whole:
                    squares_left = 0.0
                    squares_right = 0.0
                    for c in range(K):
                        r = known[c] - left[c]
                        squares_left += left[c] * left[c]
                        squares_right += r * r
                value = _gini_rank(squares_left, squares_right, n_left, n_right, n_known, rho, before)
            else:
                if lookup:  # whole counts: x log2 x looked up
                    after = _looked_up_after(left, known, n_left, n_right, n_known, table)
                else:
                    inner = 0.0
                    for c in range(K):
                        lc = left[c]
                        rc = known[c] - lc
                        inner += (lc * math.log2(lc) if lc > 0.0 else 0.0) + \
                            (rc * math.log2(rc) if rc > 0.0 else 0.0)
                    outer = (n_left * math.log2(n_left) if n_left > 0.0 else 0.0) + \
                        (n_right * math.log2(n_right) if n_right > 0.0 else 0.0)
                    after = (outer - inner) / n_known
                value = max(rho * (before - after), 0.0)
            worst = _keep_cut(rank, left_mass, cut_at, count, p, n_left, worst, value,
                              _rule(size_left, size_right, min_leaf, min_branch, n_classes))
            count += 1
        q = oa[p]
        c = cls[q]
        if whole:
            squares_left, squares_right = _moved_left(left, known, c, squares_left, squares_right)
            n_left += 1.0
            left_size += 1.0
        else:
            weight = 1.0 if unit else w[q]
            left[c] += weight * factor[c]
            n_left += weight * factor[c]
            left_size += weight
        previous = x
    return count, worst
