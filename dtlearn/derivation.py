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

The symbols and names are `dtlearn.quantities`'.

Every name or value that comes from a data file goes through `text()`: escaped for LaTeX
and put inside \\text{...}, so a column called ``a}\\text{x}$`` prints as itself.

>>> print(entropy_of_node({"branch_counts": ((3, 2), (0, 4), (2, 3)), "n": 14, "known": 1}, ("No", "Yes")))
\\mathrm{Ent}(D) = - \\tfrac{5}{14}\\log_2\\tfrac{5}{14} - \\tfrac{9}{14}\\log_2\\tfrac{9}{14} = 0.940
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping, Sequence

import numpy as np
import pandas as pd

from .formatting import label
from .measures import SplitStats
from .quantities import QUANTITIES
from .shorten import LABEL_CHARS, grouped, shown, shown_branch

_SYMBOL = {key: q.latex for key, q in QUANTITIES.items()}

_SPECIAL = {
    "\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&", "#": r"\#",
    "^": r"\textasciicircum{}", "_": r"\_", "%": r"\%", "~": r"\textasciitilde{}",
}


def escape(value) -> str:
    r"""Text safe inside \text{...}: the ten LaTeX specials escaped, line breaks made spaces.

    >>> escape("a}\\text{x}$")
    'a\\}\\textbackslash{}text\\{x\\}\\$'
    """
    flat = " ".join(str(value).split()) if any(c in str(value) for c in "\r\n\t") else str(value)
    return "".join(_SPECIAL.get(c, c) for c in flat)


def text(value) -> str:
    r"""A name or value from a file, as LaTeX text: \text{escaped}."""
    return r"\text{" + escape(value) + "}"


# numbers ---------------------------------------------------------------------------------

DIGITS = 3  # decimals a result is written with unless a page asks for more (None: all of them)


def number(value: float, digits: int | None = DIGITS) -> str:
    """A result, rounded: 0 stays 0, anything else gets `digits` decimals (no -0.000); with
    digits=None every decimal a float holds (up to 12), trailing zeros dropped.

    >>> number(0.24674981977443933), number(0.24674981977443933, 4), number(0.25, None)
    ('0.247', '0.2467', '0.25')
    """
    value = float(value)
    if value == 0:
        return "0"
    if digits is None:
        written = f"{value:.12f}".rstrip("0").rstrip(".")
        return "0" if float(written) == 0 else written
    written = f"{value:.{digits}f}"
    return written[1:] if written.startswith("-") and float(written) == 0 else written


def weight(value: float) -> str:
    """A count (or C4.5 fractional weight) as written in a fraction: 5, 5.333."""
    return label(round(float(value), 3))


TERMS_PER_LINE = 4  # a sum with more terms is broken over lines (KaTeX does not wrap)
LIST_CHARS = 60  # a list written out in a formula (a node's classes) is broken over lines past this


def _equation(lhs: str, *sides, note: str = "") -> str:
    """lhs = side_1 = side_2 = ...; a side is a string or a list of terms joined by ' '.

    Short equations stay on one line; when a side has more than TERMS_PER_LINE terms the
    equation becomes an `aligned` block, one side per line and the long side wrapped.
    """
    long = any(isinstance(side, list) and len(side) > TERMS_PER_LINE for side in sides)
    if not long:
        flat = [" ".join(side) if isinstance(side, list) else side for side in sides]
        return lhs + " = " + " = ".join(flat) + note
    rows = []
    for side in sides:
        if isinstance(side, list):
            chunks = [" ".join(side[i:i + TERMS_PER_LINE]) for i in range(0, len(side), TERMS_PER_LINE)]
            rows.append("&= " + chunks[0])
            rows.extend(r"&\quad " + chunk for chunk in chunks[1:])
        else:
            rows.append("&= " + side)
    rows[-1] += note
    return r"\begin{aligned}" + lhs + " " + r" \\ ".join(rows) + r"\end{aligned}"


