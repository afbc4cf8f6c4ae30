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
from .measures import BinaryStats, SplitStats, ThresholdScores


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

    def __init__(self, attributes, values: np.ndarray, y: np.ndarray, w: np.ndarray, node_counts: np.ndarray):
        k = node_counts.shape[0]
        self.attributes = tuple(attributes)  # values: (A, m), one attribute per row
        order = np.argsort(values, axis=1)  # NaN sorts last; ties in any order (same cut counts)
        xs = np.take_along_axis(values, order, axis=1)
        known = ~np.isnan(xs)
        ys = y[order]
        ws = np.where(known, w[order], 0.0)
        cumulative = np.empty((k,) + xs.shape)
        for c in range(k):
            np.cumsum(np.where(ys == c, ws, 0.0), axis=1, out=cumulative[c])
        known_counts = cumulative[:, :, -1] if xs.shape[1] else np.zeros((k, xs.shape[0]))
        missing = np.maximum(node_counts[:, None] - known_counts, 0.0)
        self.xs = xs
        self.known_counts = known_counts.T  # (A, k)
        self.missing = missing.T
        self.distinct = known[:, 1:] & (xs[:, 1:] > xs[:, :-1])  # a cut between two different values
        self.scores = ThresholdScores(cumulative[:, :, :-1], known_counts, missing)

    def thresholds(self, j: int, positions: np.ndarray) -> np.ndarray:
        below, above = self.xs[j, positions], self.xs[j, positions + 1]
        mid = below / 2 + above / 2  # halves first: no overflow; as scikit-learn does
        return np.where((mid >= above) | ~np.isfinite(mid), below, mid)

    def block(self, j: int) -> Block:
        """The candidates of attribute j: one per distinct cut, ascending."""
        positions = np.flatnonzero(self.distinct[j])
        left = self.scores.left[:, j, positions].T  # (C, k)
        stats = BinaryStats(left, self.known_counts[j], self.missing[j])
        return Block(self.attributes[j], "threshold", stats, thresholds=self.thresholds(j, positions))


def multiway_block(attribute: str, codes: np.ndarray, values: tuple[str, ...], y, w, node_counts) -> Block:
    counts = _counts_by_value(codes, len(values), y, w, node_counts.shape[0])
    missing = np.maximum(node_counts - counts.sum(axis=0), 0.0)
    return Block(attribute, "multiway", SplitStats(counts[None], missing), values=values)


def subset_block(attribute, codes, values, y, w, node_counts, max_exhaustive: int) -> Block:
    k = node_counts.shape[0]
    counts = _counts_by_value(codes, len(values), y, w, k)
    missing = np.maximum(node_counts - counts.sum(axis=0), 0.0)
    subsets, note = _subsets(counts, max_exhaustive)
    left = subsets.astype(float) @ counts  # (C, k)
    stats = BinaryStats(left, counts.sum(axis=0), missing)
    return Block(attribute, "subset", stats, values=values, subsets=subsets, note=note)


def _counts_by_value(codes, n_values, y, w, k) -> np.ndarray:
    known = codes >= 0
    flat = codes[known] * k + y[known]
    return np.bincount(flat, weights=w[known], minlength=n_values * k).reshape(n_values, k)


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
    rows, seen = [], set()
    for ordering in orderings:
        for size in range(1, p):
            key = frozenset(ordering[:size].tolist())
            if key not in seen and frozenset(present.tolist()) - key not in seen:
                seen.add(key)
                row = np.zeros(n_values, dtype=bool)
                row[ordering[:size]] = True
                rows.append(row)
    return np.array(rows), note


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

