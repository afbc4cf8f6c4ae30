"""Every cut of every numeric attribute at every active node of a level, and each attribute's
competing cut (classification, and regression's decrease in squared error).
"""

from __future__ import annotations

import math

import numpy as np

from ..jit import njit
from ..rules import AVERAGE_TOLERANCE, NO_CORRECTED_GAIN, NO_KNOWN, OK, ONE_BRANCH, TIE
from .criteria import BY_GINI, BY_RATIO, impurity, ratio, split_info_of_cut, threshold_correction
from .cuts import NONE_BROKEN, _entropy_whole_cuts, _gini_whole_cuts, _regression_cuts, _scan_cuts


@njit(cache=True, nogil=True)
def scan_thresholds(starts, ends, active, order, vals, cls, w, unit, factor, sized, n_classes,
                    rank_by, min_leaf, min_branch, tolerance, correction, by_ratio, table,
                    out_index, out_threshold, out_score, out_gain, out_reason, out_ok, out_ties):
    """Every cut of every numeric attribute at every active node (classification).

    order[a, p] is the position of the p-th smallest value of attribute a within its node's
    segment and vals[a, p] that value (missing values last); cls and w are per position. For
    node i and attribute a: out_index[i, a] the best cut's rank among the attribute's cuts
    (-1: none qualifies), out_threshold its midpoint,
    out_score what the criterion ranks the attribute by, out_gain its gain (Gini gain for gini;
    for gain ratio the corrected gain), out_reason OK or why none qualifies, out_ok how many cuts
    satisfy the split rules, out_ties how many tie with the best. Only the measure that ranks
    is computed per cut (split information for the best cut alone; `by_ratio`, the 1993 book's
    C4.5, for the cuts of at least average gain: `_by_ratio`); `table` holds x log2 x of whole
    numbers. `unit`: every weight is 1 (w is not read)."""
    K = factor.shape[0]
    A = order.shape[0]
    longest = 1
    for i in range(starts.shape[0]):
        longest = max(longest, ends[i] - starts[i])
    rank = np.empty(longest)
    gains = np.empty(longest if by_ratio else 0)
    left_mass = np.empty(longest)
    cut_at = np.empty(longest, dtype=np.int64)
    left = np.zeros(K)
    known = np.zeros(K)
    node_mass = np.zeros(K)
    whole_factor = True
    for c in range(K):
        if factor[c] != 1.0:
            whole_factor = False
    # `_gini_whole_cuts`' first pass keeps each cut's sums of squares (only when it runs)
    gini_whole = rank_by == BY_GINI and whole_factor and unit and not sized
    squares_left_at = np.empty(longest if gini_whole else 0)
    squares_right_at = np.empty(longest if gini_whole else 0)
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
        lookup = whole and table.shape[0] > e - s
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
            rho = ratio(n_known, n_all)
            before = impurity(known, n_known, rank_by)
            sizes_known = known_size if sized else n_known
            if rank_by == BY_GINI and whole and not sized:
                count, worst = _gini_whole_cuts(vals[a], order[a], cls, s, end, known, n_known, rho, before, tolerance,
                                                min_leaf, min_branch, n_classes, left, rank, left_mass, cut_at,
                                                squares_left_at, squares_right_at)
            elif rank_by != BY_GINI and lookup and not sized:
                count, worst = _entropy_whole_cuts(vals[a], order[a], cls, s, end, known, n_known, rho, before,
                                                   tolerance, min_leaf, min_branch, n_classes, table, left, rank,
                                                   left_mass, cut_at)
            else:
                count, worst = _scan_cuts(vals[a], order[a], cls, w, s, end, known, n_known, sizes_known, rho,
                                          before, unit, whole, sized, lookup, table, factor, rank_by, tolerance,
                                          min_leaf, min_branch, n_classes, left, rank, left_mass, cut_at)
            ratios = rank_by == BY_RATIO and by_ratio
            if ratios:
                _by_ratio(count, rank, gains, left_mass, n_known, n_all)
            best = _settle(i, a, count, rank, worst, cut_at, vals, sizes_known,
                           out_index, out_threshold, out_reason, out_ok, out_ties)
            if best < 0:
                continue
            g = gains[best] if ratios else rank[best]
            out_gain[i, a] = g
            out_score[i, a] = rank[best]
            if rank_by == BY_RATIO and not ratios:
                if correction:
                    g -= threshold_correction(out_ok[i, a], node_size)
                out_gain[i, a] = g
                out_score[i, a] = 0.0
                if g <= TIE:
                    out_reason[i, a] = NO_CORRECTED_GAIN
                    out_index[i, a] = -1
                    continue
                out_score[i, a] = ratio(g, split_info_of_cut(n_all, n_known, left_mass[best]))


