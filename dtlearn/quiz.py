"""Guess the next split: before a growth step is revealed, the student picks what the algorithm
will do at that node (a test, or "make it a leaf"); `check` says whether the guess is right,
and why, in the measure the algorithm ranks by and by how much.

A guess names an attribute and, where the attribute has several candidate tests at the node
(thresholds of a number, subsets of a category), one of them by its text as the table writes
it (`sepal_length <= 5.45`). The right attribute with another test counts half. A test that
ties with the chosen one (`tied` in the table) is right: only the tie-break (`splits.TIE_RULE`)
chose the other.

>>> import dtlearn
>>> step = dtlearn.fit(dtlearn.load_dataset("tennis"), "id3").steps[0]
>>> check(step, "outlook").verdict, check(step, "humidity").verdict
('right', 'wrong')
>>> print(check(step, "humidity").message)
ID3 splits on outlook: its information gain is 0.2467; humidity's is 0.1518, 0.0949 less.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from .criteria import CRITERIA
from .measures import RANKED_BY
from .settings import PRESET
from .splits import TIE_RULE
from .steps import LEAF, SPLIT
from .table import candidate_name, listed_table

LEAF_GUESS = None  # the guess "this node becomes a leaf"
MEASURE_NAMES = {c.ranks_by: c.name for c in CRITERIA.values()}  # what each criterion ranks by, in a sentence
ALGORITHM_NAMES = {key: preset.name for key, preset in PRESET.items()}
POINTS = {"right": 1.0, "half": 0.5, "wrong": 0.0}


@dataclass(frozen=True)
class Guess:
    verdict: str  # "right", "half" (the right attribute, another test) or "wrong"
    message: str  # why, in words (plain text; the page escapes it)
    chosen: str  # what the algorithm did: the chosen test, or "a leaf"

    @property
    def points(self) -> float:
        return POINTS[self.verdict]


def questions(tree) -> tuple:
    """The growth steps a student can guess, in order (each is a split or a leaf)."""
    return tuple(step for step in tree.steps if step.action in (SPLIT, LEAF))


def options(step) -> dict[str, tuple[str, ...]]:
    """The attributes a student may pick at this node, each with its candidate tests (the
    table's `test` texts, table order; one for a multiway split; of a long table the rows
    listed: `table.listed_table`)."""
    table = listed_table(step)
    tests: dict[str, list[str]] = {}
    for attribute, test in zip(table["attribute"].astype(str), table["test"].astype(str)):
        tests.setdefault(attribute, []).append(test)
    return {a: tuple(t) for a, t in tests.items()}


def _ranked(step) -> str:
    settings = step.origin.settings
    return "score" if not step.class_weights else RANKED_BY.get(settings.criterion, "score")


def _best(step, rows: pd.DataFrame) -> pd.Series:
    """An attribute's own best test, as every page lists it first (`CandidateTable.best_rows`:
    C4.5 picks a threshold by its own rule: `splits.cut_rank`)."""
    if rows["chosen"].any():
        return rows[rows["chosen"].astype(bool)].iloc[0]
    best = set(step.candidates.best_rows().tolist())
    listed = [i for i in rows.index if i in best]
    return rows.loc[listed[0]] if listed else rows.iloc[0]


def check(step, attribute: str | None, test: str | None = None) -> Guess:
    """Grade a guess at a growth step: `attribute` None means "a leaf"; `test` picks one of the
    attribute's tests (None: its best one)."""
    if step.action not in (SPLIT, LEAF) or step.origin is None:
        raise ValueError("Guesses are about growth steps: a split or a leaf while the tree grows.")
    algorithm = ALGORITHM_NAMES.get(step.origin.settings.algorithm, step.origin.settings.algorithm)
    if step.action == LEAF:
        if attribute is LEAF_GUESS:
            return Guess("right", f"Right: the node becomes a leaf. {step.reason}", "a leaf")
        return Guess("wrong", f"The node becomes a leaf: {step.reason}", "a leaf")
    column = _ranked(step)
    table = listed_table(step, by=("score", column))
    chosen = table.loc[step.chosen_row]
    measure = MEASURE_NAMES[column]
    won = f"{algorithm} splits on {step.test.describe() if chosen['kind'] != 'multiway' else chosen['attribute']}"
    if attribute is LEAF_GUESS:
        return Guess("wrong", f"{won}: {step.reason}", step.test.describe())
    mine = table[table["attribute"].astype(str) == str(attribute)]
    if mine.empty:
        return Guess("wrong", f"{won}; {attribute} is not a candidate at this node.", step.test.describe())
    if test is not None:
        picked = mine[mine["test"].astype(str) == str(test)]
        if picked.empty:
            raise ValueError(f"'{test}' is not one of {attribute}'s tests at this node.")
        row = picked.iloc[0]
    else:
        row = _best(step, mine)
    ours, theirs = float(chosen[column]), float(row[column])
    if bool(row["chosen"]):
        return Guess("right", f"Right: {step.reason}", step.test.describe())
    if bool(row["tied"]):
        return Guess("right", f"Right: {candidate_name(row)} ties with {candidate_name(chosen)} at {measure} "
                              f"{theirs:.4f} (equal within 1e-12): both are best splits. {algorithm} takes "
                              f"{candidate_name(chosen)}: {TIE_RULE}.", step.test.describe())
    if str(attribute) == str(chosen["attribute"]):
        return Guess("half", f"The right attribute, another test: {won}, whose {measure} is {ours:.4f}; "
                             f"{row['test']} has {theirs:.4f}.", step.test.describe())
    message = f"{won}: its {measure} is {ours:.4f}; {attribute}'s is {theirs:.4f}, {ours - theirs:.4f} less."
    if not bool(row["eligible"]):
        message = f"{won}. {row['test']} is not allowed here: {row['reason']}."
    return Guess("wrong", message, step.test.describe())
