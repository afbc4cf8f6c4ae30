"""dtlearn's web app: the router and the sidebar every page reads.

    uv run streamlit run app.py

The sidebar chooses the dataset (built-in or an uploaded CSV), the target column, the
attribute kinds, the algorithm and its settings; the pages in pages/ read those choices
(pages/common.py) and draw what dtlearn computed. The view lives in the URL: dataset,
target, kinds, algorithm, settings, page and step are query parameters, so a shared link
opens the same view at the same step.
"""

from __future__ import annotations

import streamlit as st

import dtlearn
from pages import common, links, stage
from dtlearn.quantities import CLASS_CRITERIA
from dtlearn.settings import OPTIONS
from dtlearn.shorten import shown
from pages.common import FAMILY_OPEN, KINDS, THRESHOLDS_OPEN, UPLOAD, Choices, md
from pages.pruning_view import ALPHA_MODES, LIMITS, METHODS

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
}


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


DEFAULT_DATASET = "tennis"
DEFAULT_ALGORITHM = "id3"
# Where a link without `page=` opens: the Step page, the app's heart, drawn in under 2 s on a
# fresh browser. The Data page stays first in the menu, but its Plotly chart alone costs about
# a second of JavaScript before it can paint.
LANDING_PAGE = "step"
# The settings a student tunes, as dtlearn describes them (dtlearn.settings.OPTIONS): each one's
# widget key is its query parameter, so the sidebar, the link and dtlearn read one description.
TUNED = tuple(option for option in OPTIONS if option.place)
SETTINGS = {option.url: option.name for option in TUNED}  # widget key (= query parameter) -> setting
BY_KEY = {option.url: option for option in TUNED}


def menu(option) -> list:
    """The values a menu offers: 'none' stands for None (auto, from the data, ...)."""
    none = [option.none] if option.optional else []
    return none + [c for c in option.choices if c != option.none]


def menu_value(option, value):
    """A setting's value as its widget holds it (None as the option's word for it)."""
    if value is None and option.kind in ("choice", "weights"):
        return option.none
    return value


def setting_value(option, value):
    """A widget's value as the setting takes it."""
    if option.kind in ("choice", "weights") and value == option.none:
        return None
    return value


def preset_value(algorithm: str, key: str):
    option = BY_KEY[key]
    return menu_value(option, getattr(dtlearn.PRESETS[algorithm], option.name))


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
    columns = [str(column) for column in common.raw_dataset(source).frame.columns]  # a bundled table's
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
    if (digits := read("digits", links.choice, common.DIGITS)) is not IGNORED:
        state["digits"] = digits
    state[common.PROJECTOR] = read("projector", links.flag) is True
    if (mode := read("mode", links.choice, common.PRACTICE_MODES)) is not IGNORED:
        state["practice_mode"] = mode
    read("page", links.choice, tuple(PAGE_SCRIPTS))  # (`route` opens it: here only the note)
    if (step := read("step", links.whole, 0)) is not IGNORED:
        state["step"] = step
    if (row := read("row", links.whole, 0)) is not IGNORED:  # the Step page's formula row at this step
        state[f"formula_row_{state.get('step', 0)}"] = row
        state.setdefault(common.ROWS_PICKED, set()).add(state.get("step", 0))
    ignored += load_page_state(params, columns)
    if len(ignored) > NOTES_SAID:  # a link of thousands of bad parts: a few said, the rest counted
        ignored[NOTES_SAID - 1:] = [f"{len(ignored) - NOTES_SAID + 1:,} more values"]
    return ignored


