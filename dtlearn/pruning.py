"""Pruning, recorded step by step like growth. Each method returns a new Tree whose steps are
the grown tree's steps followed by the pruning trace (`tree.pruning_steps`), so replaying
`tree.at_step(k)` shows the tree being pruned one decision at a time.

- validation_prepruning (Mitchell 1997, 3.7.1): in growth order, keep a split only if it makes
  fewer validation errors than the node as a leaf; on a tie the split is refused (a leaf is
  simpler).
- reduced_error (Quinlan 1987): repeatedly replace by a leaf the subtree whose removal gains
  the most validation accuracy, while accuracy does not drop.
- pessimistic (C4.5 / Weka's J48; Quinlan 1993): bottom-up, compare upper confidence bounds
  U_CF(E, N) of the errors of a leaf, of the subtree and of its largest branch (subtree raising).
- cost_complexity (Breiman et al. 1984): the weakest-link sequence of subtrees.

Rows reach nodes through `routing`, as in prediction; no walk recurses. The choice of alpha by
cross-validation, which grows trees, is `api.cost_complexity_cv`.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass, field, replace
from functools import lru_cache
from statistics import NormalDist

import numpy as np
import pandas as pd

from . import budget, kernels
from .collector import no_cycle_collection
from .data import Dataset, label
from .encoding import codes_for
from .routing import branches, encode_training, node_totals, single_paths
from .steps import Growth
from .tree import KEEP, PRUNE, RAISE, Node, Step, Tree

METHODS = ("validation_prepruning", "reduced_error", "pessimistic", "cost_complexity")
SHOWN = 30  # a step's details list at most this many nodes' numbers (the smallest g, the best prunes)


@dataclass(eq=False)
class _Work:
    """A mutable copy of a node while a pruning method works on it."""

    node: Node
    children: list = field(default_factory=list)
    test: object = None
    fractions: tuple = ()
    rows: np.ndarray | None = None  # training rows reaching it (pessimistic pruning)
    weights: np.ndarray | None = None  # and their weights
    counts: np.ndarray | None = None  # their class weights, once asked for (until the rows are re-sorted)
    estimate: tuple = ()  # (counts, estimated errors as a leaf): asked again by every ancestor
    subtree_estimate: float | None = None  # its subtree's estimated errors, when pessimistic pruning kept it

    @property
    def id(self) -> int:
        return self.node.id

    @property
    def is_leaf(self) -> bool:
        return not self.children

    def walk(self):
        stack = [self]
        while stack:
            work = stack.pop()
            yield work
            stack.extend(reversed(work.children))

    def leaves(self):
        return (w for w in self.walk() if w.is_leaf)


def _work(root: Node) -> _Work:
    """A _Work copy of a tree, built without recursion."""
    made = {}
    order = list(root.walk())
    for node in reversed(order):
        made[node.id] = _Work(node, [made.pop(c.id) for c in node.children], node.test, node.branch_fractions)
    return made[root.id]


def prune(tree: Tree, method: str, **options) -> Tree:
    """A pruned copy of `tree` whose `.pruning_steps` is the trace of `method` (alpha given;
    `api.prune` also chooses alpha by cross-validation)."""
    if method not in METHODS:
        raise ValueError(f"Unknown pruning method '{method}'. Choose one of: {', '.join(METHODS)}.")
    if not tree.is_complete:
        raise ValueError("Prune a complete tree, not a partial one (tree.at_step(k)).")
    run = {"validation_prepruning": validation_prepruning, "reduced_error": reduced_error,
           "pessimistic": pessimistic, "cost_complexity": cost_complexity}[method]
    with no_cycle_collection():  # a step (and its details) per decision, none in a cycle
        return run(tree, **options)


def with_steps(tree: Tree, new_steps: list[Step], info: dict) -> Tree:
    steps = tree.steps + tuple(new_steps)
    return replace(tree, steps=steps, total_steps=len(steps), pruning=info)


def _step(tree: Tree, number: int, work: _Work, action: str, reason: str, details: dict, **extra) -> Step:
    node = work.node
    origin = node.source.origin if node.source is not None else None
    return Step(number=number, node_id=work.id, parent_id=None, branch=node.branch, depth=node.depth,
                class_weights=node.class_weights, prediction=node.prediction, impurity=node.impurity,
                weight=node.weight, value=node.value, action=action, stop=action if action != KEEP else None,
                reason=reason, details=details, origin=origin, **extra)


# --- validation data at every node ----------------------------------------------------------

def _validation_frame(tree: Tree, validation) -> pd.DataFrame:
    frame = validation.frame if isinstance(validation, Dataset) else validation
    if not isinstance(frame, pd.DataFrame) or tree.target not in frame.columns:
        raise ValueError(f"Give validation rows as a Dataset or DataFrame with the target column '{tree.target}'.")
    if len(frame) == 0:
        raise ValueError("The validation set is empty: choose a larger validation fraction.")
    return tree.prepare(frame)


class _Losses:
    """Validation loss of each node as a leaf: misclassified weight (regression: squared error),
    from the validation rows routed down the grown tree as in prediction."""

    def __init__(self, tree: Tree, validation) -> None:
        frame = _validation_frame(tree, validation)
        flat, rows = tree.encoded_rows(frame)
        self.total = float(len(frame))
        self.regression = tree.is_regression
        self.classes = tree.classes
        if self.regression:
            y = pd.to_numeric(frame[tree.target], errors="coerce").to_numpy(dtype=float)
            zero = np.zeros(len(y), dtype=np.int64)
            moments = [node_totals(flat, rows, zero, 1, weights=m) for m in (np.ones(len(y)), y, y * y)]
            self.moments = {i: tuple(float(m[i][0]) for m in moments) for i in moments[0]}
        else:
            k = len(tree.classes)
            y = codes_for(frame[tree.target], tree.classes)
            self.weights = node_totals(flat, rows, np.where(y < 0, k, y), k + 1)  # column k: unseen classes

    def counts(self, work: _Work) -> dict:
        """Validation class weights at the node, for the trace."""
        if self.regression:
            return {"n": round(self.moments[work.id][0], 6)}
        w = self.weights[work.id]
        return {c: round(float(w[i]), 6) for i, c in enumerate(self.classes)}

    def leaf(self, work: _Work) -> float:
        if self.regression:
            n, s, q = self.moments[work.id]
            v = work.node.value
            return float(max(q - 2 * v * s + v * v * n, 0.0))
        w = self.weights[work.id]
        return float(w.sum() - w[self.classes.index(work.node.prediction)])

    def accuracy(self, errors: float) -> float:
        """Validation accuracy (regression: validation mean squared error) for these errors."""
        return errors / self.total if self.regression else 1.0 - errors / self.total

    @property
    def score_name(self) -> str:
        return "validation MSE" if self.regression else "accuracy"


def _subtree_losses(root: _Work, losses: _Losses) -> dict:
    """Each node's subtree loss (its leaves' losses), bottom-up."""
    below: dict[int, float] = {}
    for work in reversed(list(root.walk())):
        below[work.id] = losses.leaf(work) if work.is_leaf else sum(below[c.id] for c in work.children)
    return below


# --- 1. pre-pruning on a validation set -------------------------------------------------------

def validation_prepruning(tree: Tree, validation) -> Tree:
    """Mitchell (1997): before each split (in growth order) compare the validation errors with
    the node as a leaf and with the split (its children as leaves); split only if the split
    makes strictly fewer errors. A refused split's subtree is never grown."""
    root = _work(tree.root)
    losses = _Losses(tree, validation)
    order = {step.node_id: step.number for step in tree.steps}
    internal = sorted((w for w in root.walk() if not w.is_leaf), key=lambda w: order[w.id])
    below_refused: set[int] = set()  # the nodes under a refused split (never grown)
    errors = losses.leaf(root)  # the tree so far: only the root, as a leaf
    steps, number = [], len(tree.steps)
    for work in internal:
        budget.check_time()
        if work.id in below_refused:
            continue
        as_leaf = losses.leaf(work)
        split = sum(losses.leaf(child) for child in work.children)
        before, after = losses.accuracy(errors), losses.accuracy(errors - as_leaf + split)
        details = {"validation_counts": losses.counts(work), "errors_as_leaf": as_leaf,
                   "errors_with_split": split, "accuracy_without_split": before, "accuracy_with_split": after}
        number += 1
        if split < as_leaf:
            errors += split - as_leaf
            steps.append(_step(tree, number, work, KEEP, (
                f"Splitting on {work.test.attribute} lowers validation errors from {_n(as_leaf)} to {_n(split)} "
                f"({losses.score_name} {before:.3f} -> {after:.3f}): the split is made."), details))
        else:
            _refuse(work, below_refused)
            steps.append(_step(tree, number, work, PRUNE, (
                f"Splitting on {work.test.attribute} would give {_n(split)} validation errors instead of "
                f"{_n(as_leaf)} ({losses.score_name} {before:.3f} -> {after:.3f}): no improvement, so the node stays a "
                "leaf (pre-pruning; a tie also keeps the leaf)."), details))
    return with_steps(tree, steps, {"method": "validation_prepruning"})


