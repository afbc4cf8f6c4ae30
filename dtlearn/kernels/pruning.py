"""The weakest-link sequence of cost-complexity pruning (Breiman et al. 1984), from a min-heap of
the internal nodes' g(t).
"""

from __future__ import annotations

import math

import numpy as np

from ..jit import njit


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
def weakest_links(tree, limit, links, done):
    """Up to `limit` more links of the weakest-link sequence (`pruning.weakest_links`, whose
    numbers these are) of `tree` (`layout.Subtrees`: nodes in pre-order, node i's subtree the
    positions i..end[i]; below, leaves and internal are updated in place as it prunes).

    Link k (from `done` on), in `links` (`layout.Links`): node[k] the position pruned,
    risk_subtree[k] and leaves[k] its R(T_t) and leaves before, shown[k] the positions of the
    internal nodes with the smallest g(t) = (R(t) - R(T_t)) / (|leaves(T_t)| - 1) in ascending
    (g, order, position), -1 after the last, g[k] their g. Returns how many links there are now;
    stops early once the root is a leaf.

    The internal nodes wait in a min-heap by (g, order, position). A prune changes the g of its
    ancestors only: each gets a new version and a new entry, and entries of an old version or of
    a node pruned away are dropped when they come up. When the ancestors are more than a new heap
    costs (a deep chain), the heap is made again instead. A link costs about depth x log(nodes),
    not a pass over every internal node; the worst case, a chain pruned link by link from its
    foot, makes a new heap at each link, about the cost of such a pass."""
    own, below, leaves, end, parent, order, internal = tree
    out_node, out_risk_subtree, out_leaves, out_shown, out_g = links
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
