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


def _dot_labels(dot: str) -> list[tuple[str, str]]:
    """(statement, HTML-like label) of every label in DOT source, in order: 'node' for a node
    (n3, or a folded box h7), 'edge', 'graph' (the legend)."""
    found = []
    for line in dot.splitlines():
        if "label=<" not in line:
            continue
        start = line.index("label=<") + len("label=<")
        depth, end = 1, start
        while depth:
            depth += {"<": 1, ">": -1}.get(line[end], 0)
            end += 1
        kind = "edge" if "->" in line[:start] else "graph" if line.lstrip().startswith("graph ") else "node"
        found.append((kind, line[start:end - 1]))
    return found


_CELL = re.compile(r"<TD[^>]*>((?:(?!<TD|</TD>).)*)</TD>")  # a table cell holding no other cell


def _label_lines(label: str) -> list[str]:
    """The text lines of an HTML-like label: a line ends at a <BR/> or a table row's end, and
    the cells of a line are read with a space between them."""
    lines = []
    for chunk in re.split(r"<BR[^>]*>|</TR>", label):
        cells = _CELL.findall(chunk) or [chunk]
        texts = (html.unescape(re.sub(r"<[^>]+>", "", cell)).replace("\xa0", " ").strip() for cell in cells)
        lines.append(" ".join(text for text in texts if text))
    return [line for line in lines if line]


_SVG_PIECE = re.compile(r'<g id="[^"]*" class="(node|edge|graph|cluster)"[^>]*>'
                        r'|<text [^>]*\by="([-\d.]+)"[^>]*>([^<]*)</text>')


def _svg_labels(svg: str) -> list[tuple[str, list[str]]]:
    """(kind, lines) of every node, edge and the graph (its label: the legend) in an SVG laid out by
    `dot`, in order; a line is the texts of one group drawn at one height, a space between them
    (`dot` writes each cell of a label's table row as a text: `node 4`, `· Gini 0.168`)."""
    groups: list[tuple[str, list[str]]] = []
    last_y = None
    for piece in _SVG_PIECE.finditer(svg):
        if piece[1]:
            groups.append((piece[1], []))
            last_y = None
            continue
        text = html.unescape(piece[3]).replace("\xa0", " ").strip()  # (`dot` writes two spaces as " \xa0")
        if groups and piece[2] == last_y:
            groups[-1][1][-1] += " " + text
        elif groups:
            groups[-1][1].append(text)
        last_y = piece[2]
    return [(kind, [line.strip() for line in lines if line.strip()]) for kind, lines in groups]


def labels(tree: str, kind: str = "node") -> list[list[str]]:
    """The text lines of each node's label (`kind`: or each edge's, or the graph's legend), in
    drawing order, from SVG text or DOT source."""
    if tree.lstrip().startswith("digraph"):
        return [_label_lines(label) for found, label in _dot_labels(tree) if found == kind]
    return [lines for found, lines in _svg_labels(tree) if found == kind]


def all_lines(tree: str) -> list[str]:
    """Every text line of a drawn tree (`App.trees`): SVG text or DOT labels."""
    if tree.lstrip().startswith("digraph"):
        return [line for _, label in _dot_labels(tree) for line in _label_lines(label)]
    return [line for _, lines in _svg_labels(tree) for line in lines]


NODE_NUMBER = re.compile(r"node (\d+)(?: · |$)")  # a label's first line: `node 4 · Gini 0.168`


def tree_lines(tree: str) -> list[str]:
    """The text lines of a drawn tree as they read, without the node numbers heading each label."""
    lines = (NODE_NUMBER.sub("", line, count=1) if NODE_NUMBER.match(line) else line for line in all_lines(tree))
    return [line for line in lines if line]


def node_numbers(tree: str) -> list[int]:
    """The node numbers heading the labels ("node 7"), in drawing order."""
    return [int(m[1]) for line in all_lines(tree) if (m := NODE_NUMBER.match(line))]


def node_count(tree: str) -> int:
    if tree.lstrip().startswith("digraph"):
        return len(re.findall(r"^\s*n\d+ \[label=<", tree, re.M))
    return tree.count('class="node"')
