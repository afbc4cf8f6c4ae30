"""Growing trees: the textbook trees, every stopping condition, settings validation.

Expected trees come from the textbooks (Mitchell 1997 fig. 3.1; Weka's J48 on the numeric
weather data as printed in Witten, Frank & Hall, "Data Mining"), and expected stopping
decisions are derived by hand from the small tables built in each test.
"""

from __future__ import annotations

import re
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

import dtlearn
import exact


def leaf_summary(node):
    """{path: (prediction, class_weights)} of the leaves under `node`."""
    return {leaf.path: (leaf.prediction, leaf.class_weights) for leaf in node.leaves()}


# --- the textbook trees ------------------------------------------------------------------------

def test_id3_on_tennis_is_mitchells_tree(tennis, mitchell_rows):
    # Mitchell (1997) fig. 3.1 / section 3.4.2: Outlook at the root; Sunny -> Humidity
    # (High: No, Normal: Yes); Overcast -> Yes; Rain -> Wind (Strong: No, Weak: Yes).
    tree = dtlearn.fit(tennis, "id3")
    root = tree.root
    assert root.test.attribute == "outlook"
    assert [c.branch for c in root.children] == ["= Sunny", "= Overcast", "= Rain"]
    sunny, overcast, rain = root.children
    assert sunny.test.attribute == "humidity" and rain.test.attribute == "wind"
    assert overcast.is_leaf and overcast.prediction == "Yes"

    def counts(*conditions):  # (No, Yes) among the rows of Table 3.2 meeting the conditions
        rows = [r for r in mitchell_rows if all(r[i] == v for i, v in conditions)]
        return (float(sum(r[4] == "No" for r in rows)), float(sum(r[4] == "Yes" for r in rows)))

    assert leaf_summary(root) == {
        ("outlook = Sunny", "humidity = High"): ("No", counts((0, "Sunny"), (2, "High"))),
        ("outlook = Sunny", "humidity = Normal"): ("Yes", counts((0, "Sunny"), (2, "Normal"))),
        ("outlook = Overcast",): ("Yes", counts((0, "Overcast"))),
        ("outlook = Rain", "wind = Weak"): ("Yes", counts((0, "Rain"), (3, "Weak"))),
        ("outlook = Rain", "wind = Strong"): ("No", counts((0, "Rain"), (3, "Strong"))),
    }
    assert (tree.n_leaves, tree.depth, tree.n_nodes) == (5, 2, 8)
    # Every leaf is pure: Table 3.2 is consistent and ID3 stops only at pure nodes here.
    assert {leaf.stop for leaf in root.leaves()} == {"pure"}
    # The split reasons quote the winning gain: 0.2467 at the root (Mitchell's 0.246).
    assert f"{exact.info_gain([[3, 2], [0, 4], [2, 3]]):.4f}" in tree.steps[0].reason


def test_c45_on_weather_numeric_is_j48s_tree():
    # Weka's J48 on weather.numeric.arff (Witten, Frank & Hall, "Data Mining", Weka chapter):
    #   outlook = sunny: humidity <= 75: yes (2.0); humidity > 75: no (3.0)
    #   outlook = overcast: yes (4.0)
    #   outlook = rainy: windy = TRUE: no (2.0); windy = FALSE: yes (3.0)
    data = dtlearn.load_dataset("weather_numeric")
    tree = dtlearn.fit(data, "c45")
    root = tree.root
    assert root.test.attribute == "outlook"
    sunny, overcast, rainy = root.children
    assert sunny.test.kind == "threshold" and sunny.test.attribute == "humidity"
    # The cut: sunny humidities are 70, 70, 85, 90, 95; the best cut lies between 70 and 85
    # (midpoint 77.5) and J48 writes it as the largest training value <= 77.5, which is 75.
    humidity = data.frame["humidity"].to_numpy(dtype=float)
    assert sunny.test.threshold == humidity[humidity <= 77.5].max() == 75
    assert [(c.prediction, c.n) for c in sunny.children] == [("yes", 2.0), ("no", 3.0)]
    assert overcast.is_leaf and (overcast.prediction, overcast.n) == ("yes", 4.0)
    assert rainy.test.attribute == "windy"
    by_value = {c.branch: (c.prediction, c.n) for c in rainy.children}
    assert by_value == {"= FALSE": ("yes", 3.0), "= TRUE": ("no", 2.0)}
    assert "77.5" in tree.steps[1].reason and "75" in tree.steps[1].reason


