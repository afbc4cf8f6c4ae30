"""Variants: the constraints hold over many seeds (checked from each variant's own CSV, counting
with pandas), the seed and identifier reproduce a table in any process, the tie, size and shape
checks, and every message a teacher can get."""

from __future__ import annotations

import io
import math
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pandas as pd
import pytest

import dtlearn
from dtlearn.data import DataError, Dataset
from dtlearn.variants import Constraints, class_set, make_variant, problems, shape, student_ids, template_tree

ROOT = Path(__file__).resolve().parents[1]


def frame_of(variant) -> pd.DataFrame:
    """The variant's table as a reader of its CSV sees it (empty cells missing, nothing else)."""
    return pd.read_csv(io.StringIO(variant.csv()), keep_default_na=False, na_values=[""], dtype=str)


def entropy(counts) -> float:
    total = sum(counts)
    return -sum(c / total * math.log2(c / total) for c in counts if c)


def gains(frame: pd.DataFrame, target: str, attributes) -> dict[str, float]:
    """ID3's information gain of each categorical attribute (Quinlan 1986), counted with pandas."""
    before = entropy(frame[target].value_counts().tolist())
    return {a: before - sum(len(g) / len(frame) * entropy(g[target].value_counts().tolist())
                            for _, g in frame.groupby(a)) for a in attributes}


def node_rows(frame: pd.DataFrame, path) -> pd.DataFrame:
    """The rows at the end of a path of 'attribute = value' conditions."""
    for condition in path:
        attribute, _, value = condition.partition(" = ")
        frame = frame[frame[attribute] == value]
    return frame


def topology(node) -> list:
    """A tree's shape counted here: a node is the sorted list of its children's shapes."""
    return sorted(topology(child) for child in node.children)


# Categorical templates grown by ID3: every asked node is recounted from the variant's CSV.
ID3_CASES = {
    "tennis": Constraints("id3", steps=(1, 2), rows=(13, 15), max_node_rows=14, same_shape=True),
    "credit_risk": Constraints("id3", steps=(1, 2), rows=(8, 12), max_node_rows=10, same_shape=True),
    "watermelon_2": Constraints("id3", steps=(1, 3), rows=(14, 17), max_node_rows=16, same_shape=False),
}


@pytest.mark.parametrize("name", ID3_CASES)
def test_constraints_hold_over_fifty_seeds(name):
    template, rules = dtlearn.load_dataset(name), ID3_CASES[name]
    reference = topology(template_tree(template, rules).root)
    for seed in range(50):
        variant = make_variant(template, "student", seed, rules)
        frame = frame_of(variant)
        target = template.target
        assert rules.rows[0] <= len(frame) <= rules.rows[1]
        assert len(frame) <= rules.max_node_rows  # step 1 is the whole table
        assert (topology(variant.tree.root) == reference) is rules.same_shape
        growth = [s for s in variant.tree.steps if s.action in ("split", "leaf")]
        asked = growth[rules.steps[0] - 1:rules.steps[1]]
        assert [s.number for s in variant.asked] == [s.number for s in asked]
        for step in asked:
            rows = node_rows(frame, step.path)
            assert len(rows) == step.weight <= rules.max_node_rows
            counts = sorted(rows[target].value_counts().tolist(), reverse=True) + [0, 0]
            if step.action == "leaf":  # no tie for the leaf's class (an empty leaf takes its parent's)
                assert counts[0] == 0 or counts[0] - counts[1] >= 1, (seed, step.path)
                continue
            used = {condition.partition(" = ")[0] for condition in step.path}
            scored = gains(rows, target, [a for a in template.attributes if a not in used])
            ranked = sorted(scored.values(), reverse=True) + [0.0]
            assert step.test.attribute == max(scored, key=scored.get)
            assert ranked[0] - ranked[1] >= 1e-3 and ranked[0] >= 1e-3, (seed, step.path, scored)


def test_the_split_count_of_the_steps_asked_is_the_templates():
    # tennis with ID3 (Mitchell 1997, fig. 3.1): steps 1-3 are split, split, leaf
    rules = Constraints("id3", steps=(1, 3))
    for variant in class_set(dtlearn.load_dataset("tennis"), 20, 3, rules):
        assert Counter(s.action for s in variant.asked) == {"split": 2, "leaf": 1}


def test_c45_variants_with_numbers_and_missing_values_have_no_tie_in_their_tables():
    """C4.5 on watermelon 3.0 (numeric attributes, empty cells): read from the candidate tables,
    the winner beats every other eligible candidate by the tolerance, a node asked holds at most
    15 rows, and at least 10% of the attribute cells are empty."""
    rules = Constraints("c45", steps=(1, 2), rows=(13, 15), max_node_rows=15, missing=0.1)
    for variant in class_set(dtlearn.load_dataset("watermelon_3"), 12, 11, rules):
        frame = frame_of(variant)
        attributes = frame.drop(columns="好瓜")
        assert attributes.isna().to_numpy().sum() >= math.ceil(0.1 * attributes.size)
        assert set(variant.data.kinds.values()) == {"categorical", "numeric"}
        for step in variant.asked:
            assert step.weight <= 15 + 1e-9
            if step.action != "split":
                continue
            table = step.table
            chosen = table[table["chosen"]].iloc[0]
            others = table[table["eligible"] & ~table["chosen"]]
            assert not table["tied"].any()
            assert others.empty or chosen["score"] - others["score"].max() >= 1e-3


