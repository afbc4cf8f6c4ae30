"""Growing a tree level by level: every node of a depth scored at once.

Rows are encoded once; every numeric attribute is sorted once, and each node owns a segment of
every sorted order, which a split partitions stably into its children's segments (so nothing is
sorted again). At each level the compiled `kernels` score every cut and every multiway split
of every node, attributes the kernels do not cover (CART's subsets) are scored node by node
with the `candidates` definitions, and the shared rules of `splits` choose. What is kept per
node is what induction needs: its statistics, its decision and the chosen test; the full
candidate table of any node is rebuilt on request (`steps.Growth`).

The result, `Grown`, lists the nodes in the order they were made (level by level);
`induction` turns it into steps in depth-first order.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from . import budget, kernels, subset_scan
from .candidates import data_value_below, sorted_order
from .conditions import MultiwayTest, ThresholdTest
from .criteria import criterion
from .rules import NO_KNOWN, ONE_BRANCH, SIZE_TOLERANCE, SMALL_LEAF, TIE, USED
from .splits import AttributeBest, Bests, attribute_block, block_best, choose, correction_of, split_limits
from .surrogates import SortedValues, find_surrogates
from .routing import surrogate_branches, code_map
from .summary import summarize_many

# why a node became a leaf (in the order the rules are tried; induction words them)
EMPTY, PURE, MAX_DEPTH, MIN_SPLIT, LEAF_SIZE, MIN_CASES, MIN_PURITY, NO_ATTRIBUTES = range(8)
IDENTICAL, MIN_LEAF, NO_VALID_SPLIT, ZERO_GAIN, MIN_GAIN = range(8, 13)
STOPS = ("empty", "pure", "max_depth", "min_samples_split", "leaf_size", "min_samples_split", "min_purity",
         "no_attributes", "identical", "min_samples_leaf", "no_valid_split", "zero_gain", "min_gain")


@dataclass(eq=False)
class Grown:
    """Every node in the order it was made; a node's children are consecutive."""

    parent: list = field(default_factory=list)  # per level: (L,) parent's index (-1: the root)
    branch: list = field(default_factory=list)  # (L,) branch index under the parent
    depth: list = field(default_factory=list)
    stats: list = field(default_factory=list)  # (L, k) class weights, or (L, 3) moments
    stop: list = field(default_factory=list)  # (L,) -1: split, else the rule (STOPS)
    first_child: list = field(default_factory=list)  # (L,) index of the first child (splits)
    tests: dict = field(default_factory=dict)  # node index -> test
    numbers: dict = field(default_factory=dict)  # node index -> (score, gain, average, kind, tied, ties)
    fractions: dict = field(default_factory=dict)  # node index -> branch shares of the known weight
    surrogates: dict = field(default_factory=dict)  # node index -> surrogates found (CART)
    majority: dict = field(default_factory=dict)  # node index -> where unplaceable rows went (CART)
    medians: dict = field(default_factory=dict)  # node index -> the leaf's median (regression)
    leaf_numbers: dict = field(default_factory=dict)  # node index -> the best gain, for a leaf's reason
    midpoints: dict = field(default_factory=dict)  # node index -> the cut's midpoint (before J48 moves it)
    size: int = 0
    # each training row's leaf (node index), when every row took one path (no missing value);
    # else None. Pessimistic pruning reads it instead of routing every row down the tree again
    leaf_of_row: np.ndarray | None = None  # int32: 4 bytes a row

    def finish(self) -> None:
        for name in ("parent", "branch", "depth", "stop", "first_child"):
            parts = getattr(self, name)
            setattr(self, name, np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64))
        self.stats = np.concatenate(self.stats) if self.stats else np.zeros((0, 0))
        if self.leaf_of_row is not None and (self.leaf_of_row < 0).any():
            self.leaf_of_row = None


