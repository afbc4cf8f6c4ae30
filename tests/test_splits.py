"""The candidate-split tables (`dtlearn.split_table` and `Step.table`).

Every expected number is derived here from the data itself with exact fractions
(tests/exact.py), or is a value printed in a textbook: Mitchell (1997) ch. 3, Zhou (2016)
ch. 4, Zaki & Meira (2014) ch. 19 (seed 004), the credit-risk slides (seed 001).
"""

from __future__ import annotations

import csv
import math
import warnings
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import dtlearn
import exact

DATASETS = Path(__file__).resolve().parents[1] / "datasets"
TENNIS_ATTRIBUTES = ("outlook", "temperature", "humidity", "wind")
TENNIS_VALUES = {  # Mitchell's value order, which the catalogue declares (tie-break order)
    "outlook": ("Sunny", "Overcast", "Rain"),
    "temperature": ("Hot", "Mild", "Cool"),
    "humidity": ("High", "Normal"),
    "wind": ("Weak", "Strong"),
}
CLASSES = ("No", "Yes")


def mitchell_branches(rows, attribute):
    """Class counts (No, Yes) per value of `attribute`, from Mitchell's Table 3.2 as typed."""
    return exact.counts_by(rows, TENNIS_ATTRIBUTES.index(attribute), TENNIS_VALUES[attribute], CLASSES)


def row_of(table: pd.DataFrame, **match) -> pd.Series:
    selected = table
    for column, value in match.items():
        selected = selected[selected[column] == value]
    assert len(selected) == 1, f"expected one row for {match}, got {len(selected)}"
    return selected.iloc[0]


def csv_rows(name):
    """A shipped CSV read with the standard library only (header, rows), no dtlearn."""
    with open(DATASETS / name, encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.reader(handle))
    return rows[0], rows[1:]


# --- PlayTennis with ID3 (Mitchell 1997, section 3.4.2) ----------------------------------

def test_shipped_tennis_is_mitchells_table(tennis, mitchell_rows):
    # datasets/tennis.csv must be Mitchell's Table 3.2, D1..D14 in order.
    assert [tuple(r) for r in tennis.frame.astype(str).itertuples(index=False)] == mitchell_rows


def test_tennis_id3_root_gains_match_mitchell(tennis, mitchell_rows):
    table = dtlearn.split_table(tennis, "id3")
    # Mitchell (1997) p. 59-60 prints Gain(S, A) to three decimals (truncated):
    printed = {"outlook": 0.246, "humidity": 0.151, "wind": 0.048, "temperature": 0.029}
    for attribute, value in printed.items():
        # Exact: Ent([9, 5]) - sum |S_v|/|S| Ent(S_v) with the counts of Table 3.2,
        # e.g. outlook: 0.94029 - (5/14 Ent[3,2] + 4/14 Ent[0,4] + 5/14 Ent[2,3]) = 0.24675.
        expected = exact.info_gain(mitchell_branches(mitchell_rows, attribute))
        row = row_of(table, attribute=attribute)
        assert row["gain"] == pytest.approx(expected, abs=1e-12)
        assert abs(expected - value) < 1e-3  # the book's (truncated) figure
        assert row["entropy_before"] == pytest.approx(exact.entropy([5, 9]), abs=1e-12)  # 0.940
        assert row["entropy_after"] == pytest.approx(exact.entropy([5, 9]) - expected, abs=1e-12)


def test_tennis_id3_root_table_layout(tennis, mitchell_rows):
    table = dtlearn.split_table(tennis, "id3")
    # One multiway candidate per attribute, in column order (Mitchell's table order).
    assert list(table["attribute"]) == list(TENNIS_ATTRIBUTES)
    assert set(table["kind"]) == {"multiway"}
    for attribute in TENNIS_ATTRIBUTES:
        row = row_of(table, attribute=attribute)
        # Branches in the value order; class counts (No, Yes) counted from Table 3.2.
        assert tuple(row["branches"]) == tuple(f"= {v}" for v in TENNIS_VALUES[attribute])
        expected_counts = mitchell_branches(mitchell_rows, attribute)
        assert [list(b) for b in row["branch_counts"]] == expected_counts
        assert row["n"] == 14 and row["known"] == 1.0
        assert bool(row["eligible"]) and row["reason"] == ""
        # Zaki & Meira's CART measure is defined for two-way splits only (NaN otherwise).
        if len(expected_counts) == 2:
            assert row["cart_measure"] == pytest.approx(float(exact.cart_measure(*expected_counts)), abs=1e-12)
        else:
            assert math.isnan(row["cart_measure"])
    # Outlook has the highest gain (0.2467 > 0.1518 > 0.0481 > 0.0292): the only chosen row,
    # and ID3 ranks by information gain, so score == gain.
    assert list(table["chosen"]) == [True, False, False, False]
    assert np.allclose(table["score"], table["gain"], atol=0, rtol=0)


