"""Slides: one frame per step, the heading and decision of each, the trees the projector's rule
chooses, hostile names escaped, beamer compiled by pdflatex, and the CLI.

Expected steps, headlines and names come from the tree's own recorded steps (what the Step page
shows) and from the data frame; what a document says is read back by independent readers:
Python's HTML parser, and poppler's pdftotext for the PDF.
"""

from __future__ import annotations

import html
import io
import os
import re
import shutil
import subprocess
import zipfile
from html.parser import HTMLParser

import pandas as pd
import pytest

import dtlearn
from dtlearn import cli, derivation, framing, pdflatex
from dtlearn.slides import FRAME_PX, TREE_BOX, deck, file_name
from dtlearn.slides_html import to_html
from dtlearn.slides_tex import compile_beamer, to_beamer, to_zip

HOSTILE = pd.DataFrame({
    "</svg><script>alert(1)</script>": ["<b>x</b>", "a}\\text{x}$", "<b>x</b>", "a}\\text{x}$", "<b>x</b>", "q"],
    "50% & #1_\\": [1.5, 2.5, 3.5, 4.5, 1.0, 2.0],
    "色泽 \u202e": ["色", "泽", "色", "泽", "泽", "色"],
    "cls": ["<img src=x onerror=alert(1)>", "c_2", "<img src=x onerror=alert(1)>", "c_2", "c_2", "c_2"],
})


@pytest.fixture(scope="module")
def tennis():
    return dtlearn.fit(dtlearn.load_dataset("tennis"), "id3")


@pytest.fixture(scope="module")
def hostile():
    return dtlearn.fit(dtlearn.data.Dataset(HOSTILE, "cls"), "cart", min_samples_leaf=1)


class Elements(HTMLParser):
    """Every element of an HTML document with its attributes, and its text by slide."""

    def __init__(self):
        super().__init__()
        self.tags, self.slides, self.scripts = [], [], []
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag == "section":
            self.slides.append("")
        self._in_script = tag == "script"

    def handle_endtag(self, tag):
        self._in_script = False

    def handle_data(self, data):
        if self._in_script:
            self.scripts.append(data)
        elif self.slides:
            self.slides[-1] += data


def parsed(document: str) -> Elements:
    elements = Elements()
    elements.feed(document)
    return elements


def needs_pdflatex_and_beamer():
    """pdflatex with beamer and pgf, or a skip (never under CI, which installs them: .ci/run)."""
    missing = shutil.which("pdflatex") is None or shutil.which("kpsewhich") is None or any(
        not subprocess.run(["kpsewhich", name], capture_output=True, text=True).stdout.strip()
        for name in ("beamer.cls", "pgfcore.sty"))
    if missing:
        if os.environ.get("CI"):
            pytest.fail("CI is set but pdflatex with beamer is missing: .ci/run installs texlive-latex-recommended "
                        "and texlive-pictures")
        pytest.skip("pdflatex with beamer is not installed (texlive-latex-recommended, texlive-pictures)")


def pdf_text(pdf: bytes, tmp_path) -> str:
    if shutil.which("pdftotext") is None:
        if os.environ.get("CI"):
            pytest.fail("CI is set but pdftotext is missing (poppler-utils: .ci/run)")
        pytest.skip("pdftotext is not installed (poppler-utils)")
    path = tmp_path / "deck.pdf"
    path.write_bytes(pdf)
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout


# the frames --------------------------------------------------------------------------------

def test_one_frame_per_step_in_the_range_after_a_title(tennis):
    slides = deck(tennis, 2, 5)
    assert [f.kind for f in slides.frames] == ["title"] + ["step"] * 4
    assert [f.step for f in slides.frames[1:]] == [2, 3, 4, 5]
    # the whole induction by default: every recorded step
    assert [f.step for f in deck(tennis).frames if f.kind == "step"] == [s.number for s in tennis.steps]


def test_each_frame_says_its_step_and_the_decision_that_made_it(tennis):
    slides = deck(tennis, 1, 3)
    for frame, step in zip(slides.frames[1:], tennis.steps[:3]):
        assert frame.heading.startswith(f"Step {step.number} of {tennis.total_steps}: ")
        assert frame.decision == step.headline
    # the root's split: outlook, by its gain (Mitchell 1997, Table 3.2: Gain(S, Outlook) = 0.246)
    assert slides.frames[1].heading == "Step 1 of 8: split the root on outlook"
    assert slides.frames[1].verdict == "Split."
    assert "0.2467" in slides.frames[1].decision


