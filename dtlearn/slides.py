"""A lecture's slides: the stepping of a tree's induction, one frame per step.

`deck(tree, first, last)` collects the frames once: a title frame, then for every step in the
range its heading, its decision and the tree after it, drawn as the projector's stage draws it
(`framing`: the whole tree when its text reads at 14 px on a 1280x720 frame, else the node's
neighbourhood); with `tables`, the step's candidate table as a frame of its own, and with
`formulas`, the chosen candidate's worked formulas (`derivation`). `slides_html.to_html` and
`slides_tex.to_beamer` render the deck: the same frames, the same view of each tree. Names from
the file stay text here; each renderer escapes them for its own language.

>>> import dtlearn
>>> slides = deck(dtlearn.fit(dtlearn.load_dataset("tennis"), "id3"), 1, 2, dataset="PlayTennis")
>>> [frame.heading for frame in slides.frames]
['PlayTennis with ID3 (Quinlan 1986)', 'Step 1 of 8: split the root on outlook', \
'Step 2 of 8: split node 1 on humidity']
>>> file_name("tennis", "id3", 1, 2, "html")
'tennis-id3-slides-1-2.html'
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import derivation, framing
from .criteria import criterion
from .measures import RANKED_BY
from .quantities import QUANTITIES
from .settings import PRESET
from .shorten import LABEL_CHARS, shown, visible
from .shorten import shown_candidate as candidate_text
from .steps import SPLIT
from .table import listed_table
from .typeset import file_stem

FRAME_PX = (1280, 720)  # a slide, in CSS px: a projector's screen
TREE_BOX = (1216, 500)  # px: what a step's tree may take, below its heading and decision
TABLE_ROWS = 12  # candidates on a table's frame: each attribute's best, the best of them past this
FORMULA_LINES = 6  # formula lines on one frame: a longer derivation takes more frames
REGRESSION_COLUMNS = ("sse_after", "mse_after")


@dataclass(frozen=True)
class Table:
    """A candidate table as a frame shows it: text cells, the chosen row's position, a note."""

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    chosen: int | None  # the row that was taken (None: none, e.g. at a leaf)
    note: str = ""


@dataclass(frozen=True)
class Frame:
    """One slide. `kind`: 'title', 'step', 'table' or 'formulas'; texts are plain (unescaped)."""

    kind: str
    step: int  # the step it is about (0: the title)
    heading: str
    verdict: str = ""  # 'Split.', 'Leaf: play = Yes.', ...
    decision: str = ""  # the step's headline: the number that made it
    action: str = ""  # the step's action: split, leaf, ...
    tree: framing.Framed | None = None
    table: Table | None = None
    sections: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (title, LaTeX lines) of derivation


@dataclass(frozen=True)
class Deck:
    title: str
    subtitle: str  # the algorithm, cited
    source: str  # where the table is from (a built-in dataset's source), or ''
    first: int
    last: int
    frames: tuple[Frame, ...]


def deck(tree, first: int = 1, last: int | None = None, *, tables: bool = False, formulas: bool = False,
         dataset: str | None = None, source: str = "", digits: int | None = 3) -> Deck:
    """The frames of steps first..last (1-based, inclusive; default: to the last step) of a
    complete tree's induction; `dataset` names the table (default: by its target column)."""
    last = tree.total_steps if last is None else last
    if not (isinstance(first, int) and isinstance(last, int) and 1 <= first <= last <= tree.total_steps):
        raise ValueError(f"The steps must satisfy 1 <= first <= last <= {tree.total_steps} (the steps of this "
                         f"tree), not {first} to {last}.")
    if not tree.is_complete:
        raise ValueError("Slides are made of a tree whose induction is complete.")
    algorithm = PRESET[tree.algorithm].cited if tree.algorithm in PRESET else tree.algorithm
    name = dataset or f"The table predicting {tree.target}"
    title = f"{name} with {algorithm}"
    frames = [Frame("title", 0, title)]
    for step in tree.steps[first - 1:last]:
        frames += step_frames(tree, step, tables=tables, formulas=formulas, digits=digits)
    return Deck(title, algorithm, source, first, last, tuple(frames))


def file_name(dataset: str, algorithm: str, first: int, last: int, extension: str) -> str:
    """The deck's file name: the dataset (made safe), the algorithm and the steps."""
    steps = f"{first}" if first == last else f"{first}-{last}"
    return f"{file_stem(dataset)}-{file_stem(algorithm)}-slides-{steps}.{extension}"


def step_frames(tree, step, *, tables: bool, formulas: bool, digits: int | None) -> list[Frame]:
    """A step's frame (heading, decision, the tree after it), then its table and formulas."""
    heading = f"Step {step.number} of {tree.total_steps}: {summary(tree, step)}"
    partial = tree.at_step(step.number)
    drawn = framing.framed(partial, step.node_id, TREE_BOX, highlight=step.node_id, digits=digits)
    said = {"verdict": verdict(tree, step), "decision": decision(tree, step), "action": step.action}
    frames = [Frame("step", step.number, heading, **said, tree=drawn)]
    has_table = step.candidates is not None and len(step.candidates) > 0
    pure = sum(1 for w in step.class_weights if w > 0) <= 1 if not tree.is_regression else False
    if tables and has_table and not (step.action != SPLIT and pure):  # a pure leaf: nothing to compare
        frames.append(Frame("table", step.number, f"Step {step.number}: the candidate splits", **said,
                            table=candidate_table(tree, step, digits)))
    if formulas and has_table and step.action == SPLIT:
        chunks = formula_chunks(tree, step, digits)
        for i, chunk in enumerate(chunks):
            more = f" ({i + 1} of {len(chunks)})" if len(chunks) > 1 else ""
            frames.append(Frame("formulas", step.number, f"Step {step.number}: the formulas{more}",
                                action=step.action, sections=chunk))
    return frames


