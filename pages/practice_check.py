"""Practice, Check my numbers: a student's numbers for a node's candidates, graded by dtlearn.grading
against the candidate table's own values, and the record of graded work to hand in.
"""

from __future__ import annotations

import streamlit as st

from dtlearn import grading, record
from dtlearn.criteria import criterion
from dtlearn.formatting import label
from dtlearn.shorten import LABEL_CHARS, shown, shown_branch
from dtlearn.table import listed_table
from pages import printing, session, wording
from pages.practice_steps import ICONS, dataset_name, node_facts, pick_step
from pages.tables import candidate_text
from pages.wording import md


# check my numbers -----------------------------------------------------------------------------

def quantities_for(tree, step) -> list[str]:
    """What a student computes at this node: the criterion's family of measures (no split
    information or gain ratio for plain information gain), then the decision."""
    keys = list(criterion(tree.settings.criterion).checked)
    keys.append("attribute" if step.action == "split" else "leaf_class")
    if step.action == "split" and step.test.kind == "threshold":
        keys.append("threshold")
    return keys


def branch_text(name: str) -> str:
    return name[2:] if name.startswith("= ") else name


def candidate_rows(step) -> dict[int, str]:
    """Every candidate of the node (of a long table, the rows listed): each attribute's best first
    (`CandidateTable.best_rows`: C4.5's eligible cut, not its first), then the others in table order."""
    table = listed_table(step)  # indexed by position (a long table: the rows listed)
    if step.candidates is None or not len(table):
        return {}
    best = [int(i) for i in step.candidates.best_rows()]
    order = best + [int(i) for i in table.index if int(i) not in set(best)]
    return {i: candidate_text(table.loc[i]) + _marks(table.loc[i]) for i in order}


def _marks(row) -> str:
    return "  (chosen)" if row["chosen"] else "  (ties with the chosen)" if row["tied"] else ""


ENTRY = {"candidate": "One candidate, its numbers", "column": "One number, many candidates"}


def column_keys(tree, step) -> list[str]:
    """The quantities a column of the table holds for every candidate (not the node's own impurity,
    the same in every row, nor a branch's)."""
    return [k for k in quantities_for(tree, step) if grading.QUANTITIES[k].column
            and grading.QUANTITIES[k].column not in ("entropy_before", "gini_before")]


def column_rows(step, rows: dict[int, str], which: str) -> list[int]:
    """The candidates of a column: each attribute's best, or every candidate of one attribute."""
    if which == BEST_OF_EACH:
        return [int(i) for i in dict.fromkeys(step.candidates.best_rows().tolist()) if int(i) in rows][:COLUMN_ROWS]
    table = listed_table(step)
    return [i for i in rows if str(table.loc[i]["attribute"]) == which][:COLUMN_ROWS]


BEST_OF_EACH = "each attribute's best candidate"
COLUMN_ROWS = 60  # text boxes in one column form at most
BRANCH_BOXES = 20  # a quantity's boxes, one per branch, at most: nobody fills in a 12,000-way split's


def check_ui(v) -> None:
    printing.print_style()  # the verdicts and the record print without the sidebar
    tree = v.tree
    step = pick_step(tree, "practice_node")
    node_facts(tree, step)
    rows = candidate_rows(step)
    if not rows:
        st.info("No candidate split here (every row has one class, or no attribute is left). "
                "Grade the leaf's class below.")
    row = None
    if rows and st.segmented_control("Enter", list(ENTRY), key="practice_entry", format_func=ENTRY.get,
                                     required=True, default="candidate") == "column":
        column_ui(v, step, rows)
        record_ui(v)
        return
    if rows:
        key = f"practice_row_{step.number}"
        default = step.chosen_row if step.chosen_row in rows else next(iter(rows))
        if st.session_state.get(key) not in rows:
            st.session_state[key] = default
        row = st.selectbox(f"Candidate you worked out ({len(rows)}: type to search)", list(rows), key=key,
                           format_func=rows.get)
    work = grading.Work.of(step, row, root=tree.steps[0])
    if row is not None:
        more = f" · and {len(work.branches) - BRANCH_BOXES:,} more" if len(work.branches) > BRANCH_BOXES else ""
        st.markdown("**Its branches** (" + md("/".join(shown(c) for c in tree.classes)) + "): " + " · ".join(
            f"{md(shown_branch(branch_text(b)))}: {'/'.join(label(round(c, 3)) for c in counts)}"
            for b, counts in zip(work.branches[:BRANCH_BOXES], work.counts)) + more)
        if work.missing.sum() > 0:
            st.markdown(f"**Unknown value:** {wording.counts_text(tree.classes, work.missing)} "
                        "(C4.5 weights, Quinlan 1993)")
    results = st.container()  # the verdicts above the form: in view after the click, on a projector too
    entries = answers_form(tree, step, work)
    if entries is not None:
        with results:
            keep(v, show_grades(work, entries))
    record_ui(v)


