"""Columns that name the rows are left out when a file is read (dtlearn.identifiers), and nothing
else is: the false positives a teacher would hate are tested as carefully as the books' ids."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import dtlearn
from dtlearn.identifiers import MIN_ROWS, identifier_columns, named_like_an_identifier


def csv(frame: pd.DataFrame) -> bytes:
    return frame.to_csv(index=False).encode()


@pytest.mark.parametrize("name", ["Day", "RID", "Tid", "ID", "id", "No.", "#", "index", "Row", "customer_id",
                                  "Customer ID", "CustomerID", "userId", "Serial No", "S.No"])
def test_names_that_say_identifier(name):
    assert named_like_an_identifier(name)


@pytest.mark.parametrize("name", ["Humid", "Acid", "valid", "paid", "Outlook", "age", "income", "weekday",
                                  "number of doors", "idle", "identity"])
def test_names_that_do_not(name):
    assert not named_like_an_identifier(name)


def test_a_named_id_with_distinct_values_of_any_kind_is_left_out_with_a_note():
    frame = pd.DataFrame({"ID": [3, 1, 2], "wind": ["weak", "strong", "weak"], "play": ["no", "yes", "yes"]})
    data = dtlearn.read_csv(csv(frame))
    assert data.attributes == ("wind",)
    assert data.notes == ("'ID' (3, 1, 2) is left out as an identifier: a different value in every row, and named "
                          "like an identifier, so a tree would split on it and learn nothing. To use it, read the "
                          'file with identifiers="keep" or give its kind.',)
    assert dtlearn.read_csv(csv(frame), identifiers="keep").attributes == ("ID", "wind")
    assert dtlearn.read_csv(csv(frame), kinds={"ID": "categorical"}).kinds["ID"] == "categorical"
    assert dtlearn.read_table_text(csv(frame).decode()).attributes == ("wind",)
    assert dtlearn.read_table_text(csv(frame).decode(), identifiers="keep").attributes == ("ID", "wind")


def test_a_named_column_that_repeats_or_has_gaps_is_an_attribute():
    # tips' "day" (Thur..Sun, repeated) is an attribute; an id with a gap is left to the student
    repeats = pd.DataFrame({"day": ["Sun", "Sat", "Sun"], "x": [1, 2, 3], "y": ["a", "b", "a"]})
    gap = pd.DataFrame({"ID": ["a", None, "c"], "x": [1, 2, 3], "y": ["a", "b", "a"]})
    for frame in (repeats, gap):
        assert identifier_columns(frame, "y") == ()
    assert "day" in dtlearn.load_dataset("tips").attributes


def test_distinct_text_needs_enough_rows():
    names = [f"student {i}" for i in range(MIN_ROWS)]
    frame = pd.DataFrame({"who": names, "hours": np.arange(MIN_ROWS) % 3, "passed": ["yes", "no"] * (MIN_ROWS // 2)})
    assert [i.name for i in identifier_columns(frame, "passed")] == ["who"]
    assert identifier_columns(frame.iloc[:-1], "passed") == ()  # fewer rows: the values may differ by chance


def test_numbers_without_an_identifiers_name_are_attributes():
    # Ten distinct incomes (Tan's, in thousands), Quinlan's golf temperatures (64..85, two repeats),
    # a one-attribute toy x = 1..10 and a shuffled 0..n-1 (tests/app/test_large_upload.py's x0):
    # all attributes of an exercise, none an identifier
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({
        "income": [125, 100, 70, 120, 95, 60, 220, 85, 75, 90],
        "temperature": [75, 80, 85, 72, 69, 72, 83, 64, 81, 71],
        "x": np.arange(1, 11), "x0": rng.permutation(10), "x2": np.arange(10) * 0.5 + 1,
        "y": list("nnnnyyynny"),
    })
    assert identifier_columns(frame, "y") == ()
    assert dtlearn.read_csv(csv(frame)).attributes == ("income", "temperature", "x", "x0", "x2")


def test_the_only_attribute_is_kept_and_the_target_is_never_an_identifier():
    frame = pd.DataFrame({"Day": [f"D{i}" for i in range(1, 11)], "play": list("nnyyyyynny")})
    assert identifier_columns(frame, "play") == ()
    assert dtlearn.read_csv(csv(frame)).attributes == ("Day",)
    assert dtlearn.read_csv(csv(frame), target="Day").target == "Day"


def test_no_built_in_dataset_loses_a_column():
    for name in dtlearn.dataset_names():
        info = dtlearn.dataset_info(name)
        kept = dtlearn.read_csv(dtlearn.catalog.DATASETS_DIR / info.file, target=info.target, identifiers="keep")
        assert dtlearn.load_dataset(name).attributes == kept.attributes, name


def test_an_arff_string_attribute_that_names_the_rows_is_left_out():
    header = "@relation days\n@attribute Day string\n@attribute wind {weak,strong}\n@attribute play {no,yes}\n@data\n"
    text = header + "\n".join(f"D{i},{'weak' if i % 2 else 'strong'},{'yes' if i % 3 else 'no'}" for i in range(1, 15))
    data = dtlearn.read_arff(text.encode())
    assert data.attributes == ("wind",) and "'Day' (D1, D2, …, D14) is left out" in data.notes[0]
    kept = dtlearn.read_arff(text.encode(), identifiers="keep")
    assert kept.attributes == ("Day", "wind") and "mark it ignore if it names each row" in kept.notes[0]


def test_identifiers_takes_ignore_or_keep():
    for read in (lambda: dtlearn.read_csv(b"a,b\n1,2\n", identifiers="drop"),
                 lambda: dtlearn.read_table_text("a,b\n1,2\n", identifiers=True),
                 lambda: dtlearn.read_arff(b"@relation r\n@attribute a numeric\n@data\n1\n", identifiers="no")):
        with pytest.raises(ValueError, match="identifiers must be 'ignore' or 'keep'"):
            read()
