"""The induced tree: nodes, the recorded steps, and prediction.

A tree is defined by its steps: `Tree.root` replays them (`_build`), so `at_step(k)` (the tree
after k decisions) and the final tree come from the same code. Node ids are given when a
node is created (the root is 0; a split numbers its children next), so a node keeps its
id in every partial tree. Steps follow depth-first pre-order: a node is decided, then its
first branch's subtree entirely, then the next branch.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Callable, Iterator

import numpy as np
import pandas as pd

from .conditions import UNKNOWN_BRANCH, Test

SPLIT, LEAF, COLLAPSE = "split", "leaf", "collapse"
PRUNE, RAISE, KEEP = "prune", "raise", "keep"  # pruning: subtree -> leaf, subtree raising, no change
GROWTH_ACTIONS = (SPLIT, LEAF)
OWN_VALUE = "(missing)"  # the category a missing value becomes with missing_values="own_value"


@dataclass(frozen=True, eq=False)
class Step:
    """One decision of induction: split a node (and why) or make it a leaf (and which rule)."""

    number: int  # 1-based position in the trace
    node_id: int
    parent_id: int | None
    branch: str | None  # the branch label leading here from the parent ("= Sunny", "<= 2.45")
    depth: int
    path: tuple[str, ...]  # the conditions from the root to this node
    class_weights: tuple[float, ...]  # () for regression
    prediction: str  # a class label, or the predicted value written out (regression)
    impurity: float  # entropy or Gini (with class priors: of the prior-weighted proportions); MSE
    action: str  # SPLIT, LEAF; after growth COLLAPSE, PRUNE, RAISE or KEEP
    reason: str  # in words: why this split won, or which stopping condition made a leaf
    stop: str | None = None  # short code of the stopping condition (leaf and collapse steps)
    test: Test | None = None
    child_ids: tuple[int, ...] = ()
    child_weights: tuple[tuple[float, ...], ...] = ()  # class weights, or (w, w y, w y^2) for regression
    branch_fractions: tuple[float, ...] = ()  # r~_v: shares of known weight, used for unknown values
    evaluate: Callable | None = field(default=None, repr=False)  # -> splits.Evaluation, made on demand
    weight: float = 0.0  # total case weight of the node's rows
    value: float | None = None  # regression: the node's prediction (mean, or median for leaves)
    details: dict = field(default_factory=dict)  # pruning: the numbers that decided the step
    raised_child: int | None = None  # RAISE: the child whose subtree takes this node's place
    new_stats: tuple = ()  # RAISE: (node id, class weights, branch fractions) of the re-sorted subtree
    found_surrogates: tuple | None = None  # CART: surrogate splits found while growing (None: not yet)

    @cached_property
    def surrogates(self) -> tuple:
        """The ranked surrogate splits of this step's binary split (CART; `surrogates` module)."""
        if self.found_surrogates is not None:
            return self.found_surrogates
        if self.action != SPLIT or self.evaluation is None or len(self.test.branch_labels) != 2:
            return ()
        from .surrogates import surrogates_of

        return surrogates_of(self.evaluation, self.test, self.evaluation.settings.max_surrogates)

    @property
    def n(self) -> float:
        return self.weight

    @cached_property
    def evaluation(self):
        return self.evaluate() if self.evaluate else None

    @cached_property
    def table(self) -> pd.DataFrame:
        """The node's candidate table, exactly as `split_table` gives it for this node's rows."""
        evaluation = self.evaluation
        if evaluation is None:
            from .splits import TABLE_COLUMNS

            return pd.DataFrame(columns=TABLE_COLUMNS)
        table = evaluation.table
        if self.action != SPLIT:
            table = table.assign(chosen=False)
        return table

    @property
    def chosen_row(self) -> int | None:
        """Position of the chosen candidate in `table` (None for a leaf)."""
        chosen = self.table["chosen"].to_numpy(dtype=bool)
        return int(chosen.argmax()) if chosen.any() else None


