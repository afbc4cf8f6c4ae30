r"""A deck of slides (`slides.deck`) as a LaTeX beamer document, with each step's tree as a PDF beside it.

A 16:9 beamer frame is 160 mm wide where the HTML deck's slide is 1280 px: each tree is
included at the size the projector's rule chose (`framing`), 1/8 mm a px, so both decks show
the same drawing at the same share of the screen. The trees are Graphviz's PDFs (`dot -Tpdf`),
written beside the document; `compile_beamer` runs pdflatex once (`pdflatex`). Beamer needs
Debian's texlive-latex-recommended and texlive-pictures (pgf) besides texlive-latex-base
(`beamer_available` says whether they are here).

Every name and value from a file goes through `typeset.tex` (text) or `derivation.text`
(formulas); characters pdflatex has no glyph for are written as their code points.
"""

from __future__ import annotations

import functools
import io
import re
import shutil
import subprocess
import zipfile
from dataclasses import dataclass

from . import layout, typeset
from .budget import TooCostly
from .pdflatex import compile_pdf
from .slides import FRAME_PX, TREE_BOX, Deck, Frame
from .typeset import tex

MM_PER_PX = 160 / FRAME_PX[0]  # beamer's 16:9 frame is 160 mm x 90 mm
TREE_MM = (TREE_BOX[0] * MM_PER_PX, 58.0)  # mm: a tree's box on a frame (the title and the decision above it)
# Marks of the HTML deck that pdflatex spells otherwise (typeset.pdflatex_safe writes the rest as U+XXXX).
_MARKS = {"✓": r"$\checkmark$", "★": r"$\star$", "–": r"\textendash{}", "′": r"$'$"}
_MACROS = [line for line in typeset.PREAMBLE.splitlines() if line.startswith(r"\newcommand")]
PREAMBLE = "\n".join([
    r"\documentclass[aspectratio=169,11pt,t]{beamer}",  # t: a frame's text from the top
    r"\usepackage[T1]{fontenc}",
    r"\usepackage[utf8]{inputenc}",
    r"\usepackage{lmodern}",
    r"\usepackage{amsmath,amssymb}",
    r"\usepackage{graphicx}",
    r"\setbeamertemplate{navigation symbols}{}",
    r"\setbeamercolor{split}{fg=black!80!green,bg=green!8}",
    r"\setbeamercolor{leaf}{fg=black!80!blue,bg=blue!7}",
    *_MACROS,
    r"\emergencystretch=3em",
])


@dataclass(frozen=True)
class Beamer:
    """The document and the files it includes (each step's tree), by file name."""

    tex: str
    files: dict


def to_beamer(deck: Deck, figures: str = "slides") -> Beamer:
    """The deck as a beamer document; its trees are `figures`-step-K.pdf (plain names: letters,
    digits, - and _), laid out by `dot` (a frame says so where `dot` is missing or refuses)."""
    figures = re.sub(r"[^A-Za-z0-9_-]+", "-", figures).strip("-") or "slides"  # pdflatex reads ASCII names
    files, body = {}, []
    title = r"\title{" + tex(deck.title) + "}"
    steps = f"step {deck.first}" if deck.first == deck.last else f"steps {deck.first} to {deck.last}"
    subtitle = r"\subtitle{" + tex(f"The induction, {steps}, one decision a slide") + "}"
    for i, frame in enumerate(deck.frames):
        if frame.kind == "title":
            source = r"\par\medskip{\small " + tex(deck.source) + "}" if deck.source else ""
            body += [r"\begin{frame}", r"\titlepage" + source, r"\end{frame}"]
            continue
        body += [r"\begin{frame}", r"\frametitle{" + _marks(tex(frame.heading)) + "}"]
        if frame.verdict:
            body += _decision(frame)
        if frame.kind == "step":
            body += _tree(frame, f"{figures}-step-{frame.step}-{i}.pdf", files)
        elif frame.kind == "table":
            body += _table(frame)
        else:
            body += _formulas(frame)
        body.append(r"\end{frame}")
    # the frame's number of the total (beamer's own total needs a second run)
    footline = (r"\setbeamertemplate{footline}{\hfill\usebeamerfont{footline}\insertframenumber{} / "
                f"{len(deck.frames)}" + r"\hspace*{3mm}\vspace*{2mm}}")
    document = [PREAMBLE, footline, title, subtitle, r"\date{}", r"\begin{document}", *body, r"\end{document}"]
    return Beamer(typeset.pdflatex_safe("\n".join(document)) + "\n", files)


