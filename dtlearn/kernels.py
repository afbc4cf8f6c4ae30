"""Compiled loops: scoring every cut of many nodes at once, partitioning rows, routing rows,
CART's surrogate cuts and the weakest-link sequence of cost-complexity pruning.

Why compiled (numba): induction scores every cut between neighbouring values of every numeric
attribute at every node, and prediction walks every row down the tree. Written with numpy
alone, both pay a Python-level cost per node (thousands of nodes) that no vectorisation
removes; compiled, dtlearn grows its trees faster than scikit-learn's C code while keeping
every table. The formulas here are the `measures` definitions rewritten for one pass over
sorted rows (sum_b n_b/n Ent(b) = (sum_b n_b log n_b - sum_b sum_k c_bk log c_bk) / n, and
sum_b n_b/n Gini(b) = (n - sum_b sum_k c_bk^2 / n_b) / n); `tests/test_engine.py` checks
them equal to the definitions (to 1e-12) and to exact fractions. Each is called through
`jit.Kernel`: compiled, or the same function run by Python (without numba; and for small inputs
while the compiled code is not loaded yet, so that a first tree waits for no compiler).

The long-running kernels release the GIL (nogil): the app's other sessions go on while one
grows a tree.

Layout: a *level* is a set of nodes, node i owning positions starts[i]..ends[i] of the level's
buffers: rows (training row of each position), w (its weight: fractional below a C4.5 split
on a missing value), and for each numeric attribute an order (positions sorted by the
attribute's value within each node, missing values last).
"""

from __future__ import annotations

import math

import numpy as np

from . import rules
from .jit import njit
from .rules import (AVERAGE_TOLERANCE, FEW_CASES, NO_CORRECTED_GAIN, NO_KNOWN, OK, ONE_BRANCH, SIZE_TOLERANCE,
                    SMALL_LEAF, SMALL_SIDE, TIE)

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


_j48_min_split = njit(cache=True)(rules.j48_min_split)  # the rule itself, compiled


@njit(cache=True)
def xlogx_table(n):
    """x log2 x for x = 0, 1, ..., n: looked up for whole-number class weights (the common case),
    the very same numbers `_xlogx` computes."""
    table = np.empty(n + 1)
    for x in range(n + 1):
        table[x] = _xlogx(float(x))
    return table


@njit(cache=True, nogil=True)
def scan_thresholds(starts, ends, active, order, vals, cls, w, unit, factor, sized, n_classes,
                    rank_by, min_leaf, min_branch, tolerance, correction, by_ratio, table,
                    out_index, out_at, out_threshold, out_score, out_gain, out_reason, out_ok, out_ties):
    """Every cut of every numeric attribute at every active node (classification).

    order[a, p] is the position of the p-th smallest value of attribute a within its node's
    segment and vals[a, p] that value (missing values last); cls and w are per position. For
    node i and attribute a: out_index[i, a] the best cut's rank among the attribute's cuts
    (-1: none qualifies), out_at its place p in the sorted segment, out_threshold its midpoint,
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
            rho = n_known / n_all if n_all > 0.0 else 0.0
            before = _gini(known, n_known) if rank_by == BY_GINI else _entropy(known, n_known)
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
                           out_index, out_at, out_threshold, out_reason, out_ok, out_ties)
            if best < 0:
                continue
            g = gains[best] if ratios else rank[best]
            out_gain[i, a] = g
            out_score[i, a] = rank[best]
            if rank_by == BY_RATIO and not ratios:
                if correction:
                    g -= math.log2(max(out_ok[i, a], 1)) / node_size
                out_gain[i, a] = g
                out_score[i, a] = 0.0
                if g <= TIE:
                    out_reason[i, a] = NO_CORRECTED_GAIN
                    out_index[i, a] = -1
                    continue
                nl = left_mass[best]
                nr = n_known - nl
                missing = n_all - n_known
                split = (_xlogx(n_all) - _xlogx(nl) - _xlogx(nr) - _xlogx(missing)) / n_all
                out_score[i, a] = g / split if split > 0 else 0.0


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
    missing = n_all - n_known
    for c in range(count):
        g = gains[c]
        if g == -np.inf:
            continue
        if g < average - AVERAGE_TOLERANCE:
            rank[c] = -np.inf
            continue
        nl = left_mass[c]
        split = (_xlogx(n_all) - _xlogx(nl) - _xlogx(n_known - nl) - _xlogx(missing)) / n_all
        rank[c] = g / split if split > 0 else 0.0


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


@njit(cache=True, inline="always")
def _gini_rank(squares_left, squares_right, n_left, n_right, n_known, rho, before):
    """A cut's Gini gain from the sums of squared class weights on each side (module docstring)."""
    kept = (squares_left / n_left if n_left > 0 else 0.0) + (squares_right / n_right if n_right > 0 else 0.0)
    return max(rho * (before - (n_known - kept) / n_known), 0.0)


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