def test_the_table_asked_for_rows_attributes_classes_numbers():
    rules = Constraints("cart", steps=(1, 1), rows=(9, 11), attributes=3, classes=2, numeric=1)
    for variant in class_set(dtlearn.load_dataset("iris"), 10, 5, rules):
        frame = frame_of(variant)
        assert 9 <= len(frame) <= 11 and frame.shape[1] == 4
        assert frame["species"].nunique() <= 2 and set(frame["species"]) <= set(dtlearn.load_dataset("iris").classes)
        kinds = Counter(variant.data.kinds.values())
        assert kinds == {"numeric": 1, "categorical": 2}
        binned = [a for a, kind in variant.data.kinds.items() if kind == "categorical"]
        assert set(frame[binned].stack()) <= {"low", "medium", "high"}


def test_numbers_keep_the_templates_decimals():
    # weather_numeric writes temperature and humidity as whole numbers (Witten et al.)
    for variant in class_set(dtlearn.load_dataset("weather_numeric"), 5, 2, Constraints("c45", steps=(1, 1))):
        frame = frame_of(variant)
        for column in ("temperature", "humidity"):
            assert frame[column].str.fullmatch(r"\d+").all(), frame[column].tolist()


# reproducibility ---------------------------------------------------------------------------

def test_the_seed_and_the_identifier_reproduce_the_variant():
    template, rules = dtlearn.load_dataset("tennis"), Constraints("id3", steps=(1, 2))
    one, two = (make_variant(template, "ada", 7, rules) for _ in range(2))
    assert one.csv().encode() == two.csv().encode() and one.attempt == two.attempt
    assert one.tree.to_text() == two.tree.to_text()
    assert [s.reason for s in one.tree.steps] == [s.reason for s in two.tree.steps]
    assert make_variant(template, "ada", 8, rules).csv() != one.csv()


def test_every_student_of_a_class_gets_another_table():
    tables = [v.csv() for v in class_set(dtlearn.load_dataset("tennis"), 30, 7, Constraints("id3", steps=(1, 2)))]
    assert len(set(tables)) == 30


def test_a_new_process_with_another_hash_seed_draws_the_same_table():
    """Python salts hash() per process: the variant must not depend on it."""
    rules = Constraints("id3", steps=(1, 2))
    here = make_variant(dtlearn.load_dataset("tennis"), "Zoë", 7, rules).csv()
    code = ("import dtlearn, sys; from dtlearn.variants import Constraints, make_variant; "
            "sys.stdout.write(make_variant(dtlearn.load_dataset('tennis'), 'Zoë', 7, "
            "Constraints('id3', steps=(1, 2))).csv())")
    for salt in ("1", "987"):
        result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                                env={**os.environ, "PYTHONHASHSEED": salt}, check=True, encoding="utf-8")
        assert result.stdout == here


def test_the_csv_read_back_grows_the_same_tree():
    for variant in class_set(dtlearn.load_dataset("watermelon_3"), 4, 1, Constraints("cart", steps=(1, 2),
                                                                                         missing=0.05)):
        again = dtlearn.read_csv(io.StringIO(variant.csv()), target="好瓜")
        tree = dtlearn.fit(again, "cart")
        assert tree.to_text() == variant.tree.to_text()
        assert tree.steps[0].table["score"].tolist() == variant.tree.steps[0].table["score"].tolist()


# the checks ----------------------------------------------------------------------------------

def test_a_margin_below_the_tie_tolerance_is_a_tie():
    """Tennis' root (Mitchell 1997): Gain(outlook) = 0.2467 and Gain(humidity) = 0.1518, from the
    counts 9/5, outlook 2/3 4/0 3/2, humidity 3/4 6/1: a margin of 0.0949."""
    outlook = entropy([9, 5]) - (5 / 14 * entropy([2, 3]) + 5 / 14 * entropy([3, 2]))
    humidity = entropy([9, 5]) - (7 / 14 * entropy([3, 4]) + 7 / 14 * entropy([6, 1]))
    margin = outlook - humidity
    tree = dtlearn.fit(dtlearn.load_dataset("tennis"), "id3")
    # (the tree is its own template: past the tie check, its numbers are the template's)
    assert problems(tree, Constraints("id3", tie_tolerance=margin - 1e-4), tree) == ("copy",)
    assert problems(tree, Constraints("id3", tie_tolerance=margin + 1e-4), tree) == ("tie",)
    assert Constraints("id3").tolerance == 1e-3 and Constraints("id3", digits=4).tolerance == 1e-4