def test_c45_collapses_a_subtree_that_does_not_lower_training_error(credit_risk):
    # C4.5 / J48 -U collapse: under missed_payments = N (6 N, 1 Y) the split on under_2_years
    # gives leaves (3, 0) and (3, 1): 1 training error, the same as the node alone (1), so the
    # subtree collapses and the node becomes a leaf predicting N with 7 rows / 1 error.
    tree = dtlearn.fit(credit_risk, "c45")
    collapse = [s for s in tree.steps if s.action == "collapse"]
    assert len(collapse) == 1 and collapse[0].stop == "collapse"
    assert collapse[0].path == ("missed_payments = N",)
    assert "1 training errors" in collapse[0].reason
    missed_n, missed_y = tree.root.children
    assert missed_n.is_leaf and missed_n.stop == "collapse" and missed_n.class_weights == (6.0, 1.0)
    assert tree.n_leaves == 2
    # The grown tree before the collapse step still has the split.
    grown = tree.at_step(tree.total_steps - 1)
    assert not grown.root.children[0].is_leaf


def test_fit_rejects_a_dataframe(tennis):
    with pytest.raises(TypeError, match="Give a dtlearn.Dataset"):
        dtlearn.fit(tennis.frame, "id3")


# --- stopping conditions --------------------------------------------------------------------

def test_pure_nodes_become_leaves(tennis):
    tree = dtlearn.fit(tennis, "id3")
    for leaf in tree.root.leaves():
        assert leaf.stop == "pure"
        assert min(leaf.class_weights) == 0  # two classes, one of them absent
        assert f"of class {leaf.prediction}" in leaf.leaf_reason and "pure" in leaf.leaf_reason


def test_empty_branch_predicts_the_parents_majority():
    # Seed 000, stopping condition 3: a branch no training row reaches predicts the majority of
    # its *parent*. Built so that the parent's majority (Y) differs from the root's (N):
    #   a = p: (p,u,Y) (p,u,Y) (p,v,N)        a = q: four N rows (b = w, w, u, u)
    # Root gains (by hand): a: Ent(2/7) - 3/7 Ent(1/3) = 0.4696; b: Ent(2/7) - 4/7 Ent(1/2) = 0.2917,
    # so ID3 splits on a; under a = p it splits on b, whose value w occurs only under a = q.
    rows = [("p", "u", "Y"), ("p", "u", "Y"), ("p", "v", "N"), ("q", "w", "N"), ("q", "w", "N"),
            ("q", "u", "N"), ("q", "u", "N")]
    data = dtlearn.Dataset(pd.DataFrame(rows, columns=["a", "b", "y"]), "y")
    assert exact.info_gain([[1, 2], [4, 0]]) > exact.info_gain([[2, 2], [1, 0], [2, 0]])
    tree = dtlearn.fit(data, "id3")
    p_node = tree.root.children[0]
    assert p_node.test.attribute == "b"
    empty = p_node.children[2]
    assert empty.branch == "= w"
    assert empty.stop == "empty"
    assert empty.class_weights == (0.0, 0.0)
    assert empty.prediction == "Y"  # the parent (1 N, 2 Y), not the root (5 N, 2 Y)
    assert "parent's majority" in empty.leaf_reason and "Y" in empty.leaf_reason
    # Its distribution is the parent's: (N, Y) = (1/3, 2/3).
    proba = tree.predict_proba(pd.DataFrame({"a": ["p"], "b": ["w"]}))
    np.testing.assert_allclose(proba, [[1 / 3, 2 / 3]], rtol=0, atol=1e-15)


