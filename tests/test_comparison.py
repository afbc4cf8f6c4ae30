"""The four algorithms side by side (dtlearn.comparison) on PlayTennis, tips and iris.

Expected values are derived from Mitchell (1997), Table 3.2 (typed in tests/conftest.py, not
read through dtlearn) with the reference arithmetic of tests/exact.py: the trees' sizes are
counted by hand below, the root's ranking measures computed from the class counts.
"""

from __future__ import annotations

import pytest

import dtlearn
import exact
from dtlearn.comparison import COMPARED, compare_algorithms, decisions, first_disagreement

ATTRIBUTES = ("outlook", "temperature", "humidity", "wind")  # columns of MITCHELL_TENNIS, then play
CLASSES = ("No", "Yes")


@pytest.fixture(scope="module")
def tennis_comparison():
    return compare_algorithms(dtlearn.load_dataset("tennis"))


@pytest.fixture(scope="module")
def tips_comparison():
    return compare_algorithms(dtlearn.load_dataset("tips"))


def test_id3_and_c45_put_outlook_at_the_root_and_cart_a_binary_test(tennis_comparison):
    for algorithm in ("id3", "c45"):
        root = tennis_comparison.result(algorithm).tree.root
        assert root.test.attribute == "outlook" and len(root.children) == 3  # one branch per value
        assert tennis_comparison.result(algorithm).root_test == "outlook (one branch per value)"
    cart = tennis_comparison.result("cart")
    assert len(cart.tree.root.children) == 2 and len(cart.tree.root.test.branch_labels) == 2
    # Gini gain of {Overcast} vs the rest is 10/98, the highest (see the root table test)
    assert cart.root_test == "outlook in {Overcast}"
    assert cart.root_reason == cart.tree.steps[0].reason and "Gini gain" in cart.root_reason


def test_id3_on_playtennis_has_the_textbook_tree_counted_by_hand(tennis_comparison, mitchell_rows):
    # Mitchell (1997), fig. 3.1, checked on Table 3.2: outlook at the root (3 branches);
    # Sunny (D1 D2 D8 No, D9 D11 Yes) splits on humidity: High -> No (3), Normal -> Yes (2);
    # Overcast (D3 D7 D12 D13) is a Yes leaf; Rain (D4 D5 D10 Yes, D6 D14 No) splits on wind:
    # Weak -> Yes (3), Strong -> No (2). Nodes: 1 root + 3 children + 2 + 2 = 8; leaves: 1 + 2 + 2 = 5;
    # depth 2. Every training row lands in a pure leaf: accuracy 14/14.
    sunny = [r for r in mitchell_rows if r[0] == "Sunny"]
    assert {(r[2], r[4]) for r in sunny} == {("High", "No"), ("Normal", "Yes")}
    rain = [r for r in mitchell_rows if r[0] == "Rain"]
    assert {(r[3], r[4]) for r in rain} == {("Weak", "Yes"), ("Strong", "No")}
    id3 = tennis_comparison.result("id3")
    assert (id3.n_nodes, id3.n_leaves, id3.depth, id3.training_score) == (8, 5, 2, 1.0)
    text = id3.tree.to_text().splitlines()
    assert len(text) == 7 and sum(1 for line in text if ": " in line) == 5  # 7 lines: every node but the root


def test_zaki_on_playtennis_stops_at_small_nodes_as_counted_by_hand(tennis_comparison, mitchell_rows):
    # Zaki & Meira (eta = 5, pi = 0.95): the root splits on outlook in {Overcast}; its 4 Overcast
    # rows are all Yes (purity 1 >= 0.95): a leaf. The other 10 (5 No, 5 Yes) split on humidity:
    # High holds D1 D2 D4 D8 D14 = 4 No, 1 Yes, Normal holds D5 D6 D9 D10 D11 = 4 Yes, 1 No: gain
    # 1 - H(4/5) = 0.278, more than outlook's Sunny/Rain (1 - H(3/5) = 0.029). Both children have
    # 5 <= eta rows: leaves. Nodes 1 + 2 + 2 = 5, leaves 3, depth 2; two rows misclassified: 12/14.
    rest = [r for r in mitchell_rows if r[0] != "Overcast"]
    high = [r[4] for r in rest if r[2] == "High"]
    assert sorted(high) == ["No"] * 4 + ["Yes"]
    zaki = tennis_comparison.result("zaki")
    assert zaki.root_test == "outlook in {Overcast}"
    assert (zaki.n_nodes, zaki.n_leaves, zaki.depth) == (5, 3, 2)
    assert zaki.training_score == pytest.approx(12 / 14)


