"""Practice: check your own numbers, guess the next split, print a worksheet.

Every number is graded by dtlearn.grading against the candidate table's own values (the
same the Step page shows); the mistakes named come from dtlearn.mistakes; the quiz from
dtlearn.quiz; worksheets from dtlearn.worksheet. This page chooses the mode and draws the
worksheet; each other mode is a helper of its own (pages/practice_check.py, practice_guess.py,
practice_hand.py), and every one only reads and shows what dtlearn returns.
"""

from functools import partial

import streamlit as st

from pages import printing, session
from pages.practice_check import check_ui
from pages.practice_guess import guess_ui
from pages.practice_hand import hand_ui
from pages.practice_steps import dataset_name
from pages.view import header, view

MODES = dict(zip(session.PRACTICE_MODES, ("Check my numbers", "Guess the next split", "Grow it by hand",
                                          "Worksheet")))


# worksheet ---------------------------------------------------------------------------------------

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
    try:
        sheet = worksheet.worksheet(tree, first, last, digits=session.digits() or 6, dataset=v.title)
    except ValueError as error:  # a criterion no sheet is written for (the twoing rule)
        st.error(str(error))
        return
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
