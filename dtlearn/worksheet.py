"""Worksheets: an exercise sheet on a tree's growth steps and its worked solution, as LaTeX or Markdown.

`worksheet(tree)` collects the parts once: the title, the training table, and for every growth
step in the range the node's path, its rows by class and numbered questions (the node's
impurity, the measure the algorithm ranks by for each attribute's best candidate, the test it
chooses; at a leaf, the class and why growth stops). `to_latex` and `to_markdown` render it,
with or without the answers. Every number in an answer is the candidate table's own
(`step.table`), rounded, or a line of `derivation`: nothing is computed again here.

Text fields hold plain text (each renderer escapes it); formula lines are LaTeX whose names
are already escaped by `derivation.text`. pdflatex cannot typeset every Unicode character with
the base packages, so the LaTeX writes any character outside ASCII and Latin-1 as U+XXXX.

>>> import dtlearn
>>> sheet = worksheet(dtlearn.fit(dtlearn.load_dataset("tennis"), "id3"), last_step=1)
>>> sheet.parts[0].questions[1].text.split(" Its")[0]
'For the candidate test outlook = ?, compute the information gain Gain(D, outlook).'
>>> sheet.parts[0].questions[1].answer, sheet.parts[0].questions[-1].answer[:29]
('Gain = 0.247.', 'The test outlook = ?. Split o')
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pandas as pd

from . import derivation
from .data import label
from .measures import RANKED_BY
from .splits import USED
from .steps import GROWTH_ACTIONS, SPLIT
from .table import listed_table

ACTIONS = {"split": "a split", "leaf": "a leaf"}
MAX_ROWS = 40  # training rows printed; a longer table is cut and the sheet says so
ALGORITHM_NAMES = {"id3": "ID3", "c45": "C4.5", "cart": "CART", "zaki": "Zaki & Meira's decision tree"}
ALGORITHM_SOURCES = {"id3": "Quinlan 1986", "c45": "Quinlan 1993", "cart": "Breiman et al. 1984",
                     "zaki": "Zaki & Meira 2014, ch. 19"}


@dataclass(frozen=True)
class Criterion:
    """What a sheet asks for under one split criterion, and whom it cites."""

    impurity: str  # the node's impurity in words, and its symbol
    symbol: str
    family: str  # the `derivation` sections that work it out
    ranks: str  # the measure that ranks, in words
    question: str  # what a question asks for, {a} the attribute
    source: str
    shown: tuple[str, ...]  # the table columns an answer gives before the one that ranks


CRITERIA = {
    "entropy": Criterion("entropy", "Ent(D)", "entropy", "information gain", "information gain Gain(D, {a})",
                         "Quinlan 1986", ()),
    "gain_ratio": Criterion("entropy", "Ent(D)", "entropy", "gain ratio", "gain Gain(D, {a}), the split "
                            "information IV({a}) and the gain ratio GainRatio(D, {a})", "Quinlan 1993",
                            ("gain", "split_info")),
    "gini": Criterion("Gini index", "Gini(D)", "gini", "Gini gain (the decrease in Gini impurity)",
                      "Gini gain Delta Gini(D, {a})", "Breiman et al. 1984", ()),
}
VALUE_NAMES = {"gain": "Gain", "corrected_gain": "Gain'", "split_info": "IV", "gain_ratio": "GainRatio",
               "gini_gain": "Delta Gini", "entropy_before": "Ent(D)", "gini_before": "Gini(D)"}


@dataclass(frozen=True)
class Question:
    """One numbered question and its answer (the renderers show the answer in the solution only)."""

    number: int  # numbered through the whole sheet
    text: str  # plain text
    answer: str  # plain text: the values, the chosen test, the reason
    lines: tuple[str, ...] = ()  # the worked formulas, LaTeX (from `derivation`)


@dataclass(frozen=True)
class Part:
    """One growth step: where it is, what the node holds, and its questions."""

    step: int
    action: str  # "split" or "leaf"
    path: str  # plain text: the conditions from the root, or "the root"
    rows: str  # plain text: "14 rows: 5 No, 9 Yes"
    questions: tuple[Question, ...]
    note: str = ""  # plain text: the attributes not asked about (tested already on the path)


@dataclass(frozen=True)
class Worksheet:
    """Everything a sheet and its solution print; `to_latex` and `to_markdown` render it."""

    title: str
    introduction: str  # which formulas, with their sources
    columns: tuple[str, ...]  # the training table's header
    rows: tuple[tuple[str, ...], ...]  # its first MAX_ROWS rows, written out
    total_rows: int
    parts: tuple[Part, ...]


def worksheet(tree, first_step: int = 1, last_step: int | None = None, digits: int = 3, *,
              dataset: str | None = None) -> Worksheet:
    """The questions and answers on growth steps first_step..last_step (1-based, inclusive;
    default: to the last growth step), numbers rounded to `digits` decimals. `dataset` names
    the table in the title (default: by its target column)."""
    settings = tree.settings
    if tree.is_regression or settings.criterion not in CRITERIA:
        raise ValueError("Worksheets are written for classification trees ranked by information gain, "
                         "gain ratio or Gini gain.")
    last = tree.growth_steps if last_step is None else last_step
    if not (isinstance(first_step, int) and isinstance(last, int) and 1 <= first_step <= last <= tree.growth_steps):
        raise ValueError(f"The steps must satisfy 1 <= first <= last <= {tree.growth_steps} (the growth steps), "
                         f"not {first_step} to {last}.")
    if not isinstance(digits, int) or not 0 <= digits <= 12:
        raise ValueError(f"digits must be a whole number from 0 to 12, not {digits!r}.")
    parts, number = [], 1
    for step in tree.steps[first_step - 1:last]:
        if step.action not in GROWTH_ACTIONS:
            continue
        part = _split_part(step, tree, number, digits) if step.action == SPLIT else _leaf_part(step, tree, number)
        parts.append(part)
        number += len(part.questions)
    name = ALGORITHM_NAMES.get(settings.algorithm, settings.algorithm)
    table = dataset or f"the table predicting {tree.data.target}"
    steps = f"step {first_step}" if first_step == last else f"steps {first_step} to {last}"
    columns, rows = _table(tree.data.frame)
    return Worksheet(f"Worksheet: {table} with {name}, {steps}", _introduction(settings), columns, rows,
                     len(tree.data.frame), tuple(parts))


def _introduction(settings) -> str:
    criterion = CRITERIA[settings.criterion]
    name = ALGORITHM_NAMES.get(settings.algorithm, settings.algorithm)
    cited = ALGORITHM_SOURCES.get(settings.algorithm)
    algorithm = f"{name} ({cited})" if cited else name
    return (f"{algorithm} grows the tree top down. At each node it scores every candidate test and splits on "
            f"the best by {criterion.ranks} ({criterion.source}); the node's impurity is its {criterion.impurity}. "
            "Use logarithms to base 2 and round each result as the answers do.")


def _table(frame: pd.DataFrame) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    """The header and the first MAX_ROWS rows as text, numbered from 1; a missing value is '?'."""
    head = frame.head(MAX_ROWS)
    rows = tuple((str(i + 1), *("?" if pd.isna(v) else label(v) for v in values))
                 for i, values in enumerate(head.itertuples(index=False, name=None)))
    return ("#", *(str(c) for c in frame.columns)), rows


def _counts(weights, classes) -> str:
    return ", ".join(f"{derivation.weight(w)} {c}" for w, c in zip(weights, classes))


def _where(step, classes) -> tuple[str, str]:
    rows = f"{derivation.weight(sum(step.class_weights))} rows: " + _counts(step.class_weights, classes)
    return " and ".join(step.path) or "the root", rows


def _sections(row, classes, digits: int) -> tuple:
    """derivation's sections for a row, at `digits` decimals."""
    return derivation.derivation(row, classes, digits=digits)


