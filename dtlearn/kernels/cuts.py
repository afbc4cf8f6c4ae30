"""One numeric attribute's cuts at one node: each cut's rank (-inf where it breaks a split rule),
the weight left of it and its place. One loop for any weights, two for the commonest cases
(every weight 1: Gini, information gain), and regression's; each scores a cut with its
criterion's helper (`criteria`) and checks it with the same split rules.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .. import rules
from ..jit import njit
from ..rules import NO_KNOWN, OK, ONE_BRANCH, SIZE_TOLERANCE, SMALL_LEAF, SMALL_SIDE
from .criteria import (BY_GINI, entropy_gain_of_cut, gini_gain_of_cut, moved_left, ratio, squared_error_gain_of_cut,
                       squares_of_cut, sum_of_squares)

NONE_BROKEN = 99  # the most basic split rule the cuts scanned so far break: none yet
_j48_min_split = njit(cache=True)(rules.j48_min_split)  # the rule itself, compiled


class Known(NamedTuple):
    """An attribute's known part of a node: its rows whose value is known."""

    counts: np.ndarray  # (k,) their class weights
    n: float  # the sum of `counts`
    size: float  # their case weight, as the size rules read it
    rho: float  # their share of the node's weight
    before: float  # their impurity


class Scratch(NamedTuple):
    """A scan's working arrays, made once a level, as long as its longest node where per cut."""

    left: np.ndarray  # (k,) the class weights left of the cut
    rank: np.ndarray  # each cut's rank (-inf: it breaks a split rule)
    left_mass: np.ndarray  # the weight left of each cut
    cut_at: np.ndarray  # each cut's place in the sorted segment
    gains: np.ndarray  # each cut's gain, where the 1993 book's C4.5 ranks by gain ratio (else empty)
    squares_left_at: np.ndarray  # each cut's sums of squares, for `_gini_whole_cuts` (else empty)
    squares_right_at: np.ndarray


@njit(cache=True, inline="always")
def _rule(size_left, size_right, rules_of_cut):
    """The split rules of `splits.split_limits` for one cut: OK or the first rule it breaks
    (written out: a Python call per cut is slow; inlined into the scans). `rules_of_cut`:
    (min_leaf, min_branch, n_classes), numbers alone (`_cut_rules`)."""
    min_leaf, min_branch, n_classes = rules_of_cut
    reason = _leaf_rule(size_left, size_right, min_leaf)
    if reason == OK and min_branch > 0 and min(size_left, size_right) < \
            _j48_min_split(size_left + size_right, min_branch, n_classes) - SIZE_TOLERANCE:
        return SMALL_SIDE
    return reason


@njit(cache=True, inline="always")
def _leaf_rule(size_left, size_right, min_leaf):
    """`_rule` without J48's minimum (regression's cuts): a loop that calls no function runs in
    vector instructions."""
    if size_left <= 0 or size_right <= 0:
        return NO_KNOWN if size_left + size_right <= 0 else ONE_BRANCH
    if min_leaf > 0 and min(size_left, size_right) < min_leaf - SIZE_TOLERANCE:
        return SMALL_LEAF
    return OK


@njit(cache=True, inline="always")
def _cut_rules(scoring):
    """The numbers `_rule` reads, taken out of `scoring` once a scan: a structure holding arrays,
    handed to a helper inlined in a loop, costs the loop a reference count per call."""
    return scoring.min_leaf, scoring.min_branch, scoring.n_classes


