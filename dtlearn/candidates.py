"""The candidate splits of one node, attribute by attribute, as class weights per branch.

Each block holds the candidates of one attribute and their `measures` (the definitions):
- `threshold_block`: every binary cut of a numeric attribute, from one sort of the node's rows
  and cumulative class weights (Zaki & Meira's EVALUATE-NUMERIC-ATTRIBUTE, O(n log n + nk)).
  A cut lies between two successive distinct values (values closer than `tolerance` count as
  equal, as J48 does with 1e-5); its threshold is their midpoint (Quinlan 1993).
- `multiway_block`: one branch per value of the attribute's whole domain (ID3, C4.5), so a
  value absent at this node gives an empty branch (Quinlan 1986).
- `subset_block`: binary splits X in V (CART; Zaki & Meira). Two classes: Breiman's
  shortcut (values ordered by class proportion, p-1 prefixes: exact). More classes: every
  partition while the node has at most `max_exhaustive_values` values; beyond that the
  prefixes of the orderings by each class's proportion (an approximation, said in the table).
  A table lists (`every_partition`) the shortcut's sets first, then every other partition up
  to `max_exhaustive_values` values, so a student can check any of them (`Block.scored`).
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from itertools import combinations
from math import comb

import numpy as np

from . import budget, kernels
from .budget import SUBSETS, TooCostly
from .conditions import MultiwayTest, SubsetTest, ThresholdTest
from .measures import RegressionStats, SplitStats

MAX_SUBSETS = 200_000  # Zaki's subsets of size <= l are refused beyond this many (memory)
# Bytes a subset candidate takes while a block is made (measured with tracemalloc): per value of
# the attribute, its bool row, the masks that make it and the float copy its weights are summed
# from; per channel, its weights on each side and the measures made of them.
SET_BYTES_PER_VALUE, SET_BYTES_PER_CHANNEL = 16, 56


@dataclass(frozen=True, eq=False)
class Block:
    """The candidates of one attribute: stats of shape (C,), their tests, validity and notes."""

    attribute: str
    kind: str  # "threshold" | "multiway" | "subset"
    stats: object  # SplitStats | RegressionStats over the C candidates
    thresholds: np.ndarray | None = None  # (C,) midpoints, threshold blocks only
    values: tuple[str, ...] = ()  # multiway: the branches; subset: the attribute's domain
    subsets: np.ndarray | None = None  # (C, V) bool: value in V, subset blocks only
    note: str = ""  # e.g. that a subset search was approximate
    known: float = 0.0  # case weight of the node's rows whose value is known
    scored: int | None = None  # the first `scored` candidates are those the search scores, the rest
    # listed only (CART's partitions past Breiman's ordering, for checking by hand); None: all

    @property
    def size(self) -> int:
        return int(self.stats.branches.shape[0])  # (C, B, channels): no measure is computed

    def test(self, i: int):
        if self.kind == "threshold":
            return ThresholdTest(self.attribute, float(self.thresholds[i]))
        if self.kind == "multiway":
            return MultiwayTest(self.attribute, self.values)
        chosen = self.subsets[i]
        left = tuple(v for v, inside in zip(self.values, chosen) if inside)
        right = tuple(v for v, inside in zip(self.values, chosen) if not inside)
        return SubsetTest(self.attribute, left, right)


def _stats(encoded, branches: np.ndarray, missing: np.ndarray, known=None):
    """Measures of candidates whose branches hold the channel sums `branches` (C, B, channels);
    `known`, the channel sums of the rows whose value is known, when every candidate shares them."""
    if encoded.is_regression:
        return RegressionStats(branches, missing)
    k = len(encoded.classes)
    known = None if known is None else known[:k]
    if encoded.sized:
        return SplitStats(branches[..., :k], missing[:k], sizes=branches[..., k], known=known)
    return SplitStats(branches, missing, known=known)


def midpoints(below: np.ndarray, above: np.ndarray) -> np.ndarray:
    """Cut thresholds between neighbouring values: halves first (no overflow), as scikit-learn;
    the lower value where the midpoint rounds up to the upper one."""
    mid = below / 2 + above / 2
    return np.where((mid >= above) | ~np.isfinite(mid), below, mid)


def threshold_block(encoded, attribute: str, rows, channels, node_summary, tolerance: float = 0.0) -> Block:
    """Every cut of a numeric attribute at the node, cuts ascending."""
    values = encoded.numeric(attribute)[rows]
    order = sorted_order(values)
    xs = values[order]
    known = ~np.isnan(xs)
    n_known = int(known.sum())
    sums = np.cumsum(channels[:, order[:n_known]], axis=1)  # (channels, n_known)
    known_sums = sums[:, -1] if n_known else np.zeros(len(channels))
    missing = np.maximum(node_summary - known_sums, 0.0)
    cut = np.flatnonzero(xs[:n_known - 1] + tolerance < xs[1:n_known]) if n_known > 1 else np.zeros(0, int)
    left = sums[:, cut].T  # (C, channels)
    branches = np.stack([left, known_sums[None, :] - left], axis=1)
    stats = _stats(encoded, branches, missing, known_sums)
    return Block(attribute, "threshold", stats, thresholds=midpoints(xs[cut], xs[cut + 1]))


def sorted_order(values: np.ndarray) -> np.ndarray:
    """Positions of the values in ascending order, missing (NaN) last, equal values in row order."""
    order = np.argsort(values)  # introsort, then runs of equal values in row order: twice as fast as a stable sort
    kernels.order_ties_by_row(values[order], order)
    return order


def value_sums(codes: np.ndarray, n_values: int, channels: np.ndarray) -> np.ndarray:
    """(values, channels): each channel summed over the rows holding each value."""
    known = codes >= 0
    return np.column_stack([np.bincount(codes[known], weights=channel[known], minlength=n_values)
                            for channel in channels])


def multiway_block(encoded, attribute: str, codes: np.ndarray, values: tuple[str, ...], channels,
                   node_summary) -> Block:
    sums = value_sums(codes, len(values), channels)
    missing = np.maximum(node_summary - sums.sum(axis=0), 0.0)
    return Block(attribute, "multiway", _stats(encoded, sums[None], missing), values=values)


def subset_block(encoded, attribute, codes, values, channels, node_summary, max_exhaustive: int,
                 max_subset_size: int | None = None, every_partition: bool = False) -> Block:
    """The subset candidates of a categorical attribute; with `every_partition`, those the
    two-class shortcut skips listed after the ones it scores (`Block.scored`)."""
    sums = value_sums(codes, len(values), channels)
    missing = np.maximum(node_summary - sums.sum(axis=0), 0.0)
    p = int((np.abs(sums).sum(axis=1) > 0).sum())  # the values present: a set is made of them
    most = count_small_subsets(p, max_subset_size) if max_subset_size is not None else \
        max(p - 1, 0) * max(sums.shape[1], 1) + (2 ** max(p - 1, 0) if p <= max_exhaustive else 0)
    budget.check_bytes(subset_bytes(most, len(values), sums.shape[1]), f"The subsets of '{attribute}' ({p:,} values)",
                       subset_advice(attribute, max_subset_size))
    scored = None
    if max_subset_size is not None:
        subsets, note = small_subsets(sums, max_subset_size)
    elif encoded.is_regression:
        subsets, note = _prefixes(sums, [_order_by_mean(sums)]), ""
    else:
        counts = sums[:, :len(encoded.classes)]
        subsets, note = _subsets(counts, max_exhaustive)
        if every_partition and _ordered(counts):
            subsets, scored, note = _every_partition(subsets, counts, max_exhaustive)
    left = _subset_sums(subsets, sums)
    branches = np.stack([left, sums.sum(axis=0)[None, :] - left], axis=1)
    return Block(attribute, "subset", _stats(encoded, branches, missing), values=values, subsets=subsets, note=note,
                 scored=scored)


def subset_bytes(n_sets: int, n_values: int, n_channels: int) -> int:
    """At most the bytes scoring `n_sets` subsets of an attribute of `n_values` values allocates
    at once: checked against the budget before the sets are made (V values, V^2 cells)."""
    return n_sets * (SET_BYTES_PER_VALUE * n_values + SET_BYTES_PER_CHANNEL * n_channels) + 16 * n_values * n_channels


def subset_advice(attribute: str, max_subset_size: int | None) -> str:
    """What makes an attribute's subsets cheaper, in the sidebar's words."""
    if max_subset_size is not None and max_subset_size > 1:
        return f"Choose a smaller Largest value set |V|, or mark '{attribute}' as 'ignore'"
    return f"Mark '{attribute}' as 'ignore' (Attribute kinds), or group its values into fewer"


def _ordered(counts: np.ndarray) -> bool:
    """Whether `_subsets` takes Breiman's shortcut here: two values or more, two classes at most."""
    return (counts.sum(axis=1) > 0).sum() >= 2 and (counts.sum(axis=0) > 0).sum() <= 2