def test_identical_rows_with_different_classes_make_a_majority_leaf():
    # Seed 000, stopping condition 2: all rows agree on every attribute, so nothing separates them.
    # Four rows (C4.5 needs at least 2 x 2 to consider a split at all).
    data = dtlearn.Dataset(pd.DataFrame({"a": ["p", "p", "p", "p"], "y": ["B", "A", "B", "B"]}), "y")
    for algorithm in ("id3", "c45", "cart"):
        tree = dtlearn.fit(data, algorithm)
        assert tree.root.is_leaf and tree.root.stop == "identical", algorithm
        assert tree.root.prediction == "B"  # 3 B vs 1 A
        assert "same values on every attribute" in tree.root.leaf_reason


def test_identical_rows_deeper_and_the_class_tie_rule():
    # x = 1, 1, 2 with classes A, B, B: CART cuts x <= 1.5 (Gini after 2/3 * 1/2 = 1/3 < 4/9);
    # the left node holds two identical rows A, B -> 'identical', a 1:1 tie won by the first
    # class in order, A (documented in dtlearn/tree.py `majority`).
    data = dtlearn.Dataset(pd.DataFrame({"x": [1.0, 1.0, 2.0], "y": ["A", "B", "B"]}), "y")
    tree = dtlearn.fit(data, "cart")
    left, right = tree.root.children
    assert left.stop == "identical" and left.class_weights == (1.0, 1.0) and left.prediction == "A"
    assert right.stop == "pure"


def test_no_attribute_left_on_the_path(credit_risk, credit_rows):
    # ID3 on the credit-risk slides: missed = N, then <2 years = Y holds rows 2, 6, 9, 10:
    # (Y, N, N, N) -> 3 N / 1 Y, both attributes used: majority leaf N (seed 000, condition 2).
    # missed = Y holds rows 5, 7, 8, all with <2 years = N: identical, 1 N / 2 Y -> Y.
    tree = dtlearn.fit(credit_risk, "id3")
    leaves = {leaf.path: leaf for leaf in tree.root.leaves()}
    deep = leaves[("missed_payments = N", "under_2_years = Y")]
    assert deep.stop == "no_attributes" and deep.class_weights == (3.0, 1.0) and deep.prediction == "N"
    assert "already been tested" in deep.leaf_reason
    missed = leaves[("missed_payments = Y",)]
    assert missed.stop == "identical" and missed.class_weights == (1.0, 2.0) and missed.prediction == "Y"


def test_max_depth(iris):
    # Depth 0: the root itself is a leaf; 50/50/50 ties, won by the first class, setosa.
    tree = dtlearn.fit(iris, "cart", max_depth=0)
    assert tree.root.is_leaf and tree.root.stop == "max_depth" and tree.root.prediction == "setosa"
    assert "maximum depth 0" in tree.root.leaf_reason
    # Depth 1: setosa is split off (pure leaf); the other child (0, 50, 50) stops at depth 1.
    tree = dtlearn.fit(iris, "cart", max_depth=1)
    left, right = tree.root.children
    assert left.stop == "pure"
    assert right.stop == "max_depth" and right.class_weights == (0.0, 50.0, 50.0)
    for depth in (2, 3):
        deeper = dtlearn.fit(iris, "cart", max_depth=depth)
        assert deeper.depth == depth
        assert all(n.depth <= depth for n in deeper.nodes())
        assert all(leaf.stop == "max_depth" for leaf in deeper.root.leaves() if leaf.depth == depth
                   and max(leaf.class_weights) < leaf.n)


def test_min_samples_split(iris):
    # 150 rows >= 101 -> the root splits; its right child has 100 < 101 rows -> leaf.
    tree = dtlearn.fit(iris, "cart", min_samples_split=101)
    right = tree.root.children[1]
    assert right.n == 100 and right.stop == "min_samples_split"
    assert "Only 100 rows" in right.leaf_reason and "min_samples_split = 101" in right.leaf_reason
    assert dtlearn.fit(iris, "cart", min_samples_split=151).root.stop == "min_samples_split"
    # Every split node of a tree grown with min_samples_split = s has at least s rows.
    for s in (5, 20, 60):
        tree = dtlearn.fit(iris, "cart", min_samples_split=s)
        assert all(n.n >= s for n in tree.nodes() if not n.is_leaf)


