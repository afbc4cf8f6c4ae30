"""Which split a node takes, and the table of every candidate behind that choice.

The rules are defined here once (their constants in `rules`) and used twice: by `evaluate`, which scores every candidate
of one node with the `measures` definitions and lays them out as a table, and by `engine`,
whose compiled kernels score each attribute's candidates for many nodes at once and hand
their best candidates to the same `choose`.

Tie-break (documented, deterministic): the highest score wins; scores within `rules.TIE` of
each other are ties, won by the candidate first in table order: attributes in column order,
and within an attribute thresholds ascending, subsets in enumeration order (two classes: the
p-1 sets of Breiman's ordering, the only ones scored, first). A tie at the top is said in the
step's reason and marked in the table's `tied` column.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from .candidates import Block, multiway_block, subset_block, threshold_block
from .criteria import criterion
from .measures import threshold_correction
from .rules import (AVERAGE_TOLERANCE, FEW_CASES, NO_CORRECTED_GAIN, NO_KNOWN, OK, ONE_BRANCH, SHORTCUT, SIZE_TOLERANCE,
                    SMALL_LEAF, SMALL_SIDE, TIE, USED, j48_min_split)
from .settings import CRITERION_NAMES, Settings

TIE_RULE = ("a tie goes to the candidate first in the table: attributes in column order, then thresholds "
            "ascending, subsets in the order listed")  # the rule above, as the pages say it


# --- the rules ---------------------------------------------------------------------------------

def split_limits(settings: Settings, stats, n_classes: int, kind: str):
    """(ok, reason) per candidate from the rules that need only the candidate itself.

    Shape-agnostic: the result has the shape of `stats.n_known` broadcast over candidates."""
    branches = np.broadcast_arrays(*stats.branch_sizes)  # case weight of each branch
    if not branches:  # an attribute with no value at all (every cell empty): no branch
        shape = np.shape(stats.n_known)
        return np.zeros(shape, dtype=bool), np.full(shape, NO_KNOWN)
    n_known = branches[0] + sum(branches[1:])
    nonempty = sum((b > 0).astype(np.int64) for b in branches)  # (int8 would wrap past 127 branches)
    reason = np.where(nonempty < 2, ONE_BRANCH, OK)
    reason = np.where(n_known <= 0, NO_KNOWN, reason)
    if settings.min_samples_leaf > 0:
        small = np.zeros(reason.shape, dtype=bool)
        for b in branches:
            small |= (b > 0) & (b < settings.min_samples_leaf - SIZE_TOLERANCE)
        reason = np.where((reason == OK) & small, SMALL_LEAF, reason)
    m = settings.min_branch_cases
    if m > 0 and kind == "threshold":
        min_side = j48_min_split(n_known, m, n_classes)
        reason = np.where((reason == OK) & (np.minimum(*branches) < min_side - SIZE_TOLERANCE), SMALL_SIDE, reason)
    elif m > 0:
        enough = sum((b >= m - SIZE_TOLERANCE).astype(np.int64) for b in branches)
        reason = np.where((reason == OK) & (enough < 2), FEW_CASES, reason)
    return reason == OK, reason


def scored_only(block: Block, ok: np.ndarray, reason: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(ok, reason) with the candidates a block lists but no search scores (`Block.scored`)
    excluded: the ones a split rule excludes keep that reason, the others get SHORTCUT."""
    if block.scored is None:
        return ok, reason
    skipped = np.arange(block.size) >= block.scored
    return ok & ~skipped, np.where(skipped & (reason == OK), SHORTCUT, reason)


def one_cut_competes(settings: Settings, kind: str) -> bool:
    """C4.5 lets one cut of a numeric attribute compete with the other attributes: the
    attribute's cuts compete among themselves first (`cut_rank`)."""
    return kind == "threshold" and criterion(settings.criterion).kind == "ratio"


