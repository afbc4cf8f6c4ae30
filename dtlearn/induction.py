"""Top-down induction as a generator of recorded steps (ID3, C4.5, CART).

At each node, in this order (the first rule that applies makes a leaf):
 1. no training rows reach it                    -> the parent's majority (seed 000, cond. 3)
 2. all rows have one class                      -> pure leaf              (seed 000, cond. 1)
 3. max_depth reached; 4. fewer rows than min_samples_split, at most leaf_size (Zaki's eta), or
    (C4.5) fewer than 2 x min_branch_cases;
 5. majority fraction >= min_purity (Zaki's pi)
 6. no attribute left, or all rows identical on the attributes left (seed 000, cond. 2)
 7. no candidate satisfies the split rules (min_samples_leaf, min_branch_cases, ...)
 8. the best gain does not exceed min_gain > 0 (seed 003), or is 0 where stop_at_zero_gain is set
otherwise the best candidate (see `splits` for the tie-break) splits the node.
Order: depth-first pre-order, branches in their order. C4.5's collapse steps follow growth.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Iterator

import numpy as np
import pandas as pd

from .candidates import data_value_below
from .conditions import ThresholdTest
from .data import Dataset, label, ordered_labels
from .encoding import Encoded
from .settings import Settings, make_settings
from .surrogates import find_surrogates
from .splits import NO_KNOWN, ONE_BRANCH, SMALL_LEAF, TIE, USED, Evaluation, evaluate
from .tree import COLLAPSE, LEAF, OWN_VALUE, SPLIT, Step, Tree, summarize


def fit(data: Dataset, algorithm: str = "cart", **settings) -> Tree:
    """Grow a tree with a preset (`id3`, `c45`, `cart`) and optional settings.

    >>> from dtlearn import load_dataset
    >>> tree = fit(load_dataset("tennis"), "id3")
    >>> tree.root.test.attribute, tree.n_leaves, tree.depth
    ('outlook', 5, 2)
    """
    data = _as_dataset(data)
    config = resolve_task(make_settings(algorithm, **settings), data)
    data = with_missing_as_value(data) if config.missing_values == "own_value" else data
    encoded = encode(data, config)
    steps = list(grow(encoded, config))
    if config.collapse:
        grown = _tree(encoded, config, tuple(steps), len(steps))
        steps += list(collapse_steps(grown, len(steps)))
    tree = _tree(encoded, config, tuple(steps), len(steps))
    if config.prune:
        from .pruning import pessimistic

        tree = pessimistic(tree, config.confidence, config.subtree_raising)
    return tree


def split_table(data: Dataset, algorithm: str = "id3", **settings) -> pd.DataFrame:
    """Every candidate split at the root of `data`, one row each, with every measure.

    It is the table of `fit(...)`'s first step: when a stopping rule makes the root a leaf,
    no row is marked chosen."""
    data = _as_dataset(data)
    config = resolve_task(make_settings(algorithm, **settings), data)
    data = with_missing_as_value(data) if config.missing_values == "own_value" else data
    return next(grow(encode(data, config), config)).table


def with_missing_as_value(data: Dataset) -> Dataset:
    """Missing categorical cells become the value "(missing)" (seed 003's "missing data" branch)."""
    frame = data.frame.copy()
    for attribute, kind in data.kinds.items():
        if kind == "categorical" and frame[attribute].isna().any():
            frame[attribute] = frame[attribute].astype(object).where(frame[attribute].notna(), OWN_VALUE)
    return Dataset(frame, data.target, data.kinds)


def fill_values(data: Dataset) -> dict:
    """Each attribute's most frequent training value (numbers: the median), for filling gaps."""
    values = {}
    for attribute, kind in data.kinds.items():
        column = data.frame[attribute].dropna()
        if column.empty:
            continue
        if kind == "numeric":
            values[attribute] = float(column.median())
        else:
            labels = column.map(label)
            counts = labels.value_counts()
            top = counts.max()
            values[attribute] = min(v for v, c in counts.items() if c == top)  # ties: first in text order
    return values


def infer_task(data: Dataset) -> str:
    """'regression' for a numeric target with more than 10 distinct values, else 'classification'."""
    column = data.frame[data.target]
    numeric = pd.api.types.is_numeric_dtype(column) and not pd.api.types.is_bool_dtype(column)
    return "regression" if numeric and column.nunique() > 10 else "classification"


def resolve_task(settings: Settings, data: Dataset) -> Settings:
    """The settings with `task` decided (auto: `infer_task`) and checked against the data."""
    task = settings.task or infer_task(data)
    if task == "regression":
        if settings.algorithm not in ("cart", "zaki") or settings.categorical_split != "subset":
            raise ValueError("Regression trees are CART's: choose the cart algorithm for a numeric target.")
        if settings.priors is not None or settings.class_weight is not None:
            raise ValueError("Class priors and class weights apply to classification, not regression.")
        if settings.min_purity is not None:
            raise ValueError("min_purity (Zaki's pi) applies to classification, not regression.")
        if settings.prune:
            raise ValueError("prune=True is C4.5's pessimistic pruning, for classification; prune a regression "
                             "tree with dtlearn.prune(tree, 'cost_complexity', ...).")
        criterion = "squared_error"
    else:
        if settings.criterion == "squared_error":
            raise ValueError("squared_error is the regression criterion; for classes use gini, entropy "
                             "or gain_ratio.")
        criterion = settings.criterion
    return replace(settings, task=task, criterion=criterion)


def encode(data: Dataset, settings: Settings) -> Encoded:
    if settings.task == "regression":
        return Encoded(data, "regression")
    return Encoded(data, "classification", class_factors(data, settings))


def class_factors(data: Dataset, settings: Settings) -> tuple | None:
    """Per-class multipliers realising priors and class weights (None: all 1).

    Priors pi_j (Breiman et al. 1984; seed 002): a case of class j counts pi_j / (N_j / N), so
    that each class's share of the root is its prior; "equal" gives every class 1/k, which
    labels a node j when N_j(node)/N_j(root) is largest (seed 002's rule). Class weights
    multiply the same way (scikit-learn's class_weight; "balanced" = N / (k N_j))."""
    if settings.priors in (None, "data") and settings.class_weight is None:
        return None
    classes = ordered_labels(data.frame[data.target])
    counts = data.frame[data.target].map(label).value_counts()
    n_j = np.array([counts.get(c, 0) for c in classes], dtype=float)
    n, k = n_j.sum(), len(classes)
    factor = np.ones(k)
    if settings.priors == "equal":
        factor *= n / (k * n_j)
    elif isinstance(settings.priors, dict):
        factor *= _per_class(settings.priors, classes, "priors", require_all=True) * n / n_j
    if settings.class_weight == "balanced":
        factor *= n / (k * n_j)
    elif isinstance(settings.class_weight, dict):
        factor *= _per_class(settings.class_weight, classes, "class_weight", require_all=False)
    return tuple(float(f) for f in factor)


def _per_class(given: dict, classes, name: str, require_all: bool) -> np.ndarray:
    given = {label(k): v for k, v in given.items()}
    unknown = [c for c in given if c not in classes]
    if unknown:
        raise ValueError(f"{name} names '{unknown[0]}', which is not a class ({', '.join(classes)}).")
    if require_all and set(given) != set(classes):
        raise ValueError(f"{name} must give a value for every class: {', '.join(classes)}.")
    values = np.array([float(given.get(c, 1.0)) for c in classes])
    if (values <= 0).any() or not np.isfinite(values).all():
        raise ValueError(f"{name} must be positive numbers.")
    if require_all and abs(values.sum() - 1) > 1e-6:
        raise ValueError(f"{name} must add up to 1, not {values.sum():g}.")
    return values


def _as_dataset(data) -> Dataset:
    if not isinstance(data, Dataset):
        raise TypeError("Give a dtlearn.Dataset (see dtlearn.read_csv and dtlearn.Dataset).")
    return data


def _tree(encoded: Encoded, settings: Settings, steps: tuple, total: int) -> Tree:
    rows = np.arange(encoded.n_rows)
    root_stats = _node_stats(encoded, rows, np.ones(encoded.n_rows))
    ranges = {a: (float(np.nanmin(encoded.numeric(a))), float(np.nanmax(encoded.numeric(a))))
              for a in encoded.numeric_attributes if not np.isnan(encoded.numeric(a)).all()}
    meta = Tree(encoded.data.target, encoded.classes, dict(encoded.data.kinds), settings, root_stats, 0.0,
                steps, total, ranges, encoded.class_factor, encoded.task, fill_values(encoded.data),
                encoded.data)
    uniform = 0.0 if encoded.is_regression else tuple(1.0 / len(encoded.classes) for _ in encoded.classes)
    return replace(meta, root_impurity=summarize(meta, root_stats, uniform)["impurity"])


def _node_stats(encoded: Encoded, rows, weights) -> tuple:
    """Class weights (classification) or moments (w, w y, w y^2) (regression) of a set of rows."""
    if encoded.is_regression:
        return tuple(float(v) for v in encoded.channels(rows, weights).sum(axis=1))
    return tuple(float(v) for v in encoded.class_weights(rows, weights))


class _Pending:
    """A node waiting for its decision."""

    __slots__ = ("id", "parent_id", "branch", "depth", "path", "rows", "weights", "used", "fallback")

    def __init__(self, **fields) -> None:
        for name, value in fields.items():
            setattr(self, name, value)


def grow(encoded: Encoded, settings: Settings) -> Iterator[Step]:
    """Yield one Step per decision, depth-first pre-order."""
    n = encoded.n_rows
    meta = _tree(encoded, settings, (), 0)
    uniform = 0.0 if encoded.is_regression else tuple(1.0 / len(encoded.classes) for _ in encoded.classes)
    root = _Pending(id=0, parent_id=None, branch=None, depth=0, path=(), rows=np.arange(n),
                    weights=np.ones(n), used=frozenset(), fallback=uniform)
    stack, next_id, number = [root], 1, 0
    while stack:
        node = stack.pop()
        number += 1
        shown = summarize(meta, _node_stats(encoded, node.rows, node.weights), node.fallback)
        common = dict(
            number=number, node_id=node.id, parent_id=node.parent_id, branch=node.branch, depth=node.depth,
            path=node.path, class_weights=shown["class_weights"], impurity=shown["impurity"],
            prediction=shown["prediction"], weight=shown["weight"], value=shown["value"],
        )

        def later(node=node):
            return evaluate(encoded, node.rows, node.weights, settings, node.used)

        stop = _stop_before_evaluating(encoded, settings, node, shown)
        if stop is None:
            evaluation = evaluate(encoded, node.rows, node.weights, settings, node.used)
            stop = _stop_after_evaluating(settings, evaluation)
            later = lambda e=evaluation: e  # noqa: E731
        if stop:
            if encoded.is_regression and settings.leaf_value == "median" and shown["weight"] > 0:
                value = weighted_median(encoded.y[node.rows], node.weights)
                common.update(value=value, prediction=label(round(value, 4)))
            yield Step(action=LEAF, stop=stop[0], reason=stop[1], evaluate=later, **common)
            continue
        test, children, fractions, surrogates = _split(encoded, settings, node, evaluation)
        child_ids = tuple(range(next_id, next_id + len(children)))
        next_id += len(children)
        yield Step(
            action=SPLIT, reason=_split_reason(evaluation, test), test=test, child_ids=child_ids,
            child_weights=tuple(_node_stats(encoded, r, w) for r, w in children),
            branch_fractions=fractions, evaluate=later, found_surrogates=surrogates, **common,
        )
        used = node.used | {test.attribute} if encoded.kind(test.attribute) == "categorical" \
            or settings.numeric_split == "multiway" else node.used
        inherited = shown["value"] if encoded.is_regression else shown["distribution"]
        pending = [
            _Pending(id=child_id, parent_id=node.id, branch=test.branch_labels[b], depth=node.depth + 1,
                     path=node.path + (test.condition(b),), rows=rows, weights=w, used=used,
                     fallback=inherited)
            for b, (child_id, (rows, w)) in enumerate(zip(child_ids, children))
        ]
        stack.extend(reversed(pending))


def weighted_median(values: np.ndarray, weights: np.ndarray) -> float:
    """The smallest value with at least half the weight at or below it (the lower median)."""
    order = np.argsort(values, kind="stable")
    cumulative = np.cumsum(weights[order])
    return float(values[order][np.searchsorted(cumulative, cumulative[-1] / 2)])


def _stop_before_evaluating(encoded, settings: Settings, node, shown):
    total, prediction = shown["weight"], shown["prediction"]
    if total <= 0:
        what = "value" if encoded.is_regression else "majority class"
        return "empty", (f"No training rows reach this branch, so it predicts the parent's {what}, "
                         f"{prediction} (seed 000, stopping condition 3).")
    if encoded.is_regression:
        if shown["impurity"] <= 1e-12 * max(1.0, shown["value"] ** 2):
            return "pure", f"All {_w(total)} rows here have the same value, {prediction}: nothing to reduce."
    elif max(shown["class_weights"]) >= total - 1e-9 * max(total, 1.0):
        return "pure", f"All {_w(total)} rows here are of class {prediction}: the node is pure."
    if settings.max_depth is not None and node.depth >= settings.max_depth:
        return "max_depth", f"The maximum depth {settings.max_depth} is reached: the node becomes a leaf."
    if total < settings.min_samples_split:
        return "min_samples_split", (f"Only {_w(total)} rows, fewer than min_samples_split = "
                                     f"{label(settings.min_samples_split)}: too few to split.")
    if settings.leaf_size is not None and total <= settings.leaf_size:
        return "leaf_size", (f"Only {_w(total)} rows, at most the leaf size eta = {label(settings.leaf_size)} "
                             "(Zaki & Meira): the node becomes a leaf.")
    if settings.min_branch_cases > 0 and total < 2 * settings.min_branch_cases:
        return "min_samples_split", (f"Only {_w(total)} rows: C4.5 needs at least 2 x "
                                     f"{label(settings.min_branch_cases)} to split.")
    if settings.min_purity is not None:
        purity = max(shown["class_weights"]) / total
        if purity >= settings.min_purity:
            return "min_purity", (f"{purity:.3f} of the rows are {prediction}, at least the purity "
                                  f"threshold pi = {label(settings.min_purity)} (Zaki & Meira).")
    if not settings.reuse_attributes and len(node.used) == len(encoded.attributes):
        return "no_attributes", "Every attribute has already been tested on this path: majority leaf."
    return None


def _stop_after_evaluating(settings: Settings, evaluation: Evaluation):
    choice = evaluation.choice
    if choice is None:
        reasons = set(evaluation.bests.reason.tolist())
        if reasons <= {ONE_BRANCH, NO_KNOWN, USED}:
            return "identical", ("All rows here have the same values on every attribute left, so no test "
                                 "can separate them: majority leaf (seed 000, stopping condition 2).")
        if reasons <= {ONE_BRANCH, NO_KNOWN, USED, SMALL_LEAF}:
            return "min_samples_leaf", (f"Every split would leave a branch with fewer than min_samples_leaf = "
                                        f"{label(settings.min_samples_leaf)} rows: majority leaf.")
        return "no_valid_split", "No candidate split satisfies the split rules (see the table): majority leaf."
    if settings.stop_at_zero_gain and choice.gain <= TIE:
        return "zero_gain", "No attribute gives any information gain here: majority leaf."
    if settings.min_gain > 0 and choice.gain <= settings.min_gain:  # seed 003: split if gain > threshold
        return "min_gain", (f"The best gain {choice.gain:.4f} does not exceed min_gain = {label(settings.min_gain)} "
                            "(pre-pruning, seed 003): majority leaf.")
    return None


def _split(encoded: Encoded, settings: Settings, node, evaluation: Evaluation):
    """The chosen test, each branch's (rows, weights) and the branch shares of known weight."""
    choice = evaluation.choice
    block = evaluation.block(choice.attribute)
    test = block.test(choice.index)
    if block.kind == "threshold":
        column = encoded.numeric(choice.attribute)
        if settings.threshold_at_data_value:
            test = ThresholdTest(choice.attribute, data_value_below(column, test.threshold))
        values = column[node.rows]
        branch = np.where(np.isnan(values), -1, np.where(values <= test.threshold, 0, 1))
    else:
        codes = encoded.codes(choice.attribute)[node.rows]
        if block.kind == "multiway":
            branch = codes
        else:
            inside = np.asarray(block.subsets[choice.index])
            branch = np.where(codes < 0, -1, np.where(inside[np.maximum(codes, 0)], 0, 1))
    n_branches = len(test.branch_labels)
    known = np.bincount(branch[branch >= 0], weights=node.weights[branch >= 0], minlength=n_branches)
    fractions = known / known.sum()
    surrogates = None
    if settings.missing_values == "surrogate" and (branch < 0).any():
        surrogates = find_surrogates(encoded, node.rows, node.weights, branch, test.attribute,
                                     settings.max_surrogates)
        branch = _route_by_surrogates(encoded, node.rows, branch, surrogates, known)
    unknown = branch < 0
    children = []
    for b in range(n_branches):
        mine = branch == b
        shared = unknown & (fractions[b] > 0)  # rows with the value missing follow every branch, weighted
        rows = np.concatenate([node.rows[mine], node.rows[shared]])
        weights = np.concatenate([node.weights[mine], node.weights[shared] * fractions[b]])
        if settings.missing_values == "surrogate":  # rows no surrogate can place stay here (rpart)
            rows, weights = node.rows[mine], node.weights[mine]
        children.append((rows, weights))
    return test, children, tuple(float(f) for f in fractions), surrogates


def _route_by_surrogates(encoded, rows, branch, surrogates, known) -> np.ndarray:
    """rpart's training rule for a row missing the primary value: the first surrogate it has a
    value for, else the side with more weight; on a tie the row goes down neither branch."""
    frame = encoded.data.frame.iloc[rows]
    for surrogate in surrogates:
        branch = np.where(branch < 0, surrogate.branch_of(frame[surrogate.test.attribute]), branch)
    if known[0] != known[1]:
        branch = np.where(branch < 0, int(np.argmax(known)), branch)
    return branch


def _split_reason(evaluation: Evaluation, test) -> str:
    what = f"{test.attribute} (one branch per value)" if test.kind == "multiway" else test.describe()
    text = f"Split on {what}: {evaluation.explanation()}."
    chosen = evaluation.block(test.attribute)
    if chosen.kind == "threshold" and isinstance(test, ThresholdTest):
        midpoint = chosen.thresholds[evaluation.choice.index]
        if midpoint != test.threshold:
            text += (f" The cut is written as {label(test.threshold)}, the largest training value below "
                     f"the midpoint {label(midpoint)}, as C4.5 / J48 do; it separates the rows the same way.")
    return text


def collapse_steps(tree: Tree, done: int) -> Iterator[Step]:
    """C4.5 / J48: top-down, replace a subtree by a leaf when its leaves make no fewer
    training errors than the node alone would (within J48's 1e-3)."""
    number = done

    def errors(weights) -> float:
        return float(sum(weights) - max(weights, default=0.0))

    def subtree_errors(node) -> float:
        return sum(errors(leaf.class_weights) for leaf in node.leaves())

    def visit(node):
        nonlocal number
        if node.is_leaf:
            return
        below, alone = subtree_errors(node), errors(node.class_weights)
        if below >= alone - 1e-3:
            number += 1
            yield Step(
                number=number, node_id=node.id, parent_id=None, branch=node.branch, depth=node.depth,
                path=node.path, class_weights=node.class_weights, prediction=node.prediction,
                impurity=node.impurity, weight=node.weight, value=node.value, action=COLLAPSE, stop="collapse",
                reason=(f"C4.5 collapses this subtree: its leaves make {_w(below)} training errors, a single "
                        f"leaf would make {_w(alone)}, so the split does not pay for itself."),
            )
            return
        for child in node.children:
            yield from visit(child)

    yield from visit(tree.root)


def _w(value: float) -> str:
    return label(round(float(value), 3))
