"""Every page with every kind of file (hardening issue, part 2): no traceback, ever.

The files come from `fuzz_files`: the named shapes that reach the most code, and a fixed sample
drawn once from `csv_files()` with hypothesis's derandomized search. Each file is uploaded in the
sidebar, then every page is visited; the Step page steps forward and to its last step (with the
threshold chart open) and the Pruning page steps through its pruning. Each file is also uploaded
again and each of its first columns chosen as the target (a column with gaps showed a traceback
until 2026-11-25). A file dtlearn cannot read must say so in an error box; nothing may show an
exception.
"""

from __future__ import annotations

import functools
import re
import sys

import pytest
from hypothesis import HealthCheck, given, settings

import dtlearn
from fuzz_files import SHAPES, csv_files

from pages.session import THRESHOLDS_OPEN

# The shapes that reach the most page code (read and grown, or refused), with the algorithm used;
# the library test tries every shape with every algorithm.
NAMED = [("one row", "cart"), ("one class", "c45"), ("all attribute cells empty", "id3"),
         ("inf, nan and -0", "cart"), ("regression target with -0 and huge", "cart"),
         ("decimal commas", "zaki"), ("very long name", "c45"), ("very long value", "id3"),
         ("control characters", "cart"), ("right-to-left and zero-width", "c45"),
         ("high cardinality", "cart"), ("quotes and separators in cells", "id3"),
         ("one class per row", "zaki"), ("binary", "cart"), ("non-UTF-8 bytes", "cart"),
         ("duplicate header names", "cart"), ("noncharacters", "id3"), ("whole numbers past 12 digits", "cart"),
         ("numeric target of many values", "id3")]  # (regression is CART's: said, the last table kept)
DRAWN = 8  # files drawn from the strategy, each visited with the next algorithm in turn


@functools.cache
def drawn_files(n: int) -> tuple[bytes, ...]:
    """n files from `csv_files()`, the same every run (derandomized hypothesis)."""
    files = []

    @settings(derandomize=True, max_examples=n, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(csv_files())
    def collect(content):
        files.append(content)

    collect()
    return tuple(files[:n])


def clean(app, where: str) -> None:
    assert not app.at.exception, (where, [e.value for e in app.at.exception])


def press(app, key: str) -> None:
    """Click the button if the page shows it enabled."""
    buttons = [b for b in app.at.button if b.key == key]
    if buttons and not buttons[0].disabled:
        app.click(key)


def visit_every_page(open_app, content: bytes, algorithm: str) -> None:
    app = open_app(dataset="tennis", algo=algorithm, page="data")
    app.set("selectbox", "dataset", "__upload__")
    app.at.file_uploader(key="upload_file").upload("fuzz.csv", content, "text/csv").run()
    clean(app, "upload")
    try:
        dtlearn.read_csv(content)
    except dtlearn.DataError:
        assert any("Could not use fuzz.csv" in e for e in app.errors), app.errors
        return
    if any("Regression trees are CART's" in e for e in app.errors):  # a numeric target, and not CART:
        return  # said, and the last table kept (its pages were visited with it)
    assert "fuzz.csv" in app.title, app.title  # the pages below show the uploaded table
    for name in sys.modules[open_app.__module__].PAGES:  # every page of the app (tests/app/conftest.py)
        app.page(name)
        clean(app, name)
        if name == "step":
            press(app, "next")
            clean(app, "step: next")
            app.open(THRESHOLDS_OPEN)
            press(app, "last")
            clean(app, "step: last")
            last = re.match(r"Step (\d+) of", app.headers[0]) if app.headers else None
            if last:  # a leaf's candidates, with their formulas (the expander is sent only while open)
                app.open(f"leaf_candidates_{last.group(1)}")
                clean(app, "step: the last leaf's candidates")
        if name == "pruning":
            press(app, "prune_next")
            press(app, "prune_last")
            clean(app, "pruning: steps")


TARGETS_TRIED = 6  # columns of a file tried as its target (the first ones)


def every_target(open_app, content: bytes, algorithm: str) -> None:
    """The file uploaded on the Step page, then each of its columns chosen as the target: a column
    with gaps, of numbers, of one value or of no value at all is learned from or refused in words."""
    app = open_app(dataset="tennis", algo=algorithm, page="step")
    app.set("selectbox", "dataset", "__upload__")
    app.at.file_uploader(key="upload_file").upload("fuzz.csv", content, "text/csv").run()
    clean(app, "upload")
    menus = [s for s in app.at.selectbox if s.key == "target"]
    if not menus or not app.at.session_state["source"].startswith("upload:"):
        return  # not read (said in an error box): the tennis table's targets are not the file's
    tried = menus[0].options[:TARGETS_TRIED]
    for column in tried:
        app.set("selectbox", "target", column)
        clean(app, f"target {column!r}")
        press(app, "next")
        clean(app, f"target {column!r}: next")


VISITS = pytest.mark.parametrize("visit", [visit_every_page, every_target], ids=["every page", "every target"])


@VISITS
@pytest.mark.parametrize("name, algorithm", NAMED)
def test_a_named_shape(open_app, visit, name, algorithm):
    visit(open_app, SHAPES[name], algorithm)


@VISITS
@pytest.mark.parametrize("index", range(DRAWN))
def test_a_drawn_file(open_app, visit, index):
    visit(open_app, drawn_files(DRAWN)[index], tuple(dtlearn.PRESETS)[index % len(dtlearn.PRESETS)])
