"""Compare: ID3, C4.5, CART and Zaki & Meira's algorithm grown on the same data, side by side.
C4.5 is the version the sidebar chose (the 1993 book's or release 8, Weka's J48), J48 when
another algorithm is chosen (`dtlearn.comparison.with_version`)."""

import streamlit as st

from dtlearn import shorten
from dtlearn.formatting import label
from dtlearn.derivation import number
from dtlearn.comparison import with_version
from dtlearn.settings import OPTION, PRESET
from pages import cached, session, stage, wording
from pages.view import view
from pages.wording import algorithm_title, md

RANKING_ROWS, RANKING_PX = 12, 480  # the ranking table scrolls in a box of RANKING_PX beyond RANKING_ROWS rows
BOX = "compare"  # the stages' one box (pages/stage.py)
CHOSEN = "background-color: rgba(255, 75, 75, 0.18); font-weight: bold"  # each algorithm's root in the ranking table


def title(algorithm: str) -> str:
    return PRESET[algorithm].cited if algorithm in PRESET else algorithm_title(algorithm)


def shown(value) -> str:
    return "—" if value is None or value != value else number(value, session.digits())


def why_not(result) -> str:
    """Why an algorithm has no tree here, in words: the data, or the server's budget."""
    return "was not grown here" if result.too_costly else "does not apply to this data"


def spread(mean, sd) -> str:
    """A cross-validated score: mean ± standard deviation of the folds ('—': not cross-validated)."""
    return "—" if mean != mean else f"{shown(mean)} ± {shown(sd)}"


def trees_ui(comparison) -> None:
    """The four trees at one scale (the largest at which each is legible in its half of the page,
    folded around its root where it must be), each pair's first disagreement marked in both."""
    results = comparison.results
    digits = session.digits()
    drawn = {}
    # the four stages are of one size (half the page's width each): one box, said by the first stage
    # drawn, so that one rerun follows (not one per stage, all four trees drawn again each time); until
    # it has, half of another page's (same screen)
    box = stage.box(BOX, columns=2, fill=False)
    for r in comparison.applied:
        marks = comparison.first_differences(r.algorithm)
        drawn[r.algorithm] = (stage.fitted(r.tree, r.tree.root.id, box, digits=digits,
                                           highlights=tuple(marks.values()), also=frozenset(marks.values())), marks)
    reporter = next((a for a, (fit, _) in drawn.items() if fit.drawing is not None), None)
    scale = min((fit.scale for fit, _ in drawn.values() if fit.drawing is not None), default=None)
    for pair in (results[:2], results[2:4]):
        for column, r in zip(st.columns(2, gap="medium"), pair):
            with column:
                st.markdown(f"**{title(r.algorithm)}** · {r.n_nodes} nodes, {r.n_leaves} leaves, depth {r.depth}"
                            if r.applies else f"**{title(r.algorithm)}**")
                if not r.applies:
                    st.caption(f"{why_not(r).capitalize()}: {md(r.problem)}")
                    continue
                fit, marks = drawn[r.algorithm]
                stage.show(f"compare_{r.algorithm}", fit, scale=scale, fill=False,  # two rows of trees
                           boxed=BOX, reports=r.algorithm == reporter, columns=2)
                if marks:
                    seen = fit.whole or fit.visible
                    st.caption("Blue border: where it first differs from " + "; ".join(
                        f"{algorithm_title(other)} (node {node}{'' if seen is True or node in seen else ', folded'})"
                        for other, node in marks.items()) + ".")
                if not fit.whole:
                    st.caption("Folded around its root to stay legible: the Tree page draws it whole.")
                numeric = [a for a, kind in comparison.data.kinds.items() if kind == "numeric"]
                if not r.tree.settings.cuts_numbers and numeric:
                    st.caption(wording.id3_numbers(numeric))


v = view()
c = v.choices
# Each algorithm keeps its own criterion (it is what makes C4.5 C4.5); the other settings are shared.
shared = tuple((name, value) for name, value in c.settings if name != "criterion")
comparison = cached.compared(c.source, c.target, c.kinds, shared, with_version(c.algorithm))
c45 = next(a for a in with_version(c.algorithm) if PRESET[a].family == "c45")  # the version grown here
regression = comparison.task == "regression"
score = "MSE" if regression else "accuracy"

limits = [f"{md(OPTION[name].summary or name)} {md(label(value)) if value is not None else md(OPTION[name].none)}"
          for name, value in shared if name in OPTION]
line = " · ".join([f"**{md(v.title)}**", wording.rows(len(v.data.frame)), f"target {md(v.data.target)}",
                   f"{comparison.k}-fold cross-validation (stratified, seed {comparison.seed})", *limits])
if session.projector():  # one compact line, as every page's header in projector mode
    st.markdown(f"**Compare the algorithms** · {line}")
else:
    st.title("Compare the algorithms")
    st.markdown(line)
