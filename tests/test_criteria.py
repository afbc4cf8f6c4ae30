"""The criteria registry (`dtlearn.criteria`): an unknown criterion is refused, a criterion no
compiled scan ranks by is scored in Python by its `measures` definition to the same tree, and
the twoing rule, added through the registry, in exact fractions."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest

import dtlearn
from dtlearn import criteria, derivation, engine, grading, slides
from dtlearn.answers import Work
from dtlearn.induction import encode
from dtlearn.measures import SplitStats
from dtlearn.settings import OPTION
from dtlearn.table import TABLE_COLUMNS


def test_an_unknown_criterion_is_refused_with_the_known_ones_named(tennis):
    settings = replace(dtlearn.make_settings("cart"), criterion="information")  # past make_settings' check
    with pytest.raises(ValueError, match=r"Unknown criterion 'information'\. Criteria are: entropy, gini, "):
        engine.grow(encode(tennis, settings), settings)
    with pytest.raises(ValueError, match=r"Unknown criterion 'information'"):
        _ = settings.impurity


@pytest.mark.parametrize("name", ["tennis", "credit_risk", "iris", "weather_numeric", "watermelon_3",
                                  "contact_lenses"])
@pytest.mark.parametrize("algorithm", ["cart", "id3", "c45", "c45_1993", "zaki"])
def test_a_criterion_without_a_compiled_scan_grows_the_same_tree_in_python(monkeypatch, name, algorithm):
    """The compiled scans are the oracle: with its record's kernel taken away, the criterion is
    scored node by node by `measures` (every cut of a number, every subset) and must choose alike."""
    data = dtlearn.load_dataset(name)
    compiled = dtlearn.fit(data, algorithm)
    key = compiled.settings.criterion
    monkeypatch.setitem(criteria.CRITERIA, key, replace(criteria.CRITERIA[key], kernel=None))
    python = dtlearn.fit(data, algorithm)
    assert python.to_text() == compiled.to_text()
    assert [s.reason for s in python.steps] == [s.reason for s in compiled.steps]
    assert [s.gain for s in python.steps] == pytest.approx([s.gain for s in compiled.steps], abs=1e-12)


# --- the twoing rule (Breiman et al. 1984, ch. 4) ----------------------------------------------

def twoing_exact(left, right) -> Fraction:
    """Breiman et al. (1984, ch. 4) in exact fractions: (p_L p_R / 4) (sum_j |p(j|t_L) - p(j|t_R)|)^2,
    from the class counts of the two sides (written here from the book, not from dtlearn)."""
    n_left, n_right = sum(left), sum(right)
    n = n_left + n_right
    spread = sum(abs(Fraction(a, n_left) - Fraction(b, n_right)) for a, b in zip(left, right))
    return Fraction(n_left, n) * Fraction(n_right, n) / 4 * spread ** 2


def test_twoing_of_outlook_sunny_in_exact_fractions(tennis):
    # Mitchell (1997), Table 3.2: Sunny holds 3 No, 2 Yes; Overcast and Rain 2 No, 7 Yes. Then
    # p_L = 5/14, p_R = 9/14, |3/5 - 2/9| + |2/5 - 7/9| = 17/45 + 17/45 = 34/45, and
    # 5/14 * 9/14 / 4 * (34/45)^2 = 45/784 * 1156/2025 = 289/8820
    assert twoing_exact((3, 2), (2, 7)) == Fraction(289, 8820)
    tree = dtlearn.fit(tennis, "cart", criterion="twoing")
    table = tree.steps[0].table.set_index("test")
    assert float(table.loc["outlook in {Sunny}", "twoing"]) == pytest.approx(float(Fraction(289, 8820)), abs=1e-15)
    # Overcast (0 No, 4 Yes) against the rest (5 No, 5 Yes): 4/14 * 10/14 / 4 * (1/2 + 1/2)^2 = 5/98, the root's
    assert twoing_exact((0, 4), (5, 5)) == Fraction(5, 98)
    assert tree.steps[0].test.describe() == "outlook in {Overcast}"
    assert float(table.loc["outlook in {Overcast}", "score"]) == pytest.approx(5 / 98, abs=1e-15)


def test_every_cut_of_iris_has_the_twoing_value_counted_from_the_csv(iris):
    """Three classes: each cut of petal_length at the root, its twoing value from class counts that
    pandas counts on either side (the cut is the midpoint between neighbouring values)."""
    tree = dtlearn.fit(iris, "cart", criterion="twoing")
    table = tree.steps[0].table
    frame = iris.frame
    classes = sorted(frame[iris.target].unique())
    cuts = table[table["attribute"] == "petal_length"]
    assert len(cuts) > 10
    for _, row in cuts.iterrows():
        left = frame[frame["petal_length"] <= row["threshold"]][iris.target].value_counts()
        right = frame[frame["petal_length"] > row["threshold"]][iris.target].value_counts()
        expected = twoing_exact([int(left.get(c, 0)) for c in classes], [int(right.get(c, 0)) for c in classes])
        assert float(row["twoing"]) == pytest.approx(float(expected), abs=1e-15), row["test"]
    # setosa (50) against the rest (50, 50): 1/3 * 2/3 / 4 * (1 + 1/2 + 1/2)^2 = 2/9, the best there is
    assert float(tree.steps[0].table["twoing"].max()) == pytest.approx(2 / 9, abs=1e-15)
    assert tree.steps[0].test.describe() == "petal_length <= 2.45"


def test_twoing_counts_unknown_values_as_every_gain_does():
    # Quinlan (1993)'s rho: 15 rows, one unknown; the 14 known ones as outlook = Sunny above
    stats = SplitStats(np.array([[[3.0, 2.0], [2.0, 7.0]]]), np.array([1.0, 0.0]))
    assert float(stats.twoing[0]) == pytest.approx(float(Fraction(14, 15) * Fraction(289, 8820)), abs=1e-15)
    three = SplitStats(np.array([[[3.0, 2.0], [2.0, 7.0], [1.0, 1.0]]]), np.zeros(2))
    assert np.isnan(three.twoing[0])  # defined for two branches only


@pytest.mark.parametrize("name", ["tennis", "credit_risk", "weather_numeric", "watermelon_3"])
def test_with_two_classes_twoing_is_half_the_gini_gain_and_grows_the_gini_tree(name):
    """Two classes, a = p(1|t_L), b = p(1|t_R), p = p_L a + p_R b: the Gini gain is
    2p(1-p) - p_L 2a(1-a) - p_R 2b(1-b) = 2(p_L a^2 + p_R b^2 - p^2) = 2 p_L p_R (a - b)^2, and
    twoing is p_L p_R / 4 (|a - b| + |(1-a) - (1-b)|)^2 = p_L p_R (a - b)^2: half of it, so both
    rank every candidate alike (Breiman et al. 1984, ch. 4) and CART grows one tree."""
    data = dtlearn.load_dataset(name)
    assert data.frame[data.target].nunique() == 2
    twoing, gini = dtlearn.fit(data, "cart", criterion="twoing"), dtlearn.fit(data, "cart")
    assert twoing.to_text() == gini.to_text()
    for step in twoing.steps:
        if step.table is not None and len(step.table):
            table = step.table
            np.testing.assert_allclose(table["twoing"].astype(float), table["gini_gain"].astype(float) / 2,
                                       rtol=0, atol=1e-15)


def test_twoing_in_the_table_the_derivation_the_checker_and_the_menu(tennis):
    tree = dtlearn.fit(tennis, "cart", criterion="twoing")
    step = tree.steps[0]
    assert "twoing" in TABLE_COLUMNS and "twoing" in step.table.columns
    assert (step.table["score"] == step.table["twoing"]).all()
    row = step.table.set_index("test").loc["outlook in {Sunny}"].to_dict()
    row["test"] = "outlook in {Sunny}"
    sections = derivation.derivation(row, tree.classes)
    section = next(s for s in sections if s.family == "twoing")
    assert section.title == "Twoing rule" and "Breiman et al. (1984" in section.other_names
    assert section.lines[0] == r"p_L = \tfrac{5}{14},\quad p_R = \tfrac{9}{14}"
    assert section.lines[1].endswith(r"&= 0.033\end{aligned}")  # 289/8820 = 0.03277
    assert r"\bigl|\tfrac{3}{5} - \tfrac{2}{9}\bigr|" in section.lines[1]
    position = int(np.flatnonzero(step.table["test"] == "outlook in {Sunny}")[0])
    work = Work.of(step, position)
    assert criteria.criterion("twoing").checked == ("twoing",)
    assert grading.grade(work, "twoing", "0.0328").right
    wrong = grading.grade(work, "twoing", "0.0655")  # the Gini gain, twice twoing with two classes
    assert not wrong.right and wrong.formula == tuple(derivation.twoing(row))
    option = OPTION["criterion"]
    assert "twoing" in option.choices and option.names["twoing"] == "Twoing value"
    with pytest.raises(ValueError, match=r"twoing value \(twoing\) is defined for binary splits"):
        dtlearn.fit(tennis, "id3", criterion="twoing")


def test_a_twoing_tree_makes_slides_with_its_table_and_formula(tennis):
    tree = dtlearn.fit(tennis, "cart", criterion="twoing")
    table = slides.candidate_table(tree, tree.steps[0], 3)
    assert table.header == ("candidate", "★ Twoing")
    assert dict(row[:2] for row in table.rows)["✓ outlook in {Overcast}"] == "0.051"  # 5/98, counted above
    chunks = slides.formula_chunks(tree, tree.steps[0], 3)  # frames of (section title, its lines)
    lines = [line for chunk in chunks for _, section in chunk for line in section]
    assert any(r"\mathrm{Twoing}(D, \text{outlook})" in line for line in lines)
