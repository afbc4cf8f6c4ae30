"""The tree as an SVG image (pages/drawing.py, shown by pages/stage.py): a data URL of base64 only, an
SVG of drawing markup with names as text, and the browser's own Graphviz where `dot` is missing."""

from __future__ import annotations

import base64
import os
import shutil
import xml.etree.ElementTree as ET

import graphviz
import pandas as pd
import pytest

import dtlearn
from drawn_trees import image_svg, svg_rest
from pages import drawing

SVG = "{http://www.w3.org/2000/svg}"
DRAWING_TAGS = {"svg", "g", "polygon", "path", "polyline", "ellipse", "text"}
EVIL = ['<script>alert(1)</script>', '<img src=x onerror="alert(2)">', "a}\\text{x}$ & :red[r] **b**"]



@pytest.fixture
def dot_program():
    """Graphviz's `dot`: skipped without it, except under CI (.ci/run installs it)."""
    if shutil.which("dot") is None:
        if os.environ.get("CI"):
            pytest.fail("CI is set but Graphviz's `dot` is missing: apt-get install -y graphviz (see .ci/run).")
        pytest.skip("the `dot` program is missing (Debian: apt-get install graphviz)")


def evil_tree() -> dtlearn.Tree:
    frame = pd.DataFrame({EVIL[0]: [EVIL[1], EVIL[1], EVIL[2], EVIL[2]], "y": [EVIL[2], EVIL[2], "no", "no"]})
    return dtlearn.fit(dtlearn.Dataset(frame, "y", {EVIL[0]: "categorical"}), "id3")


def test_names_from_a_file_are_svg_text_and_nothing_else(dot_program):
    source = drawing.tree_svg(evil_tree().to_dot(highlight=0)).data_url()
    # an image address of base64 text: nothing from the file reaches the page as markup
    head = "data:image/svg+xml;base64,"
    assert source.startswith(head) and set(source[len(head):]) <= set(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=")
    svg = base64.b64decode(source[len(head):]).decode("utf-8")
    root = ET.fromstring(svg)  # well-formed: a broken SVG would show as a broken image
    assert root.tag == SVG + "svg"
    elements = list(root.iter())
    assert {e.tag.removeprefix(SVG) for e in elements} <= DRAWING_TAGS
    attributes = {name.lower() for e in elements for name in e.attrib}
    assert not [a for a in attributes if a.startswith("on") or "href" in a]
    texts = [e.text for e in elements if e.tag == SVG + "text"]
    assert EVIL[0] in texts and f"= {EVIL[1]}" in texts  # the root's test, a branch: shown exactly as written
    assert all(any(name in text for text in texts) for name in EVIL)
    assert "<script" not in svg and "<img" not in svg


def test_the_drawing_keeps_dots_layout_its_size_and_its_smallest_text(dot_program):
    dot = dtlearn.fit(dtlearn.load_dataset("tennis"), "id3").to_dot()
    svg = graphviz.Source(dot).pipe(format="svg", encoding="utf-8")
    root = ET.fromstring(svg[svg.index("<svg"):])
    width_pt, height_pt = (float(root.attrib[side].removesuffix("pt")) for side in ("width", "height"))
    drawn = drawing.tree_svg(dot)
    assert (drawn.width, drawn.height) == (pytest.approx(width_pt * 4 / 3), pytest.approx(height_pt * 4 / 3))
    page = ET.fromstring(image_svg(f"![decision tree]({drawn.data_url()})"))
    # the image's natural size is dot's (pt -> px); the stage scales it to the screen's box
    assert page.attrib["width"] == f"{width_pt * 4 / 3:.0f}px"
    assert page.attrib["height"] == f"{height_pt * 4 / 3:.0f}px"
    assert page.attrib["viewBox"] == root.attrib["viewBox"]
    assert len(page.findall(f".//{SVG}g[@class='node']")) == len(root.findall(f".//{SVG}g[@class='node']")) == 8
    assert svg_rest(image_svg(f"![decision tree]({drawn.data_url()})")) == drawn.rest
    sizes = {float(e.attrib["font-size"]) for e in root.iter(f"{SVG}text")}
    assert drawn.smallest_pt == min(sizes)  # what the stage reads to keep text legible


def test_without_dot_the_browser_draws_the_dot_source(open_app, monkeypatch):
    which = dtlearn.layout.shutil.which
    monkeypatch.setattr(dtlearn.layout.shutil, "which", lambda name: None if name == "dot" else which(name))
    drawing.tree_svg.cache_clear()
    try:
        assert drawing.tree_svg("digraph { a }") is None
        app = open_app(dataset="tennis", algo="id3", step="2").page("step")
        app.assert_clean()
        tree = dtlearn.fit(dtlearn.load_dataset("tennis"), "id3")
        charts = app.at.get("graphviz_chart")
        assert [c.proto.spec for c in charts] == [tree.at_step(2).to_dot(highlight=tree.steps[1].node_id, numbers=True)]
        assert not [m for m in app.at.markdown if image_svg(m.value)]  # no image without `dot`
        tree_page = app.page("tree")  # no pictures to download: a note says how to get them
        tree_page.assert_clean()
        assert [b.proto.label for b in tree_page.at.get("download_button")] == \
            ["DOT source", "Rules (text)", "Table (CSV)"]
        assert any("need Graphviz's `dot` program" in c.value for c in tree_page.at.caption)
    finally:  # forget the missing-dot answers, once the background has laid out what it was asked to
        drawing.prefetch("digraph { a }").result()
        drawing.tree_svg.cache_clear()


def test_a_prefetch_already_under_way_is_not_run_twice_and_leaves_nothing_behind(dot_program):
    import threading

    release, runs = threading.Event(), []
    dot = dtlearn.fit(dtlearn.load_dataset("tennis"), "id3").at_step(2).to_dot(highlight=3)
    first = drawing.prefetch(dot, release.wait, lambda: runs.append(1))
    second = drawing.prefetch(dot, lambda: runs.append(2))
    assert second is first  # the same job: `dot` is not run twice for one tree
    release.set()
    first.result()
    assert runs == [1] and drawing.drawing_of(dot) == drawing.tree_svg(dot)
    assert dot not in drawing._PENDING  # nothing kept once done


def test_a_source_dot_refuses_is_drawn_by_the_browser_not_a_traceback(dot_program):
    # dtlearn's DOT passes `dot` (tests/test_fuzz_files.py); were one refused (an empty <B></B>
    # did, from an ARFF attribute named ''), the page hands it to the browser instead of failing
    refused = "digraph {\n\tn0 [label=<<B></B>>]\n}\n"
    with pytest.raises(graphviz.CalledProcessError):
        graphviz.Source(refused).pipe(format="svg")
    assert drawing.tree_svg(refused) is None and drawing.render(refused, "png") is None


def test_a_session_clicking_on_queues_one_next_step_not_every_one():
    import threading

    release, runs = threading.Event(), []
    busy = drawing.in_background(release.wait)  # the prefetch thread is at another job
    queued = [drawing.in_background(lambda k=k: runs.append(k), session="a") for k in range(5)]
    other = drawing.in_background(lambda: runs.append("b"), session="b")
    release.set()
    busy.result(), queued[-1].result(), other.result()
    assert all(f.cancelled() for f in queued[:-1])  # the student moved on before they started
    assert runs == [4, "b"]  # the latest step of each session, in order
    assert not drawing._AHEAD  # nothing kept once done
