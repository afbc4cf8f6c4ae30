"""One row of a candidate-split table as the derivations read it (`derivation`), and the lines
every impurity family shares: the node's rows, the known share rho, the weighted impurity after
the split and the gain (Quinlan 1986, 1993; Breiman et al. 1984).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

import numpy as np
import pandas as pd

from .derivation_latex import DIGITS, as_shown, below, equation, fraction, noted, number, text, weight
from .measures import SplitStats
from .shorten import grouped

LIST_CHARS = 60  # a list written out in a formula (a node's classes) is broken over lines past this


@dataclass(frozen=True)
class Row:
    counts: np.ndarray  # (B, k) known class weights per branch
    n: float  # the node's weight, unknown values included
    attribute: str | None
    branches: tuple[str, ...]
    stats: SplitStats  # the measures definitions over this one candidate
    values: Mapping  # the table's numbers for it (when given a table row)
    correction: float  # C4.5's threshold correction (0: none)
    cuts: float  # the cuts it counts (NaN: none)

    def value(self, column: str) -> float:
        """The table's number when the row has it, else the definition's."""
        given = self.values.get(column)
        if given is not None and not pd.isna(given):
            return float(given)
        return float(np.asarray(getattr(self.stats, column))[0])

    @property
    def node(self) -> np.ndarray:
        return self.counts.sum(axis=0)

    @property
    def n_known(self) -> float:
        return float(self.counts.sum())

    @property
    def missing(self) -> float:
        return max(self.n - self.n_known, 0.0)

    @property
    def rho(self) -> float:
        return self.n_known / self.n if self.n > 0 else 0.0

    @property
    def has_missing(self) -> bool:
        return self.missing > 1e-9

    @property
    def node_name(self) -> str:
        return r"\tilde D" if self.has_missing else "D"


def row_of(row: Mapping) -> Row:
    counts = np.asarray(row["branch_counts"], dtype=float)
    if counts.ndim != 2:
        raise ValueError("A split-table row needs branch_counts: one tuple of class weights per branch.")
    branches = tuple(row.get("branches") or ()) or tuple(str(i + 1) for i in range(len(counts)))
    n = float(row["n"])
    missing = np.zeros(counts.shape[1])
    missing[0] = max(n - float(counts.sum()), 0.0)
    correction = row.get("correction")
    correction = float(correction) if correction is not None and not pd.isna(correction) else 0.0
    cuts = row.get("cuts")
    cuts = float(cuts) if cuts is not None and not pd.isna(cuts) else float("nan")
    stats = SplitStats(counts[None], missing, correction=correction)
    values = {c: row[c] for c in MEASURES if c in row}
    return Row(counts, n, row.get("attribute"), branches, stats, values, correction, cuts)


MEASURES = ("entropy_before", "entropy_after", "gain", "split_info", "gain_ratio", "corrected_gain",
            "gini_before", "gini_after", "gini_gain")


def branch_name(branch_label: str, node: str = "D") -> str:
    r"""D subscripted by a branch label from the table: '= Sunny' -> D_{\text{Sunny}}.

    >>> branch_name("<= 2.45")
    'D_{\\le \\text{2.45}}'
    """
    for prefix, symbol in (("<= ", r"\le "), ("> ", "> "), ("= ", ""), ("not in ", r"\notin "), ("in ", r"\in ")):
        if branch_label.startswith(prefix):
            return node + "_{" + symbol + text(branch_label[len(prefix):]) + "}"
    return node + "_{" + text(branch_label) + "}"


def attribute_name(r: Row) -> str:
    return text(r.attribute) if r.attribute is not None else "a"


def node_counts(row: Mapping, classes: Sequence[str]) -> str:
    """The node's rows by class: |D| = 14:  5 No, 9 Yes (and the unknown rows, if any); a list
    longer than LIST_CHARS characters is broken over aligned lines (glass's six classes ran off a
    projector's width)."""
    r = row_of(row)
    present = [(weight(c), k) for c, k in zip(r.node, classes) if c > 0]
    head = "|" + r.node_name + "| = " + weight(r.n_known) + r":\quad "
    unknown = ("|D| = " + weight(r.n) + r"\ \text{(" + weight(r.missing) + r" with }" + attribute_name(r)
               + r"\text{ unknown)}") if r.has_missing else ""
    written = [w + r"\ " + text(k) for w, k in present]
    lines = grouped([f"{w} {k}" for w, k in present], width=LIST_CHARS)  # broken where the text would be
    if len(lines) <= 1:
        return head + r",\ ".join(written) + (r"\qquad " + unknown if unknown else "")
    rows = [r",\ ".join(written[i] for i in line) for line in lines]
    return (r"\begin{aligned}" + head + "&" + r", \\ &".join(rows) + (r" \\ &" + unknown if unknown else "")
            + r"\end{aligned}")


def known_share(row: Mapping, digits: int | None = DIGITS) -> str | None:
    """rho = |D~| / |D| when some values are unknown (C4.5), else None."""
    r = row_of(row)
    if not r.has_missing:
        return None
    return below(r"\rho = \frac{|\tilde D|}{|D|} = " + fraction(r.n_known, r.n) + " = " + number(r.rho, digits),
                  r"\text{(share of rows whose }" + attribute_name(r) + r"\text{ is known)}")


def weighted_line(r: Row, per_branch: np.ndarray, after: float, name: str, symbol: str, digits: int | None) -> str:
    node = r.node_name
    sizes = r.counts.sum(axis=1)
    terms = [("+ " if i else "") + fraction(s, r.n_known) + r"\cdot " + number(v, digits)
             for i, (s, v) in enumerate(zip(sizes, per_branch))]
    general = r"\sum_v \frac{|" + node + "_v|}{|" + node + r"|}\," + symbol + "(" + node + "_v)"
    return noted(equation(name, general, terms, number(after, digits)), after,
                  weighted_from_shown(r, per_branch, digits), digits)


def weighted_from_shown(r: Row, per_branch: np.ndarray, digits: int | None) -> float:
    """The weighted impurity from the branch impurities as the line shows them."""
    sizes = r.counts.sum(axis=1)
    return sum(s / r.n_known * as_shown(v, digits) for s, v in zip(sizes, per_branch)) if r.n_known else 0.0


def gain_from_shown(r: Row, before: float, after: float, digits: int | None) -> float:
    """The gain from the impurities before and after as the line shows them (rho, written as a
    fraction, exact)."""
    difference = as_shown(before, digits) - as_shown(after, digits)
    return r.rho * difference if r.has_missing else difference


def gain_line(r: Row, name: str, before: float, after: float, gain: float, symbol: str,
               digits: int | None) -> str:
    node = r.node_name
    by_hand = gain_from_shown(r, before, after, digits)
    if r.has_missing:
        return noted(name + r" = \rho\,\bigl(" + symbol + "(" + node + r") - " + symbol + r"_{\text{after}}\bigr) = "
                      + fraction(r.n_known, r.n) + r"\times(" + number(before, digits) + " - "
                      + number(after, digits) + ") = " + number(gain, digits), gain, by_hand, digits)
    return noted(name + " = " + symbol + "(D) - " + symbol + r"_{\text{after}} = " + number(before, digits) + " - "
                  + number(after, digits) + " = " + number(gain, digits), gain, by_hand, digits)