@dataclass(eq=False)
class _Level:
    """The nodes of one depth. Node i owns positions starts[i]..ends[i] of the buffers (shared by
    the levels while no row is shared between branches: a split reorders its segment in place)."""

    starts: np.ndarray  # (L,)
    ends: np.ndarray
    rows: np.ndarray  # (M,) int32: the training row at each position
    w: np.ndarray  # (M,) its weight (fractional below a C4.5 split on a missing value)
    cls: np.ndarray  # (M,) int32: its class (classification)
    ypos: np.ndarray  # (M,) its target (regression; empty otherwise)
    order: np.ndarray  # (A_threshold, M) int32: positions sorted by each numeric attribute, per node
    vals: np.ndarray  # (A_threshold, M) the value at each place of `order`
    parent: np.ndarray  # (L,) index of the parent node (-1: the root)
    branch: np.ndarray
    depth: np.ndarray
    used: np.ndarray  # (L, A) bool: attributes ID3 may not test again
    fallback: np.ndarray  # (L, k) parent's distribution, or (L, 1) parent's value
    _unit: bool | None = None

    @property
    def size(self) -> int:
        return len(self.starts)

    @property
    def buffers(self) -> kernels.Level:
        """The nodes and buffers as the kernels take them."""
        return kernels.Level(self.starts, self.ends, self.rows, self.w, self.cls, self.ypos, self.order, self.vals)

    @property
    def unit(self) -> bool:
        """Every weight is 1, so class weights are whole numbers. Found once per buffer and handed
        down with it: a scan of the whole buffer at every level is quadratic on a deep tree."""
        if self._unit is None:
            self._unit = not (self.w != 1.0).any()
        return self._unit


class _Plan:
    """How each attribute is scored: a compiled threshold scan, a compiled multiway scan, or the
    `candidates` definitions node by node (CART's subsets and anything else)."""

    def __init__(self, encoded, settings) -> None:
        self.encoded, self.settings = encoded, settings
        attributes = encoded.attributes
        kinds = [self._kind(a) for a in attributes]
        self.threshold = [j for j, k in enumerate(kinds) if k == "threshold"]
        self.threshold_row = {j: i for i, j in enumerate(self.threshold)}
        self.multiway = [j for j, k in enumerate(kinds) if k == "multiway"]
        # a criterion no compiled scan ranks by (its record has no `kernel`): every attribute is scored in
        # Python by its `measures` definition; numbers are still sorted once and routed by their cut
        self.scanned = criterion(settings.criterion).kernel is not None
        self.python = [j for j, k in enumerate(kinds) if k == "python" or not self.scanned]
        self.categorical = [j for j, k in enumerate(kinds) if k != "threshold"]
        # (rows, attributes): a row's codes side by side, read together by the multiway scan
        self.codes = np.ascontiguousarray(np.stack([encoded.codes(attributes[j]) for j in self.categorical], axis=1)
                                          .astype(np.int32)) if self.categorical else np.zeros((encoded.n_rows, 0),
                                                                                              dtype=np.int32)
        self.code_row = {j: i for i, j in enumerate(self.categorical)}
        entropy = criterion(settings.criterion).impurity == "entropy" and not encoded.is_regression
        self.scoring = _scoring(encoded, settings, kernels.xlogx_table(encoded.n_rows if entropy else 0))
        self.n_values = np.array([len(encoded.categories(attributes[j])) for j in self.multiway], dtype=np.int64)
        self.mw_codes = np.ascontiguousarray(self.codes[:, [self.code_row[j] for j in self.multiway]]) \
            if self.multiway else np.zeros((encoded.n_rows, 0), dtype=np.int32)
        self.many_valued = np.array([k != "threshold" and self._many(a) for a, k in zip(attributes, kinds)],
                                    dtype=bool)
        # a used attribute blocks ID3's reuse: categorical ones, and numbers split per value
        self.blocks_reuse = np.array([encoded.kind(a) == "categorical" or settings.numeric_split == "multiway"
                                      for a in attributes], dtype=bool)
        self._multiway_tests: dict = {}
        # scored in Python: subsets for a whole level at once where `subset_scan` applies, else node by node
        batched = subset_scan.applies(encoded, settings)
        self.batched = [j for j in self.python if batched and encoded.kind(attributes[j]) == "categorical"
                        and subset_scan.fits(encoded, settings, attributes[j])]
        self.one_by_one = [j for j in self.python if j not in self.batched]

    def multiway_test(self, j: int) -> MultiwayTest:
        """Attribute j's one-branch-per-value test, one object for every node that makes it (its
        branch labels are made once: 6,000 nodes splitting 6,000 ways held 36 million strings)."""
        if j not in self._multiway_tests:
            attribute = self.encoded.attributes[j]
            self._multiway_tests[j] = MultiwayTest(attribute, self.encoded.categories(attribute))
        return self._multiway_tests[j]

    def _kind(self, attribute: str) -> str:
        e, s = self.encoded, self.settings
        if e.kind(attribute) == "numeric" and s.numeric_split == "threshold":
            return "threshold"
        subsets = s.categorical_split == "subset" and e.kind(attribute) == "categorical"
        return "python" if subsets or e.is_regression else "multiway"

    def _many(self, attribute: str) -> bool:
        return len(self.encoded.categories(attribute)) >= 0.3 * self.encoded.n_rows

    def presorted(self) -> tuple[np.ndarray, np.ndarray]:
        """Each numeric attribute's rows sorted by value (missing values last, ties in row order),
        and the values in that order."""
        n, attributes = self.encoded.n_rows, self.encoded.attributes
        order = np.empty((len(self.threshold), n), dtype=np.int32)
        vals = np.empty((len(self.threshold), n))
        for i, j in enumerate(self.threshold):
            column = self.encoded.numeric(attributes[j])
            order[i] = sorted_order(column)
            vals[i] = column[order[i]]
        return order, vals


