"""A variant's exercise is made once and read by every export: what is kept is what a fresh one makes.

The sheets (`class_sheets`), the Moodle, QTI and nbgrader exports read the same worksheet and
exercise of a variant (`Variant.made`); these tests check that the kept ones are the ones a
variant drawn anew from the same seed makes (the seed reproduces the variant: `variants`), that a
table named otherwise gets its own, and that the key's numbers are still the candidate table's.
"""

from __future__ import annotations

import math

from dtlearn.class_sheets import class_files, variant_worksheet
from dtlearn.lms_items import exercise
from dtlearn.lms_moodle import moodle_xml
from dtlearn.lms_qti import qti_package
from lms_fixtures import root_numbers, tennis_class


def test_an_exercise_kept_after_the_sheets_and_exports_is_the_one_a_fresh_variant_makes():
    used = tennis_class("c45", students=("ada", "bo"))
    list(class_files(used, "PlayTennis"))
    moodle_xml(used, "PlayTennis"), qti_package(used, "PlayTennis")
    fresh = tennis_class("c45", students=("ada", "bo"))  # same seed: the same tables, nothing kept yet
    for kept, new in zip(used, fresh):
        assert kept.csv() == new.csv()
        assert exercise(kept, "PlayTennis") is exercise(kept, "PlayTennis")  # made once
        assert exercise(kept, "PlayTennis") == exercise(new, "PlayTennis")
        assert variant_worksheet(kept, "PlayTennis") == variant_worksheet(new, "PlayTennis")


def test_a_table_named_otherwise_gets_its_own_sheet_and_exercise():
    ada = tennis_class("id3", students=("ada",))[0]
    first, other = exercise(ada, "PlayTennis"), exercise(ada, "Weather")
    assert "PlayTennis" in first.title and "Weather" in other.title
    assert "Weather" in variant_worksheet(ada, "Weather").title
    assert first.blanks == other.blanks


def test_the_kept_exercise_keys_the_roots_numbers_counted_from_the_csv():
    for variant in tennis_class("id3"):
        exercise(variant, "PlayTennis")  # kept, then read again
        root = exercise(variant, "PlayTennis").parts[0].blanks
        counted = root_numbers(variant)  # from the variant's CSV with pandas (Quinlan 1986)
        assert root[0].quantity == "node_entropy"
        assert math.isclose(root[0].exact, counted["node_entropy"], abs_tol=1e-12)
        gains = [b for b in root if b.quantity == "gain"]
        assert gains
        for blank in gains:
            attribute = blank.label.removeprefix("Information gain of the test on ")
            assert math.isclose(blank.exact, counted[f"gain {attribute}"], abs_tol=1e-12)
