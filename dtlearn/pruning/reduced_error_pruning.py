"""Reduced-error pruning (Quinlan 1987): repeatedly replace by a leaf the subtree whose removal
gains the most validation accuracy, while accuracy does not drop."""

from __future__ import annotations

import heapq

from .. import budget
from ..tree import PRUNE, Tree
from .validation_losses import _Losses, _subtree_losses
from .walk import SHOWN, _n, _step, _work, _Work, with_steps


def reduced_error(tree: Tree, validation) -> Tree:
    """Quinlan (1987): repeatedly evaluate pruning each internal node (its subtree becomes a
    leaf predicting the node's training majority) on the validation set and make the prune
    that most improves validation accuracy, as long as accuracy does not drop.
    Ties: the prune removing more nodes, then the node first in growth order."""
    root = _work(tree.root)
    losses = _Losses(tree, validation)
    order = {step.node_id: step.number for step in tree.steps}
    steps, number = [], len(tree.steps)
    ranking = _PruneRanking(root, losses, order)
    while not root.is_leaf:
        budget.check_time()
        ranked = ranking.best(SHOWN)
        gain, _, _, best = ranked[0]
        if gain < -1e-12:
            break
        number += 1
        below = ranking.below
        errors = below[root.id]
        before, after = losses.accuracy(errors), losses.accuracy(errors - gain)
        details = {"validation_counts": losses.counts(best), "errors_as_leaf": losses.leaf(best),
                   "errors_of_subtree": below[best.id], "accuracy_before": before, "accuracy_after": after,
                   "candidates": {o[3].id: round(o[0], 6) for o in ranked}}
        steps.append(_step(tree, number, best, PRUNE, (
            f"Replacing the subtree by a leaf ({best.node.prediction}) changes validation errors from "
            f"{_n(below[best.id])} to {_n(losses.leaf(best))}: {losses.score_name} {before:.3f} -> {after:.3f}, "
            "the best prune available (reduced-error pruning)."), details))
        ranking.prune(best)
    return with_steps(tree, steps, {"method": "reduced_error"})


class _PruneRanking:
    """Reduced-error pruning's options, (gain, subtree size, -growth order, node) for every
    internal node, kept up to date as nodes are pruned: a prune changes only its ancestors'
    numbers (recomputed from their children, as `_subtree_losses` computes them) and removes
    its descendants, so a large tree is not re-summed at every prune. A heap, best first;
    entries made stale by a later change are skipped."""

    def __init__(self, root: _Work, losses: _Losses, order: dict) -> None:
        self.losses, self.order = losses, order
        self.below = _subtree_losses(root, losses)
        self.sizes = _subtree_sizes(root)
        self.parent = {c.id: w for w in root.walk() for c in w.children}
        self.version: dict[int, int] = {}
        self.heap: list = []
        for work in root.walk():
            if not work.is_leaf:
                self._push(work)

    def _option(self, work: _Work) -> tuple:
        return (self.below[work.id] - self.losses.leaf(work), self.sizes[work.id], -self.order[work.id], work)

    def _push(self, work: _Work) -> None:
        version = self.version[work.id] = self.version.get(work.id, 0) + 1
        gain, size, late, _ = option = self._option(work)
        heapq.heappush(self.heap, ((-gain, -size, -late), version, work.id, option))

    def best(self, count: int) -> list:
        """The `count` best options, best first (the order `max` by (gain, size, -order) gives)."""
        taken = []
        while self.heap and len(taken) < count:
            entry = heapq.heappop(self.heap)
            _, version, node_id, option = entry
            if self.version.get(node_id) == version and not option[3].is_leaf:
                taken.append(entry)
        for entry in taken:
            heapq.heappush(self.heap, entry)
        return [entry[3] for entry in taken]

    def prune(self, work: _Work) -> None:
        """`work` becomes a leaf: its descendants go, its ancestors' numbers are summed again."""
        stack = list(work.children)
        while stack:
            gone = stack.pop()
            self.version[gone.id] = self.version.get(gone.id, 0) + 1  # its heap entries are stale
            stack.extend(gone.children)
        work.children = []
        self.version[work.id] = self.version.get(work.id, 0) + 1
        self.below[work.id] = self.losses.leaf(work)
        self.sizes[work.id] = 1
        node = self.parent.get(work.id)
        while node is not None:
            self.below[node.id] = sum(self.below[c.id] for c in node.children)
            self.sizes[node.id] = 1 + sum(self.sizes[c.id] for c in node.children)
            self._push(node)
            node = self.parent.get(node.id)


def _subtree_sizes(root: _Work) -> dict:
    sizes: dict[int, int] = {}
    for work in reversed(list(root.walk())):
        sizes[work.id] = 1 + sum(sizes[c.id] for c in work.children)
    return sizes