def save_url(page_name: str, c: Choices) -> None:
    """Write the view into the query parameters (only the settings that differ from the preset)."""
    raw = common.raw_dataset(c.source)
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
    if st.session_state.get("digits", common.DIGITS[0]) != common.DIGITS[0]:
        wanted["digits"] = st.session_state["digits"]
    if common.projector():
        wanted["projector"] = "1"
    for key, (kind, _) in PAGE_STATE.get(page_name, {}).items():
        if c.is_upload and kind == "column":  # column names (partition axes)
            continue
        if key in st.session_state and st.session_state[key] is not None:
            value = st.session_state[key]
            wanted[key] = ("1" if value else "0") if isinstance(value, bool) else dtlearn.formatting.label(value)
    step = st.session_state.get("step", 0)
    row = st.session_state.get(f"formula_row_{step}")
    if page_name == "step" and row is not None and step in st.session_state.get(common.ROWS_PICKED, ()):
        wanted["row"] = str(row)
    if page_name == "practice" and st.session_state.get("practice_mode") in common.PRACTICE_MODES:
        wanted["mode"] = st.session_state["practice_mode"]
    if st.query_params.to_dict() != wanted:
        st.query_params.from_dict(wanted)


# the sidebar -------------------------------------------------------------------------------

def _reset_step() -> None:
    """Another dataset, target or algorithm is another tree: every page starts it at step 0 (the
    step numbers of the last tree mean nothing in it)."""
    st.session_state["step"] = 0
    for key in ("part_step", "prune_step"):
        st.session_state.pop(key, None)


def _new_algorithm() -> None:
    _reset_settings()
    _reset_step()


def _reset_settings() -> None:
    """A new preset brings its own settings (C4.5's leaf size is 0, Zaki's purity 0.95, ...)."""
    for key in SETTINGS:
        st.session_state[key] = preset_value(st.session_state["algo"], key)


def dataset_ui() -> str:
    """The dataset menu and, for a file of one's own, the uploader; returns the active source."""
    state = st.session_state
    names = dtlearn.dataset_names()
    state.setdefault("dataset", DEFAULT_DATASET)
    state.setdefault("source", DEFAULT_DATASET)
    choice = st.selectbox(
        "Dataset", names + (UPLOAD,), key="dataset", on_change=_reset_step,
        format_func=lambda n: "Upload a CSV or ARFF file…" if n == UPLOAD else dtlearn.dataset_info(n).title,
    )
    if choice != UPLOAD:
        state["source"] = choice
        st.caption(md(dtlearn.dataset_info(choice).description))
        return choice
    file = st.file_uploader("Your CSV or ARFF file", type=["csv", "arff"], key="upload_file",
                            max_upload_size=common.MAX_UPLOAD_MB)
    st.caption(f"Up to {common.MAX_UPLOAD_MB} MB, UTF-8. A CSV has a header row; an ARFF file (Weka's) declares "
               "its attributes, and their declared values are kept. The last column is the target at first (the last "
               "without empty cells, if it has some); rows without a value of the target are left out. "
               "Empty cells and `?` are missing values. Numbers printed with a unit (125K, 3 kg, 12%, \\$5, "
               "1,000) are read as the numbers written; a column that names the rows (Day, RID, Tid) is set to "
               "ignore. An uploaded file stays in this browser tab: it cannot travel in a shared link.")
    pasted = st.text_area("…or paste a small table", key="paste_text", height=90,
                          placeholder="outlook;windy;play\nsunny;yes;no\n…",
                          help="Cells copied from a spreadsheet (tab-separated), or CSV / semicolon text with a "
                               "header row. Read as a file would be.")
    if st.button("Use the pasted table", key="paste_use", disabled=not pasted.strip()):
        use_upload("pasted table", pasted.encode("utf-8"))
        state["pasted_over"] = file.file_id if file is not None else None  # the paste wins over this file
    if file is not None and state.get("pasted_over") != file.file_id:
        use_upload(file.name, file.getvalue(), file.file_id)
    for note in (common.raw_dataset(state["source"]).notes if state["source"].startswith("upload:") else ()):
        st.caption(md(note))
    if not state["source"].startswith("upload:"):
        st.caption(f"Still showing {md(common.source_title(state['source']))} until a file is read.")
    return state["source"]


