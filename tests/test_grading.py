"""Grading a student's numbers (dtlearn.grading).

Expected values are derived here from the class counts with `tests/exact.py` (exact
fractions, math.log2), never read from dtlearn. PlayTennis (Mitchell 1997, table 3.2): the
root holds 9 Yes / 5 No; Outlook splits it Sunny 2/3, Overcast 4/0, Rain 3/2 (Yes/No).
Mitchell (p. 60) prints Gain(S, Outlook) = 0.246: 0.940 - 0.694 with rounded operands; the
exact gain is 0.24675, which rounds to 0.247. Both answers are right.
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal

import pytest

import dtlearn
from dtlearn import grading
from dtlearn.grading import Reading, Work, grade, read_answer, rounded
from tests.exact import entropy, gini, weighted

NO_YES = [(3, 2), (0, 4), (2, 3)]  # Outlook's branches Sunny, Overcast, Rain as (No, Yes): dtlearn's class order


@pytest.fixture(scope="module")
def tennis_id3():
    return dtlearn.fit(dtlearn.load_dataset("tennis"), "id3")


@pytest.fixture(scope="module")
def outlook(tennis_id3) -> Work:
    return Work.of(tennis_id3.steps[0])


def independent(key: str, branch: int | None = None) -> float:
    """Each quantity of the Outlook split, from the counts alone."""
    node = (5, 9)
    sizes = [sum(b) for b in NO_YES]
    gain = entropy(node) - float(weighted(entropy, NO_YES))
    return {
        "node_entropy": entropy(node),
        "branch_entropy": entropy(NO_YES[branch]) if branch is not None else None,
        "entropy_after": float(weighted(entropy, NO_YES)),
        "gain": gain,
        "split_info": entropy(sizes),
        "gain_ratio": gain / entropy(sizes),
        "node_gini": float(gini(node)),
        "branch_gini": float(gini(NO_YES[branch])) if branch is not None else None,
        "gini_after": float(weighted(gini, NO_YES)),
        "gini_gain": float(gini(node) - weighted(gini, NO_YES)),
        "twoing": math.nan,  # defined for two branches (Breiman et al. 1984, ch. 4); Outlook has three
    }[key]


@pytest.mark.parametrize("key", grading.NUMERIC)
def test_exact_values_are_the_definitions(outlook, key):
    branches = range(3) if grading.QUANTITIES[key].per_branch else [None]
    for b in branches:
        assert outlook.exact(key, b) == pytest.approx(independent(key, b), abs=1e-12, nan_ok=True)


@pytest.mark.parametrize("text, value, decimals", [
    ("0.247", 0.247, 3), (" 0,2470 ", 0.247, 4), (".25", 0.25, 2), ("-0.5", -0.5, 1), ("24.7%", 0.247, 3),
    ("1", 1.0, 0), ("+1.50", 1.5, 2),
])
def test_reads_numbers_as_students_write_them(text, value, decimals):
    assert read_answer(text) == Reading(value, decimals)


def test_reads_fractions_exactly_and_refuses_words():
    assert read_answer("5/14") == Reading(5 / 14, None)
    for text in ("", "gain", "0.2.4", "1/0", "e", "0.2 4x", "--1"):
        assert read_answer(text) is None, text


def test_rounds_as_on_paper_not_as_binary_floats():
    assert round(2.675, 2) == 2.67  # the float 2.675 is 2.67499999...
    assert rounded(2.675, 2) == 2.68
    assert rounded(0.5 - 1e-17, 0) == 1.0
    assert rounded(-0.125, 2) == float(Decimal("-0.125").quantize(Decimal("0.01"), ROUND_HALF_UP))


@pytest.mark.parametrize("entered", ["0.247", "0.2467", "0.25", "0.24675", "0,247", "24.7%"])
def test_gain_right_when_it_is_the_exact_value_rounded(outlook, entered):
    result = grade(outlook, "gain", entered)
    assert result.status == "right", result.message


def test_mitchells_0_246_is_right_as_textbook_arithmetic(outlook):
    exact = independent("gain")
    assert f"{exact:.3f}" == "0.247"
    by_hand = round(round(entropy((5, 9)), 3) - round(float(weighted(lambda c: round(entropy(c), 3), NO_YES)), 3), 3)
    assert by_hand == 0.246
    result = grade(outlook, "gain", "0.246")
    assert result.right and "textbook" in result.message and "0.247" in result.message


def test_a_wrong_gain_gets_its_formula_and_the_exact_value(outlook):
    result = grade(outlook, "gain", "0.301")
    assert result.status == "wrong"
    assert result.shown == "0.247" and "0.247" in result.message
    assert any(r"\mathrm{Gain}" in line for line in result.formula)
    assert any("0.940" in line for line in result.formula)
    assert "none of the mistakes we know" in result.message and not result.mistakes


def test_too_coarse_and_unreadable_answers_are_not_graded_wrong(outlook):
    assert grade(outlook, "gain", "0.2").status == "too_coarse"
    assert grade(outlook, "gain", "0").status == "too_coarse"
    assert grade(outlook, "gain", "big").status == "unreadable"
    assert grade(outlook, "node_entropy", "1").status == "too_coarse"


def test_exact_fractions_and_whole_numbers_are_graded_exactly(tennis_id3):
    overcast = Work.of(tennis_id3.steps[0])
    assert grade(overcast, "branch_entropy", "0", branch=1).right  # Overcast is pure: 0 exactly
    assert grade(overcast, "branch_gini", "12/25", branch=0).right  # 1 - (3/5)^2 - (2/5)^2 = 12/25
    assert not grade(overcast, "branch_gini", "1/2", branch=0).right


def test_branch_answers_need_a_branch(outlook):
    with pytest.raises(ValueError, match="Say which branch"):
        grade(outlook, "branch_entropy", "0.971")
    assert grade(outlook, "branch_entropy", "0.971", branch=0).right
    assert not grade(outlook, "branch_entropy", "0.971", branch=1).right


def test_unknown_quantity_and_row_are_refused(tennis_id3, outlook):
    with pytest.raises(ValueError, match="Unknown quantity"):
        grade(outlook, "entropy", "0.9")
    with pytest.raises(ValueError, match="no row 9"):
        Work.of(tennis_id3.steps[0], row=9)


def test_regression_trees_are_not_graded():
    data = dtlearn.load_dataset("tips")
    step = dtlearn.fit(data, "cart", max_depth=1).steps[0]
    with pytest.raises(ValueError, match="regression"):
        Work.of(step)


def test_every_row_of_the_table_can_be_worked(tennis_id3):
    step = tennis_id3.steps[0]
    humidity = Work.of(step, row=2)  # High 3/4, Normal 6/1 (Yes/No) -> (No, Yes): (4, 3), (1, 6)
    expected = entropy((5, 9)) - float(weighted(entropy, [(4, 3), (1, 6)]))
    assert humidity.exact("gain") == pytest.approx(expected, abs=1e-12)
    assert grade(humidity, "gain", f"{expected:.4f}").right


def test_textbook_gain_ratio_rounds_each_operand(outlook):
    gain, info = independent("gain"), independent("split_info")
    k = 3
    after = round(float(weighted(lambda c: round(entropy(c), k), NO_YES)), k)
    by_hand_gain = round(round(entropy((5, 9)), k) - after, k)
    assert grading.textbook(outlook, "gain_ratio", k) == round(by_hand_gain / round(info, k), k)
    assert math.isclose(outlook.exact("gain_ratio"), gain / info)


def test_choices_attribute_threshold_and_leaf(tennis_id3):
    root = Work.of(tennis_id3.steps[0])
    assert grade(root, "attribute", "outlook").right
    wrong = grade(root, "attribute", "humidity")
    assert not wrong.right and "outlook" in wrong.message
    leaf = next(s for s in tennis_id3.steps if s.action == "leaf")
    assert grade(Work.of(leaf), "leaf_class", leaf.prediction).right
    other = next(c for c in tennis_id3.classes if c != leaf.prediction)
    assert not grade(Work.of(leaf), "leaf_class", other).right


def test_thresholds_graded_at_the_cut_the_tree_tests():
    iris = dtlearn.load_dataset("iris")
    cart = Work.of(dtlearn.fit(iris, "cart").steps[0])  # petal_length <= 2.45: midway between 1.9 and 3.0
    assert grade(cart, "threshold", "2.45").right
    c45 = Work.of(dtlearn.fit(iris, "c45").steps[0])  # J48: petal_width <= 0.6, the largest value below 0.8
    assert grade(c45, "threshold", "0.6").right and not grade(c45, "threshold", "0.8").right
