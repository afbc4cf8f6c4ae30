"""Every page and every Practice mode on trees of a single step: no split, one class, one row.

A tree whose root is its only decision leaves every widget ranged over the steps, the nodes or
the rows with nothing to range over (a range slider over steps 1..1 showed a traceback on the
Worksheet). Each tree is checked to be what its name says with dtlearn itself, then every page
is visited: no traceback, and the page's own content is there.
"""

from __future__ import annotations

import re

import pytest

import dtlearn

# Two numeric attributes each, so that the Partitions page draws its plane too.
ONE_ROW = b"outlook,temp,humidity,play\nsunny,85,85,no\n"
ONE_CLASS = b"outlook,temp,humidity,play\nsunny,85,85,yes\nrain,70,96,yes\novercast,64,65,yes\n"
SAME_ROWS = b"outlook,temp,humidity,play\n" + b"sunny,85,85,no\n" * 200

TREES = {  # name -> (file or None for the link's built-in table, algorithm, settings in the link)
    "no split (tennis, max_depth 0)": (None, "id3", {"max_depth": "0"}),
    "one row": (ONE_ROW, "cart", {}),
    "one class": (ONE_CLASS, "c45", {}),
    "200 identical rows": (SAME_ROWS, "zaki", {}),
}
PRACTICE_MODES = ("check", "guess", "hand", "worksheet")


def grown(name: str) -> dtlearn.Tree:
    content, algorithm, settings = TREES[name]
    data = dtlearn.load_dataset("tennis") if content is None else dtlearn.read_csv(content)
    return dtlearn.fit(data, algorithm, **{k: int(v) for k, v in settings.items()})


def opened(open_app, name: str):
    content, algorithm, settings = TREES[name]
    app = open_app(dataset="tennis", algo=algorithm, page="data", **settings)
    if content is not None:
        app.set("selectbox", "dataset", "__upload__")
        app.at.file_uploader(key="upload_file").upload("tiny.csv", content, "text/csv").run()
    clean(app, "opened")
    return app


def clean(app, where: str) -> None:
    assert not app.at.exception, (where, [e.value for e in app.at.exception])


def texts(app) -> str:
    kinds = ("title", "header", "subheader", "markdown", "caption", "info", "warning", "error", "success")
    return "\n".join(str(e.value) for kind in kinds for e in getattr(app.at, kind))


def content(app, page: str, steps: int) -> None:
    """What each page is for is on it."""
    words = texts(app)
    if page == "data":
        assert app.at.dataframe and "The table" in words
    elif page == "step":
        assert re.match(rf"Step \d of {steps}", app.headers[0]), app.headers
    elif page == "tree":
        assert "Node details" in words and "Rules" in words
    elif page == "partitions":
        drawn = app.at.get("plotly_chart") and f"of {steps}" in words
        assert drawn or "needs two numeric attributes" in words  # (PlayTennis has none)
    elif page == "pruning":
        # the pruning stepped through, or why this table cannot be pruned that way
        assert app.at.selectbox(key="prune_method") is not None
        refused = " ".join(app.errors)
        assert "Charts" in words or "validation part" in refused or "needs at least 2 rows" in refused, words
        assert "no data rows" not in refused  # (an empty validation part was said as an empty table)
    elif page == "compare":
        assert "Sizes and scores" in words and app.at.table
    elif page == "predict":
        assert app.at.metric and app.at.metric[0].label.startswith("Predicted") and "The way down" in words


def practice_content(app, mode: str) -> None:
    words = texts(app)
    if mode == "check":
        assert app.at.selectbox(key="practice_node").options and "Check my answers" in [b.label for b in app.at.button]
    elif mode == "guess":
        assert "Score:" in words
    elif mode == "hand":
        assert app.at.selectbox(key="hand_node").options and ("First difference" in words or "Your tree is" in words)
    else:
        assert "single step" in words and "Step 1" in words, words  # the worksheet of its one step
        assert len(app.at.get("download_button")) == 4


@pytest.mark.parametrize("name", TREES)
def test_the_tree_has_a_single_step(name):
    tree = grown(name)
    assert tree.total_steps == tree.growth_steps == 1 and tree.n_nodes == 1


@pytest.mark.parametrize("name", TREES)
def test_every_page_works_on_a_tree_of_one_step(open_app, name):
    app = opened(open_app, name)
    steps = grown(name).total_steps
    for page in ("data", "step", "tree", "partitions", "pruning", "compare", "predict"):
        app.page(page)
        clean(app, page)
        content(app, page, steps)
    app.page("step").click("next")
    clean(app, "step 1")
    assert app.headers[0].startswith(f"Step 1 of {steps}"), app.headers
    assert [b.disabled for b in app.at.button if b.key in ("next", "last")] == [True, True]


@pytest.mark.parametrize("name", TREES)
def test_every_practice_mode_works_on_a_tree_of_one_step(open_app, name):
    app = opened(open_app, name).page("practice")
    for mode in PRACTICE_MODES:
        app.set("segmented_control", "practice_mode", mode)
        clean(app, mode)
        practice_content(app, mode)


def test_the_worksheet_link_of_a_one_step_tree_opens(open_app):
    """The link of the issue: /practice?dataset=tennis&algo=id3&max_depth=0&mode=worksheet."""
    app = open_app(dataset="tennis", algo="id3", max_depth="0", page="practice", mode="worksheet")
    clean(app, "the link")
    practice_content(app, "worksheet")
    assert not app.at.slider  # nothing to choose among


def test_a_pruning_of_no_decision_has_nothing_to_step_through(open_app):
    """A one-leaf tree leaves reduced-error pruning nothing to decide: no slider from 0 to 0."""
    app = opened(open_app, "200 identical rows").page("pruning")
    app.set("selectbox", "prune_method", "reduced_error")
    clean(app, "pruning")
    assert "Decision 0 of 0: nothing to step through." in texts(app)
    assert not [s for s in app.at.slider if s.key == "prune_slider"]
    assert all(b.disabled for b in app.at.button if b.key.startswith("prune_"))


def test_a_single_row_is_said_in_the_singular(open_app):
    """The line under each title, and a node's size (pages/wording.py `rows`)."""
    app = opened(open_app, "one row")
    for page in ("step", "tree", "compare"):
        line = app.page(page).at.markdown[0].value
        assert "· 1 row ·" in line, (page, line)
    words = texts(app.page("step"))
    assert "the root: its one row" in words and "1 row: 1 no" in words, words


@pytest.mark.parametrize("name", ["one row", "one class"])
def test_a_hold_out_of_a_tiny_table_is_refused_in_words(open_app, name):
    """Grow it by hand, a quarter held out of 1 or 3 rows: the test part would be empty."""
    app = opened(open_app, name).page("practice")
    app.set("segmented_control", "practice_mode", "hand").set("toggle", "hand_held_out", True)
    clean(app, "held out")
    [error] = app.errors
    assert "A test part of 25% of" in error and "Turn off the hold-out" in error, error
    assert "no data rows" not in error
