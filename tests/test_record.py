"""The record of graded work (dtlearn.record): the answers checked, their verdicts, the exact values
from the candidate table, the mistakes named and the worked formulas, as LaTeX (one pdflatex run)
and Markdown; hostile names escaped in both.

Expected values are derived here from Mitchell's (1997) PlayTennis counts with exact fractions
(tests/exact.py): Gain(S, Outlook) = Ent(9, 5) - (5/14 Ent(2, 3) + 4/14 Ent(4, 0) + 5/14 Ent(3, 2))
= 0.2467 (Quinlan 1986), and in nats (the natural-log mistake) 0.2467 x ln 2 = 0.171.
"""

from __future__ import annotations

import math
import re
import subprocess

import pandas as pd
import pytest

import dtlearn
import exact
from dtlearn import grading, record
from dtlearn.derivation import number
from dtlearn.pdflatex import compile_pdf, first_error, overfull
from test_worksheet import assert_typeset_in_one_run, html_in_markdown, pdflatex_once

OUTLOOK = [[3, 2], [0, 4], [2, 3]]  # (No, Yes) counts of Sunny, Overcast, Rain at the root
GAIN = exact.info_gain(OUTLOOK)


@pytest.fixture(scope="module")
def tennis():
    return dtlearn.fit(dtlearn.load_dataset("tennis"), "id3")


def graded(tree, answers, step: int = 0, row: int | None = None) -> list[record.Checked]:
    """The record of `answers` [(quantity, text, branch)] graded at a step's candidate."""
    work = grading.Work.of(tree.steps[step], row, root=tree.steps[0])
    return [record.checked(work, key, grading.grade(work, key, text, branch=branch), branch)
            for key, text, branch in answers]


def test_the_record_holds_the_exact_values_of_the_candidate_table(tennis):
    assert f"{GAIN:.4f}" == "0.2467"
    wrong, right = f"{GAIN * math.log(2):.3f}", f"{exact.entropy([3, 2]):.3f}"
    assert (wrong, right) == ("0.171", "0.971")
    checks = graded(tennis, [("gain", wrong, None), ("branch_entropy", right, 0)])
    gain, sunny = checks
    assert (gain.node, gain.candidate, gain.quantity, gain.entered) == ("Step 1: the root", "outlook = ?",
                                                                        "Information gain", "0.171")
    assert gain.verdict == "wrong" and gain.exact == f"{GAIN:.6f}" == "0.246750"
    row = tennis.steps[0].table.iloc[tennis.steps[0].chosen_row]  # the table's own number, to 6 decimals
    assert gain.exact == number(row["gain"], 6)
    assert gain.mistakes and "natural logarithm" in gain.mistakes[0][0]
    assert any(r"\mathrm{Gain}(D, \text{outlook})" in line for line in gain.formula)
    assert (sunny.quantity, sunny.verdict, sunny.exact) == ("Entropy of a branch (Sunny)", "right",
                                                           f"{exact.entropy([3, 2]):.6f}")
    assert sunny.formula and r"\mathrm{Ent}(D_{\text{Sunny}})" in sunny.formula[0]


def test_markdown_lists_every_answer_with_verdict_value_mistake_and_formula(tennis):
    checks = graded(tennis, [("gain", "0.171", None), ("branch_entropy", "0.971", 0), ("attribute", "humidity", None)])
    text = record.to_markdown(checks, dataset="PlayTennis", algorithm="id3", date="1 December 2026")
    assert text.startswith("# Checked answers: PlayTennis with ID3\n\n1 December 2026\n\n1 of 3 answers right.")
    assert "Quinlan 1986" in text
    summary = [line for line in text.splitlines() if re.match(r"\| [123] \|", line)]
    assert summary == [
        "| 1 | Step 1: the root | outlook = ? | Information gain | 0.171 | wrong | 0.246750 |",
        "| 2 | Step 1: the root | outlook = ? | Entropy of a branch (Sunny) | 0.971 | right | 0.970951 |",
        "| 3 | Step 1: the root | - | The attribute chosen at this node | humidity | wrong | outlook |"]
    assert [h for h in text.splitlines() if h.startswith("## ")] == [
        "## 1. Information gain", "## 2. Entropy of a branch (Sunny)", "## 3. The attribute chosen at this node"]
    assert f"- **Mistake:** {checks[0].mistakes[0][0]}" in text
    assert "- **Verdict:** wrong. Not quite: the value is 0.247." in text
    assert text.count("$$\n") == 2 * (3 + 1)  # Gain's three lines, the branch's one; a choice has none
    assert "0.940 - 0.694 = 0.247" in text