def ranks_by_gain(settings: Settings, kind: str) -> bool:
    """C4.5 release 8 (Weka's J48) picks a numeric attribute's cut by gain (Quinlan 1996)."""
    return one_cut_competes(settings, kind) and not settings.threshold_by_ratio


def cut_rank(settings: Settings, kind: str, ok: np.ndarray, measure) -> np.ndarray | None:
    """What picks the cut of a numeric attribute that competes (`one_cut_competes`; None: each
    candidate's own score ranks it). Release 8 (J48): the gain (Quinlan 1996). The 1993 book's
    C4.5: the gain ratio among the cuts, of those the split rules allow (`ok`), whose gain is
    at least their average (release 5's contin.c, the rule it applies to attributes too); -inf
    for the others. `measure(name)` gives a measure of every cut of the attribute."""
    if not one_cut_competes(settings, kind):
        return None
    gain = np.asarray(measure("gain"), dtype=float)
    if not settings.threshold_by_ratio:
        return gain
    ok = np.asarray(ok, dtype=bool) & ~np.isnan(gain)
    if not ok.any():
        return np.full(gain.shape, -np.inf)
    average = gain[ok].mean()
    return np.where(ok & (gain >= average - AVERAGE_TOLERANCE), np.asarray(measure("gain_ratio"), dtype=float),
                    -np.inf)


def cut_rule(settings: Settings, attribute: str) -> str:
    """`cut_rank` in words, for a cut of `attribute` that does not compete."""
    if settings.threshold_by_ratio:
        return (f"C4.5 (Quinlan 1993) keeps only the threshold of {attribute} with the highest gain ratio among "
                "its cuts whose gain is at least their average")
    return f"C4.5 keeps only the threshold of {attribute} with the highest gain"


@dataclass(frozen=True)
class AttributeBest:
    """An attribute's best candidate, the one that competes with the other attributes."""

    index: int  # candidate index within the attribute's block; -1: none qualifies
    score: float  # what the criterion ranks attributes by
    gain: float  # information gain (Gini gain for the gini criterion), after any correction
    reason: int  # OK, or why no candidate of the attribute qualifies
    n_ok: int = 0  # candidates satisfying the split rules (C4.5 counts its cuts so)
    ties: int = 0  # candidates within TIE of the best on the measure that picked it


def correction_of(settings: Settings, block: Block, ok: np.ndarray, n_total: float) -> float:
    """C4.5's threshold correction of a numeric attribute at a node: log2(#cuts) / N, the cuts
    counted among those satisfying the split rules (as J48 counts them)."""
    if block.kind != "threshold" or not settings.threshold_correction:
        return 0.0
    return float(threshold_correction(int(ok.sum()), n_total))


def block_best(settings: Settings, block: Block, ok: np.ndarray, reason: np.ndarray, used: bool) -> AttributeBest:
    """The competing candidate of one attribute (block stats already carry any correction)."""
    stats, n_ok = block.stats, int(ok.sum())
    if used:
        return AttributeBest(-1, 0.0, 0.0, USED, n_ok)
    if n_ok == 0:
        return AttributeBest(-1, 0.0, 0.0, no_candidate_reason(block.known, reason), 0)
    rank = cut_rank(settings, block.kind, ok, lambda name: getattr(stats, name))
    if rank is None:
        rank = stats.score_by(settings.criterion)
    masked = np.where(ok, rank, -np.inf)
    within = masked >= masked.max() - TIE
    best = int(np.argmax(within))
    ties = int(within.sum())
    gain = float(stats.gain_by(settings.criterion)[best])
    if criterion(settings.criterion).kind != "ratio":
        return AttributeBest(best, float(rank[best]), gain, OK, n_ok, ties)
    if ranks_by_gain(settings, block.kind):
        gain = float(stats.corrected_gain[best])
        if gain <= TIE:
            return AttributeBest(-1, 0.0, gain, NO_CORRECTED_GAIN, n_ok, ties)
    return AttributeBest(best, float(stats.gain_ratio[best]), gain, OK, n_ok, ties)


