"""The common mistakes in computing split measures by hand, as data and pure functions.

Each `Mistake` says what a student did and, for each quantity it affects, how to compute the
number that mistake produces at a node (`answers.Work`). `recognise` recomputes a wrong answer
under every mistake and returns those that reproduce it to the student's decimals. The numbers
are built from the `measures` definitions changed in the one place the mistake changes: a
logarithm to another base is log2 scaled (H_b = H_2 ln 2 / ln b), an unweighted average is
the mean of the same branch entropies, and so on.

`elsewhere` names the other candidates at the node whose value a wrong number is (a student
who worked another row than the one they meant).

`CHOICES` are the mistakes behind a wrong choice (ranking by another measure, ID3 testing an
attribute again, a cut at a data value instead of the midpoint or the reverse), which
`grading.grade_choice` names.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np
import pandas as pd

from .answers import QUANTITIES, Reading, Work, agrees, textbook, truncated
from .measures import SplitStats
from . import quantities
from .table import candidate_name


@dataclass(frozen=True)
class Mistake:
    key: str
    name: str  # what the student did, as the page says it
    explanation: str  # why it is wrong / what to do instead
    compute: dict  # quantity -> f(work, branch, decimals) -> the number the mistake gives (None: n/a)


@dataclass(frozen=True)
class Found:
    mistake: Mistake
    value: float  # the number this mistake gives


# numbers under each mistake ----------------------------------------------------------------

def _base(log_of_2: float) -> Callable:
    """A measure in nats or decimal digits: the log2 value times ln 2 / ln b."""
    def scaled(column: str) -> Callable:
        return lambda w, b, k: w.exact(column, b) * log_of_2 if column.startswith("branch") else \
            w.exact(column) * log_of_2
    return scaled


_LN, _LOG10 = _base(math.log(2)), _base(math.log10(2))
_ENTROPY_KEYS = ("node_entropy", "branch_entropy", "entropy_after", "gain", "split_info")


def _stats(w: Work) -> SplitStats:
    return w.stats


def _branch_sizes(w: Work) -> np.ndarray:
    return w.counts.sum(axis=1)


def _unweighted(per_branch: str) -> Callable:
    return lambda w, b, k: float(np.mean(getattr(_stats(w), per_branch)[0]))


def _by_counts(per_branch: str) -> Callable:
    return lambda w, b, k: float(np.sum(_branch_sizes(w) * getattr(_stats(w), per_branch)[0]))


def _gain_from(before: str, after: Callable) -> Callable:
    """The gain when `after` replaces the weighted impurity (rho as in the definitions)."""
    return lambda w, b, k: float(_stats(w).known[0] * (w.exact(before) - after(w, b, k)))


def _ratio_with_gain(gain: Callable) -> Callable:
    def ratio(w, b, k):
        info = w.exact("split_info")
        return (gain(w, b, k) - w.correction) / info if info > 0 else None
    return ratio


def _node_entropy(w: Work, b, k) -> float:
    return w.exact("node_entropy")


def _without_unknown(w: Work) -> SplitStats:
    """The measures as if the rows with an unknown value were not there at all."""
    return SplitStats(w.counts[None], np.zeros_like(w.missing), correction=w.correction)


def _unknown_in_largest(w: Work) -> SplitStats:
    """The rows with an unknown value counted, whole, in the largest branch."""
    counts = w.counts.copy()
    counts[int(np.argmax(_branch_sizes(w)))] += w.missing
    return SplitStats(counts[None], np.zeros_like(w.missing), correction=w.correction)


def _has_unknown(f: Callable) -> Callable:
    return lambda w, b, k: f(w, b, k) if w.missing.sum() > 1e-9 else None


def _measured(stats_of: Callable, measure: str) -> Callable:
    """A measure of the candidate as one mistaken handling of unknown values counts it."""
    return _has_unknown(lambda w, b, k: float(np.asarray(getattr(stats_of(w), measure))[0]))


def _of_node(weights: np.ndarray, column: str) -> float:
    """A node measure (entropy_before, gini_before) of class weights, by the definitions."""
    return float(np.asarray(getattr(SplitStats(weights[None, None], np.zeros_like(weights)), column))[0])


def _at_root(column: str) -> Callable:
    def value(w, b, k):
        if np.allclose(w.root_weights, np.asarray(w.step.class_weights)):
            return None  # this is the root
        return _of_node(w.root_weights, column)
    return value


def _early(key: str) -> Callable:
    """Intermediate results rounded to fewer decimals than the answer (k-1 and k-2)."""
    def value(w, b, k):
        return [textbook(w, key, fewer, b) for fewer in range(max(k - 2, 1), k)] if k and k > 1 else None
    return value


def _truncated(key: str) -> Callable:
    return lambda w, b, k: truncated(w.exact(key, b), k) if k else None


CATALOGUE = (
    Mistake("natural_log", "natural logarithm (ln) instead of log2",
            "Entropy in bits uses log2: log2 x = ln x / ln 2 (Quinlan 1986).",
            {key: _LN(key) for key in _ENTROPY_KEYS}),
    Mistake("log10", "log10 instead of log2",
            "Entropy in bits uses log2: log2 x = log10 x / log10 2.",
            {key: _LOG10(key) for key in _ENTROPY_KEYS}),
    Mistake("unweighted_average", "branch impurities averaged without weighting them by branch size",
            "Weight each branch by its share of the rows, |D_v| / |D|.",
            {"entropy_after": _unweighted("branch_entropies"), "gini_after": _unweighted("branch_ginis"),
             "gain": _gain_from("node_entropy", _unweighted("branch_entropies")),
             "gini_gain": _gain_from("node_gini", _unweighted("branch_ginis")),
             "gain_ratio": _ratio_with_gain(_gain_from("node_entropy", _unweighted("branch_entropies")))}),
    Mistake("weighted_by_counts", "branch impurities weighted by their row counts instead of their proportions",
            "The weights are fractions |D_v| / |D| that add up to 1, not the counts |D_v|.",
            {"entropy_after": _by_counts("branch_entropies"), "gini_after": _by_counts("branch_ginis"),
             "gain": _gain_from("node_entropy", _by_counts("branch_entropies")),
             "gini_gain": _gain_from("node_gini", _by_counts("branch_ginis"))}),
    Mistake("not_subtracted", "the impurity after the split given as the gain (not subtracted from the node's)",
            "Gain = impurity of the node - weighted impurity after the split.",
            {"gain": lambda w, b, k: w.exact("entropy_after"), "gini_gain": lambda w, b, k: w.exact("gini_after")}),
    Mistake("reversed", "subtracted the wrong way round (after - before)",
            "Gain = impurity before - impurity after; it is never negative.",
            {"gain": lambda w, b, k: -w.exact("gain"), "gini_gain": lambda w, b, k: -w.exact("gini_gain")}),
    Mistake("split_info_from_classes", "split information computed from the class proportions",
            "Split information is the entropy of the branch sizes |D_v| / |D| (Quinlan 1993), "
            "not of the classes.",
            {"split_info": _node_entropy,
             "gain_ratio": lambda w, b, k: _ratio_over(w, w.exact("node_entropy"))}),
    Mistake("ratio_over_node_entropy", "gain ratio divided by the node's entropy",
            "Gain ratio = gain / split information (the entropy of the branch sizes).",
            {"gain_ratio": lambda w, b, k: _ratio_over(w, w.exact("node_entropy"))}),
    Mistake("gini_of_node", "the node's Gini index given for the split",
            "After the split, take each branch's Gini index weighted by the branch's share of rows.",
            {"gini_after": lambda w, b, k: w.exact("node_gini")}),
    Mistake("at_root", "computed from the whole dataset instead of the rows at this node",
            "Below the root, count only the rows that reach the node.",
            {"node_entropy": _at_root("entropy_before"), "node_gini": _at_root("gini_before")}),
    Mistake("early_rounding", "intermediate results rounded too early (to fewer decimals than your answer)",
            "Keep more decimals in the intermediate results than in the answer.",
            {key: _early(key) for key in ("entropy_after", "gain", "gain_ratio", "gini_after", "gini_gain")}),
    Mistake("truncated", "cut off after the last digit instead of rounded, as Mitchell (1997) prints his values",
            "Mitchell (1997) prints truncated values (Gain(S_sunny, Humidity) = .970, Temperature .570, Wind "
            ".019, where rounding gives 0.971, 0.571, 0.020): a number copied from his book differs so in its "
            "last digit. Round to the nearest: 0.2467 is 0.247 to 3 decimals.",
            {key: _truncated(key) for key in ("node_entropy", "branch_entropy", "entropy_after", "gain",
                                              "split_info", "gain_ratio", "node_gini", "branch_gini",
                                              "gini_after", "gini_gain")}),
    Mistake("unknown_ignored", "rows with an unknown value left out altogether (no rho, no unknown part)",
            "C4.5 (Quinlan 1993) multiplies the gain by rho, the known share, and counts the unknown rows "
            "as one more part of the split information.",
            {key: _measured(_without_unknown, key) for key in ("gain", "split_info", "gain_ratio")}),
    Mistake("unknown_in_a_branch", "rows with an unknown value counted whole in the largest branch",
            "C4.5 (Quinlan 1993) leaves them out of the branch counts and scales the gain by rho; "
            "when the tree is used, they go down every branch with weight r~_v.",
            {key: _measured(_unknown_in_largest, key) for key in ("gain", "entropy_after", "gain_ratio")}),
    Mistake("unknown_in_node", "the node's entropy taken over all its rows, the unknown ones included",
            "With unknown values, C4.5 computes Ent(D~) over the rows whose value is known.",
            {"node_entropy": _has_unknown(lambda w, b, k: _of_node(w.node + w.missing, "entropy_before"))}),
)
MISTAKES = {m.key: m for m in CATALOGUE}


def _ratio_over(w: Work, denominator: float) -> float | None:
    gain = w.exact("gain") - w.correction
    return gain / denominator if denominator > 0 else None


def candidates_for(work: Work, key: str, branch: int | None, decimals: int | None) -> list[Found]:
    """Every mistake that applies to a quantity here, with the number it gives; a mistake that
    gives the right number here (ln instead of log2 in a ratio of logarithms) is left out."""
    exact = work.exact(key, branch)
    found = []
    for mistake in CATALOGUE:
        compute = mistake.compute.get(key)
        value = compute(work, branch, decimals) if compute is not None else None
        for v in (value if isinstance(value, list) else [value]):
            if v is None or not math.isfinite(v):
                continue
            if decimals and agrees(Reading(v, decimals), exact) or abs(v - exact) <= 1e-12:
                continue
            found.append(Found(mistake, float(v)))
    return found


NAMED_AT_MOST = 3  # other candidates named by `elsewhere`; more are counted


def elsewhere(work: Work, key: str, reading: Reading) -> tuple[str, ...]:
    """The other candidates at the node (of the rows the table lists) whose value of the
    quantity the answer is, to its decimals; none for the node's own impurity (every
    candidate shares it) or a branch's."""
    column = QUANTITIES[key].column
    if column in (None, "entropy_before", "gini_before") or work.row is None or column not in work.table:
        return ()
    table = work.table
    values = pd.to_numeric(table[column], errors="coerce")
    return tuple(candidate_name(table.loc[i]) for i, value in values.items()
                 if i != work.row and agrees(reading, float(value)))


