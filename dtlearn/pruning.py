"""Pruning, recorded step by step like growth. Each method returns a new Tree whose steps are
the grown tree's steps followed by the pruning trace (`tree.pruning_steps`), so replaying
`tree.at_step(k)` shows the tree being pruned one decision at a time.

- validation_prepruning (seed 000, 3.1): in growth order, keep a split only if it makes fewer
  validation errors than the node as a leaf; on a tie the split is refused (a leaf is simpler).
- reduced_error (seeds 000/001; Quinlan 1987): repeatedly replace by a leaf the subtree whose
  removal gains the most validation accuracy, while accuracy does not drop.
- pessimistic (C4.5 / Weka's J48; seed 002): bottom-up, compare upper confidence bounds
  U_CF(E, N) of the errors of a leaf, of the subtree and of its largest branch (subtree raising).
- cost_complexity (Breiman et al. 1984; seed 002): the weakest-link sequence of subtrees.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from statistics import NormalDist

import numpy as np
import pandas as pd

from .data import Dataset, label
from .encoding import codes_for
from .impurity import IMPURITY
from .tree import KEEP, PRUNE, RAISE, Node, Step, Tree, summarize

METHODS = ("validation_prepruning", "reduced_error", "pessimistic", "cost_complexity")


@dataclass(eq=False)
class _Work:
    """A mutable copy of a node while a pruning method works on it."""

    node: Node
    stats: np.ndarray
    children: list = field(default_factory=list)
    test: object = None
    fractions: tuple = ()
    rows: np.ndarray | None = None  # training row weights reaching it (pessimistic pruning)

    @property
    def id(self) -> int:
        return self.node.id

    @property
    def is_leaf(self) -> bool:
        return not self.children

    def walk(self):
        yield self
        for child in self.children:
            yield from child.walk()

    def leaves(self):
        return (w for w in self.walk() if w.is_leaf)


def _work(node: Node) -> _Work:
    return _Work(node, _stats(node), [_work(c) for c in node.children], node.test, node.branch_fractions)


def _stats(node: Node) -> np.ndarray:
    if node.value is not None:
        return np.array([node.weight, node.value])
    return np.asarray(node.class_weights, dtype=float)


def prune(tree: Tree, method: str, **options) -> Tree:
    """A pruned copy of `tree` whose `.pruning_steps` is the trace of `method`.

    >>> from dtlearn import fit, load_dataset
    >>> pruned = prune(fit(load_dataset("iris"), "c45", collapse=False), "pessimistic")
    >>> pruned.n_leaves <= fit(load_dataset("iris"), "c45", collapse=False).n_leaves
    True
    """
    if method not in METHODS:
        raise ValueError(f"Unknown pruning method '{method}'. Choose one of: {', '.join(METHODS)}.")
    if not tree.is_complete:
        raise ValueError("Prune a complete tree, not a partial one (tree.at_step(k)).")
    run = {"validation_prepruning": validation_prepruning, "reduced_error": reduced_error,
           "pessimistic": pessimistic, "cost_complexity": cost_complexity}[method]
    return run(tree, **options)


def _with_steps(tree: Tree, new_steps: list[Step], info: dict) -> Tree:
    steps = tree.steps + tuple(new_steps)
    return replace(tree, steps=steps, total_steps=len(steps), pruning=info)


def _step(tree: Tree, number: int, work: _Work, action: str, reason: str, details: dict, **extra) -> Step:
    node = work.node
    return Step(number=number, node_id=work.id, parent_id=None, branch=node.branch, depth=node.depth,
                path=node.path, class_weights=node.class_weights, prediction=node.prediction,
                impurity=node.impurity, weight=node.weight, value=node.value, action=action,
                stop=action if action != KEEP else None, reason=reason, details=details, **extra)


# --- validation data at every node ----------------------------------------------------------

def _validation_frame(tree: Tree, validation) -> pd.DataFrame:
    frame = validation.frame if isinstance(validation, Dataset) else validation
    if not isinstance(frame, pd.DataFrame) or tree.target not in frame.columns:
        raise ValueError(f"Give validation rows as a Dataset or DataFrame with the target column '{tree.target}'.")
    if len(frame) == 0:
        raise ValueError("The validation set is empty: choose a larger validation fraction.")
    return tree.prepare(frame)


def _route(work: _Work, frame: pd.DataFrame, weights: np.ndarray, into: dict) -> None:
    """Weight of every row at every node; a row with a missing tested value is shared by the
    branches in their training proportions (as in prediction)."""
    into[work.id] = weights
    if work.is_leaf:
        return
    branch = work.test.branch_of(frame[work.test.attribute])
    for b, child in enumerate(work.children):
        share = np.where(branch == b, 1.0, np.where(branch < 0, work.fractions[b], 0.0))
        _route(child, frame, weights * share, into)


class _Losses:
    """Validation loss of each node as a leaf: misclassified weight (regression: squared error)."""

    def __init__(self, tree: Tree, root: _Work, validation) -> None:
        frame = _validation_frame(tree, validation)
        self.total = float(len(frame))
        self.weights: dict[int, np.ndarray] = {}
        _route(root, frame, np.ones(len(frame)), self.weights)
        self.regression = tree.is_regression
        if self.regression:
            self.y = pd.to_numeric(frame[tree.target], errors="coerce").to_numpy(dtype=float)
        else:
            self.y = codes_for(frame[tree.target], tree.classes)
        self.classes = tree.classes

    def counts(self, work: _Work) -> dict:
        """Validation class weights at the node, for the trace."""
        w = self.weights[work.id]
        if self.regression:
            return {"n": round(float(w.sum()), 6)}
        return {c: round(float(w[self.y == i].sum()), 6) for i, c in enumerate(self.classes)}

    def leaf(self, work: _Work) -> float:
        w = self.weights[work.id]
        if self.regression:
            return float((w * (self.y - work.node.value) ** 2).sum())
        return float(w[self.y != self.classes.index(work.node.prediction)].sum())

    def subtree(self, work: _Work) -> float:
        return sum(self.leaf(leaf) for leaf in work.leaves())

    def accuracy(self, errors: float) -> float:
        """Validation accuracy (regression: validation mean squared error) for these errors."""
        return errors / self.total if self.regression else 1.0 - errors / self.total

    @property
    def score_name(self) -> str:
        return "validation MSE" if self.regression else "accuracy"


# --- 1. pre-pruning on a validation set -------------------------------------------------------

def validation_prepruning(tree: Tree, validation) -> Tree:
    """Seed 000, 3.1: before each split (in growth order) compare the validation errors with
    the node as a leaf and with the split (its children as leaves); split only if the split
    makes strictly fewer errors. A refused split's subtree is never grown."""
    root = _work(tree.root)
    losses = _Losses(tree, root, validation)
    order = {step.node_id: step.number for step in tree.steps}
    internal = sorted((w for w in root.walk() if not w.is_leaf), key=lambda w: order[w.id])
    refused: set[int] = set()
    errors = losses.leaf(root)  # the tree so far: only the root, as a leaf
    steps, number = [], len(tree.steps)
    for work in internal:
        if _under(work, refused, root):
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
            refused.add(work.id)
            steps.append(_step(tree, number, work, PRUNE, (
                f"Splitting on {work.test.attribute} would give {_n(split)} validation errors instead of "
                f"{_n(as_leaf)} ({losses.score_name} {before:.3f} -> {after:.3f}): no improvement, so the node stays a "
                "leaf (pre-pruning; a tie also keeps the leaf)."), details))
    return _with_steps(tree, steps, {"method": "validation_prepruning"})