def test_tables_and_formulas_are_frames_of_their_own(tennis):
    slides = deck(tennis, 1, 1, tables=True, formulas=True)
    kinds = [f.kind for f in slides.frames]
    assert kinds[:3] == ["title", "step", "table"] and set(kinds[3:]) == {"formulas"}
    table = slides.frames[2].table
    # the four attributes of PlayTennis, one multiway candidate each, outlook chosen
    assert len(table.rows) == 4 and table.rows[table.chosen][0] == "✓ outlook (by value)"
    gains = dict(zip(tennis.steps[0].table["attribute"], tennis.steps[0].table["gain"]))
    assert [row[1] for row in table.rows] == [derivation.number(gains[a]) for a in
                                              ("outlook", "temperature", "humidity", "wind")]
    lines = [line for f in slides.frames[3:] for _, section in f.sections for line in section]
    assert len(lines) == sum(len(s.lines) for s in derivation.derivation(tennis.steps[0].table.iloc[0], tennis.classes)
                             if s.family in ("node", "entropy"))
    assert all(sum(len(ls) for _, ls in f.sections) <= 6 for f in slides.frames[3:])


def test_a_range_outside_the_steps_is_refused(tennis):
    for first, last in ((0, 2), (3, 2), (1, 9)):
        with pytest.raises(ValueError, match="1 <= first <= last <= 8"):
            deck(tennis, first, last)


def test_file_names_say_dataset_algorithm_and_steps():
    assert file_name("Exam 2 (final).csv", "c45", 3, 3, "pdf") == "Exam-2-final-c45-slides-3.pdf"


# the trees: as the projector's stage draws them -----------------------------------------------

def test_a_small_tree_is_drawn_whole_and_legible(tennis):
    frame = deck(tennis, 8, 8).frames[1]
    assert frame.tree.whole
    assert frame.tree.laid.text_px(frame.tree.scale) >= framing.MIN_TEXT_PX
    assert frame.tree.laid.width * frame.tree.scale <= TREE_BOX[0] + 0.5


def test_a_large_tree_shows_the_node_around_it_at_14_px():
    glass = dtlearn.fit(dtlearn.load_dataset("glass"), "c45")
    step = glass.steps[30]
    frame = deck(glass, step.number, step.number).frames[1]
    assert not frame.tree.whole and step.node_id in frame.tree.visible
    assert frame.tree.laid.text_px(frame.tree.scale) >= framing.MIN_TEXT_PX
    assert f'n{step.node_id} [label=' in frame.tree.dot and 'penwidth=4' in frame.tree.dot  # the node in red
    # the whole tree at that step would not be legible in the box
    whole = framing.laid_out(glass.at_step(step.number).to_dot(numbers=True))
    assert whole.text_px(framing.scale_in(whole, TREE_BOX)) < framing.MIN_TEXT_PX


# the HTML deck -------------------------------------------------------------------------------

def test_the_html_deck_is_self_contained(tennis):
    document = to_html(deck(tennis, 1, 3, tables=True, formulas=True))
    elements = parsed(document)
    assert sum(1 for tag, _ in elements.tags if tag == "section") == len(deck(tennis, 1, 3, tables=True,
                                                                               formulas=True).frames)
    links = [(tag, a) for tag, a in elements.tags if tag in ("link", "img", "iframe", "object", "embed")
             or (tag == "script" and "src" in a)]
    assert links == []  # nothing fetched: no stylesheet, image or script from elsewhere
    assert "http" not in document.replace("http://www.w3.org/", "")  # SVG's and MathML's namespaces only
    assert sum(1 for tag, _ in elements.tags if tag == "svg") == 3 and "<math" in document
    assert f"width: {FRAME_PX[0]}px; height: {FRAME_PX[1]}px" in document


def test_the_html_deck_says_each_heading_and_decision(tennis):
    elements = parsed(to_html(deck(tennis, 1, 8)))
    for text, step in zip(elements.slides[1:], tennis.steps):
        assert f"Step {step.number} of 8" in text and step.headline in text


def test_hostile_names_stay_text_in_the_html_deck(hostile):
    document = to_html(deck(hostile, tables=True, formulas=True, dataset="<i>quiz</i>", source="<u>x</u>"))
    elements = parsed(document)
    assert [tag for tag, _ in elements.tags if tag == "script"] == ["script"]  # the deck's own, alone
    assert not [tag for tag, _ in elements.tags if tag in ("img", "i", "u")]
    assert all("onerror" not in attributes for _, attributes in elements.tags)
    text = "".join(elements.slides)
    assert "<i>quiz</i>" in text and "<img src=x onerror=alert(1)>" in text and "<b>x</b>" in text
    assert "</svg><script>alert(1)</script>" in html.unescape(document)  # as text (in a drawing or a table)


