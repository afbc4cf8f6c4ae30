"""Tables to download as CSV, written so that no cell is run by the spreadsheet that opens them.

A spreadsheet reads a cell starting with = + - @ (or a tab or carriage return before one) as a
formula, and a formula can fetch URLs or run commands ("CSV injection"). As OWASP's CSV
Injection page recommends, such a text cell is written after a single quote, which the
spreadsheet shows as text; numbers stay numbers (a negative number in a numeric column is no
formula, and quoting it would make it text). Names of columns are cells too.

>>> import pandas as pd
>>> print(to_csv(pd.DataFrame({"=1+1": ["@attr", "-2+3", "plain"], "x": [-1.5, 0.0, 2.0]})), end="")
'=1+1,x
'@attr,-1.5
'-2+3,0.0
plain,2.0
"""

from __future__ import annotations

import numbers

import pandas as pd

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")  # OWASP's list: what makes a spreadsheet read a formula


def cell(value):
    """A text cell made inert (a single quote before a formula's first character); a number,
    a truth value or a missing value as it is.

    >>> cell("=HYPERLINK(1)"), cell("-3"), cell(-3), cell("a=b")
    ("'=HYPERLINK(1)", "'-3", -3, 'a=b')
    """
    if value is None or value is pd.NA or value is pd.NaT or isinstance(value, (numbers.Number, bool)):
        return value
    text = str(value)
    return "'" + text if text.startswith(FORMULA_START) else text


def to_csv(frame: pd.DataFrame) -> str:
    """The table as CSV without its index: every text cell and column name through `cell`,
    numeric columns untouched."""
    safe = frame.rename(columns=lambda name: cell(str(name)))
    for i, column in enumerate(frame.columns):
        if not pd.api.types.is_numeric_dtype(frame[column].dtype):
            safe.isetitem(i, frame[column].map(cell).astype(object))
    return safe.to_csv(index=False)
