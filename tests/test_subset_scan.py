"""Subset splits (CART's prefixes, Zaki's small subsets) scored for a whole level at once
(dtlearn/subset_scan.py) against the definition, `candidates.subset_block` node by node (the
engine's other path, forced here): the same tree, the same test at every node, the same scores
to the last bit."""

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


def node_by_node(data, monkeypatch, algorithm="cart", **settings) -> dtlearn.Tree:
    with monkeypatch.context() as patch:
        patch.setattr(subset_scan, "applies", lambda encoded, settings: False)
        return dtlearn.fit(data, algorithm, **settings)


def assert_same_growth(batched: dtlearn.Tree, reference: dtlearn.Tree) -> None:
    assert len(batched.steps) == len(reference.steps) > 2
    for ours, theirs in zip(batched.steps, reference.steps):
        assert (ours.node_id, ours.action, ours.stop, ours.reason, ours.child_ids) == \
               (theirs.node_id, theirs.action, theirs.stop, theirs.reason, theirs.child_ids)
        assert (ours.test is None and theirs.test is None) or ours.test.describe() == theirs.test.describe()
        assert (ours.score, ours.gain) == (theirs.score, theirs.gain)  # the same arithmetic, bit for bit


@pytest.mark.parametrize("name, settings", [("tips", {}), ("credit_risk", {}), ("watermelon_2", {}),
                                            ("tennis", {}), ("synthetic", {}), ("synthetic", {"min_samples_leaf": 5}),
                                            ("synthetic regression", {}), ("synthetic", {"criterion": "entropy"})])
def test_a_level_at_once_grows_the_tree_node_by_node_grows(name, settings, monkeypatch):
    data = synthetic(regression=True) if name == "synthetic regression" else \
        synthetic() if name == "synthetic" else dtlearn.load_dataset(name)
    batched, reference = dtlearn.fit(data, "cart", **settings), node_by_node(data, monkeypatch, **settings)
    assert subset_scan.applies(batched.steps[0].origin.encoded, batched.settings)
    assert_same_growth(batched, reference)


@pytest.mark.parametrize("name, settings", [("synthetic", {}), ("synthetic", {"max_subset_size": 3}),
                                            ("synthetic", {"max_subset_size": 1, "leaf_size": 1}),
                                            ("synthetic regression", {"min_purity": None}), ("credit_risk", {}),
                                            ("tennis", {}),
                                            ("contact_lenses", {}), ("watermelon_2", {"min_purity": 1.0}),
                                            ("synthetic", {"criterion": "gini", "min_samples_leaf": 5})])
def test_zakis_small_subsets_a_level_at_once_grow_the_tree_node_by_node_grows(name, settings, monkeypatch):
    # Zaki & Meira's sets of at most l values: a node's own sets (of its present values) are
    # among the sets of every value, in the same order; contact lenses has three classes.
    data = synthetic(regression=True) if name == "synthetic regression" else \
        synthetic() if name == "synthetic" else dtlearn.load_dataset(name)
    batched, reference = dtlearn.fit(data, "zaki", **settings), node_by_node(data, monkeypatch, "zaki", **settings)
    encoded = batched.steps[0].origin.encoded
    assert subset_scan.applies(encoded, batched.settings)
    assert any(encoded.kind(a) == "categorical" for a in encoded.attributes)
    assert_same_growth(batched, reference)


def test_batches_of_nodes_give_what_one_batch_gives(monkeypatch):
    # subset_scan.CELLS bounds the arrays of one batch of nodes; two nodes a batch must not
    # change a number
    data = synthetic(6000)
    whole = dtlearn.fit(data, "zaki")
    monkeypatch.setattr(subset_scan, "CELLS", 2 * 300 * 25)  # 300 pairs and singles of 25 values: 2 nodes a batch
    assert_same_growth(dtlearn.fit(data, "zaki"), whole)
    assert_same_growth(dtlearn.fit(data, "cart"), node_by_node(data, monkeypatch))


def three_classes(rows: int = 4000) -> dtlearn.Dataset:
    """A 25-valued category (more than max_exhaustive_values: orderings), a 6-valued one (every
    partition), both with missing cells, a number; three classes, noisy."""
    rng = np.random.default_rng(3)
    frame = pd.DataFrame({"c": np.where(rng.random(rows) < 0.1, None, rng.choice([f"v{i}" for i in range(25)], rows)),
                          "d": np.where(rng.random(rows) < 0.1, None, rng.choice(list("abcdef"), rows)),
                          "x": rng.normal(size=rows)})
    code = frame["c"].fillna("v0").str[1:].astype(int)
    frame["y"] = np.where(rng.random(rows) < 0.3, rng.choice(list("pqr"), rows), np.array(list("pqr"))[code % 3])
    return dtlearn.Dataset(frame, "y")


@pytest.mark.parametrize("name, settings", [("three", {}), ("three", {"max_exhaustive_values": 4}),
                                            ("three", {"missing_values": "fractional"}), ("contact_lenses", {}),
                                            ("three", {"criterion": "entropy", "min_samples_leaf": 3})])
def test_three_classes_a_level_at_once_grow_the_tree_node_by_node_grows(name, settings, monkeypatch):
    # Three classes: no ordering shortcut; each node's sets are made by the definition
    # (candidates._subsets), every partition up to max_exhaustive_values values, else the
    # prefixes of each class's ordering, and scored a level at once.
    data = three_classes() if name == "three" else dtlearn.load_dataset(name)
    batched, reference = dtlearn.fit(data, "cart", **settings), node_by_node(data, monkeypatch, **settings)
    assert len(batched.classes) == 3 and subset_scan.applies(batched.steps[0].origin.encoded, batched.settings)
    assert_same_growth(batched, reference)


def test_what_the_shortcut_does_not_cover_is_scored_node_by_node():
    # C4.5's gain ratio; class-prior sizes; Zaki's pairs of a 100-valued attribute (4,950 sets
    # over its every value, beyond subset_scan.MAX_SETS: its nodes hold far fewer).
    ratio = dtlearn.fit(synthetic(), "cart", criterion="gain_ratio")
    assert not subset_scan.applies(ratio.steps[0].origin.encoded, ratio.settings)
    rng = np.random.default_rng(1)
    wide = pd.DataFrame({"c": rng.choice([f"w{i}" for i in range(100)], 2000), "d": rng.choice(list("abc"), 2000)})
    wide["y"] = np.where(wide["c"].str[1:].astype(int) % 3 == 0, "p", "q")
    zaki = dtlearn.fit(dtlearn.Dataset(wide, "y"), "zaki")
    encoded = zaki.steps[0].origin.encoded
    assert subset_scan.applies(encoded, zaki.settings)
    assert not subset_scan.fits(encoded, zaki.settings, "c") and subset_scan.fits(encoded, zaki.settings, "d")
