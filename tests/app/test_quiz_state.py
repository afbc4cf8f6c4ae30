"""The quiz keeps each student's place (pages/quiz_state.py): a reload, a lost connection or a
new tab brings back their question, locked answer, verdict and score; another student on the
same link starts at question 1.

A student is a browser: the quiz page writes a token in a cookie, and the browser sends it with
every new connection. AppTest has no browser, so `browser` below plays one: each new AppTest is
a new connection (a reload), sending the cookies given.

Expected verdicts are Mitchell's (1997, Fig. 3.1): ID3 splits PlayTennis's root on Outlook and its
Sunny branch on Humidity, so at the root "humidity" is wrong and at Sunny it is right.
"""

from __future__ import annotations

import re
import secrets
from types import SimpleNamespace

import pytest
import streamlit.runtime.context as context

from dtlearn.quiz import Guess
from pages import quiz_state
from pages.store import Store

LINK = {"dataset": "tennis", "algo": "id3", "page": "practice", "mode": "guess"}  # the teacher's link: no token


@pytest.fixture
def browser(monkeypatch):
    """browser(cookies) -> a function opening the app at a link, as a browser sending these cookies would."""
    def opened(open_app, cookies: dict, **link):
        client = SimpleNamespace(cookies=cookies, headers=[], remote_ip=None)
        monkeypatch.setattr(context, "_get_client_context", lambda: client)
        return open_app(**link)
    return opened


def student() -> dict:
    return {quiz_state.COOKIE: secrets.token_urlsafe(16)}


def progress_line(app) -> str:
    return next(m.value for m in app.at.markdown if m.value.startswith("**Score:"))


def reveal(app, attribute: str, step: int):
    app.at.radio(key=f"guess_attribute_{step}").set_value(attribute).run()
    app.click(f"reveal_{step}")
    return app


def link_of(app) -> dict:
    """The address bar after the visit, as a student would copy it."""
    return {k: v[0] if isinstance(v, list) else v for k, v in app.at.query_params.items()}


def test_a_reload_brings_back_the_question_the_answer_and_the_score(open_app, browser):
    me = student()
    app = browser(open_app, me, **LINK)
    app.assert_clean()
    reveal(app, "humidity", 1)  # wrong at the root
    app.click("quiz_next")
    reveal(app, "humidity", 2)  # right at Sunny
    assert progress_line(app).startswith("**Score: 1 of 2** · question 2 of")
    link = link_of(app)
    assert me[quiz_state.COOKIE] not in str(link)  # the token stays out of the link

    again = browser(open_app, me, **link)  # F5: a new connection, the same browser
    again.assert_clean()
    assert progress_line(again) == progress_line(app)
    radio = again.at.radio(key="guess_attribute_2")
    assert radio.value == "humidity" and radio.disabled  # the locked answer, shown locked
    assert [s.value for s in again.at.success] == [s.value for s in app.at.success]
    assert any(s.value.startswith("Right") for s in again.at.success)
    assert not [b for b in again.at.button if b.key == "reveal_2"] and again.at.button(key="quiz_next")
    assert again.at.dataframe, "the revealed table"
    again.click("quiz_next")
    assert progress_line(again).startswith("**Score: 1 of 2** · question 3 of")
    third = browser(open_app, me, **link)
    assert progress_line(third).startswith("**Score: 1 of 2** · question 3 of")
    assert third.at.radio(key="guess_attribute_3").value is None  # not answered yet: nothing chosen


def test_two_students_on_one_link_never_share_progress(open_app, browser):
    me = student()
    app = browser(open_app, me, **LINK)
    reveal(app, "outlook", 1)
    copied = link_of(app)
    for other in ({}, student()):  # a browser that never opened the quiz; another student's browser
        theirs = browser(open_app, other, **copied)
        theirs.assert_clean()
        assert progress_line(theirs).startswith("**Score: 0 of 0** · question 1 of")
        assert theirs.at.radio(key="guess_attribute_1").value is None
        assert not theirs.at.radio(key="guess_attribute_1").disabled
        assert not theirs.at.success and not theirs.at.error
        reveal(theirs, "wind", 1)
        assert progress_line(theirs).startswith("**Score: 0 of 1**")
    mine = browser(open_app, me, **copied)
    assert progress_line(mine).startswith("**Score: 1 of 1** · question 1 of")
    assert mine.at.radio(key="guess_attribute_1").value == "outlook"


@pytest.mark.parametrize("cookie", ["", "abc", "../../etc/passwd", "<script>alert(1)</script>", "A" * 21 + "!",
                                    "A" * 23, "'; DROP TABLE quiz; --" + "x" * 4])
def test_a_malformed_cookie_starts_a_fresh_quiz_with_a_note(open_app, browser, cookie):
    app = browser(open_app, {quiz_state.COOKIE: cookie}, **LINK)
    app.assert_clean()
    assert any("not one dtlearn writes" in i.value for i in app.at.info)
    assert progress_line(app).startswith("**Score: 0 of 0** · question 1 of")
    token = app.at.session_state[quiz_state.STUDENT]
    assert re.fullmatch(r"[A-Za-z0-9_-]{22}", token) and token != cookie
    scripts = [h.value for h in app.at.html if quiz_state.COOKIE in h.value]
    assert len(scripts) == 1 and token in scripts[0] and (not cookie or cookie not in scripts[0])
    reveal(app, "outlook", 1)  # and it keeps its place from now on
    assert progress_line(browser(open_app, {quiz_state.COOKIE: token}, **LINK)).startswith("**Score: 1 of 1**")


# the pieces --------------------------------------------------------------------------------------

GUESS = Guess("right", "Right: the node becomes a leaf.", "a leaf")


def test_an_answer_is_locked_once_and_the_score_is_their_points():
    half = Guess("half", "The right attribute, another test.", "x <= 1")
    progress = quiz_state.Progress().answered(quiz_state.Answer(1, None, None, GUESS))
    progress = progress.answered(quiz_state.Answer(1, "x", None, half))  # a second answer to question 1: ignored
    progress = progress.next().answered(quiz_state.Answer(2, "x", "x <= 2", half))
    assert progress.index == 1 and [a.step for a in progress.answers] == [1, 2]
    assert progress.score == 1.5  # 1 (right) + 1/2 (half), dtlearn.quiz.POINTS
    assert progress.answer(1).guess is GUESS and progress.answer(3) is None


def test_the_cookie_script_writes_only_a_token():
    token = quiz_state.new_token()
    assert quiz_state.TOKEN.fullmatch(token)
    assert f"{quiz_state.COOKIE}={token};" in quiz_state.cookie_script(token)
    with pytest.raises(ValueError):
        quiz_state.cookie_script('x"; alert(1); "')


def test_progress_is_bounded_in_bytes_and_replaced_in_place():
    store = Store(max_bytes=64 * 1024, ttl=3600)
    def progress(student: int) -> quiz_state.Progress:  # each student's own objects, as answered
        guesses = (Guess("wrong", f"Student {student}'s guess {i} was wrong.", "outlook") for i in range(5))
        return quiz_state.Progress(answers=tuple(quiz_state.Answer(i, "x", None, g) for i, g in enumerate(guesses)))

    for i in range(500):  # 500 students
        store.put((f"student {i}", "tennis"), progress(i))
    assert 0 < store.size <= 64 * 1024 and len(store) < 500  # the least recently used went
    store.put(("student 499", "tennis"), progress(499).next())
    store.put(("student 499", "tennis"), progress(499).next().next())
    assert store.get(("student 499", "tennis"), quiz_state.Progress).index == 2  # replaced, not kept twice
