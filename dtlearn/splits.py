"""Which split a node takes, and the table of every candidate behind that choice.

`evaluate` scores all candidates of a node, applies the eligibility rules of the settings
and picks one. `Evaluation.table()` lays the same numbers out as a DataFrame, one row per
candidate, with every measure whichever algorithm is selected.

Tie-break (documented, deterministic): the highest score wins; scores within 1e-12 of each
other are ties, won by the candidate first in table order: attributes in column order, and
within an attribute thresholds ascending, subsets in enumeration order.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
import pandas as pd

from .candidates import Block, NumericScan, multiway_block, subset_block
from .data import label
from .encoding import Encoded
from .settings import CRITERION_NAMES, Settings

TIE = 1e-12
AVERAGE_TOLERANCE = 1e-3  # J48 compares gain >= average - 1e-3 ("closer to the original C4.5")

OK, NO_KNOWN, ONE_BRANCH, SMALL_LEAF, FEW_CASES, SMALL_SIDE = range(6)
USED, NOT_BEST_THRESHOLD, NO_CORRECTED_GAIN, BELOW_AVERAGE, ZERO_RATIO = range(6, 11)


@dataclass(frozen=True)
class Choice:
    attribute: str
    index: int  # candidate index within the attribute's block
    score: float
    gain: float  # information gain (Gini gain for the gini criterion), after any correction


@dataclass(frozen=True)
class AttributeBest:
    """An attribute's best candidate, the one that competes with the other attributes."""

    attribute: str
    index: int  # -1: no valid candidate
    score: float
    gain: float
    reason: int
    many_valued: bool = False


def split_limits(settings: Settings, stats, n_classes: int, kind: str):
    """(ok, reason) per candidate from the rules that need only the candidate itself."""
    n_branch = stats.n_branch
    nonempty = n_branch > 0
    reason = np.full(stats.n_known.shape, OK)
    reason = np.where(nonempty.sum(axis=-1) < 2, ONE_BRANCH, reason)
    reason = np.where(stats.n_known <= 0, NO_KNOWN, reason)
    small = (nonempty & (n_branch < settings.min_samples_leaf)).any(axis=-1)
    reason = np.where((reason == OK) & small, SMALL_LEAF, reason)
    m = settings.min_branch_cases
    if m > 0 and kind == "threshold":
        min_side = j48_min_split(stats.n_known, m, n_classes)
        reason = np.where((reason == OK) & (n_branch.min(axis=-1) < min_side), SMALL_SIDE, reason)
    elif m > 0:
        reason = np.where((reason == OK) & ((n_branch >= m).sum(axis=-1) < 2), FEW_CASES, reason)
    return reason == OK, reason


def j48_min_split(n_known, m: float, n_classes: int):
    """J48's minimum cases on each side of a threshold: 10% of the node per class, in [M, 25]."""
    raw = 0.1 * n_known / n_classes
    return np.where(raw <= m, m, np.minimum(raw, 25.0))


def _best(ok: np.ndarray, rank: np.ndarray):
    """First index of the largest rank among ok candidates along axis 0 (-1 when none)."""
    masked = np.where(ok, rank, -np.inf)
    if masked.shape[0] == 0:
        shape = masked.shape[1:]
        return np.full(shape, -1), np.zeros(shape, dtype=bool)
    top = masked.max(axis=0)
    first = np.argmax(masked >= top - TIE, axis=0)
    return np.where(ok.any(axis=0), first, -1), ok.any(axis=0)


def attribute_bests(attributes, kind, stats, ok, reason, settings, used, n_total):
    """The competing candidate of each attribute; arrays along axis 1 are attributes."""
    threshold_by_gain = kind == "threshold" and settings.criterion == "gain_ratio"
    rank = stats.gain if threshold_by_gain else stats.score_by(settings.criterion)
    index, has = _best(ok, rank)
    safe = np.maximum(index, 0)[None]
    pick = lambda a: np.take_along_axis(a, safe, axis=0)[0]  # noqa: E731
    gain = pick(stats.gain_by(settings.criterion))
    score = pick(stats.score_by(settings.criterion))
    bests = []
    for j, attribute in enumerate(attributes):
        why = OK if has[j] else _first_reason(reason[:, j])
        g, s = float(gain[j]), float(score[j])
        if threshold_by_gain and has[j]:
            g = g - threshold_correction(settings, ok[:, j].sum(), n_total)
            s = g / float(pick(stats.split_info)[j]) if g > TIE else 0.0
            why = OK if g > TIE else NO_CORRECTED_GAIN
        if not settings.reuse_attributes and attribute in used:
            why = USED
        bests.append(AttributeBest(attribute, int(index[j]) if why == OK else -1, s, g, why))
    return bests


