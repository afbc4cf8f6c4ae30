"""`dtlearn variants`: a class's sheets, key and tables made from a template, written to a folder.

    python -m dtlearn variants tennis -a id3 --students 30 --seed 7 --steps 1-2 --out class
    python -m dtlearn variants exam.csv --ids ids.txt --seed 7 --steps 1-2 --max-node-rows 14 --same-shape --out class
    python -m dtlearn variants tennis --students 30 --seed 7 --steps 1-2 --out class --moodle --qti --nbgrader course

One sheet per student (PDF when pdflatex is installed, else LaTeX; `--tex` for LaTeX anyway),
each variant's table as CSV, and the key (`class_sheets.class_files`). `cli` hands over the
template it read and the settings of `--set`.
"""

from __future__ import annotations

from pathlib import Path

from .class_sheets import class_files, file_names
from .data import DataError
from .lms_moodle import moodle_xml
from .lms_nbgrader import write_assignment
from .lms_qti import qti_package
from .pdflatex import INSTALL, available
from .variants import Constraints, class_set


def add_arguments(command) -> None:
    """The options of `dtlearn variants` (the template, --target, --algorithm and --set are `cli`'s)."""
    who = command.add_mutually_exclusive_group(required=True)
    who.add_argument("--students", type=int, help="how many students (named 01, 02, ...)")
    who.add_argument("--ids", help="a text file of student identifiers, one a line (blank lines and # lines skipped)")
    command.add_argument("--seed", type=int, required=True, help="the class's seed: with a student's identifier it "
                         "reproduces that student's table")
    command.add_argument("--steps", default="1", help="the growth steps asked, a step or a range like 1-2 (default 1)")
    command.add_argument("--out", required=True, help="the folder to write the sheets, tables and key into")
    command.add_argument("--rows", help="rows of each table, a number or a range like 10-14 (default: the template's)")
    for name, text in (("attributes", "attributes each table keeps"), ("classes", "classes each table keeps"),
                       ("numeric", "attributes that stay numeric (others become low / medium / high)"),
                       ("max-node-rows", "the most rows of a node asked (what a student computes by hand)")):
        command.add_argument(f"--{name}", type=int, help=f"how many {text} (default: the template's)"
                             if name != "max-node-rows" else text + " (default: no limit)")
    command.add_argument("--missing", type=float, help="the share of attribute cells left empty, e.g. 0.05")
    shape = command.add_mutually_exclusive_group()
    shape.add_argument("--same-shape", dest="same_shape", action="store_const", const=True,
                       help="every tree has the template's shape")
    shape.add_argument("--other-shape", dest="same_shape", action="store_const", const=False,
                       help="no tree has the template's shape")
    command.add_argument("--digits", type=int, default=3, help="decimals of the answers (default 3)")
    command.add_argument("--tex", action="store_true", help="write LaTeX, not PDF")
    command.add_argument("--moodle", action="store_true", help="also write the class as Moodle XML (a question "
                         "category, one Cloze question per student) for Moodle's question bank")
    command.add_argument("--qti", action="store_true", help="also write the class as a QTI 2.1 package (a zip) "
                         "for Canvas, Blackboard and other LMSs")
    command.add_argument("--nbgrader", metavar="DIR", help="also write the class as an nbgrader assignment into the "
                         "course folder DIR (source/<assignment>/: one notebook for the class, each student's table "
                         "in it, autograded by dtlearn)")


def span(text: str | None, name: str) -> tuple[int, int] | None:
    """'3' or '1-3' as (first, last); None for None.

    >>> span("1-3", "--steps"), span("4", "--rows"), span(None, "--rows")
    ((1, 3), (4, 4), None)
    """
    if text is None:
        return None
    first, _, last = text.partition("-")
    if not first.strip().isdigit() or not (last or first).strip().isdigit():
        raise ValueError(f"{name} takes a number or a range like 1-3, not '{text}'")
    return int(first), int(last or first)


def students(options) -> list[str] | int:
    """--students, or the identifiers of --ids (one a line)."""
    if options.ids is None:
        return options.students
    lines = Path(options.ids).read_text(encoding="utf-8-sig").splitlines()
    ids = [line.strip() for line in lines if line.strip() and not line.strip().startswith("#")]
    if not ids:
        raise DataError(f"{options.ids} holds no student identifiers (one a line).")
    return ids


def run(options, data, settings: dict, dataset: str) -> str:
    """Make the class and write its files into --out; says what it wrote."""
    constraints = Constraints(options.algorithm, span(options.steps, "--steps"), span(options.rows, "--rows"),
                              options.attributes, options.classes, options.numeric, options.missing,
                              options.max_node_rows, options.same_shape, options.digits, settings=settings)
    variants = class_set(data, students(options), options.seed, constraints)
    pdf = not options.tex and available()
    folder = Path(options.out)
    folder.mkdir(parents=True, exist_ok=True)
    for name, content in class_files(variants, dataset, pdf=pdf):
        (folder / name).write_bytes(content)
    stem = file_names(variants, dataset, options.algorithm, "x")["key"].removesuffix("-key.x")
    exports = {"moodle": (f"{stem}-moodle.xml", moodle_xml, "Moodle XML"),
               "qti": (f"{stem}-qti.zip", qti_package, "a QTI 2.1 package")}
    wrote = []
    for flag, (name, export, words) in exports.items():
        if getattr(options, flag, False):
            (folder / name).write_bytes(export(variants, dataset))
            wrote.append(words)
    if getattr(options, "nbgrader", None):
        notebook = write_assignment(variants, dataset, options.nbgrader)
        wrote.append(f"an nbgrader assignment in {notebook.parent}")
    kind = "PDF" if pdf else "LaTeX"
    note = "" if pdf or options.tex else f" (pdflatex is not installed: {INSTALL} for PDFs)"
    also = f", {' and '.join(wrote)}" if wrote else ""
    return (f"Wrote {len(variants)} sheets ({kind}), {len(variants)} tables (CSV){also} and the key to {folder}"
            f"{note}.")
