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
level by level, and `step_record` reads its record in that order, making a step when it is
read. C4.5's collapse steps follow.
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
from .splits import evaluate
from .table import CandidateTable
from .step_record import Record, Steps
from .steps import OWN_VALUE, Growth, Step
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
    record = Record(grown, encoded, config, growth)
    steps = Steps(record)
    leaves = None if grown.leaf_of_row is None else record.ids.astype(np.int32)[grown.leaf_of_row]
    growth.record(steps, leaves)
    grown.leaf_of_row = None  # (the record keeps nodes, not rows)
    if config.collapse:
        steps += record.collapsed(len(steps))
    return replace(meta, steps=steps, total_steps=len(steps))


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
    return list(Steps(Record(grown, encoded, settings, growth)))
