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
    """(ok, reason) per candidate from the rules that need only the candidate itself.

    Shape-agnostic: the result has the shape of `stats.n_known` broadcast over candidates."""
    branches = np.broadcast_arrays(*stats.branch_sizes)  # case weight of each branch
    n_known = branches[0] + sum(branches[1:])
    nonempty = sum((b > 0).astype(np.int8) for b in branches)
    reason = np.where(nonempty < 2, ONE_BRANCH, OK)
    reason = np.where(n_known <= 0, NO_KNOWN, reason)
    if settings.min_samples_leaf > 0:
        small = np.zeros(reason.shape, dtype=bool)
        for b in branches:
            small |= (b > 0) & (b < settings.min_samples_leaf)
        reason = np.where((reason == OK) & small, SMALL_LEAF, reason)
    m = settings.min_branch_cases
    if m > 0 and kind == "threshold":
        min_side = j48_min_split(n_known, m, n_classes)
        reason = np.where((reason == OK) & (np.minimum(*branches) < min_side), SMALL_SIDE, reason)
    elif m > 0:
        enough = sum((b >= m).astype(np.int8) for b in branches)
        reason = np.where((reason == OK) & (enough < 2), FEW_CASES, reason)
    return reason == OK, reason


def j48_min_split(n_known, m: float, n_classes: int):
    """J48's minimum cases on each side of a threshold: 10% of the node per class, in [M, 25]."""
    raw = 0.1 * n_known / n_classes
    return np.where(raw <= m, m, np.minimum(raw, 25.0))


def _best(ok: np.ndarray, rank: np.ndarray):
    """First index of the largest rank among ok candidates along the last axis (-1: none)."""
    masked = np.where(ok, rank, -np.inf)
    has = ok.any(axis=-1)
    if masked.shape[-1] == 0:
        return np.full(has.shape, -1), has
    top = masked.max(axis=-1, keepdims=True)
    first = np.argmax(masked >= top - TIE, axis=-1)
    return np.where(has, first, -1), has


@dataclass(frozen=True, eq=False)
class Bests:
    """Each attribute's competing candidate, as arrays over attributes."""

    attributes: tuple[str, ...]
    index: np.ndarray  # candidate index within the attribute's block; -1: none qualifies
    score: np.ndarray
    gain: np.ndarray
    reason: np.ndarray
    many_valued: np.ndarray

    def __getitem__(self, attribute: str) -> AttributeBest:
        j = self.attributes.index(attribute)
        return AttributeBest(attribute, int(self.index[j]), float(self.score[j]), float(self.gain[j]),
                             int(self.reason[j]), bool(self.many_valued[j]))

    @staticmethod
    def join(parts: list["Bests"], order: tuple[str, ...]) -> "Bests":
        names = tuple(a for part in parts for a in part.attributes)
        where = np.array([names.index(a) for a in order], dtype=int)
        pick = lambda field: np.concatenate([getattr(p, field) for p in parts])[where]  # noqa: E731
        return Bests(order, *(pick(f) for f in ("index", "score", "gain", "reason", "many_valued")))


def attribute_bests(attributes, kind, stats, ok, reason, settings, used, n_total, many_valued=None) -> Bests:
    """The competing candidate of each attribute; arrays are (attributes, candidates).

    With the gain-ratio criterion a numeric attribute's threshold is the one with the highest
    gain, and only that threshold's gain ratio competes (Quinlan 1993, C4.5)."""
    many = np.zeros(len(attributes), dtype=bool) if many_valued is None else np.asarray(many_valued)
    if ok.shape[-1] == 0:  # no candidate at all (e.g. one value left)
        nothing = np.zeros(len(attributes))
        return Bests(tuple(attributes), np.full(len(attributes), -1), nothing, nothing,
                     np.full(len(attributes), ONE_BRANCH), many)
    threshold_by_gain = kind == "threshold" and settings.criterion == "gain_ratio"
    rank = stats.gain if threshold_by_gain else stats.score_by(settings.criterion)
    index, has = _best(ok, rank)
    safe = np.maximum(index, 0)[:, None]
    pick = lambda a: np.take_along_axis(np.broadcast_to(a, ok.shape), safe, axis=-1)[:, 0]  # noqa: E731
    gain = pick(stats.gain_by(settings.criterion))
    score = gain if settings.criterion != "gain_ratio" else pick(stats.gain_ratio)
    why = np.where(has, OK, _first_reason(reason))
    if threshold_by_gain:
        gain = gain - threshold_correction(settings, ok.sum(axis=-1), n_total)
        positive = gain > TIE
        with np.errstate(divide="ignore", invalid="ignore"):
            score = np.where(positive, gain / pick(stats.split_info), 0.0)
        why = np.where(has & ~positive, NO_CORRECTED_GAIN, why)
    if not settings.reuse_attributes:
        why = np.where([a in used for a in attributes], USED, why)
    return Bests(tuple(attributes), np.where(why == OK, index, -1), score, gain, why, many)


