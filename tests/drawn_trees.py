"""How a test reads the trees a page draws (AppTest's `App.trees()` in tests/app/conftest.py).

With Graphviz's `dot` installed the pages send the tree as an SVG image laid out on the server
(a markdown image with a base64 data URL); without it they send the DOT source and the browser
lays it out (pages/drawing.py). These helpers read both, so the page tests hold either way.
"""

from __future__ import annotations

import base64
import html
import re

from pages.drawing import ALT, tree_svg

IMAGE = re.compile(rf"!\[{ALT}\]\(data:image/svg\+xml;base64,([A-Za-z0-9+/]+=*)\)")
SIZE = re.compile(r'<svg width="\d+px" height="\d+px" ')


def image_svg(markdown: str) -> str | None:
    """The SVG document of a markdown element that is exactly one tree image, else None."""
    image = IMAGE.fullmatch(markdown)
    return base64.b64decode(image[1], validate=True).decode("utf-8") if image else None


def svg_rest(svg: str) -> str:
    """An SVG document without its size (the part `drawn` gives), after checking the size is there."""
    size = SIZE.match(svg)
    assert size, svg[:80]
    return svg[size.end():]


def drawn(dot: str) -> str:
    """What a page draws for a tree's DOT source: the SVG that `dot` lays out (after its <svg>
    tag's own attributes, which set its size on the page), or, where the `dot` program is not
    installed, the DOT source itself (the browser draws it)."""
    drawing = tree_svg(dot)
    return drawing.rest if drawing else dot


def all_lines(tree: str) -> list[str]:
    """Every text line of a drawn tree (`App.trees`): SVG text or DOT labels."""
    if tree.lstrip().startswith("digraph"):
        labels = re.findall(r"label=<(.*)>[,\]]", tree)
        return [html.unescape(re.sub(r"<[^>]+>", "", line)) for label in labels for line in label.split("<BR/>")]
    return [html.unescape(text) for text in re.findall(r"<text [^>]*>([^<]*)</text>", tree)]


NODE_NUMBER = re.compile(r"node (\d+)")


def tree_lines(tree: str) -> list[str]:
    """The text lines of a drawn tree as they read, without the node numbers above each label."""
    return [line for line in all_lines(tree) if not NODE_NUMBER.fullmatch(line)]


def node_numbers(tree: str) -> list[int]:
    """The node numbers drawn above the labels ("node 7"), in drawing order."""
    return [int(m[1]) for line in all_lines(tree) if (m := NODE_NUMBER.fullmatch(line))]


def node_count(tree: str) -> int:
    if tree.lstrip().startswith("digraph"):
        return len(re.findall(r"^\s*n\d+ \[label=<", tree, re.M))
    return tree.count('class="node"')
