"""Top-down induction as a generator of recorded steps (ID3, C4.5, CART).

At each node, in this order (the first rule that applies makes a leaf):
 1. no training rows reach it                    -> the parent's majority (seed 000, cond. 3)
 2. all rows have one class                      -> pure leaf              (seed 000, cond. 1)
 3. max_depth reached; 4. fewer rows than min_samples_split (C4.5: than 2 x min_branch_cases);
 5. majority fraction >= min_purity (Zaki's pi)
 6. no attribute left, or all rows identical on the attributes left (seed 000, cond. 2)
 7. no candidate satisfies the split rules (min_samples_leaf, min_branch_cases, ...)
 8. the best gain is below min_gain (seed 003), or 0 where stop_at_zero_gain is set
otherwise the best candidate (see `splits` for the tie-break) splits the node.
Order: depth-first pre-order, branches in their order. C4.5's collapse steps follow growth.
"""

from __future__ import annotations

from typing import Iterator

import numpy as np
import pandas as pd

from .candidates import data_value_below
from .conditions import ThresholdTest
from .data import Dataset, label
from .encoding import Encoded
from .impurity import IMPURITY
from .settings import Settings, make_settings
from .splits import NO_KNOWN, ONE_BRANCH, TIE, USED, Evaluation, evaluate
from .tree import COLLAPSE, LEAF, SPLIT, Step, Tree, majority


def fit(data: Dataset, algorithm: str = "cart", **settings) -> Tree:
    """Grow a tree with a preset (`id3`, `c45`, `cart`) and optional settings.

    >>> from dtlearn import load_dataset
    >>> tree = fit(load_dataset("tennis"), "id3")
    >>> tree.root.test.attribute, tree.n_leaves, tree.depth
    ('outlook', 5, 2)
    """
    config = make_settings(algorithm, **settings)
    data = _as_dataset(data)
    encoded = Encoded(data)
    steps = list(grow(encoded, config))
    if config.collapse:
        grown = _tree(encoded, config, tuple(steps), len(steps))
        steps += list(collapse_steps(grown, len(steps)))
    return _tree(encoded, config, tuple(steps), len(steps))


def split_table(data: Dataset, algorithm: str = "id3", **settings) -> pd.DataFrame:
    """Every candidate split at the root of `data`, one row each, with every measure."""
    config = make_settings(algorithm, **settings)
    encoded = Encoded(_as_dataset(data))
    rows = np.arange(encoded.n_rows)
    return evaluate(encoded, rows, np.ones(encoded.n_rows), config).table


def _as_dataset(data) -> Dataset:
    if not isinstance(data, Dataset):
        raise TypeError("Give a dtlearn.Dataset (see dtlearn.read_csv and dtlearn.Dataset).")
    return data


def _tree(encoded: Encoded, settings: Settings, steps: tuple, total: int) -> Tree:
    root_weights = tuple(float(c) for c in np.bincount(encoded.y, minlength=len(encoded.classes)))
    ranges = {a: (float(np.nanmin(encoded.numeric(a))), float(np.nanmax(encoded.numeric(a))))
              for a in encoded.numeric_attributes if not np.isnan(encoded.numeric(a)).all()}
    impurity = float(IMPURITY[settings.impurity](np.asarray(root_weights)))
    return Tree(encoded.data.target, encoded.classes, dict(encoded.data.kinds), settings, root_weights,
                impurity, steps, total, ranges)


class _Pending:
    """A node waiting for its decision."""

    __slots__ = ("id", "parent_id", "branch", "depth", "path", "rows", "weights", "used", "parent_weights")

    def __init__(self, **fields) -> None:
        for name, value in fields.items():
            setattr(self, name, value)