def elsewhere_text(key: str, names: tuple[str, ...]) -> str:
    """'It is the Gini gain of another candidate at this node, Annual Income <= 80: ...'"""
    if not names:
        return ""
    phrase = QUANTITIES[key].phrase
    listed = ", ".join(names[:NAMED_AT_MOST]) + (f" and {len(names) - NAMED_AT_MOST} more" if
                                                 len(names) > NAMED_AT_MOST else "")
    which = "another candidate at this node" if len(names) == 1 else "other candidates at this node"
    return f"It is the {phrase} of {which}, {listed}: check which candidate you worked."


def recognise(work: Work, key: str, reading: Reading, branch: int | None = None) -> list[Found]:
    """The mistakes that reproduce a wrong answer (to its decimals), in catalogue order."""
    matches, seen = [], set()
    for found in candidates_for(work, key, branch, reading.decimals):
        if found.mistake.key not in seen and agrees(reading, found.value):
            matches.append(found)
            seen.add(found.mistake.key)
    return matches


# the attribute, the threshold, the leaf's class -----------------------------------------------

CHOICES = {m.key: m for m in (
    Mistake("other_measure", "ranked the candidates by another measure",
            "ID3 ranks by information gain (Quinlan 1986), C4.5 by gain ratio (Quinlan 1993), "
            "CART by Gini gain (Breiman et al. 1984).", {}),
    Mistake("used", "tested again an attribute already tested on the path",
            "ID3 tests a categorical attribute at most once on a path (Quinlan 1986): its branches "
            "below hold one value each.", {}),
    Mistake("ineligible", "chose a candidate the split rules exclude here",
            "The table's reason column says which rule excludes it.", {}),
    Mistake("data_value", "put the threshold at a data value instead of the midpoint",
            "CART cuts midway between two neighbouring values (Breiman et al. 1984).", {}),
    Mistake("midpoint", "put the threshold at the midpoint",
            "C4.5 scores a cut at the midpoint but writes it as the largest value of the whole training set "
            "not above it (Quinlan 1993; J48 does the same), so every threshold in the tree is a value in the "
            "data; both separate the node's rows alike.", {}),
    Mistake("node_value", "took the largest value at this node, not of the whole training set",
            "C4.5 looks for the largest value not above the midpoint among all the training rows "
            "(Quinlan 1993; J48 the same), so the cut may be a value no row at this node holds.", {}),
)}
MEASURE_NAMES = {key: quantities.QUANTITIES[key].name for key in ("gain", "gain_ratio", "gini_gain")}
