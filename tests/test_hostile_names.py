"""Every download of a table whose names are markup (issue 33): nothing in it is interpreted.

The names, values, classes and file name of `hostile_names` are Markdown, LaTeX, HTML, links and
spreadsheet formulas. Each download is read as its reader reads it: a Markdown document rendered by
markdown-it (a CommonMark renderer, with GFM's autolinks, and again with $-maths as KaTeX takes it),
a LaTeX document compiled by pdflatex, the DOT laid out by Graphviz's dot, the CSV read back by
Python's csv module as a spreadsheet would see each cell. The check is the output: which tags, links,
formulas and commands it holds, not only that nothing ran.
"""

from __future__ import annotations

import csv
import io
import os
import re
import shutil
import subprocess

import pandas as pd
import pytest

import dtlearn
import hostile_names as hostile
from dtlearn import grading, pdflatex, record, spreadsheet, worksheet
from dtlearn.table import listed_table

ALGORITHMS = ("id3", "c45", "cart", "zaki")
# What the documents write themselves: headings, paragraphs, bold labels, lists, tables, inline code
# (a word that would be a link), and the maths renderer's containers
DOCUMENT_TAGS = frozenset({"h1", "h2", "p", "strong", "ol", "ul", "li", "table", "thead", "tbody", "tr", "th",
                           "td", "code", "div", "span", "br"})


@pytest.fixture(scope="module")
def data():
    return dtlearn.read_csv(hostile.csv_bytes())


@pytest.fixture(scope="module", params=ALGORITHMS)
def tree(request, data):
    return dtlearn.fit(data, request.param)


def needs_pdflatex() -> None:
    """pdflatex compiles in CI always; elsewhere a missing one skips only the compilation."""
    if not pdflatex.available():
        if os.environ.get("CI"):
            pytest.fail("CI is set but pdflatex is missing (apt-get install texlive-latex-base).")
        pytest.skip("pdflatex is not installed")


def assert_inert_markdown(document: str) -> None:
    """Rendered with and without maths: no tag but the document's own, no link or image, nothing
    from a name bold, and every inline code a word that would otherwise be a link."""
    for maths in (False, True):
        html = hostile.rendered(document, maths)
        assert not hostile.live_html(html, DOCUMENT_TAGS), (maths, hostile.live_html(html, DOCUMENT_TAGS)[:5])
        made_bold = [tag for tag in ("<strong>b</strong>", "<strong>v</strong>", "<strong>f</strong>",
                                     "<strong>proto</strong>", "<em>proto</em>") if tag in html]
        assert not made_bold, made_bold
        for code in hostile.code_texts(html):
            assert re.search(r"://|www\.|@", code), code  # inline code only for words a renderer would link
    maths = hostile.rendered(document, maths=True)
    formulas = re.findall(r'<div class="math block">(.*?)</div>', maths, flags=re.S)
    assert len(formulas) == document.count("$$") // 2  # every formula read as maths, none as text
    assert not any(hostile.live_latex(f) for f in formulas)


def assert_compiles(document: str) -> None:
    assert not hostile.live_latex(document), hostile.live_latex(document)
    needs_pdflatex()
    pdflatex.compile_pdf(document)  # ValueError with pdflatex's first error when it does not


def test_the_worksheet_in_markdown_renders_no_markup_from_the_file(tree):
    sheet = worksheet.worksheet(tree, 1, min(tree.growth_steps, 4), dataset=hostile.FILE_NAME)
    for solution in (False, True):
        document = worksheet.to_markdown(sheet, solution)
        assert_inert_markdown(document)
        if solution:  # the names are in the formulas (as \text{...}), not left out
            assert r"\text{\$\textbackslash{}color\{red\}\{x\}\$}" in document or tree.algorithm != "id3"


def test_the_worksheet_in_latex_compiles_with_any_name(data):
    """A name of 10,000 characters (in a table and a formula) and names that are LaTeX commands:
    one pdflatex run, no error (the 10,000-character name made a box past TeX's largest dimension)."""
    tree = dtlearn.fit(data, "c45")
    sheet = worksheet.worksheet(tree, 1, min(tree.growth_steps, 3), dataset=hostile.FILE_NAME)
    assert any(len(c) == len(hostile.LONG) for c in sheet.columns)  # the long name is in the sheet
    assert_compiles(worksheet.to_latex(sheet, solution=True))


