"""Compiled loops: scoring every cut of many nodes at once, partitioning rows, routing rows,
CART's surrogate cuts and the weakest-link sequence of cost-complexity pruning.

Why compiled (numba): induction scores every cut between neighbouring values of every numeric
attribute at every node, and prediction walks every row down the tree. Written with numpy
alone, both pay a Python-level cost per node (thousands of nodes) that no vectorisation
removes; compiled, dtlearn grows its trees faster than scikit-learn's C code while keeping
every table. The formulas are the `measures` definitions rewritten for one pass over sorted
rows, each criterion's once, in `criteria`; `tests/test_engine.py` checks them equal to the
definitions (to 1e-12) and to exact fractions. Each kernel is called through
`jit.Kernel`: compiled, or the same function run by Python (without numba; and for small inputs
while the compiled code is not loaded yet, so that a first tree waits for no compiler).

The long-running kernels release the GIL (nogil): the app's other sessions go on while one
grows a tree.

Layout: a *level* is a set of nodes, node i owning positions starts[i]..ends[i] of the level's
buffers (`layout.Level`): rows (training row of each position), w (its weight: fractional below
a C4.5 split on a missing value), and for each numeric attribute an order (positions sorted by
the attribute's value within each node, missing values last).

The modules, lowest first: `layout` (the named structures the kernels take), `criteria` (what
each criterion scores), `cuts` (one attribute's cuts at one node), `thresholds` and `multiway`
(every attribute at every node of a level), `routing` (a test's branch for a value, and rows down
a finished tree), `level` (a level's sums, branches and partition), `preorder` (the grown
nodes in the steps' order), `pruning` (the weakest links) and `surrogates` (CART's surrogate
cuts). The split rules' constants come from `dtlearn.rules`,
shared with `splits`.
"""

from .criteria import BY_GAIN, BY_GINI, BY_RATIO, xlogx_table
from .layout import (FlatSurrogates, FlatTests, Found, Level, Links, Routed, Rows, Scoring, SortedNode, Splits,
                     Subtrees, SurrogateCuts)
from .level import (any_unknown, branch_weights, code_branches, mark_leaves, node_sums, order_ties_by_row,
                    partition_in_place, partition_shared, threshold_branches)
from .multiway import scan_multiway
from .preorder import preorder, training_errors
from .pruning import weakest_links
from .routing import FOLLOW, SHARE, branches_by_code, branches_by_threshold, route, surrogate_branch
from .surrogates import surrogate_cuts
from .thresholds import scan_thresholds, scan_thresholds_regression

__all__ = [
    "FlatSurrogates", "FlatTests", "Found", "Level", "Links", "Routed", "Rows", "Scoring", "SortedNode", "Splits",
    "Subtrees", "SurrogateCuts",
    "BY_GAIN", "BY_GINI", "BY_RATIO", "FOLLOW", "SHARE", "any_unknown", "branch_weights",
    "branches_by_code", "branches_by_threshold", "code_branches", "mark_leaves", "node_sums", "order_ties_by_row",
    "partition_in_place", "partition_shared", "preorder", "route", "scan_multiway", "scan_thresholds",
    "scan_thresholds_regression", "surrogate_branch", "surrogate_cuts", "threshold_branches", "training_errors",
    "weakest_links", "xlogx_table",
]
