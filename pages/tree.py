"""Tree: the tree at the current step (or complete), any node's details, the rules, downloads."""

from functools import partial

import pandas as pd
import streamlit as st

from dtlearn import shorten, spreadsheet
from dtlearn.table import LISTED_PER_ATTRIBUTE, LISTED_ROWS, listed_table

from pages import drawing, session, stage, stepper, wording
from pages.view import header, view, warn_id3_numbers
from pages.wording import md
from pages.tables import display_table, shortened_table, show_rows

PATH_SHOWN = 6  # conditions of a node's path named in the menu

v = view(pruned=True)
tree = v.tree
header("The tree", v)
if tree.pruning:
    st.info(f"Showing the pruned tree of the Pruning page ({md(tree.pruning['method'].replace('_', ' '))}): its steps "
            f"replay the growth, then {len(tree.pruning_steps)} pruning decisions. Switch it off on that page.")
warn_id3_numbers(v)
projector = session.projector()


def complete_ui(where) -> bool:
    return where.toggle("Show the complete tree", key="complete",
                        help="Off: the tree after the current step, as on the Step through page.")


if projector:  # the toggle takes the slider's place, the sizes one line: the tree gets the screen
    if st.session_state.get("complete"):
        complete_ui(st)
        k = tree.total_steps
    else:
        k = stepper.step_ui(tree.total_steps, side=complete_ui)
else:
    complete = complete_ui(st)
    k = tree.total_steps if complete else stepper.step_ui(tree.total_steps)
complete = bool(st.session_state.get("complete"))
shown = tree if complete else tree.at_step(k)
current = tree.steps[k - 1].node_id if k else 0
sizes = {"Nodes": shown.n_nodes, "Leaves": sum(1 for n in shown.nodes() if n.status == "leaf"), "Depth": shown.depth}
if projector:
    st.markdown(f"**Step {k} of {tree.total_steps}** · " + " · ".join(f"{n.lower()} {x}" for n, x in sizes.items()))
else:
    columns = st.columns(4)
    columns[0].metric("Step", f"{k} of {tree.total_steps}")
    for column, (name, value) in zip(columns[1:], sizes.items()):
        column.metric(name, value)

nodes = {node.id: node for node in shown.nodes()}
if st.session_state.get("tree_node") not in nodes:
    st.session_state["tree_node"] = current if current in nodes else 0
stage.node_picker(nodes, lambda node: st.session_state.update(tree_node=node))
picked = st.session_state["tree_node"]

above = st.container()
drawn_tree = stage.fitted(shown, picked, stage.box("tree"), highlight=picked, digits=session.digits(),
                          whole=stage.wants_whole())
stage.whole_ui(above, shown, drawn_tree)
pictures = stage.show("tree", drawn_tree, reserve=stage.reserve("tree", tree, session.digits()))
drawn = drawn_tree.visible  # a folded tree's menu lists the nodes drawn
if not projector:
    st.caption("Red border: the node whose details are below: click a node to pick it. Dashed: not decided yet. "
               "Click beside the nodes for full screen (scroll to zoom, drag to move).")

st.subheader("Node details")
left, right = st.columns(2, gap="large")
with left:

    def name(i):
        path = nodes[i].path
        last = " and ".join(shorten.shown(p) for p in path[-PATH_SHOWN:])  # a deep node: its last conditions
        return f"node {i}: " + (("… and " if len(path) > PATH_SHOWN else "") + last if path else "the root")

    # a large tree's menu lists the nodes drawn (40,000 entries would take minutes to name and send)
    menu = list(nodes) if drawn is None else [i for i in nodes if i in drawn or i == picked]
    node = nodes[st.selectbox("Node", menu, key="tree_node", format_func=name,
                              help="Every node drawn above, root first; its border turns red.")]
    st.markdown(f"**Where:** {wording.in_words(node.path, node.n)}")
    st.markdown(f"**Rows:** {wording.node_text(tree, node)}")
    st.markdown(f"**Predicts:** {md(node.prediction)}")
    if node.status == "split":
        st.markdown(f"**Test:** {md(node.test.describe())} (decided at step {node.step})")
        if tree.settings.surrogates and node.surrogates:  # how CART routes a missing value
            st.markdown("**Surrogate splits** (CART: used when a row's value for the test is missing; "
                        "agree = share of rows sent the same way, adj = rpart's adjusted agreement):")
            surrogates, config = shortened_table(pd.DataFrame({
                "surrogate": [s.describe() for s in node.surrogates],
                "agree": [round(s.agree, 3) for s in node.surrogates],
                "adj": [round(s.adj, 3) for s in node.surrogates]}))
            st.dataframe(surrogates, hide_index=True, width="stretch", column_config=config)
        elif len(node.children) == 2 and tree.settings.surrogates:
            st.caption("No surrogate split does better than sending every row the majority way.")
    elif node.status == "leaf":
        st.markdown(f"**Leaf** (decided at step {node.step}): {md(node.leaf_reason)}")
    else:
        st.markdown("**Not decided yet** at this step.")
