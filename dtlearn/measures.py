"""Every split measure of a batch of candidate splits, from their class weights per branch.

A batch is an array `branches` of shape (..., B, k): for each candidate, B branches, k
classes. `missing` (broadcastable to (..., k)) holds the class weights of the rows whose
value is unknown; they take part as in C4.5 (seed 000, eq. 9-10; Quinlan 1993):

    rho        = known weight / total weight
    Gain       = rho * (Ent(D~) - sum_v r~_v Ent(D~_v)),  r~_v = |D~_v| / |D~|
    split_info = IV with the unknown rows as one extra branch
    gain_ratio = Gain / split_info

Each measure is computed on first use only, so induction pays for the one it ranks by.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from .impurity import entropy_of, error_of, gini_of


def _ratio(numerator, denominator):
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(denominator > 0, numerator / np.where(denominator > 0, denominator, 1.0), 0.0)


class SplitStats:
    """Classification measures. `sizes` (..., B), when given, are the branches' case weights
    for the leaf-size rules, where class priors make `branches` differ from plain counts."""

    def __init__(self, branches: np.ndarray, missing: np.ndarray, sizes: np.ndarray | None = None) -> None:
        self.branches = branches
        self.missing = missing
        self.sizes = sizes

    @cached_property
    def mass_branch(self) -> np.ndarray:  # (..., B): the weight the measures see
        return self.branches.sum(axis=-1)

    @cached_property
    def n_branch(self) -> np.ndarray:  # (..., B): case weight per branch
        return self.mass_branch if self.sizes is None else self.sizes

    @property
    def branch_sizes(self) -> tuple[np.ndarray, ...]:
        return tuple(np.moveaxis(self.n_branch, -1, 0))

    @cached_property
    def known_counts(self) -> np.ndarray:  # (..., k): class weights of D~
        return self.branches.sum(axis=-2)

    @cached_property
    def n_known(self) -> np.ndarray:
        return self.mass_branch.sum(axis=-1)

    @cached_property
    def n_missing(self) -> np.ndarray:
        return np.broadcast_to(self.missing.sum(axis=-1), self.n_known.shape)

    @cached_property
    def n(self) -> np.ndarray:
        return self.n_known + self.n_missing

    @cached_property
    def known(self) -> np.ndarray:
        """rho: the fraction of the node's weight whose value is known."""
        return _ratio(self.n_known, self.n)

    @cached_property
    def branch_fraction(self) -> np.ndarray:
        """r~_v: each branch's share of the known weight."""
        return _ratio(self.mass_branch, self.n_known[..., None])

    def _after(self, impurity) -> np.ndarray:
        return (self.branch_fraction * impurity(self.branches)).sum(axis=-1)

    def _gain(self, before, after) -> np.ndarray:
        return np.maximum(self.known * (before - after), 0.0)  # >= 0 by concavity; clips -1e-17 noise

    @cached_property
    def entropy_before(self) -> np.ndarray:
        return entropy_of(self.known_counts)

    @cached_property
    def entropy_after(self) -> np.ndarray:
        return self._after(entropy_of)

    @cached_property
    def gain(self) -> np.ndarray:
        return self._gain(self.entropy_before, self.entropy_after)

    @cached_property
    def split_info(self) -> np.ndarray:
        parts = np.concatenate([self.mass_branch, self.n_missing[..., None]], axis=-1)
        return entropy_of(parts)

    @cached_property
    def gain_ratio(self) -> np.ndarray:
        return _ratio(self.gain, self.split_info)

    @cached_property
    def gini_before(self) -> np.ndarray:
        return gini_of(self.known_counts)

    @cached_property
    def gini_after(self) -> np.ndarray:
        return self._after(gini_of)

    @cached_property
    def gini_gain(self) -> np.ndarray:
        return self._gain(self.gini_before, self.gini_after)

    @cached_property
    def error_before(self) -> np.ndarray:
        return error_of(self.known_counts)

    @cached_property
    def error_after(self) -> np.ndarray:
        return self._after(error_of)

    @cached_property
    def cart_measure(self) -> np.ndarray:
        """Zaki & Meira (eq. 19.x): 2 (nY/n)(nN/n) sum_i |P(c_i|D_Y) - P(c_i|D_N)|; binary splits only."""
        if self.branches.shape[-2] != 2:
            return np.full(self.n_known.shape, np.nan)
        fraction = self.branch_fraction
        totals = np.where(self.mass_branch > 0, self.mass_branch, 1.0)[..., None]
        p = self.branches / totals
        return 2 * fraction[..., 0] * fraction[..., 1] * np.abs(p[..., 0, :] - p[..., 1, :]).sum(axis=-1)

    def gain_by(self, criterion: str) -> np.ndarray:
        """The gain that min_gain and the C4.5 average refer to: information or Gini gain."""
        return self.gini_gain if criterion == "gini" else self.gain

    def score_by(self, criterion: str) -> np.ndarray:
        """The value a criterion ranks candidates by (computed only when asked for)."""
        return getattr(self, {"entropy": "gain", "gini": "gini_gain", "gain_ratio": "gain_ratio"}[criterion])

    def take(self, index) -> "SplitStats":
        """The stats of a subset of the candidates."""
        missing = self.missing if self.missing.ndim == 1 else self.missing[index]
        return SplitStats(self.branches[index], missing, None if self.sizes is None else self.sizes[index])


