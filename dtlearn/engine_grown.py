"""What growth keeps of a tree: every node in the order it was made, a level at a time (`engine`).

`induction` turns it into steps in depth-first order; pessimistic pruning reads `leaf_of_row`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from .conditions import ThresholdTest

_FIELDS = ("node", "attribute", "threshold", "midpoint", "score", "gain", "average", "ties", "tied")


@dataclass(eq=False)
class Scanned:
    """The nodes split by a compiled scan's candidate (a cut, or one branch per value), as
    arrays: a fit of many rows splits most of its nodes this way, and a test object and a tuple
    of numbers per node cost more to make than growing the node did. `Grown.test` and
    `Grown.numbers_of` make them when read."""

    node: np.ndarray  # node index
    attribute: np.ndarray  # column index
    threshold: np.ndarray  # the cut as written (J48: the largest data value at or below the midpoint); NaN: by value
    midpoint: np.ndarray  # the midpoint the cut was scored at (NaN: one branch per value)
    score: np.ndarray
    gain: np.ndarray
    average: np.ndarray  # the average gain the 1993 book's C4.5 compares with
    ties: np.ndarray  # the attribute's candidates tied with the chosen one
    tied: np.ndarray  # (n, bytes) the attributes tied with the chosen one's, a bit each (`np.packbits`)

    @classmethod
    def joined(cls, parts: list) -> "Scanned":
        if not parts:
            empty = [np.zeros(0, dtype=np.int64 if name in ("node", "attribute", "ties") else float)
                     for name in _FIELDS[:-1]]
            return cls(*empty, np.zeros((0, 0), dtype=np.uint8))
        return cls(*(np.concatenate([getattr(p, name) for p in parts]) for name in _FIELDS))


@dataclass(eq=False)
class Grown:
    """Every node in the order it was made; a node's children are consecutive."""

    attributes: tuple = ()  # the column names (a cut's test names its attribute)
    parent: list = field(default_factory=list)  # per level: (L,) parent's index (-1: the root)
    branch: list = field(default_factory=list)  # (L,) branch index under the parent
    depth: list = field(default_factory=list)
    stats: list = field(default_factory=list)  # (L, k) class weights, or (L, 3) moments
    stop: list = field(default_factory=list)  # (L,) -1: split, else the rule's code (stops.RULES)
    first_child: list = field(default_factory=list)  # (L,) index of the first child (splits)
    share: list = field(default_factory=list)  # (L,) each node's share of its parent's known weight
    scanned: list = field(default_factory=list)  # per level: `Scanned`; one `Scanned` after `finish`
    value_tests: dict = field(default_factory=dict)  # attribute index -> its one branch per value, shared
    tests: dict = field(default_factory=dict)  # node index -> test of a Python-scored split (and cuts' once read)
    numbers: dict = field(default_factory=dict)  # the same -> (score, gain, average, kind, tied, ties)
    surrogates: dict = field(default_factory=dict)  # node index -> surrogates found (CART)
    majority: dict = field(default_factory=dict)  # node index -> where unplaceable rows went (CART)
    medians: dict = field(default_factory=dict)  # node index -> the leaf's median (regression)
    leaf_numbers: dict = field(default_factory=dict)  # node index -> the best gain, for a leaf's reason
    midpoints: dict = field(default_factory=dict)  # node index -> a Python-scored cut's midpoint
    size: int = 0
    # each training row's leaf (node index), when every row took one path (no missing value);
    # else None. Pessimistic pruning reads it instead of routing every row down the tree again
    leaf_of_row: np.ndarray | None = None  # int32: 4 bytes a row
    _row_of: np.ndarray | None = None  # node index -> its row of `scanned` (-1: none)

    def finish(self) -> None:
        for name in ("parent", "branch", "depth", "stop", "first_child"):
            parts = getattr(self, name)
            setattr(self, name, np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64))
        self.stats = np.concatenate(self.stats) if self.stats else np.zeros((0, 0))
        self.share = np.concatenate(self.share) if self.share else np.zeros(0)
        self.scanned = Scanned.joined(self.scanned)
        self._row_of = np.full(self.size, -1, dtype=np.int64)
        self._row_of[self.scanned.node] = np.arange(len(self.scanned.node))
        if self.leaf_of_row is not None and (self.leaf_of_row < 0).any():
            self.leaf_of_row = None

    def add(self, level, stats, stop, first_child) -> None:
        """One level's nodes (an `engine_plan.Level`) with their statistics, stops and first children."""
        self.parent.append(level.parent)
        self.branch.append(level.branch)
        self.depth.append(level.depth)
        self.stats.append(stats)
        self.stop.append(stop)
        self.first_child.append(first_child)
        if not self.share:  # the first level: no parent to share
            self.share.append(np.ones(level.size))
        self.size += level.size

    def test(self, t: int):
        """The test node t splits by."""
        test = self.tests.get(t)
        if test is None:
            k, c = self._row(t), self.scanned
            j, threshold = int(c.attribute[k]), float(c.threshold[k])
            if math.isnan(threshold):
                return self.value_tests[j]
            test = self.tests[t] = ThresholdTest(self.attributes[j], threshold)
        return test

    def numbers_of(self, t: int) -> tuple:
        """(score, gain, average gain, kind, attributes tied, candidates tied) of split node t."""
        if t in self.numbers:
            return self.numbers[t]
        k, c = self._row(t), self.scanned
        tied = tuple(np.flatnonzero(np.unpackbits(c.tied[k], count=len(self.attributes))).tolist())
        kind = "multiway" if math.isnan(c.threshold[k]) else "threshold"
        return (float(c.score[k]), float(c.gain[k]), float(c.average[k]), kind,
                tied if len(tied) > 1 else (int(c.attribute[k]),), int(c.ties[k]))

    def midpoint(self, t: int) -> float | None:
        """The midpoint split node t's cut was scored at (None: not a cut)."""
        k = int(self._row_of[t])
        if k < 0 or math.isnan(self.scanned.midpoint[k]):
            return self.midpoints.get(t)
        return float(self.scanned.midpoint[k])

    def _row(self, t: int) -> int:
        k = int(self._row_of[t])
        if k < 0:
            raise KeyError(f"node {t} is not split by a scanned candidate")
        return k

    def fractions(self, t: int, n_children: int) -> tuple:
        """Split node t's branches' shares of its known weight (C4.5's r~_v)."""
        first = int(self.first_child[t])
        return tuple(self.share[first:first + n_children].tolist())
