"""How much of a tree a screen of a given size shows legibly: the projector's rule, without a page.

A tree is drawn whole when its smallest text is at least MIN_TEXT_PX on screen at the scale
that fits the box; else the current node's neighbourhood (`export.neighbourhood`), a few levels
fewer each time, the rest folded into counted boxes. The app's stage (pages/stage.py) measures
its box in the browser; a slide (`slides`) is a box of known size. Layouts are Graphviz's `dot`
(`layout.run_dot`), measured from the SVG it writes.

>>> import dtlearn
>>> tree = dtlearn.fit(dtlearn.load_dataset("tennis"), "id3")
>>> framed(tree, 0, (1216, 520)).whole   # five leaves: the whole tree reads at 14 px
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from . import export, layout

PX_PER_PT = 4 / 3  # the SVG `dot` writes is in points; a CSS px is 3/4 of one
MIN_TEXT_PX = 14  # below this, nobody past the first rows of a lecture hall reads a label
MARGIN_PX = 0.1  # the browser draws sizes rounded to its pixels: legible by a little more than the rule
MAX_SCALE = 1.6  # a small tree is enlarged up to this (its text about 30 px), not blown up to fill a wall
# Beyond either, `dot` takes seconds to minutes to lay a tree out: "the whole tree" then draws its top levels.
DRAWN_WHOLE = 1000  # nodes
DRAWN_LEVELS = 100
TOP_NODES = 150  # the top levels of a tree too large to draw whole
LEAF_PT = 48  # no leaf label is narrower: a lower bound of a whole tree's width
# (levels below the node, ancestors kept, their other children drawn, the root drawn), most first:
# the last views are the node and its new children, the levels above folded into one counted box
VIEWS_AROUND = ((3, 6, True, True), (2, 6, True, True), (1, 6, True, True), (1, 3, True, True),
                (1, 3, False, True), (1, 1, False, True), (1, 1, False, False), (1, 0, False, False),
                (0, 0, False, False))

_HEAD = re.compile(r'<svg width="([\d.]+)pt" height="([\d.]+)pt"\s')
_NOISE = re.compile(r"<!--.*?-->|<title>.*?</title>", re.S)  # comments repeat names; titles are tooltips "n3"
_FONT_SIZE = re.compile(r'<text [^>]*font-size="([\d.]+)"')


@dataclass(frozen=True)
class Laid:
    """A tree laid out by `dot`: the SVG after its tag's width and height (`rest`), its natural
    size in CSS px, and its smallest font size in points."""

    rest: str
    width: float
    height: float
    smallest_pt: float = float(export.SMALLEST_PT)

    def svg(self, scale: float = 1.0) -> str:
        """The SVG element, `scale` times its natural size."""
        return f'<svg width="{self.width * scale:.0f}px" height="{self.height * scale:.0f}px" {self.rest}'

    def text_px(self, scale: float) -> float:
        """The smallest text on screen at `scale`, in CSS px."""
        return self.smallest_pt * PX_PER_PT * scale


def laid_out(dot: str) -> Laid | None:
    """The DOT laid out as SVG by `dot` (None when `dot` is not installed or refuses it; raises
    `budget.TooCostly` past the time or memory a layout may take)."""
    output = layout.run_dot(dot, "svg")
    if output is None:
        return None
    svg = output.decode("utf-8")
    svg = _NOISE.sub("", svg[svg.index("<svg"):])
    head = _HEAD.match(svg)
    sizes = [float(size) for size in _FONT_SIZE.findall(svg)]
    return Laid(" ".join(svg[head.end():].split()), float(head[1]) * PX_PER_PT, float(head[2]) * PX_PER_PT,
                min(sizes) if sizes else float(export.SMALLEST_PT))


def scale_in(laid: Laid, box: tuple[float, float], max_scale: float = MAX_SCALE) -> float:
    """The scale at which a drawing fits the box."""
    width, height = box
    return min(width / laid.width, height / laid.height, max_scale)


def drawable_whole(tree) -> bool:
    return tree.n_nodes <= DRAWN_WHOLE and tree.depth <= DRAWN_LEVELS


def could_fit(tree, box: tuple[float, float]) -> bool:
    """False when the whole tree's leaves alone, side by side, pass the box's width at the
    smallest legible scale (no need to lay it out: a 400-leaf tree takes `dot` seconds)."""
    least = MIN_TEXT_PX / (export.SMALLEST_PT * PX_PER_PT)
    return tree.n_leaves * LEAF_PT * PX_PER_PT * least <= box[0]


def views(tree, node_id: int, box: tuple[float, float]):
    """The nodes to draw, most first: the whole tree (None, when it could be legible at all), then
    the node's neighbourhood with fewer levels below it, then with fewer ancestors; each set once,
    and none that is every node or more than DRAWN_WHOLE."""
    if drawable_whole(tree) and could_fit(tree, box):
        yield None
    tried = set()
    for depth, path_levels, siblings, root in VIEWS_AROUND:
        visible = export.neighbourhood(tree, node_id, depth, path_levels, siblings, root)
        if visible in tried or len(visible) >= tree.n_nodes or len(visible) > DRAWN_WHOLE:
            continue  # the same nodes again (a shallow tree), every node, or too many (a 50,000-way split)
        tried.add(visible)
        yield visible


@dataclass(frozen=True)
class Framed:
    """What a box shows of a tree: the DOT, its layout (None without `dot`), the scale that fits
    the box, and the nodes drawn (None: all of them)."""

    dot: str
    laid: Laid | None
    scale: float
    visible: frozenset | None

    @property
    def whole(self) -> bool:
        return self.visible is None

    @property
    def legible(self) -> bool:
        return self.laid is None or self.laid.text_px(self.scale) >= MIN_TEXT_PX + MARGIN_PX


def framed(tree, node_id: int, box: tuple[float, float], *, highlight: int | None = None, digits: int | None = 3,
           numbers: bool = True, max_scale: float = MAX_SCALE) -> Framed:
    """The most of `tree` around `node_id` that is legible in `box` (CSS px), the classes' legend
    inside the drawing; the last, smallest view when none is."""
    def drawn(visible) -> Framed:
        dot = tree.to_dot(highlight=highlight, digits=digits, numbers=numbers, visible=visible)
        laid = laid_out(dot)
        return Framed(dot, laid, scale_in(laid, box, max_scale) if laid is not None else 1.0, visible)

    last = None
    for visible in views(tree, node_id, box):
        last = drawn(visible)
        if last.legible:
            return last
    if last is None:  # nothing smaller than the whole to try: a tree too large is drawn from the top
        last = drawn(None if drawable_whole(tree) else export.top_levels(tree, TOP_NODES))
    return last
