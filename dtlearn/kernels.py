"""Compiled loops: scoring every cut of many nodes at once, partitioning rows, routing rows.

Why compiled (numba): induction scores every cut between neighbouring values of every numeric
attribute at every node, and prediction walks every row down the tree. Written with numpy
alone, both pay a Python-level cost per node (thousands of nodes) that no vectorisation
removes; compiled, dtlearn grows its trees faster than scikit-learn's C code while keeping
every table. The formulas here are the `measures` definitions rewritten for one pass over
sorted rows (sum_b n_b/n Ent(b) = (sum_b n_b log n_b - sum_b sum_k c_bk log c_bk) / n, and
sum_b n_b/n Gini(b) = (n - sum_b sum_k c_bk^2 / n_b) / n); `tests/test_kernels.py` checks
them equal to the definitions (to 1e-12) and to exact fractions. Without numba the same
functions run as plain Python (slowly).

Layout: a *level* is a set of nodes, node i owning positions starts[i]..ends[i] of the level's
buffers: rows (training row of each position), w (its weight: fractional below a C4.5 split
on a missing value), and for each numeric attribute an order (positions sorted by the
attribute's value within each node, missing values last).
"""

from __future__ import annotations

import math

import numpy as np

try:
    from numba import njit
except ImportError:  # pragma: no cover - the plain-Python fallback
    def njit(*args, **kwargs):
        if args and callable(args[0]):
            return args[0]
        return lambda function: function

OK, NO_KNOWN, ONE_BRANCH, SMALL_LEAF, FEW_CASES, SMALL_SIDE = 0, 1, 2, 3, 4, 5
NO_CORRECTED_GAIN = 8
TIE = 1e-12
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
def _j48_min_split(n_known, m, n_classes):
    raw = 0.1 * n_known / n_classes
    if raw <= m:
        return m
    return min(raw, 25.0)


@njit(cache=True)
def _select(rank, ok, count):
    """First ok candidate within TIE of the best rank; how many ok; how many tie."""
    n_ok = 0
    top = -np.inf
    for c in range(count):
        if ok[c]:
            n_ok += 1
            if rank[c] > top:
                top = rank[c]
    best, ties = -1, 0
    for c in range(count):
        if ok[c] and rank[c] >= top - TIE:
            ties += 1
            if best < 0:
                best = c
    return best, n_ok, ties


@njit(cache=True)
def scan_thresholds(starts, ends, active, order, rows, w, y, X, factor, sized, n_classes,
                    rank_by, min_leaf, min_branch, tolerance, correction,
                    out_index, out_threshold, out_score, out_gain, out_reason, out_ok, out_ties):
    """Every cut of every numeric attribute at every active node (classification).

    For node i and attribute a: out_index[i, a] the best cut's rank among the attribute's cuts
    (-1: none qualifies), out_threshold its midpoint, out_score what the criterion ranks the
    attribute by, out_gain its gain (Gini gain for gini; for gain ratio the corrected gain),
    out_reason OK or why none qualifies, out_ok how many cuts satisfy the split rules,
    out_ties how many cuts tie with the best."""
    K = factor.shape[0]
    A = order.shape[0]
    longest = 1
    for i in range(starts.shape[0]):
        longest = max(longest, ends[i] - starts[i])
    rank = np.empty(longest)
    gain = np.empty(longest)
    ginig = np.empty(longest)
    split = np.empty(longest)
    cut_ok = np.zeros(longest, dtype=np.bool_)
    cut_reason = np.empty(longest, dtype=np.int64)
    cut_at = np.empty(longest, dtype=np.int64)
    left = np.zeros(K)
    known = np.zeros(K)
    for i in range(starts.shape[0]):
        if not active[i]:
            continue
        s, e = starts[i], ends[i]
        node_mass = 0.0
        node_size = 0.0
        for p in range(s, e):
            c = y[rows[p]]
            node_mass += w[p] * factor[c]
            node_size += w[p]
        for a in range(A):
            known[:] = 0.0
            known_size = 0.0
            end = s
            for p in range(s, e):  # missing values sort last: stop at the first
                q = order[a, p]
                if math.isnan(X[a, rows[q]]):
                    break
                c = y[rows[q]]
                known[c] += w[q] * factor[c]
                known_size += w[q]
                end = p + 1
            n_known = 0.0
            for c in range(K):
                n_known += known[c]
            n_all = n_known + max(node_mass - n_known, 0.0)
            missing = n_all - n_known
            rho = n_known / n_all if n_all > 0.0 else 0.0
            h_before = _entropy(known, n_known)
            g_before = _gini(known, n_known)
            left[:] = 0.0
            left_size = 0.0
            count = 0
            previous = X[a, rows[order[a, s]]] if end > s else 0.0
            for p in range(s, end):
                q = order[a, p]
                x = X[a, rows[q]]
                if p > s and previous + tolerance < x:
                    n_left = 0.0
                    for c in range(K):
                        n_left += left[c]
                    n_right = n_known - n_left
                    size_left = left_size if sized else n_left
                    size_right = (known_size if sized else n_known) - size_left
                    # the measures of the cut (see the module docstring)
                    inner = 0.0
                    squares_left = 0.0
                    squares_right = 0.0
                    for c in range(K):
                        r = known[c] - left[c]
                        inner += _xlogx(left[c]) + _xlogx(r)
                        squares_left += left[c] * left[c]
                        squares_right += r * r
                    h_after = (_xlogx(n_left) + _xlogx(n_right) - inner) / n_known
                    gain[count] = max(rho * (h_before - h_after), 0.0)
                    kept = (squares_left / n_left if n_left > 0 else 0.0) + \
                        (squares_right / n_right if n_right > 0 else 0.0)
                    ginig[count] = max(rho * (g_before - (n_known - kept) / n_known), 0.0)
                    split[count] = (_xlogx(n_all) - _xlogx(n_left) - _xlogx(n_right) - _xlogx(missing)) / n_all
                    reason = OK
                    nonempty = (1 if size_left > 0 else 0) + (1 if size_right > 0 else 0)
                    if nonempty < 2:
                        reason = ONE_BRANCH
                    if size_left + size_right <= 0:
                        reason = NO_KNOWN
                    if min_leaf > 0 and reason == OK:
                        if (0 < size_left < min_leaf) or (0 < size_right < min_leaf):
                            reason = SMALL_LEAF
                    if min_branch > 0 and reason == OK:
                        if min(size_left, size_right) < _j48_min_split(size_left + size_right, min_branch, n_classes):
                            reason = SMALL_SIDE
                    cut_reason[count] = reason
                    cut_ok[count] = reason == OK
                    rank[count] = ginig[count] if rank_by == BY_GINI else gain[count]
                    cut_at[count] = p
                    count += 1
                c = y[rows[q]]
                left[c] += w[q] * factor[c]
                left_size += w[q]
                previous = x
            _settle(i, a, count, rank, gain, ginig, split, cut_ok, cut_reason, cut_at, order, rows, X,
                    known_size if sized else n_known, node_size, rank_by, correction,
                    out_index, out_threshold, out_score, out_gain, out_reason, out_ok, out_ties)


