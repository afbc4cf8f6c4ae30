"""Algorithm presets and the settings that tune them, validated with readable messages.

Presets (`PRESET`: one record each, its settings and its names; see the README for the full story):
- ``id3``  information gain, one branch per value, each attribute at most once on a path;
  numeric attributes are treated as categorical (one branch per distinct value), as in
  Quinlan (1986); a node whose best gain is 0 becomes a leaf (as Weka's Id3 does).
- ``c45_1993``  C4.5 as the book describes it and its programs (release 5) do (Quinlan 1993):
  gain ratio among the candidates whose gain is at least the average, multiway categorical
  splits, binary thresholds on numeric attributes (reusable on a path): an attribute's cut is
  its highest gain ratio among its cuts with at least their average gain
  (``threshold_by_ratio``), written as the largest training value not above the midpoint
  (``threshold_at_data_value``); two branches need 2 cases (``min_branch_cases``); subtrees
  that do not lower the training error collapse (``collapse``). No threshold correction.
- ``c45``  C4.5 release 8 = Weka's J48 -U (Quinlan 1996): the 1993 rules, but a numeric
  attribute's cut is its highest gain, and that gain is lowered by log2(#thresholds)/N
  (``threshold_correction``) before its gain ratio competes.
- ``cart`` binary splits only, Gini (or entropy), midpoint thresholds, categorical attributes
  split into two subsets; equal to scikit-learn's DecisionTreeClassifier on numeric data.
- ``zaki`` Zaki & Meira's DECISIONTREE(D, eta, pi): binary splits by information gain,
  categorical subsets X in V with |V| <= l (``max_subset_size``), leaf when n <= eta
  (``leaf_size``) or purity >= pi (``min_purity``).
"""

from __future__ import annotations

import math
import numbers
from dataclasses import asdict, dataclass, field, fields, replace

from .criteria import CLASS_CRITERIA, KEYS, criterion

CRITERIA = KEYS  # every criterion's key (`criteria.CRITERIA` holds their records)
CRITERION_NAMES = {key: criterion(key).name for key in CRITERIA}  # what each ranks by, in a sentence


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
    threshold_at_data_value: bool = False  # C4.5: the cut is the largest training value <= midpoint
    threshold_by_ratio: bool = False  # C4.5 1993: an attribute's cut by gain ratio among its cuts of >= average gain
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
        """The impurity a node displays: "entropy", "gini" or "mse" (regression), as the criterion says."""
        return criterion(self.criterion).impurity

    @property
    def cuts_numbers(self) -> bool:
        """A number is split by a cut (x <= t), not one branch per distinct value (ID3, Quinlan 1986)."""
        return self.numeric_split == "threshold"

    @property
    def binary_splits(self) -> bool:
        """Every split has two branches: categories split into two subsets, numbers cut (CART, Zaki & Meira)."""
        return self.categorical_split == "subset" and self.cuts_numbers

    @property
    def c45_rules(self) -> bool:
        """Any of C4.5's rules for classes is on: the average-gain rule, a cut's correction or choice by gain
        ratio, the collapse of subtrees by training errors (Quinlan 1993, 1996)."""
        return self.average_gain_rule or self.threshold_correction or self.threshold_by_ratio or self.collapse

    @property
    def surrogates(self) -> bool:
        """A row missing a test's value follows a surrogate split (CART, Breiman et al. 1984)."""
        return self.missing_values == "surrogate"

    @property
    def default_pruning(self) -> str:
        """The pruning that goes with the criterion's book: cost-complexity for Breiman et al.'s (Gini,
        twoing, squared error), reduced-error pruning for Quinlan's."""
        return "cost_complexity" if criterion(self.criterion).source.startswith("Breiman") else "reduced_error"


_C45 = dict(criterion="gain_ratio", categorical_split="multiway", numeric_split="threshold", average_gain_rule=True,
            min_branch_cases=2, min_samples_leaf=0, threshold_at_data_value=True, collapse=True, cut_tolerance=1e-5)


