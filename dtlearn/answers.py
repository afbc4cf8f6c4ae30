"""What a student works on and writes: a node's candidate (`Work`, with the exact numbers its
table holds), the answer as written (`read_answer`, with its decimals), rounding as on paper,
a textbook's arithmetic (every intermediate result rounded), and the verdict (`Grade`).
`grading` grades with these; `mistakes` recomputes a node's numbers under each common mistake.

>>> read_answer("0,247"), rounded(0.2467, 3)
(Reading(value=0.247, decimals=3), 0.247)
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from decimal import ROUND_DOWN, ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal
from fractions import Fraction
from functools import cached_property

import numpy as np
import pandas as pd

from . import derivation
from .criteria import CRITERIA
from .measures import SplitStats
from .steps import LEAF, SPLIT
from .table import listed_table


@dataclass(frozen=True)
class Quantity:
    key: str
    title: str  # as a student reads it
    family: str  # "entropy", "gini", "twoing" or "choice"
    column: str | None  # the table column that holds it (None: per branch, or not a number)
    per_branch: bool = False

    @property
    def phrase(self) -> str:
        """The title inside a sentence: 'information gain', 'Gini gain', 'split information'."""
        title = self.title.split(",")[0]
        return title if title.startswith("Gini") else title[0].lower() + title[1:]


QUANTITIES = {q.key: q for q in (
    Quantity("node_entropy", "Entropy of the node, Ent(D)", "entropy", "entropy_before"),
    Quantity("branch_entropy", "Entropy of a branch, Ent(D_v)", "entropy", None, per_branch=True),
    Quantity("entropy_after", "Weighted entropy after the split", "entropy", "entropy_after"),
    Quantity("gain", "Information gain", "entropy", "gain"),
    Quantity("split_info", "Split information, SplitInfo(a)", "entropy", "split_info"),
    Quantity("gain_ratio", "Gain ratio", "entropy", "gain_ratio"),
    Quantity("node_gini", "Gini index of the node, Gini(D)", "gini", "gini_before"),
    Quantity("branch_gini", "Gini index of a branch, Gini(D_v)", "gini", None, per_branch=True),
    Quantity("gini_after", "Weighted Gini index after the split", "gini", "gini_after"),
    Quantity("gini_gain", "Gini gain", "gini", "gini_gain"),
    Quantity("twoing", "Twoing value", "twoing", "twoing"),
    Quantity("attribute", "The attribute chosen at this node", "choice", None),
    Quantity("threshold", "The threshold of the chosen split", "choice", None),
    Quantity("leaf_class", "The class this leaf predicts", "choice", None),
)}
NUMERIC = tuple(k for k, q in QUANTITIES.items() if q.family != "choice")
RANKED = tuple(dict.fromkeys(c.ranks_by for c in CRITERIA.values() if c.classes))  # a column each criterion ranks by
MIN_DECIMALS = 2  # an answer rounded further than this is too coarse to grade (0 or 1 for 0.247)


# the node and candidate a student works on ------------------------------------------------

@dataclass(frozen=True, eq=False)
class Work:
    """One candidate at one node, with everything grading needs: the table row (its exact
    numbers), the class weights per branch, the node's unknown-value rows, the root's classes."""

    step: object  # steps.Step
    row: int | None  # position in step.table (None: a node without candidates)
    # step.table, or for a long one the rows grading reads (table.listed_table), indexed by position
    table: pd.DataFrame
    classes: tuple[str, ...]
    root_weights: np.ndarray  # (k,) the class weights at the root (for "computed at the root")

    @staticmethod
    def of(step, row: int | None = None, root=None) -> "Work":
        """The step's chosen candidate (or `row` of its table; a leaf: its first row)."""
        if step.action not in (SPLIT, LEAF) or step.origin is None:
            raise ValueError("Practice works on growth steps: a split or a leaf while the tree grows.")
        if not step.class_weights:
            raise ValueError("Practice covers classification; this tree predicts numbers (regression).")
        total = len(step.candidates) if step.candidates is not None else 0
        if row is None:
            row = step.chosen_row if step.chosen_row is not None else (0 if total else None)
        elif not 0 <= row < total:
            raise ValueError(f"This node's table has {total} rows; there is no row {row}.")
        # a long table: the rows grading reads (this one, the chosen, each attribute's best by every measure)
        table = listed_table(step, also=(row,), by=("score", *RANKED))
        classes = tuple(step.origin.encoded.classes)
        root_weights = np.asarray(root.class_weights if root is not None else step.class_weights, dtype=float)
        return Work(step, row, table, classes, root_weights)

    # A row of a mixed-type table is costly to take; a Work reads it (and its stats) dozens of times
    # for each mistake `mistakes` recomputes, so both are taken once.
    @cached_property
    def candidate(self) -> pd.Series | None:
        return None if self.row is None else self.table.loc[self.row]

    @property
    def counts(self) -> np.ndarray:
        """(B, k) the known class weights of each branch."""
        if self.candidate is None:
            return np.asarray(self.step.class_weights, dtype=float)[None]
        return np.asarray(self.candidate["branch_counts"], dtype=float)

    @property
    def node(self) -> np.ndarray:
        """(k,) the class weights of the node's rows with a known value (D~; D when none is missing)."""
        return self.counts.sum(axis=0)

    @property
    def missing(self) -> np.ndarray:
        """(k,) the class weights of the rows whose tested value is unknown."""
        return np.maximum(np.asarray(self.step.class_weights, dtype=float) - self.node, 0.0)

    @property
    def correction(self) -> float:
        value = None if self.candidate is None else self.candidate.get("correction")
        return 0.0 if value is None or pd.isna(value) else float(value)

    @cached_property
    def stats(self) -> SplitStats:
        """The `measures` definitions over this one candidate (what its table row holds)."""
        return SplitStats(self.counts[None], self.missing, correction=self.correction)

    @property
    def branches(self) -> tuple[str, ...]:
        if self.candidate is None:
            return ("(the node)",)
        return tuple(self.candidate["branches"])

    def exact(self, key: str, branch: int | None = None) -> float:
        """The exact value of a numeric quantity: the table's number (per-branch impurities,
        which the table has no column for, from the same definitions)."""
        quantity = QUANTITIES[key]
        if quantity.per_branch:
            values = self.stats.branch_entropies if key == "branch_entropy" else self.stats.branch_ginis
            if branch is None or not 0 <= branch < values.shape[-1]:
                raise ValueError(f"Say which branch: 0 to {values.shape[-1] - 1}.")
            return float(values[0, branch])
        if self.candidate is not None and quantity.column in self.candidate:
            return float(self.candidate[quantity.column])
        return float(np.asarray(getattr(self.stats, quantity.column))[0])

    def row_mapping(self) -> dict:
        """The row as `derivation` takes it (a node without candidates: one branch, the node)."""
        if self.candidate is not None:
            return self.candidate.to_dict()
        return {"branch_counts": tuple(map(tuple, self.counts)), "n": float(self.counts.sum()), "known": 1.0,
                "branches": self.branches, "attribute": None}

    def formula(self, key: str, branch: int | None = None, digits: int = 3,
                limit: int | None = None) -> tuple[str, ...]:
        """The worked formula of one cell, as LaTeX lines (the derivation's); with `limit`, the
        names typeset as a page draws them (`derivation.shortened`)."""
        row, c = self.row_mapping(), self.classes
        if limit is not None:
            row, c = derivation.shortened(row, c, limit)
        lines = {
            "node_entropy": lambda: [derivation.entropy_of_node(row, c, digits=digits)],
            "branch_entropy": lambda: [derivation.branch_entropies(row, c, digits=digits)[branch]],
            "entropy_after": lambda: [derivation.weighted_entropy(row, digits=digits)],
            "gain": lambda: [derivation.entropy_of_node(row, c, digits=digits),
                             derivation.weighted_entropy(row, digits=digits),
                             derivation.information_gain(row, digits=digits)],
            "split_info": lambda: [derivation.split_information(row, digits=digits)],
            "gain_ratio": lambda: [derivation.information_gain(row, digits=digits),
                                   derivation.split_information(row, digits=digits),
                                   *derivation.gain_ratio(row, digits=digits)],
            "node_gini": lambda: [derivation.gini_of_node(row, c, digits=digits)],
            "branch_gini": lambda: [derivation.branch_ginis(row, c, digits=digits)[branch]],
            "gini_after": lambda: [derivation.weighted_gini(row, digits=digits)],
            "gini_gain": lambda: [derivation.gini_of_node(row, c, digits=digits),
                                  derivation.weighted_gini(row, digits=digits),
                                  derivation.gini_gain(row, digits=digits)],
            "twoing": lambda: derivation.twoing(row, digits=digits),
        }
        return tuple(lines[key]()) if key in lines else ()


