"""Cost-complexity pruning (Breiman et al. 1984): the weakest-link sequence of subtrees, its path
(scikit-learn's cost_complexity_pruning_path, rpart's cp table) and the tree pruned up to alpha.
The choice of alpha by cross-validation, which grows trees, is `api.cost_complexity_cv`."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .. import budget, kernels
from ..tree import PRUNE, Node, Step, Tree
from .walk import SHOWN, _added, _step, _Work, with_steps


def _mass(tree: Tree, node: Node) -> float:
    """The node's weight as the measures see it: class priors / class weights applied."""
    if tree.is_regression or tree.class_factor is None:
        return node.weight
    return float(np.dot(node.class_weights, tree.class_factor))


def _risk(tree: Tree, node: Node, total: float, risk: str) -> float:
    """R(t) as a share of the root's weight: impurity-weighted (scikit-learn) or
    misclassification / squared error (Breiman et al., rpart); priors and class weights
    count as they do in the measures (rpart's altered weights, scikit-learn's sample weights)."""
    mass = _mass(tree, node)
    if risk == "impurity" or tree.is_regression:
        return mass / total * node.impurity  # regression: MSE * w / W = SSE / W
    factor = tree.class_factor or (1.0,) * len(node.class_weights)
    return (mass - max([0.0] + [w * f for w, f in zip(node.class_weights, factor)])) / total


@dataclass(frozen=True)
class WeakestLink:
    alpha: float  # g(t) of the pruned node
    node: Node
    risk_node: float  # R(t)
    risk_subtree: float  # R(T_t)
    leaves: int  # |leaves(T_t)|
    listed: _Listed = field(repr=False, compare=False)  # the sequence's smallest g at each link
    number: int = 0  # this link's place in the sequence (0: the first)

    @property
    def g(self) -> dict:
        """The smallest g(t) of the internal nodes at that moment (at most SHOWN of them), node id
        -> g, ascending: made when asked for (a long sequence's tables would outweigh its tree)."""
        return self.listed.at(self.number)


@dataclass(frozen=True, eq=False)
class _Listed:
    """Each link's smallest g(t): positions in `ids`' pre-order (-1 after the last) and values."""

    ids: np.ndarray  # node id of each pre-order position
    positions: np.ndarray  # (links, SHOWN)
    values: np.ndarray  # (links, SHOWN)

    def at(self, k: int) -> dict:
        listed = self.positions[k][self.positions[k] >= 0]
        return dict(zip(self.ids[listed].tolist(), self.values[k, :len(listed)].tolist()))


def weakest_links(tree: Tree, risk: str = "impurity") -> list[WeakestLink]:
    """The weakest-link sequence (Breiman et al. 1984): prune, one at a time, the internal node
    with the smallest g(t) = (R(t) - R(T_t)) / (|leaves(T_t)| - 1). Ties in g go to the node
    first in growth order. Nodes are kept in pre-order, so a subtree is a range; each prune
    updates R(T_t) and |leaves(T_t)| of its ancestors (compiled: `kernels.weakest_links`;
    tests/test_pruning.py checks every link against g(t) recomputed on the tree pruned so far)."""
    if risk not in ("impurity", "error"):
        raise ValueError("risk must be 'impurity' (scikit-learn) or 'error' (misclassification, rpart).")
    nodes = list(tree.root.walk())
    n = len(nodes)
    position = {node.id: i for i, node in enumerate(nodes)}
    total = _mass(tree, tree.root)
    own = [_risk(tree, node, total, risk) for node in nodes]
    end, parent = list(range(n)), [-1] * n  # last position inside each node's subtree; parent's position
    below, leaves = [0.0] * n, [0] * n
    for i in range(n - 1, -1, -1):  # subtree sums, children before parents
        children = nodes[i].children
        if not children:
            below[i], leaves[i] = own[i], 1
            continue
        kids = [position[c.id] for c in children]
        for k in kids:
            parent[k] = i
        end[i] = end[kids[-1]]
        below[i] = _added([below[k] for k in kids])
        leaves[i] = sum(leaves[k] for k in kids)
    grown_order = {step.node_id: step.number for step in tree.steps}
    order = np.array([grown_order.get(node.id, 0) for node in nodes], dtype=np.int64)
    own, below, leaves = np.array(own, dtype=float), np.array(below, dtype=float), np.array(leaves, dtype=np.int64)
    internal = np.array([bool(node.children) for node in nodes], dtype=bool)
    links = int(internal.sum())  # each link prunes at least one internal node
    picked, risk_subtree, n_leaves = np.empty(links, np.int64), np.empty(links), np.empty(links, np.int64)
    shown, shown_g = np.empty((links, SHOWN), np.int64), np.empty((links, SHOWN))
    end, parent = np.array(end, dtype=np.int64), np.array(parent, dtype=np.int64)
    done = 0
    subtrees = kernels.Subtrees(own, below, leaves, end, parent, order, internal)
    sequence = kernels.Links(picked, risk_subtree, n_leaves, shown, shown_g)
    while internal[0]:  # compiled, a few hundred links at a time between the time budget's checks
        budget.check_time()
        done = kernels.weakest_links(subtrees, 256, sequence, done)
    listed = _Listed(np.array([node.id for node in nodes], dtype=np.int64), shown[:done], shown_g[:done])
    alphas, picked, risk_subtree, n_leaves = (shown_g[:done, 0].tolist(), picked[:done].tolist(),
                                              risk_subtree[:done].tolist(), n_leaves[:done].tolist())
    own = own.tolist()
    return [WeakestLink(alpha if alpha > 1e-12 else 0.0,  # 0: rounding noise of a prune that changes nothing
                        nodes[i], own[i], subtree, count, listed, k)
            for k, (alpha, i, subtree, count) in enumerate(zip(alphas, picked, risk_subtree, n_leaves))]


