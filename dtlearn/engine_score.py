"""The scoring of a level: every node's statistics, the stopping rules, each attribute's
competing candidate at every node, and split or leaf (`engine`).

The compiled `kernels` score every cut and every multiway split of every node; attributes the
kernels do not cover (CART's subsets) are scored with the `candidates` definitions, a level at a
time by `subset_scan` or node by node; the shared rules of `splits` choose.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from . import budget, kernels, subset_scan
from .engine_plan import Level, Plan
from .rules import NO_KNOWN, ONE_BRANCH, SIZE_TOLERANCE, SMALL_LEAF, TIE, USED
from .splits import AttributeBest, Bests, attribute_block, block_best, choose, correction_of, split_limits
from .stops import (EMPTY, IDENTICAL, LEAF_SIZE, MAX_DEPTH, MIN_CASES, MIN_GAIN, MIN_LEAF, MIN_PURITY, MIN_SPLIT,
                    NO_ATTRIBUTES, NO_VALID_SPLIT, PURE, ZERO_GAIN)
from .summary import summarize_many


def _node_stats(encoded, level: Level) -> np.ndarray:
    """Class weights (or moments) of every node of the level."""
    width = 3 if encoded.is_regression else len(encoded.classes)
    out = np.zeros((level.size, width))
    kernels.node_sums(level.buffers, width, out)
    return out


def _one_target(level: Level, shown) -> np.ndarray:
    """Whether all the rows of each node have one target value (its maximum equals its minimum:
    what a pure leaf's reason says). The moments (w, w y, w y^2) cannot tell alone: their
    variance of one repeated value is rounding noise, not 0, and two targets 1e-4 apart around
    350 have a variance (2.5e-9) below any tolerance relative to the squared mean. So only the
    nodes whose variance is that close to 0 (within 1e-6 of the squared mean, far above the
    rounding of the sums) have their targets compared, row by row."""
    starts, ends = level.starts, level.ends
    sizes = ends - starts
    same = sizes <= 1  # one row (none: an empty node, stopped before)
    near = np.flatnonzero(~same & (shown["impurity"] <= 1e-6 * shown["value"] ** 2))
    if len(near):
        n = sizes[near]
        owner = np.repeat(np.arange(len(near)), n)
        at = np.arange(n.sum()) - np.repeat(np.cumsum(n) - n, n) + np.repeat(starts[near], n)
        differ = level.ypos[at] != level.ypos[starts[near]][owner]
        same[near] = np.bincount(owner, weights=differ, minlength=len(near)) == 0
    return same


def _stops_before(plan: Plan, level: Level, stats, shown) -> np.ndarray:
    """The first stopping rule that applies to each node before its candidates are scored."""
    s, encoded = plan.settings, plan.encoded
    total = shown["weight"]
    rules = [(EMPTY, total <= 0)]
    if encoded.is_regression:
        rules.append((PURE, _one_target(level, shown)))
    else:
        rules.append((PURE, stats.max(axis=1) >= total - 1e-9 * np.maximum(total, 1.0)))
    if s.max_depth is not None:
        rules.append((MAX_DEPTH, level.depth >= s.max_depth))
    rules.append((MIN_SPLIT, total < s.min_samples_split - SIZE_TOLERANCE))
    if s.leaf_size is not None:
        rules.append((LEAF_SIZE, total <= s.leaf_size))
    if s.min_branch_cases > 0:
        rules.append((MIN_CASES, total < 2 * s.min_branch_cases - SIZE_TOLERANCE))
    if s.min_purity is not None and not encoded.is_regression:
        with np.errstate(invalid="ignore", divide="ignore"):
            rules.append((MIN_PURITY, stats.max(axis=1) / total >= s.min_purity))
    if not s.reuse_attributes:
        rules.append((NO_ATTRIBUTES, level.used.all(axis=1)))
    stop = np.full(level.size, -1)
    for code, applies in reversed(rules):  # the first rule that applies wins
        stop = np.where(applies, code, stop)
    return stop


def score_level(plan: Plan, level: Level, active: np.ndarray, node_size: np.ndarray):
    """Each attribute's competing candidate at every active node: Bests of shape (L, A), and
    the blocks scored in Python (node, attribute) -> Block."""
    encoded, s = plan.encoded, plan.settings
    L, A = level.size, len(encoded.attributes)
    T = len(plan.threshold)
    # each threshold attribute's competing cut: when every attribute is a number, the table itself (no copy)
    found = kernels.Found.empty(L, T, ONE_BRANCH)
    if plan.threshold and plan.scanned:
        scan = kernels.scan_thresholds_regression if encoded.is_regression else kernels.scan_thresholds
        scan(level.buffers, active, level.unit, plan.scoring, found)
    if plan.multiway and plan.scanned:
        by_value = kernels.Found.empty(L, len(plan.multiway), ONE_BRANCH)
        kernels.scan_multiway(level.buffers, active, plan.multiway_blocked(level), plan.mw_codes, plan.n_values,
                              plan.scoring, by_value)
    if (T == A or len(plan.multiway) == A) and plan.scanned:  # one scan scores every attribute: its table itself
        found = found if T == A else by_value
        index, thresholds, score, gain, reason, ties = (found.index, found.threshold, found.score, found.gain,
                                                        found.reason, found.ties)
    else:
        index = np.full((L, A), -1, dtype=np.int64)
        score, gain = np.zeros((L, A)), np.zeros((L, A))
        reason = np.full((L, A), ONE_BRANCH, dtype=np.int64)
        ties = np.zeros((L, A), dtype=np.int64)
        thresholds = np.full((L, A), np.nan)
        _place(plan.threshold, found, index, score, gain, reason, ties)
        thresholds[:, plan.threshold] = found.threshold
        if plan.multiway and plan.scanned:
            _place(plan.multiway, by_value, index, score, gain, reason, ties)
    blocks = _Blocks()
    if plan.batched:
        nodes = np.flatnonzero(active)
        scored = subset_scan.score(encoded, s, [encoded.attributes[j] for j in plan.batched], nodes, level.starts,
                                   level.ends, level.rows, level.w)
        for j, (found, made) in zip(plan.batched, scored):
            index[nodes, j], score[nodes, j], gain[nodes, j], reason[nodes, j], ties[nodes, j] = found
            blocks.by_attribute[j] = made
    if plan.one_by_one:
        n_classes = max(len(encoded.classes), 1)
        for i in np.flatnonzero(active):
            budget.check_time()  # nodes scored one by one in Python: the slow path
            rows = level.rows[level.starts[i]:level.ends[i]].astype(np.int64)
            weights = level.w[level.starts[i]:level.ends[i]]
            channels = encoded.channels(rows, weights)
            summary = channels.sum(axis=1)
            for j in plan.one_by_one:
                block = attribute_block(encoded, encoded.attributes[j], rows, channels, summary, s)
                ok, why = split_limits(s, block.stats, n_classes, block.kind)
                correction = correction_of(s, block, ok, float(node_size[i]))
                if correction:
                    block = replace(block, stats=block.stats.with_correction(correction))
                best: AttributeBest = block_best(s, block, ok, why, False)
                index[i, j], score[i, j], gain[i, j], reason[i, j], ties[i, j] = \
                    best.index, best.score, best.gain, best.reason, best.ties
                blocks[(i, j)] = block
    if not s.reuse_attributes:
        blocked = level.used & plan.blocks_reuse[None, :]
        index[blocked], reason[blocked] = -1, USED
    index[~active] = -1
    return Bests(index, score, gain, reason, ties, plan.many_valued), thresholds, blocks


def _place(columns: list, found: kernels.Found, index, score, gain, reason, ties) -> None:
    """A scan's findings for some attributes written into the level's (L, A) arrays."""
    index[:, columns], score[:, columns], gain[:, columns] = found.index, found.score, found.gain
    reason[:, columns], ties[:, columns] = found.reason, found.ties


class _Blocks(dict):
    """(node, attribute) -> Block: those scored node by node, and `subset_scan`'s (by
    attribute, node -> Block, each made when asked for: the engine asks for the winners')."""

    def __init__(self) -> None:
        super().__init__()
        self.by_attribute: dict = {}

    def __contains__(self, key) -> bool:
        i, j = key
        return dict.__contains__(self, key) or (j in self.by_attribute and i in self.by_attribute[j])

    def __missing__(self, key):
        i, j = key
        return self.by_attribute[j][i]  # KeyError when neither holds it


def _stops_after(settings, bests: Bests, winner: np.ndarray) -> np.ndarray:
    """Leaves decided by the scores: no candidate qualifies, or the best gain is too small."""
    stop = np.full(len(winner), -1)
    none = winner < 0
    reasons = bests.reason
    unsplittable = (reasons == ONE_BRANCH) | (reasons == NO_KNOWN) | (reasons == USED)
    basic = unsplittable.all(axis=1)
    small = (unsplittable | (reasons == SMALL_LEAF)).all(axis=1)
    stop = np.where(none, np.where(basic, IDENTICAL, np.where(small, MIN_LEAF, NO_VALID_SPLIT)), stop)
    chosen_gain = np.where(none, 0.0, bests.gain[np.arange(len(winner)), np.maximum(winner, 0)])
    if settings.stop_at_zero_gain:
        stop = np.where(~none & (chosen_gain <= TIE), ZERO_GAIN, stop)
    if settings.min_gain > 0:
        stop = np.where(~none & (stop < 0) & (chosen_gain <= settings.min_gain), MIN_GAIN, stop)
    return stop


@dataclass(eq=False)
class Decision:
    stats: np.ndarray
    shown: dict
    stop: np.ndarray  # (L,) -1: split, else the rule that made the node a leaf
    bests: Bests
    thresholds: np.ndarray
    blocks: dict
    choice: object
    winner: np.ndarray


def decide(plan: Plan, level: Level) -> Decision:
    """Every node of the level: its statistics, and split or leaf (and which rule)."""
    encoded, s = plan.encoded, plan.settings
    stats = _node_stats(encoded, level)
    shown = summarize_many(stats, level.fallback, encoded.is_regression, encoded.class_factor, s.impurity)
    stop = _stops_before(plan, level, stats, shown)
    active = stop < 0
    node_size = stats[:, 0] if encoded.is_regression else stats.sum(axis=1)
    bests, thresholds, blocks = score_level(plan, level, active, node_size)
    choice = choose(bests, s)
    winner = np.where(active, choice.attribute, -1)
    stop = np.where(active, _stops_after(s, bests, winner), stop)
    return Decision(stats, shown, stop, bests, thresholds, blocks, choice, winner)
