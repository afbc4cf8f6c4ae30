"""The catalogue of common mistakes (dtlearn.mistakes): each mistaken number is built here
independently, from the class counts with tests/exact.py and math, written to a few decimals
as a student would, and must be recognised as that mistake.

Nodes: PlayTennis's root split on Outlook (Mitchell 1997; (No, Yes) per branch: Sunny 3/2,
Overcast 0/4, Rain 2/3) and its Sunny node (3 No, 2 Yes); watermelon 2.0-alpha's root split on
色泽 with 3 unknown values (Zhou 2016, section 4.4.2: rho = 14/17, Ent(D~) = 0.985,
Gain(D~) = 0.306, Gain = rho x 0.306 = 0.252).
"""

from __future__ import annotations

import math
from decimal import ROUND_DOWN, Decimal

import pytest

import dtlearn
from dtlearn import mistakes
from dtlearn.grading import Work, grade, rounded, textbook
from tests.exact import entropy, gini, weighted

OUTLOOK = [(3, 2), (0, 4), (2, 3)]
NODE = (5, 9)
COLOUR = [(2, 4), (4, 0), (2, 2)]  # 色泽's known rows per branch, (否, 是)
COLOUR_NODE = (9, 8)  # all 17 rows
COLOUR_UNKNOWN = (1, 2)  # the 3 rows whose 色泽 is missing


def log_entropy(counts, log) -> float:
    n = sum(counts)
    return -sum(c / n * log(c / n) for c in counts if c)


def gain_of(node, branches, measure=entropy) -> float:
    return float(measure(node)) - float(weighted(measure, branches))


@pytest.fixture(scope="module")
def tennis():
    return dtlearn.fit(dtlearn.load_dataset("tennis"), "id3")


@pytest.fixture(scope="module")
def melon():
    return dtlearn.fit(dtlearn.load_dataset("watermelon_2alpha"), "c45")


def works(tennis, melon) -> dict:
    return {"outlook": Work.of(tennis.steps[0]),
            "sunny": Work.of(tennis.steps[1], root=tennis.steps[0]),
            "colour": Work.of(melon.steps[0], row=0)}


def ln_(counts):
    return log_entropy(counts, math.log)


def lg_(counts):
    return log_entropy(counts, math.log10)


def _weighted_by(per, branches):
    sizes = [sum(b) for b in branches]
    return sum(s / sum(sizes) * per(b) for s, b in zip(sizes, branches))


GAIN = gain_of(NODE, OUTLOOK)
INFO = entropy([5, 4, 5])
RHO = 14 / 17


def _unknown_in_largest() -> list:
    counts = [list(b) for b in COLOUR]
    counts[0] = [c + u for c, u in zip(counts[0], COLOUR_UNKNOWN)]  # the largest branch (6 rows) takes them whole
    return counts


