"""Predict: one example followed down the tree, each test in words, the leaves it reaches and
how they combine (dtlearn.explain), and the tree with its path drawn."""

import pandas as pd
import streamlit as st

from dtlearn.formatting import label, ordered_labels
from dtlearn.explain import explain, is_missing, number
from dtlearn.shorten import shown
from pages import session, stage
from pages.view import header, view, warn_id3_numbers
from pages.wording import md
from pages.tables import shortened_table

MISSING = "(missing)"
UNSEEN = "(a value the tree never saw)"
COLUMNS = 2  # widgets per row of the form (beside the prediction)
MAX_INPUTS = 40  # nobody fills more; and Streamlit takes longer for each widget the more there are
MAX_MENU = 500  # values a menu offers; past it the value is typed (a menu of 50,000 is sent whole to the browser)


def keys(v) -> tuple[str, dict]:
    """The row picker's key and each attribute's widget key, per dataset, target and kind (a
    widget keeps its own value: another dataset's or kind's widgets have other keys)."""
    c = v.choices
    base = f"predict|{c.source}|{c.target}|"
    return base + "row", {a: f"{base}{k}|{a}" for a, k in v.data.kinds.items()}


SAVED = "predict_example"  # widget key -> value of the last example: Streamlit forgets widgets off the page


def typed(v, attribute: str) -> bool:
    """Whether `attribute` is asked in a text box (a categorical one with more than MAX_MENU values)."""
    return v.data.kinds[attribute] == "categorical" and v.data.frame[attribute].nunique() > MAX_MENU


def options(v, attribute: str) -> list[str]:
    return list(ordered_labels(v.data.frame[attribute])) + [MISSING, UNSEEN]


def unseen_value(v, attribute: str) -> str:
    """A value the training data does not hold for `attribute` ('other', or 'other 2', ...)."""
    seen = set(ordered_labels(v.data.frame[attribute]))
    return next(word for word in ("other", *(f"other {i}" for i in range(2, len(seen) + 3))) if word not in seen)


def asked(v) -> list[str]:
    """The attributes the form asks for: every one, or for a wide table the first MAX_INPUTS the
    tree tests (pre-order); the others keep the training row's values, which no test reads."""
    if len(v.data.kinds) <= MAX_INPUTS:
        return list(v.data.kinds)
    tested = dict.fromkeys(node.test.attribute for node in v.tree.nodes() if node.status == "split")
    return [a for a in tested if a in v.data.kinds][:MAX_INPUTS]


def widget_value(v, attribute: str, value):
    """A training cell as its widget holds it: a label or MISSING (menus), a float or None."""
    if is_missing(value):
        return MISSING if v.data.kinds[attribute] == "categorical" else None
    if v.data.kinds[attribute] == "categorical":
        return label(value)
    number_ = pd.to_numeric(pd.Series([value]), errors="coerce").iloc[0]
    return None if pd.isna(number_) else float(number_)


def fill_from_row(v) -> None:
    """Prefill every widget with a training row (1-based, as the Data page numbers them)."""
    row_key, widget_keys = keys(v)
    row = min(max(int(st.session_state.get(row_key) or 1), 1), len(v.data.frame))
    cells = v.data.frame.iloc[row - 1]
    for attribute, key in widget_keys.items():
        value = widget_value(v, attribute, cells[attribute])
        st.session_state[key] = "" if value == MISSING and typed(v, attribute) else value


def example_of(v, chosen: dict) -> dict:
    """The widgets' values as an example for dtlearn.explain: MISSING (or an empty text box) ->
    None, UNSEEN -> a value the training data does not hold; a typed value as typed."""
    example = {}
    for attribute, value in chosen.items():
        if isinstance(value, str) and typed(v, attribute):
            value = value.strip() or MISSING
        if value == MISSING or value is None:
            example[attribute] = None
        elif value == UNSEEN and v.data.kinds[attribute] == "categorical":
            example[attribute] = unseen_value(v, attribute)
        else:
            example[attribute] = value
    return example


def numeric_widget(v, attribute: str, key: str, where) -> None:
    column = pd.to_numeric(v.data.frame[attribute], errors="coerce").dropna()
    whole = bool(len(column)) and bool((column % 1 == 0).all())
    low, high = (label(column.min()), label(column.max())) if len(column) else ("?", "?")
    where.number_input(md(attribute), value=None, key=key, step=1.0 if whole else 0.1, format="%g",
                       placeholder="(missing)", help=f"Empty: missing. Training values from {low} to {high}.")


