"""Links typed, cut short or forged: every page opens, says what it left out, and shows no path.

`?row=²` or `?row=` and 5,000 digits showed a traceback on every page, with the server's paths
in it (`int("²")` and `int("9" * 5000)` raise). Each link below is opened, then every page is
visited: no traceback, no server path in any text, the page's title, and a short note naming
each parameter it left out (whose value is the default's).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIG = "9" * 5000  # past Python's 4,300 digits for int()
LINKS = {  # name -> (the link's parameters, the words a note must hold)
    "a superscript row": ({"row": "²"}, ["row = '²'"]),
    "a row of 5,000 digits": ({"row": BIG}, ["row = (a value of 5,000 characters)"]),
    "a negative step": ({"step": "-1"}, ["step = '-1'"]),
    "a step in words": ({"step": "abc"}, ["step = 'abc'"]),
    "a step of 5,000 digits": ({"step": BIG, "max_depth": BIG}, ["step = (a value", "max_depth = (a value"]),
    "an unknown algorithm": ({"algo": "nope"}, ["unknown algorithm 'nope'"]),
    "a path for a dataset": ({"dataset": "../../etc/passwd"}, ["unknown dataset (a value of 16 characters)"]),
    "numbers past a browser's": ({"max_depth": "1e308", "min_gain": "1e999", "tree_node": "1e300"},
                                 ["max_depth = '1e308'", "min_gain = '1e999'", "tree_node = '1e300'"]),
    "digits of another script": ({"step": "٣", "digits": "٣", "min_leaf": "٣"},
                                 ["step = '٣'", "digits = '٣'", "min_leaf = '٣'"]),
    "page views out of range": ({"part_step": "-3", "prune_step": "x", "prune_validation": "7", "complete": "2",
                                 "prune_method": "<b>x</b>", "stage_view": BIG},
                                ["part_step = '-3'", "prune_step = 'x'", "prune_validation = '7'", "complete = '2'",
                                 "prune_method = (a value", "stage_view = (a value"]),
    "names the app does not have": ({"mode": "../x", "projector": "yes", "page": "/etc", "target": "nope",
                                     "kinds": "nope:numeric,species:nope,:,", "part_x": BIG},
                                    ["mode = (a value", "projector = 'yes'", "page = (a value", "target = 'nope'",
                                     "kinds: 'nope' is not a column", "kinds: 'nope' is not one of",
                                     "part_x = (a value"]),
    "a parameter the app does not read": ({"<script>": "1", "max_dept": "2"},
                                          ["(a value of 8 characters) is not a parameter",
                                           "'max_dept' is not a parameter"]),
}
SERVER_PATHS = re.compile("|".join(map(re.escape, [str(ROOT), sys.prefix, "site-packages", "Traceback", "/etc/",
                                                   "/usr/", "/home/", "/tmp/", "/work/", 'File "'])))
TEXT_KINDS = ("title", "header", "subheader", "markdown", "caption", "info", "warning", "error", "success",
              "code", "text", "exception")


def texts(app) -> list[str]:
    return [str(e.value) for kind in TEXT_KINDS for e in getattr(app.at, kind)]


def clean(app, where: str) -> None:
    assert not app.at.exception, (where, [e.value[:300] for e in app.at.exception])
    shown = [t for t in texts(app) if SERVER_PATHS.search(t)]
    assert not shown, (where, [t[:300] for t in shown])
    assert app.at.title, where  # the page itself is drawn


@pytest.mark.parametrize("name", LINKS)
def test_a_bad_link_opens_every_page_and_says_what_it_left_out(open_app, name):
    params, said = LINKS[name]
    app = open_app(**{"dataset": "iris", "algo": "cart", "page": "step", **params})
    clean(app, "opened")
    notes = " ".join(app.warnings)
    assert notes.startswith("From the link"), notes
    for words in said:
        assert words in notes, (words, notes)
    assert all(len(note) < 600 for note in app.warnings), app.warnings  # short: no 5,000 digits said back
    for page in ("data", "step", "tree", "partitions", "pruning", "practice", "compare", "predict"):
        app.page(page)
        clean(app, page)


def test_what_a_bad_link_left_out_keeps_its_default(open_app):
    app = open_app(dataset="iris", algo="nope", step="-1", row="²", max_depth="1e308", mode="nope", digits="x")
    state = app.at.session_state
    assert state["algo"] == "id3" and state["max_depth"] is None and state["digits"] == "3"
    assert ("step" not in state or state["step"] == 0) and app.headers[0].startswith("Step 0 of")
    assert "practice_mode" not in state or state["practice_mode"] == "check"
    assert not [key for key in state if str(key).startswith("formula_row_")]


def test_a_good_link_still_reads_whole(open_app):
    """The values the app writes read back (what save_url writes, parsed by pages/links.py)."""
    app = open_app(dataset="iris", algo="cart", max_depth="3", min_gain="0.01", step="2", row="1", page="step",
                   digits="4", kinds="sepal_length:ignore", target="species")
    assert not app.warnings, app.warnings
    state = app.at.session_state
    assert (state["max_depth"], state["min_gain"], state["step"], state["formula_row_2"], state["digits"]) == \
        (3, 0.01, 2, 1, "4")
    assert state["kind|iris|species|sepal_length"] == "ignore"


def test_the_note_stays_on_the_page_the_link_opened(open_app):
    """In a browser the stage reports its box at once, which runs the page again: a note said on
    the first run only was gone before anyone read it. It stays until another page is opened."""
    app = open_app(dataset="iris", algo="cart", page="tree", step="abc")
    for _ in range(2):
        app.at.run()
        assert any("step = 'abc' is not a whole number" in w for w in app.warnings), app.warnings
    app.page("step")
    assert not app.warnings
    app.page("tree")
    assert not app.warnings


def test_a_link_of_thousands_of_bad_parts_says_a_few_and_counts_the_rest(open_app):
    kinds = ",".join(f"c{i}:numeric" for i in range(3000))  # 3,000 columns the table does not have
    app = open_app(dataset="iris", algo="cart", kinds=kinds, **{f"x{i}": "1" for i in range(50)})
    clean(app, "opened")
    [note] = app.warnings
    assert note.count("\n- ") == 12 and "3,039 more values" in note, note[:500]
    assert len(note) < 1500