def _fraction(part: float, whole: float) -> str:
    return r"\tfrac{" + weight(part) + "}{" + weight(whole) + "}"


# the row ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Row:
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


def _row(row: Mapping) -> _Row:
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
    return _Row(counts, n, row.get("attribute"), branches, stats, values, correction, cuts)


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


def _attribute(r: _Row) -> str:
    return text(r.attribute) if r.attribute is not None else "a"


# entropy, gain, split information, gain ratio --------------------------------------------

def _entropy_terms(counts) -> list[str]:
    total = float(np.sum(counts))
    return ["- " + _fraction(c, total) + r"\log_2" + _fraction(c, total) for c in counts if c > 0]


def _entropy_line(name: str, counts, value: float, digits: int | None) -> str:
    if float(np.sum(counts)) <= 0:
        return r"\mathrm{Ent}(" + name + r") = 0 \quad \text{(no rows: 0 by convention)}"
    return _equation(r"\mathrm{Ent}(" + name + ")", _entropy_terms(counts), number(value, digits))


def node_counts(row: Mapping, classes: Sequence[str]) -> str:
    """The node's rows by class: |D| = 14:  5 No, 9 Yes (and the unknown rows, if any); a list
    longer than LIST_CHARS characters is broken over aligned lines (glass's six classes ran off a
    projector's width)."""
    r = _row(row)
    present = [(weight(c), k) for c, k in zip(r.node, classes) if c > 0]
    head = "|" + r.node_name + "| = " + weight(r.n_known) + r":\quad "
    unknown = ("|D| = " + weight(r.n) + r"\ \text{(" + weight(r.missing) + r" with }" + _attribute(r)
               + r"\text{ unknown)}") if r.has_missing else ""
    written = [w + r"\ " + text(k) for w, k in present]
    lines = grouped([f"{w} {k}" for w, k in present], width=LIST_CHARS)  # broken where the text would be
    if len(lines) <= 1:
        return head + r",\ ".join(written) + (r"\qquad " + unknown if unknown else "")
    rows = [r",\ ".join(written[i] for i in line) for line in lines]
    return (r"\begin{aligned}" + head + "&" + r", \\ &".join(rows) + (r" \\ &" + unknown if unknown else "")
            + r"\end{aligned}")


def entropy_of_node(row: Mapping, classes: Sequence[str], digits: int | None = DIGITS) -> str:
    """Ent(D) with the class fractions substituted (of the known rows D~ if values are missing)."""
    r = _row(row)
    return _entropy_line(r.node_name, r.node, r.value("entropy_before"), digits)


def branch_entropies(row: Mapping, classes: Sequence[str], digits: int | None = DIGITS) -> list[str]:
    """Ent(D_v) for every branch v, one line each."""
    r = _row(row)
    node = r.node_name
    values = r.stats.branch_entropies[0]
    return [_entropy_line(branch_name(b, node), c, v, digits) for b, c, v in zip(r.branches, r.counts, values)]


def _weighted(r: _Row, per_branch: np.ndarray, after: float, name: str, symbol: str, digits: int | None) -> str:
    node = r.node_name
    sizes = r.counts.sum(axis=1)
    terms = [("+ " if i else "") + _fraction(s, r.n_known) + r"\cdot " + number(v, digits)
             for i, (s, v) in enumerate(zip(sizes, per_branch))]
    general = r"\sum_v \frac{|" + node + "_v|}{|" + node + r"|}\," + symbol + "(" + node + "_v)"
    return _noted(_equation(name, general, terms, number(after, digits)), after,
                  _weighted_from_shown(r, per_branch, digits), digits)


def _weighted_from_shown(r: _Row, per_branch: np.ndarray, digits: int | None) -> float:
    """The weighted impurity from the branch impurities as the line shows them."""
    sizes = r.counts.sum(axis=1)
    return sum(s / r.n_known * _shown(v, digits) for s, v in zip(sizes, per_branch)) if r.n_known else 0.0