@njit(cache=True)
def _settle(i, a, count, rank, gain, ginig, split, cut_ok, cut_reason, cut_at, order, rows, X, known_size,
            node_size, rank_by, correction, out_index, out_threshold, out_score, out_gain, out_reason,
            out_ok, out_ties):
    """Pick attribute a's competing cut at node i from its scored cuts."""
    best, n_ok, ties = _select(rank, cut_ok, count)
    out_ok[i, a] = n_ok
    out_ties[i, a] = ties
    out_index[i, a] = -1
    out_score[i, a] = 0.0
    out_gain[i, a] = 0.0
    out_threshold[i, a] = np.nan
    if best < 0:
        if known_size <= 0.0:
            out_reason[i, a] = NO_KNOWN
        elif count == 0:
            out_reason[i, a] = ONE_BRANCH
        else:
            worst = 99
            for c in range(count):
                if cut_reason[c] != OK and cut_reason[c] < worst:
                    worst = cut_reason[c]
            out_reason[i, a] = worst if worst != 99 else ONE_BRANCH
        return
    p = cut_at[best]
    below = X[a, rows[order[a, p - 1]]]
    above = X[a, rows[order[a, p]]]
    mid = below / 2 + above / 2
    if mid >= above or not math.isfinite(mid):
        mid = below
    out_threshold[i, a] = mid
    out_reason[i, a] = OK
    if rank_by == BY_RATIO:
        g = gain[best]
        if correction:
            g -= math.log2(max(n_ok, 1)) / node_size
        out_gain[i, a] = g
        if g <= TIE:
            out_reason[i, a] = NO_CORRECTED_GAIN
            return
        out_score[i, a] = g / split[best] if split[best] > 0 else 0.0
    elif rank_by == BY_GINI:
        out_gain[i, a] = ginig[best]
        out_score[i, a] = ginig[best]
    else:
        out_gain[i, a] = gain[best]
        out_score[i, a] = gain[best]
    out_index[i, a] = best


