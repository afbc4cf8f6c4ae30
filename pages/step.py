"""Step through: one decision at a time, with the table and the formulas behind it.

Step 0 is the root alone, nothing decided; step k (1..N) shows the k-th decision of the
recorded induction (tree.steps[k-1]) and the tree after it (tree.at_step(k)).
"""

import numpy as np
import pandas as pd
import streamlit as st

import dtlearn
from dtlearn import derivation
from dtlearn.criteria import FAMILIES, criterion
from dtlearn.settings import CRITERION_NAMES
from dtlearn.shorten import LABEL_CHARS, shown
from dtlearn.table import LISTED_ROWS
from pages import charts, drawing, lecture, session, stage, stepper, wording
from pages.view import header, view, warn_id3_numbers
from pages.session import FAMILY_OPEN, THRESHOLDS_OPEN
from pages.wording import md
from pages.tables import candidate_text, display_table, family_table, named, show_rows

FAMILY_TITLES = {family: c.family_title for family, c in FAMILIES.items()}
MANY_ROWS = 30  # more candidates than this: each attribute's best cut only, unless asked
MAX_ROWS = LISTED_ROWS  # beyond, each attribute's best cuts only (an upload can have a cut between every two rows)
MAX_CUTS = 1500  # points of the threshold chart; beyond, every k-th cut and the best ones


def candidates_ui(step, tree, projected: bool = False) -> pd.DataFrame:
    """The candidate table; returns its rows as shown: each attribute's best cut first, every cut
    when the student asks for them (past MAX_ROWS, each attribute's best: `CandidateTable.excerpt`).
    `projected`: a projector's table, each attribute's best candidate, in type as large as the page's."""
    candidates = step.candidates
    if projected:
        rows = candidates.frame(candidates.best_rows() if len(candidates) > MANY_ROWS else None)
        if step.action != "split":
            rows = rows.assign(chosen=False)
        shown = family_table(display_table(rows, tree)[0], tree)
        bold = ["font-weight: bold" if c else "" for c in rows["chosen"]]
        st.table(shown.style.format(lambda x: derivation.number(x, session.digits()),
                                    subset=shown.select_dtypes("number").columns)
                 .apply(lambda column: bold, axis=0), hide_index=True)
        return rows
    st.subheader("Candidate splits")
    if tree.is_regression:
        ranked = "the decrease in mean squared error (ΔMSE)"
    else:
        ranked = CRITERION_NAMES[tree.settings.criterion]
    st.caption(f"One row per candidate test at this node, with every measure; "
               f"{wording.algorithm_title(tree.algorithm)} ranks them by **{ranked}** (★, the first number column) "
               "and takes the row marked ✓; ties within 1e-12 go to the row first in the table. *Why not chosen* "
               "names the rule a row breaks; scroll the table sideways for the other measures. Click a row to "
               "work out its formulas below.")
    positions = None
    has_cuts = bool((candidates["threshold"] == candidates["threshold"]).any())
    if len(candidates) > MANY_ROWS and has_cuts:
        every = st.toggle("Show every threshold", key="every_threshold",
                          help="Off: each numeric attribute's best cut only (the chart below shows all of them).")
        best = candidates.best_rows()
        positions = best
        if every and len(candidates) > MAX_ROWS:  # a large node: each attribute's best by the ranked measure
            excerpt = candidates.excerpt()
            positions = excerpt.rows
            st.caption(f"{md(excerpt.note(ranked))}; the chart below draws every cut.")
        elif every:
            positions = None
    rows = candidates.frame(positions)
    if step.action != "split":
        rows = rows.assign(chosen=False)
    shown, config = display_table(rows, tree)
    key, formula_key = f"candidates_{step.number}", f"formula_row_{step.number}"

    def clicked() -> None:  # a click on a row's box or on any of its cells picks the row
        selection = st.session_state[key]["selection"]
        selected = list(selection.get("rows", [])) + [cell[0] for cell in selection.get("cells", [])]
        if selected:
            st.session_state[formula_key] = shown.index[selected[-1]]
            picked_row(step.number)

    chosen = [i for i, c in enumerate(rows["chosen"]) if c]
    st.dataframe(shown, hide_index=True, width="stretch", column_config=config, placeholder="",
                 height=min(38 + 35 * len(shown), 460), key=key, on_select=clicked,
                 selection_mode=["single-row", "single-cell"],
                 selection_default={"selection": {"rows": chosen}} if chosen else None)
    return rows


def picked_row(k: int) -> None:
    """The student chose the formulas' row at step k: the link says it (the chosen row, the default,
    is not in the link: a link copied before the page set its default reads the same)."""
    st.session_state.setdefault(session.ROWS_PICKED, set()).add(k)


