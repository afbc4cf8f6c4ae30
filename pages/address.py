"""The link: the view in the address bar, written after every run and read once per session.

Dataset, target, kinds, algorithm, settings, page and step, and each page's own view, are query
parameters, so a shared link opens the same view at the same step. PAGE_STATE is the schema of
each page's part of the link (and of the state kept across pages); every value a link brings is
read by pages/links.py, and one the app cannot use is said, and the default kept.
"""

from __future__ import annotations

import streamlit as st

import dtlearn
from pages import links, stage
from pages.cached import raw_dataset
from pages.pruning_view import ALPHA_MODES, LIMITS, METHODS
from pages.session import (BY_KEY, DEFAULT_ALGORITHM, DEFAULT_DATASET, DIGITS, FAMILY_OPEN, KINDS, PRACTICE_MODES,
                           PROJECTOR, ROWS_PICKED, SETTINGS, THRESHOLDS_OPEN, Choices, menu, menu_value, preset_value,
                           projector)

# name -> (script, title), in the menu's order; each page at /name
PAGE_SCRIPTS = {
    "data": ("pages/data.py", "Data"),
    "step": ("pages/step.py", "Step through"),
    "tree": ("pages/tree.py", "Tree"),
    "partitions": ("pages/partitions.py", "Partitions"),
    "pruning": ("pages/pruning.py", "Pruning"),
    "compare": ("pages/compare.py", "Compare"),
    "predict": ("pages/predict.py", "Predict"),
    "practice": ("pages/practice.py", "Practice"),
    "teacher": ("pages/teacher.py", "Teacher"),
}


# the URL -> session state, once per session ---------------------------------------------

def _parse(key: str, text: str):
    """A setting from the URL: a choice's name, or a number ('' or 'none': no value).
    Raises ValueError for text the sidebar's widget could not show."""
    option = BY_KEY[key]
    try:
        if option.kind in ("choice", "weights"):
            return links.choice(text, menu(option))
        if text.strip().lower() in ("", "none"):
            return None
        return links.number(text, whole=option.kind == "whole")  # its range: dtlearn's check says it
    except ValueError as error:
        raise ValueError(f"{key} = {error}") from None


# Each page's own view (partition axes, its step; pruning method, parameters and decision) in
# the link: state key = query parameter -> (kind, range or choices). A value out of range is
# said and ignored, like a bad setting.
VIEWS = {"tree_view": ("choice", stage.TREE_VIEWS)}  # large trees: legible around the node, or whole
PAGE_STATE = {
    "step": {**VIEWS, stage.VIEW: ("choice", stage.VIEWS)},
    "tree": {"tree_node": ("whole", (0, None)), "complete": ("flag", None), **VIEWS},
    "partitions": {"part_x": ("column", None), "part_y": ("column", None), "part_step": ("whole", (0, None))},
    "pruning": {
        "prune_method": ("choice", tuple(METHODS)), "prune_alpha_mode": ("choice", ALPHA_MODES),
        **{key: ("number" if isinstance(low, float) else "whole", (low, high)) for key, (low, high) in LIMITS.items()},
        "prune_raising": ("flag", None), "prune_one_se": ("flag", None), "prune_step": ("whole", (0, None)),
        "pruned_on": ("flag", None), **VIEWS,
    },
    "predict": VIEWS,
}


# Every parameter a link may hold (save_url writes no other); Streamlit's own embed options besides.
PARAMETERS = {"dataset", "target", "kinds", "algo", "digits", "projector", "mode", "page", "step", "row", *SETTINGS,
              *(key for keys in PAGE_STATE.values() for key in keys), "embed", "embed_options"}
IGNORED = object()  # a parameter not in the link, or not usable (`load_url`)
NOTES_SAID = 12  # at most, in the note saying what a link left out


def _page_value(kind: str, limits, text: str, columns):
    """A page's widget value from the link; ValueError for one its widget could not show."""
    if kind == "column":
        return links.column(text, columns)
    if kind == "choice":
        return links.choice(text, limits)
    if kind == "flag":
        return links.flag(text)
    return links.number(text, *limits, whole=kind == "whole")


def load_page_state(params, columns) -> list[str]:
    ignored = []
    for keys in PAGE_STATE.values():
        for key, (kind, limits) in keys.items():
            if key in params:
                try:
                    st.session_state[key] = _page_value(kind, limits, params[key], columns)
                except ValueError as error:
                    ignored.append(f"{key} = {error}")
    return ignored


