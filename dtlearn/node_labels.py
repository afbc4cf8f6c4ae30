"""How a node of a drawn tree looks: its HTML-like Graphviz label, its fill, and the classes' legend.

Made for a projector: every text is one size (TEXT_PT), a node's lines are at most NODE_CHARS
wide where names allow (the widest node sets how far a page must shrink the whole tree), a
classification node draws its class weights as a bar of coloured segments with the counts
written beside short class codes, and the drawing's legend gives each code's colour and name
once. Every name from a file goes through `escape`, so none can break or inject into the DOT.
"""

from __future__ import annotations

import html
import re
from typing import TYPE_CHECKING

from .colours import GREY, class_colour, tint_by_purity
from .formatting import label
from .shorten import NODE_CHARS, codes, shown, visible, wrapped

if TYPE_CHECKING:  # tree.py imports export, which imports this module: no import back at run time
    from .tree import Node, Tree

# Every text of a drawing (labels, node numbers, edge labels, the legend, folded boxes) is this
# size, in Graphviz points, the SVG's viewBox units: a page that shows the drawing at s CSS px per
# unit shows its smallest text at SMALLEST_PT * s px.
TEXT_PT = 14
SMALLEST_PT = TEXT_PT
BAR_PT, BAR_HEIGHT_PT = 100, 10  # a node's class bar: its segments share BAR_PT by class weight
IMPURITY_NAMES = {"gini": "Gini", "entropy": "entropy", "mse": "MSE"}

CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
SURROGATE = re.compile("[\ud800-\udfff]")  # half of a pair, alone: no character at all
EMPTY = "⟨empty⟩"  # a name or value of no characters (an ARFF attribute '')
GAP = '<TD WIDTH="6"></TD>'  # a space between the cells of a row
TIGHT = 'CELLSPACING="0" CELLPADDING="0"'


def escape(text: str) -> str:
    """Text from a file made safe inside an HTML-like DOT label: markup escaped, control
    characters (which Graphviz rejects) shown as spaces, and the characters XML refuses
    (noncharacters, lone surrogates) written as their code points."""
    text = str(text)
    if not text.isascii():  # (most labels are: a drawing of 40,000 nodes escapes 200,000 texts)
        text = SURROGATE.sub(lambda m: f"⟨U+{ord(m[0]):04X}⟩", visible(text))
    return html.escape(CONTROL.sub(" ", text))


def class_color(tree: Tree, cls: str) -> str:
    return class_colour(tree.classes, cls)


def class_codes(tree: Tree) -> list[str]:
    """What a node writes beside each class's count (`shorten.codes`); the legend names them."""
    return codes([shown(c) or EMPTY for c in tree.classes])


def bar_widths(weights, width: int = BAR_PT) -> list[int]:
    """Whole points summing to `width`, shared in proportion to `weights` (largest remainders:
    each within one point of its exact share).

    >>> bar_widths([50, 50, 50]), bar_widths([49, 5, 0])
    ([34, 33, 33], [91, 9, 0])
    """
    total = sum(weights)
    exact = [w / total * width for w in weights]
    widths = [int(x) for x in exact]
    by_remainder = sorted(range(len(exact)), key=lambda i: (widths[i] - exact[i], i))
    for i in by_remainder[:width - sum(widths)]:
        widths[i] += 1
    return widths


def _row(cell: str) -> str:
    return f"<TR><TD>{cell}</TD></TR>"


def _lines(*parts: str) -> str:
    """Text lines, each a row of a label's table (escaped by the caller)."""
    return "".join(_row(part) for part in parts)


def _pair(left: str, right: str, gap: str = GAP) -> str:
    """Two cells side by side, kept together: the table is stretched to the node's width, and
    each keeps to the gap between them."""
    return f'<TABLE BORDER="0" {TIGHT}><TR><TD ALIGN="RIGHT">{left}</TD>{gap}<TD ALIGN="LEFT">{right}</TD></TR></TABLE>'


def _title(words: list[str]) -> str:
    """A node's title (test or leaf), bold, as one line, or where longer than NODE_CHARS one
    line per word: before an operator (`petal_width` / `<= 1.75`), after an equals sign
    (`Type =` / `build wind non-float`)."""
    whole = " ".join(words)
    lines = [whole] if len(whole) <= NODE_CHARS else words
    return _lines(*(f"<B>{escape(line)}</B>" for line in lines))


def _bar(tree: Tree, node: Node) -> str:
    """The node's class weights as a bar of coloured segments, its size beside it."""
    cells = "".join(f'<TD BGCOLOR="{class_color(tree, c)}" WIDTH="{w}" HEIGHT="{BAR_HEIGHT_PT}" FIXEDSIZE="TRUE"></TD>'
                    for c, w in zip(tree.classes, bar_widths(node.class_weights)) if w > 0)
    bar = (f'<TABLE BORDER="1" COLOR="{GREY}" CELLBORDER="0" {TIGHT} FIXEDSIZE="TRUE" WIDTH="{BAR_PT + 2}" '
           f'HEIGHT="{BAR_HEIGHT_PT + 2}"><TR>{cells}</TR></TABLE>')
    size = escape(f"n = {label(round(node.n, 2))}")
    return _row(_pair(bar, size))


