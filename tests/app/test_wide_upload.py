"""The sidebar sets free text and a wide table's last columns to ignore, says why, and uses them
after one click (app.py identifiers_ui, kinds_ui; dtlearn.identifiers)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from dtlearn.identifiers import MAX_ATTRIBUTES


def upload(open_app, name: str, frame: pd.DataFrame):
    app = open_app(dataset="tennis", algo="id3", page="tree", complete="1")
    app.set("selectbox", "dataset", "__upload__")
    app.at.file_uploader(key="upload_file").upload(name, frame.to_csv(index=False).encode(), "text/csv").run()
    assert not app.at.exception
    return app


def captions(app) -> list[str]:
    return [c.value for c in app.at.sidebar.caption]


def test_free_text_is_set_to_ignore_with_why_and_one_click_uses_it(open_app):
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"comment": [f"said {i}" for i in range(990)] + [f"said {i}" for i in range(10)],
                          "x": rng.integers(0, 4, 1000), "y": rng.choice(["a", "b"], 1000)})
    app = upload(open_app, "notes.csv", frame)
    note = [c for c in captions(app) if c.startswith("**comment**")]
    assert len(note) == 1 and "is set to *ignore*: 990 different values in 1,000 rows" in note[0]
    assert app.at.session_state[[k for k in app.at.session_state if str(k).endswith("|comment")
                                 and str(k).startswith("kind|")][0]] == "ignore"
    app.at.sidebar.button(key=[b.key for b in app.at.sidebar.button if b.label == "Use comment as an attribute"][0])\
        .click().run()
    assert not app.at.exception and not any(c.startswith("**comment**") for c in captions(app))
    assert "comment" in app.trees()[0]  # ID3 splits on the column of most values at once


def test_a_wide_table_uses_its_first_columns_and_one_click_uses_all(open_app):
    columns = MAX_ATTRIBUTES + 50
    rng = np.random.default_rng(1)
    frame = pd.DataFrame(rng.integers(0, 3, (40, columns)), columns=[f"x{i}" for i in range(1, columns + 1)])
    frame["y"] = np.where(frame[f"x{columns}"] > 0, "a", "b")  # only the last column tells the class
    app = upload(open_app, "wide.csv", frame)
    note = [c for c in captions(app) if "attribute columns" in c]
    assert note and note[0].startswith(f"Only {MAX_ATTRIBUTES} of the {columns} attribute columns are used: the "
                                       f"other 50 (**x{MAX_ATTRIBUTES + 1}**, **x{MAX_ATTRIBUTES + 2}**, …, "
                                       f"**x{columns}**), after the first {MAX_ATTRIBUTES}, are set to *ignore*")
    assert f"x{columns}" not in app.trees()[0]  # the class's column is not in use yet

    app.open("kinds_open")  # the kinds editor: a menu for each of the first columns, one for the others
    menus = [s for s in app.at.sidebar.selectbox if str(s.key).startswith("kind|")]
    assert len(menus) == MAX_ATTRIBUTES + 1
    other = [s for s in app.at.sidebar.selectbox if str(s.key).startswith("other|")][0]
    assert other.label == "Any of the other 50 columns" and len(other.options) == 50
    other.set_value(f"x{columns - 1}").run()
    kind = [s for s in app.at.sidebar.selectbox if str(s.key).endswith(f"|x{columns - 1}")][0]
    kind.set_value("numeric").run()
    assert not app.at.exception
    assert any(c.startswith(f"Only {MAX_ATTRIBUTES + 1} of the {columns}") for c in captions(app))

    use_all = [b for b in app.at.sidebar.button if b.label == f"Use all {columns} columns"]
    use_all[0].click().run()
    assert not app.at.exception and not any("attribute columns" in c for c in captions(app))
    assert f"x{columns}" in app.trees()[0]  # every column in use: the tree splits on the one that tells