def test_tennis_split_info_and_gain_ratio(tennis, mitchell_rows):
    table = dtlearn.split_table(tennis, "id3")
    for attribute in TENNIS_ATTRIBUTES:
        branches = mitchell_branches(mitchell_rows, attribute)
        sizes = [sum(b) for b in branches]
        # Quinlan (1993) / seed 000 eq. 4: IV(a) = -sum |D_v|/|D| log2 |D_v|/|D|;
        # outlook (5, 4, 5) -> 1.5774, temperature (4, 6, 4) -> 1.5567, humidity (7, 7) -> 1,
        # wind (8, 6) -> 0.9852; gain ratio = gain / IV (seed 000 eq. 3).
        row = row_of(table, attribute=attribute)
        assert row["split_info"] == pytest.approx(exact.split_info(sizes), abs=1e-12)
        assert row["gain_ratio"] == pytest.approx(exact.info_gain(branches) / exact.split_info(sizes), abs=1e-12)
    assert row_of(table, attribute="humidity")["split_info"] == pytest.approx(1.0, abs=1e-15)


def test_tennis_gini_and_error_columns(tennis, mitchell_rows):
    table = dtlearn.split_table(tennis, "id3")
    for attribute in TENNIS_ATTRIBUTES:
        branches = mitchell_branches(mitchell_rows, attribute)
        row = row_of(table, attribute=attribute)
        # Gini([5, 9]) = 1 - (25 + 81)/196 = 90/196 (exact); Gini index after the split is
        # sum |D_v|/|D| Gini(D_v) (seed 000 eq. 6), e.g. outlook: 10/14 * 12/25 = 12/35.
        assert row["gini_before"] == pytest.approx(90 / 196, abs=1e-15)
        assert row["gini_after"] == pytest.approx(float(exact.gini_after(branches)), abs=1e-12)
        assert row["gini_gain"] == pytest.approx(float(exact.gini_gain(branches)), abs=1e-12)
        assert row["error_before"] == pytest.approx(5 / 14, abs=1e-15)
        assert row["error_after"] == pytest.approx(float(exact.weighted(exact.error, branches)), abs=1e-12)
    assert row_of(table, attribute="outlook")["gini_after"] == pytest.approx(12 / 35, abs=1e-15)


def test_tennis_second_level_gains_match_mitchell(tennis, mitchell_rows):
    # Mitchell (1997) p. 61: under Outlook = Sunny, Gain(S_sunny, Humidity) = .970,
    # Gain(S_sunny, Temperature) = .570, Gain(S_sunny, Wind) = .019 (truncated figures).
    tree = dtlearn.fit(tennis, "id3")
    step = next(s for s in tree.steps if s.path == ("outlook = Sunny",))
    sunny = [r for r in mitchell_rows if r[0] == "Sunny"]
    table = step.table
    for attribute, printed in {"humidity": 0.970, "temperature": 0.570, "wind": 0.019}.items():
        expected = exact.info_gain(mitchell_branches(sunny, attribute))
        assert row_of(table, attribute=attribute)["gain"] == pytest.approx(expected, abs=1e-12)
        assert abs(expected - printed) < 1e-3
    assert row_of(table, attribute="humidity")["chosen"]


# --- the credit-risk slides (seed 001) ------------------------------------------------------

def test_shipped_credit_risk_is_the_corrected_slide_table(credit_risk, credit_rows):
    # The slide's table with its OCR'd 'Z' read as 'N' (see conftest.CREDIT_RISK).
    assert [tuple(r) for r in credit_risk.frame.astype(str).itertuples(index=False)] == credit_rows