@njit(cache=True, inline="always")
def _looked_up_after(left, known, n_left, n_right, n_known, table):
    """sum_b n_b/n Ent(b) of a cut with whole class counts, x log2 x looked up (module docstring)."""
    inner = 0.0
    for c in range(known.shape[0]):
        inner += table[int(left[c])] + table[int(known[c] - left[c])]
    outer = table[int(n_left)] + table[int(n_right)]
    return (outer - inner) / n_known


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


@njit(cache=True)
def _settle(i, a, count, rank, worst, cut_at, vals, known_size,
            out_index, out_at, out_threshold, out_reason, out_ok, out_ties):
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
    out_at[i, a] = -1
    out_threshold[i, a] = np.nan
    if best < 0:
        if known_size <= 0.0:
            out_reason[i, a] = NO_KNOWN
        elif count == 0 or worst == 99:
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
    out_at[i, a] = p
    return best


@njit(cache=True, nogil=True)
def scan_thresholds_regression(starts, ends, active, order, vals, ypos, w, unit, min_leaf,
                               out_index, out_at, out_threshold, out_score, out_gain, out_reason, out_ok, out_ties):
    """Every cut of every numeric attribute at every active node (regression: the decrease in
    mean squared error, rho * (sum_b S_b^2 / n_b - S^2 / n) / n, from the moments (w, wy))."""
    A = order.shape[0]
    longest = 1
    for i in range(starts.shape[0]):
        longest = max(longest, ends[i] - starts[i])
    rank = np.empty(longest)
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
            rho = n_known / n_all if n_all > 0.0 else 0.0
            base = s_known * s_known / n_known if n_known > 0 else 0.0
            n_left = 0.0
            s_left = 0.0
            count = 0
            worst = 99
            previous = vals[a, s]
            for p in range(s, end):
                x = vals[a, p]
                if p > s and previous < x:
                    n_right = n_known - n_left
                    s_right = s_known - s_left
                    kept = (s_left * s_left / n_left if n_left > 0 else 0.0) + \
                        (s_right * s_right / n_right if n_right > 0 else 0.0)
                    rank[count] = rho * (max(kept - base, 0.0) / n_known)
                    reason = OK
                    if n_left <= 0 or n_right <= 0:
                        reason = ONE_BRANCH
                    elif min_leaf > 0 and min(n_left, n_right) < min_leaf - SIZE_TOLERANCE:
                        reason = SMALL_LEAF
                    if reason != OK:
                        rank[count] = -np.inf
                        worst = min(worst, reason)
                    cut_at[count] = p
                    count += 1
                q = order[a, p]
                weight = 1.0 if unit else w[q]
                n_left += weight
                s_left += weight * ypos[q]
                previous = x
            best = _settle(i, a, count, rank, worst, cut_at, vals, n_known,
                           out_index, out_at, out_threshold, out_reason, out_ok, out_ties)
            out_score[i, a] = rank[best] if best >= 0 else 0.0
            out_gain[i, a] = out_score[i, a]