def _gain_from_shown(r: _Row, before: float, after: float, digits: int | None) -> float:
    """The gain from the impurities before and after as the line shows them (rho, written as a
    fraction, exact)."""
    difference = _shown(before, digits) - _shown(after, digits)
    return r.rho * difference if r.has_missing else difference


def _shown(value: float, digits: int | None) -> float:
    """A number as the line shows it (what a student carries to the next line)."""
    return float(number(value, digits))


def textbook_note(exact: float, by_hand: float, digits: int | None) -> str:
    r"""A remark for a line whose printed operands give another last digit than the exact result:
    textbooks round each intermediate result (Mitchell 1997 prints Gain(S, Outlook) = 0.246:
    0.940 - 0.694), while the line shows the exact value rounded.

    >>> textbook_note(0.24674981977443933, 0.940 - 0.694, 3)
    '\\text{(exact, rounded; the rounded values shown give 0.246)}'
    """
    if digits is None or number(exact, digits) == number(by_hand, digits):
        return ""
    return r"\text{(exact, rounded; the rounded values shown give " + number(by_hand, digits) + ")}"


def _noted(line: str, exact: float, by_hand: float, digits: int | None) -> str:
    """The line, with the textbook remark (if any) below it (`_below`)."""
    return _below(line, textbook_note(exact, by_hand, digits))


def _below(line: str, remark: str) -> str:
    """The line, with a remark in words (if any) centred below it: beside it, the remark would
    run off a projector's width."""
    return line if not remark else r"\begin{gathered}" + line + r" \\ " + remark + r"\end{gathered}"


def weighted_entropy(row: Mapping, digits: int | None = DIGITS) -> str:
    """The entropy after the split: branch entropies weighted by branch size."""
    r = _row(row)
    return _weighted(r, r.stats.branch_entropies[0], r.value("entropy_after"), r"\mathrm{Ent}_{\text{after}}",
                     r"\mathrm{Ent}", digits)


def _gain_line(r: _Row, name: str, before: float, after: float, gain: float, symbol: str,
               digits: int | None) -> str:
    node = r.node_name
    by_hand = _gain_from_shown(r, before, after, digits)
    if r.has_missing:
        return _noted(name + r" = \rho\,\bigl(" + symbol + "(" + node + r") - " + symbol + r"_{\text{after}}\bigr) = "
                      + _fraction(r.n_known, r.n) + r"\times(" + number(before, digits) + " - "
                      + number(after, digits) + ") = " + number(gain, digits), gain, by_hand, digits)
    return _noted(name + " = " + symbol + "(D) - " + symbol + r"_{\text{after}} = " + number(before, digits) + " - "
                  + number(after, digits) + " = " + number(gain, digits), gain, by_hand, digits)


def known_share(row: Mapping, digits: int | None = DIGITS) -> str | None:
    """rho = |D~| / |D| when some values are unknown (C4.5), else None."""
    r = _row(row)
    if not r.has_missing:
        return None
    return _below(r"\rho = \frac{|\tilde D|}{|D|} = " + _fraction(r.n_known, r.n) + " = " + number(r.rho, digits),
                  r"\text{(share of rows whose }" + _attribute(r) + r"\text{ is known)}")


def information_gain(row: Mapping, digits: int | None = DIGITS) -> str:
    """Gain(D, a) = Ent(D) - Ent_after (times rho when values are missing)."""
    r = _row(row)
    name = r"\mathrm{Gain}(D, " + _attribute(r) + ")"
    return _gain_line(r, name, r.value("entropy_before"), r.value("entropy_after"), r.value("gain"),
                      r"\mathrm{Ent}", digits)


def _split_parts(r: _Row) -> np.ndarray:
    sizes = r.counts.sum(axis=1)
    return np.append(sizes, r.missing) if r.has_missing else sizes


