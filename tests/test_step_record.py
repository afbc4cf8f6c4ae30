"""A tree's steps are made from growth's record when read (dtlearn.step_record): a fit makes
none, a table needs only its node's ancestors, and the steps read are the steps of the tree in
depth-first pre-order, whatever order they are read in."""

from __future__ import annotations

import pickle

import numpy as np
import pandas as pd
import pytest

import dtlearn
from dtlearn.steps import COLLAPSE, SPLIT


def made(tree) -> int:
    return sum(step is not None for step in tree.steps.record.made)


def test_a_fit_makes_no_step_until_one_is_read():
    tree = dtlearn.fit(dtlearn.load_dataset("iris"), "cart")
    assert len(tree.steps) == tree.total_steps > 10 and made(tree) == 0
    last = tree.steps[-1]
    assert last.number == tree.total_steps and made(tree) == 1
    # its candidate table routes the rows down its ancestors: those steps alone are made
    depth = last.depth
    assert len(last.table) > 0 and made(tree) == depth + 1


def test_steps_read_in_any_order_are_the_pre_order_record():
    tree = dtlearn.fit(dtlearn.load_dataset("glass"), "cart")
    backwards = [tree.steps[i] for i in range(len(tree.steps) - 1, -1, -1)][::-1]
    assert [s.number for s in backwards] == list(range(1, tree.total_steps + 1))
    assert all(a is b for a, b in zip(backwards, tree.steps)), "one Step per node, made once"
    # pre-order: a split's children follow it, the first child's subtree entirely before the second
    where = {s.node_id: i for i, s in enumerate(backwards)}
    assert sorted(where) == list(range(len(backwards)))
    next_id = 1
    for i, step in enumerate(backwards):
        if step.action == SPLIT:
            assert step.child_ids == tuple(range(next_id, next_id + len(step.child_ids)))  # numbered as made
            next_id += len(step.child_ids)
            assert where[step.child_ids[0]] == i + 1
            assert all(backwards[where[c]].parent_id == step.node_id for c in step.child_ids)


def test_a_partial_tree_shares_the_record_and_pickles():
    tree = dtlearn.fit(dtlearn.load_dataset("tennis"), "id3")
    partial = tree.at_step(3)
    assert len(partial.steps) == 3 and all(a is b for a, b in zip(partial.steps, tree.steps))
    assert partial.steps[-1] is tree.steps[2] and partial.steps[1:3] == (tree.steps[1], tree.steps[2])
    with pytest.raises(IndexError):
        partial.steps[3]
    again = pickle.loads(pickle.dumps(tree))
    assert [s.reason for s in again.steps] == [s.reason for s in tree.steps]
    assert again.steps[0].table.equals(tree.steps[0].table)


def _collapse_by_the_definition(steps) -> list[tuple[int, float, float]]:
    """J48's collapse read from the steps themselves (a walk over Step objects, independent of the
    compiled one): top-down, a split whose leaves make no fewer training errors than the node alone
    (within 1e-3) collapses, and nothing below it is looked at. (node id, below, alone) each."""
    by_id = {s.node_id: s for s in steps}

    def errors(weights):
        return sum(weights) - max(weights)

    def below(step):
        if step.action != SPLIT:
            return errors(step.class_weights)
        return sum(below(by_id[c]) for c in step.child_ids)

    found, stack = [], [by_id[0]]
    while stack:
        step = stack.pop()
        if step.action != SPLIT:
            continue
        under, alone = below(step), errors(step.class_weights)
        if under < alone - 1e-3:
            stack.extend(by_id[c] for c in reversed(step.child_ids))
        else:
            found.append((step.node_id, under, alone))
    return found


def _noise() -> dtlearn.Dataset:
    """Labels that no attribute predicts: C4.5 grows a deep tree and collapses much of it, nested
    collapses included (a collapsed subtree's own splits are not looked at)."""
    rng = np.random.default_rng(0)
    frame = pd.DataFrame(rng.integers(0, 6, size=(1500, 4)), columns=list("abcd")).astype(str)
    frame["x"] = rng.normal(size=1500)
    frame["y"] = rng.choice(["p", "q", "r"], size=1500, p=[0.5, 0.3, 0.2])
    return dtlearn.Dataset(frame, "y")


@pytest.mark.parametrize("name", ["iris", "glass", "credit_risk", "contact_lenses", "noise"])
def test_the_collapse_from_the_record_is_j48s_definition(name):
    tree = dtlearn.fit(_noise() if name == "noise" else dtlearn.load_dataset(name), "c45")
    growth = [s for s in tree.steps if s.action != COLLAPSE]
    collapsed = [s for s in tree.steps if s.action == COLLAPSE]
    expected = _collapse_by_the_definition(growth)
    assert len(expected) >= (10 if name == "noise" else 1)
    assert [s.node_id for s in collapsed] == [node for node, *_ in expected]
    assert [s.number for s in collapsed] == list(range(len(growth) + 1, len(growth) + len(collapsed) + 1))
    for step, (_, under, alone) in zip(collapsed, expected):
        assert f"make {dtlearn.formatting.label(round(under, 3))} training errors" in step.reason
        assert step.reason.endswith(f"would make {dtlearn.formatting.label(round(alone, 3))}, so the split does "
                                    "not pay for itself.")


def test_the_fitted_tree_keeps_no_row_in_its_record():
    data = dtlearn.load_dataset("iris")
    tree = dtlearn.fit(data, "cart")
    record = tree.steps.record
    assert record.grown.leaf_of_row is None
    per_node = [value for value in vars(record.grown).values() if isinstance(value, np.ndarray)]
    assert per_node and all(len(array) == record.grown.size for array in per_node)
    # a split by a compiled cut is kept as numbers in arrays (`engine_grown.Scanned`), a test made when read
    grown = record.grown
    splits = int((grown.stop < 0).sum())
    assert grown.tests == {} and grown.numbers == {}
    assert all(len(getattr(grown.scanned, name)) == splits for name in ("node", "attribute", "threshold", "score"))
    root = tree.steps[0]  # iris's CART root: setosa apart (petal_width <= 0.8 ties; column order picks petal_length)
    assert grown.tests[0] is root.test and (root.test.attribute, root.test.threshold) == ("petal_length", 2.45)
    leaf = int(np.flatnonzero(grown.stop >= 0)[0])
    with pytest.raises(KeyError):
        grown.test(leaf)  # a leaf has no test (not the last cut's, read from row -1)


def test_one_branch_per_value_splits_share_their_attributes_test():
    # ID3's splits are kept as arrays with the compiled cuts (no threshold), each attribute's test
    # made once for the tree: glass's ID3 tree (numbers as categories) tests each attribute many times.
    tree = dtlearn.fit(dtlearn.load_dataset("glass"), "id3")
    grown = tree.steps.record.grown
    assert grown.tests == {} and grown.numbers == {}
    splits = [s for s in tree.steps if s.action == SPLIT]
    by_attribute = {}
    for step in splits:
        assert step.test.kind == "multiway"
        assert by_attribute.setdefault(step.test.attribute, step.test) is step.test  # one object per attribute
    assert len(splits) > len(by_attribute)
