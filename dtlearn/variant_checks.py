"""The checks a variant's tree passes before it is kept, read from its own candidate tables.

`problems(tree, constraints, reference)` says why a tree is not kept (codes of PROBLEMS), ()
when it is; `reference` is the template's tree. Every number is read from the steps' candidate
tables (`step.candidates`: score, eligible, tied, and the average gain C4.5 used), never
computed again:

- steps: the steps asked exist; work: as many of them are splits as in the template's tree
  (every student does the same work);
- size: no node asked holds more than `max_node_rows` rows;
- shape: the tree's topology (`shape`, children in any order) is the template's, or is not,
  as `same_shape` asks;
- tie: nothing at the top is closer than the grading tolerance (`Constraints.tolerance`, one
  unit in the last decimal a sheet asks for: grading reads an answer by its rounding, so two
  values closer than that may be written alike): the chosen candidate's score beats every
  other eligible candidate's, and is above 0, by at least that much; so does the cut C4.5
  picks within its attribute; no attribute that could win sits that close to C4.5's average
  gain; a leaf's class leads the next by that much (an empty leaf takes its parent's);
- copy: no split asked shows the template's numbers at that step (each attribute's best score,
  as the sheet rounds it): a published solution of the template never fits.
"""

from __future__ import annotations

import numpy as np

from .splits import AVERAGE_TOLERANCE, cut_rank
from .steps import GROWTH_ACTIONS, SPLIT
from .table import ATTRIBUTE_REASONS

# Why a draw is not kept, in words (the codes `problems` returns)
PROBLEMS = {
    "steps": "the tree has fewer growth steps than asked",
    "work": "the steps asked hold a different number of splits than the template's",
    "size": "a node asked holds more rows than can be computed by hand (max_node_rows)",
    "tie": "two candidates (or classes) at the top are closer than the grading tolerance",
    "shape": "the tree's shape is not the one asked for (same_shape)",
    "copy": "a step asked has the template's own numbers (its published solution would fit)",
    "fit": "the drawn table could not be grown into a tree",
}


def shape(tree) -> tuple:
    """The tree's topology: a leaf (), a node the sorted tuple of its children's shapes (branch
    order follows value order, which relabelling changes).

    >>> import dtlearn
    >>> shape(dtlearn.fit(dtlearn.load_dataset("tennis"), "id3"))
    ((), ((), ()), ((), ()))
    """
    def of(node) -> tuple:
        return tuple(sorted(of(child) for child in node.children))

    return of(tree.root)


def _growth(tree) -> list:
    return [s for s in tree.steps if s.action in GROWTH_ACTIONS]


def problems(tree, constraints, reference) -> tuple[str, ...]:
    """Why a variant's tree is not kept (codes of PROBLEMS), () when it is. The cheap checks
    first; the candidate tables are read only when they pass."""
    c = constraints
    first, last = c.steps
    growth = _growth(tree)
    if len(growth) < last:
        return ("steps",)
    asked = growth[first - 1:last]
    found = []
    if sum(s.action == SPLIT for s in asked) != sum(s.action == SPLIT for s in _growth(reference)[first - 1:last]):
        found.append("work")
    if c.max_node_rows is not None and any(s.weight > c.max_node_rows + 1e-9 for s in asked):
        found.append("size")
    if c.same_shape is not None and (shape(tree) == shape(reference)) != c.same_shape:
        found.append("shape")
    if not found and any(_tied(step, c.tolerance) for step in asked):
        found.append("tie")
    originals = _growth(reference)[first - 1:]
    if not found and any(_copied(step, original, c.digits) for step, original in zip(asked, originals)):
        found.append("copy")
    return tuple(found)


def _copied(step, original, digits: int) -> bool:
    """Whether a split asked shows the scores of the template's split at the same step (each
    attribute's best, rounded as the sheet writes them): a published solution would fit."""
    if step.action != SPLIT or original.action != SPLIT:
        return False

    def scores(s) -> tuple:
        table = s.candidates
        return tuple(round(float(table["score"][i]), digits) for i in table.best_rows())

    return scores(step) == scores(original)


def _tied(step, tolerance: float) -> bool:
    """Whether a student could not tell the winner at this step within `tolerance`: read from
    the candidate table (score, eligible, tied) and the evaluation behind it."""
    if step.action != SPLIT:
        weights = sorted(step.class_weights, reverse=True)  # an empty leaf takes its parent's class
        return len(weights) > 1 and weights[0] > 0 and weights[0] - weights[1] < tolerance
    table = step.candidates
    chosen = table.chosen_row
    score = np.nan_to_num(np.asarray(table["score"], dtype=float), nan=-np.inf)
    if chosen is None or bool(np.asarray(table["tied"]).any()) or score[chosen] < tolerance:
        return True
    others = np.asarray(table["eligible"], dtype=bool).copy()
    others[chosen] = False
    if others.any() and score[chosen] - score[others].max() < tolerance:
        return True
    return _cut_tied(table, chosen, tolerance) or _average_tied(table, chosen, score[chosen], tolerance)


def _cut_tied(table, chosen: int, tolerance: float) -> bool:
    """C4.5 picks a numeric attribute's cut among its own cuts (by gain, or the 1993 book's gain
    ratio): the chosen cut must win that contest by `tolerance` too."""
    evaluation = table.evaluation
    j = int(table.block[chosen])
    start, stop = int(table.starts[j]), int(table.starts[j + 1])
    allowed = (np.asarray(table["eligible"], dtype=bool) | np.isin(table.reason_code, ATTRIBUTE_REASONS))[start:stop]
    rank = cut_rank(evaluation.settings, evaluation.blocks[j].kind, allowed,
                    lambda name: np.asarray(table[name], dtype=float)[start:stop])
    if rank is None:
        return False
    rank = np.where(allowed, np.nan_to_num(np.asarray(rank, dtype=float), nan=-np.inf), -np.inf)
    mine = rank[chosen - start]
    rank[chosen - start] = -np.inf
    return bool(np.isfinite(rank).any() and mine - rank.max() < tolerance)


def _average_tied(table, chosen: int, top: float, tolerance: float) -> bool:
    """C4.5 lets compete only the attributes whose gain is at least the average: none that could
    win (the chosen one, or one scoring near it) may sit within `tolerance` of that line (or of
    J48's, AVERAGE_TOLERANCE below it)."""
    evaluation = table.evaluation
    if not evaluation.settings.average_gain_rule or not np.isfinite(evaluation.average_gain):
        return False
    average, chosen_attribute = float(evaluation.average_gain), int(table.block[chosen])
    for j, best in enumerate(evaluation.bests):
        if best.index < 0 or (j != chosen_attribute and best.score < top - tolerance):
            continue
        if min(abs(best.gain - average), abs(best.gain - (average - AVERAGE_TOLERANCE))) < tolerance:
            return True
    return False