def _scoring(encoded, settings, xlogx: np.ndarray) -> kernels.Scoring:
    """What the compiled scans rank by and the split rules they apply. Regression's cuts keep
    only the leaf size (no J48 minimum, no cut tolerance)."""
    s = settings
    rank_by = criterion(s.criterion).kernel
    rank_by = kernels.BY_GAIN if rank_by is None else rank_by  # a criterion no scan scores: nothing is scanned
    if encoded.is_regression:
        return kernels.Scoring(rank_by, np.ones(1), False, 1, float(s.min_samples_leaf), 0.0, 0.0, False,
                               False, xlogx)
    return kernels.Scoring(rank_by, encoded.factor, bool(encoded.sized), len(encoded.classes),
                           float(s.min_samples_leaf), float(s.min_branch_cases), float(s.cut_tolerance),
                           bool(s.threshold_correction), bool(s.threshold_by_ratio), xlogx)


def grow(encoded, settings) -> Grown:
    """Every node's decision, level by level (see the module docstring)."""
    plan = _Plan(encoded, settings)
    return _grow_all(plan, _root(plan), record_leaves=encoded.complete)


def _grow_all(plan: _Plan, level: _Level, record_leaves: bool = False) -> Grown:
    """Level after level until no node splits, within the caller's budget (dtlearn.budget);
    progress is the share of rows already settled in leaves. `record_leaves`: keep each row's leaf."""
    grown = Grown()
    if record_leaves:
        grown.leaf_of_row = np.full(plan.encoded.n_rows, -1, dtype=np.int32)
    rows = max(int(level.ends.sum() - level.starts.sum()), 1)
    while level.size:
        budget.check_time()
        level = _grow_level(plan, level, grown)
        waiting = int(level.ends.sum() - level.starts.sum())
        budget.report("growing", 1.0 - min(waiting / rows, 1.0), f"{grown.size:,} nodes so far")
    grown.finish()
    return grown


def _root(plan: _Plan) -> _Level:
    encoded = plan.encoded
    n = encoded.n_rows
    k = 1 if encoded.is_regression else len(encoded.classes)
    uniform = np.zeros((1, 1)) if encoded.is_regression else np.full((1, k), 1.0 / k)
    one = np.array([0])
    order, vals = plan.presorted()
    small = np.int8 if len(encoded.classes) < 127 else np.int32  # fewer bytes: fewer cache misses
    cls = np.zeros(n, dtype=np.int8) if encoded.is_regression else encoded.y.astype(small)
    ypos = encoded.y.astype(float) if encoded.is_regression else np.zeros(0)
    return _Level(one, np.array([n]), np.arange(n, dtype=np.int32), np.ones(n), cls, ypos, order, vals,
                  one - 1, one - 1, one, np.zeros((1, len(encoded.attributes)), bool), uniform)


def _node_stats(encoded, level: _Level) -> np.ndarray:
    """Class weights (or moments) of every node of the level."""
    width = 3 if encoded.is_regression else len(encoded.classes)
    out = np.zeros((level.size, width))
    kernels.node_sums(level.buffers, width, out)
    return out