def split_information(row: Mapping, digits: int | None = DIGITS) -> str:
    """SplitInfo(a): the entropy of the branch sizes (the unknown rows as one more part)."""
    r = _row(row)
    parts = _split_parts(r)
    name = _SYMBOL["split_info"] + "(" + _attribute(r) + ")"
    if parts.sum() <= 0 or (parts > 0).sum() < 2:
        return name + " = 0"
    note = r"\quad\text{(last term: the " + weight(r.missing) + r" unknown)}" if r.has_missing else ""
    return _equation(name, _entropy_terms(parts), number(r.value("split_info"), digits), note=note)


def gain_ratio(row: Mapping, digits: int | None = DIGITS) -> list[str]:
    """GainRatio = Gain / SplitInfo; with C4.5's threshold correction, the corrected gain first."""
    r = _row(row)
    gain, info = r.value("gain"), r.value("split_info")
    name = r"\mathrm{GainRatio}(D, " + _attribute(r) + ")"
    lines = []
    top = r"\mathrm{Gain}"
    if r.correction:
        count = weight(r.cuts) if not math.isnan(r.cuts) else r"\#"
        corrected = r.value("corrected_gain")
        lines.append(_below(r"\mathrm{Gain}' = \mathrm{Gain} - \frac{\log_2 " + count + "}{" + weight(r.n) + "} = "
                            + number(gain, digits) + " - " + number(r.correction, 4 if digits == DIGITS else digits)
                            + " = " + number(corrected, digits),
                            r"\text{(C4.5's correction for choosing among " + count + r" thresholds)}"))
        gain, top = corrected, r"\mathrm{Gain}'"
    if info <= 0:
        lines.append(name + r" = 0\quad\text{(split information 0: a single branch holds every row)}")
        return lines
    if gain <= 0:
        lines.append(name + r" = 0\quad\text{(" + ("the corrected gain" if r.correction else "the gain")
                     + r" is not positive)}")
        return lines
    ratio = r.value("gain_ratio")
    by_hand = _ratio_from_shown(gain, info, ratio, digits)
    lines.append(_noted(name + r" = \frac{" + top + "}{" + _SYMBOL["split_info"] + r"} = \frac{" + number(gain, digits)
                        + "}{" + number(info, digits) + "} = " + number(ratio, digits), ratio, by_hand, digits))
    return lines


def _ratio_from_shown(gain: float, info: float, ratio: float, digits: int | None) -> float:
    return _shown(gain, digits) / _shown(info, digits) if _shown(info, digits) else ratio


def from_shown(row: Mapping, key: str, digits: int | None = DIGITS) -> float | None:
    """What the worked line of a quantity gives from the rounded values it shows (its remark
    "the rounded values shown give ...": `textbook_note`), unrounded; None for a quantity whose
    line has no rounded operands (an impurity of the node or a branch, split information).
    `key` names the quantity as `grading` does: entropy_after, gain, gain_ratio, gini_after,
    gini_gain.

    >>> from_shown({"branch_counts": ((2, 3), (4, 0), (3, 2)), "n": 14, "known": 1}, "gain")  # 0.940 - 0.694
    0.246
    """
    if digits is None:
        return None
    r = _row(row)
    if key == "entropy_after":
        return _weighted_from_shown(r, r.stats.branch_entropies[0], digits)
    if key == "gini_after":
        return _weighted_from_shown(r, r.stats.branch_ginis[0], digits)
    if key == "gain":
        return _gain_from_shown(r, r.value("entropy_before"), r.value("entropy_after"), digits)
    if key == "gini_gain":
        return _gain_from_shown(r, r.value("gini_before"), r.value("gini_after"), digits)
    if key == "gain_ratio":
        gain, info = r.value("corrected_gain" if r.correction else "gain"), r.value("split_info")
        return _ratio_from_shown(gain, info, r.value("gain_ratio"), digits) if info > 0 and gain > 0 else None
    return None