@njit(cache=True, inline="always")
def _cut_before(p, s, previous, x, tolerance):
    """Whether a cut lies before place p of a segment starting at s: the value rises there by
    more than `tolerance` from the previous place's."""
    return p > s and previous + tolerance < x


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
def _gini_whole_cuts(va, oa, cls, s, end, part, scoring, scratch):
    """`_scan_cuts` for its commonest case, Gini with whole class weights (every weight 1, no
    class weight; a cut's sizes are its counts): the same numbers, computed the same way, in a
    loop with no other case in it. Two passes: the first walks the rows and keeps each cut's
    sums of squares; the second ranks the cuts, which depend on each other no more, so the
    compiler ranks several at once in vector instructions."""
    tolerance, cut_rules = scoring.tolerance, _cut_rules(scoring)
    known, n_known, rho, before = part.counts, part.n, part.rho, part.before
    left, rank, left_mass, cut_at = scratch.left, scratch.rank, scratch.left_mass, scratch.cut_at
    squares_left_at, squares_right_at = scratch.squares_left_at, scratch.squares_right_at
    left[:] = 0.0
    n_left, count = 0.0, 0
    squares_left, squares_right = 0.0, sum_of_squares(known)
    previous = va[s]
    for p in range(s, end):
        x = va[p]
        if _cut_before(p, s, previous, x, tolerance):
            squares_left_at[count], squares_right_at[count] = squares_left, squares_right
            left_mass[count], cut_at[count] = n_left, p
            count += 1
        squares_left, squares_right = moved_left(left, known, cls[oa[p]], squares_left, squares_right)
        n_left += 1.0
        previous = x
    worst = NONE_BROKEN
    for k in range(count):
        n_left = left_mass[k]
        n_right = n_known - n_left
        reason = _rule(n_left, n_right, cut_rules)
        value = gini_gain_of_cut(squares_left_at[k], squares_right_at[k], n_left, n_right, n_known, rho, before)
        rank[k] = _ranked(value, reason)
        worst = _worse(worst, reason)
    return count, worst


@njit(cache=True, nogil=True)
def _entropy_whole_cuts(va, oa, cls, s, end, part, scoring, scratch):
    """`_scan_cuts` for information gain (and gain ratio, which ranks by it) with whole class
    weights: the same numbers, computed the same way, in a loop with no other case in it."""
    tolerance, cut_rules = scoring.tolerance, _cut_rules(scoring)
    known, n_known, rho, before = part.counts, part.n, part.rho, part.before
    left, rank, left_mass, cut_at = scratch.left, scratch.rank, scratch.left_mass, scratch.cut_at
    table = scoring.table
    left[:] = 0.0
    n_left, count, worst = 0.0, 0, NONE_BROKEN
    previous = va[s]
    for p in range(s, end):
        x = va[p]
        if _cut_before(p, s, previous, x, tolerance):
            n_right = n_known - n_left
            value = entropy_gain_of_cut(left, known, n_left, n_right, n_known, rho, before, table, True)
            worst = _keep_cut(rank, left_mass, cut_at, count, p, n_left, worst, value,
                              _rule(n_left, n_right, cut_rules))
            count += 1
        left[cls[oa[p]]] += 1.0
        n_left += 1.0
        previous = x
    return count, worst


