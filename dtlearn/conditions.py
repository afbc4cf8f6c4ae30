"""The tests an internal node applies: one class per kind of test, each with its branches.

`branch_of(column)` sends every row to a branch index, or to -1 when the value is missing
(or, for a multiway test, a value never seen in training): such rows are shared among the
branches by weight (C4.5, seed 003).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
import pandas as pd

from .data import label
from .encoding import MISSING, UNSEEN, codes_for

UNKNOWN_BRANCH = -1


@dataclass(frozen=True)
class ThresholdTest:
    """attribute <= threshold (branch 0) or > threshold (branch 1)."""

    attribute: str
    threshold: float
    kind = "threshold"

    def describe(self) -> str:
        return f"{self.attribute} <= {label(self.threshold)}"

    @cached_property
    def branch_labels(self) -> tuple[str, ...]:
        return (f"<= {label(self.threshold)}", f"> {label(self.threshold)}")

    def condition(self, branch: int) -> str:
        return f"{self.attribute} {self.branch_labels[branch]}"

    def branch_of(self, column: pd.Series) -> np.ndarray:
        values = pd.to_numeric(column, errors="coerce").to_numpy(dtype=float)
        return np.where(np.isnan(values), UNKNOWN_BRANCH, np.where(values <= self.threshold, 0, 1))

    def to_dict(self) -> dict:
        return {"kind": self.kind, "attribute": self.attribute, "threshold": float(self.threshold)}


@dataclass(frozen=True)
class MultiwayTest:
    """One branch per value of a categorical attribute (ID3, C4.5)."""

    attribute: str
    values: tuple[str, ...]
    kind = "multiway"

    def describe(self) -> str:
        return f"{self.attribute} = ?"

    @property
    def branch_labels(self) -> tuple[str, ...]:
        return tuple(f"= {v}" for v in self.values)

    def condition(self, branch: int) -> str:
        return f"{self.attribute} = {self.values[branch]}"

    def branch_of(self, column: pd.Series) -> np.ndarray:
        codes = codes_for(column, self.values)
        return np.where(codes < 0, UNKNOWN_BRANCH, codes)

    def to_dict(self) -> dict:
        return {"kind": self.kind, "attribute": self.attribute, "values": list(self.values)}


@dataclass(frozen=True)
class SubsetTest:
    """attribute in `left` (branch 0) or not (branch 1); values never seen here go right."""

    attribute: str
    left: tuple[str, ...]
    right: tuple[str, ...]
    kind = "subset"

    def describe(self) -> str:
        return f"{self.attribute} in {_set(self.left)}"

    @property
    def branch_labels(self) -> tuple[str, ...]:
        return (f"in {_set(self.left)}", f"not in {_set(self.left)}")

    def condition(self, branch: int) -> str:
        return f"{self.attribute} {self.branch_labels[branch]}"

    def branch_of(self, column: pd.Series) -> np.ndarray:
        codes = codes_for(column, self.left)
        return np.select([codes == MISSING, codes == UNSEEN], [UNKNOWN_BRANCH, 1], 0)

    def to_dict(self) -> dict:
        return {"kind": self.kind, "attribute": self.attribute, "left": list(self.left), "right": list(self.right)}


def _set(values) -> str:
    return "{" + ", ".join(values) + "}"


Test = ThresholdTest | MultiwayTest | SubsetTest
