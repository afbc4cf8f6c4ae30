"""The errors C4.5's pessimistic pruning estimates (Quinlan 1993), as Weka's J48 computes them:
the upper confidence bound U_CF(E, N), and the training rows sorted down the tree and re-sorted
after a raise (J48's resetDistribution), summed in J48's order."""

from __future__ import annotations

import math
from functools import lru_cache
from statistics import NormalDist

import numpy as np

from ..routing import branches, encode_training, single_paths
from ..steps import Growth
from ..tree import Tree
from .walk import _added, _Work


def added_errors(n: float, e: float, confidence: float = 0.25) -> float:
    """U_CF(E, N) - E: the extra errors of C4.5's upper confidence bound (Quinlan 1993; as
    Weka's Stats.addErrs, with its interpolations for E < 1 and E close to N).

    >>> round(added_errors(6, 0), 4)   # N (1 - CF^(1/N)) = 6 (1 - 0.25^(1/6))
    1.2378
    """
    if confidence > 0.5:
        return 0.0
    if e < 1:
        base = n * (1 - confidence ** (1 / n))
        return base if e == 0 else base + e * (added_errors(n, 1, confidence) - base)
    if e + 0.5 >= n:
        return max(n - e, 0.0)
    z = _z(confidence)
    f = (e + 0.5) / n
    r = (f + z * z / (2 * n) + z * math.sqrt(f / n - f * f / n + z * z / (4 * n * n))) / (1 + z * z / n)
    return float(r * n - e)


@lru_cache(maxsize=64)
def _z(confidence: float) -> float:
    """The normal quantile of 1 - CF (asked once per node and leaf: thousands of times a tree)."""
    return NormalDist().inv_cdf(1 - confidence)


def _estimated(weights: np.ndarray, confidence: float) -> float:
    total, most = _total_and_most(weights)
    if total <= 1e-6:
        return 0.0
    wrong = total - most
    return wrong + added_errors(total, wrong, confidence)


def _total_and_most(weights: np.ndarray) -> tuple[float, float]:
    """The sum and the largest of a node's class weights, in plain Python (`_added`: numpy's
    order of additions): two numpy calls per node outweigh the arithmetic on a deep tree."""
    values = weights.tolist()
    return _added(values), max(values)