def _under(work: _Work, refused: set, root: _Work) -> bool:
    path = _ancestors(root, work.id)
    return any(a in refused for a in path)


def _ancestors(root: _Work, target: int, trail=()) -> tuple:
    if root.id == target:
        return trail
    for child in root.children:
        found = _ancestors(child, target, trail + (root.id,))
        if found is not None:
            return found
    return None


# --- 2. reduced-error pruning ---------------------------------------------------------------

def reduced_error(tree: Tree, validation) -> Tree:
    """Quinlan (1987), as in seed 001: repeatedly evaluate pruning each internal node (its
    subtree becomes a leaf predicting the node's training majority) on the validation set and
    make the prune that most improves validation accuracy, as long as accuracy does not drop.
    Ties: the prune removing more nodes, then the node first in growth order."""
    root = _work(tree.root)
    losses = _Losses(tree, root, validation)
    order = {step.node_id: step.number for step in tree.steps}
    steps, number = [], len(tree.steps)
    while not root.is_leaf:
        errors = losses.subtree(root)
        options = []
        for work in (w for w in root.walk() if not w.is_leaf):
            gain = losses.subtree(work) - losses.leaf(work)
            options.append((gain, sum(1 for _ in work.walk()), -order[work.id], work))
        gain, _, _, best = max(options, key=lambda o: o[:3])
        if gain < -1e-12:
            break
        number += 1
        before, after = losses.accuracy(errors), losses.accuracy(errors - gain)
        details = {"validation_counts": losses.counts(best), "errors_as_leaf": losses.leaf(best),
                   "errors_of_subtree": losses.subtree(best), "accuracy_before": before, "accuracy_after": after,
                   "candidates": {o[3].id: round(o[0], 6) for o in options}}
        steps.append(_step(tree, number, best, PRUNE, (
            f"Replacing the subtree by a leaf ({best.node.prediction}) changes validation errors from "
            f"{_n(losses.subtree(best))} to {_n(losses.leaf(best))}: {losses.score_name} {before:.3f} -> {after:.3f}, "
            "the best prune available (reduced-error pruning)."), details))
        best.children = []
    return _with_steps(tree, steps, {"method": "reduced_error"})


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
    z = NormalDist().inv_cdf(1 - confidence)
    f = (e + 0.5) / n
    r = (f + z * z / (2 * n) + z * np.sqrt(f / n - f * f / n + z * z / (4 * n * n))) / (1 + z * z / n)
    return float(r * n - e)