def cost_complexity_path(tree: Tree, risk: str = "impurity") -> pd.DataFrame:
    """One row per subtree of the weakest-link sequence (Breiman et al. 1984): `alpha`, the
    total leaf risk `impurity` (scikit-learn's cost_complexity_pruning_path with
    risk="impurity"), `n_leaves`, `nodes`, rpart's `cp` = alpha / R(root) and
    `rel_error` = R(T) / R(root), and the node pruned to reach it."""
    if not tree.is_complete:
        raise ValueError("The pruning path needs a complete tree.")
    total = _mass(tree, tree.root)
    leaves = list(tree.root.leaves())
    impurity = sum(_risk(tree, leaf, total, risk) for leaf in leaves)
    root_risk = _risk(tree, tree.root, total, risk)
    rows = [{"alpha": 0.0, "impurity": impurity, "n_leaves": len(leaves), "pruned_node": None}]
    n_leaves = len(leaves)
    for link in weakest_links(tree, risk):
        impurity += link.risk_node - link.risk_subtree
        n_leaves -= link.leaves - 1
        rows.append({"alpha": link.alpha, "impurity": impurity, "n_leaves": n_leaves, "pruned_node": link.node.id})
    path = pd.DataFrame(rows)
    binary = all(len(node.children) in (0, 2) for node in tree.root.walk())
    path["nodes"] = 2 * path["n_leaves"] - 1 if binary else np.nan
    path["cp"] = path["alpha"] / root_risk if root_risk > 0 else np.nan
    path["rel_error"] = path["impurity"] / root_risk if root_risk > 0 else np.nan
    path["nsplit"] = path["n_leaves"] - 1 if binary else np.nan
    return path


def rpart_cp_table(tree: Tree) -> pd.DataFrame:
    """rpart's complexity-parameter table (printcp): one row per distinct subtree, CP =
    alpha / R(root) with misclassification risk, nsplit, rel error = R(T) / R(root); subtrees
    that tie on alpha are pruned together, as rpart does."""
    path = cost_complexity_path(tree, risk="error").drop_duplicates("alpha", keep="last")
    table = path[["cp", "nsplit", "rel_error", "n_leaves", "alpha"]].iloc[::-1].reset_index(drop=True)
    return table.rename(columns={"cp": "CP", "rel_error": "rel error"})


def cost_complexity(tree: Tree, alpha: float, risk: str = "impurity", info: dict | None = None) -> Tree:
    """Weakest-link pruning up to `alpha`: every prune with g(t) <= alpha."""
    if alpha is None or not isinstance(alpha, (int, float)) or alpha != alpha:
        raise ValueError("Give alpha (a number >= 0), or cv (the number of cross-validation folds).")
    if alpha < 0:
        raise ValueError("alpha must be >= 0.")
    info = {"method": "cost_complexity", "risk": risk, **(info or {}), "alpha": alpha}
    return with_steps(tree, prunes_up_to(tree, weakest_links(tree, risk), alpha), info)


def prunes_up_to(tree: Tree, sequence: list[WeakestLink], alpha: float) -> list[Step]:
    steps, number = [], len(tree.steps)
    for link in sequence:
        if link.alpha > alpha + 1e-12:
            break
        number += 1
        details = {"alpha": link.alpha, "R(t)": link.risk_node, "R(T_t)": link.risk_subtree, "leaves": link.leaves,
                   "g": {i: round(v, 10) for i, v in link.g.items()}}
        work = _Work(link.node)
        steps.append(_step(tree, number, work, PRUNE, (
            f"Weakest link: g(t) = (R(t) - R(T_t)) / (|T_t| - 1) = ({link.risk_node:.4f} - {link.risk_subtree:.4f})"
            f" / ({link.leaves} - 1) = {link.alpha:.4f} is the smallest, and not above alpha = {alpha:.4f}: the "
            "subtree becomes a leaf."), details))
    return steps