def test_credit_risk_gains_with_the_slide_slips_corrected(credit_risk, credit_rows):
    table = dtlearn.split_table(credit_risk, "id3")
    classes = ("N", "Y")
    tenure = exact.counts_by(credit_rows, 0, ("N", "Y"), classes)  # [[4, 2], [3, 1]]
    missed = exact.counts_by(credit_rows, 1, ("N", "Y"), classes)  # [[6, 1], [1, 2]]
    assert tenure == [[4, 2], [3, 1]] and missed == [[6, 1], [1, 2]]  # as on the slide
    # H(defaulted) = -0.3 log2 0.3 - 0.7 log2 0.7 = 0.8813 (slide correct).
    assert row_of(table, attribute="under_2_years")["entropy_before"] == pytest.approx(exact.entropy([7, 3]), abs=1e-12)
    # SLIP in seed 001: H(defaulted | <2years = Y) is printed 0.8133, but (3/4, 1/4) gives 0.8113,
    # so the slide's H(defaulted | <2years) = 0.8763 should be 6/10 * 0.9183 + 4/10 * 0.8113
    # = 0.8755 and the gain 0.0050 should be 0.8813 - 0.8755 = 0.0058.
    h_tenure = 0.6 * exact.entropy([4, 2]) + 0.4 * exact.entropy([3, 1])
    assert round(h_tenure, 4) == 0.8755 and round(exact.entropy([7, 3]) - h_tenure, 4) == 0.0058
    row = row_of(table, attribute="under_2_years")
    assert row["entropy_after"] == pytest.approx(h_tenure, abs=1e-12)
    assert row["gain"] == pytest.approx(exact.info_gain(tenure), abs=1e-12)
    assert abs(row["gain"] - 0.0050) > 5e-4  # the slide's printed gain is not reproduced
    # Missed payments: 7/10 * 0.5917 + 3/10 * 0.9183 = 0.6897, gain 0.1916 (slide correct).
    row = row_of(table, attribute="missed_payments")
    assert row["entropy_after"] == pytest.approx(0.7 * exact.entropy([6, 1]) + 0.3 * exact.entropy([1, 2]), abs=1e-12)
    assert row["gain"] == pytest.approx(exact.info_gain(missed), abs=1e-12)
    assert round(row["gain"], 4) == 0.1916
    assert bool(row["chosen"])


# --- CART on categorical attributes: binary subset splits -----------------------------------

def _value_sets(row, values):
    left = frozenset(v.strip() for v in row["test"].split(" in {", 1)[1].rstrip("}").split(","))
    return left, frozenset(values) - left


@pytest.mark.parametrize("attribute", TENNIS_ATTRIBUTES)
def test_tennis_cart_subset_rows_have_hand_derived_gini(tennis, mitchell_rows, attribute):
    table = dtlearn.split_table(tennis, "cart")
    rows = table[table["attribute"] == attribute]
    assert set(rows["kind"]) == {"subset"}
    index = TENNIS_ATTRIBUTES.index(attribute)
    values = TENNIS_VALUES[attribute]
    for _, row in rows.iterrows():
        left, right = _value_sets(row, values)
        assert left and right  # both sides non-empty: a proper binary split X in V
        # Counts (No, Yes) on each side from Table 3.2, then Gini by hand (Breiman et al. 1984).
        branches = [[sum(1 for r in mitchell_rows if r[index] in side and r[4] == c) for c in CLASSES]
                    for side in (left, right)]
        assert [list(b) for b in row["branch_counts"]] == branches
        assert row["gini_after"] == pytest.approx(float(exact.gini_after(branches)), abs=1e-12)
        assert row["gini_gain"] == pytest.approx(float(exact.gini_gain(branches)), abs=1e-12)
        assert row["cart_measure"] == pytest.approx(float(exact.cart_measure(*branches)), abs=1e-12)


def test_tennis_cart_overcast_versus_rest(tennis):
    # Outlook {Overcast} vs {Sunny, Rain}: (0 No, 4 Yes) | (5 No, 5 Yes);
    # Gini after = 4/14 * 0 + 10/14 * 1/2 = 5/14, gain = 90/196 - 5/14 = 20/196 = 5/49.
    # It beats humidity High (4 No, 3 Yes) vs Normal (1 No, 6 Yes): 1/2 * 24/49 + 1/2 * 12/49
    # = 18/49 > 5/14, and every other split (the brute-force test below), so CART chooses it.
    table = dtlearn.split_table(tennis, "cart")
    outlook = table[table["attribute"] == "outlook"]
    wanted = frozenset([frozenset({"Overcast"}), frozenset({"Sunny", "Rain"})])
    matches = [row for _, row in outlook.iterrows()
               if frozenset(_value_sets(row, TENNIS_VALUES["outlook"])) == wanted]
    assert len(matches) == 1
    row = matches[0]
    assert row["gini_after"] == pytest.approx(5 / 14, abs=1e-15)
    assert row["gini_gain"] == pytest.approx(5 / 49, abs=1e-15)
    assert bool(row["chosen"])
    assert table["chosen"].sum() == 1