def threshold_correction(settings: Settings, n_thresholds, n_total):
    """C4.5 release 8 / J48: log2(number of candidate thresholds) / N (Quinlan 1996)."""
    n_thresholds = np.asarray(n_thresholds, dtype=float)
    if not settings.threshold_correction:
        return np.zeros_like(n_thresholds)
    return np.log2(np.maximum(n_thresholds, 1.0)) / n_total


def _first_reason(reasons: np.ndarray) -> np.ndarray:
    """The most basic reason why no candidate of an attribute qualifies."""
    if reasons.shape[-1] == 0:
        return np.full(reasons.shape[:-1], ONE_BRANCH)
    worst = np.where(reasons != OK, reasons, 99).min(axis=-1)
    return np.where(worst == 99, ONE_BRANCH, worst)


def choose(bests: Bests, settings: Settings) -> tuple[Choice | None, float]:
    """The winning candidate (None: no split qualifies) and the average gain used, if any."""
    contenders = bests.index >= 0
    average = float("nan")
    if settings.average_gain_rule and contenders.any():
        pool = contenders & ~bests.many_valued
        pool = pool if pool.any() else contenders
        average = float(bests.gain[pool].mean())
        contenders &= (bests.gain >= average - AVERAGE_TOLERANCE) & (bests.score > 0)
    if not contenders.any():
        return None, average
    scores = np.where(contenders, bests.score, -np.inf)
    j = int(np.argmax(scores >= scores.max() - TIE))
    return Choice(bests.attributes[j], int(bests.index[j]), float(bests.score[j]), float(bests.gain[j])), average


@dataclass(frozen=True, eq=False)
class Evaluation:
    """All candidates of one node and the choice made among them."""

    encoded: Encoded
    rows: np.ndarray
    weights: np.ndarray
    settings: Settings
    used: frozenset
    node_counts: np.ndarray
    bests: Bests
    choice: Choice | None
    average_gain: float
    scan: NumericScan | None
    blocks: dict  # attribute -> Block, for non-threshold attributes

    def block(self, attribute: str) -> Block:
        if attribute not in self.blocks:  # threshold blocks are cut out of the scan when asked for
            self.blocks[attribute] = self.scan.block(self.scan.attributes.index(attribute))
        return self.blocks[attribute]

    @cached_property
    def table(self) -> pd.DataFrame:
        columns = REGRESSION_COLUMNS if self.encoded.is_regression else TABLE_COLUMNS
        frames = [self._block_frame(a) for a in self.encoded.attributes]
        frames = [f for f in frames if len(f)]
        if not frames:
            return pd.DataFrame(columns=columns)
        return pd.concat(frames, ignore_index=True)[columns]

    def _block_frame(self, attribute: str) -> pd.DataFrame:
        block = self.block(attribute)
        s, n = block.stats, block.size
        ok, reason = split_limits(self.settings, s, max(len(self.encoded.classes), 1), block.kind)
        best = self.bests[attribute]
        reason = self._attribute_reasons(block, ok, reason, best)
        if self.encoded.is_regression:
            return self._regression_frame(block, reason)
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

    def _regression_frame(self, block: Block, reason) -> pd.DataFrame:
        s, n = block.stats, block.size
        tests = [block.test(i) for i in range(n)]
        chosen = np.zeros(n, dtype=bool)
        if self.choice is not None and self.choice.attribute == block.attribute:
            chosen[self.choice.index] = True
        moments = s.branches
        with np.errstate(divide="ignore", invalid="ignore"):
            means = moments[..., 1] / moments[..., 0]
        return pd.DataFrame({
            "attribute": block.attribute, "kind": block.kind,
            "test": [t.describe() for t in tests],
            "threshold": block.thresholds if block.kind == "threshold" else np.full(n, np.nan),
            "branches": [t.branch_labels for t in tests],
            "branch_stats": [tuple((float(moments[i, b, 0]), float(means[i, b])) for b in range(moments.shape[1]))
                             for i in range(n)],
            "n": s.n, "known": s.known,
            "sse_before": s.sse_before, "sse_after": s.sse_after, "sse_reduction": s.reduction,
            "mse_before": s.mse_before, "mse_after": s.mse_after,
            "score": s.gain, "eligible": reason == OK,
            "reason": [self._reason_text(r, block) for r in reason], "chosen": chosen,
        })

    def _attribute_reasons(self, block: Block, ok, reason, best: AttributeBest) -> np.ndarray:
        reason = reason.copy()
        if best.reason == USED:  # the reason a student needs first, whatever else holds
            return np.full_like(reason, USED)
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


