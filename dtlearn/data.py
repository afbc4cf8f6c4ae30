"""Datasets: a pandas frame, its target column and the kind of every attribute.

`read_csv` is the one door through which files enter (`read_table_text` is the same door for a
table pasted as text); anything it cannot use raises `DataError` with a message a student can act
on, never another exception type. Files are parsed as text only (no pickle, no eval).
"""

from __future__ import annotations

import csv
import itertools
import operator
import os
import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Mapping

import numpy as np
import pandas as pd

from . import units
from .identifiers import MAX_ATTRIBUTES, identifier_columns

KINDS = ("categorical", "numeric")
MISSING_MARKERS = ("", "?")
IDENTIFIERS = ("ignore", "keep")  # what a reader does with a column that names the rows (`identifiers`)

# The separators a table may use, by name, in the order that breaks ties: comma first, so a file
# that reads as comma-separated is read exactly as before.
SEPARATORS = {",": "comma", ";": "semicolon", "\t": "tab"}
SEPARATOR_NOTES = {
    ";": "Read as semicolon-separated (as European Excel saves CSV).",
    "\t": "Read as tab-separated (as a spreadsheet copies cells).",
}
_SEPARATOR_HINT = re.compile(r"[ \t]*sep=(.)[ \t]*(?:\n|$)", re.IGNORECASE)
SNIFF_CHARS, SNIFF_ROWS = 65536, 20  # how much of the start the separator is judged on
FIRST_CELLS = 1000  # a column's first present cells, checked before all of them
# A number written with a comma as its decimal mark, as European Excel saves it: 3, -1,5, 0,25,
# 1,5E-03. No thousands separators: "1.234,5" is not matched, and "1,234" means 1.234.
DECIMAL_COMMA = r"[+-]?\d+(?:,\d+)?(?:[eE][+-]?\d+)?"
NUMBER_CHARACTERS = b"0123456789+-.eE"  # cells of only these are read by float (`_numbers`)


class DataError(ValueError):
    """A table that cannot be used, with a message that says why."""


@dataclass(frozen=True, eq=False)
class Dataset:
    """A table to learn from: `frame`, the `target` column, and each attribute's kind.

    `kinds` maps attribute -> "categorical" or "numeric"; attributes not listed are
    inferred (numeric dtype -> numeric, anything else -> categorical). Attributes are all
    columns but the target. Missing values are NaN / None in the frame. `notes` are short
    sentences saying how a file was read (its separator, decimal commas), for an app to show;
    () when there is nothing to say.

    >>> d = Dataset(pd.DataFrame({"x": [1.0, 2.0], "y": ["a", "b"]}), "y")
    >>> d.attributes, d.kinds["x"], d.classes
    (('x',), 'numeric', ('a', 'b'))
    """

    frame: pd.DataFrame
    target: str
    kinds: Mapping[str, str] = field(default=None)  # type: ignore[assignment]
    notes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.frame, pd.DataFrame):
            raise DataError("A dataset needs a pandas DataFrame.")
        notes = (self.notes,) if isinstance(self.notes, str) else tuple(self.notes or ())
        object.__setattr__(self, "notes", tuple(str(note) for note in notes))
        columns = [str(c) for c in self.frame.columns]
        unnamed = [position for position, name in enumerate(columns, start=1) if not name.strip()]
        if unnamed:  # (an ARFF attribute '', a DataFrame's): nothing to choose it by, nothing to draw
            raise DataError(f"Column {unnamed[0]} has no name. Give every column a name.")
        if len(set(columns)) != len(columns):
            raise DataError(f"Duplicate column names: {_duplicates(columns)}. Give every column its own name.")
        frame = self.frame.copy()
        frame.columns = columns
        if self.target not in columns:
            raise DataError(f"Unknown target column '{self.target}'. The columns are: {', '.join(columns)}.")
        if len(columns) < 2:
            raise DataError("The table needs at least one attribute column besides the target.")
        if len(frame) == 0:
            raise DataError("The table has a header but no data rows.")
        missing_labels = frame[self.target].isna().to_numpy()
        if missing_labels.any():
            rows = ", ".join(str(i + 1) for i in np.flatnonzero(missing_labels)[:5])
            raise DataError(
                f"The target column '{self.target}' has missing labels (data rows {rows}"
                f"{', ...' if missing_labels.sum() > 5 else ''}). Every row needs a class."
            )
        given = dict(self.kinds or {})
        unknown = [name for name in given if name not in columns or name == self.target]
        if unknown:
            raise DataError(f"Kinds were given for '{unknown[0]}', which is not an attribute column.")
        kinds, read, numbers = {}, [], {}
        for name in columns:
            if name == self.target:
                continue
            kind = given.get(name) or inferred_kind(frame[name])
            if kind not in KINDS:
                raise DataError(f"Kind of '{name}' must be 'categorical' or 'numeric', not '{kind}'.")
            if kind == "numeric":
                numbers[name], note = _as_numeric(frame[name], name)
                read += [note] if note and note not in notes else []
            kinds[name] = kind
        if numbers:  # set at once: pandas lays out a wide frame again for every column assigned
            frame = pd.DataFrame({name: numbers.get(name, frame[name]) for name in columns}, index=frame.index)
        object.__setattr__(self, "frame", frame)
        object.__setattr__(self, "kinds", kinds)
        object.__setattr__(self, "notes", notes + tuple(read))

    @property
    def attributes(self) -> tuple[str, ...]:
        return tuple(self.kinds)

    @cached_property
    def classes(self) -> tuple[str, ...]:
        """Class labels in their documented order (see `ordered_labels`); found once (a pass over
        a million-row target took 0.1 s, and a page asks several times)."""
        return ordered_labels(self.frame[self.target])

    def with_kinds(self, kinds: Mapping[str, str]) -> "Dataset":
        return Dataset(self.frame, self.target, {**self.kinds, **kinds}, self.notes)

    def select(self, attributes) -> "Dataset":
        """The same rows with only `attributes` (and the target)."""
        attributes = list(attributes)
        kinds = {a: self.kinds[a] for a in attributes}
        return Dataset(self.frame[attributes + [self.target]], self.target, kinds, self.notes)