def _stops_before(plan: _Plan, level: _Level, stats, shown) -> np.ndarray:
    """The first stopping rule that applies to each node before its candidates are scored."""
    s, encoded = plan.settings, plan.encoded
    total = shown["weight"]
    rules = [(EMPTY, total <= 0)]
    if encoded.is_regression:
        rules.append((PURE, shown["impurity"] <= 1e-12 * np.maximum(1.0, shown["value"] ** 2)))
    else:
        rules.append((PURE, stats.max(axis=1) >= total - 1e-9 * np.maximum(total, 1.0)))
    if s.max_depth is not None:
        rules.append((MAX_DEPTH, level.depth >= s.max_depth))
    rules.append((MIN_SPLIT, total < s.min_samples_split - SIZE_TOLERANCE))
    if s.leaf_size is not None:
        rules.append((LEAF_SIZE, total <= s.leaf_size))
    if s.min_branch_cases > 0:
        rules.append((MIN_CASES, total < 2 * s.min_branch_cases - SIZE_TOLERANCE))
    if s.min_purity is not None and not encoded.is_regression:
        with np.errstate(invalid="ignore", divide="ignore"):
            rules.append((MIN_PURITY, stats.max(axis=1) / total >= s.min_purity))
    if not s.reuse_attributes:
        rules.append((NO_ATTRIBUTES, level.used.all(axis=1)))
    stop = np.full(level.size, -1)
    for code, applies in reversed(rules):  # the first rule that applies wins
        stop = np.where(applies, code, stop)
    return stop


def _score(plan: _Plan, level: _Level, active: np.ndarray, node_size: np.ndarray):
    """Each attribute's competing candidate at every active node: Bests of shape (L, A), and
    the blocks scored in Python (node, attribute) -> Block."""
    encoded, s = plan.encoded, plan.settings
    L, A = level.size, len(encoded.attributes)
    T = len(plan.threshold)
    # each threshold attribute's competing cut: when every attribute is a number, the table itself (no copy)
    found = kernels.Found.empty(L, T, ONE_BRANCH)
    if plan.threshold and plan.scanned:
        scan = kernels.scan_thresholds_regression if encoded.is_regression else kernels.scan_thresholds
        scan(level.buffers, active, level.unit, plan.scoring, found)
    if T == A and plan.scanned:
        index, thresholds, score, gain, reason, ties = (found.index, found.threshold, found.score, found.gain,
                                                        found.reason, found.ties)
    else:
        index = np.full((L, A), -1, dtype=np.int64)
        score, gain = np.zeros((L, A)), np.zeros((L, A))
        reason = np.full((L, A), ONE_BRANCH, dtype=np.int64)
        ties = np.zeros((L, A), dtype=np.int64)
        thresholds = np.full((L, A), np.nan)
        _place(plan.threshold, found, index, score, gain, reason, ties)
        thresholds[:, plan.threshold] = found.threshold
    if plan.multiway and plan.scanned:
        found = kernels.Found.empty(L, len(plan.multiway), ONE_BRANCH)
        kernels.scan_multiway(level.buffers, active, plan.mw_codes, plan.n_values, plan.scoring, found)
        _place(plan.multiway, found, index, score, gain, reason, ties)
    blocks = _Blocks()
    if plan.batched:
        nodes = np.flatnonzero(active)
        scored = subset_scan.score(encoded, s, [encoded.attributes[j] for j in plan.batched], nodes, level.starts,
                                   level.ends, level.rows, level.w)
        for j, (found, made) in zip(plan.batched, scored):
            index[nodes, j], score[nodes, j], gain[nodes, j], reason[nodes, j], ties[nodes, j] = found
            blocks.by_attribute[j] = made
    if plan.one_by_one:
        n_classes = max(len(encoded.classes), 1)
        for i in np.flatnonzero(active):
            budget.check_time()  # nodes scored one by one in Python: the slow path
            rows = level.rows[level.starts[i]:level.ends[i]].astype(np.int64)
            weights = level.w[level.starts[i]:level.ends[i]]
            channels = encoded.channels(rows, weights)
            summary = channels.sum(axis=1)
            for j in plan.one_by_one:
                block = attribute_block(encoded, encoded.attributes[j], rows, channels, summary, s)
                ok, why = split_limits(s, block.stats, n_classes, block.kind)
                correction = correction_of(s, block, ok, float(node_size[i]))
                if correction:
                    block = replace(block, stats=block.stats.with_correction(correction))
                best: AttributeBest = block_best(s, block, ok, why, False)
                index[i, j], score[i, j], gain[i, j], reason[i, j], ties[i, j] = \
                    best.index, best.score, best.gain, best.reason, best.ties
                blocks[(i, j)] = block
    if not s.reuse_attributes:
        blocked = level.used & plan.blocks_reuse[None, :]
        index[blocked], reason[blocked] = -1, USED
    index[~active] = -1
    return Bests(index, score, gain, reason, ties, plan.many_valued), thresholds, blocks