def _marks(text: str) -> str:
    for mark, spelled in _MARKS.items():
        text = text.replace(mark, spelled)
    return text


def _decision(frame: Frame) -> list[str]:
    colour = "split" if frame.action == "split" else "leaf"
    return [r"\begin{beamercolorbox}[rounded=true,sep=1.2mm,wd=\textwidth]{" + colour + "}",
            r"\small\raggedright\textbf{" + tex(frame.verdict) + "} " + tex(frame.decision),
            r"\end{beamercolorbox}"]


def _tree(frame: Frame, name: str, files: dict) -> list[str]:
    drawn = frame.tree
    pdf = None
    if drawn is not None and drawn.laid is not None:
        try:
            # no margin: dot's PDF pads the drawing by half an inch a side (its SVG does not)
            pdf = layout.run_dot(drawn.dot.replace("{", "{\n\tgraph [margin=0]", 1), "pdf")
        except TooCostly:
            pdf = None
    if pdf is None:
        return [r"\vfill\begin{center}" + tex("(Graphviz's dot could not draw this tree here.)") + r"\end{center}"]
    files[name] = pdf
    width = drawn.laid.width * drawn.scale * MM_PER_PX
    height = drawn.laid.height * drawn.scale * MM_PER_PX
    size = f"width={width:.2f}mm,height={min(height, TREE_MM[1]):.2f}mm,keepaspectratio"
    return [r"\vfill", r"\begin{center}\includegraphics[" + size + "]{" + name + r"}\end{center}", r"\vfill"]


def _table(frame: Frame) -> list[str]:
    table = frame.table
    note = [r"{\footnotesize " + tex(table.note) + ".}"] if table.note else []
    size = r"\footnotesize" if len(table.rows) > 8 else r"\small"
    return note + [_marks(line) for line in typeset.table(table.header, table.rows, size)]


def _formulas(frame: Frame) -> list[str]:
    out = [r"\small"]
    for title, lines in frame.sections:
        out.append(r"\textbf{" + tex(title) + r"}\par")
        out += [typeset.formula(line) for line in lines]
    return out


@functools.lru_cache(maxsize=1)
def beamer_available() -> bool:
    """Whether pdflatex can compile a beamer deck here (pdflatex, beamer.cls and pgf are installed)."""
    kpsewhich = shutil.which("kpsewhich")
    if shutil.which("pdflatex") is None or kpsewhich is None:
        return False
    found = subprocess.run([kpsewhich, "beamer.cls", "pgfcore.sty"], capture_output=True, text=True, timeout=30)
    return len(found.stdout.split()) == 2


def compile_beamer(deck: Deck) -> bytes:
    """The deck as a PDF (pdflatex, one run); OSError when pdflatex is not installed, ValueError
    with pdflatex's first error when the document does not compile."""
    beamer = to_beamer(deck)
    return compile_pdf(beamer.tex, files=beamer.files).pdf


def to_zip(deck: Deck, stem: str) -> bytes:
    """The beamer document `stem`.tex and its trees' PDFs in one zip (for pdflatex elsewhere)."""
    beamer = to_beamer(deck, figures=stem)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(f"{stem}.tex", beamer.tex)
        for name, content in beamer.files.items():
            archive.writestr(name, content)
    return buffer.getvalue()
