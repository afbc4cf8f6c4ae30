"""Checking a textbook exercise (issue 32, points 3-5): every candidate listed and checkable, ties
right, and the grader agreeing with the formulas the page shows.

The tables are typed here from the books (the rows as printed), every expected value derived
from them with exact fractions (`tests/exact.py`), never read from dtlearn:

* Tan, Steinbach & Kumar, Introduction to Data Mining (2006), the loan table of Figure 4.6:
  Tid 1..10 (an identifier, left out), Home Owner, Marital Status, Annual Income (printed as
  "125K": typed in thousands), Defaulted Borrower.
* Quinlan, C4.5: Programs for Machine Learning (1993), the golf data of Figure 2-1 (Outlook,
  Temp (°F), Humidity (%), Windy?, Class).
* Mitchell, Machine Learning (1997), Table 3.2 (PlayTennis; `conftest.MITCHELL_TENNIS`); on
  p. 61 he prints the gains at the Sunny node as .970 (Humidity), .570 (Temperature), .019
  (Wind): cut off after three decimals.
"""

from __future__ import annotations

from decimal import ROUND_DOWN, Decimal
from fractions import Fraction

import pandas as pd
import pytest

import dtlearn
from dtlearn import derivation, grading, quiz
from dtlearn.by_hand import compare, grow_by_hand
from dtlearn.grading import Work, grade
from tests.conftest import MITCHELL_TENNIS
from tests.exact import entropy, gini, gini_after, info_gain, two_way_partitions

TAN = pd.DataFrame({
    "Home Owner": ["Yes", "No", "No", "Yes", "No", "No", "Yes", "No", "No", "No"],
    "Marital Status": ["Single", "Married", "Single", "Married", "Divorced", "Married", "Divorced", "Single",
                       "Married", "Single"],
    "Annual Income": [125, 100, 70, 120, 95, 60, 220, 85, 75, 90],
    "Defaulted": ["No", "No", "No", "No", "Yes", "No", "No", "Yes", "No", "Yes"],
})
GOLF = pd.DataFrame([
    ("sunny", 75, 70, "true", "Play"), ("sunny", 80, 90, "true", "Don't Play"),
    ("sunny", 85, 85, "false", "Don't Play"), ("sunny", 72, 95, "false", "Don't Play"),
    ("sunny", 69, 70, "false", "Play"), ("overcast", 72, 90, "true", "Play"), ("overcast", 83, 78, "false", "Play"),
    ("overcast", 64, 65, "true", "Play"), ("overcast", 81, 75, "false", "Play"),
    ("rain", 71, 80, "true", "Don't Play"), ("rain", 65, 70, "true", "Don't Play"), ("rain", 75, 80, "false", "Play"),
    ("rain", 68, 80, "false", "Play"), ("rain", 70, 96, "false", "Play"),
], columns=["Outlook", "Temp", "Humidity", "Windy", "Class"])
CLASSES = ("No", "Yes")  # Tan's classes, in dtlearn's order (sorted)


def tan() -> dtlearn.Tree:
    return dtlearn.fit(dtlearn.Dataset(TAN, "Defaulted"), "cart")


def golf() -> dtlearn.Tree:
    return dtlearn.fit(dtlearn.Dataset(GOLF, "Class"), "c45")


def counts(frame, target, mask) -> list[int]:
    """(No, Yes) or (Don't Play, Play): the class counts of the rows in `mask`."""
    classes = sorted(frame[target].unique())
    return [int(((frame[target] == c) & mask).sum()) for c in classes]


def sides(frame, target, attribute, inside) -> list[list[int]]:
    in_ = frame[attribute].isin(inside) if isinstance(inside, frozenset) else frame[attribute] <= inside
    return [counts(frame, target, in_), counts(frame, target, ~in_)]


def value_set(test: str) -> frozenset:
    return frozenset(v.strip() for v in test.split(" in {", 1)[1].rstrip("}").split(","))


# every candidate -----------------------------------------------------------------------------

