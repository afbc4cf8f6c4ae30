"""Growing a tree level by level: every node of a depth scored at once.

Rows are encoded once and sorted once (`engine_plan`); at each level every node is scored and
decided at once (`engine_score`), and the split nodes' rows are partitioned into their
children's segments here. What is kept per node is what induction needs: its statistics, its
decision and the chosen test; the full candidate table of any node is rebuilt on request
(`steps.Growth`).

The result, `Grown` (`engine_grown`), lists the nodes in the order they were made (level by
level); `induction` turns it into steps in depth-first order.
"""

from __future__ import annotations

import numpy as np

from . import budget, kernels
from .candidates import data_value_below, data_values_below
from .conditions import ThresholdTest
from .engine_grown import Grown, Scanned
from .engine_plan import Level, Plan, empty_level, root_level, subtree_level
from .engine_score import decide, score_level
from .routing import surrogate_branches
from .surrogates import SortedValues, find_surrogates


def grow(encoded, settings) -> Grown:
    """Every node's decision, level by level (see the module docstring)."""
    plan = Plan(encoded, settings)
    return _grow_all(plan, root_level(plan), record_leaves=encoded.complete)


def _grow_all(plan: Plan, level: Level, record_leaves: bool = False) -> Grown:
    """Level after level until no node splits, within the caller's budget (dtlearn.budget);
    progress is the share of rows already settled in leaves. `record_leaves`: keep each row's leaf."""
    grown = Grown(attributes=tuple(plan.encoded.attributes))
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


def grow_from(encoded, settings, rows, weights, depth: int = 0, used=frozenset(), fallback=None) -> Grown:
    """`grow` below one node: the subtree the algorithm grows from `rows` (with `weights`) at
    `depth`, the attributes in `used` barred (ID3), `fallback` the parent's distribution."""
    plan = Plan(encoded, settings)
    return _grow_all(plan, subtree_level(plan, rows, weights, depth, used, fallback))


def score_node(encoded, settings, rows: np.ndarray, weights: np.ndarray, used=frozenset()):
    """Each attribute's competing candidate at the node made of `rows` (with `weights`), as the
    engine scores it: Bests of shape (1, A) and the best cuts' thresholds (for comparing with
    `splits.evaluate`, the definitions)."""
    plan = Plan(encoded, settings)
    level = subtree_level(plan, rows, weights, 0, used)
    size = np.array([level.w.sum()])
    bests, thresholds, _ = score_level(plan, level, np.array([True]), size)
    return bests, thresholds


def root_splits(encoded, settings) -> bool:
    """Whether the root is split (no stopping rule makes it a leaf)."""
    plan = Plan(encoded, settings)
    return bool(decide(plan, root_level(plan)).stop[0] < 0)


