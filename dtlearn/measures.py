"""Every split measure, defined once, from the class weights each branch of a candidate receives.

A batch of candidates is an array `branches` of shape (..., B, k): for each candidate, B
branches, k classes. `missing` (broadcastable to (..., k)) holds the class weights of the rows
whose value is unknown; they take part as in C4.5 (Quinlan 1993):

    rho        = known weight / total weight
    Gain       = rho * (Ent(D~) - sum_v r~_v Ent(D~_v)),  r~_v = |D~_v| / |D~|
    split_info = SplitInfo with the unknown rows as one extra branch
    Gain'      = Gain - log2(#cuts) / N           (C4.5 release 8's threshold correction)
    gain_ratio = Gain' / split_info                (Gain' = Gain where no correction applies)

These are the numbers the candidate tables show and the derivations write out. Induction
scores thousands of thresholds with `kernels`, whose formulas are tested equal to these.
Each measure is computed on first use only.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from .impurity import entropy_of, error_of, gini_of, sum_last
from .criteria import RANKED_BY, criterion  # noqa: F401 - RANKED_BY: read from here by the teaching modules


def ratio(numerator, denominator):
    """numerator / denominator, 0 where the denominator is 0."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(denominator > 0, numerator / np.where(denominator > 0, denominator, 1.0), 0.0)


# A node of a large upload has millions of candidates, and each measure kept is 8 bytes per
# candidate per measure (a 1,000,000-row root: ~150 bytes a cut, 750 MB). Past this many
# candidates a batch keeps only its branches: a measure asked for again is computed again.
KEPT_MEASURES_UP_TO = 100_000


class _Measures:
    """What both kinds of stats share: forgetting the measures computed so far."""

    def forget(self) -> None:
        """Drops every measure computed so far (each is computed again when next asked for)."""
        for name, member in vars(type(self)).items():
            if isinstance(member, cached_property):
                self.__dict__.pop(name, None)

    def forget_if_large(self) -> None:
        if self.branches.ndim > 2 and self.branches.shape[0] > KEPT_MEASURES_UP_TO:
            self.forget()


def threshold_correction(n_cuts, n_total):
    """C4.5 release 8 / J48: log2(number of candidate cuts) / N (Quinlan 1996), N the node's weight;
    0 at a node of no weight (C4.5's leaf for a value no row has: no cut to correct for).

    >>> float(threshold_correction(4, 8)), float(threshold_correction(0, 0))
    (0.25, 0.0)
    """
    cuts = np.log2(np.maximum(np.asarray(n_cuts, dtype=float), 1.0))
    total = np.asarray(n_total, dtype=float)
    return np.divide(cuts, total, out=np.zeros(np.broadcast(cuts, total).shape), where=total > 0)


