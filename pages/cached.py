"""Cached dtlearn calls: the dataset, the prepared table and the trees a page draws from.

Each result is `computed` once for everyone who asks (keyed by content: the source, the target,
the kinds, the algorithm and its settings), so every page shows the same tree. A job reads no
session state: what it needs is read before and passed in.
"""

from __future__ import annotations

import streamlit as st

import dtlearn
from dtlearn.data import Dataset, labelled
from dtlearn.identifiers import identifier_columns
from pages.computing import computed
from pages.session import Choices


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


def grown_on_pair(source: str, target: str, kinds: tuple, algorithm: str, settings: tuple,
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
    if not dtlearn.make_settings(choices.algorithm, **dict(choices.settings)).cuts_numbers:
        return "c45", tuple((k, v) for k, v in choices.settings if k != "criterion")
    return choices.algorithm, choices.settings


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