def _grow_level(plan: Plan, level: Level, grown: Grown) -> Level:
    encoded, s = plan.encoded, plan.settings
    L = level.size
    base = grown.size
    d = decide(plan, level)
    stats, shown, stop, bests, winner = d.stats, d.shown, d.stop, d.bests, d.winner
    split = stop < 0
    quoted = np.flatnonzero((winner >= 0) & ~split)  # the number a min_gain leaf's reason quotes
    grown.leaf_numbers.update(zip((quoted + base).tolist(), bests.gain[quoted, winner[quoted]].tolist()))
    at = np.flatnonzero(split)
    js = winner[at]
    _check_size(plan, grown.size + L, at, js, d.blocks)
    compiled_cut, by_value = plan.compiled_cut[js], plan.per_value[js]
    cuts = _cuts(plan, d, base, at[compiled_cut], js[compiled_cut], grown)
    per_value = _per_value(plan, d, base, at[by_value], js[by_value], grown)
    odd = ~(compiled_cut | by_value)
    tests = _other_tests(plan, d, base, at[odd], js[odd], d.blocks, grown)
    n_children = np.zeros(L, dtype=np.int64)
    n_children[at[compiled_cut]] = 2
    n_children[per_value] = plan.n_values_of[winner[per_value]]
    for i, test in tests.items():
        n_children[i] = test.n_branches
    first_child = np.full(L, -1, dtype=np.int64)
    offsets = np.concatenate([[0], np.cumsum(n_children)])[:-1]
    first_child[split] = base + L + offsets[split]
    grown.add(level, stats, stop, first_child)
    if grown.leaf_of_row is not None:
        kernels.mark_leaves(level.buffers, ~split, base, grown.leaf_of_row)
    if encoded.is_regression and s.leaf_value == "median":
        for i in np.flatnonzero(~split & (shown["weight"] > 0)):
            a, b = level.starts[i], level.ends[i]
            grown.medians[base + i] = weighted_median(level.ypos[a:b], level.w[a:b])
    if not split.any():
        return empty_level(plan, level)
    branch = _branches(plan, level, split, cuts, per_value, tests, winner)
    fractions, known = _fractions(level, split, n_children, offsets, branch)
    grown.share.append(fractions)  # (the next level's nodes)
    if s.missing_values == "surrogate":
        _surrogates(plan, level, split, winner, branch, known, offsets, grown, base)
    kids, splits = int(n_children.sum()), kernels.Splits(split, n_children, offsets)
    A = len(level.order)
    shared = s.missing_values != "surrogate" and _any_unknown(plan, level, split, branch)
    if shared:  # rows go down several branches: the next level gets buffers of its own
        grown.leaf_of_row = None
        budget.check_bytes(_shared_bytes(level, split, n_children, offsets, fractions, branch),
                           "Sending the rows without a value down every branch of this level")
        child_starts = np.zeros(kids + 1, dtype=np.int64)
        *buffers, order, vals = kernels.partition_shared(level.buffers, splits, fractions, branch, child_starts)
        store, shift = (order, vals), 1  # (row 0 spare)
        starts, ends = child_starts[:-1], child_starts[1:]
    else:  # each row goes down one branch (or stays): segments reordered in place, sorted orders one row over
        starts, ends = np.zeros(kids, dtype=np.int64), np.zeros(kids, dtype=np.int64)
        store, shift = level.sorted_store, 1 - level.shift
        buffers = [level.rows, level.w, level.cls, level.ypos]
        kernels.partition_in_place(level.buffers, splits, branch, starts, ends, store[0][shift:shift + A],
                                   store[1][shift:shift + A], shift == 1, level.unit, plan.partition_scratch(level))
    buffers += [store[0][shift:shift + A], store[1][shift:shift + A]]
    of_child = np.repeat(np.arange(L), n_children)  # each child's parent in this level
    parent = of_child + base
    branch_index = np.arange(kids) - offsets[of_child]
    depth = level.depth[of_child] + 1
    used = level.used[of_child]
    tested = winner[of_child]
    barred = plan.blocks_reuse[tested]  # the children may not test their parent's attribute again (ID3)
    used[np.flatnonzero(barred), tested[barred]] = True
    inherited = shown["value"][:, None] if encoded.is_regression else shown["distribution"]
    fallback = np.repeat(inherited, n_children, axis=0)
    return Level(starts, ends, *buffers, parent, branch_index, depth, used, fallback, store, shift,
                  _unit=None if shared else level.unit)


def _cuts(plan: Plan, d, base: int, at: np.ndarray, js: np.ndarray, grown: Grown) -> tuple:
    """The nodes at `at` split by attribute js's compiled cut, kept as arrays (`engine_grown.Scanned`);
    returns (at, the cuts as written) for routing."""
    midpoints = d.thresholds[at, js]
    thresholds = midpoints
    if plan.settings.threshold_at_data_value:  # J48 writes the largest training value at or below it
        thresholds = midpoints.copy()
        for j in np.unique(js).tolist():
            on = js == j
            thresholds[on] = data_values_below(plan.encoded.numeric(plan.encoded.attributes[j]), midpoints[on])
    grown.scanned.append(_scanned(d, base, at, js, thresholds, midpoints))
    return at, thresholds


def _per_value(plan: Plan, d, base: int, at: np.ndarray, js: np.ndarray, grown: Grown) -> np.ndarray:
    """The nodes at `at` split one branch per value of attribute js (the multiway scan's), kept
    as arrays; their attribute's test is one for the whole tree (`Plan.multiway_test`)."""
    grown.value_tests.update((j, plan.multiway_test(j)) for j in np.unique(js).tolist())
    nothing = np.full(len(at), np.nan)  # (no cut)
    grown.scanned.append(_scanned(d, base, at, js, nothing, nothing))
    return at


