"""What a node shows, from its statistics: class weights and their distribution, the predicted
class or value, the impurity; for many nodes at once (induction, trees, pruning read this)."""

from __future__ import annotations

import numpy as np

from .impurity import IMPURITY


def summarize_many(stats: np.ndarray, fallback: np.ndarray, regression: bool, class_factor, impurity: str) -> dict:
    """What nodes show, from their statistics (one row per node): class weights
    (classification) or the moments (w, w y, w y^2) (regression). `fallback` (one row per node)
    is the parent's distribution or value, used by a node no row reaches (Quinlan 1986)."""
    stats = np.asarray(stats, dtype=float)
    if regression:
        w, s, q = stats[:, 0], stats[:, 1], stats[:, 2]
        with np.errstate(divide="ignore", invalid="ignore"):
            mean = np.where(w > 0, s / np.where(w > 0, w, 1.0), fallback[:, 0])
            spread = np.where(w > 0, np.maximum(q / np.where(w > 0, w, 1.0) - mean * mean, 0.0), 0.0)
        return dict(weight=w, value=mean, impurity=spread, distribution=mean[:, None])
    adjusted = stats if class_factor is None else stats * np.asarray(class_factor)
    total = adjusted.sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        shares = np.where(total[:, None] > 0, adjusted / np.where(total > 0, total, 1.0)[:, None], fallback)
    return dict(weight=stats.sum(axis=1), distribution=shares, prediction=np.argmax(shares, axis=1),
                impurity=IMPURITY[impurity](adjusted))


def summarize_all(stats: np.ndarray, parent: np.ndarray, regression: bool, class_factor, impurity: str) -> dict:
    """`summarize_many` for nodes listed parents first (`parent`: each node's parent's position,
    -1 for the root): a node no row reaches shows its parent's distribution (or value)."""
    k = 1 if regression else stats.shape[1]
    uniform = np.zeros((len(stats), k)) if regression else np.full((len(stats), k), 1.0 / k)
    many = summarize_many(stats, uniform, regression, class_factor, impurity)
    distribution = many["distribution"]
    empty = np.flatnonzero(many["weight"] <= 0)
    for i in empty.tolist():  # parents come first, so a chain of empty nodes inherits in turn
        if parent[i] >= 0:
            distribution[i] = distribution[parent[i]]
    if len(empty):
        if regression:
            many["value"] = distribution[:, 0].copy()
        else:
            many["prediction"] = np.argmax(distribution, axis=1)
    return many
