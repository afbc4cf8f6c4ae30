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


def test_the_quiz_keeps_each_students_place(browser, app_url, ui):
    """A reload (F5) brings back the student's question, locked answer, verdict and score; a new
    tab in the same browser too; a classmate opening the copied address starts at question 1.
    Verdicts: ID3 splits PlayTennis's root on outlook, its Sunny branch on humidity (Mitchell 1997)."""
    link = app_url + "/practice?dataset=tennis&algo=id3&mode=guess"
    mine = browser.new_context(viewport={"width": 1280, "height": 720})
    page = mine.new_page()
    page.goto(link)
    ui.settle(page, ui.GRAPH)
    assert page.locator('input[type="radio"]:checked').count() == 0  # nothing preselected
    assert page.get_by_role("button", name="Reveal").is_disabled()
    page.get_by_text("humidity", exact=True).click()
    page.get_by_role("button", name="Reveal").click()
    page.get_by_text("Score: 0 of 1").wait_for()
    page.get_by_role("button", name="Next question").click()
    page.get_by_text("question 2 of").wait_for()
    page.get_by_text("humidity", exact=True).click()
    page.get_by_role("button", name="Reveal").click()
    page.get_by_text("Score: 1 of 2").wait_for()
    ui.settle(page)
    verdict = page.get_by_test_id("stAlert").inner_text()
    assert "Right" in verdict

    def shows_my_place(tab) -> None:
        tab.get_by_text("Score: 1 of 2").wait_for()
        ui.settle(tab, ui.GRAPH)
        assert tab.get_by_text("question 2 of").count() == 1
        assert tab.get_by_test_id("stAlert").inner_text() == verdict
        humidity = tab.get_by_role("radio", name="humidity")
        assert humidity.is_checked() and humidity.is_disabled()
        assert tab.get_by_role("button", name="Reveal").count() == 0  # answered: Next question in its place
        assert tab.get_by_role("button", name="Next question").is_visible()
        assert tab.locator(ui.EXCEPTION).count() == 0

    page.reload()
    shows_my_place(page)
    again = mine.new_page()  # the tab closed, the teacher's link opened again
    again.goto(link)
    shows_my_place(again)

    classmate = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    classmate.goto(page.url)  # the address copied from my address bar
    ui.settle(classmate, ui.GRAPH)
    classmate.get_by_text("Score: 0 of 0").wait_for()
    assert classmate.get_by_text("question 1 of").count() == 1
    assert classmate.locator('input[type="radio"]:checked').count() == 0
    assert classmate.get_by_test_id("stAlert").count() == 0
    assert classmate.locator(ui.EXCEPTION).count() == 0
    classmate.context.close()
    mine.close()
