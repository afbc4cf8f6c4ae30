"""The public compositions: fit (grow, then prune when the settings say so), prune by any
method (alpha chosen by cross-validation), cross-validation and the overfitting curve.

This module sits above `induction` (growing) and `pruning`: the modules below never import it.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from . import pruning
from .data import Dataset
from .evaluation import CrossValidation, accuracy, fold_indices, mean_squared_error, subset
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
    subtree_raising=), "cost_complexity" (alpha= or cv=k, one_se=, seed=, risk=).

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
                     seed: int = 0, risk: str = "impurity") -> Tree:
    """Weakest-link pruning up to `alpha`, or with the alpha chosen by `cv`-fold
    cross-validation (lowest mean error; with `one_se`, the largest alpha within one standard
    error of it, Breiman et al.'s 1-SE rule)."""
    if (alpha is None) == (cv is None):
        raise ValueError("Give either alpha or cv (the number of cross-validation folds).")
    info = {}
    if cv is not None:
        table = cost_complexity_cv(tree, cv, seed, risk)
        alpha = float(table.loc[table["chosen_1se" if one_se else "chosen"], "alpha"].iloc[0])
        info.update(cv_table=table, one_se=one_se)
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
        train = subset(data, np.setdiff1d(np.arange(len(data.frame)), held_out))
        test = subset(data, held_out)
        grown = fit_with(train, resolve_task(tree.settings, train))
        sequence = pruning.weakest_links(grown, risk)  # once per fold; each probe takes a prefix
        for j, a in enumerate(probes):
            pruned = pruning.with_steps(grown, pruning.prunes_up_to(grown, sequence, float(a)), {})
            errors[f, j] = mean_squared_error(pruned, test) if tree.is_regression else 1 - accuracy(pruned, test)
    mean, se = errors.mean(axis=0), errors.std(axis=0, ddof=1) / np.sqrt(k)
    best = int(np.flatnonzero(mean <= mean.min() + 1e-12).max())  # ties: the simpler tree (larger alpha)
    within = np.flatnonzero(mean <= mean[best] + se[best])
    table = pd.DataFrame({"alpha": alphas, "probe_alpha": probes, "n_leaves": path["n_leaves"],
                          "cv_error": mean, "cv_se": se})
    table["chosen"] = np.arange(len(table)) == best
    table["chosen_1se"] = np.arange(len(table)) == within.max()
    return table


def cross_validate(data: Dataset, algorithm: str = "cart", k: int = 5, seed: int = 0, **settings) -> CrossValidation:
    """Stratified k-fold cross-validation of `fit(data, algorithm, **settings)`."""
    scores = []
    for held_out in fold_indices(data, k, seed):
        train = subset(data, np.setdiff1d(np.arange(len(data.frame)), held_out))
        tree = fit(train, algorithm, **settings)
        scorer = mean_squared_error if tree.is_regression else accuracy
        scores.append(scorer(tree, subset(data, held_out)))
    return CrossValidation(tuple(scores))


def overfitting_curve(tree: Tree, train: Dataset, validation: Dataset) -> pd.DataFrame:
    """Training and validation accuracy of the tree after each growth step, against its size
    (Mitchell 1997, fig. 3.6: training accuracy keeps rising, validation accuracy peaks and falls)."""
    rows = []
    for k in range(tree.growth_steps + 1):
        partial = tree.at_step(k)
        rows.append({"step": k, "nodes": partial.n_nodes, "leaves": partial.n_leaves,
                     "train_accuracy": accuracy(partial, train),
                     "validation_accuracy": accuracy(partial, validation)})
    return pd.DataFrame(rows)