def _every_partition(scored: np.ndarray, counts: np.ndarray, max_exhaustive: int) -> tuple[np.ndarray, int, str]:
    """The shortcut's p-1 sets, then every other two-way partition of the p present values
    (each written as `_all_partitions` writes it), up to `max_exhaustive` values: past that,
    2^(p-1) - 1 rows would be too many to list, and the note says so."""
    present = np.flatnonzero(counts.sum(axis=1) > 0)
    p = len(present)
    if p > max_exhaustive:
        return scored, len(scored), (f"{p} values: the {p - 1} subsets of Breiman et al.'s ordering are listed "
                                     f"(every partition is listed up to max_exhaustive_values = {max_exhaustive})")
    seen = {row.tobytes() for row in scored}
    rest = [row for row in _all_partitions(present, counts.shape[0]) if row.tobytes() not in seen]
    listed = np.concatenate([scored, np.array(rest, dtype=bool).reshape(-1, counts.shape[0])])
    return listed, len(scored), ""


def _subset_sums(subsets: np.ndarray, sums: np.ndarray) -> np.ndarray:
    """(C, channels): the weights of the values in each set. Zaki's sets hold a few values of
    hundreds (80,000 sets of 400 values as a float product: 256 MB and 44 ms a node), so they
    are summed from their members; CART's prefixes, half the values each, by the product."""
    if not len(subsets):
        return np.zeros((0, sums.shape[1]))
    if subsets.shape[1] > 64 and subsets.sum(axis=1).max() * 8 < subsets.shape[1]:
        which, value = np.nonzero(subsets)
        return np.stack([np.bincount(which, weights=sums[value, c], minlength=len(subsets))
                         for c in range(sums.shape[1])], axis=1)
    return subsets.astype(float) @ sums


