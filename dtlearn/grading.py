"""Grading a student's numbers against the exact ones a node's candidate table holds.

A student works at one node (a step) on one candidate (a row of its table) and enters what
they computed: the node's entropy or Gini, a branch's, the weighted impurity after the split,
gain, split information, gain ratio, Gini gain; or the chosen attribute, threshold, a leaf's
class. `grade` reads the exact value from the table (the `measures` definitions: one number
per measure, the one the table and the formulas show) and calls an answer given to k
decimals right when it is

* the exact value rounded to k decimals (half up, or half to even: both are taught), or
* the value a textbook arrives at by rounding every intermediate result to k decimals
  (Mitchell 1997 prints Gain(S, Outlook) = 0.246: 0.940 - 0.694, where the exact gain is
  0.2467 and rounds to 0.247), or
* the value the worked formula on the page gives from the rounded values it shows (its
  remark "the rounded values shown give ...": `derivation.from_shown`).

A wrong answer gets the cell's worked formula and the common mistakes (`mistakes`) that
reproduce it (a book's truncation among them, named), the other candidates at the node
whose value it is, or an honest "not a mistake we know". `grade_column` grades one quantity
of many candidates at once (a column of the table).

>>> import dtlearn
>>> step = dtlearn.fit(dtlearn.load_dataset("tennis"), "id3").steps[0]
>>> work = Work.of(step)          # the chosen candidate: outlook
>>> grade(work, "gain", "0.246").status, grade(work, "gain", "0.247").status
('right', 'right')
>>> grade(work, "gain", "0.171").mistakes[0].key
'natural_log'
"""

from __future__ import annotations

from typing import Mapping

from . import derivation
from .answers import MIN_DECIMALS, NUMERIC, QUANTITIES, Grade, Reading, Work, agrees, read_answer, rounded, textbook
from .mistakes import elsewhere, elsewhere_text, grade_choice, recognise

__all__ = ["MIN_DECIMALS", "NUMERIC", "QUANTITIES", "Grade", "Reading", "Work", "agrees", "grade", "grade_column",
           "read_answer", "rounded", "textbook"]


def grade(work: Work, key: str, entered: str, branch: int | None = None, digits: int = 3) -> Grade:
    """Grade one entry; `digits` is how many decimals formulas are written with."""
    if key not in QUANTITIES:
        raise ValueError(f"Unknown quantity '{key}'. Choose one of: {', '.join(QUANTITIES)}.")
    if QUANTITIES[key].family == "choice":
        return grade_choice(work, key, entered)
    exact = work.exact(key, branch)
    reading = read_answer(entered)
    if reading is None:
        return Grade(key, entered, "unreadable", "Write a number, such as 0.247 (a decimal comma or a "
                     "fraction such as 5/14 is fine too).", exact, derivation.number(exact, digits))
    shown = derivation.number(exact, reading.decimals if reading.decimals else digits)
    if abs(reading.value - exact) <= 1e-9:
        return Grade(key, entered, "right", f"Right: {shown} is exact.", exact, shown)
    if reading.decimals is not None and reading.decimals < MIN_DECIMALS:
        return Grade(key, entered, "too_coarse", f"Give at least {MIN_DECIMALS} decimals: {entered.strip()} "
                     "is too rounded to check.", exact, shown)
    if agrees(reading, exact):
        return Grade(key, entered, "right", f"Right: the exact value is {derivation.number(exact, 6)}, "
                     f"which rounds to {shown}.", exact, shown)
    k = reading.decimals
    if k is not None and key != "branch_entropy" and agrees(reading, textbook(work, key, k, branch)):
        return Grade(key, entered, "right", f"Right, as a textbook computes it: with each intermediate result "
                     f"rounded to {k} decimals you get {entered.strip()}; the exact value "
                     f"{derivation.number(exact, 6)} rounds to {shown}.", exact, shown)
    if k is not None and agrees(reading, derivation.from_shown(work.row_mapping(), key, k)):
        return Grade(key, entered, "right", f"Right, as the worked formula computes it: from the values it shows, "
                     f"rounded to {k} decimals, you get {entered.strip()}; the exact value "
                     f"{derivation.number(exact, 6)} rounds to {shown}.", exact, shown)
    found = recognise(work, key, reading, branch)
    others = elsewhere(work, key, reading)
    if found:
        message = f"Not quite: the value is {shown}. Your number is what you get " + " or ".join(
            f"with this mistake: {f.mistake.name}" for f in found) + "."
    elif others:
        message = f"Not quite: the value for this candidate is {shown}."
    else:
        message = (f"Not quite: the value is {shown}. Your number matches none of the mistakes we know; "
                   "compare your working with the formula below, line by line.")
    message = " ".join(part for part in (message, elsewhere_text(key, others)) if part)
    return Grade(key, entered, "wrong", message, exact, shown, work.formula(key, branch, digits),
                 tuple(f.mistake for f in found), others)


def grade_column(step, key: str, answers: Mapping[int, str], root=None, digits: int = 3) -> dict[int, Grade]:
    """One quantity of many candidates at once (a column of the node's table, as a book's
    exercise asks for every attribute's gain): {row: entered} -> {row: Grade}, blanks left out.

    >>> import dtlearn
    >>> step = dtlearn.fit(dtlearn.load_dataset("tennis"), "id3").steps[0]
    >>> grades = grade_column(step, "gain", {0: "0.247", 1: "0.029", 2: "0.152", 3: "0.048"})
    >>> [g.status for g in grades.values()]
    ['right', 'right', 'right', 'right']
    """
    if key not in QUANTITIES or QUANTITIES[key].family == "choice" or QUANTITIES[key].per_branch:
        raise ValueError(f"A column holds one number per candidate: choose one of "
                         f"{', '.join(k for k in NUMERIC if not QUANTITIES[k].per_branch)}.")
    return {row: grade(Work.of(step, row, root=root), key, text, digits=digits)
            for row, text in answers.items() if str(text).strip()}