def column_ui(v, step, rows: dict[int, str]) -> None:
    """One quantity of many candidates at once (a book's "compute every attribute's gain", or the
    Gini of every cut of one attribute), each graded against its own table row."""
    tree = v.tree
    keys = column_keys(tree, step)
    left, right = st.columns(2)
    key = left.selectbox("Quantity", keys, key="column_quantity",
                         format_func=lambda k: grading.QUANTITIES[k].title.split(",")[0])
    table = listed_table(step)
    groups = [BEST_OF_EACH] + list(dict.fromkeys(str(table.loc[i]["attribute"]) for i in rows))
    which = right.selectbox("Candidates", groups, key="column_candidates",
                            format_func=lambda g: g if g == BEST_OF_EACH else f"every candidate of {shown(g)}")
    chosen = column_rows(step, rows, which)
    results = st.container()
    with st.form(f"column_{step.number}_{key}_{which}", border=True):
        st.caption(f"Enter the {grading.QUANTITIES[key].phrase} of each candidate you computed; leave blank "
                   "the others.")
        column = st.columns([2, 3])[0]  # one column, as in the book's table: Tab goes down it
        entries = {i: column.text_input(md(rows[i]), key=f"column_answer_{i}") for i in chosen}
        submitted = st.form_submit_button("Check my column", type="primary")
    if submitted:
        with results:
            keep(v, show_column(step, key, entries, root=tree.steps[0], rows=rows))


def show_column(step, key: str, entries: dict[int, str], root, rows: dict[int, str]) -> list:
    """Each candidate's verdict in one list, its worked formula under a wrong one; returns what the
    record keeps of them (`dtlearn.record.checked`)."""
    digits = session.digits()
    graded = grading.grade_column(step, key, entries, root=root, digits=digits)
    if not graded:
        st.info("Enter at least one answer, then check.")
        return []
    phrase = grading.QUANTITIES[key].phrase
    st.subheader(f"{sum(g.right for g in graded.values())} of {len(graded)} right")
    kept = []
    for i, result in graded.items():
        show = st.success if result.right else st.error if result.status == "wrong" else st.warning
        show(f"**{md(rows[i])}**, {phrase}: {md(result.entered)}. {md(result.message)}",
             icon=ICONS[result.status])
        for mistake in result.mistakes:
            st.caption(f"{md(mistake.name.capitalize())}: {md(mistake.explanation)}")
        work = grading.Work.of(step, i, root=root)
        if result.formula:
            formula = work.formula(key, None, digits, limit=LABEL_CHARS)
            st.latex(r"\begin{gathered}" + r" \\[0.6em] ".join(formula) + r"\end{gathered}")
        kept.append(record.checked(work, key, result, None, digits))
    return kept


def answers_form(tree, step, work):
    """The form of answers; returns [(quantity, branch, text)] when submitted."""
    keys = quantities_for(tree, step)
    with st.form(f"answers_{step.number}_{work.row}", border=True):
        st.caption("Enter what you computed (any number of decimals, a decimal comma or a fraction such as "
                   "5/14); leave blank what you did not compute.")
        entries = []
        columns = st.columns(3)
        slot = 0
        for key in keys:
            quantity = grading.QUANTITIES[key]
            if quantity.per_branch:
                if work.row is None:
                    continue
                for b, name in enumerate(work.branches[:BRANCH_BOXES]):
                    title = f"{quantity.title.split(',')[0]}: {md(shown(branch_text(name)))}"
                    text = columns[slot % 3].text_input(title, key=f"answer_{key}_{b}")
                    entries.append((key, b, text))
                    slot += 1
            elif key == "attribute":
                options = [""] + list(dict.fromkeys(work.table["attribute"].astype(str)))
                text = columns[slot % 3].selectbox(quantity.title, options, key="answer_attribute", format_func=shown)
                entries.append((key, None, text))
                slot += 1
            elif key == "leaf_class":
                text = columns[slot % 3].selectbox(quantity.title, [""] + list(tree.classes), key="answer_leaf",
                                                   format_func=shown)
                entries.append((key, None, text))
                slot += 1
            else:
                if work.row is None and quantity.column not in ("entropy_before", "gini_before"):
                    continue
                text = columns[slot % 3].text_input(quantity.title, key=f"answer_{key}")
                entries.append((key, None, text))
                slot += 1
        if work.row is not None and len(work.branches) > BRANCH_BOXES:
            st.caption(f"Boxes for the first {BRANCH_BOXES} of its {len(work.branches):,} branches.")
        submitted = st.form_submit_button("Check my answers", type="primary")
    return [(k, b, t) for k, b, t in entries if str(t).strip()] if submitted else None


