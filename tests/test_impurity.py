"""entropy, gini and misclassification on vectors of class counts or weights.

Expected values are exact fractions (see tests/exact.py) or closed forms; the textbook
values cited are those of the seeds and Mitchell (1997).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

import dtlearn
import exact

CASES = [
    [9, 5],  # Mitchell (1997) p. 57: Entropy([9+, 5-]) = 0.940
    [1, 1],
    [1, 0],
    [0, 3],
    [3, 1],  # seed 001: H(defaulted | <2years = Y), printed 0.8133 (a slip), true 0.8113
    [4, 2],  # seed 001: H(defaulted | <2years = N) = 0.9183
    [6, 1],  # seed 001: H(defaulted | missed = N) = 0.5917
    [5, 5, 5],
    [50, 50, 50],
    [7, 0, 3, 0, 1],
    [13, 4],  # seed 001: child entropy 0.787
]


@pytest.mark.parametrize("counts", CASES)
def test_entropy_equals_exact_fraction_form(counts):
    # -sum p log2 p with exact proportions p = c / sum(c) (Quinlan 1986; seed 000 eq. 1).
    assert dtlearn.entropy(counts) == pytest.approx(exact.entropy(counts), abs=1e-12)


@pytest.mark.parametrize("counts", CASES)
def test_gini_equals_exact_fraction(counts):
    # 1 - sum p^2 as an exact Fraction (Breiman et al. 1984; seed 000 eq. 5).
    assert dtlearn.gini(counts) == pytest.approx(float(exact.gini(counts)), abs=1e-15)


@pytest.mark.parametrize("counts", CASES)
def test_misclassification_equals_exact_fraction(counts):
    # 1 - max p as an exact Fraction.
    assert dtlearn.misclassification(counts) == pytest.approx(float(exact.error(counts)), abs=1e-15)


def test_textbook_values_to_printed_precision():
    # Mitchell (1997) p. 57: Entropy([9+, 5-]) = 0.940.
    assert round(dtlearn.entropy([9, 5]), 3) == 0.940
    # Seed 001: H(defaulted) = -0.3 log2 0.3 - 0.7 log2 0.7 = 0.8813.
    assert round(dtlearn.entropy([3, 7]), 4) == 0.8813
    # Seed 001 prints H(defaulted | <2years = Y) = 0.8133, an OCR/typing slip: (3/4, 1/4) gives
    # -3/4 log2 3/4 - 1/4 log2 1/4 = 2 - (3/4) log2 3 = 0.81128...
    assert dtlearn.entropy([3, 1]) == pytest.approx(2 - 0.75 * math.log2(3), abs=1e-12)
    assert round(dtlearn.entropy([3, 1]), 4) == 0.8113
    # Seed 001: -(13/17) log2(13/17) - (4/17) log2(4/17) = 0.787.
    assert round(dtlearn.entropy([13, 4]), 3) == 0.787


def test_closed_forms():
    # A pure node has zero impurity; a 50/50 node has entropy 1, Gini 1/2, error 1/2.
    assert dtlearn.entropy([1, 0]) == 0.0
    assert dtlearn.gini([4, 0]) == 0.0
    assert dtlearn.misclassification([0, 4]) == 0.0
    assert dtlearn.entropy([1, 1]) == 1.0
    assert dtlearn.gini([1, 1]) == 0.5
    assert dtlearn.misclassification([1, 1]) == 0.5
    # Mitchell (1997) p. 57: Gini([9, 5]) = 1 - (81 + 25) / 196 = 90/196.
    assert dtlearn.gini([9, 5]) == pytest.approx(90 / 196, abs=1e-15)


@pytest.mark.parametrize("k", [2, 3, 4, 5, 8, 10])
def test_uniform_over_k_classes_is_the_maximum(k):
    # Zaki & Meira (seed 004): with P(c_i) = 1/k, H = log2 k, the largest possible entropy;
    # Gini = 1 - k (1/k)^2 = 1 - 1/k and error = 1 - 1/k.
    uniform = [3] * k
    assert dtlearn.entropy(uniform) == pytest.approx(math.log2(k), abs=1e-12)
    assert dtlearn.gini(uniform) == pytest.approx(1 - 1 / k, abs=1e-15)
    assert dtlearn.misclassification(uniform) == pytest.approx(1 - 1 / k, abs=1e-15)


def test_float_weights_are_proportions_too():
    # Fractional weights (C4.5 spreads rows with missing values) act as counts:
    # [2.5, 1.5] has p = (5/8, 3/8).
    weights = [2.5, 1.5]
    fractions = [Fraction(5, 2), Fraction(3, 2)]
    assert dtlearn.entropy(weights) == pytest.approx(exact.entropy(fractions), abs=1e-12)
    assert dtlearn.gini(weights) == pytest.approx(float(exact.gini(fractions)), abs=1e-15)  # 30/64
    assert dtlearn.gini(weights) == pytest.approx(30 / 64, abs=1e-15)
    assert dtlearn.misclassification(weights) == pytest.approx(3 / 8, abs=1e-15)


def test_scale_invariance():
    # Only proportions matter: [9, 5], [18, 10] and [0.9, 0.5] have the same impurity.
    for function in (dtlearn.entropy, dtlearn.gini, dtlearn.misclassification):
        assert function([18, 10]) == pytest.approx(function([9, 5]), abs=1e-15)
        assert function([0.9, 0.5]) == pytest.approx(function([9, 5]), abs=1e-15)


def test_empty_set_has_zero_impurity():
    # The documented convention (dtlearn/impurity.py): total weight 0 -> impurity 0.
    for function in (dtlearn.entropy, dtlearn.gini, dtlearn.misclassification):
        assert function([0, 0]) == 0.0
        assert function([0]) == 0.0


def test_accepts_numpy_arrays_and_tuples():
    # Same values whichever sequence type holds the counts.
    assert dtlearn.entropy(np.array([9, 5])) == dtlearn.entropy((9, 5)) == dtlearn.entropy([9.0, 5.0])


def test_returns_python_floats():
    for function in (dtlearn.entropy, dtlearn.gini, dtlearn.misclassification):
        assert type(function([2, 1])) is float


@pytest.mark.parametrize("bad", [[-1, 2], [1, -0.5], [float("nan"), 1], [float("inf"), 1]])
def test_negative_or_non_finite_weights_raise(bad):
    for function in (dtlearn.entropy, dtlearn.gini, dtlearn.misclassification):
        with pytest.raises(ValueError, match="finite and not negative"):
            function(bad)


def test_nested_lists_raise():
    with pytest.raises(ValueError, match="flat list"):
        dtlearn.entropy([[1, 2], [3, 4]])