def formulas_ui(step, tree, rows: pd.DataFrame):
    """The worked formulas of one of the candidate rows shown; returns the row the student picked."""
    table = rows
    chosen = [i for i, c in zip(table.index, table["chosen"]) if c]
    default = chosen[0] if chosen else table["score"].idxmax()
    st.subheader("The formulas, worked out")
    key = f"formula_row_{step.number}"
    if st.session_state.get(key) not in table.index:
        st.session_state[key] = default
    names = {i: candidate_text(r) + ("  (chosen)" if r["chosen"] else "")
             for i, r in zip(table.index, table.to_dict("records"))}
    picked = st.selectbox("Work out the formulas for", list(table.index), key=key, format_func=names.get,
                          on_change=picked_row, args=(step.number,),
                          help="Any row of the candidate table (or click the row in the table).")
    logs = "" if tree.is_regression else " Logarithms are base 2, and 0 · log 0 counts as 0."
    digits = session.digits()
    rounding = "with every decimal" if digits is None else f"rounded to {digits} decimals"
    st.caption(f"Each line: the formula, the numbers from the table put in, the result {rounding} (computed "
               "exactly; where the rounded numbers shown give another last digit, as a textbook's arithmetic "
               f"would, the line says so).{logs}")
    sections = derivation.derivation(table.loc[picked], tree.classes, digits, limit=LABEL_CHARS)
    ranked = criterion(tree.settings.criterion).family
    others = sorted({s.family for s in sections} - {"node", ranked})
    for section in sections:
        if section.family in ("node", ranked):
            show_section(section)
    for family in others:  # typeset only while open (they stay open while stepping)
        box = st.expander(f"The same candidate measured by {FAMILY_TITLES[family]}", key=FAMILY_OPEN + family,
                          on_change="rerun")
        if box.open:
            with box:
                for section in sections:
                    if section.family == family:
                        show_section(section)
    return picked


def show_section(section) -> None:
    """A section's lines, stacked in one formula block (one element instead of many)."""
    st.markdown(f"**{section.title}**")
    if section.other_names:  # the textbooks' names, said once where the quantity is worked out
        st.caption(wording.md(section.other_names))
    st.latex(r"\begin{gathered}" + r" \\[0.9em] ".join(section.lines) + r"\end{gathered}")


def thresholds_ui(step, tree) -> str | None:
    """Zaki & Meira's chart of every cut of a numeric attribute, in an expander that stays open
    while the student steps (and is only drawn while open: Plotly is the page's heaviest part).
    Returns the attribute shown, if any."""
    candidates = step.candidates
    if candidates is None or not (candidates["threshold"] == candidates["threshold"]).any():
        return None
    st.subheader("Every threshold of a numeric attribute")
    sides = f"the mean {md(tree.target)}" if tree.is_regression else "the rows of each class"
    box = st.expander(f"The chart: the score of every cut, and {sides} on either side", key=THRESHOLDS_OPEN,
                      on_change="rerun")
    if not box.open:
        return None
    with box:
        return threshold_chart(step, tree, candidates)