def test_cart_lists_every_partition_of_a_category_and_names_the_shortcut():
    """Tan's Marital Status has three values: 2^(3-1) - 1 = 3 two-way partitions. Breiman's
    shortcut scores 3 - 1 = 2 of them; the third ({Divorced}: Gini after 2/10 x 1/2 + 8/10 x 3/8 =
    2/5, Tan's 0.400) is listed after them, its reason naming the shortcut, and never chosen."""
    table = dtlearn.split_table(dtlearn.Dataset(TAN, "Defaulted"), "cart")
    rows = table[table["attribute"] == "Marital Status"]
    values = set(TAN["Marital Status"])
    listed = {frozenset([value_set(t), frozenset(values) - value_set(t)]) for t in rows["test"]}
    assert listed == {frozenset(p) for p in two_way_partitions(values)} and len(rows) == 3
    for _, row in rows.iterrows():
        expected = gini_after(sides(TAN, "Defaulted", "Marital Status", value_set(row["test"])))
        assert row["gini_after"] == pytest.approx(float(expected), abs=1e-15)
    assert "Marital Status in {Divorced}" in set(rows["test"])
    assert gini_after(sides(TAN, "Defaulted", "Marital Status", frozenset({"Divorced"}))) == Fraction(2, 5)
    skipped = rows[~rows["eligible"]]
    assert len(skipped) == 1 and "Breiman" in skipped.iloc[0]["reason"] and "not scored" in skipped.iloc[0]["reason"]
    assert list(rows.index[:2]) == list(rows.index[rows["eligible"]])  # the scored ones first
    best = min(gini_after(sides(TAN, "Defaulted", "Marital Status", value_set(t))) for t in rows["test"])
    assert rows[rows["eligible"]]["gini_after"].min() == pytest.approx(float(best), abs=1e-15)  # Thm 4.5
    cuts = table[table["attribute"] == "Annual Income"]
    assert len(cuts) == TAN["Annual Income"].nunique() - 1  # every cut of the number


@pytest.mark.parametrize("limit, listed", [(5, 2 ** (5 - 1) - 1), (4, 5 - 1)])
def test_past_max_exhaustive_values_only_the_ordered_subsets_are_listed(limit, listed):
    """Five values, two classes: all 15 partitions up to max_exhaustive_values = 5; past it the
    4 sets of Breiman's ordering, with a note saying why the others are not listed."""
    frame = pd.DataFrame({"v": list("abcde") * 2, "y": ["p", "q", "p", "q", "q", "p", "p", "q", "q", "q"]})
    table = dtlearn.split_table(dtlearn.Dataset(frame, "y"), "cart", max_exhaustive_values=limit)
    assert len(table) == listed
    if listed == 4:
        assert (table["reason"].str.contains("every partition is listed up to max_exhaustive_values = 4")).all()


def test_c45_offers_the_cut_its_attribute_competes_with_not_the_first():
    """Golf, C4.5 (J48's rules) at the root: every cut is left out, the ones with fewer than 2
    cases on a side (J48's minimum: max(2, 0.1 x 14 / 2 classes)) by that rule, the others for
    their corrected gain. The cut a page lists first for an attribute is the one with the highest
    gain among those with 2 cases a side, not its first cut (Temp <= 64.5: 1 case)."""
    tree = golf()
    root = tree.steps[0]
    best = [int(i) for i in root.candidates.best_rows()]
    table = root.table
    for attribute in ("Temp", "Humidity"):
        values = sorted(GOLF[attribute].unique())
        cuts = [(a + b) / 2 for a, b in zip(values, values[1:])]
        allowed = [c for c in cuts if min((GOLF[attribute] <= c).sum(), (GOLF[attribute] > c).sum()) >= 2]
        wanted = max(allowed, key=lambda c: info_gain(sides(GOLF, "Class", attribute, c)))
        offered = [i for i in best if table.loc[i, "attribute"] == attribute]
        assert len(offered) == 1 and table.loc[offered[0], "threshold"] == wanted, (attribute, wanted)
        assert wanted != cuts[0]
    assert table.loc[[i for i in best if table.loc[i, "attribute"] == "Humidity"][0], "threshold"] == 82.5