def _order_by_mean(sums) -> np.ndarray:
    """Present values ordered by mean target (Breiman et al. 1984: exact for squared error)."""
    present = np.flatnonzero(sums[:, 0] > 0)
    return present[np.argsort(sums[present, 1] / sums[present, 0], kind="stable")]


def _prefixes(sums, orderings) -> np.ndarray:
    """The p-1 prefix splits of each ordering, each partition once, written with V the
    smaller side (on a tie, the side holding the first value) so tests read `X in {a}`."""
    n_values = sums.shape[0]
    rows, seen = [], set()
    for ordering in orderings:
        every = sorted(ordering.tolist())
        for size in range(1, len(ordering)):
            side = set(ordering[:size].tolist())
            other = set(every) - side
            if len(side) > len(other) or (len(side) == len(other) and every[0] not in side):
                side = other
            key = frozenset(side)
            if key not in seen:
                seen.add(key)
                row = np.zeros(n_values, dtype=bool)
                row[list(side)] = True
                rows.append(row)
    return np.array(rows) if rows else np.zeros((0, n_values), dtype=bool)


def count_small_subsets(n_present: int, max_size: int) -> int:
    """How many sets V with 1 <= |V| <= l Zaki & Meira's search scores over p present values."""
    return sum(comb(n_present, size) for size in range(1, min(max_size, n_present - 1) + 1))


