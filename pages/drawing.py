"""The tree laid out by Graphviz's `dot` on the server, as SVG (pages/stage.py shows it as an image).

Why on the server: st.graphviz_chart makes the browser download and compile a WebAssembly
Graphviz before it draws anything, which kept a shared link about a second longer from
showing its tree; and the stage needs the drawing's size to choose how much of a tree is
legible on the screen. Without the `dot` program the browser draws the tree itself.

Safety: an SVG shown as an image runs no script and loads nothing, and the page receives it
as base64 text. dtlearn.export HTML-escapes every name in the DOT source and `dot` writes
label text as XML-escaped SVG text, so a name stays text (tests/app/test_drawing.py).
"""

from __future__ import annotations

import base64
import functools
import hashlib
import threading
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import Callable

from streamlit.runtime.scriptrunner import get_script_run_ctx

import dtlearn
from dtlearn import framing, layout
from dtlearn.framing import PX_PER_PT, Laid  # noqa: F401 (PX_PER_PT: pages/stage.py reads it from here)
from pages import jobs, store

ALT = "decision tree"
SECONDS = 60  # a layout made off a page (a download, the next step prepared): as long as a page may wait


@dataclass(frozen=True)
class Drawing(Laid):
    """A tree laid out by `dot` (`dtlearn.framing.Laid`), as a page sends it to the browser."""

    def data_url(self) -> str:
        """The SVG at its natural size as a data URL (base64: only letters reach the page)."""
        return "data:image/svg+xml;base64," + base64.b64encode(self.svg().encode("utf-8")).decode("ascii")


@functools.lru_cache(maxsize=8)  # a big tree's PNG is megabytes
def render(dot: str, fmt: str) -> bytes | None:
    """The tree drawn by Graphviz's `dot` program, for downloads (None when it is not installed, or
    the drawing would take more than SECONDS). Called when the student clicks a download
    (st.download_button's deferred data), on a thread of its own: a plain cache, and a big tree's
    PNG is not made on every step."""
    if fmt == "png":
        dot = dot.replace("{", "{\n\tgraph [dpi=150]", 1)  # sharp on slides
    try:
        return layout.run_dot(dot, fmt, seconds=SECONDS)  # None: no `dot`, or it refused the source
    except dtlearn.TooCostly:
        return None


_DRAWINGS = store.Store(max_bytes=96 * 2**20, ttl=30 * 60)  # a 2,000-node tree's SVG is megabytes


def tree_svg(dot: str) -> Drawing | None:
    """The tree laid out as SVG (None when `dot` is not installed), kept in a store bounded in
    bytes (not Streamlit's cache: `prefetch` fills it from a background thread). A layout runs
    for the time its page has left (`dtlearn.layout`); past it, `TooCostly`, which is not kept: a
    visit with more time left may draw it."""
    key = hashlib.sha256(dot.encode()).digest()
    if key in _DRAWINGS:
        return _DRAWINGS.get(key, lambda: None)
    drawn = _layout(dot)
    _DRAWINGS.put(key, drawn)
    return drawn


tree_svg.cache_clear = _DRAWINGS.clear


def _layout(dot: str) -> Drawing | None:
    # None: no `dot`, or it refused the source (dtlearn's DOT passes it, tests/test_fuzz_files.py):
    # the browser draws it instead, never a traceback
    laid = framing.laid_out(dot)
    return None if laid is None else Drawing(laid.rest, laid.width, laid.height, laid.smallest_pt)


_BACKGROUND = ThreadPoolExecutor(max_workers=1, thread_name_prefix="dtlearn-prefetch", initializer=jobs.lower_priority)
_PENDING: dict[str, Future] = {}  # DOT source -> its layout under way in the background
_LOCK = threading.Lock()


def prefetch(dot: str, *more: Callable[[], object]) -> Future:
    """Lay out, in the background, a tree the student is likely to ask for next (the next step),
    and run `more` (e.g. the next candidate table), so that clicking Next finds them ready.
    dtlearn's trees are immutable, so they are safe to share. One worker: jobs run in order."""
    def job() -> None:
        try:
            with dtlearn.budget.within(dtlearn.Budget(wall=SECONDS)):
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


def this_session() -> str | None:
    """The id of the browser session whose script is running (None outside a script run)."""
    return getattr(get_script_run_ctx(), "session_id", None)


_AHEAD: dict[object, Future] = {}  # a session's work for its next click, not yet started


def in_background(work: Callable[[], object], session: object = None) -> Future:
    """Runs `work` on the prefetch thread (after the jobs before it), for at most SECONDS:
    preparing what the next click will need, off the script's thread. Given the `session` it
    prepares for, a job of that session's still waiting is dropped: a student clicking Next ten
    times queues one step's work, not ten."""
    def bounded() -> object:
        with dtlearn.budget.within(dtlearn.Budget(wall=SECONDS)):
            return work()

    future = _BACKGROUND.submit(bounded)
    if session is not None:
        with _LOCK:
            stale = _AHEAD.get(session)
            _AHEAD[session] = future
        if stale is not None:
            stale.cancel()  # no effect once it runs: it then ends within SECONDS
        future.add_done_callback(lambda done: _AHEAD.pop(session, None) if _AHEAD.get(session) is done else None)
    return future


def drawing_of(dot: str) -> Drawing | None:
    """The layout of `dot`: waits for it when the background is already at it (no second `dot`
    run), for as long as the page may wait; laid out here if the background could not."""
    pending = _PENDING.get(dot)
    while pending is not None and not wait([pending], timeout=layout.POLL).done:
        dtlearn.budget.check_time(dtlearn.budget.DRAWING)
    return tree_svg(dot)