def test_a_name_or_value_holding_control_characters_compiles_and_shows_them():
    # a CSV cell may hold any character but NUL: pdflatex stopped at a control character ("Text line
    # contains an invalid character"); they are written as ^A .. ^_ and ^? (caret notation)
    import pandas as pd

    odd = "ring\x07bell\x1bx\x7f"
    frame = pd.DataFrame({odd: ["a\x01b", "c", "a\x01b", "c"] * 3, "tab\tname": [1, 2, 3, 4] * 3,
                          "y": ["n", "y", "n", "y"] * 3})
    tree = dtlearn.fit(dtlearn.Dataset(frame, "y"), "id3")
    document = worksheet.to_latex(worksheet.worksheet(tree, 1, 1, dataset="odd"), solution=True)
    assert r"ring\textasciicircum{}Gbell\textasciicircum{}[x\textasciicircum{}?" in document
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f]", document)
    assert_compiles(document)


def checks_of(tree) -> list:
    """A record of a wrong answer to each quantity a student checks at the root's chosen candidate,
    each branch's entropy included (its name in the quantity), and the attribute named by a name."""
    work = grading.Work.of(tree.steps[0], tree.steps[0].chosen_row, root=tree.steps[0])
    kept = [record.checked(work, key, grading.grade(work, key, "0.5"))
            for key in ("node_entropy", "entropy_after", "gain", "split_info", "gain_ratio")]
    kept += [record.checked(work, "branch_entropy", grading.grade(work, "branch_entropy", "0.5", branch=b), b)
             for b in range(len(work.branches))]
    return kept + [record.checked(work, "attribute", grading.grade(work, "attribute", hostile.NAMES["html"]))]


def test_the_record_renders_no_markup_and_compiles(data):
    tree = dtlearn.fit(data, "c45")
    checks = checks_of(tree)
    assert_inert_markdown(record.to_markdown(checks, dataset=hostile.FILE_NAME, algorithm="c45"))
    assert_compiles(record.to_latex(checks, dataset=hostile.FILE_NAME, algorithm="c45"))


def test_the_dot_source_and_its_drawing_hold_names_as_text(tree):
    """DOT's HTML-like labels: every name escaped (Graphviz reads <IMG> in them as a file to draw);
    the SVG dot makes of it has no image, link or script."""
    dot = tree.to_dot()
    assert "<img" not in dot.lower() and "<b>c" not in dot
    assert "&lt;b&gt;c&lt;/b&gt;" in dot  # a class's name, as text (its legend)
    if shutil.which("dot") is None:
        if os.environ.get("CI"):
            pytest.fail("CI is set but Graphviz's dot is missing")
        return
    svg = subprocess.run(["dot", "-Tsvg"], input=dot.encode(), capture_output=True, check=True).stdout.decode()
    assert not re.search(r"<(image|a|script|foreignObject)\b", svg), re.findall(r"<(?:image|a|script)\b[^>]*", svg)
    assert "href" not in svg


def test_the_rules_are_plain_text_with_the_names_as_they_are(tree):
    """A .txt file is read as it is: the names whole and unescaped (escaping would be wrong there)."""
    rules = "\n".join(tree.rules())
    assert any(c in rules for c in hostile.CLASSES)
    assert "\\[" not in rules and "&lt;" not in rules


def test_the_step_table_csv_has_no_cell_a_spreadsheet_would_run(data):
    """OWASP's CSV injection rule: a text cell (or column name) starting with = + - @ tab or CR is
    written after a single quote; numeric columns keep their negative numbers as numbers."""
    tree = dtlearn.fit(data, "c45")
    table = listed_table(tree.steps[0])
    written = spreadsheet.to_csv(table)
    rows = list(csv.reader(io.StringIO(written)))
    text_columns = [i for i, c in enumerate(table.columns) if not pd.api.types.is_numeric_dtype(table[c].dtype)]
    for row in rows[1:]:
        for i in text_columns:
            assert not row[i].startswith(spreadsheet.FORMULA_START), row[i]
    # each neutralised cell reads back as the table's own text after one quote (the source: the table)
    expected = [str(v) for c in table.columns[text_columns] for v in table[c]]
    read = [row[i] for row in rows[1:] for i in text_columns]
    assert sorted(read) == sorted("'" + v if v.startswith(spreadsheet.FORMULA_START) else v for v in expected)
    assert any(v.startswith(("=", "@")) for v in expected)  # the table has such cells to neutralise
    numbers = pd.read_csv(io.StringIO(written))["gain"]
    assert numbers.dtype.kind == "f" and numbers.tolist() == pytest.approx(table["gain"].tolist())


def test_a_csv_keeps_negative_numbers_and_quotes_formula_text():
    frame = pd.DataFrame({"=1+1": ["-2+3", "@attr", "\tx", "a"], "n": [-1, -2, 3, 0]})
    rows = list(csv.reader(io.StringIO(spreadsheet.to_csv(frame))))
    assert rows == [["'=1+1", "n"], ["'-2+3", "-1"], ["'@attr", "-2"], ["'\tx", "3"], ["a", "0"]]