with right:
    if not tree.is_regression:
        classes, config = shortened_table(pd.DataFrame({
            "class": list(tree.classes), "rows": [round(w, 3) for w in node.class_weights],
            "share": [round(p, 3) for p in node.distribution]}))
        st.dataframe(classes, hide_index=True, width="stretch", column_config=config)

show_rows(v, shown, node, k)
grown = next((s for s in tree.steps if s.node_id == node.id and s.action in ("split", "leaf")), None)
if grown is not None and grown.candidates is not None and len(grown.candidates):
    box = st.expander(f"Node {node.id}'s candidate splits (step {grown.number})", key="tree_node_table",
                      on_change="rerun")
    if box.open:  # sent only while open
        table, config = display_table(grown.candidates.frame(grown.candidates.best_rows()), tree)
        box.caption("Each attribute's best candidate at this node, with every measure (the Step page lists all).")
        box.dataframe(table, hide_index=True, width="stretch", column_config=config)

st.subheader("Rules")
leaves = shown.n_leaves
rules_listed = wording.RULES_SHOWN
more = f" The first {rules_listed:,} of {leaves:,}: 'Rules (text)' below downloads them all." \
    if leaves > rules_listed else ""
st.caption("One rule per leaf, read from the root down." + more)
st.code("\n".join(shown.rules(rules_listed)), language=None, wrap_lines=True)

st.subheader("Downloads")


def _picture(tree, digits: int | None, fmt: str) -> bytes | None:
    return drawing.render(tree.to_dot(digits=digits), fmt)


def _rules_text(tree) -> str:
    return "\n".join(tree.rules()) + "\n"


# each written when clicked (the whole 20,000-level chain's DOT took half a second at every click);
# the DOT without the red border or node numbers: for slides and handouts
digits = session.digits()
columns = st.columns(5)
stem = f"tree-{v.choices.source.replace(':', '-')}-{tree.algorithm}-step{k}"
columns[0].download_button("DOT source", partial(shown.to_dot, digits=digits), f"{stem}.dot", "text/vnd.graphviz",
                           key="download_dot", on_click="ignore", width="stretch")
if pictures:  # a big tree's PNG takes seconds, and most steps are not downloaded
    columns[1].download_button("SVG picture", partial(_picture, shown, digits, "svg"), f"{stem}.svg",
                               "image/svg+xml", key="download_svg", on_click="ignore", width="stretch")
    columns[2].download_button("PNG picture", partial(_picture, shown, digits, "png"), f"{stem}.png", "image/png",
                               key="download_png", on_click="ignore", width="stretch")
columns[3].download_button("Rules (text)", partial(_rules_text, shown),
                           f"{stem}-rules.txt", "text/plain", key="download_rules", on_click="ignore", width="stretch")
candidates = tree.steps[k - 1].candidates if k else None
if candidates is not None and len(candidates):  # written when clicked; a long table: the rows listed
    listed = partial(lambda step: spreadsheet.to_csv(listed_table(step)), tree.steps[k - 1])
    columns[4].download_button("Table (CSV)", listed, f"{stem}-table.csv", "text/csv",
                               key="download_table", on_click="ignore", width="stretch",
                               help=f"The candidate table of step {k}. Past {LISTED_ROWS:,} rows: each attribute's "
                                    f"{LISTED_PER_ATTRIBUTE} best candidates by score, and the chosen one.")
else:
    columns[4].caption("No candidate table at this step.")
if not pictures:
    st.caption("SVG and PNG need Graphviz's `dot` program on the server: install Graphviz "
               "(`apt install graphviz`, `brew install graphviz` or `conda install graphviz`) and restart the app. "
               "Meanwhile the DOT file opens in any Graphviz viewer: `dot -Tsvg tree.dot > tree.svg`.")
