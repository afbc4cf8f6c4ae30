"""Matching dtlearn's nodes with rpart's (the stored fixtures in fixtures/rpart/): rpart numbers
the children of node t as 2t and 2t + 1 and writes `x < t` where dtlearn writes `x <= t`."""

from __future__ import annotations

import math

import dtlearn
from dtlearn.conditions import SubsetTest, ThresholdTest

TOL = 1e-9


def zero_is_left(test, primary: dict) -> bool | None:
    """Whether our branch 0 is rpart's left son (None: the splits differ)."""
    if primary["type"] == "numeric":
        if not isinstance(test, ThresholdTest) or test.attribute != primary["variable"]:
            return None
        if not math.isclose(test.threshold, primary["threshold"], rel_tol=0, abs_tol=TOL):
            return None
        return primary["left"] == "<"
    if not isinstance(test, SubsetTest) or test.attribute != primary["variable"]:
        return None
    if set(test.left) == set(primary["levels_left"]) and set(test.right) == set(primary["levels_right"]):
        return True
    if set(test.left) == set(primary["levels_right"]) and set(test.right) == set(primary["levels_left"]):
        return False
    return None


def corresponding(tree: dtlearn.Tree, fit: dict):
    """[(our node, rpart node number, our-0-is-rpart-left or None for leaves)] over the nodes
    both trees have, walking from the roots; raises if a shared node splits differently."""
    internal = {rec["node"]: rec for rec in fit["nodes"]}
    pairs = []

    def visit(node, number):
        if number not in internal or node.is_leaf:
            pairs.append((node, number, None))
            return
        left_first = zero_is_left(node.test, internal[number]["primary"])
        assert left_first is not None, (f"node {number}: rpart splits on {internal[number]['primary']}, "
                                        f"dtlearn on {node.test}")
        pairs.append((node, number, left_first))
        first, second = node.children
        left, right = (first, second) if left_first else (second, first)
        visit(left, 2 * number)
        visit(right, 2 * number + 1)

    visit(tree.root, 1)
    return pairs