@pytest.mark.parametrize("name", ["tennis", "credit_risk", "watermelon_2"])
def test_two_class_subset_search_finds_the_best_of_all_partitions(name):
    # Breiman et al. (1984), Theorem 4.5: with two classes, ordering the values by P(class | value)
    # and trying the p-1 prefixes finds the best of all 2^(p-1) - 1 binary partitions. The
    # brute force over every partition is done here from the raw counts.
    data = dtlearn.load_dataset(name)
    table = dtlearn.split_table(data, "cart")
    frame = data.frame
    classes = sorted(frame[data.target].astype(str).unique())
    for attribute in data.attributes:
        values = sorted(frame[attribute].dropna().astype(str).unique())
        best = min(
            exact.gini_after([[int(((frame[attribute].astype(str).isin(side)) & (frame[data.target] == c)).sum())
                               for c in classes] for side in (left, right)])
            for left, right in exact.two_way_partitions(values)
        )
        rows = table[table["attribute"] == attribute]
        found = {frozenset(_value_sets(row, values)) for _, row in rows.iterrows()}
        assert found == {frozenset(p) for p in exact.two_way_partitions(values)}  # every partition is listed
        scored = rows[rows["reason"].str.startswith("not scored") == False]  # noqa: E712 - a Series
        assert len(scored) == len(values) - 1  # the p - 1 prefixes are the ones scored, listed first
        assert list(scored.index) == list(rows.index[:len(values) - 1])
        assert scored["gini_after"].min() == pytest.approx(float(best), abs=1e-12)


def test_three_class_subset_search_is_exhaustive():
    # Contact lenses has 3 classes: every binary partition of the values is a candidate,
    # 2^(m-1) - 1 of them for m values (Zaki & Meira, seed 004: "all distinct partitions").
    data = dtlearn.load_dataset("contact_lenses")
    table = dtlearn.split_table(data, "cart")
    for attribute in data.attributes:
        values = sorted(data.frame[attribute].astype(str).unique())
        rows = table[table["attribute"] == attribute]
        found = {frozenset(_value_sets(row, values)) for _, row in rows.iterrows()}
        expected = {frozenset(p) for p in exact.two_way_partitions(values)}
        assert found == expected
        assert len(rows) == 2 ** (len(values) - 1) - 1


def test_credit_risk_cart_rows_and_zaki_cart_measure(credit_risk):
    table = dtlearn.split_table(credit_risk, "cart")
    # Binary attributes: one candidate each. missed_payments: (6 N, 1 Y) | (1 N, 2 Y).
    # Gini after = 7/10 (1 - 37/49) + 3/10 (1 - 5/9) = 12/70 + 2/15 = 32/105.
    # Zaki & Meira (seed 004): CART = 2 (7/10)(3/10) (|6/7 - 1/3| + |1/7 - 2/3|) = 0.42 * 22/21 = 0.44.
    row = row_of(table, attribute="missed_payments")
    assert row["gini_after"] == pytest.approx(32 / 105, abs=1e-15)
    assert row["gini_gain"] == pytest.approx(0.42 - 32 / 105, abs=1e-15)  # Gini([7, 3]) = 0.42
    assert row["cart_measure"] == pytest.approx(0.44, abs=1e-15)
    # under_2_years: (3 N, 1 Y) | (4 N, 2 Y): CART = 2 (4/10)(6/10) (1/12 + 1/12) = 0.08.
    row = row_of(table, attribute="under_2_years")
    assert row["cart_measure"] == pytest.approx(0.08, abs=1e-15)
    assert row["gini_after"] == pytest.approx(float(exact.gini_after([[3, 1], [4, 2]])), abs=1e-15)
    assert list(table.loc[table["chosen"], "attribute"]) == ["missed_payments"]


