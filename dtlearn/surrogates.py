"""CART's surrogate splits (Breiman et al. 1984), as R's rpart computes them.

For a binary split, a surrogate is the split on another attribute that best mimics it:
`agree` is the fraction of the node's rows (those whose primary value is known) that it sends
the same way as the primary (rows missing the surrogate count as disagreeing); the majority
rule m = max(t_L, t_R) / N sends everything to the larger side; `adj = (agree - m) / (1 - m)`
is rpart's adjusted agreement. A surrogate is kept only if adj > 0; a numeric one needs at
least 2 rows on each side, and a categorical one at least 2 rows agreeing and 2 disagreeing
(rpart 4.1.19's rule, kept so that the numbers match). Ranked by agree; ties: column order.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import kernels
from .conditions import MultiwayTest, SubsetTest, ThresholdTest
from .routing import branches


@dataclass(frozen=True)
class Surrogate:
    test: ThresholdTest | SubsetTest
    reversed: bool  # True: the test's first branch stands for the primary's second branch
    agree: float
    adj: float

    def describe(self) -> str:
        labels = self.test.branch_labels
        left = labels[1] if self.reversed else labels[0]
        return f"{self.test.attribute} {left} goes left"

    def to_dict(self) -> dict:
        return {"test": self.test.to_dict(), "reversed": self.reversed, "agree": self.agree, "adj": self.adj}


@dataclass(frozen=True, eq=False)
class SortedValues:
    """Numeric attributes' values at a node in ascending order, as the engine's level keeps
    them: for p in start..end, order[k, p] is the level position (start + the row's index in
    the node) of the p-th smallest value of names[k] and vals[k, p] that value (missing last,
    ties in row order: what a stable sort of the node's rows gives)."""

    names: tuple[str, ...]
    order: np.ndarray
    vals: np.ndarray
    start: int
    end: int


def find_surrogates(encoded, rows: np.ndarray, weights: np.ndarray, primary: np.ndarray, attribute: str,
                    limit: int = 5, sorted_values: SortedValues | None = None) -> tuple[Surrogate, ...]:
    """The ranked surrogates of a binary split whose branch per row is `primary` (0, 1, -1).
    With `sorted_values` (the engine's) and every weight 1, the numeric attributes it names are
    not sorted again and their cuts are scanned compiled (`kernels.surrogate_cuts`): a
    million-row CART tree has thousands of nodes with missing values."""
    known_at = primary >= 0
    all_weights, all_primary = weights, primary
    rows, weights, primary = rows[known_at], weights[known_at], primary[known_at]
    total = weights.sum()
    if total <= 0:
        return ()
    majority = max(weights[primary == 0].sum(), weights[primary == 1].sum()) / total
    presorted = {}
    if sorted_values is not None and (all_weights == 1.0).all():  # the engine's CART rows: whole weights
        sv = sorted_values
        presorted = {name: k for k, name in enumerate(sv.names)}
        node = kernels.SortedNode(sv.order, sv.vals, sv.start, sv.end)
        cuts = kernels.SurrogateCuts(np.zeros(len(sv.names)), np.zeros(len(sv.names), dtype=np.bool_),
                                     np.zeros(len(sv.names)))
        kernels.surrogate_cuts(tuple(node), all_primary, tuple(cuts))  # plain tuples: see the kernel
    found = []
    for position, other in enumerate(encoded.attributes):
        if other == attribute:
            continue
        if other in presorted:
            k = presorted[other]
            threshold, flipped, agreeing = cuts.threshold[k], cuts.flipped[k], cuts.score[k]
            best = None if agreeing == -np.inf else (ThresholdTest(other, float(threshold)), bool(flipped),
                                                     float(agreeing))
        elif encoded.kind(other) == "numeric":
            best = _numeric(other, encoded.numeric(other)[rows], weights, primary)
        else:
            best = _categorical(other, encoded.codes(other)[rows], encoded.categories(other), weights, primary)
        if best is None:
            continue
        test, reversed_, agreeing = best
        agree = agreeing / total
        adj = (agree - majority) / (1 - majority) if majority < 1 else 0.0
        if adj > 0:
            found.append((-agree, position, Surrogate(test, reversed_, float(agree), float(adj))))
    found.sort(key=lambda item: item[:2])
    return tuple(item[2] for item in found[:limit])


def _numeric(attribute, values, weights, primary):
    usable = ~np.isnan(values)
    if usable.sum() < 4:
        return None
    order = np.argsort(values[usable], kind="stable")
    x, w, p = values[usable][order], weights[usable][order], primary[usable][order]
    left_l = np.cumsum(w * (p == 0))[:-1]  # primary-left weight at or below each cut
    left_r = np.cumsum(w * (p == 1))[:-1]
    total_l, total_r = (w * (p == 0)).sum(), (w * (p == 1)).sum()
    count = np.arange(1, len(x))  # rows at or below each cut
    valid = (x[1:] > x[:-1]) & (count >= 2) & (len(x) - count >= 2)
    if not valid.any():
        return None
    straight = left_l + (total_r - left_r)  # x <= t goes left
    flipped = left_r + (total_l - left_l)  # x <= t goes right
    scores = np.where(valid, np.maximum(straight, flipped), -np.inf)
    i = int(np.argmax(scores))
    threshold = x[i] / 2 + x[i + 1] / 2
    return ThresholdTest(attribute, float(threshold)), bool(flipped[i] > straight[i]), float(scores[i])


def _categorical(attribute, codes, categories, weights, primary):
    usable = codes >= 0
    if not usable.any():
        return None
    n = len(categories)
    to_left = np.bincount(codes[usable], weights=weights[usable] * (primary[usable] == 0), minlength=n)
    to_right = np.bincount(codes[usable], weights=weights[usable] * (primary[usable] == 1), minlength=n)
    present = (to_left + to_right) > 0
    majority_left = to_left.sum() >= to_right.sum()
    goes_left = np.where(to_left == to_right, majority_left, to_left > to_right) & present
    agreeing = np.where(goes_left, to_left, to_right)[present].sum()
    rows_agree = ((goes_left[codes[usable]]) == (primary[usable] == 0)).sum()
    rows_disagree = usable.sum() - rows_agree
    if rows_agree < 2 or rows_disagree < 2 or goes_left[present].all() or not goes_left[present].any():
        return None
    left = tuple(c for c, g in zip(categories, goes_left) if g)
    right = tuple(c for c, g, p in zip(categories, goes_left, present) if p and not g)
    return SubsetTest(attribute, left, right), False, float(agreeing)


def primary_branches(encoded, rows: np.ndarray, test) -> np.ndarray:
    """The primary test's branch (0, 1) of each training row, -1 where its value is missing.
    A multiway test of two values (ID3, C4.5 on a two-valued attribute) sends its first value
    to branch 0, as a subset test would."""
    if isinstance(test, MultiwayTest):
        test = SubsetTest(test.attribute, test.values[:1], test.values[1:])
    return branches(encoded, test, rows)


def surrogates_of(encoded, rows, weights=None, test=None, limit: int = 5) -> tuple[Surrogate, ...]:
    """The surrogates of a node's binary split, from the node's training rows (an `Evaluation`
    may stand for encoded, rows and weights)."""
    if weights is None or test is None:  # surrogates_of(evaluation, test[, limit])
        evaluation, test, limit = encoded, rows, (weights if isinstance(weights, int) else limit)
        encoded, rows, weights = evaluation.encoded, evaluation.rows, evaluation.weights
    if len(test.branch_labels) != 2:
        return ()
    primary = primary_branches(encoded, rows, test)
    return find_surrogates(encoded, rows, weights, primary, test.attribute, limit)