@dataclass(frozen=True, eq=False)
class Node:
    id: int
    depth: int
    branch: str | None
    path: tuple[str, ...]
    class_weights: tuple[float, ...]
    distribution: tuple[float, ...]  # class probabilities it predicts (an empty leaf: its parent's)
    prediction: str
    impurity: float
    status: str  # "split", "leaf" or "pending" (not decided yet in a partial tree)
    weight: float = 0.0
    value: float | None = None  # regression: the predicted value
    test: Test | None = None
    children: tuple["Node", ...] = ()
    branch_fractions: tuple[float, ...] = ()
    leaf_reason: str | None = None
    stop: str | None = None
    step: int | None = None  # number of the step that decided it
    source: Step | None = field(default=None, repr=False, compare=False)  # that step

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
        yield self
        for child in self.children:
            yield from child.walk()

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
    fill_values: dict = field(default_factory=dict)  # attribute -> training mode (median if numeric)
    data: object = field(default=None, repr=False)  # the training Dataset (pruning re-sorts it)
    pruning: dict = field(default_factory=dict)  # how it was pruned: method, options, CV table

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

    def node(self, node_id: int) -> Node:
        for node in self.root.walk():
            if node.id == node_id:
                return node
        raise KeyError(f"No node {node_id} in this tree.")

    def nodes(self) -> Iterator[Node]:
        return self.root.walk()

    @property
    def n_leaves(self) -> int:
        return sum(1 for _ in self.root.leaves())

    @property
    def n_nodes(self) -> int:
        return sum(1 for _ in self.root.walk())

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
        return replace(self, steps=self.steps[:k])

    # prediction ---------------------------------------------------------------------
    def predict_proba(self, frame: pd.DataFrame, missing: str = "distribute") -> np.ndarray:
        """Class probabilities (columns in `classes` order).

        `missing` says what a row whose tested value is missing (or never seen) does:
        "distribute" (C4.5; seed 003): it goes down every branch, weighted by the branch's
        share of the training weight, and the leaf distributions are combined;
        "most_frequent" (seed 003's simple alternative): the value is filled with the
        training set's most frequent value (numbers: the median) first.
        (Treating "missing" as a value of its own is a training setting: missing_values.)"""
        if self.is_regression:
            raise ValueError("A regression tree predicts values, not class probabilities: use predict().")
        return self._combined(frame, missing)

    def prepare(self, frame: pd.DataFrame, missing: str = "distribute") -> pd.DataFrame:
        """The rows as the tree reads them: training-time and prediction-time filling applied."""
        if missing not in ("distribute", "most_frequent"):
            raise ValueError("missing must be 'distribute' or 'most_frequent'.")
        frame = frame.copy()
        if getattr(self.settings, "missing_values", "fractional") == "own_value":
            for attribute, kind in self.kinds.items():
                if kind == "categorical" and attribute in frame:
                    frame[attribute] = frame[attribute].astype(object).where(frame[attribute].notna(), OWN_VALUE)
        if missing == "most_frequent":
            for attribute, value in self.fill_values.items():
                if attribute in frame:
                    frame[attribute] = frame[attribute].astype(object).where(frame[attribute].notna(), value)
        return frame

    def _combined(self, frame: pd.DataFrame, missing: str = "distribute") -> np.ndarray:
        frame = self.prepare(frame, missing)
        weights = np.ones(len(frame))
        result = np.zeros((len(frame), 1 if self.is_regression else len(self.classes)))
        self._spread(self.root, frame, weights, result)
        return result

    def _spread(self, node: Node, frame, weights, result) -> None:
        if node.is_leaf:
            leaf = [node.value] if self.is_regression else node.distribution
            result += weights[:, None] * np.asarray(leaf)[None, :]
            return
        branch = node.test.branch_of(_column(frame, node.test.attribute))
        if self._uses_surrogates and (branch == UNKNOWN_BRANCH).any():
            branch = self._by_surrogates(node, frame, branch)
            stuck = branch == UNKNOWN_BRANCH  # no surrogate, children equally heavy: stop here (rpart)
            leaf = [node.value] if self.is_regression else node.distribution
            result += (weights * stuck)[:, None] * np.asarray(leaf)[None, :]
            weights = np.where(stuck, 0.0, weights)
        for b, child in enumerate(node.children):
            share = np.where(branch == b, 1.0, np.where(branch == UNKNOWN_BRANCH, node.branch_fractions[b], 0.0))
            if (share > 0).any():
                self._spread(child, frame, weights * share, result)

    @property
    def _uses_surrogates(self) -> bool:
        return getattr(self.settings, "missing_values", "") == "surrogate"

    def _by_surrogates(self, node: Node, frame, branch: np.ndarray) -> np.ndarray:
        """rpart's order for a missing primary value: the surrogates in rank order, then the
        heavier child; -1 left only when both children weigh the same."""
        for surrogate in node.surrogates:
            if surrogate.test.attribute in frame.columns:
                branch = np.where(branch == UNKNOWN_BRANCH, surrogate.branch_of(frame[surrogate.test.attribute]),
                                  branch)
        sizes = [child.weight for child in node.children]
        if sizes[0] != sizes[1]:
            branch = np.where(branch == UNKNOWN_BRANCH, int(np.argmax(sizes)), branch)
        return branch

    def predict(self, frame: pd.DataFrame, missing: str = "distribute") -> np.ndarray:
        """The most probable class of each row (ties: the first class in `classes`); for a
        regression tree the leaf value (rows with a missing tested value: the weighted mean).
        `missing` as in `predict_proba`."""
        combined = self._combined(frame, missing)
        if self.is_regression:
            return combined[:, 0]
        return np.asarray(self.classes, dtype=object)[np.argmax(combined, axis=1)]

    def apply(self, frame: pd.DataFrame) -> np.ndarray:
        """The leaf id of each row; at a missing value the row follows the heaviest branch."""
        ids = np.full(len(frame), -1)
        frame = self.prepare(frame)
        self._route(self.root, frame, np.arange(len(frame)), ids)
        return ids

    def _route(self, node: Node, frame, rows, ids) -> None:
        if node.is_leaf:
            ids[rows] = node.id
            return
        branch = node.test.branch_of(_column(frame.iloc[rows], node.test.attribute))
        if self._uses_surrogates:
            branch = self._by_surrogates(node, frame.iloc[rows], branch)
        heaviest = int(np.argmax(node.branch_fractions))
        branch = np.where(branch == UNKNOWN_BRANCH, heaviest, branch)
        for b, child in enumerate(node.children):
            if (branch == b).any():
                self._route(child, frame, rows[branch == b], ids)

    # export (free functions in `export`; these are conveniences) ---------------------
    def to_dot(self, highlight: int | None = None) -> str:
        from .export import to_dot

        return to_dot(self, highlight=highlight)

    def to_text(self) -> str:
        from .export import to_text

        return to_text(self)

    def rules(self) -> list[str]:
        from .export import rules

        return rules(self)

    def to_dict(self) -> dict:
        from .export import to_dict

        return to_dict(self)