def threshold_correction(settings: Settings, n_thresholds, n_total) -> float:
    """C4.5 release 8 / J48: log2(number of candidate thresholds) / N (Quinlan 1996)."""
    if not settings.threshold_correction or n_thresholds < 1:
        return 0.0
    return float(np.log2(n_thresholds) / n_total)


def _first_reason(reasons: np.ndarray) -> int:
    real = reasons[reasons != OK]
    return int(real.min()) if real.size else ONE_BRANCH


def choose(bests: list[AttributeBest], settings: Settings) -> tuple[Choice | None, float]:
    """The winning candidate (None: no split qualifies) and the average gain used, if any."""
    contenders = [b for b in bests if b.index >= 0]
    average = float("nan")
    if settings.average_gain_rule and contenders:
        pool = [b for b in contenders if not b.many_valued] or contenders
        average = float(np.mean([b.gain for b in pool]))
        contenders = [b for b in contenders if b.gain >= average - AVERAGE_TOLERANCE and b.score > 0]
    if not contenders:
        return None, average
    top = max(b.score for b in contenders)
    winner = next(b for b in contenders if b.score >= top - TIE)
    return Choice(winner.attribute, winner.index, winner.score, winner.gain), average


@dataclass(frozen=True, eq=False)
class Evaluation:
    """All candidates of one node and the choice made among them."""

    encoded: Encoded
    rows: np.ndarray
    weights: np.ndarray
    settings: Settings
    used: frozenset
    node_counts: np.ndarray
    bests: tuple[AttributeBest, ...]
    choice: Choice | None
    average_gain: float
    scan: NumericScan | None
    blocks: dict  # attribute -> Block, for non-threshold attributes

    def block(self, attribute: str) -> Block:
        if attribute in self.blocks:
            return self.blocks[attribute]
        return self.scan.block(self.scan.attributes.index(attribute))

    @cached_property
    def table(self) -> pd.DataFrame:
        frames = [self._block_frame(a) for a in self.encoded.attributes]
        frames = [f for f in frames if len(f)]
        if not frames:
            return pd.DataFrame(columns=TABLE_COLUMNS)
        return pd.concat(frames, ignore_index=True)[TABLE_COLUMNS]

    def _block_frame(self, attribute: str) -> pd.DataFrame:
        block = self.block(attribute)
        s, n = block.stats, block.size
        ok, reason = split_limits(self.settings, s, len(self.encoded.classes), block.kind)
        best = next(b for b in self.bests if b.attribute == attribute)
        reason = self._attribute_reasons(block, ok, reason, best)
        score = s.score_by(self.settings.criterion).astype(float).copy()
        adjusted = np.full(n, np.nan)
        if best.index >= 0 and block.kind == "threshold" and self.settings.criterion == "gain_ratio":
            adjusted[best.index] = best.gain
            score[best.index] = best.score
        chosen = np.zeros(n, dtype=bool)
        if self.choice is not None and self.choice.attribute == attribute:
            chosen[self.choice.index] = True
        tests = [block.test(i) for i in range(n)]
        return pd.DataFrame({
            "attribute": attribute,
            "kind": block.kind,
            "test": [t.describe() for t in tests],
            "threshold": block.thresholds if block.kind == "threshold" else np.full(n, np.nan),
            "branches": [t.branch_labels for t in tests],
            "branch_counts": [tuple(tuple(float(c) for c in b) for b in s.branches[i]) for i in range(n)],
            "n": s.n, "known": s.known,
            "entropy_before": s.entropy_before, "entropy_after": s.entropy_after, "gain": s.gain,
            "split_info": s.split_info, "gain_ratio": s.gain_ratio, "adjusted_gain": adjusted,
            "gini_before": s.gini_before, "gini_after": s.gini_after, "gini_gain": s.gini_gain,
            "cart_measure": s.cart_measure, "error_before": s.error_before, "error_after": s.error_after,
            "score": score,
            "eligible": reason == OK,
            "reason": [self._reason_text(r, block) for r in reason],
            "chosen": chosen,
        })

    def _attribute_reasons(self, block: Block, ok, reason, best: AttributeBest) -> np.ndarray:
        reason = reason.copy()
        if best.reason == USED:
            return np.where(reason == OK, USED, reason)
        if block.kind == "threshold" and self.settings.criterion == "gain_ratio":
            others = ok.copy()
            if best.index >= 0:
                others[best.index] = False
            reason = np.where(others, NOT_BEST_THRESHOLD, reason)
            if best.index < 0 and best.reason == NO_CORRECTED_GAIN:
                reason = np.where(ok, NO_CORRECTED_GAIN, reason)
        if self.settings.average_gain_rule and best.index >= 0 and reason[best.index] == OK:
            if best.gain < self.average_gain - AVERAGE_TOLERANCE:
                reason[best.index] = BELOW_AVERAGE
            elif best.score <= 0:
                reason[best.index] = ZERO_RATIO
        return reason

    def _reason_text(self, code: int, block: Block) -> str:
        s = self.settings
        texts = {
            OK: "",
            NO_KNOWN: "no row has a value for this attribute here",
            ONE_BRANCH: "all rows fall into one branch",
            SMALL_LEAF: f"a branch would hold less than min_samples_leaf = {label(s.min_samples_leaf)} rows",
            FEW_CASES: f"fewer than two branches hold at least {label(s.min_branch_cases)} cases (J48's -M)",
            SMALL_SIDE: "a side would hold fewer cases than J48's minimum for a threshold",
            USED: "already tested on this path (ID3 tests an attribute once per path)",
            NOT_BEST_THRESHOLD: f"C4.5 keeps only the threshold of {block.attribute} with the highest gain",
            NO_CORRECTED_GAIN: "gain minus C4.5's threshold correction is not positive",
            BELOW_AVERAGE: f"gain is below the average gain {self.average_gain:.4f} (C4.5 ranks by gain "
                           "ratio only the candidates with at least average gain)",
            ZERO_RATIO: "gain ratio is 0",
        }
        return texts[code] + (f"; {block.note}" if block.note and code == OK else "")

    def explanation(self) -> str:
        """Why the chosen candidate won, in words."""
        if self.choice is None:
            return ""
        c, s = self.choice, self.settings
        name = CRITERION_NAMES[s.criterion]
        if s.criterion == "gain_ratio" and self.encoded.kind(c.attribute) == "numeric" \
                and s.numeric_split == "threshold" and s.threshold_correction:
            name = "gain ratio (after C4.5's threshold correction)"
        text = f"highest {name} ({c.score:.4f})"
        if s.average_gain_rule:
            text += f" among the candidates whose gain is at least the average gain ({self.average_gain:.4f})"
        return text