def _scanned(d, base: int, at: np.ndarray, js: np.ndarray, thresholds, midpoints) -> Scanned:
    bests, choice = d.bests, d.choice
    return Scanned(at + base, js, thresholds, midpoints, bests.score[at, js], bests.gain[at, js],
                   choice.average_gain[at], bests.ties[at, js].astype(np.int64), np.packbits(choice.tied[at], axis=1))


def _other_tests(plan: Plan, d, base: int, at: np.ndarray, js: np.ndarray, blocks, grown: Grown) -> dict:
    """The tests of the nodes at `at`, split by a candidate scored in Python (a subset, a cut, one
    branch per value), made and kept whole: node in the level -> test."""
    encoded, bests, choice = plan.encoded, d.bests, d.choice
    tests = {}
    tied = choice.tied[at]
    n_tied = tied.sum(axis=1)
    tied_columns, tied_from = np.nonzero(tied)[1].tolist(), np.concatenate([[0], np.cumsum(n_tied)]).tolist()
    numbers = zip(bests.index[at, js].tolist(), bests.score[at, js].tolist(), bests.gain[at, js].tolist(),
                  choice.average_gain[at].tolist(), bests.ties[at, js].tolist(), n_tied.tolist(), tied_from)
    for i, j, (index, score, gain, average, ties, n, first) in zip(at.tolist(), js.tolist(), numbers):
        block = blocks[(i, j)]
        if j in plan.threshold_row:  # (a criterion no compiled scan ranks by)
            midpoint = float(block.thresholds[index])
            column = encoded.numeric(encoded.attributes[j])
            cut = data_value_below(column, midpoint) if plan.settings.threshold_at_data_value else midpoint
            test = ThresholdTest(encoded.attributes[j], cut)
            grown.midpoints[base + i] = midpoint  # (the cut is scored at it; J48 writes it as `cut`)
        else:
            test = block.test(index)
        tests[i] = grown.tests[base + i] = test
        group = tuple(tied_columns[first:first + n]) if n > 1 else (j,)
        grown.numbers[base + i] = (score, gain, average, test.kind, group, ties)
    return tests


def _check_size(plan: Plan, made: int, at: np.ndarray, js: np.ndarray, blocks: dict) -> None:
    """Refuse (dtlearn.budget) a level whose children would pass the budget, before they or
    their tests are made; name the widest split, the usual cause (ID3 on a column of thousands
    of values). `made`: the nodes so far, this level's included."""
    if budget.current() is None or not len(at):
        return
    widths = np.where(plan.per_value[js], plan.n_values_of[js], 2)  # a cut or a subset: two branches
    for k in np.flatnonzero(~(plan.compiled_cut[js] | plan.per_value[js])).tolist():  # scored in Python
        block = blocks[(int(at[k]), int(js[k]))]
        widths[k] = len(block.values) if block.kind == "multiway" else 2
    nodes = made + int(widths.sum())
    widest = int(np.argmax(widths))
    advice = budget.GROWING
    if widths[widest] > 20:
        advice = (f"The split on {plan.encoded.attributes[js[widest]]!r} has {int(widths[widest]):,} branches. Mark it "
                  "'ignore' or numeric, or choose C4.5 or CART (binary cuts on numbers), or set a Max depth")
    budget.check_nodes(nodes, advice)
    budget.check_cells(nodes, max(len(plan.encoded.classes), 1), advice)


def _shared_bytes(level: Level, split, n_children, offsets, fractions, branch) -> int:
    """The bytes of the next level's buffers when each row without a value goes down every
    branch with a share (C4.5): rows x branches for a split of thousands of values."""
    at = np.flatnonzero(split)
    unknown = np.concatenate([[0], np.cumsum(branch < 0)])
    unknown = unknown[level.ends[at]] - unknown[level.starts[at]]
    shares = np.concatenate([[0], np.cumsum(fractions > 0)])
    shares = shares[offsets[at] + n_children[at]] - shares[offsets[at]]
    rows = int((level.ends[at] - level.starts[at] - unknown).sum() + (unknown * shares).sum())
    per_row = level.rows.itemsize + level.w.itemsize + level.cls.itemsize + 8 * (level.ypos.size > 0) \
        + (len(level.order) + 1) * (level.order.itemsize + level.vals.itemsize)  # (a spare row: `Level`)
    return rows * per_row


