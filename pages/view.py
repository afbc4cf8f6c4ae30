"""The view a page draws from: the last choices dtlearn accepted, and what it made of them;
the line under each page's title.

Data flows one way: the sidebar leaves a `Choices` in st.session_state (pages/router.py) ->
`view()` turns it into a dataset and a tree through cached functions (pages/cached.py) -> a
page renders. Session state holds choices and the step index only; models live in the caches.
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

import dtlearn
from dtlearn.data import Dataset
from dtlearn.formatting import label
from dtlearn.settings import CRITERION_NAMES
from dtlearn.shorten import shown
from pages import pruning_view, router, wording
from pages.cached import grow, prepared, raw_dataset, source_title
from pages.session import Choices, projector, pruning_choice
from pages.wording import algorithm_title, md, rows


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


def view(pruned: bool = False) -> View:
    """The current view: the last choices dtlearn accepted, and what it made of them. With
    `pruned`, the tree is the Pruning page's pruned tree when the student chose to show it.
    A page run directly (before st.navigation has run: pages/router.py) runs the router
    instead, which runs the page again inside it."""
    if not router.routed():
        router.main()
        st.stop()
    c: Choices = st.session_state["choices"]
    tree = grow(c)
    prune = pruning_choice() if pruned else None
    if prune is not None:
        tree = pruning_view.pruned(c, prune).pruned
    return View(c, source_title(c.source), raw_dataset(c.source), prepared(c.source, c.target, c.kinds), tree)


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


def warn_id3_numbers(v: View) -> None:
    numeric = [a for a, k in v.data.kinds.items() if k == "numeric"]
    if not v.settings.cuts_numbers and numeric:
        st.warning(
            f"{wording.id3_numbers(numeric)} Choose C4.5 or CART for thresholds such as `x <= 2.45`."
        )