@njit(cache=True, nogil=True)
def scan_multiway(starts, ends, active, codes, n_values, rows, w, cls, factor, sized, rank_by, min_leaf,
                  min_branch, out_index, out_score, out_gain, out_reason):
    """One branch per value of each categorical attribute at every active node (ID3, C4.5).
    `codes` is (rows, attributes): one pass over a node's rows counts every attribute at once."""
    K = factor.shape[0]
    A = codes.shape[1]
    most = 1
    for a in range(A):
        most = max(most, n_values[a])
    counts = np.zeros((A, most, K))
    sizes = np.zeros((A, most))
    seen = np.zeros((A, most), dtype=np.bool_)
    touched = np.empty((A, most), dtype=np.int64)
    n_touched = np.zeros(A, dtype=np.int64)
    missing = np.zeros(A)
    known = np.zeros(K)
    for i in range(starts.shape[0]):
        if not active[i]:
            continue
        s, e = starts[i], ends[i]
        n_touched[:] = 0
        missing[:] = 0.0
        for p in range(s, e):
            r = rows[p]
            c = cls[p]
            weight = w[p]
            mass = weight * factor[c]
            for a in range(A):
                v = codes[r, a]
                if v < 0:
                    missing[a] += mass
                    continue
                if not seen[a, v]:
                    seen[a, v] = True
                    touched[a, n_touched[a]] = v
                    n_touched[a] += 1
                counts[a, v, c] += mass
                sizes[a, v] += weight
        for a in range(A):
            m = n_touched[a]
            touched[a, :m].sort()
            known[:] = 0.0
            n_known = 0.0
            known_size = 0.0
            nonempty = 0
            enough = 0
            small = False
            for t in range(m):
                v = touched[a, t]
                size = sizes[a, v]
                for c in range(K):
                    known[c] += counts[a, v, c]
                if size > 0:
                    nonempty += 1
                    if min_leaf > 0 and size < min_leaf - SIZE_TOLERANCE:
                        small = True
                if min_branch > 0 and size >= min_branch - SIZE_TOLERANCE:
                    enough += 1
                known_size += size
            for c in range(K):
                n_known += known[c]
            n_all = n_known + missing[a]
            rho = n_known / n_all if n_all > 0 else 0.0
            h_after = 0.0
            g_after = 0.0
            split = 0.0
            for t in range(m):
                v = touched[a, t]
                mass = 0.0
                for c in range(K):
                    mass += counts[a, v, c]
                share = mass / n_known if n_known > 0 else 0.0
                h_after += share * _entropy(counts[a, v], mass)
                g_after += share * _gini(counts[a, v], mass)
                if mass > 0 and n_all > 0:
                    part = mass / n_all
                    split -= part * math.log2(part)
            if missing[a] > 0 and n_all > 0:
                part = missing[a] / n_all
                split -= part * math.log2(part)
            gain = max(rho * (_entropy(known, n_known) - h_after), 0.0)
            gini_gain = max(rho * (_gini(known, n_known) - g_after), 0.0)
            reason = OK
            if nonempty < 2:
                reason = ONE_BRANCH
            if known_size <= 0:
                reason = NO_KNOWN
            if reason == OK and small:
                reason = SMALL_LEAF
            if reason == OK and min_branch > 0 and enough < 2:
                reason = FEW_CASES
            out_reason[i, a] = reason
            out_index[i, a] = 0 if reason == OK else -1
            out_gain[i, a] = gini_gain if rank_by == BY_GINI else gain
            if reason != OK:
                out_score[i, a] = 0.0
            elif rank_by == BY_RATIO:
                out_score[i, a] = gain / split if split > 0 else 0.0
            else:
                out_score[i, a] = out_gain[i, a]
            for t in range(m):  # clean the scratch for the next node
                v = touched[a, t]
                seen[a, v] = False
                sizes[a, v] = 0.0
                for c in range(K):
                    counts[a, v, c] = 0.0


@njit(cache=True)
def order_ties_by_row(ordered, order):
    """Within every run of equal values of `ordered` (the values in `order`, NaNs last and all
    counted equal), `order` put in ascending row order: an unstable sort's order made the order
    a stable sort gives, at the cost of sorting the runs alone."""
    n = ordered.shape[0]
    start = 0
    while start < n:
        end = start + 1
        if math.isnan(ordered[start]):
            end = n
        else:
            while end < n and ordered[end] == ordered[start]:
                end += 1
        if end - start > 1:
            order[start:end] = np.sort(order[start:end])
        start = end


@njit(cache=True)
def node_sums(starts, ends, cls, ypos, w, width, out):
    """Each node's class weights (or, with ypos, its moments w, w y, w y^2) into out[node]."""
    for i in range(starts.shape[0]):
        for c in range(width):
            out[i, c] = 0.0
        for p in range(starts[i], ends[i]):
            if ypos.shape[0] > 0:
                out[i, 0] += w[p]
                out[i, 1] += w[p] * ypos[p]
                out[i, 2] += w[p] * ypos[p] * ypos[p]
            else:
                out[i, cls[p]] += w[p]


@njit(cache=True)
def branch_weights(starts, ends, split, n_children, first_child, branch, w, out):
    """The known weight each child of a split node receives (rows of an unknown branch aside)."""
    for i in range(starts.shape[0]):
        if not split[i]:
            continue
        if n_children[i] == 2:
            # two children (a cut, a subset): the sums in registers, in the same order (the same bits)
            below, above = 0.0, 0.0
            for p in range(starts[i], ends[i]):
                b = branch[p]
                if b == 0:
                    below += w[p]
                elif b == 1:
                    above += w[p]
            out[first_child[i]] += below
            out[first_child[i] + 1] += above
            continue
        for p in range(starts[i], ends[i]):
            b = branch[p]
            if b >= 0:
                out[first_child[i] + b] += w[p]