# (mistake, quantity, node, branch, the mistaken value built independently)
CASES = [
    ("natural_log", "node_entropy", "outlook", None, ln_(NODE)),
    ("natural_log", "branch_entropy", "outlook", 0, ln_((3, 2))),
    ("natural_log", "entropy_after", "outlook", None, _weighted_by(ln_, OUTLOOK)),
    ("natural_log", "gain", "outlook", None, ln_(NODE) - _weighted_by(ln_, OUTLOOK)),
    ("natural_log", "split_info", "outlook", None, ln_((5, 4, 5))),
    ("log10", "node_entropy", "outlook", None, lg_(NODE)),
    ("log10", "branch_entropy", "outlook", 2, lg_((2, 3))),
    ("log10", "entropy_after", "outlook", None, _weighted_by(lg_, OUTLOOK)),
    ("log10", "gain", "outlook", None, lg_(NODE) - _weighted_by(lg_, OUTLOOK)),
    ("log10", "split_info", "outlook", None, lg_((5, 4, 5))),
    ("unweighted_average", "entropy_after", "outlook", None, sum(entropy(b) for b in OUTLOOK) / 3),
    ("unweighted_average", "gain", "outlook", None, entropy(NODE) - sum(entropy(b) for b in OUTLOOK) / 3),
    ("unweighted_average", "gini_after", "outlook", None, float(sum(gini(b) for b in OUTLOOK) / 3)),
    ("unweighted_average", "gini_gain", "outlook", None, float(gini(NODE) - sum(gini(b) for b in OUTLOOK) / 3)),
    ("unweighted_average", "gain_ratio", "outlook", None,
     (entropy(NODE) - sum(entropy(b) for b in OUTLOOK) / 3) / INFO),
    ("weighted_by_counts", "entropy_after", "outlook", None, sum(sum(b) * entropy(b) for b in OUTLOOK)),
    ("weighted_by_counts", "gain", "outlook", None, entropy(NODE) - sum(sum(b) * entropy(b) for b in OUTLOOK)),
    ("weighted_by_counts", "gini_after", "outlook", None, float(sum(sum(b) * gini(b) for b in OUTLOOK))),
    ("weighted_by_counts", "gini_gain", "outlook", None,
     float(gini(NODE) - sum(sum(b) * gini(b) for b in OUTLOOK))),
    ("not_subtracted", "gain", "outlook", None, float(weighted(entropy, OUTLOOK))),
    ("not_subtracted", "gini_gain", "outlook", None, float(weighted(gini, OUTLOOK))),
    ("reversed", "gain", "outlook", None, -GAIN),
    ("reversed", "gini_gain", "outlook", None, -gain_of(NODE, OUTLOOK, gini)),
    ("split_info_from_classes", "split_info", "outlook", None, entropy(NODE)),
    ("split_info_from_classes", "gain_ratio", "outlook", None, GAIN / entropy(NODE)),
    ("ratio_over_node_entropy", "gain_ratio", "outlook", None, GAIN / entropy(NODE)),
    ("gini_of_node", "gini_after", "outlook", None, float(gini(NODE))),
    ("at_root", "node_entropy", "sunny", None, entropy(NODE)),  # the Sunny node (3/2) computed with 5/9
    ("at_root", "node_gini", "sunny", None, float(gini(NODE))),
    ("unknown_ignored", "gain", "colour", None, gain_of((8, 6), COLOUR)),  # Zhou's 0.306, without rho
    ("unknown_ignored", "split_info", "colour", None, entropy([6, 4, 4])),
    ("unknown_ignored", "gain_ratio", "colour", None, gain_of((8, 6), COLOUR) / entropy([6, 4, 4])),
    ("unknown_in_a_branch", "gain", "colour", None, gain_of(COLOUR_NODE, _unknown_in_largest())),
    ("unknown_in_a_branch", "entropy_after", "colour", None, float(weighted(entropy, _unknown_in_largest()))),
    ("unknown_in_a_branch", "gain_ratio", "colour", None,
     gain_of(COLOUR_NODE, _unknown_in_largest()) / entropy([9, 4, 4])),
    ("unknown_in_node", "node_entropy", "colour", None, entropy(COLOUR_NODE)),
]


def written(value: float, decimals: int = 4) -> str:
    return f"{value:.{decimals}f}"


