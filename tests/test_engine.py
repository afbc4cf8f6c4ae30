"""The engine (compiled kernels scoring many nodes at once) against the definitions.

`dtlearn.measures` defines every measure once and `splits.evaluate` scores a node's candidates
with it (the tables students read); `engine` scores the same candidates with the one-pass
formulas of `kernels`. Here, at every node of trees grown on the built-in datasets and on random
tables (numbers with ties and gaps, categories, missing values, class priors, regression), every
attribute's competing candidate must be the same candidate with the same reason, and its score
and gain equal to 1e-12. Exact values come from `exact` (fractions) where the kernels are driven
directly.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dtlearn
import exact
from presets import every_case
from dtlearn import candidates, engine
from dtlearn.induction import encode, resolve_task
from dtlearn.settings import make_settings
from dtlearn.splits import evaluate
from dtlearn.table import CandidateTable

TOLERANCE = 1e-12


def config_of(data, algorithm, **options):
    return resolve_task(make_settings(algorithm, **options), data)


def assert_node_agrees(encoded, config, rows, weights, used, where=""):
    """Every attribute's best candidate, score and gain: engine == definitions."""
    reference = evaluate(encoded, rows, weights, config, used)
    bests, thresholds = engine.score_node(encoded, config, rows, weights, used)
    for j, (attribute, best) in enumerate(zip(encoded.attributes, reference.bests)):
        context = f"{where} {attribute}"
        assert bests.reason[0, j] == best.reason, context
        assert bests.index[0, j] == best.index, context
        if best.index < 0:
            continue
        assert bests.score[0, j] == pytest.approx(best.score, abs=TOLERANCE, rel=TOLERANCE), context
        assert bests.gain[0, j] == pytest.approx(best.gain, abs=TOLERANCE, rel=TOLERANCE), context
        block = reference.blocks[j]
        if block.kind == "threshold":
            assert thresholds[0, j] == block.thresholds[best.index], context


def assert_tree_agrees(data, algorithm, **options):
    """At every node of the grown tree (its rows as growth sent them)."""
    tree = dtlearn.fit(data, algorithm, **options)
    for step in tree.steps:
        if step.action not in ("split", "leaf") or step.weight <= 0:
            continue
        growth = step.origin
        rows, weights = growth.rows(step.node_id)
        assert weights.sum() == pytest.approx(step.weight, rel=1e-12)
        assert_node_agrees(growth.encoded, growth.settings, rows, weights, growth.used(step.node_id),
                           f"{algorithm} step {step.number}")
        if step.action == "split":
            evaluation = step.evaluation
            attribute, index = evaluation.choice
            assert attribute == step.test.attribute
            assert step.score == pytest.approx(evaluation.bests[evaluation.attributes.index(attribute)].score,
                                               abs=TOLERANCE, rel=TOLERANCE)
            chosen = step.candidates.chosen_row
            assert step.candidates["score"][chosen] == pytest.approx(step.score, abs=TOLERANCE, rel=TOLERANCE)
    return tree


@pytest.mark.parametrize("name, algorithm", every_case())
def test_engine_equals_the_definitions_on_every_built_in_dataset(name, algorithm):
    assert_tree_agrees(dtlearn.load_dataset(name), algorithm)


@pytest.mark.parametrize("options", [{"criterion": "entropy"}, {"criterion": "gain_ratio"},
                                     {"priors": "equal"}, {"class_weight": "balanced", "min_samples_leaf": 3},
                                     {"missing_values": "fractional"}])
def test_engine_equals_the_definitions_with_settings(options):
    assert_tree_agrees(dtlearn.load_dataset("credit_risk"), "cart", **options)
    assert_tree_agrees(dtlearn.load_dataset("watermelon_2alpha"), "cart", **options)