def _counts(tree: Tree, node: Node, class_codes_: list[str]) -> str:
    """The rows under the title: a classification node's bar and counts (its class's code
    beside each count, wrapped to the node's width), or a regression node's size and mean."""
    n = label(round(node.n, 2))
    if tree.is_regression:
        return _lines(escape(f"n = {n} · mean {label(round(node.value, 4))}" if node.n > 0 else f"n = {n}: no rows"))
    parts = [f"{label(round(w, 2))} {code}" for code, w in zip(class_codes_, node.class_weights) if w > 0]
    if not parts:
        return _lines(escape(f"n = {n}: no rows"))
    return _bar(tree, node) + _lines(*(escape(line) for line in wrapped(parts, "", NODE_CHARS)))


def node_label(tree: Tree, node: Node, digits: int | None = 3, numbers: bool = False,
               class_codes_: list[str] | None = None) -> str:
    """A node's HTML-like label, a table of lines: its number (grey, with `numbers`) and
    impurity, its test or class, its class bar and counts. `class_codes_`: `class_codes(tree)`,
    worked out once per drawing by the caller."""
    written = f"{node.impurity:.12f}".rstrip("0").rstrip(".") if digits is None else f"{node.impurity:.{digits}f}"
    impurity = escape(f"{IMPURITY_NAMES[tree.settings.impurity]} {written}")
    # the number a text of its own (the Tree page finds a clicked node by it), spaced by a cell:
    # SVG drops a text's leading space
    head = _pair(f'<FONT COLOR="{GREY}">node {node.id}</FONT>', f"· {impurity}", '<TD WIDTH="4"></TD>') \
        if numbers else impurity
    if node.status == "split":
        name = shown(node.test.attribute) or EMPTY
        title = _title([name, f"<= {node.test.cut}"] if node.test.kind == "threshold" else [name])
    elif node.status == "pending":
        title = _row("<I>not decided yet</I>")
    else:
        title = _title([f"{shown(tree.target) or EMPTY} =", shown(node.prediction) or EMPTY])
    if class_codes_ is None:
        class_codes_ = [] if tree.is_regression else class_codes(tree)
    return (f'<<TABLE BORDER="0" CELLSPACING="1" CELLPADDING="0">{_row(head)}{title}'
            f"{_counts(tree, node, class_codes_)}</TABLE>>")


def node_fill(tree: Tree, node: Node) -> str:
    """A node's fill: for classes, the colour of the class it predicts most strongly, tinted by
    its purity as scikit-learn's plot_tree(filled=True) does (within a readable tint); for
    regression, leaves pale blue."""
    if tree.is_regression:
        return "#e8eef7" if node.status == "leaf" else "white"
    shares = node.distribution  # (what the node predicts: CART's priors included)
    if not shares or sum(shares) <= 0:
        return "white"
    majority = max(range(len(shares)), key=lambda i: (shares[i], -i))  # the first of equals
    return tint_by_purity(class_color(tree, tree.classes[majority]), shares)


LEGEND_NODES = 4  # a legend's line is at most as wide as this many nodes side by side


def legend_entries(tree: Tree) -> list[tuple[str, str, str]]:
    """(code, name, colour) of each class, in the classes' order: the legend as a page lays it out
    beside a drawing made with `to_dot(legend=False)` ([] for regression). Names as drawn (`shown`)."""
    if tree.is_regression:
        return []
    return [(code, shown(cls) or EMPTY, class_color(tree, cls)) for cls, code in zip(tree.classes, class_codes(tree))]


def legend(tree: Tree, breadth: int = 1) -> str | None:
    """The classes' legend, once per drawing (None for regression): each class's colour swatch,
    code and name (the code alone when it is the name), as many to a line as fit the width of
    `breadth` nodes side by side (the drawing's leaves: a legend never widens a drawing, and on a
    wide one takes fewer lines)."""
    if tree.is_regression or not tree.classes:
        return None
    entries = []
    for cls, code in zip(tree.classes, class_codes(tree)):
        name = shown(cls) or EMPTY
        # the space after the code ends the bold text (SVG drops a text's leading space)
        text = f"<B>{escape(code)}</B>" if code == name else f"<B>{escape(code)}&nbsp;</B>{escape(name)}"
        swatch = f'<TD BGCOLOR="{class_color(tree, cls)}" WIDTH="{TEXT_PT}" HEIGHT="{TEXT_PT}" FIXEDSIZE="TRUE"></TD>'
        entries.append((len(name if code == name else f"{code} {name}") + 3, f'{swatch}<TD ALIGN="LEFT">{text}</TD>'))
    per_line = max(1, min(breadth, LEGEND_NODES) * NODE_CHARS // max(size for size, _ in entries))
    rows = "".join("<TR>" + GAP.join(cell for _, cell in entries[i:i + per_line]) + "</TR>"
                   for i in range(0, len(entries), per_line))
    return f'<TABLE BORDER="0" CELLSPACING="4" CELLPADDING="0">{rows}</TABLE>'