def test_two_equal_attributes_and_a_leaf_without_a_majority_are_ties():
    twins = Dataset(pd.DataFrame({"a": list("xxyyy"), "b": list("xxyyy"), "c": list("ABAAA")}), "c")
    tree = dtlearn.fit(twins, "id3")
    assert problems(tree, Constraints("id3", steps=(1, 1)), tree) == ("tie",)
    # a alone: the root splits (gain 0.32), its x branch holds one A and one B and has nothing left to test
    single = Dataset(pd.DataFrame({"a": list("xxyyy"), "c": list("ABAAA")}), "c")
    tree = dtlearn.fit(single, "id3")
    assert [s.action for s in tree.steps] == ["split", "leaf", "leaf"] and tree.steps[1].class_weights == (1, 1)
    assert problems(tree, Constraints("id3", steps=(1, 1)), tree) == ("copy",)  # no tie: as the template
    assert problems(tree, Constraints("id3", steps=(2, 2)), tree) == ("tie",)


def test_size_steps_work_and_shape_problems():
    tennis = dtlearn.load_dataset("tennis")
    tree = dtlearn.fit(tennis, "id3")
    assert problems(tree, Constraints("id3", max_node_rows=13), tree) == ("size",)
    assert problems(tree, Constraints("id3", steps=(1, 9)), tree) == ("steps",)
    stump = dtlearn.fit(tennis, "id3", max_depth=1)
    assert problems(stump, Constraints("id3", steps=(1, 2)), tree) == ("work",)
    assert problems(stump, Constraints("id3", same_shape=True), tree) == ("shape",)
    assert problems(stump, Constraints("id3", same_shape=False), tree) == ("copy",)  # its root is the template's
    assert shape(tree) != shape(stump) and shape(stump) == ((), (), ())


def test_a_published_solution_never_fits_a_step_asked():
    """Every split asked shows other numbers than the template's at that step (the template's
    root gains, Mitchell 1997: 0.247, 0.029, 0.152, 0.048)."""
    template = dtlearn.load_dataset("tennis")
    published = (0.247, 0.029, 0.152, 0.048)
    for variant in class_set(template, 30, 4, Constraints("id3", steps=(1, 2), perturb=0.03)):
        frame = frame_of(variant)
        root = tuple(round(g, 3) for g in gains(frame, "play", template.attributes).values())
        assert root != published


# messages --------------------------------------------------------------------------------------

def test_a_constraint_that_cannot_be_met_is_named():
    with pytest.raises(DataError, match="closer than the grading tolerance"):
        make_variant(dtlearn.load_dataset("tennis"), "ada", 1, Constraints("id3", tie_tolerance=0.9, max_attempts=5))
    with pytest.raises(DataError, match="more rows than can be computed by hand"):
        make_variant(dtlearn.load_dataset("tennis"), "ada", 1, Constraints("id3", max_node_rows=5, max_attempts=5))


@pytest.mark.parametrize("options, message", [
    (dict(classes=3), "has 2 classes; a variant cannot keep 3"),
    (dict(attributes=5), "has 4 attributes"),
    (dict(numeric=1), "has 0 numeric attributes"),
    (dict(steps=(1, 9)), "has 8 growth steps; steps 1 to 9 cannot be asked"),
])
def test_constraints_the_template_cannot_meet(options, message):
    with pytest.raises(DataError, match=message):
        make_variant(dtlearn.load_dataset("tennis"), "ada", 1, Constraints("id3", **options))


@pytest.mark.parametrize("options, message", [
    (dict(algorithm="c50"), "Unknown algorithm 'c50'"),
    (dict(steps=(2, 1)), "steps must be"),
    (dict(rows=(1, 5)), "rows must be"),
    (dict(classes=1), "classes must be a whole number of at least 2"),
    (dict(digits=1), "digits must be a whole number from 2 to 6"),
    (dict(missing=0.9), "missing must be a share from 0 to 0.5"),
    (dict(numeric=3, attributes=2), r"numeric \(3\) cannot exceed attributes \(2\)"),
    (dict(rows=(20, 30), max_node_rows=14), "Step 1 is the whole table"),
    (dict(settings={"max_depht": 2}), "max_depht"),
])
def test_bad_constraints_say_what_is_wrong(options, message):
    with pytest.raises(ValueError, match=message):
        Constraints(**{"algorithm": "id3", **options})


def test_students_are_named_and_must_differ():
    assert student_ids(3) == ("1", "2", "3") and student_ids(10)[:2] == ("01", "02")
    with pytest.raises(DataError, match="'ada' appears more than once"):
        class_set(dtlearn.load_dataset("tennis"), ["ada", "bo", " ada "], 1, Constraints("id3"))
    with pytest.raises(DataError, match="identifier needs 1 to 64 characters on one line"):
        make_variant(dtlearn.load_dataset("tennis"), "a\nb", 1, Constraints("id3"))
    with pytest.raises(DataError, match="seed must be a whole number"):
        make_variant(dtlearn.load_dataset("tennis"), "a", -1, Constraints("id3"))
