"""The sidebar every page reads: the dataset (built-in, uploaded or pasted), the target column,
the attribute kinds, the algorithm and its settings, projector mode and the decimals shown.

`sidebar_ui` returns the `Choices`; dtlearn validates them (the router shows its message). Each
setting's widget is made from its description in dtlearn (`dtlearn.settings.OPTIONS`).
"""

from __future__ import annotations

import streamlit as st

import dtlearn
from dtlearn.criteria import CLASS_CRITERIA
from dtlearn.shorten import shown
from pages import cached
from pages.computing import digest
from pages.session import (BY_KEY, DEFAULT_ALGORITHM, DEFAULT_DATASET, DIGITS, KINDS, MAX_UPLOAD_MB, PROJECTOR,
                           SETTINGS, TUNED, UPLOAD, Choices, menu, menu_value, preset_value, setting_value)
from pages.wording import ALGORITHM_NOTES, algorithm_title, md


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
                            max_upload_size=MAX_UPLOAD_MB)
    st.caption(f"Up to {MAX_UPLOAD_MB} MB, UTF-8. A CSV has a header row; an ARFF file (Weka's) declares "
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
    for note in (cached.raw_dataset(state["source"]).notes if state["source"].startswith("upload:") else ()):
        st.caption(md(note))
    if not state["source"].startswith("upload:"):
        st.caption(f"Still showing {md(cached.source_title(state['source']))} until a file is read.")
    return state["source"]


def use_upload(name: str, content: bytes, file_id: str | None = None) -> None:
    """Read an uploaded (or pasted) table; the view moves to it only if it reads."""
    state = st.session_state
    if len(content) > MAX_UPLOAD_MB * 1024 * 1024:
        st.error(f"{md(name)} is larger than {MAX_UPLOAD_MB} MB.")
        return
    # the file's digest once per upload, not on every rerun (100 MB: half a second each time)
    known = state.get("upload_digest")
    if file_id is None or not known or known[0] != file_id:
        known = (file_id, digest(content))
        state["upload_digest"] = known
    key = "upload:" + known[1]
    parsed = cached.parse_upload(key, content)
    if not isinstance(parsed, dtlearn.Dataset):
        st.error(f"Could not use {md(name)}: {md(parsed)}")
        return
    if state.get("source") != key:
        state["step"] = 0
    state["upload"] = {"name": name, "content": content}
    state["source"] = key


def target_ui(source: str) -> str:
    raw = cached.raw_dataset(source)
    state = st.session_state
    columns = list(raw.frame.columns)
    if state.get("target_of") != source or state.get("target") not in columns:
        state["target"], state["target_of"] = raw.target, source
    target = st.selectbox("Target column", columns, key="target", on_change=_reset_step, format_func=shown,
                          help="The column to predict: its values are the classes (a numeric target grows a "
                               "regression tree with CART). Rows without a value in it are left out.")
    for note in cached.target_notes(source, target):
        st.caption(md(note))
    return target


def kinds_ui(source: str, target: str) -> tuple[tuple[str, str], ...]:
    """Categorical / numeric / ignore for each attribute; returns the overrides of the inferred kinds.
    The menus are sent only while their expander is open; the kinds live in session state."""
    state = st.session_state
    try:
        inferred = cached.inferred_kinds(source, target)
    except ValueError:  # a target dtlearn refuses (no values at all): `cached.check` says why
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
    raw = cached.raw_dataset(source)
    beyond = []
    for identifier in cached.identifiers(source, target):
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
                                     format_func=algorithm_title, on_change=_new_algorithm,
                                     width="stretch")
    st.caption(ALGORITHM_NOTES.get(algorithm, ""))
    main = [option for option in TUNED if option.place == "sidebar"]
    menus = [o for o in main if o.kind in ("choice", "weights")]
    numbers = [o for o in main if o.kind not in ("choice", "weights")]
    for option in menus:
        setting_ui(option, st, regression)
    columns = st.columns(2)
    for i, option in enumerate(numbers):
        setting_ui(option, columns[i % 2], regression)
    box = st.expander("Missing values, priors, regression", key="more_settings_open", on_change="rerun")
    if box.open:  # sent only while open; the values live in session state (address.keep_values)
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
        algorithm, settings = settings_ui(cached.is_regression(source, target, kinds))
        st.divider()
        st.session_state.setdefault("digits", DIGITS[0])
        st.toggle("Projector mode", key=PROJECTOR,
                  help="Larger type and a compact top: the tree and the decision in the first screen of a "
                       "1280x720 projector. The clicker's keys (Page Down / Up, ←/→, Home / End) step on every page.")
        st.segmented_control("Decimals shown", DIGITS, key="digits", required=True,
                             help="How many decimals tables, formulas and tree labels show ('all': every "
                                  "digit of the exact value). Practice grades an answer to the decimals it has.")
        st.caption("The address bar holds this view (dataset, settings, page and step): copy it to share.")
    return Choices(source, target, kinds, algorithm, settings)