def _n_log_n(x: np.ndarray) -> np.ndarray:
    """x log2 x elementwise, with 0 log 0 = 0."""
    return np.where(x > 0, x * np.log2(np.where(x > 0, x, 1.0)), 0.0)


class BinaryStats(SplitStats):
    """SplitStats of binary splits given only the left branch's class weights.

    The weighted child impurities use the algebraically equal forms
        sum_b n_b/n Gini(b)  = (n - sum_b sum_k c_bk^2 / n_b) / n
        sum_b n_b/n Ent(b)   = (sum_b n_b log n_b - sum_b sum_k c_bk log c_bk) / n
    which need no per-branch proportions: this is what makes scoring every threshold of
    every attribute at once affordable (Zaki & Meira's O(n log n + nk) per attribute).
    """

    def __init__(self, left: np.ndarray, known_counts: np.ndarray, missing: np.ndarray,
                 size_left: np.ndarray | None = None, size_known=None) -> None:
        self.left = left  # (..., k)
        self._known_small = known_counts  # broadcastable to left: measures of D~ are computed once
        self._known = np.broadcast_to(known_counts, left.shape)
        self.missing = missing
        self.sizes = None if size_left is None else np.stack(np.broadcast_arrays(size_left, size_known - size_left), -1)

    def _spread(self, small: np.ndarray) -> np.ndarray:
        return np.broadcast_to(small, self.left.shape[:-1])

    @cached_property
    def right(self) -> np.ndarray:
        return self._known_small - self.left

    @cached_property
    def branches(self) -> np.ndarray:  # (..., 2, k), built only for tables and the CART measure
        return np.stack([self.left, self.right], axis=-2)

    @cached_property
    def known_counts(self) -> np.ndarray:
        return self._known

    @cached_property
    def n_left(self) -> np.ndarray:
        return self.left.sum(axis=-1)

    @cached_property
    def n_known(self) -> np.ndarray:
        return self._spread(self._known_small.sum(axis=-1))

    @cached_property
    def n_right(self) -> np.ndarray:
        return self.n_known - self.n_left

    @cached_property
    def mass_branch(self) -> np.ndarray:
        return np.stack([self.n_left, self.n_right], axis=-1)

    @property
    def branch_sizes(self) -> tuple[np.ndarray, ...]:
        if self.sizes is not None:
            return (self.sizes[..., 0], self.sizes[..., 1])
        return np.broadcast_arrays(self.n_left, self.n_right)

    def _weighted(self, per_branch) -> np.ndarray:
        return _ratio(per_branch(self.left, self.n_left) + per_branch(self.right, self.n_right), self.n_known)

    @cached_property
    def gini_after(self) -> np.ndarray:
        return self._weighted(lambda c, n: n - _ratio((c * c).sum(axis=-1), n))

    @cached_property
    def entropy_after(self) -> np.ndarray:
        return self._weighted(lambda c, n: _n_log_n(n) - _n_log_n(c).sum(axis=-1))

    @cached_property
    def gini_before(self) -> np.ndarray:
        return self._spread(gini_of(self._known_small))

    @cached_property
    def entropy_before(self) -> np.ndarray:
        return self._spread(entropy_of(self._known_small))

    @cached_property
    def error_before(self) -> np.ndarray:
        return self._spread(error_of(self._known_small))

    def take(self, index) -> "BinaryStats":
        missing = self.missing if self.missing.ndim == 1 else self.missing[index]
        taken = BinaryStats(self.left[index], self._known[index], missing)  # (small enough to copy)
        taken.sizes = None if self.sizes is None else self.sizes[index]
        return taken


