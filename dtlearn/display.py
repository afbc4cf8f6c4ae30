"""How trees and steps show themselves in Jupyter (and any other IPython front end).

A `Tree` is its drawing: an SVG laid out by Graphviz's `dot` when the program is installed, else
its text (`to_text`). A `Step` is its decision: the reason, the candidate table (each attribute's
best rows for a big node), and the chosen row's formulas as LaTeX for MathJax or KaTeX. Every
name and value from a file is escaped in the HTML (the LaTeX escapes its own, in `derivation`).
`steps` and `tree` only know that a front end asks for `_repr_html_`; this module answers.
"""

from __future__ import annotations

import html

import numpy as np

from . import derivation, layout
from .budget import TooCostly
from .criteria import CRITERIA, criterion
from .shorten import LABEL_CHARS, shown, shown_branch
from .steps import DISPLAY, SPLIT

MAX_ROWS = 30  # candidates listed in full; beyond, each attribute's best rows
# every criterion's measures, family by family (`criteria`)
READ_MEASURES = tuple(dict.fromkeys(column for c in CRITERIA.values() for column in c.columns))


def svg(dot: str) -> str | None:
    """The DOT laid out by Graphviz's `dot` as SVG text, or None when `dot` is not installed, refuses
    it or takes longer than a layout may (`layout.run_dot`: the text drawing is shown instead)."""
    try:
        output = layout.run_dot(dot, "svg")
    except TooCostly:
        return None
    text = output.decode("utf-8") if output is not None else ""
    return text[text.find("<svg"):] if "<svg" in text else None


def tree_html(tree) -> str:
    drawing = svg(tree.to_dot())
    if drawing is not None:
        return f'<div class="dtlearn-tree">{drawing}</div>'
    return f'<pre class="dtlearn-tree">{html.escape(tree.to_text())}</pre>'


def reading_columns(table, ranked: str) -> list[str]:
    """The columns of a candidate table a student reads, in order: the test, the measure that
    ranks, the other measures that say something at this node (C4.5's correction only where one
    applies, rho only where values are missing), then the verdict."""
    corrected = "correction" in table and bool((table["correction"].astype(float) > 0).any())
    partial = "known" in table and bool((table["known"].astype(float) < 1).any())
    measures = [c for c in READ_MEASURES if c in table and c != ranked and table[c].notna().any()
                and (corrected or c not in ("correction", "corrected_gain")) and (partial or c != "known")]
    return ["test", ranked, *measures, *[c for c in ("eligible", "chosen", "tied", "reason") if c in table]]


def _test_text(attribute, test) -> str:
    """A test as a cell shows it: a long attribute name or value cut (`shorten`)."""
    attribute, test = str(attribute), str(test)
    rest = test[len(attribute):].strip() if test.startswith(attribute) else test
    return f"{shown(attribute)} {shown_branch(rest)}"


def step_html(step) -> str:
    action = {SPLIT: "Split", "leaf": "Leaf"}.get(step.action, step.action.capitalize())
    where = " and ".join(step.path) or "the root"
    parts = [f"<p><b>Step {step.number}: {html.escape(action)}</b> at {html.escape(where)}. "
             f"{html.escape(step.reason)}</p>"]
    candidates = step.candidates
    if candidates is None or not len(candidates):
        return "\n".join(parts)
    rows = candidates.best_rows() if len(candidates) > MAX_ROWS else None
    table = candidates.frame(rows)
    if step.action != SPLIT:
        table = table.assign(chosen=False)
    settings = step.origin.settings
    ranked = "score" if candidates.regression else criterion(settings.criterion).ranks_by
    shown = table[reading_columns(table, ranked)].rename(columns={ranked: f"{ranked} (ranks)"})
    shown = shown.assign(test=[_test_text(a, t) for a, t in zip(table["attribute"], table["test"])])
    if rows is not None:
        parts.append(f"<p>{len(candidates)} candidates: each attribute's best shown.</p>")
    parts.append(shown.to_html(index=False, float_format=lambda v: f"{v:.4f}", escape=True))
    chosen = np.flatnonzero(table["chosen"].to_numpy(bool))
    if len(chosen):
        row = table.iloc[int(chosen[0])]
        for section in derivation.derivation(row, step.evaluation.encoded.classes, limit=LABEL_CHARS):
            # LaTeX escapes a file's names for TeX; the HTML around it needs its own escaping too
            lines = "".join(f"<div>$${html.escape(line, quote=False)}$$</div>" for line in section.lines)
            parts.append(f"<p><b>{html.escape(section.title)}</b></p>{lines}")
    return "\n".join(parts)


DISPLAY["tree"] = tree_html
DISPLAY["step"] = step_html
