"""What every page shares: the sidebar's choices, cached dtlearn calls, the step control.

Data flows one way: the sidebar (app.py) leaves a `Choices` in st.session_state ->
`view()` turns it into a dataset and a tree through cached functions -> a page renders.
Session state holds choices and the step index only; models live in the caches.
"""

from __future__ import annotations

import hashlib
import html
import logging
import sys
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

import dtlearn
from dtlearn import derivation, jit, typeset
from dtlearn.data import Dataset, labelled
from dtlearn.formatting import label
from dtlearn.identifiers import identifier_columns
from dtlearn.settings import CRITERION_NAMES, PRESET
from dtlearn.shorten import LABEL_CHARS, shown
from dtlearn.warmup import warm_up
from pages import jobs, memory, store

UPLOAD = "__upload__"  # the dataset menu's entry for a file of one's own
MAX_UPLOAD_MB = 100  # as .streamlit/config.toml's server.maxUploadSize, which Streamlit enforces first
KINDS = ("categorical", "numeric", "ignore")
# The Step page's expanders that stay open across steps and pages (app.keep_values):
THRESHOLDS_OPEN = "thresholds_open"  # the threshold chart
FAMILY_OPEN = "family_open_"  # + "entropy" / "gini" / "squared_error": a candidate's other measures
ALGORITHM_TITLES = {key: preset.title for key, preset in PRESET.items()}  # the sidebar's, short
ALGORITHM_NOTES = {key: preset.summary for key, preset in PRESET.items()}
CRITERION_TITLES = dtlearn.settings.CRITERION_TITLES
DIGITS = ("3", "4", "all")  # the sidebar's precision: decimals of every number shown
PRACTICE_MODES = ("check", "guess", "hand", "worksheet")
ROWS_PICKED = "formula_rows_picked"  # the steps whose formulas' row the student chose (the link says it)


def digits() -> int | None:
    """The decimals the student chose for numbers (None: all of them)."""
    chosen = st.session_state.get("digits", DIGITS[0])
    return None if chosen == "all" else int(chosen)


def number_format() -> str:
    """The printf format of table columns for the chosen precision."""
    d = digits()
    return "%.12g" if d is None else f"%.{d}f"


def algorithm_title(algorithm: str) -> str:
    return ALGORITHM_TITLES.get(algorithm, algorithm.upper())


@dataclass(frozen=True)
class Choices:
    """Everything the sidebar decides, hashable (the cache keys are made of it)."""

    source: str  # a built-in dataset name, or "upload:<digest>"
    target: str
    kinds: tuple[tuple[str, str], ...]  # overrides of the inferred kinds, incl. "ignore"
    algorithm: str
    settings: tuple[tuple[str, object], ...]  # keyword arguments of dtlearn.make_settings

    @property
    def is_upload(self) -> bool:
        return self.source.startswith("upload:")


@dataclass(frozen=True, eq=False)
class View:
    """What a page draws from: the choices and what dtlearn made of them."""

    choices: Choices
    title: str
    raw: Dataset  # as read, before the target and kinds were applied
    data: Dataset
    tree: dtlearn.Tree

    @property
    def settings(self):
        return self.tree.settings


# text from a file: escaped wherever it is rendered ----------------------------------------

def md(value) -> str:
    """A name or message made safe for Streamlit markdown (no formatting, links, LaTeX, icons)."""
    return typeset.md(value, typeset.PAGE_SPECIALS)


# Names of the properties every JavaScript object has: a figure's text equal to one came out of the
# browser's chart code as {} or null (a tick named __proto__ showed "[object Object]").
_OBJECT_KEYS = frozenset({"__proto__", "constructor", "__defineGetter__", "__defineSetter__", "__lookupGetter__",
                          "__lookupSetter__", "hasOwnProperty", "isPrototypeOf", "propertyIsEnumerable",
                          "toLocaleString", "toString", "valueOf"})


def plain(value) -> str:
    """A name made safe for Plotly text (which understands a few HTML tags), and never a bare
    object property's name (its first letter as an entity, which Plotly writes as the letter)."""
    text = html.escape(str(value))
    return f"&#{ord(text[0])};{text[1:]}" if text in _OBJECT_KEYS else text


# cached dtlearn calls ------------------------------------------------------------------------

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
# included (app.main): past it, whatever it is doing (waiting, laying out, building a table) stops
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


