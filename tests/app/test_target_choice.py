"""Choosing the target: a column with gaps is a target of its labelled rows (Weka and rpart leave
the rest out), a file whose last column has gaps still reads, and a column with no value at all
is refused in words, never with a traceback."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from tests.app.conftest import points, unescape

ROOT = Path(__file__).resolve().parents[2]

# the class column is not last, and the last (embarked) has gaps: a Titanic-like table
TITANIC = ("name,survived,age,fare,embarked,cabin\n"
           "A,1,22,7.25,S,\nB,0,,71.3,,\nC,1,26,7.9,Q,\nD,0,35,8.05,?,\nE,1,,8.46,S,\nF,0,54,51.9,S,\n").encode()


def texts(app) -> list[str]:
    """The page's and the sidebar's text as it reads (the app escapes names for markdown)."""
    return [unescape(e.value) for e in [*app.at.markdown, *app.at.caption]]


def rows_line(app) -> str:
    return next(t for t in texts(app) if " rows · target " in t)


def test_a_target_with_gaps_is_learned_from_its_labelled_rows(open_app):
    # Watermelon 2.0alpha (Zhou 2016, table 4.4): 色泽 has no value in three rows of the CSV
    frame = pd.read_csv(ROOT / "datasets" / "watermelon_2alpha.csv")
    gaps = [i + 1 for i in frame.index[frame["色泽"].isna()]]
    labelled = len(frame) - len(gaps)
    app = open_app(dataset="watermelon_2alpha", algo="c45", page="step")
    app.set("selectbox", "target", "色泽")
    app.assert_clean()
    assert f"{labelled} rows · target 色泽" in rows_line(app)
    note = f"{len(gaps)} rows without a value of '色泽' are left out (data rows {', '.join(map(str, gaps))})"
    assert any(note in t for t in texts(app)), texts(app)
    app.click("next")
    app.assert_clean()


def test_an_upload_whose_last_column_has_gaps_reads_and_any_target_can_be_chosen(open_app):
    app = open_app(dataset="tennis", algo="id3", page="step")
    app.set("selectbox", "dataset", "__upload__")
    app.at.file_uploader(key="upload_file").upload("titanic.csv", TITANIC, "text/csv").run()
    assert not app.at.exception and not any("Could not use" in e for e in app.errors), app.errors
    assert app.at.selectbox(key="target").value == "fare"  # the last column with a value in every row
    assert any("The last column, 'cabin', has 6 rows without a value" in t for t in texts(app))
    app.set("selectbox", "target", "survived")  # 0 / 1: classes
    app.assert_clean()
    assert "6 rows · target survived" in rows_line(app)
    app.set("selectbox", "target", "embarked")
    app.assert_clean()
    assert "4 rows · target embarked" in rows_line(app)
    assert any("2 rows without a value of 'embarked' are left out (data rows 2, 4)" in t for t in texts(app))


def test_a_target_with_no_value_is_refused_in_words_and_the_tree_kept(open_app):
    app = open_app(dataset="tennis", algo="id3", page="step")
    app.set("selectbox", "dataset", "__upload__")
    app.at.file_uploader(key="upload_file").upload("titanic.csv", TITANIC, "text/csv").run()
    app.set("selectbox", "target", "survived")
    app.set("selectbox", "target", "cabin")
    assert not app.at.exception, [e.value for e in app.at.exception]
    assert any("The target column 'cabin' has no values" in e for e in app.errors), app.errors
    assert "6 rows · target survived" in rows_line(app)  # the last tree dtlearn accepted


def test_classes_named_by_numbers_are_bars_of_names(open_app):
    # survived's classes are 0 and 1: Plotly reads such strings as numbers unless told, and drew
    # the Data page's bars on an axis from -0.5 to 1.5
    app = open_app(dataset="tennis", algo="id3", page="data")
    app.set("selectbox", "dataset", "__upload__")
    app.at.file_uploader(key="upload_file").upload("titanic.csv", TITANIC, "text/csv").run()
    app.set("selectbox", "target", "survived")
    app.assert_clean()
    figure = app.figures()[0]
    # one bar a class at positions 0, 1, ..., each named by its class (a class called __proto__ or
    # constructor cannot key Plotly's category axis: pages/charts.py)
    axis = figure["layout"]["xaxis"]
    assert axis["tickmode"] == "array" and list(axis["tickvals"]) == [0, 1] and axis["ticktext"] == ["0", "1"]
    assert list(points(figure["data"][0]["x"])) == [0, 1] and list(points(figure["data"][0]["y"])) == [3, 3]