def test_zaki_discretised_sepal_length_subset_splits():
    # Zaki & Meira (seed 004), "Categorical split points for sepal length": bins a1..a4 with
    # class frequencies (setosa, other) a1 (39, 6), a2 (11, 39), a3 (0, 43), a4 (0, 12), and the
    # information gain of every X in V (a V and its complement are the same split). Best: {a1}.
    freq = {"a1": (39, 6), "a2": (11, 39), "a3": (0, 43), "a4": (0, 12)}
    # {a2}: 0.022 is what these frequencies give (0.0217); 0.217, typed here before every
    # partition was listed, is no partition's gain (a dropped 0).
    printed = {("a1",): 0.410, ("a2",): 0.022, ("a3",): 0.207, ("a4",): 0.049, ("a1", "a2"): 0.286,
               ("a1", "a3"): 0.058, ("a1", "a4"): 0.251, ("a2", "a3"): 0.251, ("a2", "a4"): 0.058,
               ("a3", "a4"): 0.286}
    values = frozenset(freq)
    by_split = {frozenset([frozenset(v), values - frozenset(v)]): gain for v, gain in printed.items()}
    rows = [(v, c) for v, (s, o) in freq.items() for c in ["setosa"] * s + ["other"] * o]
    data = dtlearn.Dataset(pd.DataFrame(rows, columns=["sepal_length", "species"]), "species")
    table = dtlearn.split_table(data, "cart", criterion="entropy")
    # Two classes: Breiman's p - 1 = 3 prefixes of the values ordered by class proportion are
    # scored; the table lists all seven partitions of the book's table, the prefixes first.
    assert len(table) == 2 ** (4 - 1) - 1
    assert list(table["eligible"]) == [True] * 3 + [False] * 4
    assert {frozenset(_value_sets(row, values)) for _, row in table.iterrows()} == set(by_split)
    for _, row in table.iterrows():
        left, right = _value_sets(row, values)
        branches = [[sum(freq[v][i] for v in side) for i in (1, 0)] for side in (left, right)]  # (other, setosa)
        expected = exact.info_gain(branches)
        assert row["gain"] == pytest.approx(expected, abs=1e-12)
        assert round(expected, 3) == by_split[frozenset([left, right])]
        assert row["cart_measure"] == pytest.approx(float(exact.cart_measure(*branches)), abs=1e-12)
    # The chosen split is the book's best of all seven, X in {a1} (gain 0.410).
    chosen = table[table["chosen"]].iloc[0]
    assert frozenset(_value_sets(chosen, values)) == frozenset([frozenset({"a1"}), frozenset({"a2", "a3", "a4"})])
    assert max(by_split.values()) == 0.410


# --- numeric thresholds: iris, the internship table, watermelon 3.0 ------------------------

def test_iris_cart_root_separates_setosa(iris):
    table = dtlearn.split_table(iris, "cart")
    chosen = table[table["chosen"]]
    assert len(chosen) == 1
    row = chosen.iloc[0]
    # Setosa alone on the left: (50, 0, 0) | (0, 50, 50): Gini after = 100/150 * (1 - 2/4) = 1/3.
    assert [list(b) for b in row["branch_counts"]] == [[50, 0, 0], [0, 50, 50]]
    assert row["gini_after"] == pytest.approx(1 / 3, abs=1e-12)
    assert row["gini_gain"] == pytest.approx(2 / 3 - 1 / 3, abs=1e-12)  # Gini(50, 50, 50) = 2/3
    # Zaki & Meira CART measure: 2 (1/3)(2/3) (|1 - 0| + |0 - 1/2| + |0 - 1/2|) = 8/9.
    assert row["cart_measure"] == pytest.approx(8 / 9, abs=1e-12)
    # petal_length <= 2.45 and petal_width <= 0.8 make the same partition, so tie exactly; the
    # documented tie rule (dtlearn/splits.py: attributes in column order) picks petal_length,
    # the earlier column.
    frame = iris.frame
    pl_mid = (frame.loc[frame.species == "setosa", "petal_length"].max()
              + frame.loc[frame.species != "setosa", "petal_length"].min()) / 2
    pw_mid = (frame.loc[frame.species == "setosa", "petal_width"].max()
              + frame.loc[frame.species != "setosa", "petal_width"].min()) / 2
    assert (pl_mid, pw_mid) == pytest.approx((2.45, 0.8))
    assert row["attribute"] == "petal_length"
    assert row["threshold"] == pytest.approx(pl_mid, abs=1e-12)
    rival = table[(table["attribute"] == "petal_width") & np.isclose(table["threshold"], pw_mid)].iloc[0]
    assert rival["gini_after"] == pytest.approx(1 / 3, abs=1e-12)
    assert not rival["chosen"]
    assert table["gini_after"].min() == pytest.approx(1 / 3, abs=1e-12)


@pytest.mark.parametrize("name", ["iris", "internship", "weather_numeric", "watermelon_3"])
def test_numeric_thresholds_are_midpoints_of_successive_distinct_values(name):
    # Seed 000 eq. 7 / Zaki & Meira: the candidate cuts of a numeric attribute are the midpoints
    # (a_i + a_{i+1}) / 2 of its successive distinct values, ascending. Counts on each side are
    # recounted here with numpy (x <= t).
    data = dtlearn.load_dataset(name)
    table = dtlearn.split_table(data, "cart")
    classes = list(data.classes)
    y = data.frame[data.target].astype(str).to_numpy()
    for attribute, kind in data.kinds.items():
        if kind != "numeric":
            continue
        x = data.frame[attribute].to_numpy(dtype=float)
        distinct = np.unique(x)
        rows = table[table["attribute"] == attribute]
        assert set(rows["kind"]) == {"threshold"}
        np.testing.assert_allclose(rows["threshold"].to_numpy(), (distinct[:-1] + distinct[1:]) / 2,
                                   rtol=0, atol=1e-12)
        for (_, row), below, above in zip(rows.iterrows(), distinct[:-1], distinct[1:]):
            t = row["threshold"]
            assert below < t < above  # the cut lies strictly between the two values
            left = x <= t
            expected = [[int(((side) & (y == c)).sum()) for c in classes] for side in (left, ~left)]
            assert [list(b) for b in row["branch_counts"]] == expected
            assert row["gini_after"] == pytest.approx(float(exact.gini_after(expected)), abs=1e-12)


