"""Weka's ARFF files: a header that declares each attribute, then the data rows.

`read_arff` keeps what the header declares: a nominal attribute's values in their declared order,
including values no row has (J48 still grows an empty branch for them, and a class declared but
unused still counts as a class), and numbers declared nominal (`{0,1}`) stay categories. A
string or date attribute is read as categories (its values as written; a note says so). `?` is a
missing value and `%` starts a comment, as in Weka. Anything it cannot read raises `DataError`
with the line it is on. Files are parsed as text only.
"""

from __future__ import annotations

import re

import pandas as pd

from .data import (DataError, Dataset, check_left_out, decode_bytes, default_target, labelled, read_bytes,
                   without_identifiers)
from .identifiers import MAX_ATTRIBUTES

NUMERIC_TYPES = ("numeric", "real", "integer")
# read as categories, the values as written; such an attribute's domain is its type's name (a
# nominal one's is its tuple of values, a number's None)
TEXT_TYPES = ("string", "date")
# A nominal attribute declaring more values is refused before they are held: a domain that large is
# names or free text, not categories to branch on (ID3 and J48 grow a branch for every declared
# value, CART scores subsets of all of them); declared as string, its values are read as written.
MAX_DECLARED_VALUES = 100_000


def read_arff(source, target: str | None = None, identifiers: str = "ignore",
              max_attributes: int | None = MAX_ATTRIBUTES) -> Dataset:
    """Read an ARFF table (path, bytes or file object) into a `Dataset`; `target` defaults to
    the last attribute (Weka's default class; when it has gaps, the last one without:
    `data.default_target`), and rows without a value of the target are left out (`data.labelled`).
    `identifiers`: "ignore" leaves out the attributes that name the rows or hold nearly as many
    values as rows, "keep" keeps them; only the first `max_attributes` attributes are read
    (None: all), as `data.read_csv` reads. A nominal attribute may declare at most
    `MAX_DECLARED_VALUES` values.

    >>> data = read_arff(b"@relation r\\n@attribute a {x,y,z}\\n@attribute c {no,yes}\\n@data\\nx,no\\ny,yes\\n")
    >>> data.kinds["a"], list(data.frame["a"].cat.categories)
    ('categorical', ['x', 'y', 'z'])
    """
    check_left_out(identifiers, max_attributes)
    try:
        text = decode_bytes(read_bytes(source))
        return _parse(text, target, identifiers, max_attributes)
    except DataError:
        raise
    except Exception as error:  # any other failure is still the file's fault, said plainly
        raise DataError(f"Could not read the ARFF file: {error}") from error


