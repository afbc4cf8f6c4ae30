"""CSV files from the shapes that break parsers and tree code, for the fuzz tests.

`csv_files()` is a hypothesis strategy of file contents (bytes): a small table (1-60 rows, 1-5
attribute columns) whose columns, header names, cells, separator, quoting, line endings and
encoding are drawn from the troublemakers below, sometimes damaged afterwards (bytes that are
not UTF-8, binary noise, a cut). `SHAPES` names one hand-made file per shape, so every shape is
tried whatever hypothesis draws (`@example`). Files stay small: a test fits four trees on each.
"""

from __future__ import annotations

import csv
import io

from hypothesis import strategies as st

LONG = (5_000, 20_000, 100_000)  # "very long" values and names, in characters
NUMBERS = ("0", "1", "-1", "2.5", "-0", "-0.0", "+3", "1e308", "-1.7976931348623157e308", "5e-324", "1e-320",
           "-2.2250738585072014e-308", "0.1", "123456789012345678901234567890", "1E5", ".5", "7.")
SPECIAL_NUMBERS = ("inf", "-inf", "Infinity", "-Infinity", "nan", "NaN", "NAN", "-nan")
DECIMAL_COMMAS = ("1,5", "-0,25", "3", "0,0", "1,5E-03", "-7,125")
WEIRD_TEXT = (
    "\u200b", "a\u200bb", "\ufeffx", "\u202eevil", "\u05e9\u05dc\u05d5\u05dd", "\u0627\u0644\u0639\u0631\u0628",
    "\u200f", "e\u0301", "\x01", "a\x07b", "\x1b[31mred", "\x7f", "tab\there", "semi;colon", "com,ma",
    'say "hi"', '"', "line\nbreak", "cr\rret", "?", " ? ", "  ", "\u00a0", "NULL", "None", "True", "false",
    "\U0001f333", "\\", "$x$", "**b**", "<b>", "{", "}", "%", "&", "#", "~", "^", "_",
    "\ufffe", "x\uffff", "\ufdd0", "\U0010ffff",  # noncharacters: XML (Graphviz's labels) refuses them
    "1234567890123", "1234567890124",  # whole numbers past 12 significant digits (IDs, timestamps)
)
NAMES = ("a", "b", "x", "y", "class", "", " ", "a", "\ufeffid", "\u202ename", "n\u200bame", "x\x01", "1",
         "-0", "nan", "?", '"q"', "c,d", "e;f", "g\th", "\u05e9\u05dd", "col\nnl", "target", "n\ufffe")


# --- cells and columns ----------------------------------------------------------------------

def _long(draw) -> str:
    return draw(st.sampled_from("xé\u05d0")) * draw(st.sampled_from(LONG))


@st.composite
def cells(draw) -> str:
    """Any one troublesome cell."""
    kind = draw(st.sampled_from(("empty", "number", "float", "special", "decimal", "text", "weird")))
    if kind == "empty":
        return draw(st.sampled_from(("", " ", "\t", "   ", "?")))
    if kind == "number":
        return draw(st.sampled_from(NUMBERS))
    if kind == "float":
        return repr(draw(st.floats(allow_nan=True, allow_infinity=True)))
    if kind == "special":
        return draw(st.sampled_from(SPECIAL_NUMBERS))
    if kind == "decimal":
        return draw(st.sampled_from(DECIMAL_COMMAS))
    if kind == "text":
        return draw(st.sampled_from(("p", "q", "r", "Sunny", "yes", "no")))
    return draw(st.sampled_from(WEIRD_TEXT))


@st.composite
def columns(draw, n: int) -> list[str]:
    """One column of n cells, of a kind that breaks something."""
    kind = draw(st.sampled_from(("numeric", "categorical", "mixed", "constant", "missing", "sparse",
                                 "high_cardinality", "long", "decimal", "extreme")))
    if kind == "numeric":
        return [str(v) for v in draw(st.lists(st.integers(-3, 3) | st.floats(-10, 10), min_size=n, max_size=n))]
    if kind == "categorical":
        return draw(st.lists(st.sampled_from(("p", "q", "r")), min_size=n, max_size=n))
    if kind == "mixed":
        return draw(st.lists(cells(), min_size=n, max_size=n))
    if kind == "constant":
        return [draw(st.sampled_from(("c", "1", "0,5", "", "?")))] * n
    if kind == "missing":
        return draw(st.lists(st.sampled_from(("", " ", "?")), min_size=n, max_size=n))
    if kind == "sparse":  # mostly missing, a few values
        return [c if draw(st.booleans()) and draw(st.booleans()) else "" for c in
                draw(st.lists(st.sampled_from(("1", "2", "p")), min_size=n, max_size=n))]
    if kind == "high_cardinality":
        return [f"v{i}" for i in range(n)]
    if kind == "long":
        return [_long(draw) if i == 0 else draw(st.sampled_from(("p", "q"))) for i in range(n)]
    if kind == "decimal":
        return draw(st.lists(st.sampled_from(DECIMAL_COMMAS), min_size=n, max_size=n))
    return draw(st.lists(st.sampled_from(("1e308", "-1e308", "5e-324", "-0", "1e-300", "0")), min_size=n, max_size=n))


