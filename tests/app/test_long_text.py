"""Long names and values are cut where they are drawn (tables, legends, formulas), never where
they are computed; invisible characters are made visible; the whole text stays reachable.
Also: a scatter of a large table draws a stated, deterministic sample of its rows."""

from __future__ import annotations

import io
import json
import re

import numpy as np
import pandas as pd

import dtlearn
from dtlearn import derivation
from dtlearn.partition import drawn_sample
from dtlearn.shorten import LABEL_CHARS, shown, shown_branch, shown_names, visible
from pages.tables import shortened_table
from tests.app.conftest import points, unescape


# 5,000 characters each, a zero-width space and a right-to-left override near the start
LONG_ATTR = "colour\u200bname\u202e" + "x" * 4988
LONG_VALUE = "value\u200bz\u202e" + "z" * 4991
RUNS = re.compile("x{%d,}|z{%d,}|w{%d,}|h{%d,}" % ((LABEL_CHARS,) * 4))  # a run as long as the limit: not cut


def long_csv() -> bytes:
    rows = [(LONG_VALUE if i % 2 else "red", i % 5 + 1, "yes" if i % 2 else "no") for i in range(12)]
    return (f"{LONG_ATTR},size,class\n" + "".join(f"{a},{b},{c}\n" for a, b, c in rows)).encode()


def upload(open_app, content: bytes, page: str, **params):
    app = open_app(dataset="tennis", page=page, **params)
    app.set("selectbox", "dataset", "__upload__")
    app.at.file_uploader(key="upload_file").upload("long.csv", content, "text/csv").run()
    app.assert_clean()
    return app


def drawn_texts(app) -> list[str]:
    """Every table cell and heading, formula and chart text on the page."""
    texts = []
    for frame in app.frames():
        texts += [str(c) for c in frame.columns]
        texts += [str(v) for column in frame.columns for v in frame[column].tolist()]
    texts += app.latex()
    for figure in app.figures():
        layout = figure["layout"]
        texts += [str(t.get("name", "")) for t in figure["data"]]
        texts += [str(x) for t in figure["data"] if t.get("type") == "bar" for x in t.get("x", [])]
        texts += [str(x) for x in layout.get("xaxis", {}).get("ticktext", [])]  # the class chart's names
        texts += [str(a.get("text", "")) for a in layout.get("annotations", [])]
        texts += [json.dumps(layout.get(axis, {}).get("title", ""), ensure_ascii=False)
                  for axis in ("xaxis", "yaxis", "xaxis2", "yaxis2")]
    return texts


def assert_cut(texts: list[str]) -> None:
    assert texts
    assert not [t[:80] for t in texts if RUNS.search(t)], "a long name drawn whole"
    assert not [t[:80] for t in texts if "\u200b" in t or "\u202e" in t], "an invisible character drawn as is"


# the pure functions -------------------------------------------------------------------------

def test_shown_cuts_with_an_ellipsis_and_shows_invisible_characters():
    marks = "colour⟨U+200B⟩name⟨U+202E⟩"  # 26 characters: each mark is 8
    assert shown(LONG_ATTR) == marks + "x" * (LABEL_CHARS - 1 - len(marks)) + "…"
    assert len(shown(LONG_ATTR)) == LABEL_CHARS and shown("short") == "short"
    assert shown("abc\u200bdef", limit=8) == "abc…"  # never half a ⟨U+…⟩ mark
    assert visible("a\u202eb") == "a⟨U+202E⟩b" and visible(LONG_ATTR).endswith("x" * 4988)
    assert shown_branch("= " + LONG_VALUE) == "= " + shown(LONG_VALUE)
    assert shown_branch("<= 2.5") == "<= 2.5"


def test_shown_names_stay_distinct():
    names = shown_names([LONG_ATTR, LONG_ATTR + "y", "size"])
    assert len(set(names)) == 3 and names[2] == "size" and all(len(n) <= LABEL_CHARS for n in names)


def test_a_derivation_cuts_names_only_when_asked():
    row = {"attribute": LONG_ATTR, "branches": ("= red", "= " + LONG_VALUE), "branch_counts": ((6, 0), (0, 6)),
           "n": 12, "known": 1}
    whole = derivation.derivation(row, ("no", "yes"))
    cut = derivation.derivation(row, ("no", "yes"), limit=LABEL_CHARS)
    assert any(LONG_ATTR in line for s in whole for line in s.lines)  # the computed text keeps it whole
    lines = [line for s in cut for line in s.lines]
    assert_cut(lines)
    assert any(r"\text{" + shown(LONG_ATTR) + "}" in line for line in lines)
    # the numbers are the same: only the names differ
    assert [re.sub(r"\\text\{[^}]*\}", "", line) for s in whole for line in s.lines] == \
        [re.sub(r"\\text\{[^}]*\}", "", line) for line in lines]


