"""Every split criterion, one record each: what it ranks candidates by, the table columns and
derivation sections that work it out, what the checker asks for, and which compiled scan
scores it. Settings, tables, formulas, the checker, the quiz and the pages read these records
(the words a student reads are its quantity's: `quantities`), so adding a criterion is one
record here, its measure in `measures` and its words in `quantities`.

>>> CRITERIA["gini"].ranks_by, CRITERIA["gini"].name, criterion("gain_ratio").family
('gini_gain', 'Gini gain', 'entropy')
>>> criterion("information")
Traceback (most recent call last):
...
ValueError: Unknown criterion 'information'. Criteria are: entropy, gini, gain_ratio, twoing, squared_error.
"""

from __future__ import annotations

from dataclasses import dataclass

from .quantities import QUANTITIES, Quantity

# what the compiled scans (`kernels`) rank by; a criterion without one is scored by `measures` alone
BY_GAIN, BY_GINI, BY_RATIO = 0, 1, 2


@dataclass(frozen=True)
class Criterion:
    key: str  # as settings, links and the command line name it
    kind: str  # "gain" (entropy), "impurity" (Gini), "ratio" (C4.5's gain ratio), "separation" (twoing), "regression"
    ranks_by: str  # the measure it ranks candidates by: a SplitStats property, a table column, a quantity
    gain: str  # the measure min_gain, a zero-gain leaf and C4.5's average-gain rule compare
    impurity: str  # the impurity a node shows: "entropy", "gini" or "mse"
    family: str  # the table columns and derivation sections that work it out, shown together
    family_title: str  # that family in a sentence: "the same candidate measured by ..."
    columns: tuple[str, ...]  # the candidate-table columns of its family, in the order shown
    checked: tuple[str, ...]  # what the checker asks a student for (`answers.QUANTITIES`), in order
    source: str  # the publication that defines it
    kernel: int | None  # the compiled scans' code (BY_*); None: scored node by node by `measures`
    binary_only: bool = False  # defined for two-way splits only

    @property
    def quantity(self) -> Quantity:
        return QUANTITIES[self.ranks_by]

    @property
    def name(self) -> str:
        """What it ranks by, inside a sentence: 'information gain'."""
        return self.quantity.name

    @property
    def title(self) -> str:
        """What it ranks by, in a menu: 'Information gain'."""
        return self.quantity.title

    @property
    def classes(self) -> bool:
        """Whether it ranks splits of a target with classes (else of a numeric one)."""
        return self.kind != "regression"


_ENTROPY = ("known", "entropy_before", "entropy_after", "gain", "correction", "corrected_gain", "split_info",
            "gain_ratio")
_ENTROPY_TITLE = "entropy, information gain and gain ratio"
_ENTROPY_CHECKED = ("node_entropy", "branch_entropy", "entropy_after", "gain")

CRITERIA: dict[str, Criterion] = {c.key: c for c in (
    Criterion("entropy", "gain", "gain", "gain", "entropy", "entropy", _ENTROPY_TITLE, _ENTROPY, _ENTROPY_CHECKED,
              "Quinlan 1986", BY_GAIN),
    Criterion("gini", "impurity", "gini_gain", "gini_gain", "gini", "gini", "the Gini index and Gini gain",
              ("known", "gini_before", "gini_after", "gini_gain"),
              ("node_gini", "branch_gini", "gini_after", "gini_gain"), "Breiman et al. 1984", BY_GINI),
    Criterion("gain_ratio", "ratio", "gain_ratio", "gain", "entropy", "entropy", _ENTROPY_TITLE, _ENTROPY,
              _ENTROPY_CHECKED + ("split_info", "gain_ratio"), "Quinlan 1993", BY_RATIO),
    # Breiman et al. (1984, ch. 4): how far apart the two sides' class distributions are; scored by `measures`
    Criterion("twoing", "separation", "twoing", "twoing", "gini", "twoing", "the twoing rule", ("known", "twoing"),
              ("twoing",), "Breiman et al. 1984", None, binary_only=True),
    # regression's scans (`kernels.scan_thresholds_regression`) are handed BY_GAIN and do not read it
    Criterion("squared_error", "regression", "score", "gain", "mse", "squared_error", "squared error",
              ("sse_before", "sse_after", "sse_reduction", "mse_before", "mse_after"), (), "Breiman et al. 1984",
              BY_GAIN),
)}
KEYS = tuple(CRITERIA)
CLASS_CRITERIA = tuple(key for key, c in CRITERIA.items() if c.classes)  # a numeric target: squared_error
RANKED_BY = {key: c.ranks_by for key, c in CRITERIA.items()}  # criterion -> the measure it ranks by
FAMILIES = {c.family: c for c in CRITERIA.values()}  # family -> its first criterion (its columns, its title)
# every measure column a table of classes holds, family by family (a regression table: squared_error's)
CLASS_COLUMNS = tuple(dict.fromkeys(column for c in CRITERIA.values() if c.classes for column in c.columns))


def criterion(key: str) -> Criterion:
    """The record of criterion `key`; an unknown one is refused with the known ones named."""
    if key not in CRITERIA:
        raise ValueError(f"Unknown criterion '{key}'. Criteria are: {', '.join(KEYS)}.")
    return CRITERIA[key]


def ranked_name(key: str) -> str:
    """'information gain': what a criterion ranks by, in a sentence."""
    return criterion(key).name
