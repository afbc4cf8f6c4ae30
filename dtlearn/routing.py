"""Rows down a tree: the one place that decides which branch a row takes.

The rule: a threshold test sends a value <= t to branch 0, a larger one to branch 1, a missing
value nowhere (-1); a categorical test maps the value's code through `value_map` (-1: it cannot
place the value), and a value never seen in training by its own rule (`code_map`). It is written
once, compiled (`kernels.routing.value_branch`, `code_branch`), and applied here to a column of
training rows (`branches`), by the engine to a level's rows, and by `kernels.route` to every row
down a whole tree.

`FlatTree` lays a tree's nodes out as arrays (each node's children consecutive) and
`kernels.route` walks every row down it, for prediction (`distribution`), the leaf of each row
(`leaves`) and the weight of each class reaching every node (`node_totals`, for pruning).
`branches` gives the branch of rows at one test, for induction's own bookkeeping
(`training_rows`, the rows that growth sent to a node).

New rows are encoded with the training encoding: a numeric attribute's cell that is not a
number is missing; a categorical value is matched by its label (`data.label`), so the number 1
matches "1", and a value the tree never saw (another spelling, `True` for a column trained on
"TRUE") is unknown. A missing or unknown value follows the tree's missing-value rule: C4.5's
fractional weights down every branch, or CART's surrogate splits, then the heavier branch.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from . import budget, kernels
from .conditions import MultiwayTest, ThresholdTest
from .encoding import MISSING, UNSEEN, codes_for

LEAF_KIND, THRESHOLD_KIND, CODE_KIND = 0, 1, 2


# --- one test, training rows --------------------------------------------------------------------

def branches(encoded, test, rows: np.ndarray) -> np.ndarray:
    """The branch of each training row at `test`: 0, 1, ... or -1 where its value is missing."""
    out = np.empty(len(rows), dtype=np.int64)
    if isinstance(test, ThresholdTest):
        kernels.branches_by_threshold(encoded.numeric(test.attribute)[rows], test.threshold, out)
    else:
        lookup = code_map(test, encoded.categories(test.attribute))
        kernels.branches_by_code(encoded.codes(test.attribute)[rows], lookup, 1, out)
    return out


def value_map(test, categories) -> np.ndarray:
    """Branch of each category (a code), -1 where the test cannot place it."""
    if isinstance(test, MultiwayTest):
        where = {v: b for b, v in enumerate(test.values)}
        return np.array([where.get(c, -1) for c in categories], dtype=np.int64)
    left = set(test.left)
    return np.array([0 if c in left else 1 for c in categories], dtype=np.int64)


def code_map(test, categories) -> np.ndarray:
    """A categorical test's map as the kernels read it (`code_branch`, from position 1): first
    where a value never seen in training goes (a subset test: its second branch; a multiway
    test: nowhere, -1), then `value_map`."""
    return np.concatenate(([-1 if isinstance(test, MultiwayTest) else 1], value_map(test, categories)))


def surrogate_map(test, categories) -> np.ndarray:
    """A categorical surrogate's map, read as `code_map`'s: a value it never saw, or one neither side
    lists, it cannot tell (-1); the others go to the primary branch its side stands for."""
    known, inside = set(test.left) | set(test.right), set(test.left)
    return np.array([-1] + [(0 if c in inside else 1) if c in known else -1 for c in categories], dtype=np.int64)


def surrogate_branches(encoded, surrogate, rows: np.ndarray) -> np.ndarray:
    """The primary branch a surrogate sends each training row to (-1: it cannot tell)."""
    test = surrogate.test
    if isinstance(test, ThresholdTest):
        branch = branches(encoded, test, rows)
    else:
        branch = np.empty(len(rows), dtype=np.int64)
        lookup = surrogate_map(test, encoded.categories(test.attribute))
        kernels.branches_by_code(encoded.codes(test.attribute)[rows], lookup, 1, branch)
    return np.where(branch < 0, -1, branch ^ int(surrogate.reversed))


def training_rows(encoded, ancestry, settings) -> tuple[np.ndarray, np.ndarray]:
    """The training rows (and weights) that growth sent down `ancestry` ((split step, branch)
    pairs from the root): a row whose value is missing follows every branch with the branch's
    share of the known weight (C4.5), or, with surrogates, the first surrogate that can place
    it, else the branch the majority went (rpart); rows nothing can place stay behind.

    Each row goes its own way, so the rows split in two. A row every test of the path can
    place takes one fixed path: the path's tests on one attribute combine into one condition
    (thresholds into an interval lo < x <= hi, categorical tests into a set of codes), checked
    for all rows at once, and such a row arrives with weight 1 or not at all. Only the rows
    some test cannot place (a missing value) are walked down split by split (`_walk`), and only
    through the splits on the attributes where that happens."""
    budget.check_time()  # asked node by node (a large CART tree's surrogates, when it predicts): O(rows) each
    n = encoded.n_rows
    tests: dict = {}  # attribute -> {reads its numbers (else codes): positions in the path of its tests}
    for i, (step, _) in enumerate(ancestry):  # (no tuple kept per split: they would wake the garbage collector)
        tests.setdefault(step.test.attribute, {}).setdefault(isinstance(step.test, ThresholdTest), []).append(i)
    failed, unsure = np.zeros(n, dtype=bool), np.zeros(n, dtype=bool)
    groups = []
    for attribute, kinds in tests.items():
        for numbers, where in kinds.items():
            fails, unknown = _settled(encoded, attribute, numbers, [ancestry[i] for i in where])
            failed |= fails
            unsure |= unknown
            groups.append((attribute, numbers, where, unknown))
    walked = np.flatnonzero(unsure & ~failed)  # a row failing a test it can be placed by never arrives
    groups = [(attribute, numbers, where) for attribute, numbers, where, unknown in groups if unknown[walked].any()]
    rows, weights = _walk(encoded, ancestry, groups, settings, walked)
    reached = ~(failed | unsure)
    reached[rows] = True
    weight = np.ones(n)
    weight[rows] = weights
    arrived = np.flatnonzero(reached)
    return arrived, weight[arrived]


def _settled(encoded, attribute: str, numbers: bool, group) -> tuple[np.ndarray, np.ndarray]:
    """(rows,) bool pair for the path's splits `group` on one attribute (read as numbers or as
    codes): the rows some test places on another branch than the path's (they never arrive),
    and the rows some test cannot place."""
    if numbers:
        values = encoded.numeric(attribute)
        above = [step.test.threshold for step, b in group if b == 1]  # x > t
        below = [step.test.threshold for step, b in group if b == 0]  # x <= t
        inside = np.ones(len(values), dtype=bool)
        if above:
            inside &= values > max(above)
        if below:
            inside &= values <= min(below)
        unknown = np.isnan(values)
        return ~unknown & ~inside, unknown
    categories = encoded.categories(attribute)
    fails = np.zeros(len(categories), dtype=bool)
    unplaced = np.zeros(len(categories), dtype=bool)
    for step, b in group:
        branch = value_map(step.test, categories)
        fails |= (branch >= 0) & (branch != b)
        unplaced |= branch < 0
    codes = encoded.codes(attribute)
    known = codes >= 0
    code = np.maximum(codes, 0)
    return known & fails[code], ~known | unplaced[code]


def _walk(encoded, ancestry, groups, settings, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rows (ascending) that pass every test of the path able to place them, down the path's
    splits in `groups` ((attribute, reads its numbers, path positions): where some of the rows
    cannot be placed): the rows that arrive and their weights. A split able to place a row
    sends it the path's way, so only where it cannot does the split's missing-value rule act."""
    if not groups:  # (then no rows either)
        return rows, np.ones(len(rows))
    unknown = _unknown_at(encoded, ancestry, groups, rows)  # path position -> (rows,) bool
    positions = sorted(unknown)
    if settings.missing_values == "surrogate":
        return _follow(encoded, ancestry, positions, unknown, rows)
    # C4.5: a row's weight is the product, in path order (as growth multiplied), of the shares of
    # the splits that cannot place it; a share of 0 leaves it behind. Rows unknown at the same
    # splits (the same pattern) get the same product, made once.
    masks = list({id(mask): mask for mask in unknown.values()}.values())
    which = {id(mask): k for k, mask in enumerate(masks)}
    patterns, pattern_of = np.unique(np.array(masks).T, axis=0, return_inverse=True)
    products, shared = np.ones(len(patterns)), np.ones(len(patterns), dtype=bool)
    for p, pattern in enumerate(patterns):
        for i in positions:
            if pattern[which[id(unknown[i])]]:
                step, b = ancestry[i]
                share = step.branch_fractions[b]
                if not share > 0:
                    shared[p] = False
                    break
                products[p] = products[p] * share
    pattern_of = pattern_of.reshape(-1)
    keep = shared[pattern_of]
    return rows[keep], products[pattern_of][keep]


