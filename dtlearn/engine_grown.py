"""What growth keeps of a tree: every node in the order it was made, a level at a time (`engine`).

`induction` turns it into steps in depth-first order; pessimistic pruning reads `leaf_of_row`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass(eq=False)
class Grown:
    """Every node in the order it was made; a node's children are consecutive."""

    parent: list = field(default_factory=list)  # per level: (L,) parent's index (-1: the root)
    branch: list = field(default_factory=list)  # (L,) branch index under the parent
    depth: list = field(default_factory=list)
    stats: list = field(default_factory=list)  # (L, k) class weights, or (L, 3) moments
    stop: list = field(default_factory=list)  # (L,) -1: split, else the rule's code (stops.RULES)
    first_child: list = field(default_factory=list)  # (L,) index of the first child (splits)
    tests: dict = field(default_factory=dict)  # node index -> test
    numbers: dict = field(default_factory=dict)  # node index -> (score, gain, average, kind, tied, ties)
    fractions: dict = field(default_factory=dict)  # node index -> branch shares of the known weight
    surrogates: dict = field(default_factory=dict)  # node index -> surrogates found (CART)
    majority: dict = field(default_factory=dict)  # node index -> where unplaceable rows went (CART)
    medians: dict = field(default_factory=dict)  # node index -> the leaf's median (regression)
    leaf_numbers: dict = field(default_factory=dict)  # node index -> the best gain, for a leaf's reason
    midpoints: dict = field(default_factory=dict)  # node index -> the cut's midpoint (before J48 moves it)
    size: int = 0
    # each training row's leaf (node index), when every row took one path (no missing value);
    # else None. Pessimistic pruning reads it instead of routing every row down the tree again
    leaf_of_row: np.ndarray | None = None  # int32: 4 bytes a row

    def finish(self) -> None:
        for name in ("parent", "branch", "depth", "stop", "first_child"):
            parts = getattr(self, name)
            setattr(self, name, np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64))
        self.stats = np.concatenate(self.stats) if self.stats else np.zeros((0, 0))
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
        self.size += level.size
