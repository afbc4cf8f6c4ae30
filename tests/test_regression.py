"""CART regression trees (Breiman et al. 1984; seed 002: squared error, mean or median leaves).

Oracle: scikit-learn's DecisionTreeRegressor (random_state=0), compared by the partition of the
training rows into leaves and by predictions. Hand examples use exact Fractions:
SSE(D) = sum y^2 - (sum y)^2 / n, reduction = SSE(D) - sum_b SSE(D_b), MSE = SSE / n.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_diabetes, make_regression
from sklearn.tree import DecisionTreeRegressor

import dtlearn
import exact


def sse(values) -> Fraction:
    values = [Fraction(v) for v in values]
    if not values:
        return Fraction(0)
    return sum(v * v for v in values) - sum(values) ** 2 / len(values)


def diabetes():
    bunch = load_diabetes()
    features = pd.DataFrame(bunch.data, columns=list(bunch.feature_names))
    return bunch.data, bunch.target, features, dtlearn.Dataset(features.assign(target=bunch.target), "target")


def made_up():
    X, y = make_regression(n_samples=200, n_features=5, noise=10.0, random_state=0)
    features = pd.DataFrame(X, columns=[f"f{i}" for i in range(5)])
    return X, y, features, dtlearn.Dataset(features.assign(target=y), "target")


PEERS = {"diabetes": diabetes, "make_regression": made_up}


# --- scikit-learn as the oracle ---------------------------------------------------------------------

@pytest.mark.parametrize("settings", [{}, {"max_depth": 3}, {"min_samples_leaf": 5}, {"min_samples_split": 30}],
                         ids=str)
@pytest.mark.parametrize("name", list(PEERS))
def test_same_leaves_and_predictions_as_sklearn(name, settings):
    X, y, features, data = PEERS[name]()
    ours = dtlearn.fit(data, "cart", **settings)
    assert ours.task == "regression"  # auto: a numeric target with more than 10 distinct values
    theirs = DecisionTreeRegressor(random_state=0, **settings).fit(X, y)
    assert exact.partition_of(ours.apply(features)) == exact.partition_of(theirs.apply(X))
    assert ours.n_leaves == theirs.get_n_leaves()
    np.testing.assert_allclose(ours.predict(features), theirs.predict(X), rtol=1e-12, atol=1e-9)


# --- the task ------------------------------------------------------------------------------------------

def numbers_table(n_values: int) -> dtlearn.Dataset:
    y = [float(i % n_values) for i in range(30)]
    return dtlearn.Dataset(pd.DataFrame({"x": np.arange(30.0), "y": y}), "y")


def test_task_is_regression_above_ten_distinct_values():
    # induction.infer_task: numeric target with more than 10 distinct values -> regression.
    assert dtlearn.fit(numbers_table(10), "cart", max_depth=1).task == "classification"
    assert dtlearn.fit(numbers_table(11), "cart", max_depth=1).task == "regression"
    # task= overrides the guess either way
    assert dtlearn.fit(numbers_table(10), "cart", max_depth=1, task="regression").task == "regression"
    forced = dtlearn.fit(numbers_table(11), "cart", max_depth=1, task="classification")
    assert forced.task == "classification" and len(forced.classes) == 11


# --- the split table by hand -----------------------------------------------------------------------------

HAND = pd.DataFrame({"x": [1.0, 2.0, 3.0, 4.0, 5.0], "c": ["u", "v", "u", "w", "v"], "y": [1.0, 2.0, 4.0, 8.0, 16.0]})


def test_split_table_columns_by_hand():
    # y = (1, 2, 4, 8, 16): SSE(D) = 341 - 31^2 / 5 = 744/5; for x <= t the rows with x <= t go
    # left; the reduction is SSE(D) - SSE(L) - SSE(R); MSE = SSE / 5; score = reduction / 5.
    data = dtlearn.Dataset(HAND, "y")
    table = dtlearn.split_table(data, "cart", task="regression")
    y = list(HAND["y"])
    before = sse(y)
    assert before == Fraction(744, 5)
    rows = table[table["attribute"] == "x"]
    assert list(rows["threshold"]) == [1.5, 2.5, 3.5, 4.5]
    for k, (_, row) in enumerate(rows.iterrows(), start=1):
        after = sse(y[:k]) + sse(y[k:])
        assert row["sse_before"] == pytest.approx(float(before), rel=1e-14)
        assert row["sse_after"] == pytest.approx(float(after), rel=1e-14)
        assert row["sse_reduction"] == pytest.approx(float(before - after), rel=1e-14)
        assert row["mse_before"] == pytest.approx(float(before / 5), rel=1e-14)
        assert row["mse_after"] == pytest.approx(float(after / 5), rel=1e-14)
        assert row["score"] == pytest.approx(float((before - after) / 5), rel=1e-14)
        assert row["branch_stats"][0] == pytest.approx((k, float(Fraction(sum(y[:k])) / k)))
    # best: x <= 4.5 leaves (1, 2, 4, 8) | (16): SSE 115/4... reduction 744/5 - 115/4 = 2401/20
    assert sse(y[:4]) == Fraction(115, 4)
    chosen = table[table["chosen"]].iloc[0]
    assert chosen["test"] == "x <= 4.5"
    assert chosen["sse_reduction"] == pytest.approx(2401 / 20, rel=1e-14)


def test_categorical_subsets_are_prefixes_of_the_mean_order():
    # c: u -> (1, 4) mean 5/2, w -> (8) mean 8, v -> (2, 16) mean 9. Breiman et al. (1984): the
    # best squared-error subset is a prefix of the values ordered by mean, so the two candidates
    # are {u} | {w, v} and {u, w} | {v} (written with the smaller side, {v}).
    data = dtlearn.Dataset(HAND, "y")
    rows = dtlearn.split_table(data, "cart", task="regression").query("attribute == 'c'")
    assert list(rows["test"]) == ["c in {u}", "c in {v}"]
    y = dict(u=[1, 4], v=[2, 16], w=[8])
    for (_, row), (left, right) in zip(rows.iterrows(), [("u", "wv"), ("v", "uw")]):
        after = sse([t for v in left for t in y[v]]) + sse([t for v in right for t in y[v]])
        assert row["sse_after"] == pytest.approx(float(after), rel=1e-14)


# --- leaves: mean or median ----------------------------------------------------------------------------

def test_median_leaves_by_hand():
    # max_depth 1 splits x <= 4.5 (above): leaves (1, 2, 4, 8) and (16). Mean leaves 15/4 and 16;
    # median leaves: induction.weighted_median takes the lower median (the smallest value with at
    # least half the weight at or below it): 2 for (1, 2, 4, 8), not 3; 16 for (16).
    data = dtlearn.Dataset(HAND, "y")
    mean = dtlearn.fit(data, "cart", task="regression", max_depth=1)
    median = dtlearn.fit(data, "cart", task="regression", max_depth=1, leaf_value="median")
    assert [leaf.value for leaf in mean.root.leaves()] == [3.75, 16.0]
    assert [leaf.value for leaf in median.root.leaves()] == [2.0, 16.0]
    assert list(median.predict(HAND)) == [2.0, 2.0, 2.0, 2.0, 16.0]
    assert median.root.value == pytest.approx(31 / 5)  # an internal node still shows the mean


def test_median_leaves_on_diabetes_are_the_leaf_medians():
    # Same partition as scikit-learn (squared error decides the splits); each leaf then predicts
    # the lower median of its rows' targets: sorted(y)[(n - 1) // 2].
    X, y, features, data = diabetes()
    ours = dtlearn.fit(data, "cart", max_depth=3, leaf_value="median")
    theirs = DecisionTreeRegressor(random_state=0, max_depth=3).fit(X, y)
    leaf_of = theirs.apply(X)
    expected = np.empty(len(y))
    for leaf in np.unique(leaf_of):
        members = leaf_of == leaf
        expected[members] = np.sort(y[members])[(members.sum() - 1) // 2]
    np.testing.assert_array_equal(ours.predict(features), expected)


# --- tips: categorical attributes ----------------------------------------------------------------------

def tips_partition_reduction(frame: pd.DataFrame, left: frozenset) -> Fraction:
    y = [Fraction(str(v)) for v in frame["tip"]]
    inside = frame["day"].astype(str).isin(left).to_numpy()
    return sse(y) - sse([v for v, i in zip(y, inside) if i]) - sse([v for v, i in zip(y, inside) if not i])


def test_tips_day_subsets_follow_the_mean_order_and_contain_the_best_partition():
    # Brute force over all 7 two-way partitions of {Thur, Fri, Sat, Sun} at the root with exact
    # Fractions: the best is among the 3 prefixes of the days ordered by mean tip, which are the
    # table's candidates (Breiman et al. 1984, Thm 4.5 for squared error).
    data = dtlearn.load_dataset("tips")
    frame = data.frame
    means = frame.groupby(frame["day"].astype(str))["tip"].mean().sort_values()
    order = list(means.index)
    prefixes = {frozenset([frozenset(order[:k]), frozenset(order[k:])]) for k in range(1, 4)}
    partitions = exact.two_way_partitions(order)
    assert len(partitions) == 7
    reductions = {frozenset([left, right]): tips_partition_reduction(frame, left) for left, right in partitions}
    best = max(reductions, key=reductions.get)
    assert best in prefixes
    table = dtlearn.split_table(data, "cart")
    rows = table[table["attribute"] == "day"]
    got = set()
    for _, row in rows.iterrows():
        left = frozenset(row["test"].split(" in ")[1].strip("{}").split(", "))
        got.add(frozenset([left, frozenset(order) - left]))
        assert row["sse_reduction"] == pytest.approx(float(reductions[frozenset([left, frozenset(order) - left])]),
                                                     rel=1e-9)
    assert got == prefixes


def test_tips_fits_a_regression_tree():
    # The root is the best split over all attributes: compare with scikit-learn's stump on the numeric
    # columns (same threshold) and check it beats every categorical candidate in the table.
    data = dtlearn.load_dataset("tips")
    tree = dtlearn.fit(data, "cart")
    assert tree.task == "regression"
    frame = data.frame
    X = frame[["total_bill", "size"]].to_numpy()
    stump = DecisionTreeRegressor(random_state=0, max_depth=1).fit(X, frame["tip"])
    assert tree.root.test.attribute == "total_bill"
    # (scikit-learn stores X as float32, so its midpoint is 20.47 to float32 precision)
    assert tree.root.test.threshold == pytest.approx(stump.tree_.threshold[0], abs=1e-5)
    table = dtlearn.split_table(data, "cart")
    categorical = table[table["kind"] == "subset"]
    assert (categorical["sse_reduction"] < table.loc[table["chosen"], "sse_reduction"].iloc[0]).all()
    # grown to the end: every leaf's rows have one tip, or identical values on every attribute
    leaf_of = tree.apply(frame)
    for leaf in np.unique(leaf_of):
        rows = frame[leaf_of == leaf]
        attributes = rows.drop(columns="tip").astype(str)
        assert rows["tip"].nunique() == 1 or len(attributes.drop_duplicates()) == 1


# --- errors -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("algorithm", ["id3", "c45"])
def test_id3_and_c45_refuse_a_regression_target(algorithm):
    with pytest.raises(ValueError, match="^Regression trees are CART's, and 'tip' is a numeric target: choose the "
                                         "cart algorithm, another target column, or set Task to Classification"):
        dtlearn.fit(dtlearn.load_dataset("tips"), algorithm)
    with pytest.raises(ValueError, match="Regression trees are CART's"):
        dtlearn.split_table(dtlearn.load_dataset("tips"), algorithm)


@pytest.mark.parametrize(("options", "message"), [
    ({"task": "regression", "criterion": "gini"}, None),  # the criterion becomes squared_error
    ({"prune": True}, "prune=True is C4.5's pessimistic pruning, for classification"),
    ({"criterion": "squared_error", "task": "classification"}, "squared_error is the regression criterion"),
    ({"task": "numeric"}, "task must be 'classification', 'regression' or None"),
    ({"leaf_value": "mode"}, "leaf_value must be 'mean' or 'median'"),
])
def test_regression_settings(options, message):
    data = dtlearn.load_dataset("tips")
    if message is None:
        assert dtlearn.fit(data, "cart", max_depth=1, **options).settings.criterion == "squared_error"
        return
    with pytest.raises(ValueError, match=message):
        dtlearn.fit(data, "cart", **options)


def test_text_target_cannot_be_regression():
    with pytest.raises(ValueError, match="A regression tree needs a numeric target; 'play' holds text"):
        dtlearn.fit(dtlearn.load_dataset("tennis"), "cart", task="regression")


def test_a_target_whose_squares_pass_the_largest_float_is_refused_with_the_rescaling():
    # 1e308 squared is inf: every node's squared error and every score became inf or nan (a regression
    # tree: auto would see six distinct values as classes)
    frame = pd.DataFrame({"a": [0, 0, 1, 0, 1, 2], "y": [1e308, 0.0, 3.0, -1.0, 2.0, 1e300]})
    with pytest.raises(dtlearn.DataError, match=r"reaches 1e\+308.*Divide it by 1e302"):
        dtlearn.fit(dtlearn.Dataset(frame, "y"), "cart", task="regression")
    frame["y"] = frame["y"] / 1e302  # as the message says: the same tree, in other units
    tree = dtlearn.fit(dtlearn.Dataset(frame, "y"), "cart", task="regression")
    assert all(math.isfinite(node.impurity) for node in tree.root.walk())
    large = frame.assign(y=frame["y"] * 1e134)  # up to 1e140: n y^2 = 6e280, below the bound
    grown = dtlearn.fit(dtlearn.Dataset(large, "y"), "cart", task="regression")
    assert all(math.isfinite(node.impurity) for node in grown.root.walk())