class _Training:
    """The training rows as pessimistic pruning re-sorts them (J48's resetDistribution)."""

    def __init__(self, tree: Tree) -> None:
        self.settled = False  # every row on one path, weight 1, none re-sorted since `assign_all`
        if tree.data is None:
            raise ValueError("This tree does not carry its training data; fit it with dtlearn.fit.")
        origin = tree.steps[0].origin if tree.steps and tree.steps[0].origin is not None else None
        origin = origin or Growth(tree.data, tree.settings, tree.class_factor, tree.task)
        self.origin = origin
        self.encoded = origin.encoded
        self.k = len(tree.classes)

    def class_weights(self, rows: np.ndarray, weights: np.ndarray) -> np.ndarray:
        return np.bincount(self.encoded.y[rows], weights=weights, minlength=self.k).astype(float)

    def counts(self, work: _Work) -> np.ndarray:
        """The class weights of the rows at `work`, summed once per assignment (a node is asked
        again and again: as itself, a child, a leaf below)."""
        if work.counts is None:
            work.counts = self.class_weights(work.rows, work.weights)
        return work.counts

    def estimated(self, work: _Work, cf: float) -> float:
        """`_estimated` errors of `work` as a leaf, once per assignment of its rows."""
        counts = self.counts(work)
        if not work.estimate or work.estimate[0] is not counts:
            work.estimate = (counts, _estimated(counts, cf))
        return work.estimate[1]

    def subtree_errors(self, work: _Work, cf: float) -> float:
        """Estimated errors of `work`'s subtree (J48's getEstimatedErrors): a leaf's own, else the
        sum its decision found over its children, each child's total in turn (as J48 sums them, son
        by son). Read, not walked: on a kept chain, summing every leaf below every node is
        quadratic. A node's children are always decided before it, and a raise re-sorts rows
        only below a node that is decided again after."""
        return self.estimated(work, cf) if work.is_leaf else work.subtree_estimate

    def split(self, work: _Work, rows: np.ndarray, weights: np.ndarray, keep_shares: bool):
        """The rows and weights each child of `work` receives; the shares of the known weight
        are recomputed from these rows (and stored when `keep_shares`). Without an unknown value
        the children's arrays are views of the node's (sorted in place by branch)."""
        branch = branches(self.encoded, work.test, rows)
        n_children = len(work.children)
        known = np.bincount(branch[branch >= 0], weights=weights[branch >= 0], minlength=n_children)
        shares = tuple(known / known.sum()) if known.sum() > 0 else work.fractions
        if keep_shares:
            work.fractions = shares
        if not (branch < 0).any():
            # a stable sort by branch, in linear time (a sort per node is quadratic-log on a deep tree)
            if (branch[1:] < branch[:-1]).any():  # rows already in branch order stay where they are
                order = np.concatenate([np.flatnonzero(branch == b) for b in range(n_children)])
                rows[:] = rows[order]
                weights[:] = weights[order]
            bounds = np.concatenate([[0], np.cumsum(np.bincount(branch, minlength=n_children))])
            return [(rows[a:b], weights[a:b]) for a, b in zip(bounds[:-1], bounds[1:])]
        unknown = branch < 0
        parts = []
        for b in range(n_children):
            keep = (branch == b) | (unknown & (shares[b] > 0))
            parts.append((rows[keep].copy(), np.where(unknown, weights * shares[b], weights)[keep]))
        return parts

    def assign_all(self, root: _Work, flat) -> None:
        """`assign` of every training row (weight 1) from the root of the unpruned tree (`flat`:
        its routing arrays). When every row takes one path, growth's record (else one routing
        pass) gives each row's leaf and the rows are sorted by leaf in pre-order: each node's rows
        are then one slice, in the order `assign` leaves them, and its counts and shares follow
        from its leaves'. `assign` sorts the rows again at every node: O(rows x depth)."""
        n = self.encoded.n_rows
        order = list(root.walk())  # pre-order, children in branch order
        leaves = [work for work in order if work.is_leaf]
        leaf_rank = self._grown_leaf_ranks(leaves)
        if leaf_rank is None:
            leaf_of = single_paths(flat, encode_training(flat, self.encoded))
            if leaf_of is None:  # a missing value on the way: rows are shared between branches
                self.assign(root, np.arange(n), np.ones(n))
                return
            rank = np.full(len(flat.ids), -1, dtype=np.int64)
            position = {int(node_id): i for i, node_id in enumerate(flat.ids)}
            rank[[position[work.id] for work in leaves]] = np.arange(len(leaves))
            leaf_rank = rank[leaf_of]
        self.settled = True
        rows = np.argsort(leaf_rank, kind="stable")  # within a leaf, ascending rows (as `assign`)
        weights = np.ones(n)
        by_class = np.zeros((len(leaves), self.k))
        np.add.at(by_class, (leaf_rank, self.encoded.y), 1.0)
        ends = np.cumsum(np.bincount(leaf_rank, minlength=len(leaves)))
        span: dict[int, tuple[int, int]] = {}
        for i, work in enumerate(leaves):
            span[work.id] = (int(ends[i - 1]) if i else 0, int(ends[i]))
            work.counts = by_class[i]
        for work in reversed(order):  # children before parents
            if not work.is_leaf:
                span[work.id] = (span[work.children[0].id][0], span[work.children[-1].id][1])
                work.counts = sum(child.counts for child in work.children)
                # the shares as `split` finds them (known / known.sum()), in plain Python: the
                # counts are whole numbers here (every weight 1), so their sums are exact in any
                # order, and the divisions are the same; numpy's cost per call was paid per node
                known = [_added(child.counts.tolist()) for child in work.children]
                total = sum(known)
                work.fractions = tuple(k / total for k in known) if total > 0 else work.fractions
            a, b = span[work.id]
            work.rows, work.weights = rows[a:b], weights[a:b]

    def _grown_leaf_ranks(self, leaves: list) -> np.ndarray | None:
        """Each training row's place among `leaves` read from where growth left it (its grown
        leaf, or the pruned node above that leaf), the same leaf routing finds: routing every row
        down the tree again is O(rows x depth). None when growth did not record one leaf per row
        (a missing value) or a leaf is not the grown tree's."""
        grown_leaves = getattr(self.origin, "training_leaves", None)
        if grown_leaves is None:
            return None
        splits = self.origin.splits
        # every grown node's id (an empty leaf under a collapsed node may pass the rows' leaves')
        size = max(len(self.origin.steps), int(grown_leaves.max(initial=0)) + 1, max(w.id for w in leaves) + 1)
        rank = np.full(size, -1, dtype=np.int64)
        for i, work in enumerate(leaves):
            below = [work.id]  # the leaf and every grown node under it (a pruned subtree)
            while below:
                node_id = below.pop()
                if node_id >= len(rank):
                    return None
                rank[node_id] = i
                if node_id in splits:
                    below.extend(splits[node_id].child_ids)
        leaf_rank = rank[grown_leaves]
        return None if (leaf_rank < 0).any() else leaf_rank

    def assign(self, work: _Work, rows: np.ndarray, weights: np.ndarray) -> None:
        """Sort rows down a subtree, recording each node's rows and its shares."""
        self.settled = False
        stack = [(work, rows, weights)]
        while stack:
            node, node_rows, node_weights = stack.pop()
            node.rows, node.weights, node.counts = node_rows, node_weights, None
            if node.is_leaf:
                continue
            parts = self.split(node, node_rows, node_weights, keep_shares=True)
            stack.extend((child, r, w) for child, (r, w) in zip(node.children, parts))

    def raised_errors(self, node: _Work, big: _Work, cf: float) -> float:
        """Estimated errors if all of `node`'s rows were sorted through its child `big` (J48's
        getEstimatedErrorsForBranch), without changing anything. While every row has weight 1
        (settled, or no value missing, so that a raise re-sorts rows without sharing them), only
        the rows of the other branches are sorted (big's own stay where they are): the same
        integer counts, without O(rows) work per node on a deep tree."""
        if self.settled or self.encoded.complete:
            rest = [c.rows for c in node.children if c is not big]
            others = rest[0] if len(rest) == 1 else np.concatenate(rest)
            total = self._errors_with(big, others, cf)
            if total is not None:
                return total
        return self.branch_errors(big, node.rows, node.weights, cf)

    def _errors_with(self, work: _Work, extra: np.ndarray, cf: float) -> float | None:
        """`branch_errors` of the subtree's own rows plus `extra` rows (weight 1), summed as J48
        sums them; None where a test cannot place one of the extra rows."""
        def open_(item):
            node, rows = item
            if not len(rows):  # a part no extra row reaches: its own rows' numbers, found when it was decided
                return self.subtree_errors(node, cf)
            if node.is_leaf:
                return _estimated(self.counts(node) + np.bincount(self.encoded.y[rows], minlength=self.k), cf)
            branch = branches(self.encoded, node.test, rows)
            if (branch < 0).any():
                return None
            return [(child, rows[branch == b]) for b, child in enumerate(node.children)]
        return _summed_by_sons((work, extra), open_)

    def branch_errors(self, work: _Work, rows: np.ndarray, weights: np.ndarray, cf: float) -> float:
        """Estimated errors if all of `rows` were sorted through this subtree (J48's
        getEstimatedErrorsForBranch), without changing it."""
        def open_(item):
            node, node_rows, node_weights = item
            if node.is_leaf:
                return _estimated(self.class_weights(node_rows, node_weights), cf)
            parts = self.split(node, node_rows, node_weights, keep_shares=False)
            return [(child, r, w) for child, (r, w) in zip(node.children, parts)]
        return _summed_by_sons((work, rows.copy(), weights.copy()), open_)


def _summed_by_sons(item, open_) -> float | None:
    """A subtree's errors summed as J48's recursions sum them: a node's = 0 + its first son's +
    its second's ..., each son's its own such sum (the order of the additions decides the last
    bits, and J48 compares sums). Without recursion. `open_(item)` gives a number (a leaf's
    errors, a part summed already), the items of the node's sons, or None (give up: None)."""
    opened = open_(item)
    if not isinstance(opened, list):
        return opened
    stack = [[opened, 0, 0.0]]  # a node's sons, the next son, the sum so far
    while True:
        frame = stack[-1]
        sons, next_son, total = frame
        if next_son == len(sons):
            stack.pop()
            if not stack:
                return total
            stack[-1][1] += 1
            stack[-1][2] += total
            continue
        opened = open_(sons[next_son])
        if opened is None:
            return None
        if isinstance(opened, list):
            stack.append([opened, 0, 0.0])
        else:
            frame[1] += 1
            frame[2] += opened
