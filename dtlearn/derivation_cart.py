"""The measures of Breiman et al. (1984) worked out, numbers substituted: the Gini index and
Gini gain, the twoing rule, and a regression split's decrease in mean squared error.
"""

from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np

from .derivation_latex import DIGITS, Section, equation, fraction, number, weight
from .derivation_row import attribute_name, branch_name, gain_line, row_of, weighted_line
from .quantities import QUANTITIES


def _gini_line(name: str, counts, value: float, digits: int | None) -> str:
    total = float(np.sum(counts))
    if total <= 0:
        return r"\mathrm{Gini}(" + name + r") = 0 \quad \text{(no rows: 0 by convention)}"
    terms = ["- " + r"\bigl(" + fraction(c, total) + r"\bigr)^2" for c in counts if c > 0]
    return equation(r"\mathrm{Gini}(" + name + ")", ["1"] + terms, number(value, digits))


def gini_of_node(row: Mapping, classes: Sequence[str], digits: int | None = DIGITS) -> str:
    """Gini(D) = 1 - sum_k p_k^2 with the fractions substituted."""
    r = row_of(row)
    return _gini_line(r.node_name, r.node, r.value("gini_before"), digits)


def branch_ginis(row: Mapping, classes: Sequence[str], digits: int | None = DIGITS) -> list[str]:
    r = row_of(row)
    return [_gini_line(branch_name(b, r.node_name), c, v, digits)
            for b, c, v in zip(r.branches, r.counts, r.stats.branch_ginis[0])]


def weighted_gini(row: Mapping, digits: int | None = DIGITS) -> str:
    r = row_of(row)
    return weighted_line(r, r.stats.branch_ginis[0], r.value("gini_after"), r"\mathrm{Gini}_{\text{after}}",
                     r"\mathrm{Gini}", digits)


def gini_gain(row: Mapping, digits: int | None = DIGITS) -> str:
    r = row_of(row)
    return gain_line(r, r"\Delta\mathrm{Gini}(D, " + attribute_name(r) + ")", r.value("gini_before"),
                      r.value("gini_after"), r.value("gini_gain"), r"\mathrm{Gini}", digits)


# twoing ----------------------------------------------------------------------------------

def _share(part: float, whole: float) -> str:
    return fraction(part, whole) if whole > 0 else "0"


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
    r = row_of(row)
    name = QUANTITIES["twoing"].latex + "(" + r.node_name + ", " + attribute_name(r) + ")"
    if len(r.counts) != 2:
        return [name + r"\ \text{is defined for splits into two branches only}"]
    sizes = r.counts.sum(axis=1)
    left, right = (branch_name(b, r.node_name) for b in r.branches)
    shares = "p_L = " + _share(sizes[0], r.n_known) + r",\quad p_R = " + _share(sizes[1], r.n_known)
    rho, times = (r"\rho\,", fraction(r.n_known, r.n) + r"\times ") if r.has_missing else ("", "")
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


# regression ------------------------------------------------------------------------------

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
        equation(r"\mathrm{SSE}(D)", r"\sum_{i \in D} (y_i - \bar y)^2", number(before, d)),
        equation(r"\mathrm{SSE}_{\text{after}}", r"\sum_v \sum_{i \in D_v} (y_i - \bar y_v)^2", number(after, d)),
        equation(r"\mathrm{MSE}(D)", r"\frac{\mathrm{SSE}(D)}{|D|}", r"\frac{" + number(before, d) + "}{"
                  + weight(n) + "}", number(before / n if n else 0.0, d)),
        equation(r"\Delta\mathrm{MSE}", r"\frac{\mathrm{SSE}(D) - \mathrm{SSE}_{\text{after}}}{|D|}",
                  r"\frac{" + number(before, d) + " - " + number(after, d) + "}{" + weight(n) + "}",
                  number((before - after) / n if n else 0.0, d4)),
    ]
    return (Section("The node and its branches", tuple(node), "node"),
            Section("Decrease in mean squared error", tuple(sse), "squared_error", ("score",)))
