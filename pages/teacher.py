"""Teacher: a class set, a table of their own for every student, its sheets, key and LMS files.

The template is the sidebar's table, target, algorithm and settings; this page sets the class
(how many students, or their identifiers), the seed, the steps asked and the constraints, and
hands them to dtlearn: `variants` draws and checks each student's table, `class_sheets` writes
the sheets and the key, `lms_moodle` / `lms_qti` (and `lms_nbgrader`, when installed) the LMS
files. Two variants are previewed with their keys; the files are made when asked, each in a job
of its own that shows its progress (`pages.computing.computed`), and kept for the same class.
The class stays out of the link: students' identifiers do not travel in an address.
"""

from __future__ import annotations

import io
import zipfile

import pandas as pd
import streamlit as st

from dtlearn import budget, class_sheets, lms_moodle, lms_qti, pdflatex, worksheet
from dtlearn.data import DataError
from dtlearn.roster import MAX_STUDENTS, read_roster
from dtlearn.settings import CRITERION_NAMES
from dtlearn.variant_checks import PROBLEMS
from dtlearn.variants import MAX_ID_CHARS, Constraints, iter_variants, make_variant, student_ids
from pages.computing import computed
from pages.view import header, view
from pages.wording import md

try:  # written apart; offered once it is there
    from dtlearn import lms_nbgrader
except ImportError:  # pragma: no cover - depends on the checkout
    lms_nbgrader = None

# Sheets compiled into PDFs in one page run: pdflatex takes a quarter to half a second a sheet on
# a shared server, and a page has the page's minute (pages.computing.PAGE). A larger class gets its sheets as LaTeX
# (the key stays a PDF: one run for the whole class).
MAX_PDF_SHEETS = 60
SHAPES = {"either": None, "same": True, "other": False}
SHAPE_WORDS = {"either": "Either", "same": "The template's", "other": "Another than the template's"}
# A worksheet numbers its questions on through the steps: Streamlit's lists leave room for one
# digit, and clipped "10." to ".0".
WIDE_NUMBERS = """<style>
[data-testid="stExpander"] [data-testid="stMarkdownContainer"] ol { padding-left: 2.4em; }
</style>"""
# Where on this page each check of `variant_checks` is loosened.
RELAX = {"size": "*Largest node* (or fewer *Rows*)", "shape": "*Tree shape* (Either)",
         "tie": "*Decimals asked* (more decimals: a finer tolerance) or another *Seed*",
         "work": "*Steps asked* (or *Tree shape*: the template's)", "steps": "*Steps asked* (or more *Rows*)",
         "copy": "*Rows* or *Attributes kept* (a table further from the template's)",
         "fit": "*Classes kept* or *Missing share*"}


# the class: who, which seed, what is asked ---------------------------------------------------

def students_ui() -> tuple[str, ...] | str:
    """The class's identifiers, or the message saying why the pasted list cannot be used."""
    by = st.segmented_control("Students", ("count", "list"), key="teacher_by", required=True, default="count",
                              format_func={"count": "How many", "list": "A list of identifiers"}.get)
    if by == "count":
        count = st.number_input(f"Number of students (1 to {MAX_STUDENTS:,})", 1, MAX_STUDENTS, 30, step=1,
                                key="teacher_count", help="Named 01, 02, … on their sheets and in the files.")
        return student_ids(int(count))
    text = st.text_area(f"Student identifiers, one a line (at most {MAX_STUDENTS:,})", key="teacher_ids",
                        height=140, placeholder="ada.lovelace\nalan.turing\n…",
                        help=f"Up to {MAX_ID_CHARS} characters each, as the LMS or the register names them; "
                             "blank lines and lines starting with # are skipped. Each sheet prints its student's "
                             "identifier, and the files are named by it.")
    try:
        return read_roster(text)
    except DataError as error:
        return str(error)


