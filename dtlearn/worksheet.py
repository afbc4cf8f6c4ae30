"""Worksheets: an exercise sheet on a tree's growth steps and its worked solution, as LaTeX or Markdown.

`worksheet(tree)` collects the parts once: the title, the training table, and for every growth
step in the range the node's path, its rows by class and numbered questions (the node's
impurity, the measure the algorithm ranks by for each attribute's best candidate, the test it
chooses; at a leaf, the class and why growth stops). `to_latex` and `to_markdown` render it,
with or without the answers; `file_name` names the file after the dataset, the algorithm and
the steps. Every number in an answer is the candidate table's own (`step.table`), rounded, or
a line of `derivation`: nothing is computed again here.

Questions and answers are running text (`typeset`): plain words and names, and formulas such as
Gain(D, outlook) that the LaTeX typesets. Formula lines are `derivation`'s. The LaTeX compiles
in one pdflatex run (`typeset`).

>>> import dtlearn
>>> sheet = worksheet(dtlearn.fit(dtlearn.load_dataset("tennis"), "id3"), last_step=1)
>>> plain(sheet.parts[0].questions[1].text).split(" Its")[0]
'For the candidate test outlook = ?, compute the information gain Gain(D, outlook).'
>>> plain(sheet.parts[0].questions[1].answer), plain(sheet.parts[0].questions[-1].answer)[:29]
('Gain = 0.247.', 'The test outlook = ?. Split o')
>>> file_name("tennis", "id3", 1, 3, solution=True, extension="tex")
'tennis-id3-steps-1-3-solution.tex'
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import pandas as pd

from . import budget, derivation, typeset
from .formatting import label
from .criteria import CRITERIA as RECORDS
from .measures import RANKED_BY
from .quantities import QUANTITIES
from .settings import CRITERION_NAMES, PRESET
from .shorten import LABEL_CHARS, shown
from .splits import USED
from .steps import GROWTH_ACTIONS, SPLIT
from .table import listed_table
from .typeset import Math, Text, file_stem, md, md_formula, md_table, md_text, plain, tex, tex_text

__all__ = ["CRITERIA", "MAX_ROWS", "Part", "Question", "Worksheet", "file_name", "plain", "to_latex", "to_markdown",
           "worksheet"]

ACTIONS = {"split": "a split", "leaf": "a leaf"}
MAX_ROWS = 40  # training rows printed; a longer table is cut and the sheet says so


def _symbol(latex: str, plain_text: str, attribute: str | None = None) -> Math:
    """A measure's symbol, of D and an attribute when given: Gain(D, outlook)."""
    if attribute is None:
        return Math(latex, plain_text)
    return Math(latex + "(D, " + derivation.text(shown(attribute)) + ")", f"{plain_text}(D, {attribute})")


@dataclass(frozen=True)
class Criterion:
    """What a sheet asks for under one split criterion, and whom it cites."""

    key: str  # the criterion (settings.CRITERIA)
    impurity: str  # the node's impurity in words
    symbol: Math  # and its symbol
    family: str  # the `derivation` sections that work it out
    source: str
    shown: tuple[str, ...]  # the table columns an answer gives before the one that ranks
    rule: Text  # how the impurity is computed, in the introduction

    def question(self, attribute: str) -> Text:
        """What a candidate's question asks for (the measure that ranks, and what it is made of)."""
        ranked = CRITERION_NAMES[self.key]
        if self.key == "gain_ratio":
            return ("gain ", _symbol(*VALUE_SYMBOLS["gain"], attribute), ", the split information ",
                    Math(QUANTITIES["split_info"].latex + "(" + derivation.text(shown(attribute)) + ")",
                         f"{QUANTITIES['split_info'].plain}({attribute})"),
                    f" and the {ranked} ", _symbol(*VALUE_SYMBOLS["gain_ratio"], attribute))
        return (f"{ranked} ", _symbol(*VALUE_SYMBOLS[RANKED_BY[self.key]], attribute))


VALUE_SYMBOLS = {key: (QUANTITIES[key].latex, QUANTITIES[key].plain)
                 for key in ("gain", "corrected_gain", "split_info", "gain_ratio", "gini_gain")}