def small_subsets(sums, max_size: int) -> tuple[np.ndarray, str]:
    """Zaki & Meira's EVALUATE-CATEGORICAL-ATTRIBUTE: every V with 1 <= |V| <= l, in size
    then value order (V and its complement may both appear, as in their table)."""
    present = np.flatnonzero(np.abs(sums).sum(axis=1) > 0)
    total = count_small_subsets(len(present), max_size)
    if total > MAX_SUBSETS:
        raise TooCostly(f"Zaki's subset search would score {total:,} sets of at most {max_size} of "
                        f"{len(present)} values at one node. {SUBSETS}.")
    blocks = [np.zeros((0, sums.shape[0]), dtype=bool)]
    for size in range(1, min(max_size, len(present) - 1) + 1):  # each size's sets at once, in value order
        chosen = np.array(list(combinations(present.tolist(), size)), dtype=np.int64).reshape(-1, size)
        rows = np.zeros((len(chosen), sums.shape[0]), dtype=bool)
        rows[np.arange(len(chosen))[:, None], chosen] = True
        blocks.append(rows)
    note = f"subsets of at most {max_size} values (Zaki & Meira's l)"
    return np.concatenate(blocks), note


def _subsets(counts: np.ndarray, max_exhaustive: int) -> tuple[np.ndarray, str]:
    """Candidate value sets V as a (C, V) bool matrix, in a fixed documented order."""
    n_values = counts.shape[0]
    present = np.flatnonzero(counts.sum(axis=1) > 0)
    p = len(present)
    if p < 2:
        return np.zeros((0, n_values), dtype=bool), ""
    classes_here = np.flatnonzero(counts.sum(axis=0) > 0)
    if len(classes_here) <= 2:  # Breiman et al. (1984), Thm 4.5: order by P(class | value)
        orderings = [_order_by(counts, present, classes_here[-1])]
        note = ""
    elif p <= max_exhaustive:
        return _all_partitions(present, n_values), ""
    else:
        orderings = [_order_by(counts, present, c) for c in classes_here]
        note = f"{p} values: subsets from class-proportion orderings only (exhaustive up to {max_exhaustive})"
    return _prefixes(counts, orderings), note


def _order_by(counts, present, cls) -> np.ndarray:
    totals = counts[present].sum(axis=1)
    proportion = counts[present, cls] / totals
    return present[np.argsort(proportion, kind="stable")]


def _all_partitions(present: np.ndarray, n_values: int) -> np.ndarray:
    """Each two-way partition once: |V| <= p/2, and at |V| = p/2 only the V holding the first value."""
    p = len(present)
    rows = []
    for size in range(1, p // 2 + 1):
        for combo in combinations(range(p), size):
            if 2 * size == p and combo[0] != 0:
                continue
            row = np.zeros(n_values, dtype=bool)
            row[present[list(combo)]] = True
            rows.append(row)
    return np.array(rows)


def data_value_below(column: np.ndarray, cut: float) -> float:
    """The largest training value <= cut (J48 writes its thresholds this way)."""
    return float(data_values_below(column, np.array([cut]))[0])


def data_values_below(column: np.ndarray, cuts: np.ndarray) -> np.ndarray:
    """`data_value_below` of each of `cuts` (a cut below every value stays as it is).

    The column's known values are sorted once and kept while the column lives: a tree on a
    million rows asks this for each of its thousands of cuts, and a scan of the column each
    time was most of its growing time."""
    values = _known_sorted(column)
    at = np.searchsorted(values, cuts, side="right")
    return np.where(at > 0, values[np.maximum(at - 1, 0)], cuts) if len(values) else np.asarray(cuts, dtype=float)


_KNOWN_SORTED: dict[int, tuple] = {}  # id(column) -> (weak reference to it, its known values ascending)


def _known_sorted(column: np.ndarray) -> np.ndarray:
    kept = _KNOWN_SORTED.get(id(column))
    if kept is not None and kept[0]() is column:
        return kept[1]
    values = np.sort(column[column == column])  # NaN (missing) left out
    key = id(column)
    _KNOWN_SORTED[key] = (weakref.ref(column, lambda _: _KNOWN_SORTED.pop(key, None)), values)
    return values
