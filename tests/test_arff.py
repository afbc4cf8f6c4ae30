"""Weka's ARFF files (dtlearn.read_arff): declared domains kept, and J48 / Id3 on Weka's own example
files equal to Weka 3.6.14's trees (tests/fixtures/weka/weka-*.txt, made by running Weka on the
copies in tests/fixtures/weka/arff/, see that folder's README)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from weka_tree import canonical_from_dtlearn, parse_weka_tree, render, trees_equal

import dtlearn

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "weka"
FILES = ["weather.nominal", "contact-lenses", "credit-g", "soybean", "breast-cancer"]


def read(name: str) -> dtlearn.Dataset:
    return dtlearn.read_arff(FIXTURES / "arff" / f"weka-{name}.arff")


def assert_weka(tree, fixture: str):
    expected = parse_weka_tree((FIXTURES / fixture).read_text(encoding="utf-8"))
    ok, diff = trees_equal(expected, canonical_from_dtlearn(tree.to_dict()))
    assert ok, f"{fixture}: {diff}\n--- Weka\n{render(expected)}\n--- dtlearn\n{tree.to_text()}"


@pytest.mark.parametrize("name", FILES)
@pytest.mark.parametrize(("learner", "settings"), [("j48_unpruned", {}), ("j48_pruned", {"prune": True})])
def test_j48_on_wekas_example_files(name, learner, settings):
    assert_weka(dtlearn.fit(read(name), "c45", **settings), f"weka-{name}.{learner}.txt")


@pytest.mark.parametrize("name", ["weather.nominal", "contact-lenses"])
def test_id3_on_wekas_example_files(name):
    assert_weka(dtlearn.fit(read(name), "id3"), f"weka-{name}.id3.txt")


def test_declared_values_no_row_holds_are_kept_and_grow_empty_branches():
    # breast-cancer declares age 10-19 and 90-99, which no row holds; J48 grows empty branches
    # for such values (the fixtures' "(0.0)" leaves): they come from the declaration alone.
    data = read("breast-cancer")
    declared = list(data.frame["age"].cat.categories)
    held = set(data.frame["age"].dropna())
    assert declared[0] == "10-19" and "10-19" not in held and "90-99" not in held
    tree = dtlearn.fit(data, "c45")
    empty = [leaf for leaf in tree.root.leaves() if leaf.weight == 0]
    assert empty and all(leaf.stop == "empty" for leaf in empty)
    age_splits = [node for node in tree.nodes() if node.test is not None and node.test.attribute == "age"]
    assert age_splits and all(node.test.values == tuple(declared) for node in age_splits)


def test_numbers_declared_nominal_stay_categories_and_quotes_are_read():
    text = b"""% a comment
@relation 'the test'
@attribute 'deg malig' {'1','2','3'}
@attribute size numeric
@attribute "class" {'no-rec', 'rec'}
@data
'1', 3.5, no-rec
2,?,rec
'3',  7 , 'rec'
?, 1, no-rec
"""
    data = dtlearn.read_arff(text)
    assert data.kinds == {"deg malig": "categorical", "size": "numeric"}
    assert list(data.frame["deg malig"].cat.categories) == ["1", "2", "3"]
    assert data.frame["size"].tolist()[0] == 3.5 and pd.isna(data.frame["size"][1])
    assert pd.isna(data.frame["deg malig"][3]) and data.classes == ("no-rec", "rec")


@pytest.mark.parametrize(("text", "message"), [
    (b"@relation r\n@attribute a {x,y}\n@attribute c {p,q}\n@data\nx,p\nz,q\n", "Line 6: 'z' is not one of the values"),
    (b"@relation r\n@attribute a numeric\n@attribute c {p,q}\n@data\nten,p\n", "Line 5: 'a' is numeric"),
    (b"@relation r\n@attribute a numeric\n@attribute c {p,q}\n@data\n1,p,3\n", "Line 5: 3 values, but 2"),
    (b"@relation r\n@attribute a relational\n@end a\n@attribute c {p,q}\n@data\n", "Line 2: 'a' is a relational"),
    (b"@relation r\n@attribute a numeric\n@attribute c {p,q}\n@data\n1,p,{2}\n", "Line 5: an instance weight"),
    (b"@relation r\n@attribute a {x,y\n@attribute c {p,q}\n@data\n", "Line 2: the values of 'a' are not closed"),
    (b"@relation r\n@attribute a numeric\n@attribute a {p,q}\n@data\n", "Line 3: attribute 'a' is declared twice"),
    (b"@relation r\n@attribute a numeric\n@attribute c {p,q}\n@data\n{0 1, 1 p}\n", "Line 5: sparse ARFF"),
    (b"@relation r\n@attribute a numeric\n@attribute c {p,q}\n", "no @data section"),
    (b"@relation r\nbogus line\n", "Line 2: expected @relation, @attribute or @data"),
    (b"a,b\n1,2\n", "Line 1: expected @relation"),
    # a CSV header cell may not be empty; nor an ARFF attribute's name (its label's <B></B> broke `dot`)
    (b"@relation r\n@attribute '' {a,b}\n@attribute y {p,q}\n@data\na,p\nb,q\n", "Column 1 has no name"),
    (b"@relation r\n@attribute a numeric\n@attribute c {p,q}\n@data\n'1,p\n", "Line 5: a quote is not closed"),
])
def test_bad_arff_says_which_line(text, message):
    with pytest.raises(dtlearn.DataError, match=message):
        dtlearn.read_arff(text)


def test_string_and_date_attributes_are_read_as_categories_and_percent_starts_a_comment():
    # Weka's files often carry a string attribute (a name, an id) or a date; J48 itself refuses
    # them, but a student's file should still open: their values are categories as written
    text = b"""@relation passengers % the relation's name
@attribute name string
@attribute boarded date 'yyyy-MM-dd'
@attribute fare numeric % in pounds
@attribute survived {no, yes}
@data
'Ann Lee', '1912-04-10', 7.25, yes % first row
Bob, '1912-04-11', ?, no
'C%d', ?, 8.05, 'yes'
"""
    data = dtlearn.read_arff(text)
    assert data.kinds == {"name": "categorical", "boarded": "categorical", "fare": "numeric"}
    assert data.frame["name"].tolist() == ["Ann Lee", "Bob", "C%d"]  # a quoted % is a value
    assert data.frame["boarded"].tolist()[:2] == ["1912-04-10", "1912-04-11"] and pd.isna(data.frame["boarded"][2])
    assert data.frame["survived"].tolist() == ["yes", "no", "yes"]
    assert data.notes == ("'name' is a string attribute: its values are read as categories, as written (mark it "
                          "ignore if it names each row).",
                          "'boarded' is a date attribute: its values are read as categories, as written, not as times.")
    assert dtlearn.fit(data, "id3").root.test.attribute in data.attributes

