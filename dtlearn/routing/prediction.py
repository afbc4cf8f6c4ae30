"""Rows down a whole flat tree by `kernels.route`: prediction (`distribution`), the leaf of
each row (`leaves`, `single_paths`), the weight reaching every node (`reach`, `node_totals`,
for pruning and explanations), and the branch one test or one surrogate gives a row
(`branch_at`, `surrogate_at`, for explanations). A missing or unknown value follows the tree's
rule: C4.5's fractional weights down every branch, or CART's surrogates, then the heavier branch.
"""

from __future__ import annotations

import numpy as np

from .. import kernels
from .encoded_rows import EncodedRows
from .flat_tree import THRESHOLD_KIND, FlatTree


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
