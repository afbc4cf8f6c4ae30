"""Rows down a tree: the one place that decides which branch a row takes.

The rule: a threshold test sends a value <= t to branch 0, a larger one to branch 1, a missing
value nowhere (-1); a categorical test maps the value's code through `value_map` (-1: it cannot
place the value), and a value never seen in training by its own rule (`code_map`). It is written
once, compiled (`kernels.routing.value_branch`, `code_branch`), and applied to a column of
training rows (`branches`), by the engine to a level's rows, and by `kernels.route` to every row
down a whole tree. A missing or unknown value follows the tree's missing-value rule: C4.5's
fractional weights down every branch, or CART's surrogate splits, then the heavier branch.

One module per job, lowest first:

- `branch_rule`: one test's (or surrogate's) branch for training rows, and the value maps the
  kernels read (`branches`, `surrogate_branches`, `value_map`, `code_map`, `surrogate_map`);
- `growth_rows`: the training rows and weights growth sent down a path (`training_rows`);
- `flat_tree`: a tree's nodes as arrays for `kernels.route` (`FlatTree`, `flatten`);
- `encoded_rows`: rows, new or training, in a flat tree's encoding (`EncodedRows`, `encode_rows`,
  `encode_training`);
- `probabilities`: the class a distribution predicts, ties within rounding (`most_probable`, `tied`);
- `prediction`: every row down the flat tree (`distribution`, `leaves`, `single_paths`, `reach`,
  `node_totals`) and one test's or surrogate's branch for one row (`branch_at`, `surrogate_at`).
"""

from .branch_rule import branches, code_map, surrogate_branches, surrogate_map, value_map
from .encoded_rows import EncodedRows, encode_rows, encode_training
from .flat_tree import CODE_KIND, LEAF_KIND, THRESHOLD_KIND, FlatTree, flatten
from .growth_rows import training_rows
from .prediction import branch_at, distribution, leaves, node_totals, reach, single_paths, surrogate_at
from .probabilities import TIED, most_probable, tied

__all__ = [
    "CODE_KIND", "LEAF_KIND", "THRESHOLD_KIND", "TIED", "EncodedRows", "FlatTree", "branch_at", "branches",
    "code_map", "distribution", "encode_rows", "encode_training", "flatten", "leaves", "most_probable", "node_totals",
    "reach", "single_paths", "surrogate_at", "surrogate_branches", "surrogate_map", "tied", "training_rows",
    "value_map",
]