def _family_lines(sections, criterion: str) -> list[str]:
    """The lines of the criterion's family; the gain ratio's lines only when the gain ratio ranks."""
    family = CRITERIA[criterion].family
    keep = [s for s in sections if s.family == family
            and (criterion == "gain_ratio" or "ratio" not in s.title.lower())]
    return [line for section in keep for line in section.lines]


def _values(row, columns, digits: int) -> str:
    return ", ".join(f"{VALUE_NAMES[c]} = {derivation.number(row[c], digits)}" for c in columns) + "."


def _split_part(step, tree, number: int, digits: int) -> Part:
    criterion = tree.settings.criterion
    about = CRITERIA[criterion]
    table, classes = listed_table(step), tree.classes  # indexed by position: each attribute's best is there
    # The node itself: all its rows (a candidate's own row holds D~, its known rows, when values are missing)
    whole = {"branch_counts": (tuple(step.class_weights),), "n": float(sum(step.class_weights)), "known": 1.0}
    before = "entropy_before" if about.family == "entropy" else "gini_before"
    impurity = derivation.entropy_of_node if about.family == "entropy" else derivation.gini_of_node
    questions = [Question(number, f"What is the {about.impurity} {about.symbol} of this node?",
                          _values(derivation.measures(whole), [before], digits),
                          (derivation.node_counts(whole, classes), impurity(whole, classes, digits)))]
    candidates = step.candidates
    best = [int(i) for i in candidates.best_rows()]
    used = [str(table.loc[i]["attribute"]) for i in best if candidates.reason_code[i] == USED]
    for i in best:
        if candidates.reason_code[i] != USED:
            questions.append(_candidate_question(table.loc[i], classes, number + len(questions), criterion, digits))
    questions.append(Question(number + len(questions), "Which test does the algorithm choose?",
                              f"The test {step.test.describe()}. {step.reason}"))
    note = f"Tested already on this path, so not a candidate here: {', '.join(used)}." if used else ""
    return Part(step.number, step.action, *_where(step, classes), tuple(questions), note)


