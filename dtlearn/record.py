"""A record of graded work: the answers a student checked, each with its verdict, the exact value,
the mistake named and the worked formula, as LaTeX (for a PDF) or Markdown to hand in.

`checked(work, key, grade)` keeps what the record prints of one graded answer (`grading.grade`'s
verdict on a candidate of a node); `to_latex` and `to_markdown` write a list of them. The values
are the grade's (the candidate table's own numbers), the formulas `Work.formula`'s lines.

>>> import dtlearn
>>> from dtlearn import grading
>>> work = grading.Work.of(dtlearn.fit(dtlearn.load_dataset("tennis"), "id3").steps[0])
>>> entry = checked(work, "gain", grading.grade(work, "gain", "0.171"))
>>> entry.node, entry.candidate, entry.quantity, entry.verdict, entry.exact, len(entry.formula)
('Step 1: the root', 'outlook = ?', 'Information gain', 'wrong', '0.246750', 3)
>>> file_name("tennis", "id3", "md")
'tennis-id3-checked-answers.md'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from . import derivation, typeset
from .answers import QUANTITIES
from .settings import PRESET
from .shorten import LABEL_CHARS
from .typeset import file_stem, md, md_formula, md_table, tex

EXACT_DIGITS = 6  # decimals of the exact value (the grader's messages write it so)
VERDICTS = {"right": "right", "wrong": "wrong", "too_coarse": "too rounded to check",
            "unreadable": "not read as a number", "half": "half right"}


@dataclass(frozen=True)
class Checked:
    """One graded answer as the record prints it: plain text, and the formula's LaTeX lines."""

    node: str  # "Step 1: the root"
    candidate: str  # the candidate's test, "" at a node without candidates
    quantity: str  # "Information gain", "Entropy of a branch (Sunny)"
    entered: str  # what the student wrote
    status: str  # grading's: "right", "wrong", "too_coarse", "unreadable"
    message: str  # the verdict in words
    exact: str  # the exact value written out, or the attribute / threshold / class
    mistakes: tuple[tuple[str, str], ...] = ()  # (name, explanation) of each mistake that gives the answer
    formula: tuple[str, ...] = ()  # the worked formula, LaTeX lines (derivation's)

    @property
    def verdict(self) -> str:
        return VERDICTS.get(self.status, self.status)

    @property
    def right(self) -> bool:
        return self.status == "right"


def checked(work, key: str, grade, branch: int | None = None, digits: int | None = 3) -> Checked:
    """What the record keeps of `grade`, the verdict on quantity `key` (of `branch`) of `work`
    (`grading.Work`); formulas written to `digits` decimals (None: all)."""
    step = work.step
    node = f"Step {step.number}: " + (" and ".join(step.path) or "the root")
    about = QUANTITIES[key]
    # a choice (the attribute, the threshold, the class) is the node's, not a candidate's
    candidate = "" if work.candidate is None or about.family == "choice" else str(work.candidate["test"])
    quantity = about.title.split(",")[0]
    if branch is not None:
        name = str(work.branches[branch])
        quantity += f" ({name[2:] if name.startswith('= ') else name})"
    exact = grade.exact
    if isinstance(exact, (int, float)) and not isinstance(exact, bool):
        written = derivation.number(exact, EXACT_DIGITS)
    else:
        written = "" if exact is None else str(exact)
    mistakes = tuple((m.name, m.explanation) for m in grade.mistakes)
    return Checked(node, candidate, quantity, str(grade.entered).strip(), grade.status, grade.message, written,
                   mistakes, tuple(work.formula(key, branch, digits, limit=LABEL_CHARS)))


def title(dataset: str, algorithm: str) -> str:
    return f"Checked answers: {dataset} with {PRESET[algorithm].name if algorithm in PRESET else algorithm}"


def summary(checks: Sequence[Checked], algorithm: str) -> str:
    right = sum(c.right for c in checks)
    cited = PRESET[algorithm].source if algorithm in PRESET else None
    source = f" The formulas are those of {cited}." if cited else ""
    return (f"{right} of {len(checks)} answer{'s' if len(checks) != 1 else ''} right. Each answer below with "
            f"its verdict, the exact value and the worked formula, as dtlearn graded it.{source}")


def file_name(dataset: str, algorithm: str, extension: str) -> str:
    """The record's file name: the dataset (made safe) and the algorithm."""
    return f"{file_stem(dataset)}-{file_stem(algorithm)}-checked-answers.{extension}"


SUMMARY_COLUMNS = ("#", "Node", "Candidate", "Quantity", "Entered", "Verdict", "Exact value")


def _row(number: int, check: Checked) -> tuple[str, ...]:
    return (str(number), check.node, check.candidate or "-", check.quantity, check.entered, check.verdict,
            check.exact or "-")


def _facts(check: Checked) -> list[tuple[str, str]]:
    """The lines under an answer's heading: (label, plain text)."""
    facts = [("Node", check.node), ("Candidate", check.candidate), ("Entered", check.entered),
             ("Verdict", f"{check.verdict}. {check.message}"), ("Exact value", check.exact)]
    facts += [("Mistake", f"{name}: {explanation}") for name, explanation in check.mistakes]
    return [(label, value) for label, value in facts if value]


def to_latex(checks: Sequence[Checked], *, dataset: str, algorithm: str, date: str = "") -> str:
    """The record as a standalone document for one pdflatex run."""
    out = [r"\section*{" + tex(title(dataset, algorithm)) + "}"]
    out += [tex(date) + r"\par"] if date else []
    out.append(tex(summary(checks, algorithm)))
    if checks:
        out += typeset.table(SUMMARY_COLUMNS, [_row(i, c) for i, c in enumerate(checks, 1)], r"\footnotesize")
    for i, check in enumerate(checks, 1):
        out.append(r"\subsection*{" + tex(f"{i}. {check.quantity}") + "}")
        out += [r"\textbf{" + tex(label) + r":} " + tex(value) + r"\par" for label, value in _facts(check)]
        out += [typeset.formula(line) for line in check.formula]
    return typeset.document(out)


def to_markdown(checks: Sequence[Checked], *, dataset: str, algorithm: str, date: str = "") -> str:
    """The record as GitHub / Streamlit Markdown, formulas as $$ blocks."""
    out = ["# " + md(title(dataset, algorithm)), ""]
    out += [md(date), ""] if date else []
    out += [md(summary(checks, algorithm))]
    if checks:
        out += ["", *md_table(SUMMARY_COLUMNS, [_row(i, c) for i, c in enumerate(checks, 1)], numbered=True)]
    for i, check in enumerate(checks, 1):
        out += ["", f"## {md(f'{i}. {check.quantity}')}", ""]
        out += [f"- **{label}:** {md(value)}" for label, value in _facts(check)]
        for line in check.formula:
            out += ["", *md_formula(line)]
    return "\n".join(out) + "\n"