def _place(columns: list, found: kernels.Found, index, score, gain, reason, ties) -> None:
    """A scan's findings for some attributes written into the level's (L, A) arrays."""
    index[:, columns], score[:, columns], gain[:, columns] = found.index, found.score, found.gain
    reason[:, columns], ties[:, columns] = found.reason, found.ties


class _Blocks(dict):
    """(node, attribute) -> Block: those scored node by node, and `subset_scan`'s (by
    attribute, node -> Block, each made when asked for: the engine asks for the winners')."""

    def __init__(self) -> None:
        super().__init__()
        self.by_attribute: dict = {}

    def __contains__(self, key) -> bool:
        i, j = key
        return dict.__contains__(self, key) or (j in self.by_attribute and i in self.by_attribute[j])

    def __missing__(self, key):
        i, j = key
        return self.by_attribute[j][i]  # KeyError when neither holds it


def _stops_after(settings, bests: Bests, winner: np.ndarray) -> np.ndarray:
    """Leaves decided by the scores: no candidate qualifies, or the best gain is too small."""
    stop = np.full(len(winner), -1)
    none = winner < 0
    reasons = bests.reason
    unsplittable = (reasons == ONE_BRANCH) | (reasons == NO_KNOWN) | (reasons == USED)
    basic = unsplittable.all(axis=1)
    small = (unsplittable | (reasons == SMALL_LEAF)).all(axis=1)
    stop = np.where(none, np.where(basic, IDENTICAL, np.where(small, MIN_LEAF, NO_VALID_SPLIT)), stop)
    chosen_gain = np.where(none, 0.0, bests.gain[np.arange(len(winner)), np.maximum(winner, 0)])
    if settings.stop_at_zero_gain:
        stop = np.where(~none & (chosen_gain <= TIE), ZERO_GAIN, stop)
    if settings.min_gain > 0:
        stop = np.where(~none & (stop < 0) & (chosen_gain <= settings.min_gain), MIN_GAIN, stop)
    return stop


@dataclass(eq=False)
class _Decision:
    stats: np.ndarray
    shown: dict
    stop: np.ndarray  # (L,) -1: split, else the rule that made the node a leaf
    bests: Bests
    thresholds: np.ndarray
    blocks: dict
    choice: object
    winner: np.ndarray


def _decide(plan: _Plan, level: _Level) -> _Decision:
    """Every node of the level: its statistics, and split or leaf (and which rule)."""
    encoded, s = plan.encoded, plan.settings
    stats = _node_stats(encoded, level)
    shown = summarize_many(stats, level.fallback, encoded.is_regression, encoded.class_factor, s.impurity)
    stop = _stops_before(plan, level, stats, shown)
    active = stop < 0
    node_size = stats[:, 0] if encoded.is_regression else stats.sum(axis=1)
    bests, thresholds, blocks = _score(plan, level, active, node_size)
    choice = choose(bests, s)
    winner = np.where(active, choice.attribute, -1)
    stop = np.where(active, _stops_after(s, bests, winner), stop)
    return _Decision(stats, shown, stop, bests, thresholds, blocks, choice, winner)


def _start(plan: _Plan, rows, weights, depth: int = 0, used=frozenset(), fallback=None) -> _Level:
    """A level of one node made of any `rows` (with `weights`): a subtree's root."""
    encoded = plan.encoded
    rows = np.asarray(rows, dtype=np.int32)
    weights = np.asarray(weights, dtype=float)
    n = len(rows)
    order = np.empty((len(plan.threshold), n), dtype=np.int32)
    vals = np.empty((len(plan.threshold), n))
    for i, j in enumerate(plan.threshold):
        values = encoded.numeric(encoded.attributes[j])[rows]
        order[i] = sorted_order(values)
        vals[i] = values[order[i]]
    k = 1 if encoded.is_regression else len(encoded.classes)
    cls = np.zeros(n, np.int8) if encoded.is_regression else encoded.y[rows].astype(np.int32)
    ypos = encoded.y[rows].astype(float) if encoded.is_regression else np.zeros(0)
    mask = np.array([[a in used for a in encoded.attributes]])
    inherited = np.full((1, k), 1.0 / k) if fallback is None else np.asarray(fallback, dtype=float).reshape(1, k)
    return _Level(np.array([0]), np.array([n]), rows, weights.copy(), cls, ypos, order, vals, np.array([-1]),
                  np.array([-1]), np.array([depth]), mask, inherited)


