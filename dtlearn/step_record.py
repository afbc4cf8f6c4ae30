"""Growth's record read as steps: a `Step` is made the first time it is read.

A fit of many rows grows hundreds of thousands of nodes, and a `Step` (its reason in words, its
labels, its numbers as tuples) costs more to make than growing its node did. The engine's arrays
(`engine.Grown`) already hold every decision, so the steps are made from them on request: a page
reads a few, a tree's nodes or its pruning read them all, and a fit alone reads none. `Steps`
is the sequence a `Tree` keeps: the record's steps (made on request) followed by steps made
after growth (C4.5's collapse, pruning), sliced and added to as a tuple is.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property

import numpy as np

from . import kernels
from .formatting import label
from .splits import explanation, one_cut_competes
from .steps import COLLAPSE, LEAF, SPLIT, Step
from .stops import STOPS, Leaf, said_weight
from .stops import reason as stop_reason
from .summary import summarize_all

COLLAPSE_TOLERANCE = 1e-3  # J48's: a subtree must make fewer training errors than this below its node alone


class Record:
    """The grown nodes as steps in depth-first pre-order; node ids given as splits are made.

    Keeps what the steps need and no training row: the engine's per-node arrays and records,
    the class names, the attribute names (a tie's words) and the settings."""

    def __init__(self, grown, encoded, settings, origin) -> None:
        self.grown = grown
        self.classes = encoded.classes
        self.attributes = tuple(encoded.attributes)
        self.class_factor = encoded.class_factor
        self.regression = encoded.is_regression
        self.settings = settings
        self.origin = origin
        self.n_children = np.bincount(grown.parent[1:], minlength=grown.size).astype(np.int64) if grown.size \
            else np.zeros(0, dtype=np.int64)
        size = grown.size
        self.order, self.ids, self.span = (np.empty(size, dtype=np.int64), np.zeros(size, dtype=np.int64),
                                           np.ones(size, dtype=np.int64))
        kernels.preorder(np.asarray(grown.first_child, dtype=np.int64), self.n_children, self.order, self.ids,
                         self.span)
        self.made: list[Step | None] = [None] * grown.size

    def __getstate__(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if k != "shown"}  # (remade on request)

    def __len__(self) -> int:
        return self.grown.size

    @cached_property
    def position(self) -> np.ndarray:
        """Each node's position in pre-order (the inverse of `order`)."""
        position = np.empty_like(self.order)
        position[self.order] = np.arange(len(self.order))
        return position

    @cached_property
    def index_of(self) -> np.ndarray:
        """The node index of each node id."""
        index = np.empty_like(self.ids)
        index[self.ids] = np.arange(len(self.ids))
        return index

    @cached_property
    def shown(self) -> dict:
        """What every node shows (`summarize_all`, parents first: an empty node shows its parent's)."""
        grown = self.grown
        return summarize_all(grown.stats, grown.parent, self.regression, self.class_factor, self.settings.impurity)

    def step(self, position: int) -> Step:
        made = self.made[position]
        if made is None:
            made = self._make(int(self.order[position]), position)
            if self.made[position] is None:  # another thread's, if it was quicker: one Step per node
                self.made[position] = made
            made = self.made[position]
        return made

    def edge(self, node_id: int):
        """(the parent's split step, the branch) leading to the node; None at the root."""
        t = int(self.index_of[node_id])
        parent = int(self.grown.parent[t])
        if parent < 0:
            return None
        return self.step(int(self.position[parent])), int(self.grown.branch[t])

    def collapsed(self, done: int) -> list[Step]:
        """C4.5 / J48's collapse: top-down, a subtree whose leaves make no fewer training errors
        than its node alone would (within J48's 1e-3) becomes a leaf, and nothing below it is
        looked at. The steps numbered after the `done` ones."""
        grown = self.grown
        alone, below = np.zeros(grown.size), np.zeros(grown.size)
        kernels.training_errors(np.asarray(grown.stats, dtype=float), np.asarray(grown.first_child, dtype=np.int64),
                                self.n_children, alone, below)
        candidates = np.flatnonzero((grown.stop[self.order] < 0)
                                    & ~(below[self.order] < alone[self.order] - COLLAPSE_TOLERANCE))
        steps, after = [], 0
        for position in candidates.tolist():
            if position < after:  # inside a subtree already collapsed
                continue
            t = int(self.order[position])
            step = self.step(position)
            steps.append(Step(
                number=done + len(steps) + 1, node_id=step.node_id, parent_id=None, branch=step.branch,
                depth=step.depth, class_weights=step.class_weights, prediction=step.prediction,
                impurity=step.impurity, weight=step.weight, value=step.value, action=COLLAPSE, stop="collapse",
                origin=step.origin,
                reason=(f"C4.5 collapses this subtree: its leaves make {said_weight(below[t])} training errors, a "
                        f"single leaf would make {said_weight(alone[t])}, so the split does not pay for itself.")))
            after = position + int(self.span[t])
        return steps

    # one step ----------------------------------------------------------------------------------
    def _make(self, t: int, position: int) -> Step:
        grown, ids = self.grown, self.ids
        parent = int(grown.parent[t])
        test_above = grown.test(parent) if parent >= 0 else None
        common = self._node(t)
        common.update(number=position + 1, node_id=int(ids[t]), parent_id=int(ids[parent]) if parent >= 0 else None,
                      branch=test_above.branch_labels[int(grown.branch[t])] if test_above is not None else None,
                      depth=int(grown.depth[t]), origin=self.origin)
        stop = int(grown.stop[t])
        if stop >= 0:
            if self.regression and t in grown.medians:
                value = grown.medians[t]
                common.update(value=value, prediction=label(round(value, 4)))
            return Step(action=LEAF, stop=STOPS[stop], reason=self._leaf_reason(stop, t, common), **common)
        test, numbers = grown.test(t), grown.numbers_of(t)
        first = int(grown.first_child[t])
        children = range(first, first + int(self.n_children[t]))
        return Step(action=SPLIT, reason=self._split_reason(t, test), test=test,
                    child_ids=tuple(int(ids[c]) for c in children),
                    child_weights=tuple(tuple(grown.stats[c].tolist()) for c in children),
                    branch_fractions=grown.fractions(t, int(self.n_children[t])),
                    found_surrogates=grown.surrogates.get(t), majority_branch=grown.majority.get(t, -1),
                    score=numbers[0], gain=numbers[1],
                    **common)

    def _node(self, t: int) -> dict:
        """What the node shows: class weights, prediction, impurity, weight, value."""
        shown = self.shown
        impurity, weight = float(shown["impurity"][t]), float(shown["weight"][t])
        if self.regression:
            value = float(shown["value"][t])
            return dict(class_weights=(), prediction=label(round(value, 4)), impurity=impurity, weight=weight,
                        value=value)
        return dict(class_weights=tuple(self.grown.stats[t].tolist()),
                    prediction=self.classes[int(shown["prediction"][t])], impurity=impurity, weight=weight, value=None)

    def _split_reason(self, t: int, test) -> str:
        grown, settings = self.grown, self.settings
        score, gain, average, kind, tied, ties = grown.numbers_of(t)
        what = f"{test.attribute} (one branch per value)" if test.kind == "multiway" else test.describe()
        text = f"Split on {what}: {explanation(settings, kind, score, average)}."
        if kind == "threshold" and settings.threshold_at_data_value:
            midpoint = grown.midpoint(t)
            if midpoint is not None and midpoint != test.threshold:
                text += (f" The cut is written as {label(test.threshold)}, the largest training value below "
                         f"the midpoint {label(midpoint)}, as C4.5 / J48 do; it separates the rows the same way.")
        if len(tied) > 1:
            others = ", ".join(self.attributes[j] for j in tied if self.attributes[j] != test.attribute)
            text += (f" It ties with {others} (scores within 1e-12): the tie goes to the attribute first in the "
                     "table (column order).")
        elif ties > 1:
            measure = "gain" if one_cut_competes(settings, kind) else "score"
            order = "the lowest threshold" if kind == "threshold" else "the first in enumeration order"
            text += f" {ties} candidates of {test.attribute} tie on {measure} (within 1e-12): {order} is taken."
        return text

    def _leaf_reason(self, stop: int, t: int, common: dict) -> str:
        leaf = Leaf(common["weight"], common["prediction"], common["class_weights"],
                    self.grown.leaf_numbers.get(t, 0.0), self.settings, self.regression)
        return stop_reason(stop, leaf)


class Steps(Sequence):
    """A tree's steps: the first `grown` of a `Record`'s, made on request, then `after` (steps
    made after growth). Read, sliced and added to as a tuple of steps is."""

    __slots__ = ("record", "grown", "after")

    def __init__(self, record: Record, grown: int | None = None, after: tuple = ()) -> None:
        self.record = record
        self.grown = len(record) if grown is None else grown
        self.after = tuple(after)

    def __reduce__(self):
        return Steps, (self.record, self.grown, self.after)

    def __len__(self) -> int:
        return self.grown + len(self.after)

    def __getitem__(self, index):
        if isinstance(index, slice):
            start, stop, stride = index.indices(len(self))
            if start == 0 and stride == 1:  # a partial tree's steps: the same record, shorter
                return Steps(self.record, min(stop, self.grown), self.after[:max(stop - self.grown, 0)])
            return tuple(self[i] for i in range(start, stop, stride))
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("step index out of range")
        return self.record.step(index) if index < self.grown else self.after[index - self.grown]

    def __iter__(self):
        step = self.record.step
        for position in range(self.grown):
            yield step(position)
        yield from self.after

    def edge(self, node_id: int):
        """(the parent's split step, the branch) leading to a grown node; None at the root."""
        return self.record.edge(node_id)

    def __add__(self, other) -> "Steps":
        return Steps(self.record, self.grown, self.after + tuple(other))

    def __radd__(self, other) -> tuple:
        return tuple(other) + tuple(self)

    def __eq__(self, other) -> bool:
        return isinstance(other, Sequence) and len(self) == len(other) and all(a is b for a, b in zip(self, other))

    __hash__ = None

    def __repr__(self) -> str:
        return f"Steps({len(self)} steps: {self.grown} grown, {len(self.after)} after)"
