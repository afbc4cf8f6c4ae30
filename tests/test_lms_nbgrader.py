"""The nbgrader export run through nbgrader itself: generate, submit, autograde, read the gradebook.

In a temporary course folder nbgrader (`python -m nbgrader`, the reader the project did not
write) generates the student version of the assignment, autogrades three submissions made from
it in a Jupyter kernel that imports dtlearn, and writes its gradebook, read back with nbgrader's
own API. ada gives every answer of the key but one gain, computed with the natural logarithm;
bo gives the key; cy gives the key of their own table but types ada's identifier (nbgrader's
record of whose submission it is wins). The key's root numbers are checked against the counts of
the variant's CSV (`lms_fixtures.root_numbers`, pandas), the ln gain is computed from them too.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from dtlearn.lms_items import exercise
import dtlearn
from dtlearn.lms_nbgrader import CLASS_FILE, assignment_zip, course_files, notebook, open_sheet, write_assignment
from dtlearn.mistakes import MISTAKES
from dtlearn.variants import Constraints, class_set
from lms_fixtures import hostile_class, root_numbers, tennis_class

needs_nbgrader = pytest.mark.skipif(importlib.util.find_spec("nbgrader") is None and not os.environ.get("CI"),
                                reason="nbgrader is not installed (uv sync installs the dev group; CI always runs)")

ASSIGNMENT = "hw1"
STUDENTS = ("ada", "bo", "cy")


def nbgrader(root: Path, *arguments: str) -> None:
    done = subprocess.run([sys.executable, "-m", "nbgrader", *arguments], cwd=root, capture_output=True, text=True,
                          timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]


def by_grade_id(nb: dict) -> dict[str, dict]:
    return {c["metadata"]["nbgrader"]["grade_id"]: c for c in nb["cells"] if "nbgrader" in c["metadata"]}


def answers_cell(step: int, answers: dict) -> str:
    return f"step_{step} = " + json.dumps(answers, ensure_ascii=False)


def key(variant) -> dict[int, dict[str, str]]:
    ex = exercise(variant, "PlayTennis")
    return {variant.steps[0] + i: {b.ident: b.shown for b in part.blanks} for i, part in enumerate(ex.parts)}


def ln_gain(variant) -> tuple[str, str]:
    """The blank of the root's largest gain, and that gain computed with ln instead of log2
    (every entropy, so the gain, is ln 2 times the one in bits), written to 3 decimals."""
    numbers = root_numbers(variant)
    attribute = max((k for k in numbers if k.startswith("gain ")), key=numbers.get)[len("gain "):]
    ex = exercise(variant, "PlayTennis")
    blank = next(b for b in ex.parts[0].blanks if b.quantity == "gain" and b.label.endswith(f"on {attribute}"))
    return blank.ident, f"{numbers['gain ' + attribute] * math.log(2):.3f}"


def submit(root: Path, student: str, typed: str, answers: dict[int, dict]) -> None:
    released = json.loads((root / "release" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb").read_text(encoding="utf-8"))
    cells = by_grade_id(released)
    assert "raise NotImplementedError()" in "".join(cells["student_id"]["source"]), "the release hides the key"
    cells["student_id"]["source"] = f"STUDENT_ID = {typed!r}"
    for step, values in answers.items():
        cells[f"answers_{step}"]["source"] = answers_cell(step, values)
    folder = root / "submitted" / student / ASSIGNMENT
    folder.mkdir(parents=True)
    (folder / f"{ASSIGNMENT}.ipynb").write_text(json.dumps(released), encoding="utf-8")
    (folder / CLASS_FILE).write_bytes((root / "release" / ASSIGNMENT / CLASS_FILE).read_bytes())


@pytest.fixture(scope="module")
def variants():
    return tennis_class("id3", students=STUDENTS, steps=(1, 2))


@pytest.fixture(scope="module")
def graded(variants, tmp_path_factory):
    """The course after `nbgrader autograde`: its folder, the gradebook's scores, the keys."""
    with pytest.MonkeyPatch.context() as env:
        # nbgrader runs the `alembic` script beside this Python (the gradebook's migrations); uv run puts it on PATH
        env.setenv("PATH", os.pathsep.join((str(Path(sys.executable).parent), os.environ.get("PATH", ""))))
        return _graded(variants, tmp_path_factory.mktemp("course"))


