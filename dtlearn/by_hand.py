"""Growing a tree by hand: at any node the student takes another candidate from the node's table
(or makes the node a leaf) instead of the algorithm's choice; every node without a choice is
decided by the algorithm as usual (the engine, from that node's rows). The result is a normal
`Tree`: its steps replay, its tables rebuild, it predicts, exports and prunes like any other.

A choice is keyed by the node's path (`Step.path`: the conditions from the root) and names a
candidate by its test as the table writes it (`table["test"]`, e.g. "humidity = ?" for a split
per value, "petal_length <= 2.45"), or `LEAF`. With C4.5's rule the cut is written as the largest
value of the whole training set not above the midpoint, as the algorithm's own cuts (and the
table's tests) are. A choice that ties with the algorithm's is as good: the step's reason and
`Comparison.tie` say so, and which rule broke the tie. Hand-grown trees are not collapsed
(C4.5's collapse step would undo a hand split that fixes no error).

>>> import dtlearn
>>> tree = dtlearn.fit(dtlearn.load_dataset("tennis"), "id3")
>>> hand = grow_by_hand(tree, {(): "humidity = ?"})
>>> hand.root.test.attribute, hand.steps[0].reason.startswith("Split by hand")
('humidity', True)
>>> compare(hand, grow_by_hand(tree, {})).first_difference
'the root'
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Mapping

import numpy as np

from . import budget, engine
from .candidates import data_value_below
from .conditions import ThresholdTest
from .criteria import criterion
from .evaluation import accuracy
from .induction import encode, steps_of, tree_of
from .routing import branches, surrogate_branches
from .steps import LEAF as LEAF_ACTION
from .steps import SPLIT, Growth, Step
from .table import CandidateTable, candidate_name
from .splits import TIE_RULE, evaluate
from .surrogates import surrogates_of
from .tree import Tree, summarize

LEAF = "leaf"  # the choice "make this node a leaf"


@dataclass
class _Open:
    """A node waiting for its decision."""
    node_id: int
    parent_id: int | None
    branch: str | None
    depth: int
    rows: np.ndarray
    weights: np.ndarray
    path: tuple[str, ...]
    used: frozenset
    fallback: tuple | None  # the parent's class distribution (None: uniform)


def grow_by_hand(tree: Tree, choices: Mapping[tuple, str]) -> Tree:
    """The tree grown with the student's `choices` ({path: test text or LEAF}) and the
    algorithm's own decisions everywhere else, on `tree`'s training data and settings."""
    if tree.data is None:
        raise ValueError("This tree does not carry its training data; fit it with dtlearn.fit.")
    if tree.is_regression:
        raise ValueError("Growing by hand covers classification trees; this one predicts numbers.")
    config = replace(tree.settings, prune=False, collapse=False)
    data = tree.data
    encoded = encode(data, config)
    growth = Growth(data, config, encoded.class_factor, encoded.task)
    forced = {tuple(path): choice for path, choice in choices.items()}
    waiting = {path[:i] for path in forced for i in range(len(path))}  # nodes with a choice below
    n = encoded.n_rows
    stack = [_Open(0, None, None, 0, np.arange(n), np.ones(n), (), frozenset(), None)]
    steps: list[Step] = []
    next_id = 1
    while stack:
        node = stack.pop()
        choice = forced.get(node.path)
        if choice is None and node.path not in waiting:  # the algorithm grows the whole subtree
            subtree, next_id = _algorithm(node, encoded, config, growth, next_id)
            steps.extend(subtree)
            continue
        if choice is None:  # the algorithm decides this node; a choice waits below it
            first = _algorithm(node, encoded, config, growth, next_id)[0][0]
            if first.action != SPLIT:
                steps.append(first)
                continue
            step = first  # numbered and placed by `_algorithm`
        elif choice == LEAF:
            steps.append(_leaf(tree, node, encoded, growth))
            continue
        else:
            step = _split(tree, node, encoded, config, growth, choice, next_id)
        next_id += len(step.child_ids)
        steps.append(step)
        children = _children(tree, node, step, encoded, config)
        step.child_weights = tuple(tuple(float(w) for w in encoded.class_weights(c.rows, c.weights)) for c in children)
        stack.extend(reversed(children))
    for number, step in enumerate(steps, start=1):
        step.number = number
    growth.record(steps)
    unknown = set(forced) - {s.path for s in steps if s.origin is not None}
    if unknown:
        raise ValueError(f"No node has the path {' and '.join(sorted(unknown)[0]) or 'the root'} in this tree.")
    return tree_of(encoded, config, tuple(steps))


def _algorithm(node: _Open, encoded, config, growth, next_id: int) -> tuple[list[Step], int]:
    """The algorithm's subtree below `node`, its node ids moved after `next_id`."""
    grown = engine.grow_from(encoded, config, node.rows, node.weights, node.depth, node.used, node.fallback)
    steps = steps_of(grown, encoded, config, growth)
    ids = {0: node.node_id}
    for step in steps:
        for child in step.child_ids:
            ids[child] = next_id + child - 1
    top = max(ids.values(), default=next_id - 1)
    for step in steps:
        step.node_id = ids[step.node_id]
        step.parent_id = node.parent_id if step.parent_id is None else ids[step.parent_id]
        step.child_ids = tuple(ids[c] for c in step.child_ids)
    steps[0].branch = node.branch
    return steps, max(top + 1, next_id)


