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
of many candidates at once (a column of the table). `grade_choice` grades the non-numeric
answers (the attribute chosen, the threshold, a leaf's class), naming the mistake (`mistakes.
CHOICES`) where one explains the choice; a candidate that ties with the chosen one is right,
and the tie-break is said.

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

import numpy as np
import pandas as pd

from . import derivation
from .candidates import data_value_below
from .formatting import label
from .measures import RANKED_BY
from .splits import TIE_RULE
from .table import candidate_name
from .answers import MIN_DECIMALS, NUMERIC, QUANTITIES, Grade, Reading, Work, agrees, read_answer, rounded, textbook
from .mistakes import CHOICES, MEASURE_NAMES, elsewhere, elsewhere_text, recognise

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


# choices: the attribute, the threshold, a leaf's class ----------------------------------------

def grade_choice(work: Work, key: str, entered: str) -> Grade:
    entered = str(entered).strip()
    if key == "leaf_class":
        return _grade_leaf(work, entered)
    step, table = work.step, work.table
    if step.chosen_row is None:
        return Grade(key, entered, "wrong" if entered else "unreadable",
                     f"No split is chosen here: the node becomes a leaf. {step.reason}", None, "leaf")
    chosen = table.loc[step.chosen_row]
    if key == "attribute":
        return _grade_attribute(work, entered, chosen)
    return _grade_threshold(work, entered, chosen)


def _grade_leaf(work: Work, entered: str) -> Grade:
    step = work.step
    exact = step.prediction
    weights = ", ".join(f"{label(round(w, 3))} {c}" for c, w in zip(work.classes, step.class_weights) if w > 0)
    if entered == str(exact):
        return Grade("leaf_class", entered, "right", f"Right: {exact} ({weights}).", exact, exact)
    return Grade("leaf_class", entered, "wrong", f"The leaf predicts {exact}: its rows are {weights}. {step.reason}",
                 exact, exact)


def _best_by(table: pd.DataFrame, column: str) -> str | None:
    values = pd.to_numeric(table[column], errors="coerce")
    return None if values.isna().all() else str(table.loc[values.idxmax(), "attribute"])


def _grade_attribute(work: Work, entered: str, chosen: pd.Series) -> Grade:
    table = work.table
    ranks = RANKED_BY[work.step.origin.settings.criterion]
    exact = str(chosen["attribute"])
    if entered == exact:
        return Grade("attribute", entered, "right", f"Right: {work.step.reason}", exact, exact)
    mine = table[table["attribute"].astype(str) == entered]
    if mine.empty:
        return Grade("attribute", entered, "wrong", f"{entered} is not tested here; the algorithm chooses {exact}.",
                     exact, exact)
    tied = mine[mine["tied"].astype(bool)]
    if len(tied):  # as good as the chosen candidate: the tie-break alone chose the other
        return Grade("attribute", entered, "right", _tie_text(tied.iloc[0], chosen, ranks), exact, exact)
    found, names = [], []
    if entered in work.step.origin.used(work.step.node_id):
        found.append(CHOICES["used"])
    others = [MEASURE_NAMES[c] for c in MEASURE_NAMES if c != ranks and c in table and _best_by(table, c) == entered]
    if others:
        found.append(CHOICES["other_measure"])
        names.append(f"ranked by {' or '.join(others)} instead of {MEASURE_NAMES[ranks]}")
    best = mine.iloc[int(np.argmax(pd.to_numeric(mine["score"], errors="coerce").fillna(-np.inf).to_numpy()))]
    if not best["eligible"] and not found:
        found.append(CHOICES["ineligible"])
        names.append(f"{CHOICES['ineligible'].name} ({best['reason']})")
    difference = float(chosen["score"]) - float(best["score"])
    message = (f"The algorithm chooses {exact}: its {MEASURE_NAMES[ranks]} is {float(chosen['score']):.4f}, "
               f"{entered}'s best is {float(best['score']):.4f} ({difference:.4f} less).")
    if found:
        names = [m.name for m in found if m.key == "used"] + names
        message += " Your choice is what you get if you " + "; or ".join(names) + "."
    return Grade("attribute", entered, "wrong", message, exact, exact, mistakes=tuple(found))


def _tie_text(row: pd.Series, chosen: pd.Series, ranks: str) -> str:
    """Why a candidate tying with the chosen one is right, and which the algorithm takes."""
    return (f"Right: {candidate_name(row)} ties with {candidate_name(chosen)} at {MEASURE_NAMES[ranks]} "
            f"{float(chosen['score']):.4f} (equal within 1e-12): both are best splits. The algorithm takes "
            f"{candidate_name(chosen)}: {TIE_RULE}.")


def _grade_threshold(work: Work, entered: str, chosen: pd.Series) -> Grade:
    """The chosen cut as the tree tests it (and as the table writes it): the midpoint, or with
    C4.5's rule the largest value of the whole training set not above the midpoint (Quinlan
    1993; J48 the same). A cut of the same attribute tying with it is right too."""
    test = work.step.test
    cut = getattr(test, "threshold", None)
    if cut is None:
        return Grade("threshold", entered, "wrong", f"The chosen test, {chosen['test']}, has no threshold.",
                     None, str(chosen["test"]))
    cut, midpoint = float(cut), float(chosen["threshold"])
    shown = label(cut)
    reading = read_answer(entered)
    if reading is None:
        return Grade("threshold", entered, "unreadable", "Write the threshold as a number, such as 2.45.", cut, shown)
    if agrees(reading, cut):
        return Grade("threshold", entered, "right", f"Right: the split tests {test.attribute} <= {shown}.", cut, shown)
    at_data_value = work.step.origin.settings.threshold_at_data_value
    for _, row in work.table[work.table["tied"].astype(bool) & (work.table["attribute"] == test.attribute)].iterrows():
        if agrees(reading, _written(work, test.attribute, float(row["threshold"]), at_data_value)):
            return Grade("threshold", entered, "right", _tie_text(row, chosen, RANKED_BY[
                work.step.origin.settings.criterion]), cut, shown)
    below, above = _neighbours(work, str(chosen["attribute"]), midpoint)
    found = []
    if at_data_value and agrees(reading, midpoint):
        found.append(CHOICES["midpoint"])
    elif at_data_value and below is not None and below != cut and agrees(reading, below):
        found.append(CHOICES["node_value"])
    elif not at_data_value and any(v is not None and agrees(reading, v) for v in (below, above)):
        found.append(CHOICES["data_value"])
    message = f"The threshold is {shown}: the split tests {test.attribute} <= {shown}."
    if below is not None and above is not None:
        message += f" The values next to the cut at this node are {label(below)} and {label(above)}"
        if at_data_value:
            held = "" if cut == below else ", which a row at another node holds"
            message += (f", midpoint {label(midpoint)}. C4.5 writes the cut as the largest value of the whole "
                        f"training set not above the midpoint (Quinlan 1993; J48 the same): {shown}{held}. It "
                        "separates this node's rows as the midpoint does.")
        else:
            message += "; the cut lies midway between them."
    if found:
        message += " Your number is what you get if you " + "; or ".join(m.name for m in found) + "."
    return Grade("threshold", entered, "wrong", message, cut, shown, mistakes=tuple(found))


def _written(work: Work, attribute: str, midpoint: float, at_data_value: bool) -> float:
    """A cut as the tree writes it (`table` writes its tests so)."""
    if not at_data_value:
        return midpoint
    return data_value_below(work.step.origin.encoded.numeric(attribute), midpoint)


def _neighbours(work: Work, attribute: str, cut: float) -> tuple[float | None, float | None]:
    """The largest value at the node at most the cut, and the smallest above it."""
    origin = work.step.origin
    rows, _ = origin.rows(work.step.node_id)
    values = pd.to_numeric(origin.data.frame[attribute].iloc[rows], errors="coerce").dropna().to_numpy(dtype=float)
    below, above = values[values <= cut + 1e-12], values[values > cut + 1e-12]
    return (float(below.max()) if below.size else None, float(above.min()) if above.size else None)

