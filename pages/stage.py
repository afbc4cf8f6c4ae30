"""The stage: a tree drawn as large as the screen allows, and never smaller than the back row reads.

The browser measures the box the tree may take (pages/assets/stage.js: the column's width; on a
projector, and on a screen with room, the height left from the stage's top to the bottom of the
first screen, elsewhere most of a screen) and reports it; `fitted` then draws the most of the
tree whose smallest text is at least MIN_TEXT_PX on screen at the scale that fits the box: the
whole tree when it can, else the current node's neighbourhood, a few levels fewer each time
(dtlearn.export.neighbourhood), the rest folded into counted boxes. The same code that paints
the tree installs the clicker's keys and the full-screen viewer, so a key pressed the moment a
tree appears is never lost.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import streamlit as st

import dtlearn
from dtlearn.framing import (DRAWN_LEVELS, DRAWN_WHOLE, LEAF_PT, MARGIN_PX, MAX_SCALE,  # noqa: F401 (the rule's
                             MIN_TEXT_PX, TOP_NODES, VIEWS_AROUND, drawable_whole)  # numbers: one definition)
from dtlearn.framing import could_fit as _could_fit
from pages import drawing, session
from pages.drawing import PX_PER_PT, Drawing

# px: the box until the browser has said (AppTest; a first visit): a full-width stage's on a 1280x720
# screen, the sidebar open, most of a screen high (SLACK less); in projector mode the page's margins
# are narrower (projector.css), and a stage that fills the screen has the height left under the
# shortest page heading. A browser that measures such a box need not say it (stage.js), so a first
# visit on the classroom's projector runs the page once; on another screen it runs again for the
# box said, as before.
DEFAULT_BOX = (816, 496)
PROJECTOR_WIDTH, FILL_HEIGHT = 928, 416
ASSETS = Path(__file__).parent / "assets"  # the stage's style and scripts, as the browser reads them
_JS = (ASSETS / "stage.js").read_text(encoding="utf-8")
_component = None


@dataclass(frozen=True)
class Fitted:
    """What the stage draws: the DOT source, its layout (None without `dot`), the scale at which
    it fits the box, and whether the whole tree is drawn (nothing folded)."""

    dot: str
    drawing: Drawing | None
    scale: float
    visible: frozenset | None  # the nodes drawn (None: all of them)
    legend: tuple = ()  # (code, name, colour) of each class: said above the drawing, in the page's type

    @property
    def whole(self) -> bool:
        return self.visible is None

    @property
    def legible(self) -> bool:
        return self.drawing is None or text_px(self.drawing, self.scale) >= MIN_TEXT_PX + MARGIN_PX

    @property
    def height(self) -> float:
        return self.drawing.height * self.scale if self.drawing is not None else 0.0


def text_px(drawing: Drawing, scale: float) -> float:
    """The smallest text of a drawing on screen, in CSS px, drawn at `scale` times its natural size
    (its SVG is in points: 4/3 px each)."""
    return drawing.smallest_pt * PX_PER_PT * scale


def scale_in(drawing: Drawing, box: tuple[int, int], max_scale: float = MAX_SCALE) -> float:
    """The scale at which a drawing fits the box (as stage.js draws it)."""
    width, height = box
    return min(width / drawing.width, height / drawing.height, max_scale)


def _views(tree, node_id: int, box: tuple[int, int]):
    """The nodes to draw, most first: the whole tree (when it could be legible at all), then the
    node's neighbourhood with fewer levels below it, then with fewer ancestors."""
    if drawable_whole(tree) and _could_fit(tree, box):
        yield None
    for depth, path_levels, siblings, root in VIEWS_AROUND:
        yield dtlearn.export.neighbourhood(tree, node_id, depth, path_levels, siblings, root)


def fitted(tree, node_id: int, box: tuple[int, int], *, highlight: int | None = None, digits: int | None = 3,
           numbers: bool = True, highlights=(), whole: bool = False, max_scale: float = MAX_SCALE,
           also: frozenset = frozenset()) -> Fitted:
    """The most of `tree` around `node_id` that is legible in `box` (`whole`: the whole tree,
    legible or not: its top levels when too large to lay out at all); the nodes `also` are drawn
    in every view (an example's path) that is legible, else folded as the rest."""
    legend = tuple(dtlearn.node_labels.legend_entries(tree))

    def drawn(visible) -> Fitted:
        if visible is not None and also:
            visible = visible | also
        # the legend in the page, wrapped to the box's width: in the drawing it took a line per class
        # where the drawing was narrow, and height is what a projector's box lacks
        dot = tree.to_dot(highlight=highlight, digits=digits, numbers=numbers, highlights=highlights,
                          visible=visible, legend=not legend)
        layout = drawing.drawing_of(dot)
        if layout is None:  # no `dot`: the browser lays out the DOT, legend and all (st.graphviz_chart)
            dot = tree.to_dot(highlight=highlight, digits=digits, numbers=numbers, highlights=highlights,
                              visible=visible)
            return Fitted(dot, None, 1.0, visible)
        return Fitted(dot, layout, scale_in(layout, box, max_scale), visible, legend)

    if whole:
        return drawn(None if drawable_whole(tree) else dtlearn.export.top_levels(tree, TOP_NODES))
    tried, last, refused = set(), None, None
    for visible in _views(tree, node_id, box):
        if visible is not None and (visible in tried or len(visible) >= tree.n_nodes or len(visible) > DRAWN_WHOLE):
            continue  # the same nodes again (a shallow tree), every node, or too many (a 50,000-way split)
        tried.add(visible)
        try:
            last = drawn(visible)
        except dtlearn.TooCostly as refusal:  # no time left for this layout: a smaller view may have it
            refused = refusal
            continue
        if last.legible:
            return last
    if last is None and refused is not None:
        raise refused
    if also:  # legible first: the nodes `also` that do not fit are folded like the rest
        return fitted(tree, node_id, box, highlight=highlight, digits=digits, numbers=numbers,
                      highlights=highlights, max_scale=max_scale)
    return last if last is not None else drawn(None)


