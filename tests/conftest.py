"""Small named fixtures shared by the test modules.

The textbook tables are typed here from their sources (not read through dtlearn), so a
test can check both that the shipped CSV matches the book and that dtlearn's numbers
match numbers derived from the book's table by hand.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

# scikit-learn's array-API estimator check (NumPy inputs with dispatch on: results unchanged)
# runs only when SciPy is first imported with this set; without it the check skips itself.
os.environ.setdefault("SCIPY_ARRAY_API", "1")

import hypothesis  # noqa: E402
import pandas as pd  # noqa: E402 (after the environment SciPy reads at import)
import pytest

import dtlearn
from dtlearn import jit

# Property tests draw the same examples on every run (no random seed, no saved database): the
# README's test command never fails by chance; the draws themselves stay as broad.
hypothesis.settings.register_profile("dtlearn", derandomize=True, database=None)
hypothesis.settings.load_profile("dtlearn")

# Test modules import the reference arithmetic in tests/exact.py as `import exact`.
sys.path.insert(0, str(Path(__file__).resolve().parent))

# Mitchell (1997), Table 3.2: days D1..D14 as (outlook, temperature, humidity, wind, play).
MITCHELL_TENNIS = [
    ("Sunny", "Hot", "High", "Weak", "No"),
    ("Sunny", "Hot", "High", "Strong", "No"),
    ("Overcast", "Hot", "High", "Weak", "Yes"),
    ("Rain", "Mild", "High", "Weak", "Yes"),
    ("Rain", "Cool", "Normal", "Weak", "Yes"),
    ("Rain", "Cool", "Normal", "Strong", "No"),
    ("Overcast", "Cool", "Normal", "Strong", "Yes"),
    ("Sunny", "Mild", "High", "Weak", "No"),
    ("Sunny", "Cool", "Normal", "Weak", "Yes"),
    ("Rain", "Mild", "Normal", "Weak", "Yes"),
    ("Sunny", "Mild", "Normal", "Strong", "Yes"),
    ("Overcast", "Mild", "High", "Strong", "Yes"),
    ("Overcast", "Hot", "Normal", "Weak", "Yes"),
    ("Rain", "Mild", "High", "Strong", "No"),
]

# Seed 001 (Nagar, "Predicting credit risk"): (<2 years at current job?, missed payments?,
# defaulted?). The OCR'd slide prints 'Z' / 'z' where the slide has 'N'; read so here.
CREDIT_RISK = [
    ("N", "N", "N"), ("Y", "N", "Y"), ("N", "N", "N"), ("N", "N", "N"), ("N", "Y", "Y"),
    ("Y", "N", "N"), ("N", "Y", "N"), ("N", "Y", "Y"), ("Y", "N", "N"), ("Y", "N", "N"),
]

# Seed 001: the 2-D internship example (GPA, years of experience, internship).
INTERNSHIP = [(4.0, 0, 0), (3.0, 1, 0), (3.4, 4, 1), (3.6, 2, 0), (3.8, 4, 1), (2.5, 3, 1)]


# The kernels' way in each test's own thread: compiled, as after an app's warm-up (a process starts
# in dtlearn.jit's warming mode, where small inputs run interpreted: tests/test_jit.py checks that
# way against this one, bit for bit). DTLEARN_KERNELS=interpreted runs the tests the other way.
KERNELS = os.environ.get("DTLEARN_KERNELS", jit.COMPILED)


@pytest.fixture(autouse=True)
def kernels_way():
    with jit.forced(KERNELS):
        yield


@pytest.fixture
def tennis() -> dtlearn.Dataset:
    return dtlearn.load_dataset("tennis")


@pytest.fixture
def credit_risk() -> dtlearn.Dataset:
    return dtlearn.load_dataset("credit_risk")


@pytest.fixture
def iris() -> dtlearn.Dataset:
    return dtlearn.load_dataset("iris")


@pytest.fixture
def mitchell_rows() -> list[tuple]:
    return list(MITCHELL_TENNIS)


@pytest.fixture
def credit_rows() -> list[tuple]:
    return list(CREDIT_RISK)


@pytest.fixture
def internship_rows() -> list[tuple]:
    return list(INTERNSHIP)


@pytest.fixture
def xor() -> dtlearn.Dataset:
    """y = a XOR b, each combination once: every single attribute has zero gain."""
    frame = pd.DataFrame({"a": ["0", "0", "1", "1"], "b": ["0", "1", "0", "1"], "y": ["N", "Y", "Y", "N"]})
    return dtlearn.Dataset(frame, "y")


@pytest.fixture
def xor_numeric() -> dtlearn.Dataset:
    """XOR on numeric 0/1 attributes (for the threshold-based algorithms)."""
    frame = pd.DataFrame({"a": [0.0, 0.0, 1.0, 1.0], "b": [0.0, 1.0, 0.0, 1.0], "y": ["N", "Y", "Y", "N"]})
    return dtlearn.Dataset(frame, "y")


@pytest.fixture
def toy2d() -> dtlearn.Dataset:
    """Eight points in the plane: x <= 2.5 is all A; to the right, y <= 2 is B and above is C.

    By hand (Gini): x <= 2.5 leaves (4A | 2B, 2C) -> 4/8 * 1/2 = 1/4; y <= 2 leaves
    (2A, 2B | 2A, 2C) -> 1/2. So CART splits x <= 2.5, then y <= 2 on the right: 3 leaves.
    """
    frame = pd.DataFrame({
        "x": [1.0, 2.0, 1.0, 2.0, 3.0, 4.0, 3.0, 4.0],
        "y": [1.0, 1.0, 3.0, 3.0, 1.0, 1.0, 3.0, 3.0],
        "label": ["A", "A", "A", "A", "B", "B", "C", "C"],
    })
    return dtlearn.Dataset(frame, "label")
