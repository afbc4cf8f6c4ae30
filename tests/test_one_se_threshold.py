"""The 1-SE rule's threshold (Breiman et al. 1984, 3.4.3) that cost-complexity pruning by
cross-validation records, recomputed fold by fold with exact fractions."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

import dtlearn
from dtlearn.evaluation import fold_indices, subset


def fold_errors(tree: dtlearn.Tree, k: int, seed: int, alpha: float) -> list[Fraction]:
    """Each fold's error rate, as a fraction of its rows, of the tree grown on the other folds
    and pruned at `alpha` by the public `prune` (not cost_complexity_cv's prefix losses)."""
    data, errors = tree.data, []
    for held_out in fold_indices(data, k, seed):
        train = subset(data, np.setdiff1d(np.arange(len(data.frame)), held_out))
        test = subset(data, held_out)
        pruned = dtlearn.prune(dtlearn.fit(train, "cart"), "cost_complexity", alpha=alpha)
        wrong = round((1 - dtlearn.accuracy(pruned, test)) * len(held_out))
        errors.append(Fraction(wrong, len(held_out)))
    return errors


@pytest.mark.parametrize("seed", [0, 1])
def test_the_threshold_is_the_lowest_cv_error_plus_its_standard_error(seed):
    tree = dtlearn.fit(dtlearn.load_dataset("iris"), "cart")
    table = dtlearn.cost_complexity_cv(tree, 5, seed)
    # each subtree's mean and SE from its five fold error fractions: mean = sum / 5,
    # SE = sample standard deviation / sqrt(5); the lowest mean, a tie going to the larger alpha
    rows = []
    for probe, alpha in zip(table["probe_alpha"], table["alpha"]):
        errors = fold_errors(tree, 5, seed, float(probe))
        mean = sum(errors) / 5
        variance = sum((e - mean) ** 2 for e in errors) / 4
        rows.append((mean, -alpha, math.sqrt(variance) / math.sqrt(5)))
    mean, _, se = min(rows)
    expected = float(mean) + se
    pruned = dtlearn.prune(tree, "cost_complexity", cv=5, seed=seed, one_se=True)
    assert pruned.pruning["one_se_threshold"] == pytest.approx(expected, rel=1e-12)
    assert dtlearn.api.one_se_threshold(table) == pruned.pruning["one_se_threshold"]
    # the 1-SE choice is the largest alpha whose mean is at most the threshold
    within = [-negated for (m, negated, _) in rows if float(m) <= expected + 1e-12]
    assert pruned.pruning["alpha"] == max(within)


def test_the_threshold_is_recorded_whichever_subtree_is_chosen():
    # without the 1-SE rule the chart still draws the rule's line: the same bound
    tree = dtlearn.fit(dtlearn.load_dataset("iris"), "cart")
    with_rule = dtlearn.prune(tree, "cost_complexity", cv=5, seed=0, one_se=True)
    without = dtlearn.prune(tree, "cost_complexity", cv=5, seed=0, one_se=False)
    assert without.pruning["one_se_threshold"] == with_rule.pruning["one_se_threshold"]
    assert "one_se_threshold" not in dtlearn.prune(tree, "cost_complexity", alpha=0.01).pruning
