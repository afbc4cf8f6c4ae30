"""Guess the next split (dtlearn.quiz). Expected gains are computed here from the counts
(tests/exact.py): PlayTennis's root (Mitchell 1997) Outlook 0.2467, Humidity 0.1518."""

from __future__ import annotations

import pytest

import dtlearn
from dtlearn import quiz
from tests.exact import info_gain


@pytest.fixture(scope="module")
def tennis():
    return dtlearn.fit(dtlearn.load_dataset("tennis"), "id3")


def test_the_questions_are_the_growth_steps_in_order(tennis):
    steps = quiz.questions(tennis)
    assert [s.number for s in steps] == list(range(1, tennis.growth_steps + 1))
    assert {s.action for s in steps} == {"split", "leaf"}


def test_right_and_wrong_attribute_with_the_measure_and_the_margin(tennis):
    root = tennis.steps[0]
    assert quiz.check(root, "outlook").verdict == "right"
    outlook = info_gain([(3, 2), (0, 4), (2, 3)])
    humidity = info_gain([(4, 3), (1, 6)])
    guess = quiz.check(root, "humidity")
    assert guess.verdict == "wrong" and guess.points == 0
    assert f"{outlook:.4f}" in guess.message and f"{humidity:.4f}" in guess.message
    assert f"{outlook - humidity:.4f} less" in guess.message
    assert "information gain" in guess.message


def test_a_leaf_guess(tennis):
    leaf = next(s for s in quiz.questions(tennis) if s.action == "leaf")
    assert quiz.check(leaf, quiz.LEAF_GUESS).verdict == "right"
    assert quiz.check(leaf, "wind").verdict == "wrong"
    assert quiz.check(tennis.steps[0], quiz.LEAF_GUESS).verdict == "wrong"


def test_the_right_attribute_with_another_threshold_counts_half():
    """CART on iris: the root cuts petal_length at 2.45; petal_length <= 4.75 is another test."""
    step = dtlearn.fit(dtlearn.load_dataset("iris"), "cart").steps[0]
    tests = quiz.options(step)["petal_length"]
    assert "petal_length <= 2.45" in tests and "petal_length <= 4.75" in tests
    assert quiz.check(step, "petal_length", "petal_length <= 2.45").verdict == "right"
    half = quiz.check(step, "petal_length", "petal_length <= 4.75")
    assert half.verdict == "half" and half.points == 0.5
    with pytest.raises(ValueError, match="not one of petal_length's tests"):
        quiz.check(step, "petal_length", "petal_length <= 99")


def test_an_excluded_candidate_says_which_rule():
    step = dtlearn.fit(dtlearn.load_dataset("iris"), "c45").steps[0]
    guess = quiz.check(step, "sepal_width")
    assert guess.verdict == "wrong" and "average gain" in guess.message


def test_options_list_every_candidate_once(tennis):
    options = quiz.options(tennis.steps[0])
    assert options == {a: (f"{a} = ?",) for a in ("outlook", "temperature", "humidity", "wind")}
