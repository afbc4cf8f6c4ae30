"""How much work one computation may do, and how far it has come.

The library is unbounded by default: a script that fits a 12-million-node tree gets it. A
caller that serves many people (the Streamlit app sets one `Budget`, in pages/computing.py)
wraps each computation in `within(budget)`. The loops of growing, pruning and cross-validation
call `check_time`, `check_nodes` and `check_cells` before the work they would do, and past a
limit raise `TooCostly`: a `DataError` that names the settings that would make the work cheaper.
Checking before allocating is what keeps memory bounded: a level of 12 million nodes is refused
while it is still a count.

The same context carries an optional progress callback (`report`), so a page can show how far
reading, encoding and growing have come without the library knowing about pages.

>>> from dtlearn import fit, load_dataset
>>> with within(Budget(nodes=5)):
...     fit(load_dataset("iris"), "cart")
Traceback (most recent call last):
...
dtlearn.budget.TooCostly: This tree would have ... nodes or more, past the 5 allowed here. ...
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from .data import DataError

# What makes each kind of work cheaper, in the sidebar's words.
GROWING = "Set a Max depth, raise the Min leaf size, or mark many-valued columns as 'ignore'"
SUBSETS = "Choose a smaller Largest value set |V|, or mark the column as 'ignore'"
REPEATED = "Use fewer folds or a smaller sample of the rows"
DRAWING = "Draw less of the tree: set a Max depth, raise the Min leaf size, or mark many-valued columns as 'ignore'"
WORKSHEET = "Choose fewer steps, or mark columns as 'ignore'"


@dataclass(frozen=True)
class Budget:
    """Limits of one computation; None: no limit."""

    seconds: float | None = None  # processor time of the computing thread
    nodes: int | None = None  # nodes of one tree
    cells: int | None = None  # numbers a tree keeps per node, summed: nodes x classes (each a Python float)
    wall: float | None = None  # seconds on the wall's clock, waiting included (a page: what a student waits)
    bytes: int | None = None  # memory one step may allocate at once (a node's subsets, the rows' class weights)


class TooCostly(DataError):
    """The computation would pass its budget; the message says what would make it cheaper."""


class Cancelled(Exception):
    """The caller no longer wants the result (its `cancelled()` said so): not the data's fault,
    so not a DataError, and not kept as a refusal."""


@dataclass(eq=False)
class _Context:
    budget: Budget
    deadline: float
    report: object  # callable(stage: str, done: float | None, detail: str) or None
    seconds: float | None = None  # what this block was allowed (a share: less than the budget's)
    cancelled: object = None  # callable() -> bool, or None
    wall_deadline: float = float("inf")  # time.monotonic() past which the wall's clock says stop


_current: ContextVar[_Context | None] = ContextVar("dtlearn_budget", default=None)


@contextmanager
def within(budget: Budget, report=None, cancelled=None):
    """Run the enclosed computation under `budget` (its clock starts now), reporting progress to
    `report(stage, done, detail)` (done: a fraction, or None when unknown). Where the loops check
    the time they also ask `cancelled()`, and stop with `Cancelled` when it says True (the app:
    nobody waits for the result any more).

    The clock is the thread's processor time, not the wall's: a server busy with thirty
    sessions makes every computation wait, and waiting is not the computation's cost."""
    deadline = time.thread_time() + budget.seconds if budget.seconds is not None else float("inf")
    outer = _current.get()  # a computation inside a page: the page's wall clock and caller still hold
    wall = time.monotonic() + budget.wall if budget.wall is not None else float("inf")
    wall = min(wall, outer.wall_deadline) if outer is not None else wall
    cancelled = cancelled if cancelled is not None or outer is None else outer.cancelled
    token = _current.set(_Context(budget, deadline, report, budget.seconds, cancelled, wall))
    try:
        yield
    finally:
        _current.reset(token)


@contextmanager
def share(parts: int):
    """The enclosed work gets 1/`parts` of the time the current budget has left (no-op without a
    budget): a result made of several parts, each with a fair share (Compare's four algorithms,
    `parts` = the algorithms still to run, so time a quick one leaves goes to the next). One
    that runs out, ID3 on a million distinct numbers, leaves the others their time, and the whole
    stays within the one budget."""
    context = _current.get()
    if context is None:
        yield
        return
    now = time.thread_time()
    allowed = max(context.deadline - now, 0.0) / max(parts, 1)  # the last part: all that is left
    token = _current.set(_Context(context.budget, now + allowed, context.report, allowed, context.cancelled,
                                  context.wall_deadline))
    try:
        yield
    finally:
        _current.reset(token)


