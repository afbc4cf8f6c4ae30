"""A CSV text split into the header and columns of stripped cells, each column then typed.

pandas' C parser reads the table where it reads as the csv module does (the csv module's reading
is the reference), the separator is judged from the first lines, and a column is numeric when
every present cell is a finite number (decimal commas read where the separator allows them)."""

from __future__ import annotations

import csv
import itertools
import operator
import re
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .data import DataError, _duplicates

MISSING_MARKERS = ("", "?")
# The separators a table may use, by name, in the order that breaks ties: comma first, so a file
# that reads as comma-separated is read exactly as before.
SEPARATORS = {",": "comma", ";": "semicolon", "\t": "tab"}
SNIFF_CHARS, SNIFF_ROWS = 65536, 20  # how much of the start the separator is judged on
FIRST_CELLS = 1000  # a column's first present cells, checked before all of them
# A number written with a comma as its decimal mark, as European Excel saves it: 3, -1,5, 0,25,
# 1,5E-03. No thousands separators: "1.234,5" is not matched, and "1,234" means 1.234.
DECIMAL_COMMA = r"[+-]?\d+(?:,\d+)?(?:[eE][+-]?\d+)?"
NUMBER_CHARACTERS = b"0123456789+-.eE"  # cells of only these are read by float (`_numbers`)


def _records(text: str, separator: str):
    """The rows of the table, quoted fields kept whole, blank lines skipped.

    This is the csv module's reading, the reference the faster `_pandas_table` must match."""
    rows = csv.reader(_lines(text), delimiter=separator)
    return (row for row in rows if any(cell.strip() for cell in row))


def _lines(text: str):
    """The lines of `text`, each with its newline, as io.StringIO splits them, but without a
    second copy of the text (StringIO holds 4 bytes a character)."""
    start = 0
    while start < len(text):
        end = text.find("\n", start) + 1 or len(text)
        yield text[start:end]
        start = end


def _separator(text: str) -> str:
    """Comma, semicolon or tab, judged on the header and the first `SNIFF_ROWS` data rows.

    A candidate counts when it splits the header into two or more fields; among those, the one
    that gives the most of the first rows the header's number of fields wins, then the one that
    gives more columns, then the first of comma, semicolon, tab. So a header without a comma
    but with semicolons means semicolons, and a comma inside quotes is data, not a separator.
    """
    sample = text[:SNIFF_CHARS]
    cut = len(text) > len(sample)  # the sample's last row may be cut short: leave it out
    scores = {}
    for order, separator in enumerate(SEPARATORS):
        rows = list(itertools.islice(_records(sample, separator), SNIFF_ROWS + 1 + cut))
        rows = rows[:-1] if cut and len(rows) > 1 else rows
        if rows and len(rows[0]) >= 2:
            width = len(rows[0])
            scores[separator] = (sum(len(row) == width for row in rows[1:]), width, -order)
    return max(scores, key=scores.get) if scores else ","


def _header_and_body(text: str, separator: str) -> tuple[list[str], pd.DataFrame]:
    """The stripped header and the data rows' stripped cells, every row as wide as the header.

    pandas' C parser reads the table (`_pandas_table`). Where it cannot promise the csv module's
    rows, the csv module decides: it counts every row's fields without keeping the rows (so a
    ragged 100 MB file is refused without holding it as lists), and reads the whole table itself
    only when the C parser failed on a table it accepts (an unclosed quote at the end, a lone
    surrogate in pasted text). Either way the errors come in the csv module's order: a field over
    its size limit anywhere, then the header's, then no data rows, then the first ragged row.
    """
    table = _pandas_table(text, separator)
    if table is not None and not table.unsure:
        return _checked_header(table.header, np.full(len(table.body), len(table.header)), separator), table.body
    records = _records(text, separator)
    header = next(records, None)
    widths = np.fromiter((len(row) for row in records), dtype=np.int64)
    header = _checked_header(header, widths, separator)
    if table is not None and len(table.body) == len(widths):
        return header, table.body  # every row has the header's width, so the C parser padded none
    # The old way: kept for the files pandas' C parser cannot read as csv.reader does.
    cells, _ = _stripped(pd.DataFrame(list(_records(text, separator))[1:], dtype=object))
    return header, cells


@dataclass(frozen=True)
class _Table:
    header: list[str]  # as csv.reader splits it, not yet stripped
    body: pd.DataFrame  # the non-blank data rows' stripped cells, columns 0, 1, ...
    unsure: bool  # some row may have been too short (see `_pandas_table`)


