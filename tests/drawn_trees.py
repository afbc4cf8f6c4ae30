"""How a test reads the trees a page draws (AppTest's `App.trees()` in tests/app/conftest.py).

With Graphviz's `dot` installed the pages send the tree as inline SVG laid out on the server;
without it they send the DOT source and the browser lays it out (pages/drawing.py). These
helpers read both, so the page tests hold either way.
"""

from __future__ import annotations

import html
import re

from pages.drawing import tree_svg


def drawn(dot: str) -> str:
    """What a page draws for a tree's DOT source: the SVG that `dot` lays out (after its <svg>
    tag's own attributes, which set its size on the page), or, where the `dot` program is not
    installed, the DOT source itself (the browser draws it)."""
    drawing = tree_svg(dot)
    return drawing.rest if drawing else dot


def tree_lines(tree: str) -> list[str]:
    """The text lines of a drawn tree (`App.trees`), as they read: SVG text or DOT labels."""
    if tree.lstrip().startswith("digraph"):
        labels = re.findall(r"label=<(.*)>[,\]]", tree)
        return [html.unescape(re.sub(r"<[^>]+>", "", line)) for label in labels for line in label.split("<BR/>")]
    return [html.unescape(text) for text in re.findall(r"<text [^>]*>([^<]*)</text>", tree)]


def node_count(tree: str) -> int:
    if tree.lstrip().startswith("digraph"):
        return len(re.findall(r"^\s*n\d+ \[label=<", tree, re.M))
    return tree.count('class="node"')
