"""Algorithm presets and the settings that tune them, validated with readable messages.

Presets (see the README for the full story):
- ``id3``  information gain, one branch per value, each attribute at most once on a path;
  numeric attributes are treated as categorical (one branch per distinct value), as in
  Quinlan (1986); a node whose best gain is 0 becomes a leaf (as Weka's Id3 does).
- ``c45``  gain ratio among the candidates whose gain is at least the average (Quinlan 1993),
  binary thresholds on numeric attributes (reusable on a path), multiway categorical
  splits, plus the rules of C4.5 release 8 / Weka's J48 -U that the seeds do not mention,
  each a setting: ``min_branch_cases`` (J48 -M), ``threshold_correction`` (gain minus
  log2(#thresholds)/N), ``threshold_at_data_value`` (the cut shown as the largest data value
  below the midpoint) and ``collapse`` (subtrees that do not lower training error collapse).
- ``cart`` binary splits only, Gini (or entropy), midpoint thresholds, categorical attributes
  split into two subsets; equal to scikit-learn's DecisionTreeClassifier on numeric data.
- ``zaki`` Zaki & Meira's DECISIONTREE(D, eta, pi): binary splits by information gain,
  categorical subsets X in V with |V| <= l (``max_subset_size``), leaf when n <= eta
  (``leaf_size``) or purity >= pi (``min_purity``).
"""

from __future__ import annotations

import numbers
from dataclasses import asdict, dataclass, fields, replace

CRITERIA = ("entropy", "gini", "gain_ratio", "squared_error")
CRITERION_NAMES = {"entropy": "information gain", "gini": "Gini gain", "gain_ratio": "gain ratio",
                   "squared_error": "decrease in mean squared error"}


@dataclass(frozen=True)
class Settings:
    algorithm: str = "cart"
    criterion: str = "gini"
    categorical_split: str = "subset"  # "multiway" (one branch per value) or "subset" (binary X in V)
    numeric_split: str = "threshold"  # "threshold" (binary <= cut) or "multiway" (ID3: per value)
    reuse_attributes: bool = True  # False: a categorical attribute at most once on a path (ID3)
    max_depth: int | None = None
    min_samples_split: float = 2  # a node with less weight than this is a leaf
    min_samples_leaf: float = 1  # every branch that receives rows needs at least this weight
    min_purity: float | None = None  # Zaki's pi: a node whose majority fraction >= pi is a leaf
    leaf_size: float | None = None  # Zaki's eta: a node with at most eta rows is a leaf
    min_gain: float = 0.0  # seed 003's pre-pruning threshold: split only if gain > min_gain (0: off)
    stop_at_zero_gain: bool = False  # a node whose best gain is 0 becomes a leaf
    average_gain_rule: bool = False  # C4.5: only candidates with gain >= average gain compete
    min_branch_cases: float = 0  # J48 -M: two branches need this many cases
    threshold_correction: bool = False  # J48: gain - log2(#thresholds) / N for numeric splits
    cut_tolerance: float = 0.0  # J48: neighbouring values closer than this are not cut between (1e-5)
    threshold_at_data_value: bool = False  # J48: the cut is the largest training value <= midpoint
    collapse: bool = False  # J48: collapse subtrees that make no fewer training errors
    max_exhaustive_values: int = 12  # CART subsets: exhaustive search up to this many values
    max_subset_size: int | None = None  # Zaki & Meira's l: subsets X in V with 1 <= |V| <= l
    prune: bool = False  # grow, then prune the C4.5 way (pessimistic, as J48 without -U)
    confidence: float = 0.25  # C4.5's CF for pessimistic pruning
    subtree_raising: bool = True  # C4.5 / J48: consider raising the largest branch when pruning
    missing_values: str = "fractional"  # "fractional" (C4.5 weights), "surrogate" (CART), "own_value"
    max_surrogates: int = 5  # CART: surrogate splits kept per node (rpart's maxsurrogate)
    task: str | None = None  # "classification", "regression", or None: decided from the target
    leaf_value: str = "mean"  # regression leaves predict the "mean" or the "median"
    priors: object = None  # None / "data", "equal", or {class: probability} (CART, seed 002)
    class_weight: object = None  # None, "balanced" or {class: weight} (scikit-learn's)

    def to_dict(self) -> dict:
        return asdict(self)

    @property
    def impurity(self) -> str:
        """The impurity a node displays: Gini for the gini criterion, MSE for regression,
        entropy otherwise."""
        return {"gini": "gini", "squared_error": "mse"}.get(self.criterion, "entropy")


PRESETS: dict[str, Settings] = {
    "id3": Settings(
        algorithm="id3", criterion="entropy", categorical_split="multiway", numeric_split="multiway",
        reuse_attributes=False, stop_at_zero_gain=True,
    ),
    "c45": Settings(
        algorithm="c45", criterion="gain_ratio", categorical_split="multiway", numeric_split="threshold",
        average_gain_rule=True, min_branch_cases=2, min_samples_leaf=0, threshold_correction=True,
        threshold_at_data_value=True, collapse=True, cut_tolerance=1e-5,
    ),
    "cart": Settings(algorithm="cart", criterion="gini", missing_values="surrogate"),
    # Zaki & Meira, DECISIONTREE(D, eta, pi): binary splits scored by information gain, numeric
    # midpoints, categorical X in V with |V| <= l; stop when n <= eta or purity >= pi
    "zaki": Settings(
        algorithm="zaki", criterion="entropy", categorical_split="subset", max_subset_size=2,
        leaf_size=5, min_purity=0.95, stop_at_zero_gain=True,
    ),
}

