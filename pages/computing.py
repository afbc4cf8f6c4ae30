"""Caching and jobs: every computation the app makes, under one budget, kept in one store.

`computed` runs a dtlearn call in a thread of its own (`pages/jobs.py`), within BUDGET, and keeps
its result in STORE (`pages/store.py`) for every session that asks again; a page's run waits for
it at most PAGE. The compiled kernels are loaded in the background from the first visit.
"""

from __future__ import annotations

import hashlib
import logging
import sys
import threading
import time

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

import dtlearn
from dtlearn import jit
from dtlearn.warmup import warm_up
from pages import jobs, memory, store
from pages.wording import md


def digest(content: bytes) -> str:
    return hashlib.sha256(content).hexdigest()[:16]


# One budget for every computation the app makes (fit, tables, pruning, cross-validation): past
# it dtlearn raises TooCostly, whose message names the settings that make the work cheaper. The
# seconds are the computing thread's processor time (the compiled kernels release the GIL, so
# other sessions go on meanwhile): the 20,000-level chain (39,999 nodes, O(n^2) cuts scanned)
# takes ~15 s to grow; ID3 on a column of 3,000 values is refused at its second level. Compare
# shares it: each algorithm (a tree and its folds) gets the time left over the algorithms to run.
# Its bytes bound what one step allocates at once, asked before (CART's subsets of a 50,000-value
# column would be 24 GB), so two sessions computing on the two cores add at most 1 GiB.
BUDGET = dtlearn.Budget(seconds=60, nodes=200_000, cells=4_000_000, bytes=512 * 2**20)
# Every shared result lives in one store, bounded in bytes and forgotten after 30 idle minutes.
# A buffer several entries share is weighed once (a 100 MB upload's frame, ~100 MB, is held as
# read, as prepared and by its trees): the upload, its tree and its pruning fit in 1 GiB, and
# with the transient work of the heaviest page (Compare: 4 trees and their folds, one at a time)
# and the server itself the process stays under 2 GB (1,633 MB: benchmarks/bench_upload.py).
STORE = store.Store(max_bytes=1024 * 2**20, ttl=30 * 60)
# What a page may take, on the wall's clock from its run's start, waiting for the computations above
# included (router.main): past it, whatever it is doing (waiting, laying out, building a table) stops
# with the budget's message; a computation it waited for goes on for others, or is abandoned.
PAGE = dtlearn.Budget(wall=BUDGET.seconds)
memory.give_back_freed_memory()  # once per server process: this module is imported once
memory.settle()  # what the server has imported: out of the collector's full passes
sys.setswitchinterval(jobs.SWITCH_INTERVAL)  # the event loop gets the interpreter back soon (jobs)


def computed(what: str | None, key: tuple, compute, eager: bool = False):
    """`compute()` under the app's BUDGET, kept in the STORE under `key`, computed in a thread of
    its own (`jobs`: a click that stops this run does not stop it; leaving it for good does).
    While it runs, a progress bar shows `what` and dtlearn's stages (from 0.5 s on, or at once
    when `eager`); a refusal (DataError) is kept and raised again for the same key."""
    def within_budget(job=None):
        with dtlearn.budget.within(BUDGET, job and job.report, job and job.abandoned):
            return compute()

    if key in STORE:  # stored: no thread to start
        return STORE.get(key, within_budget)
    return jobs.result(key, lambda job: STORE.get(key, lambda: within_budget(job)),
                       lambda job: _show_progress(job, what, eager))


def _show_progress(job: jobs.Job, what: str | None, eager: bool) -> None:
    """Until `job` is done: its last report in a progress bar, from 0.5 s on (at once when `eager`)."""
    started, bar, shown = time.monotonic(), None, None
    try:
        while not job.done.wait(0.1):
            dtlearn.budget.check_time()  # past the page's time, or its run stopped: no more waiting
            if what is None or (time.monotonic() - started < 0.5 and not eager) or job.progress in (None, shown):
                continue
            shown = job.progress
            stage, done, detail = shown
            said = detail if stage.lower() in what.lower() else f"{stage.capitalize()}{': ' + detail if detail else ''}"
            text = md(f"{what} {said}")  # "Growing the tree… 38,447 nodes so far", "… Encoding: 600,000 rows"
            value = int(100 * min(max(done or 0.0, 0.0), 1.0))
            if bar is None:
                bar = st.progress(value, text=text)
            else:
                bar.progress(value, text=text)
            job.done.wait(0.25)  # a new text at most four times a second
    finally:
        if bar is not None:
            bar.empty()


def stopping() -> bool:
    """Whether this script run was asked to stop or to start again (a click, another page, the tab
    closed): what it is computing is wanted no more. Streamlit only stops a run at its next element."""
    requests = getattr(get_script_run_ctx(), "script_requests", None)
    return getattr(getattr(requests, "_state", None), "name", "CONTINUE") != "CONTINUE"



WARM_UP_AFTER = 10  # seconds after the first visit (sooner when a page wants the compiled code)


@st.cache_resource(show_spinner=False)
def kernels_warming() -> threading.Thread:
    """Once per server, from its first visit: the compiled kernels loaded in the background
    (`dtlearn.warmup`), until then small inputs (the bundled tables) run them interpreted
    (`dtlearn.jit`), so that no page waits for numba. As soon as a page has more to compute
    than is worth interpreting, else WARM_UP_AFTER seconds later: a class opening the link
    together keeps the two cores for its first pages."""
    thread = threading.Thread(target=_warm_up, name="dtlearn-warm-up", daemon=True)
    thread.start()
    return thread


def _warm_up() -> None:
    jit.wanted(WARM_UP_AFTER)
    try:
        warm_up()
        memory.settle()  # and the compiled kernels
    except Exception:  # pragma: no cover - a page compiles what it needs itself
        logging.getLogger(__name__).exception("Loading the compiled kernels in advance failed.")