def grow_from(encoded, settings, rows, weights, depth: int = 0, used=frozenset(), fallback=None) -> Grown:
    """`grow` below one node: the subtree the algorithm grows from `rows` (with `weights`) at
    `depth`, the attributes in `used` barred (ID3), `fallback` the parent's distribution."""
    plan = _Plan(encoded, settings)
    return _grow_all(plan, _start(plan, rows, weights, depth, used, fallback))


def score_node(encoded, settings, rows: np.ndarray, weights: np.ndarray, used=frozenset()):
    """Each attribute's competing candidate at the node made of `rows` (with `weights`), as the
    engine scores it: Bests of shape (1, A) and the best cuts' thresholds (for comparing with
    `splits.evaluate`, the definitions)."""
    plan = _Plan(encoded, settings)
    level = _start(plan, rows, weights, 0, used)
    size = np.array([level.w.sum()])
    bests, thresholds, _ = _score(plan, level, np.array([True]), size)
    return bests, thresholds


def root_splits(encoded, settings) -> bool:
    """Whether the root is split (no stopping rule makes it a leaf)."""
    plan = _Plan(encoded, settings)
    return bool(_decide(plan, _root(plan)).stop[0] < 0)


def _grow_level(plan: _Plan, level: _Level, grown: Grown) -> _Level:
    encoded, s = plan.encoded, plan.settings
    L = level.size
    base = grown.size
    d = _decide(plan, level)
    stats, shown, stop, bests, winner, choice = d.stats, d.shown, d.stop, d.bests, d.winner, d.choice
    split = stop < 0
    for i in np.flatnonzero((winner >= 0) & ~split):  # the number a min_gain leaf's reason quotes
        grown.leaf_numbers[base + i] = float(bests.gain[i, winner[i]])
    tests, n_children = {}, np.zeros(L, dtype=np.int64)
    at = np.flatnonzero(split)
    js = winner[at]
    _check_size(plan, grown.size + L, at, js, d.blocks)
    numbers = zip(bests.score[at, js].tolist(), bests.gain[at, js].tolist(), choice.average_gain[at].tolist(),
                  bests.ties[at, js].tolist(), choice.tied[at].sum(axis=1).tolist())
    for i, j, (score, gain, average, ties, n_tied) in zip(at.tolist(), js.tolist(), numbers):
        test = _test(plan, i, j, int(bests.index[i, j]), d.thresholds, d.blocks)
        tests[i] = test
        n_children[i] = len(test.branch_labels)
        grown.tests[base + i] = test
        if test.kind == "threshold":
            grown.midpoints[base + i] = _midpoint(i, j, int(bests.index[i, j]), d.thresholds, d.blocks)
        tied = tuple(np.flatnonzero(choice.tied[i]).tolist()) if n_tied > 1 else (j,)
        grown.numbers[base + i] = (score, gain, average, test.kind, tied, ties)
    first_child = np.full(L, -1, dtype=np.int64)
    offsets = np.concatenate([[0], np.cumsum(n_children)])[:-1]
    first_child[split] = base + L + offsets[split]
    _record(grown, level, stats, stop, first_child)
    if grown.leaf_of_row is not None:
        kernels.mark_leaves(level.buffers, ~split, base, grown.leaf_of_row)
    if encoded.is_regression and s.leaf_value == "median":
        for i in np.flatnonzero(~split & (shown["weight"] > 0)):
            a, b = level.starts[i], level.ends[i]
            grown.medians[base + i] = weighted_median(level.ypos[a:b], level.w[a:b])
    if not split.any():
        return _empty_level(plan, level)
    branch = _branches(plan, level, split, tests, winner)
    fractions, known = _fractions(level, split, n_children, offsets, branch)
    shares = fractions.tolist()
    for i in np.flatnonzero(split).tolist():
        grown.fractions[base + i] = tuple(shares[offsets[i]:offsets[i] + n_children[i]])
    if s.missing_values == "surrogate":
        _surrogates(plan, level, split, tests, branch, known, offsets, grown, base)
    kids, splits = int(n_children.sum()), kernels.Splits(split, n_children, offsets)
    shared = s.missing_values != "surrogate" and _any_unknown(level, split, branch)
    if shared:  # rows go down several branches: the next level gets buffers of its own
        grown.leaf_of_row = None
        budget.check_bytes(_shared_bytes(level, split, n_children, offsets, fractions, branch),
                           "Sending the rows without a value down every branch of this level")
        child_starts = np.zeros(kids + 1, dtype=np.int64)
        buffers = kernels.partition_shared(level.buffers, splits, fractions, branch, child_starts)
        starts, ends = child_starts[:-1], child_starts[1:]
    else:  # each row goes down one branch (or stays): segments reordered in place
        starts, ends = np.zeros(kids, dtype=np.int64), np.zeros(kids, dtype=np.int64)
        kernels.partition_in_place(level.buffers, splits, branch, starts, ends)
        buffers = (level.rows, level.w, level.cls, level.ypos, level.order, level.vals)
    parent = np.repeat(np.arange(L), n_children) + base
    branch_index = np.concatenate([np.arange(c) for c in n_children[split]])
    depth = np.repeat(level.depth + 1, n_children)
    used = np.repeat(level.used, n_children, axis=0)
    for i in np.flatnonzero(split):
        j = int(winner[i])
        if plan.blocks_reuse[j]:
            used[offsets[i]:offsets[i] + n_children[i], j] = True
    inherited = shown["value"][:, None] if encoded.is_regression else shown["distribution"]
    fallback = np.repeat(inherited, n_children, axis=0)
    return _Level(starts, ends, *buffers, parent, branch_index, depth, used, fallback,
                  _unit=None if shared else level.unit)