@st.composite
def targets(draw, n: int) -> list[str]:
    """The class column: a few classes, one class, one class per row, numbers (a regression
    target), labels from the troublemakers, or with missing labels (those rows are left out)."""
    kind = draw(st.sampled_from(("few", "few", "one", "per_row", "numeric", "weird", "missing")))
    if kind == "few":
        return draw(st.lists(st.sampled_from(("yes", "no", "maybe")), min_size=n, max_size=n))
    if kind == "one":
        return ["yes"] * n
    if kind == "per_row":
        return [f"c{i}" for i in range(n)]
    if kind == "numeric":
        return [str(v) for v in draw(st.lists(st.integers(-5, 5) | st.floats(-1e6, 1e6), min_size=n, max_size=n))]
    if kind == "weird":
        return draw(st.lists(st.sampled_from(WEIRD_TEXT + ("1", "-0", "nan")), min_size=n, max_size=n))
    labels = draw(st.lists(st.sampled_from(("yes", "no")), min_size=n, max_size=n))
    return [""] + labels[1:]


# --- writing the table out ------------------------------------------------------------------

def render(header: list[str], rows: list[list[str]], separator: str = ",", quoting: int = csv.QUOTE_MINIMAL,
           line_ending: str = "\n", encoding: str = "utf-8", trailing: bool = True) -> bytes:
    """The table as file bytes. quoting=csv.QUOTE_NONE writes cells as they are (a separator
    or a quote inside a cell then breaks the row, as in a hand-made file)."""
    if quoting == csv.QUOTE_NONE:
        lines = [separator.join(row) for row in [header] + rows]
    else:
        buffer = io.StringIO()
        csv.writer(buffer, delimiter=separator, quoting=quoting, lineterminator="\n").writerows([header] + rows)
        lines = buffer.getvalue().split("\n")[:-1]  # a quoted newline inside a cell stays in its line
    endings = line_ending if isinstance(line_ending, (list, tuple)) else [line_ending]
    text = "".join(line + endings[i % len(endings)] for i, line in enumerate(lines))
    if not trailing:
        text = text.rstrip("\r\n")
    return text.encode(encoding, errors="replace")


@st.composite
def tables(draw) -> tuple[list[str], list[list[str]]]:
    """A header and rows, every column drawn by `columns`, the last by `targets`."""
    n = draw(st.integers(1, 60))
    width = draw(st.integers(1, 5))
    cols = [draw(columns(n)) for _ in range(width)] + [draw(targets(n))]
    header = [draw(st.sampled_from(NAMES)) if draw(st.integers(0, 3)) == 0 else f"{kind}{j}"
              for j, kind in enumerate(["a"] * width + ["y"])]
    if draw(st.integers(0, 9)) == 0:
        header[draw(st.integers(0, width))] = _long(draw)
    rows = [list(row) for row in zip(*cols)]
    if draw(st.integers(0, 4)) == 0:  # a row whose attributes are all missing
        rows[draw(st.integers(0, n - 1))][:-1] = [""] * width
    return header, rows


@st.composite
def damaged(draw, content: bytes) -> bytes:
    """The bytes as they are, mostly; sometimes with a byte that is not UTF-8, binary noise or a cut."""
    how = draw(st.sampled_from(("none", "none", "none", "latin1", "binary", "cut", "nul")))
    at = draw(st.integers(0, len(content)))
    if how == "latin1":
        return content[:at] + b"\xe9\xff\xfe" + content[at:]
    if how == "binary":
        return content[:at] + draw(st.binary(min_size=1, max_size=64)) + content[at:]
    if how == "cut":
        return content[:at]
    if how == "nul":
        return content[:at] + b"\x00" + content[at:]
    return content


@st.composite
def csv_files(draw) -> bytes:
    """File contents: a troublesome table, written with a drawn separator, quoting, line
    endings and encoding, then maybe damaged."""
    header, rows = draw(tables())
    separator = draw(st.sampled_from((",", ",", ";", "\t")))
    quoting = draw(st.sampled_from((csv.QUOTE_MINIMAL, csv.QUOTE_MINIMAL, csv.QUOTE_ALL, csv.QUOTE_NONE)))
    line_ending = draw(st.sampled_from(("\n", "\r\n", "\r", ("\n", "\r\n"), ("\r\n", "\r", "\n"))))
    encoding = draw(st.sampled_from(("utf-8", "utf-8", "utf-8-sig", "utf-16", "latin-1")))
    content = render(header, rows, separator, quoting, line_ending, encoding, draw(st.booleans()))
    return draw(damaged(content))


# --- one hand-made file per shape -----------------------------------------------------------

def _lines(*lines: str, ending: str = "\n") -> bytes:
    return "".join(line + ending for line in lines).encode()


