"""Practice: check your own numbers, guess the next split, print a worksheet.

Every number is graded by dtlearn.grading against the candidate table's own values (the
same the Step page shows); the mistakes named come from dtlearn.mistakes; the quiz from
dtlearn.quiz; worksheets from dtlearn.worksheet. This page only reads and shows them.
"""

from functools import partial

import streamlit as st

from dtlearn import grading, quiz, record
from dtlearn.formatting import label
from dtlearn.criteria import criterion
from dtlearn.settings import CRITERION_NAMES
from dtlearn.shorten import LABEL_CHARS, shown, shown_branch
from dtlearn.table import listed_table
from pages import cached, printing, quiz_state, session, stage, stepper, wording
from pages.view import header, view
from pages.tables import candidate_text, display_table
from pages.wording import md

MODES = dict(zip(session.PRACTICE_MODES, ("Check my numbers", "Guess the next split", "Grow it by hand",
                                          "Worksheet")))
ICONS = {"right": ":material/check_circle:", "wrong": ":material/cancel:", "too_coarse": ":material/help:",
         "unreadable": ":material/help:", "half": ":material/contrast:"}


def step_label(step) -> str:
    where = "the root" if not step.path else " and ".join(step.path)
    return f"Step {step.number}: {where}"


def node_facts(tree, step) -> None:
    st.markdown(f"**Node:** {wording.in_words(step.path, step.n)}  \n"
                f"**Rows:** {wording.counts_text(tree.classes, step.class_weights)}")


def pick_step(tree, key: str):
    """A growth step of the tree (the shared step when it is one)."""
    growth = quiz.questions(tree)
    if st.session_state.get(key) not in range(len(growth)):
        shared = stepper.current_step(len(growth))
        st.session_state[key] = max(shared - 1, 0)
    index = step_menu("Node (a step of the growth)", len(growth), key, lambda i: step_label(growth[i]))
    return growth[index]


MENU_STEPS = 500  # nodes a menu lists at most: Streamlit labels every option, a 50,000-way split's too


def step_menu(title: str, count: int, key: str, describe) -> int:
    """An index of range(count) (st.session_state[key]) chosen in a menu of `describe(i)`, or past
    MENU_STEPS by its number, its description below (the number's box follows the index, which
    another page may have moved)."""
    if count <= MENU_STEPS:
        return st.selectbox(title, range(count), key=key, format_func=describe)
    number = f"{key}_number"
    if st.session_state.get(number) != st.session_state[key] + 1:
        st.session_state[number] = st.session_state[key] + 1
    chosen = st.number_input(f"{title}: its number, 1 to {count:,}", 1, count, step=1, key=number,
                             on_change=lambda: st.session_state.update({key: st.session_state[number] - 1}))
    st.session_state[key] = int(chosen) - 1
    st.caption(md(describe(int(chosen) - 1)))
    return int(chosen) - 1


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


# guess the next split ---------------------------------------------------------------------------

LEAF_OPTION = "make it a leaf"


def _quiz_key(v) -> tuple:
    """This student's quiz of this tree: the key of its progress (pages/quiz_state.py). Writes the
    browser's cookie the first time, so a reload finds the same student."""
    token, note = quiz_state.student()
    if quiz_state.sent_token() != token:
        st.sidebar.html(quiz_state.cookie_script(token), unsafe_allow_javascript=True)  # (no gap in the page)
    if note:
        st.info(note)
    return token, v.choices


def _next_question(key: tuple) -> None:
    quiz_state.save(key, quiz_state.load(key).next())


def _restart(key: tuple) -> None:
    quiz_state.save(key, quiz_state.Progress())


def _reveal(key: tuple, step, choice: str, test: str | None) -> None:
    """Grade the answer and lock it."""
    attribute = None if choice == LEAF_OPTION else choice
    answer = quiz_state.Answer(step.number, attribute, test, quiz.check(step, attribute, test))
    quiz_state.save(key, quiz_state.load(key).answered(answer))


def _restore(key: str, value, options) -> None:
    """A locked answer shown in its widget (a new session, after a reload, starts without it)."""
    if value in options:
        st.session_state[key] = value