def grow(encoded: Encoded, settings: Settings) -> Iterator[Step]:
    """Yield one Step per decision, depth-first pre-order."""
    n = encoded.n_rows
    k = len(encoded.classes)
    impurity = IMPURITY[settings.impurity]
    root = _Pending(id=0, parent_id=None, branch=None, depth=0, path=(), rows=np.arange(n),
                    weights=np.ones(n), used=frozenset(), parent_weights=None)
    stack, next_id, number = [root], 1, 0
    while stack:
        node = stack.pop()
        number += 1
        weights = np.bincount(encoded.y[node.rows], weights=node.weights, minlength=k).astype(float)
        common = dict(
            number=number, node_id=node.id, parent_id=node.parent_id, branch=node.branch, depth=node.depth,
            path=node.path, class_weights=tuple(float(w) for w in weights),
            impurity=float(impurity(weights)),
        )
        shown = weights if weights.sum() > 0 else node.parent_weights
        common["prediction"] = encoded.classes[majority(shown)]

        def later(node=node):
            return evaluate(encoded, node.rows, node.weights, settings, node.used)

        stop = _stop_before_evaluating(encoded, settings, node, weights, common["prediction"])
        if stop:
            yield Step(action=LEAF, stop=stop[0], reason=stop[1], evaluate=later, **common)
            continue
        evaluation = evaluate(encoded, node.rows, node.weights, settings, node.used)
        stop = _stop_after_evaluating(settings, evaluation)
        if stop:
            yield Step(action=LEAF, stop=stop[0], reason=stop[1], evaluate=lambda e=evaluation: e, **common)
            continue
        test, children, fractions = _split(encoded, settings, node, evaluation)
        child_ids = tuple(range(next_id, next_id + len(children)))
        next_id += len(children)
        yield Step(
            action=SPLIT, reason=_split_reason(evaluation, test), test=test, child_ids=child_ids,
            child_weights=tuple(tuple(float(c) for c in np.bincount(encoded.y[r], weights=w, minlength=k))
                                for r, w in children),
            branch_fractions=fractions,
            evaluate=lambda e=evaluation: e, **common,
        )
        used = node.used | {test.attribute} if encoded.kind(test.attribute) == "categorical" \
            or settings.numeric_split == "multiway" else node.used
        pending = [
            _Pending(id=child_id, parent_id=node.id, branch=test.branch_labels[b], depth=node.depth + 1,
                     path=node.path + (test.condition(b),), rows=rows, weights=w, used=used,
                     parent_weights=shown)
            for b, (child_id, (rows, w)) in enumerate(zip(child_ids, children))
        ]
        stack.extend(reversed(pending))


def _stop_before_evaluating(encoded, settings: Settings, node, weights, prediction):
    total = float(weights.sum())
    if total <= 0:
        return "empty", (f"No training rows reach this branch, so it predicts the parent's majority "
                         f"class, {prediction} (seed 000, stopping condition 3).")
    top = float(weights.max())
    if top >= total - 1e-9 * max(total, 1.0):
        return "pure", f"All {_w(total)} rows here are of class {prediction}: the node is pure."
    if settings.max_depth is not None and node.depth >= settings.max_depth:
        return "max_depth", f"The maximum depth {settings.max_depth} is reached: the node becomes a leaf."
    if total < settings.min_samples_split:
        return "min_samples_split", (f"Only {_w(total)} rows, fewer than min_samples_split = "
                                     f"{label(settings.min_samples_split)}: too few to split.")
    if settings.min_branch_cases > 0 and total < 2 * settings.min_branch_cases:
        return "min_samples_split", (f"Only {_w(total)} rows: C4.5 needs at least 2 x "
                                     f"{label(settings.min_branch_cases)} to split.")
    if settings.min_purity is not None and top / total >= settings.min_purity:
        return "min_purity", (f"{top / total:.3f} of the rows are {prediction}, at least the purity "
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
        return "no_valid_split", "No candidate split satisfies the split rules (see the table): majority leaf."
    if settings.stop_at_zero_gain and choice.gain <= TIE:
        return "zero_gain", "No attribute gives any information gain here: majority leaf."
    if choice.gain < settings.min_gain:
        return "min_gain", (f"The best gain {choice.gain:.4f} is below min_gain = {label(settings.min_gain)} "
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
    unknown = branch < 0
    children = []
    for b in range(n_branches):
        mine = branch == b
        shared = unknown & (fractions[b] > 0)  # rows with the value missing follow every branch, weighted
        rows = np.concatenate([node.rows[mine], node.rows[shared]])
        weights = np.concatenate([node.weights[mine], node.weights[shared] * fractions[b]])
        children.append((rows, weights))
    return test, children, tuple(float(f) for f in fractions)


def _split_reason(evaluation: Evaluation, test) -> str:
    text = f"Split on {test.describe()}: {evaluation.explanation()}."
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
        return float(sum(weights) - max(weights))

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
                impurity=node.impurity, action=COLLAPSE, stop="collapse",
                reason=(f"C4.5 collapses this subtree: its leaves make {_w(below)} training errors, a single "
                        f"leaf would make {_w(alone)}, so the split does not pay for itself."),
            )
            return
        for child in node.children:
            yield from visit(child)

    yield from visit(tree.root)


def _w(value: float) -> str:
    return label(round(float(value), 3))