def use_upload(name: str, content: bytes, file_id: str | None = None) -> None:
    """Read an uploaded (or pasted) table; the view moves to it only if it reads."""
    state = st.session_state
    if len(content) > common.MAX_UPLOAD_MB * 1024 * 1024:
        st.error(f"{md(name)} is larger than {common.MAX_UPLOAD_MB} MB.")
        return
    # the file's digest once per upload, not on every rerun (100 MB: half a second each time)
    known = state.get("upload_digest")
    if file_id is None or not known or known[0] != file_id:
        known = (file_id, common.digest(content))
        state["upload_digest"] = known
    key = "upload:" + known[1]
    parsed = common.parse_upload(key, content)
    if not isinstance(parsed, dtlearn.Dataset):
        st.error(f"Could not use {md(name)}: {md(parsed)}")
        return
    if state.get("source") != key:
        state["step"] = 0
    state["upload"] = {"name": name, "content": content}
    state["source"] = key


def target_ui(source: str) -> str:
    raw = common.raw_dataset(source)
    state = st.session_state
    columns = list(raw.frame.columns)
    if state.get("target_of") != source or state.get("target") not in columns:
        state["target"], state["target_of"] = raw.target, source
    target = st.selectbox("Target column", columns, key="target", on_change=_reset_step, format_func=shown,
                          help="The column to predict: its values are the classes (a numeric target grows a "
                               "regression tree with CART). Rows without a value in it are left out.")
    for note in common.target_notes(source, target):
        st.caption(md(note))
    return target


def kinds_ui(source: str, target: str) -> tuple[tuple[str, str], ...]:
    """Categorical / numeric / ignore for each attribute; returns the overrides of the inferred kinds.
    The menus are sent only while their expander is open; the kinds live in session state."""
    state = st.session_state
    try:
        inferred = common.inferred_kinds(source, target)
    except ValueError:  # a target dtlearn refuses (no values at all): `common.check` says why
        return ()
    from_url = state.pop("url_kinds", {})
    left_out = st.container()  # the identifiers' notes, above the menus, once their kinds are known
    box = st.expander("Attribute kinds", key="kinds_open", on_change="rerun")
    if box.open:
        box.caption("Read from the file; change a kind to treat numbers as categories, or leave a column out.")
    overrides, menus = [], list(inferred)[:dtlearn.identifiers.MAX_ATTRIBUTES]
    for attribute, kind in inferred.items():
        key = kind_key(source, target, attribute)
        # Written on every run: a menu not drawn in a run would otherwise lose its value.
        state[key] = from_url[attribute] if from_url.get(attribute) in KINDS else state.get(key, kind)
        if state[key] != kind:
            overrides.append((attribute, state[key]))
    if box.open:
        for attribute in menus:
            box.selectbox(md(shown(attribute)), KINDS, key=kind_key(source, target, attribute))
        if len(inferred) > len(menus):  # a wide table: one column's menu at a time, not thousands
            rest = list(inferred)[len(menus):]
            other = box.selectbox(f"Any of the other {len(rest):,} columns", rest, key=f"other|{source}|{target}",
                                  format_func=shown)
            box.selectbox(f"Kind of {md(shown(other))}", KINDS, key=kind_key(source, target, other))
    with left_out:
        identifiers_ui(source, target)
    return tuple(overrides)


def kind_key(source: str, target: str, attribute: str) -> str:
    """The session key (and widget key) of an attribute's kind menu."""
    return f"kind|{source}|{target}|{attribute}"


def identifiers_ui(source: str, target: str) -> None:
    """A note for each column left out because it names the rows (Mitchell's Day, Han's RID) or
    holds nearly as many values as rows, with a button that uses it after all (its kind as read;
    its menu under Attribute kinds does the same); one note and one button for a wide table's
    columns past the first `dtlearn.identifiers.MAX_ATTRIBUTES`."""
    raw = common.raw_dataset(source)
    beyond = []
    for identifier in common.identifiers(source, target):
        key = kind_key(source, target, identifier.name)
        if st.session_state.get(key) != "ignore":
            continue
        if identifier.rule == "beyond":
            beyond.append((key, identifier.name))
            continue
        name = md(shown(identifier.name))
        st.caption(f"**{name}** ({md(identifier.examples)}) is set to *ignore*: {md(identifier.why)}, so a tree "
                   "would split on it and learn nothing. Its menu under *Attribute kinds* changes that, or:")
        st.button(f"Use {name} as an attribute", key=f"use|{key}", on_click=_use_column,
                  args=(key, dtlearn.data.inferred_kind(raw.frame[identifier.name])))
    if beyond:
        _beyond_ui(raw, target, beyond)


