"""The tree on a page: laid out by Graphviz's `dot` on the server, sent as an SVG image.

Why on the server: st.graphviz_chart makes the browser download and compile a WebAssembly
Graphviz before it draws anything, which kept a shared link about a second longer from
showing its tree. Why an image in plain markdown (`![decision tree](data:image/svg+xml;...)`):
the markdown code is in the bundle every page loads, while inline SVG (markdown with HTML)
waits for a 190 KB HTML-parsing chunk queued behind the page's other chunks; the image
painted about 0.3 s sooner on a fresh browser. Without the `dot` program the browser draws
the tree itself, as before.

Safety: an SVG shown as an image runs no script and loads nothing, and the markdown carries
only base64 text. dtlearn.export HTML-escapes every name in the DOT source and `dot` writes
label text as XML-escaped SVG text, so a name stays text (tests/app/test_drawing.py).
"""

from __future__ import annotations

import base64
import functools
import hashlib
import html
import re
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Callable

import graphviz
import streamlit as st

from pages import store

PX_PER_PT = 4 / 3
_HEAD = re.compile(r'<svg width="([\d.]+)pt" height="([\d.]+)pt"\s')
_NOISE = re.compile(r"<!--.*?-->|<title>.*?</title>", re.S)  # comments repeat names; titles are tooltips "n3"
_FONT_SIZE = re.compile(r'<text [^>]*font-size="([\d.]+)"')
ALT = "decision tree"


@dataclass(frozen=True)
class Drawing:
    """A tree laid out by `dot`, and its natural size in px. `rest` is the SVG after its tag's
    width and height."""

    rest: str
    width: float
    height: float
    smallest_pt: float = 14.0  # the smallest font size of its text, in the SVG's units (points)

    def svg(self, scale: float = 1.0) -> str:
        """The SVG document, `scale` times its natural size."""
        return f'<svg width="{self.width * scale:.0f}px" height="{self.height * scale:.0f}px" {self.rest}'

    def data_url(self) -> str:
        """The SVG at its natural size as a data URL (base64: only letters reach the page)."""
        return "data:image/svg+xml;base64," + base64.b64encode(self.svg().encode("utf-8")).decode("ascii")

    def markdown(self, max_scale: float) -> str:
        """The tree as a markdown image. Its size is `max_scale` times the natural one; the page
        shrinks an image to its column, so a tree fills the column up to that scale."""
        data = base64.b64encode(self.svg(max_scale).encode("utf-8")).decode("ascii")
        return f"![{ALT}](data:image/svg+xml;base64,{data})"


@functools.lru_cache(maxsize=8)  # a big tree's PNG is megabytes
def render(dot: str, fmt: str) -> bytes | None:
    """The tree drawn by Graphviz's `dot` program, for downloads (None when it is not installed).
    Called when the student clicks a download (st.download_button's deferred data), on a thread
    of its own: a plain cache, and a big tree's PNG is not made on every step."""
    if fmt == "png":
        dot = dot.replace("{", "{\n\tgraph [dpi=150]", 1)  # sharp on slides
    try:
        return graphviz.Source(dot).pipe(format=fmt)
    except (graphviz.ExecutableNotFound, graphviz.CalledProcessError):  # no `dot`, or it refused the source
        return None


_DRAWINGS = store.Store(max_bytes=96 * 2**20, ttl=30 * 60)  # a 2,000-node tree's SVG is megabytes


def tree_svg(dot: str) -> Drawing | None:
    """The tree laid out as SVG (None when `dot` is not installed), kept in a store bounded in
    bytes (not Streamlit's cache: `prefetch` fills it from a background thread)."""
    return _DRAWINGS.get(hashlib.sha256(dot.encode()).digest(), lambda: _layout(dot))


tree_svg.cache_clear = _DRAWINGS.clear


def _layout(dot: str) -> Drawing | None:
    try:
        svg = graphviz.Source(dot).pipe(format="svg", encoding="utf-8")
    except (graphviz.ExecutableNotFound, graphviz.CalledProcessError):
        # no `dot`; or it refused the source (dtlearn's DOT passes it, tests/test_fuzz_files.py):
        # the browser draws it instead, never a traceback
        return None
    svg = _NOISE.sub("", svg[svg.index("<svg"):])
    head = _HEAD.match(svg)
    sizes = [float(size) for size in _FONT_SIZE.findall(svg)]
    return Drawing(" ".join(svg[head.end():].split()), float(head[1]) * PX_PER_PT, float(head[2]) * PX_PER_PT,
                   min(sizes) if sizes else 14.0)