def _table(node: _Open, encoded, config) -> CandidateTable:
    return CandidateTable.of(evaluate(encoded, node.rows, node.weights, config, node.used))


def _chosen(node: _Open, encoded, config, choice: str):
    """The node's candidate table, the row of the chosen test, and the test itself."""
    table = _table(node, encoded, config)
    frame = table.frame()
    matches = np.flatnonzero(frame["test"].astype(str).to_numpy() == str(choice))
    if not len(matches):
        raise ValueError(f"'{choice}' is not a candidate at {' and '.join(node.path) or 'the root'}.")
    r = int(matches[0])
    test = table.evaluation.blocks[table.block[r]].test(int(table.index[r]))
    if isinstance(test, ThresholdTest) and config.threshold_at_data_value:  # as the engine writes its cuts
        test = ThresholdTest(test.attribute, data_value_below(encoded.numeric(test.attribute), test.threshold))
    return frame, r, test


def _shown(tree: Tree, encoded, node: _Open) -> dict:
    stats = encoded.class_weights(node.rows, node.weights)
    uniform = tuple(1.0 / len(encoded.classes) for _ in encoded.classes)
    shown = summarize(tree, stats, node.fallback or uniform)
    shown.pop("distribution")
    return shown


def _common(tree, node: _Open, encoded, growth) -> dict:
    return dict(number=0, node_id=node.node_id, parent_id=node.parent_id, branch=node.branch, depth=node.depth,
                origin=growth, **_shown(tree, encoded, node))


def _leaf(tree, node: _Open, encoded, growth) -> Step:
    common = _common(tree, node, encoded, growth)
    counts = ", ".join(f"{round(w, 3):g} {c}" for c, w in zip(encoded.classes, common["class_weights"]) if w > 0)
    reason = f"Made a leaf by hand: it predicts {common['prediction']} ({counts or 'no rows'})."
    return Step(action=LEAF_ACTION, stop="by_hand", reason=reason, **common)


def _gain_column(key: str) -> str:
    """Step.gain: what min_gain reads (C4.5's gain after its threshold correction)."""
    return "corrected_gain" if criterion(key).kind == "ratio" else criterion(key).gain


def _split(tree, node: _Open, encoded, config, growth, choice: str, next_id: int) -> Step:
    """The split step of the candidate the student chose at this node."""
    frame, row, test = _chosen(node, encoded, config, choice)
    picked, best = frame.iloc[row], frame[frame["chosen"]]
    branch = branches(encoded, test, node.rows)
    known = branch >= 0
    n_branches = len(test.branch_labels)
    mass = np.bincount(branch[known], weights=node.weights[known], minlength=n_branches)
    fractions = tuple(float(f) for f in (mass / mass.sum() if mass.sum() > 0 else np.zeros(n_branches)))
    reason = (f"Split by hand on {test.describe() if test.kind != 'multiway' else test.attribute} "
              f"(score {float(picked['score']):.4f}); ")
    reason += (f"the algorithm would take {candidate_name(best.iloc[0])} ({float(best['score'].iloc[0]):.4f})."
               if len(best) else "the algorithm would make this node a leaf.")
    if bool(picked["tied"]) and not bool(picked["chosen"]):
        reason += f" The two tie: both are best splits, and {TIE_RULE}."
    surrogate = config.missing_values == "surrogate"
    majority = int(np.argmax(mass)) if surrogate and mass.sum() > 0 else -1
    found = surrogates_of(encoded, node.rows, node.weights, test, config.max_surrogates) if surrogate and \
        n_branches == 2 and (~known).any() else None
    return Step(action=SPLIT, reason=reason, test=test, child_ids=tuple(range(next_id, next_id + n_branches)),
                branch_fractions=fractions, majority_branch=majority, score=float(picked["score"]),
                gain=float(picked[_gain_column(config.criterion)]), found_surrogates=found,
                details={"by_hand": True, "row": row}, **_common(tree, node, encoded, growth))


