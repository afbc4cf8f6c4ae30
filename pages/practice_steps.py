"""Practice: the node a student practises on, picked from the tree's growth, and the marks of a verdict."""

from __future__ import annotations

import streamlit as st

from dtlearn import quiz
from pages import stepper, wording
from pages.wording import md

ICONS = {"right": ":material/check_circle:", "wrong": ":material/cancel:", "too_coarse": ":material/help:",
         "unreadable": ":material/help:", "half": ":material/contrast:"}


def step_label(step) -> str:
    where = "the root" if not step.path else " and ".join(step.path)
    return f"Step {step.number}: {where}"


def node_facts(tree, step) -> None:
    st.markdown(f"**Node:** {wording.in_words(step.path, step.n)}  \n"
                f"**Rows:** {wording.counts_text(tree.classes, step.class_weights)}")


def pick_step(tree, key: str):
    """A growth step of the tree (the shared step when it is one)."""
    growth = quiz.questions(tree)
    if st.session_state.get(key) not in range(len(growth)):
        shared = stepper.current_step(len(growth))
        st.session_state[key] = max(shared - 1, 0)
    index = step_menu("Node (a step of the growth)", len(growth), key, lambda i: step_label(growth[i]))
    return growth[index]


MENU_STEPS = 500  # nodes a menu lists at most: Streamlit labels every option, a 50,000-way split's too


def step_menu(title: str, count: int, key: str, describe) -> int:
    """An index of range(count) (st.session_state[key]) chosen in a menu of `describe(i)`, or past
    MENU_STEPS by its number, its description below (the number's box follows the index, which
    another page may have moved)."""
    if count <= MENU_STEPS:
        return st.selectbox(title, range(count), key=key, format_func=describe)
    number = f"{key}_number"
    if st.session_state.get(number) != st.session_state[key] + 1:
        st.session_state[number] = st.session_state[key] + 1
    chosen = st.number_input(f"{title}: its number, 1 to {count:,}", 1, count, step=1, key=number,
                             on_change=lambda: st.session_state.update({key: st.session_state[number] - 1}))
    st.session_state[key] = int(chosen) - 1
    st.caption(md(describe(int(chosen) - 1)))
    return int(chosen) - 1


def dataset_name(v) -> str:
    """The dataset as file names give it: a built-in's name, or the uploaded file's."""
    return v.title if v.choices.is_upload else v.choices.source