# reading and rounding answers ---------------------------------------------------------------

@dataclass(frozen=True)
class Reading:
    value: float
    decimals: int | None  # None: an exact fraction (1/2), compared exactly


_NUMBER = re.compile(r"^[+-]?(\d+([.,]\d*)?|[.,]\d+)$")


def read_answer(text: str) -> Reading | None:
    """A number as a student writes it: 0.247, 0,247 (decimal comma), .247, 24.7 %, 1/2;
    None when it is not one.

    >>> read_answer(" 0,2470 "), read_answer("1/4"), read_answer("24.7%")
    (Reading(value=0.247, decimals=4), Reading(value=0.25, decimals=None), Reading(value=0.247, decimals=3))
    >>> read_answer("gain") is None
    True
    """
    written = str(text).strip().replace(" ", "")
    if "/" in written:
        top, _, bottom = written.partition("/")
        try:
            value = Fraction(int(top), int(bottom))
        except (ValueError, ZeroDivisionError):
            return None
        return Reading(float(value), None)
    percent = written.endswith("%")
    written = written.rstrip("%")
    if not _NUMBER.match(written):
        return None
    written = written.replace(",", ".")
    decimals = len(written.partition(".")[2])
    value = float(written)
    return Reading(round(value / 100, decimals + 2), decimals + 2) if percent else Reading(value, decimals)


