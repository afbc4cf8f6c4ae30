"""Pruning: watch a grown tree being pruned one decision at a time, with the numbers behind each."""

import streamlit as st

import dtlearn
from pages import pruning_view, session, stage, stepper, svg_chart
from pages.view import header, view
from pages.wording import md
from pages.pruning_view import (ACTION_WORDS, AFTER_WORDS, ALPHA_MODES, LIMITS, METHODS, NOTES, VALIDATION_METHODS,
                                PruneChoice)

v = view()
header("Pruning", v)
projector = session.projector()
if not projector:  # (a projector's first screen is for the decision and the tree)
    st.caption("Overfitting: a tree grown until its leaves are pure learns the noise of its training rows too. "
               "Pruning cuts back the branches that do not pay for themselves. Choose a method and step through it.")


def defaults(**values) -> None:
    """The parameters' defaults, set in the state before their widgets rather than passed to
    them: a widget given a default whose value a link set logs a warning (Streamlit)."""
    for key, value in values.items():
        st.session_state.setdefault(key, value)


def method_ui() -> PruneChoice:
    """The pruning method and its parameters; returns them (hashable)."""
    state = st.session_state
    methods = [m for m in METHODS if not (v.tree.is_regression and m == "pessimistic")]
    if state.get("prune_method") not in methods:
        state["prune_method"] = v.settings.default_pruning
    method = st.selectbox("Method", methods, key="prune_method", format_func=METHODS.get,
                          on_change=lambda: state.update(prune_step=0))
    st.caption(NOTES[method])
    cols = st.columns(4)
    if method in VALIDATION_METHODS:
        defaults(prune_validation=0.3, prune_seed=0)
        fraction = cols[0].slider("Validation share", *LIMITS["prune_validation"], step=0.05, key="prune_validation",
                                  help="The share of the rows set aside (stratified by class) to judge the prunes.")
        seed = cols[1].number_input("Random seed", *LIMITS["prune_seed"], key="prune_seed",
                                    help="Which rows go to the validation part; the same seed, the same split.")
        return PruneChoice(method, (("validation", float(fraction)), ("seed", int(seed))))
    if method == "pessimistic":
        defaults(prune_cf=0.25, prune_raising=True)
        confidence = cols[0].number_input("Confidence CF", *LIMITS["prune_cf"], step=0.05, key="prune_cf",
                                          help="C4.5's CF: smaller prunes more. J48's default is 0.25.")
        raising = cols[1].checkbox("Subtree raising", key="prune_raising",
                                   help="Also consider replacing a node by its largest branch (C4.5 and J48 do).")
        return PruneChoice(method, (("confidence", float(confidence)), ("raising", bool(raising))))
    by_cv = cols[0].radio("Choose α", ALPHA_MODES, key="prune_alpha_mode") == ALPHA_MODES[0]
    if by_cv:
        defaults(prune_folds=5, prune_one_se=True, prune_cv_seed=0)
        folds = cols[1].number_input("Folds", *LIMITS["prune_folds"], key="prune_folds")
        one_se = cols[2].checkbox("1-SE rule", key="prune_one_se",
                                  help="Take the simplest tree within one standard error of the best (Breiman et al.).")
        seed = cols[3].number_input("Random seed", *LIMITS["prune_cv_seed"], key="prune_cv_seed")
        return PruneChoice(method, (("cv", True), ("folds", int(folds)), ("one_se", bool(one_se)), ("seed", int(seed))))
    defaults(prune_alpha=0.01)
    alpha = cols[1].number_input("α", *LIMITS["prune_alpha"], step=0.005, format="%.4f", key="prune_alpha")
    return PruneChoice(method, (("cv", False), ("alpha", float(alpha))))


def prune_step_ui(total: int) -> int:
    """First / previous / next / last and a slider over the pruning decisions 0..total."""
    state = st.session_state
    j = min(max(int(state.get("prune_step", 0)), 0), total)
    stepper.stepper_ui(j, total, lambda to: state.update(prune_step=to), prefix="prune_", next_label="Next decision",
                       slider_label="Decision")
    return j


# on a projector the method and its parameters fold away below the tree (chosen before class), so that
# the numbers, the stepper, the decision and the tree are the first screen of 1280x720
top, settings_box = (st.container(), None) if projector else (None, st.container())
if projector:
    stage_part = st.container()
    settings_box = st.expander("Method and parameters")
with settings_box:
    choice = method_ui()
try:
    result = pruning_view.pruned(v.choices, choice)
except ValueError as error:
    st.error(f"{md(error)}  \nChange the method or its parameters.")
    st.stop()
base, final, trace = result.base, result.pruned, result.trace
st.session_state["pruned_choice"] = choice  # the Tree and Partitions pages can show this pruned tree
st.session_state["use_pruned"] = bool(st.session_state.get("pruned_on"))  # survives page switches
with settings_box:
    st.toggle("Show this pruned tree on the Tree and Partitions pages", key="use_pruned",
              on_change=lambda: st.session_state.update(pruned_on=st.session_state["use_pruned"]),
              help="Off: those pages show the grown tree. On: they show the pruned tree and replay its pruning "
                   "after its growth.")

numbers = [("Grown tree: nodes / leaves", f"{base.n_nodes} / {base.n_leaves}", None),
           ("Pruned tree: nodes / leaves", f"{final.n_nodes} / {final.n_leaves}", None)]
if result.validation is not None and not base.is_regression:
    before, after = dtlearn.accuracy(base, result.validation), dtlearn.accuracy(final, result.validation)
    # "0.750 → 0.750" was cut to "0.750 → 0.…" in a quarter of a 1280-pixel page: the grown tree's goes below
    numbers += [("Validation accuracy, pruned", f"{after:.3f}", f"grown: {before:.3f}"),
                ("Rows: train / validation", f"{len(result.train.frame)} / {len(result.validation.frame)}", None)]
