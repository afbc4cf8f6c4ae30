"""Class priors (CART; seed 002) against R's rpart, and class weights against scikit-learn.

rpart fixtures (tests/fixtures/rpart, README): `rpart(..., parms = list(prior = c(0.5, 0.5)),
control = rpart.control(minsplit = 2, minbucket = 1, cp = 0, xval = 0, maxsurrogate = 0))` on
credit_risk, iris rows 51-150 (50/50) and iris rows 51-125 (50 versicolor, 25 virginica), and the
same without `prior` (data priors). Our nodes correspond to rpart's as in test_surrogates.py
(rpart's children of t are 2t, 2t + 1; `x < t` there is our `x <= t`); rpart drops splits that
do not lower training misclassification, so only nodes of both trees are compared, and every
internal node of rpart's must be one of ours.

With priors pi_j each row of class j counts a_j = pi_j / (n_j / n) (README): rpart's `yprob` is
the prior-adjusted class distribution, `improve` the Gini decrease times n in altered weights.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_iris
from sklearn.tree import DecisionTreeClassifier

import dtlearn
import exact
from rpart_tree import corresponding
from dtlearn.conditions import ThresholdTest

RPART = Path(__file__).resolve().parent / "fixtures" / "rpart"
TOL = 1e-9
IRIS_ROWS = {"iris2": range(50, 150), "iris2u": range(50, 125)}


def rpart_fit(tag: str, prior: str) -> dict:
    return json.loads((RPART / f"priors_{tag}_prior_{prior}.json").read_text(encoding="utf-8"))


def dataset(tag: str) -> dtlearn.Dataset:
    if tag == "credit":
        return dtlearn.load_dataset("credit_risk")
    iris = dtlearn.load_dataset("iris")
    return dtlearn.Dataset(iris.frame.iloc[list(IRIS_ROWS[tag])].reset_index(drop=True), "species")


CASES = [(tag, prior, options) for tag in ("credit", "iris2", "iris2u")
         for prior, options in (("data", {}), ("data", {"priors": "data"}), ("equal", {"priors": "equal"}))]
CASES += [("iris2u", "equal", {"priors": {"versicolor": 0.5, "virginica": 0.5}}),
          ("credit", "equal", {"priors": {"N": 0.5, "Y": 0.5}})]


@pytest.mark.parametrize(("tag", "prior", "options"), CASES,
                         ids=[f"{t}-{p}-{o}" for t, p, o in CASES])
def test_nodes_match_rpart(tag, prior, options):
    # At every shared node: the split (variable and threshold / levels), the prior-adjusted class
    # probabilities (rpart `yprob`), the predicted class (`yval_label`) and the raw counts.
    fit = rpart_fit(tag, prior)
    tree = dtlearn.fit(dataset(tag), "cart", **options)
    frame = {rec["node"]: rec for rec in fit["frame"]}
    pairs = corresponding(tree, fit)
    assert {n for _, n, left in pairs if left is not None} == {rec["node"] for rec in fit["nodes"]}
    for node, number, _ in pairs:
        expected = frame[number]
        got = [node.distribution[tree.classes.index(c)] for c in fit["ylevels"]]
        assert got == pytest.approx([expected["yprob"][c] for c in fit["ylevels"]], abs=TOL), f"node {number}"
        assert node.prediction == expected["yval_label"], f"node {number}"
        assert [node.class_weights[tree.classes.index(c)] for c in fit["ylevels"]] == \
            [expected["counts"][c] for c in fit["ylevels"]]


@pytest.mark.parametrize("tag", ["credit", "iris2", "iris2u"])
@pytest.mark.parametrize("prior", ["data", "equal"])
def test_root_improvements_match_rpart(tag, prior):
    # rpart's improve = N G(t) - N_L G(L) - N_R G(R) in altered weights, whose root total is n:
    # improve = n * (our Gini gain). Primary and competitors: each attribute's best split.
    fit = rpart_fit(tag, prior)
    data = dataset(tag)
    table = dtlearn.split_table(data, "cart", **({"priors": "equal"} if prior == "equal" else {}))
    root = fit["nodes"][0]
    n = fit["n"]
    for record in [root["primary"]] + root["competitors"]:
        rows = table[table["attribute"] == record["variable"]]
        best = rows.loc[rows["gini_gain"].idxmax()]
        assert n * best["gini_gain"] == pytest.approx(record["improve"], rel=1e-9), record["variable"]
        if record["type"] == "numeric":
            assert best["threshold"] == pytest.approx(record["threshold"], abs=TOL)
    chosen = table[table["chosen"]].iloc[0]
    assert chosen["attribute"] == root["primary"]["variable"]


def test_equal_prior_moves_sepal_widths_best_cut():
    # README: on iris rows 51-125 the equal prior moves sepal_width's best cut from 3.5 to 3.15
    # (rpart's competitor lists), the root stays petal_width < 1.65.
    data = dataset("iris2u")
    for prior, cut in (("data", 3.5), ("equal", 3.15)):
        options = {"priors": "equal"} if prior == "equal" else {}
        table = dtlearn.split_table(data, "cart", **options)
        rows = table[table["attribute"] == "sepal_width"]
        assert rows.loc[rows["gini_gain"].idxmax(), "threshold"] == pytest.approx(cut, abs=TOL)
        assert dtlearn.fit(data, "cart", max_depth=1, **options).root.test == ThresholdTest("petal_width", 1.65)


# --- seed 002's rule ------------------------------------------------------------------------------

def seed_002_table() -> dtlearn.Dataset:
    """Seed 002: 20 rows of class 1 and 80 of class 0 at the root; a child of 30 rows, 10 of class
    1 and 20 of class 0 (here x = a), the other child the remaining 10 + 60 (x = b)."""
    rows = [("a", "1")] * 10 + [("a", "0")] * 20 + [("b", "1")] * 10 + [("b", "0")] * 60
    return dtlearn.Dataset(pd.DataFrame(rows, columns=["x", "y"]), "y")


def test_seed_002_equal_priors_rule():
    # Equal priors label a node 1 iff N1(node)/N1(root) > N0(node)/N0(root). Child x = a:
    # 10/20 = 1/2 > 20/80 = 1/4 -> class 1, with P(1) = (1/2) / (1/2 + 1/4) = 2/3.
    # Child x = b: 10/20 = 1/2 < 60/80 = 3/4 -> class 0, P(0) = (3/4) / (3/4 + 1/2) = 3/5.
    # Root: every class 1/2 (seed 002: "the probability of each class at the root is 1/K").
    data = seed_002_table()
    tree = dtlearn.fit(data, "cart", priors="equal")
    assert tree.classes == ("0", "1")
    assert tree.root.distribution == pytest.approx((0.5, 0.5), abs=1e-15)
    first, second = tree.root.children
    a, b = (first, second) if "a" in tree.root.test.left else (second, first)  # x in {a} | x in {b}
    assert a.class_weights == (20.0, 10.0) and b.class_weights == (60.0, 10.0)
    p_a = Fraction(1, 2) / (Fraction(1, 2) + Fraction(1, 4))
    assert a.distribution == pytest.approx((float(1 - p_a), float(p_a)), abs=1e-15)
    assert a.prediction == "1"
    p_b = Fraction(3, 4) / (Fraction(3, 4) + Fraction(1, 2))
    assert b.distribution == pytest.approx((float(p_b), float(1 - p_b)), abs=1e-15)
    assert b.prediction == "0"
    # with the data's priors the same child is 20 : 10 for class 0
    plain = dtlearn.fit(data, "cart")
    assert {c.prediction for c in plain.root.children} == {"0"}


def test_a_prior_dict_gives_the_probabilities_it_implies():
    # priors {0: 0.2, 1: 0.8} (the data's are 0.8 / 0.2): a_0 = 0.2 / 0.8 = 1/4, a_1 = 0.8 / 0.2 = 4.
    # Child x = a: (20 / 4, 10 * 4) = (5, 40) -> P(1) = 40/45 = 8/9; root: (0.2, 0.8).
    tree = dtlearn.fit(seed_002_table(), "cart", priors={"0": 0.2, "1": 0.8})
    assert tree.root.distribution == pytest.approx((0.2, 0.8), abs=1e-15)
    a = next(c for c in tree.root.children if c.class_weights == (20.0, 10.0))
    assert a.distribution == pytest.approx((1 / 9, 8 / 9), abs=1e-15)


# --- class weights vs scikit-learn -------------------------------------------------------------------

def imbalanced_iris():
    """All 50 setosa, 30 versicolor, 10 virginica (iris rows 1-50, 51-80, 101-110)."""
    bunch = load_iris()
    rows = np.r_[0:50, 50:80, 100:110]
    X, y = bunch.data[rows], bunch.target[rows]
    features = pd.DataFrame(X, columns=["sl", "sw", "pl", "pw"])
    names = np.asarray(bunch.target_names)
    return X, y, features, dtlearn.Dataset(features.assign(cls=names[y].astype(str)), "cls"), names


CLASS_WEIGHTS = ["balanced", {0: 1.0, 1: 2.0, 2: 5.0}, {0: 1, 1: 1, 2: 10}, {2: 4.0}]
SETTINGS = [{}, {"max_depth": 2}, {"min_samples_leaf": 3}]


@pytest.mark.parametrize("settings", SETTINGS, ids=str)
@pytest.mark.parametrize("class_weight", CLASS_WEIGHTS, ids=str)
def test_class_weight_matches_sklearn(class_weight, settings):
    # scikit-learn's DecisionTreeClassifier(class_weight=...) is the oracle: same leaves (as a
    # partition of the training rows), same class probabilities, same predictions.
    X, y, features, data, names = imbalanced_iris()
    ours_weight = class_weight if class_weight == "balanced" else {str(names[k]): v for k, v in class_weight.items()}
    ours = dtlearn.fit(data, "cart", class_weight=ours_weight, **settings)
    theirs = DecisionTreeClassifier(random_state=0, class_weight=class_weight, **settings).fit(X, y)
    assert exact.partition_of(ours.apply(features)) == exact.partition_of(theirs.apply(X))
    np.testing.assert_allclose(ours.predict_proba(features), theirs.predict_proba(X), rtol=0, atol=1e-12)
    assert list(ours.predict(features)) == list(names[theirs.predict(X)])


def test_balanced_weights_are_n_over_k_n_j():
    # scikit-learn's "balanced": w_j = n / (k n_j) = 90 / (3 * (50, 30, 10)) = (0.6, 1, 3); the root
    # then holds 30 of each class: distribution (1/3, 1/3, 1/3).
    _, _, _, data, _ = imbalanced_iris()
    tree = dtlearn.fit(data, "cart", class_weight="balanced", max_depth=0)
    assert tree.class_factor == pytest.approx((0.6, 1.0, 3.0), abs=1e-15)
    assert tree.root.distribution == pytest.approx((1 / 3, 1 / 3, 1 / 3), abs=1e-15)


# --- validation ---------------------------------------------------------------------------------------

@pytest.mark.parametrize(("options", "message"), [
    ({"priors": {"0": 0.5, "1": 0.6}}, "priors must add up to 1, not 1.1"),
    ({"priors": {"0": 0.5, "2": 0.5}}, "priors names '2', which is not a class"),
    ({"priors": {"0": 1.0}}, "priors must give a value for every class"),
    ({"priors": {"0": 0.0, "1": 1.0}}, "priors must be positive numbers"),
    ({"priors": "uniform"}, "priors must be 'data', 'equal' or a"),
    ({"class_weight": {"7": 2.0}}, "class_weight names '7', which is not a class"),
    ({"class_weight": {"1": -1.0}}, "class_weight must be positive numbers"),
    ({"class_weight": "auto"}, "class_weight must be None, 'balanced' or a"),
])
def test_bad_priors_and_class_weights(options, message):
    with pytest.raises(ValueError, match=message):
        dtlearn.fit(seed_002_table(), "cart", **options)


@pytest.mark.parametrize("options", [{"priors": "equal"}, {"class_weight": "balanced"}])
def test_priors_on_a_regression_target_are_refused(options):
    frame = pd.DataFrame({"x": np.arange(20.0), "y": np.arange(20.0) ** 2})
    with pytest.raises(ValueError, match="Class priors and class weights apply to classification"):
        dtlearn.fit(dtlearn.Dataset(frame, "y"), "cart", **options)


# --- cost-complexity with priors and class weights -----------------------------------------------------

@pytest.mark.parametrize("tag", ["credit", "iris2", "iris2u"])
def test_cp_table_with_the_datas_priors_matches_rpart(tag):
    # rpart's cptable (CP, nsplit, rel error). On credit our tree has one more split than rpart's
    # (a zero-improvement split rpart discards, README), which prunes at alpha = 0 and so merges
    # into the same last row.
    expected = rpart_fit(tag, "data")["cptable"]
    table = dtlearn.rpart_cp_table(dtlearn.fit(dataset(tag), "cart"))
    assert [(round(r["CP"], 12), r["nsplit"], round(r["rel error"], 12)) for _, r in table.iterrows()] == \
        [(round(r["CP"], 12), r["nsplit"], round(r["rel_error"], 12)) for r in expected]


@pytest.mark.parametrize("tag", ["credit", "iris2u"])
def test_cp_table_with_equal_priors_matches_rpart(tag):
    # By hand for credit (README): altered weights N 5/7, Y 5/3; root risk 10 (1 - 1/2) = 5; the
    # leaves (6 N, 1 Y) -> N and (1 N, 2 Y) -> Y misclassify 5/3 + 5/7 = 50/21: rel error 10/21,
    # CP = (5 - 50/21) / 5 = 11/21 (rpart prints 0.5238095, 0.4761905).
    if tag == "credit":
        assert Fraction(5, 3) + Fraction(5, 7) == Fraction(50, 21)
        assert (5 - Fraction(50, 21)) / 5 == Fraction(11, 21)
    expected = rpart_fit(tag, "equal")["cptable"]
    table = dtlearn.rpart_cp_table(dtlearn.fit(dataset(tag), "cart", priors="equal"))
    assert [(round(r["CP"], 12), r["nsplit"], round(r["rel error"], 12)) for _, r in table.iterrows()] == \
        [(round(r["CP"], 12), r["nsplit"], round(r["rel_error"], 12)) for r in expected]


@pytest.mark.parametrize("class_weight", ["balanced", {0: 1, 1: 1, 2: 10}], ids=str)
def test_cost_complexity_path_with_class_weight_matches_sklearn(class_weight):
    # scikit-learn: R(t) = (weighted n(t) / weighted n) * impurity(t), weights = class weights.
    X, y, features, data, names = imbalanced_iris()
    ours_weight = class_weight if class_weight == "balanced" else {str(names[k]): v for k, v in class_weight.items()}
    tree = dtlearn.fit(data, "cart", class_weight=ours_weight)
    path = dtlearn.cost_complexity_path(tree)
    reference = DecisionTreeClassifier(random_state=0, class_weight=class_weight).cost_complexity_pruning_path(X, y)
    assert len(path) == len(reference.ccp_alphas)
    np.testing.assert_allclose(path["alpha"], reference.ccp_alphas, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(path["impurity"], reference.impurities, rtol=1e-9, atol=1e-12)
