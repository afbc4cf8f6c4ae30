"""One example followed down the tree (dtlearn.explain): what it reports must be what
`Tree.predict` / `predict_proba` do with the same example, and its weights must be the ones
derived by hand from the training table.

Independent expectations:
- watermelon 2.0-alpha with C4.5, an example missing 纹理 and 敲声: the branch shares r~_v =
  (known weight down v) / (known weight at the node) (Quinlan 1993; Zhou 2016, sec. 4.4.2) are
  counted here from the CSV with pandas, not read from dtlearn, and multiplied along the paths
  with exact fractions.
- PlayTennis with ID3 (Mitchell 1997, fig. 3.1): Sunny and High humidity -> No, two tests.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import dtlearn
from dtlearn.explain import FRACTIONAL, MAJORITY, STOP, SURROGATE, TEST, Decision, example_frame, explain

DATASETS = Path(__file__).resolve().parents[1] / "datasets"
UNSEEN = "never-seen-value"


def check_against_predict(tree, example, frame=None) -> None:
    """The explanation's prediction and distribution are predict's, its leaves add up to them,
    and no weight is lost on the way down."""
    e = explain(tree, example)
    frame = example_frame(tree, example) if frame is None else frame
    predicted = tree.predict(frame)[0]
    if tree.is_regression:
        assert e.prediction == pytest.approx(predicted, rel=0, abs=1e-12)
        combined = sum(end.weight * end.value for end in e.endings)
        assert combined == pytest.approx(predicted, rel=1e-12, abs=1e-12)
    else:
        assert e.prediction == predicted, (example, e.lines())
        proba = tree.predict_proba(frame)[0]
        np.testing.assert_allclose(e.distribution, proba, rtol=0, atol=1e-12)
        combined = sum(end.weight * np.asarray(end.distribution) for end in e.endings)
        np.testing.assert_allclose(combined, proba, rtol=0, atol=1e-12)
    assert sum(end.weight for end in e.endings) == pytest.approx(1.0, abs=1e-12)
    for d in e.decisions:
        assert sum(d.child_weights) == pytest.approx(d.weight if d.how != STOP else 0.0, abs=1e-12)
        if d.how != FRACTIONAL:
            assert len(d.branches) <= 1
    assert e.main_path[0] == 0 and e.highlight in e.reached
    assert all(isinstance(line, str) and line for line in e.lines()) and e.combination()


def variants(data: dtlearn.Dataset, rng: np.random.Generator, n: int) -> list[dict]:
    """n training rows as examples, each with some values blanked (None, NaN, '' or a left-out
    key) and some categories replaced by one the tree never saw."""
    frame = data.frame
    out = []
    for i in rng.choice(len(frame), size=min(n, len(frame)), replace=False):
        example = {a: frame.iloc[i][a] for a in data.attributes}
        for a in data.attributes:
            roll = rng.random()
            if roll < 0.12:
                example[a] = None
            elif roll < 0.18:
                example[a] = float("nan")
            elif roll < 0.22:
                example[a] = ""
            elif roll < 0.26:
                del example[a]
            elif roll < 0.34:
                example[a] = UNSEEN if data.kinds[a] == "categorical" else "not a number"
        out.append(example)
    return out


@pytest.mark.parametrize("algorithm", ["c45", "cart"])
def test_watermelon_with_missing_values_equals_predict(algorithm):
    data = dtlearn.load_dataset("watermelon_2alpha")
    tree = dtlearn.fit(data, algorithm)
    rows = [{a: row[a] for a in data.attributes} for _, row in data.frame.iterrows()]  # its own missing cells
    for example in rows + variants(data, np.random.default_rng(1), 40) + [{}]:
        check_against_predict(tree, example)
    plain = {a: data.frame.iloc[0][a] for a in data.attributes}  # a one-row frame made by hand
    check_against_predict(tree, plain, pd.DataFrame([plain]))


@pytest.mark.parametrize("name", ["iris", "tennis", "credit_risk"])
@pytest.mark.parametrize("algorithm", dtlearn.ALGORITHMS)
def test_random_rows_with_blanks_and_unseen_values_equal_predict(name, algorithm):
    data = dtlearn.load_dataset(name)
    tree = dtlearn.fit(data, algorithm)
    rng = np.random.default_rng(7)
    for example in variants(data, rng, 25):
        check_against_predict(tree, example)
    full = {a: data.frame.iloc[3][a] for a in data.attributes}
    check_against_predict(tree, full, pd.DataFrame([full]))


def test_regression_leaf_values_combine_to_predict():
    data = dtlearn.load_dataset("tips")
    tree = dtlearn.fit(data, "cart")
    for example in variants(data, np.random.default_rng(3), 15) + [{}]:
        check_against_predict(tree, example)
    e = explain(tree, {a: data.frame.iloc[0][a] for a in data.attributes})
    assert len(e.endings) == 1 and e.endings[0].value == pytest.approx(e.prediction)


def test_c45_weights_on_watermelon_derived_by_hand():
    # The example misses 纹理 (the root's attribute) and 敲声; 根蒂 = 蜷缩.
    tree = dtlearn.fit(dtlearn.load_dataset("watermelon_2alpha"), "c45")
    assert tree.root.test.attribute == "纹理"
    example = {"纹理": None, "敲声": None, "根蒂": "蜷缩"}
    e = explain(tree, example)

    frame = pd.read_csv(DATASETS / "watermelon_2alpha.csv")
    known = frame["纹理"].dropna()
    root_share = {v: Fraction(int(c), len(known)) for v, c in known.value_counts().items()}
    assert root_share == {"清晰": Fraction(7, 15), "稍糊": Fraction(5, 15), "模糊": Fraction(3, 15)}

    # Each leaf reached, by its path: the product of the shares along it.
    expected = {}
    for child in tree.root.children:
        value = child.branch.removeprefix("= ")
        if child.is_leaf:
            expected[(value,)] = root_share[value]
            continue
        below = child.test.attribute
        if below == "根蒂":  # known here: the whole weight goes to 蜷缩
            expected[(value, "蜷缩")] = root_share[value]
            continue
        # missing here too: the rows that reached this node carry weight 1 (their 纹理 is this
        # value) or the root's share (纹理 missing); shares of the known weight per value
        weight = np.where(frame["纹理"] == value, 1.0, np.where(frame["纹理"].isna(), float(root_share[value]), 0.0))
        reached = frame.assign(w=weight)[weight > 0]
        by_value = reached[reached[below].notna()].groupby(below)["w"].sum()
        for grandchild in child.children:
            v = grandchild.branch.removeprefix("= ")
            expected[(value, v)] = float(root_share[value]) * by_value.get(v, 0.0) / by_value.sum()
    reported = {}
    for end in e.endings:
        path = tree.node(end.node_id).path
        reported[tuple(c.split(" = ", 1)[1] for c in path)] = end.weight
    assert reported.keys() == expected.keys()
    for path, weight in expected.items():
        assert reported[path] == pytest.approx(float(weight), abs=1e-12), path
    assert e.decisions[0].how == FRACTIONAL and e.decisions[0].weight == 1.0
    shares = dict(zip(tree.root.test.values, e.decisions[0].shares))
    assert shares == pytest.approx({v: float(s) for v, s in root_share.items()}, abs=1e-12)
    line = e.lines()[0]
    assert "纹理 is missing: goes down every branch with weights" in line and "Quinlan 1993" in line
    assert e.main_path == (0, *(n.id for n in tree.root.children if n.branch == "= 清晰"),
                           *(n.id for c in tree.root.children if c.branch == "= 清晰" for n in c.children
                             if n.branch == "= 蜷缩"))
    check_against_predict(tree, example)


def test_playtennis_sunny_and_high_humidity_is_no_after_two_tests():
    # Mitchell (1997), fig. 3.1: outlook = Sunny, then humidity = High -> No (days D1, D2, D8)
    tree = dtlearn.fit(dtlearn.load_dataset("tennis"), "id3")
    e = explain(tree, {"outlook": "Sunny", "humidity": "High"})
    assert e.prediction == "No"
    assert [d.attribute for d in e.decisions] == ["outlook", "humidity"]
    assert all(d.how == TEST and d.weight == 1.0 for d in e.decisions)
    (leaf,) = e.endings
    assert leaf.is_leaf and leaf.weight == 1.0 and tree.node(leaf.node_id).class_weights == (3.0, 0.0)
    assert e.distribution == (1.0, 0.0)
    assert e.lines()[0] == "node 0 (weight 1): outlook = Sunny -> branch '= Sunny'"
    assert e.lines()[1].endswith("humidity = High -> branch '= High'")
    assert e.highlight == leaf.node_id and len(e.main_path) == 3


def test_threshold_words():
    tree = dtlearn.fit(dtlearn.load_dataset("iris"), "cart")
    e = explain(tree, {"petal_length": 4.2, "petal_width": 1.3, "sepal_length": 5.7, "sepal_width": 2.8})
    assert e.lines()[0] == "node 0 (weight 1): petal_length = 4.2 <= 2.45? no -> branch '> 2.45'"


def test_cart_surrogate_majority_and_stop_in_words():
    data = dtlearn.load_dataset("watermelon_2alpha")
    tree = dtlearn.fit(data, "cart")
    root = tree.root
    assert root.surrogates, "the root of CART's watermelon tree has surrogates"
    first = root.surrogates[0].test  # 脐部 in {凹陷}
    inside = first.left[0]
    e = explain(tree, {"纹理": None, first.attribute: inside})
    d = e.decisions[0]
    assert d.how == SURROGATE and d.surrogate_rank == 1
    assert d.branches == ((0,) if not root.surrogates[0].reversed else (1,))
    assert f"surrogate {first.describe()}" in e.lines()[0] and "Breiman et al. 1984" in e.lines()[0]

    e = explain(tree, {})  # nothing known: no surrogate applies anywhere
    assert e.decisions[0].how == MAJORITY and "no surrogate applies: the majority branch" in e.lines()[0]
    check_against_predict(tree, {})

    # a node whose two branches took one row each, without surrogates: rpart stops there
    tied = next(n for n in tree.nodes() if n.children and not n.surrogates
                and n.children[0].weight == n.children[1].weight)
    example, node = {}, root
    while node is not tied:  # known values that lead to it
        b = next(k for k, c in enumerate(node.children) if tied in c.walk())
        example[node.test.attribute] = (node.test.left if b == 0 else node.test.right)[0]
        node = node.children[b]
    e = explain(tree, example)
    assert e.decisions[-1].how == STOP and e.decisions[-1].node_id == tied.id
    (end,) = e.endings
    assert not end.is_leaf and end.node_id == tied.id and "stops here" in e.lines()[-1]
    check_against_predict(tree, example)


def test_unseen_values_follow_routing():
    tree = dtlearn.fit(dtlearn.load_dataset("tennis"), "c45")
    d = explain(tree, {"outlook": "Foggy"}).decisions[0]  # multiway: cannot place it, shared
    assert d.status == "unseen" and d.how == FRACTIONAL and len(d.branches) == 3
    assert "a value the tree never saw, treated as missing" in d.describe()
    tree = dtlearn.fit(dtlearn.load_dataset("tennis"), "cart")
    d = explain(tree, {"outlook": "Foggy"}).decisions[0]  # subset test: its second branch
    assert d.status == "unseen" and d.how == TEST and d.branches == (1,)


def test_a_not_a_number_value_is_missing_in_words():
    tree = dtlearn.fit(dtlearn.load_dataset("iris"), "c45")
    d = explain(tree, {"petal_width": "wide"}).decisions[0]
    assert isinstance(d, Decision) and d.status == "not a number" and d.how == FRACTIONAL
    assert d.describe().startswith("petal_width = wide is not a number, so it is missing")


def test_bad_example_is_a_value_error():
    tree = dtlearn.fit(dtlearn.load_dataset("tennis"), "id3")
    with pytest.raises(ValueError, match="mapping from attribute names"):
        explain(tree, ["Sunny", "Hot"])


def test_the_leaves_contributions_add_up_to_the_prediction():
    """Watermelon 2.0-alpha, C4.5, 纹理 and 敲声 missing: each leaf's weight x class shares,
    summed here, equals the sum row, which is predict_proba's distribution."""
    tree = dtlearn.fit(dtlearn.load_dataset("watermelon_2alpha"), "c45")
    example = {"色泽": "青绿", "根蒂": "蜷缩", "敲声": None, "纹理": None, "脐部": "凹陷", "触感": "硬滑"}
    table = explain(tree, example).contributions()
    assert len(table) > 2 and table.index[-1] == "sum"
    leaves = table.iloc[:-1]
    assert leaves["weight"].sum() == pytest.approx(1.0)
    frame = pd.DataFrame([example])
    proba = tree.predict_proba(frame)[0]
    for c, p in zip(tree.classes, proba):
        assert leaves[f"weight × {c}"].sum() == pytest.approx(p) == pytest.approx(table.loc["sum", f"weight × {c}"])
