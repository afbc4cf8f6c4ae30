"""A class's sheets and key: the key's numbers are the candidate tables' (and the counts of each
student's own CSV), each sheet names its student and seed, everything compiles in one pdflatex
run, and `dtlearn variants` writes the files."""

from __future__ import annotations

import io
import math
import os
import re
import shutil
import subprocess
import zipfile
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pandas as pd
import pytest

import dtlearn
from dtlearn.class_sheets import class_files, file_names, key, student_sheet
from dtlearn.cli import main
from dtlearn.data import DataError
from dtlearn.variants import Constraints, class_set

ANSWER = re.compile(r"\\emph\{Answer\.\} (.*)")
NUMBER = re.compile(r"= (-?\d+(?:\.\d+)?)\$")
HOSTILE = ["ada", "O'Neil & {Co} $x$ 100% #1", "Zoë_\\end{document}"]


@pytest.fixture(scope="module")
def tennis_class():
    return class_set(dtlearn.load_dataset("tennis"), HOSTILE + ["bo", "cy"], 7, Constraints("id3", steps=(1, 2)))


def written(value: float, digits: int = 3) -> str:
    """A value as a sheet writes it: rounded half up, trailing zeros of a whole number dropped."""
    text = str(Decimal(repr(value)).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP))
    return "0" if float(text) == 0 else text


def key_parts(document: str) -> list[str]:
    """The key's solutions, one per student, in order."""
    return document.split(r"\clearpage")[1:]


def test_the_keys_numbers_are_the_candidate_tables(tennis_class):
    """Every answer of the key, in order: each split's node entropy, then each attribute's gain
    (ID3 on categorical attributes: one candidate per attribute not tested on the path), read
    from the variant's own `step.table`."""
    parts = key_parts(key(tennis_class, "PlayTennis"))
    assert len(parts) == len(tennis_class)
    for variant, part in zip(tennis_class, parts):
        found = [m.group(1) for line in ANSWER.findall(part) for m in [NUMBER.search(line)] if m]
        expected = []
        for step in variant.asked:
            table = step.table
            expected.append(written(float(table["entropy_before"].iloc[0])))
            used = {condition.partition(" = ")[0] for condition in step.path}
            expected += [written(float(g)) for a, g in zip(table["attribute"], table["gain"]) if a not in used]
        assert found == expected


def test_the_keys_root_gains_are_counted_from_each_students_csv(tennis_class):
    """Independently of dtlearn: the information gain of every attribute at the root (Quinlan
    1986), counted with pandas from the CSV the student's sheet prints."""
    def entropy(counts) -> float:
        return -sum(c / sum(counts) * math.log2(c / sum(counts)) for c in counts if c)

    for variant, part in zip(tennis_class, key_parts(key(tennis_class, "PlayTennis"))):
        frame = pd.read_csv(io.StringIO(variant.csv()), dtype=str)
        before = entropy(frame["play"].value_counts().tolist())
        gains = [before - sum(len(g) / len(frame) * entropy(g["play"].value_counts().tolist())
                              for _, g in frame.groupby(a)) for a in ("outlook", "temperature", "humidity", "wind")]
        answers = [NUMBER.search(line).group(1) for line in ANSWER.findall(part)[:5]]
        assert answers == [written(before)] + [written(g) for g in gains]


def test_a_students_sheet_names_them_and_holds_no_answer(tennis_class):
    sheet = student_sheet(tennis_class[1], "PlayTennis")
    assert r"\textbf{Student:} O'Neil \& \{Co\} \$x\$ 100\% \#1 \hfill \textbf{Seed:} 7" in sheet
    assert "Answer" not in sheet and sheet.count(r"\end{document}") == 1
    assert key(tennis_class, "PlayTennis").count(r"\end{document}") == 1  # Zoë_\end{document} is a name
    table = frame_rows(sheet)
    assert table == [row.split(",") for row in tennis_class[1].csv().splitlines()[1:]]


