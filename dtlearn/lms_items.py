"""A variant's exercise as the blanks an LMS grades: the numbers to enter, what counts as right, the mistakes.

The Moodle, QTI and nbgrader exports (`lms_moodle`, `lms_qti`, `lms_nbgrader`) write the same
`Exercise`: the variant's table, and for each step asked the sheet's questions (`worksheet`,
word for word) with one `Blank` per number or choice. A number's key is the candidate table's
own (`answers.Work.exact`); an LMS compares a number with an interval, so the checker's rule
(`grading.grade`: the exact value rounded to the k decimals asked, half up or half to even, or
a textbook's value with every intermediate result rounded, or the worked formula's) becomes

* the exact value +- half a unit of the k-th decimal (a k-decimal answer inside it is the exact
  value rounded, either way taught; a tie sits on the edge and counts), and
* the textbook's and the worked formula's k-decimal values as further right answers, with no
  tolerance, where they fall outside that interval;

and each common mistake (`mistakes.candidates_for`) that gives another number becomes a wrong
answer, +- the same half unit, whose feedback names the mistake and says what to do instead.
An LMS takes the first answer that matches: right answers come first.

>>> import dtlearn
>>> from dtlearn.variants import Constraints, class_set
>>> ada = class_set(dtlearn.load_dataset("tennis"), ["ada"], 7, Constraints("id3"))[0]
>>> blank = exercise(ada, "PlayTennis").parts[0].blanks[1]
>>> blank.quantity, blank.answers[0].right, blank.answers[0].tolerance
('gain', True, 0.0005)
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import pandas as pd

from . import derivation
from .answers import QUANTITIES, Work, rounded, textbook
from .class_sheets import variant_worksheet
from .formatting import label
from .mistakes import candidates_for
from .splits import USED
from .steps import SPLIT
from .worksheet import plain

__all__ = ["Answer", "Blank", "Exercise", "Part", "exercise", "half_unit"]

# the numbers each candidate's question asks for, by the criterion that ranks (as the sheet asks)
ASKED = {"entropy": ("gain",), "gini": ("gini_gain",), "gain_ratio": ("gain", "split_info", "gain_ratio")}
NODE = {"entropy": "node_entropy", "gain_ratio": "node_entropy", "gini": "node_gini"}


@dataclass(frozen=True)
class Answer:
    """One value an LMS compares an entry with: right when |entry - value| <= tolerance."""

    value: float
    tolerance: float
    right: bool
    feedback: str  # plain text


@dataclass(frozen=True)
class Blank:
    """One thing a student enters: a number (`answers`, right ones first) or a choice (`choices`,
    `exact` the right one). `ident` is unique in the exercise, made of [a-z0-9_] and starting
    with a letter (a QTI identifier, a Python name): the step, the quantity, the candidate's row."""

    ident: str
    label: str  # what the blank asks, plain text: "Gain(D, outlook)"
    quantity: str  # a key of answers.QUANTITIES
    step: int  # the growth step's number in the tree
    row: int | None  # the candidate's row in the step's table (None: the node, a leaf)
    exact: float | str
    shown: str  # the exact value written to the decimals asked (the key)
    answers: tuple[Answer, ...] = ()
    choices: tuple[str, ...] = ()


@dataclass(frozen=True)
class Part:
    """One growth step: where it is, the questions (plain text, the sheet's) and their blanks."""

    step: int
    heading: str
    questions: tuple[tuple[str, tuple[Blank, ...]], ...]

    @property
    def blanks(self) -> tuple[Blank, ...]:
        return tuple(b for _, blanks in self.questions for b in blanks)


@dataclass(frozen=True)
class Exercise:
    student: str
    seed: int
    title: str
    introduction: str  # plain text: the formulas and the rounding asked
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]  # every row of the variant's table, '?' where a value is missing
    digits: int
    parts: tuple[Part, ...]

    @property
    def blanks(self) -> tuple[Blank, ...]:
        return tuple(b for part in self.parts for b in part.blanks)


def half_unit(digits: int) -> float:
    """Half a unit of the last decimal asked: 0.0005 for 3 decimals."""
    return float(f"5e-{digits + 1}")


def _ident(*parts) -> str:
    text = "_".join(str(p) for p in parts).lower()
    return re.sub(r"[^a-z0-9_]+", "_", text).strip("_")