def _any_unknown(plan: Plan, level: Level, split, branch) -> bool:
    """Whether a row of a split node has no branch (its value missing); none without missing values."""
    return not plan.encoded.complete and kernels.any_unknown(level.buffers, split, branch)


def _branches(plan: Plan, level: Level, split: np.ndarray, cuts: tuple, per_value: np.ndarray, tests: dict,
              winner) -> np.ndarray:
    """The branch of every position of the split nodes (-1: unknown; -2: not split), by routing's
    rule for a test (`kernels.routing`). `cuts`: (nodes, cuts) split by a compiled cut;
    `per_value`: the nodes split by their attribute's one branch per value; `tests`: every
    other node's test."""
    L = level.size
    branch = np.full(len(level.rows), -2, dtype=np.int32)
    numeric = np.zeros(L, dtype=bool)
    t_attribute = np.full(L, -1, dtype=np.int64)
    t_threshold = np.zeros(L)
    at, thresholds = cuts
    numeric[at] = True
    t_attribute[at] = plan.threshold_row_of[winner[at]]
    t_threshold[at] = thresholds
    c_attribute = np.full(L, -1, dtype=np.int64)
    map_start = np.zeros(L, dtype=np.int64)
    maps: list[np.ndarray] = []
    placed: dict = {}  # id of a map -> its start in `maps`: the nodes sharing an attribute's test share its map
    offset = 0

    def place(lookup: np.ndarray) -> int:
        nonlocal offset
        if id(lookup) not in placed:
            placed[id(lookup)] = offset + 1
            maps.append(lookup)
            offset += len(lookup)
        return placed[id(lookup)]

    js = winner[per_value]
    c_attribute[per_value] = plan.code_row_of[js]
    for j in np.unique(js).tolist():
        map_start[per_value[js == j]] = place(plan.code_map(j, plan.multiway_test(j)))
    for i, test in tests.items():
        j = int(winner[i])
        if isinstance(test, ThresholdTest):
            numeric[i] = True
            t_attribute[i] = plan.threshold_row[j]
            t_threshold[i] = test.threshold
        else:
            c_attribute[i] = plan.code_row[j]
            map_start[i] = place(plan.code_map(j, test))
    if numeric.any():
        kernels.threshold_branches(level.buffers, split & numeric, t_attribute, t_threshold, branch)
    if (split & ~numeric).any():
        kernels.code_branches(level.buffers, split & ~numeric, c_attribute, map_start, np.concatenate(maps), plan.codes,
                              branch)
    return branch


def _fractions(level: Level, split, n_children, offsets, branch):
    """Each child's share of its parent's known weight (C4.5's r~_v), and that known weight,
    indexed by child."""
    kids = int(n_children.sum())
    weight = np.zeros(kids)
    kernels.branch_weights(level.buffers, kernels.Splits(split, n_children, offsets), branch, weight)
    totals = np.repeat(np.add.reduceat(weight, offsets[split]) if kids else np.zeros(0), n_children[split])
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(totals > 0, weight / np.where(totals > 0, totals, 1.0), 0.0), weight


def _surrogates(plan: Plan, level: Level, split, winner, branch, known, offsets, grown: Grown, base: int):
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
    if not _any_unknown(plan, level, split, branch):
        return
    for i, majority in zip(at.tolist(), majorities.tolist()):
        a, b = level.starts[i], level.ends[i]
        unknown = branch[a:b] < 0
        if not unknown.any():
            continue
        rows = level.rows[a:b].astype(np.int64)
        sorted_values = SortedValues(names, level.order, level.vals, int(a), int(b))
        found = find_surrogates(encoded, rows, level.w[a:b], branch[a:b], encoded.attributes[winner[i]],
                                s.max_surrogates, sorted_values)
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