def parse_upload(key: str, content: bytes) -> Dataset | str:
    """The uploaded CSV or ARFF file as a Dataset, or the DataError's message (failures are
    kept too). An ARFF file is known by its header (its first line that is not a comment
    starts with @relation), whatever its name."""
    def read() -> Dataset:
        dtlearn.budget.report("reading", None, f"{len(content) / 2**20:.1f} MB")
        # every column kept: the sidebar sets identifiers and a wide table's last columns to ignore
        # (`inferred_kinds`), one click from use
        read = dtlearn.read_arff if is_arff(content) else dtlearn.read_csv
        return read(content, identifiers="keep", max_attributes=None)

    try:
        return computed("Reading the file…", ("upload", key), read, eager=len(content) > 2**20)
    except dtlearn.DataError as error:
        return str(error)


def is_arff(content: bytes) -> bool:
    for line in content[:65536].splitlines():
        text = line.strip().lstrip(b"\xef\xbb\xbf").lower()
        if text and not text.startswith(b"%"):
            return text.startswith(b"@relation")
    return False


# rules the Tree page lists: a 20,000-leaf tree's rules are megabytes, sent to the browser at every
# click; its download writes them all
RULES_SHOWN = 500

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


@st.cache_resource(show_spinner=False)
def builtin(name: str) -> Dataset:
    return dtlearn.load_dataset(name)


def raw_dataset(source: str) -> Dataset:
    if source.startswith("upload:"):
        upload = st.session_state.get("upload") or {}
        parsed = parse_upload(source, upload.get("content", b""))
        if not isinstance(parsed, Dataset):
            raise dtlearn.DataError(parsed)
        return parsed
    return builtin(source)


def source_title(source: str) -> str:
    if source.startswith("upload:"):
        return (st.session_state.get("upload") or {}).get("name", "uploaded file")
    return dtlearn.dataset_info(source).title


def _prepared(source: str, target: str, kinds: tuple, raw: Dataset) -> Dataset:
    return computed(None, ("prepared", source, target, kinds), lambda: _prepare(raw, target, kinds))


def _prepare(raw: Dataset, target: str, kinds: tuple) -> Dataset:
    """The dataset with the chosen target and kinds (rows without a value of the target left out,
    `dtlearn.data.labelled`, its note saying which); ignored attributes dropped, and so are the
    columns that name the rows (`identifier_columns`: Mitchell's Day, Han's RID) unless `kinds`
    gives them a kind, as `dtlearn.read_csv` leaves them out unless asked to keep them."""
    inherited = {a: k for a, k in raw.kinds.items() if a != target}
    data = labelled(raw.frame, target, inherited)
    given = dict(kinds)
    changed = {a: k for a, k in given.items() if k != "ignore"}
    if changed:
        data = data.with_kinds(changed)
    ignored = [a for a, k in given.items() if k == "ignore"]
    ignored += [i.name for i in identifier_columns(raw.frame, target) if i.name not in given]
    if ignored:
        data = data.select([a for a in data.attributes if a not in ignored])
    return data


def prepared(source: str, target: str, kinds: tuple) -> Dataset:
    return _prepared(source, target, kinds, raw_dataset(source))


def is_regression(source: str, target: str, kinds: tuple) -> bool:
    """Whether these choices grow a regression tree: the Task setting, or else dtlearn's rule
    for the target. False when the data cannot be prepared (the page then shows why)."""
    task = st.session_state.get("task")
    if task in ("classification", "regression"):
        return task == "regression"
    try:
        return dtlearn.infer_task(prepared(source, target, kinds)) == "regression"
    except ValueError:
        return False


def target_notes(source: str, target: str) -> tuple[str, ...]:
    """What choosing `target` did to the table (its rows without a value left out), in words;
    () when dtlearn refuses the target (`check` then says why)."""
    try:
        return _prepared(source, target, (), raw_dataset(source)).notes
    except ValueError:
        return ()


@st.cache_resource(show_spinner=False, max_entries=256)
def inferred_kinds(source: str, target: str) -> dict:
    """The kind dtlearn infers for each attribute when `target` is the class column, in the file's
    column order; "ignore" for a column that names the rows (`identifiers`)."""
    raw = raw_dataset(source)
    kinds = dict(_prepared(source, target, (), raw).kinds)
    kinds.update((i.name, "ignore") for i in identifiers(source, target))
    return {name: kinds[name] for name in map(str, raw.frame.columns) if name in kinds}


@st.cache_resource(show_spinner=False, max_entries=256)
def identifiers(source: str, target: str) -> tuple:
    """The columns that name the rows when `target` is the class column (dtlearn's
    `identifier_columns`): left out until the student gives them a kind."""
    return identifier_columns(raw_dataset(source).frame, target)