def _children(tree, node: _Open, step: Step, encoded, config) -> list[_Open]:
    """The open children of a split, with the rows growth sends down each branch."""
    branch = branches(encoded, step.test, node.rows)
    unknown = branch < 0
    if config.missing_values == "surrogate":
        for surrogate in step.found_surrogates or ():
            branch = np.where(unknown, surrogate_branches(encoded, surrogate, node.rows), branch)
            unknown = branch < 0
        if step.majority_branch >= 0:
            branch = np.where(unknown, step.majority_branch, branch)
            unknown = branch < 0
    reuse_blocked = encoded.kind(step.test.attribute) == "categorical" or config.numeric_split == "multiway"
    used = node.used | {step.test.attribute} if reuse_blocked else node.used
    uniform = tuple(1.0 / len(encoded.classes) for _ in encoded.classes)
    fallback = summarize(tree, step.class_weights, node.fallback or uniform)["distribution"]
    children = []
    for b, (child_id, label) in enumerate(zip(step.child_ids, step.test.branch_labels)):
        if config.missing_values == "surrogate":
            keep, weights = branch == b, node.weights
        else:
            share = step.branch_fractions[b]
            keep = (branch == b) | (unknown & (share > 0))
            weights = np.where(unknown, node.weights * share, node.weights)
        children.append(_Open(child_id, node.node_id, label, node.depth + 1, node.rows[keep], weights[keep],
                              node.path + (step.test.condition(b),), frozenset(used), fallback))
    return children


# comparing a hand-grown tree with the algorithm's ---------------------------------------------

@dataclass(frozen=True)
class Comparison:
    nodes: tuple[int, int]  # (hand, algorithm)
    leaves: tuple[int, int]
    depth: tuple[int, int]
    train_accuracy: tuple[float, float]
    test_accuracy: tuple[float, float] | None  # on held-out rows, when given
    first_difference: str | None  # the first node (pre-order) where the two differ, in words
    tie: str = ""  # when the hand split there ties with the algorithm's: that, and the tie-break, in words


def _decisions(tree: Tree) -> list[tuple[tuple[str, ...], str]]:
    out = []
    for count, step in enumerate(tree.steps):
        if not count % 1024:  # each step's path: a page's time for 50,000 of them
            budget.check_time()
        if step.action == SPLIT:
            out.append((step.path, step.test.describe()))
        elif step.action == LEAF_ACTION:
            out.append((step.path, "leaf"))
    return out


def compare(hand: Tree, algorithm: Tree, test=None) -> Comparison:
    """Size, depth and accuracy of two trees grown on the same data, and where they first differ."""
    theirs = dict(_decisions(algorithm))
    first = next((path for path, decision in _decisions(hand) if theirs.get(path) != decision), None)
    where = None if first is None else (" and ".join(first) or "the root")
    train = hand.data
    held = None if test is None else (accuracy(hand, test), accuracy(algorithm, test))
    return Comparison((hand.n_nodes, algorithm.n_nodes), (hand.n_leaves, algorithm.n_leaves),
                      (hand.depth, algorithm.depth), (accuracy(hand, train), accuracy(algorithm, train)), held, where,
                      _tie_at(hand, first, theirs.get(first)))


def _tie_at(hand: Tree, path, theirs: str | None) -> str:
    """'' unless the hand split at `path` ties with the algorithm's there."""
    step = next((s for s in hand.steps if s.path == path and s.action == SPLIT), None) if path is not None else None
    if step is None or not step.details.get("by_hand") or theirs in (None, "leaf"):
        return ""
    frame = step.candidates.frame()  # marked chosen as the algorithm chooses
    row, chosen = frame.loc[step.details["row"]], frame[frame["chosen"]]
    if not bool(row["tied"]) or chosen.empty:
        return ""
    algorithms = candidate_name(chosen.iloc[0])
    return (f"Your {candidate_name(row)} ties with the algorithm's {algorithms}: both are best splits; "
            f"the algorithm takes {algorithms} because {TIE_RULE}.")