_BACKGROUND = ThreadPoolExecutor(max_workers=1, thread_name_prefix="dtlearn-prefetch")
_PENDING: dict[str, Future] = {}  # DOT source -> its layout under way in the background
_LOCK = threading.Lock()


def prefetch(dot: str, *more: Callable[[], object]) -> Future:
    """Lay out, in the background, a tree the student is likely to ask for next (the next step),
    and run `more` (e.g. the next candidate table), so that clicking Next finds them ready.
    dtlearn's trees are immutable, so they are safe to share. One worker: jobs run in order."""
    def job() -> None:
        try:
            tree_svg(dot)
            for work in more:
                work()
        finally:
            with _LOCK:  # after prefetch has registered the job (it holds the lock meanwhile)
                _PENDING.pop(dot, None)

    with _LOCK:
        if dot in _PENDING:  # already under way
            return _PENDING[dot]
        future = _PENDING[dot] = _BACKGROUND.submit(job)
    return future


def in_background(work: Callable[[], object]) -> Future:
    """Runs `work` on the prefetch thread (after the jobs before it): preparing what the next
    click will need, off the script's thread."""
    return _BACKGROUND.submit(work)


def drawing_of(dot: str) -> Drawing | None:
    """The layout of `dot`: waits for it when the background is already at it (no second `dot` run)."""
    pending = _PENDING.get(dot)
    if pending is not None:
        pending.result()
    return tree_svg(dot)


def tree_chart(dot: str, column_px: int = 900, max_scale: float = 1.6) -> bool:
    """The tree, as large as a projector needs: it fills the column's width, but a small tree
    is not blown up beyond `max_scale` times its natural size. Returns whether `dot` laid it out
    (False: the browser draws it, and `render` has no pictures to offer)."""
    drawing = drawing_of(dot)
    if drawing is not None:
        st.markdown(drawing.markdown(max_scale), text_alignment="center")
        return True
    width, height = estimated_size(dot)
    scale = min(max_scale, column_px / width)
    st.graphviz_chart(dot, width="stretch", height=max(int(height * scale), 80))
    return False


# Without `dot`: st.graphviz_chart needs a height, estimated from the DOT source ---------------

CHAR_PT, GAP_PT, BOX_PT, RANK_PT = 5.5, 21.6, 51.0, 38.0  # Helvetica 12 and the core's DOT spacing


def _label_lines(line: str) -> list[str]:
    """The text lines of a node's HTML-like label in a DOT line (tags dropped, entities read)."""
    start = line.index("label=<") + len("label=<")
    depth, end = 1, start
    while depth and end < len(line):
        depth += {"<": 1, ">": -1}.get(line[end], 0)
        end += 1
    label = re.sub(r"<BR/>", "\n", line[start:end - 1])
    return html.unescape(re.sub(r"<[^>]+>", "", label)).split("\n")


@st.cache_data(show_spinner=False, max_entries=512)
def estimated_size(dot: str) -> tuple[float, float]:
    """Roughly the width and height (px) Graphviz lays a tree out at, read from its DOT source
    (a subtree is as wide as its widest label or its children side by side)."""
    widths, children, parent_of = {}, {}, {}
    for line in dot.splitlines():
        edge = re.match(r"\s*n(\d+) -> n(\d+)", line)
        node = re.match(r"\s*n(\d+) \[label=<", line)
        if edge:
            children.setdefault(edge[1], []).append(edge[2])
            parent_of[edge[2]] = edge[1]
        elif node:
            widths[node[1]] = max(len(text) for text in _label_lines(line)) * CHAR_PT + 16
    if not widths:
        return 100.0, 70.0

    root = next(n for n in widths if n not in parent_of)
    order, stack = [], [root]
    while stack:  # pre-order without recursion (a tree may be thousands of levels deep)
        n = stack.pop()
        order.append(n)
        stack.extend(children.get(n, []))
    span: dict[str, tuple[float, int]] = {}  # (width, levels) of the subtree under each node
    for n in reversed(order):
        kids = [span[c] for c in children.get(n, [])]
        span[n] = (widths[n], 1) if not kids else (
            max(widths[n], sum(k[0] for k in kids) + GAP_PT * (len(kids) - 1)), 1 + max(k[1] for k in kids))
    width, levels = span[root]
    return (width + 8) * 4 / 3, (levels * BOX_PT + (levels - 1) * RANK_PT + 8) * 4 / 3