def _refuse(work: _Work, below_refused: set) -> None:
    """Mark the nodes under a refused split, each once (a marked node's subtree is marked
    already): linear in the tree's size, where looking up every node's ancestry was quadratic
    on a deep tree."""
    stack = list(work.children)
    while stack:
        node = stack.pop()
        if node.id not in below_refused:
            below_refused.add(node.id)
            stack.extend(node.children)


# --- 2. reduced-error pruning ---------------------------------------------------------------

def reduced_error(tree: Tree, validation) -> Tree:
    """Quinlan (1987): repeatedly evaluate pruning each internal node (its subtree becomes a
    leaf predicting the node's training majority) on the validation set and make the prune
    that most improves validation accuracy, as long as accuracy does not drop.
    Ties: the prune removing more nodes, then the node first in growth order."""
    root = _work(tree.root)
    losses = _Losses(tree, validation)
    order = {step.node_id: step.number for step in tree.steps}
    steps, number = [], len(tree.steps)
    ranking = _PruneRanking(root, losses, order)
    while not root.is_leaf:
        budget.check_time()
        ranked = ranking.best(SHOWN)
        gain, _, _, best = ranked[0]
        if gain < -1e-12:
            break
        number += 1
        below = ranking.below
        errors = below[root.id]
        before, after = losses.accuracy(errors), losses.accuracy(errors - gain)
        details = {"validation_counts": losses.counts(best), "errors_as_leaf": losses.leaf(best),
                   "errors_of_subtree": below[best.id], "accuracy_before": before, "accuracy_after": after,
                   "candidates": {o[3].id: round(o[0], 6) for o in ranked}}
        steps.append(_step(tree, number, best, PRUNE, (
            f"Replacing the subtree by a leaf ({best.node.prediction}) changes validation errors from "
            f"{_n(below[best.id])} to {_n(losses.leaf(best))}: {losses.score_name} {before:.3f} -> {after:.3f}, "
            "the best prune available (reduced-error pruning)."), details))
        ranking.prune(best)
    return with_steps(tree, steps, {"method": "reduced_error"})