def test_min_samples_leaf(iris):
    # Internship (6 rows): with min_samples_leaf = 4 no cut leaves >= 4 rows on both sides, so the
    # root cannot split; with 3, years_experience <= 2.5 (3 | 3) is allowed and is perfect.
    data = dtlearn.load_dataset("internship")
    tree = dtlearn.fit(data, "cart", min_samples_leaf=4)
    assert tree.root.is_leaf and tree.root.stop == "min_samples_leaf"
    assert "fewer than min_samples_leaf = 4 rows" in tree.root.leaf_reason
    table = tree.steps[0].table
    assert not table["eligible"].any()
    assert table["reason"].str.contains("min_samples_leaf = 4").all()
    tree = dtlearn.fit(data, "cart", min_samples_leaf=3)
    assert tree.root.test.attribute == "years_experience" and tree.n_leaves == 2
    # On iris every leaf of a min_samples_leaf = 5 tree holds at least 5 rows.
    tree = dtlearn.fit(iris, "cart", min_samples_leaf=5)
    assert min(leaf.n for leaf in tree.root.leaves()) >= 5


@pytest.mark.parametrize("pi", [0.8, 0.9, 0.95, 1.0])
def test_min_purity_zakis_pi(iris, pi):
    # Zaki & Meira DECISIONTREE: a node whose purity max_i n_i / n is >= pi is a leaf, so every
    # split node has purity < pi and every impure leaf has purity >= pi (stop 'min_purity').
    tree = dtlearn.fit(iris, "cart", min_purity=pi)
    for node in tree.nodes():
        purity = Fraction(int(max(node.class_weights)), int(node.n))
        if not node.is_leaf:
            assert purity < pi
        elif node.stop == "min_purity":
            assert purity >= pi and purity < 1
            assert f"pi = {pi:g}" in node.leaf_reason
    if pi == 0.9:
        # Under petal_length > 2.45 (0, 50, 50) the next cut gives (0, 49, 5) and (0, 1, 45)
        # (recounted below); purities 49/54 = 0.907 and 45/46 = 0.978 are both >= 0.9.
        frame = iris.frame
        rest = frame[frame.petal_length > 2.45]
        below = rest[rest.petal_width <= 1.75].species.value_counts()
        assert (below.get("versicolor"), below.get("virginica")) == (49, 5)
        stops = sorted((leaf.stop, leaf.class_weights) for leaf in tree.root.leaves())
        assert stops == [("min_purity", (0.0, 1.0, 45.0)), ("min_purity", (0.0, 49.0, 5.0)),
                         ("pure", (50.0, 0.0, 0.0))]


def test_min_gain_seed_003_pre_pruning(tennis):
    # Seed 003: `if purity_gain > threshold` split (dtlearn: split only if gain > min_gain).
    # Tennis root: best gain is Gain(S, Outlook) = 0.24675 (Mitchell's 0.246), computed exactly.
    best = exact.info_gain([[3, 2], [0, 4], [2, 3]])
    tree = dtlearn.fit(tennis, "id3", min_gain=best + 1e-9)
    assert tree.root.is_leaf and tree.root.stop == "min_gain"
    assert f"{best:.4f}" in tree.root.leaf_reason and "does not exceed min_gain" in tree.root.leaf_reason
    tree = dtlearn.fit(tennis, "id3", min_gain=best - 1e-9)
    assert tree.root.test.attribute == "outlook"


def test_min_gain_boundary_is_exclusive():
    # x = 0, 1 with classes A, B: the cut is perfect, gain exactly 1 bit (and Gini gain 1/2).
    # Seed 003 splits only if the gain *exceeds* the threshold, so a gain equal to it stops.
    data = dtlearn.Dataset(pd.DataFrame({"x": [0.0, 1.0], "y": ["A", "B"]}), "y")
    assert not dtlearn.fit(data, "cart", criterion="entropy", min_gain=1.0 - 1e-9).root.is_leaf
    assert dtlearn.fit(data, "cart", criterion="entropy", min_gain=1.0).root.stop == "min_gain"
    assert not dtlearn.fit(data, "cart", min_gain=0.5 - 1e-9).root.is_leaf  # Gini gain 1/2 - 0 = 1/2
    assert dtlearn.fit(data, "cart", min_gain=0.5).root.stop == "min_gain"