def labelled(frame: pd.DataFrame, target: str, kinds: Mapping[str, str] | None = None,
             notes: tuple[str, ...] = ()) -> Dataset:
    """The `Dataset` of the rows that have a value of `target`. A row without one has no class to
    learn from: it is left out, as Weka (`deleteWithMissingClass`) and rpart (`na.rpart`) leave it
    out, and a note says which rows (`Dataset` itself refuses them). DataError when none has one.

    >>> data = labelled(pd.DataFrame({"x": [1, 2, 3], "y": ["a", None, "b"]}), "y")
    >>> len(data.frame), data.notes[0]
    (2, "1 row without a value of 'y' is left out (data row 2): it has no class to learn from.")
    """
    named = [c for c in frame.columns if str(c) == target]
    if len(named) == 1:  # (else Dataset names the problem)
        missing = frame[named[0]].isna().to_numpy()
        if len(frame) and missing.all():
            raise DataError(f"The target column '{target}' has no values: choose a column with classes as the target.")
        if missing.any():
            n = int(missing.sum())
            rows = ", ".join(str(i + 1) for i in np.flatnonzero(missing)[:5]) + (", ..." if n > 5 else "")
            notes = (*notes, f"{n} row{'s' if n != 1 else ''} without a value of '{target}' "
                             f"{'are' if n != 1 else 'is'} left out (data row{'s' if n != 1 else ''} {rows}): "
                             f"{'they have' if n != 1 else 'it has'} no class to learn from.")
            frame = frame[~missing].reset_index(drop=True)
    return Dataset(frame, target, kinds, notes)


def default_target(frame: pd.DataFrame) -> tuple[str, tuple[str, ...]]:
    """The target of a file read without one, and a note when it is not the last column: the
    last column, unless some of its rows have no value; then the last column with a value in
    every row, so that the table stays whole for whichever target is chosen next (an app's menu).
    With no such column, the last one (`labelled` leaves its unlabelled rows out)."""
    names = [str(c) for c in frame.columns]
    if not frame[frame.columns[-1]].isna().any():  # the common case: no other column is looked at
        return names[-1], ()
    complete = [name for name, column in zip(names, frame.columns) if not frame[column].isna().any()]
    if not complete:
        return names[-1], ()
    missing = int(frame[frame.columns[-1]].isna().sum())
    return complete[-1], (f"The last column, '{names[-1]}', has {missing} row{'s' if missing != 1 else ''} without "
                          f"a value, so the target was set to '{complete[-1]}', the last column with a value in every "
                          "row (any column can be chosen as the target).",)


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


def label(value) -> str:
    """How a value is written in tables, tests and rules: 2.0 -> '2', 0.1 -> '0.1'.

    Floats keep at most 12 significant digits, so a midpoint like 20.369999999999997
    reads 20.37 (the test itself keeps the exact float).

    >>> label(2.0), label(20.29 / 2 + 20.45 / 2), label("Sunny")
    ('2', '20.37', 'Sunny')
    """
    if isinstance(value, (bool, np.bool_)):
        return str(value)
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        return _float_label(repr(float(value)), float(value))  # repr: the shortest digits that read back
    return str(value)


