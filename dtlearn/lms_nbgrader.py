"""A class's variants as an nbgrader assignment: one notebook for the class, each student's table inside it.

nbgrader gives every student of an assignment the same notebook and grades the same cells of
each: its gradebook holds one set of grade cells per assignment (nbgrader.readthedocs.io,
"Philosophy": `source/{assignment}/{notebook}.ipynb`, released to all). So the per-student
table is not a notebook of its own: the one notebook asks for the student's identifier,
reads that student's table from a file beside it (`dtlearn_class.json`: every variant's table,
the algorithm and its settings, the steps asked; no answers) and grows the tree with dtlearn
in the kernel, as R's `exams` makes a variant from a seed and an identifier.

The notebook (nbformat 4.5, nbgrader's cell metadata schema 3):

* a locked introduction; a solution cell for the student's identifier; a locked cell that
  opens the student's sheet (`open_sheet`) and prints the table;
* per growth step asked: a locked cell that prints the step's questions (the worksheet's, from
  `lms_items.exercise`) and a dictionary to copy, one entry per blank; a solution cell for the
  answers; an autograded test cell, `sheet.grade(step, answers)`, which grades each entry with
  `grading.grade` (the checker's rule), prints a line per entry naming the common mistake a
  wrong number reproduces (`mistakes`), and returns the points earned: nbgrader reads a number
  a test cell returns as partial credit.

A step's cell is worth as many points as its most-asked variant has blanks (one point a blank
when every variant asks as many; else each blank an equal share of the step's points).
While nbgrader autogrades (`NBGRADER_EXECUTION=autograde`), the student whose submission it
is (the folder nbgrader grades, `autograded/{student}/{assignment}`) is graded on their own
table whatever identifier the notebook holds, so the class's identifiers must be the nbgrader
student ids. The class file is copied from `source/` at autograde, so a student cannot change
it; a key's fingerprint in it warns when the grading dtlearn computes another key than the
one that exported it.

>>> import dtlearn, json
>>> from dtlearn.variants import Constraints, class_set
>>> ada = class_set(dtlearn.load_dataset("tennis"), ["ada"], 7, Constraints("id3"))
>>> sorted(name for name, _ in course_files(ada, "PlayTennis", "hw1"))
['source/hw1/dtlearn_class.json', 'source/hw1/hw1.ipynb']
>>> cells = notebook(ada, "PlayTennis")["cells"]
>>> [c["metadata"]["nbgrader"]["points"] for c in cells if c["metadata"]["nbgrader"]["grade"]]
[6]
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import numbers
import os
import re
import warnings
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import pandas as pd

from .api import fit
from .data import DataError, Dataset
from .grading import Work, grade
from .induction import infer_task
from .lms_items import Blank, Exercise, exercise
from .settings import make_settings
from .variants import Variant

__all__ = ["CLASS_FILE", "Sheet", "assignment_name", "assignment_zip", "class_record", "course_files", "notebook",
           "open_sheet", "write_assignment"]

CLASS_FILE = "dtlearn_class.json"
FORMAT = 1  # the class file's layout; a sheet refuses a file of another
_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")  # an nbgrader assignment and notebook id, a cell's grade_id


# --- the teacher's side: the class file and the notebook -------------------------------------

def _settings(variant) -> dict:
    """The tree's settings that differ from its algorithm's preset: what `fit` needs to grow it
    again (the task only when it is not the one `fit` decides from the table)."""
    preset = make_settings(variant.tree.algorithm).to_dict()
    if variant.tree.settings.task == infer_task(variant.data):
        preset["task"] = variant.tree.settings.task
    return {k: v for k, v in variant.tree.settings.to_dict().items() if k != "algorithm" and v != preset[k]}


def _cell(value):
    if value is None or (isinstance(value, float) and math.isnan(value)) or value is pd.NA:
        return None
    return value.item() if hasattr(value, "item") else value


def _table(data: Dataset) -> dict:
    frame = data.frame
    return {"columns": [str(c) for c in frame.columns], "target": data.target, "kinds": dict(data.kinds),
            "rows": [[_cell(v) for v in row] for row in frame.itertuples(index=False, name=None)]}


def fingerprint(ex: Exercise) -> str:
    """A digest of the key (each blank's name and value as written): equal keys, equal digests."""
    text = json.dumps([(b.ident, b.shown) for b in ex.blanks], ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _parts(variant, ex: Exercise) -> dict[int, tuple[Blank, ...]]:
    """The blanks of each growth step asked, by its ordinal (the first asked is `variant.steps[0]`)."""
    return {variant.steps[0] + i: part.blanks for i, part in enumerate(ex.parts)}


def class_record(variants: Sequence, dataset: str) -> dict:
    """The class file's content: every variant's table and how its tree grows, the points of
    each step, and each key's fingerprint; no answer in it."""
    if not variants:
        raise DataError("The class has no variants.")
    first = variants[0]
    points: dict[int, int] = {}
    students = {}
    for variant in variants:
        ex = exercise(variant, dataset)
        for step, blanks in _parts(variant, ex).items():
            points[step] = max(points.get(step, 0), len(blanks))
        students[variant.student] = {"attempt": variant.attempt, "table": _table(variant.data),
                                     "key": fingerprint(ex)}
    return {"format": FORMAT, "dataset": dataset, "seed": first.seed, "algorithm": first.tree.algorithm,
            "settings": _settings(first), "steps": list(first.steps), "digits": first.digits,
            "points": {str(k): v for k, v in sorted(points.items())}, "students": students}


def assignment_name(variants: Sequence, dataset: str) -> str:
    """A default assignment id: the dataset, the algorithm and the steps, in letters nbgrader takes.

    >>> import dtlearn
    >>> from dtlearn.variants import Constraints, class_set
    >>> assignment_name(class_set(dtlearn.load_dataset("tennis"), ["a"], 7, Constraints("c45", (1, 2))), "Play Tennis")
    'Play_Tennis-c45-steps-1-2'
    """
    first, last = variants[0].steps
    steps = f"step-{first}" if first == last else f"steps-{first}-{last}"
    stem = re.sub(r"[^A-Za-z0-9_]+", "_", str(dataset)).strip("_")[:32] or "homework"
    return f"{stem}-{variants[0].tree.algorithm}-{steps}"


def _source(text: str) -> list[str]:
    lines = text.split("\n")
    return [line + "\n" for line in lines[:-1]] + [lines[-1]]


def _nb_cell(kind: str, ident: str, text: str, *, locked=False, solution=False, points=None) -> dict:
    meta = {"grade": points is not None, "grade_id": ident, "locked": locked, "schema_version": 3,
            "solution": solution, "task": False}
    if points is not None:
        meta["points"] = points
    cell = {"cell_type": kind, "id": ident, "metadata": {"nbgrader": meta}, "source": _source(text)}
    if kind == "code":
        cell.update(execution_count=None, outputs=[])
    return cell


INTRODUCTION = """# Growing a decision tree by hand: your own table

Your table is your own: every student of the class has another, made from the same template.

1. In the next cell, write your identifier as your teacher gave it, in quotes, then run the
   notebook from the top (*Run All*): it prints your table and, for each step, the questions.
2. For each step, copy the dictionary printed above its answer cell into that cell and write your
   answers in it: numbers in quotes with the decimals asked (`"0.247"`; `"5/14"` and a decimal
   comma are read too), the attribute or class as its name (`"outlook"`).
3. The cell after each answer cell checks your answers and prints what it finds; your teacher's
   grading runs the same cells. Work by hand: the point is the working, and the grading names
   the usual mistakes."""


def notebook(variants: Sequence, dataset: str) -> dict:
    """The assignment's source notebook (nbformat 4 JSON as a dict), with nbgrader's metadata;
    its solution regions hold the first student's identifier and key (the instructor's version)."""
    record = class_record(variants, dataset)
    first, last = record["steps"]
    asked = f"growth step {first}" if first == last else f"growth steps {first} to {last}"
    cells = [_nb_cell("markdown", "introduction", INTRODUCTION + f"\n\nThis exercise: {record['algorithm']}, "
                      f"{asked}, answers to {record['digits']} decimals.", locked=True),
             _nb_cell("code", "student_id", "# Your identifier, in quotes, as your teacher gave it:\n"
                      f"### BEGIN SOLUTION\nSTUDENT_ID = {variants[0].student!r}\n### END SOLUTION",
                      solution=True),
             _nb_cell("code", "open_sheet", "from dtlearn.lms_nbgrader import open_sheet\n\n"
                      "sheet = open_sheet(STUDENT_ID)\nsheet.show()", locked=True)]
    for step in range(first, last + 1):
        cells += [_nb_cell("markdown", f"step_{step}", f"## Growth step {step}", locked=True),
                  _nb_cell("code", f"questions_{step}", f"sheet.questions({step})", locked=True),
                  _nb_cell("code", f"answers_{step}", f"# Paste the dictionary printed above and fill it in.\n"
                           f"### BEGIN SOLUTION\nstep_{step} = sheet.key({step})\n### END SOLUTION",
                           solution=True),
                  _nb_cell("code", f"grade_step_{step}", f"sheet.grade({step}, step_{step})", locked=True,
                           points=record["points"][str(step)])]
    kernel = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
    return {"cells": cells, "metadata": {"kernelspec": kernel, "language_info": {"name": "python"}},
            "nbformat": 4, "nbformat_minor": 5}


def course_files(variants: Sequence, dataset: str, assignment: str | None = None) -> list[tuple[str, bytes]]:
    """The assignment in nbgrader's course layout, as (path, bytes): `source/{assignment}/` with
    the notebook `{assignment}.ipynb` and the class file. Unpacked into a course's root, it is
    ready for `nbgrader generate_assignment {assignment}`."""
    if not variants:
        raise DataError("The class has no variants.")
    assignment = assignment_name(variants, dataset) if assignment is None else assignment
    if not _NAME.match(assignment):
        raise DataError(f"An nbgrader assignment name takes 1 to 64 letters, digits, _ and -, not {assignment!r}.")
    record = class_record(variants, dataset)
    nb = notebook(variants, dataset)
    folder = f"source/{assignment}"
    return [(f"{folder}/{assignment}.ipynb", (json.dumps(nb, indent=1, ensure_ascii=False) + "\n").encode("utf-8")),
            (f"{folder}/{CLASS_FILE}", (json.dumps(record, indent=1, ensure_ascii=False) + "\n").encode("utf-8"))]


def write_assignment(variants: Sequence, dataset: str, directory, assignment: str | None = None) -> Path:
    """Write the assignment into the course folder `directory` (`source/{assignment}/...`);
    returns the notebook's path."""
    root, written = Path(directory), []
    for name, content in course_files(variants, dataset, assignment):
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)
        written.append(path)
    return written[0]


def assignment_zip(variants: Sequence, dataset: str, assignment: str | None = None) -> bytes:
    """The assignment as a zip (bytes) of nbgrader's course layout, to unpack in a course's root."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as package:
        for name, content in course_files(variants, dataset, assignment):
            package.writestr(name, content)
    return buffer.getvalue()


# --- the kernel's side: a student's sheet, graded ---------------------------------------------

def _dataset(table: dict) -> Dataset:
    frame = pd.DataFrame(table["rows"], columns=table["columns"], dtype=object)
    for name in frame.columns:
        if table["kinds"].get(name) == "numeric":
            frame[name] = pd.to_numeric(frame[name])
        else:
            frame[name] = frame[name].astype("str").where(frame[name].notna())
    return Dataset(frame, table["target"], table["kinds"])


def _graded_student(typed, students) -> tuple[str, str]:
    """Whose table to grade, and a note: while nbgrader autogrades, the student whose folder it
    grades (their own table, whatever identifier the notebook holds); otherwise the one typed."""
    typed = str(typed).strip()
    if os.environ.get("NBGRADER_EXECUTION") == "autograde":
        folder = Path.cwd().parent.name
        if folder in students and folder != typed:
            return folder, f"Graded as {folder}'s submission (nbgrader's record), on {folder}'s table."
    return typed, ""


def _entered(value, digits: int) -> str | None:
    """An answer as the grader reads it; None when there is none. A Python number shorter than
    the decimals asked is written with them (0.25 -> '0.250' for 3), as a float keeps no zeros."""
    if value is None or value is Ellipsis or isinstance(value, bool):
        return None
    if isinstance(value, numbers.Real):
        number = float(value)
        text = repr(number) if "e" not in repr(number) else f"{number:.15f}".rstrip("0")
        return f"{number:.{digits}f}" if len(text.partition(".")[2]) < digits else text
    text = str(value).strip()
    return text or None


@dataclass(frozen=True, eq=False)
class Sheet:
    """One student's exercise in the notebook: the variant grown again from the class file."""

    variant: Variant
    exercise: Exercise
    points: dict  # growth step -> points of its grade cell
    note: str = ""

    def _blanks(self, step: int) -> tuple[Blank, ...]:
        parts = _parts(self.variant, self.exercise)
        if step not in parts:
            raise DataError(f"Growth step {step} is not asked; the steps asked are {', '.join(map(str, parts))}.")
        return parts[step]

    def show(self) -> None:
        """Print who the sheet is for, the rules and the table."""
        ex = self.exercise
        print(f"{ex.title}\nStudent: {ex.student}   Seed: {ex.seed}")
        if self.note:
            print(self.note)
        print("\n" + ex.introduction + "\n")
        header = ("#", *ex.columns)
        rows = [(str(i), *row) for i, row in enumerate(ex.rows, 1)]
        widths = [max(len(r[j]) for r in (header, *rows)) for j in range(len(header))]
        for row in (header, *rows):
            print("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())

    def questions(self, step: int) -> None:
        """Print the step's questions and the dictionary to fill in."""
        self._blanks(step)
        part = self.exercise.parts[step - self.variant.steps[0]]
        print(part.heading + "\n")
        for n, (question, blanks) in enumerate(part.questions, 1):
            print(f"{n}. {question}")
            for blank in blanks:
                options = f" (one of: {', '.join(blank.choices)})" if blank.choices else ""
                print(f"   {blank.ident}: {blank.label}{options}")
        print(f"\nCopy into the answer cell below and fill in:\n\nstep_{step} = {{")
        for blank in part.blanks:
            print(f'    "{blank.ident}": "",  # {" ".join(blank.label.split())}')
        print("}")

    def key(self, step: int) -> dict[str, str]:
        """The step's key, as the answer dictionary holds it (the instructor's version)."""
        return {b.ident: b.shown for b in self._blanks(step)}

    def _grade(self, blank: Blank, entered: str | None):
        if entered is None:
            return None
        steps = {s.number: s for s in self.variant.asked}
        return grade(Work.of(steps[blank.step], blank.row), blank.quantity, entered, digits=self.variant.digits)

    def grade(self, step: int, answers) -> float:
        """Grade the step's answers with the checker's rule, print a line per blank (the mistake
        a wrong number reproduces named), and return the points earned (nbgrader's partial credit)."""
        blanks = self._blanks(step)
        if not isinstance(answers, dict):
            print(f"step_{step} should be a dictionary like the one printed above the answer cell.")
            return 0.0
        right = 0
        with warnings.catch_warnings():  # nbgrader gives no credit to a cell that writes to stderr
            warnings.simplefilter("ignore")
            for blank in blanks:
                entered = _entered(answers.get(blank.ident), self.variant.digits)
                verdict = self._grade(blank, entered)
                label = " ".join(blank.label.split())
                if verdict is None:
                    print(f"[ ] {label}: no answer.")
                    continue
                right += verdict.right
                print(f"[{'x' if verdict.right else ' '}] {label}: {entered}. {verdict.message}")
                for mistake in verdict.mistakes:
                    print(f"      {mistake.explanation}")
        unknown = [str(k) for k in answers if k not in {b.ident for b in blanks}]
        if unknown:
            print(f"Not asked at this step (check the names): {', '.join(unknown)}.")
        earned = self.points[step] * right / len(blanks) if blanks else float(self.points[step])
        print(f"{right} of {len(blanks)} right: {earned:g} of {self.points[step]} points.")
        return round(earned, 6)


def open_sheet(student_id, path=CLASS_FILE) -> Sheet:
    """The student's sheet from the class file (in the notebook's folder): their table, its tree
    grown again by dtlearn, the questions and the grading. DataError for an unknown identifier."""
    record = json.loads(Path(path).read_text(encoding="utf-8"))
    if record.get("format") != FORMAT:
        raise DataError(f"{path} was written for another version of dtlearn's nbgrader export.")
    students = record["students"]
    student, note = _graded_student(student_id, students)
    if student not in students:
        raise DataError(f"No table for the identifier {student!r} in this class: write yours in quotes, "
                        "as your teacher gave it, in the cell above.")
    entry = students[student]
    data = _dataset(entry["table"])
    tree = fit(data, record["algorithm"], **record["settings"])
    variant = Variant(student, record["seed"], entry["attempt"], data, tree, tuple(record["steps"]),
                      record["digits"])
    ex = exercise(variant, record["dataset"])
    if fingerprint(ex) != entry["key"]:
        note = " ".join(filter(None, (note, "Warning: this dtlearn computes another key for this table than the "
                                      "one that exported the class; ask your teacher which dtlearn to install.")))
    return Sheet(variant, ex, {int(k): v for k, v in record["points"].items()}, note)
