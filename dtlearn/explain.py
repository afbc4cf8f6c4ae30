"""One example followed down a tree: the nodes it reaches, the weight arriving at each, the
test met there and its outcome in words, the leaves reached and how they combine.

Nothing here decides a branch: `routing` does, with the very calls `Tree.predict` makes
(`routing.node_totals` gives the weight reaching every node, `routing.distribution` the
prediction, `routing.branch_at` / `surrogate_at` the branch one test or surrogate gives);
this module only puts those decisions into words.

The rules being explained:
- C4.5 (Quinlan 1993, ch. 3): an example whose tested value is missing goes down every branch
  v with weight w x r~_v, r~_v the branch's share of the node's training rows whose value is
  known; the prediction is sum over the leaves reached of weight x leaf distribution, and the
  class is its largest share (ties: the first class).
- CART (Breiman et al. 1984, sec. 5.3): the node's surrogate splits are asked in rank order;
  when none applies the example takes the branch most training rows took, and where both
  branches took as many it stops at the node and takes its distribution (rpart's rule).
- A value the tree never saw is unknown: a multiway test cannot place it (it is treated as
  missing), a subset test sends it to its second branch (`conditions.SubsetTest`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping

import numpy as np
import pandas as pd

from . import routing
from .conditions import MultiwayTest, SubsetTest, ThresholdTest
from .formatting import label
from .encoding import MISSING, UNSEEN

# how the example left a node (Decision.how)
TEST, FRACTIONAL, SURROGATE, MAJORITY, STOP = "test", "fractional", "surrogate", "majority", "stop"
# what the example's value was at a node (Decision.status)
KNOWN, MISSING_VALUE, UNSEEN_VALUE, NO_BRANCH, NOT_A_NUMBER = "known", "missing", "unseen", "no branch", "not a number"


def is_missing(value) -> bool:
    """None, NaN and pandas' NA are missing values. Text is a value, as `Tree.predict` reads a
    table ('?' in a file becomes missing when the file is read, not here)."""
    if isinstance(value, str):
        return False
    try:
        return bool(pd.isna(value))
    except (TypeError, ValueError):  # a list or another container: not a missing scalar
        return False


def example_frame(tree, example: Mapping[str, object]) -> pd.DataFrame:
    """The example as the one-row table `Tree.predict` reads: a column for every attribute the
    tree was grown on, None where the value is missing (a key left out included); other keys
    (the target, say) are ignored.

    >>> from dtlearn import fit, load_dataset
    >>> tree = fit(load_dataset("tennis"), "id3")
    >>> example_frame(tree, {"outlook": "Sunny", "humidity": None}).iloc[0].tolist()
    ['Sunny', None, None, None]
    """
    if not isinstance(example, Mapping):
        raise ValueError("Give the example as a mapping from attribute names to values, e.g. {'outlook': 'Sunny'}.")
    row = {a: (None if is_missing(example.get(a)) else example.get(a)) for a in tree.kinds}
    return pd.DataFrame([row], columns=list(tree.kinds), index=[0], dtype=object)


def number(value: float, digits: int | None = 3) -> str:
    """A weight or share as text: whole numbers as they are (1, 0), else `digits` decimals
    (None: every decimal, up to 12)."""
    value = float(value)
    if value == round(value) and abs(value) < 1e15:
        return str(int(round(value)))
    if digits is None:
        return f"{value:.12f}".rstrip("0").rstrip(".")
    return f"{value:.{digits}f}"


def _shares(classes, distribution, digits) -> str:
    return ", ".join(f"{c} {number(p, digits)}" for c, p in zip(classes, distribution))


@dataclass(frozen=True)
class Decision:
    """What happened to the example at one internal node it reached."""

    node_id: int
    depth: int
    weight: float  # the weight arriving here (1 at the root)
    test: ThresholdTest | MultiwayTest | SubsetTest
    value: str | None  # the example's value as the test reads it, written out (None: missing)
    status: str  # KNOWN, MISSING_VALUE, UNSEEN_VALUE, NO_BRANCH (a multiway test lacks it), NOT_A_NUMBER
    how: str  # TEST, FRACTIONAL (C4.5), SURROGATE, MAJORITY or STOP (CART)
    branches: tuple[int, ...]  # the branches it goes down (none: STOP)
    child_ids: tuple[int, ...]  # the nodes they lead to
    child_weights: tuple[float, ...]  # the weight going down each
    shares: tuple[float, ...] = ()  # FRACTIONAL: r~_v of every branch (known rows down v / known rows here)
    surrogate: object = None  # SURROGATE: the surrogates.Surrogate that placed it
    surrogate_value: str | None = None  # the example's value of the surrogate's attribute
    surrogate_rank: int = 0  # its rank among the node's surrogates (1: the best)
    surrogate_count: int = 0  # how many surrogates the node has

    @property
    def attribute(self) -> str:
        return self.test.attribute

    def _reading(self) -> str:
        """The example's value, and why it is unknown when it is."""
        a = self.attribute
        if self.status == MISSING_VALUE:
            return f"{a} is missing"
        if self.status == NOT_A_NUMBER:
            return f"{a} = {self.value} is not a number, so it is missing"
        if self.status == UNSEEN_VALUE:
            return f"{a} = {self.value}, a value the tree never saw,"
        if self.status == NO_BRANCH:
            return f"{a} = {self.value}, a value this test has no branch for,"
        return f"{a} = {self.value}"

    def _branch(self, b: int) -> str:
        return f"branch '{self.test.branch_labels[b]}'"

    def describe(self, digits: int | None = 3) -> str:
        """The test met and its outcome, in words."""
        test, reading = self.test, self._reading()
        if self.how == TEST:
            b = self.branches[0]
            if self.status == UNSEEN_VALUE:  # only a subset test places a value it never saw
                return f"{reading} goes to the second branch, as a subset test sends such values -> {self._branch(b)}"
            if isinstance(test, ThresholdTest):
                return f"{reading} <= {test.cut}? {'yes' if b == 0 else 'no'} -> {self._branch(b)}"
            if isinstance(test, SubsetTest):
                return f"{reading} in {{{', '.join(test.left)}}}? {'yes' if b == 0 else 'no'} -> {self._branch(b)}"
            return f"{reading} -> {self._branch(b)}"
        unknown = reading if self.status in (MISSING_VALUE, NOT_A_NUMBER) else f"{reading} treated as missing"
        if self.how == FRACTIONAL:
            shares = ", ".join(number(s, digits) for s in self.shares)
            text = (f"{unknown}: goes down every branch with weights {shares} (the branches' shares of the "
                    f"training rows, Quinlan 1993)")
            if not math.isclose(self.weight, 1.0):
                text += (f"; it arrived with weight {number(self.weight, digits)}, so the branches get "
                         + ", ".join(number(w, digits) for w in self.child_weights))
            return text + " -> branches " + ", ".join(f"'{test.branch_labels[b]}'" for b in self.branches)
        if self.how == SURROGATE:
            s = self.surrogate
            side = "left" if self.branches[0] == 0 else "right"
            answer = _surrogate_answer(s.test, self.surrogate_value)
            rank = (f" (surrogate {self.surrogate_rank} of {self.surrogate_count}: the ones before it need "
                    f"values this example lacks)" if self.surrogate_rank > 1 else "")
            return (f"{unknown}: surrogate {s.test.describe()} ({answer}) sends it {side}{rank} -> "
                    f"{self._branch(self.branches[0])} (Breiman et al. 1984)")
        none = "no surrogate applies" if self.surrogate_count else "this split has no surrogate"
        if self.how == MAJORITY:
            return (f"{unknown}: {none}: the majority branch, the one most training rows took -> "
                    f"{self._branch(self.branches[0])} (Breiman et al. 1984)")
        return (f"{unknown}: {none} and both branches took as many training rows: the example stops "
                f"here and takes this node's distribution (as rpart does)")


