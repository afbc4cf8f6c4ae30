"""Every cut of every numeric attribute at every active node of a level, and each attribute's
competing cut (classification, and regression's decrease in squared error).
"""

from __future__ import annotations

import math

import numpy as np

from ..jit import njit
from ..rules import AVERAGE_TOLERANCE, NO_CORRECTED_GAIN, NO_KNOWN, OK, ONE_BRANCH, TIE
from .criteria import BY_GINI, BY_RATIO, impurity, ratio, split_info_of_cut, threshold_correction
from .cuts import (NONE_BROKEN, Known, Scratch, _entropy_whole_cuts, _gini_whole_cuts, _regression_cuts,
                   _regression_unit_cuts, _scan_cuts)


@njit(cache=True, nogil=True)
def scan_thresholds(level, active, unit, scoring, found):
    """Every cut of every numeric attribute at every active node of `level` (classification):
    each attribute's competing cut into `found` (`layout.Found`), scored and ruled by `scoring`.

    Only the measure that ranks is computed per cut (split information for the best cut alone;
    `by_ratio`, the 1993 book's C4.5, for the cuts of at least average gain: `_by_ratio`).
    `unit`: every weight is 1 (w is not read)."""
    starts, ends, w, cls, order, vals = level.starts, level.ends, level.w, level.cls, level.order, level.vals
    factor, rank_by, sized = scoring.factor, scoring.rank_by, scoring.sized
    K = factor.shape[0]
    A = order.shape[0]
    longest = 1
    for i in range(starts.shape[0]):
        longest = max(longest, ends[i] - starts[i])
    whole_factor = True
    for c in range(K):
        if factor[c] != 1.0:
            whole_factor = False
    # `_gini_whole_cuts`' first pass keeps each cut's sums of squares (only when it runs)
    gini_whole = rank_by == BY_GINI and whole_factor and unit and not sized
    scratch = Scratch(np.zeros(K), np.empty(longest), np.empty(longest), np.empty(longest, dtype=np.int64),
                      np.empty(longest if scoring.by_ratio else 0), np.empty(longest if gini_whole else 0),
                      np.empty(longest if gini_whole else 0))
    known = np.zeros(K)
    node_mass = np.zeros(K)
    rank, cut_at, gains, left_mass = scratch.rank, scratch.cut_at, scratch.gains, scratch.left_mass
    # the arrays out of their structures once: read in the loops, each costs a reference count
    f_index, f_threshold, f_score, f_gain, f_reason, f_ok, f_ties = found
    for i in range(starts.shape[0]):
        if not active[i]:
            continue
        s, e = starts[i], ends[i]
        node_mass[:] = 0.0
        node_size = 0.0
        for q in range(s, e):
            weight = 1.0 if unit else w[q]
            node_mass[cls[q]] += weight * factor[cls[q]]
            node_size += weight
        whole = whole_factor and unit  # every class weight is a whole number
        lookup = whole and scoring.table.shape[0] > e - s
        total_mass = 0.0
        for c in range(K):
            total_mass += node_mass[c]
        for a in range(A):
            end = e
            while end > s and math.isnan(vals[a, end - 1]):  # missing values sort last
                end -= 1
            if end == e:
                known[:] = node_mass
                known_size = node_size
            else:  # the known part, summed in sorted order
                known[:] = 0.0
                known_size = 0.0
                for p in range(s, end):
                    q = order[a, p]
                    weight = 1.0 if unit else w[q]
                    known[cls[q]] += weight * factor[cls[q]]
                    known_size += weight
            n_known = 0.0
            for c in range(K):
                n_known += known[c]
            n_all = n_known + max(total_mass - n_known, 0.0)
            part = Known(known, n_known, known_size if sized else n_known, ratio(n_known, n_all),
                         impurity(known, n_known, rank_by))
            if rank_by == BY_GINI and whole and not sized:
                count, worst = _gini_whole_cuts(vals[a], order[a], cls, s, end, part, scoring, scratch)
            elif rank_by != BY_GINI and lookup and not sized:
                count, worst = _entropy_whole_cuts(vals[a], order[a], cls, s, end, part, scoring, scratch)
            else:
                count, worst = _scan_cuts(vals[a], order[a], cls, w, s, end, part, unit, whole, lookup, scoring,
                                          scratch)
            ratios = rank_by == BY_RATIO and scoring.by_ratio
            if ratios:
                _by_ratio(count, scratch, n_known, n_all)
            best = _settle(i, a, count, worst, rank, cut_at, vals, part.size, f_index, f_threshold, f_reason, f_ok,
                           f_ties)
            if best < 0:
                continue
            g = gains[best] if ratios else rank[best]
            f_gain[i, a] = g
            f_score[i, a] = rank[best]
            if rank_by == BY_RATIO and not ratios:
                if scoring.correction:
                    g -= threshold_correction(f_ok[i, a], node_size)
                f_gain[i, a] = g
                f_score[i, a] = 0.0
                if g <= TIE:
                    f_reason[i, a] = NO_CORRECTED_GAIN
                    f_index[i, a] = -1
                    continue
                f_score[i, a] = ratio(g, split_info_of_cut(n_all, n_known, left_mass[best]))


