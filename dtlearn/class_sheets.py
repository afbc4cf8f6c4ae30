"""A class's sheets: one exercise sheet per student's variant and the teacher's key, as LaTeX or PDF.

A student's sheet is the worksheet of their variant's tree (`worksheet`: the table, the
questions on the steps asked), headed by their identifier and the class's seed, which together
reproduce the table (`variants`). The key holds every variant's worked solution, each on its
own pages under the same heading, after a summary table of what each tree decides at the steps
asked. Every number in them is the worksheet's, that is the candidate table's own.

`class_files` yields every file of a class (the sheets, each variant's table as CSV, the key)
as (name, bytes), one at a time so that a page can show its progress; PDFs are compiled by
pdflatex (`pdflatex.compile_pdf`, one run each) when asked for.

    student_sheet(variant, dataset) -> str          # a LaTeX document
    variant_worksheet(variant, dataset) -> Worksheet   # made once per variant: sheets, key and exports read it
    key(variants, dataset) -> str                   # a LaTeX document
    file_names(variants, dataset, algorithm, extension) -> dict   # student -> (sheet, table); "key" -> key
    class_files(variants, dataset, *, pdf=False) -> Iterator[tuple[str, bytes]]

>>> import dtlearn
>>> from dtlearn.variants import Constraints, class_set
>>> variants = class_set(dtlearn.load_dataset("tennis"), ["ada", "bo"], 7, Constraints("id3", steps=(1, 2)))
>>> r"\\textbf{Student:} ada" in student_sheet(variants[0], "PlayTennis")
True
>>> [name for name, _ in class_files(variants, "PlayTennis")]  # doctest: +NORMALIZE_WHITESPACE
['PlayTennis-id3-steps-1-2-sheet-ada.tex', 'PlayTennis-id3-steps-1-2-table-ada.csv',
 'PlayTennis-id3-steps-1-2-sheet-bo.tex', 'PlayTennis-id3-steps-1-2-table-bo.csv', 'PlayTennis-id3-steps-1-2-key.tex']
"""

from __future__ import annotations

from typing import Iterator, Sequence

from . import derivation, typeset
from .data import DataError
from .pdflatex import compile_pdf
from .settings import CRITERION_NAMES, PRESET
from .steps import SPLIT
from .typeset import file_stem, tex
from .worksheet import to_latex, worksheet

__all__ = ["class_files", "file_names", "key", "student_sheet", "variant_worksheet"]


def variant_worksheet(variant, dataset: str):
    """The variant's worksheet, made once: its sheet, the key and the LMS exercise read it."""
    first, last = variant.steps
    return variant.made(("worksheet", dataset), lambda: worksheet(variant.tree, first, last, variant.digits,
                                                                  dataset=dataset))


def _heading(variant, note: str = "") -> str:
    """Who the sheet is for and the seed that (with the identifier) reproduces its table."""
    line = r"\textbf{Student:} " + tex(variant.student) + r" \hfill \textbf{Seed:} " + str(variant.seed) + r"\par"
    return line + ("\n" + tex(note) + r"\par" if note else "")


def _body(document: str) -> str:
    """The lines between \\begin{document} and \\end{document} of a `typeset.document`
    (names in it are escaped: neither can occur inside)."""
    start = document.index(r"\begin{document}") + len(r"\begin{document}")
    return document[start:document.rindex(r"\end{document}")].strip("\n")


def student_sheet(variant, dataset: str) -> str:
    """A student's exercise sheet (no answers): their identifier and the seed, then the
    worksheet on their table. `dataset` names the table in the title."""
    return _student_document(variant, variant_worksheet(variant, dataset))


def _student_document(variant, sheet) -> str:
    note = "This table is drawn for you alone from the seed and your identifier; another student's differs."
    return typeset.document([_heading(variant, note), _body(to_latex(sheet, False))])


