"""The four textbooks' tables as printed (tests/fixtures/books/, sources in its README): read as a
student copies them, with the id column and the units, each gives the book's root and first numbers.

Every expected value is derived here from the class counts of the printed table, as exact
fractions (Gini) or exact proportions through math.log2 (entropy: tests/exact.py); the book's own
printed (rounded or truncated) figure is checked to be that value within the book's last digit.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import exact
import pandas as pd
import pytest

import dtlearn

BOOKS = Path(__file__).resolve().parent / "fixtures" / "books"
MITCHELL = BOOKS / "mitchell_1997_table_3_2.csv"
HAN = BOOKS / "han_2012_table_8_1.csv"
TAN = BOOKS / "tan_2006_figure_4_6.csv"
GOLF = BOOKS / "quinlan_1993_golf.csv"
GOLF_UNKNOWN = BOOKS / "quinlan_1993_golf_unknown_outlook.csv"


def root(data: dtlearn.Dataset, algorithm: str):
    """The root's split step and each attribute's best candidate row (by attribute)."""
    step = next(s for s in dtlearn.fit(data, algorithm).steps if s.action == "split")
    table = step.candidates.frame(step.candidates.best_rows())
    return step, {row["attribute"]: row for _, row in table.iterrows()}


def counts(path: Path, attribute: str, classes: tuple[str, ...]) -> list[list[int]]:
    """Class counts of each value of `attribute`, counted from the printed table with pandas."""
    table = pd.read_csv(path, dtype=str, keep_default_na=False)
    target = table.columns[-1]
    known = table[table[attribute] != "?"]
    return [[int(((known[attribute] == v) & (known[target] == c)).sum()) for c in classes]
            for v in sorted(known[attribute].unique())]


def book(printed: str, value: float) -> None:
    """The book prints `value` as `printed` (rounded or truncated in its last digit)."""
    assert abs(float(printed) - value) < 10 ** -(len(printed.split(".")[1])), (printed, value)


def test_mitchell_day_is_left_out_and_id3_splits_outlook_with_gain_0_246():
    # Mitchell (1997), section 3.4.2: Gain(S, Outlook) = 0.246, Humidity 0.151, Wind 0.048,
    # Temperature 0.029; the Day column (D1..D14) would take the root with its whole entropy, 0.940
    data = dtlearn.read_csv(MITCHELL)
    assert data.attributes == ("Outlook", "Temperature", "Humidity", "Wind")
    assert any("'Day' (D1, D2, …, D14) is left out as an identifier" in note for note in data.notes)
    step, best = root(data, "id3")
    assert step.test.attribute == "Outlook"
    for attribute, printed in (("Outlook", ".246"), ("Humidity", ".151"), ("Wind", ".048"), ("Temperature", ".029")):
        gain = exact.info_gain(counts(MITCHELL, attribute, ("No", "Yes")))
        assert best[attribute]["gain"] == pytest.approx(gain, abs=1e-12)
        assert int(gain * 1000) == int(printed[1:])  # Mitchell truncates: .2467 is printed .246
    assert step.score == pytest.approx(exact.info_gain(counts(MITCHELL, "Outlook", ("No", "Yes"))), abs=1e-12)


def test_han_rid_is_left_out_and_every_algorithm_takes_age():
    # Han, Kamber & Pei (2012), section 8.2.2: Gain(age) = 0.246, income 0.029, student 0.151,
    # credit_rating 0.048 (Example 8.1); Gini(D) = 0.459, the best split age in {youth, senior}
    # with Gini 0.357, a reduction of 0.102, and income in {low, medium} 0.443 (Example 8.3)
    data = dtlearn.read_csv(HAN)
    assert data.target == "Class: buys_computer" and "RID" not in data.frame.columns
    classes = ("no", "yes")
    step, best = root(data, "id3")
    assert step.test.attribute == "age"
    for attribute, printed in (("age", "0.246"), ("income", "0.029"), ("student", "0.151"),
                               ("credit_rating", "0.048")):
        gain = exact.info_gain(counts(HAN, attribute, classes))
        assert best[attribute]["gain"] == pytest.approx(gain, abs=1e-12)
        book(printed, gain)
    step, _ = root(data, "c45")
    assert step.test.attribute == "age"
    step, best = root(data, "cart")
    youth_senior = [[5, 5]]  # youth (3 no, 2 yes) and senior (2 no, 3 yes) together
    middle_aged = [[0, 4]]
    assert step.test.attribute == "age" and {frozenset(step.test.left), frozenset(step.test.right)} == {
        frozenset({"middle_aged"}), frozenset({"youth", "senior"})}
    gini_after = exact.gini_after(youth_senior + middle_aged)
    assert gini_after == Fraction(5, 14) and best["age"]["gini_after"] == pytest.approx(float(gini_after), abs=1e-12)
    parent = exact.gini([5, 9])
    book("0.459", float(parent))
    book("0.357", float(gini_after))
    book("0.102", float(parent - gini_after))
    assert step.score == pytest.approx(float(parent - gini_after), abs=1e-12)
    low_medium, high = [[1, 3], [2, 4]], [[2, 2]]  # low (1 no, 3 yes), medium (2 no, 4 yes); high 2 / 2
    income = exact.gini_after([[sum(c) for c in zip(*low_medium)]] + high)
    book("0.443", float(income))
    assert best["income"]["gini_after"] == pytest.approx(float(income), abs=1e-12)


def test_tan_tid_is_left_out_and_annual_income_splits_at_97_5_thousand():
    # Tan, Steinbach & Kumar (2006), section 4.3 (Figure 4.16): the Gini of Annual Income at
    # its best position, 97 (the midpoint 97.5), is 0.300, against 0.420 at the node: a
    # reduction of 0.12, which Marital Status in {Married} ties
    data = dtlearn.read_csv(TAN)
    assert "Tid" not in data.frame.columns and data.kinds["Annual Income"] == "numeric"
    assert data.frame["Annual Income"].tolist() == [125, 100, 70, 120, 95, 60, 220, 85, 75, 90]
    step, best = root(data, "cart")
    at_97_5 = [[3, 3], [4, 0]]  # (No, Yes) at or below 97.5: 60, 70, 75, 85, 90, 95; above: 100..220
    assert best["Annual Income"]["threshold"] == 97.5
    assert best["Annual Income"]["gini_after"] == pytest.approx(float(exact.gini_after(at_97_5)), abs=1e-12)
    assert exact.gini_after(at_97_5) == Fraction(3, 10) and exact.gini([7, 3]) == Fraction(21, 50)
    reduction = exact.gini([7, 3]) - exact.gini_after(at_97_5)
    assert reduction == Fraction(3, 25)
    assert step.score == pytest.approx(float(reduction), abs=1e-12)  # the root, whichever of the tie it names
    assert step.test.attribute in ("Annual Income", "Marital Status")


def test_quinlan_golf_numbers_are_attributes_and_c45_splits_outlook():
    # Quinlan (1993), chapter 2: gain(Outlook) = 0.246, split info 1.577, gain ratio 0.156.
    # Temperature and humidity are numbers whose values repeat: no identifier, no unit
    data = dtlearn.read_csv(GOLF)
    assert data.attributes == ("Outlook", "Temp (°F)", "Humidity (%)", "Windy?") and data.notes == ()
    assert data.kinds["Temp (°F)"] == data.kinds["Humidity (%)"] == "numeric"
    step, best = root(data, "c45")
    branches = counts(GOLF, "Outlook", ("Don't Play", "Play"))
    assert step.test.attribute == "Outlook"
    gain, split = exact.info_gain(branches), exact.split_info([sum(b) for b in branches])
    assert best["Outlook"]["gain"] == pytest.approx(gain, abs=1e-12)
    assert best["Outlook"]["split_info"] == pytest.approx(split, abs=1e-12)
    assert best["Outlook"]["gain_ratio"] == pytest.approx(gain / split, abs=1e-12)
    book("0.246", gain)  # 0.2467: Quinlan subtracts the rounded 0.940 - 0.694
    book("1.577", split)
    book("0.156", gain / split)


def test_quinlan_golf_with_an_unknown_outlook():
    # Quinlan (1993), chapter 3: with one Outlook unknown, gain = 13/14 x (0.961 - 0.747) =
    # 0.199, split info 1.809 (the unknown a subset of its own), gain ratio 0.110
    data = dtlearn.read_csv(GOLF_UNKNOWN)
    assert data.frame["Outlook"].isna().sum() == 1
    step, best = root(data, "c45")
    branches = counts(GOLF_UNKNOWN, "Outlook", ("Don't Play", "Play"))  # the 13 known cases
    gain = float(Fraction(13, 14)) * exact.info_gain(branches)
    split = exact.split_info([sum(b) for b in branches] + [1])
    assert step.test.attribute == "Outlook"
    assert best["Outlook"]["gain"] == pytest.approx(gain, abs=1e-12)
    assert best["Outlook"]["gain_ratio"] == pytest.approx(gain / split, abs=1e-12)
    book("0.199", gain)
    book("1.809", split)
    book("0.110", gain / split)


@pytest.mark.parametrize("path, identifier", [(MITCHELL, "Day"), (HAN, "RID"), (TAN, "Tid")])
def test_a_printed_id_column_is_kept_when_asked(path, identifier):
    kept = dtlearn.read_csv(path, identifiers="keep")
    assert kept.attributes[0] == identifier and not any("identifier" in note for note in kept.notes)
    given = dtlearn.read_csv(path, kinds={identifier: "categorical"})
    assert given.kinds[identifier] == "categorical"