def _graded(variants, root: Path):
    (root / "nbgrader_config.py").write_text("c = get_config()\nc.CourseDirectory.course_id = 'dtlearn'\n"
                                             "c.Execute.timeout = 600\n", encoding="utf-8")
    write_assignment(variants, "PlayTennis", root, ASSIGNMENT)
    nbgrader(root, "generate_assignment", ASSIGNMENT, "--force")
    keys = {v.student: key(v) for v in variants}
    wrong = copy.deepcopy(keys["ada"])
    ident, value = ln_gain(variants[0])
    wrong[1][ident] = value
    submit(root, "ada", "ada", wrong)
    submit(root, "bo", "bo", keys["bo"])
    submit(root, "cy", "ada", keys["cy"])
    nbgrader(root, "autograde", ASSIGNMENT, "--create", "--force")
    from nbgrader.api import Gradebook
    with Gradebook(f"sqlite:///{root / 'gradebook.db'}") as book:
        scores = {s: (book.find_submission(ASSIGNMENT, s).score, book.find_submission(ASSIGNMENT, s).max_score)
                  for s in STUDENTS}
        cells = {(s, step): (book.find_grade(f"grade_step_{step}", ASSIGNMENT, ASSIGNMENT, s).score,
                             book.find_grade(f"grade_step_{step}", ASSIGNMENT, ASSIGNMENT, s).max_score)
                 for s in STUDENTS for step in (1, 2)}
    return root, scores, cells, keys


def feedback(root: Path, student: str, grade_id: str) -> str:
    nb = json.loads((root / "autograded" / student / ASSIGNMENT / f"{ASSIGNMENT}.ipynb").read_text(encoding="utf-8"))
    cell = by_grade_id(nb)[grade_id]
    texts = [o["text"] for o in cell["outputs"] if o["output_type"] == "stream"]  # a string or a list of lines
    return "".join(t if isinstance(t, str) else "".join(t) for t in texts)


def test_the_key_holds_the_roots_numbers_counted_with_pandas(variants):
    for variant in variants:
        step1 = exercise(variant, "PlayTennis").parts[0].blanks
        numbers = root_numbers(variant)
        assert abs(float(step1[0].shown) - numbers["node_entropy"]) <= 5e-4
        gains = [b for b in step1 if b.quantity == "gain"]
        assert len(gains) == len(numbers) - 1
        for blank in gains:
            attribute = blank.label.rsplit("on ", 1)[1]
            assert abs(float(blank.shown) - numbers[f"gain {attribute}"]) <= 5e-4


@needs_nbgrader
def test_one_wrong_gain_costs_its_point_and_the_mistake_is_named(graded, variants):
    root, scores, cells, _ = graded
    # step 1 at the root asks Ent(D), each attribute's gain (the CSV's columns but the class) and the choice
    attributes = len(root_numbers(variants[0])) - 1
    assert cells[("ada", 1)] == (attributes + 1, attributes + 2)
    assert cells[("ada", 2)][0] == cells[("ada", 2)][1]
    score, total = scores["ada"]
    assert score == total - 1
    text = feedback(root, "ada", "grade_step_1")
    assert MISTAKES["natural_log"].name in text
    assert f"{attributes + 1} of {attributes + 2} right" in text


@needs_nbgrader
def test_all_answers_right_get_full_marks(graded):
    root, scores, cells, keys = graded
    score, total = scores["bo"]
    assert total == sum(len(answers) for answers in keys["bo"].values()) and score == total
    assert "Not quite" not in feedback(root, "bo", "grade_step_1") + feedback(root, "bo", "grade_step_2")


@needs_nbgrader
def test_a_student_is_graded_on_their_own_table_whatever_id_they_type(graded):
    root, scores, _, keys = graded
    assert keys["cy"] != keys["ada"]
    score, total = scores["cy"]
    assert score == total
    assert "Graded as cy's submission" in feedback(root, "cy", "open_sheet")


def test_the_notebook_carries_nbgraders_metadata(variants):
    nb = notebook(variants, "PlayTennis")
    meta = [c["metadata"]["nbgrader"] for c in nb["cells"]]
    assert all(m["schema_version"] == 3 for m in meta)
    graded_cells = [m for m in meta if m["grade"]]
    assert [m["grade_id"] for m in graded_cells] == ["grade_step_1", "grade_step_2"]
    assert all(m["locked"] and not m["solution"] for m in graded_cells)
    assert [m["grade_id"] for m in meta if m["solution"]] == ["student_id", "answers_1", "answers_2"]


