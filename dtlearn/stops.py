"""Why a node became a leaf: one record per stopping rule, its code, its name, the setting it
reads and its words, in the order the rules are tried (the first that applies wins).

The engine (`engine_score`) decides with the codes, plain ints the compiled scans could take too;
`induction` says the leaf's reason with the rule's words; a Step and a Node name it (`name`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, NamedTuple

from .formatting import label

EMPTY, PURE, MAX_DEPTH, MIN_SPLIT, LEAF_SIZE, MIN_CASES, MIN_PURITY, NO_ATTRIBUTES = range(8)
IDENTICAL, MIN_LEAF, NO_VALID_SPLIT, ZERO_GAIN, MIN_GAIN = range(8, 13)


class Leaf(NamedTuple):
    """What a leaf's words quote: its weight, prediction and class weights, the best gain found
    (a min_gain leaf), the settings and whether the tree is a regression tree."""

    weight: float
    prediction: str
    class_weights: object  # a sequence of class weights (empty: regression)
    best_gain: float
    settings: object
    regression: bool


@dataclass(frozen=True)
class Stop:
    code: int
    name: str  # Step.stop and Node.stop
    setting: str | None  # the setting that turns the rule on or sets its limit (None: always on)
    words: Callable[[Leaf], str]


def said_weight(value: float) -> str:
    """A weight of rows as a student reads it: 5, 5.333."""
    return label(round(float(value), 3))


def said_rows(value: float) -> str:
    """'1 row', '3.231 rows': a weight of rows said as a count."""
    return f"{said_weight(value)} row" if said_weight(value) == "1" else f"{said_weight(value)} rows"


def _empty(leaf: Leaf) -> str:
    what = "value" if leaf.regression else "majority class"
    return f"No training rows reach this branch, so it predicts the parent's {what}, {leaf.prediction} (Quinlan 1986)."


def _pure(leaf: Leaf) -> str:
    n, prediction = said_weight(leaf.weight), leaf.prediction
    if n == "1":
        return f"The 1 row here has the value {prediction}: nothing to reduce." if leaf.regression else \
            f"The 1 row here is of class {prediction}: the node is pure."
    if leaf.regression:
        return f"All {n} rows here have the same value, {prediction}: nothing to reduce."
    return f"All {n} rows here are of class {prediction}: the node is pure."


def _min_purity(leaf: Leaf) -> str:
    purity = max(leaf.class_weights) / leaf.weight
    return (f"{purity:.3f} of the rows are {leaf.prediction}, at least the purity threshold "
            f"pi = {label(leaf.settings.min_purity)} (Zaki & Meira).")


RULES = (
    Stop(EMPTY, "empty", None, _empty),
    Stop(PURE, "pure", None, _pure),
    Stop(MAX_DEPTH, "max_depth", "max_depth",
         lambda leaf: f"The maximum depth {leaf.settings.max_depth} is reached: the node becomes a leaf."),
    Stop(MIN_SPLIT, "min_samples_split", "min_samples_split",
         lambda leaf: (f"Only {said_rows(leaf.weight)}, fewer than min_samples_split = "
                       f"{label(leaf.settings.min_samples_split)}: too few to split.")),
    Stop(LEAF_SIZE, "leaf_size", "leaf_size",
         lambda leaf: (f"Only {said_rows(leaf.weight)}, at most the leaf size eta = {label(leaf.settings.leaf_size)} "
                       "(Zaki & Meira): the node becomes a leaf.")),
    Stop(MIN_CASES, "min_samples_split", "min_branch_cases",
         lambda leaf: (f"Only {said_rows(leaf.weight)}: C4.5 needs at least 2 x "
                       f"{label(leaf.settings.min_branch_cases)} to split.")),
    Stop(MIN_PURITY, "min_purity", "min_purity", _min_purity),
    Stop(NO_ATTRIBUTES, "no_attributes", "reuse_attributes",
         lambda leaf: "Every attribute has already been tested on this path: majority leaf."),
    Stop(IDENTICAL, "identical", None,
         lambda leaf: ("All rows here have the same values on every attribute left, so no test can separate them: "
                       "majority leaf (Quinlan 1986).")),
    Stop(MIN_LEAF, "min_samples_leaf", "min_samples_leaf",
         lambda leaf: (f"Every split would leave a branch with fewer than min_samples_leaf = "
                       f"{label(leaf.settings.min_samples_leaf)} rows: majority leaf.")),
    Stop(NO_VALID_SPLIT, "no_valid_split", None,
         lambda leaf: "No candidate split satisfies the split rules (see the table): majority leaf."),
    Stop(ZERO_GAIN, "zero_gain", "stop_at_zero_gain",
         lambda leaf: "No attribute gives any information gain here: majority leaf."),
    Stop(MIN_GAIN, "min_gain", "min_gain",
         lambda leaf: (f"The best gain {leaf.best_gain:.4f} does not exceed min_gain = "
                       f"{label(leaf.settings.min_gain)} (pre-pruning): majority leaf.")),
)
assert [rule.code for rule in RULES] == list(range(len(RULES)))  # a code indexes RULES

STOPS = tuple(rule.name for rule in RULES)  # a code's name


def reason(code: int, leaf: Leaf) -> str:
    """The words of the rule that made the leaf."""
    return RULES[code].words(leaf)
