"""Reading a shared link: where every query parameter becomes a value the app uses, or a note.

A link is typed, pasted, cut short or forged. Each reader returns the value, or raises
ValueError with a short sentence saying what is wrong with it; the router (pages/address.py `load_url`)
says that sentence in a note and keeps the default. A value is quoted back only when it is short
and plain: never a 5,000-digit number, a path or markup, and never a traceback.

>>> whole("12", low=0)
12
>>> whole("²")
Traceback (most recent call last):
ValueError: '²' is not a whole number
>>> whole("9" * 5000)
Traceback (most recent call last):
ValueError: (a value of 5,000 characters) is not a whole number
>>> number("1e999")
Traceback (most recent call last):
ValueError: '1e999' is not a finite number
"""

from __future__ import annotations

import math
import re

QUOTED = 40  # characters of a value quoted back in a note
_PLAIN = re.compile(r"[\w .,:+-]*")  # letters and digits of any script, and these marks: no / \ quotes or markup
# Python's own float() also reads "nan", "infinity", "1_000" and digits of every script; a link holds
# what the app writes (dtlearn.formatting.label): ASCII digits, a point, an exponent
_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d{1,4})?", re.ASCII)
NUMBER_CHARS = 32  # longer is no number the app writes (and int() refuses 4,300 digits and more)
LARGEST_WHOLE = 2**53 - 1  # a browser's exact integers: the number boxes (and Streamlit) hold no larger


def quoted(text) -> str:
    """A value from the link as a note may show it: quoted when short and plain, else its length."""
    text = str(text)
    if len(text) <= QUOTED and _PLAIN.fullmatch(text):
        return f"'{text}'"
    return f"(a value of {len(text):,} character{'s' if len(text) != 1 else ''})"


def number(text: str, low: float | None = None, high: float | None = None, *, whole: bool = False):
    """A finite number written as the app writes it (a whole one as an int when `whole`), within
    low..high when given."""
    kind = "whole number" if whole else "number"
    text = str(text).strip()
    if len(text) > NUMBER_CHARS or not _NUMBER.fullmatch(text):
        raise ValueError(f"{quoted(text)} is not a {kind}")
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{quoted(text)} is not a finite number")
    if whole:
        if not value.is_integer():
            raise ValueError(f"{quoted(text)} is not a whole number")
        if abs(value) > LARGEST_WHOLE:
            raise ValueError(f"{quoted(text)} is too large a number")
        value = int(value)
    if low is not None and value < low:
        raise ValueError(f"{quoted(text)} is below {low}")
    if high is not None and value > high:
        raise ValueError(f"{quoted(text)} is above {high}")
    return value


def whole(text: str, low: int | None = None, high: int | None = None) -> int:
    return number(text, low, high, whole=True)


def choice(text: str, choices) -> str:
    """One of `choices` (the app's own words), as written."""
    if text not in choices:
        raise ValueError(f"{quoted(text)} is not one of {', '.join(map(str, choices))}")
    return text


def flag(text: str) -> bool:
    """On (1) or off (0)."""
    return choice(text, ("0", "1")) == "1"


def column(text: str, columns) -> str:
    """A column of the table (the link's dataset is a bundled one: its names are the app's)."""
    if text not in columns:
        raise ValueError(f"{quoted(text)} is not a column of this table")
    return text


def kinds(text: str, columns, kinds) -> tuple[dict, list[str]]:
    """The attribute kinds of `kinds=outlook:categorical,temp:ignore`: the pairs that name a column
    and a kind, and a note for each part that does not."""
    read, notes = {}, []
    for part in filter(None, str(text).split(",")):
        name, _, kind = part.rpartition(":")
        if name not in columns:
            notes.append(f"kinds: {quoted(name or part)} is not a column of this table")
        elif kind not in kinds:
            notes.append(f"kinds: {quoted(kind)} is not one of {', '.join(kinds)}")
        else:
            read[name] = kind
    return read, notes
