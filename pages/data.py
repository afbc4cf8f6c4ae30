"""Data: the table, its classes, and how each column is read (kind, distinct values, missing)."""

import streamlit as st

import dtlearn
from dtlearn import data_summary
from dtlearn.shorten import shown, visible
from pages import cached, charts, session
from pages.view import header, view
from pages.wording import md
from pages.tables import shortened_table

PREVIEW_ROWS = 1000  # rows of the table sent to the browser (a 100 MB upload has a million)


def pick_row() -> None:  # a click on a row shows it whole below the table
    rows = st.session_state["data_table"]["selection"].get("rows", [])
    if rows:
        st.session_state["data_row"] = rows[-1] + 1


def row_ui(frame) -> None:
    """One row with every name and value whole (invisible characters shown as ⟨U+…⟩): any row
    of the file, not only the ones previewed."""
    number = st.number_input("Read a row whole", min_value=1, max_value=max(len(frame), 1), value=None, step=1,
                             key="data_row", placeholder="row number")
    if number is None or not 1 <= number <= len(frame):
        return
    cells = frame.iloc[int(number) - 1]
    st.markdown("  \n".join(f"**{md(visible(name))}:** {md(visible(value))}" for name, value in cells.items()))


v = view()
header("Data" if session.projector() else f"Data: {md(shown(v.title))}", v)  # (the line names the data)
if v.choices.is_upload:
    st.caption("Your uploaded file. It is read as text only; nothing in it is run.")
else:
    info = dtlearn.dataset_info(v.choices.source)
    st.caption(f"{md(info.description)} Source: {md(info.source)}")

summary = data_summary.column_summary(v.data, inferred=cached.inferred_kinds(v.choices.source, v.choices.target))
regression = v.tree.is_regression
cells = st.columns(4)
cells[0].metric("Rows", len(v.data.frame))
cells[1].metric("Attributes", len(v.data.attributes))
cells[2].metric("Target", "numeric (regression)" if regression else f"{len(v.data.classes)} classes")
cells[3].metric("Missing cells", int(summary["missing"].sum()))

left, right = st.columns([3, 2], gap="large")
with left:
    st.subheader("The table")
    frame = v.data.frame
    table = frame.iloc[:PREVIEW_ROWS].copy()  # only what is shown is shortened and sent
    table.index = range(1, len(table) + 1)
    drawn, config = shortened_table(table)
    st.dataframe(drawn, height=min(38 + 35 * len(table), 560), width="stretch", column_config=config,
                 key="data_table", on_select=pick_row, selection_mode="single-row")
    if len(frame) > PREVIEW_ROWS:
        st.caption(f"The first {PREVIEW_ROWS:,} of {len(frame):,} rows (the whole table is the file); every "
                   "row counts in the numbers on this page and in the tree.")
    st.caption("Names and values longer than 40 characters are cut in the tables (⟨U+…⟩: an invisible "
               "character); click a row, or give its number, to read it whole.")
    row_ui(frame)
    ignored = [a for a, k in v.choices.kinds if k == "ignore"]
    if ignored:
        st.caption("Left out (kind *ignore*): " + ", ".join(md(a) for a in ignored))
with right:
    if regression:
        st.subheader(f"Values of {md(v.data.target)}")
        st.plotly_chart(charts.target_histogram(v.data.frame[v.data.target], v.data.target), key="classes")
        st.caption("A numeric target: CART grows a regression tree, each leaf predicting the mean of its rows.")
    else:
        st.subheader(f"Classes of {md(v.data.target)}")
        st.plotly_chart(charts.class_distribution(data_summary.class_counts(v.data), v.tree.classes), key="classes")

st.subheader("How each column is read")
st.caption("Numeric columns are split by thresholds (C4.5, CART); categorical ones by their values. "
           "Change a kind in the sidebar under *Attribute kinds*. Missing cells (empty or `?`) are "
           "shared among the branches by weight, as in C4.5.")
summary, config = shortened_table(summary, {"missing": st.column_config.NumberColumn("missing cells"),
                                             "note": st.column_config.TextColumn("note", width="medium")},
                                   prose=("role", "kind", "note"))
st.dataframe(summary, hide_index=True, width="stretch", column_config=config)