@njit(cache=True)
def mark_leaves(starts, ends, leaf, rows, base, out):
    """out[row] = base + i for every row of every node i that is a leaf."""
    for i in range(starts.shape[0]):
        if leaf[i]:
            for p in range(starts[i], ends[i]):
                out[rows[p]] = base + i


@njit(cache=True)
def any_unknown(starts, ends, split, branch):
    """Whether a position of a split node has branch -1 (a value no test could place)."""
    for i in range(starts.shape[0]):
        if split[i]:
            for p in range(starts[i], ends[i]):
                if branch[p] == -1:
                    return True
    return False


@njit(cache=True)
def threshold_branches(starts, ends, split, attribute, cut_at, order, vals, out):
    """Branch 0 (below the cut), 1 (above) or -1 (missing) of each position of the nodes split
    on a numeric attribute: read off that attribute's sorted segment."""
    for i in range(starts.shape[0]):
        if not split[i] or attribute[i] < 0:
            continue
        a, cut = attribute[i], cut_at[i]
        for p in range(starts[i], ends[i]):
            q = order[a, p]
            out[q] = -1 if math.isnan(vals[a, p]) else (0 if p < cut else 1)


@njit(cache=True)
def code_branches(starts, ends, split, attribute, map_start, maps, rows, codes, out):
    """The branch of each position of nodes split on a categorical test: maps[map_start[i] + code]
    (-1: missing); `codes` is (rows, attributes)."""
    for i in range(starts.shape[0]):
        if not split[i] or attribute[i] < 0:
            continue
        a, m = attribute[i], map_start[i]
        for p in range(starts[i], ends[i]):
            v = codes[rows[p], a]
            out[p] = -1 if v < 0 else maps[m + v]


@njit(cache=True, nogil=True)
def partition_in_place(starts, ends, split, n_children, first_child, branch, rows, w, cls, ypos, order, vals,
                       child_starts, child_ends):
    """Each split node's segment reordered in place so that its children's positions are
    consecutive, in branch order, each keeping its positions' order (so every attribute's
    order stays sorted); positions of branch -1 (rows nothing could place) go last, to no child.
    Every array keeps its size: the next level reads sub-segments."""
    n = rows.shape[0]
    new_position = np.empty(n, dtype=np.int32)
    buffer_i = np.empty(n, dtype=rows.dtype)
    buffer_c = np.empty(n, dtype=cls.dtype)
    buffer_f = np.empty(n)
    buffer_y = np.empty(n)
    buffer_o = np.empty(n, dtype=order.dtype)
    most = 1
    for i in range(starts.shape[0]):
        if split[i]:
            most = max(most, n_children[i] + 2)
    fill = np.zeros(most, dtype=np.int64)
    bound = np.zeros(most, dtype=np.int64)
    regression = ypos.shape[0] > 0
    for i in range(starts.shape[0]):
        if not split[i]:
            continue
        s, e, B, first = starts[i], ends[i], n_children[i], first_child[i]
        fill[:B + 1] = 0
        in_place = True  # positions already in branch order (a chain's cut at an end): nothing moves
        last = 0
        for q in range(s, e):
            b = branch[q]
            b = b if b >= 0 else B
            fill[b] += 1
            if b < last:
                in_place = False
            last = b
        at = s
        for b in range(B + 1):
            size = fill[b]
            fill[b] = at
            bound[b] = at
            if b < B:
                child_starts[first + b] = at
                child_ends[first + b] = at + size
            at += size
        bound[B + 1] = at
        if not in_place:
            for q in range(s, e):
                b = branch[q]
                b = b if b >= 0 else B
                t = fill[b]
                fill[b] += 1
                new_position[q] = t
                buffer_i[t] = rows[q]
                buffer_c[t] = cls[q]
                buffer_f[t] = w[q]
                if regression:
                    buffer_y[t] = ypos[q]
            for t in range(s, e):
                rows[t] = buffer_i[t]
                cls[t] = buffer_c[t]
                w[t] = buffer_f[t]
                if regression:
                    ypos[t] = buffer_y[t]
        for a in range(order.shape[0]):
            if in_place:  # an attribute whose sorted order is in branch order too stays as it is
                last = 0
                ordered = True
                for p in range(s, e):
                    b = branch[order[a, p]]
                    b = b if b >= 0 else B
                    if b < last:
                        ordered = False
                        break
                    last = b
                if ordered:
                    continue
            fill[:B + 1] = bound[:B + 1]
            for p in range(s, e):
                t_new = order[a, p] if in_place else new_position[order[a, p]]
                b = 0
                while t_new >= bound[b + 1]:  # the child whose range holds the new position
                    b += 1
                t = fill[b]
                fill[b] += 1
                buffer_o[t] = t_new
                buffer_f[t] = vals[a, p]
            for t in range(s, e):
                order[a, t] = buffer_o[t]
                vals[a, t] = buffer_f[t]


