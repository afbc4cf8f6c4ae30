"""Reading a CSV table (a file, or a table pasted as text) into a `Dataset`.

`read_csv` is the one door through which files enter (`read_table_text` is the same door for a
table pasted as text); anything it cannot use raises `DataError` with a message a student can act
on, never another exception type. Files are parsed as text only (no pickle, no eval).
"""

from __future__ import annotations

import re
from typing import Mapping

import numpy as np
import pandas as pd

from . import units
from .csv_cells import SEPARATORS, _cells, _header_and_body, _numbers_the_rows, _read_decimal_commas, _separator, _typed
from .data import DataError, Dataset, check_left_out, decode_bytes, default_target, labelled, read_bytes, \
    without_identifiers, _checked_text
from .identifiers import MAX_ATTRIBUTES

SEPARATOR_NOTES = {
    ";": "Read as semicolon-separated (as European Excel saves CSV).",
    "\t": "Read as tab-separated (as a spreadsheet copies cells).",
}
_SEPARATOR_HINT = re.compile(r"[ \t]*sep=(.)[ \t]*(?:\n|$)", re.IGNORECASE)


def read_csv(source, target: str | None = None, kinds: Mapping[str, str] | None = None,
             identifiers: str = "ignore", max_attributes: int | None = MAX_ATTRIBUTES) -> Dataset:
    """Read a CSV table (path, bytes or file object) into a `Dataset`.

    The header row names the columns; `target` defaults to the last column (to the last one with
    a value in every row when the last has gaps: `default_target`), and rows without a value of
    the target are left out (`labelled`); the notes say so. Empty cells and `?` are missing
    values. A column is numeric when every present value is a number. Raises `DataError` (and
    nothing else) with a readable message when the input is unusable.

    The separator is found from the header and the first lines (`_separator`): comma,
    semicolon or tab, whichever splits them into rows of the header's width (comma when in
    doubt); quoted fields are kept whole. With a semicolon or tab, a column whose every present
    cell is a number written with a decimal comma (`-1,5`, `0,25`, `3`) is numeric. Thousands
    separators are not recognised: `1.234,5` stays text and `1,234` reads as 1.234.

    Numbers printed with a unit, a scale letter, a currency or percent sign or thousands
    separators (`125K`, `3 kg`, `$5`, `12%`, `"1,000"`) are read as the numbers written, the unit
    dropped (`units.read_numbers`: 125K is 125, in thousands); cells that cannot be read one way
    (two units in a column, `1,5` beside `1,000`) stay categories, with a note saying what to change.

    `identifiers`: "ignore" (the default) leaves out the columns that name the rows, as textbooks
    print them first (Mitchell's Day, D1..D14), and text columns of nearly as many values as rows
    (free text, codes; `identifiers.identifier_columns` says which), since a tree would split on
    them and learn nothing; "keep" keeps them. Only the first `max_attributes` attribute columns
    are read (None: all of them): a wide table's others are left out. A column given a kind in
    `kinds` is always kept. `Dataset.notes` says what was left out and how to keep it.

    >>> read_csv(b"outlook,play\\nSunny,No\\n?,Yes\\n").frame["outlook"].isna().tolist()
    [False, True]
    >>> data = read_csv(b"price;play\\n1,5;No\\n2;Yes\\n")
    >>> data.frame["price"].tolist(), data.notes[1]
    ([1.5, 2.0], 'Decimal commas read as numbers in: price.')
    """
    check_left_out(identifiers, max_attributes)
    return _guarded(lambda: _parse(decode_bytes(read_bytes(source)), target, kinds, identifiers, max_attributes))


def read_table_text(text: str, target: str | None = None, identifiers: str = "ignore",
                    max_attributes: int | None = MAX_ATTRIBUTES) -> Dataset:
    """Read a small table pasted as text, as `read_csv` reads a file (same detection, same errors).

    Cells copied from a spreadsheet arrive tab-separated; comma or semicolon text works too.
    `identifiers` and `max_attributes` as for `read_csv`.

    >>> data = read_table_text("weight\\tplay\\n0,5\\tNo\\n2\\tYes\\n")
    >>> data.frame["weight"].tolist(), data.notes[0]
    ([0.5, 2.0], 'Read as tab-separated (as a spreadsheet copies cells).')
    """
    check_left_out(identifiers, max_attributes)
    if not isinstance(text, str):
        raise DataError("Give the pasted table as text.")
    return _guarded(lambda: _parse(_checked_text(text), target, None, identifiers, max_attributes))


def _guarded(read) -> Dataset:
    try:
        return read()
    except DataError:
        raise
    except Exception as error:  # any other failure is still the file's fault, said plainly
        raise DataError(f"Could not read the table: {error}") from error


def _parse(text: str, target: str | None, kinds, identifiers: str, max_attributes: int | None) -> Dataset:
    text = text.replace("\r\n", "\n").replace("\r", "\n")  # Windows and old-Mac line endings
    hint = _SEPARATOR_HINT.match(text)
    if hint:  # Excel's first line naming the separator ("sep=;"), which Excel itself obeys
        if hint[1] not in SEPARATORS:
            raise DataError(f"The first line, 'sep={hint[1]}', names a separator dtlearn does not read: "
                            "use commas, semicolons or tabs.")
        text = text[hint.end():]
    separator = hint[1] if hint else _separator(text)
    header, body = _header_and_body(text, separator)
    columns, index = _cells(body, header), body.index
    del body  # the stripped strings live on in `columns` only
    notes = [SEPARATOR_NOTES[separator]] if separator in SEPARATOR_NOTES else []
    if not header[0]:  # pandas' to_csv() writes its index first, with no name
        if not _numbers_the_rows(*columns.pop("")):
            raise DataError("Column 1 of the header has no name.")
        header = header[1:]
        notes.append("The first column has no name and numbers the rows 0, 1, 2, ...: an index saved with the "
                     "table (pandas' to_csv), left out.")
    if separator != ",":  # with a comma separator a decimal comma would have split the cell
        converted = _read_decimal_commas(columns)
        if converted:
            notes.append(f"Decimal commas read as numbers in: {', '.join(converted)}.")
    typed = {}
    for name in header:
        typed[name], note = _typed_or_units(name, *columns.pop(name), decimal_comma=separator != ",")
        notes += [note] if note else []
    frame = pd.DataFrame({name: pd.Series(cells, index=index, dtype=cells.dtype) for name, cells in typed.items()},
                         index=index)
    del typed
    if target is None:
        target, chosen = default_target(frame)
        notes += chosen
    if target not in header:
        raise DataError(f"Unknown target column '{target}'. The columns are: {', '.join(header)}.")
    frame, left_out = without_identifiers(frame, target, kinds or {}, identifiers, max_attributes)
    return labelled(frame, target, kinds, tuple(notes) + left_out)


def _typed_or_units(name: str, values: np.ndarray, present_at: np.ndarray,
                    decimal_comma: bool) -> tuple[np.ndarray, str | None]:
    """`_typed`; for a text column whose cells are numbers written with a unit, a currency or
    percent sign or thousands separators (`units.read_numbers`), those numbers and a note saying
    how they were read, or a note saying what to change when they cannot be read one way."""
    typed = _typed(values, present_at)
    if typed.dtype != object:
        return typed, None
    reading = units.read_numbers(name, values, decimal_comma)
    if reading.numbers is None:
        return typed, reading.note and f"{reading.note} Read as categories until then."
    return _typed(reading.numbers, present_at), reading.note