def grown(source: str, target: str, kinds: tuple, algorithm: str, settings: tuple) -> dtlearn.Tree:
    """The tree grown on all rows of the prepared data (one store entry for every page that asks)."""
    return grown_from(prepared(source, target, kinds), source, target, kinds, algorithm, settings)


def grown_from(data: Dataset, source: str, target: str, kinds: tuple, algorithm: str, settings: tuple) -> dtlearn.Tree:
    """`grown`, `data` being `prepared(source, target, kinds)` already (a job reads no session state)."""
    return computed("Growing the tree…", ("grown", source, target, kinds, algorithm, settings),
                    lambda: dtlearn.fit(data, algorithm, **dict(settings)))


def grow(choices: Choices) -> dtlearn.Tree:
    """The complete recorded induction for these choices (cached by content)."""
    c = choices
    return grown(c.source, c.target, c.kinds, c.algorithm, c.settings)


def _grown_on_pair(source: str, target: str, kinds: tuple, algorithm: str, settings: tuple,
                   x: str, y: str) -> dtlearn.Tree:
    data = prepared(source, target, kinds)
    if data.attributes == (x, y):  # the data's own two attributes: the tree every page shows
        return grown(source, target, kinds, algorithm, settings)
    return computed("Growing the tree on these two attributes…",
                    ("pair", source, target, kinds, algorithm, settings, x, y),
                    lambda: dtlearn.fit(data.select([x, y]), algorithm, **dict(settings)))


def _by_hand(source: str, target: str, kinds: tuple, algorithm: str, settings: tuple, held_out: bool,
             hand: tuple) -> tuple:
    """(the hand-grown tree, the algorithm's, the held-out rows or None), on the training part
    when `held_out` (75 / 25, stratified, seed 0: dtlearn.train_test_split)."""
    from dtlearn import by_hand

    all_rows = prepared(source, target, kinds)  # here: a job reads no session state

    def grow_both() -> tuple:
        data, test = all_rows, None
        if held_out:
            data, test = dtlearn.train_test_split(data, 0.25, seed=0)
        base = dtlearn.fit(data, algorithm, **dict(settings))
        return by_hand.grow_by_hand(base, dict(hand)), by_hand.grow_by_hand(base, {}), test

    return computed("Growing your tree…", ("hand", source, target, kinds, algorithm, settings, held_out, hand),
                    grow_both)


def by_hand(choices: Choices, held_out: bool, hand: dict) -> tuple:
    c = choices
    return _by_hand(c.source, c.target, c.kinds, c.algorithm, c.settings, held_out, tuple(sorted(hand.items())))


def pair_algorithm(choices: Choices) -> tuple[str, tuple]:
    """The algorithm and settings for a tree on two numeric attributes: ID3 becomes C4.5."""
    if choices.algorithm == "id3":
        return "c45", tuple((k, v) for k, v in choices.settings if k != "criterion")
    return choices.algorithm, choices.settings


def grow_on_pair(choices: Choices, x: str, y: str) -> dtlearn.Tree:
    """The tree grown on two numeric attributes only (pruned as on the Pruning page when the
    student chose to show the pruned tree)."""
    c = choices
    algorithm, settings = pair_algorithm(c)
    prune = pruning_choice()
    if prune is not None:
        from pages import pruning_view

        return pruning_view.pruned(c, prune, (x, y)).pruned
    return _grown_on_pair(c.source, c.target, c.kinds, algorithm, settings, x, y)


def check(choices: Choices) -> str | None:
    """None when dtlearn accepts the choices (and grows the tree), else its message."""
    try:
        dtlearn.make_settings(choices.algorithm, **dict(choices.settings))
        grow(choices)
    except ValueError as error:  # DataError is a ValueError too
        return str(error)
    return None


def compared(source: str, target: str, kinds: tuple, settings: tuple, algorithms: tuple):
    """The algorithms on the prepared data, with `settings` applied to each one that accepts
    them (dtlearn.comparison.compare_algorithms: 5-fold cross-validation, seed 0)."""
    from dtlearn.comparison import compare_algorithms

    data = prepared(source, target, kinds)
    return computed("Growing and cross-validating the four trees…",
                    ("compared", source, target, kinds, settings, algorithms),
                    lambda: compare_algorithms(data, dict(settings), algorithms=algorithms))


# Routing. Because this folder is called pages/, Streamlit also registers its files as pages
# the old way; until st.navigation has run once in the server process (and in every AppTest
# run) a link to /step runs pages/step.py directly, without app.py. `view()` then runs the
# router itself, which runs this page again inside it, and ends the outer run.
_run = threading.local()


@contextmanager
def routing():
    """Marks the script run as routed by app.py (the thread runs one script at a time)."""
    _run.routed = True
    try:
        yield
    finally:
        _run.routed = False