INTRO = ("The same rows grown four ways: ID3 (Quinlan 1986) ranks by information gain with one branch per value; "
         f"{title(c45)} by gain ratio among the splits with at least average gain; CART (Breiman et al. "
         "1984) by Gini gain over binary splits; Zaki & Meira (2014) by information gain over binary splits, "
         "stopping at small or pure nodes. Each keeps its own split criterion; the sidebar's other settings "
         "apply to every algorithm that accepts them. The sidebar's algorithm menu picks which C4.5: the 1993 "
         "book's or Release 8 (Weka's J48).")
if not session.projector():  # a projector's first screen is for the trees
    st.caption(INTRO)
    st.subheader("The four trees")
    st.caption("Drawn at one scale, so their sizes compare; each marks in blue where it first differs from the "
               "others (the nodes of the table below).")
trees_ui(comparison)
if session.projector():
    st.caption(INTRO)

st.subheader("Sizes and scores")
rows = comparison.table()
# st.table, not st.dataframe: a few rows need no grid, and the grid's script is half a megabyte the
# browser compiles before the page is ready. Its cells are Markdown: names from the file escaped.
st.table({
    "algorithm": [md(title(a)) for a in rows["algorithm"]],
    "root test": [md(shorten.shown(t)) for t in rows["root"]],
    "nodes": rows["nodes"].tolist(), "leaves": rows["leaves"].tolist(), "depth": rows["depth"].tolist(),
    f"training {score}": [shown(x) for x in rows["training"]],
    f"CV {score} ± sd": [spread(m, sd) for m, sd in zip(rows["cv_mean"], rows["cv_std"])],
}, hide_index=True, border="horizontal")
if regression:
    st.caption("A numeric target grows regression trees: the scores are mean squared errors (lower is better).")
st.caption("Training: on the rows the tree was grown from. CV: each tree regrown on four fifths of the rows and "
           "scored on the fifth left out, five times; the mean and the standard deviation of the five scores.")
for r in comparison.results:
    if not r.applies:
        st.caption(f"**{title(r.algorithm)}** {why_not(r)}: {md(r.problem)}")
        continue
    for name, why in r.skipped:
        st.caption(f"**{title(r.algorithm)}** ignores the setting {md(name)}: {md(why)}")
    for note in r.notes:
        st.caption(f"**{title(r.algorithm)}**: {md(note)}")
    if r.cv_problem:
        st.caption(f"**{title(r.algorithm)}**: no cross-validation: {md(r.cv_problem)}")

st.markdown("**Why each root:**")
for r in comparison.applied:
    st.markdown(f"- **{title(r.algorithm)}**: {md(r.root_reason)}")

st.subheader("Where the trees first disagree")
if comparison.disagreements:  # st.table wraps a long path (st.dataframe cuts it); its cells are markdown
    pairs = comparison.disagreements
    st.table({
        "trees": [f"{algorithm_title(d.first)} / {algorithm_title(d.second)}" for d in pairs],
        "first disagreement": [md(d.where) if d.path is not None else "*nowhere: the same tree*" for d in pairs],
        "the first does": [md(d.first_decision or "") for d in pairs],
        "the second does": [md(d.second_decision or "") for d in pairs],
    }, hide_index=True, border="horizontal")
    st.caption("Each pair's trees read root first, branch by branch (pre-order): the first node where one splits "
               "on another test than the other (a cut at another value counts), or one splits and the other stops.")
else:
    st.caption("Fewer than two algorithms grew a tree on this data: nothing to compare.")

st.subheader("Why the roots differ")
if comparison.applied:
    renamed = {r.algorithm: f"{algorithm_title(r.algorithm)}: {r.measure}" for r in comparison.applied}
    ranking = comparison.root_table().rename(columns=renamed)
    roots = {renamed[r.algorithm]: r.tree.root.test.attribute for r in comparison.applied
             if r.tree.root.status == "split"}

    def mark(column):
        return [CHOSEN if roots.get(column.name) == a else "" for a in ranking["attribute"]]

    measures = list(renamed.values())
    # one row per attribute: a wide file's scroll in a box of their own height
    with st.container(height=RANKING_PX if len(ranking) > RANKING_ROWS else "content", border=False):
        st.table(ranking.style.apply(mark, subset=measures).format(shown, subset=measures)
                 .format(lambda a: md(shorten.shown(a)), subset=["attribute"]).hide(axis="index"),
                 border="horizontal")
    st.caption("At the root, for each attribute's best candidate (ID3 and C4.5: one branch per value of a category; "
               "C4.5, CART and Zaki: the best cut of a number; CART and Zaki: the best binary subset of a "
               "category's values), the measure each algorithm ranks by. Shaded: the root each one chose. C4.5 "
               "ranks by gain ratio only the candidates whose gain is at least the average gain"
               + (", and its gain ratio of a cut subtracts log₂(cuts)/N from the gain (Quinlan 1996)"
                  if PRESET[c45].settings.threshold_correction else "") + ", so its root need not head its column.")

