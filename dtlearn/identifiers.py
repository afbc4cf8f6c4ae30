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

Two more kinds of column are left out the same way, unless asked for:

* text with more than `MANY_VALUES` values and more values than half its rows (free text, codes,
  names with a few repeats): most values then hold a row or two, so a branch per value learns
  them by heart (Quinlan 1986 on attributes of many values; Mitchell 1997, 3.7.2), and CART's
  subsets of V values cost V^2. The floor keeps every textbook table whole: 14 rows (Mitchell's,
  Han's) or 10 (Tan's) cannot hold 51 values. A declared domain (an ARFF file's) counts whole,
  since its unused values still grow branches;
* the attribute columns after the first `MAX_ATTRIBUTES` of a wide table: every page builds per
  attribute (a table row, a menu, a widget on Predict), and a tree over thousands of columns
  neither grows nor reads in a lesson's time. Only the first `MAX_ATTRIBUTES` are examined.
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
MANY_VALUES = 50  # text with more values than this and than half its rows is left out
MAX_ATTRIBUTES = 200  # attribute columns a reader keeps, in file order; the rest are left out


@dataclass(frozen=True)
class Identifier:
    """A column left out: its `name`, a few of its values (`examples`: "D1, D2, …, D14") and
    `why`, in words ("a different value in every row, and named like an identifier"). `rule`
    says which rule: "identifier", "many values", or "beyond" (past the first MAX_ATTRIBUTES
    columns: no examples, and `why` says where it is)."""

    name: str
    examples: str
    why: str
    rule: str = "identifier"


def identifier_columns(frame: pd.DataFrame, target: str,
                       max_attributes: int | None = MAX_ATTRIBUTES) -> tuple[Identifier, ...]:
    """The attribute columns of `frame` (every column but `target`) to leave out unless asked
    for: among the first `max_attributes` (None: all), those that name the rows or hold nearly
    as many values as rows; and the columns after those.

    >>> frame = pd.DataFrame({"Day": ["D1", "D2", "D3"], "wind": ["weak", "strong", "weak"], "play": list("nyy")})
    >>> [(i.name, i.examples, i.why) for i in identifier_columns(frame, "play")]
    [('Day', 'D1, D2, D3', 'a different value in every row, and named like an identifier')]
    >>> identifier_columns(frame.drop(columns="wind"), "play")  # the only attribute stays
    ()
    >>> wide = pd.DataFrame({"a": [1, 2], "b": [2, 1], "c": [1, 1], "y": ["n", "y"]})
    >>> [(i.name, i.rule, i.why) for i in identifier_columns(wide, "y", max_attributes=2)]
    [('c', 'beyond', 'column 3 of 3 attribute columns, after the first 2')]
    """
    attributes = [name for name in frame.columns if str(name) != target]
    if max_attributes is not None and max_attributes < 1:
        raise ValueError(f"max_attributes must be a whole number of at least 1 or None, not {max_attributes!r}.")
    examined = attributes if max_attributes is None else attributes[:max_attributes]
    found = []
    for name in examined:
        rule, why = _why(str(name), frame[name])
        if why:
            found.append(Identifier(str(name), _examples(frame[name]), why, rule))
    found = found if len(found) < len(examined) else []
    beyond = attributes[len(examined):]
    where = f"attribute columns, after the first {len(examined)}"
    return tuple(found) + tuple(Identifier(str(name), "", f"column {i:,} of {len(attributes):,} {where}", "beyond")
                                for i, name in enumerate(beyond, start=len(examined) + 1))


def named_like_an_identifier(name: str) -> bool:
    """Whether a column's name says it names the rows: 'Day', 'RID', 'No.', '#', 'customer_id'."""
    squeezed = re.sub(r"[\s._\-]", "", name.lower())
    return squeezed in ID_NAMES or bool(_ENDS_IN_ID.search(name.strip()))


def _why(name: str, column: pd.Series) -> tuple[str, str | None]:
    """(rule, why) for a column to leave out; why is None for one to keep."""
    if len(column) < 2 or pd.api.types.is_bool_dtype(column):
        return "", None
    text = not pd.api.types.is_numeric_dtype(column)
    if column.isna().any():
        return ("many values", _many_values(column)) if text else ("", None)
    if named_like_an_identifier(name):
        return "identifier", ("a different value in every row, and named like an identifier"
                              if _all_distinct(column) else None)
    if len(column) < MIN_ROWS or not text:
        return "", None
    if _all_distinct(column):
        return "identifier", "a different text in every row"
    return "many values", _many_values(column)


def _many_values(column: pd.Series) -> str | None:
    """'990 different values in 1,000 rows' when a text column holds more than MANY_VALUES
    values and more than half as many as rows (a declared domain counted whole), else None."""
    rows = len(column)
    declared = len(column.cat.categories) if isinstance(column.dtype, pd.CategoricalDtype) else 0
    if max(rows, declared) <= MANY_VALUES:
        return None  # (no pass over the cells: so few rows cannot hold so many values)
    present = int(column.nunique(dropna=True))
    if max(declared, present) <= max(MANY_VALUES, rows / 2):
        return None
    values = f"{declared:,} declared values" if declared > present else f"{present:,} different values"
    return f"{values} in {rows:,} row{'s' if rows != 1 else ''}"


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
