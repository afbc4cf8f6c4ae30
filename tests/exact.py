"""Reference arithmetic for the tests, written without dtlearn.

Counts are ints or `Fraction`s; proportions are exact `Fraction`s. Gini and the
misclassification error are therefore exact rationals; entropy needs a logarithm, so it
is the float sum of exact proportions times `math.log2` (correct to ~1e-15), which the
tests compare with a tolerance of 1e-12. Formulas: Quinlan (1986) for entropy and
information gain, Quinlan (1993) for split information and gain ratio, Breiman et al.
(1984) for Gini, Zaki & Meira (2014, ch. 19) for the CART measure.
"""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import combinations


def proportions(counts) -> list[Fraction]:
    total = sum(Fraction(c) for c in counts)
    return [Fraction(c) / total for c in counts] if total else []


def entropy(counts) -> float:
    """H = -sum p log2 p, with 0 log 0 = 0 and H(empty) = 0."""
    return sum(-float(p) * math.log2(p) for p in proportions(counts) if p > 0) + 0.0


def gini(counts) -> Fraction:
    """1 - sum p^2 (exact); 0 for an empty set."""
    ps = proportions(counts)
    return 1 - sum(p * p for p in ps) if ps else Fraction(0)


def error(counts) -> Fraction:
    """1 - max p (exact); 0 for an empty set."""
    ps = proportions(counts)
    return 1 - max(ps) if ps else Fraction(0)


def weighted(measure, branches):
    """sum_v |D_v| / |D| * measure(D_v) over the branches (lists of class counts)."""
    sizes = [sum(Fraction(c) for c in b) for b in branches]
    n = sum(sizes)
    return sum((s / n) * measure(b) for s, b in zip(sizes, branches) if s)


def info_gain(branches) -> float:
    """Ent(D) - sum_v |D_v|/|D| Ent(D_v); D is the sum of the branches."""
    parent = [sum(col) for col in zip(*branches)]
    return entropy(parent) - float(weighted(entropy, branches))


def split_info(sizes) -> float:
    """Quinlan's IV(a) = -sum_v |D_v|/|D| log2 |D_v|/|D| (the entropy of the branch sizes)."""
    return entropy(sizes)


def gini_after(branches) -> Fraction:
    return weighted(gini, branches)


def gini_gain(branches) -> Fraction:
    parent = [sum(col) for col in zip(*branches)]
    return gini(parent) - gini_after(branches)


def cart_measure(left, right) -> Fraction:
    """Zaki & Meira: 2 (nY/n)(nN/n) sum_i |P(c_i|D_Y) - P(c_i|D_N)|."""
    n_left, n_right = sum(left), sum(right)
    n = n_left + n_right
    p_left, p_right = proportions(left), proportions(right)
    return 2 * Fraction(n_left, n) * Fraction(n_right, n) * sum(abs(a - b) for a, b in zip(p_left, p_right))


def counts_by(rows, attribute_index: int, values, classes, target_index: int = -1):
    """Class counts of each value of one attribute, from a list of row tuples."""
    return [[sum(1 for r in rows if r[attribute_index] == v and r[target_index] == c) for c in classes]
            for v in values]


def two_way_partitions(values):
    """Every split of `values` into two non-empty sets, each once, as (left, right) frozensets."""
    values = list(values)
    seen, result = set(), []
    for size in range(1, len(values)):
        for left in combinations(values, size):
            key = frozenset([frozenset(left), frozenset(values) - frozenset(left)])
            if key not in seen:
                seen.add(key)
                result.append((frozenset(left), frozenset(values) - frozenset(left)))
    return result


def partition_of(labels) -> set[frozenset]:
    """The partition of row positions induced by a labelling (e.g. leaf ids)."""
    groups: dict = {}
    for position, key in enumerate(labels):
        groups.setdefault(key, []).append(position)
    return {frozenset(g) for g in groups.values()}
