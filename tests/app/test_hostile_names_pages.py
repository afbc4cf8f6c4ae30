"""Every page with a file whose names are markup (issue 33): what is sent to the browser as Markdown
is text, never a link, image, formula, tag or emphasis made of the file.

The table of `hostile_names` is uploaded under a hostile file name; every page is visited, and on
the Step, Tree, Pruning and Practice pages the states that show more names (a later step, a leaf's
candidates, a node's table, each Practice mode with its answers checked). In each state every
field Streamlit renders as Markdown (a body, a label, a tooltip, a radio's options, a metric's
value, a table column's tooltip) is read as CommonMark would read it: its escapes and code spans
are text, and nothing of a name may be left outside them (`hostile_names.live_markup`). LaTeX
holds names only inside \\text{...} with their backslashes escaped; Plotly text holds no tag
from a name. Before the fix the Data page's title, Practice's labels and guesses and Predict's
metric sent names raw (a guess's image made the browser fetch it).
"""

from __future__ import annotations

import json
import re

import pytest
from google.protobuf.json_format import MessageToDict

import hostile_names as hostile
from dtlearn.shorten import shown
from pages.session import THRESHOLDS_OPEN
from pages.wording import md

# proto fields Streamlit renders as Markdown; `options` only where the widget renders them so
MARKDOWN_FIELDS = {"body", "label", "help", "captions", "delta", "content"}
MARKDOWN_OPTIONS = {"Radio", "Slider", "ButtonGroup"}  # (a selectbox's options are plain text)
NOT_MARKDOWN = {"Text", "Code", "Exception", "Html", "IFrame"}


def markdown_fields(node, out: list) -> None:
    """(element kind, field, text) for every Markdown field of the element tree below `node`."""
    proto = getattr(node, "proto", None)
    if proto is not None:
        kind = type(proto).__name__
        if kind not in NOT_MARKDOWN:
            _strings(kind, MessageToDict(proto, preserving_proto_field_name=True), out, "")
    children = getattr(node, "children", None)
    for child in (children.values() if isinstance(children, dict) else ()):
        markdown_fields(child, out)


def _strings(kind: str, value, out: list, field: str) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "options" and kind not in MARKDOWN_OPTIONS:
                continue
            if key in MARKDOWN_FIELDS or key in ("options", "captions") or isinstance(item, (dict, list)):
                _strings(kind, item, out, key if key in MARKDOWN_FIELDS | {"options"} else field)
            elif kind == "Arrow" and key == "columns":  # a table's column config: its tooltips are Markdown
                for name, config in json.loads(item).items():
                    if isinstance(config, dict) and config.get("help"):
                        out.append((kind, "column help", config["help"]))
    elif isinstance(value, list):
        for item in value:
            _strings(kind, item, out, field)
    elif isinstance(value, str) and field:
        out.append((kind, field, value))


def live(app, where: str) -> list[str]:
    """What the page sent in this state that would render as markup, as 'where: kind.field: text'."""
    assert not app.at.exception, (where, [e.value for e in app.at.exception])
    found = []
    fields: list = []
    markdown_fields(app.at._tree, fields)
    assert fields, where
    for kind, field, text in fields:
        if kind == "Markdown" and text.startswith("$$"):  # st.latex
            forms = hostile.live_latex(text)
        else:
            forms = hostile.live_markup(text)
        if forms:
            found.append(f"{where}: {kind}.{field} {forms}: {text[:120]!r}")
    for figure in app.figures():
        spec = json.dumps(figure)
        found += [f"{where}: plotly {tag}" for tag in ("<img", "<a ", "href", "<b>c") if tag in spec]
    return found


def press(app, key: str) -> bool:
    buttons = [b for b in app.at.button if b.key == key and not b.disabled]
    if buttons:
        buttons[0].click().run()
    return bool(buttons)


def submit(app, label: str, answer: str = "0.5") -> None:
    """Fill every empty text box of the page and press the form's button."""
    for box in app.at.text_input:
        if not box.value:
            box.input(answer)
    [button for button in app.at.button if button.label == label][0].click().run()


def practice_states(app):
    """Each Practice mode, with its answers checked (the verdicts repeat the names)."""
    app.at.session_state["practice_mode"] = "check"
    app.at.run()
    yield "practice: check"
    submit(app, "Check my answers")
    yield "practice: check, graded"
    app.at.session_state["practice_entry"] = "column"
    app.at.run()
    groups = app.at.selectbox(key="column_candidates").options  # every candidate of one attribute:
    app.at.session_state["column_candidates"] = next(name for name in hostile.NAMES.values()
                                                     if f"every candidate of {shown(name)}" in groups)
    app.at.run()
    submit(app, "Check my column")
    yield "practice: column, graded"
    app.at.session_state["practice_mode"] = "guess"
    app.at.run()
    radio = [r for r in app.at.radio if r.key and r.key.startswith("guess_attribute_")][0]
    radio.set_value(next(name for name in hostile.NAMES.values()  # (as the radio writes it: escaped)
                         if {md(shown(name)), shown(name)} & set(radio.options))).run()
    tests = [s for s in app.at.selectbox if s.key and s.key.startswith("guess_test_")]
    if tests:
        tests[0].select_index(len(tests[0].options) - 1).run()
    [b for b in app.at.button if b.key and b.key.startswith("reveal_")][0].click().run()
    yield "practice: guess, revealed"
    app.at.session_state["practice_mode"] = "hand"
    app.at.run()
    yield "practice: hand"
    app.at.session_state["practice_mode"] = "worksheet"
    app.at.run()
    app.set("toggle", "worksheet_solution", True)
    yield "practice: worksheet with its solution"


def visit(app, name: str):
    """The states of one page worth reading."""
    app.page(name)
    yield name
    if name == "step":
        press(app, "next")
        app.open(THRESHOLDS_OPEN)
        yield "step: next, thresholds"
        press(app, "last")
        last = re.match(r"Step (\d+) of", app.headers[0]) if app.headers else None
        if last:
            app.open(f"leaf_candidates_{last.group(1)}")
        yield "step: last, the leaf's candidates"
    elif name == "tree":
        app.open("tree_node_table")
        yield "tree: a node's table"
    elif name == "pruning":
        press(app, "prune_next")
        press(app, "prune_last")
        yield "pruning: last decision"
    elif name == "practice":
        yield from practice_states(app)


@pytest.mark.parametrize("algorithm", ["id3", "c45", "cart", "zaki"])
def test_no_page_renders_a_name_from_the_file_as_markup(open_app, algorithm):
    app = open_app(dataset="tennis", algo=algorithm, page="data")
    app.set("selectbox", "dataset", "__upload__")
    app.at.file_uploader(key="upload_file").upload(hostile.FILE_NAME, hostile.csv_bytes(), "text/csv").run()
    assert app.at.session_state["source"].startswith("upload:")
    assert "example.invalid/f.png" in app.title  # the page is the file's, its name shown (as text)
    found = live(app, "upload")
    for name in ("data", "step", "tree", "partitions", "pruning", "compare", "predict", "practice"):
        for where in visit(app, name):
            found += live(app, where)
    assert not found, "\n".join(found[:30])