def test_id3_stops_on_xor_at_the_root(xor):
    # y = a XOR b: each attribute alone leaves both branches 50/50, so Gain = 1 - 1 = 0 for both.
    # ID3 makes a node whose best gain is 0 a leaf, as Weka's Id3 does (weka.classifiers.trees.Id3
    # returns a leaf when the maximum information gain is 0) -- it never sees that the two
    # attributes together determine the class. (CART splits anyway: see test_sklearn_oracle.)
    assert exact.info_gain([[1, 1], [1, 1]]) == 0
    tree = dtlearn.fit(xor, "id3")
    assert tree.root.is_leaf and tree.root.stop == "zero_gain"
    assert "information gain" in tree.root.leaf_reason
    assert tree.root.prediction == "N"  # a 2:2 tie, won by the first class
    assert tree.total_steps == 1


def test_cart_splits_xor_despite_zero_gain(xor_numeric):
    # Gini gain of either cut at the root is 0 (two 50/50 halves), but CART (like scikit-learn)
    # splits whenever the decrease is >= min_gain = 0; the second cut then separates the classes.
    tree = dtlearn.fit(xor_numeric, "cart")
    assert tree.n_leaves == 4 and all(leaf.stop == "pure" for leaf in tree.root.leaves())


# --- CART on categorical attributes ------------------------------------------------------------

def test_cart_on_tennis_grows_a_tree(tennis):
    # Regression: raised IndexError (a node with an attribute that has no candidate split) up to
    # d17dab9. Tennis root (hand-derived, see test_splits): outlook {Overcast} vs {Sunny, Rain}, Gini after
    # 5/14. Table 3.2 is consistent, so an unpruned CART tree must fit it perfectly.
    tree = dtlearn.fit(tennis, "cart")
    assert set(tree.root.test.left) | set(tree.root.test.right) == {"Sunny", "Overcast", "Rain"}
    assert {frozenset(tree.root.test.left), frozenset(tree.root.test.right)} == {
        frozenset({"Overcast"}), frozenset({"Sunny", "Rain"})}
    frame = tennis.frame
    assert list(tree.predict(frame.drop(columns="play"))) == list(frame["play"].astype(str))


def test_cart_on_the_credit_risk_slides(credit_risk):
    # By hand (Gini): root missed_payments {N} | {Y} (Gini after 32/105 < 0.4167 for tenure).
    # Under missed = N (6 N, 1 Y): under_2_years N (3, 0) | Y (3, 1), Gini after 4/7 * 3/8 = 3/14
    # < Gini(6, 1) = 12/49, so it splits; (3, 1) are four rows identical on both attributes ->
    # 'identical' leaf N. Under missed = Y: rows 5, 7, 8 all have <2 years = N -> identical, Y.
    tree = dtlearn.fit(credit_risk, "cart")
    assert tree.root.test.attribute == "missed_payments"
    leaves = sorted((leaf.class_weights, leaf.stop, leaf.prediction) for leaf in tree.root.leaves())
    assert leaves == [((1.0, 2.0), "identical", "Y"), ((3.0, 0.0), "pure", "N"), ((3.0, 1.0), "identical", "N")]


def test_cart_categorical_minimal_reproduction():
    # Regression, the minimal reproduction of the IndexError above.
    # a in {p} -> (A, B), a in {q} -> (B, B): the left child has only 'p' left, so no subset split
    # exists there; it should become an 'identical' leaf (seed 000, condition 2).
    data = dtlearn.Dataset(pd.DataFrame({"a": ["p", "q", "p", "q"], "y": ["A", "B", "B", "B"]}), "y")
    tree = dtlearn.fit(data, "cart")
    assert [leaf.stop for leaf in tree.root.leaves()] == ["identical", "pure"]


