"""The public compositions: fit (grow, then prune when the settings say so), prune by any
method (alpha chosen by cross-validation), cross-validation and the overfitting curve.

This module sits above `induction` (growing) and `pruning`: the modules below never import it.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from . import budget, pruning
from .data import Dataset
from .formatting import labels_of
from .evaluation import CrossValidation, accuracy, fold_indices, mean_squared_error, subset
from .routing import leaves, most_probable, reach
from .steps import GROWTH_ACTIONS, SPLIT
from .induction import _as_dataset, grow_with, resolve_task
from .settings import Settings, make_settings
from .tree import Tree


def fit(data: Dataset, algorithm: str = "cart", **settings) -> Tree:
    """Grow a tree with a preset (`id3`, `c45`, `cart`, `zaki`) and optional settings; with
    `prune=True` (C4.5's default) it is pruned the C4.5 way.

    >>> from dtlearn import load_dataset
    >>> tree = fit(load_dataset("tennis"), "id3")
    >>> tree.root.test.attribute, tree.n_leaves, tree.depth
    ('outlook', 5, 2)
    """
    data = _as_dataset(data)
    return fit_with(data, resolve_task(make_settings(algorithm, **settings), data))


def fit_with(data: Dataset, config: Settings) -> Tree:
    tree = grow_with(data, config)
    if config.prune:
        tree = pruning.pessimistic(tree, config.confidence, config.subtree_raising)
    return tree


def prune(tree: Tree, method: str, **options) -> Tree:
    """A pruned copy of `tree` whose `.pruning_steps` is the trace of `method`:
    "validation_prepruning" and "reduced_error" (validation=), "pessimistic" (confidence=,
    subtree_raising=), "cost_complexity" (alpha= or cv=k, one_se=, seed=, risk=, and cv_table=
    when `cost_complexity_cv` has already been run for these).

    >>> from dtlearn import fit, load_dataset
    >>> pruned = prune(fit(load_dataset("iris"), "c45", collapse=False), "pessimistic")
    >>> pruned.n_leaves <= fit(load_dataset("iris"), "c45", collapse=False).n_leaves
    True
    """
    if method == "cost_complexity":
        if not tree.is_complete:
            raise ValueError("Prune a complete tree, not a partial one (tree.at_step(k)).")
        return _cost_complexity(tree, **options)
    return pruning.prune(tree, method, **options)


def _cost_complexity(tree: Tree, alpha: float | None = None, cv: int | None = None, one_se: bool = False,
                     seed: int = 0, risk: str = "impurity", cv_table: pd.DataFrame | None = None) -> Tree:
    """Weakest-link pruning up to `alpha`, or with the alpha chosen by `cv`-fold
    cross-validation (lowest mean error; with `one_se`, the largest alpha within one standard
    error of it, Breiman et al.'s 1-SE rule). `cv_table`: `cost_complexity_cv(tree, cv, seed,
    risk)` when already computed (the 1-SE rule chooses from the same table)."""
    if (alpha is None) == (cv is None):
        raise ValueError("Give either alpha or cv (the number of cross-validation folds).")
    info = {}
    if cv is not None:
        table = cost_complexity_cv(tree, cv, seed, risk) if cv_table is None else cv_table
        alpha = float(table.loc[table["chosen_1se" if one_se else "chosen"], "alpha"].iloc[0])
        info.update(cv_table=table, one_se=one_se, one_se_threshold=one_se_threshold(table))
    return pruning.cost_complexity(tree, alpha, risk, info)


def cost_complexity_cv(tree: Tree, k: int = 5, seed: int = 0, risk: str = "impurity") -> pd.DataFrame:
    """Cross-validated error for each subtree of the sequence, at the geometric mean of its
    alpha interval (Breiman et al. 1984; rpart); `chosen` (minimum; on a tie the simpler tree,
    as rpart's table read from the top) and `chosen_1se` (the simplest within one SE)."""
    if tree.data is None:
        raise ValueError("This tree does not carry its training data; fit it with dtlearn.fit.")
    path = pruning.cost_complexity_path(tree, risk).drop_duplicates("alpha", keep="last").reset_index(drop=True)
    alphas = path["alpha"].to_numpy()
    probes = np.append(np.sqrt(alphas[:-1] * alphas[1:]), alphas[-1])
    data = tree.data
    errors = np.zeros((k, len(probes)))
    for f, held_out in enumerate(fold_indices(data, k, seed)):
        with budget.part(f, k, "fold"):
            errors[f] = _fold_errors(tree, subset(data, np.setdiff1d(np.arange(len(data.frame)), held_out)),
                                     subset(data, held_out), probes, risk)
    mean, se = errors.mean(axis=0), errors.std(axis=0, ddof=1) / np.sqrt(k)
    best = int(np.flatnonzero(mean <= mean.min() + 1e-12).max())  # ties: the simpler tree (larger alpha)
    table = pd.DataFrame({"alpha": alphas, "probe_alpha": probes, "n_leaves": path["n_leaves"],
                          "cv_error": mean, "cv_se": se})
    table["chosen"] = np.arange(len(table)) == best
    table["chosen_1se"] = np.arange(len(table)) == np.flatnonzero(mean <= one_se_threshold(table)).max()
    return table


def one_se_threshold(table: pd.DataFrame) -> float:
    """The 1-SE rule's bound (Breiman et al. 1984, 3.4.3): the lowest cross-validated error plus
    its standard error, both of the `chosen` row of `cost_complexity_cv`'s table; `chosen_1se` is
    the simplest subtree whose error is at most this. Pruning with `cv` records it as
    `tree.pruning["one_se_threshold"]`."""
    best = table.loc[table["chosen"]].iloc[0]
    return float(best["cv_error"] + best["cv_se"])


def _fold_errors(tree: Tree, train: Dataset, test: Dataset, probes: np.ndarray, risk: str) -> np.ndarray:
    """One fold of `cost_complexity_cv`: the error on `test` of the tree grown on `train`, pruned
    at each probe alpha."""
    grown = fit_with(train, resolve_task(tree.settings, train))
    sequence = pruning.weakest_links(grown, risk)  # once per fold; each probe takes a prefix
    exceeds = np.array([link.alpha for link in sequence])[None, :] > probes[:, None] + 1e-12
    first = exceeds.argmax(axis=1) if sequence else 0  # no link (a single leaf): nothing to take
    prefix = np.where(exceeds.any(axis=1), first, len(sequence))  # as prunes_up_to stops
    losses = _prefix_losses(grown, sequence, test)
    if losses is not None:
        return losses[prefix]
    errors = np.zeros(len(probes))
    for j, a in enumerate(probes):
        budget.check_time(budget.REPEATED)
        pruned = pruning.with_steps(grown, pruning.prunes_up_to(grown, sequence, float(a)), {})
        errors[j] = mean_squared_error(pruned, test) if tree.is_regression else 1 - accuracy(pruned, test)
    return errors


def cross_validate(data: Dataset, algorithm: str = "cart", k: int = 5, seed: int = 0, **settings) -> CrossValidation:
    """Stratified k-fold cross-validation of `fit(data, algorithm, **settings)`."""
    scores = []
    for f, held_out in enumerate(fold_indices(data, k, seed)):
        budget.check_time(budget.REPEATED)
        with budget.part(f, k, "fold"):
            train = subset(data, np.setdiff1d(np.arange(len(data.frame)), held_out))
            tree = fit(train, algorithm, **settings)
            scorer = mean_squared_error if tree.is_regression else accuracy
            scores.append(scorer(tree, subset(data, held_out)))
    return CrossValidation(tuple(scores))


def overfitting_curve(tree: Tree, train: Dataset, validation: Dataset) -> pd.DataFrame:
    """Training and validation accuracy of the tree after each growth step, against its size
    (Mitchell 1997, fig. 3.6: training accuracy keeps rising, validation accuracy peaks and falls).

    Each row is routed once through the grown tree; after step k it stops at the first node of
    its path not yet split, so a split changes the prediction of its own rows only and the curve
    is a running sum of those changes. Rows that a missing or unseen value would share between
    branches (C4.5) are predicted step by step instead."""
    grown = tree.at_step(tree.growth_steps)
    growth = [step for step in tree.steps if step.action in GROWTH_ACTIONS]
    splits = np.array([step.action == SPLIT for step in growth], dtype=bool)
    children = np.array([len(step.child_ids) for step in growth], dtype=np.int64)
    nodes = 1 + np.concatenate([[0], np.cumsum(np.where(splits, children, 0))])
    leaves = nodes - np.concatenate([[0], np.cumsum(splits)])
    curve = pd.DataFrame({"step": np.arange(len(growth) + 1), "nodes": nodes, "leaves": leaves})
    for name, data in (("train_accuracy", train), ("validation_accuracy", validation)):
        curve[name] = _accuracies(tree, grown, data)
    return curve


def _accuracies(tree: Tree, grown: Tree, data: Dataset) -> np.ndarray:
    """Accuracy of tree.at_step(k) on `data` for k = 0..growth steps: rows that one path holds
    by a running sum of changes at the splits, each split's from the rows of each class reaching
    its children (O(rows + nodes); walking each row up its path was O(rows x depth)); rows with
    a missing or unseen value (shared between branches, or following surrogates) by their class
    weights, also updated split by split (`_shared_correct`)."""
    k_max = tree.growth_steps
    if len(data.frame) == 0:
        return np.full(k_max + 1, np.nan)
    if grown.is_regression:  # accuracy is a classification measure: each partial tree as it stands
        return np.array([_checked(accuracy, tree.at_step(k), data) for k in range(k_max + 1)])
    flat, rows = grown.encoded_rows(grown.prepare(data.frame))
    classes = {c: i for i, c in enumerate(grown.classes)}
    truth = np.array([classes.get(label, -1) for label in labels_of(data.frame[data.target])])
    by_id = {node.id: node for node in grown.nodes()}
    parent, split_at, predicted = (np.full(max(by_id) + 1, fill) for fill in (-1, k_max + 1, -2))
    for node in by_id.values():
        predicted[node.id] = classes[node.prediction]
        parent[[child.id for child in node.children]] = node.id
        if node.children:
            split_at[node.id] = node.step
    shared = rows.unknown(flat)
    clean = ~shared
    known = truth >= 0  # a class the tree never saw: never right
    reached = np.zeros((len(parent), len(classes)))  # rows of each class reaching each node
    at_leaf = leaves(flat, rows.subset(clean & known)).astype(np.int64)
    np.add.at(reached, (at_leaf, truth[clean & known]), 1.0)
    for node in sorted(by_id.values(), key=lambda n: n.depth, reverse=True):  # children before parents
        if parent[node.id] >= 0:
            reached[parent[node.id]] += reached[node.id]
    # split k moves a node's rows to its children: each child's rows now right by the child's
    # prediction, no longer by the parent's
    child = np.array([node for node in by_id if parent[node] >= 0], dtype=np.int64)
    change = np.zeros(k_max + 2)
    np.add.at(change, split_at[parent[child]],
              reached[child, predicted[child]] - reached[child, predicted[parent[child]]])
    correct = reached[grown.root.id, predicted[grown.root.id]] + np.cumsum(change)[:k_max + 1]
    if shared.any():
        correct = correct + _shared_correct(flat, rows.subset(shared), truth[shared], split_at, k_max)
    return correct / len(truth)


def _shared_correct(flat, rows, truth: np.ndarray, split_at: np.ndarray, k_max: int,
                    cells: int = 2_000_000) -> np.ndarray:
    """How many of `rows` tree.at_step(k) classifies right, k = 0..k_max. A row's class weights
    are the sum, over the nodes where its weight stops, of that weight times the node's class
    distribution; when a node splits, the weight that goes on to its children is predicted by
    them instead. A row's weights change only at the steps that split a node it reaches: its
    prediction is decided at those steps alone (in step order) and holds until its next one,
    counted as intervals of steps. Rows in chunks of at most `cells` numbers."""
    weights = flat.node_values  # (flat nodes, classes)
    n_classes = weights.shape[1]
    splits = np.flatnonzero(flat.n_child > 0)
    owner = np.full(len(flat.ids), -1)  # the split (index into splits) whose child each node is
    for j, i in enumerate(splits):
        owner[flat.child_start[i]:flat.child_start[i] + flat.n_child[i]] = j
    step_of = split_at[flat.ids[splits]]  # the growth step at which each split node splits
    chunk = max(1, cells // max(len(flat.ids), 1))
    intervals = np.zeros(k_max + 2)  # +1 where a right prediction starts, -1 where it ends
    for start in range(0, rows.n, chunk):
        budget.check_time(budget.REPEATED)
        which = np.zeros(rows.n, dtype=bool)
        which[start:start + chunk] = True
        reached = reach(flat, rows.subset(which))  # (flat nodes, chunk), mostly zeros
        state = reached[0][:, None] * weights[0]  # (chunk, classes): the root's prediction at step 0
        node, row = np.nonzero(reached)
        below = owner[node] >= 0  # a child: its weight went on from its parent's split
        node, row = node[below], row[below]
        weight = reached[node, row]
        # one change per (split, row): its children's shares in, the parent's share out
        pair, at = np.unique(owner[node] * chunk + row, return_inverse=True)
        moved = np.bincount(at, weights=weight, minlength=len(pair))
        split, row = pair // chunk, pair % chunk
        change = np.column_stack([np.bincount(at, weights=weight * weights[node, c], minlength=len(pair))
                                  for c in range(n_classes)]) - moved[:, None] * weights[splits[split]]
        order = np.lexsort((step_of[split], row))  # each row's changes in step order
        events = (step_of[split][order], row[order], change[order])
        _count_right(state, events, truth[start:start + chunk], k_max, intervals)
    return np.cumsum(intervals)[:k_max + 1]


def _count_right(state: np.ndarray, events, y: np.ndarray, k_max: int, intervals: np.ndarray) -> None:
    """Adds to `intervals` (a difference array over steps) each row's spans of right predictions:
    from step 0 with `state`, then after each of its `events` (steps, rows, changes; sorted by
    row, then step) until its next one."""
    n = len(y)
    steps, rows, changes = events
    rank = np.arange(len(rows)) - np.searchsorted(rows, rows)  # position among the row's own changes
    following = np.full(len(rows), k_max + 1)
    same = rows[1:] == rows[:-1]
    following[:-1][same] = steps[1:][same]
    first = np.full(n, k_max + 1)
    first[rows[rank == 0]] = steps[rank == 0]
    right = most_probable(state) == y  # from step 0 until the row's first change
    intervals[0] += right.sum()
    np.add.at(intervals, first[right], -1)
    state = state.copy()
    for r in range(int(rank.max()) + 1 if len(rank) else 0):
        at = np.flatnonzero(rank == r)
        who = rows[at]
        state[who] += changes[at]
        right = most_probable(state[who]) == y[who]
        np.add.at(intervals, steps[at][right], 1)
        np.add.at(intervals, following[at][right], -1)


def _checked(function, *args):
    """`function(*args)` after a look at the clock: a loop of whole-tree evaluations."""
    budget.check_time(budget.REPEATED)
    return function(*args)


def _prefix_losses(grown: Tree, sequence: list, data: Dataset) -> np.ndarray | None:
    """Error rate (regression: mean squared error) on `data` of `grown` after the first m links
    of its weakest-link `sequence`, for m = 0..len(sequence); None when some row would be shared
    between branches (a missing or unseen value), which the caller then predicts tree by tree.

    Each row is routed once. A pruned node's descendants are never in the sequence after it, so
    along a row's path the links come deepest first: after m links the row is predicted at the
    highest pruned node of its path, and each link changes the loss of its own rows only."""
    if len(data.frame) == 0:
        return None
    flat, rows = grown.encoded_rows(grown.prepare(data.frame))
    if rows.has_unknown(flat):
        return None
    by_id = {node.id: node for node in grown.nodes()}
    size = max(by_id) + 1
    pruned_at = np.full(size, len(sequence) + 1)
    for m, link in enumerate(sequence, start=1):
        pruned_at[link.node.id] = m
    if grown.is_regression:
        value = np.zeros(size)
        for node in by_id.values():
            value[node.id] = node.value
        y = pd.to_numeric(data.frame[data.target]).to_numpy(dtype=float)
    else:
        classes = {c: i for i, c in enumerate(grown.classes)}
        truth = np.array([classes.get(label, -1) for label in labels_of(data.frame[data.target])])
    predicted = np.zeros(size, dtype=np.int64)
    if not grown.is_regression:
        for node in by_id.values():
            predicted[node.id] = classes[node.prediction]

    def loss(nodes: np.ndarray, which: np.ndarray) -> np.ndarray:
        if grown.is_regression:
            return (value[nodes] - y[which]) ** 2
        return (predicted[nodes] != truth[which]).astype(float)

    # each node's nearest proper ancestor in the sequence (-1: none): a row climbs from one pruned
    # node to the next, not through every node of its path (a deep tree has few links)
    linked, up = (pruned_at <= len(sequence)).tolist(), [-1] * size
    for node in by_id.values():  # pre-order: a parent before its children
        nearest = node.id if linked[node.id] else up[node.id]
        for child in node.children:
            up[child.id] = nearest
    up = np.array(up, dtype=np.int64)
    everyone = np.arange(len(data.frame))
    current = leaves(flat, rows).astype(np.int64)  # where each row is predicted so far
    change = np.zeros(len(sequence) + 2)
    total = loss(current, everyone).sum()
    who, at = everyone, up[current]
    while (climbing := at >= 0).any():  # up each row's path; each pruned ancestor takes over its rows
        who, at = who[climbing], at[climbing]
        np.add.at(change, pruned_at[at], loss(at, who) - loss(current[who], who))
        current[who] = at
        at = up[at]
    return (total + np.cumsum(change)[:len(sequence) + 1]) / len(data.frame)