class _PruneRanking:
    """Reduced-error pruning's options, (gain, subtree size, -growth order, node) for every
    internal node, kept up to date as nodes are pruned: a prune changes only its ancestors'
    numbers (recomputed from their children, as `_subtree_losses` computes them) and removes
    its descendants, so a 12,000-node tree is not re-summed 230 times. A heap, best first;
    entries made stale by a later change are skipped."""

    def __init__(self, root: _Work, losses: _Losses, order: dict) -> None:
        self.losses, self.order = losses, order
        self.below = _subtree_losses(root, losses)
        self.sizes = _subtree_sizes(root)
        self.parent = {c.id: w for w in root.walk() for c in w.children}
        self.version: dict[int, int] = {}
        self.heap: list = []
        for work in root.walk():
            if not work.is_leaf:
                self._push(work)

    def _option(self, work: _Work) -> tuple:
        return (self.below[work.id] - self.losses.leaf(work), self.sizes[work.id], -self.order[work.id], work)

    def _push(self, work: _Work) -> None:
        version = self.version[work.id] = self.version.get(work.id, 0) + 1
        gain, size, late, _ = option = self._option(work)
        heapq.heappush(self.heap, ((-gain, -size, -late), version, work.id, option))

    def best(self, count: int) -> list:
        """The `count` best options, best first (the order `max` by (gain, size, -order) gives)."""
        taken = []
        while self.heap and len(taken) < count:
            entry = heapq.heappop(self.heap)
            _, version, node_id, option = entry
            if self.version.get(node_id) == version and not option[3].is_leaf:
                taken.append(entry)
        for entry in taken:
            heapq.heappush(self.heap, entry)
        return [entry[3] for entry in taken]

    def prune(self, work: _Work) -> None:
        """`work` becomes a leaf: its descendants go, its ancestors' numbers are summed again."""
        stack = list(work.children)
        while stack:
            gone = stack.pop()
            self.version[gone.id] = self.version.get(gone.id, 0) + 1  # its heap entries are stale
            stack.extend(gone.children)
        work.children = []
        self.version[work.id] = self.version.get(work.id, 0) + 1
        self.below[work.id] = self.losses.leaf(work)
        self.sizes[work.id] = 1
        node = self.parent.get(work.id)
        while node is not None:
            self.below[node.id] = sum(self.below[c.id] for c in node.children)
            self.sizes[node.id] = 1 + sum(self.sizes[c.id] for c in node.children)
            self._push(node)
            node = self.parent.get(node.id)


def _subtree_sizes(root: _Work) -> dict:
    sizes: dict[int, int] = {}
    for work in reversed(list(root.walk())):
        sizes[work.id] = 1 + sum(sizes[c.id] for c in work.children)
    return sizes


# --- 3. pessimistic pruning (C4.5 / J48) ----------------------------------------------------

def added_errors(n: float, e: float, confidence: float = 0.25) -> float:
    """U_CF(E, N) - E: the extra errors of C4.5's upper confidence bound (Quinlan 1993; as
    Weka's Stats.addErrs, with its interpolations for E < 1 and E close to N).

    >>> round(added_errors(6, 0), 4)   # N (1 - CF^(1/N)) = 6 (1 - 0.25^(1/6))
    1.2378
    """
    if confidence > 0.5:
        return 0.0
    if e < 1:
        base = n * (1 - confidence ** (1 / n))
        return base if e == 0 else base + e * (added_errors(n, 1, confidence) - base)
    if e + 0.5 >= n:
        return max(n - e, 0.0)
    z = _z(confidence)
    f = (e + 0.5) / n
    r = (f + z * z / (2 * n) + z * math.sqrt(f / n - f * f / n + z * z / (4 * n * n))) / (1 + z * z / n)
    return float(r * n - e)


@lru_cache(maxsize=64)
def _z(confidence: float) -> float:
    """The normal quantile of 1 - CF (asked once per node and leaf: thousands of times a tree)."""
    return NormalDist().inv_cdf(1 - confidence)


