"""CART's surrogate splits against R's rpart 4.1.19 (tests/fixtures/rpart, see its README).

Each fixture is an rpart fit with minsplit = 2, minbucket = 1, cp = 0, maxsurrogate = 5,
usesurrogate = 2, surrogatestyle = 0; `dtlearn.fit(data, "cart")` uses the same rules
(missing_values="surrogate"). The trees are walked together from the root: rpart numbers the
children of node t as 2t (left) and 2t + 1 (right) and writes `x < t` (or `x >= t` on the left)
where we write `x <= t` with the same midpoint t, so our branch 0 is rpart's left son when
rpart's rule is "<" (for a factor: when our left value set is rpart's left set). rpart drops
splits that do not lower the training misclassification even at cp = 0 (README), so only nodes
present in both trees are compared — and every internal node of rpart's tree must be one.

Every expected number is rpart's, read from the JSON; nothing is copied from dtlearn.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import dtlearn
from dtlearn.conditions import SubsetTest, ThresholdTest
from dtlearn.surrogates import primary_branches, surrogates_of
from rpart_tree import corresponding

HERE = Path(__file__).resolve().parent
RPART = HERE / "fixtures" / "rpart"
DATASETS = HERE.parent / "datasets"
TOL = 1e-9

CASES = ["iris", "weather", "missing12", "missing12b"]
RULE_CASES = ["factor_0", "factor_1", "factor_2", "factor_3", "numeric_side2", "numeric_side1"]


def read_fixture(name: str) -> dict:
    return json.loads((RPART / f"surrogates_{name}.json").read_text(encoding="utf-8"))


def rule_fixture(name: str) -> dict:
    return json.loads((RPART / "surrogates_rules.json").read_text(encoding="utf-8"))["cases"][name]


def dataset(name: str) -> dtlearn.Dataset:
    if name == "iris":
        return dtlearn.read_csv(DATASETS / "iris.csv", target="species")
    if name == "weather":
        return dtlearn.read_csv(DATASETS / "weather_numeric.csv", target="play")
    if name in ("missing12", "missing12b"):
        return dtlearn.read_csv(RPART / f"{name}.csv", target="y")
    table = rule_fixture(name)["table"]
    return dtlearn.Dataset(pd.DataFrame(table), "y")


def fixture(name: str) -> dict:
    return rule_fixture(name) if name in RULE_CASES else read_fixture(name)


_TREES: dict = {}


def tree_of(name: str) -> dtlearn.Tree:
    if name not in _TREES:
        _TREES[name] = dtlearn.fit(dataset(name), "cart")
    return _TREES[name]


def ours_as_rpart(surrogate, left_first: bool) -> tuple:
    """Our surrogate in rpart's terms: (variable, threshold, which side x < t goes) or
    (variable, levels sent to rpart's left, levels sent to rpart's right)."""
    test = surrogate.test
    if isinstance(test, ThresholdTest):
        low_to_our_zero = not surrogate.reversed
        low_to_rpart_left = low_to_our_zero == left_first
        return (test.attribute, test.threshold, "<" if low_to_rpart_left else ">=")
    to_zero, to_one = (test.left, test.right) if not surrogate.reversed else (test.right, test.left)
    left, right = (to_zero, to_one) if left_first else (to_one, to_zero)
    return (test.attribute, frozenset(left), frozenset(right))


def rpart_surrogate(record: dict) -> tuple:
    if record["type"] == "numeric":
        return (record["variable"], record["threshold"], record["left"])
    return (record["variable"], frozenset(record["levels_left"]), frozenset(record["levels_right"]))


def same_split(ours: tuple, theirs: tuple) -> bool:
    if ours[0] != theirs[0]:
        return False
    if isinstance(theirs[1], frozenset) or isinstance(ours[1], frozenset):
        return ours[1:] == theirs[1:]
    return math.isclose(ours[1], theirs[1], rel_tol=0, abs_tol=TOL) and ours[2] == theirs[2]


# --- the trees correspond ------------------------------------------------------------------------

@pytest.mark.parametrize("name", CASES + RULE_CASES)
def test_every_internal_node_of_rpart_is_one_of_ours(name):
    # Same primary variable and threshold (or level sets) at every rpart split (rpart's primary).
    fit = fixture(name)
    pairs = corresponding(tree_of(name), fit)
    matched = {number for _, number, left_first in pairs if left_first is not None}
    assert matched == {rec["node"] for rec in fit["nodes"]}


@pytest.mark.parametrize("name", CASES + RULE_CASES)
def test_class_counts_and_sizes_of_every_node_match_rpart(name):
    # rpart's frame: `counts` (class counts of the rows that reached the node, surrogate-routed
    # rows included) and `n`.
    fit = fixture(name)
    tree = tree_of(name)
    frame = {rec["node"]: rec for rec in fit["frame"]}
    for node, number, _ in corresponding(tree, fit):
        expected = [frame[number]["counts"][c] for c in fit["ylevels"]]
        got = [node.class_weights[tree.classes.index(c)] for c in fit["ylevels"]]
        assert got == expected, f"node {number}"
        assert node.weight == frame[number]["n"], f"node {number}"


# --- the surrogates --------------------------------------------------------------------------------

@pytest.mark.parametrize("name", CASES + RULE_CASES)
def test_ranked_surrogates_match_rpart(name):
    # rpart's `nodes[].surrogates` (ranked): variable, threshold / level sets, direction, and the
    # agreement `agree` and adjusted agreement `adj` (README: agree over the rows with a known
    # primary, adj = (agree - m) / (1 - m) with m the majority share).
    fit = fixture(name)
    internal = {rec["node"]: rec for rec in fit["nodes"]}
    compared = 0
    for node, number, left_first in corresponding(tree_of(name), fit):
        if left_first is None:
            continue
        expected = internal[number]["surrogates"]
        got = node.surrogates
        assert len(got) == len(expected), f"node {number}: {got} vs {expected}"
        for ours, theirs in zip(got, expected):
            assert same_split(ours_as_rpart(ours, left_first), rpart_surrogate(theirs)), \
                f"node {number}: {ours} vs {theirs}"
            assert ours.agree == pytest.approx(theirs["agree"], abs=TOL)
            assert ours.adj == pytest.approx(theirs["adj"], abs=TOL)
            compared += 1
    # the fixtures do hold surrogates (except numeric_side1 and factor_0/1's factor, see below)
    assert compared == sum(len(rec["surrogates"]) for rec in fit["nodes"])


@pytest.mark.parametrize("name", CASES + RULE_CASES)
def test_primary_and_competitor_improvements_match_rpart(name):
    # rpart's improve = N G(t) - N_L G(L) - N_R G(R) over the rows non-missing on the variable
    # (README); our Gini gain is rho (G(D~) - sum_b |D~_b|/|D~| G(D~_b)) with rho = |D~| / N, so
    # improve = N * gini_gain with N the node's rows. Checked for the primary and every competitor
    # (each variable's best split at that node).
    fit = fixture(name)
    internal = {rec["node"]: rec for rec in fit["nodes"]}
    for node, number, left_first in corresponding(tree_of(name), fit):
        if left_first is None:
            continue
        table = node.source.table
        for record in [internal[number]["primary"]] + internal[number]["competitors"]:
            rows = table[table["attribute"] == record["variable"]]
            best = rows.loc[rows["gini_gain"].idxmax()]
            assert node.weight * best["gini_gain"] == pytest.approx(record["improve"], rel=1e-9), \
                (number, record["variable"])
            if record["type"] == "numeric":
                assert best["threshold"] == pytest.approx(record["threshold"], abs=TOL)


def test_iris_surrogates_at_the_root_by_name():
    # rpart's summary of iris node 1 (surrogates_iris.summary.txt): petal_width < 0.8 (agree 1,
    # adj 1), sepal_length < 5.45 (0.92, 0.76), sepal_width < 3.35 to the right (0.833, 0.5).
    tree = tree_of("iris")
    got = [(s.test.attribute, round(s.test.threshold, 9), round(s.agree, 3), round(s.adj, 3))
           for s in tree.root.surrogates]
    assert got == [("petal_width", 0.8, 1.0, 1.0), ("sepal_length", 5.45, 0.92, 0.76),
                   ("sepal_width", 3.35, 0.833, 0.5)]
    assert [s.reversed for s in tree.root.surrogates] == [False, False, True]


def test_rpart_factor_surrogate_needs_two_disagreeing_rows():
    # README: rpart 4.1.19 keeps a factor surrogate only if at least 2 rows disagree with the
    # primary. factor_k flips k rows of a perfect copy: k = 0, 1 -> no factor surrogate.
    for name, has_factor in [("factor_0", False), ("factor_1", False), ("factor_2", True), ("factor_3", True)]:
        names = [s.test.attribute for s in tree_of(name).root.surrogates]
        assert ("f" in names) == has_factor, name
        assert names[0] == "g"  # g (agree 0.9) ranks first in all four


def test_numeric_surrogate_needs_two_rows_on_each_side():
    # numeric_side1: a perfect numeric copy of x <= 1.5 is dropped (one row on one side);
    # numeric_side2: g and h both agree 1.0 and keep the column order (g first).
    assert tree_of("numeric_side1").root.surrogates == ()
    assert [s.test.attribute for s in tree_of("numeric_side2").root.surrogates] == ["g", "h"]


def test_missing12_color_is_dropped_but_kept_in_missing12b():
    # README: in missing12 color agrees on 9 of 10 rows with only one disagreeing: dropped;
    # missing12b (row 12 blue) has two disagreeing rows: first surrogate, agree 0.8.
    assert [s.test.attribute for s in tree_of("missing12").root.surrogates] == ["x1"]
    first = tree_of("missing12b").root.surrogates[0]
    assert first.test.attribute == "color" and first.agree == pytest.approx(0.8, abs=TOL)


# --- training with missing values ----------------------------------------------------------------

@pytest.mark.parametrize("name", ["missing12", "missing12b"])
def test_training_rows_land_where_rpart_puts_them(name):
    # rpart's `where` (training): the node each row ended in. Rows ending in a leaf are compared
    # with tree.apply's leaf (apply routes a missing primary by the surrogates as training does);
    # a row rpart left in an internal node is absent from both children's counts.
    fit = fixture(name)
    tree = tree_of(name)
    frame = {rec["node"]: rec for rec in fit["frame"]}
    by_number = {number: node for node, number, _ in corresponding(tree, fit)}
    data = dataset(name)
    leaves = tree.apply(data.frame)
    for row, number in enumerate(fit["where"]):
        if frame[number]["var"] == "<leaf>":
            assert leaves[row] == by_number[number].id, f"row {row + 1}"
    stuck = [row for row, number in enumerate(fit["where"]) if frame[number]["var"] != "<leaf>"]
    if name == "missing12":
        # row 10 (x1, x2 missing; color not a surrogate; primary 5/5): stays at the root
        assert stuck == [9] and fit["where"][9] == 1
        assert [c.weight for c in tree.root.children] == [6.0, 5.0]
        assert tree.root.weight == 12.0
    else:
        # missing12b: color is the first surrogate and sends row 10 (green) right
        assert stuck == []
        assert sum(c.weight for c in tree.root.children) == 12.0


# --- prediction with missing values ---------------------------------------------------------------

def prediction_cases():
    for name in CASES:
        for i, probe in enumerate(read_fixture(name)["predictions"]):
            yield pytest.param(name, i, id=f"{name}-{i}-{probe['label']}")


def probe_frame(probe: dict, data: dtlearn.Dataset) -> pd.DataFrame:
    row = {}
    for column, value in probe["x"].items():
        if value is None:
            row[column] = np.nan if data.kinds[column] == "numeric" else None
        else:
            row[column] = str(value) if data.kinds[column] == "categorical" else float(value)
    return pd.DataFrame([row])


@pytest.mark.parametrize(("name", "index"), list(prediction_cases()))
def test_predictions_with_missing_values_match_rpart(name, index):
    # rpart's predict() (usesurrogate = 2): primary, then surrogates in rank order, then the child
    # with the larger n; on a tie the row stops in the internal node and gets its yprob.
    fit = read_fixture(name)
    probe = fit["predictions"][index]
    tree = tree_of(name)
    row = probe_frame(probe, dataset(name))
    proba = tree.predict_proba(row)[0]
    expected = [probe["prob"][c] for c in fit["ylevels"]]
    got = [proba[tree.classes.index(c)] for c in fit["ylevels"]]
    np.testing.assert_allclose(got, expected, rtol=0, atol=TOL)
    assert list(tree.predict(row)) == [probe["class"]]


def test_weather_reads_windy_as_a_category():
    # rpart's fixture treats windy as a factor with levels "FALSE", "TRUE"; dtlearn.read_csv reads
    # the words as text, so windy is categorical with the same two values.
    data = dataset("weather")
    assert data.kinds["windy"] == "categorical"
    assert set(data.frame["windy"]) == {"FALSE", "TRUE"}
    assert read_fixture("weather")["xlevels"]["windy"] == ["FALSE", "TRUE"]


@pytest.mark.parametrize("name, algorithm, attribute, rows", [
    ("tennis", "id3", "humidity", 5),  # the five Sunny days; no surrogate qualifies there
    ("watermelon_2", "c45", "触感", 9),  # step 3 of C4.5: a surrogate on 敲声 qualifies
])
def test_a_two_valued_multiway_split_is_read_as_the_same_subset_split(name, algorithm, attribute, rows):
    # ID3 / C4.5 split on a two-valued attribute with one branch per value, i.e. the binary
    # split {first value} | {second value}. Its rows' branches are read off the CSV.
    data = dtlearn.load_dataset(name)
    tree = dtlearn.fit(data, algorithm)
    step = next(s for s in tree.steps if s.action == "split" and s.test.attribute == attribute)
    evaluation, (first, second) = step.evaluation, step.test.values
    same = SubsetTest(attribute, (first,), (second,))
    expected = [0 if value == first else 1 for value in data.frame[attribute].iloc[evaluation.rows]]
    assert len(expected) == rows
    assert primary_branches(evaluation.encoded, evaluation.rows, step.test).tolist() == expected
    assert primary_branches(evaluation.encoded, evaluation.rows, same).tolist() == expected
    assert step.surrogates == surrogates_of(evaluation, same)
    assert bool(step.surrogates) == (name == "watermelon_2")


@pytest.mark.parametrize("seed", [0, 1])
def test_surrogates_from_the_levels_sorted_orders_are_those_of_sorting_each_node(seed, monkeypatch):
    # The engine hands find_surrogates each numeric attribute's positions in value order (as
    # the level keeps them) instead of sorting the node's rows again; on whole numbers with many
    # ties and missing cells the surrogates of every node must be the same, to the last bit.
    from dtlearn import engine, surrogates

    rng = np.random.default_rng(seed)
    n = 1500
    frame = pd.DataFrame({f"x{i}": rng.integers(0, 12, n).astype(float) for i in range(4)})
    for column in frame:
        frame.loc[rng.random(n) < 0.15, column] = np.nan
    frame["c"] = rng.choice(list("abcd"), n)
    frame["y"] = np.where(frame["x0"].fillna(5) + frame["x1"].fillna(3) + rng.normal(0, 2, n) > 11, "p", "q")
    data = dtlearn.Dataset(frame, "y")
    fast = dtlearn.fit(data, "cart")
    with monkeypatch.context() as patch:
        patch.setattr(engine, "find_surrogates", lambda *args, **kwargs: surrogates.find_surrogates(*args[:6]))
        slow = dtlearn.fit(data, "cart")
    found = [(s.node_id, s.found_surrogates) for s in fast.steps if s.found_surrogates]
    assert len(found) > 10 and any(len(f) >= 2 for _, f in found)
    assert found == [(s.node_id, s.found_surrogates) for s in slow.steps if s.found_surrogates]
    assert [s.reason for s in fast.steps] == [s.reason for s in slow.steps]
