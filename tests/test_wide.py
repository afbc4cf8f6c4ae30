"""Wide and many-valued tables are read on purpose (dtlearn.identifiers): text columns of nearly
as many values as rows, and the columns past the first MAX_ATTRIBUTES, are left out with a note
saying why and how to keep them; the textbooks' tables lose nothing but their row names."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import dtlearn
from dtlearn.identifiers import MANY_VALUES, MAX_ATTRIBUTES, identifier_columns

BOOKS = Path(__file__).parent / "fixtures" / "books"


def csv(frame: pd.DataFrame) -> bytes:
    return frame.to_csv(index=False).encode()


def arff(frame: pd.DataFrame) -> bytes:
    """`frame` as ARFF: numbers numeric, text nominal over its values in order of appearance."""
    lines = ["@relation t"]
    for name in frame.columns:
        if pd.api.types.is_numeric_dtype(frame[name]):
            lines.append(f"@attribute {name} numeric")
        else:
            lines.append(f"@attribute {name} {{{','.join(pd.unique(frame[name]))}}}")
    lines += ["@data"] + [",".join(map(str, row)) for row in frame.itertuples(index=False)]
    return "\n".join(lines).encode()


@pytest.mark.parametrize("path", sorted(BOOKS.glob("*.csv")), ids=lambda p: p.stem)
def test_a_textbook_table_loses_only_the_column_naming_its_rows(path):
    # Han's RID, Mitchell's Day and Tan's Tid name the rows (their headers say so); every other
    # column of the books' 10- and 14-row tables is an attribute of the exercise
    header = path.read_text(encoding="utf-8").splitlines()[0].split(",")
    named = [name for name in header[:-1] if name in ("RID", "Day", "Tid")]
    data = dtlearn.read_csv(path)
    assert data.attributes == tuple(name for name in header[:-1] if name not in named)
    left_out = [note for note in data.notes if "left out" in note]
    assert len(left_out) == len(named) and all("as an identifier" in note for note in left_out)


def test_fourteen_rows_of_categories_are_never_too_many_values():
    # 14 rows hold at most 14 values, fewer than MANY_VALUES: whatever repeats, nothing is left out
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"outlook": rng.choice(["sunny", "overcast", "rain"], 14),
                          "colour": [f"c{i % 13}" for i in range(14)],  # 13 values in 14 rows: one repeat
                          "play": rng.choice(["yes", "no"], 14)})
    assert identifier_columns(frame, "play") == ()
    assert dtlearn.read_csv(csv(frame)).attributes == ("outlook", "colour")


def test_free_text_is_left_out_with_a_note_and_kept_when_asked_for():
    # 1,000 rows, 990 different comments (ten repeated once): more values than MANY_VALUES and
    # than half the rows
    rng = np.random.default_rng(1)
    comments = [f"comment number {i}" for i in range(990)] + [f"comment number {i}" for i in range(10)]
    frame = pd.DataFrame({"comment": rng.permutation(comments), "x": rng.integers(0, 5, 1000),
                          "y": rng.choice(["a", "b"], 1000)})
    assert frame["comment"].nunique() == 990
    data = dtlearn.read_csv(csv(frame))
    assert data.attributes == ("x",)
    note = [n for n in data.notes if n.startswith("'comment'")]
    assert len(note) == 1 and "990 different values in 1,000 rows" in note[0], data.notes
    assert 'identifiers="keep"' in note[0] and "as an identifier" not in note[0]
    assert dtlearn.read_csv(csv(frame), identifiers="keep").attributes == ("comment", "x")
    assert dtlearn.read_csv(csv(frame), kinds={"comment": "categorical"}).attributes == ("comment", "x")
    assert dtlearn.read_arff(arff(frame)).attributes == ("x",)
    assert dtlearn.read_arff(arff(frame), identifiers="keep").attributes == ("comment", "x")


@pytest.mark.parametrize("rows, values, left_out", [
    (60, MANY_VALUES, False),  # at the floor: kept
    (60, MANY_VALUES + 1, True),
    (400, 200, False),  # half the rows: kept
    (400, 201, True),
])
def test_the_rule_counts_values_against_the_floor_and_half_the_rows(rows, values, left_out):
    # every value at least once, the rest repeats: `values` different values in `rows` rows
    cells = [f"v{i}" for i in range(values)] + [f"v{i % values}" for i in range(rows - values)]
    frame = pd.DataFrame({"code": cells, "x": np.arange(rows) % 7, "y": ["a", "b"] * (rows // 2)})
    assert frame["code"].nunique() == values
    assert [c.name for c in identifier_columns(frame, "y")] == (["code"] if left_out else [])


def test_numbers_are_never_too_many_values():
    # a thousand different measurements are one numeric attribute: thresholds, not branches
    rng = np.random.default_rng(2)
    frame = pd.DataFrame({"weight": rng.normal(70, 10, 1000), "y": rng.choice(["a", "b"], 1000)})
    assert dtlearn.read_csv(csv(frame)).attributes == ("weight",)


def test_a_declared_domain_counts_whole():
    # an ARFF attribute declaring 5,000 values over 200 rows: ID3 and J48 grow a branch for each
    values = [f"z{i}" for i in range(5000)]
    text = ("@relation r\n@attribute zip {" + ",".join(values) + "}\n@attribute x numeric\n@attribute y {a,b}\n@data\n"
            + "\n".join(f"z{i % 20},{i % 3},{'ab'[i % 2]}" for i in range(200)))
    data = dtlearn.read_arff(text.encode())
    assert data.attributes == ("x",)
    assert any("5,000 declared values in 200 rows" in note for note in data.notes), data.notes


def wide(columns: int, rows: int = 30) -> pd.DataFrame:
    rng = np.random.default_rng(3)
    frame = pd.DataFrame(rng.integers(0, 3, (rows, columns)), columns=[f"x{i}" for i in range(1, columns + 1)])
    frame["y"] = rng.choice(["a", "b"], rows)
    return frame


def test_a_wide_table_keeps_its_first_columns_and_says_how_to_have_the_others():
    frame = wide(5000)
    data = dtlearn.read_csv(csv(frame))
    assert data.attributes == tuple(f"x{i}" for i in range(1, MAX_ATTRIBUTES + 1))
    note = [n for n in data.notes if "attribute columns" in n]
    assert note == [f"Only {MAX_ATTRIBUTES} of the 5,000 attribute columns are read: {5000 - MAX_ATTRIBUTES:,} after "
                    f"the first {MAX_ATTRIBUTES} ('x{MAX_ATTRIBUTES + 1}', 'x{MAX_ATTRIBUTES + 2}', …, 'x5000') are "
                    "left out, since a tree over so many columns is slow to grow and to read. To use them, read the "
                    "file with max_attributes=None (Dataset.select then keeps the ones you want) or give their kinds."]
    assert dtlearn.read_table_text(csv(frame).decode()).attributes == data.attributes
    assert dtlearn.read_arff(arff(frame)).attributes == data.attributes


def test_asking_for_a_wide_tables_columns_reads_them():
    frame = wide(5000)
    every = tuple(f"x{i}" for i in range(1, 5001))
    assert dtlearn.read_csv(csv(frame), max_attributes=None).attributes == every
    assert dtlearn.read_arff(arff(frame), max_attributes=None).attributes == every
    assert dtlearn.read_csv(csv(frame), max_attributes=300).attributes == every[:300]
    chosen = dtlearn.read_csv(csv(frame), kinds={"x4000": "categorical"})
    assert chosen.attributes == every[:MAX_ATTRIBUTES] + ("x4000",) and chosen.kinds["x4000"] == "categorical"
    assert not any("attribute columns" in note for note in dtlearn.read_csv(csv(wide(MAX_ATTRIBUTES))).notes)


def test_the_target_is_not_counted_among_the_attributes():
    frame = wide(MAX_ATTRIBUTES + 1)
    data = dtlearn.read_csv(csv(frame), target="x1")  # y, last, is an attribute now; x1 is not counted
    assert data.attributes == tuple(f"x{i}" for i in range(2, MAX_ATTRIBUTES + 2))


@pytest.mark.parametrize("value", [0, -1, 2.5, "all", True])
def test_max_attributes_takes_a_positive_whole_number_or_none(value):
    for read in (lambda: dtlearn.read_csv(b"a,b\n1,2\n", max_attributes=value),
                 lambda: dtlearn.read_table_text("a,b\n1,2\n", max_attributes=value),
                 lambda: dtlearn.read_arff(b"@relation r\n@attribute a numeric\n@data\n1\n", max_attributes=value)):
        with pytest.raises(ValueError, match="max_attributes must be a whole number of at least 1, or None"):
            read()