def _parse(text: str, target: str | None, identifiers: str, max_attributes: int | None) -> Dataset:
    names, domains, rows = [], [], []
    in_data = False
    for number, raw in enumerate(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"), start=1):
        line = _uncommented(raw).strip()
        if not line:
            continue
        lowered = line.lower()
        if not in_data:
            if lowered.startswith("@relation"):
                continue
            if lowered.startswith("@attribute"):
                name, domain = _attribute(line, number)
                if name in names:
                    raise DataError(f"Line {number}: attribute '{name}' is declared twice.")
                names.append(name)
                domains.append(domain)
                continue
            if lowered.startswith("@data"):
                in_data = True
                members = [frozenset(d) if isinstance(d, tuple) else d for d in domains]  # looked up per cell
                continue
            raise DataError(f"Line {number}: expected @relation, @attribute or @data, not '{_short(line)}'.")
        if line.startswith("{"):
            raise DataError(f"Line {number}: sparse ARFF rows ({{index value, ...}}) are not supported.")
        cells = _cells(line, number)
        if len(cells) == len(names) + 1 and re.fullmatch(r"\{\s*[^{}]*\}", cells[-1]):
            raise DataError(f"Line {number}: an instance weight ({_short(cells[-1])}); dtlearn reads rows of weight 1 "
                            "only: remove the weights.")
        if len(cells) != len(names):
            raise DataError(f"Line {number}: {len(cells)} values, but {len(names)} attributes are declared.")
        rows.append([_value(cell, domain, name, number) for cell, domain, name in zip(cells, members, names)])
    if not names:
        raise DataError("The file declares no @attribute: is it an ARFF file?")
    if not in_data:
        raise DataError("The file has no @data section.")
    if not rows:
        raise DataError("The @data section has no rows.")
    columns = {}
    for j, (name, domain) in enumerate(zip(names, domains)):
        values = [row[j] for row in rows]
        if domain is None:
            columns[name] = pd.Series(values, dtype=float)
        elif domain in TEXT_TYPES:
            columns[name] = pd.Series(values, dtype=object)
        else:
            columns[name] = pd.Categorical(values, categories=domain)
    frame, notes = pd.DataFrame(columns), ()
    if target is None:
        target, notes = default_target(frame)
    if target in frame.columns:
        frame, left_out = without_identifiers(frame, target, None, identifiers, max_attributes)
        notes += left_out
    notes = tuple(f"'{name}' is a {kind} attribute: its values are read as categories, as written"
                  f"{' (mark it ignore if it names each row)' if kind == 'string' else ', not as times'}."
                  for name, kind in zip(names, domains) if kind in TEXT_TYPES and name in frame.columns) + notes
    kinds = {name: ("numeric" if domain is None else "categorical")
             for name, domain in zip(names, domains) if name != target and name in frame.columns}
    return labelled(frame, target, kinds, notes)


_ATTRIBUTE = re.compile(r"@attribute\s+", re.IGNORECASE)


def _attribute(line: str, number: int) -> tuple[str, tuple[str, ...] | str | None]:
    """(name, domain) of an @attribute line: its declared values, None for a numeric attribute,
    'string' or 'date' for one read as text."""
    rest = _ATTRIBUTE.sub("", line, count=1).strip()
    name, rest = _token(rest, number)
    rest = rest.strip()
    if rest.startswith("{"):
        if not rest.endswith("}"):
            raise DataError(f"Line {number}: the values of '{name}' are not closed with '}}'.")
        values = tuple(_cells(rest[1:-1], number, MAX_DECLARED_VALUES + 1)) if rest[1:-1].strip() else ()
        if len(values) > MAX_DECLARED_VALUES:
            raise DataError(f"Line {number}: '{name}' declares more than {MAX_DECLARED_VALUES:,} values, more than "
                            "dtlearn reads as categories (a tree branches on each). Declare it as string if its "
                            "values name the rows or are free text, or leave the attribute out.")
        if len(set(values)) != len(values):
            raise DataError(f"Line {number}: '{name}' declares a value twice.")
        return name, values
    kind = rest.split()[0].lower() if rest else ""
    if kind in NUMERIC_TYPES:
        return name, None
    if kind in TEXT_TYPES:
        return name, kind
    if kind == "relational":
        raise DataError(f"Line {number}: '{name}' is a relational attribute (multi-instance data); dtlearn reads "
                        "numeric, nominal, string and date ones.")
    raise DataError(f"Line {number}: '{name}' has no type dtlearn knows ('{_short(rest)}').")


def _token(text: str, number: int) -> tuple[str, str]:
    """The first name of `text` (quoted or not) and what follows it."""
    if text[:1] in ("'", '"'):
        quote = text[0]
        i, out = 1, []
        while i < len(text):
            c = text[i]
            if c == "\\" and i + 1 < len(text):
                out.append(text[i + 1])
                i += 2
                continue
            if c == quote:
                return "".join(out), text[i + 1:]
            out.append(c)
            i += 1
        raise DataError(f"Line {number}: a quote is not closed.")
    match = re.match(r"([^\s{]+)", text)
    if not match:
        raise DataError(f"Line {number}: an attribute without a name.")
    return match.group(1), text[match.end():]


def _cells(text: str, number: int, most: int | None = None) -> list[str]:
    """Comma-separated values, each possibly quoted with ' or \" (backslash escapes); the first
    `most` of them only, when given (the rest are not read)."""
    cells, i, n = [], 0, len(text)
    while i <= n and (most is None or len(cells) < most):
        while i < n and text[i] in " \t":
            i += 1
        if i < n and text[i] in ("'", '"'):
            value, rest = _token(text[i:], number)
            cells.append(value)
            i = n - len(rest)
            while i < n and text[i] in " \t":
                i += 1
            if i < n and text[i] != ",":
                raise DataError(f"Line {number}: text after a quoted value: '{_short(text[i:])}'.")
            i += 1
            continue
        end = text.find(",", i)
        end = n if end < 0 else end
        cells.append(text[i:end].strip())
        i = end + 1
    return cells


def _value(cell: str, domain, name: str, number: int):
    if cell == "?":
        return None
    if domain in TEXT_TYPES:
        return cell
    if domain is None:
        try:
            return float(cell)
        except ValueError:
            raise DataError(f"Line {number}: '{name}' is numeric but the value is '{_short(cell)}'.") from None
    if cell not in domain:
        raise DataError(f"Line {number}: '{_short(cell)}' is not one of the values declared for '{name}'.")
    return cell


def _uncommented(line: str) -> str:
    """The line without its comment: `%` outside quotes to the end of the line (Weka's reader)."""
    if "%" not in line:
        return line
    quote, i = None, 0
    while i < len(line):
        c = line[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == quote:
                quote = None
        elif c in ("'", '"'):
            quote = c
        elif c == "%":
            return line[:i]
        i += 1
    return line


def _short(text: str, width: int = 40) -> str:
    return text if len(text) <= width else text[:width - 1] + "…"