@st.composite
def tables(draw):
    """Numbers with ties and gaps, a category, sometimes missing cells, 2-3 classes or a number."""
    n = draw(st.integers(2, 40))
    numbers = st.sampled_from([0.0, 0.25, 1.0, 1.000001, 2.0, 3.5, -1.0, np.nan])
    frame = pd.DataFrame({
        "x": draw(st.lists(numbers, min_size=n, max_size=n)),
        "z": draw(st.lists(st.sampled_from([5.0, 6.0, 7.5, np.nan]), min_size=n, max_size=n)),
        "c": draw(st.lists(st.sampled_from(["p", "q", "r", None]), min_size=n, max_size=n)),
    })
    regression = draw(st.booleans())
    if regression:
        frame["y"] = draw(st.lists(st.floats(-5, 5, allow_nan=False).map(lambda v: round(v, 2)), min_size=n,
                                   max_size=n))
    else:
        frame["y"] = draw(st.lists(st.sampled_from(["A", "B", "C"][:draw(st.integers(2, 3))]), min_size=n,
                                   max_size=n))
    if frame["y"].nunique() < 2:
        frame.loc[0, "y"] = "C" if not regression else 9.0
    return frame, regression


OPTIONS = st.sampled_from([("cart", {}), ("cart", {"criterion": "entropy"}), ("c45", {}),
                           ("c45", {"collapse": False, "cut_tolerance": 0.5}), ("id3", {}), ("zaki", {}),
                           ("cart", {"priors": "equal"}), ("cart", {"missing_values": "fractional"}),
                           ("c45", {"min_samples_leaf": 2})])


@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(tables(), OPTIONS)
def test_engine_equals_the_definitions_on_random_tables(table, choice):
    frame, regression = table
    algorithm, options = choice
    if regression:
        if algorithm not in ("cart", "zaki") or "priors" in options:
            return
        options = {**options, "task": "regression", "criterion": "gini"}
        options.pop("criterion")
        if algorithm == "zaki":
            options["min_purity"] = None
    try:
        data = dtlearn.Dataset(frame, "y")
        assert_tree_agrees(data, algorithm, **options)
    except dtlearn.DataError:
        return


# --- the kernels on a node worked out by hand ----------------------------------------------------

def test_threshold_scan_with_fractional_weights_equals_exact_fractions():
    # Six rows with weights 1/2, 1/3, 1, 1, 2/3, 1/4 (as C4.5 leaves them below splits on missing
    # values). x = 1, 2, 2, 3, 4, 5; classes A A B B A B. The cuts are 1.5, 2.5, 3.5, 4.5; each
    # cut's gain and Gini gain worked out with exact weights (min_samples_leaf = 0: every cut counts).
    frame = pd.DataFrame({"x": [1.0, 2.0, 2.0, 3.0, 4.0, 5.0], "y": list("AABBAB")})
    data = dtlearn.Dataset(frame, "y")
    weights = [Fraction(1, 2), Fraction(1, 3), Fraction(1), Fraction(1), Fraction(2, 3), Fraction(1, 4)]
    classes = ["A", "B"]
    xs = frame["x"].tolist()
    ys = frame["y"].tolist()

    def branches(cut):
        return [[sum(w for w, x, y in zip(weights, xs, ys) if (x <= cut) == side and y == c) for c in classes]
                for side in (True, False)]

    cuts = [1.5, 2.5, 3.5, 4.5]
    for criterion, measure in (("entropy", exact.info_gain), ("gini", exact.gini_gain)):
        config = config_of(data, "cart", criterion=criterion, min_samples_leaf=0)
        encoded = encode(data, config)
        scores = [float(measure(branches(c))) for c in cuts]
        best = max(range(4), key=lambda i: (scores[i], -i))
        bests, thresholds = engine.score_node(encoded, config, np.arange(6), np.array([float(w) for w in weights]))
        assert thresholds[0, 0] == cuts[best]
        assert bests.score[0, 0] == pytest.approx(scores[best], abs=TOLERANCE)
        weighted = np.array([float(w) for w in weights])
        table = CandidateTable.of(evaluate(encoded, np.arange(6), weighted, config)).frame()
        column = "gain" if criterion == "entropy" else "gini_gain"
        np.testing.assert_allclose(table[column].to_numpy(dtype=float), scores, atol=TOLERANCE, rtol=0)