def _estimated(weights: np.ndarray, confidence: float) -> float:
    total, most = _total_and_most(weights)
    if total <= 1e-6:
        return 0.0
    wrong = total - most
    return wrong + added_errors(total, wrong, confidence)


def _total_and_most(weights: np.ndarray) -> tuple[float, float]:
    """The sum and the largest of a node's class weights, in plain Python (`_added`: numpy's
    order of additions): asking numpy twice per node cost a third of pruning a 20,000-level
    chain."""
    values = weights.tolist()
    return _added(values), max(values)


class _Training:
    """The training rows as pessimistic pruning re-sorts them (J48's resetDistribution)."""

    def __init__(self, tree: Tree) -> None:
        self.settled = False  # every row on one path, weight 1, none re-sorted since `assign_all`
        if tree.data is None:
            raise ValueError("This tree does not carry its training data; fit it with dtlearn.fit.")
        origin = tree.steps[0].origin if tree.steps and tree.steps[0].origin is not None else None
        origin = origin or Growth(tree.data, tree.settings, tree.class_factor, tree.task)
        self.origin = origin
        self.encoded = origin.encoded
        self.k = len(tree.classes)

    def class_weights(self, rows: np.ndarray, weights: np.ndarray) -> np.ndarray:
        return np.bincount(self.encoded.y[rows], weights=weights, minlength=self.k).astype(float)

    def counts(self, work: _Work) -> np.ndarray:
        """The class weights of the rows at `work`, summed once per assignment (a node is asked
        again and again: as itself, a child, a leaf below)."""
        if work.counts is None:
            work.counts = self.class_weights(work.rows, work.weights)
        return work.counts

    def estimated(self, work: _Work, cf: float) -> float:
        """`_estimated` errors of `work` as a leaf, once per assignment of its rows."""
        counts = self.counts(work)
        if not work.estimate or work.estimate[0] is not counts:
            work.estimate = (counts, _estimated(counts, cf))
        return work.estimate[1]

    def subtree_errors(self, work: _Work, cf: float) -> float:
        """Estimated errors of `work`'s subtree (J48's getEstimatedErrors): a leaf's own, else the
        sum its decision found over its children, each child's total in turn (as J48 sums them, son
        by son). Read, not walked: on a kept chain, summing every leaf below every node was
        quadratic (a 4,000-level chain, 14 s). A node's children are always decided before it, and
        a raise re-sorts rows only below a node that is decided again after."""
        return self.estimated(work, cf) if work.is_leaf else work.subtree_estimate

    def split(self, work: _Work, rows: np.ndarray, weights: np.ndarray, keep_shares: bool):
        """The rows and weights each child of `work` receives; the shares of the known weight
        are recomputed from these rows (and stored when `keep_shares`). Without an unknown value
        the children's arrays are views of the node's (sorted in place by branch)."""
        branch = branches(self.encoded, work.test, rows)
        n_children = len(work.children)
        known = np.bincount(branch[branch >= 0], weights=weights[branch >= 0], minlength=n_children)
        shares = tuple(known / known.sum()) if known.sum() > 0 else work.fractions
        if keep_shares:
            work.fractions = shares
        if not (branch < 0).any():
            # a stable sort by branch, in linear time (a sort per node is quadratic-log on a deep tree)
            if (branch[1:] < branch[:-1]).any():  # rows already in branch order stay where they are
                order = np.concatenate([np.flatnonzero(branch == b) for b in range(n_children)])
                rows[:] = rows[order]
                weights[:] = weights[order]
            bounds = np.concatenate([[0], np.cumsum(np.bincount(branch, minlength=n_children))])
            return [(rows[a:b], weights[a:b]) for a, b in zip(bounds[:-1], bounds[1:])]
        unknown = branch < 0
        parts = []
        for b in range(n_children):
            keep = (branch == b) | (unknown & (shares[b] > 0))
            parts.append((rows[keep].copy(), np.where(unknown, weights * shares[b], weights)[keep]))
        return parts

    def assign_all(self, root: _Work, flat) -> None:
        """`assign` of every training row (weight 1) from the root of the unpruned tree (`flat`:
        its routing arrays). When every row takes one path, growth's record (else one routing
        pass) gives each row's leaf and the rows are sorted by leaf in pre-order: each node's rows
        are then one slice, in the order `assign` leaves them, and its counts and shares follow
        from its leaves'. `assign` sorts the rows again at every node: O(rows x depth), minutes on
        a deep chain."""
        n = self.encoded.n_rows
        order = list(root.walk())  # pre-order, children in branch order
        leaves = [work for work in order if work.is_leaf]
        leaf_rank = self._grown_leaf_ranks(leaves)
        if leaf_rank is None:
            leaf_of = single_paths(flat, encode_training(flat, self.encoded))
            if leaf_of is None:  # a missing value on the way: rows are shared between branches
                self.assign(root, np.arange(n), np.ones(n))
                return
            rank = np.full(len(flat.ids), -1, dtype=np.int64)
            position = {int(node_id): i for i, node_id in enumerate(flat.ids)}
            rank[[position[work.id] for work in leaves]] = np.arange(len(leaves))
            leaf_rank = rank[leaf_of]
        self.settled = True
        rows = np.argsort(leaf_rank, kind="stable")  # within a leaf, ascending rows (as `assign`)
        weights = np.ones(n)
        by_class = np.zeros((len(leaves), self.k))
        np.add.at(by_class, (leaf_rank, self.encoded.y), 1.0)
        ends = np.cumsum(np.bincount(leaf_rank, minlength=len(leaves)))
        span: dict[int, tuple[int, int]] = {}
        for i, work in enumerate(leaves):
            span[work.id] = (int(ends[i - 1]) if i else 0, int(ends[i]))
            work.counts = by_class[i]
        for work in reversed(order):  # children before parents
            if not work.is_leaf:
                span[work.id] = (span[work.children[0].id][0], span[work.children[-1].id][1])
                work.counts = sum(child.counts for child in work.children)
                # the shares as `split` finds them (known / known.sum()), in plain Python: the
                # counts are whole numbers here (every weight 1), so their sums are exact in any
                # order, and the divisions are the same; numpy's cost per call was paid per node
                known = [_added(child.counts.tolist()) for child in work.children]
                total = sum(known)
                work.fractions = tuple(k / total for k in known) if total > 0 else work.fractions
            a, b = span[work.id]
            work.rows, work.weights = rows[a:b], weights[a:b]

    def _grown_leaf_ranks(self, leaves: list) -> np.ndarray | None:
        """Each training row's place among `leaves` read from where growth left it (its grown
        leaf, or the pruned node above that leaf), the same leaf routing finds: routing every row
        down the tree again is O(rows x depth), 0.7 s on a 20,000-level chain. None when growth
        did not record one leaf per row (a missing value) or a leaf is not the grown tree's."""
        grown_leaves = getattr(self.origin, "training_leaves", None)
        if grown_leaves is None:
            return None
        splits = self.origin.splits
        # every grown node's id (an empty leaf under a collapsed node may pass the rows' leaves')
        size = max(len(self.origin.steps), int(grown_leaves.max(initial=0)) + 1, max(w.id for w in leaves) + 1)
        rank = np.full(size, -1, dtype=np.int64)
        for i, work in enumerate(leaves):
            below = [work.id]  # the leaf and every grown node under it (a pruned subtree)
            while below:
                node_id = below.pop()
                if node_id >= len(rank):
                    return None
                rank[node_id] = i
                if node_id in splits:
                    below.extend(splits[node_id].child_ids)
        leaf_rank = rank[grown_leaves]
        return None if (leaf_rank < 0).any() else leaf_rank

    def assign(self, work: _Work, rows: np.ndarray, weights: np.ndarray) -> None:
        """Sort rows down a subtree, recording each node's rows and its shares."""
        self.settled = False
        stack = [(work, rows, weights)]
        while stack:
            node, node_rows, node_weights = stack.pop()
            node.rows, node.weights, node.counts = node_rows, node_weights, None
            if node.is_leaf:
                continue
            parts = self.split(node, node_rows, node_weights, keep_shares=True)
            stack.extend((child, r, w) for child, (r, w) in zip(node.children, parts))

    def raised_errors(self, node: _Work, big: _Work, cf: float) -> float:
        """Estimated errors if all of `node`'s rows were sorted through its child `big` (J48's
        getEstimatedErrorsForBranch), without changing anything. While every row has weight 1
        (settled, or no value missing, so that a raise re-sorts rows without sharing them), only
        the rows of the other branches are sorted (big's own stay where they are): the same
        integer counts, without O(rows) work per node on a deep tree."""
        if self.settled or self.encoded.complete:
            rest = [c.rows for c in node.children if c is not big]
            others = rest[0] if len(rest) == 1 else np.concatenate(rest)
            total = self._errors_with(big, others, cf)
            if total is not None:
                return total
        return self.branch_errors(big, node.rows, node.weights, cf)

    def _errors_with(self, work: _Work, extra: np.ndarray, cf: float) -> float | None:
        """`branch_errors` of the subtree's own rows plus `extra` rows (weight 1), summed as J48
        sums them; None where a test cannot place one of the extra rows."""
        def open_(item):
            node, rows = item
            if not len(rows):  # a part no extra row reaches: its own rows' numbers, found when it was decided
                return self.subtree_errors(node, cf)
            if node.is_leaf:
                return _estimated(self.counts(node) + np.bincount(self.encoded.y[rows], minlength=self.k), cf)
            branch = branches(self.encoded, node.test, rows)
            if (branch < 0).any():
                return None
            return [(child, rows[branch == b]) for b, child in enumerate(node.children)]
        return _summed_by_sons((work, extra), open_)

    def branch_errors(self, work: _Work, rows: np.ndarray, weights: np.ndarray, cf: float) -> float:
        """Estimated errors if all of `rows` were sorted through this subtree (J48's
        getEstimatedErrorsForBranch), without changing it."""
        def open_(item):
            node, node_rows, node_weights = item
            if node.is_leaf:
                return _estimated(self.class_weights(node_rows, node_weights), cf)
            parts = self.split(node, node_rows, node_weights, keep_shares=False)
            return [(child, r, w) for child, (r, w) in zip(node.children, parts)]
        return _summed_by_sons((work, rows.copy(), weights.copy()), open_)


