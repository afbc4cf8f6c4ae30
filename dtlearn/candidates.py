"""Candidate splits of one node, as class weights per branch (scored in `measures`).

- `NumericScan`: every binary threshold of every numeric attribute from one sort of the
  node's rows and cumulative class weights (Zaki & Meira's EVALUATE-NUMERIC-ATTRIBUTE,
  O(n log n + nk), vectorised over attributes too). Thresholds are midpoints between
  successive distinct values (seed 000 eq. 7).
- `multiway_block`: one branch per value of the attribute's whole domain (ID3, C4.5), so a
  value absent at this node gives an empty branch (seed 000, stopping condition 3).
- `subset_block`: binary splits X in V (CART; Zaki & Meira). Two classes: Breiman's
  shortcut (values ordered by class proportion, p-1 prefixes: exact). More classes: every
  partition while the node has at most `max_exhaustive_values` values; beyond that the
  prefixes of the orderings by each class's proportion (an approximation, said in the table).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from itertools import combinations

import numpy as np

from .conditions import MultiwayTest, SubsetTest, ThresholdTest
from .measures import BinaryStats, RegressionStats, RegressionThresholdScores, SplitStats, ThresholdScores


@dataclass(frozen=True, eq=False)
class Block:
    """The candidates of one attribute: stats of shape (C,), their tests, validity and notes."""

    attribute: str
    kind: str  # "threshold" | "multiway" | "subset"
    stats: SplitStats
    thresholds: np.ndarray | None = None  # (C,) midpoints, threshold blocks only
    values: tuple[str, ...] = ()  # multiway: the branches; subset: the attribute's domain
    subsets: np.ndarray | None = None  # (C, V) bool: value in V, subset blocks only
    note: str = ""  # e.g. that a subset search was approximate

    @property
    def size(self) -> int:
        return int(self.stats.n_known.shape[0])

    def test(self, i: int):
        if self.kind == "threshold":
            return ThresholdTest(self.attribute, float(self.thresholds[i]))
        if self.kind == "multiway":
            return MultiwayTest(self.attribute, self.values)
        chosen = self.subsets[i]
        left = tuple(v for v, inside in zip(self.values, chosen) if inside)
        right = tuple(v for v, inside in zip(self.values, chosen) if not inside)
        return SubsetTest(self.attribute, left, right)


class NumericScan:
    """All thresholds of the numeric attributes at a node; arrays are (attributes, positions).

    Position i is the cut between the i-th and (i+1)-th smallest values of an attribute.
    """

    def __init__(self, encoded, values: np.ndarray, channels: np.ndarray, node_summary: np.ndarray):
        self.encoded = encoded
        self.attributes = encoded.numeric_attributes  # values: (A, m), one attribute per row
        order = np.argsort(values, axis=1)  # NaN sorts last; ties in any order (same cut counts)
        xs = np.take_along_axis(values, order, axis=1)
        known = ~np.isnan(xs)
        cumulative = np.empty((len(channels),) + xs.shape)
        for c, channel in enumerate(channels):
            np.cumsum(np.where(known, channel[order], 0.0), axis=1, out=cumulative[c])
        known_sums = cumulative[:, :, -1] if xs.shape[1] else np.zeros((len(channels), xs.shape[0]))
        missing = np.maximum(node_summary[:, None] - known_sums, 0.0)
        self.xs = xs
        self.known_sums = known_sums.T  # (A, C)
        self.missing = missing.T
        self.distinct = known[:, 1:] & (xs[:, 1:] > xs[:, :-1])  # a cut between two different values
        left = cumulative[:, :, :-1]
        if encoded.is_regression:
            self.scores = RegressionThresholdScores(left, known_sums, missing)
        elif encoded.sized:
            k = len(encoded.classes)
            self.scores = ThresholdScores(left[:k], known_sums[:k], missing[:k], left[k], known_sums[k])
        else:
            self.scores = ThresholdScores(left, known_sums, missing)

    def thresholds(self, j: int, positions: np.ndarray) -> np.ndarray:
        below, above = self.xs[j, positions], self.xs[j, positions + 1]
        mid = below / 2 + above / 2  # halves first: no overflow; as scikit-learn does
        return np.where((mid >= above) | ~np.isfinite(mid), below, mid)

    def block(self, j: int) -> Block:
        """The candidates of attribute j: one per distinct cut, ascending."""
        positions = np.flatnonzero(self.distinct[j])
        left = self.scores.left[:, j, positions].T  # (C, channels)
        if isinstance(self.scores, ThresholdScores) and self.scores.size_left is not None:
            left = np.column_stack([left, self.scores.size_left[j, positions]])
        stats = binary_stats(self.encoded, left, self.known_sums[j], self.missing[j])
        return Block(self.attributes[j], "threshold", stats, thresholds=self.thresholds(j, positions))


def binary_stats(encoded, left: np.ndarray, known: np.ndarray, missing: np.ndarray):
    """Stats of binary candidates from the left branch's channel sums (C, channels)."""
    if encoded.is_regression:
        return RegressionStats(np.stack([left, known - left], axis=-2), missing)
    if encoded.sized:
        k = len(encoded.classes)
        return BinaryStats(left[:, :k], known[:k], missing[:k], left[:, k], known[k])
    return BinaryStats(left, known, missing)