class ThresholdScores:
    """The measures induction ranks by, for every threshold of every numeric attribute at once.

    Arrays are class-major: `left` is (k, A, C) for k classes, A attributes, C cut positions,
    so that sums over the classes are k whole-array additions (fast) rather than reductions
    over a short last axis (slow). Results are (A, C). Same formulas as `BinaryStats`.
    """

    def __init__(self, left: np.ndarray, known_counts: np.ndarray, missing: np.ndarray,
                 size_left: np.ndarray | None = None, size_known: np.ndarray | None = None) -> None:
        self.left = left  # (k, A, C)
        self.known_counts = known_counts  # (k, A)
        self.missing = missing  # (k, A)
        self.size_left = size_left  # (A, C) case weights when priors make them differ, else None
        self.size_known = size_known  # (A,)

    @property
    def branch_sizes(self) -> tuple[np.ndarray, ...]:
        if self.size_left is None:
            return (self.n_left, self.n_right)
        return (self.size_left, self.size_known[:, None] - self.size_left)

    def _over_classes(self, per_class) -> np.ndarray:
        total = per_class(self.left[0], self.known_counts[0][:, None])
        for c in range(1, self.left.shape[0]):
            total = total + per_class(self.left[c], self.known_counts[c][:, None])
        return total

    @cached_property
    def n_left(self) -> np.ndarray:
        return self._over_classes(lambda left, known: left)

    @cached_property
    def n_known(self) -> np.ndarray:  # (A, 1)
        return self.known_counts.sum(axis=0)[:, None]

    @cached_property
    def n_right(self) -> np.ndarray:
        return self.n_known - self.n_left

    @cached_property
    def n_branch(self) -> np.ndarray:  # (A, C, 2)
        return np.stack([self.n_left, self.n_right], axis=-1)

    @cached_property
    def n(self) -> np.ndarray:  # (A, 1)
        return self.n_known + self.missing.sum(axis=0)[:, None]

    @cached_property
    def known(self) -> np.ndarray:
        return _ratio(self.n_known, self.n)

    def _before(self, impurity) -> np.ndarray:
        return impurity(self.known_counts.T)[:, None]

    def _gain(self, before, after) -> np.ndarray:
        return np.maximum(self.known * (before - after), 0.0)

    @cached_property
    def gini_gain(self) -> np.ndarray:
        left_squares = self._over_classes(lambda left, known: left * left)
        right_squares = self._over_classes(lambda left, known: (known - left) ** 2)
        with np.errstate(divide="ignore", invalid="ignore"):  # empty sides only at masked positions
            kept = left_squares / self.n_left + right_squares / self.n_right  # sum_b sum_k c^2 / n_b
            after = (self.n_known - kept) / self.n_known
        return self._gain(self._before(gini_of), after)

    @cached_property
    def gain(self) -> np.ndarray:
        inner = self._over_classes(lambda left, known: _n_log_n(left) + _n_log_n(known - left))
        with np.errstate(divide="ignore", invalid="ignore"):  # no known rows: masked positions only
            after = (_n_log_n(self.n_left) + _n_log_n(self.n_right) - inner) / self.n_known
        return self._gain(self._before(entropy_of), after)

    @cached_property
    def split_info(self) -> np.ndarray:
        n_missing = self.n - self.n_known
        parts = _n_log_n(self.n_left) + _n_log_n(self.n_right) + _n_log_n(n_missing)
        return _ratio(_n_log_n(self.n) - parts, self.n)

    @cached_property
    def gain_ratio(self) -> np.ndarray:
        return _ratio(self.gain, self.split_info)

    def gain_by(self, criterion: str) -> np.ndarray:
        return self.gini_gain if criterion == "gini" else self.gain

    def score_by(self, criterion: str) -> np.ndarray:
        return getattr(self, {"entropy": "gain", "gini": "gini_gain", "gain_ratio": "gain_ratio"}[criterion])