@dataclass(frozen=True)
class Preset:
    """One algorithm: its settings and how every page, sheet and message names it."""

    key: str  # as code, links (algo=) and the command line name it
    settings: Settings
    title: str  # short, for a menu of all of them: "C4.5 1993"
    name: str  # in a sentence: "C4.5 as in Quinlan 1993"
    source: str  # the publication its rules follow
    summary: str  # what it ranks by and how it splits, in a line
    family: str = ""  # presets of one algorithm in different versions share it (Compare grows one)

    @property
    def cited(self) -> str:
        """Its name with its source: 'CART (Breiman et al. 1984)'."""
        return self.name if self.source in self.name else f"{self.name} ({self.source})"


_ZAKI = Settings(algorithm="zaki", criterion="entropy", categorical_split="subset", max_subset_size=2, leaf_size=5,
                 min_purity=0.95, stop_at_zero_gain=True)
PRESET: dict[str, Preset] = {p.key: p for p in (
    Preset("id3", Settings(algorithm="id3", criterion="entropy", categorical_split="multiway",
                           numeric_split="multiway", reuse_attributes=False, stop_at_zero_gain=True),
           "ID3", "ID3", "Quinlan 1986",
           "Quinlan (1986): information gain, one branch per value, each attribute once per path."),
    Preset("c45_1993", Settings(algorithm="c45_1993", threshold_by_ratio=True, **_C45),
           "C4.5 1993", "C4.5 as in Quinlan 1993", "Quinlan 1993",
           "C4.5 as in Quinlan (1993): gain ratio among the splits with at least average gain; a number's cut "
           "by gain ratio too, written as a training value; no threshold correction.", "c45"),
    Preset("c45", Settings(algorithm="c45", threshold_correction=True, **_C45),
           "C4.5 R8", "C4.5 Release 8 = Weka's J48", "Quinlan 1996",
           "C4.5 Release 8 = Weka's J48 (Quinlan 1996): as the 1993 book, but a number's cut is picked by gain "
           "and its gain lowered by log₂(cuts)/N.", "c45"),
    Preset("cart", Settings(algorithm="cart", criterion="gini", missing_values="surrogate"),
           "CART", "CART", "Breiman et al. 1984",
           "Breiman et al. (1984): binary splits only, Gini index, subsets of values for categories; squared "
           "error for a numeric target (regression)."),
    # Zaki & Meira, DECISIONTREE(D, eta, pi): binary splits scored by information gain, numeric
    # midpoints, categorical X in V with |V| <= l; stop when n <= eta or purity >= pi
    Preset("zaki", _ZAKI, "Zaki", "Zaki & Meira's decision tree", "Zaki & Meira 2014",
           f"Zaki & Meira, DECISIONTREE(D, η, π): binary splits by information gain; a leaf at "
           f"η = {_ZAKI.leaf_size:g} rows or purity π = {_ZAKI.min_purity:g}."),
)}
PRESETS: dict[str, Settings] = {key: preset.settings for key, preset in PRESET.items()}

ALGORITHMS = tuple(PRESETS)


# --- every setting described once: validation, the app's sidebar, links and summaries read it ---

