"""The Teacher page in AppTest: a class set's previews, its checks of the identifiers, its files.

What the page shows is compared with dtlearn called directly (`variants.make_variant` on the
same template, seed and identifier); the files are read back by readers the project did not
write: Python's zipfile and xml.etree (Moodle's question count), and pdflatex's output read as
a PDF by its header. The hostile table and names come from tests/hostile_names.py and are
checked with the same reader as every other page (tests/app/test_hostile_names_pages.py).
"""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ElementTree
import zipfile

import pytest

import dtlearn
import hostile_names as hostile
from dtlearn import pdflatex
from dtlearn.variants import Constraints, make_variant
from tests.app.conftest import unescape
from tests.app.test_hostile_names_pages import live
from tests.exact import info_gain

TEACHER = "pages/teacher.py"
try:  # written apart: the page offers it once it is there
    from dtlearn import lms_nbgrader
except ImportError:
    lms_nbgrader = None
TENNIS = dtlearn.load_dataset("tennis")



def teacher(open_app, **params):
    app = open_app(dataset="tennis", algo="id3", page="teacher", **params)
    return app


def class_of(app, identifiers: str):
    app.set("segmented_control", "teacher_by", "list")
    return app.set("text_area", "teacher_ids", identifiers)


def previews(app) -> list:
    """The two students' tables (the page's dataframes alternate: a table, then its key)."""
    return [frame for frame in app.frames()[0::2]]


def test_the_page_renders_two_students_tables_as_dtlearn_draws_them(open_app):
    app = teacher(open_app)
    app.assert_clean()
    assert app.title == "Teacher: a class set"
    first, second = previews(app)
    assert not first.equals(second)  # two students, two tables
    # the defaults: 30 students named 01..30, seed 1, steps 1 to 2 of ID3 on PlayTennis
    rules = Constraints("id3", (1, 2))
    for frame, student in ((first, "01"), (second, "02")):
        expected = make_variant(TENNIS, student, 1, rules).data.frame
        assert frame.reset_index(drop=True).equals(expected.reset_index(drop=True)), student
    keys = app.frames()[1::2]
    ada = make_variant(TENNIS, "01", 1, rules)
    assert keys[0]["decision"].tolist() == [s.test.describe() if s.action == "split" else f"leaf: {s.prediction}"
                                            for s in ada.asked]
    assert len(keys[0]) == 2  # the two steps asked
    # the root's winning score: the largest information gain over the attributes, counted from the
    # student's table with pandas (Mitchell 1997's gain, tests/exact.py)
    frame = ada.data.frame
    gains = [info_gain([tuple(frame[frame[a] == v]["play"].value_counts().reindex(["No", "Yes"], fill_value=0))
                        for v in frame[a].unique()]) for a in ("outlook", "temperature", "humidity", "wind")]
    assert keys[0]["information gain"].iloc[0] == f"{max(gains):.3f}"


def test_the_same_seed_and_identifier_give_the_same_table_and_another_seed_another(open_app):
    app = class_of(teacher(open_app), "ada\nbo")
    before = previews(app)
    again = class_of(teacher(open_app), "ada\nbo")  # another session
    assert all(a.equals(b) for a, b in zip(before, previews(again)))
    app.at.run()
    assert all(a.equals(b) for a, b in zip(before, previews(app)))
    app.set("number_input", "teacher_seed", 2)
    app.assert_clean()
    assert not previews(app)[0].equals(before[0])
    assert previews(app)[0].reset_index(drop=True).equals(
        make_variant(TENNIS, "ada", 2, Constraints("id3", (1, 2))).data.frame.reset_index(drop=True))


@pytest.mark.parametrize("identifiers, said", [
    ("ada\nbo\nada", "'ada' is on lines 1 and 3"),
    ("\n\n# nobody yet\n", "holds no student identifiers"),
    ("\n".join(f"s{i}" for i in range(1001)), "holds 1,001 identifiers; a class set here holds at most 1,000"),
    ("x" * 65, "at most 64 characters"),
    ("Ann B\nAnn-B", "would get files of the same name"),
])
def test_a_bad_list_of_identifiers_is_said_and_nothing_is_made(open_app, identifiers, said):
    app = class_of(teacher(open_app), identifiers)
    assert not app.at.exception
    assert any(said in e for e in app.errors), app.errors
    assert not app.frames() and not app.at.get("download_button")


def test_constraints_no_table_meets_name_the_setting_to_loosen(open_app):
    app = teacher(open_app)
    app.set("number_input", "teacher_max_node", 4)  # step 1 is the whole table: 14 rows
    assert not app.at.exception
    assert any("max_node_rows" in e and "On this page: *Largest node*" in e for e in app.errors), app.errors
    app.set("number_input", "teacher_rows_low", 20).set("number_input", "teacher_rows_high", 10)
    assert any("rows must be (first, last)" in e for e in app.errors), app.errors


