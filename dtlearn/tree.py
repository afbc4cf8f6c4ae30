"""The induced tree: nodes rebuilt from the recorded steps, and prediction.

A tree is defined by its steps: `Tree.root` replays them (`_build`), so `at_step(k)` (the tree
after k decisions) and the final tree come from the same code. Node ids are given when a
node is created (the root is 0; a split numbers its children next), so a node keeps its
id in every partial tree. Steps follow depth-first pre-order: a node is decided, then its
first branch's subtree entirely, then the next branch. No walk here recurses, so a tree may be
as deep as its data makes it.

One tree takes five forms, each for one job; only the steps are kept, the rest are made from
them or before them:

- `engine.Grown`: growth's working arrays, a level of nodes at a time, as the compiled scans
  fill them; a fitted tree keeps them, and `step_record` makes each step from them when read.
- the `Step` sequence (`steps.Step`, `step_record.Steps`): the record and the definition, plain
  data that pickles; a page steps through it, and pruning appends its decisions to it.
- `Node` (here): the tree rebuilt from the steps for reading: walks, `at_step(k)`, exports.
- `routing.FlatTree` (`Tree.flat`): the nodes as flat arrays for the compiled routing of many
  rows at once (prediction, pruning's counts).
- `pruning.walk._Work`: a mutable copy of the nodes while a pruning method cuts and raises
  subtrees, which `Node` (read-only) and the steps (a record) must not be.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from functools import cached_property
from typing import Collection, Iterator

import numpy as np
import pandas as pd

from . import export
from .collector import no_cycle_collection
from .formatting import label, labels_of
from .summary import summarize_all, summarize_many
from .routing import distribution, encode_rows, flatten, leaves, most_probable
from .steps import COLLAPSE, DISPLAY, GROWTH_ACTIONS, KEEP, LEAF, OWN_VALUE, PRUNE, RAISE, SPLIT, Growth, Step

__all__ = ["COLLAPSE", "GROWTH_ACTIONS", "KEEP", "LEAF", "OWN_VALUE", "PRUNE", "RAISE", "SPLIT", "Growth", "Node",
           "Step", "Tree", "majority", "summarize"]


class _Paths:
    """Each node's parent and the condition leading to it, for paths read on request."""

    __slots__ = ("parent",)

    def __init__(self) -> None:
        self.parent: dict[int, tuple[int, str]] = {}

    def path(self, node_id: int) -> tuple[str, ...]:
        conditions = []
        while node_id in self.parent:
            node_id, condition = self.parent[node_id]
            conditions.append(condition)
        return tuple(conditions[::-1])


@dataclass(eq=False, slots=True)
class Node:
    """A node of a tree built from steps; read-only by convention (not frozen: see `steps.Step`)."""

    id: int
    depth: int
    branch: str | None
    class_weights: tuple[float, ...]
    distribution: tuple[float, ...]  # class probabilities it predicts (an empty leaf: its parent's)
    prediction: str
    impurity: float
    status: str  # "split", "leaf" or "pending" (not decided yet in a partial tree)
    weight: float = 0.0
    value: float | None = None  # regression: the predicted value
    test: object = None
    children: tuple["Node", ...] = ()
    branch_fractions: tuple[float, ...] = ()
    leaf_reason: str | None = None
    stop: str | None = None
    step: int | None = None  # number of the step that decided it
    source: Step | None = field(default=None, repr=False, compare=False)  # that step
    paths: _Paths | None = field(default=None, repr=False, compare=False)

    @property
    def path(self) -> tuple[str, ...]:
        """The conditions from the root to this node."""
        return self.paths.path(self.id) if self.paths is not None else ()

    @property
    def surrogates(self) -> tuple:
        return self.source.surrogates if self.source is not None and self.status == "split" else ()

    @property
    def n(self) -> float:
        return self.weight

    @property
    def is_leaf(self) -> bool:
        return not self.children

    def walk(self) -> Iterator["Node"]:
        """This node and all below it, depth-first pre-order."""
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))

    def leaves(self) -> Iterator["Node"]:
        return (node for node in self.walk() if node.is_leaf)


