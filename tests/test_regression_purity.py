"""When a regression node is pure: all its rows have one target value (Breiman et al. 1984: a node
whose squared error is 0 is not split), and the leaf's reason says so only then.

Oracle: scikit-learn's DecisionTreeRegressor (random_state=0) splits two targets 1e-4 apart; the
targets' equality is read from the table with pandas.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.tree import DecisionTreeRegressor

import dtlearn
import exact


def fitted(frame: pd.DataFrame) -> dtlearn.Tree:
    return dtlearn.fit(dtlearn.Dataset(frame, "y"), "cart", task="regression")


def leaf_rows(tree, frame: pd.DataFrame) -> dict:
    """Each leaf's rows, by the leaf's id."""
    leaf_of = np.asarray(tree.apply(frame.drop(columns="y")))
    return {leaf: frame[leaf_of == leaf] for leaf in np.unique(leaf_of)}


def test_two_targets_1e4_apart_around_350_are_split_as_scikit_learn_splits_them():
    # x <= 2.5 sends (350, 350.0001) to one node: its variance, 2.5e-9, is below 1e-12 x 350^2, the
    # relative tolerance that called it pure ("All 2 rows here have the same value"), where
    # scikit-learn (and the definition: the two values differ) splits it.
    frame = pd.DataFrame({"x": [1.0, 2.0, 3.0, 4.0, 5.0], "y": [350.0, 350.0001, 900.0, 100.0, 100.0]})
    tree = fitted(frame)
    X, y = frame[["x"]].to_numpy(), frame["y"].to_numpy()
    theirs = DecisionTreeRegressor(random_state=0).fit(X, y)
    assert tree.n_leaves == theirs.get_n_leaves() == 4
    assert exact.partition_of(tree.apply(frame[["x"]])) == exact.partition_of(theirs.apply(X))
    np.testing.assert_allclose(tree.predict(frame[["x"]]), theirs.predict(X), rtol=1e-12)
    # the only pure leaf with more than one row is the one whose rows have one target (pandas)
    pure = [node for node in tree.root.leaves() if node.stop == "pure"]
    rows = leaf_rows(tree, frame)
    for node in pure:
        assert rows[node.id]["y"].nunique() == 1, node.leaf_reason
    assert [node.weight for node in pure if node.weight > 1] == [2.0]


def test_targets_of_one_value_make_one_leaf_though_their_moments_round_to_a_variance():
    # 350.1 seven times: sum(y^2) / 7 - (sum(y) / 7)^2, summed in order as the moments are, is
    # 2.9e-11, not 0, yet every row has the same target: one leaf, "pure", and the reason says so.
    y = [350.1] * 7
    total, squares = 0.0, 0.0
    for v in y:
        total, squares = total + v, squares + v * v
    assert squares / 7 - (total / 7) ** 2 != 0.0  # the case a test on the moments alone gets wrong
    frame = pd.DataFrame({"x": np.arange(7.0), "z": [3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0], "y": y})
    tree = fitted(frame)
    assert tree.n_leaves == 1
    assert tree.root.stop == "pure"
    assert tree.root.leaf_reason.startswith("All 7 rows here have the same value")


def test_every_pure_leaf_of_a_grown_tree_has_one_target():
    # Targets on a coarse grid (many equal values, some 1e-4 apart): a leaf is called pure exactly
    # when its rows' targets are one value, counted with pandas.
    rng = np.random.default_rng(0)
    n = 400
    frame = pd.DataFrame({"a": rng.integers(0, 6, n).astype(float), "b": rng.integers(0, 6, n).astype(float)})
    frame["y"] = 350.0 + 1e-4 * rng.integers(0, 3, n) + 10.0 * (frame["a"] > 2)
    tree = fitted(frame)
    rows = leaf_rows(tree, frame)
    for node in tree.root.leaves():
        one_value = rows[node.id]["y"].nunique() == 1
        assert (node.stop == "pure") == one_value or (node.stop == "identical" and not one_value), \
            (node.stop, node.leaf_reason)
