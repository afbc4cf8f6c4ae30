"""LaTeX for the worked derivations (`derivation`): names from a file as escaped text,
numbers as a line shows them, equations broken over lines, the remarks under a line, and the
sections lines are grouped in.

Every name or value that comes from a data file goes through `text()`: escaped for LaTeX
and put inside \\text{...}, so a column called ``a}\\text{x}$`` prints as itself.
"""

from __future__ import annotations

from dataclasses import dataclass

from .formatting import label
from .quantities import QUANTITIES

_SPECIAL = {
    "\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&", "#": r"\#",
    "^": r"\textasciicircum{}", "_": r"\_", "%": r"\%", "~": r"\textasciitilde{}",
}


def escape(value) -> str:
    r"""Text safe inside \text{...}: the ten LaTeX specials escaped, line breaks made spaces.

    >>> escape("a}\\text{x}$")
    'a\\}\\textbackslash{}text\\{x\\}\\$'
    """
    flat = " ".join(str(value).split()) if any(c in str(value) for c in "\r\n\t") else str(value)
    return "".join(_SPECIAL.get(c, c) for c in flat)


def text(value) -> str:
    r"""A name or value from a file, as LaTeX text: \text{escaped}."""
    return r"\text{" + escape(value) + "}"


# numbers ---------------------------------------------------------------------------------

DIGITS = 3  # decimals a result is written with unless a page asks for more (None: all of them)


def number(value: float, digits: int | None = DIGITS) -> str:
    """A result, rounded: 0 stays 0, anything else gets `digits` decimals (no -0.000); with
    digits=None every decimal a float holds (up to 12), trailing zeros dropped.

    >>> number(0.24674981977443933), number(0.24674981977443933, 4), number(0.25, None)
    ('0.247', '0.2467', '0.25')
    """
    value = float(value)
    if value == 0:
        return "0"
    if digits is None:
        written = f"{value:.12f}".rstrip("0").rstrip(".")
        return "0" if float(written) == 0 else written
    written = f"{value:.{digits}f}"
    return written[1:] if written.startswith("-") and float(written) == 0 else written


def weight(value: float) -> str:
    """A count (or C4.5 fractional weight) as written in a fraction: 5, 5.333."""
    return label(round(float(value), 3))


def as_shown(value: float, digits: int | None) -> float:
    """A number as the line shows it (what a student carries to the next line)."""
    return float(number(value, digits))


# lines -----------------------------------------------------------------------------------

TERMS_PER_LINE = 4  # a sum with more terms is broken over lines (KaTeX does not wrap)


def equation(lhs: str, *sides, note: str = "") -> str:
    """lhs = side_1 = side_2 = ...; a side is a string or a list of terms joined by ' '.

    Short equations stay on one line; when a side has more than TERMS_PER_LINE terms the
    equation becomes an `aligned` block, one side per line and the long side wrapped.
    """
    long = any(isinstance(side, list) and len(side) > TERMS_PER_LINE for side in sides)
    if not long:
        flat = [" ".join(side) if isinstance(side, list) else side for side in sides]
        return lhs + " = " + " = ".join(flat) + note
    rows = []
    for side in sides:
        if isinstance(side, list):
            chunks = [" ".join(side[i:i + TERMS_PER_LINE]) for i in range(0, len(side), TERMS_PER_LINE)]
            rows.append("&= " + chunks[0])
            rows.extend(r"&\quad " + chunk for chunk in chunks[1:])
        else:
            rows.append("&= " + side)
    rows[-1] += note
    return r"\begin{aligned}" + lhs + " " + r" \\ ".join(rows) + r"\end{aligned}"


def fraction(part: float, whole: float) -> str:
    return r"\tfrac{" + weight(part) + "}{" + weight(whole) + "}"


def textbook_note(exact: float, by_hand: float, digits: int | None) -> str:
    r"""A remark for a line whose printed operands give another last digit than the exact result:
    textbooks round each intermediate result (Mitchell 1997 prints Gain(S, Outlook) = 0.246:
    0.940 - 0.694), while the line shows the exact value rounded.

    >>> textbook_note(0.24674981977443933, 0.940 - 0.694, 3)
    '\\text{(exact, rounded; the rounded values shown give 0.246)}'
    """
    if digits is None or number(exact, digits) == number(by_hand, digits):
        return ""
    return r"\text{(exact, rounded; the rounded values shown give " + number(by_hand, digits) + ")}"


def noted(line: str, exact: float, by_hand: float, digits: int | None) -> str:
    """The line, with the textbook remark (if any) below it (`below`)."""
    return below(line, textbook_note(exact, by_hand, digits))


def below(line: str, remark: str) -> str:
    """The line, with a remark in words (if any) centred below it: beside it, the remark would
    run off a projector's width."""
    return line if not remark else r"\begin{gathered}" + line + r" \\ " + remark + r"\end{gathered}"


# sections --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Section:
    title: str
    lines: tuple[str, ...]
    family: str  # "node", "entropy" (gain, gain ratio), "gini" or "squared_error"
    introduces: tuple[str, ...] = ()  # the quantities (dtlearn.quantities) whose other names it says

    @property
    def other_names(self) -> str:
        """'Split information (SplitInfo) is split info(X) in Quinlan (1993), ...': each quantity
        the section introduces, with the textbooks' names for it."""
        return " ".join(QUANTITIES[key].introduced for key in self.introduces if QUANTITIES[key].also)