@njit(cache=True, nogil=True)
def partition_shared(starts, ends, split, n_children, first_child, fractions, branch, rows, w, cls, ypos, order,
                     vals, child_starts):
    """The next level's buffers when rows with an unknown value (branch -1) go down every branch
    with a positive share, their weight times the share (C4.5): each child gets its known rows
    (in order), then the shared ones. Returns (rows, w, cls, ypos, order, vals)."""
    n_kids = child_starts.shape[0] - 1
    size = np.zeros(n_kids + 1, dtype=np.int64)
    for i in range(starts.shape[0]):
        if not split[i]:
            continue
        for p in range(starts[i], ends[i]):
            b = branch[p]
            if b >= 0:
                size[first_child[i] + b] += 1
            else:
                for k in range(n_children[i]):
                    if fractions[first_child[i] + k] > 0:
                        size[first_child[i] + k] += 1
    child_starts[0] = 0
    for k in range(n_kids):
        child_starts[k + 1] = child_starts[k] + size[k]
    total = child_starts[n_kids]
    new_rows = np.empty(total, dtype=rows.dtype)
    new_w = np.empty(total)
    new_cls = np.empty(total, dtype=cls.dtype)
    new_y = np.empty(total if ypos.shape[0] > 0 else 0)
    new_position = np.full(rows.shape[0], -1, dtype=np.int64)  # known rows: their place in their child
    unknown_rank = np.full(rows.shape[0], -1, dtype=np.int64)  # unknown rows: rank among the node's
    n_known = np.zeros(n_kids, dtype=np.int64)
    fill = np.zeros(n_kids, dtype=np.int64)
    for i in range(starts.shape[0]):
        if not split[i]:
            continue
        first = first_child[i]
        for p in range(starts[i], ends[i]):  # known rows first, in order
            b = branch[p]
            if b >= 0:
                k = first + b
                at = child_starts[k] + fill[k]
                new_rows[at] = rows[p]
                new_w[at] = w[p]
                new_cls[at] = cls[p]
                if ypos.shape[0] > 0:
                    new_y[at] = ypos[p]
                new_position[p] = fill[k]
                fill[k] += 1
        for k in range(n_children[i]):
            n_known[first + k] = fill[first + k]
        u = 0
        for p in range(starts[i], ends[i]):  # then the unknown rows, in every branch
            if branch[p] < 0:
                unknown_rank[p] = u
                u += 1
                for k in range(first, first + n_children[i]):
                    if fractions[k] > 0:
                        at = child_starts[k] + fill[k]
                        new_rows[at] = rows[p]
                        new_w[at] = w[p] * fractions[k]
                        new_cls[at] = cls[p]
                        if ypos.shape[0] > 0:
                            new_y[at] = ypos[p]
                        fill[k] += 1
    A = order.shape[0]
    new_order = np.empty((A, total), dtype=order.dtype)
    new_vals = np.empty((A, total))
    for a in range(A):
        fill[:] = 0
        for i in range(starts.shape[0]):
            if not split[i]:
                continue
            first = first_child[i]
            for p in range(starts[i], ends[i]):
                q = order[a, p]
                b = branch[q]
                if b >= 0:
                    k = first + b
                    t = child_starts[k] + fill[k]
                    new_order[a, t] = child_starts[k] + new_position[q]
                    new_vals[a, t] = vals[a, p]
                    fill[k] += 1
                else:
                    for k in range(first, first + n_children[i]):
                        if fractions[k] > 0:
                            t = child_starts[k] + fill[k]
                            new_order[a, t] = child_starts[k] + n_known[k] + unknown_rank[q]
                            new_vals[a, t] = vals[a, p]
                            fill[k] += 1
    return new_rows, new_w, new_cls, new_y, new_order, new_vals


# --- routing rows down a finished tree ----------------------------------------------------------

@njit(cache=True, inline="always")
def _branch(node, row, kind, attribute, threshold, map_start, maps, values, codes):
    """A row's branch at a node's test: 0.. or -1 (missing / unseen value)."""
    a = attribute[node]
    if kind[node] == 1:
        x = values[row, a]
        if math.isnan(x):
            return -1
        return 0 if x <= threshold[node] else 1
    v = codes[row, a]
    if v == -1:
        return -1
    if v < -1:  # a value never seen in training: the test's own rule (maps[start - 1])
        return maps[map_start[node] - 1]
    return maps[map_start[node] + v]


