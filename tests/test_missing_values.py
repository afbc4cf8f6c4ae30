"""C4.5's missing values (seed 000, eq. 9-10; Quinlan 1993) on Zhou's watermelon 2.0 alpha.

Zhou Zhihua, Machine Learning (2016), Table 4.4 is typed below from the book (not read through
dtlearn). For an attribute a, D~ are the rows whose a is known, w_x their weights (1 at the
root) and

    rho   = sum_{D~} w / sum_{D} w          p~_k = sum_{D~_k} w / sum_{D~} w
    r~_v  = sum_{D~^v} w / sum_{D~} w       Gain(D, a) = rho * (Ent(D~) - sum_v r~_v Ent(D~^v))

A row whose a is missing goes down every branch v with its weight times r~_v. Split info
counts the unknown rows as one more branch (Quinlan 1993, p. 28). Every expected number here
is computed from the typed table with exact Fractions (entropies in float from exact
proportions, see tests/exact.py).

The c45 tree on this table equals Weka's J48 -U (tests/test_weka_reference.py); the tree
structure quoted below (纹理 at the root, 根蒂 under 清晰, 敲声 under 稍糊) is Weka's
(tests/fixtures/weka/watermelon_2alpha.j48_unpruned.txt).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

import dtlearn
import exact

ATTRIBUTES = ["色泽", "根蒂", "敲声", "纹理", "脐部", "触感"]
GOOD, BAD = "是", "否"
CLASSES = (BAD, GOOD)  # dtlearn orders text labels by code point: 否 (U+5426) < 是 (U+662F)

# Zhou (2016), Table 4.4: 西瓜数据集 2.0α, rows 1..17; "-" in the book is None here.
ZHOU_2ALPHA = [
    (None, "蜷缩", "浊响", "清晰", "凹陷", "硬滑", "是"),
    ("乌黑", "蜷缩", "沉闷", "清晰", "凹陷", None, "是"),
    ("乌黑", "蜷缩", None, "清晰", "凹陷", "硬滑", "是"),
    ("青绿", "蜷缩", "沉闷", "清晰", "凹陷", "硬滑", "是"),
    (None, "蜷缩", "浊响", "清晰", "凹陷", "硬滑", "是"),
    ("青绿", "稍蜷", "浊响", "清晰", None, "软粘", "是"),
    ("乌黑", "稍蜷", "浊响", "稍糊", "稍凹", "软粘", "是"),
    ("乌黑", "稍蜷", "浊响", None, "稍凹", "硬滑", "是"),
    ("乌黑", None, "沉闷", "稍糊", "稍凹", "硬滑", "否"),
    ("青绿", "硬挺", "清脆", None, "平坦", "软粘", "否"),
    ("浅白", "硬挺", "清脆", "模糊", "平坦", None, "否"),
    ("浅白", "蜷缩", None, "模糊", "平坦", "软粘", "否"),
    (None, "稍蜷", "浊响", "稍糊", "凹陷", "硬滑", "否"),
    ("浅白", "稍蜷", "沉闷", "稍糊", "凹陷", "硬滑", "否"),
    ("乌黑", "稍蜷", "浊响", "清晰", None, "软粘", "否"),
    ("浅白", "蜷缩", "浊响", "模糊", "平坦", "硬滑", "否"),
    ("青绿", None, "沉闷", "稍糊", "稍凹", "硬滑", "否"),
]

# Zhou (2016) p. 87, the gains printed for Table 4.4 (3 decimals).
ZHOU_PRINTED_GAINS = {"色泽": 0.252, "根蒂": 0.171, "敲声": 0.145, "纹理": 0.424, "脐部": 0.289, "触感": 0.006}


@pytest.fixture(scope="module")
def melons() -> dtlearn.Dataset:
    return dtlearn.load_dataset("watermelon_2alpha")


@pytest.fixture(scope="module")
def c45_tree(melons) -> dtlearn.Tree:
    return dtlearn.fit(melons, "c45")


def weighted_stats(rows, weights, attribute):
    """By hand: (rho, p~, r~, class weights per value, missing class weights) of one attribute
    over `rows` (tuples of Table 4.4) with Fraction `weights`."""
    i = ATTRIBUTES.index(attribute)
    total = sum(weights, Fraction(0))
    known = [(r, w) for r, w in zip(rows, weights) if r[i] is not None]
    known_total = sum((w for _, w in known), Fraction(0))
    values = sorted({r[i] for r, _ in known})
    per_value = {v: [sum((w for r, w in known if r[i] == v and r[-1] == c), Fraction(0)) for c in CLASSES]
                 for v in values}
    missing = [sum((w for r, w in zip(rows, weights) if r[i] is None and r[-1] == c), Fraction(0)) for c in CLASSES]
    rho = known_total / total
    p = [sum(per_value[v][k] for v in values) / known_total for k in range(len(CLASSES))]
    r = {v: sum(per_value[v]) / known_total for v in values}
    return rho, p, r, per_value, missing


def hand_gain(rho, p, r, per_value) -> float:
    """seed 000 eq. 10: rho * (Ent(D~) - sum_v r~_v Ent(D~^v))."""
    return float(rho) * (exact.entropy(p) - sum(float(r[v]) * exact.entropy(c) for v, c in per_value.items()))


def row_of(table: pd.DataFrame, attribute: str) -> pd.Series:
    rows = table[table["attribute"] == attribute]
    assert len(rows) == 1, f"expected one row for {attribute}"
    return rows.iloc[0]


def frame_row(**values) -> pd.DataFrame:
    row = {a: None for a in ATTRIBUTES}
    row.update(values)
    return pd.DataFrame([row], columns=ATTRIBUTES)


# --- the table and the root gains ------------------------------------------------------------

def test_shipped_csv_is_zhous_table_4_4(melons):
    # The CSV must be the book's table, cell for cell (missing cells included).
    frame = melons.frame
    assert len(frame) == 17
    for i, expected in enumerate(ZHOU_2ALPHA):
        got = tuple(None if pd.isna(frame.iloc[i][c]) else str(frame.iloc[i][c]) for c in ATTRIBUTES + ["好瓜"])
        assert got == expected, f"row {i + 1}"
    assert melons.classes == CLASSES


def test_zhous_worked_example_for_colour():
    # Zhou p. 87 works 色泽 out in full: rho = 14/17, p~ = (6/14 good, 8/14 bad), Ent(D~) = 0.985,
    # r~ = 青绿 4/14, 乌黑 6/14, 浅白 4/14 with Ent 1.000, 0.918, 0.000, Gain(D~) = 0.306 and
    # Gain(D) = 14/17 * 0.306 = 0.252. Checked here from the typed table (exact fractions).
    rho, p, r, per_value, _ = weighted_stats(ZHOU_2ALPHA, [Fraction(1)] * 17, "色泽")
    assert rho == Fraction(14, 17)
    assert p == [Fraction(8, 14), Fraction(6, 14)]  # (bad, good)
    assert r == {"青绿": Fraction(4, 14), "乌黑": Fraction(6, 14), "浅白": Fraction(4, 14)}
    assert round(exact.entropy(p), 3) == 0.985
    assert [round(exact.entropy(per_value[v]), 3) for v in ("青绿", "乌黑", "浅白")] == [1.0, 0.918, 0.0]
    assert round(hand_gain(1, p, r, per_value), 3) == 0.306
    assert round(hand_gain(rho, p, r, per_value), 3) == 0.252


@pytest.mark.parametrize("attribute", ATTRIBUTES)
def test_root_gains_are_rho_times_the_gain_on_known_rows(melons, attribute):
    # seed 000 eq. 9-10 from the typed table; Zhou's printed gains (p. 87) to 3 decimals.
    table = dtlearn.split_table(melons, "c45")
    row = row_of(table, attribute)
    rho, p, r, per_value, missing = weighted_stats(ZHOU_2ALPHA, [Fraction(1)] * 17, attribute)
    gain = hand_gain(rho, p, r, per_value)
    assert row["known"] == pytest.approx(float(rho), abs=1e-15)  # the `known` column is rho
    assert row["n"] == 17
    assert row["entropy_before"] == pytest.approx(exact.entropy(p), abs=1e-12)  # Ent(D~)
    assert row["entropy_after"] == pytest.approx(
        sum(float(r[v]) * exact.entropy(c) for v, c in per_value.items()), abs=1e-12)
    assert row["gain"] == pytest.approx(gain, abs=1e-12)
    assert abs(gain - ZHOU_PRINTED_GAINS[attribute]) < 5e-4
    # the branch counts are the known rows only, in the table's branch order
    branch_values = [label.removeprefix("= ") for label in row["branches"]]
    assert [tuple(c) for c in row["branch_counts"]] == [tuple(float(x) for x in per_value[v]) for v in branch_values]


@pytest.mark.parametrize("attribute", ATTRIBUTES)
def test_split_info_counts_the_unknown_rows_as_one_more_branch(melons, attribute):
    # Quinlan (1993): IV over the branch sizes plus the unknown rows as an extra "branch".
    table = dtlearn.split_table(melons, "c45")
    row = row_of(table, attribute)
    _, _, _, per_value, missing = weighted_stats(ZHOU_2ALPHA, [Fraction(1)] * 17, attribute)
    sizes = [sum(c) for c in per_value.values()] + [sum(missing)]
    assert sum(missing) > 0  # every attribute of Table 4.4 has missing cells
    with_unknown = exact.split_info(sizes)
    without_unknown = exact.split_info(sizes[:-1])
    assert row["split_info"] == pytest.approx(with_unknown, abs=1e-12)
    assert abs(with_unknown - without_unknown) > 0.05  # the test can tell the two apart
    gain = float(row["gain"])
    assert row["gain_ratio"] == pytest.approx(gain / with_unknown, abs=1e-12)


def test_numeric_threshold_with_a_missing_value():
    # x = 1, 2, 3, ?, 5, 6, 7, 8 with classes A A B A B B B A. The cut x <= 2.5 on the 7 known
    # rows: (2 A, 0 B) | (1 A, 4 B); rho = 7/8; split info over (2, 5, 1 unknown) / 8.
    # C4.5 release 8 (Quinlan 1996; J48) subtracts log2(#cuts) / N from a threshold's gain, N = 8
    # the node's weight, #cuts = 4: the cuts leaving at least J48's 2 known cases on each side
    # (2.5, 4, 5.5, 6.5); the threshold's gain ratio (the one C4.5 ranks by, which the table's
    # gain_ratio column shows) is then (gain - 2/8) / split info.
    frame = pd.DataFrame({"x": [1.0, 2.0, 3.0, np.nan, 5.0, 6.0, 7.0, 8.0],
                          "y": ["A", "A", "B", "A", "B", "B", "B", "A"]})
    table = dtlearn.split_table(dtlearn.Dataset(frame, "y"), "c45")
    row = table[table["threshold"] == 2.5].iloc[0]
    gain = 7 / 8 * exact.info_gain([[2, 0], [1, 4]])
    assert row["known"] == 7 / 8
    assert row["gain"] == pytest.approx(gain, abs=1e-12)
    assert row["split_info"] == pytest.approx(exact.split_info([2, 5, 1]), abs=1e-12)
    assert row["correction"] == pytest.approx(math.log2(4) / 8, abs=1e-15) and row["cuts"] == 4
    assert row["corrected_gain"] == pytest.approx(gain - 2 / 8, abs=1e-12)
    assert row["gain_ratio"] == pytest.approx((gain - 2 / 8) / exact.split_info([2, 5, 1]), abs=1e-12)
    assert row["score"] == row["gain_ratio"]
    assert list(table.loc[table["eligible"], "threshold"]) == [2.5]  # the best-gain cut alone competes
    assert not table.loc[table["threshold"].isin([1.5, 7.5]), "eligible"].any()


def test_c45_root_choice_by_gain_ratio_among_above_average_gains(melons):
    # Quinlan (1993): average gain over the six attributes, then the highest gain ratio among the
    # attributes with at least average gain. From the typed table: average 0.2143; 色泽, 纹理 and
    # 脐部 qualify; 纹理 has the highest gain ratio.
    gains, ratios = {}, {}
    for a in ATTRIBUTES:
        rho, p, r, per_value, missing = weighted_stats(ZHOU_2ALPHA, [Fraction(1)] * 17, a)
        gains[a] = hand_gain(rho, p, r, per_value)
        ratios[a] = gains[a] / exact.split_info([sum(c) for c in per_value.values()] + [sum(missing)])
    average = sum(gains.values()) / len(gains)
    qualified = sorted(a for a in ATTRIBUTES if gains[a] >= average)
    assert qualified == sorted(["色泽", "纹理", "脐部"])
    best = max(qualified, key=ratios.get)
    assert best == "纹理"
    table = dtlearn.split_table(melons, "c45")
    assert list(table.loc[table["chosen"], "attribute"]) == [best]
    assert sorted(table.loc[table["eligible"], "attribute"]) == qualified


# --- where the rows go: fractional weights ------------------------------------------------------

def hand_children_of_texture():
    """纹理's branches by hand: rows 8 (good) and 10 (bad) have 纹理 missing and go down every
    branch with r~_v = 3/15 (模糊), 7/15 (清晰), 5/15 (稍糊) of the 15 known rows."""
    r = {"模糊": Fraction(3, 15), "清晰": Fraction(7, 15), "稍糊": Fraction(5, 15)}
    return r, {
        # 模糊: rows 11, 12, 16 (bad) + row 8 (good) and row 10 (bad) at 3/15 each
        "模糊": (3 + Fraction(1, 5), Fraction(1, 5)),
        # 清晰: rows 1-6 (good), 15 (bad) + rows 8 and 10 at 7/15: (1 + 7/15, 6 + 7/15)
        "清晰": (1 + Fraction(7, 15), 6 + Fraction(7, 15)),
        # 稍糊: row 7 (good), rows 9, 13, 14, 17 (bad) + rows 8 and 10 at 1/3
        "稍糊": (4 + Fraction(1, 3), 1 + Fraction(1, 3)),
    }


def test_root_branch_fractions_and_child_weights(c45_tree):
    r, expected = hand_children_of_texture()
    step = c45_tree.steps[0]
    assert step.test.attribute == "纹理"
    values = [label.removeprefix("= ") for label in step.test.branch_labels]
    assert step.branch_fractions == pytest.approx([float(r[v]) for v in values], abs=1e-15)
    for value, weights in zip(values, step.child_weights):
        assert weights == pytest.approx([float(x) for x in expected[value]], abs=1e-12), value
    # the weights of the 17 rows are conserved: 15 known + 2 x (3 + 7 + 5)/15
    assert sum(sum(w) for w in step.child_weights) == pytest.approx(17, abs=1e-12)
    for child in c45_tree.root.children:
        value = child.branch.removeprefix("= ")
        assert child.class_weights == pytest.approx([float(x) for x in expected[value]], abs=1e-12)
        assert child.weight == pytest.approx(float(sum(expected[value])), abs=1e-12)


def test_second_level_gains_use_the_fractional_weights(c45_tree):
    # At 纹理 = 清晰 the rows are 1-6, 15 with weight 1 and rows 8, 10 with weight 7/15
    # (total 119/15). rho, p~ and r~ are ratios of these weights (seed 000 eq. 9): e.g. 色泽 is
    # missing on rows 1 and 5, so rho = (119/15 - 2) / (119/15) = 89/119.
    node = next(n for n in c45_tree.root.children if n.branch == "= 清晰")
    rows = [ZHOU_2ALPHA[i - 1] for i in (1, 2, 3, 4, 5, 6, 15, 8, 10)]
    weights = [Fraction(1)] * 7 + [Fraction(7, 15)] * 2
    table = node.source.table
    for attribute in ATTRIBUTES:
        if attribute == "纹理":
            continue  # one value left at this node: no candidate
        rho, p, r, per_value, missing = weighted_stats(rows, weights, attribute)
        row = row_of(table, attribute)
        assert row["n"] == pytest.approx(float(Fraction(119, 15)), abs=1e-12)
        assert row["known"] == pytest.approx(float(rho), abs=1e-12), attribute
        assert row["gain"] == pytest.approx(hand_gain(rho, p, r, per_value), abs=1e-12), attribute
        sizes = [sum(c) for c in per_value.values()] + [sum(missing)]
        assert row["split_info"] == pytest.approx(exact.split_info(sizes), abs=1e-12), attribute
    assert row_of(table, "色泽")["known"] == pytest.approx(89 / 119, abs=1e-12)


def test_weights_multiply_down_the_tree():
    # A hand-made table: row 8 misses both a and b. ID3 splits a first (by hand: a gives
    # (3Y, 1N) | (0Y, 3N) on the 7 known rows, b gives (2Y, 2N) | (1Y, 2N), a has the larger
    # gain); row 8 enters a = s with 4/7, then b = p and b = q with 4/7 * 2/4 = 2/7 each.
    frame = pd.DataFrame({
        "a": ["s", "s", "s", "s", "t", "t", "t", None],
        "b": ["p", "p", "q", "q", "p", "q", "p", None],
        "y": ["Y", "Y", "Y", "N", "N", "N", "N", "Y"],
    })
    tree = dtlearn.fit(dtlearn.Dataset(frame, "y"), "id3")
    assert tree.root.test.attribute == "a"
    assert tree.root.branch_fractions == pytest.approx((4 / 7, 3 / 7), abs=1e-15)
    by_path = {n.path: n for n in tree.nodes()}
    # (N, Y) weights by hand
    expected = {
        ("a = s",): (1, 3 + Fraction(4, 7)),
        ("a = t",): (3, Fraction(3, 7)),
        ("a = s", "b = p"): (0, 2 + Fraction(2, 7)),
        ("a = s", "b = q"): (1, 1 + Fraction(2, 7)),
    }
    for path, weights in expected.items():
        assert by_path[path].class_weights == pytest.approx([float(w) for w in weights], abs=1e-12), path
    assert by_path[("a = s",)].branch_fractions == pytest.approx((0.5, 0.5), abs=1e-15)


# --- prediction with missing values -------------------------------------------------------------

def test_predict_proba_combines_leaves_by_branch_fraction(c45_tree):
    # A melon with 纹理 missing, 根蒂 = 蜷缩, 敲声 = 沉闷 goes down all three branches:
    #   模糊 (3/15): leaf (16/5 bad, 1/5 good)           -> (16/17, 1/17)
    #   清晰 (7/15): 根蒂 = 蜷缩: rows 1-5, all good     -> (0, 1)
    #   稍糊 (5/15): 敲声 = 沉闷: rows 9, 14, 17 (bad)   -> (1, 0)
    # P = 1/5 (16/17, 1/17) + 7/15 (0, 1) + 1/3 (1, 0) = (133/255, 122/255).
    bad = Fraction(1, 5) * Fraction(16, 17) + Fraction(1, 3)
    good = Fraction(1, 5) * Fraction(1, 17) + Fraction(7, 15)
    assert (bad, good) == (Fraction(133, 255), Fraction(122, 255))
    row = frame_row(根蒂="蜷缩", 敲声="沉闷")
    np.testing.assert_allclose(c45_tree.predict_proba(row), [[float(bad), float(good)]], rtol=0, atol=1e-12)
    assert list(c45_tree.predict(row)) == [BAD]


def test_predict_proba_with_a_missing_value_below_the_root(c45_tree):
    # 纹理 = 清晰 and 根蒂 missing: the branches of 根蒂 at that node weigh (of 119/15)
    # 硬挺 7/15 (row 10), 稍蜷 2 + 7/15 (rows 6, 15, 8), 蜷缩 5 (rows 1-5): 7/119, 37/119, 75/119.
    # Leaves: 硬挺 (1, 0); 稍蜷 (1 bad, 1 + 7/15 good) = (15/37, 22/37); 蜷缩 (0, 1).
    # P(bad) = 7/119 + 37/119 * 15/37 = 22/119; P(good) = 37/119 * 22/37 + 75/119 = 97/119.
    node = next(n for n in c45_tree.root.children if n.branch == "= 清晰")
    assert node.test.attribute == "根蒂"
    assert node.branch_fractions == pytest.approx([7 / 119, 37 / 119, 75 / 119], abs=1e-12)
    row = frame_row(纹理="清晰")
    np.testing.assert_allclose(c45_tree.predict_proba(row), [[22 / 119, 97 / 119]], rtol=0, atol=1e-12)


def test_most_frequent_fills_with_the_training_mode(c45_tree):
    # Training modes of Table 4.4, counted by hand over the known cells: 纹理 清晰 7 (模糊 3,
    # 稍糊 5); 色泽 乌黑 6; 根蒂 蜷缩 7; 敲声 浊响 8; 脐部 凹陷 7; 触感 硬滑 10.
    assert c45_tree.fill_values == {"色泽": "乌黑", "根蒂": "蜷缩", "敲声": "浊响", "纹理": "清晰",
                                    "脐部": "凹陷", "触感": "硬滑"}
    # 纹理 missing -> 清晰, then 根蒂 = 蜷缩 -> the pure good leaf (rows 1-5): P = (0, 1), whereas
    # distributing gives (133/255, 122/255) and predicts bad (test above).
    row = frame_row(根蒂="蜷缩", 敲声="沉闷")
    np.testing.assert_allclose(c45_tree.predict_proba(row, missing="most_frequent"), [[0.0, 1.0]], atol=1e-15)
    assert list(c45_tree.predict(row, missing="most_frequent")) == [GOOD]
    assert list(c45_tree.predict(row)) == [BAD]


def test_most_frequent_ties_and_numeric_median():
    # tree.py/induction.fill_values: a tie between modes goes to the first value in text order,
    # a numeric attribute is filled with its median. c: 'v' and 'u' twice each -> 'u';
    # x: median of (1, 2, 4, 10) = 3.
    frame = pd.DataFrame({"c": ["v", "u", "v", "u", None], "x": [1.0, 2.0, 4.0, 10.0, None],
                          "y": ["A", "A", "B", "B", "A"]})
    tree = dtlearn.fit(dtlearn.Dataset(frame, "y"), "cart", max_depth=1)
    assert tree.fill_values == {"c": "u", "x": 3.0}
    with pytest.raises(ValueError, match="missing must be 'distribute' or 'most_frequent'"):
        tree.predict(frame, missing="mode")


def test_own_value_makes_missing_a_category(melons):
    # seed 003's "missing data" branch: with missing_values="own_value" a missing cell is the
    # value "(missing)"; nothing is unknown any more (rho = 1) and gains are plain ID3 gains over
    # four (or three) values. 色泽: (missing) rows 1, 5, 13 -> (1 bad, 2 good).
    table = dtlearn.split_table(melons, "c45", missing_values="own_value")
    gains, ratios = {}, {}
    for attribute in ATTRIBUTES:
        row = row_of(table, attribute)
        i = ATTRIBUTES.index(attribute)
        values = sorted({r[i] if r[i] is not None else "(missing)" for r in ZHOU_2ALPHA})
        rows = [tuple("(missing)" if v is None else v for v in r) for r in ZHOU_2ALPHA]
        branches = exact.counts_by(rows, i, values, CLASSES)
        assert row["known"] == 1.0
        assert [label.removeprefix("= ") for label in row["branches"]] == values
        assert "(missing)" in values
        assert row["gain"] == pytest.approx(exact.info_gain(branches), abs=1e-12), attribute
        # the split info equals the fractional one: (missing) is the extra branch either way
        assert row["split_info"] == pytest.approx(exact.split_info([sum(b) for b in branches]), abs=1e-12)
        gains[attribute] = exact.info_gain(branches)
        ratios[attribute] = gains[attribute] / exact.split_info([sum(b) for b in branches])
    assert row_of(table, "色泽")["branch_counts"][0] == (1.0, 2.0)
    # C4.5's choice by hand: highest gain ratio among the at-least-average gains -> 纹理
    average = sum(gains.values()) / len(gains)
    best = max((a for a in ATTRIBUTES if gains[a] >= average), key=ratios.get)
    assert best == "纹理"
    assert list(table.loc[table["chosen"], "attribute"]) == [best]


def test_own_value_tree_sends_missing_rows_down_their_own_branch(melons):
    # By hand (rows of Table 4.4): 纹理 = (missing) holds rows 8 (good) and 10 (bad), 1:1.
    # The c45 own_value tree splits the root on 纹理 (by hand in the test above), and the
    # (missing) branch is a leaf of (1, 1): a row with 纹理 missing gets (1/2, 1/2) -> first
    # class on the tie, 否, not the C4.5 combination of the three branches.
    tree = dtlearn.fit(melons, "c45", missing_values="own_value")
    assert tree.root.test.attribute == "纹理"
    branch = next(c for c in tree.root.children if c.branch == "= (missing)")
    assert branch.class_weights == (1.0, 1.0)
    row = frame_row(根蒂="蜷缩", 敲声="沉闷")
    np.testing.assert_allclose(tree.predict_proba(row), [[0.5, 0.5]], atol=1e-15)
    assert list(tree.predict(row)) == [BAD]
    # the same row in the fractional tree is spread: not (1/2, 1/2)
    assert not math.isclose(dtlearn.fit(melons, "c45").predict_proba(row)[0, 0], 0.5)