def example_ui(v) -> dict:
    """The row picker and the form; returns the example as last submitted (widget values)."""
    row_key, widget_keys = keys(v)
    state = st.session_state
    n = len(v.data.frame)
    if row_key not in state:
        state[row_key] = 1
    if any(key not in state for key in widget_keys.values()):  # first visit, or back from another page
        fill_from_row(v)
        saved = state.get(SAVED, {})
        for key in widget_keys.values():
            if key in saved:
                state[key] = saved[key]
    picker, note = st.columns([2, 3], vertical_alignment="bottom")
    picker.number_input("Start from training row", min_value=1, max_value=n, step=1, key=row_key,
                        on_change=fill_from_row, args=(v,),
                        help="Fills the form with a row of the training table (numbered as on the Data page).")
    row = min(max(int(state[row_key] or 1), 1), n)
    actual = v.data.frame.iloc[row - 1][v.data.target]
    note.caption(f"Row {row} of the training table has {md(v.data.target)} = **{md(label(actual))}**. "
                 "Change any value below, or set it to *(missing)*, then press **Predict**.")
    inputs = asked(v)
    if len(inputs) < len(widget_keys):
        st.caption(f"This table has {len(widget_keys):,} attributes: the form asks for the {len(inputs)} the tree "
                   f"tests (at most {MAX_INPUTS}, from the root down); the others keep row {row}'s values.")
    with st.form("predict_form", border=True):
        columns = st.columns(COLUMNS)
        for i, attribute in enumerate(inputs):
            key, where = widget_keys[attribute], columns[i % COLUMNS]
            if typed(v, attribute):
                if not isinstance(state.get(key), str) or state[key] == MISSING:
                    state[key] = ""
                where.text_input(md(attribute), key=key, placeholder="(missing)",
                                 help=f"{v.data.frame[attribute].nunique():,} values: too many for a menu. Type one "
                                      "as the Data page shows it; empty: missing; any other: a value the tree never "
                                      "saw.")
            elif v.data.kinds[attribute] == "categorical":
                choices = options(v, attribute)
                if state.get(key) not in choices:
                    state[key] = MISSING
                where.selectbox(md(attribute), choices, key=key,
                                help="(a value the tree never saw): a value no training row has.")
            else:
                numeric_widget(v, attribute, key, where)
        st.form_submit_button("Predict", type="primary")
    state[SAVED] = {key: state.get(key) for key in widget_keys.values()}
    return {attribute: state.get(key) for attribute, key in widget_keys.items()}


def prediction_ui(tree, e) -> None:
    digits = session.digits()
    if tree.is_regression:
        st.metric(f"Predicted {md(shown(tree.target))}", number(e.prediction, digits))
        return
    st.metric(f"Predicted {md(shown(tree.target))}", md(shown(e.prediction)))
    shares, config = shortened_table(pd.DataFrame({"class": list(e.classes),
                                                   "share": [float(p) for p in e.distribution]}),
                                     {"share": st.column_config.NumberColumn(format=session.number_format())})
    st.dataframe(shares, hide_index=True, width="stretch", column_config=config)


def path_ui(tree, e) -> None:
    digits = session.digits()
    st.markdown("\n".join(f"{k}. {md(line)}" for k, line in enumerate(e.lines(digits), 1)))
    if e.is_split:
        combine_ui(tree, e)
    st.markdown(f"**Result:** {md(e.combination(digits))}")


def combine_ui(tree, e) -> None:
    """The leaves reached, their weights and what each adds to the prediction."""
    table = e.contributions()
    fmt = session.number_format()
    table, config = shortened_table(table, {c: st.column_config.NumberColumn(format=fmt) for c in table.columns
                                            if table[c].dtype.kind in "iuf"})
    st.dataframe(table, width="stretch", column_config=config)


v = view(pruned=True)
tree = v.tree
header("Predict an example", v)
if tree.pruning:
    st.info(f"Predicting with the pruned tree of the Pruning page ({md(tree.pruning['method'].replace('_', ' '))}). "
            "Switch it off on that page.")
warn_id3_numbers(v)
st.caption("Follow one example down the tree. A missing value: C4.5 sends the example down every branch, "
           "weighted by the branch's share of the training rows, and adds up the leaves it reaches (Quinlan 1993); "
           "CART asks its surrogate splits, then takes the branch most training rows took (Breiman et al. 1984).")

left, right = st.columns([3, 2], gap="large")  # the example beside its prediction: one screen at 1280x720
with left:
    chosen = example_ui(v)
try:
    explained = explain(tree, example_of(v, chosen))
except ValueError as error:  # dtlearn's message, in words
    st.error(md(error))
    st.stop()
with right:
    prediction_ui(tree, explained)

st.subheader("The way down")
path_ui(tree, explained)

st.subheader("The tree")
reached = explained.reached
above = st.container()
drawn_tree = stage.fitted(tree, explained.highlight, stage.box("predict"), highlight=explained.highlight,
                          digits=session.digits(), highlights=reached, also=frozenset(reached[:stage.TOP_NODES]),
                          whole=stage.wants_whole())
stage.whole_ui(above, tree, drawn_tree)
stage.show("predict", drawn_tree)
split = " (of its heaviest path: it went down several branches)" if explained.is_split else ""
st.caption(f"Blue border: the {len(reached)} nodes the example reaches; red: where its path ends{split}.")
if not drawn_tree.legible:
    st.caption(f"This tree has {tree.n_leaves} leaves: drawn whole here its labels are too small to read. The "
               "lines above name the nodes by the numbers drawn on them; click the tree to zoom.")
