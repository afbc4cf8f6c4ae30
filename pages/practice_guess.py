"""Practice, Guess the next split: dtlearn.quiz asks, at each growth step, what the algorithm does;
the score and the answers are kept per tree (pages/quiz_state.py).
"""

from __future__ import annotations

import streamlit as st

from dtlearn import quiz
from dtlearn.formatting import label
from dtlearn.shorten import shown
from pages import quiz_state, session, stage, wording
from pages.practice_steps import ICONS, node_facts
from pages.tables import display_table
from pages.wording import md


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