def _unknown_at(encoded, ancestry, groups, rows: np.ndarray) -> dict:
    """Path position -> which of the rows its split cannot place (a missing value; a value a
    multiway test does not list). The splits on one number share one array."""
    unknown: dict = {}
    for attribute, numbers, where in groups:
        if numbers:
            unknown.update(dict.fromkeys(where, np.isnan(encoded.numeric(attribute)[rows])))
            continue
        codes = encoded.codes(attribute)[rows]
        missing, code = codes < 0, np.maximum(codes, 0)
        categories = encoded.categories(attribute)
        for i in where:
            unplaced = value_map(ancestry[i][0].test, categories) < 0
            unknown[i] = missing | unplaced[code] if unplaced.any() else missing
    return unknown


def _follow(encoded, ancestry, positions, unknown: dict, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """CART: at each split, the rows it cannot place follow the first surrogate that can place
    them, else the branch the majority went; they arrive if that is the path's branch."""
    alive = np.ones(len(rows), dtype=bool)
    for i in positions:
        step, b = ancestry[i]
        if not step.found_surrogates:  # every unknown row goes the majority's way (-1: nowhere)
            if step.majority_branch != b:
                alive &= ~unknown[i]
            continue
        here = np.flatnonzero(alive & unknown[i])
        branch = np.full(len(here), -1)
        for surrogate in step.found_surrogates:
            lost = branch < 0
            if not lost.any():
                break
            branch = np.where(lost, surrogate_branches(encoded, surrogate, rows[here]), branch)
        if step.majority_branch >= 0:
            branch = np.where(branch < 0, step.majority_branch, branch)
        alive[here] = branch == b
    return rows[alive], np.ones(int(alive.sum()))


# --- a whole tree, new rows ---------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class FlatTree:
    """A tree's nodes as arrays for `kernels.route` (flat index; ids maps it to node ids)."""

    ids: np.ndarray
    kind: np.ndarray
    attribute: np.ndarray  # index into `attributes`
    threshold: np.ndarray
    map_start: np.ndarray  # into maps (maps[map_start - 1]: the branch of a never-seen value)
    maps: np.ndarray
    child_start: np.ndarray
    n_child: np.ndarray
    share: np.ndarray  # each node's share of its parent's known weight
    majority: np.ndarray  # FOLLOW's branch (-1: the row ends at the node)
    heaviest: np.ndarray  # the branch with the largest share (apply)
    s_start: np.ndarray
    s_count: np.ndarray
    s_kind: np.ndarray
    s_attribute: np.ndarray
    s_threshold: np.ndarray
    s_map_start: np.ndarray
    s_reversed: np.ndarray
    node_values: np.ndarray  # (nodes, classes): distribution; regression: (nodes, 1) value
    attributes: tuple[str, ...]  # the attributes the tree reads
    numeric: tuple[bool, ...]  # read as numbers (thresholds) or as labels (codes)
    vocabulary: tuple[tuple[str, ...], ...]  # per attribute: the labels its codes index
    surrogates: bool  # CART's rules for unknown values

    @property
    def tests(self) -> kernels.FlatTests:
        """The nodes' tests as `kernels.route` takes them."""
        return kernels.FlatTests(self.kind, self.attribute, self.threshold, self.map_start, self.maps, self.child_start,
                                 self.n_child, self.share, self.node_values)

    @property
    def surrogate_tests(self) -> kernels.FlatSurrogates:
        """The nodes' surrogates as `kernels.route` takes them."""
        return kernels.FlatSurrogates(self.s_start, self.s_count, self.s_kind, self.s_attribute, self.s_threshold,
                                      self.s_map_start, self.s_reversed)


def flatten(root, regression: bool, surrogates: bool) -> FlatTree:
    """The arrays of a built tree (`tree.Node`), breadth-first so that siblings are consecutive."""
    nodes, starts = [root], []
    while len(starts) < len(nodes):  # breadth-first: the list grows while it is read
        starts.append(len(nodes))
        nodes.extend(nodes[len(starts) - 1].children)
    child_start = np.array(starts, dtype=np.int64)
    usage: dict[str, set] = {}  # attribute -> the labels its categorical tests mention
    numeric: dict[str, bool] = {}

    def note(test) -> None:
        if isinstance(test, ThresholdTest):
            numeric[test.attribute] = True
            return
        numeric.setdefault(test.attribute, False)
        words = test.values if isinstance(test, MultiwayTest) else test.left + test.right
        usage.setdefault(test.attribute, set()).update(words)

    for node in nodes:
        if node.test is not None:
            note(node.test)
            for s in node.surrogates if surrogates else ():
                note(s.test)
    attributes = tuple(numeric)
    index = {a: i for i, a in enumerate(attributes)}
    vocabulary = tuple(tuple(sorted(usage.get(a, ()))) for a in attributes)
    n = len(nodes)
    kind = np.zeros(n, dtype=np.int64)
    attribute = np.zeros(n, dtype=np.int64)
    threshold = np.zeros(n)
    map_start = np.zeros(n, dtype=np.int64)
    n_child = np.zeros(n, dtype=np.int64)
    share = np.ones(n)
    majority = np.full(n, -1, dtype=np.int64)
    heaviest = np.zeros(n, dtype=np.int64)
    maps: list[int] = []
    s_rows: list[tuple] = []
    s_start = np.zeros(n, dtype=np.int64)
    s_count = np.zeros(n, dtype=np.int64)
    width = 1 if regression else len(root.distribution)
    node_values = np.zeros((n, width))
    for i, node in enumerate(nodes):
        node_values[i] = [node.value] if regression else node.distribution
        n_child[i] = len(node.children)
        for k, child in enumerate(node.children):
            share[child_start[i] + k] = node.branch_fractions[k] if node.branch_fractions else 0.0
        if node.test is None or not node.children:
            continue
        test = node.test
        attribute[i] = index[test.attribute]
        fractions = np.asarray(node.branch_fractions, dtype=float)
        heaviest[i] = int(np.argmax(fractions)) if len(fractions) else 0
        if isinstance(test, ThresholdTest):
            kind[i], threshold[i] = THRESHOLD_KIND, test.threshold
        else:
            kind[i] = CODE_KIND
            map_start[i] = len(maps) + 1
            maps.extend(code_map(test, vocabulary[index[test.attribute]]).tolist())
        if surrogates:
            sizes = [child.weight for child in node.children]
            majority[i] = int(np.argmax(sizes)) if len(set(sizes)) > 1 else -1
            s_start[i] = len(s_rows)
            for s in node.surrogates:
                s_test = s.test
                if isinstance(s_test, ThresholdTest):
                    s_rows.append((THRESHOLD_KIND, index[s_test.attribute], s_test.threshold, 0, int(s.reversed)))
                else:
                    start = len(maps) + 1
                    maps.extend(surrogate_map(s_test, vocabulary[index[s_test.attribute]]).tolist())
                    s_rows.append((CODE_KIND, index[s_test.attribute], 0.0, start, int(s.reversed)))
            s_count[i] = len(s_rows) - s_start[i]
        else:
            majority[i] = heaviest[i]
    columns = list(zip(*s_rows)) if s_rows else [(), (), (), (), ()]
    return FlatTree(
        ids=np.array([node.id for node in nodes], dtype=np.int64), kind=kind, attribute=attribute,
        threshold=threshold, map_start=map_start, maps=np.array(maps if maps else [0], dtype=np.int64),
        child_start=child_start, n_child=n_child, share=share, majority=majority, heaviest=heaviest,
        s_start=s_start, s_count=s_count, s_kind=np.array(columns[0], dtype=np.int64),
        s_attribute=np.array(columns[1], dtype=np.int64), s_threshold=np.array(columns[2], dtype=float),
        s_map_start=np.array(columns[3], dtype=np.int64), s_reversed=np.array(columns[4], dtype=np.int64),
        node_values=node_values, attributes=attributes, numeric=tuple(numeric[a] for a in attributes),
        vocabulary=vocabulary, surrogates=surrogates)


@dataclass(frozen=True, eq=False)
class EncodedRows:
    values: np.ndarray  # (rows, attributes) float, NaN = missing (a row's values side by side)
    codes: np.ndarray  # (rows, attributes) int64: MISSING, UNSEEN or a code into the vocabulary
    n: int

    def has_unknown(self, flat: FlatTree) -> bool:
        """Whether any value a test reads is missing or never seen."""
        return bool(self.unknown(flat).any())

    def unknown(self, flat: FlatTree) -> np.ndarray:
        """(rows,) bool: the rows with a missing or never-seen value of an attribute the tree tests
        (such a row may be shared between branches or follow a surrogate)."""
        out = np.zeros(self.n, dtype=bool)
        for i, numeric in enumerate(flat.numeric):
            if numeric:
                out |= np.isnan(self.values[:, i])
            if flat.vocabulary[i]:
                out |= self.codes[:, i] < 0
        return out

    def subset(self, which: np.ndarray) -> "EncodedRows":
        return EncodedRows(self.values[which], self.codes[which], int(np.count_nonzero(which)))

    def kernel_rows(self, weights=None) -> kernels.Rows:
        """The rows as `kernels.route` takes them, each of weight 1 unless `weights` says."""
        return kernels.Rows(self.values, self.codes, np.ones(self.n) if weights is None else weights)


def encode_rows(flat: FlatTree, frame: pd.DataFrame) -> EncodedRows:
    """New rows in the tree's encoding (see the module docstring)."""
    n = len(frame)
    values = np.full((n, len(flat.attributes)), np.nan)
    codes = np.full((n, len(flat.attributes)), MISSING, dtype=np.int64)
    for i, attribute in enumerate(flat.attributes):
        if attribute not in frame.columns:
            raise ValueError(f"The rows to predict have no column '{attribute}', which the tree tests.")
        column = frame[attribute]
        if flat.numeric[i]:
            values[:, i] = pd.to_numeric(column, errors="coerce").to_numpy(dtype=float, na_value=np.nan)
        if flat.vocabulary[i]:
            codes[:, i] = codes_for(column, flat.vocabulary[i])
    return EncodedRows(values, codes, n)


def encode_training(flat: FlatTree, encoded) -> EncodedRows:
    """The training rows (`encoding.Encoded`) in `flat`'s encoding, read as `branches` reads
    them: a category the tree's tests never mention is unseen (a subset test's second branch)."""
    n = encoded.n_rows
    values = np.full((n, len(flat.attributes)), np.nan)
    codes = np.full((n, len(flat.attributes)), MISSING, dtype=np.int64)
    for i, attribute in enumerate(flat.attributes):
        if flat.numeric[i]:
            values[:, i] = encoded.numeric(attribute)
        if flat.vocabulary[i]:
            where = {word: j for j, word in enumerate(flat.vocabulary[i])}
            lookup = [where.get(c, UNSEEN) for c in encoded.categories(attribute)]
            codes[:, i] = np.array(lookup + [MISSING], dtype=np.int64)[encoded.codes(attribute)]
    return EncodedRows(values, codes, n)


def single_paths(flat: FlatTree, rows: EncodedRows) -> np.ndarray | None:
    """The flat index of the leaf each row reaches (`flat` without surrogates) when every test
    on its way can place it; None when some row meets a test that cannot (a missing value, a
    value a multiway test does not list), where a missing-value rule would decide."""
    leaf_of = np.full(rows.n, -1, dtype=np.int64)
    _route(flat, rows, kernels.FOLLOW, np.full(len(flat.ids), -1, dtype=np.int64), leaf_of=leaf_of)  # -1: stop there
    return leaf_of if rows.n == 0 or not flat.kind[leaf_of].any() else None


def _route(flat: FlatTree, rows: EncodedRows, mode: int, majority: np.ndarray, *, weights=None, y=None,
           out_values=None, node_totals=None, leaf_of=None) -> None:
    empty, none = np.zeros((0, 0)), np.zeros(0, dtype=np.int64)
    out = kernels.Routed(empty if out_values is None else out_values, none if y is None else y,
                         empty if node_totals is None else node_totals, none if leaf_of is None else leaf_of)
    kernels.route(rows.kernel_rows(weights), flat.tests, flat.surrogate_tests, mode, majority, out)


def branch_at(flat: FlatTree, rows: EncodedRows, index: int, row: int = 0) -> int:
    """The branch the test of flat node `index` gives one row, as `kernels.route` reads it:
    0, 1, ... or -1 where the value is missing or the test cannot place it (the tree's
    missing-value rule then decides). A subset test sends a value it never saw to its second
    branch; a multiway test cannot place one."""
    a, out = flat.attribute[index], np.empty(1, dtype=np.int64)
    if flat.kind[index] == THRESHOLD_KIND:
        kernels.branches_by_threshold(rows.values[[row], a], flat.threshold[index], out)
    else:
        kernels.branches_by_code(rows.codes[[row], a], flat.maps, flat.map_start[index], out)
    return int(out[0])


def surrogate_at(flat: FlatTree, rows: EncodedRows, index: int, k: int, row: int = 0) -> int:
    """The primary branch the k-th surrogate (rank order) of flat node `index` gives one row, as
    `kernels.route` reads it (-1: that surrogate cannot tell either)."""
    if not 0 <= k < flat.s_count[index]:
        raise ValueError(f"Node {int(flat.ids[index])} has {int(flat.s_count[index])} surrogates, not {k + 1}.")
    start, count = flat.s_start.copy(), np.zeros_like(flat.s_count)
    start[index], count[index] = flat.s_start[index] + k, 1  # a window of this one surrogate
    window = flat.surrogate_tests._replace(start=start, count=count)
    return int(kernels.surrogate_branch(index, row, window, flat.maps, rows.kernel_rows()))


def distribution(flat: FlatTree, rows: EncodedRows) -> np.ndarray:
    """(rows, classes) class probabilities, or (rows, 1) values: C4.5 shares a row with an
    unknown value among the branches; CART follows its surrogates, then the heavier child,
    and stops at a node whose children weigh the same."""
    out = np.zeros((rows.n, flat.node_values.shape[1]))
    mode = kernels.FOLLOW if flat.surrogates else kernels.SHARE
    _route(flat, rows, mode, flat.majority, out_values=out)
    return out


TIED = 1e-9  # class shares this close (relative) to the largest are a tie: sums over branches round differently


def tied(distributions: np.ndarray) -> np.ndarray:
    """Which classes share the largest probability, along the last axis. A row shared between
    branches sums its leaves' shares in one order or another; rounding must not break a tie."""
    d = np.asarray(distributions, dtype=float)
    best = d.max(axis=-1, keepdims=True)
    return d >= best - TIED * np.maximum(np.abs(best), 1.0)


def most_probable(distributions: np.ndarray) -> np.ndarray:
    """The index of the most probable class along the last axis; a tie: the first class.

    >>> shares = np.array([[0.3, 0.1 + 0.2]])  # 0.3 and 0.30000000000000004: a tie in arithmetic
    >>> most_probable(shares).tolist(), np.argmax(shares, axis=-1).tolist()
    ([0], [1])
    """
    return np.argmax(tied(distributions), axis=-1)


def reach(flat: FlatTree, rows: EncodedRows) -> np.ndarray:
    """(flat nodes, rows): the weight of each row reaching each node, routed as in prediction
    (`distribution`): a C4.5 row shared at an unknown value reaches every branch in part."""
    totals = np.zeros((len(flat.ids), rows.n))
    mode = kernels.FOLLOW if flat.surrogates else kernels.SHARE
    _route(flat, rows, mode, flat.majority, y=np.arange(rows.n, dtype=np.int64), node_totals=totals)
    return totals


def leaves(flat: FlatTree, rows: EncodedRows) -> np.ndarray:
    """The node id where each row ends, an unknown value following the heaviest branch (CART:
    its surrogates first, then the heavier child)."""
    leaf_of = np.full(rows.n, -1, dtype=np.int64)
    majority = np.where(flat.majority >= 0, flat.majority, flat.heaviest) if flat.surrogates else flat.heaviest
    _route(flat, rows, kernels.FOLLOW, majority, leaf_of=leaf_of)
    return flat.ids[leaf_of]


def node_totals(flat: FlatTree, rows: EncodedRows, y: np.ndarray, n_columns: int, weights=None) -> dict:
    """node id -> the weight of each class (column y) of the rows reaching it, routed as in
    prediction; `weights` (default 1) are the rows' own weights (any linear quantity)."""
    totals = np.zeros((len(flat.ids), n_columns))
    mode = kernels.FOLLOW if flat.surrogates else kernels.SHARE
    _route(flat, rows, mode, flat.majority, weights=None if weights is None else np.asarray(weights, dtype=float),
           y=np.asarray(y, dtype=np.int64), node_totals=totals)
    return {int(node_id): totals[i] for i, node_id in enumerate(flat.ids)}