@njit(cache=True)
def _surrogate_branch(node, row, s_start, s_count, s_kind, s_attribute, s_threshold, s_map_start, s_reversed,
                      maps, values, codes):
    """The branch the first usable surrogate of a node gives a row (-1: none can tell)."""
    for s in range(s_start[node], s_start[node] + s_count[node]):
        a = s_attribute[s]
        b = -1
        if s_kind[s] == 1:
            x = values[row, a]
            if not math.isnan(x):
                b = 0 if x <= s_threshold[s] else 1
        else:
            v = codes[row, a]
            if v >= 0:
                b = maps[s_map_start[s] + v]
        if b >= 0:
            return b ^ s_reversed[s]
    return -1


SHARE, FOLLOW = 0, 1  # a row with an unknown branch: down every branch by share (C4.5), or one way


@njit(cache=True, nogil=True)
def route(values, codes, weights, kind, attribute, threshold, map_start, maps, child_start, n_child, share,
          majority, s_start, s_count, s_kind, s_attribute, s_threshold, s_map_start, s_reversed, mode,
          node_values, out_values, y, node_totals, leaf_of):
    """Send every row down the tree from the root (flat node 0; a node's children are
    consecutive from child_start[node]).

    A row whose branch is unknown at a node (a missing value, or a value the test never saw)
    tries the node's surrogates in rank order; if none can tell, with mode SHARE it goes down
    every branch with weight times the branch's share (C4.5), with mode FOLLOW down the
    `majority` branch, and where that is -1 (rpart's tie) it ends at the node.
    Outputs, each skipped when empty: out_values[row] += weight * node_values[node] where the
    row's weight ends; node_totals[node, y[row]] += the weight reaching each node; leaf_of[row]
    = the node where the row's largest weight ends."""
    n_rows = weights.shape[0]
    n_nodes = kind.shape[0]
    stack_node = np.empty(n_nodes, dtype=np.int64)
    stack_weight = np.empty(n_nodes)
    C = node_values.shape[1]
    want_values = out_values.shape[0] > 0
    want_totals = node_totals.shape[0] > 0
    want_leaf = leaf_of.shape[0] > 0
    for r in range(n_rows):
        # the common case first: one branch at every node, down to a leaf
        node = 0
        wt = weights[r]
        while kind[node] != 0:  # (written out here: a call per node costs several times the test)
            a = attribute[node]
            if kind[node] == 1:
                x = values[r, a]
                if math.isnan(x):
                    break
                b = 0 if x <= threshold[node] else 1
            else:
                v = codes[r, a]
                if v == -1:
                    break
                b = maps[map_start[node] - 1] if v < -1 else maps[map_start[node] + v]
                if b < 0:
                    break
            if want_totals:
                node_totals[node, y[r]] += wt
            node = child_start[node] + b
        stack_node[0] = node
        stack_weight[0] = wt
        top = 1
        heaviest = -1
        heaviest_weight = -1.0
        while top > 0:  # from where a value was unknown (or the leaf reached), every weighted path
            top -= 1
            node = stack_node[top]
            wt = stack_weight[top]
            if want_totals:
                node_totals[node, y[r]] += wt
            b = -2
            if kind[node] != 0:
                b = _branch(node, r, kind, attribute, threshold, map_start, maps, values, codes)
                if b < 0 and s_count[node] > 0:
                    b = _surrogate_branch(node, r, s_start, s_count, s_kind, s_attribute, s_threshold,
                                          s_map_start, s_reversed, maps, values, codes)
                if b < 0 and mode == FOLLOW:
                    b = majority[node]
                    if b < 0:
                        b = -2  # ends here
            if b == -2:
                if want_values:
                    for c in range(C):
                        out_values[r, c] += wt * node_values[node, c]
                if wt > heaviest_weight:
                    heaviest, heaviest_weight = node, wt
            elif b >= 0:
                stack_node[top] = child_start[node] + b
                stack_weight[top] = wt
                top += 1
            else:
                for k in range(n_child[node] - 1, -1, -1):
                    part = share[child_start[node] + k]
                    if part > 0:
                        stack_node[top] = child_start[node] + k
                        stack_weight[top] = wt * part
                        top += 1
        if want_leaf:
            leaf_of[r] = heaviest


@njit(cache=True, inline="always")
def _after(g1, o1, p1, g2, o2, p2):
    """(g1, order o1, position p1) sorts after (g2, o2, p2)."""
    return g1 > g2 or (g1 == g2 and (o1 > o2 or (o1 == o2 and p1 > p2)))


@njit(cache=True, inline="always")
def _heap_swap(hg, ho, hp, hv, a, b):
    hg[a], hg[b] = hg[b], hg[a]
    ho[a], ho[b] = ho[b], ho[a]
    hp[a], hp[b] = hp[b], hp[a]
    hv[a], hv[b] = hv[b], hv[a]