VALUE_SYMBOLS |= {key: (QUANTITIES[key].latex + "(D)", QUANTITIES[key].plain + "(D)")
                  for key in ("entropy_before", "gini_before")}
_SHARES = (", where ", Math("p_k", "p_k"), " is the share of class ", Math("k", "k"), " among the node's rows.")
_ENTROPY_RULE = ("Entropies use logarithms to base 2: ",
                 Math(r"\mathrm{Ent}(D) = -\sum_k p_k \log_2 p_k", "Ent(D) = −Σ p_k log2 p_k"), *_SHARES)
_ENTROPY = Math(r"\mathrm{Ent}(D)", "Ent(D)")
_GINI_RULE = ("The Gini index of a node is ", Math(r"\mathrm{Gini}(D) = 1 - \sum_k p_k^2", "Gini(D) = 1 − Σ p_k²"),
              *_SHARES)
# the criteria a sheet is written for; each one's family and source are its record's (`criteria`)
CRITERIA = {key: Criterion(key, impurity, symbol, RECORDS[key].family, RECORDS[key].source, shown, rule)
            for key, impurity, symbol, shown, rule in (
                ("entropy", "entropy", _ENTROPY, (), _ENTROPY_RULE),
                ("gain_ratio", "entropy", _ENTROPY, ("gain", "split_info"), _ENTROPY_RULE),
                ("gini", "Gini index", Math(r"\mathrm{Gini}(D)", "Gini(D)"), (), _GINI_RULE))}


@dataclass(frozen=True)
class Question:
    """One numbered question and its answer (the renderers show the answer in the solution only)."""

    number: int  # numbered through the whole sheet
    text: Text
    answer: Text  # the values, the chosen test, the reason
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
    introduction: Text  # which formulas, with their sources
    columns: tuple[str, ...]  # the training table's header
    rows: tuple[tuple[str, ...], ...]  # its first MAX_ROWS rows, written out
    total_rows: int
    parts: tuple[Part, ...]


def refusal(tree) -> str | None:
    """Why no sheet is written for `tree` (a regression tree, or a criterion such as twoing that
    the sheets do not ask about), or None when one is."""
    if tree.is_regression or tree.settings.criterion not in CRITERIA:
        names = [CRITERION_NAMES[key] for key in CRITERIA]
        return f"Worksheets are written for classification trees ranked by {', '.join(names[:-1])} or {names[-1]}."
    return None


def worksheet(tree, first_step: int = 1, last_step: int | None = None, digits: int = 3, *,
              dataset: str | None = None) -> Worksheet:
    """The questions and answers on growth steps first_step..last_step (1-based, inclusive;
    default: to the last growth step), numbers rounded to `digits` decimals. `dataset` names
    the table in the title (default: by its target column)."""
    settings = tree.settings
    if said := refusal(tree):
        raise ValueError(said)
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
        budget.check_time(budget.WORKSHEET)
        part = _split_part(step, tree, number, digits) if step.action == SPLIT else _leaf_part(step, tree, number)
        parts.append(part)
        number += len(part.questions)
    name = PRESET[settings.algorithm].name if settings.algorithm in PRESET else settings.algorithm
    table = dataset or f"the table predicting {tree.data.target}"
    steps = f"step {first_step}" if first_step == last else f"steps {first_step} to {last}"
    columns, rows = _table(tree.data.frame)
    return Worksheet(f"Worksheet: {table} with {name}, {steps}", _introduction(settings, digits), columns, rows,
                     len(tree.data.frame), tuple(parts))


def preview(sheet: Worksheet, questions: int = 60, columns: int = 20) -> Worksheet:
    """The sheet's first `questions` questions and its table's first `columns` columns (after the rows'
    numbers), for a page to show (the files hold the whole sheet): on a wide table a sheet asks about
    thousands of attributes.

    >>> import dtlearn
    >>> sheet = worksheet(dtlearn.fit(dtlearn.load_dataset("tennis"), "id3"))
    >>> cut = preview(sheet, questions=3, columns=2)
    >>> [len(p.questions) for p in sheet.parts], [len(p.questions) for p in cut.parts], cut.columns
    ([6, 5, 1, 1, 1, 5, 1, 1], [3], ('#', 'outlook', 'temperature'))
    """
    parts, left = [], questions
    for part in sheet.parts:
        if left <= 0:
            break
        parts.append(replace(part, questions=part.questions[:left]))
        left -= len(parts[-1].questions)
    return replace(sheet, columns=sheet.columns[:columns + 1], rows=tuple(row[:columns + 1] for row in sheet.rows),
                   parts=tuple(parts))