def _check_size(plan: _Plan, made: int, at: np.ndarray, js: np.ndarray, blocks: dict) -> None:
    """Refuse (dtlearn.budget) a level whose children would pass the budget, before they or
    their tests are made; name the widest split, the usual cause (ID3 on a column of thousands
    of values). `made`: the nodes so far, this level's included."""
    if budget.current() is None or not len(at):
        return
    widths = np.full(len(at), 2, dtype=np.int64)  # a cut or a subset: two branches
    for k, (i, j) in enumerate(zip(at.tolist(), js.tolist())):
        if (i, j) in blocks:
            block = blocks[(i, j)]
            widths[k] = len(block.values) if block.kind == "multiway" else 2
        elif j not in plan.threshold_row:
            widths[k] = len(plan.encoded.categories(plan.encoded.attributes[j]))
    nodes = made + int(widths.sum())
    widest = int(np.argmax(widths))
    advice = budget.GROWING
    if widths[widest] > 20:
        advice = (f"The split on {plan.encoded.attributes[js[widest]]!r} has {int(widths[widest]):,} branches. Mark it "
                  "'ignore' or numeric, or choose C4.5 or CART (binary cuts on numbers), or set a Max depth")
    budget.check_nodes(nodes, advice)
    budget.check_cells(nodes, max(len(plan.encoded.classes), 1), advice)


def _shared_bytes(level: _Level, split, n_children, offsets, fractions, branch) -> int:
    """The bytes of the next level's buffers when each row without a value goes down every
    branch with a share (C4.5): rows x branches for a split of thousands of values."""
    at = np.flatnonzero(split)
    unknown = np.concatenate([[0], np.cumsum(branch < 0)])
    unknown = unknown[level.ends[at]] - unknown[level.starts[at]]
    shares = np.concatenate([[0], np.cumsum(fractions > 0)])
    shares = shares[offsets[at] + n_children[at]] - shares[offsets[at]]
    rows = int((level.ends[at] - level.starts[at] - unknown).sum() + (unknown * shares).sum())
    per_row = level.rows.itemsize + level.w.itemsize + level.cls.itemsize + 8 * (level.ypos.size > 0) \
        + len(level.order) * (level.order.itemsize + level.vals.itemsize)
    return rows * per_row


def _any_unknown(level: _Level, split, branch) -> bool:
    return kernels.any_unknown(level.buffers, split, branch)


def _empty_level(plan: _Plan, level: _Level) -> _Level:
    none = np.zeros(0, dtype=np.int64)
    return _Level(none, none, level.rows, level.w, level.cls, level.ypos, level.order, level.vals,
                  none, none, none, np.zeros((0, level.used.shape[1]), bool), np.zeros((0, level.fallback.shape[1])))


def _record(grown: Grown, level: _Level, stats, stop, first_child) -> None:
    grown.parent.append(level.parent)
    grown.branch.append(level.branch)
    grown.depth.append(level.depth)
    grown.stats.append(stats)
    grown.stop.append(stop)
    grown.first_child.append(first_child)
    grown.size += level.size


def _test(plan: _Plan, i: int, j: int, index: int, thresholds, blocks):
    """The chosen test of node i: attribute j's competing candidate (`index` in its block)."""
    encoded, s = plan.encoded, plan.settings
    attribute = encoded.attributes[j]
    if j in plan.threshold:
        cut = _midpoint(i, j, index, thresholds, blocks)
        if s.threshold_at_data_value:
            cut = data_value_below(encoded.numeric(attribute), cut)
        return ThresholdTest(attribute, cut)
    if (i, j) in blocks:
        return blocks[(i, j)].test(index)
    return plan.multiway_test(j)


