"""Each node's loss on a validation set, from the validation rows routed down the grown tree as in
prediction: what pre-pruning and reduced-error pruning compare."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..data import Dataset
from ..encoding import codes_for
from ..routing import node_totals
from ..tree import Tree
from .walk import _Work


def _validation_frame(tree: Tree, validation) -> pd.DataFrame:
    frame = validation.frame if isinstance(validation, Dataset) else validation
    if not isinstance(frame, pd.DataFrame) or tree.target not in frame.columns:
        raise ValueError(f"Give validation rows as a Dataset or DataFrame with the target column '{tree.target}'.")
    if len(frame) == 0:
        raise ValueError("The validation set is empty: choose a larger validation fraction.")
    return tree.prepare(frame)


class _Losses:
    """Validation loss of each node as a leaf: misclassified weight (regression: squared error),
    from the validation rows routed down the grown tree as in prediction."""

    def __init__(self, tree: Tree, validation) -> None:
        frame = _validation_frame(tree, validation)
        flat, rows = tree.encoded_rows(frame)
        self.total = float(len(frame))
        self.regression = tree.is_regression
        self.classes = tree.classes
        if self.regression:
            y = pd.to_numeric(frame[tree.target], errors="coerce").to_numpy(dtype=float)
            zero = np.zeros(len(y), dtype=np.int64)
            moments = [node_totals(flat, rows, zero, 1, weights=m) for m in (np.ones(len(y)), y, y * y)]
            self.moments = {i: tuple(float(m[i][0]) for m in moments) for i in moments[0]}
        else:
            k = len(tree.classes)
            y = codes_for(frame[tree.target], tree.classes)
            self.weights = node_totals(flat, rows, np.where(y < 0, k, y), k + 1)  # column k: unseen classes

    def counts(self, work: _Work) -> dict:
        """Validation class weights at the node, for the trace."""
        if self.regression:
            return {"n": round(self.moments[work.id][0], 6)}
        w = self.weights[work.id]
        return {c: round(float(w[i]), 6) for i, c in enumerate(self.classes)}

    def leaf(self, work: _Work) -> float:
        if self.regression:
            n, s, q = self.moments[work.id]
            v = work.node.value
            return float(max(q - 2 * v * s + v * v * n, 0.0))
        w = self.weights[work.id]
        return float(w.sum() - w[self.classes.index(work.node.prediction)])

    def accuracy(self, errors: float) -> float:
        """Validation accuracy (regression: validation mean squared error) for these errors."""
        return errors / self.total if self.regression else 1.0 - errors / self.total

    @property
    def score_name(self) -> str:
        return "validation MSE" if self.regression else "accuracy"


def _subtree_losses(root: _Work, losses: _Losses) -> dict:
    """Each node's subtree loss (its leaves' losses), bottom-up."""
    below: dict[int, float] = {}
    for work in reversed(list(root.walk())):
        below[work.id] = losses.leaf(work) if work.is_leaf else sum(below[c.id] for c in work.children)
    return below