def frame_rows(sheet: str) -> list[list[str]]:
    """The training table's rows as the sheet prints them (numbered from 1)."""
    rows = re.findall(r"^(\d+) & (.*) \\\\$", sheet, flags=re.M)
    return [cells.split(" & ") for _, cells in rows]


def test_the_key_summarises_each_students_decisions(tennis_class):
    document = key(tennis_class, "PlayTennis")
    for i, variant in enumerate(tennis_class, 1):
        root = variant.asked[0]
        score = written(float(root.table["score"][root.chosen_row]))
        assert f"{root.test.attribute} = ? ({score})" in document.replace(r"\_", "_"), variant.student


def test_file_names_are_safe_and_never_shared(tennis_class):
    names = file_names(tennis_class, "PlayTennis", "id3", "pdf")
    assert names["ada"] == ("PlayTennis-id3-steps-1-2-sheet-ada.pdf", "PlayTennis-id3-steps-1-2-table-ada.csv")
    assert names["key"] == "PlayTennis-id3-steps-1-2-key.pdf"
    assert all(re.fullmatch(r"[\w.-]+", name) for pair in names.values() for name in ([pair] if
                                                                                      isinstance(pair, str) else pair))
    twins = class_set(dtlearn.load_dataset("tennis"), ["a b", "a-b"], 1, Constraints("id3"))
    with pytest.raises(DataError, match="'a b' and 'a-b' would get files of the same name"):
        file_names(twins, "PlayTennis", "id3", "tex")


def test_class_files_yield_every_sheet_table_and_the_key(tennis_class):
    files = dict(class_files(tennis_class, "PlayTennis"))
    assert len(files) == 2 * len(tennis_class) + 1
    assert files["PlayTennis-id3-steps-1-2-table-bo.csv"].decode() == tennis_class[3].csv()
    assert files["PlayTennis-id3-steps-1-2-key.tex"].decode() == key(tennis_class, "PlayTennis")


# pdflatex ------------------------------------------------------------------------------------

def pdflatex_or_skip() -> str:
    program = shutil.which("pdflatex")
    if program is None:
        if os.environ.get("CI"):
            pytest.fail("pdflatex is missing: CI installs texlive-latex-base (.ci/run)")
        pytest.skip("pdflatex is not installed (apt-get install texlive-latex-base)")
    return program


def compiles_once(tmp_path: Path, name: str, document: str) -> str:
    """One pdflatex run with no error and nothing to run again; the log."""
    program = pdflatex_or_skip()
    (tmp_path / f"{name}.tex").write_text(document, encoding="utf-8")
    result = subprocess.run([program, "-interaction=nonstopmode", "-halt-on-error", f"{name}.tex"], cwd=tmp_path,
                            capture_output=True, timeout=300)
    log = (tmp_path / f"{name}.log").read_text(encoding="latin-1")
    assert result.returncode == 0 and (tmp_path / f"{name}.pdf").stat().st_size > 1000, log[-2000:]
    assert "Rerun" not in log and "Undefined control sequence" not in log
    return log


def test_a_sheet_and_the_key_compile(tmp_path, tennis_class):
    compiles_once(tmp_path, "sheet", student_sheet(tennis_class[1], "PlayTennis"))
    log = compiles_once(tmp_path, "key", key(tennis_class, "PlayTennis"))
    pages = int(re.search(r"Output written on key\.pdf \((\d+) pages", log).group(1))
    assert pages >= 1 + len(tennis_class)  # the summary, then each solution from a new page


def test_a_sheet_with_numbers_missing_values_and_other_scripts_compiles(tmp_path):
    variants = class_set(dtlearn.load_dataset("watermelon_3"), ["西瓜一号"], 3, Constraints("c45", steps=(1, 2),
                                                                                         missing=0.1))
    compiles_once(tmp_path, "sheet", student_sheet(variants[0], "Watermelon 3.0"))
    compiles_once(tmp_path, "key", key(variants, "Watermelon 3.0"))


