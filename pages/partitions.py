"""Partitions: a tree grown on two numeric attributes cuts their plane into rectangles.

It follows the same step as the other pages, so stepping shows one cut at a time.
"""

import streamlit as st

import numpy as np

import dtlearn
from dtlearn.formatting import label
from dtlearn.partition import MAX_POINTS, default_bounds, drawn_sample
from dtlearn.shorten import shown
from pages import charts, pruning_view, session, stage, stepper
from pages.view import header, view
from pages.wording import md

v = view()
header("Partitions of the plane", v)
numeric = [a for a, kind in v.data.kinds.items() if kind == "numeric"]
if len(numeric) < 2:
    st.info(f"This page needs two numeric attributes and {md(v.title)} has "
            f"{len(numeric) if numeric else 'no'} numeric attribute{'s' if len(numeric) != 1 else ''}"
            f"{': ' + md(numeric[0]) if len(numeric) == 1 else ''}. Try Iris, Watermelon 3.0 or the "
            "Internship table, upload a CSV with two numeric columns, or set two columns to *numeric* under "
            "*Attribute kinds* in the sidebar.")
    st.stop()

predicted = f"the mean {md(v.data.target)} it predicts" if v.tree.is_regression else "the class it predicts"
if not session.projector():  # (a projector's first screen is for the plane)
    st.caption("A tree that tests only thresholds on two attributes cuts their plane with lines parallel to the "
               f"axes: every leaf is a rectangle, coloured by {predicted}. Here the tree is grown on the "
               "two attributes alone, with the settings of the sidebar.")
if not v.settings.cuts_numbers:
    st.info("ID3 gives every distinct number its own branch, which draws no lines: partitions need thresholds. "
            "This page grows the tree with **C4.5** instead (same depth, leaf size, purity and gain limits).")

# The first two numeric attributes the full tree tests make the default axes (iris: petals); once
# shown, the axes stay as they are when the algorithm or the step changes (address.keep_values).
used = [s.test.attribute for s in v.tree.steps if s.action == "split" and s.test.attribute in numeric]
ordered = list(dict.fromkeys(used + numeric))
for key, default in (("part_x", ordered[0]), ("part_y", ordered[1])):
    if st.session_state.get(key) not in numeric:
        st.session_state[key] = default


def axes_ui(where) -> tuple[str, str]:
    left, right = where.columns(2)
    return (left.selectbox("Horizontal axis", numeric, key="part_x", format_func=shown),
            right.selectbox("Vertical axis", numeric, key="part_y", format_func=shown))


projector = session.projector()
if projector:  # the axes fold into the stepper's row: the plane and the tree get the screen
    x, y = st.session_state["part_x"], st.session_state["part_y"]
else:
    x, y = axes_ui(st)
if x == y:
    st.warning("Choose two different attributes.")
    if projector:
        axes_ui(st)
    st.stop()

tree = pruning_view.grow_on_pair(v.choices, x, y)
if tree.pruning:
    st.info("Showing the tree pruned as on the Pruning page: after its growth, the steps undo cuts.")
# This tree is not the Step page's (it sees two attributes): it has its own steps, and its own
# step in the link (part_step), so no number here is another tree's.
state = st.session_state
if "part_step" not in state:
    state["part_step"] = min(stepper.current_step(v.tree.total_steps), tree.total_steps)
k = min(max(int(state["part_step"]), 0), tree.total_steps)


def axes_popover(where) -> None:
    with where.popover("Axes", width="stretch", help=f"Now: {shown(x)} across, {shown(y)} up"):
        axes_ui(st)


stepper.stepper_ui(k, tree.total_steps, lambda to: state.update(part_step=to), slider_label="Step",
                   current=lambda: min(max(int(state.get("part_step", 0)), 0), tree.total_steps),
                   side=axes_popover if projector else None)
if tree.total_steps != v.tree.total_steps or any(
        a.test != b.test for a, b in zip(tree.steps, v.tree.steps) if a.action == b.action == "split"):
    steps = f"{tree.total_steps} step{'s' if tree.total_steps != 1 else ''}"
    st.caption(f"This tree sees {md(shown(x))} and {md(shown(y))} only: {steps}. The Step page's "
               f"tree, on every attribute, has {v.tree.total_steps}; its step is kept there.")
partial = tree.at_step(k)
bounds = default_bounds(tree, x, y)
rectangles = dtlearn.partition(partial, x, y, bounds)
lines = dtlearn.split_lines(partial, x, y, bounds)
step = tree.steps[k - 1] if k else None

if step is None:
    st.markdown(f"**Step 0 of {tree.total_steps}:** the whole plane is one undecided region.")
else:
    verb = {"split": "cut"}.get(step.action, step.action)
    where = "the root" if step.depth == 0 else f"node {step.node_id}"
    reason = step.headline if projector else step.reason
    st.markdown(f"**Step {k} of {tree.total_steps} ({verb} at {where}):** {md(reason)}")

frame = v.data.frame
values = {n.id: n.value for n in partial.nodes()} if tree.is_regression else None
newest = step.node_id if step and step.action == "split" else None
drawable = frame[frame[[x, y]].notna().all(axis=1)]
# A stated sample of a large table is drawn (stratified by class); the regions above use every row.
strata = np.zeros(len(drawable)) if tree.is_regression else drawable[v.data.target].map(label).to_numpy()
points = drawable.iloc[drawn_sample(strata, MAX_POINTS)]
box = stage.box("partitions")
plane, tree_column = st.columns(2, gap="small")
figure, unlabelled = charts.partition_chart(rectangles, lines, frame, x, y, v.data.target, tree.classes, newest,
                                            bounds, values, points=points, size=(box[0], box[1]))
plane.plotly_chart(figure, key="partition", width="content")
with tree_column:
    marked = step.node_id if step else 0
    stage.show("partitions", stage.fitted(partial, marked, box, highlight=marked, digits=session.digits()))
hidden = len(frame) - len(drawable)
sample = (f" The points are drawn from a sample of {len(points):,} of {len(drawable):,} rows (the same rows every "
          "time, each class keeping its share); the rectangles are computed on every row."
          if len(points) < len(drawable) else "")
numbered = (f" With {len(rectangles):,} regions only the newest {charts.LABELLED_CUTS} cuts are numbered."
            if len(rectangles) > charts.MANY_REGIONS else "")
crowded = (f" {unlabelled} cut{'s are' if unlabelled != 1 else ' is'} not numbered: no room beside the line "
           "clear of the other numbers." if unlabelled else "")
st.caption(f"Each rectangle is a node of the tree, coloured by {predicted}: pale while it is not "
           "decided yet, stronger once it is a leaf. The number on each line is the node that made the cut, as "
           "the tree beside numbers it (the newest in red)." + numbered + crowded
           + (f" {hidden} rows with a missing value are not drawn." if hidden else "") + sample)