def _estimated(weights: np.ndarray, confidence: float) -> float:
    total = float(weights.sum())
    if total <= 1e-6:
        return 0.0
    wrong = total - float(weights.max())
    return wrong + added_errors(total, wrong, confidence)


def pessimistic(tree: Tree, confidence: float = 0.25, subtree_raising: bool = True) -> Tree:
    """C4.5's pruning as Weka's J48 does it: bottom-up, a node becomes a leaf when the leaf's
    estimated errors N*U_CF(E, N) are at most those of its subtree (and of its largest branch,
    + 0.1), and is replaced by its largest branch when that branch (with all of the node's
    training rows re-sorted into it) is estimated to err no more than the subtree."""
    if tree.is_regression:
        raise ValueError("Pessimistic (C4.5) pruning is for classification trees.")
    if not 0 < confidence <= 0.5:
        raise ValueError("The confidence CF must be in (0, 0.5]; C4.5's default is 0.25.")
    root = _work(tree.root)
    frame, y = _training(tree)
    _route_training(root, frame, np.ones(len(frame)))
    steps: list[Step] = []
    _pessimistic(tree, root, frame, y, confidence, subtree_raising, steps, len(tree.steps))
    return _with_steps(tree, steps, {"method": "pessimistic", "confidence": confidence,
                                     "subtree_raising": subtree_raising})


def _training(tree: Tree):
    if tree.data is None:
        raise ValueError("This tree does not carry its training data; fit it with dtlearn.fit.")
    frame = tree.prepare(tree.data.frame)
    return frame, codes_for(frame[tree.target], tree.classes)