def _surrogate_answer(test, value: str | None) -> str:
    """'here sepal_length = 5.1: yes': the surrogate's own test on the example's value."""
    if isinstance(test, ThresholdTest):
        return f"here {test.attribute} = {value}: {'yes' if float(value) <= test.threshold else 'no'}"
    return f"here {test.attribute} = {value}: {'yes' if value in test.left else 'no'}"


@dataclass(frozen=True)
class Ending:
    """A node where (part of) the example ends: a leaf, or a CART node it stopped at."""

    node_id: int
    depth: int
    weight: float
    prediction: str
    distribution: tuple[float, ...]  # classification: the class shares the node predicts
    value: float | None  # regression: the value it predicts
    is_leaf: bool  # False: CART stopped at an internal node (STOP)

    def describe(self, classes: tuple[str, ...], target: str, digits: int | None = 3) -> str:
        where = "leaf" if self.is_leaf else "stops here"
        if self.value is not None:
            return f"{where}: {target} = {number(self.value, digits)}"
        return f"{where}: {target} = {self.prediction} (class shares {_shares(classes, self.distribution, digits)})"


@dataclass(frozen=True)
class Explanation:
    """The example's way down the tree, its nodes in pre-order (a Decision at every internal
    node reached, an Ending where weight ends), and the prediction they make."""

    target: str
    classes: tuple[str, ...]  # () for a regression tree
    example: tuple[tuple[str, object], ...]  # attribute -> the value as read (None: missing)
    visits: tuple[Decision | Ending, ...]
    distribution: tuple[float, ...]  # classification: = Tree.predict_proba; regression: (value,)
    prediction: object  # the class (= Tree.predict), or the value for a regression tree
    main_path: tuple[int, ...]  # node ids from the root, following the heaviest branch (ties: the first)

    @property
    def is_regression(self) -> bool:
        return not self.classes

    @property
    def decisions(self) -> tuple[Decision, ...]:
        return tuple(v for v in self.visits if isinstance(v, Decision))

    @property
    def endings(self) -> tuple[Ending, ...]:
        return tuple(v for v in self.visits if isinstance(v, Ending))

    @property
    def reached(self) -> tuple[int, ...]:
        """Every node the example reaches (with some weight), pre-order."""
        return tuple(dict.fromkeys(v.node_id for v in self.visits))

    @property
    def highlight(self) -> int:
        """The deepest node reached on the main path."""
        return self.main_path[-1]

    @property
    def is_split(self) -> bool:
        """Whether the example went down more than one branch somewhere (C4.5's fractions)."""
        return len(self.endings) > 1

    def lines(self, digits: int | None = 3) -> list[str]:
        """Each node reached, in words, in pre-order: 'node 2 (weight 0.467): ...'."""
        out = []
        for visit in self.visits:
            head = f"node {visit.node_id} (weight {number(visit.weight, digits)})"
            if isinstance(visit, Decision):
                out.append(f"{head}: {visit.describe(digits)}")
            else:
                out.append(f"{head}, {visit.describe(self.classes, self.target, digits)}")
        return out

    def combination(self, digits: int | None = 3) -> str:
        """How the endings make the prediction, in words."""
        endings = self.endings
        if self.is_regression:
            if len(endings) == 1:
                where = "leaf" if endings[0].is_leaf else "node"
                return f"One {where} reached with weight 1: {self.target} = {number(self.prediction, digits)}"
            terms = " + ".join(f"{number(e.weight, digits)} × {number(e.value, digits)}" for e in endings)
            return (f"The leaves' values weighted by the weight reaching them (Quinlan 1993): {terms} = "
                    f"{number(self.prediction, digits)}")
        result = f"{self.target} = {self.prediction}" + self._tie()
        if len(endings) == 1:
            where = "leaf" if endings[0].is_leaf else "node"
            return f"One {where} reached with weight 1: its class shares are the prediction -> {result}"
        terms = " + ".join(f"{number(e.weight, digits)} × ({', '.join(number(p, digits) for p in e.distribution)})"
                           for e in endings)
        total = ", ".join(number(p, digits) for p in self.distribution)
        return (f"Sum over the leaves of weight × class shares ({', '.join(self.classes)}; Quinlan 1993): "
                f"{terms} = ({total}) -> {result}")

    def contributions(self) -> pd.DataFrame:
        """What each ending adds to the prediction: its weight, and weight x value (regression)
        or weight x each class share; the last row ("sum") is the prediction itself."""
        columns = ["weight × value"] if self.is_regression else [f"weight × {c}" for c in self.classes]
        rows = [[end.weight] + ([end.weight * end.value] if self.is_regression
                                else [end.weight * p for p in end.distribution]) for end in self.endings]
        total = [sum(end.weight for end in self.endings)] + (
            [self.prediction] if self.is_regression else list(self.distribution))
        index = [f"{'leaf' if end.is_leaf else 'node'} {end.node_id}" for end in self.endings] + ["sum"]
        return pd.DataFrame(rows + [total], index=index, columns=["weight", *columns])

    def _tie(self) -> str:
        together = [c for c, t in zip(self.classes, routing.tied(self.distribution)) if t]  # predict's own rule
        return f" (a tie between {', '.join(together)}: the first class wins)" if len(together) > 1 else ""