def _ensure_router() -> None:
    if not getattr(_run, "routed", False):
        import app

        app.main()
        st.stop()


def view(pruned: bool = False) -> View:
    """The current view: the last choices dtlearn accepted, and what it made of them. With
    `pruned`, the tree is the Pruning page's pruned tree when the student chose to show it."""
    _ensure_router()
    c: Choices = st.session_state["choices"]
    tree = grow(c)
    prune = pruning_choice() if pruned else None
    if prune is not None:
        from pages import pruning_view

        tree = pruning_view.pruned(c, prune).pruned
    return View(c, source_title(c.source), raw_dataset(c.source), prepared(c.source, c.target, c.kinds), tree)


def pruning_choice():
    """The Pruning page's method and parameters, when its pruned tree is to be shown elsewhere."""
    state = st.session_state
    return state.get("pruned_choice") if state.get("pruned_on") else None


# page furniture ---------------------------------------------------------------------------

def describe(v: View, brief: bool = False) -> str:
    """One line under a page title: dataset, size, target, algorithm and criterion (`brief`: a
    projector's, without the size and the target)."""
    s = v.settings
    size = [] if brief else [rows(len(v.data.frame)), f"target {md(shown(v.data.target))}"]
    parts = [f"**{md(shown(v.title))}**", *size,
             f"{algorithm_title(s.algorithm)} · {CRITERION_NAMES.get(s.criterion, s.criterion)}"]
    option = dtlearn.settings.OPTION
    limits = [f"{option[k].summary} {md(option[k].none) if value is None else md(label(value))}"
              for k, value in v.choices.settings if k in option and option[k].summary]
    return " · ".join(parts + limits)


def header(title: str, v: View, short: str | None = None) -> None:
    """The page's title and one line on the data; in projector mode one compact line, with the
    page's `short` name (its menu entry) when given."""
    if projector():
        st.markdown(f"**{md(short or title)}** · {describe(v, brief=True)}")
        return
    st.title(title)
    st.markdown(describe(v))


# the classroom: projector mode and a presenter's clicker ------------------------------------

PROJECTOR = "projector"  # session key and query parameter (projector=1)


def projector() -> bool:
    return bool(st.session_state.get(PROJECTOR))


# Larger type, a compact top, the tree and the decision in the first screen at 1280x720.
PROJECTOR_CSS = """<style>
[data-testid="stHeader"] { background: transparent; pointer-events: none; }
[data-testid="stHeader"] * { pointer-events: auto; }
[data-testid="stMainBlockContainer"] { padding: 0.6rem 1.5rem 2rem 1.5rem; max-width: none; }
[data-testid="stMainBlockContainer"] [data-testid="stVerticalBlock"] { gap: 0.55rem; }
[data-testid="stMainBlockContainer"] > div > [data-testid="stVerticalBlock"] > :first-child { padding-right: 3rem; }
[data-testid="stMainBlockContainer"] [data-testid="stMarkdownContainer"] p,
[data-testid="stMainBlockContainer"] [data-testid="stMarkdownContainer"] li { font-size: 1.2rem; }
[data-testid="stMainBlockContainer"] h2 { font-size: 1.6rem; padding: 0.1rem 0; }
[data-testid="stMainBlockContainer"] [data-testid="stHeading"] [data-testid="stMarkdownContainer"] { margin-bottom: 0; }
[data-testid="stMainBlockContainer"] h3 { font-size: 1.35rem; }
[data-testid="stMainBlockContainer"] button p { font-size: 1.1rem; }
[data-testid="stMainBlockContainer"] [data-testid="stCaptionContainer"] { font-size: 1.05rem; }
[data-testid="stMainBlockContainer"] [data-testid="stTable"] th,
[data-testid="stMainBlockContainer"] [data-testid="stTable"] td { font-size: 1.15rem; }
[data-testid="stMainBlockContainer"] .katex { font-size: 1.35em; }
[data-testid="stMainBlockContainer"] [data-testid="stAlertContentSuccess"],
[data-testid="stMainBlockContainer"] [data-testid="stAlertContainer"] { padding: 0.5rem 0.9rem; }
</style>"""

def classroom() -> None:
    """Projector mode's style when it is on (in the sidebar: no gap in the page). The clicker's
    keys and the full-screen viewer come with every drawn tree (pages/stage.js)."""
    if projector():
        st.sidebar.html(PROJECTOR_CSS)