def _route_training(work: _Work, frame, weights) -> None:
    """Re-sort training rows through a subtree, recomputing each split's branch shares from
    the rows that reach it (J48's resetDistribution)."""
    work.rows = weights
    if work.is_leaf:
        return
    branch = work.test.branch_of(frame[work.test.attribute])
    known = np.array([weights[branch == b].sum() for b in range(len(work.children))])
    work.fractions = tuple(known / known.sum()) if known.sum() > 0 else work.fractions
    for b, child in enumerate(work.children):
        share = np.where(branch == b, 1.0, np.where(branch < 0, work.fractions[b], 0.0))
        _route_training(child, frame, weights * share)


def _class_weights(rows: np.ndarray, y: np.ndarray, k: int) -> np.ndarray:
    known = y >= 0
    return np.bincount(y[known], weights=rows[known], minlength=k).astype(float)


def _pessimistic(tree, work: _Work, frame, y, cf, raising, steps, offset) -> None:
    if work.is_leaf:
        return
    for child in work.children:
        _pessimistic(tree, child, frame, y, cf, raising, steps, offset)
    k = len(tree.classes)
    here = _class_weights(work.rows, y, k)
    child_sizes = [float(_class_weights(c.rows, y, k).sum()) for c in work.children]
    largest = int(np.argmax(child_sizes))
    leaf = _estimated(here, cf)
    subtree = sum(_estimated(_class_weights(l.rows, y, k), cf) for l in work.leaves())
    branch = _branch_errors(work.children[largest], work.rows, frame, y, k, cf) if raising else float("inf")
    n, e = float(here.sum()), float(here.sum() - here.max())
    details = {"N": n, "E": e, "U_CF": (e + added_errors(n, e, cf)) / n if n else 0.0,
               "errors_as_leaf": leaf, "errors_of_subtree": subtree, "errors_of_largest_branch": branch,
               "confidence": cf}
    number = offset + len(steps) + 1
    if leaf <= subtree + 0.1 and leaf <= branch + 0.1:
        work.children = []
        steps.append(_step(tree, number, work, PRUNE, (
            f"As a leaf the node's estimated errors are {leaf:.3f} (N = {_n(n)}, E = {_n(e)}, "
            f"U_CF = {details['U_CF']:.3f}), not more than the subtree's {subtree:.3f} (+0.1): "
            "the subtree is replaced by a leaf."), details))
        return
    if branch <= subtree + 0.1:
        raised = work.children[largest]
        work.test, work.children, work.node = raised.test, raised.children, work.node
        _route_training(work, frame, work.rows)
        new_stats = tuple((w.id, tuple(_class_weights(w.rows, y, k)), w.fractions if not w.is_leaf else ())
                          for w in work.walk())
        steps.append(_step(tree, number, work, RAISE, (
            f"The largest branch, with all {_n(n)} rows of this node re-sorted into it, is estimated to make "
            f"{branch:.3f} errors, not more than the subtree's {subtree:.3f} (+0.1): it is raised into "
            "this node's place (subtree raising)."), details, raised_child=raised.id, new_stats=new_stats))
        _pessimistic(tree, work, frame, y, cf, raising, steps, offset)
        return
    steps.append(_step(tree, number, work, KEEP, (
        f"The subtree's estimated errors {subtree:.3f} are lower than a leaf's {leaf:.3f}: the subtree stays."),
        details))


def _branch_errors(work: _Work, rows, frame, y, k, cf) -> float:
    """Estimated errors if all of `rows` were sorted through this subtree (J48's
    getEstimatedErrorsForBranch), without changing it."""
    if work.is_leaf:
        return _estimated(_class_weights(rows, y, k), cf)
    branch = work.test.branch_of(frame[work.test.attribute])
    known = np.array([rows[branch == b].sum() for b in range(len(work.children))])
    fractions = known / known.sum() if known.sum() > 0 else np.asarray(work.fractions)
    total = 0.0
    for b, child in enumerate(work.children):
        share = np.where(branch == b, 1.0, np.where(branch < 0, fractions[b], 0.0))
        total += _branch_errors(child, rows * share, frame, y, k, cf)
    return total


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
    adjusted = np.asarray(node.class_weights) * (1.0 if tree.class_factor is None else np.asarray(tree.class_factor))
    return (mass - float(adjusted.max(initial=0.0))) / total


