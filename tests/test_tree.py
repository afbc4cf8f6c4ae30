"""The Tree: replaying steps (at_step), prediction, leaf assignment, determinism.

Expected distributions for missing values are derived by hand from Mitchell's Table 3.2
(C4.5's rule, seed 003: walk every branch, weighted by its share of the training rows).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

import dtlearn

# (dataset, algorithm) pairs whose trees are replayed step by step; credit_risk, contact_lenses
# and watermelon_2 with c45 end with collapse steps, watermelon_2alpha has missing values.
CASES = [
    ("tennis", "id3"), ("tennis", "c45"), ("iris", "cart"), ("weather_numeric", "c45"),
    ("weather_numeric", "id3"), ("credit_risk", "id3"), ("credit_risk", "c45"),
    ("contact_lenses", "c45"), ("watermelon_2", "c45"), ("watermelon_2alpha", "c45"),
    ("internship", "cart"), ("watermelon_3", "c45"),
]


@pytest.fixture(scope="module", params=CASES, ids=lambda c: f"{c[0]}-{c[1]}")
def grown(request):
    name, algorithm = request.param
    data = dtlearn.load_dataset(name)
    return data, dtlearn.fit(data, algorithm)


def growth_steps(tree) -> int:
    return sum(1 for s in tree.steps if s.action != "collapse")


def test_at_step_k_has_k_decided_nodes(grown):
    # Each growth step decides exactly one node (split or leaf), so after k of them k nodes are
    # decided and the rest are 'pending'. Collapse steps (C4.5) come after all growth steps.
    _, tree = grown
    k_grown = growth_steps(tree)
    assert all(s.action == "collapse" for s in tree.steps[k_grown:])
    for k in range(k_grown + 1):
        partial = tree.at_step(k)
        statuses = [n.status for n in partial.nodes()]
        assert sum(s != "pending" for s in statuses) == k
        assert len(partial.steps) == k and partial.total_steps == tree.total_steps
        assert partial.is_complete is (k == tree.total_steps)
        # Pending nodes are exactly the leaves not decided yet (children of decided splits).
        assert all(n.is_leaf for n in partial.nodes() if n.status == "pending")


def test_at_step_all_equals_the_final_tree(grown):
    _, tree = grown
    assert tree.at_step(tree.total_steps).to_dict() == tree.to_dict()
    assert tree.at_step(len(tree.steps)).to_text() == tree.to_text()


def test_at_step_zero_is_a_pending_root(grown):
    data, tree = grown
    root = tree.at_step(0).root
    assert root.status == "pending" and root.is_leaf and root.id == 0
    # Its class weights are the class counts of the whole table (recounted with pandas).
    counts = data.frame[data.target].astype(str).value_counts()
    assert root.class_weights == tuple(float(counts[c]) for c in tree.classes)
    assert tree.at_step(0).n_leaves == 1 and tree.at_step(0).n_nodes == 1


def test_partial_trees_agree_with_the_final_tree(grown):
    # A node keeps its id, weights and decision in every partial tree that contains it.
    _, tree = grown
    k_grown = growth_steps(tree)
    final = {n.id: n for n in tree.at_step(k_grown).nodes()}
    for k in range(k_grown + 1):
        for node in tree.at_step(k).nodes():
            reference = final[node.id]
            assert node.class_weights == reference.class_weights and node.path == reference.path
            if node.status != "pending":
                assert node.status == reference.status and node.test == reference.test


def test_steps_are_numbered_and_depth_first(grown):
    # Steps are numbered 1..n and decide nodes in depth-first pre-order (dtlearn/tree.py).
    _, tree = grown
    assert [s.number for s in tree.steps] == list(range(1, tree.total_steps + 1))
    k_grown = growth_steps(tree)
    preorder = [n.id for n in tree.at_step(k_grown).nodes()]
    assert [s.node_id for s in tree.steps[:k_grown]] == preorder


def test_at_step_out_of_range(tennis):
    tree = dtlearn.fit(tennis, "id3")
    for k in (-1, tree.total_steps + 1):
        with pytest.raises(ValueError, match=rf"Step must be between 0 and {tree.total_steps}, not {k}\."):
            tree.at_step(k)


def test_sizes_agree_with_a_walk(grown):
    _, tree = grown
    nodes = list(tree.nodes())
    assert tree.n_nodes == len(nodes)
    assert tree.n_leaves == sum(1 for n in nodes if not n.children)
    assert tree.depth == max(len(n.path) for n in nodes)
    assert tree.node(nodes[-1].id) is not None
    with pytest.raises(KeyError, match="No node 9999"):
        tree.node(9999)


# --- prediction on training data -----------------------------------------------------------------

@pytest.mark.parametrize("name,algorithm", [c for c in CASES if c[0] != "watermelon_2alpha"])
def test_apply_sends_each_training_row_to_its_leaf(name, algorithm):
    # Without missing values, the training rows that apply() puts in a leaf are exactly the rows
    # counted in that leaf's class weights (recounted here from the frame).
    data = dtlearn.load_dataset(name)
    tree = dtlearn.fit(data, algorithm)
    frame = data.frame
    assert not frame.isna().any().any()
    leaf_ids = tree.apply(frame.drop(columns=data.target))
    leaves = {leaf.id: leaf for leaf in tree.root.leaves()}
    assert set(leaf_ids) <= set(leaves)
    labels = frame[data.target].astype(str).to_numpy()
    for leaf_id, leaf in leaves.items():
        here = labels[leaf_ids == leaf_id]
        assert tuple(float((here == c).sum()) for c in tree.classes) == leaf.class_weights


def test_predict_proba_rows_sum_to_one(grown):
    data, tree = grown
    proba = tree.predict_proba(data.frame.drop(columns=data.target))
    assert proba.shape == (len(data.frame), len(tree.classes))
    assert (proba >= 0).all()
    np.testing.assert_allclose(proba.sum(axis=1), 1.0, rtol=0, atol=1e-12)
    # predict is the most probable class, the first in order on a tie.
    predicted = tree.predict(data.frame.drop(columns=data.target))
    assert list(predicted) == [tree.classes[i] for i in np.argmax(proba, axis=1)]


def test_predict_proba_of_a_leaf_is_its_class_distribution(tennis):
    # Without missing values a row lands in one leaf, whose distribution is weights / n.
    tree = dtlearn.fit(dtlearn.load_dataset("credit_risk"), "id3")
    frame = dtlearn.load_dataset("credit_risk").frame.drop(columns="defaulted")
    proba = tree.predict_proba(frame)
    ids = tree.apply(frame)
    for row, leaf_id in zip(proba, ids):
        leaf = tree.node(int(leaf_id))
        np.testing.assert_allclose(row, np.array(leaf.class_weights) / leaf.n, rtol=0, atol=1e-15)


def test_id3_predicts_tennis_training_data_perfectly(tennis, mitchell_rows):
    # Table 3.2 is consistent and the ID3 tree has pure leaves (Mitchell fig. 3.1).
    tree = dtlearn.fit(tennis, "id3")
    frame = tennis.frame.drop(columns="play")
    assert list(tree.predict(frame)) == [r[4] for r in mitchell_rows]
    proba = tree.predict_proba(frame)
    assert set(np.unique(proba)) <= {0.0, 1.0}


# --- missing and unseen values in prediction rows ---------------------------------------------

def tennis_row(**values):
    row = {"outlook": None, "temperature": "Mild", "humidity": None, "wind": None}
    row.update(values)
    return pd.DataFrame([row])


def test_missing_outlook_walks_every_branch(tennis):
    # C4.5 (seed 003): at outlook = ? the row goes down all three branches with the training shares
    # 5/14 (Sunny), 4/14 (Overcast), 5/14 (Rain) from Table 3.2. With humidity High and wind Weak:
    # Sunny -> High -> No (1, 0); Overcast -> Yes (0, 1); Rain -> Weak -> Yes (0, 1), so
    # P = 5/14 (1, 0) + 4/14 (0, 1) + 5/14 (0, 1) = (5/14, 9/14).
    tree = dtlearn.fit(tennis, "id3")
    assert tree.root.branch_fractions == pytest.approx((5 / 14, 4 / 14, 5 / 14), abs=1e-15)
    proba = tree.predict_proba(tennis_row(temperature="Hot", humidity="High", wind="Weak"))
    np.testing.assert_allclose(proba, [[5 / 14, 9 / 14]], rtol=0, atol=1e-15)
    assert list(tree.predict(tennis_row(temperature="Hot", humidity="High", wind="Weak"))) == ["Yes"]


def test_two_missing_values_combine_multiplicatively(tennis):
    # outlook = ? and wind = ?, humidity High: Sunny (5/14) -> High -> No; Overcast (4/14) -> Yes;
    # Rain (5/14) -> wind = ? -> Weak (3/5, Yes) and Strong (2/5, No).
    # No: 5/14 + 5/14 * 2/5 = 7/14; Yes: 4/14 + 5/14 * 3/5 = 7/14. A 1:1 tie -> the first class, No.
    no = Fraction(5, 14) + Fraction(5, 14) * Fraction(2, 5)
    assert no == Fraction(1, 2)
    tree = dtlearn.fit(tennis, "id3")
    row = tennis_row(humidity="High")
    np.testing.assert_allclose(tree.predict_proba(row), [[0.5, 0.5]], rtol=0, atol=1e-15)
    assert list(tree.predict(row)) == ["No"]


def test_everything_missing_gives_the_root_distribution(tennis):
    # With every tested value missing the shares multiply out to the class distribution of the
    # training data: (5/14, 9/14).
    tree = dtlearn.fit(tennis, "id3")
    np.testing.assert_allclose(tree.predict_proba(tennis_row()), [[5 / 14, 9 / 14]], rtol=0, atol=1e-15)


def test_unseen_value_is_treated_like_a_missing_one(tennis):
    # conditions.py: a multiway test sends a value never seen in training down every branch.
    tree = dtlearn.fit(tennis, "id3")
    unseen = tree.predict_proba(tennis_row(outlook="Foggy", humidity="High", wind="Weak"))
    missing = tree.predict_proba(tennis_row(humidity="High", wind="Weak"))
    np.testing.assert_array_equal(unseen, missing)


def test_a_value_of_another_type_is_unseen_not_silently_matched():
    # routing.py: new rows are matched by their label. A column trained on the text "TRUE" /
    # "FALSE" meets the boolean True (written "True"): never seen, so it is shared among the
    # branches exactly as a missing value, not sent down some branch by accident. The number 1
    # and the text "1" are the same label, and match.
    frame = pd.DataFrame({"flag": ["TRUE", "TRUE", "FALSE", "FALSE"], "n": ["1", "1", "2", "2"],
                          "y": ["a", "a", "b", "b"]})
    tree = dtlearn.fit(dtlearn.Dataset(frame, "y"), "id3")
    assert tree.root.test.attribute == "flag"
    missing = tree.predict_proba(pd.DataFrame({"flag": [None], "n": [None]}))
    np.testing.assert_array_equal(tree.predict_proba(pd.DataFrame({"flag": [True], "n": [None]})), missing)
    np.testing.assert_allclose(missing, [[0.5, 0.5]])
    numbers = dtlearn.fit(dtlearn.Dataset(frame[["n", "y"]], "y", {"n": "categorical"}), "id3")
    assert list(numbers.predict(pd.DataFrame({"n": [1, 2]}))) == ["a", "b"]
    # a numeric column meeting text: the cell is missing, C4.5's shares again
    iris = dtlearn.load_dataset("iris")
    tree = dtlearn.fit(iris, "c45", max_depth=1)
    row = iris.frame.drop(columns="species").iloc[[0]].astype(object)
    row.iloc[0, row.columns.get_loc(tree.root.test.attribute)] = "long"
    np.testing.assert_allclose(tree.predict_proba(row), [[1 / 3, 1 / 3, 1 / 3]], atol=1e-15)


def test_apply_follows_the_heaviest_branch_at_a_missing_value(tennis):
    # Documented in Tree.apply: Sunny and Rain both have 5/14; the first (Sunny) wins the tie,
    # then humidity High leads to the leaf 'outlook = Sunny, humidity = High'.
    tree = dtlearn.fit(tennis, "id3")
    leaf = next(node for node in tree.root.leaves() if node.path == ("outlook = Sunny", "humidity = High"))
    assert list(tree.apply(tennis_row(humidity="High"))) == [leaf.id]


def test_prediction_needs_the_tested_columns(tennis):
    tree = dtlearn.fit(tennis, "id3")
    with pytest.raises(ValueError, match="The rows to predict have no column 'outlook'"):
        tree.predict(pd.DataFrame({"humidity": ["High"]}))


def test_numeric_missing_value_at_a_threshold(iris):
    # C4.5 on iris, one level: the root cut separates setosa, (50, 0, 0) | (0, 50, 50) (setosa is
    # separable on petal length; recounted below). petal_length = ? goes left with 50/150 and
    # right with 100/150: 1/3 (1, 0, 0) + 2/3 (0, 1/2, 1/2) = (1/3, 1/3, 1/3).
    tree = dtlearn.fit(iris, "c45", max_depth=1)
    assert [c.class_weights for c in tree.root.children] == [(50.0, 0.0, 0.0), (0.0, 50.0, 50.0)]
    frame = iris.frame
    assert frame.loc[frame.species == "setosa", "petal_length"].max() < frame.loc[
        frame.species != "setosa", "petal_length"].min()
    row = pd.DataFrame({"sepal_length": [6.0], "sepal_width": [3.0], "petal_length": [np.nan],
                        "petal_width": [np.nan]})
    np.testing.assert_allclose(tree.predict_proba(row), [[1 / 3, 1 / 3, 1 / 3]], rtol=0, atol=1e-15)


# --- determinism --------------------------------------------------------------------------------

@pytest.mark.parametrize("name,algorithm", [("tennis", "id3"), ("iris", "cart"), ("contact_lenses", "c45"),
                                            ("watermelon_2alpha", "c45"), ("weather_numeric", "id3")])
def test_fitting_twice_gives_the_same_tree(name, algorithm):
    first = dtlearn.fit(dtlearn.load_dataset(name), algorithm)
    second = dtlearn.fit(dtlearn.load_dataset(name), algorithm)
    assert first.to_dict() == second.to_dict()
    assert [s.reason for s in first.steps] == [s.reason for s in second.steps]
    assert [s.stop for s in first.steps] == [s.stop for s in second.steps]
    assert first.to_dot() == second.to_dot()