class RegressionStats:
    """Regression (CART) measures from the weight moments of each branch: (w, w y, w y^2).

    SSE(D) = sum w y^2 - (sum w y)^2 / sum w, the squared error around the mean; a split's
    reduction is SSE(D~) - sum_b SSE(D~_b) = sum_b S_b^2 / n_b - S^2 / n, written this way
    (no cancelling sums of squares) as scikit-learn ranks its candidates. `gain` is the drop
    in mean squared error, rho * reduction / n: the regression counterpart of Gini gain.
    """

    def __init__(self, branches: np.ndarray, missing: np.ndarray) -> None:
        self.branches = branches  # (..., B, 3)
        self.missing = missing  # (..., 3) broadcastable

    @cached_property
    def n_branch(self) -> np.ndarray:
        return self.branches[..., 0]

    @property
    def branch_sizes(self) -> tuple[np.ndarray, ...]:
        return tuple(np.moveaxis(self.n_branch, -1, 0))

    @cached_property
    def known_moments(self) -> np.ndarray:
        return self.branches.sum(axis=-2)

    @cached_property
    def n_known(self) -> np.ndarray:
        return self.known_moments[..., 0]

    @cached_property
    def n(self) -> np.ndarray:
        return self.n_known + np.broadcast_to(self.missing[..., 0], self.n_known.shape)

    @cached_property
    def known(self) -> np.ndarray:
        return _ratio(self.n_known, self.n)

    @cached_property
    def sse_before(self) -> np.ndarray:
        m = self.known_moments
        return np.maximum(m[..., 2] - _ratio(m[..., 1] ** 2, m[..., 0]), 0.0)

    @cached_property
    def reduction(self) -> np.ndarray:
        b, m = self.branches, self.known_moments
        kept = _ratio(b[..., 1] ** 2, b[..., 0]).sum(axis=-1)
        return np.maximum(kept - _ratio(m[..., 1] ** 2, m[..., 0]), 0.0)

    @cached_property
    def sse_after(self) -> np.ndarray:
        return np.maximum(self.sse_before - self.reduction, 0.0)

    @cached_property
    def mse_before(self) -> np.ndarray:
        return _ratio(self.sse_before, self.n_known)

    @cached_property
    def mse_after(self) -> np.ndarray:
        return _ratio(self.sse_after, self.n_known)

    @cached_property
    def gain(self) -> np.ndarray:
        return self.known * _ratio(self.reduction, self.n_known)

    def gain_by(self, criterion: str) -> np.ndarray:
        return self.gain

    def score_by(self, criterion: str) -> np.ndarray:
        return self.gain

    def take(self, index) -> "RegressionStats":
        missing = self.missing if self.missing.ndim == 1 else self.missing[index]
        return RegressionStats(self.branches[index], missing)


class RegressionThresholdScores:
    """`RegressionStats` for every threshold of every numeric attribute: moments are (3, A, C)."""

    def __init__(self, left: np.ndarray, known: np.ndarray, missing: np.ndarray) -> None:
        self.left = left  # (3, A, C) cumulative (w, w y, w y^2)
        self.known_moments = known  # (3, A)
        self.missing = missing  # (3, A)

    @cached_property
    def n_left(self) -> np.ndarray:
        return self.left[0]

    @cached_property
    def n_right(self) -> np.ndarray:
        return self.known_moments[0][:, None] - self.left[0]

    @property
    def branch_sizes(self) -> tuple[np.ndarray, ...]:
        return (self.n_left, self.n_right)

    @cached_property
    def gain(self) -> np.ndarray:
        n, s = self.known_moments[0][:, None], self.known_moments[1][:, None]
        with np.errstate(divide="ignore", invalid="ignore"):  # empty sides only at masked positions
            kept = self.left[1] ** 2 / self.n_left + (s - self.left[1]) ** 2 / self.n_right
            reduction = np.maximum(kept - s * s / n, 0.0)
            known = n / (n + self.missing[0][:, None])
            return known * reduction / n

    def gain_by(self, criterion: str) -> np.ndarray:
        return self.gain

    def score_by(self, criterion: str) -> np.ndarray:
        return self.gain
