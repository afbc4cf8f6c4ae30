"""Pre-pruning on a validation set (Mitchell 1997, 3.7.1): in growth order, keep a split only if it
makes fewer validation errors than the node as a leaf; on a tie the split is refused (a leaf is
simpler)."""

from __future__ import annotations

from .. import budget
from ..tree import KEEP, PRUNE, Tree
from .validation_losses import _Losses
from .walk import _n, _step, _work, _Work, with_steps


def validation_prepruning(tree: Tree, validation) -> Tree:
    """Mitchell (1997): before each split (in growth order) compare the validation errors with
    the node as a leaf and with the split (its children as leaves); split only if the split
    makes strictly fewer errors. A refused split's subtree is never grown."""
    root = _work(tree.root)
    losses = _Losses(tree, validation)
    order = {step.node_id: step.number for step in tree.steps}
    internal = sorted((w for w in root.walk() if not w.is_leaf), key=lambda w: order[w.id])
    below_refused: set[int] = set()  # the nodes under a refused split (never grown)
    errors = losses.leaf(root)  # the tree so far: only the root, as a leaf
    steps, number = [], len(tree.steps)
    for work in internal:
        budget.check_time()
        if work.id in below_refused:
            continue
        as_leaf = losses.leaf(work)
        split = sum(losses.leaf(child) for child in work.children)
        before, after = losses.accuracy(errors), losses.accuracy(errors - as_leaf + split)
        details = {"validation_counts": losses.counts(work), "errors_as_leaf": as_leaf,
                   "errors_with_split": split, "accuracy_without_split": before, "accuracy_with_split": after}
        number += 1
        if split < as_leaf:
            errors += split - as_leaf
            steps.append(_step(tree, number, work, KEEP, (
                f"Splitting on {work.test.attribute} lowers validation errors from {_n(as_leaf)} to {_n(split)} "
                f"({losses.score_name} {before:.3f} -> {after:.3f}): the split is made."), details))
        else:
            _refuse(work, below_refused)
            steps.append(_step(tree, number, work, PRUNE, (
                f"Splitting on {work.test.attribute} would give {_n(split)} validation errors instead of "
                f"{_n(as_leaf)} ({losses.score_name} {before:.3f} -> {after:.3f}): no improvement, so the node stays a "
                "leaf (pre-pruning; a tie also keeps the leaf)."), details))
    return with_steps(tree, steps, {"method": "validation_prepruning"})


def _refuse(work: _Work, below_refused: set) -> None:
    """Mark the nodes under a refused split, each once (a marked node's subtree is marked
    already): linear in the tree's size, where looking up every node's ancestry was quadratic
    on a deep tree."""
    stack = list(work.children)
    while stack:
        node = stack.pop()
        if node.id not in below_refused:
            below_refused.add(node.id)
            stack.extend(node.children)
