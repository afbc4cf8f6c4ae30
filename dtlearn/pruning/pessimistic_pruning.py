"""Pessimistic pruning (C4.5 / Weka's J48; Quinlan 1993): bottom-up, compare upper confidence
bounds U_CF(E, N) of the errors of a leaf, of the subtree and of its largest branch (subtree
raising). The estimates are `j48_estimate`'s."""

from __future__ import annotations

from .. import budget
from ..tree import KEEP, PRUNE, RAISE, Step, Tree
from .j48_estimate import _total_and_most, _Training, added_errors
from .walk import _added, _n, _step, _work, _Work, with_steps


def pessimistic(tree: Tree, confidence: float = 0.25, subtree_raising: bool = True) -> Tree:
    """C4.5's pruning as Weka's J48 does it: bottom-up, a node becomes a leaf when the leaf's
    estimated errors N*U_CF(E, N) are at most those of its subtree (and of its largest branch,
    + 0.1), and is replaced by its largest branch when that branch (with all of the node's
    training rows re-sorted into it) is estimated to err no more than the subtree."""
    if tree.is_regression:
        raise ValueError("Pessimistic (C4.5) pruning is for classification trees.")
    if not 0 < confidence <= 0.5:
        raise ValueError("The confidence CF must be in (0, 0.5]; C4.5's default is 0.25.")
    training = _Training(tree)
    root = _work(tree.root)
    training.assign_all(root, tree.flat)
    steps: list[Step] = []
    stack = [(root, False)]
    while stack:  # post-order: a node after its children; a raised node again
        budget.check_time()
        work, ready = stack.pop()
        if work.is_leaf:
            continue
        if not ready:
            stack.append((work, True))
            stack.extend((child, False) for child in reversed(work.children))
            continue
        if _pessimistic_step(tree, work, training, confidence, subtree_raising, steps):
            stack.append((work, False))
    return with_steps(tree, steps, {"method": "pessimistic", "confidence": confidence,
                                    "subtree_raising": subtree_raising})


def _pessimistic_step(tree, work: _Work, training: _Training, cf, raising, steps) -> bool:
    """Decide one node (its children decided); True when a branch was raised into its place."""
    if not training.settled:  # a raise below may have re-sorted its rows since (the sums' order: the same numbers)
        work.counts = None
    here = training.counts(work)
    child_sizes = [_added(training.counts(c).tolist()) for c in work.children]
    largest = child_sizes.index(max(child_sizes))  # the first of the largest, as np.argmax
    leaf = training.estimated(work, cf)
    subtree = sum(training.subtree_errors(child, cf) for child in work.children)
    branch = float("inf")
    if raising:  # a leaf branch given all the node's rows errs as the node would as a leaf
        big = work.children[largest]
        branch = leaf if big.is_leaf else training.raised_errors(work, big, cf)
    n, most = _total_and_most(here)
    e = n - most
    details = {"N": n, "E": e, "U_CF": (e + added_errors(n, e, cf)) / n if n else 0.0,
               "errors_as_leaf": leaf, "errors_of_subtree": subtree, "errors_of_largest_branch": branch,
               "confidence": cf}
    number = len(tree.steps) + len(steps) + 1
    if leaf <= subtree + 0.1 and leaf <= branch + 0.1:
        work.children = []
        steps.append(_step(tree, number, work, PRUNE, (
            f"As a leaf the node's estimated errors are {leaf:.3f} (N = {_n(n)}, E = {_n(e)}, "
            f"U_CF = {details['U_CF']:.3f}), not more than the subtree's {subtree:.3f} (+0.1): "
            "the subtree is replaced by a leaf."), details))
        return False
    if branch <= subtree + 0.1:
        raised = work.children[largest]
        work.test, work.children = raised.test, raised.children
        work.fractions = raised.fractions
        training.assign(work, work.rows, work.weights)
        new_stats = tuple((w.id, tuple(training.counts(w)), w.fractions if not w.is_leaf else ())
                          for w in work.walk())
        steps.append(_step(tree, number, work, RAISE, (
            f"The largest branch, with all {_n(n)} rows of this node re-sorted into it, is estimated to make "
            f"{branch:.3f} errors, not more than the subtree's {subtree:.3f} (+0.1): it is raised into "
            "this node's place (subtree raising)."), details, raised_child=raised.id, new_stats=new_stats))
        return True
    work.subtree_estimate = subtree
    steps.append(_step(tree, number, work, KEEP, (
        f"The subtree's estimated errors {subtree:.3f} are lower than a leaf's {leaf:.3f}: the subtree stays."),
        details))
    return False
