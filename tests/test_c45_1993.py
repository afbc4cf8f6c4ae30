"""C4.5 as in Quinlan (1993), a preset of its own (`c45_1993`), beside C4.5 Release 8 = Weka's J48 (`c45`).

The 1993 book's C4.5 (its programs, release 5: contin.c) picks a number's cut by gain ratio
among the attribute's cuts whose gain is at least their average, with no threshold correction;
release 8 (Quinlan 1996, as J48) picks the cut by gain and subtracts log2(cuts)/N from its gain.
Every expected value is derived here from the class counts of the printed table (pandas) with
`tests/exact.py` (exact proportions); the book's printed figure is checked to its last digit.
"""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import exact
import pandas as pd
import pytest

import dtlearn
from dtlearn import cli, quiz
from dtlearn.answers import Work
from dtlearn.comparison import COMPARED, compare_algorithms, with_version
from dtlearn.grading import grade
from dtlearn.worksheet import plain, worksheet

GOLF = Path(__file__).resolve().parent / "fixtures" / "books" / "quinlan_1993_golf.csv"  # Quinlan 1993, Fig. 1-2
CLASSES = ("Don't Play", "Play")
SUNNY = ("Outlook = sunny",)


def sunny_step(algorithm: str):
    tree = dtlearn.fit(dtlearn.read_csv(GOLF), algorithm)
    return tree, next(s for s in tree.steps if s.path == SUNNY and s.action == "split")


def sunny_humidity() -> tuple[list[list[int]], int]:
    """(class counts of each side of the sunny node's cut Humidity <= 75, the midpoint 77.5 of 70
    and 85), counted from the printed table; and how many cuts of Humidity there leave at least
    2 cases on each side (the cuts C4.5 counts: between distinct values)."""
    table = pd.read_csv(GOLF)
    sunny = table[table["Outlook"] == "sunny"]
    below = sunny["Humidity (%)"] <= 77.5
    sides = [[int(((sunny["Class"] == c) & side).sum()) for c in CLASSES] for side in (below, ~below)]
    values = sorted(sunny["Humidity (%)"].unique())
    cuts = sum(1 for v in values[:-1] if 2 <= (sunny["Humidity (%)"] <= v).sum() <= len(sunny) - 2)
    return sides, cuts


def book(printed: str, value: float) -> None:
    """The book prints `value` as `printed`, rounded in its last digit."""
    assert abs(float(printed) - value) <= 0.5 * 10 ** -(len(printed.split(".")[1])), (printed, value)


def test_the_1993_book_gives_humidity_at_the_sunny_node_a_gain_ratio_of_one():
    sides, _ = sunny_humidity()
    assert sides == [[0, 2], [3, 0]]  # 70, 70: Play; 85, 90, 95: Don't Play
    gain, split = exact.info_gain(sides), exact.split_info([sum(s) for s in sides])
    assert gain == split  # both sides pure: the gain is the whole entropy H(2/5, 3/5), as is the split info
    tree, step = sunny_step("c45_1993")
    assert step.test.describe() == "Humidity (%) <= 75"  # the largest training value below 77.5 (Quinlan 1993)
    assert step.score == pytest.approx(gain / split, abs=1e-12) and step.score == pytest.approx(1.0, abs=1e-12)
    row = step.table.loc[step.chosen_row]
    assert row["gain"] == pytest.approx(gain, abs=1e-12) and row["split_info"] == pytest.approx(split, abs=1e-12)
    assert row["correction"] == 0 or math.isnan(row["correction"])  # no threshold correction in 1993
    book("1.000", step.score)
    assert tree.settings.algorithm == "c45_1993" and not tree.settings.threshold_correction


def test_j48_keeps_its_threshold_correction_at_the_sunny_node():
    # Quinlan (1996) / J48: gain - log2(cuts)/N with the cuts that leave 2 cases a side (70|85 and 85|90)
    sides, cuts = sunny_humidity()
    assert cuts == 2
    gain, split = exact.info_gain(sides), exact.split_info([sum(s) for s in sides])
    _, step = sunny_step("c45")
    assert step.test.describe() == "Humidity (%) <= 75"
    assert step.score == pytest.approx((gain - math.log2(cuts) / 5) / split, abs=1e-12)
    book("0.794", step.score)


def test_both_versions_agree_at_the_golf_root_as_the_book_prints_it():
    # Quinlan (1993), chapter 2: gain(Outlook) = 0.246, split info 1.577, gain ratio 0.156
    table = pd.read_csv(GOLF)
    branches = [[int(((table["Outlook"] == v) & (table["Class"] == c)).sum()) for c in CLASSES]
                for v in ("overcast", "rain", "sunny")]
    gain, split = exact.info_gain(branches), exact.split_info([sum(b) for b in branches])
    for algorithm in ("c45_1993", "c45"):
        root = dtlearn.fit(dtlearn.read_csv(GOLF), algorithm).steps[0]
        assert root.test.attribute == "Outlook" and root.score == pytest.approx(gain / split, abs=1e-12)
    assert abs(gain - 0.246) < 1e-3 and abs(split - 1.577) < 5e-4 and abs(gain / split - 0.156) < 5e-4


