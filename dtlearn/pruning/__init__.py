"""Pruning, recorded step by step like growth. Each method returns a new Tree whose steps are
the grown tree's steps followed by the pruning trace (`tree.pruning_steps`), so replaying
`tree.at_step(k)` shows the tree being pruned one decision at a time.

- validation_prepruning (Mitchell 1997, 3.7.1): in growth order, keep a split only if it makes
  fewer validation errors than the node as a leaf; on a tie the split is refused (a leaf is
  simpler).
- reduced_error (Quinlan 1987): repeatedly replace by a leaf the subtree whose removal gains
  the most validation accuracy, while accuracy does not drop.
- pessimistic (C4.5 / Weka's J48; Quinlan 1993): bottom-up, compare upper confidence bounds
  U_CF(E, N) of the errors of a leaf, of the subtree and of its largest branch (subtree raising).
- cost_complexity (Breiman et al. 1984): the weakest-link sequence of subtrees.

One module per method (`prepruning`, `reduced_error_pruning`, `pessimistic_pruning`,
`cost_complexity_pruning`); `walk` holds the mutable copy of the tree they share,
`validation_losses` and `j48_estimate` the errors they compare. Rows reach nodes through
`routing`, as in prediction; no walk recurses. The choice of alpha by cross-validation, which
grows trees, is `api.cost_complexity_cv`.
"""

from __future__ import annotations

from ..collector import no_cycle_collection
from ..tree import Tree
from .cost_complexity_pruning import WeakestLink, cost_complexity, cost_complexity_path, prunes_up_to, \
    rpart_cp_table, weakest_links
from .j48_estimate import added_errors
from .pessimistic_pruning import pessimistic
from .prepruning import validation_prepruning
from .reduced_error_pruning import reduced_error
from .walk import SHOWN, with_steps

__all__ = ["METHODS", "SHOWN", "WeakestLink", "added_errors", "cost_complexity", "cost_complexity_path",
           "fit_options", "pessimistic", "prune", "prunes_up_to", "reduced_error", "rpart_cp_table",
           "validation_prepruning", "weakest_links", "with_steps"]

METHODS = ("validation_prepruning", "reduced_error", "pessimistic", "cost_complexity")


def prune(tree: Tree, method: str, **options) -> Tree:
    """A pruned copy of `tree` whose `.pruning_steps` is the trace of `method` (alpha given;
    `api.prune` also chooses alpha by cross-validation)."""
    if method not in METHODS:
        raise ValueError(f"Unknown pruning method '{method}'. Choose one of: {', '.join(METHODS)}.")
    if not tree.is_complete:
        raise ValueError("Prune a complete tree, not a partial one (tree.at_step(k)).")
    run = {"validation_prepruning": validation_prepruning, "reduced_error": reduced_error,
           "pessimistic": pessimistic, "cost_complexity": cost_complexity}[method]
    with no_cycle_collection():  # a step (and its details) per decision, none in a cycle
        return run(tree, **options)


def fit_options(tree: Tree) -> dict:
    """The settings the tree was grown with, to grow other trees the same way."""
    return {name: value for name, value in tree.settings.to_dict().items() if name != "algorithm"}
