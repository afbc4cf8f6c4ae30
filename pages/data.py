"""Data: the table, its classes, and how each column is read (kind, distinct values, missing)."""

import streamlit as st

import dtlearn
from dtlearn import derivation
from pages import charts, common
from pages.common import md

v = common.view()
common.header(f"Data: {v.title}", v)
if v.choices.is_upload:
    st.caption("Your uploaded file. It is read as text only; nothing in it is run.")
else:
    info = dtlearn.dataset_info(v.choices.source)
    st.caption(f"{md(info.description)} Source: {md(info.source)}")

summary = derivation.column_summary(v.data, inferred=common.inferred_kinds(v.choices.source, v.choices.target))
regression = v.tree.is_regression
cells = st.columns(4)
cells[0].metric("Rows", len(v.data.frame))
cells[1].metric("Attributes", len(v.data.attributes))
cells[2].metric("Target", "numeric (regression)" if regression else f"{len(v.data.classes)} classes")
cells[3].metric("Missing cells", int(summary["missing"].sum()))

left, right = st.columns([3, 2], gap="large")
with left:
    st.subheader("The table")
    table = v.data.frame.copy()
    table.index = range(1, len(table) + 1)
    st.dataframe(table, height=min(38 + 35 * len(table), 560), width="stretch")
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
        st.plotly_chart(charts.class_distribution(derivation.class_counts(v.data), v.tree.classes), key="classes")

st.subheader("How each column is read")
st.caption("Numeric columns are split by thresholds (C4.5, CART); categorical ones by their values. "
           "Change a kind in the sidebar under *Attribute kinds*. Missing cells (empty or `?`) are "
           "shared among the branches by weight, as in C4.5.")
st.dataframe(summary, hide_index=True, width="stretch",
             column_config={"missing": st.column_config.NumberColumn("missing cells"),
                            "note": st.column_config.TextColumn("note", width="medium")})
