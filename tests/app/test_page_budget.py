"""A page never waits past its time (pages/computing.py PAGE, router.main): neither for a computation
nor for a drawing. Past it, the page says what makes the work cheaper, with no traceback; a
`dot` started for it is gone. The page's time is made short here (two seconds), the work
long: a tree that takes 30 s to grow, a `dot` that never answers."""

from __future__ import annotations

import os
import re
import time

import numpy as np
import pandas as pd
import pytest

import dtlearn
from pages import computing, drawing
from test_layout import children
from tests.app.conftest import unescape

MAX_INPUTS = 40  # pages/predict.py's (importing a page would run it)
BRANCH_BOXES = 20  # pages/practice.py's
GRACE = 5  # seconds a page may take past its budget: the message drawn, a `dot` killed


@pytest.fixture
def short_pages(monkeypatch):
    monkeypatch.setattr(computing, "PAGE", dtlearn.Budget(wall=2))
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
    # the drawing's own time or the page's, whichever runs out first, with what makes it cheaper
    said = [e for e in app.errors if "needs more than the" in e and "seconds" in e]
    assert said and "Draw less of the tree: set a Max depth" in said[0], app.errors
    deadline = time.monotonic() + GRACE  # the background's layout of the next step: killed at its time too
    while children(os.getpid()) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert children(os.getpid()) == []
    drawing.tree_svg.cache_clear()