@dataclass(frozen=True)
class Option:
    """One setting: what values it takes, and how a page shows it.

    kind: "choice" (one of `choices`), "whole" (an integer), "number" (a real), "flag" (a bool),
    "weights" (one of `choices` or a {class: number} dict). `low`/`high` bound a number
    (`open_low`: low itself excluded); `optional`: None is allowed (`none` says what it means).
    For the app: `label`, `help`, `names` (words for the choices), `place` ("sidebar" or "more",
    the expander; None: not shown), `url` (its query parameter), `summary` (its words in the
    one-line summary of a view), `classes_only` (meaningless for a numeric target), `step` and
    `format` for number inputs."""

    name: str
    kind: str
    label: str = ""
    help: str = ""
    choices: tuple = ()
    names: dict = field(default_factory=dict)
    low: float | None = None
    high: float | None = None
    open_low: bool = False
    optional: bool = False
    none: str = "off"
    alias: str = ""  # the textbook's name, said in messages: "min_purity (Zaki's pi)"
    place: str | None = None
    url: str | None = None
    summary: str | None = None
    classes_only: bool = False
    step: float | None = None
    format: str | None = None

    @property
    def title(self) -> str:
        return f"{self.name} ({self.alias})" if self.alias else self.name

    def problem(self, value) -> str | None:
        """Why `value` is not allowed (a sentence), or None."""
        if value is None:
            return None if self.optional else self._rule(value)
        if self.kind == "choice":
            return None if value in self.choices else self._rule(value)
        if self.kind == "flag":
            return None if isinstance(value, bool) else self._rule(value)
        if self.kind == "weights":
            return None if (value in self.choices or isinstance(value, dict)) else self._rule(value)
        good = _is_int(value) if self.kind == "whole" else _is_number(value) and not math.isinf(value)
        if good and self.low is not None:
            good = value > self.low if self.open_low else value >= self.low
        if good and self.high is not None:
            good = value <= self.high
        return None if good else self._rule(value)

    def _rule(self, value) -> str:
        if self.kind == "choice":
            quoted = [f"'{c}'" for c in self.choices] + (["None"] if self.optional else [])
            if len(quoted) > 3:
                return f"{self.title} must be one of {', '.join(self.choices)}, not '{value}'."
            listed = ", ".join(quoted[:-1]) + f" or {quoted[-1]}"
            described = {"missing_values": "'fractional' (C4.5's weights), 'surrogate' (CART) or 'own_value'"}
            return f"{self.title} must be {described.get(self.name, listed)}."
        if self.kind == "flag":
            return f"{self.title} must be True or False."
        if self.kind == "weights":
            what = "probability" if self.name == "priors" else "weight"
            first = "'data', 'equal'" if self.name == "priors" else "None, 'balanced'"
            return f"{self.title} must be {first} or a {{class: {what}}} dict."
        if self.open_low:
            return f"{self.title} must be in ({_plain(self.low)}, {_plain(self.high)}], not {value!r}."
        none = " or None" if self.optional else ""
        if self.kind == "whole":
            if self.high is not None:
                return f"{self.title} must be a whole number from {_plain(self.low)} to {_plain(self.high)}" \
                       + (", or None." if self.optional else ".")
            return f"{self.title} must be a whole number >= {_plain(self.low)}{none}, not {value!r}."
        return f"{self.title} must be a number >= {_plain(self.low)}{none}, not {value!r}."


def _plain(number) -> str:
    return f"{number:g}"


CRITERION_TITLES = {key: criterion(key).title for key in CLASS_CRITERIA}  # the menu's words