# the box ----------------------------------------------------------------------------------------

BOXES = "stage_boxes"  # session state: each stage's last box, as the browser measured it
# px: a step's decision takes one to three lines above the tree, so the box the browser measures
# changes from step to step. The tree is chosen for a box this much shorter than measured (and
# drawn as large as the real box allows): the browser need not report a new box, and the page run
# again, at every step; a run started by a report as a key is pressed could lose the key.
SLACK = 80


GAP = 32  # px: between st.columns(gap="medium") (2rem)
STEP = 8  # px: stage.js rounds a box down to this


def measured(name: str, columns: int = 1) -> tuple[int, int] | None:
    """The box the browser last measured for the stage `name`; else, from a stage as wide as the
    page on another page (same screen), the box of one of `columns` columns side by side."""
    boxes = st.session_state.setdefault(BOXES, {})
    known = boxes.get(name)
    if known:
        return tuple(known)
    known = boxes.get("_last")
    return (share(known[0], columns), known[1]) if known else None


def share(width: int, columns: int) -> int:
    """The width of one of `columns` columns across `width` px, a STEP narrower than measured would
    be (so that a browser's rounding finds it no wider than it is: no report, no rerun)."""
    if columns == 1:
        return width
    return max((width - GAP * (columns - 1)) // columns // STEP * STEP - STEP, 80)


def box(name: str, columns: int = 1, fill: bool | None = None) -> tuple[int, int]:
    """The box the stage `name`'s tree is chosen for: the measured one, SLACK shorter (until the
    browser has said: the default's, shared between `columns`; `fill` as for `show`)."""
    known = measured(name, columns)
    if not known:
        projector = session.projector()
        width = PROJECTOR_WIDTH if projector else DEFAULT_BOX[0]
        height = FILL_HEIGHT if projector and fill is not False else DEFAULT_BOX[1]
        return share(width, columns), height
    return known[0], max(known[1] - SLACK, 120)


def _measured(name: str, boxed: str, columns: int) -> None:
    value = getattr(st.session_state.get(f"stage_{name}"), "box", None)
    if _valid(value):
        boxes = st.session_state.setdefault(BOXES, {})
        boxes[boxed] = (int(value[0]), int(value[1]))
        if columns == 1:  # a stage as wide as the page: the next page's stages start from it
            boxes["_last"] = boxes[boxed]


def _valid(value) -> bool:
    """A box from the browser: two whole numbers of pixels in a sane range (never trusted blindly)."""
    return (isinstance(value, (list, tuple)) and len(value) == 2
            and all(isinstance(v, (int, float)) and 80 <= v <= 20_000 for v in value))


def mode() -> str:
    """'fill': the tree takes the rest of the first screen (projector); 'rest': the same where that
    is a good share of the screen, else most of a screen (stage.js)."""
    return "fill" if session.projector() else "rest"


def show(name: str, shown: Fitted, reserve: float | None = None, scale: float | None = None,
         fill: bool | None = None, boxed: str | None = None, reports: bool = True, columns: int = 1) -> bool:
    """The stage `name` drawing `shown`; `reserve` keeps that much height for the tree (px) so that
    what is below stays put while stepping; `scale` draws at that scale instead of fitting (the
    Compare page's trees, all at one scale); `fill=False` keeps a projector's stage to most of a
    screen (trees one above another). `boxed`: the name of the box the tree was chosen for (several
    stages of one size share one); `reports=False`: the stage fits its tree to the box it measures
    but leaves saying that box to another stage of the same size (one report, so one rerun);
    `columns`: the stage is one of that many columns side by side (its first box: a share of the page's).
    Returns whether `dot` laid the tree out (False: the browser draws it from the DOT source)."""
    global _component
    if shown.drawing is None:
        st.graphviz_chart(shown.dot, width="stretch")
        return False
    if _component is None:
        _component = st.components.v2.component("dtlearn_stage", html=_HTML,
                                                css=_CSS, js=_JS, isolate_styles=False)
    boxed = boxed or name
    data = {"src": shown.drawing.data_url(), "width": round(shown.drawing.width, 2),
            "height": round(shown.drawing.height, 2), "max_scale": MAX_SCALE, "box": list(box(boxed, columns, fill)),
            "measured": list(measured(boxed, columns) or box(boxed, columns, fill)), "slack": SLACK, "reports": reports,
            "mode": mode() if fill is None else ("fill" if fill else "screen"),
            "reserve": round(reserve) if reserve else None, "scale": scale, "alt": drawing.ALT,
            "legend": [list(entry) for entry in shown.legend]}
    _component(key=f"stage_{name}", data=data, on_box_change=lambda: _measured(name, boxed, columns), height="content")
    return True


_HTML = '<div class="dtlearn-stage"><div class="dtlearn-legend" role="list" aria-label="Classes"></div><img></div>'
_CSS = (ASSETS / "stage.css").read_text(encoding="utf-8")


# a click on a node ------------------------------------------------------------------------------

# On a page that shows a node's details (the Tree page), a click on a drawn node picks it: the
# stage's hit test (stage.js) calls window.__dtlearnPickNode, which this component registers.
_PICKER_JS = (ASSETS / "picker.js").read_text(encoding="utf-8")
PICKER = "node_picker"  # its widget key
_picker = None


def node_picker(nodes, on_pick) -> None:
    """Clicks on the drawn tree's nodes call `on_pick(node id)` for a node of `nodes` (a callback,
    before the rerun); whatever else the browser sends (a console can send anything) is ignored."""
    global _picker
    if _picker is None:
        _picker = st.components.v2.component("dtlearn_node_picker", js=_PICKER_JS)
    _picker(key=PICKER, on_node_change=lambda: _on_pick(nodes, on_pick))


def _on_pick(nodes, on_pick) -> None:
    node = picked(getattr(st.session_state.get(PICKER), "node", None), nodes)
    if node is not None:
        on_pick(node)


def picked(value, nodes) -> int | None:
    """A node picked in the browser: a whole number (not a flag, a text, a list or an object) that
    is one of `nodes`; None for anything else."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if isinstance(value, float) and not value.is_integer():  # (NaN and infinities are not either)
        return None
    return int(value) if int(value) in nodes else None


# the projector's two views of a step, and the whole tree on request ---------------------------

VIEWS = ("Tree", "Numbers")
VIEW = "stage_view"  # session state and link parameter


def view_ui(where) -> None:
    """The projector's choice of what the stage shows: the tree, or the step's numbers (its
    candidate table and formulas). Keys: T, N, and a clicker's blank-screen key (B or .) switches."""
    if st.session_state.get(VIEW) not in VIEWS:
        st.session_state[VIEW] = VIEWS[0]
    where.segmented_control("Show on the stage", VIEWS, key=VIEW, required=True, label_visibility="collapsed",
                            width="stretch", help="T: the tree · N: the candidate table and the formulas · "
                                                  "B or . (a clicker's blank-screen key) switches")


def view() -> str:
    """'numbers' when the projector's stage shows the step's numbers, else 'tree'."""
    return "numbers" if session.projector() and st.session_state.get(VIEW) == VIEWS[1] else "tree"


WHOLE = "tree_view"  # session state and link parameter: "the whole tree", or fitted around the node
TREE_VIEWS = FITTED, WHOLE_TREE = ("around this node", "the whole tree")


def wants_whole() -> bool:
    """Whether the student asked for the whole tree (never on a projector: its tree is for reading)."""
    return not session.projector() and st.session_state.get(WHOLE) == WHOLE_TREE


def whole_ui(where, tree, shown: Fitted) -> None:
    """When the stage folds part of the tree (or the student asked for it whole): the choice
    between the legible view around the node and the whole tree, at whatever size it fits."""
    if session.projector() or (shown.whole and not wants_whole()):
        return
    if st.session_state.get(WHOLE) not in TREE_VIEWS:
        st.session_state[WHOLE] = FITTED
    left, right = where.columns([2, 3], vertical_alignment="center")
    left.segmented_control(f"This tree has {tree.n_nodes} nodes: draw", TREE_VIEWS, key=WHOLE, required=True)
    if wants_whole() and not drawable_whole(tree):
        right.caption(f"Too large to lay out whole ({tree.n_nodes} nodes, {tree.depth} levels): its top levels are "
                      "drawn, the rest folded into counted boxes.")
    elif wants_whole():
        right.caption("Drawn whole at the size that fits: click it for full screen and zoom.")
    else:
        right.caption("The nodes around this one, as large as the back row reads; grey boxes count what is folded.")


def reserve(name: str, tree, digits: int | None) -> float | None:
    """The height the complete tree takes on this stage (px): kept for every step, so that what
    is below the tree does not move while stepping (a projector's stage fills the screen anyway)."""
    if session.projector():
        return None
    return fitted(tree, tree.root.id, box(name), digits=digits).height