def _summed_by_sons(item, open_) -> float | None:
    """A subtree's errors summed as J48's recursions sum them: a node's = 0 + its first son's +
    its second's ..., each son's its own such sum (the order of the additions decides the last
    bits, and J48 compares sums). Without recursion. `open_(item)` gives a number (a leaf's
    errors, a part summed already), the items of the node's sons, or None (give up: None)."""
    opened = open_(item)
    if not isinstance(opened, list):
        return opened
    stack = [[opened, 0, 0.0]]  # a node's sons, the next son, the sum so far
    while True:
        frame = stack[-1]
        sons, next_son, total = frame
        if next_son == len(sons):
            stack.pop()
            if not stack:
                return total
            stack[-1][1] += 1
            stack[-1][2] += total
            continue
        opened = open_(sons[next_son])
        if opened is None:
            return None
        if isinstance(opened, list):
            stack.append([opened, 0, 0.0])
        else:
            frame[1] += 1
            frame[2] += opened


def pessimistic(tree: Tree, confidence: float = 0.25, subtree_raising: bool = True) -> Tree:
    """C4.5's pruning as Weka's J48 does it: bottom-up, a node becomes a leaf when the leaf's
    estimated errors N*U_CF(E, N) are at most those of its subtree (and of its largest branch,
    + 0.1), and is replaced by its largest branch when that branch (with all of the node's
    training rows re-sorted into it) is estimated to err no more than the subtree."""
    if tree.is_regression:
        raise ValueError("Pessimistic (C4.5) pruning is for classification trees.")
    if not 0 < confidence <= 0.5:
        raise ValueError("The confidence CF must be in (0, 0.5]; C4.5's default is 0.25.")
    training = _Training(tree)
    root = _work(tree.root)
    training.assign_all(root, tree.flat)
    steps: list[Step] = []
    stack = [(root, False)]
    while stack:  # post-order: a node after its children; a raised node again
        budget.check_time()
        work, ready = stack.pop()
        if work.is_leaf:
            continue
        if not ready:
            stack.append((work, True))
            stack.extend((child, False) for child in reversed(work.children))
            continue
        if _pessimistic_step(tree, work, training, confidence, subtree_raising, steps):
            stack.append((work, False))
    return with_steps(tree, steps, {"method": "pessimistic", "confidence": confidence,
                                    "subtree_raising": subtree_raising})