elif final.pruning.get("alpha") is not None:
    numbers.append(("chosen α", pruning_view.number(final.pruning["alpha"]), None))
if projector:  # one line: four metrics in a quarter of the width each cut their labels at 125 %
    short = {"Grown tree: nodes / leaves": "grown", "Pruned tree: nodes / leaves": "pruned",
             "Validation accuracy, pruned": "validation accuracy", "Rows: train / validation": "rows"}
    top.markdown(f"**{md(METHODS[choice.method].split(' (')[0])}** · " + " · ".join(
        f"{short.get(name, name)} **{value}**" + (f" ({extra})" if extra else "") for name, value, extra in numbers))
else:
    for column, (name, value, extra) in zip(st.columns(4), numbers):
        column.metric(name, value, delta=extra, delta_color="off", delta_arrow="off")

def decision_ui() -> tuple[int, object]:
    """The stepper over the pruning decisions, the decision taken, and the tree as it left it;
    returns the decision's number and step (None: decision 0, the grown tree)."""
    j = prune_step_ui(len(trace))
    shown = base if j == 0 else final.at_step(base.total_steps + j)  # base: the grown tree, drawn already
    done = trace[j - 1] if j else None
    if done is None:
        st.markdown(f"**Decision 0 of {len(trace)}:** the grown tree, before any pruning.")
    else:
        where = "" if projector else f" ({md(' and '.join(done.path)) if done.path else 'the root'})"  # drawn
        st.markdown(f"**Decision {j} of {len(trace)}: node {done.node_id}{where} "
                    f"{ACTION_WORDS.get(done.action, done.action)}.**")
        # cost-complexity: the cut link's g(t) and the chosen α, named apart, in place of the reason's one line
        cost_complexity = choice.method == "cost_complexity"
        reason = done.headline if projector else done.reason
        st.info(pruning_view.alpha_lines(done, final, not projector) if cost_complexity else md(reason))
    # the red border is on the node the heading names, drawn as that decision left it (a pruned node as
    # a leaf); decision 0 marks none. The stage draws as much of the tree around that node (before any
    # decision: around the root) as the back row can read, or the whole tree on request
    marked = done.node_id if done is not None else None
    above = st.container()
    drawn_tree = stage.fitted(shown, marked if marked is not None else shown.root.id, stage.box("pruning"),
                              highlight=marked, digits=session.digits(), whole=stage.wants_whole())
    stage.whole_ui(above, shown, drawn_tree)
    stage.show("pruning", drawn_tree, reserve=stage.reserve("pruning", base, session.digits()))
    if projector:
        return j, done
    if done is not None:
        st.caption(f"Red border: node {done.node_id}, the node decision {j} is about: "
                   f"{AFTER_WORDS.get(done.action, ACTION_WORDS.get(done.action, done.action))}."
                   + (" This is the final pruned tree." if j == len(trace) else ""))
    elif trace:
        st.caption("The grown tree: no node is marked yet. Each decision marks its node with a red border.")
    else:
        st.caption("This method made no decision on this tree: the grown tree is the final tree.")
    return j, done


if projector:
    with stage_part:
        j, done = decision_ui()
else:
    st.subheader("Step through the pruning")
    j, done = decision_ui()

if done is not None:
    table, g = pruning_view.details_table(final, done), pruning_view.g_table(base, done)
    left, right = st.columns(2 if g is None else [2, 3], gap="medium")  # g(t)'s four columns: the wider part
    if table is not None:
        left.markdown("**The numbers that decided it**")
        left.dataframe(table, hide_index=True, width="stretch")
    if g is not None:
        right.markdown("**g(t) of every internal node** (the smallest is the weakest link)")
        right.dataframe(g, hide_index=True, width="stretch", column_config={
            "node": st.column_config.NumberColumn("node", width="small"),
            "where": st.column_config.TextColumn("where (last test)", width="medium"),
            "g(t)": st.column_config.TextColumn("g(t)", width="small"),
            "weakest": st.column_config.CheckboxColumn("weakest", width="small")})

st.subheader("Charts")
ink = st.get_option("theme.textColor") or "#141312"  # the theme's text colour, as every chart's axes
if result.curve is not None and not base.is_regression:
    st.markdown("**Overfitting:** accuracy on the training and validation rows as the tree grows "
                "(Mitchell 1997, fig. 3.6).")
    svg_chart.show(pruning_view.overfitting_chart(result.curve, final.n_nodes,
                                                  dtlearn.accuracy(final, result.validation), ink))
if result.path is not None:
    cv_table = final.pruning.get("cv_table")
    st.markdown("**α and the subtrees:** each α keeps the subtree whose total leaf risk plus α per leaf is lowest.")
    kept = trace[-1].details["alpha"] if trace else 0.0  # where the final subtree starts in the sequence
    svg_chart.show(pruning_view.alpha_chart(result.path, final.pruning, kept, base.is_regression, ink))
    # drawn only while open: a table grid's script is half a megabyte the first visit need not wait for
    tables = [("rpart's complexity-parameter table (CP = α / R(root))", "prune_cp_open", result.cp_table),
              ("Cross-validation of α", "prune_cv_open", cv_table)]
    for label, key, table in tables:
        if table is None:
            continue
        box = st.expander(label, key=key, on_change="rerun")
        if box.open:
            with box:
                st.dataframe(table.round(5), hide_index=True, width="stretch")
if result.validation is None and result.path is None:
    st.caption("Pessimistic pruning judges each node by its own training rows (no validation set), so there is no "
               "validation curve to draw; the numbers of every decision are above.")
