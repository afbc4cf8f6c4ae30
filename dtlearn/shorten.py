"""Text from a file as a drawing shows it: one rule for tree labels, table cells, legends and formulas.

Names and values are computed and kept whole; only where they are drawn is a long one cut, with
an ellipsis, and a zero-width or direction-changing character written as its code point (in a
label it would hide text or turn it around). Whoever draws a shortened text keeps the whole one
reachable (node details, a tooltip, the Data page's row detail).
"""

from __future__ import annotations

import re
from typing import Iterable, Sequence

# Zero-width, joiner and direction-changing characters (Unicode's Cf format controls a reader cannot
# see), and Unicode's noncharacters (U+FDD0..U+FDEF, U+FFFE, U+FFFF and their like in every plane:
# no glyph, and XML, so Graphviz's HTML-like labels, refuses them).
INVISIBLE = re.compile("[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\ufdd0-\ufdef\ufffe\uffff"
                       + "".join(f"{chr(plane * 0x10000 + 0xFFFE)}{chr(plane * 0x10000 + 0xFFFF)}"
                                 for plane in range(1, 17)) + "]")
LABEL_CHARS = 40  # a name or value longer than this is cut where it is drawn
# A line of a drawn label: longer lists (a node's class counts) are written more compactly or
# wrapped. Six long class names made every node of a glass tree 90 characters wide, and a
# projector showed its text 4 px high; iris's three classes (47 characters) still fit.
LINE_CHARS = 48
# A line of a tree's node: the widest line sets a node's width, hence how far a projector must
# shrink the whole tree. 24 characters of 14-point text keep iris's and glass's nodes narrow.
NODE_CHARS = 24
CODE_CHARS = 5  # class names this short are their own code in a node's counts
_MARK = re.compile("⟨U\\+[0-9A-F]{4,6}⟩")
_BRANCH_PREFIXES = ("<= ", "> ", "= ", "not in ", "in ")


def visible(text) -> str:
    """Invisible characters written as their code point, nothing cut.

    >>> visible("a\u200bb")
    'a⟨U+200B⟩b'
    """
    return INVISIBLE.sub(lambda m: f"⟨U+{ord(m[0]):04X}⟩", str(text))


def shown(text, limit: int | None = LABEL_CHARS) -> str:
    """Text from a file as a drawing shows it: invisible characters made visible, cut at
    `limit` characters with an ellipsis (never inside a ⟨U+…⟩ mark). Only drawings use it: the
    tree, tables and formulas keep the text whole.

    >>> shown("a\u202eb"), shown("x" * 50)[-3:], len(shown("x" * 50))
    ('a⟨U+202E⟩b', 'xx…', 40)
    >>> shown("abc\u200b", limit=6)
    'abc…'
    """
    text = visible(text)
    if limit is None or len(text) <= limit:
        return text
    head = text[:limit - 1]
    for mark in _MARK.finditer(text, max(0, limit - 10)):
        if mark.start() < len(head) < mark.end():  # the cut would split a mark: cut before it
            head = head[:mark.start()]
    return head + "…"


def shown_branch(branch: str, limit: int | None = LABEL_CHARS) -> str:
    """A branch label (`= value`, `<= 2.5`, `in {a, b}`) with its value part shortened.

    >>> shown_branch("= " + "v" * 60)[:6], len(shown_branch("= " + "v" * 60))
    ('= vvvv', 42)
    """
    for prefix in _BRANCH_PREFIXES:
        if branch.startswith(prefix):
            return prefix + shown(branch[len(prefix):], limit)
    return shown(branch, limit)


def shown_names(names: Iterable, limit: int = LABEL_CHARS) -> list[str]:
    """Column names as a table heads them: shortened, and still distinct (a table cannot have
    two columns of one name), a repeat numbered within the limit.

    >>> shown_names(["a" * 50, "a" * 51], 10)
    ['aaaaaaaaa…', 'aaaaaaa… 2']
    """
    heads: list[str] = []
    for name in names:
        head, n = shown(name, limit), 1
        while head in heads:
            n += 1
            head = shown(name, limit - len(f" {n}")) + f" {n}"
        heads.append(head)
    return heads


