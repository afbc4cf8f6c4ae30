"""Worked derivations of the split measures, numbers substituted, as LaTeX (for teaching).

Every function takes one row of a candidate-split table (`split_table`, `Step.table`): a
mapping with `branch_counts` (class weights per branch), `n` (the node's weight) and
`known` (rho, the share of that weight whose value is known), plus `branches` and
`attribute` for naming, and the class labels; it returns LaTeX for `st.latex` or KaTeX.
Every number a line arrives at is the table's own (the row's gain, split info, ...), or, for
the numbers the table has no column for (each branch's entropy), the same `measures`
definitions applied to the row's counts: the formulas shown are those of Quinlan (1986, 1993)
and Breiman et al. (1984), written out so a student can redo each line by hand.

    Ent(D)    = -sum_k p_k log2 p_k                       Gini(D) = 1 - sum_k p_k^2
    Gain      = rho (Ent(D~) - sum_v |D~_v|/|D~| Ent(D~_v))     (D~: rows whose value is known)
    SplitInfo = -sum_v |D_v|/|D| log2 |D_v|/|D|  (the unknown rows as one more part)
    GainRatio = Gain / SplitInfo                   ΔGini = rho (Gini(D~) - sum_v ... Gini(D~_v))

The symbols and names are `dtlearn.quantities`'. The lines are written by family:
`derivation_entropy` (Quinlan) and `derivation_cart` (Breiman et al.), from a table row as
`derivation_row` reads it, in the LaTeX of `derivation_latex` (where names from a file are
escaped); this module groups them into the sections a page shows.

>>> print(entropy_of_node({"branch_counts": ((3, 2), (0, 4), (2, 3)), "n": 14, "known": 1}, ("No", "Yes")))
\\mathrm{Ent}(D) = - \\tfrac{5}{14}\\log_2\\tfrac{5}{14} - \\tfrac{9}{14}\\log_2\\tfrac{9}{14} = 0.940
"""

from __future__ import annotations

from typing import Mapping, Sequence

import pandas as pd

from .derivation_cart import branch_ginis, gini_gain, gini_of_node, regression_derivation, twoing, weighted_gini
from .derivation_entropy import (branch_entropies, entropy_of_node, from_shown, gain_ratio, information_gain,
                                 split_information, weighted_entropy)
from .derivation_latex import DIGITS, TERMS_PER_LINE, Section, escape, number, text, textbook_note, weight
from .derivation_row import LIST_CHARS, MEASURES, branch_name, known_share, node_counts, row_of
from .shorten import LABEL_CHARS, shown, shown_branch

# the lines of every family, importable from here as they always were
__all__ = ["DIGITS", "LIST_CHARS", "MEASURES", "TERMS_PER_LINE", "Section", "branch_entropies", "branch_ginis",
           "branch_name", "derivation", "escape", "entropy_of_node", "from_shown", "gain_ratio", "gini_gain",
           "gini_of_node", "information_gain", "known_share", "measures", "node_counts", "number",
           "regression_derivation", "shortened", "split_information", "text", "textbook_note", "twoing",
           "twoing_section", "weight", "weighted_entropy", "weighted_gini"]


def shortened(row: Mapping, classes: Sequence[str], limit: int | None = LABEL_CHARS) -> tuple[dict, tuple]:
    """The row and classes with their names as a drawing shows them (`shorten.shown`: cut at
    `limit` with an ellipsis, invisible characters made visible); every number untouched. A
    page typesets the formulas of this row: the table keeps the names whole.

    >>> row, classes = shortened({"attribute": "a" * 50, "branches": ("= " + "b" * 50,), "n": 3}, ("c" * 50,))
    >>> len(row["attribute"]), len(row["branches"][0]), len(classes[0]), row["n"]
    (40, 42, 40, 3)
    """
    named = dict(row)
    if named.get("attribute") is not None:
        named["attribute"] = shown(named["attribute"], limit)
    if named.get("branches") is not None:
        named["branches"] = tuple(shown_branch(b, limit) for b in named["branches"])
    return named, tuple(shown(c, limit) for c in classes)


def derivation(row: Mapping, classes: Sequence[str], digits: int | None = DIGITS,
               limit: int | None = None) -> tuple[Section, ...]:
    """Every measure of one candidate, worked out, grouped as a page shows them; with `limit`,
    names and values longer than that are cut where they are typeset (`shortened`).

    A regression row (with `branch_stats` instead of `branch_counts`) gets
    `regression_derivation`.

    >>> [s.title for s in derivation({"branch_counts": ((3, 2), (0, 4)), "n": 9, "known": 1}, ("No", "Yes"))]
    ['The node', 'Entropy before and after the split', 'Information gain', \
'Split information and gain ratio', 'Gini index and Gini gain']
    """
    if limit is not None:
        row, classes = shortened(row, classes, limit)
    if "branch_counts" not in row and "branch_stats" in row:
        return regression_derivation(row, digits)
    if not len(row["branch_counts"]):  # no row here has a value of the attribute: no branch to work out
        name = text(row.get("attribute") or "a")
        said = r"\text{No row here has a value of }" + name + r"\text{: no branches.}"
        return (Section("The node", (said,), "node"),)
    d = digits
    share = known_share(row, d)
    return (
        Section("The node", (node_counts(row, classes),) + ((share,) if share else ()), "node"),
        Section("Entropy before and after the split", (entropy_of_node(row, classes, d),
                                                       *branch_entropies(row, classes, d), weighted_entropy(row, d)),
                "entropy", ("entropy_before", "entropy_after")),
        Section("Information gain", (information_gain(row, d),), "entropy", ("gain",)),
        Section("Split information and gain ratio", (split_information(row, d), *gain_ratio(row, d)), "entropy",
                ("split_info", "gain_ratio")),
        Section("Gini index and Gini gain", (gini_of_node(row, classes, d), *branch_ginis(row, classes, d),
                                             weighted_gini(row, d), gini_gain(row, d)), "gini",
                ("gini_before", "gini_after", "gini_gain")),
    ) + twoing_section(row, d)


def twoing_section(row: Mapping, digits: int | None = DIGITS) -> tuple[Section, ...]:
    """The twoing rule's section, for a row whose table has a twoing value (binary splits)."""
    value = row.get("twoing")
    if value is None or pd.isna(value):
        return ()
    return (Section("Twoing rule", tuple(twoing(row, digits)), "twoing", ("twoing",)),)


def measures(row: Mapping) -> dict[str, float]:
    """The `measures` definitions applied to a row's class weights alone (unrounded): what the
    table's numbers must equal."""
    r = row_of({key: row[key] for key in ("branch_counts", "n", "correction", "cuts") if key in row})
    return {column: r.value(column) for column in MEASURES}