def multiway_block(encoded, attribute: str, codes: np.ndarray, values: tuple[str, ...], channels,
                   node_summary) -> Block:
    sums = _sums_by_value(codes, len(values), channels)
    missing = np.maximum(node_summary - sums.sum(axis=0), 0.0)
    if encoded.is_regression:
        stats = RegressionStats(sums[None], missing)
    elif encoded.sized:
        k = len(encoded.classes)
        stats = SplitStats(sums[None, :, :k], missing[:k], sizes=sums[None, :, k])
    else:
        stats = SplitStats(sums[None], missing)
    return Block(attribute, "multiway", stats, values=values)


def subset_block(encoded, attribute, codes, values, channels, node_summary, max_exhaustive: int,
                 max_subset_size: int | None = None) -> Block:
    sums = _sums_by_value(codes, len(values), channels)
    missing = np.maximum(node_summary - sums.sum(axis=0), 0.0)
    if max_subset_size is not None:
        subsets, note = _small_subsets(sums, max_subset_size)
    elif encoded.is_regression:
        subsets, note = _prefixes(sums, [_order_by_mean(sums)]), ""
    else:
        subsets, note = _subsets(sums[:, :len(encoded.classes)], max_exhaustive)
    left = subsets.astype(float) @ sums  # (C, channels)
    stats = binary_stats(encoded, left, sums.sum(axis=0), missing)
    return Block(attribute, "subset", stats, values=values, subsets=subsets, note=note)


def _sums_by_value(codes, n_values, channels) -> np.ndarray:
    """(values, channels): each channel summed over the rows holding each value."""
    known = codes >= 0
    return np.column_stack([np.bincount(codes[known], weights=channel[known], minlength=n_values)
                            for channel in channels])


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


def _small_subsets(sums, max_size: int) -> tuple[np.ndarray, str]:
    """Zaki & Meira's EVALUATE-CATEGORICAL-ATTRIBUTE: every V with 1 <= |V| <= l, in size
    then value order (V and its complement may both appear, as in their table)."""
    present = np.flatnonzero(np.abs(sums).sum(axis=1) > 0)
    rows = []
    for size in range(1, min(max_size, len(present) - 1) + 1):
        for combo in combinations(present.tolist(), size):
            row = np.zeros(sums.shape[0], dtype=bool)
            row[list(combo)] = True
            rows.append(row)
    note = f"subsets of at most {max_size} values (Zaki & Meira's l)"
    return (np.array(rows) if rows else np.zeros((0, sums.shape[0]), dtype=bool)), note


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
    below = column[column <= cut]
    return float(below.max()) if below.size else cut