def file_name(dataset: str, algorithm: str, first: int, last: int, *, solution: bool, extension: str) -> str:
    """The sheet's file name: the dataset (or uploaded file's name, made safe), the algorithm,
    the steps, and whether it is the solution; two homeworks never share one."""
    steps = f"step-{first}" if first == last else f"steps-{first}-{last}"
    return f"{file_stem(dataset)}-{file_stem(algorithm)}-{steps}{'-solution' if solution else ''}.{extension}"


def _introduction(settings, digits: int) -> Text:
    criterion = CRITERIA[settings.criterion]
    algorithm = PRESET[settings.algorithm].cited if settings.algorithm in PRESET else settings.algorithm
    rounding = "whole numbers" if digits == 0 else f"{digits} decimal{'s' if digits != 1 else ''}"
    return (f"{algorithm} grows the tree top down. At each node it scores every candidate test and splits on "
            f"the best by {CRITERION_NAMES[settings.criterion]} ({criterion.source}); the node's impurity is its "
            f"{criterion.impurity}. ", *criterion.rule, f" Round each result to {rounding}, as the answers do.")


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
    return derivation.derivation(row, classes, digits=digits, limit=LABEL_CHARS)


def _family_lines(sections, criterion: str) -> list[str]:
    """The lines of the criterion's family; the gain ratio's lines only when the gain ratio ranks."""
    family = CRITERIA[criterion].family
    keep = [s for s in sections if s.family == family
            and (criterion == "gain_ratio" or "ratio" not in s.title.lower())]
    return [line for section in keep for line in section.lines]


def _values(row, columns, digits: int) -> Text:
    """Gain = 0.247, SplitInfo = 1.577, ...: each value after its symbol."""
    out: list = []
    for c in columns:
        written = derivation.number(row[c], digits)
        latex, plain_text = VALUE_SYMBOLS[c]
        out += [", "] if out else []
        out.append(Math(f"{latex} = {written}", f"{plain_text} = {written}"))
    return (*out, ".")


def _split_part(step, tree, number: int, digits: int) -> Part:
    criterion = tree.settings.criterion
    about = CRITERIA[criterion]
    table, classes = listed_table(step), tree.classes  # indexed by position: each attribute's best is there
    # The node itself: all its rows (a candidate's own row holds D~, its known rows, when values are missing)
    whole = {"branch_counts": (tuple(step.class_weights),), "n": float(sum(step.class_weights)), "known": 1.0}
    named = tuple(shown(c) for c in classes)  # a formula's names are cut as a page's are (a line cannot wrap)
    before = "entropy_before" if about.family == "entropy" else "gini_before"
    impurity = derivation.entropy_of_node if about.family == "entropy" else derivation.gini_of_node
    questions = [Question(number, (f"What is the {about.impurity} ", about.symbol, " of this node?"),
                          _values(derivation.measures(whole), [before], digits),
                          (derivation.node_counts(whole, named), impurity(whole, named, digits)))]
    candidates = step.candidates
    best = [int(i) for i in candidates.best_rows()]
    used = [str(table.loc[i]["attribute"]) for i in best if candidates.reason_code[i] == USED]
    for i in best:
        if candidates.reason_code[i] != USED:
            budget.check_time(budget.WORKSHEET)  # a question per attribute: thousands on a wide table
            questions.append(_candidate_question(table.loc[i], classes, number + len(questions), criterion, digits))
    questions.append(Question(number + len(questions), ("Which test does the algorithm choose?",),
                              (f"The test {step.test.describe()}. {step.reason}",)))
    note = f"Tested already on this path, so not a candidate here: {', '.join(used)}." if used else ""
    return Part(step.number, step.action, *_where(step, classes), tuple(questions), note)