# the command line ------------------------------------------------------------------------------

def test_the_command_line_writes_a_class(tmp_path, capsys):
    ids = tmp_path / "ids.txt"
    ids.write_text("ada\n\n# a comment\nbo\n", encoding="utf-8")
    out = tmp_path / "class"
    code = main(["variants", "tennis", "-a", "id3", "--ids", str(ids), "--seed", "7", "--steps", "1-2",
                 "--max-node-rows", "14", "--out", str(out), "--tex"])
    assert code == 0
    assert capsys.readouterr().out.strip() == f"Wrote 2 sheets (LaTeX), 2 tables (CSV) and the key to {out}."
    assert sorted(p.name for p in out.iterdir()) == [
        "PlayTennis-id3-steps-1-2-key.tex", "PlayTennis-id3-steps-1-2-sheet-ada.tex",
        "PlayTennis-id3-steps-1-2-sheet-bo.tex", "PlayTennis-id3-steps-1-2-table-ada.csv",
        "PlayTennis-id3-steps-1-2-table-bo.csv"]
    again = class_set(dtlearn.load_dataset("tennis"), ["ada", "bo"], 7, Constraints("id3", (1, 2), max_node_rows=14))
    assert (out / "PlayTennis-id3-steps-1-2-table-bo.csv").read_text(encoding="utf-8") == again[1].csv()


def test_the_command_line_writes_the_lms_exports(tmp_path, capsys):
    out = tmp_path / "class"
    assert main(["variants", "tennis", "-a", "id3", "--students", "2", "--seed", "7", "--steps", "1",
                 "--out", str(out), "--tex", "--moodle", "--qti"]) == 0
    said = capsys.readouterr().out.strip()
    assert said == (f"Wrote 2 sheets (LaTeX), 2 tables (CSV), Moodle XML and a QTI 2.1 package and the key to "
                    f"{out}.")
    (key,) = out.glob("*-key.tex")
    stem = key.name.removesuffix("-key.tex")  # the exports are named as the class's other files
    xml, qti = (out / f"{stem}-moodle.xml").read_bytes(), out / f"{stem}-qti.zip"
    assert xml.startswith(b'<?xml version="1.0" encoding="UTF-8"?>') and xml.count(b'<question type="cloze">') == 2
    assert "imsmanifest.xml" in zipfile.ZipFile(qti).namelist()


def test_the_command_line_compiles_pdfs(tmp_path, capsys):
    pdflatex_or_skip()
    assert main(["variants", "credit_risk", "-a", "id3", "--students", "2", "--seed", "1", "--steps", "1-2",
                 "--out", str(tmp_path)]) == 0
    assert "Wrote 2 sheets (PDF)" in capsys.readouterr().out
    pdfs = sorted(tmp_path.glob("*.pdf"))
    assert len(pdfs) == 3 and all(p.read_bytes().startswith(b"%PDF") for p in pdfs)


@pytest.mark.parametrize("arguments, message", [
    (["--students", "2", "--seed", "1", "--steps", "1-9"], "The template's tree has 8 growth steps"),
    (["--students", "2", "--ids", "x.txt", "--seed", "1"], "not allowed with argument --students"),
    (["--students", "2", "--seed", "1", "--steps", "one"], "--steps takes a number or a range like 1-3"),
    (["--students", "2", "--seed", "1", "--classes", "3"], "has 2 classes"),
    (["--students", "2", "--seed", "1", "--set", "max_depht=2"], "Unknown setting 'max_depht'"),
])
def test_the_command_line_says_what_is_wrong(tmp_path, capsys, arguments, message):
    assert main(["variants", "tennis", "-a", "id3", *arguments, "--out", str(tmp_path / "x")]) == 2
    error = capsys.readouterr().err
    assert error.startswith("dtlearn: ") and message in error and "Traceback" not in error
