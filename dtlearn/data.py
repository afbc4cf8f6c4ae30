"""Datasets: a pandas frame, its target column and the kind of every attribute; and what every
reader (`csv_reader`, `arff`) shares to make one: bytes to text, the columns a reader leaves out,
the rows without a class left out. Files are parsed as text only (no pickle, no eval)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Mapping

import numpy as np
import pandas as pd

from . import units
from .formatting import ordered_labels
from .identifiers import MAX_ATTRIBUTES, identifier_columns

KINDS = ("categorical", "numeric")
IDENTIFIERS = ("ignore", "keep")  # what a reader does with a column that names the rows (`identifiers`)


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


def check_left_out(identifiers: str, max_attributes: int | None) -> None:
    """ValueError unless `identifiers` and `max_attributes` are values a reader takes."""
    if identifiers not in IDENTIFIERS:
        raise ValueError(f"identifiers must be 'ignore' or 'keep', not {identifiers!r}.")
    whole = isinstance(max_attributes, (int, np.integer)) and not isinstance(max_attributes, (bool, np.bool_))
    if max_attributes is not None and not (whole and max_attributes >= 1):
        raise ValueError(f"max_attributes must be a whole number of at least 1, or None for all columns, "
                         f"not {max_attributes!r}.")


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