@contextmanager
def part(index: int, count: int, name: str):
    """The enclosed work reports as part `index` (from 0) of `count` alike (a fold of a
    cross-validation): its progress scaled into the whole's, its detail led by "fold 2 of 5".
    Five folds each growing a tree showed one bar filling five times, never saying why."""
    context = _current.get()
    if context is None or context.report is None:
        yield
        return
    outer = context.report

    def report(stage: str, done: float | None, detail: str) -> None:
        whole = (index + min(max(done or 0.0, 0.0), 1.0)) / count
        outer(stage, whole, f"{name} {index + 1} of {count}" + (f", {detail}" if detail else ""))

    token = _current.set(_Context(context.budget, context.deadline, report, context.seconds, context.cancelled,
                                  context.wall_deadline))
    try:
        yield
    finally:
        _current.reset(token)


def current() -> Budget | None:
    context = _current.get()
    return context.budget if context else None


def check_time(advice: str = GROWING) -> None:
    """Raise TooCostly when the computation has run past its time limit (Cancelled when its
    caller no longer wants it)."""
    context = _current.get()
    if context is not None and context.cancelled is not None and context.cancelled():
        raise Cancelled("Nobody waits for this result any more.")
    if context is not None and time.thread_time() > context.deadline:
        raise TooCostly(f"This needs more than the {_seconds(context.seconds)} of computing allowed here "
                        f"for one result. {advice}.")
    if context is not None and time.monotonic() > context.wall_deadline:
        raise TooCostly(f"This needs more than the {_seconds(context.budget.wall)} a page may take. {advice}.")


def time_left() -> float | None:
    """Seconds the current computation has left, by the processor's clock or the wall's, whichever
    ends first (None without a limit): what a child process it starts may take (`layout`)."""
    context = _current.get()
    if context is None:
        return None
    left = min(context.deadline - time.thread_time(), context.wall_deadline - time.monotonic())
    return None if left == float("inf") else max(left, 0.0)


def check_nodes(count: int, advice: str = GROWING) -> None:
    """Raise TooCostly when a tree would have more than the budget's nodes (before they are made)."""
    context = _current.get()
    limit = context.budget.nodes if context else None
    if limit is not None and count > limit:
        raise TooCostly(f"This tree would have {count:,} nodes or more, past the {limit:,} allowed here. {advice}.")
    check_time(advice)


def check_cells(nodes: int, width: int, advice: str = GROWING) -> None:
    """Raise TooCostly when `nodes` nodes of `width` class weights each pass the budget's cells:
    a tree of 20,000 nodes over 600 classes holds 12 million numbers twice (weights, shares)."""
    context = _current.get()
    limit = context.budget.cells if context else None
    if limit is not None and nodes * width > limit:
        raise TooCostly(f"This tree would keep {nodes:,} nodes x {width:,} classes = {nodes * width:,} class weights, "
                        f"past the {limit:,} allowed here. {advice}, or choose a target with fewer classes.")


def check_bytes(needed: int, what: str, advice: str = GROWING) -> None:
    """Raise TooCostly when `what` would allocate `needed` bytes at once, past the budget's bytes:
    asked while the arrays are still a count (CART's subsets of 50,000 values are 24 GB)."""
    context = _current.get()
    limit = context.budget.bytes if context else None
    if limit is not None and needed > limit:
        raise TooCostly(f"{what} would take {_size(needed)} of memory at once, past the {_size(limit)} allowed "
                        f"here. {advice}.")


def _size(count: int) -> str:
    """'512 MB', '1.47 MB', '18.2 GB', '7,030 GB' (binary units, as the limits are set)."""
    size, unit = (count / 2**30, "GB") if count >= 2**30 else (count / 2**20, "MB")
    return f"{size:,.0f} {unit}" if size >= 100 else f"{size:.3g} {unit}" if size >= 1 else f"{max(size, 0.01):.2f} MB"


def report(stage: str, done: float | None = None, detail: str = "") -> None:
    """Tell the caller's progress display where the computation is (no-op without one)."""
    context = _current.get()
    if context is not None and context.report is not None:
        context.report(stage, done, detail)


def seconds_text(seconds: float | None) -> str:
    """Seconds as a message says them: '60 seconds', '0.25 seconds'."""
    return _seconds(seconds)


def _seconds(seconds: float | None) -> str:
    if seconds is None:
        return "time"
    return f"{round(seconds) if seconds >= 1 else float(f'{seconds:.2g}'):g} seconds"  # a share: 15, not 14.99871
