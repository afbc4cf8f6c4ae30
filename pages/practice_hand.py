"""Practice, Grow it by hand: the student chooses each node's split (dtlearn.by_hand), and the tree
is compared with the algorithm's, on the training rows or on rows held out.
"""

from __future__ import annotations

import streamlit as st

from dtlearn.settings import CRITERION_NAMES
from dtlearn.table import listed_table
from pages import cached, session, stage, wording
from pages.practice_steps import node_facts, step_label, step_menu
from pages.tables import candidate_text
from pages.wording import md


# grow it by hand ---------------------------------------------------------------------------------

ALGORITHMS_CHOICE = "(the algorithm's choice)"


def _hand_state(v) -> dict:
    state = st.session_state.get("hand")
    if state is None or state.get("key") != v.choices:
        state = {"key": v.choices, "choices": {}}
        st.session_state["hand"] = state
    return state


def _set_choice(state: dict, path: tuple, choice) -> None:
    """A new choice at a node (None: the algorithm's); the choices below it belonged to the old subtree."""
    kept = {p: c for p, c in state["choices"].items() if p[:len(path)] != path}
    if choice is not None:
        kept[path] = choice
    state["choices"] = kept


def hand_ui(v) -> None:
    from dtlearn.by_hand import compare

    state = _hand_state(v)
    # every row by default: a textbook's table is small, and its exercise is about all of it
    held_out = st.toggle("Hold out 25 % of the rows to test both trees", value=False, key="hand_held_out",
                         help="Both trees then grow on the other 75 % (stratified, seed 0) and are tested on "
                              "rows they have not seen.")
    try:
        hand, algorithms, test = cached.by_hand(v.choices, held_out, state["choices"])
    except ValueError as error:  # (a table too small to hold a quarter out: the split says so)
        hint = " Turn off the hold-out to grow both trees on every row." if held_out else ""
        st.error(f"{md(error)} Your choices are reset.{hint}")
        state["choices"] = {}
        return
    rows, grown_on = len(v.data.frame), len(hand.data.frame)
    st.caption(f"Both trees grow on {grown_on} of the {rows} rows and are tested on the other {rows - grown_on}."
               if held_out else f"Both trees grow on all {rows} rows: the table is not split. Turn on the hold-out "
                                "to test them on rows they have not seen.")
    splits = [s for s in hand.steps if s.action in ("split", "leaf")]
    key = "hand_node"
    if st.session_state.get(key) not in range(len(splits)):
        st.session_state[key] = 0
    index = step_menu("Node to decide", len(splits), key, lambda i: step_label(splits[i]) +
                      (" · by hand" if splits[i].path in state["choices"] else ""))
    step = splits[index]
    node_facts(hand, step)
    options = _hand_options(step)
    current = state["choices"].get(step.path)
    pick_key = f"hand_pick_{index}_{hash(step.path)}"
    if st.session_state.get(pick_key) not in options:
        st.session_state[pick_key] = current if current in options else ALGORITHMS_CHOICE
    left, right = st.columns([3, 1], vertical_alignment="bottom")
    picked = left.selectbox("Your decision here", list(options), key=pick_key, format_func=options.get)
    if right.button("Apply", type="primary", key="hand_apply", width="stretch"):
        _set_choice(state, step.path, None if picked == ALGORITHMS_CHOICE else picked)
        st.rerun()
    result = compare(hand, algorithms, test)
    show_comparison(result, held_out)
    theirs_title = f"{wording.algorithm_title(hand.algorithm)}'s tree"
    views = ("side by side", "your tree", theirs_title)
    shown = st.segmented_control("Show", views, key="hand_view", required=True, default=views[0],
                                 help="One tree at a time draws it at the page's full width (a projector).")
    drawings = {"your tree": ("**Your tree**", hand, step.node_id),
                theirs_title: (f"**{theirs_title}**", algorithms, None)}
    picked = drawings.items() if shown == "side by side" else [(shown, drawings[shown])]
    columns = st.columns(2) if shown == "side by side" else [st.container()]
    for column, (name, (title, grown, marked)) in zip(columns, picked):
        with column:
            st.markdown(title)
            where = "hand_" + ("yours" if name == "your tree" else "theirs") + ("_pair" if len(columns) == 2 else "")
            stage.show(where, stage.fitted(grown, grown.root.id if marked is None else marked, stage.box(where),
                                           highlight=marked, digits=session.digits()))
    if state["choices"]:
        st.button("Start again (the algorithm's tree)", key="hand_reset",
                  on_click=lambda: state.update(choices={}))


def _hand_options(step) -> dict:
    """The decisions offered at a node: the algorithm's, a leaf, or any candidate (each
    attribute's best first, then every other candidate)."""
    from dtlearn.by_hand import LEAF

    options = {ALGORITHMS_CHOICE: "Leave it to the algorithm", LEAF: "Make it a leaf"}
    table = listed_table(step)  # indexed by position (a long table: the rows listed)
    if step.candidates is None or not len(table):
        return options
    best = step.candidates.best_rows()
    ranked = CRITERION_NAMES.get(step.origin.settings.criterion, "score")
    for i in list(best) + [i for i in table.index[:400] if i not in set(best)]:
        row = table.loc[int(i)]
        options[str(row["test"])] = f"{candidate_text(row)} ({ranked} {float(row['score']):.4f})"
    return options


def show_comparison(result, held_out: bool) -> None:
    rows = {"nodes": result.nodes, "leaves": result.leaves, "depth": result.depth,
            "training accuracy": tuple(f"{a:.3f}" for a in result.train_accuracy)}
    if held_out and result.test_accuracy is not None:
        rows["held-out accuracy"] = tuple(f"{a:.3f}" for a in result.test_accuracy)
    table = {"": list(rows), "your tree": [str(v[0]) for v in rows.values()],
             "the algorithm's": [str(v[1]) for v in rows.values()]}
    st.dataframe(table, hide_index=True, width="content")
    if result.first_difference is None:
        st.info("Your tree is the algorithm's: choose another decision at a node to see what changes.")
    else:
        st.markdown(f"**First difference:** at {md(result.first_difference)}." + (f" {md(result.tie)}" if result.tie
                                                                                 else ""))