ALGORITHMS = tuple(PRESETS)


def make_settings(algorithm: str = "cart", **options) -> Settings:
    """The preset for `algorithm` with `options` applied; a bad name or value raises ValueError.

    >>> make_settings("cart", max_depth=2).max_depth
    2
    >>> make_settings("cart", max_depht=2)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: Unknown setting 'max_depht'. Settings are: criterion, ...
    """
    if algorithm not in PRESETS:
        raise ValueError(f"Unknown algorithm '{algorithm}'. Choose one of: {', '.join(ALGORITHMS)}.")
    names = [f.name for f in fields(Settings) if f.name != "algorithm"]
    for name in options:
        if name not in names:
            raise ValueError(f"Unknown setting '{name}'. Settings are: {', '.join(names)}.")
    settings = replace(PRESETS[algorithm], **options)
    _validate(settings)
    return settings


def _validate(s: Settings) -> None:
    if s.criterion not in CRITERIA:
        raise ValueError(f"criterion must be one of {', '.join(CRITERIA)}, not '{s.criterion}'.")
    if s.categorical_split not in ("multiway", "subset"):
        raise ValueError("categorical_split must be 'multiway' or 'subset'.")
    if s.numeric_split not in ("threshold", "multiway"):
        raise ValueError("numeric_split must be 'threshold' or 'multiway'.")
    if s.max_depth is not None and (not _is_int(s.max_depth) or s.max_depth < 0):
        raise ValueError(f"max_depth must be a whole number >= 0 or None, not {s.max_depth!r}.")
    _number_at_least("min_samples_split", s.min_samples_split, 0)
    _number_at_least("min_samples_leaf", s.min_samples_leaf, 0)
    _number_at_least("min_gain", s.min_gain, 0)
    if s.leaf_size is not None:
        _number_at_least("leaf_size", s.leaf_size, 0)
    _number_at_least("min_branch_cases", s.min_branch_cases, 0)
    _number_at_least("cut_tolerance", s.cut_tolerance, 0)
    if s.min_purity is not None and (not _is_number(s.min_purity) or not 0 < s.min_purity <= 1):
        raise ValueError(f"min_purity (Zaki's pi) must be in (0, 1], not {s.min_purity!r}.")
    if not _is_int(s.max_exhaustive_values) or not 2 <= s.max_exhaustive_values <= 16:
        raise ValueError("max_exhaustive_values must be a whole number from 2 to 16.")
    if s.max_subset_size is not None and (not _is_int(s.max_subset_size) or not 1 <= s.max_subset_size <= 8):
        raise ValueError("max_subset_size (Zaki's l) must be a whole number from 1 to 8, or None.")
    if s.task not in (None, "classification", "regression"):
        raise ValueError("task must be 'classification', 'regression' or None (decided from the target).")
    if not isinstance(s.prune, bool) or not isinstance(s.subtree_raising, bool):
        raise ValueError("prune and subtree_raising must be True or False.")
    if not _is_number(s.confidence) or not 0 < s.confidence <= 0.5:
        raise ValueError(f"confidence (C4.5's CF) must be in (0, 0.5], not {s.confidence!r}.")
    if s.missing_values not in ("fractional", "surrogate", "own_value"):
        raise ValueError("missing_values must be 'fractional' (C4.5's weights), 'surrogate' (CART) or 'own_value'.")
    if s.missing_values == "surrogate" and (s.categorical_split != "subset" or s.numeric_split != "threshold"):
        raise ValueError("Surrogate splits need binary splits (the cart preset).")
    if not _is_int(s.max_surrogates) or s.max_surrogates < 0:
        raise ValueError("max_surrogates must be a whole number >= 0.")
    if s.leaf_value not in ("mean", "median"):
        raise ValueError("leaf_value must be 'mean' or 'median'.")
    if not (s.priors in (None, "data", "equal") or isinstance(s.priors, dict)):
        raise ValueError("priors must be 'data', 'equal' or a {class: probability} dict.")
    if not (s.class_weight in (None, "balanced") or isinstance(s.class_weight, dict)):
        raise ValueError("class_weight must be None, 'balanced' or a {class: weight} dict.")
    for flag in ("reuse_attributes", "stop_at_zero_gain", "average_gain_rule", "threshold_correction",
                 "threshold_at_data_value", "collapse"):
        if not isinstance(getattr(s, flag), bool):
            raise ValueError(f"{flag} must be True or False.")


def _is_number(value) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool) and value == value


def _is_int(value) -> bool:
    return _is_number(value) and float(value).is_integer()


def _number_at_least(name: str, value, low: float) -> None:
    if not _is_number(value) or value < low or value == float("inf"):
        raise ValueError(f"{name} must be a number >= {low}, not {value!r}.")