@pytest.mark.parametrize("key, quantity, node, branch, value", CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_each_mistake_is_recognised(tennis, melon, key, quantity, node, branch, value):
    work = works(tennis, melon)[node]
    result = grade(work, quantity, written(value), branch=branch)
    assert result.status == "wrong", (result.message, work.exact(quantity, branch), value)
    assert key in [m.key for m in result.mistakes], result.message
    assert mistakes.MISTAKES[key].name in result.message


def test_zhou_figures_for_the_colour_split(melon):
    """The watermelon node is the one Zhou (2016) works: dtlearn's exact numbers agree."""
    work = Work.of(melon.steps[0], row=0)
    assert work.exact("node_entropy") == pytest.approx(entropy((8, 6)), abs=1e-12)
    assert round(entropy((8, 6)), 3) == 0.985
    assert round(gain_of((8, 6), COLOUR), 3) == 0.306
    assert work.exact("gain") == pytest.approx(RHO * gain_of((8, 6), COLOUR), abs=1e-12)
    assert round(work.exact("gain"), 3) == 0.252


def _truncated(value: float, k: int) -> float:
    return float(Decimal(repr(value)).quantize(Decimal(1).scaleb(-k), rounding=ROUND_DOWN))


@pytest.mark.parametrize("quantity", ["node_entropy", "branch_entropy", "entropy_after", "gain", "split_info",
                                      "gain_ratio", "node_gini", "branch_gini", "gini_after", "gini_gain"])
def test_truncating_instead_of_rounding(tennis, melon, quantity):
    work = works(tennis, melon)["outlook"]
    branch = 0 if quantity.startswith("branch") else None
    if quantity == "branch_gini":  # Outlook's branch Ginis are 12/25, 0, 12/25: exact in 2 decimals
        work, branch = Work.of(melon.steps[0], row=1), 2  # 根蒂's third branch, (2, 5): 20/49 = 0.40816...
    exact = work.exact(quantity, branch)
    for k in range(2, 8):  # the first number of decimals where cutting off differs from rounding
        cut = _truncated(exact, k)
        if cut != round(exact, k) and (quantity.startswith("branch") or cut != textbook(work, quantity, k, branch)):
            break
    result = grade(work, quantity, f"{cut:.{k}f}", branch=branch)
    assert "truncated" in [m.key for m in result.mistakes], (k, cut, result.message)


@pytest.mark.parametrize("quantity", ["entropy_after", "gain", "gain_ratio", "gini_after", "gini_gain"])
def test_rounding_too_early(tennis, melon, quantity):
    """Intermediate results rounded to 2 decimals, the answer written to 4: e.g. the gain as
    0.94 - 10/14 x 0.97 = 0.94 - 0.69 = 0.2500."""
    work = works(tennis, melon)["outlook"]
    r2 = lambda v: rounded(v, 2)  # noqa: E731
    after_e = r2(sum(sum(b) / 14 * r2(entropy(b)) for b in OUTLOOK))
    after_g = r2(sum(sum(b) / 14 * r2(float(gini(b))) for b in OUTLOOK))
    gain = r2(r2(entropy(NODE)) - after_e)
    value = {"entropy_after": after_e, "gini_after": after_g, "gain": gain,
             "gini_gain": r2(r2(float(gini(NODE))) - after_g), "gain_ratio": r2(gain / r2(INFO))}[quantity]
    result = grade(work, quantity, f"{value:.4f}")
    assert "early_rounding" in [m.key for m in result.mistakes], (value, result.message)


def test_every_numeric_mistake_has_a_case():
    """The catalogue and the cases above cover each other: a mistake added without a test fails."""
    covered = {(key, quantity) for key, quantity, *_ in CASES}
    covered |= {("truncated", q) for q in mistakes.MISTAKES["truncated"].compute}
    covered |= {("early_rounding", q) for q in mistakes.MISTAKES["early_rounding"].compute}
    declared = {(m.key, q) for m in mistakes.CATALOGUE for q in m.compute}
    assert declared == covered


def test_a_mistake_that_changes_nothing_is_not_named(tennis, melon):
    """ln instead of log2 scales gain and split info alike: the gain ratio is unchanged, so a
    right gain ratio stays right and natural_log is never offered for it."""
    work = works(tennis, melon)["outlook"]
    assert (ln_(NODE) - _weighted_by(ln_, OUTLOOK)) / ln_((5, 4, 5)) == pytest.approx(GAIN / INFO)
    assert "gain_ratio" not in mistakes.MISTAKES["natural_log"].compute
    assert grade(work, "gain_ratio", written(GAIN / INFO)).right


def test_unknown_mistakes_apply_only_with_unknown_values(tennis, melon):
    work = works(tennis, melon)["outlook"]
    assert all(f.mistake.key not in ("unknown_ignored", "unknown_in_a_branch", "unknown_in_node")
               for q in ("gain", "node_entropy", "split_info") for f in mistakes.candidates_for(work, q, None, 4))


# the choices -----------------------------------------------------------------------------------

def test_reusing_an_attribute_on_the_path(tennis):
    sunny = Work.of(tennis.steps[1])  # under outlook = Sunny ID3 may not test outlook again
    result = grade(sunny, "attribute", "outlook")
    assert not result.right and [m.key for m in result.mistakes] == ["used"]


def test_ranking_by_another_measure():
    """Quinlan's golf data (weather_numeric), CART at the root: outlook {overcast} has the
    highest Gini gain, a temperature cut the highest gain ratio (both computed here from the
    table's counts); a student who names temperature ranked by gain ratio."""
    tree = dtlearn.fit(dtlearn.load_dataset("weather_numeric"), "cart")
    table = tree.steps[0].table
    node = [sum(col) for col in zip(*table.iloc[0]["branch_counts"])]
    ginis = {i: float(gini(node) - weighted(gini, r["branch_counts"])) for i, r in table.iterrows()}
    ratios = {i: (entropy(node) - float(weighted(entropy, r["branch_counts"])))
              / entropy([sum(b) for b in r["branch_counts"]]) for i, r in table.iterrows()}
    best_gini, best_ratio = max(ginis, key=ginis.get), max(ratios, key=ratios.get)
    assert table.loc[best_gini, "attribute"] == "outlook" and table.loc[best_ratio, "attribute"] == "temperature"
    assert ginis[best_gini] - max(v for i, v in ginis.items() if table.loc[i, "attribute"] == "temperature") > 1e-3
    result = grade(Work.of(tree.steps[0]), "attribute", "temperature")
    assert [m.key for m in result.mistakes] == ["other_measure"] and "gain ratio" in result.message


def test_an_attribute_tying_with_the_chosen_one_is_right():
    """Internship table, ID3 at the root: gpa and years_experience both separate the classes
    completely (gain = Ent(D), computed here), so both are best; the tie goes to gpa, first in
    the table, and naming years_experience is right with that rule said."""
    tree = dtlearn.fit(dtlearn.load_dataset("internship"), "id3")
    table = tree.steps[0].table
    node = [sum(col) for col in zip(*table.iloc[0]["branch_counts"])]
    gains = {r["attribute"]: entropy(node) - float(weighted(entropy, r["branch_counts"])) for _, r in table.iterrows()}
    assert gains["gpa"] == gains["years_experience"] == entropy(node)
    result = grade(Work.of(tree.steps[0]), "attribute", "years_experience")
    assert result.right and "ties with gpa" in result.message and "first in the table" in result.message


def test_an_excluded_candidate():
    """C4.5 on iris: sepal_width's gain is below the average gain, so C4.5 may not take it."""
    step = dtlearn.fit(dtlearn.load_dataset("iris"), "c45").steps[0]
    result = grade(Work.of(step), "attribute", "sepal_width")
    assert [m.key for m in result.mistakes] == ["ineligible"] and "average gain" in result.message


def test_threshold_at_a_data_value_or_the_midpoint():
    """Iris: petal_length's values at the root jump from 1.9 (setosa) to 3.0 (versicolor); CART
    cuts at 2.45. J48 (C4.5) cuts petal_width at 0.6, the largest value not above (0.6 + 1.0) / 2."""
    iris = dtlearn.load_dataset("iris")
    frame = iris.frame
    assert frame.petal_length[frame.petal_length <= 2.45].max() == 1.9
    assert frame.petal_length[frame.petal_length > 2.45].min() == 3.0
    cart = Work.of(dtlearn.fit(iris, "cart").steps[0])
    for value in ("1.9", "3.0", "3"):
        assert [m.key for m in grade(cart, "threshold", value).mistakes] == ["data_value"]
    assert not grade(cart, "threshold", "2.5").mistakes
    c45 = Work.of(dtlearn.fit(iris, "c45").steps[0])
    assert [m.key for m in grade(c45, "threshold", str((0.6 + 1.0) / 2)).mistakes] == ["midpoint"]