# x = 1..8 with classes A A A A B A B B: the cut of highest gain (x <= 4.5) is not the cut of
# highest gain ratio among the cuts of at least average gain (x <= 6.5)
STAIRS = "x,y\n" + "".join(f"{x},{y}\n" for x, y in zip(range(1, 9), "AAAABABB"))


def stairs_cuts() -> dict[int, tuple[float, float]]:
    """{k: (gain, gain ratio)} of the cut after the k-th value, for the cuts with at least 2 rows
    a side (C4.5's minimum: max(2, min(25, 0.1 x 8 / 2 classes)))."""
    labels = "AAAABABB"
    cuts = {}
    for k in range(2, 7):
        sides = [[labels[:k].count(c) for c in "AB"], [labels[k:].count(c) for c in "AB"]]
        gain = exact.info_gain(sides)
        cuts[k] = (gain, gain / exact.split_info([k, 8 - k]))
    return cuts


def test_the_1993_book_picks_a_numbers_cut_by_gain_ratio_among_its_cuts_of_average_gain():
    cuts = stairs_cuts()
    average = sum(g for g, _ in cuts.values()) / len(cuts)
    by_gain = max(cuts, key=lambda k: cuts[k][0])
    by_ratio = max((k for k in cuts if cuts[k][0] >= average), key=lambda k: cuts[k][1])
    assert (by_gain, by_ratio) == (4, 6)
    data = dtlearn.read_table_text(STAIRS, identifiers="keep")
    book_tree = dtlearn.fit(data, "c45_1993", collapse=False)
    assert book_tree.root.test.describe() == "x <= 6"  # the midpoint 6.5, written as the value 6
    assert book_tree.steps[0].score == pytest.approx(cuts[6][1], abs=1e-12)
    table = book_tree.steps[0].table
    four = table[table["test"] == "x <= 4"].iloc[0]
    assert "highest gain ratio among its cuts whose gain is at least their average" in four["reason"]
    for options in ({}, {"threshold_correction": False}):  # release 8 picks by gain, corrected or not
        assert dtlearn.fit(data, "c45", collapse=False, **options).root.test.describe() == "x <= 4"


def test_the_two_versions_differ_only_in_the_rules_of_a_numbers_cut():
    book_rules, j48 = dtlearn.PRESETS["c45_1993"], dtlearn.PRESETS["c45"]
    assert replace(j48, algorithm="c45_1993", threshold_correction=False, threshold_by_ratio=True) == book_rules
    with pytest.raises(ValueError, match="two versions of C4.5: choose one"):
        dtlearn.make_settings("c45", threshold_by_ratio=True)


def test_the_checker_and_the_quiz_grade_the_books_number():
    _, step = sunny_step("c45_1993")
    assert grade(Work.of(step), "gain_ratio", "1.000").status == "right"
    assert quiz.check(step, "Humidity (%)").verdict == "right"
    guess = quiz.check(step, "Windy?")
    assert guess.verdict == "wrong" and "C4.5 as in Quinlan 1993 splits on Humidity (%) <= 75" in guess.message
    _, j48 = sunny_step("c45")
    assert grade(Work.of(j48), "gain_ratio", "1.000").status == "wrong"  # J48's is 0.794
    assert grade(Work.of(j48), "gain_ratio", "0.794").status == "right"


def test_the_worksheet_names_the_1993_book_and_asks_its_numbers():
    tree, step = sunny_step("c45_1993")
    sheet = worksheet(tree, step.number, step.number, dataset="golf")
    assert "C4.5 as in Quinlan 1993" in sheet.title and "C4.5 as in Quinlan 1993" in plain(sheet.introduction)
    answers = [plain(q.answer) for q in sheet.parts[0].questions]
    assert any("GainRatio = 1.000" in a for a in answers), answers
    j48 = worksheet(sunny_step("c45")[0], step.number, step.number, dataset="golf")
    assert "C4.5 Release 8 = Weka's J48 (Quinlan 1996)" in plain(j48.introduction)


def test_the_command_line_grows_the_1993_book_s_tree(capsys):
    steps = cli.run(["steps", str(GOLF), "--algorithm", "c45_1993"])
    assert "Split on Humidity (%) <= 75: highest gain ratio (1.0000)" in steps
    j48 = cli.run(["steps", str(GOLF), "-a", "c45"])
    assert "Split on Humidity (%) <= 75: highest gain ratio (after C4.5's threshold correction) (0.7940)" in j48
    with pytest.raises(SystemExit):
        cli.main(["table", "--help"])
    said = " ".join(capsys.readouterr().out.split())
    assert "c45_1993: C4.5 as in Quinlan 1993; c45: C4.5 Release 8 = Weka's J48 (Quinlan 1996)" in said


def test_compare_grows_the_c45_the_sidebar_chose():
    assert with_version("c45_1993") == ("id3", "c45_1993", "cart", "zaki")
    assert with_version("cart") == with_version("c45") == COMPARED == ("id3", "c45", "cart", "zaki")
    comparison = compare_algorithms(dtlearn.load_dataset("weather_numeric"), algorithms=with_version("c45_1993"))
    assert [r.algorithm for r in comparison.results] == list(with_version("c45_1993"))
    sunny = comparison.result("c45_1993").tree.steps[1]  # Weka's weather.numeric: golf's sunny rows
    assert sunny.test.describe() == "humidity <= 75" and sunny.score == pytest.approx(1.0, abs=1e-12)