_HIGH = "\n".join(f"v{i},{i * 7 % 1000 / 10},{'ab'[i % 2]}" for i in range(300))
SHAPES: dict[str, bytes] = {
    "empty cells": _lines("a,b,y", "1,,p", ",x,q", "3,y,", "4,x,p"),
    "whitespace-only cells": _lines("a,b,y", "  ,\t,p", "1, ,q", " 2 ,x,p"),
    "all attribute cells empty": _lines("a,b,y", ",,p", ",,q", ",,p"),
    "an all-missing column": _lines("a,b,y", "1,,p", "2,?,q", "3, ,p"),
    "an all-missing row": _lines("a,b,y", "1,x,p", ",,q", "3,y,p"),
    "an all-missing row, label too": _lines("a,b,y", "1,x,p", ",,", "3,y,q"),
    "header only": _lines("a,b,y"),
    "empty file": b"",
    "whitespace file": b" \n\t\r\n  ",
    "one row": _lines("a,b,y", "1,x,p"),
    "one column": _lines("y", "p", "q"),
    "one class": _lines("a,b,y", "1,x,p", "2,y,p", "3,x,p"),
    "one class per row": _lines("a,b,y", "1,x,p", "2,y,q", "3,x,r", "4,y,s"),
    "constant columns": _lines("a,b,y", "1,x,p", "1,x,q", "1,x,p", "1,x,q"),
    "duplicate header names": _lines("a,a,y", "1,2,p", "3,4,q"),
    "empty header name": _lines("a,,y", "1,2,p", "3,4,q"),
    "trailing separator": _lines("a,b,y,", "1,2,p,", "3,4,q,"),
    "BOM": b"\xef\xbb\xbf" + _lines("a,b,y", "1,x,p", "2,y,q"),
    "UTF-16 with BOM": "a,b,y\n1,x,p\n2,y,q\n".encode("utf-16"),
    "BOM in a cell": _lines("a,b,y", "\ufeff1,x,p", "2,\ufeffy,q"),
    "mixed line endings": b"a,b,y\r\n1,x,p\n2,y,q\r3,x,p\r\n",
    "quotes and separators in cells": _lines('a,b,y', '"1,5","x;y",p', '"2","say ""hi""",q', '3,"new\nline",p'),
    "unbalanced quote": _lines('a,b,y', '"1,x,p', '2,y,q'),
    "decimal commas": _lines("a;b;y", "1,5;x;p", "-0,25;y;q", "3;x;p", "1,5E-03;y;q"),
    "huge and tiny floats": _lines("a,b,y", "1e308,5e-324,p", "-1.7976931348623157e308,1e-320,q",
                                   "1.7976931348623157e308,-5e-324,p", "0,0,q"),
    "inf, nan and -0": _lines("a,b,c,y", "inf,nan,-0,p", "-inf,NaN,0,q", "1,2,-0.0,p", "Infinity,nan,0,q"),
    "regression target with -0 and huge": _lines("a,b,y", "1,x,-0", "2,y,1e308", "3,x,5e-324", "4,y,-1e308"),
    "very long value": _lines("a,b,y", "x" * 100_000 + ",1,p", "short,2,q", "short,3,p"),
    "very long name": _lines("n" * 20_000 + ",b,y", "1,x,p", "2,y,q", "3,x,p"),
    "very long class": _lines("a,y", "1," + "c" * 5_000, "2,d", "3," + "c" * 5_000),
    "control characters": _lines("a\x01,b,y", "\x07,\x1b[31m,p", "x\x7f,b,\x02q", "y,c,p"),
    "right-to-left and zero-width": _lines("\u202ea,\u200bb,y\u200f", "\u05e9\u05dc\u05d5\u05dd,\u200b,p",
                                           "\u0627\u0644,\u200bx,\u202eq", "\u05e9,y,p"),
    "noncharacters": _lines("a\ufffe,b\uffff,y", "\ufdd0,x,p", "\U0001fffe,y,q", "z,\U0010ffff,p"),
    "whole numbers past 12 digits": _lines("x,id,y", "1,1234567890123,1234567890123", "2,1234567890124,1",
                                           "3,1234567890123,1234567890124", "4,9007199254740993,1"),
    "numeric target of many values": _lines("a,y", *(f"{i},{i * 1.5 - 7}" for i in range(12))),
    "non-UTF-8 bytes": "a,b,y\ncaf\u00e9,1,p\nna\u00efve,2,q\n".encode("latin-1"),
    "binary": bytes(range(256)) * 4,
    "NUL byte": b"a,b,y\n1,\x00,p\n2,3,q\n",
    "PNG header": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + b"\x00" * 32,
    "high cardinality": _lines("id,x,y") + _HIGH.encode() + b"\n",
    "high cardinality, one class per row": _lines("id,y", *(f"v{i},c{i}" for i in range(300))),
    "semicolon names, tab cells": _lines("a;b;y", "1\t2\tp", "3\t4\tq"),
    "ragged rows": _lines("a,b,y", "1,2", "1,2,3,4"),
    "numeric target, one value": _lines("a,y", "1,5", "2,5", "3,5"),
    "boolean-like columns": _lines("a,b,y", "True,false,yes", "False,true,no", "TRUE,FALSE,yes"),
    "question marks everywhere": _lines("?,b,y", "?,?,p", "?,x,q"),
}