def wrapped(parts: Sequence[str], first: str = "", width: int = LINE_CHARS) -> list[str]:
    """`first`, then `parts` separated by commas, as lines of at most `width` characters filled
    in order, broken only after a comma (a part longer than that has a line of its own).

    >>> wrapped(["5 No", "9 Yes"], "n = 14:")
    ['n = 14: 5 No, 9 Yes']
    >>> wrapped(["70 build wind float", "76 build wind non-float", "17 vehic wind float"], "n = 163:", 30)
    ['n = 163: 70 build wind float,', '76 build wind non-float,', '17 vehic wind float']
    """
    if not parts:
        return [first] if first else []
    words = _words(parts, first)
    return [" ".join(words[i] for i in line) for line in grouped(parts, first, width)]


def grouped(parts: Sequence[str], first: str = "", width: int = LINE_CHARS) -> list[list[int]]:
    """The parts each line of `wrapped` holds, by index: for writing the same lines in another
    form (a formula's LaTeX), broken where the text would be.

    >>> grouped(["70 build wind float", "76 build wind non-float", "17 vehic wind float"], "n = 163:", 30)
    [[0], [1], [2]]
    """
    lines: list[list[int]] = []
    length = 0
    for i, word in enumerate(_words(parts, first)):
        if lines and length + 1 + len(word) <= width:
            lines[-1].append(i)
            length += 1 + len(word)
        else:
            lines.append([i])
            length = len(word)
    return lines


def _words(parts: Sequence[str], first: str) -> list[str]:
    """The parts as `wrapped` writes them: each but the last with its comma, the first after `first`."""
    words = [f"{part}," for part in parts[:-1]] + list(parts[-1:])
    if first and words:
        words[0] = f"{first} {words[0]}"
    return words


def codes(names: Sequence[str]) -> list[str]:
    """Short, distinct codes for classes, written beside their counts in a drawing (a legend
    gives each code's whole name): the names themselves when all are short; else the first
    2 or 3 letters when those differ (setosa, versicolor, virginica: se, ve, vi); else the
    initials of multi-word names when those differ (build wind float: bwf); else numbers.

    >>> codes(["No", "Yes"]), codes(["setosa", "versicolor", "virginica"])
    (['No', 'Yes'], ['se', 've', 'vi'])
    >>> codes(["build wind float", "build wind non-float", "vehic wind float", "containers"])
    ['bwf', 'bwn', 'vwf', 'c']
    """
    names = [visible(name) for name in names]
    if all(0 < len(name) <= CODE_CHARS and not name.isspace() for name in names) and _distinct(names):
        return names
    for size in (2, 3):
        prefixes = [name[:size].strip() for name in names]
        if all(prefixes) and _distinct(prefixes):
            return prefixes
    initials = ["".join(word[0] for word in re.split(r"[\s_]+", name) if word) for name in names]
    if all(initials) and max(map(len, initials)) <= CODE_CHARS and _distinct(initials):
        return initials
    return [f"#{i + 1}" for i in range(len(names))]


def _distinct(items: list[str]) -> bool:
    return len(set(items)) == len(items)


def shown_candidate(row) -> str:
    """A candidate table row's test as a cell, a menu or a slide shows it: a long name or value
    cut, `<=` as `≤`, a multiway split as "(by value)"."""
    attribute = str(row["attribute"])
    if row["kind"] == "multiway":
        return f"{shown(attribute)} (by value)"
    test = str(row["test"])
    rest = test[len(attribute):].strip() if test.startswith(attribute) else test
    return f"{shown(attribute)} {shown_branch(rest)}".replace("<=", "≤")
