"""The training rows, and their weights, that growth sent down a path of the tree: what a node
was grown from, read again for its table, its surrogates or pruning's estimates.
"""

from __future__ import annotations

import numpy as np

from .. import budget
from ..conditions import ThresholdTest
from .branch_rule import surrogate_branches, value_map


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
