"""Rows down a tree: the rule of one test for one value, written once (`value_branch`,
`code_branch`) and applied to a column of values (`dtlearn.routing.branches`), to a level's
rows (`level`), and to every row down a finished tree laid out by `dtlearn.routing.FlatTree`
(`route`: prediction, each row's leaf, the weight reaching each node).
"""

from __future__ import annotations

import math

import numpy as np

from ..jit import njit


@njit(cache=True, inline="always")
def value_branch(x, threshold):
    """A number's branch at a threshold test: 0 when x <= t, 1 above, -1 when it is missing."""
    if math.isnan(x):
        return -1
    return 0 if x <= threshold else 1


@njit(cache=True, inline="always")
def code_branch(v, maps, start):
    """A category's branch at a categorical test whose value map starts at maps[start]: the
    map's entry for its code (-1: the test cannot place the value); -1 when it is missing (code
    -1); for a value never seen in training (code below -1) the test's own rule, maps[start - 1]."""
    if v == -1:
        return -1
    if v < -1:
        return maps[start - 1]
    return maps[start + v]


@njit(cache=True)
def surrogate_branch(node, row, surrogates, maps, rows):
    """The branch the first usable surrogate of a node gives a row (-1: none can tell); the
    surrogates' value maps are in `maps`."""
    for s in range(surrogates.start[node], surrogates.start[node] + surrogates.count[node]):
        a = surrogates.attribute[s]
        if surrogates.kind[s] == 1:
            b = value_branch(rows.values[row, a], surrogates.threshold[s])
        else:
            b = code_branch(rows.codes[row, a], maps, surrogates.map_start[s])
        if b >= 0:
            return b ^ surrogates.reversed[s]
    return -1


@njit(cache=True)
def branches_by_threshold(values, threshold, out):
    """out[r]: the branch of values[r] at a threshold test."""
    for r in range(values.shape[0]):
        out[r] = value_branch(values[r], threshold)


@njit(cache=True)
def branches_by_code(codes, maps, start, out):
    """out[r]: the branch of codes[r] at a categorical test whose value map starts at maps[start]."""
    for r in range(codes.shape[0]):
        out[r] = code_branch(codes[r], maps, start)


SHARE, FOLLOW = 0, 1  # a row with an unknown branch: down every branch by share (C4.5), or one way


@njit(cache=True, nogil=True)
def route(rows, tests, surrogates, mode, majority, out):
    """Send every row (`layout.Rows`) down the tree from the root (`layout.FlatTests`: flat node
    0; a node's children are consecutive from child_start[node]).

    A row whose branch is unknown at a node (a missing value, or a value the test never saw)
    tries the node's surrogates in rank order; if none can tell, with mode SHARE it goes down
    every branch with weight times the branch's share (C4.5), with mode FOLLOW down the
    `majority` branch, and where that is -1 (rpart's tie) it ends at the node.
    Outputs (`layout.Routed`), each skipped when empty: values[row] += weight * node_values[node]
    where the row's weight ends; node_totals[node, y[row]] += the weight reaching each node;
    leaf_of[row] = the node where the row's largest weight ends."""
    values, codes, weights = rows
    kind, attribute, threshold, map_start, maps, child_start, n_child, share, node_values = tests
    out_values, y, node_totals, leaf_of = out
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
        while kind[node] != 0:  # (the test written out: a helper handed the arrays costs several times it)
            a = attribute[node]
            if kind[node] == 1:
                b = value_branch(values[r, a], threshold[node])
            else:
                b = code_branch(codes[r, a], maps, map_start[node])
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
                a = attribute[node]
                if kind[node] == 1:
                    b = value_branch(values[r, a], threshold[node])
                else:
                    b = code_branch(codes[r, a], maps, map_start[node])
                if b < 0 and surrogates.count[node] > 0:
                    b = surrogate_branch(node, r, surrogates, maps, rows)
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