@njit(cache=True)
def _by_ratio(count, scratch, n_known, n_all):
    """The 1993 book's C4.5 (release 5's contin.c, `splits.cut_rank`): a cut's rank, its gain,
    becomes its gain ratio when the gain is at least the average gain of the cuts the split
    rules allow, else -inf; `scratch.gains` keeps the gains."""
    rank, gains, left_mass = scratch.rank, scratch.gains, scratch.left_mass
    total = 0.0
    allowed = 0
    for c in range(count):
        gains[c] = rank[c]
        if rank[c] > -np.inf:
            total += rank[c]
            allowed += 1
    if allowed == 0:
        return
    average = total / allowed
    for c in range(count):
        g = gains[c]
        if g == -np.inf:
            continue
        if g < average - AVERAGE_TOLERANCE:
            rank[c] = -np.inf
            continue
        rank[c] = ratio(g, split_info_of_cut(n_all, n_known, left_mass[c]))


@njit(cache=True, inline="always")
def _settle(i, a, count, worst, rank, cut_at, vals, known_size, index, threshold, reason, ok, ties):
    """Attribute a's competing cut at node i from its scored cuts (rank -inf: the cut breaks a
    split rule, the most basic of which is `worst`), written to `found`'s arrays (index ..
    ties); returns the cut's rank (-1: none)."""
    n_ok = 0
    top = -np.inf
    for c in range(count):  # no branch on the ranks: they come in no order a predictor could learn
        r = rank[c]
        n_ok += r > -np.inf
        top = r if r > top else top
    best, tied_cuts = -1, 0
    if n_ok:
        cutoff = top - TIE  # above -inf: a cut that breaks a rule never ties
        for c in range(count - 1, -1, -1):  # backwards, so that the first tie is kept
            tied = rank[c] >= cutoff
            tied_cuts += tied
            best = c if tied else best
    ok[i, a] = n_ok
    ties[i, a] = tied_cuts
    index[i, a] = -1
    threshold[i, a] = np.nan
    if best < 0:
        if known_size <= 0.0:
            reason[i, a] = NO_KNOWN
        elif count == 0 or worst == NONE_BROKEN:
            reason[i, a] = ONE_BRANCH
        else:
            reason[i, a] = worst
        return -1
    p = cut_at[best]
    below = vals[a, p - 1]
    above = vals[a, p]
    mid = below / 2 + above / 2
    if mid >= above or not math.isfinite(mid):
        mid = below
    threshold[i, a] = mid
    reason[i, a] = OK
    index[i, a] = best
    return best


@njit(cache=True, nogil=True)
def scan_thresholds_regression(level, active, unit, scoring, found):
    """Every cut of every numeric attribute at every active node of `level` (regression: the
    decrease in mean squared error, rho * (sum_b S_b^2 / n_b - S^2 / n) / n, from the moments
    (w, wy)): each attribute's competing cut into `found`."""
    starts, ends, w, ypos, order, vals = level.starts, level.ends, level.w, level.ypos, level.order, level.vals
    A = order.shape[0]
    longest = 1
    for i in range(starts.shape[0]):
        longest = max(longest, ends[i] - starts[i])
    none = np.empty(0)
    scratch = Scratch(none, np.empty(longest), np.empty(longest), np.empty(longest, dtype=np.int64), none, none, none)
    rank, left_mass, cut_at, sums_left_at = scratch.rank, scratch.left_mass, scratch.cut_at, np.empty(longest)
    f_index, f_threshold, f_score, f_gain, f_reason, f_ok, f_ties = found  # (see `scan_thresholds`)
    tolerance, min_leaf = scoring.tolerance, scoring.min_leaf
    for i in range(starts.shape[0]):
        if not active[i]:
            continue
        s, e = starts[i], ends[i]
        node_size = 0.0
        node_sum = 0.0
        for q in range(s, e):
            weight = 1.0 if unit else w[q]
            node_size += weight
            node_sum += weight * ypos[q]
        for a in range(A):
            end = e
            while end > s and math.isnan(vals[a, end - 1]):  # missing values sort last
                end -= 1
            if end == e:  # every value known: the node's sums, as `node_sums` adds them
                n_known, s_known = node_size, node_sum
            else:  # the known part, summed in sorted order
                n_known, s_known = 0.0, 0.0
                for p in range(s, end):
                    q = order[a, p]
                    weight = 1.0 if unit else w[q]
                    n_known += weight
                    s_known += weight * ypos[q]
            n_all = n_known + max(node_size - n_known, 0.0)
            rho = ratio(n_known, n_all)
            if unit:
                count, worst = _regression_unit_cuts(vals, order, a, ypos, s, end, n_known, s_known, rho, tolerance,
                                                     min_leaf, rank, left_mass, cut_at, sums_left_at)
            else:
                count, worst = _regression_cuts(vals[a], order[a], ypos, w, s, end, n_known, s_known, rho, unit,
                                                scoring, scratch)
            best = _settle(i, a, count, worst, rank, cut_at, vals, n_known, f_index, f_threshold, f_reason, f_ok,
                           f_ties)
            f_score[i, a] = rank[best] if best >= 0 else 0.0
            f_gain[i, a] = f_score[i, a]