@njit(cache=True)
def scan_thresholds_regression(starts, ends, active, order, rows, w, y, X, min_leaf,
                               out_index, out_threshold, out_score, out_gain, out_reason, out_ok, out_ties):
    """Every cut of every numeric attribute at every active node (regression: the decrease in
    mean squared error, rho * (sum_b S_b^2 / n_b - S^2 / n) / n, from the moments (w, wy))."""
    A = order.shape[0]
    longest = 1
    for i in range(starts.shape[0]):
        longest = max(longest, ends[i] - starts[i])
    rank = np.empty(longest)
    cut_ok = np.zeros(longest, dtype=np.bool_)
    cut_reason = np.empty(longest, dtype=np.int64)
    cut_at = np.empty(longest, dtype=np.int64)
    for i in range(starts.shape[0]):
        if not active[i]:
            continue
        s, e = starts[i], ends[i]
        node_size = 0.0
        for p in range(s, e):
            node_size += w[p]
        for a in range(A):
            n_known = 0.0
            s_known = 0.0
            end = s
            for p in range(s, e):
                q = order[a, p]
                if math.isnan(X[a, rows[q]]):
                    break
                n_known += w[q]
                s_known += w[q] * y[rows[q]]
                end = p + 1
            n_all = n_known + max(node_size - n_known, 0.0)
            rho = n_known / n_all if n_all > 0.0 else 0.0
            base = s_known * s_known / n_known if n_known > 0 else 0.0
            n_left = 0.0
            s_left = 0.0
            count = 0
            previous = X[a, rows[order[a, s]]] if end > s else 0.0
            for p in range(s, end):
                q = order[a, p]
                x = X[a, rows[q]]
                if p > s and previous < x:
                    n_right = n_known - n_left
                    s_right = s_known - s_left
                    kept = (s_left * s_left / n_left if n_left > 0 else 0.0) + \
                        (s_right * s_right / n_right if n_right > 0 else 0.0)
                    rank[count] = rho * max(kept - base, 0.0) / n_known
                    reason = OK
                    if (1 if n_left > 0 else 0) + (1 if n_right > 0 else 0) < 2:
                        reason = ONE_BRANCH
                    if min_leaf > 0 and reason == OK:
                        if (0 < n_left < min_leaf) or (0 < n_right < min_leaf):
                            reason = SMALL_LEAF
                    cut_reason[count] = reason
                    cut_ok[count] = reason == OK
                    cut_at[count] = p
                    count += 1
                n_left += w[q]
                s_left += w[q] * y[rows[q]]
                previous = x
            _settle(i, a, count, rank, rank, rank, rank, cut_ok, cut_reason, cut_at, order, rows, X,
                    n_known, node_size, BY_GAIN, False,
                    out_index, out_threshold, out_score, out_gain, out_reason, out_ok, out_ties)


@njit(cache=True)
def scan_multiway(starts, ends, active, codes, n_values, rows, w, y, factor, sized, rank_by, min_leaf,
                  min_branch, out_index, out_score, out_gain, out_reason):
    """One branch per value of each categorical attribute at every active node (ID3, C4.5)."""
    K = factor.shape[0]
    A = codes.shape[0]
    most = 1
    for a in range(A):
        most = max(most, n_values[a])
    counts = np.zeros((most, K))
    sizes = np.zeros(most)
    seen = np.zeros(most, dtype=np.bool_)
    touched = np.empty(most, dtype=np.int64)
    known = np.zeros(K)
    for i in range(starts.shape[0]):
        if not active[i]:
            continue
        s, e = starts[i], ends[i]
        for a in range(A):
            n_touched = 0
            missing = 0.0
            for p in range(s, e):
                r = rows[p]
                v = codes[a, r]
                c = y[r]
                mass = w[p] * factor[c]
                if v < 0:
                    missing += mass
                    continue
                if not seen[v]:
                    seen[v] = True
                    touched[n_touched] = v
                    n_touched += 1
                counts[v, c] += mass
                sizes[v] += w[p]
            touched[:n_touched].sort()
            known[:] = 0.0
            n_known = 0.0
            known_size = 0.0
            nonempty = 0
            enough = 0
            small = False
            for t in range(n_touched):
                v = touched[t]
                size = sizes[v]
                for c in range(K):
                    known[c] += counts[v, c]
                if size > 0:
                    nonempty += 1
                    if min_leaf > 0 and size < min_leaf:
                        small = True
                if min_branch > 0 and size >= min_branch:
                    enough += 1
                known_size += size
            for c in range(K):
                n_known += known[c]
            n_all = n_known + missing
            rho = n_known / n_all if n_all > 0 else 0.0
            h_after = 0.0
            g_after = 0.0
            split = 0.0
            for t in range(n_touched):
                v = touched[t]
                mass = 0.0
                for c in range(K):
                    mass += counts[v, c]
                share = mass / n_known if n_known > 0 else 0.0
                h_after += share * _entropy(counts[v], mass)
                g_after += share * _gini(counts[v], mass)
                if mass > 0 and n_all > 0:
                    part = mass / n_all
                    split -= part * math.log2(part)
            if missing > 0 and n_all > 0:
                part = missing / n_all
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
            for t in range(n_touched):  # clean the scratch for the next attribute
                v = touched[t]
                seen[v] = False
                sizes[v] = 0.0
                for c in range(K):
                    counts[v, c] = 0.0