def constraints_ui(v) -> Constraints | str:
    """The constraints (dtlearn.variants.Constraints) set on this page, or dtlearn's message."""
    data, tree = v.data, v.tree
    numeric = [a for a, k in data.kinds.items() if k == "numeric"]
    total = tree.growth_steps
    left, middle, right = st.columns(3)
    if total > 1:
        steps = left.slider("Steps asked", 1, total, (1, min(2, total)), key="teacher_steps",
                            help="The growth steps each sheet asks about (as the Step page numbers them).")
    else:
        steps = (1, 1)
        left.caption("Steps asked: step 1, the template's only growth step.")
    digits = middle.number_input("Decimals asked", 2, 6, 3, step=1, key="teacher_digits",
                                 help="The decimals of each answer; two candidates closer than one unit in the "
                                      "last of them are a tie, and such a table is drawn again.")
    shape = right.selectbox("Tree shape", tuple(SHAPES), key="teacher_shape", format_func=SHAPE_WORDS.get,
                            help="Whether each student's tree has the template's shape (nodes and branches).")
    n = len(data.frame)
    columns = st.columns(4)
    fewest = columns[0].number_input("Rows: fewest", 2, 10 * n, None, step=1, key="teacher_rows_low",
                                     placeholder=f"{n}",
                                     help="The fewest rows of a table (empty: the template's).")
    most = columns[1].number_input("Rows: most", 2, 10 * n, None, step=1, key="teacher_rows_high",
                                   placeholder=f"{n}", help="The most rows of a table (empty: the template's).")
    attributes = columns[2].number_input("Attributes kept", 1, len(data.attributes), None, step=1,
                                         key="teacher_attributes", placeholder=f"all {len(data.attributes)}")
    classes = columns[3].number_input("Classes kept", 2, max(2, len(data.classes)), None, step=1,
                                      key="teacher_classes", placeholder=f"all {len(data.classes)}")
    columns = st.columns(4)
    kept_numeric = columns[0].number_input("Numeric kept", 0, max(len(numeric), 0), None, step=1,
                                           key="teacher_numeric", placeholder=f"all {len(numeric)}",
                                           disabled=not numeric,
                                           help="How many attributes stay numeric; the others become low / "
                                                "medium / high by the template's terciles.")
    missing = columns[1].number_input("Missing share", 0.0, 0.5, None, step=0.05, key="teacher_missing",
                                      placeholder="as is", format="%.2f",
                                      help="The share of attribute cells left empty, at least (empty: as "
                                           "the template).")
    largest = columns[2].number_input("Largest node", 2, None, None, step=1, key="teacher_max_node",
                                      placeholder="no limit",
                                      help="The most rows of a node a sheet asks about: what a student computes "
                                           "by hand.")
    low, high = fewest or most, most or fewest
    try:
        return Constraints(v.choices.algorithm, steps, (int(low), int(high)) if low else None,
                           _whole(attributes), _whole(classes), _whole(kept_numeric), missing, _whole(largest),
                           SHAPES[shape], int(digits), settings=v.choices.settings)
    except ValueError as error:
        return str(error)


def _whole(value) -> int | None:
    return None if value is None else int(value)


def relax(error: DataError) -> str:
    """dtlearn's message that no table met the constraints, and where this page loosens them; or
    that the page's time ran out, and what makes the work cheaper."""
    message = str(error)
    if isinstance(error, budget.TooCostly):
        return md(message) + ("  \nFewer students at a time (a list of identifiers per group) or *PDF sheets* off "
                              "makes this cheaper; pressing the button again at once goes on with the work begun.")
    where = [RELAX[code] for code, words in PROBLEMS.items() if words in message and code in RELAX]
    return md(message) + (f"  \nOn this page: {where[0]}." if where else "")


# the variants, made by dtlearn within the app's budget --------------------------------------

def _key(v, students: tuple, seed: int, constraints: Constraints) -> tuple:
    c = v.choices
    return (c.source, c.target, c.kinds, students, seed, constraints)


def variant(v, student: str, seed: int, constraints: Constraints):
    data = v.data
    return computed(f"Drawing the table of {student}…", ("teacher-variant", *_key(v, (student,), seed,
                           constraints)), lambda: make_variant(data, student, seed, constraints))


def _class(data, students: tuple, seed: int, constraints: Constraints) -> list:
    """Every student's variant, each drawing reporting as one part of the class ("student 37 of
    300"), so that the bar fills once over the class, not once per tree grown."""
    made, drawing = [], iter_variants(data, students, seed, constraints)
    for index in range(len(students)):
        with budget.part(index, len(students), "student"):
            made.append(next(drawing))
    return made


def class_set(v, students: tuple, seed: int, constraints: Constraints) -> list:
    data = v.data
    return computed("Drawing every student's table…", ("teacher-class", *_key(v, students, seed, constraints)),
                           lambda: _class(data, students, seed, constraints), eager=True)


# the files ---------------------------------------------------------------------------------

def _files(variants: list, title: str, pdf_sheets: bool, pdf_key: bool) -> tuple[bytes, str, bytes]:
    """The sheets and tables `class_sheets` writes for the class, zipped, and the key's name and
    bytes (a PDF when `pdf_key`); DataError when pdflatex cannot make a PDF, saying which."""
    total, files = 2 * len(variants) + 1, {}
    key = class_sheets.file_names(variants, title, variants[0].tree.algorithm, "pdf" if pdf_sheets else "tex")["key"]
    try:
        for name, content in class_sheets.class_files(variants, title, pdf=pdf_sheets):
            files[name] = content
            budget.report("writing the sheets", len(files) / total, f"{len(files):,} of {total:,} files")
        key_file = files.pop(key)
        if pdf_key and not pdf_sheets:
            budget.report("compiling the key", None, f"{len(variants):,} worked solutions")
            key, key_file = key.removesuffix(".tex") + ".pdf", pdflatex.compile_pdf(key_file.decode("utf-8")).pdf
    except (OSError, ValueError) as error:
        raise DataError(f"{error} Turn off *PDF sheets* for their LaTeX.") from None
    return _zip(files), key, key_file