def no_candidate_reason(known: float, reasons: np.ndarray) -> int:
    """The most basic reason why no candidate of an attribute qualifies."""
    if known <= 0:
        return NO_KNOWN
    broken = reasons[reasons != OK]
    return int(broken.min()) if broken.size else ONE_BRANCH


@dataclass(frozen=True, eq=False)
class Bests:
    """Each attribute's competing candidate, for L nodes and A attributes: arrays (L, A)."""

    index: np.ndarray
    score: np.ndarray
    gain: np.ndarray
    reason: np.ndarray
    ties: np.ndarray
    many_valued: np.ndarray  # (A,): J48 leaves these out of the average gain

    @staticmethod
    def of(bests: list[AttributeBest], many_valued) -> "Bests":
        def field(name: str) -> np.ndarray:  # one row: the node's attributes side by side
            return np.array([[getattr(b, name) for b in bests]])

        return Bests(field("index").astype(np.int64), field("score").astype(float), field("gain").astype(float),
                     field("reason").astype(np.int64), field("ties").astype(np.int64),
                     np.asarray(many_valued, dtype=bool))


@dataclass(frozen=True, eq=False)
class Choice:
    """The winning attribute of each node (-1: no split qualifies), the average gain C4.5 used,
    and which attributes tie with the winner at the top."""

    attribute: np.ndarray  # (L,)
    average_gain: np.ndarray  # (L,), NaN where the rule is off
    tied: np.ndarray  # (L, A) bool, the winner included


def choose(bests: Bests, settings: Settings) -> Choice:
    """The winning candidate of every node; ties go to the attribute first in column order."""
    contenders = bests.index >= 0
    average = np.full(contenders.shape[0], np.nan)
    if settings.average_gain_rule:
        pool = contenders & ~bests.many_valued[None, :]
        pool = np.where(pool.any(axis=1, keepdims=True), pool, contenders)
        counts = pool.sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            average = np.where(counts > 0, np.where(pool, bests.gain, 0.0).sum(axis=1) / counts, np.nan)
        contenders = contenders & (bests.gain >= average[:, None] - AVERAGE_TOLERANCE) & (bests.score > 0)
    scores = np.where(contenders, bests.score, -np.inf)
    top = scores.max(axis=1, initial=-np.inf)
    tied = contenders & (scores >= top[:, None] - TIE)
    has = contenders.any(axis=1)
    first = np.argmax(tied, axis=1) if tied.shape[1] else np.zeros(len(has), dtype=np.int64)
    winner = np.where(has, first, -1)
    return Choice(winner, average, tied)


# --- one node, every candidate ----------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class Evaluation:
    """All candidates of one node and the choice made among them."""

    encoded: object  # encoding.Encoded
    rows: np.ndarray
    weights: np.ndarray
    settings: Settings
    used: frozenset
    node_counts: np.ndarray
    blocks: tuple  # one Block per attribute, in column order
    bests: tuple  # one AttributeBest per attribute
    chosen_attribute: int  # -1: no split qualifies
    average_gain: float
    tied: tuple  # attributes tying with the winner at the top (the winner first)

    @property
    def attributes(self) -> tuple[str, ...]:
        return self.encoded.attributes

    def block(self, attribute: str) -> Block:
        return self.blocks[self.attributes.index(attribute)]

    @property
    def choice(self):
        """(attribute, index within its block), or None."""
        if self.chosen_attribute < 0:
            return None
        j = self.chosen_attribute
        return self.attributes[j], self.bests[j].index

    @property
    def chosen_test(self):
        choice = self.choice
        return None if choice is None else self.block(choice[0]).test(choice[1])

    def explanation(self) -> str:
        """Why the chosen candidate won, in words."""
        if self.choice is None:
            return ""
        j = self.chosen_attribute
        return explanation(self.settings, self.block(self.attributes[j]).kind, self.bests[j].score,
                           self.average_gain)