def test_every_file_is_made_when_asked_and_reads_back(open_app, downloads):
    app = class_of(teacher(open_app), "ada\nbo\ncy")
    assert not app.at.get("download_button")  # nothing made before it is asked for
    for key in ("teacher_make_moodle", "teacher_make_qti", "teacher_make_sheets"):
        app.click(key)
        app.assert_clean()
    nbgrader = hasattr(lms_nbgrader, "assignment_zip")  # offered once its module is there
    if nbgrader:
        app.click("teacher_make_nbgrader")
        app.assert_clean()
    labels = {b.proto.label for b in app.at.get("download_button")}
    pdf = pdflatex.available()
    assert labels == {"Moodle XML", "QTI 2.1 (zip)", f"Student sheets (zip: 3 {'PDF' if pdf else 'LaTeX'} "
                      "and tables)", f"Teacher's key ({'PDF' if pdf else 'LaTeX'})",
                      *(["nbgrader (zip)"] if nbgrader else [])}, labels
    if nbgrader:  # nbgrader's course layout: the notebook (JSON, nbformat 4) and the class's tables
        course = zipfile.ZipFile(io.BytesIO(downloads["PlayTennis-id3-steps-1-2-nbgrader.zip"]))
        notebook = next(name for name in course.namelist() if name.endswith(".ipynb"))
        assert json.loads(course.read(notebook))["nbformat"] == 4
        record = json.loads(course.read(next(n for n in course.namelist() if n.endswith(".json"))))
        assert sorted(record["students"]) == ["ada", "bo", "cy"]
    moodle = ElementTree.fromstring(downloads["PlayTennis-id3-steps-1-2-moodle.xml"])
    questions = moodle.findall("question[@type='cloze']")
    assert len(questions) == 3
    assert [q.find("name/text").text for q in questions] == ["ada", "bo", "cy"] or \
        all(any(s in q.find("name/text").text for s in ("ada", "bo", "cy")) for q in questions)
    qti = zipfile.ZipFile(io.BytesIO(downloads["PlayTennis-id3-steps-1-2-qti.zip"]))
    assert sum(name.startswith("items/") for name in qti.namelist()) == 3
    sheets = zipfile.ZipFile(io.BytesIO(downloads["PlayTennis-id3-steps-1-2-sheets.zip"]))
    extension = "pdf" if pdf else "tex"
    assert sorted(sheets.namelist()) == sorted(f"PlayTennis-id3-steps-1-2-{kind}-{s}.{ext}" for s in ("ada", "bo", "cy")
                                               for kind, ext in (("sheet", extension), ("table", "csv")))
    assert not any("key" in name for name in sheets.namelist())  # the key is the teacher's alone
    key = downloads[f"PlayTennis-id3-steps-1-2-key.{extension}"]
    assert key.startswith(b"%PDF") if pdf else b"\\begin{document}" in key
    table = sheets.read("PlayTennis-id3-steps-1-2-table-bo.csv").decode()
    assert table == make_variant(TENNIS, "bo", 1, Constraints("id3", (1, 2))).csv()


def test_a_hostile_table_and_identifiers_are_shown_as_text(open_app):
    app = open_app(dataset="tennis", algo="id3", page="data")
    app.set("selectbox", "dataset", "__upload__")
    app.at.file_uploader(key="upload_file").upload(hostile.FILE_NAME, hostile.csv_bytes(), "text/csv").run()
    assert app.at.session_state["source"].startswith("upload:")
    app.at.switch_page(TEACHER).run()
    names = [name for name in hostile.NAMES.values() if len(name) <= 64]
    class_of(app, "\n".join(names))
    assert not app.at.exception, [e.value for e in app.at.exception]
    found = live(app, "teacher")
    assert not found, "\n".join(found[:30])
    assert len(app.frames()) == 4  # both previews drawn, their students' names said
    said = [unescape(m.value) for m in app.at.markdown]
    assert any(line.startswith(f"**{names[0]}** · seed 1") for line in said), said[:3]
    for key in ("teacher_make_sheets", "teacher_make_moodle"):  # the names reach LaTeX and XML too
        app.click(key)
        assert not app.at.exception and not app.errors, (key, app.errors)
        assert not live(app, key)


def test_a_numeric_target_is_said_to_need_classes(open_app):
    app = open_app(dataset="tips", algo="cart", page="teacher")
    assert not app.at.exception
    assert any("choose a target with classes" in i.value for i in app.at.info)
    assert not app.frames() and not app.at.get("download_button")


def test_a_class_past_the_pdf_limit_gets_latex_sheets_and_says_why(open_app):
    app = teacher(open_app)
    assert app.at.toggle(key="teacher_pdf").value is pdflatex.available()  # 30 students: PDFs when it can
    app.set("number_input", "teacher_count", teacher_page_limit() + 1)
    app.assert_clean()
    toggle = app.at.toggle(key="teacher_pdf")
    assert toggle.value is False and toggle.disabled
    if pdflatex.available():
        assert any(f"More than {teacher_page_limit()} students" in c.value for c in app.at.caption)


def teacher_page_limit() -> int:
    """MAX_PDF_SHEETS, read from the page's source (importing a page runs it)."""
    import re
    from pathlib import Path

    source = (Path(__file__).resolve().parents[2] / TEACHER).read_text(encoding="utf-8")
    return int(re.search(r"^MAX_PDF_SHEETS = (\d+)", source, re.M).group(1))


def test_a_criterion_no_sheet_asks_about_is_said_not_a_traceback(open_app):
    # Breiman's twoing rule: the worksheets (hence the sheets, the key and the exports) ask about
    # information gain, gain ratio and Gini gain only
    app = open_app(dataset="tennis", algo="cart", criterion="twoing", page="teacher")
    app.assert_clean()
    assert any("Worksheets are written for classification trees ranked by" in i.value
               and "split criterion" in i.value for i in app.at.info)