def explain(tree, example: Mapping[str, object]) -> Explanation:
    """Follow one example (attribute -> value; a missing key, None, NaN, '' or '?' is missing)
    down `tree`, as `tree.predict` routes it.

    >>> from dtlearn import fit, load_dataset
    >>> tree = fit(load_dataset("tennis"), "id3")
    >>> e = explain(tree, {"outlook": "Sunny", "humidity": "High"})
    >>> e.prediction, e.lines()[0]
    ('No', "node 0 (weight 1): outlook = Sunny -> branch '= Sunny'")
    """
    frame = example_frame(tree, example)
    prepared = tree.prepare(frame)
    flat, rows = tree.encoded_rows(prepared)
    totals = routing.node_totals(flat, rows, np.zeros(1, dtype=np.int64), 1)
    arriving = {node_id: float(weights[0]) for node_id, weights in totals.items()}
    final = routing.distribution(flat, rows)[0]
    visits: list[Decision | Ending] = []
    stack = [0]  # flat indices, pre-order
    while stack:
        i = stack.pop()
        node = tree.node(int(flat.ids[i]))
        if flat.kind[i] == routing.LEAF_KIND:
            visits.append(_ending(tree, node, arriving[node.id], True))
            continue
        decision = _decide(flat, rows, i, node, arriving, frame)
        visits.append(decision)
        if decision.how == STOP:
            visits.append(_ending(tree, node, arriving[node.id], False))
        stack.extend(int(flat.child_start[i]) + b for b in reversed(decision.branches))
    if tree.is_regression:
        prediction: object = float(final[0])
    else:
        prediction = tree.classes[int(routing.most_probable(final))]
    example_read = tuple((a, frame.at[0, a]) for a in frame.columns)
    return Explanation(tree.target, () if tree.is_regression else tuple(tree.classes), example_read,
                       tuple(visits), tuple(float(p) for p in final), prediction, _main_path(visits))


