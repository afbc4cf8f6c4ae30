"""Numbers as books print them: with a unit ("3 kg"), a scale letter ("125K"), thousands
separators ("1,000"), a currency sign ("$5") or a percent sign ("12%").

`read_numbers` reads a column of such cells as the numbers written, the unit dropped (Tan,
Steinbach & Kumar's Annual Income 125K is 125, in thousands, and their cut 97.5 is in thousands
too), when every present cell is written the same way, and says how in a note. Cells that look
like numbers but cannot be read one way (two units, a bare number among numbers with a unit,
"1,5" beside "1,000") are left as they are, with a message that says what to change. A word after
a number that is no unit ("2 doors", "1st") leaves the column text, without a word.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import repeat

import numpy as np

CURRENCIES = "$€£¥"
SCALES = {"K": "thousands", "k": "thousands", "M": "millions", "bn": "billions"}
# Units written after a number, by what they measure (two of one kind in a column are two units).
UNITS = {
    "%": "percent", "‰": "per mille",
    "kg": "mass", "g": "mass", "mg": "mass", "lb": "mass", "lbs": "mass", "oz": "mass", "t": "mass",
    "km": "length", "m": "length", "cm": "length", "mm": "length", "mi": "length", "ft": "length",
    "s": "time", "sec": "time", "ms": "time", "min": "time", "h": "time", "hr": "time", "hrs": "time",
    "hours": "time", "days": "time", "weeks": "time", "months": "time", "yr": "time", "yrs": "time",
    "years": "time", "y": "time",
    "°C": "temperature", "°F": "temperature", "°": "temperature", "C": "temperature", "F": "temperature",
    "l": "volume", "L": "volume", "ml": "volume", "mL": "volume",
    "W": "power", "kW": "power", "kWh": "energy", "cal": "energy", "kcal": "energy", "V": "voltage",
    "km/h": "speed", "mph": "speed", "bpm": "rate", "mmHg": "pressure", "mg/dl": "concentration",
    "USD": "money", "EUR": "money", "GBP": "money",
    **{sign: "money" for sign in CURRENCIES},
    **{letter: "scale" for letter in SCALES},
}
# sign, currency sign, the digits (with any commas), a unit or scale after them
_CELL = re.compile(r"(?P<sign>[+-]?)\s*(?P<currency>[$€£¥]?)\s*(?P<sign2>[+-]?)"
                   r"(?P<number>\d[\d,]*(?:\.\d*)?|\.\d+)\s*(?P<unit>[^\d\s.,+-][^\d\s]*)?")
_THOUSANDS = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d*)?")  # 1,000 and 12,345.5: commas in groups of three
_DECIMAL = re.compile(r"\d+,\d+")  # 1,5 and 12,345 in a file that writes decimal commas
FIRST_CELLS = 1000  # a text column mostly shows it in its first cells: no pass over every row


@dataclass(frozen=True)
class Reading:
    """What `read_numbers` made of a column: `numbers` (the cells as plain number text, None where
    missing) when it read them, and `note`, how it read them, or what to change when it could not."""

    numbers: np.ndarray | None
    note: str | None


NOT_NUMBERS = Reading(None, None)


def read_numbers(name: str, cells: np.ndarray, decimal_comma: bool = False) -> Reading:
    """Read a column's cells (str, None where missing) written as numbers with a unit.

    `decimal_comma`: the file writes decimal commas (a semicolon- or tab-separated file, as
    European spreadsheets save them), so "12,5 kg" is 12.5; otherwise a comma separates
    thousands ("1,000"), and a comma anywhere else is a question to the student.

    >>> r = read_numbers("Annual Income", np.array(["125K", "100K", None], dtype=object))
    >>> r.numbers.tolist(), r.note
    (['125', '100', None], 'Annual Income: read as numbers in thousands, 125K as 125 (the K dropped).')
    >>> print(read_numbers("w", np.array(["3 kg", "500 g"], dtype=object)).note)  # doctest: +ELLIPSIS
    w: the cells look like numbers with units, but data row 1 is in kg and data row 2 in g: write every ...
    >>> read_numbers("outlook", np.array(["sunny", "rain"], dtype=object))
    Reading(numbers=None, note=None)
    """
    present_at = np.flatnonzero(cells != None)  # noqa: E711 (elementwise, in C)
    present = cells[present_at]
    if not len(present) or not all(map(_CELL.fullmatch, present[:FIRST_CELLS])):
        return NOT_NUMBERS
    first = _CELL.fullmatch(present[0])
    if first["unit"] is not None and first["unit"] not in UNITS:
        return NOT_NUMBERS
    uniform = _uniform(present, first["currency"], first["unit"] or "")
    if uniform is not None:
        numbers = np.array(cells, dtype=object)
        numbers[present_at] = uniform
        return Reading(numbers, _note(name, present[0], uniform[0], first["unit"], first["currency"] or None, False,
                                      decimal_comma))
    matches = list(map(_CELL.fullmatch, present))
    if not all(matches):
        return NOT_NUMBERS
    units = [match["unit"] for match in matches]
    if any(unit is not None and unit not in UNITS for unit in units):
        return NOT_NUMBERS  # "2 doors", "1st": words, not units
    currencies = [match["currency"] or None for match in matches]
    commas = ["," in match["number"] for match in matches]
    if not any(units) and not any(currencies) and (decimal_comma or not any(commas)):
        return NOT_NUMBERS  # plain numbers, or decimal commas: `data` reads those itself
    problem = (_mixed(name, present_at, present, units, "unit") or _mixed(name, present_at, present, currencies, "sign")
               or _commas(name, present_at, present, matches, decimal_comma))
    if problem:
        return Reading(None, problem)
    numbers = np.array(cells, dtype=object)
    numbers[present_at] = [_plain(match, decimal_comma) for match in matches]
    return Reading(numbers, _note(name, present[0], numbers[present_at[0]], units[0], currencies[0], any(commas),
                                  decimal_comma))


def _uniform(present: np.ndarray, currency: str, unit: str) -> np.ndarray | None:
    """The numbers of cells that all carry the first cell's currency sign and unit and no comma
    (Tan's 125K, 100K, ...), as plain number text; None when some cell is written otherwise, and
    `read_numbers` then looks at each cell. Builtins mapped over the cells run in C: a million
    cells are read without a Python call each."""
    if not (currency or unit) or any(map(str.__contains__, present, repeat(","))):
        return None
    if not all(map(str.startswith, present, repeat(currency))) or not all(map(str.endswith, present, repeat(unit))):
        return None
    numbers = np.fromiter(map(str.strip, map(str.removesuffix, map(str.removeprefix, present, repeat(currency)),
                                             repeat(unit))), dtype=object, count=len(present))
    joined = "".join(numbers)
    if not joined.isascii() or joined.encode("ascii").translate(None, b"0123456789.-"):
        return None  # a sign before the currency sign, a space inside: each cell is looked at
    try:
        np.asarray(numbers, dtype=float)  # "1.2.3", "5-", "" (a unit alone) are no numbers
    except ValueError:
        return None
    return numbers


def _plain(match: re.Match, decimal_comma: bool) -> str:
    """The cell's number as plain text: "-1,000.5" -> "-1000.5"; "12,5" -> "12.5" in decimal commas."""
    number = match["number"].replace(",", ".") if decimal_comma else match["number"].replace(",", "")
    negative = (match["sign"] == "-") != (match["sign2"] == "-")
    return ("-" if negative else "") + number


def _mixed(name: str, rows: np.ndarray, cells: np.ndarray, marks: list, what: str) -> str | None:
    """The message for cells written with two different units (or currency signs), or with one
    and without it; None when they agree."""
    first = marks[0]
    other = next((i for i, mark in enumerate(marks) if mark != first), None)
    if other is None:
        return None
    a, b = (0, other) if first is not None else (other, 0)
    return (f"{name}: the cells look like numbers with {'units' if what == 'unit' else 'currency signs'}, but "
            + (f"data row {rows[a] + 1} is in {marks[a]} and data row {rows[b] + 1} in {marks[b]}: write every value "
               f"in one {'unit' if what == 'unit' else 'currency'} (or none)" if marks[b] is not None else
               f"data row {rows[b] + 1} holds '{cells[b]}' without the {marks[a]} of data row {rows[a] + 1} "
               f"('{cells[a]}'): write {marks[a]} with every value, or with none")
            + " to have them read as numbers.")


def _commas(name: str, rows: np.ndarray, cells: np.ndarray, matches: list, decimal_comma: bool) -> str | None:
    """The message for a comma that can be read two ways; None when every comma reads one way."""
    pattern = _DECIMAL if decimal_comma else _THOUSANDS
    points = [i for i, match in enumerate(matches) if "." in match["number"]]
    if decimal_comma and points and any(commas := ["," in match["number"] for match in matches]):
        i, j = points[0], commas.index(True)
        return (f"{name}: data row {rows[i] + 1} holds '{cells[i]}', with a decimal point, and data row {rows[j] + 1} "
                f"'{cells[j]}', with a decimal comma: write every number one way to have them read as numbers.")
    for i, match in enumerate(matches):
        number = match["number"]
        if "," in number and not pattern.fullmatch(number):
            plain = number.replace(",", ".", 1) if number.count(",") == 1 else number.replace(",", "")
            said = ("a decimal comma" if decimal_comma else "a comma that is no thousands separator (those come "
                    "before groups of three digits, as in 1,000)")
            return (f"{name}: data row {rows[i] + 1} holds '{cells[i]}', with {said}. If it is a decimal mark, write "
                    f"{plain} with a point; if it separates thousands, remove it.")
    return None


def _note(name: str, cell: str, number: str, unit: str | None, currency: str | None, commas: bool,
          decimal_comma: bool) -> str:
    """How the column was read, with its first cell as the example."""
    dropped = [f"the {mark}" for mark in (currency, unit) if mark]
    if commas and not decimal_comma:
        dropped.append("the thousands separators")
    scale = f" in {SCALES[unit]}" if unit in SCALES else f" in {unit}" if unit and UNITS[unit] != "percent" else ""
    said = " and ".join([", ".join(dropped[:-1]), dropped[-1]] if len(dropped) > 1 else dropped)
    details = [f"{said} dropped"] if said else []
    details += ["the comma read as a decimal point"] if commas and decimal_comma else []
    return f"{name}: read as numbers{scale}, {cell} as {number}" + (f" ({'; '.join(details)})." if details else ".")