TABLE_COLUMNS = [
    "attribute", "kind", "test", "threshold", "branches", "branch_counts", "n", "known",
    "entropy_before", "entropy_after", "gain", "split_info", "gain_ratio", "adjusted_gain",
    "gini_before", "gini_after", "gini_gain", "cart_measure", "error_before", "error_after",
    "score", "eligible", "reason", "chosen",
]


def evaluate(encoded: Encoded, rows: np.ndarray, weights: np.ndarray, settings: Settings,
             used: frozenset = frozenset()) -> Evaluation:
    """Score every candidate split of the node made of `rows` (with `weights`) and choose."""
    k = len(encoded.classes)
    y = encoded.y[rows]
    node_counts = np.bincount(y, weights=weights, minlength=k).astype(float)
    n_total = float(weights.sum())
    bests: dict[str, AttributeBest] = {}
    scan = None
    thresholds = [a for a in encoded.numeric_attributes if settings.numeric_split == "threshold"]
    if thresholds:
        columns = [encoded.numeric_attributes.index(a) for a in thresholds]
        X = encoded.numeric_matrix[rows][:, columns]
        scan = NumericScan(thresholds, X, y, weights, node_counts)
        ok, reason = split_limits(settings, scan.stats, k, "threshold")
        ok &= scan.distinct
        rank_among_distinct = np.cumsum(scan.distinct, axis=0) - 1  # block index of each cut position
        for j, best in enumerate(attribute_bests(thresholds, "threshold", scan.stats, ok, reason, settings,
                                                 used, n_total)):
            index = int(rank_among_distinct[best.index, j]) if best.index >= 0 else -1
            bests[best.attribute] = AttributeBest(best.attribute, index, best.score, best.gain, best.reason)
    blocks = {}
    for attribute in encoded.attributes:
        if attribute in bests:
            continue
        block = _categorical_block(encoded, attribute, rows, y, weights, node_counts, settings)
        blocks[attribute] = block
        ok, reason = split_limits(settings, block.stats, k, block.kind)
        as_column = block.stats.take((slice(None), None))  # (C, 1): one attribute, batched code
        best = attribute_bests([attribute], block.kind, as_column, ok[:, None], reason[:, None],
                               settings, used, n_total)[0]
        many = len(block.values) >= 0.3 * encoded.n_rows
        bests[attribute] = AttributeBest(best.attribute, best.index, best.score, best.gain, best.reason, many)
    ordered = tuple(bests[a] for a in encoded.attributes)
    choice, average = choose(list(ordered), settings)
    return Evaluation(encoded, rows, weights, settings, used, node_counts, ordered, choice, average, scan, blocks)


def _categorical_block(encoded, attribute, rows, y, weights, node_counts, settings) -> Block:
    codes = encoded.codes(attribute)[rows]
    values = encoded.categories(attribute)
    if settings.categorical_split == "subset" and encoded.kind(attribute) == "categorical":
        return subset_block(attribute, codes, values, y, weights, node_counts, settings.max_exhaustive_values)
    return multiway_block(attribute, codes, values, y, weights, node_counts)