def show_grades(work, entries) -> list:
    """Each answer's verdict, the mistakes that give it and its worked formula; returns what the
    record keeps of them (`dtlearn.record.checked`)."""
    if not entries:
        st.info("Enter at least one answer, then check.")
        return []
    digits = session.digits()
    results = [(k, b, grading.grade(work, k, t, branch=b, digits=digits)) for k, b, t in entries]
    right = sum(r.right for _, _, r in results)
    st.subheader(f"{right} of {len(results)} right")
    for key, b, result in results:
        title = grading.QUANTITIES[key].title.split(",")[0]
        where = f" ({md(branch_text(work.branches[b]))})" if b is not None else ""
        text = f"**{title}{where}**: {md(result.entered)}. {md(result.message)}"
        show = st.success if result.right else st.error if result.status == "wrong" else st.warning
        show(text, icon=ICONS[result.status])
        for mistake in result.mistakes:
            st.caption(f"{md(mistake.name.capitalize())}: {md(mistake.explanation)}")
        if result.formula:  # typeset with long names cut (the grade keeps them whole)
            formula = work.formula(key, b, digits, limit=LABEL_CHARS)
            st.latex(r"\begin{gathered}" + r" \\[0.6em] ".join(formula) + r"\end{gathered}")
    return [record.checked(work, key, result, b, digits) for key, b, result in results]


# the record of graded work: every answer checked on this tree in this session, to hand in

RECORD = "practice_record"  # session state: {Choices: [record.Checked, ...]}


def _record_of(v) -> list:
    return st.session_state.setdefault(RECORD, {}).setdefault(v.choices, [])


def keep(v, checks) -> None:
    """Add a check's graded answers to the record of this tree (the same answer graded again once)."""
    kept = _record_of(v)
    kept.extend(c for c in checks if c not in kept)


def _clear(v) -> None:
    st.session_state.setdefault(RECORD, {})[v.choices] = []


def record_ui(v) -> None:
    """The record of this tree's graded answers: PDF (pdflatex on the server; else the .tex and how
    to compile it) and Markdown downloads, and a button that clears it."""
    from datetime import date

    from dtlearn import pdflatex

    checks = tuple(_record_of(v))
    if not checks:
        st.caption("Each answer you check is kept in a record of your work (verdicts, exact values, worked "
                   "formulas) to download and hand in.")
        return
    right = sum(c.right for c in checks)
    st.markdown(f"**Your record:** {len(checks)} answer{'s' if len(checks) != 1 else ''} checked on this tree, "
                f"{right} right.")
    options = {"dataset": v.title, "algorithm": v.tree.algorithm, "date": date.today().strftime("%d %B %Y")}
    name, algorithm = dataset_name(v), v.tree.algorithm
    latex = record.to_latex(checks, **options)
    columns = st.columns(3)
    if pdflatex.available():  # compiled when clicked, in a thread of its own (about a second)
        columns[0].download_button("Record (PDF)", lambda: pdflatex.compile_pdf(latex).pdf,
                                   file_name=record.file_name(name, algorithm, "pdf"), mime="application/pdf",
                                   key="record_pdf", width="stretch", icon=":material/picture_as_pdf:")
    else:
        columns[0].download_button("Record (LaTeX)", latex, file_name=record.file_name(name, algorithm, "tex"),
                                   mime="application/x-tex", key="record_tex", width="stretch", on_click="ignore")
    columns[1].download_button("Record (Markdown)", record.to_markdown(checks, **options),
                               file_name=record.file_name(name, algorithm, "md"), mime="text/markdown",
                               key="record_md", width="stretch", on_click="ignore", icon=":material/download:")
    columns[2].button("Clear the record", key="record_clear", on_click=_clear, args=(v,), width="stretch")
    if not pdflatex.available():
        st.caption(f"To make a PDF: `pdflatex {record.file_name(name, algorithm, 'tex')}` (one run; Debian's "
                   "texlive-latex-base).")