@njit(cache=True)
def _heap_down(hg, ho, hp, hv, size, at):
    """Sift entry `at` down a min-heap ordered by (g, order, position)."""
    while True:
        least, left, right = at, 2 * at + 1, 2 * at + 2
        if left < size and _after(hg[least], ho[least], hp[least], hg[left], ho[left], hp[left]):
            least = left
        if right < size and _after(hg[least], ho[least], hp[least], hg[right], ho[right], hp[right]):
            least = right
        if least == at:
            return
        _heap_swap(hg, ho, hp, hv, at, least)
        at = least


@njit(cache=True)
def _heap_push(hg, ho, hp, hv, size, g, o, p, v):
    """Add (g, o, p) of version v to the min-heap of `size` entries; returns the new size."""
    at = size
    hg[at], ho[at], hp[at], hv[at] = g, o, p, v
    while at > 0:
        up = (at - 1) // 2
        if not _after(hg[up], ho[up], hp[up], hg[at], ho[at], hp[at]):
            break
        _heap_swap(hg, ho, hp, hv, at, up)
        at = up
    return size + 1


@njit(cache=True)
def _heap_pop(hg, ho, hp, hv, size):
    """Drop the least entry; returns the new size."""
    size -= 1
    hg[0], ho[0], hp[0], hv[0] = hg[size], ho[size], hp[size], hv[size]
    _heap_down(hg, ho, hp, hv, size, 0)
    return size


@njit(cache=True, inline="always")
def _g(own, below, leaves, j):
    """g(t) = (R(t) - R(T_t)) / (|leaves(T_t)| - 1) of node j in the tree pruned so far."""
    return (own[j] - below[j]) / (leaves[j] - 1)