def test_sizes_and_scores_are_the_trees_own(tennis_comparison):
    data = dtlearn.load_dataset("tennis")
    table = tennis_comparison.table()
    assert table["algorithm"].tolist() == list(COMPARED)
    for (_, row), r in zip(table.iterrows(), tennis_comparison.results):
        tree = r.tree
        assert (r.n_nodes, r.n_leaves, r.depth) == (tree.n_nodes, tree.n_leaves, tree.depth)
        assert (row["nodes"], row["leaves"], row["depth"]) == (tree.n_nodes, tree.n_leaves, tree.depth)
        assert r.n_nodes == sum(1 for _ in tree.nodes())
        assert r.training_score == dtlearn.accuracy(tree, data) == row["training"]


@pytest.mark.parametrize("k, seed", [(5, 0), (3, 7)])
def test_cross_validated_accuracy_is_dtlearns(k, seed):
    data = dtlearn.load_dataset("tennis")
    comparison = compare_algorithms(data, k=k, seed=seed)
    for algorithm in COMPARED:
        expected = dtlearn.cross_validate(data, algorithm, k, seed)
        r = comparison.result(algorithm)
        assert r.cv.scores == expected.scores and len(r.cv.scores) == k
        assert (r.cv_mean, r.cv_std) == (expected.mean, expected.std)


def test_settings_apply_to_every_algorithm_that_accepts_them():
    data = dtlearn.load_dataset("tennis")
    comparison = compare_algorithms(data, {"max_depth": 1, "missing_values": "surrogate", "colour": "red"})
    for r in comparison.results:
        assert r.depth == 1 and dict(r.settings)["max_depth"] == 1
        skipped = dict(r.skipped)
        assert skipped["colour"].startswith("Unknown setting 'colour'")
        expected = dtlearn.cross_validate(data, r.algorithm, 5, 0, **dict(r.settings))
        assert r.cv.scores == expected.scores
    for algorithm in ("id3", "c45"):  # multiway splits: no surrogates
        assert "Surrogate splits need binary splits" in dict(comparison.result(algorithm).skipped)["missing_values"]
    for algorithm in ("cart", "zaki"):
        assert dict(comparison.result(algorithm).settings)["missing_values"] == "surrogate"


def test_identical_trees_never_disagree_and_different_ones_say_where(tennis_comparison):
    data = dtlearn.load_dataset("tennis")
    for r in tennis_comparison.results:
        assert first_disagreement(r.tree, r.tree) is None
        assert first_disagreement(r.tree, dtlearn.fit(data, r.algorithm)) is None  # same settings, same tree
    id3_cart = tennis_comparison.disagreement("id3", "cart")
    assert id3_cart.path == () and id3_cart.where == "the root"
    assert (id3_cart.first_decision, id3_cart.second_decision) == ("outlook (one branch per value)",
                                                                    "outlook in {Overcast}")
    # ID3 and C4.5 grow the same tree here: at the root gain ratio also picks outlook (see the
    # root table); under Sunny humidity splits the rows purely (gain ratio 0.971 / 0.971 = 1, the
    # most), under Rain wind does (1 again). So no node disagrees.
    assert tennis_comparison.disagreement("c45", "id3").path is None
    # CART and Zaki agree on {Overcast} and then humidity in {High}; below High (4 No, 1 Yes:
    # 5 rows <= eta) Zaki stops, while CART splits on outlook in {Sunny} (D1 D2 D8 No; D4 Yes, D14 No).
    cart_zaki = tennis_comparison.disagreement("cart", "zaki")
    assert cart_zaki.path == ("outlook not in {Overcast}", "humidity in {High}")
    assert cart_zaki.where == "outlook not in {Overcast} and humidity in {High}"
    assert (cart_zaki.first_decision, cart_zaki.second_decision) == ("outlook in {Sunny}", "a leaf")
    assert len(tennis_comparison.disagreements) == 6  # every pair of four, once


def test_the_first_disagreement_is_the_same_from_either_tree():
    comparison = compare_algorithms(dtlearn.load_dataset("iris"), k=2)
    for d in comparison.disagreements:
        a, b = comparison.result(d.first).tree, comparison.result(d.second).tree
        assert first_disagreement(a, b) == first_disagreement(b, a) == d.path
        if d.path is not None:  # up to that node, the two trees decide alike
            before = [p for p, _ in decisions(a)][:[p for p, _ in decisions(a)].index(d.path)]
            assert [dict(decisions(a))[p] for p in before] == [dict(decisions(b))[p] for p in before]