# --- settings validation -----------------------------------------------------------------------

@pytest.mark.parametrize("settings,message", [
    ({"max_depht": 2}, r"Unknown setting 'max_depht'\. Settings are: criterion, "),
    ({"max_depth": -1}, r"max_depth must be a whole number >= 0 or None, not -1"),
    ({"max_depth": 1.5}, r"max_depth must be a whole number"),
    ({"max_depth": True}, r"max_depth must be a whole number"),
    ({"min_purity": 0}, r"min_purity \(Zaki's pi\) must be in \(0, 1\], not 0"),
    ({"min_purity": 1.01}, r"min_purity \(Zaki's pi\) must be in \(0, 1\]"),
    ({"min_purity": float("nan")}, r"min_purity"),
    ({"min_samples_split": -1}, r"min_samples_split must be a number >= 0"),
    ({"min_samples_leaf": "3"}, r"min_samples_leaf must be a number >= 0"),
    ({"min_gain": -0.1}, r"min_gain must be a number >= 0"),
    ({"min_gain": float("inf")}, r"min_gain must be a number >= 0"),
    ({"criterion": "information"}, r"criterion must be one of entropy, gini, gain_ratio"),
    ({"categorical_split": "binary"}, r"categorical_split must be 'multiway' or 'subset'"),
    ({"numeric_split": "binary"}, r"numeric_split must be 'threshold' or 'multiway'"),
    ({"collapse": 1}, r"collapse must be True or False"),
    ({"max_exhaustive_values": 40}, r"max_exhaustive_values must be a whole number from 2 to 16"),
])
def test_bad_settings_raise_readable_errors(tennis, settings, message):
    with pytest.raises(ValueError, match=message):
        dtlearn.fit(tennis, "id3", **settings)


@pytest.mark.parametrize("algorithm", ["ID3", "c5.0", "", "gini"])
def test_unknown_algorithm(tennis, algorithm):
    # The list of presets may grow; the three of the seeds lead it (C4.5 in two versions, the 1993 book's first).
    message = rf"^Unknown algorithm '{re.escape(algorithm)}'\. Choose one of: id3, c45_1993, c45, cart"
    with pytest.raises(ValueError, match=message):
        dtlearn.fit(tennis, algorithm)


def test_settings_are_recorded_on_the_tree(iris):
    tree = dtlearn.fit(iris, "cart", max_depth=2, min_samples_leaf=3)
    assert tree.settings.max_depth == 2 and tree.settings.min_samples_leaf == 3
    assert tree.algorithm == "cart" and tree.to_dict()["settings"]["max_depth"] == 2


def test_a_steps_headline_is_its_decision_and_the_rest_are_notes():
    """A projector shows the reason's first sentence (the decision and its number) beside the tree:
    C4.5's note on where the cut is written, and a tie's rule, come after it."""
    tree = dtlearn.fit(dtlearn.load_dataset("iris"), "c45")
    first = tree.steps[0]
    assert first.headline.startswith("Split on petal_width <= 0.6: highest gain ratio")
    assert first.headline.endswith(").") and first.reason.startswith(first.headline)
    assert first.reason[len(first.headline):].strip().startswith("The cut is written as 0.6")
    for step in tree.steps:
        assert step.reason.startswith(step.headline) and "0." not in step.headline[-3:-1]
    leaf = next(s for s in tree.steps if s.action == "leaf")
    assert leaf.headline == leaf.reason  # one sentence: nothing else to say apart


def test_a_leaf_of_one_row_is_said_in_the_singular():
    import pandas as pd

    import dtlearn

    # two rows, two classes: each branch of a's split holds one row, each a pure leaf
    data = dtlearn.Dataset(pd.DataFrame({"a": ["x", "y"], "c": ["p", "q"]}), target="c")
    reasons = [step.reason for step in dtlearn.fit(data, "id3").steps[1:]]
    assert reasons == ["The 1 row here is of class p: the node is pure.",
                       "The 1 row here is of class q: the node is pure."]