def test_the_latex_record_compiles_in_one_run(tmp_path, tennis):
    checks = graded(tennis, [("gain", "0.171", None), ("node_entropy", "0.940", None), ("leaf_class", "x", None)])
    checks += graded(tennis, [("gain_ratio", "0.156", None)], step=1)
    latex = record.to_latex(checks, dataset="PlayTennis", algorithm="id3")
    assert r"\section*{Checked answers: PlayTennis with ID3}" in latex
    assert r"\formula{\begin{gathered}\mathrm{Gain}(D, \text{outlook})" in latex
    result, log = pdflatex_once(tmp_path, latex)
    assert_typeset_in_one_run(result, log, tmp_path)
    pdf = subprocess.run(["pdftotext", str(tmp_path / "sheet.pdf"), "-"], capture_output=True, text=True)
    if pdf.returncode == 0:  # poppler-utils, when installed: the values are in the PDF's text
        assert "0.246750" in pdf.stdout and "Information gain" in pdf.stdout


ATTACK_TARGET = "y$\\{}_%&#^~<img src=x onerror=alert(1)>"
ATTACK = pd.DataFrame({
    "a$\\{x}_%&#^~<img src=x onerror=alert(2)>": ["<img src=x onerror=alert(3)>", "b$_%"] * 3 + ["b$_%"],
    ATTACK_TARGET: ["<i>", "c&#1", "<i>", "c&#1", "c&#1", "<i>", "<i>"],
})


def test_hostile_names_and_answers_are_text_in_both(tmp_path):
    tree = dtlearn.fit(dtlearn.Dataset(ATTACK, ATTACK_TARGET), "cart")
    checks = graded(tree, [("node_gini", "<img src=x onerror=alert(5)>", None), ("gini_gain", "0.1", None),
                           ("branch_gini", "$\\x{}_%&#^~", 0), ("leaf_class", "<b>", None)])
    name = "exam <img src=x onerror=alert(6)>.csv"
    markdown = record.to_markdown(checks, dataset=name, algorithm="cart")
    assert html_in_markdown(markdown) == [] and markdown.count("onerror") >= 5
    latex = record.to_latex(checks, dataset=name, algorithm="cart")
    result, log = pdflatex_once(tmp_path, latex)
    assert_typeset_in_one_run(result, log, tmp_path)
    assert record.file_name(name, "cart", "pdf") == "exam-img-src-x-onerror-alert-6-cart-checked-answers.pdf"


def test_an_empty_record_still_compiles(tmp_path):
    latex = record.to_latex([], dataset="PlayTennis", algorithm="c45")
    assert "0 of 0 answers right" in latex
    result, log = pdflatex_once(tmp_path, latex)
    assert_typeset_in_one_run(result, log, tmp_path)


def test_compile_pdf_gives_the_pdf_and_names_the_first_error():
    from test_worksheet import pdflatex_or_skip

    pdflatex_or_skip()
    compiled = compile_pdf(record.to_latex([], dataset="PlayTennis", algorithm="id3"))
    assert compiled.pdf.startswith(b"%PDF") and overfull(compiled.log) == []
    with pytest.raises(ValueError, match=r"Undefined control sequence.*l\.3"):
        compile_pdf("\\documentclass{article}\n\\begin{document}\n\\nonsense\n\\end{document}\n")
    assert first_error("no error here") == ""
    assert overfull(r"Overfull \hbox (30.5pt too wide) in paragraph") == [30.5]
