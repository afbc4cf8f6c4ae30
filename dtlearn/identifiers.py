"""Identifier columns: a column that names the rows, as textbooks print one first (Mitchell's Day
D1..D14, Han, Kamber & Pei's RID, Tan, Steinbach & Kumar's Tid).

A tree learns nothing from such a column, yet every criterion ranks it first or nearly so: each
of its values holds one row, so every branch is pure (ID3's gain of Day is the whole entropy,
0.940; Mitchell 1997, section 3.7.2, makes the point with a Date attribute). A reader leaves
these columns out and says so; `identifier_columns` says which they are.

Which columns, and why so narrow a rule (an attribute taken for an identifier would change a
homework's tree behind a note; an identifier missed shows itself at the root):

* a name that says so (`ID_NAMES`, or ending in "id": `customer_id`, `CustomerID`) and a
  different value in every row, whatever the values (D1..D14, 1..14);
* without such a name, at least `MIN_ROWS` rows of text with a different value in every row (a
  name, a code): a category that never repeats cannot generalise.

Numbers need the name. Ten incomes or fourteen temperatures may all differ and still be the
attribute the exercise is about, and so may whole numbers 1..n: a one-attribute toy (x = 1..10)
teaches thresholds with exactly that, and a shuffled 0..n-1 is a fine attribute. Every cell must
be present. When every attribute would go, none does: a table needs one to learn from.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import pandas as pd

# Names (lowercased, without spaces, dots, dashes or underscores) that textbooks and spreadsheets
# give the column that numbers or names the rows.
ID_NAMES = frozenset({
    "id", "rid", "tid", "pid", "uid", "day", "no", "nr", "num", "number", "#", "index", "idx", "row", "rowid",
    "rownumber", "record", "recordid", "recordno", "case", "caseid", "caseno", "key", "serial", "serialno", "sno",
    "slno", "srno", "obs", "observation", "instance", "example", "sample",
})
_ENDS_IN_ID = re.compile(r"(?i:(?:^|[\s_.\-])id)$|[a-z]I[dD]$")  # "customer_id", "Customer ID", "CustomerID"
MIN_ROWS = 8  # fewer rows may hold a handful of different values by chance
FIRST_CELLS = 1000  # a column with a repeat mostly shows it early: no pass over every row


@dataclass(frozen=True)
class Identifier:
    """A column taken for an identifier: its `name`, a few of its values (`examples`: "D1, D2, …,
    D14") and `why`, in words ("a different value in every row, and named like an identifier")."""

    name: str
    examples: str
    why: str


def identifier_columns(frame: pd.DataFrame, target: str) -> tuple[Identifier, ...]:
    """The attribute columns of `frame` (every column but `target`) that name the rows.

    >>> frame = pd.DataFrame({"Day": ["D1", "D2", "D3"], "wind": ["weak", "strong", "weak"], "play": list("nyy")})
    >>> [(i.name, i.examples, i.why) for i in identifier_columns(frame, "play")]
    [('Day', 'D1, D2, D3', 'a different value in every row, and named like an identifier')]
    >>> identifier_columns(frame.drop(columns="wind"), "play")  # the only attribute stays
    ()
    """
    attributes = [name for name in frame.columns if str(name) != target]
    found = []
    for name in attributes:
        why = _why(str(name), frame[name])
        if why:
            found.append(Identifier(str(name), _examples(frame[name]), why))
    return tuple(found) if len(found) < len(attributes) else ()


def named_like_an_identifier(name: str) -> bool:
    """Whether a column's name says it names the rows: 'Day', 'RID', 'No.', '#', 'customer_id'."""
    squeezed = re.sub(r"[\s._\-]", "", name.lower())
    return squeezed in ID_NAMES or bool(_ENDS_IN_ID.search(name.strip()))


def _why(name: str, column: pd.Series) -> str | None:
    if len(column) < 2 or column.isna().any() or pd.api.types.is_bool_dtype(column):
        return None
    if named_like_an_identifier(name):
        return "a different value in every row, and named like an identifier" if _all_distinct(column) else None
    if len(column) < MIN_ROWS:
        return None
    if pd.api.types.is_numeric_dtype(column):
        return None
    return "a different text in every row" if _all_distinct(column) else None


def _all_distinct(column: pd.Series) -> bool:
    first = column.iloc[:FIRST_CELLS]
    if first.nunique(dropna=False) < len(first):
        return False
    return bool(column.nunique(dropna=False) == len(column))


def _examples(column: pd.Series) -> str:
    """'D1, D2, …, D14': the first two values and the last (all of them when three or fewer)."""
    cells = [_written(v) for v in (column if len(column) <= 3 else column.iloc[[0, 1, -1]])]
    return ", ".join(cells) if len(column) <= 3 else f"{cells[0]}, {cells[1]}, …, {cells[2]}"


def _written(value) -> str:
    """A value as the file wrote it: a whole float (a numeric column read into a Dataset) without '.0'."""
    return str(int(value)) if isinstance(value, (float, np.floating)) and float(value).is_integer() else str(value)