def threshold_chart(step, tree, candidates) -> str:
    """The chart of one attribute's cuts (at most MAX_CUTS of them: every k-th, and the best)."""
    evaluation = step.evaluation
    is_cut = candidates["threshold"] == candidates["threshold"]
    attributes = [evaluation.attributes[j] for j in dict.fromkeys(candidates.block[is_cut].tolist())]
    chosen = step.chosen_row
    chosen_attribute = evaluation.attributes[candidates.block[chosen]] if chosen is not None else None
    key = f"threshold_attribute_{step.number}"
    if st.session_state.get(key) not in attributes:
        st.session_state[key] = chosen_attribute if chosen_attribute in attributes else attributes[0]
    attribute = st.selectbox("Attribute", attributes, key=key, format_func=shown) if len(attributes) > 1 \
        else attributes[0]
    positions = np.flatnonzero(candidates.block == evaluation.attributes.index(attribute))
    if len(positions) > MAX_CUTS:  # every k-th cut, and the best ones kept
        k = -(-len(positions) // MAX_CUTS)
        score = np.nan_to_num(candidates["score"][positions], nan=-np.inf)
        best = positions[np.argsort(-score, kind="stable")[:5]]
        kept = set(positions[::k].tolist()) | set(best.tolist()) | ({chosen} if chosen in positions else set())
        st.caption(f"{len(positions)} cuts: every {k}th is drawn, and the best ones.")
        positions = np.array(sorted(kept))
    rows = candidates.frame(positions)
    cut = candidates["threshold"][chosen] if attribute == chosen_attribute else None
    # the value the tree's test writes (C4.5 / J48: a training value below the midpoint the table scores)
    tested = step.test.threshold if cut is not None and step.action == "split" else None
    if tree.is_regression:
        figure = charts.regression_threshold_chart(rows, attribute, tree.target, cut, tested)
        below = f"the mean {md(tree.target)} on each side"
    else:
        by_ratio = tree.settings.criterion == "gain_ratio" and tree.settings.threshold_by_ratio
        measure = "gain_ratio" if by_ratio else criterion(tree.settings.criterion).gain  # what picks a cut
        figure = charts.threshold_chart(rows, attribute, tree.classes, measure, cut, tested)
        below = "how many rows of each class fall on each side (solid ≤, dotted >)"
    note = ""
    if tree.settings.criterion == "gain_ratio" and not tree.is_regression:
        note = (" C4.5 (Quinlan 1993) keeps each attribute's cut with the highest gain ratio among its cuts of at "
                "least average gain, then compares attributes by gain ratio."
                if tree.settings.threshold_by_ratio else
                " C4.5 keeps each attribute's cut with the highest gain, then compares attributes by gain ratio.")
    st.caption(f"Cuts lie midway between neighbouring values; hollow points break a rule.{note} Below: {below}.")
    st.plotly_chart(figure, key=f"thresholds_{step.number}")
    return attribute


def show_decision(tree, step, brief: bool = False) -> None:
    if step is None:
        st.info("Nothing is decided yet. **Next step** decides the root: every candidate split of these rows "
                "is scored and the best one is taken, unless a stopping rule makes the root a leaf. "
                "Choose the dataset and the algorithm in the sidebar; the **Data** page shows the whole table.")
    else:
        show = {"split": st.success, "leaf": st.info}.get(step.action, st.warning)
        show(decision_text(tree, step, brief))


def summary(tree, step) -> str:
    if step is None:
        return "nothing decided yet"
    where = "the root" if step.depth == 0 else f"node {step.node_id}"
    if step.action == "split":
        return f"split {where} on {md(shown(step.test.attribute))}"
    if step.action == "leaf":
        return f"{where} becomes a leaf, {md(shown(tree.target))} = {md(shown(step.prediction))}"
    return f"{md(step.action)} at {where}"


def decision_text(tree, step, brief: bool) -> str:
    """The decision in words (markdown); `brief`: the reason's first sentence (a projector), the rest
    being shown with the numbers."""
    reason = step.headline if brief else step.reason
    if step.action == "split":
        return f"**Split.** {md(named(reason, step.test.attribute))}"
    if step.action == "leaf":
        return (f"**Leaf: {md(shown(tree.target))} = {md(shown(step.prediction))}.** "
                f"{md(named(reason, tree.target, step.prediction))}")
    return f"**{md(step.action.capitalize())}.** {md(reason)}"


def numbers_ui(step, tree) -> None:
    """The projector's second view of a step: its candidate table and the formulas, in the box
    the tree takes, sized for projection (the clicker's N / T / B keys switch views)."""
    if step is None or step.candidates is None or not len(step.candidates):
        st.info("No candidate table at this step: step forward to a decision (Page Down), or press T for the tree.")
        return
    with st.container(height=stage.box("step")[1], border=False, key="stage_numbers"):
        if step.reason != step.headline:
            st.caption(md(named(step.reason[len(step.headline):].strip(), step.test.attribute if step.test else "")))
        rows = candidates_ui(step, tree, projected=True)
        formulas_ui(step, tree, rows)


v = view()
tree = v.tree
projector = session.projector()
header("Step through the induction", v, short="Step through")
warn_id3_numbers(v)
k = stepper.step_ui(tree.total_steps, side=stage.view_ui if projector else None)
step = tree.steps[k - 1] if k else None
partial = tree.at_step(k)
node = partial.node(step.node_id if step else 0)
st.header(f"Step {k} of {tree.total_steps}: {summary(tree, step)}")

if not projector:
    where, size = st.columns(2)
    where.markdown(f"**Node:** {wording.in_words(node.path, node.n)}")
    size.markdown(f"**Rows:** {wording.node_text(tree, node)}")
show_decision(tree, step, brief=projector)
if projector and stage.view() == "numbers":
    numbers_ui(step, tree)
else:
    above = st.container()
    shown_tree = stage.fitted(partial, node.id, stage.box("step"), highlight=node.id, digits=session.digits(),
                              whole=stage.wants_whole())
    stage.whole_ui(above, partial, shown_tree)
    stage.show("step", shown_tree, reserve=stage.reserve("step", tree, session.digits()))
    if not projector:
        st.caption("Red border: the node being decided. Dashed: not decided yet. Click the tree for full screen "
                   "(scroll to zoom, drag to move; the clicker keeps stepping).")

if not (projector and stage.view() == "numbers"):
    show_rows(v, partial, node, k)
    if step is not None and step.action == "split":
        shown_rows = candidates_ui(step, tree)
        formulas_ui(step, tree, shown_rows)
        thresholds_ui(step, tree)
    elif step is not None and step.action == "leaf" and step.candidates is not None and len(step.candidates):
        box = st.expander("What the candidate splits would have scored here", key=f"leaf_candidates_{k}",
                          on_change="rerun")
        if box.open:
            with box:
                formulas_ui(step, tree, candidates_ui(step, tree))

if not projector:  # a projector's page is the live deck already
    source = "" if v.choices.is_upload else dtlearn.dataset_info(v.choices.source).source
    lecture.slides_ui(tree, k, v.title, source, session.digits())

if k < tree.total_steps:  # the likely next click: made ready while the student reads this step
    following, digits, wanted = tree.steps[k], session.digits(), stage.box("step")

    def ahead() -> None:  # in the background: a 20,000-level tree's next step takes seconds to make
        after = tree.at_step(k + 1)  # laid out as the page will draw it
        stage.fitted(after, following.node_id, wanted, highlight=following.node_id, digits=digits)
        following.candidates

    drawing.in_background(ahead, session=drawing.this_session())
