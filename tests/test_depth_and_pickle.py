"""Trees of any depth, and trees that pickle.

A chain tree 20,000 levels deep (one attribute 0..19,999, classes alternating: every cut but
the first row's leaves one row behind) is grown, predicted, pruned, pickled and exported with
Python's recursion limit lowered to 200, so any recursion anywhere would fail. Grown and pruned
trees round-trip through pickle and replay, predict and rebuild their tables the same.
"""

from __future__ import annotations

import json
import pickle
import sys
from contextlib import contextmanager

import numpy as np
import pandas as pd
import pytest

import dtlearn
from dtlearn.warmup import warm_up

DEPTH = 20_000


@contextmanager
def recursion_limit(limit: int):
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(limit)
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


@pytest.fixture(scope="module")
def chain():
    x = np.arange(DEPTH, dtype=float)
    frame = pd.DataFrame({"x": x, "y": np.where(np.arange(DEPTH) % 2 == 0, "a", "b")})
    data = dtlearn.Dataset(frame, "y")
    warm_up()  # every compiled kernel loaded (or compiled) before the limit: numba recurses
    with recursion_limit(200):
        tree = dtlearn.fit(data, "cart")
    return data, tree


def test_a_chain_20000_levels_deep_is_grown(chain):
    data, tree = chain
    with recursion_limit(200):
        # every split peels one row off the end of the range it holds: depth n - 1
        assert tree.depth == DEPTH - 1
        assert tree.n_leaves == DEPTH and tree.n_nodes == 2 * DEPTH - 1
        assert all(len(leaf.class_weights) == 2 and sum(leaf.class_weights) == 1 for leaf in tree.root.leaves())


def test_a_chain_is_predicted_applied_and_replayed(chain):
    data, tree = chain
    with recursion_limit(200):
        assert (tree.predict(data.frame) == data.frame["y"].to_numpy()).all()
        leaves = tree.apply(data.frame)
        assert len(set(leaves.tolist())) == DEPTH
        half = tree.at_step(len(tree.steps) // 2)
        assert half.n_nodes < tree.n_nodes and len(half.predict(data.frame)) == DEPTH


def test_a_chain_is_pruned(chain):
    data, tree = chain
    with recursion_limit(200):
        pessimistic = dtlearn.prune(tree, "pessimistic")
        # C4.5's bound: a single error among N cases never costs less than the leaves' own
        # bounds, so the alternating chain collapses into a leaf
        assert pessimistic.n_leaves < tree.n_leaves
        weakest = dtlearn.prune(tree, "cost_complexity", alpha=1.0)
        assert weakest.n_leaves == 1
        path = dtlearn.cost_complexity_path(tree)
        assert path["n_leaves"].iloc[0] == DEPTH and path["n_leaves"].iloc[-1] == 1


def test_a_chain_is_pickled_and_exported(chain):
    data, tree = chain
    with recursion_limit(200):
        copy = pickle.loads(pickle.dumps(tree))
        assert (copy.predict(data.frame) == data.frame["y"].to_numpy()).all()
        dot = tree.to_dot()
        assert dot.count("->") == 2 * DEPTH - 2
        text = tree.to_text()
        assert len(text.splitlines()) == 2 * DEPTH - 2
        assert f"|{DEPTH - 2}|" in text  # deep lines write their level as a number
        rules = tree.rules()
        assert len(rules) == DEPTH
        # the conditions of one attribute along a path merge into one interval
        assert all(rule.count(" x") + rule.count("x <=") + rule.count("x >") <= 2 for rule in rules)
        last = [r for r in rules if r.endswith("(1 rows)")]
        assert len(last) == DEPTH


def test_a_chain_is_written_as_json_flat_and_read_back(chain):
    # nested, the chain's dict is 20,000 levels deep: json.dumps and == recurse once per level
    data, tree = chain
    with recursion_limit(200):
        flat = tree.to_dict(nested=False)
        text = json.dumps(flat)
        assert json.loads(text) == flat
    nodes = flat["nodes"]
    assert len(nodes) == tree.n_nodes and nodes[0]["parent"] is None
    assert [n["id"] for n in nodes] == [node.id for node in tree.root.walk()]  # pre-order
    position = {n["id"]: i for i, n in enumerate(nodes)}
    assert all(nodes[position[c]]["parent"] == n["id"] for n in nodes for c in n["children"])
    assert max(n["depth"] for n in nodes) == DEPTH - 1


@pytest.mark.parametrize("name, algorithm", [("tennis", "id3"), ("iris", "cart"), ("watermelon_2alpha", "c45")])
def test_the_flat_dict_holds_the_nested_dict_s_nodes(name, algorithm):
    tree = dtlearn.fit(dtlearn.load_dataset(name), algorithm)
    flat, nested = tree.to_dict(nested=False), tree.to_dict()
    assert {k: v for k, v in flat.items() if k != "nodes"} == {k: v for k, v in nested.items() if k != "root"}
    by_id = {n["id"]: n for n in flat["nodes"]}

    def rebuilt(node_id):  # the nested form made again from the flat one (shallow trees)
        node = {k: v for k, v in by_id[node_id].items() if k != "parent"}
        return {**node, "children": [rebuilt(c) for c in node["children"]]}
    assert rebuilt(flat["nodes"][0]["id"]) == nested["root"]


def test_recursion_limits_do_not_constrain_depth_in_partitions():
    # two attributes, a staircase: each cut on x or y peels one row
    n = 3000
    frame = pd.DataFrame({"x": np.arange(n, dtype=float), "y2": np.arange(n, dtype=float),
                          "c": np.where(np.arange(n) % 2 == 0, "a", "b")})
    tree = dtlearn.fit(dtlearn.Dataset(frame, "c"), "cart")
    with recursion_limit(200):
        rectangles = dtlearn.partition(tree, "x", "y2")
        assert len(rectangles) == tree.n_leaves


@pytest.mark.parametrize("name, algorithm, method, options", [
    ("tennis", "id3", None, {}),
    ("iris", "cart", "cost_complexity", {"alpha": 0.01}),
    ("watermelon_2alpha", "c45", "pessimistic", {}),
    ("credit_risk", "cart", None, {}),
    ("tips", "cart", "cost_complexity", {"alpha": 0.05}),
])
def test_trees_round_trip_through_pickle(name, algorithm, method, options):
    data = dtlearn.load_dataset(name)
    tree = dtlearn.fit(data, algorithm)
    if method:
        tree = dtlearn.prune(tree, method, **options)
    copy = pickle.loads(pickle.dumps(tree))
    assert copy.to_dict() == tree.to_dict()
    assert [s.reason for s in copy.steps] == [s.reason for s in tree.steps]
    for k in range(0, tree.total_steps + 1, max(1, tree.total_steps // 7)):
        assert copy.at_step(k).to_dict() == tree.at_step(k).to_dict()
    np.testing.assert_array_equal(copy.predict(data.frame), tree.predict(data.frame))
    first = tree.steps[0]
    pd.testing.assert_frame_equal(copy.steps[0].table, first.table)