# ties ------------------------------------------------------------------------------------------

def test_tans_root_tie_is_right_in_the_checker_the_quiz_and_by_hand():
    """Gini(D) = 1 - (7/10)^2 - (3/10)^2 = 21/50; {Married} (4 No | 3 No 3 Yes) and Annual Income
    <= 97.5 (3 No 3 Yes | 4 No) both leave 3/10: a decrease of exactly 3/25 = 0.12 each. The tie
    goes to Marital Status, first in the table."""
    married = sides(TAN, "Defaulted", "Marital Status", frozenset({"Married"}))
    income = sides(TAN, "Defaulted", "Annual Income", 97.5)
    assert gini(counts(TAN, "Defaulted", TAN["Defaulted"] == TAN["Defaulted"])) == Fraction(21, 50)
    assert Fraction(21, 50) - gini_after(married) == Fraction(21, 50) - gini_after(income) == Fraction(3, 25)
    tree = tan()
    root = tree.steps[0]
    assert root.test.describe() == "Marital Status in {Married}"
    checked = grade(Work.of(root), "attribute", "Annual Income")
    assert checked.right and "ties with" in checked.message and "first in the table" in checked.message
    guess = quiz.check(root, "Annual Income", "Annual Income <= 97.5")
    assert guess.verdict == "right" and guess.points == 1.0 and "first in the table" in guess.message
    assert quiz.check(root, "Annual Income").points == 1.0  # its best test is the tied cut
    assert quiz.check(root, "Annual Income", "Annual Income <= 80").points == 0.0
    hand = grow_by_hand(tree, {(): "Annual Income <= 97.5"})
    assert "tie" in hand.steps[0].reason and "first in the table" in hand.steps[0].reason
    comparison = compare(hand, tree)
    assert comparison.first_difference == "the root" and "first in the table" in comparison.tie


# the grader agrees with the page ---------------------------------------------------------------

def test_the_value_the_formula_panel_gives_from_its_rounded_values_is_right():
    """Golf, C4.5, root: Gain(Outlook) = Ent(9, 5) - 5/14 Ent(2, 3) - 5/14 Ent(3, 2) = 0.2467 and
    IV = Ent(5, 4, 5) = 1.5774; the ratio 0.1564 rounds to 0.156, while the rounded values the
    panel shows give 0.247 / 1.577 = 0.1566, 0.157, and the panel says so."""
    gain = entropy((5, 9)) - 2 * 5 / 14 * entropy((2, 3))
    info = entropy((5, 4, 5))
    assert (round(gain, 3), round(info, 3), round(gain / info, 3)) == (0.247, 1.577, 0.156)
    assert round(0.247 / 1.577, 3) == 0.157
    work = Work.of(golf().steps[0])
    assert work.exact("gain_ratio") == pytest.approx(gain / info, abs=1e-12)
    assert any("give 0.157" in line for line in derivation.gain_ratio(work.row_mapping(), digits=3))
    result = grade(work, "gain_ratio", "0.157")
    assert result.right and "worked formula" in result.message


def test_mitchells_truncated_gains_are_named_as_his():
    """Mitchell's Sunny node (D1, D2, D8, D9, D11: 3 No, 2 Yes): Gain(Humidity) = Ent(3, 2) =
    0.97095, Gain(Temperature) = 0.97095 - 2/5, Gain(Wind) = 0.97095 - 3/5 Ent(2, 1) - 2/5; he
    prints .970, .570, .019: the exact values cut off after three decimals."""
    frame = pd.DataFrame(MITCHELL_TENNIS, columns=["outlook", "temperature", "humidity", "wind", "play"])
    step = next(s for s in dtlearn.fit(dtlearn.Dataset(frame, "play"), "id3").steps if s.path == ("outlook = Sunny",))
    sunny = entropy((3, 2))
    gains = {"humidity": sunny, "temperature": sunny - 2 / 5, "wind": sunny - 3 / 5 * entropy((2, 1)) - 2 / 5}
    printed = {"humidity": ".970", "temperature": ".570", "wind": ".019"}
    rows = {step.table.loc[i, "attribute"]: i for i in step.table.index}
    for attribute, gain in gains.items():
        cut = Decimal(repr(gain)).quantize(Decimal("0.001"), rounding=ROUND_DOWN)
        assert f"{cut}"[1:] == printed[attribute] and round(gain, 3) != float(cut)
        result = grade(Work.of(step, rows[attribute]), "gain", printed[attribute])
        assert "truncated" in [m.key for m in result.mistakes] and "Mitchell (1997)" in result.message