def explanation(settings: Settings, kind: str, score: float, average_gain: float) -> str:
    name = CRITERION_NAMES[settings.criterion]
    if one_cut_competes(settings, kind) and settings.threshold_correction:
        name = "gain ratio (after C4.5's threshold correction)"
    text = f"highest {name} ({score:.4f})"
    if settings.average_gain_rule:
        text += f" among the candidates whose gain is at least the average gain ({average_gain:.4f})"
    return text


def evaluate(encoded, rows: np.ndarray, weights: np.ndarray, settings: Settings,
             used: frozenset = frozenset()) -> Evaluation:
    """Score every candidate split of the node made of `rows` (with `weights`) and choose. With
    two classes CART's table lists every partition of a categorical attribute (up to
    `max_exhaustive_values` values), the ones Breiman's shortcut skips after the ones it scores:
    they are never chosen, so the choice is the engine's."""
    channels = encoded.channels(rows, weights)
    node_summary = channels.sum(axis=1)
    n_total = float(weights.sum())
    k = max(len(encoded.classes), 1)
    blocks, bests = [], []
    for attribute in encoded.attributes:
        block = attribute_block(encoded, attribute, rows, channels, node_summary, settings, every_partition=True)
        ok, reason = scored_only(block, *split_limits(settings, block.stats, k, block.kind))
        correction = correction_of(settings, block, ok, n_total)
        if correction:
            block = replace(block, stats=block.stats.with_correction(correction))
        blocks.append(block)
        blocks_used = not settings.reuse_attributes and attribute in used
        bests.append(block_best(settings, block, ok, reason, blocks_used))
        block.stats.forget_if_large()
    many = [many_valued(encoded, settings, b) for b in blocks]
    choice = choose(Bests.of(bests, many), settings)
    winner = int(choice.attribute[0])
    tied = tuple(encoded.attributes[j] for j in np.flatnonzero(choice.tied[0]))
    return Evaluation(encoded, rows, weights, settings, used, node_summary, tuple(blocks), tuple(bests), winner,
                      float(choice.average_gain[0]), tied)


def many_valued(encoded, settings: Settings, block: Block) -> bool:
    """J48 leaves multiway attributes with values for at least 30% of the rows out of the average."""
    return block.kind != "threshold" and len(block.values) >= 0.3 * encoded.n_rows


def attribute_block(encoded, attribute: str, rows, channels, node_summary, settings: Settings,
                    every_partition: bool = False) -> Block:
    """The candidates of one attribute at a node, as the settings define them (with
    `every_partition`, also the subsets a search skips: `candidates.subset_block`)."""
    if encoded.kind(attribute) == "numeric" and settings.numeric_split == "threshold":
        block = threshold_block(encoded, attribute, rows, channels, node_summary, settings.cut_tolerance)
    else:
        codes = encoded.codes(attribute)[rows]
        values = encoded.categories(attribute)
        if settings.categorical_split == "subset" and encoded.kind(attribute) == "categorical":
            block = subset_block(encoded, attribute, codes, values, channels, node_summary,
                                 settings.max_exhaustive_values, settings.max_subset_size, every_partition)
        else:
            block = multiway_block(encoded, attribute, codes, values, channels, node_summary)
    known = float(known_size(encoded, attribute, rows, channels))
    return replace(block, known=known)


def known_size(encoded, attribute: str, rows, channels) -> float:
    """The case weight of the node's rows whose value of `attribute` is known."""
    if encoded.kind(attribute) == "numeric":
        present = ~np.isnan(encoded.numeric(attribute)[rows])
    else:
        present = encoded.codes(attribute)[rows] >= 0
    size = channels[-1] if encoded.sized else (channels[0] if encoded.is_regression else channels.sum(axis=0))
    return float(size[present].sum())