def _weakest_links(tree: Tree, risk: str):
    """The weakest-link sequence: per prune (alpha, pruned node, g of every internal node,
    R(t), R(T_t), |leaves(T_t)|). Ties in g go to the node first in growth order."""
    if risk not in ("impurity", "error"):
        raise ValueError("risk must be 'impurity' (scikit-learn) or 'error' (misclassification, rpart).")
    root = _work(tree.root)
    total = _mass(tree, tree.root)
    order = {step.node_id: step.number for step in tree.steps}
    own = {w.id: _risk(tree, w.node, total, risk) for w in root.walk()}
    sequence = []
    while not root.is_leaf:
        below, leaves = {}, {}
        _subtree_sums(root, own, below, leaves)  # one bottom-up pass: R(T_t) and |leaves(T_t)|
        g = {w.id: ((own[w.id] - below[w.id]) / (leaves[w.id] - 1), w)
             for w in root.walk() if not w.is_leaf}
        weakest = min(g, key=lambda i: (g[i][0], order[i]))
        alpha, work = g[weakest]
        alpha = alpha if alpha > 1e-12 else 0.0  # rounding noise of a prune that changes nothing
        sequence.append((alpha, work, {i: v for i, (v, _) in g.items()}, own[work.id],
                         below[work.id], leaves[work.id]))
        work.children = []
    return sequence


def _subtree_sums(work: _Work, own: dict, below: dict, leaves: dict) -> None:
    if work.is_leaf:
        below[work.id], leaves[work.id] = own[work.id], 1
        return
    for child in work.children:
        _subtree_sums(child, own, below, leaves)
    below[work.id] = sum(below[c.id] for c in work.children)
    leaves[work.id] = sum(leaves[c.id] for c in work.children)


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
    for alpha, work, _, r_node, r_branch, size in _weakest_links(tree, risk):
        impurity += r_node - r_branch
        n_leaves -= size - 1
        rows.append({"alpha": alpha, "impurity": impurity, "n_leaves": n_leaves, "pruned_node": work.id})
    path = pd.DataFrame(rows)
    path["nodes"] = 2 * path["n_leaves"] - 1 if _binary(tree) else np.nan
    path["cp"] = path["alpha"] / root_risk if root_risk > 0 else np.nan
    path["rel_error"] = path["impurity"] / root_risk if root_risk > 0 else np.nan
    path["nsplit"] = path["n_leaves"] - 1 if _binary(tree) else np.nan
    return path


def rpart_cp_table(tree: Tree) -> pd.DataFrame:
    """rpart's complexity-parameter table (printcp): one row per distinct subtree, CP =
    alpha / R(root) with misclassification risk, nsplit, rel error = R(T) / R(root); subtrees
    that tie on alpha are pruned together, as rpart does."""
    path = cost_complexity_path(tree, risk="error").drop_duplicates("alpha", keep="last")
    table = path[["cp", "nsplit", "rel_error", "n_leaves", "alpha"]].iloc[::-1].reset_index(drop=True)
    return table.rename(columns={"cp": "CP", "rel_error": "rel error"})


def _binary(tree: Tree) -> bool:
    return all(len(node.children) in (0, 2) for node in tree.root.walk())


