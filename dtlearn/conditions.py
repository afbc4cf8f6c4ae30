"""The tests an internal node applies: one class per kind of test, each with its branches.

A test only names its branches; which branch a row takes is decided in one place,
`routing` (a missing value, or for a multiway test a value never seen in training, takes no
branch of its own: C4.5 shares such rows among the branches by weight, CART follows its
surrogate splits).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from .formatting import label

@dataclass(frozen=True)
class ThresholdTest:
    """attribute <= threshold (branch 0) or > threshold (branch 1)."""

    attribute: str
    threshold: float
    kind = "threshold"
    n_branches = 2

    @cached_property
    def cut(self) -> str:
        """The threshold as written (`formatting.label`); made when first read (a fit of many
        rows makes a test per node, and most are never written out)."""
        return label(self.threshold)

    def describe(self) -> str:
        return f"{self.attribute} <= {self.cut}"

    @property
    def branch_labels(self) -> tuple[str, ...]:
        return (f"<= {self.cut}", f"> {self.cut}")

    def condition(self, branch: int) -> str:
        return f"{self.attribute} {self.branch_labels[branch]}"

    def to_dict(self) -> dict:
        return {"kind": self.kind, "attribute": self.attribute, "threshold": float(self.threshold)}


@dataclass(frozen=True)
class MultiwayTest:
    """One branch per value of a categorical attribute (ID3, C4.5)."""

    attribute: str
    values: tuple[str, ...]
    kind = "multiway"

    @property
    def n_branches(self) -> int:
        return len(self.values)

    def describe(self) -> str:
        return f"{self.attribute} = ?"

    @cached_property
    def branch_labels(self) -> tuple[str, ...]:  # (computed once: one label per value)
        return tuple(f"= {v}" for v in self.values)

    def condition(self, branch: int) -> str:
        return f"{self.attribute} = {self.values[branch]}"

    def to_dict(self) -> dict:
        return {"kind": self.kind, "attribute": self.attribute, "values": list(self.values)}


@dataclass(frozen=True)
class SubsetTest:
    """attribute in `left` (branch 0) or not (branch 1); values never seen here go right."""

    attribute: str
    left: tuple[str, ...]
    right: tuple[str, ...]
    kind = "subset"
    n_branches = 2

    def describe(self) -> str:
        return f"{self.attribute} in {_set(self.left)}"

    @property
    def branch_labels(self) -> tuple[str, ...]:
        return (f"in {_set(self.left)}", f"not in {_set(self.left)}")

    def condition(self, branch: int) -> str:
        return f"{self.attribute} {self.branch_labels[branch]}"

    def to_dict(self) -> dict:
        return {"kind": self.kind, "attribute": self.attribute, "left": list(self.left), "right": list(self.right)}


def _set(values) -> str:
    return "{" + ", ".join(values) + "}"


Test = ThresholdTest | MultiwayTest | SubsetTest
