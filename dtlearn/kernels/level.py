"""A level's rows: ties sorted by row, each node's sums, each position's branch, and the buffers
partitioned into the children's segments (in place, or shared among branches as C4.5 shares rows).
"""

from __future__ import annotations

import math

import numpy as np

from ..jit import njit
from .routing import code_branch, value_branch


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
def node_sums(level, width, out):
    """Each node's class weights (or, with ypos, its moments w, w y, w y^2) into out[node]."""
    starts, ends, w, cls, ypos = level.starts, level.ends, level.w, level.cls, level.ypos
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
def branch_weights(level, splits, branch, out):
    """The known weight each child of a split node receives (rows of an unknown branch aside)."""
    starts, ends, w = level.starts, level.ends, level.w
    split, n_children, first_child = splits
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
def mark_leaves(level, leaf, base, out):
    """out[row] = base + i for every row of every node i that is a leaf."""
    starts, ends, rows = level.starts, level.ends, level.rows
    for i in range(starts.shape[0]):
        if leaf[i]:
            for p in range(starts[i], ends[i]):
                out[rows[p]] = base + i


@njit(cache=True)
def any_unknown(level, split, branch):
    """Whether a position of a split node has branch -1 (a value no test could place)."""
    starts, ends = level.starts, level.ends
    for i in range(starts.shape[0]):
        if split[i]:
            for p in range(starts[i], ends[i]):
                if branch[p] == -1:
                    return True
    return False


@njit(cache=True)
def threshold_branches(level, split, attribute, threshold, out):
    """The branch of each position of the nodes split on a threshold test of a numeric
    attribute (`routing.value_branch`), its values read off the attribute's sorted segment."""
    starts, ends, order, vals = level.starts, level.ends, level.order, level.vals
    for i in range(starts.shape[0]):
        if not split[i] or attribute[i] < 0:
            continue
        a = attribute[i]
        for p in range(starts[i], ends[i]):
            out[order[a, p]] = value_branch(vals[a, p], threshold[i])


@njit(cache=True)
def code_branches(level, split, attribute, map_start, maps, codes, out):
    """The branch of each position of the nodes split on a categorical test
    (`routing.code_branch`, node i's value map from maps[map_start[i]]); `codes` is (rows,
    attributes)."""
    starts, ends, rows = level.starts, level.ends, level.rows
    for i in range(starts.shape[0]):
        if not split[i] or attribute[i] < 0:
            continue
        a, m = attribute[i], map_start[i]
        for p in range(starts[i], ends[i]):
            out[p] = code_branch(codes[rows[p], a], maps, m)


@njit(cache=True, nogil=True)
def partition_in_place(level, splits, branch, child_starts, child_ends, order_to, vals_to, descending, unit, scratch):
    """Each split node's segment reordered in place so that its children's positions are
    consecutive, in branch order, each keeping its positions' order; positions of branch -1
    (rows nothing could place) go last, to no child. Every attribute's sorted order (and its
    values) goes, so reordered and still sorted, into the same segment of `order_to` (`vals_to`):
    no copy back. The two may be rows of one array one attribute apart (`engine_plan.Level`):
    the attributes are then taken in the order in which a row is read before it is written
    (`descending`: `order_to[a]` is `order[a + 1]`). A non-split node's segment of `order_to`
    is left as it is. Every array keeps its size: the next level reads sub-segments. `unit`: every
    weight is 1 (w is left as it is). `scratch`: (moved, rows, cls, w, ypos) buffers at least as long
    as the level's (`engine_plan.Plan.partition_scratch`: made once a fit, not a level: fresh memory
    costs a page fault every 4 kB)."""
    starts, ends, rows, w, cls, ypos, order, vals = level
    split, n_children, first_child = splits
    # each position's child (high half) and new position (low half): one gather a place of `order`
    moved, buffer_i, buffer_c, buffer_f, buffer_y = scratch
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
        for q in range(s, e):  # (in place: each position's new position is its own)
            b = branch[q]
            b = b if b >= 0 else B
            t = fill[b]
            fill[b] += 1
            moved[q] = (np.int64(b) << 32) | t
            if not in_place:
                buffer_i[t] = rows[q]
                buffer_c[t] = cls[q]
                if not unit:
                    buffer_f[t] = w[q]
                if regression:
                    buffer_y[t] = ypos[q]
        if not in_place:
            for t in range(s, e):
                rows[t] = buffer_i[t]
                cls[t] = buffer_c[t]
                if not unit:
                    w[t] = buffer_f[t]
                if regression:
                    ypos[t] = buffer_y[t]
        two = B == 2 and bound[2] == e  # two children, every position placed: the fills in registers
        A = order.shape[0]
        for k in range(A):
            a = A - 1 - k if descending else k
            if in_place:  # an attribute whose sorted order is in branch order too stays as it is
                last = 0
                ordered = True
                for p in range(s, e):
                    b = moved[order[a, p]] >> 32
                    if b < last:
                        ordered = False
                        break
                    last = b
                if ordered:
                    for p in range(s, e):
                        order_to[a, p] = order[a, p]
                        vals_to[a, p] = vals[a, p]
                    continue
            if two:  # no branch on the side: it comes in no order a predictor could learn
                left, right = bound[0], bound[1]
                for p in range(s, e):
                    c = moved[order[a, p]]
                    goes_right = c >> 32
                    t = right if goes_right else left
                    right += goes_right
                    left += 1 - goes_right
                    order_to[a, t] = c & 0xFFFFFFFF
                    vals_to[a, t] = vals[a, p]
            else:
                fill[:B + 1] = bound[:B + 1]
                for p in range(s, e):
                    c = moved[order[a, p]]
                    b = c >> 32
                    t = fill[b]
                    fill[b] += 1
                    order_to[a, t] = c & 0xFFFFFFFF
                    vals_to[a, t] = vals[a, p]


@njit(cache=True, nogil=True)
def partition_shared(level, splits, fractions, branch, child_starts):
    """The next level's buffers when rows with an unknown value (branch -1) go down every branch
    with a positive share, their weight times the share (C4.5): each child gets its known rows
    (in order), then the shared ones. Returns (rows, w, cls, ypos, order, vals), order and vals
    with a row more than the attributes, the first spare (`engine_plan.Level.sorted_store`)."""
    starts, ends, rows, w, cls, ypos, order, vals = level
    split, n_children, first_child = splits
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
    new_order = np.empty((A + 1, total), dtype=order.dtype)
    new_vals = np.empty((A + 1, total))
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
                    new_order[a + 1, t] = child_starts[k] + new_position[q]
                    new_vals[a + 1, t] = vals[a, p]
                    fill[k] += 1
                else:
                    for k in range(first, first + n_children[i]):
                        if fractions[k] > 0:
                            t = child_starts[k] + fill[k]
                            new_order[a + 1, t] = child_starts[k] + n_known[k] + unknown_rank[q]
                            new_vals[a + 1, t] = vals[a, p]
                            fill[k] += 1
    return new_rows, new_w, new_cls, new_y, new_order, new_vals