def test_the_zip_holds_the_course_files(variants):
    import io
    import zipfile
    package = zipfile.ZipFile(io.BytesIO(assignment_zip(variants, "PlayTennis", "hw1")))
    assert {n: package.read(n) for n in package.namelist()} == dict(course_files(variants, "PlayTennis", "hw1"))
    record = json.loads(package.read(f"source/hw1/{CLASS_FILE}"))
    assert sorted(record["students"]) == list(STUDENTS)
    assert "shown" not in json.dumps(record) and "0.246" not in json.dumps(record)


def test_the_command_line_writes_the_assignment_into_a_course(tmp_path, capsys):
    from dtlearn.cli import main
    course = tmp_path / "course"
    assert main(["variants", "tennis", "-a", "id3", "--students", "2", "--seed", "7", "--steps", "1",
                 "--out", str(tmp_path / "class"), "--tex", "--nbgrader", str(course)]) == 0
    folder = course / "source" / "PlayTennis-id3-step-1"  # named as the class's other files
    assert f"an nbgrader assignment in {folder}" in capsys.readouterr().out
    assert sorted(p.name for p in folder.iterdir()) == sorted([CLASS_FILE, "PlayTennis-id3-step-1.ipynb"])
    assert sorted(json.loads((folder / CLASS_FILE).read_text(encoding="utf-8"))["students"]) == ["1", "2"]


def test_a_bad_assignment_name_is_refused(variants):
    from dtlearn.data import DataError
    with pytest.raises(DataError, match="assignment name takes 1 to 64 letters"):
        course_files(variants, "PlayTennis", "../hw")


@pytest.mark.parametrize("make", [
    lambda: hostile_class(),  # names that attack Python, JSON, HTML and Cloze; a student id with quotes
    lambda: class_set(dtlearn.load_dataset("watermelon_3"), ["x'y", "z"], 3, Constraints("c45", steps=(1, 2),
                                                                                     missing=0.1)),
], ids=["hostile-names", "numbers-and-missing-values"])
def test_a_sheet_grown_again_from_the_class_file_has_the_exported_key(tmp_path, monkeypatch, capsys, make):
    """The kernel's side without nbgrader: the class file's table grows the same tree (the key's
    fingerprint agrees, so no warning), the key earns every point, and the notebook's code parses."""
    import ast
    variants = make()
    path = write_assignment(variants, "a <b> & {c}", tmp_path, "hw")
    for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
        if cell["cell_type"] == "code":
            ast.parse("".join(cell["source"]))
    monkeypatch.chdir(path.parent)
    for variant in variants:
        sheet = open_sheet(variant.student)
        assert sheet.note == "" and sheet.exercise == exercise(variant, "a <b> & {c}")
        first, last = variant.steps
        assert [sheet.grade(step, sheet.key(step)) for step in range(first, last + 1)] == \
            [sheet.points[step] for step in range(first, last + 1)]
    assert "Not quite" not in capsys.readouterr().out


def test_an_unknown_identifier_is_told_in_words(tmp_path, monkeypatch, variants):
    from dtlearn.data import DataError
    monkeypatch.chdir(write_assignment(variants, "PlayTennis", tmp_path, "hw").parent)
    with pytest.raises(DataError, match="No table for the identifier 'zed' in this class"):
        open_sheet(" zed ")


def test_python_numbers_are_read_with_the_decimals_asked(tmp_path, monkeypatch, capsys, variants):
    """A float keeps no trailing zeros: 0.940 typed without quotes is 0.94 to Python, read as the
    3 decimals asked (as 0.94 the grader would check it at 2)."""
    monkeypatch.chdir(write_assignment(variants, "PlayTennis", tmp_path, "hw").parent)
    sheet = open_sheet("ada")
    typed = {k: (float(v) if k != "s1_attribute" else v) for k, v in sheet.key(1).items()}
    # ada's root entropy, counted from her CSV with pandas, written to 3 decimals ends in a zero
    assert sheet.key(1)["s1_node_entropy"] == f"{root_numbers(variants[0])['node_entropy']:.3f}" == "0.940"
    capsys.readouterr()
    assert sheet.grade(1, typed) == sheet.points[1]
    assert "Entropy of the node: 0.940. Right" in capsys.readouterr().out
    assert sheet.grade(1, {**typed, "s1_node_entropy": None}) == sheet.points[1] - 1  # None: no answer