def test_c45_writes_one_threshold_in_the_table_the_tree_and_the_feedback():
    """Golf, C4.5, the sunny node: humidity 70, 70 | 85, 90, 95 (Play, Play | three Don't Play);
    the midpoint is 77.5 and the largest humidity of the whole table not above it is 75 (an
    overcast day), which the tree tests (Quinlan 1993, as J48). Entering 70, the node's own
    value, names that mistake; 77.5, the midpoint."""
    sunny_rows = GOLF[GOLF["Outlook"] == "sunny"]
    below = sunny_rows["Humidity"][sunny_rows["Humidity"] <= 77.5].max()
    above = sunny_rows["Humidity"][sunny_rows["Humidity"] > 77.5].min()
    assert (below + above) / 2 == 77.5
    cut = GOLF["Humidity"][GOLF["Humidity"] <= 77.5].max()
    assert cut == 75 and 75 not in set(sunny_rows["Humidity"])
    step = next(s for s in golf().steps if s.path == ("Outlook = sunny",))
    assert step.test.describe() == "Humidity <= 75"
    chosen = step.table.loc[step.chosen_row]
    assert chosen["test"] == "Humidity <= 75" and chosen["branches"] == ("<= 75", "> 75")
    assert chosen["threshold"] == 77.5  # the midpoint the cut is scored at
    work = Work.of(step)
    assert grade(work, "threshold", "75").right
    node_value = grade(work, "threshold", "70")
    assert [m.key for m in node_value.mistakes] == ["node_value"]
    assert "whole training set" in node_value.message and "The threshold is 75" in node_value.message
    assert "lower one, 70" not in node_value.message
    assert [m.key for m in grade(work, "threshold", "77.5").mistakes] == ["midpoint"]


# another candidate's value, and a column at once -----------------------------------------------

def test_a_number_that_is_another_candidates_value_says_which():
    """Tan: the Gini after Annual Income <= 80 is 3/10 x 0 + 7/10 x 24/49 = 12/35 = 0.343 (the
    book's 0.343 at 80); entered for Marital Status in {Divorced} (2/5), the grade names it."""
    at_80 = gini_after(sides(TAN, "Defaulted", "Annual Income", 80))
    assert at_80 == Fraction(12, 35) and f"{float(at_80):.3f}" == "0.343"
    root = tan().steps[0]
    row = int(root.table.index[root.table["test"] == "Marital Status in {Divorced}"][0])
    result = grade(Work.of(root, row), "gini_after", "0.343")
    assert not result.right and "Annual Income <= 80" in result.elsewhere
    assert "Annual Income <= 80" in result.message


def test_a_column_of_answers_is_graded_row_by_row():
    """Tan's exercise: the Gini after every cut of Annual Income, each from its own counts."""
    root = tan().steps[0]
    cuts = root.table[root.table["attribute"] == "Annual Income"]
    answers = {int(i): f"{float(gini_after(sides(TAN, 'Defaulted', 'Annual Income', row['threshold']))):.3f}"
               for i, row in cuts.iterrows()}
    first = next(iter(answers))
    answers[first] = "0.999"
    graded = grading.grade_column(root, "gini_after", answers)
    assert list(graded) == list(answers)
    assert [g.right for g in graded.values()] == [False] + [True] * (len(answers) - 1)
    with pytest.raises(ValueError, match="one number per candidate"):
        grading.grade_column(root, "attribute", answers)
