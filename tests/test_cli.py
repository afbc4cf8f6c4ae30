"""The command line, run as a user runs it: `python -m dtlearn ...` in a subprocess."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import dtlearn
import exact
from dtlearn.worksheet import to_latex, to_markdown, worksheet


def run(*arguments: str, cwd=None):
    return subprocess.run([sys.executable, "-m", "dtlearn", *arguments], capture_output=True, text=True,
                          timeout=120, cwd=cwd)


def test_the_root_table_of_playtennis(tmp_path):
    # Mitchell (1997): Gain(S, Outlook) = 0.2467 (exactly; he prints 0.246), the highest
    csv = tmp_path / "tennis.csv"
    csv.write_text(dtlearn.load_dataset("tennis").frame.to_csv(index=False), encoding="utf-8")
    result = run("table", str(csv), "--algorithm", "id3")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split()[:3] == ["test", "gain", "split_info"]
    outlook = next(line for line in lines if line.strip().startswith("outlook"))
    assert f"{exact.info_gain([[3, 2], [0, 4], [2, 3]]):.4f}" in outlook and "True    True" in outlook


def test_a_later_step_the_tree_and_its_rules():
    table = run("table", "iris", "-a", "c45", "--step", "3", "--all")
    assert table.returncode == 0 and "corrected_gain" in table.stdout.splitlines()[0]
    tree = run("tree", "tennis", "-a", "id3")
    assert tree.stdout.strip() == dtlearn.fit(dtlearn.load_dataset("tennis"), "id3").to_text()
    rules = run("tree", "tennis", "-a", "id3", "--rules")
    assert rules.stdout.splitlines()[0] == "IF outlook = Sunny AND humidity = High THEN play = No (3 rows)"


def test_settings_and_dot():
    result = run("dot", "iris", "--set", "max_depth=1", "--set", "criterion=entropy")
    expected = dtlearn.fit(dtlearn.load_dataset("iris"), "cart", max_depth=1, criterion="entropy").to_dot()
    assert result.returncode == 0 and result.stdout == expected
    steps = run("steps", "tennis", "-a", "id3")
    assert steps.stdout.splitlines()[0].startswith("1. root: split - Split on outlook")


@pytest.mark.parametrize("arguments, message", [
    (("table", "no-such-file.csv"), "No such file: no-such-file.csv"),
    (("tree", "tennis", "--set", "max_depht=2"), "Unknown setting 'max_depht'"),
    (("tree", "tennis", "--set", "max_depth=-1"), "max_depth must be a whole number >= 0"),
    (("tree", "tennis", "--target", "nope"), "Unknown target column 'nope'"),
    (("table", "tennis", "--step", "99"), "--step must be between 1 and"),
    (("grow", "tennis"), "invalid choice: 'grow'"),
    (("worksheet", "tennis", "--steps", "2-x"), "--steps takes a step or a range like 1-3, not '2-x'"),
    (("worksheet", "tennis", "-a", "id3", "--steps", "3-99"), "1 <= first <= last <= 8"),
    (("worksheet", "tennis", "--format", "pdf"), "invalid choice: 'pdf'"),
])
def test_bad_input_is_one_line_and_exit_code_2(arguments, message):
    result = run(*arguments)
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1 and message in result.stderr, result.stderr


def test_a_file_that_is_not_a_table(tmp_path):
    binary = tmp_path / "picture.csv"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    result = run("tree", str(binary))
    assert result.returncode == 2 and result.stderr.startswith("dtlearn: ") and len(result.stderr.splitlines()) == 1


def test_an_arff_file():
    # Weka's own weather.nominal.arff: J48's tree, as tests/test_arff.py checks it against Weka
    arff = str(Path(__file__).resolve().parent / "fixtures" / "weka" / "arff" / "weka-weather.nominal.arff")
    result = run("tree", arff, "-a", "c45")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == dtlearn.fit(dtlearn.read_arff(arff), "c45").to_text()
    assert result.stdout.startswith("outlook = sunny")


def test_a_worksheet_and_its_solution():
    # the same sheet as the library gives; Mitchell (1997): Gain(S, Outlook) = 0.2467, printed 0.247
    tree = dtlearn.fit(dtlearn.load_dataset("tennis"), "id3")
    sheet = worksheet(tree, 1, 3, dataset="PlayTennis")
    latex = run("worksheet", "tennis", "--algorithm", "id3", "--steps", "1-3")
    assert latex.returncode == 0, latex.stderr
    assert latex.stdout == to_latex(sheet, solution=False)
    markdown = run("worksheet", "tennis", "-a", "id3", "--steps", "1-3", "--solution", "--format", "markdown")
    assert markdown.stdout == to_markdown(sheet, solution=True)
    assert markdown.stdout.startswith("# Worksheet: PlayTennis with ID3, steps 1 to 3 (solution)")
    assert "**Answer.** Gain = 0.247." in markdown.stdout
    whole = run("worksheet", "tennis", "-a", "id3", "--format", "markdown", "--digits", "4", "--solution")
    assert "steps 1 to 8" in whole.stdout.splitlines()[0] and "\n1. What is the entropy" in whole.stdout
    assert "**Answer.** Gain = 0.2467." in whole.stdout and "## Step 8: a leaf" in whole.stdout