# the beamer deck -----------------------------------------------------------------------------

def test_beamer_compiles_with_a_frame_a_slide_and_the_decisions_in_it(tennis, tmp_path):
    needs_pdflatex_and_beamer()
    slides = deck(tennis, 1, 4, tables=True, formulas=True, dataset="PlayTennis")
    pdf = compile_beamer(slides)
    text = pdf_text(pdf, tmp_path)
    assert text.count("\f") == len(slides.frames)  # a page per frame (pdftotext ends each with a form feed)
    for step in tennis.steps[:4]:
        assert f"Step {step.number} of 8" in text
    assert "highest information gain (0.2467)" in " ".join(text.split())


def test_beamer_includes_each_tree_as_a_pdf_beside_it(tennis):
    beamer = to_beamer(deck(tennis, 1, 2), figures="tennis-id3")
    assert sorted(beamer.files) == ["tennis-id3-step-1-1.pdf", "tennis-id3-step-2-2.pdf"]
    assert all(content.startswith(b"%PDF") for content in beamer.files.values())
    for name in beamer.files:
        assert "{" + name + "}" in beamer.tex
    assert r"\documentclass[aspectratio=169" in beamer.tex


def test_each_trees_pdf_is_the_size_of_its_drawing(tennis):
    """dot's PDF of a tree is the SVG's drawing, no wider: a frame includes it at the drawing's size."""
    slides = deck(tennis, 1, 2)
    beamer = to_beamer(slides, figures="t")
    for frame, name in zip(slides.frames[1:], sorted(beamer.files)):
        box = re.search(rb"/MediaBox \[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", beamer.files[name])
        size = (float(box[1]), float(box[2]))
        expected = (frame.tree.laid.width / framing.PX_PER_PT, frame.tree.laid.height / framing.PX_PER_PT)
        assert size == pytest.approx(expected, abs=1.5)


def test_hostile_names_compile_in_beamer(hostile, tmp_path):
    needs_pdflatex_and_beamer()
    slides = deck(hostile, tables=True, formulas=True, dataset="a}\\x{$ & %")
    text = " ".join(pdf_text(compile_beamer(slides), tmp_path).split())
    assert "a}\\x{$ & %" in text and "50% & #1_\\" in text


def test_the_zip_holds_the_document_and_its_trees(tennis):
    names = zipfile.ZipFile(io.BytesIO(to_zip(deck(tennis, 1, 2), "tennis-id3-slides-1-2"))).namelist()
    assert names == ["tennis-id3-slides-1-2.tex", "tennis-id3-slides-1-2-step-1-1.pdf",
                     "tennis-id3-slides-1-2-step-2-2.pdf"]


def test_included_files_need_plain_names():
    with pytest.raises(ValueError, match="plain name"):
        pdflatex.compile_pdf("x", files={"../x.pdf": b""})


# the command line ----------------------------------------------------------------------------

def test_the_cli_writes_an_html_deck(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli.run(["slides", "tennis", "-a", "id3", "--steps", "1-3", "--format", "html"]) == \
        "Wrote tennis-id3-slides-1-3.html"
    elements = parsed((tmp_path / "tennis-id3-slides-1-3.html").read_text(encoding="utf-8"))
    assert len(elements.slides) == 4


def test_the_cli_writes_tex_with_its_trees_beside_it(tmp_path):
    out = tmp_path / "lecture.tex"
    said = cli.run(["slides", "tennis", "-a", "c45", "--steps", "2", "--tables", "--format", "tex",
                    "--out", str(out)])
    assert said.startswith(f"Wrote {out}") and out.exists()
    assert (tmp_path / "lecture-step-2-1.pdf").read_bytes().startswith(b"%PDF")


def test_the_cli_compiles_a_pdf(tmp_path):
    needs_pdflatex_and_beamer()
    out = tmp_path / "deck.pdf"
    cli.run(["slides", "tennis", "--steps", "1-2", "--formulas", "--format", "pdf", "--out", str(out)])
    assert out.read_bytes().startswith(b"%PDF")


def test_the_cli_says_a_bad_range_in_one_line(capsys):
    assert cli.main(["slides", "tennis", "--steps", "5-99"]) == 2
    assert "1 <= first <= last <=" in capsys.readouterr().err