@njit(cache=True, nogil=True)
def _scan_cuts(va, oa, cls, w, s, end, part, unit, whole, lookup, scoring, scratch):
    """Every cut of one attribute (values `va` in the order `oa`) at one node: each one's rank,
    the weight left of it and its place. Returns (count, the most basic rule broken). A function
    of its own, not a loop inside `scan_thresholds`: with fewer numbers alive the compiler keeps
    them in registers. `unit`: every weight is 1; `whole`: every class weight a whole number;
    `lookup`: x log2 x read from the table."""
    tolerance, cut_rules = scoring.tolerance, _cut_rules(scoring)
    known, n_known, sizes_known, rho, before = part.counts, part.n, part.size, part.rho, part.before
    left, rank, left_mass, cut_at = scratch.left, scratch.rank, scratch.left_mass, scratch.cut_at
    table, factor, rank_by, sized = scoring.table, scoring.factor, scoring.rank_by, scoring.sized
    left[:] = 0.0
    left_size, n_left, count, worst = 0.0, 0.0, 0, NONE_BROKEN
    # whole weights: the sums of squared class counts move row by row (`moved_left`)
    squares_left, squares_right = 0.0, sum_of_squares(known)
    previous = va[s]
    for p in range(s, end):
        x = va[p]
        if _cut_before(p, s, previous, x, tolerance):
            n_right = n_known - n_left
            size_left = left_size if sized else n_left
            if rank_by != BY_GINI:
                value = entropy_gain_of_cut(left, known, n_left, n_right, n_known, rho, before, table, lookup)
            else:
                if not whole:
                    squares_left, squares_right = squares_of_cut(left, known)
                value = gini_gain_of_cut(squares_left, squares_right, n_left, n_right, n_known, rho, before)
            worst = _keep_cut(rank, left_mass, cut_at, count, p, n_left, worst, value,
                              _rule(size_left, sizes_known - size_left, cut_rules))
            count += 1
        c = cls[oa[p]]
        if whole:
            squares_left, squares_right = moved_left(left, known, c, squares_left, squares_right)
            n_left += 1.0
            left_size += 1.0
        else:
            weight = 1.0 if unit else w[oa[p]]
            left[c] += weight * factor[c]
            n_left += weight * factor[c]
            left_size += weight
        previous = x
    return count, worst


@njit(cache=True, nogil=True, inline="always")
def _regression_cuts(va, oa, ypos, w, s, end, n_known, s_known, rho, unit, scoring, scratch):
    """Every cut of one attribute at one node (regression): each one's decrease in mean squared
    error from the moments (w, w y) on each side, the weight left of it and its place."""
    tolerance, cut_rules = scoring.tolerance, _cut_rules(scoring)
    rank, left_mass, cut_at = scratch.rank, scratch.left_mass, scratch.cut_at
    base = ratio(s_known * s_known, n_known)
    n_left, s_left, count, worst = 0.0, 0.0, 0, NONE_BROKEN
    previous = va[s]
    for p in range(s, end):
        x = va[p]
        if _cut_before(p, s, previous, x, tolerance):
            n_right = n_known - n_left
            value = squared_error_gain_of_cut(s_left, n_left, s_known - s_left, n_right, base, n_known, rho)
            worst = _keep_cut(rank, left_mass, cut_at, count, p, n_left, worst, value,
                              _rule(n_left, n_right, cut_rules))
            count += 1
        weight = 1.0 if unit else w[oa[p]]
        n_left += weight
        s_left += weight * ypos[oa[p]]
        previous = x
    return count, worst


@njit(cache=True, inline="always")
def _regression_unit_cuts(vals, order, a, ypos, s, end, n_known, s_known, rho, tolerance, min_leaf, rank, left_mass,
                          cut_at, sums_left_at):
    """`_regression_cuts` of attribute a when every weight is 1: the same numbers, computed the
    same way, in two passes as `_gini_whole_cuts` (the cuts' divisions, independent of each
    other, then run several at once in vector instructions). Arrays alone as arguments, and
    inlined: a structure's arrays, or a call, cost reference counts at every node and attribute,
    more than a small node's cuts."""
    base = ratio(s_known * s_known, n_known)
    n_left, s_left, count = 0.0, 0.0, 0
    previous = vals[a, s]
    for p in range(s, end):
        x = vals[a, p]
        if _cut_before(p, s, previous, x, tolerance):
            sums_left_at[count], left_mass[count], cut_at[count] = s_left, n_left, p
            count += 1
        n_left += 1.0
        s_left += ypos[order[a, p]]
        previous = x
    worst = NONE_BROKEN
    for k in range(count):
        n_left, s_left = left_mass[k], sums_left_at[k]
        n_right = n_known - n_left
        reason = _leaf_rule(n_left, n_right, min_leaf)
        value = squared_error_gain_of_cut(s_left, n_left, s_known - s_left, n_right, base, n_known, rho)
        rank[k] = _ranked(value, reason)
        worst = _worse(worst, reason)
    return count, worst
