"""The entropy family worked out, numbers substituted: entropy before and after a split,
information gain, split information and gain ratio (Quinlan 1986, 1993), and what a line gives
from the rounded values it shows.
"""

from __future__ import annotations

import math
from typing import Mapping, Sequence

import numpy as np

from .derivation_latex import DIGITS, as_shown, below, equation, fraction, noted, number, weight
from .derivation_row import (Row, attribute_name, branch_name, gain_from_shown, gain_line, row_of, weighted_from_shown,
                             weighted_line)
from .quantities import QUANTITIES

_SYMBOL = {key: q.latex for key, q in QUANTITIES.items()}


def _entropy_terms(counts) -> list[str]:
    total = float(np.sum(counts))
    return ["- " + fraction(c, total) + r"\log_2" + fraction(c, total) for c in counts if c > 0]


def _entropy_line(name: str, counts, value: float, digits: int | None) -> str:
    if float(np.sum(counts)) <= 0:
        return r"\mathrm{Ent}(" + name + r") = 0 \quad \text{(no rows: 0 by convention)}"
    return equation(r"\mathrm{Ent}(" + name + ")", _entropy_terms(counts), number(value, digits))


def entropy_of_node(row: Mapping, classes: Sequence[str], digits: int | None = DIGITS) -> str:
    """Ent(D) with the class fractions substituted (of the known rows D~ if values are missing)."""
    r = row_of(row)
    return _entropy_line(r.node_name, r.node, r.value("entropy_before"), digits)


def branch_entropies(row: Mapping, classes: Sequence[str], digits: int | None = DIGITS) -> list[str]:
    """Ent(D_v) for every branch v, one line each."""
    r = row_of(row)
    node = r.node_name
    values = r.stats.branch_entropies[0]
    return [_entropy_line(branch_name(b, node), c, v, digits) for b, c, v in zip(r.branches, r.counts, values)]


def weighted_entropy(row: Mapping, digits: int | None = DIGITS) -> str:
    """The entropy after the split: branch entropies weighted by branch size."""
    r = row_of(row)
    return weighted_line(r, r.stats.branch_entropies[0], r.value("entropy_after"), r"\mathrm{Ent}_{\text{after}}",
                     r"\mathrm{Ent}", digits)


def information_gain(row: Mapping, digits: int | None = DIGITS) -> str:
    """Gain(D, a) = Ent(D) - Ent_after (times rho when values are missing)."""
    r = row_of(row)
    name = r"\mathrm{Gain}(D, " + attribute_name(r) + ")"
    return gain_line(r, name, r.value("entropy_before"), r.value("entropy_after"), r.value("gain"),
                      r"\mathrm{Ent}", digits)


def _split_parts(r: Row) -> np.ndarray:
    sizes = r.counts.sum(axis=1)
    return np.append(sizes, r.missing) if r.has_missing else sizes


def split_information(row: Mapping, digits: int | None = DIGITS) -> str:
    """SplitInfo(a): the entropy of the branch sizes (the unknown rows as one more part)."""
    r = row_of(row)
    parts = _split_parts(r)
    name = _SYMBOL["split_info"] + "(" + attribute_name(r) + ")"
    if parts.sum() <= 0 or (parts > 0).sum() < 2:
        return name + " = 0"
    note = r"\quad\text{(last term: the " + weight(r.missing) + r" unknown)}" if r.has_missing else ""
    return equation(name, _entropy_terms(parts), number(r.value("split_info"), digits), note=note)


def gain_ratio(row: Mapping, digits: int | None = DIGITS) -> list[str]:
    """GainRatio = Gain / SplitInfo; with C4.5's threshold correction, the corrected gain first."""
    r = row_of(row)
    gain, info = r.value("gain"), r.value("split_info")
    name = r"\mathrm{GainRatio}(D, " + attribute_name(r) + ")"
    lines = []
    top = r"\mathrm{Gain}"
    if r.correction:
        count = weight(r.cuts) if not math.isnan(r.cuts) else r"\#"
        corrected = r.value("corrected_gain")
        lines.append(below(r"\mathrm{Gain}' = \mathrm{Gain} - \frac{\log_2 " + count + "}{" + weight(r.n) + "} = "
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
    lines.append(noted(name + r" = \frac{" + top + "}{" + _SYMBOL["split_info"] + r"} = \frac{" + number(gain, digits)
                        + "}{" + number(info, digits) + "} = " + number(ratio, digits), ratio, by_hand, digits))
    return lines


def _ratio_from_shown(gain: float, info: float, ratio: float, digits: int | None) -> float:
    return as_shown(gain, digits) / as_shown(info, digits) if as_shown(info, digits) else ratio


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
    r = row_of(row)
    if key == "entropy_after":
        return weighted_from_shown(r, r.stats.branch_entropies[0], digits)
    if key == "gini_after":
        return weighted_from_shown(r, r.stats.branch_ginis[0], digits)
    if key == "gain":
        return gain_from_shown(r, r.value("entropy_before"), r.value("entropy_after"), digits)
    if key == "gini_gain":
        return gain_from_shown(r, r.value("gini_before"), r.value("gini_after"), digits)
    if key == "gain_ratio":
        gain, info = r.value("corrected_gain" if r.correction else "gain"), r.value("split_info")
        return _ratio_from_shown(gain, info, r.value("gain_ratio"), digits) if info > 0 and gain > 0 else None
    return None