def labels(values) -> list[str]:
    """`label` of each value, the same strings, made in bulk: a column of numbers is written a
    million values at a time (ID3 labels every distinct number of a numeric column it treats as
    categories; one `label` call each took a minute on a 1,000,000-row upload)."""
    kind = values.dtype.kind if isinstance(getattr(values, "dtype", None), np.dtype) else None
    if kind in ("i", "u"):
        return list(map(str, np.asarray(values).tolist()))
    if kind != "f":  # text, booleans, dates (pandas' own arrays yield Timestamps): one at a time, as given
        return [label(v) for v in values]
    array = np.asarray(values)
    numbers = array.tolist()
    written = ["%.12g" % v for v in numbers]  # `label` itself wherever %.12g prints no exponent,
    with np.errstate(invalid="ignore"):  # as for 0 and 1e-3 <= |x| < 1e11; the rest (inf, nan too) one by one
        size = np.abs(array)
        exponent = ~((size >= 1e-3) & (size < 1e11) | (array == 0))
    for i in np.flatnonzero(exponent).tolist():
        written[i] = _float_label(repr(numbers[i]), numbers[i])
    return written


def _float_label(written: str, value: float) -> str:
    """`label` of a float from its repr (as `label` writes it): 12 significant digits,
    positional, trailing zeros trimmed (numpy's format_float_positional, the definition; C's
    %.12g writes the same digits five times faster wherever it does not switch to an exponent)."""
    if "e" not in written and "n" not in written and len(written.lstrip("-0.").replace(".", "")) <= 12:
        return written[:-2] if written.endswith(".0") else written
    short = "%.12g" % value
    if "e" not in short and "n" not in short:
        return short
    return np.format_float_positional(value, precision=12, fractional=False, trim="-")


def distinct_runs(names: list[str]) -> tuple[tuple[str, ...], np.ndarray]:
    """Labels of values in ascending order, each written once, and the position of each value's
    label among them. Two floats within 12 significant digits share a label (0.1 + 0.2 and 0.3:
    '0.3'), and rounding keeps order, so a shared label is a run of neighbours."""
    named = np.array(names, dtype=object)
    new = np.ones(len(named), dtype=bool)
    new[1:] = named[1:] != named[:-1]
    return tuple(named[new].tolist()), np.cumsum(new) - 1


def labels_of(column: pd.Series) -> np.ndarray:
    """`label` of every cell (an object array; None where missing), computed once per distinct
    value, not once per row."""
    codes, uniques = pd.factorize(column, use_na_sentinel=True)
    table = np.array(labels(uniques) + [None], dtype=object)
    return table[codes]


def ordered_labels(column: pd.Series) -> tuple[str, ...]:
    """Distinct non-missing values of a column as labels, in a row-order-free order.

    A pandas Categorical keeps its declared values in their declared order, those no row holds
    included (an ARFF file's domain: ID3 and C4.5 give them an empty branch, as Weka does);
    numbers sort numerically; anything else sorts as text. This order breaks ties (first wins),
    so it is part of determinism.
    """
    if isinstance(column.dtype, pd.CategoricalDtype):
        return tuple(label(c) for c in column.cat.categories)
    values = column.dropna().unique()
    if pd.api.types.is_numeric_dtype(column) and not pd.api.types.is_bool_dtype(column):
        if column.dtype.kind in "iu":  # whole numbers written whole, as `labels` writes each row's
            whole = np.asarray(values, dtype=getattr(column.dtype, "numpy_dtype", column.dtype))  # (pandas' Int64 too)
            return tuple(labels(np.sort(whole)))
        return distinct_runs(labels(np.sort(values.astype(float))))[0]
    return tuple(sorted({label(v) for v in values}))


def inferred_kind(column: pd.Series) -> str:
    """The kind of a column no kind was given for: numeric for a numeric dtype, else categorical."""
    numeric = pd.api.types.is_numeric_dtype(column) and not pd.api.types.is_bool_dtype(column)
    return "numeric" if numeric else "categorical"


def _as_numeric(column: pd.Series, name: str) -> tuple[pd.Series, str | None]:
    """A column set to numeric as floats, and a note when its cells were numbers written with a
    unit (`units.read_numbers`: "125K" is 125); DataError saying what is wrong otherwise."""
    if isinstance(column.dtype, np.dtype) and column.dtype.kind in "iuf":  # numbers already: no cell to read
        values = column.astype(float)
        if np.isinf(values.to_numpy()).any():
            raise DataError(f"Column '{name}' holds an infinite number; use finite numbers or leave the cell empty.")
        return values, None
    values, note = pd.to_numeric(column, errors="coerce"), None
    bad = values.isna() & column.notna()
    if bad.any():
        cells = column.astype(object).to_numpy(copy=True)
        cells[column.isna().to_numpy()] = None
        reading = units.read_numbers(name, np.array([c if c is None else str(c).strip() for c in cells], dtype=object))
        if reading.note and reading.numbers is None:
            raise DataError(f"Column '{name}' is set to numeric, but its cells cannot be read as numbers. "
                            f"{reading.note}")
        if reading.numbers is None:
            row = int(np.flatnonzero(bad.to_numpy())[0])
            raise DataError(f"Column '{name}' is set to numeric but data row {row + 1} holds '{column.iloc[row]}', "
                            "which is not a number: write the number alone, with a point for decimals (1.5).")
        values, note = pd.to_numeric(pd.Series(reading.numbers, index=column.index), errors="coerce"), reading.note
    if np.isinf(values.to_numpy(dtype=float)).any():
        raise DataError(f"Column '{name}' holds an infinite number; use finite numbers or leave the cell empty.")
    return values.astype(float), note