OPTIONS: tuple[Option, ...] = (
    Option("criterion", "choice", "Split criterion", "What ranks the candidate splits.", choices=CRITERIA,
           names=CRITERION_TITLES, place="sidebar", url="criterion"),
    Option("categorical_split", "choice", choices=("multiway", "subset")),
    Option("numeric_split", "choice", choices=("threshold", "multiway")),
    Option("reuse_attributes", "flag"),
    Option("max_depth", "whole", "Max depth", "Nodes at this depth become leaves (the root has depth 0). Empty: "
           "no limit.", low=0, optional=True, none="no limit", place="sidebar", url="max_depth",
           summary="max depth", step=1),
    Option("min_samples_split", "number", low=0),
    Option("min_samples_leaf", "number", "Min leaf size", "Every branch a split makes must hold at least this "
           "many rows.", low=0, place="sidebar", url="min_leaf", summary="min leaf", step=1),
    Option("min_purity", "number", "Purity π", "A node whose majority class holds at least this fraction of its "
           "rows becomes a leaf (Zaki & Meira's π). Empty: off.", low=0, high=1, open_low=True, optional=True,
           alias="Zaki's pi", place="sidebar", url="purity", summary="purity π", classes_only=True, step=0.05,
           format="%.2f"),
    Option("leaf_size", "number", low=0, optional=True, alias=""),
    Option("min_gain", "number", "Min gain", "Split only when the best gain exceeds this value (pre-pruning).",
           low=0, place="sidebar", url="min_gain", summary="min gain", step=0.01, format="%.3f"),
    Option("stop_at_zero_gain", "flag"),
    Option("average_gain_rule", "flag"),
    Option("min_branch_cases", "number", low=0),
    Option("threshold_correction", "flag"),
    Option("cut_tolerance", "number", low=0),
    Option("threshold_at_data_value", "flag"),
    Option("threshold_by_ratio", "flag"),
    Option("collapse", "flag"),
    Option("max_exhaustive_values", "whole", low=2, high=16),
    Option("max_subset_size", "whole", "Largest value set |V| (Zaki)", "Categorical splits X ∈ V with at most "
           "this many values, as in Zaki & Meira. Empty: CART's exact subset search.", low=1, high=8,
           optional=True, none="CART's search", alias="Zaki's l", place="more", url="subset_size", step=1),
    Option("prune", "flag"),
    Option("confidence", "number", low=0, high=0.5, open_low=True, alias="C4.5's CF"),
    Option("subtree_raising", "flag"),
    Option("missing_values", "choice", "Missing values", "C4.5 shares a row with a missing value among the "
           "branches by weight; CART sends it down by the best surrogate split; or treat 'missing' as one more "
           "category.", choices=("fractional", "surrogate", "own_value"),
           names={"fractional": "Fractional weights (C4.5)", "surrogate": "Surrogate splits (CART)",
                  "own_value": "“Missing” as a value of its own"}, place="more", url="missing"),
    Option("max_surrogates", "whole", low=0),
    Option("task", "choice", "Task", "A numeric target with many values grows a regression tree (CART); choose "
           "here to treat its values as classes instead, or the other way round.",
           choices=("classification", "regression"), optional=True, none="auto",
           names={None: "From the target (numbers with > 10 values: regression)",
                  "classification": "Classification", "regression": "Regression"}, place="more", url="task"),
    Option("leaf_value", "choice", "Regression leaves predict", "For a numeric target (CART regression).",
           choices=("mean", "median"), names={"mean": "Mean", "median": "Median"}, place="more", url="leaf_value"),
    Option("priors", "weights", "Class priors", "Equal priors weigh every class as if it had as many rows as the "
           "others (Breiman et al. 1984).", choices=("data", "equal"), optional=True,
           names={None: "From the data", "equal": "Equal (balanced classes)"}, place="more", url="priors",
           classes_only=True),
    Option("class_weight", "weights", choices=("balanced",), optional=True),
)
OPTION = {option.name: option for option in OPTIONS}


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
    for option in OPTIONS:
        problem = option.problem(getattr(s, option.name))
        if problem:
            raise ValueError(problem)
    if s.threshold_by_ratio and s.threshold_correction:
        raise ValueError("threshold_by_ratio (Quinlan 1993: a cut by gain ratio) and threshold_correction (Quinlan "
                         "1996: a cut by gain, then corrected) are two versions of C4.5: choose one.")
    if s.surrogates and not s.binary_splits:
        raise ValueError("Surrogate splits need binary splits (the cart preset).")
    if criterion(s.criterion).binary_only and not s.binary_splits:
        raise ValueError(f"The {criterion(s.criterion).name} ({s.criterion}) is defined for binary splits: set "
                         "categorical_split='subset' and numeric_split='threshold' (the cart preset).")


def _is_number(value) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool) and value == value


def _is_int(value) -> bool:
    return _is_number(value) and float(value).is_integer()
