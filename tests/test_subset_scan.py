"""CART's subset splits scored for a whole level at once (dtlearn/subset_scan.py) against the
definition, `candidates.subset_block` node by node (the engine's other path, forced here): the
same tree, the same test at every node, the same scores to the last bit."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import dtlearn
from dtlearn import subset_scan


def synthetic(rows: int = 3000, regression: bool = False) -> dtlearn.Dataset:
    """A 25-valued and a 6-valued category (10% missing), a number, and noise."""
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"c": rng.choice([f"v{i}" for i in range(25)], rows),
                          "d": np.where(rng.random(rows) < 0.1, None, rng.choice(list("abcdef"), rows)),
                          "x": rng.normal(size=rows)})
    code = frame["c"].str[1:].astype(int)
    if regression:
        frame["y"] = frame["x"] * 2 + code % 4 + rng.normal(size=rows)
    else:
        frame["y"] = np.where((code % 3 == 0) ^ (rng.random(rows) < 0.2), "p", "q")
    return dtlearn.Dataset(frame, "y")


def node_by_node(data, monkeypatch, **settings) -> dtlearn.Tree:
    with monkeypatch.context() as patch:
        patch.setattr(subset_scan, "applies", lambda encoded, settings: False)
        return dtlearn.fit(data, "cart", **settings)


@pytest.mark.parametrize("name, settings", [("tips", {}), ("credit_risk", {}), ("watermelon_2", {}),
                                            ("tennis", {}), ("synthetic", {}), ("synthetic", {"min_samples_leaf": 5}),
                                            ("synthetic regression", {}), ("synthetic", {"criterion": "entropy"})])
def test_a_level_at_once_grows_the_tree_node_by_node_grows(name, settings, monkeypatch):
    data = synthetic(regression=True) if name == "synthetic regression" else \
        synthetic() if name == "synthetic" else dtlearn.load_dataset(name)
    batched, reference = dtlearn.fit(data, "cart", **settings), node_by_node(data, monkeypatch, **settings)
    assert subset_scan.applies(batched.steps[0].origin.encoded, batched.settings)
    assert len(batched.steps) == len(reference.steps) > 2
    for ours, theirs in zip(batched.steps, reference.steps):
        assert (ours.node_id, ours.action, ours.stop, ours.reason, ours.child_ids) == \
               (theirs.node_id, theirs.action, theirs.stop, theirs.reason, theirs.child_ids)
        assert (ours.test is None and theirs.test is None) or ours.test.describe() == theirs.test.describe()
        assert (ours.score, ours.gain) == (theirs.score, theirs.gain)  # the same arithmetic, bit for bit


def test_what_the_shortcut_does_not_cover_is_scored_node_by_node():
    # Three classes: CART's ordering shortcut is not exact (every partition, or several orders);
    # Zaki's small subsets; C4.5's gain ratio.
    iris_like = dtlearn.load_dataset("contact_lenses")  # three classes, categorical attributes
    tree = dtlearn.fit(iris_like, "cart")
    assert len(tree.classes) == 3 and not subset_scan.applies(tree.steps[0].origin.encoded, tree.settings)
    two = dtlearn.fit(synthetic(), "zaki")
    assert not subset_scan.applies(two.steps[0].origin.encoded, two.settings)