def test_internship_cart_root_by_hand(internship_rows):
    # Seed 001's 2-D table. years_experience <= 2.5 puts (0 1 2 -> class 0, 0, 0) left and
    # (3 4 4 -> 1, 1, 1) right: Gini after 0, the only perfect cut, so CART takes it.
    data = dtlearn.load_dataset("internship")
    assert [tuple(r) for r in data.frame.itertuples(index=False)] == [
        (g, e, c) for g, e, c in internship_rows]
    table = dtlearn.split_table(data, "cart")
    row = table[table["chosen"]].iloc[0]
    assert row["attribute"] == "years_experience"
    assert row["threshold"] == pytest.approx(2.5, abs=1e-12)
    assert row["gini_after"] == 0.0
    assert row["gini_gain"] == pytest.approx(0.5, abs=1e-15)
    assert (table["gini_after"] > 0).sum() == len(table) - 1


def test_watermelon_3_numeric_gains_match_zhou():
    # Zhou (2016) section 4.4.1 on watermelon 3.0: Gain(D, density) = 0.262 at cut 0.381 and
    # Gain(D, sugar) = 0.349 at cut 0.126 (the best cut of each). Recomputed exactly from the CSV.
    header, rows = csv_rows("watermelon_3.csv")
    target = [r[-1] for r in rows]
    classes = sorted(set(target))
    table = dtlearn.split_table(dtlearn.load_dataset("watermelon_3"), "cart", criterion="entropy")
    for attribute, (cut, gain) in {"密度": (0.381, 0.262), "含糖率": (0.126, 0.349)}.items():
        x = [float(r[header.index(attribute)]) for r in rows]
        distinct = sorted(set(x))
        best = max(
            (exact.info_gain([[sum(1 for v, c in zip(x, target) if (v <= t) == side and c == k) for k in classes]
                              for side in (True, False)]), t)
            for t in ((a + b) / 2 for a, b in zip(distinct, distinct[1:]))
        )
        rows_of = table[table["attribute"] == attribute]
        top = rows_of.loc[rows_of["gain"].idxmax()]
        assert top["gain"] == pytest.approx(best[0], abs=1e-12)
        assert top["threshold"] == pytest.approx(best[1], abs=1e-12)
        assert abs(best[0] - gain) < 5e-4 and abs(best[1] - cut) < 1e-3  # Zhou's printed figures


# --- missing values (C4.5): watermelon 2.0 and 2.0 alpha (Zhou 2016) -------------------------

ZHOU_GAINS_2 = {"色泽": 0.109, "根蒂": 0.143, "敲声": 0.141, "纹理": 0.381, "脐部": 0.289, "触感": 0.006}
ZHOU_GAINS_2ALPHA = {"色泽": 0.252, "根蒂": 0.171, "敲声": 0.145, "纹理": 0.424, "脐部": 0.289, "触感": 0.006}


@pytest.mark.parametrize("name,printed", [("watermelon_2", ZHOU_GAINS_2), ("watermelon_2alpha", ZHOU_GAINS_2ALPHA)])
def test_watermelon_gains_with_missing_values_match_zhou(name, printed):
    # Zhou (2016) p. 76 (Table 4.1) and p. 87 (Table 4.4, with missing cells); seed 000 eq. 9-10:
    # Gain(D, a) = rho * (Ent(D~) - sum_v r~_v Ent(D~_v)) over the rows D~ whose a is known,
    # rho = |D~| / |D|. Split info counts the unknown rows as one more branch (Quinlan 1993).
    # Zhou rounds intermediate entropies, so his 0.109 for 色泽 is 0.1081 exactly; all printed
    # figures are within 1e-3 of the exact values.
    header, rows = csv_rows(f"{name}.csv")
    table = dtlearn.split_table(dtlearn.load_dataset(name), "id3")
    classes = sorted({r[-1] for r in rows})
    for attribute, value in printed.items():
        i = header.index(attribute)
        known = [r for r in rows if r[i].strip() not in ("", "?")]
        rho = Fraction(len(known), len(rows))
        values = sorted({r[i] for r in known})
        branches = exact.counts_by(known, i, values, classes)
        gain = float(rho) * exact.info_gain(branches)
        row = row_of(table, attribute=attribute)
        assert row["known"] == pytest.approx(float(rho), abs=1e-15)
        assert row["gain"] == pytest.approx(gain, abs=1e-12)
        assert abs(gain - value) < 1e-3
        sizes = [sum(b) for b in branches] + [len(rows) - len(known)]
        assert row["split_info"] == pytest.approx(exact.split_info(sizes), abs=1e-12)
        assert row["gain_ratio"] == pytest.approx(gain / exact.split_info(sizes), abs=1e-12)
    # Zhou: 纹理 (texture) has the largest gain in both tables and is chosen.
    assert list(table.loc[table["chosen"], "attribute"]) == ["纹理"]