# Gini ------------------------------------------------------------------------------------

def _gini_line(name: str, counts, value: float, digits: int | None) -> str:
    total = float(np.sum(counts))
    if total <= 0:
        return r"\mathrm{Gini}(" + name + r") = 0 \quad \text{(no rows: 0 by convention)}"
    terms = ["- " + r"\bigl(" + _fraction(c, total) + r"\bigr)^2" for c in counts if c > 0]
    return _equation(r"\mathrm{Gini}(" + name + ")", ["1"] + terms, number(value, digits))


def gini_of_node(row: Mapping, classes: Sequence[str], digits: int | None = DIGITS) -> str:
    """Gini(D) = 1 - sum_k p_k^2 with the fractions substituted."""
    r = _row(row)
    return _gini_line(r.node_name, r.node, r.value("gini_before"), digits)


def branch_ginis(row: Mapping, classes: Sequence[str], digits: int | None = DIGITS) -> list[str]:
    r = _row(row)
    return [_gini_line(branch_name(b, r.node_name), c, v, digits)
            for b, c, v in zip(r.branches, r.counts, r.stats.branch_ginis[0])]


def weighted_gini(row: Mapping, digits: int | None = DIGITS) -> str:
    r = _row(row)
    return _weighted(r, r.stats.branch_ginis[0], r.value("gini_after"), r"\mathrm{Gini}_{\text{after}}",
                     r"\mathrm{Gini}", digits)


def gini_gain(row: Mapping, digits: int | None = DIGITS) -> str:
    r = _row(row)
    return _gain_line(r, r"\Delta\mathrm{Gini}(D, " + _attribute(r) + ")", r.value("gini_before"),
                      r.value("gini_after"), r.value("gini_gain"), r"\mathrm{Gini}", digits)


# twoing ----------------------------------------------------------------------------------

def _share(part: float, whole: float) -> str:
    return _fraction(part, whole) if whole > 0 else "0"


def twoing(row: Mapping, digits: int | None = DIGITS) -> list[str]:
    r"""The twoing rule of Breiman et al. (1984, ch. 4), fractions substituted: the sides' shares
    p_L, p_R of the known rows, then rho p_L p_R / 4 (sum_j |p(j|D_L) - p(j|D_R)|)^2. A split into
    more than two branches has no twoing value.

    >>> row = {"branch_counts": ((3, 2), (2, 7)), "n": 14, "known": 1, "branches": ("= sunny", "not = sunny")}
    >>> print(twoing(row)[0])
    p_L = \tfrac{5}{14},\quad p_R = \tfrac{9}{14}
    >>> twoing(row)[1].endswith(r"&= 0.033\end{aligned}")  # 5/14 * 9/14 / 4 * (|3/5 - 2/9| + |2/5 - 7/9|)^2 = 289/8820
    True
    """
    r = _row(row)
    name = QUANTITIES["twoing"].latex + "(" + r.node_name + ", " + _attribute(r) + ")"
    if len(r.counts) != 2:
        return [name + r"\ \text{is defined for splits into two branches only}"]
    sizes = r.counts.sum(axis=1)
    left, right = (branch_name(b, r.node_name) for b in r.branches)
    shares = "p_L = " + _share(sizes[0], r.n_known) + r",\quad p_R = " + _share(sizes[1], r.n_known)
    rho, times = (r"\rho\,", _fraction(r.n_known, r.n) + r"\times ") if r.has_missing else ("", "")
    general = (rho + r"\frac{p_L\,p_R}{4}\Bigl(\sum_j \bigl|p(j \mid " + left + r") - p(j \mid " + right
               + r")\bigr|\Bigr)^2")
    terms = [("+ " if j else "") + r"\bigl|" + _share(r.counts[0, j], sizes[0]) + " - "
             + _share(r.counts[1, j], sizes[1]) + r"\bigr|" for j in range(r.counts.shape[1])]
    terms[0] = (times + r"\frac{" + _share(sizes[0], r.n_known) + r"\cdot " + _share(sizes[1], r.n_known)
                + r"}{4}\Bigl(" + terms[0])
    terms[-1] += r"\Bigr)^2"
    # the definition on a line of its own, then two differences a line: a projector's width holds no more
    rows = ["&= " + general] + ["&" + ("= " if i == 0 else r"\quad ") + " ".join(terms[i:i + 2])
                                for i in range(0, len(terms), 2)] + ["&= " + number(r.value("twoing"), digits)]
    return [shares, r"\begin{aligned}" + name + " " + r" \\ ".join(rows) + r"\end{aligned}"]


