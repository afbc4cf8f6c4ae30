"""Writing documents a student keeps (worksheets, a record of graded work) as LaTeX and Markdown.

Running text is a sequence of pieces: plain text (a name from a file, a sentence) and `Math`,
a formula with a LaTeX and a plain spelling. The LaTeX writer escapes the text and typesets the
formulas; the Markdown writer escapes the text and writes each formula's plain spelling (a
formula in Markdown would need `$`, which a name from a file may hold). Formula lines from
`derivation` (names already inside \\text{...}) go into displayed maths in both.

The LaTeX is for one pdflatex run with texlive-latex-base alone: no table that needs a second
run (longtable), nothing wider than the text (`\\fitwidth` scales a wide table or formula down),
ragged-right paragraphs with break points in long names, and any character pdflatex has no
glyph for written as its code point (U+XXXX).

>>> text = ("compute ", Math(r"\\Delta\\mathrm{Gini}(D, " + derivation.text("a_b") + ")", "ΔGini(D, a_b)"), ".")
>>> plain(text), md_text(text)
('compute ΔGini(D, a_b).', 'compute ΔGini(D, a\\\\_b).')
>>> tex_text(text)
'compute $\\\\Delta\\\\mathrm{Gini}(D, \\\\text{a\\\\_b})$.'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence, Union

from . import derivation
from .shorten import shown, shown_names


@dataclass(frozen=True)
class Math:
    """A formula in running text: `latex` (names escaped by `derivation.text`) and `plain`."""

    latex: str
    plain: str


Text = Sequence[Union[str, Math]]


def plain(text: Text | str) -> str:
    """The text as plain characters (a formula by its plain spelling)."""
    if isinstance(text, str):
        return text
    return "".join(piece.plain if isinstance(piece, Math) else piece for piece in text)


# LaTeX -------------------------------------------------------------------------------------

PREAMBLE = r"""\documentclass[a4paper,11pt]{article}
\usepackage[T1]{fontenc}
\usepackage[utf8]{inputenc}
\usepackage{lmodern}
\usepackage{amsmath,amssymb}
\usepackage[margin=2cm]{geometry}
\usepackage{graphicx}
% a table or formula wider than the text is scaled down to fit (a big node's lines are long)
\newcommand{\fitwidth}[1]{\resizebox{\ifdim\width>\linewidth\linewidth\else\width\fi}{!}{#1}}
\newcommand{\formula}[1]{\begin{center}\fitwidth{$\displaystyle #1$}\end{center}}
\newcommand{\uni}[1]{\mbox{\ttfamily\footnotesize U+#1}}
\setlength{\parindent}{0pt}
\setlength{\parskip}{0.5ex}
\emergencystretch=3em
"""

_BREAK = "\ue000"  # a private-use mark for a break point in a long name, written as \allowbreak
_LONG_RUN = re.compile(r"[^\s" + _BREAK + r"]{25,}")
_LIGATURES = {"<": r"\textless{}", ">": r"\textgreater{}", "-": "-{}", "`": r"\textasciigrave{}"}
# comparisons in a table's words (a test, a path, a reason): typeset as the formulas write them
_COMPARISONS = {" <= ": r" $\le$ ", " >= ": r" $\ge$ "}


def _break_points(value: str) -> str:
    """Break points after _ and / and every 12 characters of a long run without one."""
    value = re.sub(r"([_/])(?=\S)", "\\1" + _BREAK, value)
    return _LONG_RUN.sub(lambda m: _BREAK.join(m.group()[i:i + 12] for i in range(0, len(m.group()), 12)), value)


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")  # pdflatex stops at them: "Text line contains an invalid character"


def _visible(text: str) -> str:
    """Control characters written in caret notation (\x01 as ^A, DEL as ^?), a tab or line break as
    a space, so that a name holding one compiles and still shows that it does."""
    def caret(match: re.Match) -> str:
        c = match.group()
        return " " if c in "\t\n\r" else r"\textasciicircum{}" + ("?" if c == "\x7f" else chr(ord(c) + 64))
    return _CONTROL.sub(caret, text)


def tex(value) -> str:
    r"""Plain text for LaTeX's text mode: the specials escaped; < > - ` written so that T1's
    ligatures (<< as a guillemet, -- as a dash) cannot change them; ' <= ' typeset as a
    comparison; break points in long names.

    >>> tex("a_b <c> x <= 2")
    'a\\_\\allowbreak{}b \\textless{}c\\textgreater{} x $\\le$ 2'
    """
    escaped = derivation.escape(_break_points(str(value).replace(_BREAK, "")))
    written = "".join(_LIGATURES.get(c, c) for c in escaped)
    for comparison, typeset in _COMPARISONS.items():
        written = written.replace(comparison.replace("<", _LIGATURES["<"]).replace(">", _LIGATURES[">"]), typeset)
    return _visible(written.replace(_BREAK, r"\allowbreak{}"))


def tex_text(text: Text | str) -> str:
    """Running text for LaTeX: plain pieces escaped (`tex`), formulas in $...$."""
    if isinstance(text, str):
        return tex(text)
    return "".join("$" + formula_line(piece.latex) + "$" if isinstance(piece, Math) else tex(piece) for piece in text)


_TEXT_SPAN = re.compile(r"\\text\{((?:\\[A-Za-z]+\{\}|\\.|[^{}\\])*)\}")


def formula_line(line: str) -> str:
    r"""A `derivation` line made safe to print anywhere: inside its \text{...} names, < and >
    spelled as commands (KaTeX and LaTeX both know them), so that no Markdown viewer reads
    a name such as <img ...> as HTML and T1 makes no guillemet of <<.

    >>> formula_line(r"D_{> \text{<b>}}")
    'D_{> \\text{\\textless{}b\\textgreater{}}}'
    """
    return _TEXT_SPAN.sub(lambda m: r"\text{" + _visible(m.group(1).replace("<", r"\textless{}")
                                                          .replace(">", r"\textgreater{}")) + "}", line)


def formula(line: str) -> str:
    r"""One displayed formula line, scaled down when wider than the text."""
    return r"\formula{" + formula_line(line) + "}"


def table(header: Sequence[str], rows: Sequence[Sequence[str]], size: str = r"\small") -> list[str]:
    """A table for one pdflatex run (tabular: nothing to carry to a second run), scaled down to
    the text's width when wider; the header in bold. A cell cannot wrap: a long name or value is
    cut as a drawing cuts it (`shorten`; a name of 10,000 characters made a box wider than TeX's
    largest dimension), the headers kept distinct."""
    out = [r"\begin{center}" + size, r"\fitwidth{\begin{tabular}{" + "l" * len(header) + "}", r"\hline",
           " & ".join(r"\textbf{" + tex(c) + "}" for c in shown_names(header)) + r" \\", r"\hline"]
    out += [" & ".join(tex(shown(v)) for v in row) + r" \\" for row in rows]
    return out + [r"\hline", r"\end{tabular}}", r"\end{center}"]


def pdflatex_safe(document: str) -> str:
    """Characters beyond ASCII and the Latin-1 letters as \\uni{XXXX} (pdflatex lacks their
    glyphs), except a few with a maths spelling."""
    def spelled(m: re.Match) -> str:
        return _MATH_SYMBOLS.get(m.group()) or r"\uni{%04X}" % ord(m.group())

    return re.sub(r"[^\x00-\x7f\u00c0-\u00ff]", spelled, document)


_MATH_SYMBOLS = {"≤": r"$\le$", "≥": r"$\ge$", "Δ": r"$\Delta$", "ρ": r"$\rho$", "×": r"$\times$",
                 "−": r"$-$", "·": r"$\cdot$", "…": r"\dots{}"}


def document(body: Sequence[str]) -> str:
    """A standalone LaTeX document around `body` (lines of LaTeX), ready for pdflatex."""
    return pdflatex_safe("\n".join([PREAMBLE, r"\begin{document}", r"\raggedright", *body, r"\end{document}"])) + "\n"


# Markdown ----------------------------------------------------------------------------------

# Fewer than a page needs (PAGE_SPECIALS): a downloaded document stays readable as text.
MARKDOWN_SPECIALS = "\\`*_[]<>|$#~&"
# What Streamlit's Markdown reads besides: LaTeX ($), its :colour[...] and :icon: directives, and
# line-start lists and headings (a label is a line of its own).
PAGE_SPECIALS = "\\`*_{}[]()#+-.!|<>~$:&^%=\"'@"
_SHORTCODE = re.compile(r":(?=\S)")  # ':name:' is an icon or emoji on a Streamlit page: its first colon escaped
# A word a renderer would make a live link of: GFM's autolinks (http://, www., an e-mail address).
# A backslash does not stop them (Streamlit's renderer finds them in the text once escapes are
# read), so such a word is written as inline code: shown and copied as it is, never a link.
# Searched within each word: one pattern spanning the word (\S*...\S*) backtracks from every start,
# quadratic in a long word's length.
_LINKABLE = re.compile(r"://|www\.|@[\w-]+\.\w", re.IGNORECASE)


def literal(word: str) -> str:
    """`word` as inline code, whatever backticks it holds (CommonMark: a longer fence, and a
    space inside it where the word starts or ends with a backtick).

    >>> literal("http://x.org"), literal("a`b")
    ('`http://x.org`', '``a`b``')
    """
    fence = "`" * (max(map(len, re.findall("`+", word)), default=0) + 1)
    pad = " " if word.startswith("`") or word.endswith("`") else ""
    return fence + pad + word + pad + fence


def md(value, specials: str = MARKDOWN_SPECIALS) -> str:
    r"""Plain text for Markdown: line breaks made spaces, every character Markdown (or a math
    renderer, or HTML) could read escaped with a backslash, a word that would be a link as code.
    `specials`: PAGE_SPECIALS for a Streamlit page (pages.wording.md).

    >>> print(md("a|b <script> $x$ see http://x.org"))
    a\|b \<script\> \$x\$ see `http://x.org`
    """
    words = str(value).split()
    return " ".join(literal(word) if _LINKABLE.search(word) else _escaped(word, specials) for word in words)


def _escaped(text: str, specials: str) -> str:
    escaped = "".join("\\" + c if c in specials else c for c in text)
    return escaped if ":" in specials else _SHORTCODE.sub(r"\:", escaped)


def md_text(text: Text | str) -> str:
    """Running text for Markdown: every piece escaped, formulas by their plain spelling."""
    return md(plain(text))


# In a Markdown document a formula is read twice: as LaTeX by a renderer with maths (KaTeX, as
# Streamlit's), and as Markdown by one without. Inside its \text{...} names, what Markdown would
# read is spelled as LaTeX both know: no link, image, emphasis or code span, no autolink (an
# empty group {} inside // www. and @ breaks them and prints nothing).
_MARKDOWN_IN_TEXT = {"[": r"\lbrack{}", "]": r"\rbrack{}", "*": r"\char42{}", "`": r"\char96{}"}
_AUTOLINK_IN_TEXT = re.compile(r"(?<=/)(?=/)|(?<=www)(?=\.)|(?<=@)", re.IGNORECASE)


def md_formula_line(line: str) -> str:
    r"""A `derivation` line as a Markdown document's formula (`formula_line`, and no Markdown
    in its names for a renderer without maths).

    >>> md_formula_line(r"D_{\text{![a](http://x.org) **b**}}")
    'D_{\\text{!\\lbrack{}a\\rbrack{}(http:/{}/x.org) \\char42{}\\char42{}b\\char42{}\\char42{}}}'
    """
    def spelled(m: re.Match) -> str:
        inner = "".join(_MARKDOWN_IN_TEXT.get(c, c) for c in m.group(1))
        return r"\text{" + _AUTOLINK_IN_TEXT.sub("{}", inner) + "}"

    return _TEXT_SPAN.sub(spelled, formula_line(line))


def md_formula(line: str) -> list[str]:
    """One formula line as a displayed-maths block ($$ on lines of their own)."""
    return ["$$", md_formula_line(line), "$$"]


def md_table(header: Sequence[str], rows: Sequence[Sequence[str]], numbered: bool = False) -> list[str]:
    out = ["| " + " | ".join(md(c) for c in header) + " |",
           "|" + "|".join("---:" if numbered and i == 0 else "---" for i in range(len(header))) + "|"]
    return out + ["| " + " | ".join(md(v) for v in row) + " |" for row in rows]


# file names --------------------------------------------------------------------------------

_UNSAFE = re.compile(r"[^\w.-]+")
_DATA_SUFFIXES = (".csv", ".tsv", ".txt", ".arff", ".data")


def file_stem(name: str, fallback: str = "data") -> str:
    """A dataset's (or uploaded file's) name made safe for a file name: its data suffix
    dropped, anything but letters, digits, . _ - made a hyphen, at most 40 characters.

    >>> file_stem("Exam 2 (final).CSV"), file_stem("../../etc/passwd"), file_stem("西瓜.csv"), file_stem("$$")
    ('Exam-2-final', 'etc-passwd', '西瓜', 'data')
    """
    stem = str(name).strip()
    for suffix in _DATA_SUFFIXES:
        if stem.lower().endswith(suffix):
            stem = stem[:-len(suffix)]
    stem = _UNSAFE.sub("-", stem).strip(".-_")
    stem = re.sub(r"\.{2,}", ".", stem)[:40].strip(".-_")
    return stem or fallback
