"""A page never waits past its time (pages/common.py PAGE, app.main): neither for a computation
nor for a drawing. Past it, the page says what makes the work cheaper, with no traceback; a
`dot` started for it is gone. The page's time is made short here (two seconds), the work
long: a tree that takes 30 s to grow, a `dot` that never answers."""

from __future__ import annotations

import os
import time

import pytest

import dtlearn
from pages import common, drawing
from test_layout import children

GRACE = 5  # seconds a page may take past its budget: the message drawn, a `dot` killed


@pytest.fixture
def short_pages(monkeypatch):
    monkeypatch.setattr(common, "PAGE", dtlearn.Budget(wall=2))
    monkeypatch.setattr(drawing, "SECONDS", 2)  # a layout made in the background, as long


def test_a_page_stops_waiting_for_a_computation_at_its_time(open_app, short_pages, monkeypatch):
    fit = dtlearn.fit

    def slow_fit(*args, **kwargs):  # a tree that takes 30 s (its budget's checks stop it when abandoned)
        end = time.monotonic() + 30
        while time.monotonic() < end:
            dtlearn.budget.check_time()
            time.sleep(0.05)
        return fit(*args, **kwargs)

    app = open_app(dataset="tennis", algo="id3", page="step")
    monkeypatch.setattr(dtlearn, "fit", slow_fit)
    started = time.monotonic()
    app.set("number_input", "max_depth", 1)  # a tree not grown yet
    assert time.monotonic() - started < 2 + GRACE
    assert not app.at.exception
    said = [e for e in app.errors if "more than the 2 seconds a page may take" in e]
    assert said == app.errors and "Set a Max depth" in said[0], app.errors  # said once


def test_a_drawing_past_the_page_s_time_is_stopped_and_its_dot_killed(open_app, short_pages, monkeypatch, tmp_path):
    never = tmp_path / "dot"  # a `dot` that never answers
    never.write_text("#!/bin/sh\nexec sleep 600\n")
    never.chmod(0o755)
    which = dtlearn.layout.shutil.which
    app = open_app(dataset="iris", algo="cart", page="tree")  # grown and drawn with the real `dot`
    monkeypatch.setattr(dtlearn.layout.shutil, "which", lambda name: str(never) if name == "dot" else which(name))
    drawing.tree_svg.cache_clear()
    started = time.monotonic()
    app.click("next")
    assert time.monotonic() - started < 2 + GRACE
    assert not app.at.exception
    said = [e for e in app.errors if "Drawing this tree needs more than the" in e]
    assert said and "Draw less of the tree: set a Max depth" in said[0], app.errors
    deadline = time.monotonic() + GRACE  # the background's layout of the next step: killed at its time too
    while children(os.getpid()) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert children(os.getpid()) == []
    drawing.tree_svg.cache_clear()