def _pessimistic_step(tree, work: _Work, training: _Training, cf, raising, steps) -> bool:
    """Decide one node (its children decided); True when a branch was raised into its place."""
    if not training.settled:  # a raise below may have re-sorted its rows since (the sums' order: the same numbers)
        work.counts = None
    here = training.counts(work)
    child_sizes = [_added(training.counts(c).tolist()) for c in work.children]
    largest = child_sizes.index(max(child_sizes))  # the first of the largest, as np.argmax
    leaf = training.estimated(work, cf)
    subtree = sum(training.subtree_errors(child, cf) for child in work.children)
    branch = float("inf")
    if raising:  # a leaf branch given all the node's rows errs as the node would as a leaf
        big = work.children[largest]
        branch = leaf if big.is_leaf else training.raised_errors(work, big, cf)
    n, most = _total_and_most(here)
    e = n - most
    details = {"N": n, "E": e, "U_CF": (e + added_errors(n, e, cf)) / n if n else 0.0,
               "errors_as_leaf": leaf, "errors_of_subtree": subtree, "errors_of_largest_branch": branch,
               "confidence": cf}
    number = len(tree.steps) + len(steps) + 1
    if leaf <= subtree + 0.1 and leaf <= branch + 0.1:
        work.children = []
        steps.append(_step(tree, number, work, PRUNE, (
            f"As a leaf the node's estimated errors are {leaf:.3f} (N = {_n(n)}, E = {_n(e)}, "
            f"U_CF = {details['U_CF']:.3f}), not more than the subtree's {subtree:.3f} (+0.1): "
            "the subtree is replaced by a leaf."), details))
        return False
    if branch <= subtree + 0.1:
        raised = work.children[largest]
        work.test, work.children = raised.test, raised.children
        work.fractions = raised.fractions
        training.assign(work, work.rows, work.weights)
        new_stats = tuple((w.id, tuple(training.counts(w)), w.fractions if not w.is_leaf else ())
                          for w in work.walk())
        steps.append(_step(tree, number, work, RAISE, (
            f"The largest branch, with all {_n(n)} rows of this node re-sorted into it, is estimated to make "
            f"{branch:.3f} errors, not more than the subtree's {subtree:.3f} (+0.1): it is raised into "
            "this node's place (subtree raising)."), details, raised_child=raised.id, new_stats=new_stats))
        return True
    work.subtree_estimate = subtree
    steps.append(_step(tree, number, work, KEEP, (
        f"The subtree's estimated errors {subtree:.3f} are lower than a leaf's {leaf:.3f}: the subtree stays."),
        details))
    return False