def _zip(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in files.items():
            archive.writestr(name, content)
    return buffer.getvalue()


def _stem(variants: list, title: str) -> str:
    """The class's file stem, as `dtlearn variants` names its exports: dataset, algorithm, steps."""
    return class_sheets.file_names(variants, title, variants[0].tree.algorithm, "x")["key"].removesuffix("-key.x")


def _exports() -> dict:
    """name -> (button title, what the job says, (variants, title) -> bytes, file suffix, MIME type)."""
    exports = {"moodle": ("Moodle XML", "Writing the Moodle XML…", lms_moodle.moodle_xml, "-moodle.xml",
                          "application/xml"),
               "qti": ("QTI 2.1 (zip)", "Writing the QTI package…", lms_qti.qti_package, "-qti.zip",
                       "application/zip")}
    nbgrader = getattr(lms_nbgrader, "assignment_zip", None)
    if nbgrader is not None:
        exports["nbgrader"] = ("nbgrader (zip)", "Writing the notebook…", nbgrader, "-nbgrader.zip",
                               "application/zip")
    return exports


def _wanted(product: str, key: tuple) -> bool:
    return st.session_state.get("teacher_made", {}).get(product) == key


def _want(product: str, key: tuple) -> None:
    st.session_state.setdefault("teacher_made", {})[product] = key


# the page ------------------------------------------------------------------------------------

def decisions(variant_) -> pd.DataFrame:
    """What the variant's tree decides at each step asked, with the winning score: the key's
    summary (`class_sheets.decision`)."""
    criterion = CRITERION_NAMES.get(variant_.tree.settings.criterion, variant_.tree.settings.criterion)
    rows = []
    for step in variant_.asked:
        said, score = class_sheets.decision(step, variant_.digits)
        rows.append({"step": step.number, "node": " and ".join(step.path) or "the root", "decision": said,
                     criterion: score})
    return pd.DataFrame(rows)


def preview_ui(v, students: tuple, seed: int, constraints: Constraints) -> None:
    st.subheader("Two students' tables and keys")
    picks = list(students[:2])
    if len(students) > 2:
        columns = st.columns(2)
        picks = [columns[i].selectbox(f"Student {'AB'[i]}", students, index=i, key=f"teacher_preview_{i}")
                 for i in range(2)]
    elif len(students) == 1:
        st.caption("A class of one: one table to preview.")
    shown = []
    for column, student in zip(st.columns(len(picks)), picks):
        with column:
            try:
                made = variant(v, student, seed, constraints)
            except DataError as error:
                st.error(relax(error))
                continue
            st.markdown(f"**{md(student)}** · seed {seed} · drawn at attempt {made.attempt + 1}")
            st.dataframe(made.data.frame, hide_index=True, height="content" if len(made.data.frame) <= 20 else 400)
            st.caption("The key: what the tree decides at each step asked, and the winning score.")
            st.dataframe(decisions(made), hide_index=True)
            shown.append(made)
    if shown:
        box = st.expander("The worked solutions: each key in full, as the teacher's key prints it")
        st.sidebar.html(WIDE_NUMBERS)  # (in the sidebar: no gap in the page)
        tabs = box.tabs([f"Worked solution: {md(made.student)}" for made in shown])
        for tab, made in zip(tabs, shown):
            sheet = worksheet.preview(worksheet.worksheet(made.tree, *made.steps, made.digits, dataset=v.title))
            text = worksheet.to_markdown(sheet, True)
            tab.markdown(text[text.find("## Step"):] if "## Step" in text else text)


def files_ui(v, students: tuple, seed: int, constraints: Constraints) -> None:
    st.subheader(f"The class's files: {len(students):,} students")
    key = _key(v, students, seed, constraints)
    can_pdf = pdflatex.available()
    if not can_pdf or len(students) > MAX_PDF_SHEETS:  # shown off, not on and greyed
        st.session_state["teacher_pdf"] = False
    pdf = st.toggle("PDF sheets", value=can_pdf and len(students) <= MAX_PDF_SHEETS, key="teacher_pdf",
                    disabled=not can_pdf or len(students) > MAX_PDF_SHEETS,
                    help="Off: each sheet as LaTeX (one run of pdflatex each), made in a fraction of the time.")
    if not can_pdf:
        st.caption(f"pdflatex is not installed on this server ({pdflatex.INSTALL}): the sheets and the key come "
                   "as LaTeX, each compiled with one run of pdflatex.")
    elif len(students) > MAX_PDF_SHEETS:
        st.caption(f"More than {MAX_PDF_SHEETS} students: their sheets come as LaTeX (pdflatex takes up to half a "
                   "second a sheet, longer than a page may wait), the key as a PDF. For PDF sheets, make the class "
                   f"in groups of {MAX_PDF_SHEETS}, or run `python -m dtlearn variants` on your computer.")
    pdf = pdf and can_pdf and len(students) <= MAX_PDF_SHEETS
    left, right = st.columns(2)
    sheets_key = ("teacher-sheets", *key, v.title, pdf, can_pdf)
    if _wanted("sheets", sheets_key):
        title = v.title
        try:
            made = computed("Making the sheets and the key…", sheets_key, lambda: _files(
                class_set(v, students, seed, constraints), title, pdf, can_pdf), eager=True)
        except DataError as error:
            st.error(relax(error))
            made = None
        if made is not None:
            sheets, key_name, key_file = made
            is_pdf = key_name.endswith(".pdf")
            left.download_button(f"Student sheets (zip: {len(students):,} {'PDF' if pdf else 'LaTeX'} and tables)",
                                 sheets, key_name.rsplit("-key.", 1)[0] + "-sheets.zip", "application/zip",
                                 key="teacher_sheets_zip", on_click="ignore", width="stretch",
                                 icon=":material/folder_zip:")
            right.download_button(f"Teacher's key ({'PDF' if is_pdf else 'LaTeX'})", key_file, key_name,
                                  "application/pdf" if is_pdf else "text/x-tex", key="teacher_key",
                                  on_click="ignore", width="stretch", icon=":material/key:")
    else:
        left.button("Make the sheets and the key", key="teacher_make_sheets", on_click=_want,
                    args=("sheets", sheets_key), width="stretch", icon=":material/description:")
    columns = st.columns(len(_exports()))
    for column, (name, (label, what, export, suffix, mime)) in zip(columns, _exports().items()):
        export_key = (f"teacher-{name}", *key, v.title)
        if not _wanted(name, export_key):
            column.button(f"Make {label}", key=f"teacher_make_{name}", on_click=_want, args=(name, export_key),
                          width="stretch")
            continue
        title = v.title

        def make(export=export, what=what, title=title) -> tuple[str, bytes]:
            variants = class_set(v, students, seed, constraints)
            budget.report(what.rstrip("…").lower(), None, f"{len(variants):,} questions")
            return _stem(variants, title), export(variants, title)

        try:
            stem, content = computed(what, export_key, make, eager=True)
        except DataError as error:
            column.error(relax(error))
            continue
        column.download_button(label, content, stem + suffix, mime, key=f"teacher_{name}", on_click="ignore",
                               width="stretch", icon=":material/download:")
    st.caption("Each file is made when asked, for this class (its students, seed, steps and constraints), and kept "
               "while they stay the same. Moodle: import the XML into a question bank (one Cloze question per "
               "student, named by the identifier). QTI 2.1: import the zip into Canvas, Blackboard and others."
               + (" nbgrader: unpack the zip in the course's folder, then `nbgrader generate_assignment`; the "
                  "identifiers must be the course's nbgrader student ids." if "nbgrader" in _exports() else ""))


v = view()
header("Teacher: a class set", v, short="Teacher")
if v.tree.is_regression:
    st.info("A class set asks about a classification tree (entropy, gain, gain ratio, Gini). This target is "
            "numeric: choose a target with classes in the sidebar.")
    st.stop()
if said := worksheet.refusal(v.tree):  # the sheets, the key and the exports are the worksheets' questions
    st.info(md(said) + " Choose one of them as the split criterion in the sidebar.")
    st.stop()
if v.tree.growth_steps == 0:
    st.info("The template's tree has no growth step to ask about.")
    st.stop()
st.caption("The template is the sidebar's table, target, algorithm and settings. Each student gets a table of their "
           "own, drawn from it and checked by dtlearn (no tie at the top, nodes small enough, the shape asked for); "
           "the seed and a student's identifier reproduce that table exactly.")
who, seed_box = st.columns([2, 1])
with who:
    students = students_ui()
seed = int(seed_box.number_input("Seed", 0, 2**31 - 1, 1, step=1, key="teacher_seed",
                                 help="With a student's identifier, it draws that student's table: the same seed, "
                                      "the same tables, in any session."))
constraints = constraints_ui(v)
if isinstance(students, str):
    st.error(md(students))
elif isinstance(constraints, str):
    st.error(md(constraints))
else:
    preview_ui(v, students, seed, constraints)
    files_ui(v, students, seed, constraints)
