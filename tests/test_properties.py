"""Invariants on random small tables (hypothesis).

- every gain is >= 0 (concavity of entropy and Gini), and the table's numbers equal a
  from-scratch computation on the raw rows;
- entropy <= log2 k, Gini <= 1 - 1/k;
- the order of the rows does not change the tree;
- an unpruned tree on consistent data classifies its training data perfectly;
- replaying all steps gives the final tree; children's class weights add up to the parent's.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dtlearn
import exact

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow],
                    derandomize=True)
CLASSES = ["A", "B", "C"]


@st.composite
def tables(draw, kinds=("categorical",), min_rows=1, max_rows=14, consistent=False):
    """A DataFrame with 1-3 attributes of the given kinds and a class column 'y'."""
    n = draw(st.integers(min_rows, max_rows))
    n_attributes = draw(st.integers(1, 3))
    columns = {}
    for j in range(n_attributes):
        kind = draw(st.sampled_from(kinds))
        if kind == "categorical":
            columns[f"c{j}"] = draw(st.lists(st.sampled_from(["p", "q", "r"]), min_size=n, max_size=n))
        else:
            columns[f"x{j}"] = draw(st.lists(st.sampled_from([0.0, 0.5, 1.0, 2.0, 3.25, -1.0]), min_size=n, max_size=n))
    n_classes = draw(st.integers(2, 3))
    if consistent:
        # The class is a function of the attribute values: no two equal rows disagree.
        keys = list(zip(*columns.values()))
        label = {key: draw(st.sampled_from(CLASSES[:n_classes])) for key in dict.fromkeys(keys)}
        columns["y"] = [label[key] for key in keys]
    else:
        columns["y"] = draw(st.lists(st.sampled_from(CLASSES[:n_classes]), min_size=n, max_size=n))
    return pd.DataFrame(columns)


def dataset(frame):
    return dtlearn.Dataset(frame, "y")


def check_structure(tree):
    """Replay and weight invariants every tree satisfies (no missing values)."""
    assert tree.at_step(len(tree.steps)).to_dict() == tree.to_dict()
    for node in tree.nodes():
        if node.children:
            total = np.sum([child.class_weights for child in node.children], axis=0)
            assert tuple(float(t) for t in total) == node.class_weights


# --- impurity bounds ------------------------------------------------------------------------

@SETTINGS
@given(st.lists(st.floats(0, 1e6, allow_nan=False), min_size=1, max_size=8))
def test_impurity_bounds(weights):
    k = len(weights)
    # Zaki & Meira: H <= log2 k, with equality at the uniform distribution; Gini, error <= 1 - 1/k.
    assert 0 <= dtlearn.entropy(weights) <= math.log2(k) + 1e-12
    assert 0 <= dtlearn.gini(weights) <= 1 - 1 / k + 1e-12
    assert 0 <= dtlearn.misclassification(weights) <= 1 - 1 / k + 1e-12
    if sum(weights) > 0:
        # error <= Gini <= entropy (bits) for every distribution: sum p^2 <= max p, and
        # -log2 p >= -ln p >= 1 - p, so -sum p log2 p >= sum p (1 - p) = Gini.
        assert dtlearn.misclassification(weights) <= dtlearn.gini(weights) + 1e-12
        assert dtlearn.gini(weights) <= dtlearn.entropy(weights) + 1e-12


# --- split tables ----------------------------------------------------------------------------

@SETTINGS
@given(tables(kinds=("categorical",)))
def test_id3_gains_are_non_negative_and_exact(frame):
    table = dtlearn.split_table(dataset(frame), "id3")
    classes = sorted(set(frame["y"]))
    rows = list(frame.itertuples(index=False))
    for _, row in table.iterrows():
        assert row["gain"] >= 0 and row["gini_gain"] >= 0
        assert row["entropy_before"] - row["entropy_after"] >= -1e-12  # concavity
        # Recount the branches from the raw rows (one per value of the attribute's domain).
        i = list(frame.columns).index(row["attribute"])
        values = sorted(set(frame[row["attribute"]]))
        branches = exact.counts_by(rows, i, values, classes)
        assert row["gain"] == pytest.approx(max(exact.info_gain(branches), 0.0), abs=1e-12)
        assert row["gini_after"] == pytest.approx(float(exact.gini_after(branches)), abs=1e-12)
        assert row["split_info"] == pytest.approx(exact.split_info([sum(b) for b in branches]), abs=1e-12)


@SETTINGS
@given(tables(kinds=("numeric",)))
def test_cart_thresholds_are_non_negative_and_exact(frame):
    table = dtlearn.split_table(dataset(frame), "cart")
    classes = sorted(set(frame["y"]))
    y = frame["y"].to_numpy()
    for _, row in table.iterrows():
        assert row["gain"] >= 0 and row["gini_gain"] >= 0
        x = frame[row["attribute"]].to_numpy()
        left = x <= row["threshold"]
        branches = [[int((side & (y == c)).sum()) for c in classes] for side in (left, ~left)]
        assert min(sum(b) for b in branches) > 0
        assert row["gini_gain"] == pytest.approx(max(float(exact.gini_gain(branches)), 0.0), abs=1e-12)
        assert row["gain"] == pytest.approx(max(exact.info_gain(branches), 0.0), abs=1e-12)
        assert row["cart_measure"] == pytest.approx(float(exact.cart_measure(*branches)), abs=1e-12)


@pytest.mark.parametrize("algorithm", ["c45", "cart"])
def test_mixed_table_gains_are_non_negative(algorithm):
    @SETTINGS
    @given(tables(kinds=("categorical", "numeric")))
    def check(frame):
        table = dtlearn.split_table(dataset(frame), algorithm)
        assert (table["gain"] >= 0).all() and (table["gini_gain"] >= 0).all()
        assert (table["gain_ratio"] >= 0).all()
        assert table["chosen"].sum() <= 1

    check()


# --- trees -----------------------------------------------------------------------------------

ALGORITHM_KINDS = [("id3", ("categorical",)), ("c45", ("categorical", "numeric")), ("cart", ("numeric",)),
                   ("cart", ("categorical", "numeric"))]


@pytest.mark.parametrize("algorithm,kinds", ALGORITHM_KINDS)
def test_row_order_does_not_change_the_tree(algorithm, kinds):
    @SETTINGS
    @given(tables(kinds=kinds), st.randoms(use_true_random=False))
    def check(frame, random):
        order = list(range(len(frame)))
        random.shuffle(order)
        shuffled = frame.iloc[order].reset_index(drop=True)
        first, second = dtlearn.fit(dataset(frame), algorithm), dtlearn.fit(dataset(shuffled), algorithm)
        assert first.to_dict() == second.to_dict()  # node ids, tests, weights, reasons, stops
        assert [s.reason for s in first.steps] == [s.reason for s in second.steps]

    check()


@pytest.mark.parametrize("algorithm,kinds,options", [
    ("cart", ("numeric",), {}),
    ("cart", ("numeric",), {"criterion": "entropy"}),
    ("cart", ("categorical", "numeric"), {}),
    # ID3 with its Weka-compatible zero-gain stop would leave XOR-like data unsplit
    # (test_induction.test_id3_stops_on_xor_at_the_root), so that stop is switched off here.
    ("id3", ("categorical",), {"stop_at_zero_gain": False}),
])
def test_unpruned_tree_fits_consistent_data(algorithm, kinds, options):
    @SETTINGS
    @given(tables(kinds=kinds, consistent=True))
    def check(frame):
        tree = dtlearn.fit(dataset(frame), algorithm, **options)
        predicted = tree.predict(frame.drop(columns="y"))
        assert list(predicted) == list(frame["y"])
        assert all(leaf.stop in ("pure", "empty") for leaf in tree.root.leaves())
        check_structure(tree)

    check()


@pytest.mark.parametrize("algorithm,kinds", ALGORITHM_KINDS)
def test_tree_invariants(algorithm, kinds):
    @SETTINGS
    @given(tables(kinds=kinds))
    def check(frame):
        tree = dtlearn.fit(dataset(frame), algorithm)
        check_structure(tree)
        proba = tree.predict_proba(frame.drop(columns="y"))
        np.testing.assert_allclose(proba.sum(axis=1), 1.0, rtol=0, atol=1e-12)
        decided = [sum(n.status != "pending" for n in tree.at_step(k).nodes())
                   for k in range(sum(s.action != "collapse" for s in tree.steps) + 1)]
        assert decided == list(range(len(decided)))

    check()


@SETTINGS
@given(tables(kinds=("categorical", "numeric"), min_rows=2), st.data())
def test_missing_values_keep_probabilities_normalised(frame, data):
    # Blank out some attribute cells: C4.5 spreads those rows over the branches by weight, and
    # each prediction is still a probability distribution.
    attributes = [c for c in frame.columns if c != "y"]
    holes = data.draw(st.lists(st.tuples(st.integers(0, len(frame) - 1), st.sampled_from(attributes)), max_size=6))
    frame = frame.copy()
    for row, column in holes:
        frame.loc[row, column] = None if column.startswith("c") else np.nan
    tree = dtlearn.fit(dataset(frame), "c45")
    proba = tree.predict_proba(frame.drop(columns="y"))
    np.testing.assert_allclose(proba.sum(axis=1), 1.0, rtol=0, atol=1e-9)
    assert tree.at_step(len(tree.steps)).to_dict() == tree.to_dict()
    # The root holds every row with weight 1.
    assert sum(tree.root.class_weights) == len(frame)