def _candidate_question(row, classes, number: int, criterion: str, digits: int) -> Question:
    """The ranked measure of one attribute's best candidate; the question gives its branches'
    class counts (the training table shown may be cut short)."""
    about, attribute = CRITERIA[criterion], str(row["attribute"])
    held = "; ".join(f"{attribute} {b}: {_counts(c, classes)}" for b, c in zip(row["branches"], row["branch_counts"]))
    text = f"For the candidate test {row['test']}, compute the {about.question.format(a=attribute)}."
    if held:
        text += f" Its branches hold {held}."
    columns = [*about.shown, RANKED_BY[criterion]]
    if criterion == "gain_ratio" and float(row["correction"]) > 0:
        columns.insert(1, "corrected_gain")  # C4.5's threshold correction (Quinlan 1996)
    answer = _values(row, columns, digits)
    if not bool(row["eligible"]) and row["reason"]:
        answer += f" Not eligible: {row['reason']}."
    lines = _family_lines(_sections(row, classes, digits), criterion)
    if float(row["known"]) >= 1:
        lines = lines[1:]  # the node's impurity, asked for already
    return Question(number, text, answer, tuple(lines))


def _leaf_part(step, tree, number: int) -> Part:
    question = Question(number, "What class does this leaf predict, and why does growth stop here?",
                        f"It predicts {step.prediction}. {step.reason}")
    return Part(step.number, step.action, *_where(step, tree.classes), (question,))


def _cut_note(sheet: Worksheet) -> str:
    """What a sheet says when it shows only the first rows of a long table ('' when all)."""
    if len(sheet.rows) == sheet.total_rows:
        return ""
    return f"The table has {sheet.total_rows} rows; the first {len(sheet.rows)} are shown."


# LaTeX -----------------------------------------------------------------------------------

PREAMBLE = r"""\documentclass[a4paper,11pt]{article}
\usepackage[T1]{fontenc}
\usepackage[utf8]{inputenc}
\usepackage{lmodern}
\usepackage{amsmath,amssymb}
\usepackage[margin=2cm]{geometry}
\usepackage{longtable}
\usepackage{graphicx}
% a formula wider than the text is scaled down to fit (derivation's lines are long at big nodes)
\newcommand{\formula}[1]{\begin{center}\resizebox{\ifdim\width>\linewidth\linewidth\else\width\fi}{!}%
{$\displaystyle #1$}\end{center}}
\newcommand{\uni}[1]{\mbox{\ttfamily\footnotesize U+#1}}
\setlength{\parindent}{0pt}
\setlength{\parskip}{0.5ex}
"""


def _tex(value) -> str:
    r"""Plain text for LaTeX's text mode: the specials escaped, and < > - written so that T1's
    ligatures (<< as a guillemet, -- as a dash) cannot change them.

    >>> _tex("a_b <c>")
    'a\\_b \\textless{}c\\textgreater{}'
    """
    return (derivation.escape(value).replace("<", r"\textless{}").replace(">", r"\textgreater{}")
            .replace("-", "-{}").replace("`", r"\textasciigrave{}"))