class SplitStats(_Measures):
    """Classification measures of a batch of candidates. `sizes` (..., B), when given, are the
    branches' case weights for the leaf-size rules, where class priors make `branches` (the
    weights the measures see) differ from plain counts. `correction` (broadcastable to the
    candidates) is subtracted from the gain before the gain ratio (C4.5's threshold correction)."""

    def __init__(self, branches: np.ndarray, missing: np.ndarray, sizes: np.ndarray | None = None,
                 correction=0.0, known=None) -> None:
        self.branches = np.asarray(branches, dtype=float)
        self.missing = np.asarray(missing, dtype=float)
        self.sizes = sizes
        self.correction = correction
        self._known_given = known  # (k,): the class weights of D~, when every candidate shares them

    def with_correction(self, correction) -> "SplitStats":
        """The same candidates with C4.5's threshold correction subtracted from their gain."""
        return SplitStats(self.branches, self.missing, self.sizes, correction, self._known_given)

    def _per_node(self, measure) -> np.ndarray:
        """A measure of D~ itself: computed once when every candidate shares D~."""
        if self._known_given is None:
            return measure(self.known_counts)
        return np.broadcast_to(measure(np.asarray(self._known_given, dtype=float)), self.n_known.shape)

    @cached_property
    def mass_branch(self) -> np.ndarray:  # (..., B): the weight the measures see
        return sum_last(self.branches)

    @cached_property
    def n_branch(self) -> np.ndarray:  # (..., B): case weight per branch
        return self.mass_branch if self.sizes is None else self.sizes

    @property
    def branch_sizes(self) -> tuple[np.ndarray, ...]:
        return tuple(np.moveaxis(self.n_branch, -1, 0))

    @cached_property
    def known_counts(self) -> np.ndarray:  # (..., k): class weights of D~
        if self._known_given is not None:
            return np.broadcast_to(np.asarray(self._known_given, dtype=float), self.branches.shape[:-2] + (
                self.branches.shape[-1],))
        return sum_last(np.moveaxis(self.branches, -2, -1))

    @cached_property
    def n_known(self) -> np.ndarray:
        return sum_last(self.mass_branch)

    @cached_property
    def n_missing(self) -> np.ndarray:
        return np.broadcast_to(sum_last(self.missing), self.n_known.shape)

    @cached_property
    def n(self) -> np.ndarray:
        return self.n_known + self.n_missing

    @cached_property
    def known(self) -> np.ndarray:
        """rho: the fraction of the node's weight whose value is known."""
        return ratio(self.n_known, self.n)

    @cached_property
    def branch_fraction(self) -> np.ndarray:
        """r~_v: each branch's share of the known weight."""
        return ratio(self.mass_branch, self.n_known[..., None])

    def _after(self, impurity) -> np.ndarray:
        return sum_last(self.branch_fraction * impurity(self.branches))

    def _gain(self, before, after) -> np.ndarray:
        return np.maximum(self.known * (before - after), 0.0)  # >= 0 by concavity; clips -1e-17 noise

    @cached_property
    def entropy_before(self) -> np.ndarray:
        return self._per_node(entropy_of)

    @cached_property
    def branch_entropies(self) -> np.ndarray:  # (..., B)
        return entropy_of(self.branches)

    @cached_property
    def entropy_after(self) -> np.ndarray:
        return sum_last(self.branch_fraction * self.branch_entropies)

    @cached_property
    def gain(self) -> np.ndarray:
        return self._gain(self.entropy_before, self.entropy_after)

    @cached_property
    def split_info(self) -> np.ndarray:
        parts = np.concatenate([self.mass_branch, self.n_missing[..., None]], axis=-1)
        return entropy_of(parts)

    @cached_property
    def corrected_gain(self) -> np.ndarray:
        """Gain' = Gain - correction (equal to Gain where no correction applies)."""
        return self.gain - self.correction

    @cached_property
    def gain_ratio(self) -> np.ndarray:
        """Gain' / split info; 0 when Gain' is not positive (C4.5 then does not split on it)."""
        return ratio(np.maximum(self.corrected_gain, 0.0), self.split_info)

    @cached_property
    def gini_before(self) -> np.ndarray:
        return self._per_node(gini_of)

    @cached_property
    def branch_ginis(self) -> np.ndarray:  # (..., B)
        return gini_of(self.branches)

    @cached_property
    def gini_after(self) -> np.ndarray:
        return sum_last(self.branch_fraction * self.branch_ginis)

    @cached_property
    def gini_gain(self) -> np.ndarray:
        return self._gain(self.gini_before, self.gini_after)

    @cached_property
    def twoing(self) -> np.ndarray:
        """Breiman et al. (1984, ch. 4): (p_L p_R / 4) (sum_j |p(j|t_L) - p(j|t_R)|)^2, p_L and p_R the
        sides' shares of the known weight, times rho as every gain here; binary splits only (NaN else).
        With two classes it is half the Gini gain, 2 p_L p_R (p(1|t_L) - p(1|t_R))^2: both rank alike."""
        if self.branches.shape[-2] != 2:
            return np.full(self.n_known.shape, np.nan)
        fraction = self.branch_fraction
        p = self.branches / np.where(self.mass_branch > 0, self.mass_branch, 1.0)[..., None]
        spread = sum_last(np.abs(p[..., 0, :] - p[..., 1, :]))
        return self.known * fraction[..., 0] * fraction[..., 1] / 4 * spread ** 2

    @cached_property
    def error_before(self) -> np.ndarray:
        return self._per_node(error_of)

    @cached_property
    def error_after(self) -> np.ndarray:
        return self._after(error_of)

    @cached_property
    def cart_measure(self) -> np.ndarray:
        """Zaki & Meira (2014, eq. 19.x): 2 (nY/n)(nN/n) sum_i |P(c_i|D_Y) - P(c_i|D_N)|; binary splits only."""
        if self.branches.shape[-2] != 2:
            return np.full(self.n_known.shape, np.nan)
        fraction = self.branch_fraction
        totals = np.where(self.mass_branch > 0, self.mass_branch, 1.0)[..., None]
        p = self.branches / totals
        return 2 * fraction[..., 0] * fraction[..., 1] * sum_last(np.abs(p[..., 0, :] - p[..., 1, :]))

    def take(self, rows) -> "SplitStats":
        """The same measures for some of the candidates."""
        sizes = None if self.sizes is None else self.sizes[rows]
        correction = self.correction if np.ndim(self.correction) == 0 else self.correction[rows]
        return SplitStats(self.branches[rows], self.missing, sizes, correction, self._known_given)

    def gain_by(self, key: str) -> np.ndarray:
        """The gain that min_gain and the C4.5 average refer to (`criteria.Criterion.gain`)."""
        return getattr(self, criterion(key).gain)

    def score_by(self, key: str) -> np.ndarray:
        """The value a criterion ranks candidates by (`criteria.Criterion.ranks_by`)."""
        return getattr(self, criterion(key).ranks_by)


