"""Where a student is in the quiz (Guess the next split), kept on the server per student, so a
reload or a lost connection brings back their question, their answers and their score.

A student is a browser: a random token in a cookie (`COOKIE`) that the quiz page writes and the
browser sends back with every new connection (`st.context.cookies`). The token is never in the
link, so a link copied from an address bar (a student's or the teacher's) opens a quiz of one's
own, and two students on one link never share progress. The cookie is only read, never trusted:
a value of another form starts a fresh quiz, with a note.

Progress lives in a `Store` of its own, bounded in bytes and forgotten after `IDLE` unused
seconds, keyed by the token and the quiz's tree (the sidebar's choices). It is held in memory: a
server restart starts every quiz again at question 1. Students sharing one browser profile (one
lab computer, one login) share its cookie and therefore its quiz; "Start again" clears it.
"""

from __future__ import annotations

import json
import re
import secrets
from dataclasses import dataclass, replace

import streamlit as st

from dtlearn.quiz import Guess
from pages.store import Store

COOKIE = "dtlearn_quiz"
TOKEN = re.compile(r"[A-Za-z0-9_-]{22}")  # secrets.token_urlsafe(16): 128 random bits
STUDENT = "quiz_student"  # session key: this session's token
IDLE = 24 * 3600  # seconds: an evening's homework, not a term
KEPT_DAYS = 30  # the cookie's life; the progress itself goes after IDLE
# Progress weighs under 1 KB an answer (the verdict's message is most of it): 64 MiB hold some 80
# classes of 30 students each through a 30-question quiz; beyond, the least recently used go.
PROGRESS = Store(max_bytes=64 * 2**20, ttl=IDLE)


@dataclass(frozen=True)
class Answer:
    """A locked answer: what the student chose at a growth step, and dtlearn's verdict on it."""

    step: int  # the question's growth step number
    attribute: str | None  # None: "make it a leaf"
    test: str | None  # one of the attribute's tests; None: its best one
    guess: Guess


@dataclass(frozen=True)
class Progress:
    index: int = 0  # the question shown (0-based; the number of questions when the tree is complete)
    answers: tuple[Answer, ...] = ()

    @property
    def score(self) -> float:
        return sum(answer.guess.points for answer in self.answers)

    def answer(self, step: int) -> Answer | None:
        return next((a for a in self.answers if a.step == step), None)

    def answered(self, answer: Answer) -> Progress:
        """With `answer` locked (an answer is given once: a second one for its step is ignored)."""
        if self.answer(answer.step) is not None:
            return self
        return replace(self, answers=self.answers + (answer,))

    def next(self) -> Progress:
        return replace(self, index=self.index + 1)


def new_token() -> str:
    return secrets.token_urlsafe(16)


def student() -> tuple[str, str | None]:
    """This browser's token (from its cookie, else a new one) and a note when the cookie sent was
    not one dtlearn writes. The session keeps the token it started with."""
    state = st.session_state
    if state.get(STUDENT) is not None:
        return state[STUDENT], None
    sent = sent_token()
    note = None
    if sent is not None and TOKEN.fullmatch(sent):
        token = sent
    else:
        token = new_token()
        if sent is not None:
            note = ("This browser's quiz cookie was not one dtlearn writes, so a new quiz starts here; "
                    "your answers are kept from now on.")
    state[STUDENT] = token
    return token, note


def sent_token() -> str | None:
    """The cookie's text as this connection's browser sent it (None: none sent)."""
    sent = st.context.cookies.get(COOKIE)
    return sent if isinstance(sent, str) else None


def cookie_script(token: str) -> str:
    """A script that stores the token in this browser's cookie (sent with every later connection)."""
    if not TOKEN.fullmatch(token):
        raise ValueError("not a quiz token")
    cookie = json.dumps(f"{COOKIE}={token}; path=/; max-age={KEPT_DAYS * 86400}; SameSite=Lax")
    return f'<script>document.cookie = {cookie} + (location.protocol === "https:" ? "; Secure" : "");</script>'


def load(key: tuple) -> Progress:
    """The progress stored under `key` (token, choices); a fresh one when there is none. A fresh
    quiz is not stored until its first answer: a visit alone takes no room."""
    if key in PROGRESS:
        return PROGRESS.get(key, Progress)
    return Progress()


def save(key: tuple, progress: Progress) -> None:
    PROGRESS.put(key, progress)