def test_c45_threshold_gain_ratio_with_the_correction_equals_exact_fractions():
    # x = 1..8, classes A A B A B B B A (all known). J48's -M 2 keeps cuts with 2 rows a side:
    # 2.5, 3.5, 4.5, 5.5, 6.5 (5 cuts). The best gain cut is 2.5 ((2 A | 2 A 4 B)); its ratio is
    # (gain - log2(5)/8) / IV(2, 6).
    frame = pd.DataFrame({"x": [float(v) for v in range(1, 9)], "y": list("AABABBBA")})
    data = dtlearn.Dataset(frame, "y")
    config = config_of(data, "c45")
    encoded = encode(data, config)
    ys = frame["y"].tolist()
    gains = {}
    for cut in (2.5, 3.5, 4.5, 5.5, 6.5):
        left = [sum(1 for v, y in zip(range(1, 9), ys) if v <= cut and y == c) for c in "AB"]
        right = [sum(1 for v, y in zip(range(1, 9), ys) if v > cut and y == c) for c in "AB"]
        gains[cut] = (exact.info_gain([left, right]), sum(left))
    cut = max(gains, key=lambda c: (gains[c][0], -c))
    gain, n_left = gains[cut]
    corrected = gain - math.log2(5) / 8
    ratio = corrected / exact.split_info([n_left, 8 - n_left])
    bests, thresholds = engine.score_node(encoded, config, np.arange(8), np.ones(8))
    assert thresholds[0, 0] == cut
    assert bests.gain[0, 0] == pytest.approx(corrected, abs=TOLERANCE)
    if corrected > 0:
        assert bests.score[0, 0] == pytest.approx(ratio, abs=TOLERANCE)
    table = CandidateTable.of(evaluate(encoded, np.arange(8), np.ones(8), config)).frame()
    row = table[table["threshold"] == cut].iloc[0]
    assert row["cuts"] == 5 and row["corrected_gain"] == pytest.approx(corrected, abs=TOLERANCE)
    assert row["gain_ratio"] == pytest.approx(max(ratio, 0.0), abs=TOLERANCE)


def test_regression_scan_equals_exact_fractions():
    # y = 1, 2, 2, 7, 8 at x = 1..5: each cut's decrease in MSE, exactly (SSE(D) - sum SSE(D_v)) / n.
    ys = [Fraction(v) for v in (1, 2, 2, 7, 8)]
    frame = pd.DataFrame({"x": [1.0, 2.0, 3.0, 4.0, 5.0], "y": [float(v) for v in ys]})
    data = dtlearn.Dataset(frame, "y")
    config = config_of(data, "cart", task="regression")
    encoded = encode(data, config)

    def sse(values):
        mean = sum(values) / len(values)
        return sum((v - mean) ** 2 for v in values)

    decreases = [(sse(ys) - sse(ys[:k]) - sse(ys[k:])) / 5 for k in range(1, 5)]
    best = max(range(4), key=lambda i: (decreases[i], -i))
    bests, thresholds = engine.score_node(encoded, config, np.arange(5), np.ones(5))
    assert thresholds[0, 0] == best + 1.5
    assert bests.score[0, 0] == pytest.approx(float(decreases[best]), abs=TOLERANCE)


