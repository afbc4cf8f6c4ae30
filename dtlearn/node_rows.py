"""Which training rows reach a node, and with what weight, as induction sent them: the rows the
Step page lists under a node."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .routing import branches
from .steps import Growth


def rows_at(tree, frame: pd.DataFrame | None, node_id: int) -> tuple[np.ndarray, np.ndarray]:
    """Positions of the training rows that reach a node, and their weights, as induction sent
    them (C4.5: a row whose tested value is missing follows every branch with the branch's share
    of the known weight, so its weight is fractional; CART: its surrogates). After subtree
    raising, the rows the raised subtree was re-sorted with. (`frame`, the training table, is
    not needed: the tree carries its training data.)"""
    node = tree.node(node_id)  # KeyError for a node that is not in this tree
    growth = tree.steps[0].origin if tree.steps else None
    if growth is None:
        growth = Growth(tree.data, tree.settings, tree.class_factor, tree.task)
    if not any(step.action == "raise" for step in tree.steps):
        return growth.rows(node.id)
    parents = {child.id: (parent, b) for parent in tree.nodes() for b, child in enumerate(parent.children)}
    chain = []
    while node.id in parents:
        node, b = parents[node.id]
        chain.append((node, b))
    encoded = growth.encoded
    rows, weights = np.arange(encoded.n_rows), np.ones(encoded.n_rows)
    for parent, b in reversed(chain):
        branch = branches(encoded, parent.test, rows)
        unknown = branch < 0
        share = parent.branch_fractions[b]
        keep = (branch == b) | (unknown & (share > 0))
        weights = np.where(unknown, weights * share, weights)[keep]
        rows = rows[keep]
    return rows, weights
