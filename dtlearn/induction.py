"""Top-down induction recorded as steps (ID3, C4.5, CART, Zaki & Meira).

At each node, in this order (the first rule that applies makes a leaf):
 1. no training rows reach it                    -> the parent's majority (Quinlan 1986)
 2. all rows have one class                      -> pure leaf
 3. max_depth reached; 4. fewer rows than min_samples_split, at most leaf_size (Zaki's eta), or
    (C4.5) fewer than 2 x min_branch_cases;
 5. majority fraction >= min_purity (Zaki's pi)
 6. no attribute left, or all rows identical on the attributes left (Quinlan 1986)
 7. no candidate satisfies the split rules (min_samples_leaf, min_branch_cases, ...)
 8. the best gain does not exceed min_gain > 0 (pre-pruning), or is 0 where stop_at_zero_gain is set
otherwise the best candidate (see `splits` for the tie-break) splits the node.
Steps are numbered depth-first, pre-order, branches in their order; `engine` grows the nodes
level by level, and `steps` turns its record into that order. C4.5's collapse steps follow.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from . import budget, criteria, engine
from .collector import no_cycle_collection
from .data import DataError, Dataset
from .formatting import label, labels_of, ordered_labels
from .encoding import Encoded
from .settings import Settings, make_settings
from .splits import evaluate, explanation, one_cut_competes
from .stops import STOPS, Leaf, said_weight
from .stops import reason as stop_reason
from .table import CandidateTable
from .steps import COLLAPSE, LEAF, OWN_VALUE, SPLIT, Growth, Step
from .summary import summarize_all
from .tree import Tree, summarize


def grow(data: Dataset, algorithm: str = "cart", **settings) -> Tree:
    """The grown tree (C4.5's collapse included, no pruning) for a preset and settings."""
    data = _as_dataset(data)
    return grow_with(data, resolve_task(make_settings(algorithm, **settings), data))


def grow_with(data: Dataset, config: Settings) -> Tree:
    """`grow` with settings already made and resolved."""
    data = with_missing_as_value(data) if config.missing_values == "own_value" else data
    budget.report("encoding", None, f"{len(data.frame):,} rows")
    encoded = encode(data, config)
    growth = Growth(data, config, encoded.class_factor, encoded.task)
    meta = _tree(encoded, config, (), 0)
    with no_cycle_collection():  # thousands of new, acyclic objects: the collector would only rescan them
        grown = engine.grow(encoded, config)
        budget.report("recording", None, f"{grown.size:,} nodes")
        steps, ids = steps_and_ids(grown, encoded, config, growth)
    leaves = None if grown.leaf_of_row is None else np.asarray(ids, dtype=np.int32)[grown.leaf_of_row]
    growth.record(steps, leaves)
    if config.collapse:
        steps += list(collapse_steps(steps, len(steps)))
    return replace(meta, steps=tuple(steps), total_steps=len(steps))


def split_table(data: Dataset, algorithm: str = "id3", **settings) -> pd.DataFrame:
    """Every candidate split at the root of `data`, one row each, with every measure.

    It is the table of `fit(...)`'s first step: when a stopping rule makes the root a leaf,
    no row is marked chosen."""
    data = _as_dataset(data)
    config = resolve_task(make_settings(algorithm, **settings), data)
    data = with_missing_as_value(data) if config.missing_values == "own_value" else data
    encoded = encode(data, config)
    n = encoded.n_rows
    table = CandidateTable.of(evaluate(encoded, np.arange(n), np.ones(n), config)).frame()
    if not engine.root_splits(encoded, config) and table["chosen"].any():
        table = table.assign(chosen=False)
    return table


def with_missing_as_value(data: Dataset) -> Dataset:
    """Missing categorical cells become the value "(missing)" (a branch of their own)."""
    frame = data.frame.copy()
    for attribute, kind in data.kinds.items():
        if kind == "categorical" and frame[attribute].isna().any():
            frame[attribute] = frame[attribute].astype(object).where(frame[attribute].notna(), OWN_VALUE)
    return Dataset(frame, data.target, data.kinds)


def infer_task(data: Dataset) -> str:
    """'regression' for a numeric target with more than 10 distinct values, else 'classification'."""
    column = data.frame[data.target]
    numeric = pd.api.types.is_numeric_dtype(column) and not pd.api.types.is_bool_dtype(column)
    return "regression" if numeric and column.nunique() > 10 else "classification"


def resolve_task(settings: Settings, data: Dataset) -> Settings:
    """The settings with `task` decided (auto: `infer_task`) and checked against the data; a
    mismatch (a numeric target for ID3, say) is the data's, so it raises DataError."""
    task = settings.task or infer_task(data)
    if task == "regression":
        if not settings.binary_splits or settings.c45_rules:  # Breiman et al.'s trees split in two
            raise DataError(f"Regression trees are CART's, and '{data.target}' is a numeric target: choose the cart "
                            "algorithm, another target column, or set Task to Classification to treat its values "
                            "as classes.")
        if settings.priors is not None or settings.class_weight is not None:
            raise DataError("Class priors and class weights apply to classification, not regression.")
        if settings.min_purity is not None:
            raise DataError("min_purity (Zaki's pi) applies to classification, not regression.")
        if settings.prune:
            raise DataError("prune=True is C4.5's pessimistic pruning, for classification; prune a regression "
                            "tree with dtlearn.prune(tree, 'cost_complexity', ...).")
        criterion = "squared_error"
    else:
        if not criteria.criterion(settings.criterion).classes:
            raise DataError(f"{settings.criterion} is the regression criterion; for classes use "
                            f"{', '.join(criteria.CLASS_CRITERIA)}.")
        criterion = settings.criterion
    return replace(settings, task=task, criterion=criterion)


def encode(data: Dataset, settings: Settings) -> Encoded:
    if settings.task == "regression":
        return Encoded(data, "regression")
    return Encoded(data, "classification", class_factors(data, settings))


def class_factors(data: Dataset, settings: Settings) -> tuple | None:
    """Per-class multipliers realising priors and class weights (None: all 1).

    Priors pi_j (Breiman et al. 1984): a case of class j counts pi_j / (N_j / N), so that each
    class's share of the root is its prior; "equal" gives every class 1/k, which labels a node
    j when N_j(node)/N_j(root) is largest. Class weights multiply the same way (scikit-learn's
    class_weight; "balanced" = N / (k N_j))."""
    if settings.priors in (None, "data") and settings.class_weight is None:
        return None
    classes = ordered_labels(data.frame[data.target])
    counts = pd.Series(labels_of(data.frame[data.target])).value_counts()
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
    everything, ones = np.arange(encoded.n_rows), np.ones(encoded.n_rows)
    root_stats = tuple(float(v) for v in (encoded.channels(everything, ones).sum(axis=1) if encoded.is_regression
                                          else encoded.class_weights(everything, ones)))
    ranges = {a: (float(np.nanmin(encoded.numeric(a))), float(np.nanmax(encoded.numeric(a))))
              for a in encoded.numeric_attributes if not np.isnan(encoded.numeric(a)).all()}
    meta = Tree(encoded.data.target, encoded.classes, dict(encoded.data.kinds), settings, root_stats, 0.0,
                steps, total, ranges, encoded.class_factor, encoded.task, encoded.data)
    uniform = 0.0 if encoded.is_regression else tuple(1.0 / len(encoded.classes) for _ in encoded.classes)
    return replace(meta, root_impurity=summarize(meta, root_stats, uniform)["impurity"])


def tree_of(encoded: Encoded, settings: Settings, steps: tuple) -> Tree:
    """A complete tree made of recorded steps (grown here, or by hand: `by_hand`)."""
    return replace(_tree(encoded, settings, (), 0), steps=tuple(steps), total_steps=len(steps))


# --- the engine's record as steps ------------------------------------------------------------------

def steps_of(grown: engine.Grown, encoded: Encoded, settings: Settings, growth: Growth) -> list[Step]:
    """The grown nodes as steps, depth-first pre-order; node ids given as splits are made."""
    return steps_and_ids(grown, encoded, settings, growth)[0]


def steps_and_ids(grown: engine.Grown, encoded: Encoded, settings: Settings, growth: Growth):
    """`steps_of`, and the node id given to each grown node (by its index in `grown`)."""
    regression = encoded.is_regression
    shown = _Shown(grown, encoded, settings)
    steps: list[Step] = []
    ids = [0] * grown.size
    parents, branches, depths, stops = (grown.parent.tolist(), grown.branch.tolist(), grown.depth.tolist(),
                                        grown.stop.tolist())
    first_child = grown.first_child.tolist()
    next_id = 1
    stack = [0] if grown.size else []
    while stack:
        t = stack.pop()
        parent = parents[t]
        test_above = grown.tests[parent] if parent >= 0 else None
        common = shown(t)
        common.update(number=len(steps) + 1, node_id=ids[t], parent_id=ids[parent] if parent >= 0 else None,
                      branch=test_above.branch_labels[branches[t]] if test_above is not None else None,
                      depth=depths[t], origin=growth)
        stop = stops[t]
        if stop >= 0:
            if regression and t in grown.medians:
                value = grown.medians[t]
                common.update(value=value, prediction=label(round(value, 4)))
            steps.append(Step(action=LEAF, stop=STOPS[stop],
                              reason=_leaf_reason(stop, grown, t, common, settings, regression), **common))
            continue
        test = grown.tests[t]
        children = range(first_child[t], first_child[t] + len(test.branch_labels))
        child_ids = tuple(range(next_id, next_id + len(children)))
        next_id += len(children)
        for child, child_id in zip(children, child_ids):
            ids[child] = child_id
        steps.append(Step(action=SPLIT, reason=_split_reason(grown, t, test, encoded, settings), test=test,
                          child_ids=child_ids, child_weights=tuple(shown.stats[c] for c in children),
                          branch_fractions=grown.fractions[t], found_surrogates=grown.surrogates.get(t),
                          majority_branch=grown.majority.get(t, -1), score=grown.numbers[t][0],
                          gain=grown.numbers[t][1], **common))
        stack.extend(reversed(children))
    return steps, ids


class _Shown:
    """What each node shows (class weights, prediction, impurity, weight, value), computed for
    all nodes at once (parents first: an empty node shows its parent's distribution)."""

    def __init__(self, grown: engine.Grown, encoded: Encoded, settings: Settings) -> None:
        self.regression = regression = encoded.is_regression
        many = summarize_all(grown.stats, grown.parent, regression, encoded.class_factor, settings.impurity)
        impurity, weight = many["impurity"], many["weight"]
        value = many["value"] if regression else np.zeros(grown.size)
        prediction = many["prediction"] if not regression else np.zeros(grown.size, dtype=np.int64)
        self.stats = [tuple(row) for row in grown.stats.tolist()]
        self.impurity, self.weight, self.value = impurity.tolist(), weight.tolist(), value.tolist()
        self.prediction = [encoded.classes[p] for p in prediction.tolist()] if not regression else None

    def __call__(self, t: int) -> dict:
        if self.regression:
            value = self.value[t]
            return dict(class_weights=(), prediction=label(round(value, 4)), impurity=self.impurity[t],
                        weight=self.weight[t], value=value)
        return dict(class_weights=self.stats[t], prediction=self.prediction[t], impurity=self.impurity[t],
                    weight=self.weight[t], value=None)


def _split_reason(grown: engine.Grown, t: int, test, encoded: Encoded, settings: Settings) -> str:
    score, gain, average, kind, tied, ties = grown.numbers[t]
    what = f"{test.attribute} (one branch per value)" if test.kind == "multiway" else test.describe()
    text = f"Split on {what}: {explanation(settings, kind, score, average)}."
    if kind == "threshold" and settings.threshold_at_data_value:
        midpoint = grown.midpoints.get(t)
        if midpoint is not None and midpoint != test.threshold:
            text += (f" The cut is written as {label(test.threshold)}, the largest training value below "
                     f"the midpoint {label(midpoint)}, as C4.5 / J48 do; it separates the rows the same way.")
    if len(tied) > 1:
        others = ", ".join(encoded.attributes[j] for j in tied if encoded.attributes[j] != test.attribute)
        text += (f" It ties with {others} (scores within 1e-12): the tie goes to the attribute first in the "
                 "table (column order).")
    elif ties > 1:
        measure = "gain" if one_cut_competes(settings, kind) else "score"
        order = "the lowest threshold" if kind == "threshold" else "the first in enumeration order"
        text += f" {ties} candidates of {test.attribute} tie on {measure} (within 1e-12): {order} is taken."
    return text


def _leaf_reason(stop: int, grown: engine.Grown, t: int, common: dict, settings: Settings, regression: bool) -> str:
    leaf = Leaf(common["weight"], common["prediction"], common["class_weights"], grown.leaf_numbers.get(t, 0.0),
                settings, regression)
    return stop_reason(stop, leaf)


def collapse_steps(steps: list[Step], done: int):
    """C4.5 / J48: top-down, replace a subtree by a leaf when its leaves make no fewer
    training errors than the node alone would (within J48's 1e-3). Growth steps are in
    pre-order, so a subtree is a run of consecutive steps: read backwards, children come
    before their parents."""
    end = [0] * len(steps)  # one past the last step of each node's subtree
    below = [0.0] * len(steps)  # training errors of the subtree's leaves
    where = {step.node_id: i for i, step in enumerate(steps)}
    for i in range(len(steps) - 1, -1, -1):
        step = steps[i]
        if step.action == SPLIT:
            children = [where[c] for c in step.child_ids]
            below[i] = sum(below[c] for c in children)
            end[i] = end[children[-1]]
        else:
            below[i] = _errors(step.class_weights)
            end[i] = i + 1
    number, i = done, 0
    while i < len(steps):
        step = steps[i]
        if step.action != SPLIT:
            i += 1
            continue
        alone = _errors(step.class_weights)
        if below[i] < alone - 1e-3:
            i += 1
            continue
        number += 1
        yield Step(number=number, node_id=step.node_id, parent_id=None, branch=step.branch, depth=step.depth,
                   class_weights=step.class_weights, prediction=step.prediction, impurity=step.impurity,
                   weight=step.weight, value=step.value, action=COLLAPSE, stop="collapse", origin=step.origin,
                   reason=(f"C4.5 collapses this subtree: its leaves make {said_weight(below[i])} training errors, a "
                           f"single leaf would make {said_weight(alone)}, so the split does not pay for itself."))
        i = end[i]  # the subtree is gone: nothing below it is visited


def _errors(weights) -> float:
    return float(sum(weights) - max(weights, default=0.0))
