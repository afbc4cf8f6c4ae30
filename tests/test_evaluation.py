"""dtlearn.evaluation: seeded stratified splits, accuracy / error / confusion matrix, k-fold
cross-validation and seed 001's overfitting curve. Expected values are counted by hand or
derived from the definitions (stratified: every class is cut in the requested proportions).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

import dtlearn
from dtlearn.evaluation import fold_indices


def tagged(name: str) -> dtlearn.Dataset:
    """A built-in dataset with a unique row id column, to follow rows through the splits."""
    data = dtlearn.load_dataset(name)
    frame = data.frame.assign(row_id=[f"r{i}" for i in range(len(data.frame))])
    return dtlearn.Dataset(frame, data.target, {**data.kinds, "row_id": "categorical"})


def ids(part: dtlearn.Dataset) -> list[str]:
    return list(part.frame["row_id"])


def class_counts(part: dtlearn.Dataset) -> dict:
    return part.frame[part.target].astype(str).value_counts().to_dict()


# --- splits --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["iris", "tennis", "credit_risk", "contact_lenses", "watermelon_2alpha"])
@pytest.mark.parametrize("test_size", [0.25, 0.3, 0.5])
@pytest.mark.parametrize("seed", [0, 7])
def test_train_test_split_is_stratified_disjoint_and_covering(name, test_size, seed):
    data = tagged(name)
    train, test = dtlearn.train_test_split(data, test_size=test_size, seed=seed)
    assert set(ids(train)).isdisjoint(ids(test))
    assert sorted(ids(train) + ids(test)) == sorted(ids(data))
    whole = class_counts(data)
    for part, fraction in ((train, 1 - test_size), (test, test_size)):
        counts = class_counts(part)
        for cls, n in whole.items():
            # each class is cut in the requested proportion, to within one row
            assert abs(counts.get(cls, 0) - n * fraction) < 1, (cls, counts)


def test_train_test_split_is_reproducible_from_the_seed():
    data = tagged("iris")
    first = dtlearn.train_test_split(data, 0.3, seed=11)
    again = dtlearn.train_test_split(data, 0.3, seed=11)
    other = dtlearn.train_test_split(data, 0.3, seed=12)
    assert ids(first[1]) == ids(again[1]) and ids(first[0]) == ids(again[0])
    assert ids(first[1]) != ids(other[1])


@pytest.mark.parametrize("seed", [0, 3])
def test_train_validation_test_split(seed):
    # iris: 50 rows a class; 0.6 / 0.2 / 0.2 -> exactly 30 / 10 / 10 of each class.
    data = tagged("iris")
    train, valid, test = dtlearn.train_validation_test_split(data, validation=0.2, test=0.2, seed=seed)
    parts = [ids(train), ids(valid), ids(test)]
    assert sorted(sum(parts, [])) == sorted(ids(data))
    assert len(set(sum(parts, []))) == 150
    for part, share in ((train, 30), (valid, 10), (test, 10)):
        assert class_counts(part) == {"setosa": share, "versicolor": share, "virginica": share}
    again = dtlearn.train_validation_test_split(data, validation=0.2, test=0.2, seed=seed)
    assert [ids(p) for p in again] == parts
    # test = 0: two parts, the third is None
    train2, valid2, none = dtlearn.train_validation_test_split(data, validation=0.3, test=0, seed=seed)
    assert none is None and len(train2.frame) + len(valid2.frame) == 150
    assert class_counts(valid2) == {"setosa": 15, "versicolor": 15, "virginica": 15}


def test_unstratified_split_still_covers():
    data = tagged("tennis")
    train, test = dtlearn.train_test_split(data, 0.5, seed=0, stratify=False)
    assert len(train.frame) == len(test.frame) == 7
    assert sorted(ids(train) + ids(test)) == sorted(ids(data))


def test_regression_split_is_stratified_by_quartile():
    # A numeric target (tips: 244 rows) is stratified by quartile of its rank (ties by row order):
    # 61 rows a quartile, so a 25 % test part holds 15.25 of each, to within one row.
    data = tagged("tips")
    train, test = dtlearn.train_test_split(data, 0.25, seed=4)
    order = np.argsort(data.frame["tip"].to_numpy(), kind="stable")
    quartile = {f"r{row}": position // 61 for position, row in enumerate(order)}
    for part, fraction in ((train, 0.75), (test, 0.25)):
        counts = pd.Series([quartile[i] for i in ids(part)]).value_counts()
        assert all(abs(counts.get(q, 0) - 61 * fraction) < 1 for q in range(4)), counts.to_dict()
    assert sorted(ids(train) + ids(test)) == sorted(ids(data))


@pytest.mark.parametrize("fraction", [0.0, 1.0, 1.5, -0.2])
def test_bad_split_fractions(fraction):
    with pytest.raises(ValueError, match="fractions must be positive and add up to 1"):
        dtlearn.train_test_split(dtlearn.load_dataset("iris"), test_size=fraction)


@pytest.mark.parametrize("csv, split, message", [
    # one row: stratified, the leftover row goes to the larger part, so the smaller holds none
    (b"a,c\nx,yes\n", lambda d: dtlearn.train_test_split(d, 0.25), r"^A test part of 25% of 1 row holds no row"),
    # three rows of one class: floor(3 x 0.3) = 0 and the one row left over goes to the training part
    (b"a,c\nx,yes\ny,yes\nz,yes\n", lambda d: dtlearn.train_validation_test_split(d, 0.3, 0),
     r"^A validation part of 30% of 3 rows holds no row: the table is too small"),
])
def test_a_table_too_small_to_split_says_which_part_is_empty(csv, split, message):
    with pytest.raises(dtlearn.DataError, match=message):
        split(dtlearn.read_csv(csv))


# --- accuracy, error, confusion matrix ----------------------------------------------------------------------

def hand_rows() -> pd.DataFrame:
    # The ID3 PlayTennis tree (Mitchell Fig. 3.1) predicts, by hand from its rules:
    rows = [("Sunny", "High", "Weak", "No"),       # No   (right)
            ("Sunny", "Normal", "Weak", "No"),     # Yes  (wrong)
            ("Sunny", "Normal", "Strong", "No"),   # Yes  (wrong)
            ("Rain", "High", "Weak", "Yes"),       # Yes  (right)
            ("Rain", "High", "Strong", "Yes"),     # No   (wrong)
            ("Overcast", "High", "Weak", "No"),    # Yes  (wrong)
            ("Rain", "Normal", "Strong", "No")]    # No   (right)
    return pd.DataFrame([dict(outlook=o, temperature="Mild", humidity=h, wind=w, play=p) for o, h, w, p in rows])


def test_accuracy_error_and_confusion_matrix_by_hand():
    tree = dtlearn.fit(dtlearn.load_dataset("tennis"), "id3")
    data = dtlearn.Dataset(hand_rows(), "play")
    assert dtlearn.accuracy(tree, data) == pytest.approx(3 / 7, abs=1e-15)
    assert dtlearn.error(tree, data) == pytest.approx(4 / 7, abs=1e-15)
    matrix = dtlearn.confusion_matrix(tree, data)
    # rows actual, columns predicted: No -> (No 2, Yes 3); Yes -> (No 1, Yes 1)
    assert matrix.index.name == "actual" and matrix.columns.name == "predicted"
    assert matrix.loc["No"].tolist() == [2, 3] and matrix.loc["Yes"].tolist() == [1, 1]
    assert list(matrix.columns) == ["No", "Yes"]
    assert int(np.trace(matrix.to_numpy())) / matrix.to_numpy().sum() == pytest.approx(3 / 7)


def test_confusion_matrix_shows_a_class_the_tree_never_saw():
    tree = dtlearn.fit(dtlearn.load_dataset("tennis"), "id3")
    frame = hand_rows().iloc[:2].assign(play=["No", "Maybe"])
    matrix = dtlearn.confusion_matrix(tree, dtlearn.Dataset(frame, "play"))
    assert list(matrix.index) == ["No", "Yes", "Maybe"] and list(matrix.columns) == ["No", "Yes", "Maybe"]
    assert matrix.loc["No", "No"] == 1 and matrix.loc["Maybe", "Yes"] == 1
    assert matrix.to_numpy().sum() == 2
    assert dtlearn.accuracy(tree, dtlearn.Dataset(frame, "play")) == 0.5


# --- cross-validation ---------------------------------------------------------------------------------------

@pytest.mark.parametrize(("name", "k"), [("iris", 5), ("iris", 10), ("contact_lenses", 3), ("tennis", 2)])
def test_folds_are_disjoint_covering_and_stratified(name, k):
    data = dtlearn.load_dataset(name)
    folds = fold_indices(data, k, seed=0)
    assert len(folds) == k
    together = np.concatenate(folds)
    assert sorted(together.tolist()) == list(range(len(data.frame)))
    labels = data.frame[data.target].astype(str).to_numpy()
    for fold in folds:
        for cls in set(labels):
            # each class is spread over the folds to within one row of an equal share
            assert abs((labels[fold] == cls).sum() - (labels == cls).sum() / k) < 1
    assert [f.tolist() for f in fold_indices(data, k, seed=0)] == [f.tolist() for f in folds]


def test_cross_validate_on_a_separable_table():
    # "lo" at x = 0..19, "hi" at x = 100..119: every training fold holds rows of both classes, so
    # CART's cut is a midpoint (a + b) / 2 with a <= 19 and b >= 100, i.e. in [50, 69], and every
    # held-out row is classified correctly: accuracy 1 in each of the k folds. (With the classes
    # at 0..19 and 20..39 a held-out 20 could sit exactly on the cut (19 + 21) / 2 and go left.)
    x = np.concatenate([np.arange(20.0), np.arange(100.0, 120.0)])
    frame = pd.DataFrame({"x": x, "y": ["lo"] * 20 + ["hi"] * 20})
    result = dtlearn.cross_validate(dtlearn.Dataset(frame, "y"), "cart", k=4, seed=5)
    assert result.scores == (1.0, 1.0, 1.0, 1.0)
    assert result.mean == 1.0 and result.std == 0.0


def test_cross_validate_scores_are_the_held_out_accuracies():
    # Each score is the accuracy, on fold i, of the tree grown on the other folds (checked with
    # the public fold_indices, fit and accuracy); mean and std (ddof = 1) of those.
    data = dtlearn.load_dataset("iris")
    result = dtlearn.cross_validate(data, "cart", k=5, seed=2, max_depth=2)
    assert len(result.scores) == 5
    expected = []
    for held in fold_indices(data, 5, seed=2):
        train = dtlearn.Dataset(data.frame.drop(index=held).reset_index(drop=True), data.target, data.kinds)
        test = dtlearn.Dataset(data.frame.iloc[held].reset_index(drop=True), data.target, data.kinds)
        expected.append(dtlearn.accuracy(dtlearn.fit(train, "cart", max_depth=2), test))
    assert result.scores == pytest.approx(expected)
    assert result.mean == pytest.approx(np.mean(expected)) and result.std == pytest.approx(np.std(expected, ddof=1))
    # a depth-2 tree on a held-out 30 iris rows gets at least 25 right in every fold
    assert min(result.scores) >= 25 / 30


@pytest.mark.parametrize("k", [1, 0, 151, 2.5])
def test_bad_fold_counts(k):
    with pytest.raises(ValueError, match="The number of folds must be a whole number from 2 to 150"):
        dtlearn.cross_validate(dtlearn.load_dataset("iris"), "cart", k=k)


def test_leave_one_out_cross_validation():
    # k = n (allowed by fold_indices' check) must give n folds of one row each. Tennis with
    # ID3, left-one-out: 14 folds, each score 0 or 1.
    data = dtlearn.load_dataset("tennis")
    result = dtlearn.cross_validate(data, "id3", k=14)  # raises DataError: an empty fold
    assert len(result.scores) == 14 and set(result.scores) <= {0.0, 1.0}
    assert [len(f) for f in fold_indices(data, 14)] == [1] * 14


def test_fold_sizes_differ_by_at_most_one():
    # Stratified k-fold (e.g. scikit-learn's StratifiedKFold) keeps the folds' sizes within one
    # row of n / k. credit_risk: 7 N and 3 Y, k = 5 -> 2 rows a fold is possible (N: 2,2,1,1,1
    # and Y: 0,0,1,1,1).
    for name, k in (("credit_risk", 5), ("iris", 4), ("tennis", 5)):
        data = dtlearn.load_dataset(name)
        sizes = [len(f) for f in fold_indices(data, k)]
        assert max(sizes) - min(sizes) <= 1, (name, k, sizes)


# --- the overfitting curve ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("name", "algorithm"), [("iris", "cart"), ("tennis", "id3"), ("contact_lenses", "id3"),
                                                  ("watermelon_3", "cart"), ("iris", "zaki")])
def test_training_accuracy_grows_with_the_tree(name, algorithm):
    # Splitting a node into its children never lowers training accuracy (the children's
    # majorities cover at least the parent's majority), and an unpruned tree on consistent data
    # (no two identical rows with different classes; checked) classifies its training data
    # perfectly. At step 0 the undecided root predicts the training majority.
    data = dtlearn.load_dataset(name)
    attributes = list(data.attributes)
    assert not data.frame.groupby(attributes, observed=True)[data.target].nunique().gt(1).any()
    train, validation = dtlearn.train_test_split(data, 0.3, seed=1)
    # (zaki: eta = 0 and pi = 1 turn its pre-pruning off)
    tree = dtlearn.fit(train, algorithm, **({"leaf_size": 0, "min_purity": 1.0} if algorithm == "zaki" else {}))
    curve = dtlearn.overfitting_curve(tree, train, validation)
    assert list(curve["step"]) == list(range(tree.growth_steps + 1))
    accuracy = curve["train_accuracy"].to_numpy()
    assert (np.diff(accuracy) >= -1e-12).all()
    assert accuracy[-1] == 1.0
    counts = train.frame[train.target].astype(str).value_counts()
    assert accuracy[0] == pytest.approx(float(Fraction(int(counts.max()), len(train.frame))))
    assert curve["nodes"].iloc[0] == 1 and curve["nodes"].iloc[-1] == tree.n_nodes
    assert curve["leaves"].iloc[-1] == tree.n_leaves
    assert curve["validation_accuracy"].iloc[-1] == pytest.approx(dtlearn.accuracy(tree, validation))


@pytest.mark.parametrize("name, algorithm", [("tennis", "id3"), ("iris", "cart"), ("iris", "c45"),
                                             ("glass", "cart"), ("credit_risk", "c45"), ("contact_lenses", "id3"),
                                             ("watermelon_2alpha", "c45"), ("watermelon_2alpha", "cart"),
                                             ("weather_numeric", "zaki")])
def test_the_overfitting_curve_equals_each_partial_tree_scored_anew(name, algorithm):
    """The running-sum curve (each row routed once) against the definition: tree.at_step(k)
    grown and scored from scratch at every step (missing values: rows shared between branches
    or following CART's surrogates, their class weights updated split by split)."""
    data = dtlearn.load_dataset(name)
    train, validation = dtlearn.train_test_split(data, 0.3, seed=3)
    tree = dtlearn.fit(train, algorithm)
    curve = dtlearn.overfitting_curve(tree, train, validation)
    for k in range(tree.growth_steps + 1):
        partial = tree.at_step(k)
        row = curve.iloc[k]
        assert (row["nodes"], row["leaves"]) == (partial.n_nodes, partial.n_leaves)
        assert row["train_accuracy"] == pytest.approx(dtlearn.accuracy(partial, train), abs=1e-12)
        assert row["validation_accuracy"] == pytest.approx(dtlearn.accuracy(partial, validation), abs=1e-12)


def unseen_values(rows: int, values: int, seed: int = 0) -> dtlearn.Dataset:
    """A many-valued category (some values in one split part only), a number with missing
    cells, and label noise: validation rows meet values and gaps the tree must share or follow."""
    rng = np.random.default_rng(seed)
    code = rng.integers(0, values, rows)
    x = np.where(rng.random(rows) < 0.15, np.nan, rng.normal(size=rows))
    y = np.where(rng.random(rows) < 0.2, rng.integers(0, 3, rows), (code % 3 + (np.nan_to_num(x) > 0)) % 3)
    return dtlearn.Dataset(pd.DataFrame({"code": [f"v{c}" for c in code], "x": x, "y": [f"c{v}" for v in y]}), "y")


@pytest.mark.parametrize("algorithm", ["c45", "cart"])
def test_the_curve_with_unseen_and_missing_values_equals_each_partial_tree(algorithm):
    data = unseen_values(300, 60)
    train, validation = dtlearn.train_test_split(data, 0.3, seed=0)
    tree = dtlearn.fit(train, algorithm)
    flat, rows = tree.encoded_rows(tree.prepare(validation.frame))
    assert rows.unknown(flat).sum() > 10  # the shared path is exercised, beside the clean one
    curve = dtlearn.overfitting_curve(tree, train, validation)
    assert tree.growth_steps > 20
    for k in range(tree.growth_steps + 1):
        partial = tree.at_step(k)
        assert curve["validation_accuracy"].iloc[k] == pytest.approx(dtlearn.accuracy(partial, validation), abs=1e-12)
        assert curve["train_accuracy"].iloc[k] == pytest.approx(dtlearn.accuracy(partial, train), abs=1e-12)


@pytest.mark.parametrize("algorithm", ["id3", "c45", "cart"])
def test_the_curve_counts_a_class_the_training_part_never_saw_as_never_right(algorithm):
    # Validation rows of a class no training row has: every partial tree gets them wrong. The
    # curve counts each split's rows by class, and such a row has no class column to count in.
    data = dtlearn.load_dataset("iris")
    train, validation = dtlearn.train_test_split(data, 0.3, seed=1)
    unseen = train.frame[data.target] != "virginica"
    train = dtlearn.Dataset(train.frame[unseen].reset_index(drop=True), data.target)
    assert (validation.frame[data.target] == "virginica").sum() > 10
    tree = dtlearn.fit(train, algorithm)
    curve = dtlearn.overfitting_curve(tree, train, validation)
    assert tree.growth_steps >= 2
    for k in range(tree.growth_steps + 1):
        partial = tree.at_step(k)
        assert curve["validation_accuracy"].iloc[k] == pytest.approx(dtlearn.accuracy(partial, validation), abs=1e-12)
    assert curve["validation_accuracy"].max() <= 1 - (validation.frame[data.target] == "virginica").mean()


def test_the_shared_rows_counted_in_small_chunks_give_the_same_curve(monkeypatch):
    # api._shared_correct routes the shared rows a chunk at a time (a 1,000,000-row upload has
    # tens of thousands): a chunk of a few rows must count each row's spans as one chunk does.
    from functools import partial

    from dtlearn import api

    data = unseen_values(300, 60)
    train, validation = dtlearn.train_test_split(data, 0.3, seed=0)
    tree = dtlearn.fit(train, "c45")
    whole = dtlearn.overfitting_curve(tree, train, validation)
    monkeypatch.setattr(api, "_shared_correct", partial(api._shared_correct, cells=len(tree.steps) * 3))
    pd.testing.assert_frame_equal(dtlearn.overfitting_curve(tree, train, validation), whole)
