"""The Step page's slides for a lecture: a range of steps as an offline HTML deck and a beamer PDF.

The choices are read here; the deck is dtlearn's (`dtlearn.slides`), written when a button is
clicked (a deck lays out one tree per step: seconds for a long range, and most visits download
none).
"""

from __future__ import annotations

from functools import partial

import streamlit as st

from dtlearn import slides, slides_html, slides_tex

MAX_STEPS = 60  # steps on one deck: a lecture's worth, and a minute of `dot` at most


def _deck(tree, first: int, last: int, tables: bool, formulas: bool, title: str, source: str, digits):
    return slides.deck(tree, first, last, tables=tables, formulas=formulas, dataset=title, source=source,
                       digits=digits)


def _html(*arguments) -> str:
    return slides_html.to_html(_deck(*arguments))


def _pdf(*arguments) -> bytes:
    return slides_tex.compile_beamer(_deck(*arguments))


def _zip(stem: str, *arguments) -> bytes:
    return slides_tex.to_zip(_deck(*arguments), stem)


def slides_ui(tree, k: int, title: str, source: str, digits: int | None) -> None:
    """An expander with the range of steps, what each step adds, and the two downloads."""
    box = st.expander("Slides for a lecture: these steps as a deck (HTML for a clicker, or PDF)")
    total = tree.total_steps
    if total < 1:
        box.caption("This tree has no steps to put on slides.")
        return
    last = min(k, total) if k >= 1 else min(total, MAX_STEPS)  # the steps so far, or from the start
    if total > 1:
        first, last = box.slider("Steps on the slides", 1, total, (max(1, last - MAX_STEPS + 1), last),
                                 key="slides_steps", help=f"At most {MAX_STEPS} steps on one deck.")
    else:
        first = last = 1
    if last - first + 1 > MAX_STEPS:
        first = last - MAX_STEPS + 1
        box.caption(f"A deck holds at most {MAX_STEPS} steps: steps {first} to {last}.")
    left, right = box.columns(2)
    tables = left.toggle("With the candidate tables", key="slides_tables",
                         help="After each step's slide, one with its candidate table.")
    formulas = right.toggle("With the formulas", key="slides_formulas",
                            help="After each split's slide, its chosen test's formulas, worked out.")
    arguments = (tree, first, last, tables, formulas, title, source, digits)
    name = partial(slides.file_name, title, tree.algorithm, first, last)
    left, right = box.columns(2)
    left.download_button("Slides (HTML)", partial(_html, *arguments), name("html"), "text/html", key="slides_html",
                         on_click="ignore", width="stretch", icon=":material/slideshow:",
                         help="One file that works offline: Page Down / Page Up (a clicker), Home, End.")
    if slides_tex.beamer_available():
        right.download_button("Slides (PDF)", partial(_pdf, *arguments), name("pdf"), "application/pdf",
                              key="slides_pdf", on_click="ignore", width="stretch", icon=":material/picture_as_pdf:",
                              help="A LaTeX beamer deck, 16:9, compiled with pdflatex.")
    else:
        stem = name("zip")[:-len(".zip")]
        right.download_button("Slides (LaTeX, zip)", partial(_zip, stem, *arguments), name("zip"), "application/zip",
                              key="slides_zip", on_click="ignore", width="stretch",
                              help="The beamer source and each tree's PDF: compile with one run of pdflatex.")
        box.caption("For a PDF here, the server needs pdflatex with beamer (Debian's texlive-latex-recommended "
                    "and texlive-pictures).")