def _pdflatex_safe(document: str) -> str:
    """Characters beyond ASCII and the Latin-1 letters as \\uni{XXXX} (pdflatex lacks their glyphs)."""
    return re.sub(r"[^\x00-\x7f\u00c0-\u00ff]", lambda m: r"\uni{%04X}" % ord(m.group()), document)


def _latex_table(sheet: Worksheet) -> list[str]:
    out = [_tex(_cut_note(sheet))] if _cut_note(sheet) else []
    small = r"\footnotesize" if len(sheet.columns) > 6 else r"\small"
    out += ["{" + small, r"\begin{longtable}{" + "l" * len(sheet.columns) + "}", r"\hline",
            " & ".join(r"\textbf{" + _tex(c) + "}" for c in sheet.columns) + r" \\", r"\hline", r"\endhead"]
    out += [" & ".join(_tex(v) for v in row) + r" \\" for row in sheet.rows]
    return out + [r"\hline", r"\end{longtable}}"]


def to_latex(sheet: Worksheet, solution: bool) -> str:
    """A standalone document (pdflatex, texlive-latex-base alone): the sheet, or its solution."""
    title = sheet.title + (" (solution)" if solution else "")
    out = [PREAMBLE, r"\begin{document}", r"\section*{" + _tex(title) + "}", _tex(sheet.introduction),
           r"\subsection*{The training table}", *_latex_table(sheet)]
    for part in sheet.parts:
        out.append(r"\subsection*{Step " + str(part.step) + ": " + _tex(ACTIONS[part.action]) + "}")
        out.append(r"\textbf{Node:} " + _tex(part.path) + r". \textbf{Rows:} " + _tex(part.rows) + ". "
                   + _tex(part.note))
        out += [r"\begin{enumerate}", r"\setcounter{enumi}{" + str(part.questions[0].number - 1) + "}"]
        for question in part.questions:
            out.append(r"\item " + _tex(question.text))
            if solution:
                out.append(r"\par\emph{Answer.} " + _tex(question.answer))
                out += [r"\formula{" + line + "}" for line in question.lines]
        out.append(r"\end{enumerate}")
    out.append(r"\end{document}")
    return _pdflatex_safe("\n".join(out)) + "\n"


# Markdown --------------------------------------------------------------------------------

# Fewer than the pages' escaper (pages.common.md): a downloaded sheet stays readable as text.
MARKDOWN_SPECIALS = "\\`*_[]<>|$#~&"
_SHORTCODE = re.compile(r":(?=\S)")  # ':name:' is an icon or emoji on a Streamlit page: its first colon escaped


def _md(value) -> str:
    r"""Plain text for Markdown: line breaks made spaces, every character Markdown (or a math
    renderer, or HTML) could read escaped with a backslash.

    >>> print(_md("a|b <script> $x$"))
    a\|b \<script\> \$x\$
    """
    flat = " ".join(str(value).split())
    return _SHORTCODE.sub(r"\:", "".join("\\" + c if c in MARKDOWN_SPECIALS else c for c in flat))


def _markdown_table(sheet: Worksheet) -> list[str]:
    out = [_md(_cut_note(sheet)), ""] if _cut_note(sheet) else []
    out.append("| " + " | ".join(_md(c) for c in sheet.columns) + " |")
    out.append("|" + "|".join("---:" if i == 0 else "---" for i in range(len(sheet.columns))) + "|")
    return out + ["| " + " | ".join(_md(v) for v in row) + " |" for row in sheet.rows]


def to_markdown(sheet: Worksheet, solution: bool) -> str:
    """The sheet (or its solution) as GitHub / Streamlit Markdown, formulas as $$ blocks."""
    title = sheet.title + (" (solution)" if solution else "")
    out = ["# " + _md(title), "", _md(sheet.introduction), "", "## The training table", "", *_markdown_table(sheet)]
    for part in sheet.parts:
        out += ["", f"## Step {part.step}: {ACTIONS[part.action]}", "",
                f"**Node:** {_md(part.path)}. **Rows:** {_md(part.rows)}. {_md(part.note)}".rstrip()]
        for question in part.questions:
            out += ["", f"{question.number}. {_md(question.text)}"]
            if solution:
                out += ["", f"**Answer.** {_md(question.answer)}"]
                for line in question.lines:
                    out += ["", "$$", line, "$$"]
    return "\n".join(out) + "\n"