def in_words(path: tuple[str, ...], n: float) -> str:
    """A node's path from the root, in words (markdown, names escaped)."""
    if not path:
        return f"the root: all {rows(n)}" if n != 1 else "the root: its one row"
    conditions = (shown(c, 2 * LABEL_CHARS) for c in path)  # a name and a value, each up to the label's width
    return " **and** ".join(f"`{c}`" if "`" not in c else md(c) for c in conditions)


def counts_text(classes, weights) -> str:
    parts = [f"{md(label(round(w, 3)))} {md(shown(c))}" for c, w in zip(classes, weights) if w > 0]
    return ", ".join(parts) if parts else "no rows"


def rows(n: float) -> str:
    """'14 rows', '1 row', '2.5 rows' (C4.5 weighs a row with a missing value across branches)."""
    return f"{md(label(round(n, 3)))} row{'' if n == 1 else 's'}"


def node_text(tree, node) -> str:
    """A node's size and what it holds, in markdown: '14 rows: 5 No, 9 Yes · entropy 0.940'."""
    size = rows(node.n)
    if tree.is_regression:
        held = f"mean {md(shown(tree.target))} {node.value:.4f}" if node.n > 0 else "no rows"
        return f"{size}: {held} · **MSE** {node.impurity:.4f}"
    impurity = "Gini" if tree.settings.impurity == "gini" else "entropy"
    value = derivation.number(node.impurity, digits())
    return f"{size}: {counts_text(tree.classes, node.class_weights)} · **{impurity}** {md(value)}"


def warn_id3_numbers(v: View) -> None:
    numeric = [a for a, k in v.data.kinds.items() if k == "numeric"]
    if v.settings.algorithm == "id3" and numeric:
        st.warning(
            f"ID3 treats each distinct number as a category: {', '.join(md(a) for a in numeric)} "
            "get one branch per value. Choose C4.5 or CART for thresholds such as `x <= 2.45`."
        )


# the step control (on the Step, Tree and Partitions pages) ----------------------------------

def _go(to: int) -> None:
    st.session_state["step"] = to


def current_step(total: int) -> int:
    """The shared step index, within 0..total (kept as it is, so another page's longer tree keeps it)."""
    return min(max(int(st.session_state.get("step", 0)), 0), total)


def stepper_ui(k: int, total: int, go, prefix: str = "", next_label: str = "Next step",
               slider_label: str = "Step", current=None, side=None) -> None:
    """First / previous / next / last and a slider over 0..total at position k; `go(to)` moves.
    The buttons' keys (`first`, `prev`, `next`, `last`, after `prefix`) are what the clicker
    keys press (pages/stage.js): they work whatever has focus, the slider included. Previous and
    Next move from `current()`, the index when the click arrives (k when not given), so two
    presses made before the page is drawn again are two steps. In projector mode the slider
    gives its row to `side(column)` (the stage's view), and the heading says which step."""
    def move(by: int) -> None:
        go(min(max((current() if current else k) + by, 0), total))

    widths = [0.85, 1.15, 1.35, 0.85, 1.9] if projector() else [1, 1.5, 1.6, 1, 3.4]
    row = st.columns(widths, vertical_alignment="bottom")
    row[0].button("First", key=prefix + "first", on_click=go, args=(0,), disabled=k == 0, width="stretch",
                  help="Back to the start (Home)")
    row[1].button("Previous", key=prefix + "prev", on_click=move, args=(-1,), disabled=k == 0,
                  width="stretch", help="One back (Page Up or ←: a presenter's clicker)")
    row[2].button(next_label, key=prefix + "next", on_click=move, args=(1,), disabled=k == total,
                  type="primary", width="stretch", help="One forward (Page Down or →: a presenter's clicker)")
    row[3].button("Last", key=prefix + "last", on_click=go, args=(total,), disabled=k == total, width="stretch",
                  help="The end (End)")
    if projector():
        if side is not None:
            side(row[4])
        return
    if total == 0:  # a slider from 0 to 0 is no choice (Streamlit refuses one): said instead
        row[4].caption(f"{slider_label} 0 of 0: nothing to step through.")
        return
    slider = (prefix or "step_") + "slider"
    st.session_state[slider] = k
    row[4].slider(f"{slider_label} {k} of {total}", 0, total, key=slider,
                  on_change=lambda: go(st.session_state[slider]))


def step_ui(total: int, side=None) -> int:
    """The step control over 0..total; returns the step k shown.

    Step 0 is the root alone (nothing decided); step k shows the tree after k decisions.
    The index lives in st.session_state["step"], so every page shows the same step.
    """
    k = current_step(total)
    stepper_ui(k, total, _go, prefix="", slider_label="Step", current=lambda: current_step(total), side=side)
    return k
