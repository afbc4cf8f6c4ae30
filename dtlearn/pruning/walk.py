"""What every pruning method shares: a mutable copy of the grown tree (`_Work`), walked without
recursion, and the `Step` each decision records after the grown tree's steps."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from ..formatting import label
from ..tree import KEEP, Node, Step, Tree

SHOWN = 30  # a step's details list at most this many nodes' numbers (the smallest g, the best prunes)


@dataclass(eq=False)
class _Work:
    """A mutable copy of a node while a pruning method works on it."""

    node: Node
    children: list = field(default_factory=list)
    test: object = None
    fractions: tuple = ()
    rows: np.ndarray | None = None  # training rows reaching it (pessimistic pruning)
    weights: np.ndarray | None = None  # and their weights
    counts: np.ndarray | None = None  # their class weights, once asked for (until the rows are re-sorted)
    estimate: tuple = ()  # (counts, estimated errors as a leaf): asked again by every ancestor
    subtree_estimate: float | None = None  # its subtree's estimated errors, when pessimistic pruning kept it

    @property
    def id(self) -> int:
        return self.node.id

    @property
    def is_leaf(self) -> bool:
        return not self.children

    def walk(self):
        stack = [self]
        while stack:
            work = stack.pop()
            yield work
            stack.extend(reversed(work.children))

    def leaves(self):
        return (w for w in self.walk() if w.is_leaf)


def _work(root: Node) -> _Work:
    """A _Work copy of a tree, built without recursion."""
    made = {}
    order = list(root.walk())
    for node in reversed(order):
        made[node.id] = _Work(node, [made.pop(c.id) for c in node.children], node.test, node.branch_fractions)
    return made[root.id]


def with_steps(tree: Tree, new_steps: list[Step], info: dict) -> Tree:
    steps = tree.steps + tuple(new_steps)
    return replace(tree, steps=steps, total_steps=len(steps), pruning=info)


def _step(tree: Tree, number: int, work: _Work, action: str, reason: str, details: dict, **extra) -> Step:
    node = work.node
    origin = node.source.origin if node.source is not None else None
    return Step(number=number, node_id=work.id, parent_id=None, branch=node.branch, depth=node.depth,
                class_weights=node.class_weights, prediction=node.prediction, impurity=node.impurity,
                weight=node.weight, value=node.value, action=action, stop=action if action != KEEP else None,
                reason=reason, details=details, origin=origin, **extra)


def _added(values: list) -> float:
    """sum(values) added as numpy adds an array (in order below 8 numbers, pairwise from 8), so a
    subtree's R(T_t) is the very number numpy would give."""
    if len(values) < 8:
        total = 0.0
        for value in values:
            total += value
        return total
    return float(np.sum(values))


def _n(value: float) -> str:
    return label(round(float(value), 3))
