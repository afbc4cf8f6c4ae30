"""Session state: what the student chose, kept in st.session_state between runs and pages.

The keys the sidebar, the link and the pages share; the `Choices` the sidebar leaves for the
pages (hashable: the caches are keyed by it); and the sidebar's settings as dtlearn describes
them (`dtlearn.settings.OPTIONS`: each one's widget key is its query parameter). State holds
choices and indices only, never models.
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

import dtlearn
from dtlearn.settings import OPTIONS

UPLOAD = "__upload__"  # the dataset menu's entry for a file of one's own
MAX_UPLOAD_MB = 100  # as .streamlit/config.toml's server.maxUploadSize, which Streamlit enforces first
KINDS = ("categorical", "numeric", "ignore")
# The Step page's expanders that stay open across steps and pages (address.keep_values):
THRESHOLDS_OPEN = "thresholds_open"  # the threshold chart
FAMILY_OPEN = "family_open_"  # + "entropy" / "gini" / "squared_error": a candidate's other measures
DIGITS = ("3", "4", "all")  # the sidebar's precision: decimals of every number shown
PRACTICE_MODES = ("check", "guess", "hand", "worksheet")
ROWS_PICKED = "formula_rows_picked"  # the steps whose formulas' row the student chose (the link says it)
PROJECTOR = "projector"  # session key and query parameter (projector=1)

DEFAULT_DATASET = "tennis"
DEFAULT_ALGORITHM = "id3"
# The settings a student tunes, as dtlearn describes them (dtlearn.settings.OPTIONS): each one's
# widget key is its query parameter, so the sidebar, the link and dtlearn read one description.
TUNED = tuple(option for option in OPTIONS if option.place)
SETTINGS = {option.url: option.name for option in TUNED}  # widget key (= query parameter) -> setting
BY_KEY = {option.url: option for option in TUNED}


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


def digits() -> int | None:
    """The decimals the student chose for numbers (None: all of them)."""
    chosen = st.session_state.get("digits", DIGITS[0])
    return None if chosen == "all" else int(chosen)


def number_format() -> str:
    """The printf format of table columns for the chosen precision."""
    d = digits()
    return "%.12g" if d is None else f"%.{d}f"


def projector() -> bool:
    """Whether projector mode is on (larger type, a compact top: the router's style)."""
    return bool(st.session_state.get(PROJECTOR))


def pruning_choice():
    """The Pruning page's method and parameters, when its pruned tree is to be shown elsewhere."""
    state = st.session_state
    return state.get("pruned_choice") if state.get("pruned_on") else None


# a setting's value in the sidebar's widget and in dtlearn ------------------------------------

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
