"""A dataset turned into numpy arrays once, so that induction never touches pandas per node.

Categorical values become integer codes into an ordered tuple of labels (-1 = missing);
numeric values stay floats (NaN = missing); classes become codes into `classes`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import pandas as pd

from .data import Dataset, label, ordered_labels

MISSING, UNSEEN = -1, -2


def codes_for(column: pd.Series, categories: tuple[str, ...]) -> np.ndarray:
    """Positions of a column's values in `categories`: MISSING (-1) or UNSEEN (-2) otherwise.

    Labels are computed once per distinct value, not per row.
    """
    codes, uniques = pd.factorize(column, use_na_sentinel=True)
    lookup = {name: i for i, name in enumerate(categories)}
    mapping = np.array([lookup.get(label(u), UNSEEN) for u in uniques] + [MISSING], dtype=np.int64)
    return mapping[codes]  # codes == -1 picks the trailing MISSING


@dataclass(frozen=True, eq=False)
class Encoded:
    """Arrays for induction: `numeric[a]` floats, `codes(a)` categorical codes, `y` class codes."""

    data: Dataset
    classes: tuple[str, ...] = field(init=False)
    y: np.ndarray = field(init=False)
    numeric_matrix: np.ndarray = field(init=False)  # (n, #numeric) float, NaN = missing
    numeric_by_attribute: np.ndarray = field(init=False)  # its transpose, contiguous

    def __post_init__(self) -> None:
        frame, target = self.data.frame, self.data.target
        classes = ordered_labels(frame[target])
        object.__setattr__(self, "classes", classes)
        object.__setattr__(self, "y", codes_for(frame[target], classes))
        numeric = [frame[a].to_numpy(dtype=float) for a in self.numeric_attributes]
        matrix = np.column_stack(numeric) if numeric else np.empty((len(frame), 0))
        object.__setattr__(self, "numeric_matrix", np.ascontiguousarray(matrix))
        # (attributes, rows): a node gathers its rows of every numeric attribute in one take
        object.__setattr__(self, "numeric_by_attribute", np.ascontiguousarray(matrix.T))

    @property
    def attributes(self) -> tuple[str, ...]:
        return self.data.attributes

    @property
    def n_rows(self) -> int:
        return len(self.y)

    @cached_property
    def numeric_attributes(self) -> tuple[str, ...]:
        return tuple(a for a in self.attributes if self.data.kinds[a] == "numeric")

    def kind(self, attribute: str) -> str:
        return self.data.kinds[attribute]

    def numeric(self, attribute: str) -> np.ndarray:
        return self.numeric_matrix[:, self.numeric_attributes.index(attribute)]

    def categories(self, attribute: str) -> tuple[str, ...]:
        return self._categorical[attribute][1]

    def codes(self, attribute: str) -> np.ndarray:
        """Codes of any attribute; a numeric one is coded by its distinct values (ID3's view)."""
        return self._categorical[attribute][0]

    @cached_property
    def _categorical(self) -> dict:
        return _LazyCodes(self.data.frame)


class _LazyCodes(dict):
    """Codes per attribute, made on first use (most numeric attributes never need them)."""

    def __init__(self, frame: pd.DataFrame) -> None:
        super().__init__()
        self._frame = frame

    def __missing__(self, attribute: str):
        column = self._frame[attribute]
        categories = ordered_labels(column)
        self[attribute] = (codes_for(column, categories), categories)
        return self[attribute]