def _duplicates(names) -> str:
    seen, repeated = set(), []
    for name in names:
        if name in seen and name not in repeated:
            repeated.append(name)
        seen.add(name)
    return ", ".join(f"'{n}'" for n in repeated)


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


def check_left_out(identifiers: str, max_attributes: int | None) -> None:
    """ValueError unless `identifiers` and `max_attributes` are values a reader takes."""
    if identifiers not in IDENTIFIERS:
        raise ValueError(f"identifiers must be 'ignore' or 'keep', not {identifiers!r}.")
    whole = isinstance(max_attributes, (int, np.integer)) and not isinstance(max_attributes, (bool, np.bool_))
    if max_attributes is not None and not (whole and max_attributes >= 1):
        raise ValueError(f"max_attributes must be a whole number of at least 1, or None for all columns, "
                         f"not {max_attributes!r}.")


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


def read_bytes(source) -> bytes:
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source)
    if isinstance(source, (str, os.PathLike)):
        path = Path(source)
        if not path.is_file():
            raise DataError(f"No such file: {path}")
        return path.read_bytes()
    if hasattr(source, "read"):
        content = source.read()
        return content.encode("utf-8") if isinstance(content, str) else bytes(content)
    raise DataError("Give a CSV as a path, bytes or an open file.")


def decode_bytes(raw: bytes) -> str:
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        encoding = "utf-16"
    else:
        encoding = "utf-8-sig"
    try:
        text = raw.decode(encoding)
    except UnicodeDecodeError as error:
        raise DataError(
            f"The file is not UTF-8 text (undecodable byte at position {error.start}). "
            "Save it as 'CSV UTF-8' and upload it again."
        ) from error
    return _checked_text(text)


def _checked_text(text: str) -> str:
    """The text itself, unless it is binary or blank."""
    if "\x00" in text:
        raise DataError("The file looks binary, not a CSV text table.")
    if not text.strip():
        raise DataError("The file is empty.")
    return text


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


def without_identifiers(frame: pd.DataFrame, target: str, kinds=None, identifiers: str = "ignore",
                        max_attributes: int | None = MAX_ATTRIBUTES) -> tuple[pd.DataFrame, tuple[str, ...]]:
    """`frame` without the columns a reader leaves out (`identifiers.identifier_columns`: those
    naming the rows, as Mitchell's Day, Han's RID, Tan's Tid, and text of nearly as many values
    as rows, unless `identifiers` is "keep"; those after the first `max_attributes`), and notes
    naming them and how to keep them; the columns `kinds` names are kept (a kind given is a
    column wanted). A reader without `kinds` (read_arff) passes None and its notes say so."""
    found = [column for column in identifier_columns(frame, target, max_attributes)
             if column.name not in (kinds or {}) and (identifiers == "ignore" or column.rule == "beyond")]
    kind = " or give its kind" if kinds is not None else ""
    named = {"identifier": " as an identifier"}
    notes = tuple(f"'{column.name}' ({column.examples}) is left out{named.get(column.rule, '')}: {column.why}, "
                  "so a tree would split on it and learn nothing. To use it, read the file with "
                  f'identifiers="keep"{kind}.' for column in found if column.rule != "beyond")
    beyond = [column.name for column in found if column.rule == "beyond"]
    if beyond:
        total = len(frame.columns) - 1
        shown = ", ".join(f"'{name}'" for name in beyond[:2]) + (f", …, '{beyond[-1]}'" if len(beyond) > 2 else "")
        notes += (f"Only {total - len(beyond):,} of the {total:,} attribute columns are read: {len(beyond):,} after "
                  f"the first {max_attributes:,} ({shown}) are left out, since a tree over so many columns is slow to "
                  "grow and to read. To use them, read the file with max_attributes=None (Dataset.select then keeps "
                  f"the ones you want){' or give their kinds' if kinds is not None else ''}.",)
    return (frame.drop(columns=[column.name for column in found]) if found else frame), notes


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