def test_the_stage_never_lays_out_a_view_of_more_nodes_than_a_whole_tree_drawn(monkeypatch):
    """A root of 1,500 branches, each split again: every view around the root holds the 1,500, and
    `dot` takes minutes on 50,000 of them; the stage goes down to the root alone, its branches
    folded in a box."""
    from pages import stage

    mostly = [("a", "b")[(i // 3) % 2] for i in range(4500)]  # each code's class, but for its row with b = q
    frame = pd.DataFrame({"code": [f"k{i // 3}" for i in range(4500)], "b": ["p", "p", "q"] * 1500,
                          "y": [c if i % 3 < 2 else {"a": "b", "b": "a"}[c] for i, c in enumerate(mostly)]})
    tree = dtlearn.fit(dtlearn.Dataset(frame, "y", {"code": "categorical"}), "id3")
    assert tree.n_nodes == 1 + 1500 + 3000 and tree.root.test.attribute == "code"
    laid_out = []  # the nodes (and folded boxes) of each view laid out

    def layout(dot: str) -> None:  # every view "fits": the stage takes the first it lays out
        laid_out.append(sum("label=" in line and "->" not in line for line in dot.splitlines()))

    monkeypatch.setattr(drawing, "drawing_of", layout)
    stage.fitted(tree, tree.root.id, stage.DEFAULT_BOX)
    assert laid_out and max(laid_out) <= stage.DRAWN_WHOLE


def test_predict_on_a_wide_table_asks_only_for_what_the_tree_tests(open_app):
    """Predict made a widget per attribute (5,000 columns: 95 s of processor time). Past MAX_INPUTS
    attributes it asks for those the tree tests, and the example is still row 1's: the prediction
    is what dtlearn predicts for that row."""
    rng = np.random.default_rng(0)
    frame = pd.DataFrame(rng.integers(0, 3, (150, 120)), columns=[f"a{i}" for i in range(120)])
    frame["y"] = np.where(frame["a7"] + frame["a50"] > 2, "yes", "no")
    app = open_app(dataset="tennis", algo="c45", page="predict")
    app.set("selectbox", "dataset", "__upload__")
    app.at.file_uploader(key="upload_file").upload("wide.csv", frame.to_csv(index=False).encode(), "text/csv").run()
    app.assert_clean()
    tree = dtlearn.fit(dtlearn.Dataset(frame, "y"), "c45")  # as the page grows it (no column left out)
    tested = {node.test.attribute for node in tree.nodes() if node.status == "split"}
    inputs = [w.label for w in app.at.number_input if w.key.startswith("predict|") and not w.key.endswith("|row")]
    assert sorted(inputs) == sorted(tested) and len(inputs) <= MAX_INPUTS
    assert any("This table has 120 attributes: the form asks for" in c.value for c in app.at.caption)
    assert app.at.metric[0].value == tree.predict(frame.iloc[:1])[0]


def test_practice_on_a_split_of_thousands_of_branches_has_boxes_for_the_first(open_app):
    """Practice made a text box per branch (a 12,000-value column: 203 s of processor time) and a
    menu option per node. A split of 2,000 branches now gets boxes for the first BRANCH_BOXES, and
    the form says so; its 2,001 nodes are picked by number."""
    rng = np.random.default_rng(0)
    codes = np.concatenate([np.arange(2000), rng.integers(0, 2000, 2000)])
    frame = pd.DataFrame({"code": [f"k{c}" for c in codes], "y": rng.choice(["yes", "no"], 4000)})
    app = open_app(dataset="tennis", algo="id3", page="practice")
    app.set("selectbox", "dataset", "__upload__")
    app.at.file_uploader(key="upload_file").upload("codes.csv", frame.to_csv(index=False).encode(), "text/csv").run()
    for button in [b for b in app.at.button if b.key and b.key.startswith("use|")]:  # left out: use it
        button.click().run()
    app.assert_clean()
    per_branch = {key.rsplit("_", 1)[0] for key in (t.key for t in app.at.text_input) if key[-1].isdigit()}
    assert per_branch  # e.g. each branch's entropy
    for quantity in per_branch:
        boxes = [t for t in app.at.text_input if t.key.rsplit("_", 1)[0] == quantity]
        assert len(boxes) == BRANCH_BOXES
    assert any(f"Boxes for the first {BRANCH_BOXES} of its 2,000 branches" in c.value for c in app.at.caption)
    assert any("and 1,980 more" in m.value for m in app.at.markdown)
    # its node menu, of 2,001 steps, is a number with the step's words beside
    (picker,) = [n for n in app.at.number_input if n.key == "practice_node_number"]
    assert picker.label == "Node (a step of the growth): its number, 1 to 2,001" and picker.value == 1
    picker.set_value(3).run()
    app.assert_clean()
    assert any(unescape(c.value).startswith("Step 3: code = k") for c in app.at.caption)
    assert not [s for s in app.at.selectbox if s.key == "practice_node"]
    app.at.segmented_control(key="practice_mode").set_value("hand").run()
    app.assert_clean()
    (picker,) = [n for n in app.at.number_input if n.key == "hand_node_number"]
    assert picker.label == "Node to decide: its number, 1 to 2,001"


def wide_upload(app, columns: int = 120, rows: int = 150) -> None:
    rng = np.random.default_rng(0)
    frame = pd.DataFrame(rng.integers(0, 3, (rows, columns)), columns=[f"a{i}" for i in range(columns)])
    frame["y"] = np.where(frame["a7"] + frame["a50"] > 2, "yes", "no")
    app.set("selectbox", "dataset", "__upload__")
    app.at.file_uploader(key="upload_file").upload("wide.csv", frame.to_csv(index=False).encode(), "text/csv").run()


def test_a_worksheet_of_thousands_of_questions_is_previewed_in_part(open_app):
    """The root of a 120-attribute table asks 120 questions: the page shows the first 60, and 20 of
    its 121 columns (the Worksheet page of a 5,000-column file froze the browser); the files hold all."""
    app = open_app(dataset="tennis", algo="c45", page="practice", mode="worksheet")
    wide_upload(app)
    app.assert_clean()
    assert any("Below: its first 60 of" in c.value and "20 of 121 columns" in c.value for c in app.at.caption)
    (preview,) = [m.value for m in app.at.markdown if "Worksheet:" in m.value]
    header = next(line for line in preview.splitlines() if line.startswith("| \\#"))  # the table: a0..a119, y
    assert "a19 |" in header and "a20" not in header
    questions = [line for line in preview.splitlines() if re.match(r"\d+\. ", line)]
    assert len(questions) == 60


def test_a_worksheet_past_the_page_s_time_says_what_makes_it_cheaper(open_app, short_pages, monkeypatch):
    from dtlearn import worksheet

    question = worksheet._candidate_question

    def slow(*args, **kwargs):  # 120 questions of 0.05 s: 6 s, past the page's 2
        time.sleep(0.05)
        return question(*args, **kwargs)

    app = open_app(dataset="tennis", algo="c45", page="practice", mode="worksheet")
    wide_upload(app)
    monkeypatch.setattr(worksheet, "_candidate_question", slow)
    started = time.monotonic()
    app.at.slider(key="worksheet_steps").set_value((1, 2)).run()
    assert time.monotonic() - started < 2 + GRACE
    assert not app.at.exception
    assert any("a page may take. Choose fewer steps, or mark columns as 'ignore'" in e for e in app.errors), app.errors


def test_computations_run_below_the_server_s_event_loop():
    """A job's thread (and the background's) runs NICE below the main thread: on cores its compiled
    kernels fill, the event loop and every page's run come first; and a thread hands the
    interpreter back after SWITCH_INTERVAL, not Python's 5 ms, when the event loop waits for it."""
    import sys
    import threading

    from pages import jobs

    def niceness(_job=None) -> int:
        return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())

    main = os.getpriority(os.PRIO_PROCESS, os.getpid())
    expected = min(main + jobs.NICE, 19)
    assert jobs.result(("niceness", time.monotonic()), niceness, lambda job: None) == expected
    assert drawing.in_background(niceness).result() == expected
    assert niceness() == main  # the caller's (a page's run) is left as it is
    assert sys.getswitchinterval() == jobs.SWITCH_INTERVAL == 0.001


def test_what_the_server_imported_is_left_out_of_the_collector_s_full_passes():
    """A full pass of the garbage collector holds the interpreter while it scans every object: the
    health check's slow answers came each with one (up to 1.2 s). The objects made at start-up,
    never garbage, are frozen out of them (pages/memory.py settle)."""
    import gc

    assert gc.get_freeze_count() > 100_000  # Streamlit, pandas, plotly, numba, dtlearn, the app
