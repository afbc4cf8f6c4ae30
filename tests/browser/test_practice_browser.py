"""The Practice page in a real browser: a student types a gain computed with the natural
logarithm on PlayTennis, is told so, fixes it and sees it accepted; the guess quiz reveals.

Expected: Gain(Outlook) = 0.2467 (Mitchell 1997), 0.171 in nats (x ln 2); from tests/exact.py.
"""

from __future__ import annotations

import math

import pytest

from tests.exact import info_gain

pytestmark = [pytest.mark.browser,
              pytest.mark.filterwarnings("ignore:Session-scoped fixtures defined as instance methods")]

GAIN = info_gain([(3, 2), (0, 4), (2, 3)])


def test_a_wrong_gain_is_named_then_accepted(page, app_url, ui):
    page.goto(app_url + "/practice?dataset=tennis&algo=id3")
    field = page.get_by_label("Information gain")
    field.wait_for()
    field.fill(f"{GAIN * math.log(2):.3f}")
    page.get_by_role("button", name="Check my answers").click()
    page.get_by_text("natural logarithm (ln) instead of log2").first.wait_for()
    ui.settle(page, ui.LATEX)  # the worked formula, typeset
    assert page.locator(ui.EXCEPTION).count() == 0
    field.fill(f"{GAIN:.4f}")
    page.get_by_role("button", name="Check my answers").click()
    page.get_by_text("Right: the exact value is").first.wait_for()
    ui.settle(page)
    assert page.get_by_text("natural logarithm").count() == 0
    assert page.locator(ui.EXCEPTION).count() == 0


def test_the_quiz_reveals_the_table_and_the_score(page, app_url, ui):
    page.goto(app_url + "/practice?dataset=tennis&algo=id3&mode=guess")
    ui.settle(page, ui.GRAPH)
    page.get_by_text("outlook", exact=True).click()
    page.get_by_role("button", name="Reveal").click()
    page.get_by_text("Right: Split on outlook").wait_for()
    page.get_by_text("Score: 1 of 1").wait_for()
    page.get_by_role("button", name="Next question").click()
    page.get_by_text("question 2 of").wait_for()
    assert page.locator(ui.EXCEPTION).count() == 0