# --- 4. cost-complexity pruning ----------------------------------------------------------------

def _mass(tree: Tree, node: Node) -> float:
    """The node's weight as the measures see it: class priors / class weights applied."""
    if tree.is_regression or tree.class_factor is None:
        return node.weight
    return float(np.dot(node.class_weights, tree.class_factor))


def _risk(tree: Tree, node: Node, total: float, risk: str) -> float:
    """R(t) as a share of the root's weight: impurity-weighted (scikit-learn) or
    misclassification / squared error (Breiman et al., rpart); priors and class weights
    count as they do in the measures (rpart's altered weights, scikit-learn's sample weights)."""
    mass = _mass(tree, node)
    if risk == "impurity" or tree.is_regression:
        return mass / total * node.impurity  # regression: MSE * w / W = SSE / W
    factor = tree.class_factor or (1.0,) * len(node.class_weights)
    return (mass - max([0.0] + [w * f for w, f in zip(node.class_weights, factor)])) / total


@dataclass(frozen=True)
class WeakestLink:
    alpha: float  # g(t) of the pruned node
    node: Node
    risk_node: float  # R(t)
    risk_subtree: float  # R(T_t)
    leaves: int  # |leaves(T_t)|
    listed: _Listed = field(repr=False, compare=False)  # the sequence's smallest g at each link
    number: int = 0  # this link's place in the sequence (0: the first)

    @property
    def g(self) -> dict:
        """The smallest g(t) of the internal nodes at that moment (at most SHOWN of them), node id
        -> g, ascending: made when asked for (a long sequence's tables would outweigh its tree)."""
        return self.listed.at(self.number)


@dataclass(frozen=True, eq=False)
class _Listed:
    """Each link's smallest g(t): positions in `ids`' pre-order (-1 after the last) and values."""

    ids: np.ndarray  # node id of each pre-order position
    positions: np.ndarray  # (links, SHOWN)
    values: np.ndarray  # (links, SHOWN)

    def at(self, k: int) -> dict:
        listed = self.positions[k][self.positions[k] >= 0]
        return dict(zip(self.ids[listed].tolist(), self.values[k, :len(listed)].tolist()))


def weakest_links(tree: Tree, risk: str = "impurity") -> list[WeakestLink]:
    """The weakest-link sequence (Breiman et al. 1984): prune, one at a time, the internal node
    with the smallest g(t) = (R(t) - R(T_t)) / (|leaves(T_t)| - 1). Ties in g go to the node
    first in growth order. Nodes are kept in pre-order, so a subtree is a range; each prune
    updates R(T_t) and |leaves(T_t)| of its ancestors (compiled: `kernels.weakest_links`;
    tests/test_pruning.py checks every link against g(t) recomputed on the tree pruned so far)."""
    if risk not in ("impurity", "error"):
        raise ValueError("risk must be 'impurity' (scikit-learn) or 'error' (misclassification, rpart).")
    nodes = list(tree.root.walk())
    n = len(nodes)
    position = {node.id: i for i, node in enumerate(nodes)}
    total = _mass(tree, tree.root)
    own = [_risk(tree, node, total, risk) for node in nodes]
    end, parent = list(range(n)), [-1] * n  # last position inside each node's subtree; parent's position
    below, leaves = [0.0] * n, [0] * n
    for i in range(n - 1, -1, -1):  # subtree sums, children before parents
        children = nodes[i].children
        if not children:
            below[i], leaves[i] = own[i], 1
            continue
        kids = [position[c.id] for c in children]
        for k in kids:
            parent[k] = i
        end[i] = end[kids[-1]]
        below[i] = _added([below[k] for k in kids])
        leaves[i] = sum(leaves[k] for k in kids)
    grown_order = {step.node_id: step.number for step in tree.steps}
    order = np.array([grown_order.get(node.id, 0) for node in nodes], dtype=np.int64)
    own, below, leaves = np.array(own, dtype=float), np.array(below, dtype=float), np.array(leaves, dtype=np.int64)
    internal = np.array([bool(node.children) for node in nodes], dtype=bool)
    links = int(internal.sum())  # each link prunes at least one internal node
    picked, risk_subtree, n_leaves = np.empty(links, np.int64), np.empty(links), np.empty(links, np.int64)
    shown, shown_g = np.empty((links, SHOWN), np.int64), np.empty((links, SHOWN))
    end, parent = np.array(end, dtype=np.int64), np.array(parent, dtype=np.int64)
    done = 0
    while internal[0]:  # compiled, a few hundred links at a time between the time budget's checks
        budget.check_time()
        done = kernels.weakest_links(own, below, leaves, end, parent, order, internal, 256,
                                     picked, risk_subtree, n_leaves, shown, shown_g, done)
    listed = _Listed(np.array([node.id for node in nodes], dtype=np.int64), shown[:done], shown_g[:done])
    alphas, picked, risk_subtree, n_leaves = (shown_g[:done, 0].tolist(), picked[:done].tolist(),
                                              risk_subtree[:done].tolist(), n_leaves[:done].tolist())
    own = own.tolist()
    return [WeakestLink(alpha if alpha > 1e-12 else 0.0,  # 0: rounding noise of a prune that changes nothing
                        nodes[i], own[i], subtree, count, listed, k)
            for k, (alpha, i, subtree, count) in enumerate(zip(alphas, picked, risk_subtree, n_leaves))]


