"""Numbers printed with a unit, a scale letter, thousands separators, a currency or percent sign
are read as numbers with a note (dtlearn.units); where they can be read two ways, the note says
exactly what to change, and a kind set to numeric says it too."""

from __future__ import annotations

import pandas as pd
import pytest

import dtlearn


def read(column: list[str], name: str = "x", separator: str = ",") -> dtlearn.Dataset:
    """A two-column file: `name` (cells quoted, as a spreadsheet saves a comma) and a class."""
    lines = [f"{name}{separator}y"] + [f'"{cell}"{separator}{"ab"[i % 2]}' for i, cell in enumerate(column)]
    return dtlearn.read_csv(("\n".join(lines) + "\n").encode())


@pytest.mark.parametrize("cells, numbers, note", [
    (["125K", "100K", "70K"], [125, 100, 70], "x: read as numbers in thousands, 125K as 125 (the K dropped)."),
    (["1,000", "12,500", "999"], [1000, 12500, 999],
     "x: read as numbers, 1,000 as 1000 (the thousands separators dropped)."),
    (["$5", "$12.50", "-$3"], [5, 12.5, -3], "x: read as numbers, $5 as 5 (the $ dropped)."),
    (["12%", "7.5%", "100%"], [12, 7.5, 100], "x: read as numbers, 12% as 12 (the % dropped)."),
    (["3 kg", "0.5 kg", "12 kg"], [3, 0.5, 12], "x: read as numbers in kg, 3 kg as 3 (the kg dropped)."),
    (["$1,200", "$950", "$2,000,000"], [1200, 950, 2000000],
     "x: read as numbers, $1,200 as 1200 (the $ and the thousands separators dropped)."),
])
def test_numbers_with_a_unit_are_read_with_a_note(cells, numbers, note):
    data = read(cells)
    assert data.kinds["x"] == "numeric" and data.frame["x"].tolist() == numbers
    assert data.notes == (note,)


def test_tans_annual_income_in_thousands():
    data = read(["125K", "100K", "70K", "120K", "95K", "60K", "220K", "85K", "75K", "90K"], "Annual Income")
    assert data.frame["Annual Income"].tolist() == [125, 100, 70, 120, 95, 60, 220, 85, 75, 90]
    assert data.notes == ("Annual Income: read as numbers in thousands, 125K as 125 (the K dropped).",)


@pytest.mark.parametrize("cells, message", [
    (["3 kg", "2 kg", "500 g"], "x: the cells look like numbers with units, but data row 1 is in kg and data row 3 "
                                "in g: write every value in one unit (or none) to have them read as numbers. "
                                "Read as categories until then."),
    (["125K", "90000", "70K"], "x: the cells look like numbers with units, but data row 2 holds '90000' without the "
                               "K of data row 1 ('125K'): write K with every value, or with none"),
    (["$5", "€7"], "data row 1 is in $ and data row 2 in €: write every value in one currency"),
    (["5 m", "2 km", "3 m"], "data row 1 is in m and data row 2 in km: write every value in one unit"),
    (["1,000", "1,5"], "x: data row 2 holds '1,5', with a comma that is no thousands separator (those come before "
                       "groups of three digits, as in 1,000). If it is a decimal mark, write 1.5 with a point; if "
                       "it separates thousands, remove it. Read as categories until then."),
])
def test_numbers_read_two_ways_stay_categories_with_what_to_change(cells, message):
    data = read(cells)
    assert data.kinds["x"] == "categorical" and data.frame["x"].tolist() == cells
    assert len(data.notes) == 1 and message in data.notes[0]


def test_semicolon_files_write_decimal_commas_with_units_too():
    data = dtlearn.read_csv("x;y\n12,5 kg;a\n3 kg;b\n".encode())
    assert data.frame["x"].tolist() == [12.5, 3.0]
    assert data.notes[-1] == ("x: read as numbers in kg, 12,5 kg as 12.5 (the kg dropped; the comma read as a decimal "
                              "point).")
    mixed = dtlearn.read_csv("x;y\n2.5 kg;a\n1,5 kg;b\n".encode())
    assert mixed.kinds["x"] == "categorical"
    assert ("x: data row 1 holds '2.5 kg', with a decimal point, and data row 2 '1,5 kg', with a decimal comma: "
            "write every number one way") in mixed.notes[-1]


@pytest.mark.parametrize("cells", [["2 doors", "4 doors"], ["1st", "2nd", "3rd"], ["2023-01-05", "2023-02-01"],
                                   ["10:30", "11:00"], ["D1", "D2"], ["sunny", "rain"]])
def test_words_dates_and_times_stay_text_without_a_word(cells):
    data = read(cells)
    assert data.kinds["x"] == "categorical" and data.notes == ()


def test_setting_numeric_on_numbers_with_units_reads_them_or_says_why():
    frame = pd.DataFrame({"income": ["125K", "100K", None], "y": ["a", "b", "a"]})
    data = dtlearn.Dataset(frame, "y", {"income": "numeric"})
    assert data.frame["income"].tolist()[:2] == [125.0, 100.0] and pd.isna(data.frame["income"].iloc[2])
    assert data.notes == ("income: read as numbers in thousands, 125K as 125 (the K dropped).",)
    mixed = read(["3 kg", "2 kg", "500 g"])
    with pytest.raises(dtlearn.DataError, match=r"^Column 'x' is set to numeric, but its cells cannot be read as "
                                                r"numbers\. x: the cells look like numbers with units, but data row 1 "
                                                r"is in kg and data row 3 in g: write every value in one unit"):
        mixed.with_kinds({"x": "numeric"})
    words = read(["2 doors", "4 doors"])
    with pytest.raises(dtlearn.DataError, match=r"^Column 'x' is set to numeric but data row 1 holds '2 doors', "
                                                r"which is not a number: write the number alone"):
        words.with_kinds({"x": "numeric"})