def _ending(tree, node, weight: float, is_leaf: bool) -> Ending:
    value = float(node.value) if tree.is_regression else None
    return Ending(node.id, node.depth, weight, node.prediction, tuple(float(p) for p in node.distribution), value,
                  is_leaf)


def _reading(flat, rows, i: int, frame: pd.DataFrame, attribute: str, b: int) -> tuple[str | None, str]:
    """The example's value at flat node i as its test reads it, and its status."""
    a = int(flat.attribute[i])
    given = frame.at[0, attribute]
    if flat.kind[i] == routing.THRESHOLD_KIND:
        x = rows.values[0, a]
        if math.isnan(x):
            return (None, MISSING_VALUE) if given is None else (label(given), NOT_A_NUMBER)
        return label(float(x)), KNOWN
    code = int(rows.codes[0, a])
    if code == MISSING:
        return None, MISSING_VALUE
    if code == UNSEEN:
        return label(given), UNSEEN_VALUE
    return flat.vocabulary[a][code], (KNOWN if b >= 0 else NO_BRANCH)


def _surrogate_reading(flat, rows, s: int) -> str | None:
    a = int(flat.s_attribute[s])
    if flat.s_kind[s] == routing.THRESHOLD_KIND:
        x = rows.values[0, a]
        return None if math.isnan(x) else label(float(x))
    code = int(rows.codes[0, a])
    return flat.vocabulary[a][code] if code >= 0 else None


def _decide(flat, rows, i: int, node, arriving: dict, frame: pd.DataFrame) -> Decision:
    """The example at internal flat node i: which branch routing gives it, and why."""
    test = node.test
    b = routing.branch_at(flat, rows, i)
    value, status = _reading(flat, rows, i, frame, test.attribute, b)
    start, n_child = int(flat.child_start[i]), int(flat.n_child[i])
    count = int(flat.s_count[i])
    extra: dict = {"surrogate_count": count}
    how = TEST
    if b < 0:
        for k in range(count):  # the surrogates in rank order (routing: the first that can tell)
            b = routing.surrogate_at(flat, rows, i, k)
            if b >= 0:
                s = int(flat.s_start[i]) + k
                how = SURROGATE
                extra.update(surrogate=node.surrogates[k], surrogate_value=_surrogate_reading(flat, rows, s),
                             surrogate_rank=k + 1)
                break
    if b >= 0:
        branches: tuple[int, ...] = (b,)
    elif flat.surrogates:  # CART: the majority branch, or a stop where the branches tie
        how = MAJORITY if flat.majority[i] >= 0 else STOP
        branches = (int(flat.majority[i]),) if how == MAJORITY else ()
    else:  # C4.5: every branch with a share of the known training rows
        how = FRACTIONAL
        shares = tuple(float(flat.share[start + k]) for k in range(n_child))
        extra["shares"] = shares
        branches = tuple(k for k in range(n_child) if shares[k] > 0)
    child_ids = tuple(int(flat.ids[start + k]) for k in branches)
    return Decision(node.id, node.depth, arriving[node.id], test, value, status, how, branches, child_ids,
                    tuple(arriving[c] for c in child_ids), **extra)


def _main_path(visits) -> tuple[int, ...]:
    """From the root, the heaviest branch at every decision (ties: the first branch)."""
    decisions = {v.node_id: v for v in visits if isinstance(v, Decision)}
    path = [visits[0].node_id]
    while path[-1] in decisions and decisions[path[-1]].branches:
        d = decisions[path[-1]]
        path.append(d.child_ids[int(np.argmax(d.child_weights))])
    return tuple(path)