def rounded(value: float, decimals: int, mode=ROUND_HALF_UP) -> float:
    """`value` rounded to `decimals` places as a person rounds (half up by default), computed on
    the decimal digits, not the binary float (round(2.675, 2) is 2.67 in Python, 2.68 on paper).

    >>> rounded(2.675, 2), rounded(0.125, 2), rounded(0.125, 2, ROUND_HALF_EVEN)
    (2.68, 0.13, 0.12)
    """
    exact = Decimal(repr(round(float(value), 12)))  # 12 places: drops float noise such as 0.49999999999999994
    return float(exact.quantize(Decimal(1).scaleb(-decimals), rounding=mode))


def agrees(reading: Reading, value: float) -> bool:
    """Whether an answer is `value` as written to its decimals (rounded either way taught)."""
    if value is None or not math.isfinite(value):
        return False
    if reading.decimals is None:
        return abs(reading.value - value) <= 1e-9
    return any(abs(reading.value - rounded(value, reading.decimals, mode)) < 1e-12
               for mode in (ROUND_HALF_UP, ROUND_HALF_EVEN))


def truncated(value: float, decimals: int) -> float:
    exact = Decimal(repr(round(float(value), 12)))
    return float(exact.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_DOWN))


# the textbook's arithmetic: each intermediate result rounded to k decimals --------------------

def textbook(work: Work, key: str, k: int, branch: int | None = None) -> float:
    """The value a textbook prints when it rounds every intermediate result to k decimals."""
    s = work.stats
    r = lambda v: rounded(float(v), k)  # noqa: E731 - a one-letter helper keeps the formulas readable
    fraction = s.branch_fraction[0]
    if key in ("node_entropy", "split_info", "node_gini", "twoing"):  # one line from the class weights
        return r(work.exact(key))
    if key in ("branch_entropy", "branch_gini"):
        return r(work.exact(key, branch))
    entropies = [r(e) for e in s.branch_entropies[0]]
    ginis = [r(g) for g in s.branch_ginis[0]]
    after = {"entropy": r(sum(f * e for f, e in zip(fraction, entropies))),
             "gini": r(sum(f * g for f, g in zip(fraction, ginis)))}
    if key == "entropy_after":
        return after["entropy"]
    if key == "gini_after":
        return after["gini"]
    rho = float(s.known[0])  # written as a fraction (Zhou 2016: 14/17 x 0.306)
    gain = r(rho * (r(s.entropy_before[0]) - after["entropy"]))
    if key == "gain":
        return gain
    if key == "gini_gain":
        return r(rho * (r(s.gini_before[0]) - after["gini"]))
    if key == "gain_ratio":
        corrected = r(gain - r(work.correction)) if work.correction else gain
        info = r(s.split_info[0])
        return r(corrected / info) if info > 0 and corrected > 0 else 0.0
    raise KeyError(key)


# the verdict ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Grade:
    quantity: str
    entered: str
    status: str  # "right", "wrong", "unreadable" or "too_coarse"
    message: str  # what the page says, in words
    exact: float | str | None  # the exact value (a number, or the attribute / class / threshold)
    shown: str  # the exact value as written to the student's decimals (or the default)
    formula: tuple[str, ...] = ()  # LaTeX lines of the worked formula (wrong answers)
    mistakes: tuple = ()  # mistakes.Mistake: the common mistakes that reproduce the answer
    elsewhere: tuple[str, ...] = ()  # the other candidates at the node whose value the answer is

    @property
    def right(self) -> bool:
        return self.status == "right"