# --- C4.5's eligibility rules ------------------------------------------------------------------

def test_c45_weather_numeric_root_average_gain_rule():
    # Quinlan (1993): gain ratio among candidates with at least average gain; J48 / C4.5 r8
    # (Quinlan 1996) subtract log2(#cuts)/N from a threshold's gain, #cuts counting the cuts with
    # at least 2 cases per side (J48's minimum, max(2, min(25, 0.1 * 14 / 2)) = 2).
    header, rows = csv_rows("weather_numeric.csv")
    target = [r[-1] for r in rows]
    classes = sorted(set(target))
    n = len(rows)
    gains = {}
    for attribute in ("outlook", "windy"):
        i = header.index(attribute)
        gains[attribute] = exact.info_gain(exact.counts_by(rows, i, sorted({r[i] for r in rows}), classes))
    for attribute in ("temperature", "humidity"):
        x = [float(r[header.index(attribute)]) for r in rows]
        distinct = sorted(set(x))
        cuts = [(a + b) / 2 for a, b in zip(distinct, distinct[1:])]
        valid = [t for t in cuts if 2 <= sum(v <= t for v in x) <= n - 2]
        best = max(exact.info_gain([[sum(1 for v, c in zip(x, target) if (v <= t) == s and c == k) for k in classes]
                                    for s in (True, False)]) for t in valid)
        assert best - math.log2(len(valid)) / n <= 0  # so neither numeric attribute competes
    average = (gains["outlook"] + gains["windy"]) / 2  # 0.1474
    table = dtlearn.split_table(dtlearn.load_dataset("weather_numeric"), "c45")
    outlook = row_of(table, attribute="outlook")
    assert bool(outlook["chosen"])
    assert outlook["score"] == pytest.approx(gains["outlook"] / exact.split_info([5, 4, 5]), abs=1e-12)
    windy = row_of(table, attribute="windy")
    assert not windy["eligible"]
    assert "below the average gain" in windy["reason"] and f"{average:.4f}" in windy["reason"]
    assert not table.loc[table["kind"] == "threshold", "eligible"].any()


def test_min_samples_leaf_makes_small_branches_ineligible():
    # internship: with min_samples_leaf = 2 a cut leaving a single row on one side (e.g.
    # gpa <= 2.75: 1 | 5) is not allowed; the others are. Side sizes recounted from branch counts.
    data = dtlearn.load_dataset("internship")
    table = dtlearn.split_table(data, "cart", min_samples_leaf=2)
    for _, row in table.iterrows():
        sides = [sum(b) for b in row["branch_counts"]]
        small = min(sides) < 2
        assert bool(row["eligible"]) is (not small)
        if small:
            assert "min_samples_leaf = 2" in row["reason"]


# --- deeper nodes: Step tables and ID3's no-reuse rule -------------------------------------------

def test_id3_tested_attribute_is_not_eligible_deeper(tennis):
    # ID3 tests a categorical attribute once per path (Quinlan 1986; seed 000: "discrete attributes
    # will not be reused"). Under outlook = Sunny all 5 rows have outlook = Sunny, so outlook's
    # candidate has one non-empty branch, zero gain, and is not eligible; the table states the rule.
    tree = dtlearn.fit(tennis, "id3")
    for step in tree.steps:
        if step.action != "split" or step.depth == 0:
            continue
        table = step.table
        row = row_of(table, attribute="outlook")
        assert not row["eligible"]
        assert row["reason"].startswith("already tested on this path")
        assert row["gain"] == 0.0
        assert not row["chosen"]