def decision(step, digits: int) -> tuple[str, str]:
    """A step's decision and the score that won it, as the key's summary writes them: the test
    and the winning candidate's score (the candidate table's, to `digits` decimals), or the
    leaf's class and ""."""
    if step.action != SPLIT:
        return f"leaf: {step.prediction}", ""
    return step.test.describe(), derivation.number(float(step.candidates["score"][step.chosen_row]), digits)


def _decision(step, digits: int) -> str:
    said, score = decision(step, digits)
    return f"{said} ({score})" if score else said


def key(variants: Sequence, dataset: str) -> str:
    """The teacher's key: a summary of each variant's decisions at the steps asked, then every
    variant's worked solution from a new page, headed as the student's sheet is."""
    if not variants:
        raise DataError("A key needs at least one variant.")
    return _key_document(variants, [variant_worksheet(v, dataset) for v in variants], dataset)


def _key_document(variants: Sequence, sheets: Sequence, dataset: str) -> str:
    first, last = variants[0].steps
    steps = f"step {first}" if first == last else f"steps {first} to {last}"
    count = f"{len(variants)} variant{'s' if len(variants) != 1 else ''}"
    settings = variants[0].tree.settings
    algorithm = PRESET[settings.algorithm].name if settings.algorithm in PRESET else settings.algorithm
    out = [r"\section*{" + tex(f"Key: {dataset} with {algorithm}, {steps}, {count} (seed {variants[0].seed})") + "}",
           tex(f"What each student's tree decides at the steps asked, with the winning "
               f"{CRITERION_NAMES[settings.criterion]}; each worked solution follows on its own pages, its numbers "
               "those of the student's candidate tables.")]
    header = ("#", "Student", *(f"Step {k}" for k in range(first, last + 1)))
    rows = [(str(i), v.student, *(_decision(s, v.digits) for s in v.asked)) for i, v in enumerate(variants, 1)]
    out += typeset.table(header, rows, r"\footnotesize")
    for variant, sheet in zip(variants, sheets):
        out += [r"\clearpage", _heading(variant), _body(to_latex(sheet, True))]
    return typeset.document(out)


def file_names(variants: Sequence, dataset: str, algorithm: str, extension: str) -> dict:
    """Each student's (sheet, table) file names, and the key's under "key": the dataset, the
    algorithm and the steps, then the student's identifier made safe for a file name.
    DataError when two identifiers would name the same file."""
    first, last = variants[0].steps if variants else (1, 1)
    steps = f"step-{first}" if first == last else f"steps-{first}-{last}"
    stem = f"{file_stem(dataset)}-{file_stem(algorithm)}-{steps}"
    names, seen = {}, {}
    for variant in variants:
        student = file_stem(variant.student, fallback="student")
        if student.lower() in seen:
            raise DataError(f"Students {seen[student.lower()]!r} and {variant.student!r} would get files of the "
                            "same name: make their identifiers differ in letters or digits.")
        seen[student.lower()] = variant.student
        names[variant.student] = (f"{stem}-sheet-{student}.{extension}", f"{stem}-table-{student}.csv")
    names["key"] = f"{stem}-key.{extension}"
    return names


def class_files(variants: Sequence, dataset: str, *, pdf: bool = False) -> Iterator[tuple[str, bytes]]:
    """Every file of the class, as (name, bytes): each student's sheet and table, then the key;
    PDFs compiled by pdflatex when `pdf` (OSError when it is not installed), else LaTeX."""
    if not variants:
        raise DataError("The class has no variants.")
    names = file_names(variants, dataset, variants[0].tree.algorithm, "pdf" if pdf else "tex")

    def written(document: str) -> bytes:
        return compile_pdf(document).pdf if pdf else document.encode("utf-8")

    sheets = []  # each worksheet made once, for the student's sheet and the key
    for variant in variants:
        sheets.append(variant_worksheet(variant, dataset))
        sheet_name, table_name = names[variant.student]
        yield sheet_name, written(_student_document(variant, sheets[-1]))
        yield table_name, variant.csv().encode("utf-8")
    yield names["key"], written(_key_document(variants, sheets, dataset))