# pandas' C parser set up as csv.reader reads: every cell a str, none taken for missing, quotes
# as the excel dialect has them. Blank lines are kept (and dropped with the blank rows): with
# skip_blank_lines=True the C parser drops the spaces before a quote at the start of a line when
# the line starts near a 256 KB chunk boundary (pandas 3.1), so '  "a,b",1' would read as 'a,b', '1'.
_C_PARSER = dict(engine="c", header=None, dtype=object, na_filter=False, keep_default_na=False,
                 skip_blank_lines=False, quoting=csv.QUOTE_MINIMAL, quotechar='"', doublequote=True,
                 escapechar=None, comment=None, skipinitialspace=False)


def _pandas_table(text: str, separator: str) -> _Table | None:
    """The table read by pandas' C parser, from the header (csv.reader's first non-blank row) on;
    None when the C parser fails or may disagree with csv.reader.

    The C parser pads a row with too few fields with empty cells: a non-blank row whose last cell
    is empty may have been too short, so the table is then `unsure` and the caller counts fields.
    """
    first = _first_record(text, separator)
    if first is None:
        return None
    header, start = first
    try:
        raw = pd.read_csv(_TextFile(text, start), sep=separator, **_C_PARSER)
    except ValueError:  # ParserError (a row too long, an unclosed quote), UnicodeEncodeError (a lone surrogate)
        return None
    if raw.shape[1] != len(header) or raw.iloc[0].tolist() != header:
        return None  # e.g. a byte order mark starting the header's line: the C parser drops it, csv keeps it
    raw = raw.iloc[1:]
    limit = csv.field_size_limit()
    longest = (max(map(len, raw[column].to_numpy()), default=0) for column in raw.columns)
    if len(text) - start > limit and max(longest) > limit:
        return None  # the csv module refuses so long a field, and the caller says so
    cells, blank = _stripped(raw)
    unsure = bool((~blank & (raw.iloc[:, -1] == "").to_numpy()).any())
    return _Table(header, cells[~blank].reset_index(drop=True) if blank.any() else cells.reset_index(drop=True),
                  unsure)


def _first_record(text: str, separator: str) -> tuple[list[str], int] | None:
    """csv.reader's first non-blank row and the offset in `text` where its first line starts."""
    consumed = 0

    def lines():
        nonlocal consumed
        for line in _lines(text):
            consumed += len(line)  # csv.reader reads no further than the end of the row it returns
            yield line

    start = 0
    for row in csv.reader(lines(), delimiter=separator):
        if any(cell.strip() for cell in row):
            return row, start
        start = consumed
    return None


class _TextFile:
    """`text` from `start` as a file, read in chunks by pandas: no second copy of a large text."""

    def __init__(self, text: str, start: int):
        self.text, self.position = text, start

    def read(self, size: int = -1) -> str:
        end = len(self.text) if size is None or size < 0 else min(self.position + size, len(self.text))
        chunk, self.position = self.text[self.position:end], end
        return chunk


def _stripped(raw: pd.DataFrame) -> tuple[pd.DataFrame, np.ndarray]:
    """Every cell stripped (Python's str.strip), and which rows are blank: every cell empty once
    stripped, as csv-era reading skipped them.

    Builtins mapped over a column's array run in C, with no Python-level call a cell (pandas'
    `.str` methods on object columns call a lambda a cell, several times slower)."""
    cells = pd.DataFrame({column: _mapped(str.strip, raw[column].to_numpy()) for column in raw.columns},
                         index=raw.index, dtype=object)
    blank = np.ones(len(cells), dtype=bool)
    for column in cells.columns:  # mostly the first column already shows that no row is blank
        blank &= cells[column].to_numpy() == ""
        if not blank.any():
            break
    return cells, blank


def _mapped(function, values: np.ndarray) -> np.ndarray:
    return np.fromiter(map(function, values), dtype=object, count=len(values))


