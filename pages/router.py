"""The router: one run of the page a link or a click asks for, inside the app's frame.

Every run sets the page up, lists the pages for st.navigation, reads a shared link once per
session (pages/address.py), draws the sidebar (pages/sidebar.py), checks the choices with
dtlearn, writes the view back into the link and runs the page. app.py, the entry point, calls
`main`; a page opened before the router has run calls it too (`pages/view.py`).
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from pathlib import Path

import streamlit as st

import dtlearn
from pages import cached, computing
from pages.address import PAGE_SCRIPTS, keep_values, load_url, save_url
from pages.sidebar import sidebar_ui
from pages.session import DEFAULT_ALGORITHM, DEFAULT_DATASET, Choices, projector
from pages.wording import md

# "/" is a page of its own, out of the menu, that opens the link's page (page=) or LANDING_PAGE:
# were a menu page the default, its own address would not exist (a typed /data said "Page not
# found" and opened the Step page)
HOME = "home"


def _home() -> None:
    """Never drawn: `route` leaves it for the page the link asks for."""


def app_pages() -> dict[str, st.Page]:
    """The pages, made anew in every run. An st.Page remembers whether st.navigation returned it
    in the current run; shared between sessions (a module constant), one session's run could
    end another's permission: on a fresh server, 26 of 30 deep links opened at once got "This
    page cannot be called directly" (benchmarks/bench_load.py)."""
    pages = {HOME: st.Page(_home, title="dtlearn", default=True, visibility="hidden")}
    pages.update({name: st.Page(script, title=title, url_path=name) for name, (script, title) in PAGE_SCRIPTS.items()})
    return pages


# Where a link without `page=` opens: the Step page, the app's heart, drawn in under 2 s on a
# fresh browser. The Data page stays first in the menu, but its Plotly chart alone costs about
# a second of JavaScript before it can paint.
LANDING_PAGE = "step"

# Routing. Because this folder is called pages/, Streamlit also registers its files as pages
# the old way; until st.navigation has run once in the server process (and in every AppTest
# run) a link to /step runs pages/step.py directly, without app.py. `view.view()` then runs the
# router itself, which runs this page again inside it, and ends the outer run.
_run = threading.local()


@contextmanager
def routing():
    """Marks the script run as routed (`main`) (the thread runs one script at a time)."""
    _run.routed = True
    try:
        yield
    finally:
        _run.routed = False


def routed() -> bool:
    """Whether this script run is inside `main` (else a page was run directly)."""
    return getattr(_run, "routed", False)


# Larger type, a compact top, the tree and the decision in the first screen at 1280x720.
PROJECTOR_CSS = f"<style>\n{(Path(__file__).parent / 'assets' / 'projector.css').read_text(encoding='utf-8')}</style>"


def classroom() -> None:
    """Projector mode's style when it is on (in the sidebar: no gap in the page). The clicker's
    keys and the full-screen viewer come with every drawn tree (pages/assets/stage.js)."""
    if projector():
        st.sidebar.html(PROJECTOR_CSS)


def default_choices() -> Choices:
    return Choices(DEFAULT_DATASET, cached.raw_dataset(DEFAULT_DATASET).target, (), DEFAULT_ALGORITHM, ())


def main() -> None:
    """One run of the page the link or the click asks for, within the time a page may take
    (computing.PAGE); a run asked to stop (`computing.stopping`) ends quietly, its work abandoned."""
    with routing(), dtlearn.budget.within(computing.PAGE, cancelled=computing.stopping):
        try:
            route()
        except dtlearn.budget.Cancelled:  # Streamlit starts the next run, or none: nothing to say
            pass


def route() -> None:
    st.set_page_config(page_title="dtlearn: decision trees, step by step", page_icon="🌳", layout="wide")
    computing.kernels_warming()
    pages = app_pages()
    page = st.navigation(list(pages.values()))
    names = {p.url_path: name for name, p in pages.items()}
    if not st.session_state.get("url_loaded"):
        st.session_state["url_loaded"] = True
        st.session_state["url_ignored"] = load_url()
    if names.get(page.url_path) == HOME:
        wanted = st.query_params.get("page", LANDING_PAGE)
        wanted = wanted if wanted in PAGE_SCRIPTS else LANDING_PAGE
        st.switch_page(pages[wanted], query_params=st.query_params.to_dict())
    keep_values()
    # said on every run of the page the link opened (the stage's first report of its box reruns it at
    # once: a note said only once was gone before it could be read), until another page is opened
    if st.session_state.setdefault("url_page", page.url_path) != page.url_path:
        st.session_state["url_ignored"] = []
    notes = [md(note) for note in st.session_state.get("url_ignored", [])]
    if notes:  # one box however many: a garbled link does not push the page down
        st.warning(f"From the link: {notes[0]}." if len(notes) == 1 else
                   "From the link, left out:\n" + "\n".join(f"- {note}" for note in notes))
    choices = sidebar_ui()
    problem = cached.check(choices)
    if problem is None:
        st.session_state["choices"] = choices
    else:
        kept = st.session_state.get("choices") or default_choices()
        st.session_state["choices"] = kept
        where = ("  \nTask is in the sidebar under *Missing values, priors, regression*."
                 if "Task" in problem else "")
        st.error(f"{md(problem)}{where}  \nThe page keeps showing the last tree dtlearn accepted.")
    save_url(names.get(page.url_path, "data"), st.session_state["choices"])
    classroom()
    try:
        page.run()
    except dtlearn.DataError as error:  # e.g. TooCostly: past the app's budget (computing.BUDGET)
        if str(error) != problem:  # the page's time, run out while growing: said once
            st.error(f"{md(error)}  \nThe rest of this page is not shown; the sidebar's settings are kept.")