def _added(values: list) -> float:
    """sum(values) added as numpy adds an array (in order below 8 numbers, pairwise from 8), so a
    subtree's R(T_t) is the very number numpy would give."""
    if len(values) < 8:
        total = 0.0
        for value in values:
            total += value
        return total
    return float(np.sum(values))


def cost_complexity_path(tree: Tree, risk: str = "impurity") -> pd.DataFrame:
    """One row per subtree of the weakest-link sequence (Breiman et al. 1984): `alpha`, the
    total leaf risk `impurity` (scikit-learn's cost_complexity_pruning_path with
    risk="impurity"), `n_leaves`, `nodes`, rpart's `cp` = alpha / R(root) and
    `rel_error` = R(T) / R(root), and the node pruned to reach it."""
    if not tree.is_complete:
        raise ValueError("The pruning path needs a complete tree.")
    total = _mass(tree, tree.root)
    leaves = list(tree.root.leaves())
    impurity = sum(_risk(tree, leaf, total, risk) for leaf in leaves)
    root_risk = _risk(tree, tree.root, total, risk)
    rows = [{"alpha": 0.0, "impurity": impurity, "n_leaves": len(leaves), "pruned_node": None}]
    n_leaves = len(leaves)
    for link in weakest_links(tree, risk):
        impurity += link.risk_node - link.risk_subtree
        n_leaves -= link.leaves - 1
        rows.append({"alpha": link.alpha, "impurity": impurity, "n_leaves": n_leaves, "pruned_node": link.node.id})
    path = pd.DataFrame(rows)
    binary = all(len(node.children) in (0, 2) for node in tree.root.walk())
    path["nodes"] = 2 * path["n_leaves"] - 1 if binary else np.nan
    path["cp"] = path["alpha"] / root_risk if root_risk > 0 else np.nan
    path["rel_error"] = path["impurity"] / root_risk if root_risk > 0 else np.nan
    path["nsplit"] = path["n_leaves"] - 1 if binary else np.nan
    return path


def rpart_cp_table(tree: Tree) -> pd.DataFrame:
    """rpart's complexity-parameter table (printcp): one row per distinct subtree, CP =
    alpha / R(root) with misclassification risk, nsplit, rel error = R(T) / R(root); subtrees
    that tie on alpha are pruned together, as rpart does."""
    path = cost_complexity_path(tree, risk="error").drop_duplicates("alpha", keep="last")
    table = path[["cp", "nsplit", "rel_error", "n_leaves", "alpha"]].iloc[::-1].reset_index(drop=True)
    return table.rename(columns={"cp": "CP", "rel_error": "rel error"})


def cost_complexity(tree: Tree, alpha: float, risk: str = "impurity", info: dict | None = None) -> Tree:
    """Weakest-link pruning up to `alpha`: every prune with g(t) <= alpha."""
    if alpha is None or not isinstance(alpha, (int, float)) or alpha != alpha:
        raise ValueError("Give alpha (a number >= 0), or cv (the number of cross-validation folds).")
    if alpha < 0:
        raise ValueError("alpha must be >= 0.")
    info = {"method": "cost_complexity", "risk": risk, **(info or {}), "alpha": alpha}
    return with_steps(tree, prunes_up_to(tree, weakest_links(tree, risk), alpha), info)


def prunes_up_to(tree: Tree, sequence: list[WeakestLink], alpha: float) -> list[Step]:
    steps, number = [], len(tree.steps)
    for link in sequence:
        if link.alpha > alpha + 1e-12:
            break
        number += 1
        details = {"alpha": link.alpha, "R(t)": link.risk_node, "R(T_t)": link.risk_subtree, "leaves": link.leaves,
                   "g": {i: round(v, 10) for i, v in link.g.items()}}
        work = _Work(link.node)
        steps.append(_step(tree, number, work, PRUNE, (
            f"Weakest link: g(t) = (R(t) - R(T_t)) / (|T_t| - 1) = ({link.risk_node:.4f} - {link.risk_subtree:.4f})"
            f" / ({link.leaves} - 1) = {link.alpha:.4f} is the smallest, and not above alpha = {alpha:.4f}: the "
            "subtree becomes a leaf."), details))
    return steps


def fit_options(tree: Tree) -> dict:
    """The settings the tree was grown with, to grow other trees the same way."""
    return {name: value for name, value in tree.settings.to_dict().items() if name != "algorithm"}


def _n(value: float) -> str:
    return label(round(float(value), 3))