def _beyond_ui(raw: dtlearn.Dataset, target: str, beyond: list[tuple[str, str]]) -> None:
    total = len(raw.frame.columns) - (target in raw.frame.columns)
    names = [md(shown(name)) for _, name in beyond]
    listed = ", ".join(f"**{name}**" for name in names[:2]) + (f", …, **{names[-1]}**" if len(names) > 2 else "")
    st.caption(f"Only {total - len(beyond):,} of the {total:,} attribute columns are used: the other {len(beyond):,} "
               f"({listed}), after the first {dtlearn.identifiers.MAX_ATTRIBUTES:,}, are set to *ignore*, since a "
               "tree over so many columns is slow to grow and to show. *Attribute kinds* sets any column's kind, "
               "or:")
    kinds = {key: dtlearn.data.inferred_kind(raw.frame[name]) for key, name in beyond}
    st.button(f"Use all {total:,} columns", key=f"use_all|{beyond[0][0]}", on_click=_use_columns, args=(kinds,))


def _use_columns(kinds: dict) -> None:
    st.session_state.update(kinds)
    _reset_step()


def _use_column(key: str, kind: str) -> None:
    st.session_state[key] = kind
    _reset_step()


def settings_ui(regression: bool) -> tuple[str, tuple]:
    """The algorithm preset and the settings a student tunes; returns the preset and the settings
    changed from it. dtlearn validates them (a bad value is its ValueError, shown on the page).
    For a regression tree the criterion is shown fixed (dtlearn ranks its splits by squared
    error) and the settings of classes only are off; their values are kept for later."""
    state = st.session_state
    if state.get("algo") not in dtlearn.ALGORITHMS:
        state["algo"] = DEFAULT_ALGORITHM
        _reset_settings()
    algorithm = st.segmented_control("Algorithm", dtlearn.ALGORITHMS, key="algo", required=True,
                                     format_func=common.algorithm_title, on_change=_new_algorithm,
                                     width="stretch")
    st.caption(common.ALGORITHM_NOTES.get(algorithm, ""))
    main = [option for option in TUNED if option.place == "sidebar"]
    menus = [o for o in main if o.kind in ("choice", "weights")]
    numbers = [o for o in main if o.kind not in ("choice", "weights")]
    for option in menus:
        setting_ui(option, st, regression)
    columns = st.columns(2)
    for i, option in enumerate(numbers):
        setting_ui(option, columns[i % 2], regression)
    box = st.expander("Missing values, priors, regression", key="more_settings_open", on_change="rerun")
    if box.open:  # sent only while open; the values live in session state (see keep_values)
        with box:
            for option in TUNED:
                if option.place == "more":
                    setting_ui(option, st, regression)
    used = {key: None if regression and BY_KEY[key].classes_only else setting_value(BY_KEY[key], state[key])
            for key in SETTINGS}
    changed = {SETTINGS[key]: value for key, value in used.items()
               if value != setting_value(BY_KEY[key], preset_value(algorithm, key))}
    return algorithm, tuple(changed.items())


def setting_ui(option, where, regression: bool) -> None:
    """One setting's widget, made from its description in dtlearn."""
    key = option.url
    if regression and option.name == "criterion":  # the menu's own value is kept for a target with classes
        where.selectbox(option.label, ["squared_error"], format_func=lambda _: "Decrease in squared error",
                        disabled=True, key=f"{key}_regression",
                        help="A numeric target grows a regression tree: its splits are ranked by the decrease "
                             "in mean squared error. Choose a target with classes (or Task: Classification) "
                             "for the other criteria.")
        return
    if regression and option.classes_only:
        note = f"{option.help} It does not apply to a numeric target."
        if option.kind in ("choice", "weights"):
            where.selectbox(option.label, ["classes only"], key=f"{key}_regression", disabled=True, help=note)
        else:
            where.number_input(option.label, value=None, key=f"{key}_regression", disabled=True,
                               placeholder="classes only", help=note)
        return
    if option.kind in ("choice", "weights"):
        choices = menu(option)
        if option.name == "criterion":  # a target with classes: squared error ranks numbers only
            choices = [c for c in choices if c in CLASS_CRITERIA]
            if st.session_state.get(key) not in choices:  # a link's squared_error: the preset's
                st.session_state[key] = preset_value(st.session_state["algo"], key)
        names = {menu_value(option, value): words for value, words in option.names.items()}
        where.selectbox(option.label, choices, key=key, format_func=lambda v: names.get(v, str(v)), help=option.help)
        return
    extra = {"min_value": option.low, "max_value": option.high} if option.kind == "whole" and option.high else {}
    if option.optional:
        extra["value"] = None
        extra["placeholder"] = option.none
    if option.format:
        extra["format"] = option.format
    where.number_input(option.label, key=key, step=option.step, help=option.help, **extra)