def _checked_header(header: list[str] | None, widths: np.ndarray, separator: str) -> list[str]:
    """The stripped header, once it and the data rows' numbers of fields (`widths`) are usable."""
    name = SEPARATORS[separator]
    if header is None:
        raise DataError("The file is empty.")
    header = [cell.strip() for cell in header]
    for position, column in enumerate(header, start=1):
        if not column and not (position == 1 and len(header) > 2):  # the first: a saved index? (`_parse`)
            hint = f" (a trailing {name}?)" if position == len(header) else ""
            raise DataError(f"Column {position} of the header has no name{hint}.")
    if len(set(header)) != len(header):
        raise DataError(f"Duplicate column names: {_duplicates(header)}. Give every column its own name.")
    if len(header) < 2:
        raise DataError(
            "The header has a single column. A table needs attribute columns and a target, "
            "separated by commas, semicolons or tabs."
        )
    if not len(widths):
        raise DataError("The table has a header but no data rows.")
    ragged = np.flatnonzero(widths != len(header))
    if ragged.size:
        row = int(ragged[0])
        raise DataError(
            f"Data row {row + 1} has {widths[row]} fields but the header has {len(header)}. "
            f"Check for a missing or extra {name}."
        )
    return header


def _read_decimal_commas(columns: dict) -> list[str]:
    """Rewrite, in place, every column written in decimal commas with decimal points; its names.

    A column qualifies when every present cell matches `DECIMAL_COMMA` and at least one holds a
    comma (a column of whole numbers needs no note). One match a cell, mapped in C, stopping at the
    first cell that fails.
    """
    pattern, converted = re.compile(DECIMAL_COMMA), []
    for name, (values, present_at) in columns.items():
        present = values[present_at]
        if not len(present) or not all(map(pattern.fullmatch, present[:FIRST_CELLS])):
            continue  # a column that does not qualify mostly shows it in its first cells: no pass over all
        if not any(map(operator.contains, present, itertools.repeat(","))):
            continue
        if all(map(pattern.fullmatch, present)):
            values[present_at] = np.fromiter(map(str.replace, present, itertools.repeat(","), itertools.repeat(".")),
                                             dtype=object, count=len(present))
            converted.append(name)
    return converted


def _cells(body: pd.DataFrame, header: list[str]) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Each column named by the header: its stripped cells (an object array, `MISSING_MARKERS`
    made None) and which of them are present."""
    columns = {}
    for name, column in zip(header, body.columns):
        values = body[column].to_numpy(dtype=object, copy=True)
        missing = np.logical_or.reduce([values == marker for marker in MISSING_MARKERS])
        values[missing] = None
        columns[name] = values, ~missing
    return columns


def _numbers_the_rows(values: np.ndarray, present_at: np.ndarray) -> bool:
    """Whether a column's cells are 0, 1, 2, ... in order (a DataFrame's default index, saved)."""
    return bool(present_at.all()) and all(cell == str(i) for i, cell in enumerate(values))


def _typed(values: np.ndarray, present_at: np.ndarray) -> np.ndarray:
    """Numbers when every present cell is a finite number, else the cells themselves (None where
    missing). Whole numbers in every row are integers (a class 1 is "1", not "1.0") where int64
    holds them exactly, as pandas' to_numeric reads them; otherwise floats, NaN where missing
    (1e20 is the float 1e20, not an int64 past its range)."""
    present = values[present_at]
    if not len(present) or not _finite(_numbers(present[:FIRST_CELLS])):
        return values  # a text column mostly shows it in its first cells: no pass over all
    numbers = _numbers(present)
    if not _finite(numbers):
        return values
    if present_at.all() and (numbers % 1 == 0).all():
        if np.abs(numbers).max() < 2.0**53:  # every such float is its integer exactly
            return numbers.astype(np.int64)
        exact = pd.to_numeric(pd.Series(present, dtype=object), errors="coerce")
        if exact.dtype == np.int64:  # integers past 2**53 that int64 still holds, digit for digit
            return exact.to_numpy()
    result = np.full(len(values), np.nan)
    result[present_at] = numbers
    return result


def _numbers(cells: np.ndarray) -> np.ndarray:
    """Each cell (a str) as pandas' `to_numeric` reads it, NaN where it is no number.

    Where every character is an ASCII digit, sign, point or exponent letter, Python's float reads
    the cells as to_numeric does (both round correctly, and float refuses what to_numeric refuses:
    the tests hold it to that), ~8 times faster. Other characters ("1_000", which float reads,
    Arabic-Indic digits, "inf") are left to to_numeric."""
    joined = "".join(cells)
    if joined.isascii() and not joined.encode("ascii").translate(None, NUMBER_CHARACTERS):
        try:
            return np.asarray(cells, dtype=float)
        except ValueError:  # some cell is no number ("1e", "+-1"): to_numeric says which
            pass
    return pd.to_numeric(pd.Series(cells, dtype=object), errors="coerce").to_numpy(dtype=float, na_value=np.nan)


def _finite(numbers: np.ndarray) -> bool:
    return bool(np.isfinite(numbers).all())