def summary(tree, step) -> str:
    """What a step did, in a heading's words: 'split the root on outlook'."""
    where = "the root" if step.depth == 0 else f"node {step.node_id}"
    if step.action == SPLIT:
        return f"split {where} on {shown(step.test.attribute)}"
    if step.action == "leaf":
        return f"{where} becomes a leaf, {shown(tree.target)} = {shown(step.prediction)}"
    return f"{step.action} at {where}"


def verdict(tree, step) -> str:
    """The decision in a word or two, as the app's decision box starts: 'Split.', 'Leaf: play = Yes.'"""
    if step.action == SPLIT:
        return "Split."
    if step.action == "leaf":
        return f"Leaf: {shown(tree.target)} = {shown(step.prediction)}."
    return f"{step.action.capitalize()}."


def decision(tree, step) -> str:
    """The number that made the decision: the step's headline (the rest of the reason is the
    table's and the formulas')."""
    names = (step.test.attribute,) if step.action == SPLIT else (tree.target, step.prediction)
    return named(step.headline, *names)


def named(sentence: str, *names) -> str:
    """A sentence naming names from a file, each cut as a drawing cuts it (`shorten`)."""
    for name in sorted(map(str, names), key=len, reverse=True):
        if len(name) > LABEL_CHARS:
            sentence = sentence.replace(name, shown(name))
    return visible(sentence)


def _family(tree) -> str:
    return "squared_error" if tree.is_regression else criterion(tree.settings.criterion).family


def _family_columns(tree) -> tuple[str, ...]:
    """The table's columns beside the test and the ranked measure: the ranked measure's family
    (`criteria`), less what every candidate at the node shares (its impurity, rho, C4.5's correction)."""
    if tree.is_regression:
        return REGRESSION_COLUMNS
    columns = criterion(tree.settings.criterion).columns
    return tuple(c for c in columns if c not in ("known", "correction") and not c.endswith("_before"))


def ranked_column(tree) -> str:
    """The column the criterion ranks candidates by (regression: the score, ΔMSE)."""
    return "score" if tree.is_regression else RANKED_BY.get(tree.settings.criterion, "score")


def candidate_table(tree, step, digits: int | None) -> Table:
    """The step's candidates as a frame lists them: the test, the ranked measure, its family's
    columns; each attribute's best when there are more than TABLE_ROWS, the best of those past it."""
    table = listed_table(step)
    candidates = step.candidates
    ranked = ranked_column(tree)
    note = ""
    if len(table) > TABLE_ROWS:
        best = {int(i) for i in candidates.best_rows()} | ({step.chosen_row} if step.chosen_row is not None else set())
        best = sorted(best)
        table = candidates.frame(best).assign(chosen=lambda t: t.index == step.chosen_row)
        note = f"{len(candidates)} candidates: each attribute's best is listed"
    if len(table) > TABLE_ROWS:
        order = np.argsort(-np.nan_to_num(table[ranked].to_numpy(float), nan=-np.inf), kind="stable")
        keep = sorted(set(order[:TABLE_ROWS].tolist()) | set(np.flatnonzero(table["chosen"].to_numpy(bool))))
        note = f"{len(candidates)} candidates: the best {len(keep)} attributes' best tests are listed"
        table = table.iloc[keep]
    if step.action != SPLIT:
        table = table.assign(chosen=False)
    columns = [c for c in _family_columns(tree) if c in table and c != ranked]
    if "corrected_gain" in columns and not (table["correction"].astype(float) > 0).any():
        columns.remove("corrected_gain")
    header = ("candidate", "★ " + QUANTITIES[ranked].heading, *(QUANTITIES[c].heading for c in columns))
    rows, chosen = [], None
    for position, (_, row) in enumerate(table.iterrows()):
        if bool(row["chosen"]):
            chosen = position
        rows.append((("✓ " if row["chosen"] else "") + candidate_text(row),
                     *(_cell(row[c], digits) for c in (ranked, *columns))))
    return Table(header, tuple(rows), chosen, note)


def _cell(value, digits: int | None) -> str:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return visible(value)
    return "–" if number != number else derivation.number(number, digits)


def formula_chunks(tree, step, digits: int | None) -> list[tuple]:
    """The chosen row's derivation (the node's and the ranked measure's sections, as the Step
    page shows them), cut into frames of at most FORMULA_LINES lines."""
    table = listed_table(step)
    row = table.loc[step.chosen_row]
    family = _family(tree)
    sections = [s for s in derivation.derivation(row, tree.classes, digits, limit=LABEL_CHARS)
                if s.family in ("node", family)]
    chunks, current, used = [], [], 0
    for section in sections:
        lines = list(section.lines)
        while lines:
            room = FORMULA_LINES - used
            if room <= 0 or (used and len(lines) > room and len(lines) <= FORMULA_LINES):
                chunks.append(tuple(current))
                current, used = [], 0
                continue
            taken, lines = lines[:room], lines[room:]
            current.append((section.title, tuple(taken)))
            used += len(taken)
    if current:
        chunks.append(tuple(current))
    return chunks