def sidebar_ui() -> Choices:
    with st.sidebar:
        source = dataset_ui()
        target = target_ui(source)
        kinds = kinds_ui(source, target)
        st.divider()
        algorithm, settings = settings_ui(common.is_regression(source, target, kinds))
        st.divider()
        st.session_state.setdefault("digits", common.DIGITS[0])
        st.toggle("Projector mode", key=common.PROJECTOR,
                  help="Larger type and a compact top: the tree and the decision in the first screen of a "
                       "1280x720 projector. The clicker's keys (Page Down / Up, ←/→, Home / End) step on every page.")
        st.segmented_control("Decimals shown", common.DIGITS, key="digits", required=True,
                             help="How many decimals tables, formulas and tree labels show ('all': every "
                                  "digit of the exact value). Practice grades an answer to the decimals it has.")
        st.caption("The address bar holds this view (dataset, settings, page and step): copy it to share.")
    return Choices(source, target, kinds, algorithm, settings)


# the run -----------------------------------------------------------------------------------

def default_choices() -> Choices:
    return Choices(DEFAULT_DATASET, common.raw_dataset(DEFAULT_DATASET).target, (), DEFAULT_ALGORITHM, ())


def keep_values() -> None:
    """Streamlit forgets a widget's value after a run that did not draw it. The settings and the
    Step page's expanders are drawn only some of the time (closed expanders, other pages), so
    their values are written back at the start of every run, which keeps them."""
    state = st.session_state
    families = (FAMILY_OPEN + family for family in ("entropy", "gini", "squared_error"))
    page_keys = [key for keys in PAGE_STATE.values() for key in keys]
    page_keys += [key for key in state if str(key).startswith("formula_row_")]  # each step's row, kept
    for key in (*SETTINGS, THRESHOLDS_OPEN, "digits", "practice_mode", common.PROJECTOR, *page_keys, *families):
        if key in state:
            state[key] = state[key]


def main() -> None:
    """One run of the page the link or the click asks for, within the time a page may take
    (common.PAGE); a run asked to stop (`common.stopping`) ends quietly, its work abandoned."""
    with common.routing(), dtlearn.budget.within(common.PAGE, cancelled=common.stopping):
        try:
            route()
        except dtlearn.budget.Cancelled:  # Streamlit starts the next run, or none: nothing to say
            pass


def route() -> None:
    st.set_page_config(page_title="dtlearn: decision trees, step by step", page_icon="🌳", layout="wide")
    common.kernels_warming()
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
    problem = common.check(choices)
    if problem is None:
        st.session_state["choices"] = choices
    else:
        kept = st.session_state.get("choices") or default_choices()
        st.session_state["choices"] = kept
        where = ("  \nTask is in the sidebar under *Missing values, priors, regression*."
                 if "Task" in problem else "")
        st.error(f"{md(problem)}{where}  \nThe page keeps showing the last tree dtlearn accepted.")
    save_url(names.get(page.url_path, "data"), st.session_state["choices"])
    common.classroom()
    try:
        page.run()
    except dtlearn.DataError as error:  # e.g. TooCostly: past the app's budget (common.BUDGET)
        if str(error) != problem:  # the page's time, run out while growing: said once
            st.error(f"{md(error)}  \nThe rest of this page is not shown; the sidebar's settings are kept.")


if __name__ == "__main__":
    main()