def test_the_root_table_holds_each_algorithms_measure_computed_by_hand(tennis_comparison, mitchell_rows):
    table = tennis_comparison.root_table().set_index("attribute")
    assert list(table.index) == list(ATTRIBUTES) and list(table.columns) == list(COMPARED)
    for i, attribute in enumerate(ATTRIBUTES):
        values = sorted({r[i] for r in mitchell_rows})
        per_value = exact.counts_by(mitchell_rows, i, values, CLASSES)
        # ID3: information gain of one branch per value (Quinlan 1986)
        assert table.loc[attribute, "id3"] == pytest.approx(exact.info_gain(per_value), abs=1e-12)
        # C4.5: gain / split information (Quinlan 1993); no threshold correction on categories
        ratio = exact.info_gain(per_value) / exact.split_info([sum(c) for c in per_value])
        assert table.loc[attribute, "c45"] == pytest.approx(ratio, abs=1e-12)
        # CART (Gini gain) and Zaki (information gain) of the best binary split of the values;
        # with at most 3 values every two-way split has a side of at most 2 values (Zaki's l = 2)
        splits = [[[sum(c) for c in zip(*(per_value[values.index(v)] for v in side))] for side in pair]
                  for pair in exact.two_way_partitions(values)]
        assert table.loc[attribute, "cart"] == pytest.approx(float(max(map(exact.gini_gain, splits))), abs=1e-12)
        assert table.loc[attribute, "zaki"] == pytest.approx(max(map(exact.info_gain, splits)), abs=1e-12)
    # the Gini gain of {Overcast}: Gini(D) = 1 - (5/14)^2 - (9/14)^2 = 45/98; Overcast (0 No, 4 Yes)
    # is pure, the other 10 rows (5 No, 5 Yes) have Gini 1/2: 45/98 - 10/14 * 1/2 = 10/98
    assert table.loc["outlook", "cart"] == pytest.approx(10 / 98, abs=1e-12)
    assert table["id3"].idxmax() == table["c45"].idxmax() == table["cart"].idxmax() == "outlook"


def test_a_regression_target_says_which_algorithms_do_not_apply(tips_comparison):
    data = dtlearn.load_dataset("tips")
    assert dtlearn.infer_task(data) == "regression" and tips_comparison.task == "regression"
    for algorithm in ("id3", "c45"):
        r = tips_comparison.result(algorithm)
        assert not r.applies and r.tree is None and r.root_test is None
        assert r.problem.startswith("Regression trees are CART's")
    assert [r.algorithm for r in tips_comparison.applied] == ["cart", "zaki"]
    zaki = tips_comparison.result("zaki")  # Zaki's purity is for classes: off, and said so
    assert dict(zaki.settings) == {"min_purity": None} and "min_purity" in zaki.notes[0]
    for r in tips_comparison.applied:
        assert r.tree.is_regression
        assert r.training_score == dtlearn.mean_squared_error(r.tree, data)  # MSE, not accuracy
        assert r.cv.scores == dtlearn.cross_validate(data, r.algorithm, 5, 0, **dict(r.settings)).scores
    assert tips_comparison.table()["algorithm"].tolist() == ["cart", "zaki"]
    assert [(d.first, d.second) for d in tips_comparison.disagreements] == [("cart", "zaki")]
    assert list(tips_comparison.root_table().columns) == ["attribute", "cart", "zaki"]


def test_a_task_setting_can_make_every_algorithm_apply():
    # tips' tip treated as classes: ID3 and C4.5 apply; max_depth (listed first) is kept too
    comparison = compare_algorithms(dtlearn.load_dataset("tips"), {"max_depth": 1, "task": "classification"}, k=2)
    assert comparison.task == "classification"
    for r in comparison.results:
        assert r.applies and r.depth == 1 and dict(r.settings) == {"max_depth": 1, "task": "classification"}


def test_an_unknown_algorithm_is_a_readable_error(tennis_comparison):
    with pytest.raises(ValueError, match="Unknown algorithm 'c50'"):
        tennis_comparison.result("c50")
    with pytest.raises(ValueError, match="No trees of both id3 and c50"):
        tennis_comparison.disagreement("id3", "c50")


def test_each_trees_first_difference_is_the_node_where_the_pair_first_decides_apart():
    """PlayTennis: ID3 and C4.5 grow the same tree; CART's binary root differs from both at the
    root; CART and Zaki first differ below it. Each node found is the first, in pre-order, of
    its tree whose decision the other tree does not make at the same path."""
    from dtlearn.comparison import compare_algorithms, decisions

    comparison = compare_algorithms(dtlearn.load_dataset("tennis"))
    trees = {r.algorithm: r.tree for r in comparison.applied}
    for algorithm, tree in trees.items():
        found = comparison.first_differences(algorithm)
        for other, other_tree in trees.items():
            if other == algorithm:
                continue
            theirs = dict(decisions(other_tree))
            mine = decisions(tree)
            first = next((i for i, (path, done) in enumerate(mine) if theirs.get(path) != done), None)
            if first is None:
                assert other not in found  # the same tree: nothing to mark
                continue
            node = next(n for n in tree.nodes() if n.path == mine[first][0])
            assert found[other] == node.id
    assert comparison.first_differences("id3") == {"cart": 0, "zaki": 0}  # C4.5 grew ID3's tree