def load_url() -> list[str]:
    """Copy a shared link's query parameters into the sidebar's state; what was ignored, in words.
    Every value is read by pages/links.py: one the app cannot use is said, and the default kept."""
    params, state, ignored = st.query_params, st.session_state, []
    ignored += [f"{links.quoted(name)} is not a parameter of this app" for name in params if name not in PARAMETERS]

    def read(key: str, reader, *args, note: str | None = None):
        """The parameter `key` as `reader` reads it, or IGNORED (not in the link, or said in a note)."""
        if key not in params:
            return IGNORED
        try:
            return reader(params[key], *args)
        except ValueError as error:
            ignored.append(note or f"{key} = {error}")
            return IGNORED

    if params.get("dataset") == "upload":
        ignored.append("the link was made with an uploaded file, which cannot travel in a link: upload it again")
    elif (dataset := read("dataset", links.choice, dtlearn.dataset_names(),
                          note=f"unknown dataset {links.quoted(params.get('dataset'))}")) is not IGNORED:
        state["dataset"] = state["source"] = dataset
    source = state.get("source", DEFAULT_DATASET)
    columns = [str(column) for column in raw_dataset(source).frame.columns]  # a bundled table's
    if (target := read("target", links.column, columns)) is not IGNORED:
        state["target"], state["target_of"] = target, source
    if "kinds" in params:
        state["url_kinds"], notes = links.kinds(params["kinds"], columns, KINDS)
        ignored += notes
    algorithm = read("algo", links.choice, dtlearn.ALGORITHMS,
                     note=f"unknown algorithm {links.quoted(params.get('algo'))}")
    state["algo"] = algorithm = DEFAULT_ALGORITHM if algorithm is IGNORED else algorithm
    for key in SETTINGS:
        state[key] = preset_value(algorithm, key)
        if key in params:
            try:
                state[key] = _parse(key, params[key])
            except ValueError as error:
                ignored.append(str(error))
    if (digits := read("digits", links.choice, DIGITS)) is not IGNORED:
        state["digits"] = digits
    state[PROJECTOR] = read("projector", links.flag) is True
    if (mode := read("mode", links.choice, PRACTICE_MODES)) is not IGNORED:
        state["practice_mode"] = mode
    read("page", links.choice, tuple(PAGE_SCRIPTS))  # (`route` opens it: here only the note)
    if (step := read("step", links.whole, 0)) is not IGNORED:
        state["step"] = step
    if (row := read("row", links.whole, 0)) is not IGNORED:  # the Step page's formula row at this step
        state[f"formula_row_{state.get('step', 0)}"] = row
        state.setdefault(ROWS_PICKED, set()).add(state.get("step", 0))
    ignored += load_page_state(params, columns)
    if len(ignored) > NOTES_SAID:  # a link of thousands of bad parts: a few said, the rest counted
        ignored[NOTES_SAID - 1:] = [f"{len(ignored) - NOTES_SAID + 1:,} more values"]
    return ignored


def save_url(page_name: str, c: Choices) -> None:
    """Write the view into the query parameters (only the settings that differ from the preset)."""
    raw = raw_dataset(c.source)
    wanted = {"dataset": "upload" if c.is_upload else c.source}
    if c.target != raw.target and not c.is_upload:  # an upload's column names stay out of the link
        wanted["target"] = c.target
    if c.kinds and not c.is_upload:
        wanted["kinds"] = ",".join(f"{a}:{k}" for a, k in c.kinds)
    wanted["algo"] = c.algorithm
    changed = dict(c.settings)
    for key, name in SETTINGS.items():
        if name in changed:
            value = menu_value(BY_KEY[key], changed[name])
            wanted[key] = "none" if value is None else dtlearn.formatting.label(value)
    wanted["page"] = page_name
    wanted["step"] = str(st.session_state.get("step", 0))
    if st.session_state.get("digits", DIGITS[0]) != DIGITS[0]:
        wanted["digits"] = st.session_state["digits"]
    if projector():
        wanted["projector"] = "1"
    for key, (kind, _) in PAGE_STATE.get(page_name, {}).items():
        if c.is_upload and kind == "column":  # column names (partition axes)
            continue
        if key in st.session_state and st.session_state[key] is not None:
            value = st.session_state[key]
            wanted[key] = ("1" if value else "0") if isinstance(value, bool) else dtlearn.formatting.label(value)
    step = st.session_state.get("step", 0)
    row = st.session_state.get(f"formula_row_{step}")
    if page_name == "step" and row is not None and step in st.session_state.get(ROWS_PICKED, ()):
        wanted["row"] = str(row)
    if page_name == "practice" and st.session_state.get("practice_mode") in PRACTICE_MODES:
        wanted["mode"] = st.session_state["practice_mode"]
    if st.query_params.to_dict() != wanted:
        st.query_params.from_dict(wanted)


def keep_values() -> None:
    """Streamlit forgets a widget's value after a run that did not draw it. The settings and the
    Step page's expanders are drawn only some of the time (closed expanders, other pages), so
    their values are written back at the start of every run, which keeps them."""
    state = st.session_state
    families = (FAMILY_OPEN + family for family in dtlearn.criteria.FAMILIES)
    page_keys = [key for keys in PAGE_STATE.values() for key in keys]
    page_keys += [key for key in state if str(key).startswith("formula_row_")]  # each step's row, kept
    for key in (*SETTINGS, THRESHOLDS_OPEN, "digits", "practice_mode", PROJECTOR, *page_keys, *families):
        if key in state:
            state[key] = state[key]