def test_a_shortened_table_keeps_numbers_and_puts_the_whole_name_in_the_heading_tooltip():
    frame = pd.DataFrame({LONG_ATTR: [LONG_VALUE, "red"], "size": [1.5, 2.0]})
    table, config = shortened_table(frame)
    assert list(table.columns) == [shown(LONG_ATTR), "size"]
    assert table.iloc[:, 0].tolist() == [shown(LONG_VALUE), "red"] and table["size"].tolist() == [1.5, 2.0]
    assert unescape(config[shown(LONG_ATTR)]["help"]) == visible(LONG_ATTR)
    assert frame.columns[0] == LONG_ATTR  # the frame given is not changed


def test_the_drawn_sample_is_stratified_deterministic_and_complete_when_small():
    labels = np.array(["a"] * 30_000 + ["b"] * 15_000 + ["c"] * 5_000)
    positions = drawn_sample(labels, 20_000)
    assert len(positions) == 20_000 and len(np.unique(positions)) == 20_000
    assert np.all(np.diff(positions) > 0)  # sorted: rows drawn in table order
    # each class keeps its share: 60 %, 30 %, 10 % of 20,000
    assert [int((labels[positions] == c).sum()) for c in "abc"] == [12_000, 6_000, 2_000]
    assert np.array_equal(positions, drawn_sample(labels, 20_000))  # seed 0: the same rows every time
    assert not np.array_equal(positions, drawn_sample(labels, 20_000, seed=1))
    assert np.array_equal(drawn_sample(labels[:100], 20_000), np.arange(100))
    # shares that do not divide evenly: largest remainders, the total exact (1/3 of 10 each -> 4, 3, 3)
    assert sorted(np.bincount(np.repeat([0, 1, 2], 10)[drawn_sample(np.repeat([0, 1, 2], 10), 10)])) == [3, 3, 4]


# the pages ----------------------------------------------------------------------------------

def test_the_step_page_cuts_long_names_in_its_table_and_formulas(open_app):
    app = upload(open_app, long_csv(), "step").click("next")
    assert app.headers[0].startswith("Step 1 of") and shown(LONG_ATTR) in app.headers[0]
    texts = drawn_texts(app)
    assert_cut(texts)
    cells = app.frames()[0]["candidate"].tolist()
    assert "✓ " + shown(LONG_ATTR) + " (by value)" in cells
    assert any("⟨U+200B⟩" in line and "⟨U+202E⟩" in line for line in app.latex())
    assert any(shown(LONG_VALUE) in text for text in app.latex())
    # the decision names it shortened too (whole on the Tree page's node details and the Data page)
    assert any(shown(LONG_ATTR) in unescape(s.value) for s in app.at.success)
    assert not any(RUNS.search(s.value) for s in app.at.success)


def test_the_tree_page_cuts_its_tables_and_keeps_the_whole_test_in_the_node_details(open_app):
    app = upload(open_app, long_csv(), "tree")
    app.set("toggle", "complete", True).open("tree_node_table")
    assert_cut(drawn_texts(app))
    assert any(shown(LONG_ATTR) in c for c in app.frames()[-1]["candidate"])
    details = [unescape(m.value) for m in app.at.markdown if m.value.startswith("**Test:**")]
    assert details and LONG_ATTR in details[0]


def test_the_data_page_cuts_cells_and_reads_a_row_whole(open_app):
    app = upload(open_app, long_csv(), "data")
    assert_cut(drawn_texts(app))
    table = app.frames()[0]
    assert table.columns[0] == shown(LONG_ATTR) and table.iloc[1, 0] == shown(LONG_VALUE)
    spec = json.loads(app.at.dataframe[0].proto.columns)
    assert unescape(spec[shown(LONG_ATTR)]["help"]) == visible(LONG_ATTR)  # the heading's tooltip
    app.set("number_input", "data_row", 2)
    whole = [unescape(m.value) for m in app.at.markdown if visible(LONG_VALUE) in unescape(m.value)]
    assert whole and visible(LONG_ATTR) in whole[0]


def long_pairs(rows: int) -> bytes:
    """Two numeric attributes with long names; the class is which side of x + y = 1 a point is on."""
    rng = np.random.default_rng(1)
    x, y = rng.random(rows).round(4), rng.random(rows).round(4)
    names = ("width\u200b" + "w" * 4994, "height\u202e" + "h" * 4993)
    frame = pd.DataFrame({names[0]: x, names[1]: y, "class": np.where(x + y > 1, "above", "below")})
    return frame.to_csv(index=False).encode()