def _numeric(work: Work, key: str, digits: int) -> tuple[float, str, tuple[Answer, ...]] | None:
    """The exact value, the key as written, and the answers an LMS compares with; None when the
    table holds no number here (a candidate the rules leave unscored)."""
    exact = work.exact(key)
    if not math.isfinite(exact):
        return None
    h, shown = half_unit(digits), derivation.number(exact, digits)
    answers = [Answer(exact, h, True, f"Right: the exact value is {derivation.number(exact, 6)}, which rounds "
                      f"to {shown}.")]
    also = [(textbook(work, key, digits), "as a textbook computes it, each intermediate result rounded to "
             f"{digits} decimals")]
    also.append((derivation.from_shown(work.row_mapping(), key, digits), "as the worked formula computes it "
                 "from the rounded values it shows"))
    for value, how in also:
        if value is not None and math.isfinite(value) and abs(value - exact) > h + 1e-12 \
                and all(abs(value - a.value) > 1e-12 for a in answers):
            answers.append(Answer(rounded(value, digits), 0.0, True, f"Right, {how}; the exact value "
                                  f"{derivation.number(exact, 6)} rounds to {shown}."))
    wrong: dict[float, list[str]] = {}
    for found in candidates_for(work, key, None, digits):
        names = wrong.setdefault(round(found.value, 12), [])
        text = f"{found.mistake.name}. {found.mistake.explanation}"
        if text not in names:
            names.append(text)
    for value, names in wrong.items():
        answers.append(Answer(value, h, False, f"Not quite: the value is {shown}. Your number is what you get "
                              f"with this mistake: " + " Or: ".join(names)))
    return exact, shown, tuple(answers)


def _number_blank(work: Work, key: str, step, digits: int, attribute: str | None) -> Blank | None:
    found = _numeric(work, key, digits)
    if found is None:
        return None
    exact, shown, answers = found
    title = QUANTITIES[key].title.split(",")[0]
    where = f" of the test on {attribute}" if attribute is not None else ""
    ident = _ident(f"s{step.number}", key, "" if attribute is None else f"r{work.row}")
    return Blank(ident, title + where, key, step.number, work.row,
                 exact, shown, answers)


def _node_work(step, rows: list[int]) -> Work | None:
    """A candidate with every row's value known: its Work holds the whole node's numbers."""
    for row in dict.fromkeys([step.chosen_row, *rows]):
        work = Work.of(step, row)
        if work.missing.sum() <= 1e-9:
            return work
    return None


def _split_part(step, tree, sheet_part, digits: int) -> tuple:
    criterion = tree.settings.criterion
    questions = list(sheet_part.questions)
    out = []
    candidates = step.candidates
    rows = [int(i) for i in candidates.best_rows() if candidates.reason_code[i] != USED]
    whole = _node_work(step, rows)
    node = () if whole is None else (_number_blank(whole, NODE[criterion], step, digits, None),)
    out.append((plain(questions[0].text), tuple(b for b in node if b)))
    for question, row in zip(questions[1:-1], rows):
        work = Work.of(step, row)
        attribute = str(work.candidate["attribute"])
        blanks = (_number_blank(work, key, step, digits, attribute) for key in ASKED[criterion])
        out.append((plain(question.text), tuple(b for b in blanks if b)))
    chosen = str(step.test.attribute)
    options = tuple(dict.fromkeys(str(Work.of(step, r).candidate["attribute"]) for r in rows))
    choice = Blank(_ident(f"s{step.number}", "attribute"), "The attribute tested", "attribute", step.number,
                   step.chosen_row, chosen, chosen, choices=options if chosen in options else (*options, chosen))
    out.append((plain(questions[-1].text), (choice,)))
    return tuple(out)


def _leaf_part(step, tree, sheet_part) -> tuple:
    classes = tuple(str(c) for c in tree.classes)
    choice = Blank(_ident(f"s{step.number}", "leaf_class"), "The class predicted", "leaf_class", step.number, None,
                   str(step.prediction), str(step.prediction), choices=classes)
    return ((plain(sheet_part.questions[0].text), (choice,)),)


def _table(frame: pd.DataFrame) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    rows = tuple(tuple("?" if pd.isna(v) else label(v) for v in values)
                 for values in frame.itertuples(index=False, name=None))
    return tuple(str(c) for c in frame.columns), rows


def exercise(variant, dataset: str) -> Exercise:
    """The variant's exercise: the sheet's questions on the steps asked, with their blanks.
    `dataset` names the table in the title. Made once per variant (each export reads it)."""
    return variant.made(("exercise", dataset), lambda: _exercise(variant, dataset))


def _exercise(variant, dataset: str) -> Exercise:
    sheet = variant_worksheet(variant, dataset)
    steps = {s.number: s for s in variant.asked}
    parts = []
    for sheet_part in sheet.parts:
        step = steps[sheet_part.step]
        heading = f"Step {step.number}: node {sheet_part.path}; {sheet_part.rows}."
        if sheet_part.note:
            heading += " " + sheet_part.note
        questions = (_split_part(step, variant.tree, sheet_part, variant.digits) if step.action == SPLIT
                     else _leaf_part(step, variant.tree, sheet_part))
        parts.append(Part(step.number, heading, questions))
    columns, rows = _table(variant.data.frame)
    return Exercise(variant.student, variant.seed, sheet.title, plain(sheet.introduction), columns, rows,
                    variant.digits, tuple(parts))