def _column(frame: pd.DataFrame, attribute: str) -> pd.Series:
    if attribute not in frame.columns:
        raise ValueError(f"The rows to predict have no column '{attribute}', which the tree tests.")
    return frame[attribute]


def majority(weights) -> int:
    """Index of the heaviest class; ties go to the first class in order."""
    return int(np.argmax(np.asarray(weights, dtype=float)))


def _distribution(weights, fallback) -> tuple[float, ...]:
    total = float(sum(weights))
    if total <= 0:
        return tuple(fallback)
    return tuple(float(w) / total for w in weights)


def summarize(tree: Tree, stats, fallback, value: float | None = None) -> dict:
    """What a node shows, from its statistics: class weights (classification) or the moments
    (w, w y, w y^2) (regression). `fallback` is the parent's distribution or value, used by a
    node that no row reaches (seed 000, condition 3)."""
    from .data import label
    from .impurity import IMPURITY

    stats = np.asarray(stats, dtype=float)
    if tree.is_regression:
        w, s, q = stats
        mean = s / w if w > 0 else fallback
        shown = mean if value is None else value
        return dict(class_weights=(), distribution=(), weight=float(w), value=float(shown),
                    prediction=label(round(float(shown), 4)),
                    impurity=float(max(q / w - mean * mean, 0.0)) if w > 0 else 0.0)
    adjusted = stats if tree.class_factor is None else stats * np.asarray(tree.class_factor)
    distribution = _distribution(adjusted, fallback)
    return dict(class_weights=tuple(float(x) for x in stats), distribution=distribution, weight=float(stats.sum()),
                value=None, prediction=tree.classes[majority(distribution)],
                impurity=float(IMPURITY[tree.settings.impurity](adjusted)))


def _build(tree: Tree) -> Node:
    """Replay the steps into nested nodes.

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

    def make(node_id: int, depth: int, path: tuple, branch, fallback) -> Node:
        step = state.get(node_id)
        leaf_value = step.value if step is not None and step.action != SPLIT else None
        shown = summarize(tree, stats[node_id], fallback, leaf_value)
        common = dict(id=node_id, depth=depth, branch=branch, path=path, **shown)
        inherited = shown["value"] if tree.is_regression else shown["distribution"]
        if step is None:
            return Node(status="pending", **common)
        if step.action == SPLIT:
            test = step.test
            children = tuple(make(c, depth + 1, path + (test.condition(b),), test.branch_labels[b], inherited)
                             for b, c in enumerate(step.child_ids))
            return Node(status="split", test=test, children=children,
                        branch_fractions=step.branch_fractions, step=step.number, source=step, **common)
        return Node(status="leaf", leaf_reason=step.reason, stop=step.stop, step=step.number, **common)

    uniform = 0.0 if tree.is_regression else tuple(1.0 / len(tree.classes) for _ in tree.classes)
    return make(0, 0, (), None, uniform)
