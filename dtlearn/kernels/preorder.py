"""A grown tree's nodes in the order its steps are numbered, and C4.5's training errors.

Growth makes nodes a level at a time (a node's children consecutive, after it); the steps are
numbered depth-first, pre-order, and a split numbers its children as it is made. Both loops run
once per node, so they are compiled with the rest of the kernels. They fill arrays made by the
caller (numpy's own: arrays numba makes pickle to other bytes).
"""

from __future__ import annotations

import numpy as np

from ..jit import njit


@njit(cache=True, nogil=True)
def preorder(first_child, n_children, order, ids, span):
    """Fills `order` (the node index at each pre-order position), `ids` (each node's id: the
    root 0, a split gives its children the next ids; zeros on entry) and `span` (each node's
    subtree size in nodes; ones on entry)."""
    size = first_child.shape[0]
    if size == 0:
        return
    stack = np.empty(size, dtype=np.int64)
    stack[0] = 0
    top, position, next_id = 1, 0, 1
    while top > 0:
        top -= 1
        t = stack[top]
        order[position] = t
        position += 1
        first, n = first_child[t], n_children[t]
        for j in range(n):
            ids[first + j] = next_id + j
        next_id += n
        for j in range(n - 1, -1, -1):
            stack[top] = first + j
            top += 1
    for t in range(size - 1, -1, -1):  # children come after their parent
        for j in range(n_children[t]):
            span[t] += span[first_child[t] + j]


@njit(cache=True, nogil=True)
def training_errors(stats, first_child, n_children, alone, below):
    """Fills `alone` (each node's training errors as a leaf: its weight less its heaviest
    class's) and `below` (those of its subtree's leaves, summed in branch order)."""
    size, k = stats.shape[0], stats.shape[1]
    for t in range(size - 1, -1, -1):
        total, heaviest = 0.0, 0.0
        for c in range(k):
            total += stats[t, c]
            if c == 0 or stats[t, c] > heaviest:
                heaviest = stats[t, c]
        alone[t] = total - heaviest
        if n_children[t] == 0:
            below[t] = alone[t]
        else:
            summed = 0.0
            for j in range(n_children[t]):
                summed += below[first_child[t] + j]
            below[t] = summed