@njit(cache=True)
def _by_ratio(count, rank, gains, left_mass, n_known, n_all):
    """The 1993 book's C4.5 (release 5's contin.c, `splits.cut_rank`): a cut's rank, its gain,
    becomes its gain ratio when the gain is at least the average gain of the cuts the split
    rules allow, else -inf; `gains` keeps the gains."""
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


@njit(cache=True)
def _settle(i, a, count, rank, worst, cut_at, vals, known_size,
            out_index, out_threshold, out_reason, out_ok, out_ties):
    """Attribute a's competing cut at node i from its scored cuts (rank -inf: the cut breaks a
    split rule, the most basic of which is `worst`); returns the cut's rank (-1: none)."""
    n_ok = 0
    top = -np.inf
    for c in range(count):
        if rank[c] > -np.inf:
            n_ok += 1
            if rank[c] > top:
                top = rank[c]
    best, ties = -1, 0
    if n_ok:
        for c in range(count):
            if rank[c] > -np.inf and rank[c] >= top - TIE:
                ties += 1
                if best < 0:
                    best = c
    out_ok[i, a] = n_ok
    out_ties[i, a] = ties
    out_index[i, a] = -1
    out_threshold[i, a] = np.nan
    if best < 0:
        if known_size <= 0.0:
            out_reason[i, a] = NO_KNOWN
        elif count == 0 or worst == NONE_BROKEN:
            out_reason[i, a] = ONE_BRANCH
        else:
            out_reason[i, a] = worst
        return -1
    p = cut_at[best]
    below = vals[a, p - 1]
    above = vals[a, p]
    mid = below / 2 + above / 2
    if mid >= above or not math.isfinite(mid):
        mid = below
    out_threshold[i, a] = mid
    out_reason[i, a] = OK
    out_index[i, a] = best
    return best


@njit(cache=True, nogil=True)
def scan_thresholds_regression(starts, ends, active, order, vals, ypos, w, unit, min_leaf,
                               out_index, out_threshold, out_score, out_gain, out_reason, out_ok, out_ties):
    """Every cut of every numeric attribute at every active node (regression: the decrease in
    mean squared error, rho * (sum_b S_b^2 / n_b - S^2 / n) / n, from the moments (w, wy))."""
    A = order.shape[0]
    longest = 1
    for i in range(starts.shape[0]):
        longest = max(longest, ends[i] - starts[i])
    rank = np.empty(longest)
    left_mass = np.empty(longest)
    cut_at = np.empty(longest, dtype=np.int64)
    for i in range(starts.shape[0]):
        if not active[i]:
            continue
        s, e = starts[i], ends[i]
        node_size = 0.0
        for q in range(s, e):
            node_size += 1.0 if unit else w[q]
        for a in range(A):
            end = e
            while end > s and math.isnan(vals[a, end - 1]):
                end -= 1
            n_known = 0.0
            s_known = 0.0
            for p in range(s, end):
                q = order[a, p]
                weight = 1.0 if unit else w[q]
                n_known += weight
                s_known += weight * ypos[q]
            n_all = n_known + max(node_size - n_known, 0.0)
            count, worst = _regression_cuts(vals[a], order[a], ypos, w, s, end, n_known, s_known, ratio(n_known, n_all),
                                            unit, min_leaf, rank, left_mass, cut_at)
            best = _settle(i, a, count, rank, worst, cut_at, vals, n_known,
                           out_index, out_threshold, out_reason, out_ok, out_ties)
            out_score[i, a] = rank[best] if best >= 0 else 0.0
            out_gain[i, a] = out_score[i, a]