def test_multiway_scan_equals_exact_fractions_with_a_missing_value():
    # outlook of PlayTennis with day 1's outlook unknown: rho = 13/14, the gain ratio's split info
    # counts the unknown row as a branch of its own (Quinlan 1993).
    data = dtlearn.load_dataset("tennis")
    frame = data.frame.copy()
    frame.loc[0, "outlook"] = None
    data = dtlearn.Dataset(frame, "play")
    config = config_of(data, "c45")
    encoded = encode(data, config)
    known = frame[frame["outlook"].notna()]
    values = ["Overcast", "Rain", "Sunny"]
    branches = [[int(((known["outlook"] == v) & (known["play"] == c)).sum()) for c in ("No", "Yes")] for v in values]
    gain = Fraction(13, 14) * Fraction(exact.info_gain(branches))
    sizes = [sum(b) for b in branches] + [1]
    bests, _ = engine.score_node(encoded, config, np.arange(14), np.ones(14))
    j = encoded.attributes.index("outlook")
    assert bests.gain[0, j] == pytest.approx(float(gain), abs=TOLERANCE)
    assert bests.score[0, j] == pytest.approx(float(gain) / exact.split_info(sizes), abs=TOLERANCE)


# --- ties ----------------------------------------------------------------------------------------

def test_a_tie_at_the_top_is_named_in_the_reason_and_marked_in_the_table():
    # a and b are copies: they tie exactly; the first in column order wins.
    frame = pd.DataFrame({"a": ["p", "p", "q", "q"], "b": ["p", "p", "q", "q"], "y": ["A", "A", "B", "B"]})
    tree = dtlearn.fit(dtlearn.Dataset(frame, "y"), "id3")
    root = tree.steps[0]
    assert root.test.attribute == "a"
    assert "ties with b" in root.reason and "first in the table" in root.reason
    table = root.table
    assert table["tied"].tolist() == [True, True] and table["chosen"].tolist() == [True, False]


def test_a_tie_between_thresholds_goes_to_the_lowest():
    # x: A at 1, B at 2, A at 3: cuts 1.5 and 2.5 have the same Gini gain.
    frame = pd.DataFrame({"x": [1.0, 2.0, 3.0], "y": ["A", "B", "A"]})
    tree = dtlearn.fit(dtlearn.Dataset(frame, "y"), "cart")
    root = tree.steps[0]
    assert root.test.threshold == 1.5 and "2 candidates of x tie" in root.reason
    assert root.table["tied"].tolist() == [True, True]


@given(st.lists(st.sampled_from([0.0, -0.0, 1.0, 2.5, -3.0, math.nan, 7.0]) | st.floats(-5, 5), max_size=200),
       st.integers(0, 2))
@settings(max_examples=300, deadline=None, derandomize=True)
def test_sorted_order_is_a_stable_sorts_order(values, repeat):
    # The definition: numpy's stable argsort (equal values, -0.0 and 0.0 among them, in row
    # order; NaNs last in row order). sorted_order sorts unstably and then orders the ties.
    values = np.array(values * (repeat + 1), dtype=float)
    assert np.array_equal(candidates.sorted_order(values), np.argsort(values, kind="stable"))