REGRESSION_COLUMNS = [
    "attribute", "kind", "test", "threshold", "branches", "branch_stats", "n", "known",
    "sse_before", "sse_after", "sse_reduction", "mse_before", "mse_after", "score", "eligible", "reason", "chosen",
]


def evaluate(encoded: Encoded, rows: np.ndarray, weights: np.ndarray, settings: Settings,
             used: frozenset = frozenset()) -> Evaluation:
    """Score every candidate split of the node made of `rows` (with `weights`) and choose."""
    k = max(len(encoded.classes), 1)
    channels = encoded.channels(rows, weights)
    node_summary = channels.sum(axis=1)
    n_total = float(weights.sum())
    parts, scan, blocks = [], None, {}
    if settings.numeric_split == "threshold" and encoded.numeric_attributes:
        scan = NumericScan(encoded, encoded.numeric_by_attribute[:, rows], channels, node_summary)
        ok, reason = split_limits(settings, scan.scores, k, "threshold")
        ok &= scan.distinct
        bests = attribute_bests(scan.attributes, "threshold", scan.scores, ok, reason, settings, used, n_total)
        index = bests.index.copy()
        if scan.distinct.shape[1]:  # the block index of each cut position counts distinct cuts only
            rank_among_distinct = np.cumsum(scan.distinct, axis=1) - 1
            index = np.where(index >= 0, rank_among_distinct[np.arange(len(index)), np.maximum(index, 0)], -1)
        parts.append(Bests(bests.attributes, index, bests.score, bests.gain, bests.reason, bests.many_valued))
    for attribute in encoded.attributes:
        if scan is not None and attribute in scan.attributes:
            continue
        block = _categorical_block(encoded, attribute, rows, channels, node_summary, settings)
        blocks[attribute] = block
        ok, reason = split_limits(settings, block.stats, k, block.kind)
        as_row = block.stats.take(None)  # (1, C): one attribute through the batched code
        many = [len(block.values) >= 0.3 * encoded.n_rows]  # J48 leaves these out of the average gain
        parts.append(attribute_bests([attribute], block.kind, as_row, ok[None], reason[None],
                                     settings, used, n_total, many))
    bests = Bests.join(parts, encoded.attributes)
    choice, average = choose(bests, settings)
    return Evaluation(encoded, rows, weights, settings, used, node_summary, bests, choice, average, scan, blocks)


def _categorical_block(encoded, attribute, rows, channels, node_summary, settings) -> Block:
    codes = encoded.codes(attribute)[rows]
    values = encoded.categories(attribute)
    if settings.categorical_split == "subset" and encoded.kind(attribute) == "categorical":
        return subset_block(encoded, attribute, codes, values, channels, node_summary,
                            settings.max_exhaustive_values, settings.max_subset_size)
    return multiway_block(encoded, attribute, codes, values, channels, node_summary)
