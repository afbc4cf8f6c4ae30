"""Every cut of every numeric attribute at every active node of a level, and each attribute's
competing cut (classification, and regression's decrease in squared error).
"""

from __future__ import annotations

import math

import numpy as np

from ..jit import njit
from ..rules import AVERAGE_TOLERANCE, NO_CORRECTED_GAIN, NO_KNOWN, OK, ONE_BRANCH, TIE
from .criteria import BY_GINI, BY_RATIO, impurity, ratio, split_info_of_cut, threshold_correction
from .cuts import NONE_BROKEN, Known, Scratch, _entropy_whole_cuts, _gini_whole_cuts, _regression_cuts, _scan_cuts


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
            best = _settle(i, a, count, worst, scratch, vals, part.size, found)
            if best < 0:
                continue
            g = scratch.gains[best] if ratios else scratch.rank[best]
            found.gain[i, a] = g
            found.score[i, a] = scratch.rank[best]
            if rank_by == BY_RATIO and not ratios:
                if scoring.correction:
                    g -= threshold_correction(found.ok[i, a], node_size)
                found.gain[i, a] = g
                found.score[i, a] = 0.0
                if g <= TIE:
                    found.reason[i, a] = NO_CORRECTED_GAIN
                    found.index[i, a] = -1
                    continue
                found.score[i, a] = ratio(g, split_info_of_cut(n_all, n_known, scratch.left_mass[best]))


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
def _settle(i, a, count, worst, scratch, vals, known_size, found):
    """Attribute a's competing cut at node i from its scored cuts (rank -inf: the cut breaks a
    split rule, the most basic of which is `worst`); returns the cut's rank (-1: none)."""
    rank = scratch.rank
    n_ok = 0
    top = -np.inf
    for c in range(count):  # no branch on the ranks: they come in no order a predictor could learn
        r = rank[c]
        n_ok += r > -np.inf
        top = r if r > top else top
    best, ties = -1, 0
    if n_ok:
        cutoff = top - TIE  # above -inf: a cut that breaks a rule never ties
        for c in range(count - 1, -1, -1):  # backwards, so that the first tie is kept
            tied = rank[c] >= cutoff
            ties += tied
            best = c if tied else best
    found.ok[i, a] = n_ok
    found.ties[i, a] = ties
    found.index[i, a] = -1
    found.threshold[i, a] = np.nan
    if best < 0:
        if known_size <= 0.0:
            found.reason[i, a] = NO_KNOWN
        elif count == 0 or worst == NONE_BROKEN:
            found.reason[i, a] = ONE_BRANCH
        else:
            found.reason[i, a] = worst
        return -1
    p = scratch.cut_at[best]
    below = vals[a, p - 1]
    above = vals[a, p]
    mid = below / 2 + above / 2
    if mid >= above or not math.isfinite(mid):
        mid = below
    found.threshold[i, a] = mid
    found.reason[i, a] = OK
    found.index[i, a] = best
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
            count, worst = _regression_cuts(vals[a], order[a], ypos, w, s, end, n_known, s_known, ratio(n_known, n_all),
                                            unit, scoring, scratch)
            best = _settle(i, a, count, worst, scratch, vals, n_known, found)
            found.score[i, a] = scratch.rank[best] if best >= 0 else 0.0
            found.gain[i, a] = found.score[i, a]
