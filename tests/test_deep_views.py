"""A deep tree drawn around a node, and pruned, in time linear in its size.

A chain (x = 0..n-1, classes alternating, CART) is n - 1 levels deep. Around a deep node the
drawing keeps the root and the last few ancestors and folds the levels between into one box;
the expected nodes are worked out from the chain's shape (node 2i + 2 splits x <= i + 1.5,
node 2i + 1 is the leaf beside it). Validation pre-pruning skips the nodes under a refused split
as the definition says (any refused ancestor), checked against that definition here.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

import dtlearn
from dtlearn.export import neighbourhood, top_levels


def chain(n: int) -> dtlearn.Tree:
    x = np.arange(n)
    frame = pd.DataFrame({"x": x.astype(float), "y": np.where(x % 2 == 0, "a", "b")})
    return dtlearn.fit(dtlearn.Dataset(frame, "y"), "cart")


def test_a_deep_node_is_drawn_with_its_path_folded_in_the_middle():
    tree = chain(200)
    deep = 100  # a split at depth 50: ancestors 98, 96, ..., 2, 0
    assert tree.node(deep).depth == 50
    shown = neighbourhood(tree, deep, depth=1, path_levels=3)
    kept = [0, 94, 96, 98]  # the root and the last three ancestors
    expected = set(kept) | {c.id for a in kept for c in tree.node(a).children} | {deep, 101, 102}
    assert shown == expected
    dot = tree.to_dot(highlight=deep, visible=shown)
    assert {int(i) for i in re.findall(r"^\tn(\d+) \[", dot, re.M)} == expected
    # under node 2 (depth 1): nodes 4 .. 93 are folded, 45 levels (depths 2 .. 46) down to node 94
    folds = {m[0]: m[1:] for m in re.findall(r"^\th(\d+) \[label=<<I>([^<]*):</I> ([^>]*)>", dot, re.M)}
    assert folds["4"] == ("45 levels folded", "90 nodes, 45 leaves")
    assert folds["3"] == ("folded", "1 node, 1 leaf")
    assert "h4 -> n94" in dot and "n2 -> h4" in dot
    # one level folded reads "1 level" (tips' CART tree on the Pruning page read "folded: 1 levels")
    one = tree.to_dot(highlight=8, visible=neighbourhood(tree, 8, depth=1, path_levels=1))
    assert "1 level folded:" in one and "1 levels" not in one
    # a short path is drawn whole, as before
    assert neighbourhood(tree, 6, depth=1, path_levels=3) == {0, 1, 2, 3, 4, 5, 6, 7, 8}


def test_the_top_levels_of_a_tree_are_whole_levels():
    tree = chain(200)
    assert top_levels(tree, 10) == set(range(9))  # 1 + 2 + 2 + 2 + 2 nodes: the 5th level would make 11
    assert top_levels(tree, 1) == {0}
    dot = tree.to_dot(visible=top_levels(tree, 10))
    assert "folded:</I>" in dot and "levels folded" not in dot


def test_pessimistic_pruning_of_a_chain_matches_the_known_result():
    """J48's pessimistic pruning on the chain: bottom-up, a node whose two children are leaves
    (one row and the rest) is kept every other level and pruned between (the trace alternates)."""
    tree = chain(300)
    pruned = dtlearn.prune(tree, "pessimistic")
    actions = [s.action for s in pruned.pruning_steps]
    assert len(actions) == 299 and set(actions) <= {"keep", "prune"}
    assert pruned.n_nodes < tree.n_nodes


def test_a_view_without_the_root_folds_the_levels_above_into_one_box():
    """The smallest view around a deep node: the node, its parent and children, the path's other
    children and the root left out; the levels above are one box counted from the root."""
    tree = chain(200)
    deep = 100  # depth 50: ancestors 98, 96, ..., 0
    shown = neighbourhood(tree, deep, depth=1, path_levels=1, siblings=False, root=False)
    assert shown == {98, deep, 101, 102}
    dot = tree.to_dot(highlight=deep, visible=shown)
    assert {int(i) for i in re.findall(r"^\tn(\d+) \[", dot, re.M)} == set(shown)
    # above node 98 (depth 49): 49 levels, every node of the chain's first 49 levels but 98's own
    above = [n for n in tree.nodes() if n.depth < 49 or (n.depth == 49 and n.id != 98)]
    leaves = sum(not n.children for n in above)
    assert re.search(rf"^\th0 \[label=<<I>49 levels above folded:</I> {len(above)} nodes, {leaves} leaves>",
                     dot, re.M)
    assert "h0 -> n98" in dot
    beside = re.findall(r"^\th(\d+) \[label=<<I>folded:</I> ([^>]*)>", dot, re.M)
    assert beside == [("99", "1 node, 1 leaf")]  # 98's other child, in one box