# (the level partition: tests/test_level_partition.py)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_the_whole_weight_cut_loops_give_the_general_loops_numbers_bit_for_bit(data):
    # cuts._gini_whole_cuts and _entropy_whole_cuts are `_scan_cuts` for its commonest cases
    # (Gini, information gain; every weight 1), written without the other cases so that they
    # compile faster: each cut's rank, left weight and place must be the general loop's exactly
    # (ties between cuts are decided on these numbers). Values with repeats, 2-4 classes, the
    # split rules on and off.
    from dtlearn.kernels import Scoring, criteria, cuts
    n = data.draw(st.integers(2, 60))
    k = data.draw(st.integers(2, 4))
    values = np.sort(np.array(data.draw(st.lists(st.integers(0, 12), min_size=n, max_size=n)), dtype=float))
    order = np.array(data.draw(st.permutations(range(n))), dtype=np.int32)
    cls = np.array(data.draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n)), dtype=np.int8)
    min_leaf = float(data.draw(st.sampled_from([0, 1, 2, 5])))
    min_branch = float(data.draw(st.sampled_from([0, 2])))
    known = np.bincount(cls, minlength=k).astype(float)
    n_known = float(n)
    table = criteria.xlogx_table(n)
    for rank_by in (criteria.BY_GINI, criteria.BY_GAIN):
        before = criteria.gini(known, n_known) if rank_by == criteria.BY_GINI else criteria.entropy(known, n_known)
        scoring = Scoring(rank_by, np.ones(k), False, k, min_leaf, min_branch, 0.0, False, False, table)
        part = cuts.Known(known, n_known, n_known, 1.0, before)
        general = cuts.Scratch(np.zeros(k), np.zeros(n), np.zeros(n), np.zeros(n, dtype=np.int64), *[np.zeros(0)] * 3)
        special = cuts.Scratch(np.zeros(k), np.zeros(n), np.zeros(n), np.zeros(n, dtype=np.int64), np.zeros(0),
                               np.zeros(n), np.zeros(n))
        counted = cuts._scan_cuts(values, order, cls, np.ones(n), 0, n, part, True, True, True, scoring, general)
        if rank_by == criteria.BY_GINI:
            fast = cuts._gini_whole_cuts(values, order, cls, 0, n, part, scoring, special)
        else:
            fast = cuts._entropy_whole_cuts(values, order, cls, 0, n, part, scoring, special)
        assert fast == counted
        count = counted[0]
        assert count == len(np.unique(values)) - 1
        for mine, theirs in zip(special[1:4], general[1:4]):  # rank, left_mass, cut_at
            assert mine[:count].tobytes() == theirs[:count].tobytes()


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_the_unit_weight_regression_cuts_give_the_general_loops_numbers_bit_for_bit(data):
    # cuts._regression_unit_cuts is `_regression_cuts` when every weight is 1, in two passes:
    # each cut's rank, left weight and place must be the general loop's exactly (ties between
    # cuts are decided on these numbers). Values with repeats, a segment inside the buffer,
    # min_samples_leaf on and off.
    from dtlearn.kernels import Scoring, criteria, cuts
    n = data.draw(st.integers(2, 60))
    s = data.draw(st.integers(0, 3))
    values = np.sort(np.array(data.draw(st.lists(st.integers(0, 12), min_size=n, max_size=n)), dtype=float))
    targets = np.array(data.draw(st.lists(st.floats(-1e3, 1e3), min_size=n + s, max_size=n + s)))
    order = s + np.array(data.draw(st.permutations(range(n))), dtype=np.int32)
    vals = np.concatenate([np.zeros(s), values])
    order = np.concatenate([np.zeros(s, dtype=np.int32), order])
    min_leaf = float(data.draw(st.sampled_from([0, 1, 2, 5])))
    scoring = Scoring(criteria.BY_GAIN, np.ones(1), False, 1, min_leaf, 0.0, 0.0, False, False, criteria.xlogx_table(0))
    n_known, s_known = float(n), float(targets[order[s:]].sum())
    general = cuts.Scratch(np.zeros(0), np.zeros(n), np.zeros(n), np.zeros(n, dtype=np.int64), *[np.zeros(0)] * 3)
    rank, left_mass, cut_at = np.zeros(n), np.zeros(n), np.zeros(n, dtype=np.int64)
    counted = cuts._regression_cuts(vals, order, targets, np.ones(n + s), s, n + s, n_known, s_known, 1.0, True,
                                    scoring, general)
    fast = cuts._regression_unit_cuts(vals[None, :], order[None, :], 0, targets, s, n + s, n_known, s_known, 1.0, 0.0,
                                      min_leaf, rank, left_mass, cut_at, np.zeros(n))
    assert fast == counted
    count = counted[0]
    assert count == len(np.unique(values)) - 1
    for mine, theirs in zip((rank, left_mass, cut_at), general[1:4]):
        assert mine[:count].tobytes() == theirs[:count].tobytes()