class RegressionStats(_Measures):
    """Regression (CART) measures from the weight moments of each branch: (w, w y, w y^2).

    SSE(D) = sum w y^2 - (sum w y)^2 / sum w, the squared error around the mean; a split's
    reduction is SSE(D~) - sum_b SSE(D~_b) = sum_b S_b^2 / n_b - S^2 / n, written this way
    (no cancelling sums of squares) as scikit-learn ranks its candidates. `gain` is the drop
    in mean squared error, rho * reduction / n: the regression counterpart of Gini gain.
    """

    def __init__(self, branches: np.ndarray, missing: np.ndarray) -> None:
        self.branches = np.asarray(branches, dtype=float)  # (..., B, 3)
        self.missing = np.asarray(missing, dtype=float)  # (..., 3) broadcastable
        self.correction = 0.0

    def with_correction(self, correction) -> "RegressionStats":
        return self

    def take(self, rows) -> "RegressionStats":
        return RegressionStats(self.branches[rows], self.missing)

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
        return ratio(self.n_known, self.n)

    @cached_property
    def sse_before(self) -> np.ndarray:
        m = self.known_moments
        return np.maximum(m[..., 2] - ratio(m[..., 1] ** 2, m[..., 0]), 0.0)

    @cached_property
    def reduction(self) -> np.ndarray:
        b, m = self.branches, self.known_moments
        kept = ratio(b[..., 1] ** 2, b[..., 0]).sum(axis=-1)
        return np.maximum(kept - ratio(m[..., 1] ** 2, m[..., 0]), 0.0)

    @cached_property
    def sse_after(self) -> np.ndarray:
        return np.maximum(self.sse_before - self.reduction, 0.0)

    @cached_property
    def mse_before(self) -> np.ndarray:
        return ratio(self.sse_before, self.n_known)

    @cached_property
    def mse_after(self) -> np.ndarray:
        return ratio(self.sse_after, self.n_known)

    @cached_property
    def gain(self) -> np.ndarray:
        return self.known * ratio(self.reduction, self.n_known)

    def gain_by(self, criterion: str) -> np.ndarray:
        return self.gain

    def score_by(self, criterion: str) -> np.ndarray:
        return self.gain