@njit(cache=True)
def threshold_branches(starts, ends, split, attribute, threshold, rows, X, out):
    """Branch 0 (<= threshold), 1 (>) or -1 (missing) of each position of the split nodes."""
    for i in range(starts.shape[0]):
        if not split[i] or attribute[i] < 0:
            continue
        a, t = attribute[i], threshold[i]
        for p in range(starts[i], ends[i]):
            x = X[a, rows[p]]
            out[p] = -1 if math.isnan(x) else (0 if x <= t else 1)


@njit(cache=True)
def code_branches(starts, ends, split, attribute, map_start, maps, rows, codes, out):
    """The branch of each position of nodes split on a categorical test: maps[map_start[i] + code]
    (-1: missing)."""
    for i in range(starts.shape[0]):
        if not split[i] or attribute[i] < 0:
            continue
        a, m = attribute[i], map_start[i]
        for p in range(starts[i], ends[i]):
            v = codes[a, rows[p]]
            out[p] = -1 if v < 0 else maps[m + v]


@njit(cache=True)
def partition(starts, ends, split, n_children, first_child, fractions, branch, share_unknown,
              rows, w, order, child_starts):
    """The next level's buffers: each split node's positions go to their branch's child (in
    order, so every attribute's order stays sorted); a position whose branch is unknown (-1) goes
    to every child with a positive share, its weight times the share (C4.5), when
    `share_unknown`, else it stays behind (rpart, after its surrogates). `child_starts` (children
    + 1) receives the children's segments; returns (rows, w, order) of the next level."""
    n_kids = child_starts.shape[0] - 1
    size = np.zeros(n_kids + 1, dtype=np.int64)
    for i in range(starts.shape[0]):
        if not split[i]:
            continue
        for p in range(starts[i], ends[i]):
            b = branch[p]
            if b >= 0:
                size[first_child[i] + b] += 1
            elif b == -1 and share_unknown:
                for k in range(n_children[i]):
                    if fractions[first_child[i] + k] > 0:
                        size[first_child[i] + k] += 1
    child_starts[0] = 0
    for k in range(n_kids):
        child_starts[k + 1] = child_starts[k] + size[k]
    total = child_starts[n_kids]
    new_rows = np.empty(total, dtype=rows.dtype)
    new_w = np.empty(total)
    new_position = np.full(rows.shape[0], -1, dtype=np.int64)  # known rows: their child position
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
                new_position[p] = fill[k]
                fill[k] += 1
        for k in range(n_children[i]):
            n_known[first + k] = fill[first + k]
        if share_unknown:
            u = 0
            for p in range(starts[i], ends[i]):  # then the unknown rows, in every branch
                if branch[p] == -1:
                    unknown_rank[p] = u
                    u += 1
                    for k in range(first, first + n_children[i]):
                        if fractions[k] > 0:
                            at = child_starts[k] + fill[k]
                            new_rows[at] = rows[p]
                            new_w[at] = w[p] * fractions[k]
                            fill[k] += 1
    A = order.shape[0]
    new_order = np.empty((A, total), dtype=order.dtype)
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
                    new_order[a, child_starts[k] + fill[k]] = child_starts[k] + new_position[q]
                    fill[k] += 1
                elif b == -1 and share_unknown:
                    for k in range(first, first + n_children[i]):
                        if fractions[k] > 0:
                            new_order[a, child_starts[k] + fill[k]] = child_starts[k] + n_known[k] + unknown_rank[q]
                            fill[k] += 1
    return new_rows, new_w, new_order


# --- routing rows down a finished tree ----------------------------------------------------------

@njit(cache=True)
def _branch(node, row, kind, attribute, threshold, map_start, maps, values, codes):
    """A row's branch at a node's test: 0.. or -1 (missing / unseen value)."""
    a = attribute[node]
    if kind[node] == 1:
        x = values[a, row]
        if math.isnan(x):
            return -1
        return 0 if x <= threshold[node] else 1
    v = codes[a, row]
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
            x = values[a, row]
            if not math.isnan(x):
                b = 0 if x <= s_threshold[s] else 1
        else:
            v = codes[a, row]
            if v >= 0:
                b = maps[s_map_start[s] + v]
        if b >= 0:
            return b ^ s_reversed[s]
    return -1


SHARE, FOLLOW = 0, 1  # a row with an unknown branch: down every branch by share (C4.5), or one way


@njit(cache=True)
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
        stack_node[0] = 0
        stack_weight[0] = weights[r]
        top = 1
        heaviest = -1
        heaviest_weight = -1.0
        while top > 0:
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