def cost_complexity(tree: Tree, alpha: float | None = None, cv: int | None = None, one_se: bool = False,
                    seed: int = 0, risk: str = "impurity") -> Tree:
    """Weakest-link pruning up to `alpha` (all prunes with g(t) <= alpha), or with the alpha
    chosen by `cv`-fold cross-validation (lowest mean error; with `one_se`, the largest alpha
    within one standard error of it, Breiman et al.'s 1-SE rule)."""
    if (alpha is None) == (cv is None):
        raise ValueError("Give either alpha or cv (the number of cross-validation folds).")
    info = {"method": "cost_complexity", "risk": risk}
    if cv is not None:
        table = cost_complexity_cv(tree, cv, seed, risk)
        alpha = float(table.loc[table["chosen_1se" if one_se else "chosen"], "alpha"].iloc[0])
        info.update(cv_table=table, one_se=one_se)
    if alpha < 0:
        raise ValueError("alpha must be >= 0.")
    info["alpha"] = alpha
    return _with_steps(tree, _prunes_up_to(tree, _weakest_links(tree, risk), alpha), info)


def _prunes_up_to(tree: Tree, sequence, alpha: float) -> list[Step]:
    steps, number = [], len(tree.steps)
    for g_alpha, work, g, r_node, r_branch, size in sequence:
        if g_alpha > alpha + 1e-12:
            break
        number += 1
        details = {"alpha": g_alpha, "R(t)": r_node, "R(T_t)": r_branch, "leaves": size,
                   "g": {i: round(v, 10) for i, v in g.items()}}
        steps.append(_step(tree, number, work, PRUNE, (
            f"Weakest link: g(t) = (R(t) - R(T_t)) / (|T_t| - 1) = ({r_node:.4f} - {r_branch:.4f}) / "
            f"({size} - 1) = {g_alpha:.4f} is the smallest, and not above alpha = {alpha:.4f}: the "
            "subtree becomes a leaf."), details))
    return steps


def cost_complexity_cv(tree: Tree, k: int = 5, seed: int = 0, risk: str = "impurity") -> pd.DataFrame:
    """Cross-validated error for each subtree of the sequence, at the geometric mean of its
    alpha interval (Breiman et al. 1984; rpart); `chosen` (minimum; on a tie the simpler tree,
    as rpart's table read from the top) and `chosen_1se` (the simplest within one SE)."""
    from .evaluation import accuracy, fold_indices, mean_squared_error, subset
    from .induction import fit

    if tree.data is None:
        raise ValueError("This tree does not carry its training data; fit it with dtlearn.fit.")
    path = cost_complexity_path(tree, risk).drop_duplicates("alpha", keep="last").reset_index(drop=True)
    alphas = path["alpha"].to_numpy()
    probes = np.append(np.sqrt(alphas[:-1] * alphas[1:]), alphas[-1])
    data, options = tree.data, _fit_options(tree)
    errors = np.zeros((k, len(probes)))
    for f, held_out in enumerate(fold_indices(data, k, seed)):
        train = subset(data, np.setdiff1d(np.arange(len(data.frame)), held_out))
        test = subset(data, held_out)
        grown = fit(train, tree.algorithm, **options)
        sequence = _weakest_links(grown, risk)  # once per fold; each probe takes a prefix
        for j, a in enumerate(probes):
            pruned = _with_steps(grown, _prunes_up_to(grown, sequence, float(a)), {})
            errors[f, j] = mean_squared_error(pruned, test) if tree.is_regression else 1 - accuracy(pruned, test)
    mean, se = errors.mean(axis=0), errors.std(axis=0, ddof=1) / np.sqrt(k)
    best = int(np.flatnonzero(mean <= mean.min() + 1e-12).max())  # ties: the simpler tree (larger alpha)
    within = np.flatnonzero(mean <= mean[best] + se[best])
    table = pd.DataFrame({"alpha": alphas, "probe_alpha": probes, "n_leaves": path["n_leaves"],
                          "cv_error": mean, "cv_se": se})
    table["chosen"] = np.arange(len(table)) == best
    table["chosen_1se"] = np.arange(len(table)) == within.max()
    return table


def _fit_options(tree: Tree) -> dict:
    """The settings the tree was grown with, to grow the fold trees the same way."""
    return {name: value for name, value in tree.settings.to_dict().items() if name != "algorithm"}


def _n(value: float) -> str:
    return label(round(float(value), 3))