def _midpoint(i: int, j: int, index: int, thresholds, blocks) -> float:
    """The midpoint node i's cut on number j is scored at: the compiled scan's, or its block's."""
    return float(blocks[(i, j)].thresholds[index]) if (i, j) in blocks else float(thresholds[i, j])


def _branches(plan: _Plan, level: _Level, split: np.ndarray, tests: dict, winner) -> np.ndarray:
    """The branch of every position of the split nodes (-1: unknown; -2: not split), by routing's
    rule for a test (`kernels.routing`)."""
    encoded = plan.encoded
    L = level.size
    branch = np.full(len(level.rows), -2, dtype=np.int32)
    numeric = np.zeros(L, dtype=bool)
    t_attribute = np.full(L, -1, dtype=np.int64)
    t_threshold = np.zeros(L)
    c_attribute = np.full(L, -1, dtype=np.int64)
    map_start = np.zeros(L, dtype=np.int64)
    maps: list[np.ndarray] = []
    offset = 0
    for i, test in tests.items():
        j = int(winner[i])
        if isinstance(test, ThresholdTest):
            numeric[i] = True
            t_attribute[i] = plan.threshold_row[j]
            t_threshold[i] = test.threshold
        else:
            c_attribute[i] = plan.code_row[j]
            lookup = code_map(test, encoded.categories(test.attribute))
            map_start[i] = offset + 1
            maps.append(lookup)
            offset += len(lookup)
    if numeric.any():
        kernels.threshold_branches(level.buffers, split & numeric, t_attribute, t_threshold, branch)
    if (split & ~numeric).any():
        kernels.code_branches(level.buffers, split & ~numeric, c_attribute, map_start, np.concatenate(maps), plan.codes,
                              branch)
    return branch


def _fractions(level: _Level, split, n_children, offsets, branch):
    """Each child's share of its parent's known weight (C4.5's r~_v), and that known weight,
    indexed by child."""
    kids = int(n_children.sum())
    weight = np.zeros(kids)
    kernels.branch_weights(level.buffers, kernels.Splits(split, n_children, offsets), branch, weight)
    totals = np.repeat(np.add.reduceat(weight, offsets[split]) if kids else np.zeros(0), n_children[split])
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(totals > 0, weight / np.where(totals > 0, totals, 1.0), 0.0), weight


def _surrogates(plan: _Plan, level: _Level, split, tests, branch, known, offsets, grown: Grown, base: int):
    """CART: rows missing the primary value follow the first surrogate that can place them,
    else the side with more known weight; on a tie they stay at the node (rpart)."""
    encoded, s = plan.encoded, plan.settings
    # each numeric attribute's positions in value order, as the level keeps them (ties: by row,
    # which is a segment's order here: no row goes down two branches)
    names = tuple(encoded.attributes[j] for j in plan.threshold)
    at = np.flatnonzero(split)
    left, right = known[offsets[at]], known[offsets[at] + 1]
    majorities = np.where(left > right, 0, np.where(left < right, 1, -1))
    grown.majority.update(zip((base + at).tolist(), majorities.tolist()))
    if not _any_unknown(level, split, branch):
        return
    for i, majority in zip(at.tolist(), majorities.tolist()):
        a, b = level.starts[i], level.ends[i]
        unknown = branch[a:b] < 0
        if not unknown.any():
            continue
        rows = level.rows[a:b].astype(np.int64)
        sorted_values = SortedValues(names, level.order, level.vals, int(a), int(b))
        found = find_surrogates(encoded, rows, level.w[a:b], branch[a:b], tests[i].attribute, s.max_surrogates,
                                sorted_values)
        grown.surrogates[base + i] = found
        placed = branch[a:b].copy()
        for surrogate in found:
            still = placed < 0
            if not still.any():
                break
            placed = np.where(still, surrogate_branches(encoded, surrogate, rows), placed)
        if majority >= 0:
            placed = np.where(placed < 0, majority, placed)
        branch[a:b] = placed


def weighted_median(values: np.ndarray, weights: np.ndarray) -> float:
    """The smallest value with at least half the weight at or below it (the lower median)."""
    order = np.argsort(values, kind="stable")
    cumulative = np.cumsum(weights[order])
    return float(values[order][np.searchsorted(cumulative, cumulative[-1] / 2)])