# all of it -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Section:
    title: str
    lines: tuple[str, ...]
    family: str  # "node", "entropy" (gain, gain ratio), "gini" or "squared_error"
    introduces: tuple[str, ...] = ()  # the quantities (dtlearn.quantities) whose other names it says

    @property
    def other_names(self) -> str:
        """'Split information (SplitInfo) is split info(X) in Quinlan (1993), ...': each quantity
        the section introduces, with the textbooks' names for it."""
        return " ".join(QUANTITIES[key].introduced for key in self.introduces if QUANTITIES[key].also)


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


def regression_derivation(row: Mapping, digits: int | None = DIGITS) -> tuple[Section, ...]:
    """A regression candidate (CART, squared error): branch sizes and means, then the decrease
    in mean squared error, from the row's `branch_stats` ((n, mean) per branch) and its
    `sse_before` / `sse_after` (sums of squared deviations from the mean; Breiman et al. 1984)."""
    stats = np.asarray(row["branch_stats"], dtype=float)
    sizes, means = stats[:, 0], stats[:, 1]
    n_known = float(sizes.sum())
    mean = float((sizes * means).sum() / n_known) if n_known > 0 else 0.0
    branches = tuple(row.get("branches") or ()) or tuple(str(i + 1) for i in range(len(stats)))
    d4 = 4 if digits == DIGITS else digits  # means and the MSE drop get one more decimal by default
    node = [r"|D| = " + weight(n_known) + r",\quad \bar y = \frac{1}{|D|}\sum_{i \in D} y_i = " + number(mean, d4)]
    for label_, size, value in zip(branches, sizes, means):
        name = branch_name(label_)
        node.append("|" + name + "| = " + weight(size) + r",\quad \bar y_" + name[2:] + " = " + number(value, d4))
    before, after = float(row["sse_before"]), float(row["sse_after"])
    d = digits
    n = float(row["n"])
    sse = [
        _equation(r"\mathrm{SSE}(D)", r"\sum_{i \in D} (y_i - \bar y)^2", number(before, d)),
        _equation(r"\mathrm{SSE}_{\text{after}}", r"\sum_v \sum_{i \in D_v} (y_i - \bar y_v)^2", number(after, d)),
        _equation(r"\mathrm{MSE}(D)", r"\frac{\mathrm{SSE}(D)}{|D|}", r"\frac{" + number(before, d) + "}{"
                  + weight(n) + "}", number(before / n if n else 0.0, d)),
        _equation(r"\Delta\mathrm{MSE}", r"\frac{\mathrm{SSE}(D) - \mathrm{SSE}_{\text{after}}}{|D|}",
                  r"\frac{" + number(before, d) + " - " + number(after, d) + "}{" + weight(n) + "}",
                  number((before - after) / n if n else 0.0, d4)),
    ]
    return (Section("The node and its branches", tuple(node), "node"),
            Section("Decrease in mean squared error", tuple(sse), "squared_error", ("score",)))


def measures(row: Mapping) -> dict[str, float]:
    """The `measures` definitions applied to a row's class weights alone (unrounded): what the
    table's numbers must equal."""
    r = _row({key: row[key] for key in ("branch_counts", "n", "correction", "cuts") if key in row})
    return {column: r.value(column) for column in MEASURES}
