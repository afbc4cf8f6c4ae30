"""The words a page writes: names from a file escaped, algorithms named, a node in a line.

Names and values from a file reach Streamlit markdown through `md` and Plotly text through
`plain`, wherever they are rendered.
"""

from __future__ import annotations

import html

import dtlearn
from dtlearn import derivation, typeset
from dtlearn.formatting import label
from dtlearn.settings import PRESET
from dtlearn.shorten import LABEL_CHARS, shown
from pages.session import digits

ALGORITHM_TITLES = {key: preset.title for key, preset in PRESET.items()}  # the sidebar's, short
ALGORITHM_NOTES = {key: preset.summary for key, preset in PRESET.items()}
CRITERION_TITLES = dtlearn.settings.CRITERION_TITLES
# rules the Tree page lists: a 20,000-leaf tree's rules are megabytes, sent to the browser at every
# click; its download writes them all
RULES_SHOWN = 500


def md(value) -> str:
    """A name or message made safe for Streamlit markdown (no formatting, links, LaTeX, icons)."""
    return typeset.md(value, typeset.PAGE_SPECIALS)


# Names of the properties every JavaScript object has: a figure's text equal to one came out of the
# browser's chart code as {} or null (a tick named __proto__ showed "[object Object]").
_OBJECT_KEYS = frozenset({"__proto__", "constructor", "__defineGetter__", "__defineSetter__", "__lookupGetter__",
                          "__lookupSetter__", "hasOwnProperty", "isPrototypeOf", "propertyIsEnumerable",
                          "toLocaleString", "toString", "valueOf"})


def plain(value) -> str:
    """A name made safe for Plotly text (which understands a few HTML tags), and never a bare
    object property's name (its first letter as an entity, which Plotly writes as the letter)."""
    text = html.escape(str(value))
    return f"&#{ord(text[0])};{text[1:]}" if text in _OBJECT_KEYS else text


def id3_numbers(numeric: list) -> str:
    """What ID3 does with numeric attributes, naming them (escaped)."""
    verb = "gets" if len(numeric) == 1 else "get"
    names = ", ".join(md(a) for a in numeric)
    return f"ID3 treats each distinct number as a category: {names} {verb} one branch per value."


def algorithm_title(algorithm: str) -> str:
    return ALGORITHM_TITLES.get(algorithm, algorithm.upper())


def in_words(path: tuple[str, ...], n: float) -> str:
    """A node's path from the root, in words (markdown, names escaped)."""
    if not path:
        return f"the root: all {rows(n)}" if n != 1 else "the root: its one row"
    conditions = (shown(c, 2 * LABEL_CHARS) for c in path)  # a name and a value, each up to the label's width
    return " **and** ".join(f"`{c}`" if "`" not in c else md(c) for c in conditions)


def counts_text(classes, weights) -> str:
    parts = [f"{md(label(round(w, 3)))} {md(shown(c))}" for c, w in zip(classes, weights) if w > 0]
    return ", ".join(parts) if parts else "no rows"


def rows(n: float) -> str:
    """'14 rows', '1 row', '2.5 rows' (C4.5 weighs a row with a missing value across branches)."""
    return f"{md(label(round(n, 3)))} row{'' if n == 1 else 's'}"


def node_text(tree, node) -> str:
    """A node's size and what it holds, in markdown: '14 rows: 5 No, 9 Yes · entropy 0.940'."""
    size = rows(node.n)
    if tree.is_regression:
        held = f"mean {md(shown(tree.target))} {node.value:.4f}" if node.n > 0 else "no rows"
        return f"{size}: {held} · **MSE** {node.impurity:.4f}"
    impurity = "Gini" if tree.settings.impurity == "gini" else "entropy"
    value = derivation.number(node.impurity, digits())
    return f"{size}: {counts_text(tree.classes, node.class_weights)} · **{impurity}** {md(value)}"
