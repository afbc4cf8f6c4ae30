"""What the Data page shows of a dataset besides the table: rows per class, one line per column,
and a numeric column's histogram (counted here, so that only the bars reach the browser)."""

from __future__ import annotations

from typing import Mapping

import numpy as np
import pandas as pd

from .data import Dataset
from .formatting import labels_of


def class_counts(data: Dataset) -> pd.DataFrame:
    """Rows per class, classes in the dataset's order: columns `class`, `rows`, `share`."""
    labels = pd.Series(labels_of(data.frame[data.target]))
    rows = [int((labels == c).sum()) for c in data.classes]
    total = sum(rows)
    return pd.DataFrame({"class": list(data.classes), "rows": rows, "share": [r / total for r in rows]})


def column_summary(data: Dataset, inferred: Mapping[str, str] | None = None) -> pd.DataFrame:
    """One row per column: its role, kind, number of distinct values and of missing cells."""
    records = []
    for name in data.frame.columns:
        column = data.frame[name]
        role = "target" if name == data.target else "attribute"
        kind = "class label" if role == "target" else data.kinds[name]
        note = ""
        if inferred is not None and role == "attribute" and inferred.get(name) not in (None, kind):
            note = f"set by you (read as {inferred[name]})"
        distinct = int(column.nunique())
        if role == "attribute" and kind == "categorical" and distinct == len(column) > 2:
            note = "a different value in every row (an identifier?): it would split perfectly and teach nothing"
        records.append({"column": name, "role": role, "kind": kind, "distinct values": distinct,
                        "missing": int(column.isna().sum()), "note": note})
    return pd.DataFrame(records)


def histogram(values, max_bins: int = 200) -> tuple[np.ndarray, np.ndarray]:
    """(counts, edges) of a numeric column's known values: numpy's "auto" bins, at most
    `max_bins` of them (a million distinct values would otherwise give thousands); one bin for a
    single value. The Data page draws these bars instead of sending every value to the browser.

    >>> counts, edges = histogram([2.0, 2.0, None, 2.0])
    >>> counts.tolist(), len(edges)
    ([3], 2)
    """
    known = pd.to_numeric(pd.Series(values), errors="coerce").dropna().to_numpy(dtype=float)
    if len(known) == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0)
    counts, edges = np.histogram(known, bins="auto" if len(np.unique(known)) > 1 else 1)
    if len(counts) > max_bins:
        counts, edges = np.histogram(known, bins=max_bins)
    return counts, edges