def guess_ui(v) -> None:
    tree = v.tree
    questions = quiz.questions(tree)
    key = _quiz_key(v)
    progress = quiz_state.load(key)
    index = min(progress.index, len(questions))
    projector = session.projector()
    asked = ""
    if index < len(questions) and projector:  # the node's facts are in the tree: the question says where
        where = "the root" if not questions[index].path else f"node {questions[index].node_id}"
        asked = f" · what does {wording.algorithm_title(tree.algorithm)} do at {where}?"
    st.markdown(f"**Score: {label(progress.score)} of {len(progress.answers)}** · question "
                f"{min(index + 1, len(questions))} of {len(questions)}{asked}")
    if index >= len(questions):
        st.success(f"The tree is complete: {label(progress.score)} points of {len(questions)}.")
        st.button("Start again", on_click=_restart, args=(key,), key="quiz_restart")
        grown = tree.at_step(tree.growth_steps)
        stage.show("quiz", stage.fitted(grown, grown.root.id, stage.box("quiz"), digits=session.digits()))
        return
    step = questions[index]
    if not projector:
        node_facts(tree, step)
    options = quiz.options(step)
    answered = progress.answer(step.number)
    locked = answered is not None
    choices = list(options) + [LEAF_OPTION]
    radio_key = f"guess_attribute_{step.number}"
    if locked:
        _restore(radio_key, LEAF_OPTION if answered.attribute is None else answered.attribute, choices)
    # the question and its answer above the tree: on a projector all three are in the first screen
    # nothing chosen at first: a preselected option was the right answer at some roots
    row = st.columns([3, 1], vertical_alignment="bottom")
    choice = row[0].radio("What does the algorithm do here?", choices, index=None, horizontal=True,
                          key=radio_key, disabled=locked, format_func=lambda o: md(shown(o)),
                          label_visibility="collapsed" if projector else "visible")
    test, needs_test = None, choice not in (None, LEAF_OPTION) and len(options.get(choice, ())) > 1
    picked = None
    if needs_test:
        best = f"its best test (the algorithm's own choice of {choice}'s cut or subset)"
        tests = (best,) + options[choice]
        test_key = f"guess_test_{step.number}_{choice}"
        if locked:
            _restore(test_key, best if answered.test is None else answered.test, tests)
        picked = row[0].selectbox("Which test?", tests, index=None, key=test_key, disabled=locked,
                                  placeholder="Choose a test", help="A candidate test of this attribute at this node.")
        test = None if picked == best else picked
    ready = choice is not None and (picked is not None or not needs_test)
    wanted = None if ready or locked else "Choose a test first." if needs_test else "Choose an answer first."
    if answered is None:
        if row[1].button("Reveal", type="primary", disabled=not ready, key=f"reveal_{step.number}", help=wanted,
                         width="stretch") and ready:
            _reveal(key, step, choice, test)
            st.rerun()
    else:
        row[1].button("Next question", on_click=_next_question, args=(key,), type="primary", key="quiz_next",
                      width="stretch", help="Page Down or → (a presenter's clicker)")
        guess = answered.guess
        show = st.success if guess.verdict == "right" else st.warning if guess.verdict == "half" else st.error
        show(md(guess.message), icon=ICONS[guess.verdict])
    before = tree.at_step(step.number - 1)
    stage.show("quiz", stage.fitted(before, step.node_id, stage.box("quiz"), highlight=step.node_id,
                                    digits=session.digits()))
    if not session.projector():
        st.caption("Red border: the node to decide. Dashed: not decided yet.")
    if answered is not None and step.action == "split":
        table, config = display_table(step.candidates.frame(step.candidates.best_rows()), tree)
        st.dataframe(table, hide_index=True, width="stretch", column_config=config)


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


# worksheet ---------------------------------------------------------------------------------------

def dataset_name(v) -> str:
    """The dataset as file names give it: a built-in's name, or the uploaded file's."""
    return v.title if v.choices.is_upload else v.choices.source


def worksheet_ui(v) -> None:
    from dtlearn import worksheet

    printing.print_style()  # the preview prints without the sidebar
    tree = v.tree
    total = tree.growth_steps
    if total == 0:
        st.info("This tree has no growth step to make a worksheet of.")
        return
    if total == 1:  # a range over one step is no choice (and Streamlit refuses a slider from 1 to 1)
        st.caption("This tree has a single step, the decision at the root: the worksheet covers it (Step 1).")
        first = last = 1
    else:
        first, last = st.slider("Steps", 1, total, (1, min(total, 3)), key="worksheet_steps")
    sheet = worksheet.worksheet(tree, first, last, digits=session.digits() or 6, dataset=v.title)
    shown_sheet = worksheet.preview(sheet)
    asked, shown_asked = (sum(len(p.questions) for p in s.parts) for s in (sheet, shown_sheet))
    whole = asked == shown_asked and len(sheet.columns) == len(shown_sheet.columns)
    columns = st.columns(4)
    for i, (solution, fmt) in enumerate(((False, "latex"), (True, "latex"), (False, "markdown"), (True, "markdown"))):
        render = worksheet.to_latex if fmt == "latex" else worksheet.to_markdown
        name = worksheet.file_name(dataset_name(v), tree.algorithm, first, last, solution=solution,
                                   extension="tex" if fmt == "latex" else "md")
        title = f"{'Solution' if solution else 'Exercises'} ({'LaTeX' if fmt == 'latex' else 'Markdown'})"
        data = render(sheet, solution) if whole else partial(render, sheet, solution)  # a long one: when clicked
        columns[i].download_button(title, data, file_name=name, key=f"download_{i}", width="stretch",
                                   on_click="ignore")
    st.caption("Compile a .tex with one run of `pdflatex` (Debian's texlive-latex-base).")
    show_solution = st.toggle("Show the solution", key="worksheet_solution")
    if not whole:
        st.caption(f"Below: its first {shown_asked} of {asked:,} questions and {len(shown_sheet.columns) - 1} of "
                   f"{len(sheet.columns) - 1:,} columns (a browser shows no more at once); the files hold them all.")
    st.markdown(worksheet.to_markdown(shown_sheet, show_solution))


v = view()
header("Practice", v)
if v.tree.is_regression:
    st.info("Practice covers classification trees (entropy, gain, gain ratio, Gini). This target is numeric: "
            "choose a target with classes, or Task: Classification under *Missing values, priors, regression*.")
    st.stop()
if st.session_state.get("practice_mode") not in MODES:
    st.session_state["practice_mode"] = "check"
mode = st.segmented_control("Mode", list(MODES), key="practice_mode", format_func=MODES.get, required=True,
                            label_visibility="collapsed" if session.projector() else "visible")
if mode == "check":
    check_ui(v)
elif mode == "guess":
    guess_ui(v)
elif mode == "hand":
    hand_ui(v)
else:
    worksheet_ui(v)