@dataclass(frozen=True, eq=False)
class Tree:
    target: str
    classes: tuple[str, ...]
    kinds: dict  # attribute -> "categorical" | "numeric"
    settings: object  # settings.Settings
    root_weights: tuple[float, ...]
    root_impurity: float
    steps: tuple[Step, ...]
    total_steps: int  # of the complete induction; len(steps) for a partial tree is less
    ranges: dict = field(default_factory=dict)  # numeric attribute -> (min, max) of training values
    class_factor: tuple | None = None  # class priors / class weights as multipliers per class
    task: str = "classification"
    data: object = field(default=None, repr=False)  # the training Dataset (pruning re-sorts it)
    pruning: dict = field(default_factory=dict)  # how it was pruned: method, options, CV table

    # pickling: the fields only (nodes and routing arrays are rebuilt on first use)
    def __getstate__(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def __setstate__(self, state: dict) -> None:
        for name, value in state.items():
            object.__setattr__(self, name, value)

    @cached_property
    def fill_values(self) -> dict:
        """Each attribute's most frequent training value (numbers: the median), for filling gaps;
        a tie between modes goes to the first value in text order."""
        values = {}
        for attribute, kind in self.kinds.items():
            column = self.data.frame[attribute].dropna()
            if column.empty:
                continue
            if kind == "numeric":
                values[attribute] = float(column.median())
            else:
                counts = pd.Series(labels_of(column), dtype=object).value_counts()
                top = counts.max()
                values[attribute] = min(v for v, c in counts.items() if c == top)
        return values

    @property
    def growth_steps(self) -> int:
        """How many of the complete trace's steps are growth (split and leaf) steps."""
        return sum(1 for step in self.steps if step.action in GROWTH_ACTIONS)

    @property
    def pruning_steps(self) -> tuple[Step, ...]:
        """The steps after growth: J48's collapse, and the pruning trace of `dtlearn.prune`."""
        return tuple(step for step in self.steps if step.action not in GROWTH_ACTIONS)

    @property
    def is_regression(self) -> bool:
        return self.task == "regression"

    @property
    def algorithm(self) -> str:
        return self.settings.algorithm

    @cached_property
    def root(self) -> Node:
        return _build(self)

    @cached_property
    def _by_id(self) -> dict:
        return {node.id: node for node in self.root.walk()}

    def node(self, node_id: int) -> Node:
        try:
            return self._by_id[node_id]
        except KeyError:
            raise KeyError(f"No node {node_id} in this tree.") from None

    def nodes(self) -> Iterator[Node]:
        return self.root.walk()

    @property
    def n_leaves(self) -> int:
        return sum(1 for _ in self.root.leaves())

    @property
    def n_nodes(self) -> int:
        return len(self._by_id)

    @property
    def depth(self) -> int:
        return max(node.depth for node in self.root.walk())

    @property
    def is_complete(self) -> bool:
        return len(self.steps) == self.total_steps

    def at_step(self, k: int) -> "Tree":
        """The tree as it stood after its first k steps (0: the root alone, undecided)."""
        if not 0 <= k <= self.total_steps:
            raise ValueError(f"Step must be between 0 and {self.total_steps}, not {k}.")
        if k == len(self.steps):  # this very tree (frozen): its built nodes and routing arrays are kept
            return self
        return replace(self, steps=self.steps[:k])

    # prediction ---------------------------------------------------------------------
    @cached_property
    def flat(self):
        """The tree as arrays for routing rows (`routing.FlatTree`), without surrogate splits."""
        return flatten(self.root, self.is_regression, False)

    @cached_property
    def flat_with_surrogates(self):
        """The same with CART's surrogate splits (found for every node on first use)."""
        return flatten(self.root, self.is_regression, True)

    def encoded_rows(self, frame: pd.DataFrame):
        """The rows in the tree's encoding, and the flat tree that routes them: with surrogates
        only when a CART tree meets a missing or unseen value."""
        rows = encode_rows(self.flat, frame)
        if self._uses_surrogates and rows.has_unknown(self.flat):
            flat = self.flat_with_surrogates
            return flat, encode_rows(flat, frame)
        return self.flat, rows

    @property
    def _uses_surrogates(self) -> bool:
        return getattr(self.settings, "missing_values", "") == "surrogate"

    def prepare(self, frame: pd.DataFrame, missing: str = "distribute") -> pd.DataFrame:
        """The rows as the tree reads them: training-time and prediction-time filling applied."""
        if missing not in ("distribute", "most_frequent"):
            raise ValueError("missing must be 'distribute' or 'most_frequent'.")
        if not isinstance(frame, pd.DataFrame):
            raise TypeError("Give the rows to predict as a pandas DataFrame with the attribute columns.")
        own_value = getattr(self.settings, "missing_values", "fractional") == "own_value"
        filled = {}
        for attribute, kind in self.kinds.items():
            if attribute not in frame:
                continue
            column = frame[attribute]
            if own_value and kind == "categorical" and column.isna().any():
                column = column.astype(object).where(column.notna(), OWN_VALUE)
            if missing == "most_frequent" and attribute in self.fill_values and column.isna().any():
                column = column.astype(object).where(column.notna(), self.fill_values[attribute])
            if column is not frame[attribute]:
                filled[attribute] = column
        return frame.assign(**filled) if filled else frame

    def predict_proba(self, frame: pd.DataFrame, missing: str = "distribute") -> np.ndarray:
        """Class probabilities (columns in `classes` order).

        `missing` says what a row whose tested value is missing (or never seen) does:
        "distribute" (C4.5; Quinlan 1993): it goes down every branch, weighted by the branch's
        share of the training weight, and the leaf distributions are combined (a CART tree
        follows its surrogate splits instead); "most_frequent": the value is filled with the
        training set's most frequent value (numbers: the median) first.
        (Treating "missing" as a value of its own is a training setting: missing_values.)"""
        if self.is_regression:
            raise ValueError("A regression tree predicts values, not class probabilities: use predict().")
        return self._combined(frame, missing)

    def _combined(self, frame: pd.DataFrame, missing: str = "distribute") -> np.ndarray:
        flat, rows = self.encoded_rows(self.prepare(frame, missing))
        return distribution(flat, rows)

    def predict(self, frame: pd.DataFrame, missing: str = "distribute") -> np.ndarray:
        """The most probable class of each row (ties: the first class in `classes`); for a
        regression tree the leaf value (rows with a missing tested value: the weighted mean).
        `missing` as in `predict_proba`."""
        combined = self._combined(frame, missing)
        if self.is_regression:
            return combined[:, 0]
        return np.asarray(self.classes, dtype=object)[most_probable(combined)]

    def apply(self, frame: pd.DataFrame) -> np.ndarray:
        """The leaf id of each row; at a missing value the row follows the heaviest branch."""
        flat, rows = self.encoded_rows(self.prepare(frame))
        return leaves(flat, rows)

    def _repr_html_(self) -> str | None:
        """Jupyter: the tree drawn by Graphviz, or its text without it (`display`)."""
        return DISPLAY["tree"](self) if "tree" in DISPLAY else None

    # export (free functions in `export`; these are conveniences) ---------------------
    def to_dot(self, highlight: int | None = None, digits: int | None = 3, numbers: bool = False,
               highlights: Collection[int] = (), visible: Collection[int] | None = None, legend: bool = True) -> str:
        return export.to_dot(self, highlight=highlight, digits=digits, numbers=numbers, highlights=highlights,
                             visible=visible, legend=legend)

    def to_text(self) -> str:
        return export.to_text(self)

    def rules(self, limit: int | None = None) -> list[str]:
        return export.rules(self, limit)

    def to_dict(self, nested: bool = True) -> dict:
        return export.to_dict(self, nested)


def majority(weights) -> int:
    """Index of the heaviest class; ties go to the first class in order."""
    return int(np.argmax(np.asarray(weights, dtype=float)))


def summarize(tree: Tree, stats, fallback, value: float | None = None) -> dict:
    """`summarize_many` for one node, as plain numbers and its prediction written out."""
    regression = tree.is_regression
    fallback_row = np.array([[fallback]]) if regression else np.asarray([fallback], dtype=float)
    many = summarize_many(np.asarray([stats], dtype=float), fallback_row, regression, tree.class_factor,
                          tree.settings.impurity)
    if regression:
        shown = float(many["value"][0]) if value is None else float(value)
        return dict(class_weights=(), distribution=(), weight=float(many["weight"][0]), value=shown,
                    prediction=label(round(shown, 4)), impurity=float(many["impurity"][0]))
    return dict(class_weights=tuple(float(x) for x in stats), distribution=tuple(float(p) for p in
                                                                                   many["distribution"][0]),
                weight=float(many["weight"][0]), value=None, prediction=tree.classes[int(many["prediction"][0])],
                impurity=float(many["impurity"][0]))


def _latest(tree: Tree) -> tuple[dict, dict]:
    """Replay the steps: each node's latest decision and statistics.

    `state[id]` is the node's latest decision: SPLIT with its test and children, LEAF (also
    after COLLAPSE / PRUNE), or absent (pending). RAISE puts a child's subtree in the node's
    place, with the re-sorted class weights of that subtree (C4.5's subtree raising)."""
    stats = {0: tree.root_weights}
    state: dict[int, Step] = {}
    for step in tree.steps:
        if step.action == SPLIT:
            stats.update(zip(step.child_ids, step.child_weights))
            state[step.node_id] = step
        elif step.action == RAISE:
            state[step.node_id] = replace(state[step.raised_child], node_id=step.node_id)
            for node_id, weights, fractions in step.new_stats:
                stats[node_id] = weights
                if node_id in state and state[node_id].action == SPLIT and fractions:
                    state[node_id] = replace(state[node_id], branch_fractions=fractions)
        elif step.action != KEEP:
            state[step.node_id] = step
    return state, stats


def _build(tree: Tree) -> Node:
    """The nodes of the tree after its steps: found top-down, summarised all at once (level by
    level: a node no row reaches shows its parent's distribution), made bottom-up (a node
    holds its children), without recursion."""
    with no_cycle_collection():  # a node or more per step, none in a cycle
        return _made(tree)


def _made(tree: Tree) -> Node:
    state, stats = _latest(tree)
    paths = _Paths()
    order: list[tuple[int, int, str | None, int]] = []  # (id, depth, branch, parent position), pre-order
    stack = [(0, 0, None, -1)]
    while stack:
        node_id, depth, branch, parent = stack.pop()
        position = len(order)
        order.append((node_id, depth, branch, parent))
        step = state.get(node_id)
        if step is not None and step.action == SPLIT:
            test = step.test
            for b in range(len(step.child_ids) - 1, -1, -1):
                child = step.child_ids[b]
                paths.parent[child] = (node_id, test.condition(b))
                stack.append((child, depth + 1, test.branch_labels[b], position))
    shown = _summaries(tree, order, state, stats)
    made: dict[int, Node] = {}
    for position in range(len(order) - 1, -1, -1):
        node_id, depth, branch, _ = order[position]
        step = state.get(node_id)
        common = dict(id=node_id, depth=depth, branch=branch, paths=paths, **shown(position))
        if step is None:
            made[node_id] = Node(status="pending", **common)
        elif step.action == SPLIT:
            children = tuple(made.pop(c) for c in step.child_ids)
            made[node_id] = Node(status="split", test=step.test, children=children,
                                 branch_fractions=step.branch_fractions, step=step.number, source=step, **common)
        else:
            made[node_id] = Node(status="leaf", leaf_reason=step.reason, stop=step.stop, step=step.number,
                                 **common)
    return made[0]


def _summaries(tree: Tree, order: list, state: dict, stats: dict):
    """What each node shows, from `summarize_all` over the nodes in pre-order."""
    regression = tree.is_regression
    n = len(order)
    width = 3 if regression else len(tree.classes)
    matrix = np.array([stats[node_id] for node_id, *_ in order], dtype=float).reshape(n, width)
    parent = np.array([p for *_, p in order], dtype=np.int64)
    many = summarize_all(matrix, parent, regression, tree.class_factor, tree.settings.impurity)
    distribution, impurity, weight = many["distribution"], many["impurity"], many["weight"]
    value = many["value"] if regression else np.zeros(n)
    prediction = many["prediction"] if not regression else np.zeros(n, dtype=np.int64)
    rows, impurity, weight, value = matrix.tolist(), impurity.tolist(), weight.tolist(), value.tolist()
    shares, prediction = distribution.tolist(), prediction.tolist()

    def of(position: int) -> dict:
        if regression:
            step = state.get(order[position][0])
            shown = step.value if step is not None and step.action != SPLIT and step.value is not None \
                else value[position]
            return dict(class_weights=(), distribution=(), weight=weight[position], value=shown,
                        prediction=label(round(shown, 4)), impurity=impurity[position])
        return dict(class_weights=tuple(rows[position]), distribution=tuple(shares[position]),
                    weight=weight[position], value=None, prediction=tree.classes[prediction[position]],
                    impurity=impurity[position])
    return of
