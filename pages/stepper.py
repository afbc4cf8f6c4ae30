"""The step control: first, previous, next, last and a slider over a tree's recorded steps.

The Step, Tree and Partitions pages share one index (st.session_state["step"]); the Pruning
page steps its own. The buttons' keys are what a presenter's clicker presses (pages/assets/stage.js).
"""

from __future__ import annotations

import streamlit as st

from pages.session import projector


def _go(to: int) -> None:
    st.session_state["step"] = to


def current_step(total: int) -> int:
    """The shared step index, within 0..total (kept as it is, so another page's longer tree keeps it)."""
    return min(max(int(st.session_state.get("step", 0)), 0), total)


def stepper_ui(k: int, total: int, go, prefix: str = "", next_label: str = "Next step",
               slider_label: str = "Step", current=None, side=None) -> None:
    """First / previous / next / last and a slider over 0..total at position k; `go(to)` moves.
    The buttons' keys (`first`, `prev`, `next`, `last`, after `prefix`) are what the clicker
    keys press (pages/assets/stage.js): they work whatever has focus, the slider included. Previous and
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