def _candidate_question(row, classes, number: int, criterion: str, digits: int) -> Question:
    """The ranked measure of one attribute's best candidate; the question gives its branches'
    class counts (the training table shown may be cut short)."""
    about, attribute = CRITERIA[criterion], str(row["attribute"])
    held = "; ".join(f"{attribute} {b}: {_counts(c, classes)}" for b, c in zip(row["branches"], row["branch_counts"]))
    text = (f"For the candidate test {row['test']}, compute the ", *about.question(attribute), ".")
    if held:
        text += (f" Its branches hold {held}.",)
    columns = [*about.shown, RANKED_BY[criterion]]
    if criterion == "gain_ratio" and float(row["correction"]) > 0:
        columns.insert(1, "corrected_gain")  # C4.5's threshold correction (Quinlan 1996)
    answer = _values(row, columns, digits)
    if not bool(row["eligible"]) and row["reason"]:
        answer += (f" Not eligible: {row['reason']}.",)
    lines = _family_lines(_sections(row, classes, digits), criterion)
    if float(row["known"]) >= 1:
        lines = lines[1:]  # the node's impurity, asked for already
    return Question(number, text, answer, tuple(lines))


def _leaf_part(step, tree, number: int) -> Part:
    question = Question(number, ("What class does this leaf predict, and why does growth stop here?",),
                        (f"It predicts {step.prediction}. {step.reason}",))
    return Part(step.number, step.action, *_where(step, tree.classes), (question,))


def _cut_note(sheet: Worksheet) -> str:
    """What a sheet says when it shows only the first rows of a long table ('' when all)."""
    if len(sheet.rows) == sheet.total_rows:
        return ""
    return f"The table has {sheet.total_rows} rows; the first {len(sheet.rows)} are shown."


# LaTeX -----------------------------------------------------------------------------------

def to_latex(sheet: Worksheet, solution: bool) -> str:
    """A standalone document for one pdflatex run (texlive-latex-base alone): the sheet, or its solution."""
    title = sheet.title + (" (solution)" if solution else "")
    out = [r"\section*{" + tex(title) + "}", tex_text(sheet.introduction), r"\subsection*{The training table}"]
    out += [tex(_cut_note(sheet))] if _cut_note(sheet) else []
    out += typeset.table(sheet.columns, sheet.rows, r"\footnotesize" if len(sheet.columns) > 6 else r"\small")
    for part in sheet.parts:
        out.append(r"\subsection*{Step " + str(part.step) + ": " + tex(ACTIONS[part.action]) + "}")
        out.append(r"\textbf{Node:} " + tex(part.path) + r". \textbf{Rows:} " + tex(part.rows) + ". " + tex(part.note))
        out += [r"\begin{enumerate}", r"\setcounter{enumi}{" + str(part.questions[0].number - 1) + "}"]
        for question in part.questions:
            out.append(r"\item " + tex_text(question.text))
            if solution:
                out.append(r"\par\emph{Answer.} " + tex_text(question.answer))
                out += [typeset.formula(line) for line in question.lines]
        out.append(r"\end{enumerate}")
    return typeset.document(out)


# Markdown --------------------------------------------------------------------------------

def to_markdown(sheet: Worksheet, solution: bool) -> str:
    """The sheet (or its solution) as GitHub / Streamlit Markdown, formulas as $$ blocks."""
    title = sheet.title + (" (solution)" if solution else "")
    out = ["# " + md(title), "", md_text(sheet.introduction), "", "## The training table", ""]
    out += [md(_cut_note(sheet)), ""] if _cut_note(sheet) else []
    out += md_table(sheet.columns, sheet.rows, numbered=True)
    for part in sheet.parts:
        out += ["", f"## Step {part.step}: {ACTIONS[part.action]}", "",
                f"**Node:** {md(part.path)}. **Rows:** {md(part.rows)}. {md(part.note)}".rstrip()]
        for question in part.questions:
            out += ["", f"{question.number}. {md_text(question.text)}"]
            if solution:
                out += ["", f"**Answer.** {md_text(question.answer)}"]
                for line in question.lines:
                    out += ["", *md_formula(line)]
    return "\n".join(out) + "\n"