@njit(cache=True)
def _heapify(hg, ho, hp, hv, size):
    for at in range(size // 2 - 1, -1, -1):
        _heap_down(hg, ho, hp, hv, size, at)


@njit(cache=True)
def _g_heap(own, below, leaves, order, internal, hg, ho, hp, hv):
    """A min-heap of every internal node's (g, order, position), version 0; returns its size."""
    size = 0
    for j in range(internal.shape[0]):
        if internal[j]:
            hg[size], ho[size], hp[size], hv[size] = _g(own, below, leaves, j), order[j], j, 0
            size += 1
    _heapify(hg, ho, hp, hv, size)
    return size


@njit(cache=True, nogil=True)
def weakest_links(own, below, leaves, end, parent, order, internal, limit,
                  out_node, out_risk_subtree, out_leaves, out_shown, out_g, done):
    """Up to `limit` more links of the weakest-link sequence (`pruning.weakest_links`, whose
    numbers these are): nodes in pre-order, node i's subtree the positions i..end[i], parent[i]
    its parent's position (-1 at the root); own[i] R(t), below[i] R(T_t) and leaves[i]
    |leaves(T_t)| of the tree pruned so far, updated in place, as is `internal`.

    Link k (from `done` on): out_node[k] the position pruned, out_risk_subtree[k] and
    out_leaves[k] its R(T_t) and leaves before, out_shown[k] the positions of the internal nodes
    with the smallest g(t) = (R(t) - R(T_t)) / (|leaves(T_t)| - 1) in ascending (g, order,
    position), -1 after the last, out_g[k] their g. Returns how many links there are now; stops
    early once the root is a leaf.

    The internal nodes wait in a min-heap by (g, order, position). A prune changes the g of its
    ancestors only: each gets a new version and a new entry, and entries of an old version or of
    a node pruned away are dropped when they come up. When the ancestors are more than a new heap
    costs (a deep chain), the heap is made again instead. A link costs about depth x log(nodes),
    not a pass over every internal node: `pruning.weakest_links` of a 400,000-row tree (25,428
    leaves, 14,696 links) went from 2.3 to 0.23 s. The worst case, a chain pruned link by link
    from its foot, makes a new heap at each link where a pass was made: 1.7 s for 20,000 links,
    against 1.5 s."""
    shown = out_shown.shape[1]
    n = own.shape[0]
    depth = np.zeros(n, dtype=np.int64)  # ancestors of each node
    for j in range(1, n):
        depth[j] = depth[parent[j]] + 1
    version = np.zeros(n, dtype=np.int64)
    capacity = 2 * n + shown + 1
    hg, ho = np.empty(capacity), np.empty(capacity, dtype=np.int64)
    hp, hv = np.empty(capacity, dtype=np.int64), np.empty(capacity, dtype=np.int64)
    size = _g_heap(own, below, leaves, order, internal, hg, ho, hp, hv)
    kept_p = np.empty(shown, dtype=np.int64)
    kept_g, kept_o = np.empty(shown), np.empty(shown, dtype=np.int64)
    k = done
    while k < done + limit and internal[0]:
        m = 0  # the `shown` least valid entries, in order, off the heap
        while m < shown and size > 0:
            j = hp[0]
            if internal[j] and hv[0] == version[j]:
                kept_g[m], kept_o[m], kept_p[m] = hg[0], ho[0], j
                out_shown[k, m], out_g[k, m] = j, hg[0]
                m += 1
            size = _heap_pop(hg, ho, hp, hv, size)
        for r in range(m, shown):
            out_shown[k, r] = -1
        i = kept_p[0]
        for r in range(1, m):  # the others wait again (the first is pruned now)
            size = _heap_push(hg, ho, hp, hv, size, kept_g[r], kept_o[r], kept_p[r], version[kept_p[r]])
        out_node[k] = i
        out_risk_subtree[k] = below[i]
        out_leaves[k] = leaves[i]
        gained = own[i] - below[i]
        lost = leaves[i] - 1
        for j in range(i, end[i] + 1):
            internal[j] = False
        # new entries for the ancestors: pushed one by one, or (a deep node: cheaper) the heap made again
        rebuild = depth[i] * (1 + int(math.log2(size + 2))) > size + depth[i] or size + depth[i] > capacity
        a = parent[i]
        while a >= 0:
            below[a] += gained
            leaves[a] -= lost
            version[a] += 1
            if not rebuild:
                size = _heap_push(hg, ho, hp, hv, size, _g(own, below, leaves, a), order[a], a, version[a])
            a = parent[a]
        below[i] = own[i]
        leaves[i] = 1
        if rebuild:
            size = _heap_again(own, below, leaves, parent, order, internal, version, i, hg, ho, hp, hv, size)
        k += 1
    return k


@njit(cache=True)
def _heap_again(own, below, leaves, parent, order, internal, version, pruned, hg, ho, hp, hv, size):
    """The heap made again after a prune: its entries still current, the pruned node's
    ancestors' new ones, in heap order. Returns its size."""
    kept = 0
    for e in range(size):
        j = hp[e]
        if internal[j] and hv[e] == version[j]:
            hg[kept], ho[kept], hp[kept], hv[kept] = hg[e], ho[e], j, hv[e]
            kept += 1
    a = parent[pruned]
    while a >= 0:
        hg[kept], ho[kept], hp[kept], hv[kept] = _g(own, below, leaves, a), order[a], a, version[a]
        kept += 1
        a = parent[a]
    _heapify(hg, ho, hp, hv, kept)
    return kept


@njit(cache=True, nogil=True)
def surrogate_cuts(order, vals, start, end, primary, out_threshold, out_flipped, out_score):
    """Each numeric attribute's best surrogate cut at the node of level positions start..end
    (`surrogates._numeric`, whose numbers these are, for rows of weight 1): order[k, p] the
    position of the p-th smallest value of attribute k, vals[k, p] that value (missing last);
    primary[q - start] the primary's branch of position q (-1: unknown, the row left out).
    out_score[k] the weight the best cut agrees on, -inf when no cut is valid (fewer than 4
    known rows, or none with 2 on each side); out_threshold its midpoint, out_flipped whether
    x <= t goes right."""
    for k in range(order.shape[0]):
        m, total_l, total_r = 0, 0.0, 0.0
        for p in range(start, end):
            b = primary[order[k, p] - start]
            if b >= 0 and not math.isnan(vals[k, p]):
                m += 1
                if b == 0:
                    total_l += 1.0
                else:
                    total_r += 1.0
        out_score[k] = -np.inf
        if m < 4:
            continue
        count, left_l, left_r = 0, 0.0, 0.0
        previous = 0.0
        previous_straight, previous_flipped = 0.0, 0.0
        for p in range(start, end):
            b = primary[order[k, p] - start]
            x = vals[k, p]
            if b < 0 or math.isnan(x):
                continue
            if count >= 2 and m - count >= 2 and x > previous:  # the cut after the previous row
                best = max(previous_straight, previous_flipped)
                if best > out_score[k]:
                    out_score[k] = best
                    out_threshold[k] = previous / 2 + x / 2
                    out_flipped[k] = previous_flipped > previous_straight
            if b == 0:
                left_l += 1.0
            else:
                left_r += 1.0
            count += 1
            previous = x
            previous_straight = left_l + (total_r - left_r)  # x <= t goes left
            previous_flipped = left_r + (total_l - left_l)  # x <= t goes right