def test_the_partitions_page_cuts_axis_names_and_keeps_class_names_whole_in_the_hover(open_app):
    app = upload(open_app, long_pairs(60), "partitions", algo="cart")
    figure = app.figures()[0]
    assert_cut(drawn_texts(app))
    titles = {figure["layout"][axis]["title"]["text"] for axis in ("xaxis", "yaxis")}
    assert {t[:15] for t in titles} == {"width⟨U+200B⟩ww", "height⟨U+202E⟩h"}
    assert {t["name"] for t in figure["data"]} == {"above", "below"}
    assert all(t["hovertemplate"].endswith(f"<extra>{t['name']}</extra>") for t in figure["data"])
    assert not any("sample" in c.value for c in app.at.caption)  # 60 rows: every one drawn


def test_the_practice_page_cuts_names_in_its_formulas(open_app):
    app = upload(open_app, long_csv(), "practice")
    app.at.text_input(key="answer_gain").input("0.50")
    next(b for b in app.at.button if b.label == "Check my answers").click().run()
    assert not app.at.exception and any("Not quite" in e for e in app.errors)  # 0.50: wrong (the gain is 1)
    assert app.latex(), "a wrong answer shows its worked formula"
    assert_cut(app.latex())
    assert any(shown(LONG_ATTR) in line for line in app.latex())


def test_a_large_table_is_drawn_from_a_stated_sample(open_app):
    rows = 50_000
    content = long_pairs(rows)
    assert len(content) < 5 * 1024 * 1024  # under today's upload limit
    app = upload(open_app, content, "partitions", algo="cart")
    figure = app.figures()[0]
    drawn = {t["name"]: points(t["x"]) for t in figure["data"]}
    assert sum(len(x) for x in drawn.values()) == 20_000
    frame = pd.read_csv(io.BytesIO(content))
    above = int((frame["class"] == "above").sum())
    assert len(drawn["above"]) == round(20_000 * above / rows)  # each class keeps its share
    mine = frame[frame["class"] == "above"]
    assert set(drawn["above"]) <= set(mine.iloc[:, 0]) | set(mine.iloc[:, 1])  # rows of that class
    assert any(f"drawn from a sample of 20,000 of {rows:,} rows" in c.value for c in app.at.caption)


def test_thousands_of_regions_are_drawn_as_a_few_traces_with_the_newest_cuts_numbered():
    # a chain of 1,000 rows (x = 0..999, classes alternating): every cut leaves one row, 1,000
    # regions, past charts.MANY_REGIONS: one filled trace per colour, one trace of cuts, and the
    # step numbers of the newest LABELLED_CUTS cuts only
    from pages import charts

    n = 1000
    frame = pd.DataFrame({"x": np.arange(n, dtype=float), "x2": np.arange(n) * 0.5,
                          "y": np.where(np.arange(n) % 2 == 0, "a", "b")})
    tree = dtlearn.fit(dtlearn.Dataset(frame, "y"), "cart")
    from dtlearn.partition import default_bounds

    bounds = default_bounds(tree, "x", "x2")
    rectangles, lines = dtlearn.partition(tree, "x", "x2", bounds), dtlearn.split_lines(tree, "x", "x2", bounds)
    assert len(rectangles) == n > charts.MANY_REGIONS
    newest = max(lines, key=lambda line: line.step).node_id  # the last cut's node
    figure, left_out = charts.partition_chart(rectangles, lines, frame, "x", "x2", "y", tree.classes, newest, bounds)
    filled = [t for t in figure.data if t.fill == "toself"]
    assert len(filled) == 2  # the two classes' colours (every region is decided)
    # every region as one closed polygon (its four corners, back to the first, then a NaN gap), in
    # single precision: the corners of all polygons are the rectangles' corners
    polygons = np.concatenate([np.column_stack([np.asarray(t.x).reshape(-1, 6), np.asarray(t.y).reshape(-1, 6)])
                               for t in filled])
    assert polygons.shape == (n, 12) and np.isnan(polygons[:, [5, 11]]).all()
    corners = sorted(map(tuple, polygons[:, [0, 1, 6, 8]].tolist()))
    assert corners == sorted(tuple(np.float32([r.x0, r.x1, r.y0, r.y1]).tolist()) for r in rectangles)
    cuts = next(t for t in figure.data if t.mode == "lines" and t.fill != "toself")
    assert np.asarray(cuts.x).size == 3 * (len(lines) - 1)  # every older cut: two ends and a gap
    numbers = {int(a.text.strip("<b/>")) for a in figure.layout.annotations}  # cuts numbered by their node
    latest = {line.node_id for line in sorted(lines, key=lambda line: line.step)[-charts.LABELLED_CUTS:]}
    assert newest in numbers and numbers <= latest and len(numbers) + left_out == charts.LABELLED_CUTS
    assert len(figure.layout.shapes) == charts.LABELLED_CUTS