def test_no_reuse_rule_is_stated_in_the_table():
    # With reuse_attributes=False and binary subsets, a used attribute can still split its node
    # (two values left), so the rule itself must be the stated reason. Hand-built: 'a' in {p} vs
    # {q, r} wins at the root (Gini after 4/10 * 1/2 = 0.2 vs 0.24 for b); under {q, r} only 'b'
    # may split (u -> B, v -> A).
    rows = [("p", "u", "A")] * 3 + [("p", "v", "A")] * 3 + [("q", "u", "B"), ("q", "v", "A"),
                                                             ("r", "u", "B"), ("r", "v", "A")]
    data = dtlearn.Dataset(pd.DataFrame(rows, columns=["a", "b", "y"]), "y")
    tree = dtlearn.fit(data, "cart", reuse_attributes=False)
    assert tree.root.test.attribute == "a"
    step = next(s for s in tree.steps if s.node_id == tree.root.children[1].id)
    table = step.table
    row = row_of(table, attribute="a")
    assert not row["eligible"]
    assert row["reason"].startswith("already tested on this path")
    assert bool(row_of(table, attribute="b")["chosen"])


@pytest.mark.parametrize("name,algorithm", [("tennis", "id3"), ("weather_numeric", "c45"), ("iris", "cart"),
                                            ("credit_risk", "id3"), ("contact_lenses", "c45")])
def test_root_step_table_is_split_table(name, algorithm):
    # Step.table's documented contract (dtlearn/tree.py): "exactly as split_table gives it for
    # this node's rows"; at the root those are all the rows.
    data = dtlearn.load_dataset(name)
    tree = dtlearn.fit(data, algorithm)
    pd.testing.assert_frame_equal(tree.steps[0].table, dtlearn.split_table(data, algorithm))


def test_split_table_chosen_agrees_with_fit_when_the_root_is_a_leaf(xor, tennis):
    # Regression (found while writing these tests, fixed in f9444a0): split_table used to mark a
    # row chosen at a root that fit() makes a leaf. XOR: both attributes have gain 0, ID3 makes
    # the root a leaf (stop 'zero_gain'), so nothing is chosen.
    tree = dtlearn.fit(xor, "id3")
    assert tree.steps[0].action == "leaf"
    assert not tree.steps[0].table["chosen"].any()
    assert not dtlearn.split_table(xor, "id3")["chosen"].any()
    # The same for a pre-pruning stop: min_gain above the best gain (0.2467, see above).
    assert not dtlearn.split_table(tennis, "id3", min_gain=0.25)["chosen"].any()
    assert dtlearn.split_table(tennis, "id3", min_gain=0.24)["chosen"].sum() == 1


def test_split_table_of_a_single_row_has_no_candidates():
    # Regression (IndexError before f9444a0). One row: no two successive distinct values, so no
    # threshold exists (seed 000 eq. 7); the table is simply empty, as for a constant column.
    data = dtlearn.Dataset(pd.DataFrame({"x": [1.0], "y": ["A"]}), "y")
    table = dtlearn.split_table(data, "cart")
    assert len(table) == 0


def test_split_table_of_a_constant_column_is_empty():
    # Two equal values give no midpoint, so there is no candidate (and no error).
    data = dtlearn.Dataset(pd.DataFrame({"x": [1.0, 1.0], "y": ["A", "B"]}), "y")
    table = dtlearn.split_table(data, "cart")
    assert len(table) == 0
    assert {"gain", "gini_after", "eligible", "chosen"} <= set(table.columns)


def test_split_table_rejects_non_datasets_and_bad_settings(tennis):
    with pytest.raises(TypeError, match="dtlearn.Dataset"):
        dtlearn.split_table(tennis.frame, "id3")
    with pytest.raises(ValueError, match="Unknown algorithm 'c50'"):
        dtlearn.split_table(tennis, "c50")
    with pytest.raises(ValueError, match="Unknown setting 'min_leaf'"):
        dtlearn.split_table(tennis, "cart", min_leaf=3)


def test_the_candidates_of_a_leaf_no_row_reaches_are_computed_without_a_division_by_zero():
    # C4.5 on watermelon 3.0 (Zhou 2016, table 4.3) makes a leaf for a value no row of its node
    # has (weight 0): its numeric columns have no cut, and the threshold correction log2(1) / 0
    # was 0 / 0, a RuntimeWarning in the server's log for every student asking (nan underneath)
    tree = dtlearn.fit(dtlearn.load_dataset("watermelon_3"), "c45")
    empty = [step for step in tree.steps if step.weight == 0]
    assert empty
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        table = empty[0].candidates
    # each categorical attribute a row with no eligible candidate, the numeric ones none
    assert len(table) == 6 and not table.columns["eligible"].any()
