"""Reading tables: read_csv, Dataset, the built-in catalogue.

Every unusable input must raise `dtlearn.DataError` (a ValueError) with a message a student
can act on, and nothing else: the cases below each match their message, and hypothesis
feeds random bytes and random CSV-like text to check that no other exception escapes.
"""

from __future__ import annotations

import csv
import io
import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dtlearn
import dtlearn.data_summary  # (a submodule the package does not import itself)

GOOD = b"outlook,windy,play\nSunny,1,No\nRain,0,Yes\n"


# --- every DataError, with its message ---------------------------------------------------------

@pytest.mark.parametrize("raw,options,message", [
    (b"", {}, r"^The file is empty\.$"),
    (b"   \n\n \t \r\n", {}, r"^The file is empty\.$"),
    (b"a,b\n", {}, r"^The table has a header but no data rows\.$"),
    (b"a,b\n,\n \n", {}, r"^The table has a header but no data rows\.$"),
    (b"a,b\n1,x\n", {"target": "c"}, r"^Unknown target column 'c'\. The columns are: a, b\.$"),
    (b"a,b\n1,\n2,?\n", {"target": "b"}, r"^The target column 'b' has no values: choose a column with classes"),
    (b"a,b,a\n1,2,x\n", {}, r"^Duplicate column names: 'a'\. Give every column its own name\.$"),
    (b"a, a ,b\n1,2,x\n", {}, r"Duplicate column names: 'a'"),  # names are stripped first
    (b"a,,b\n1,2,x\n", {}, r"^Column 2 of the header has no name\.$"),
    (b"a,b,\n1,x,\n", {}, r"^Column 3 of the header has no name \(a trailing comma\?\)\.$"),
    (b"a,b\n1,x\n1,x,3\n", {},
     r"^Data row 2 has 3 fields but the header has 2\. Check for a missing or extra comma\.$"),
    (b"a,b,c\n1,x\n", {}, r"^Data row 1 has 2 fields but the header has 3\."),
    (b"a\n1\n2\n", {}, r"^The header has a single column\. A table needs attribute columns and a target"),
    (b"a|b\n1|2\n", {}, r"separated by commas, semicolons or tabs\.$"),  # '|' is no separator
    (b"a;b;\n1;x;\n", {}, r"^Column 3 of the header has no name \(a trailing semicolon\?\)\.$"),
    (b"a;b\n1;x\n2;y;3\n", {},
     r"^Data row 2 has 3 fields but the header has 2\. Check for a missing or extra semicolon\.$"),
    (b"a\tb\n1\n", {}, r"^Data row 1 has 1 fields but the header has 2\. Check for a missing or extra tab\.$"),
    (b'""\n', {}, r"^The file is empty\.$"),  # a quoted empty cell is no table either
    (b"caf\xe9,x\n1,2\n", {},
     r"^The file is not UTF-8 text \(undecodable byte at position 3\)\. Save it as 'CSV UTF-8'"),
    (b"a,b\n\x80\x81,x\n", {}, r"not UTF-8 text \(undecodable byte at position 4\)"),
    (b"\xff\xfe\x00\xd8", {}, r"not UTF-8 text"),  # a UTF-16 mark followed by a lone surrogate
    (b"a,b\n\x00\x01,x\n", {}, r"^The file looks binary, not a CSV text table\.$"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", {}, r"not UTF-8 text \(undecodable byte at position 0\)"),
    (b"PK\x03\x04\x14\x00\x00\x00", {}, r"^The file looks binary"),  # a zip / xlsx header
    (b"a,b\n1,x\n", {"kinds": {"c": "numeric"}}, r"^Kinds were given for 'c', which is not an attribute column\.$"),
    (b"a,b\n1,x\n", {"kinds": {"b": "numeric"}}, r"Kinds were given for 'b', which is not an attribute column"),
    (b"a,b\n1,x\n", {"kinds": {"a": "ordinal"}}, r"^Kind of 'a' must be 'categorical' or 'numeric', not 'ordinal'\.$"),
    (b"a,b\n1,x\nlots,y\n", {"kinds": {"a": "numeric"}},
     r"^Column 'a' is set to numeric but data row 2 holds 'lots', which is not a number: write the number alone"),
    (b"a,b\ninf,x\n1,y\n", {"kinds": {"a": "numeric"}}, r"^Column 'a' holds an infinite number; use finite numbers"),
    (b"a,b\n1,x\n-1e999,y\n", {"kinds": {"a": "numeric"}}, r"Column 'a' holds an infinite number"),
])
def test_read_csv_errors(raw, options, message):
    with pytest.raises(dtlearn.DataError, match=message):
        dtlearn.read_csv(raw, **options)


def test_data_error_is_a_value_error():
    assert issubclass(dtlearn.DataError, ValueError)


def test_unusable_sources(tmp_path):
    with pytest.raises(dtlearn.DataError, match=r"^No such file: "):
        dtlearn.read_csv(tmp_path / "missing.csv")
    with pytest.raises(dtlearn.DataError, match=r"^No such file: "):
        dtlearn.read_csv(str(tmp_path))  # a directory is not a file
    with pytest.raises(dtlearn.DataError, match=r"^Give a CSV as a path, bytes or an open file\.$"):
        dtlearn.read_csv(12345)
    with pytest.raises(dtlearn.DataError, match=r"^Give a CSV as a path, bytes or an open file\.$"):
        dtlearn.read_csv(None)


def test_parser_failures_are_data_errors():
    # Failures inside the csv module surface as DataError too ("Could not read the table: ...").
    with pytest.raises(dtlearn.DataError, match=r"^Could not read the table: field larger than field limit"):
        dtlearn.read_csv(b"a,b\n" + b"x" * 200_000 + b",1\n")


# --- Dataset errors -----------------------------------------------------------------------------

@pytest.mark.parametrize("frame,target,kinds,message", [
    (pd.DataFrame({"a": [1.0], "y": ["x"]}), "z", None, r"^Unknown target column 'z'\. The columns are: a, y\.$"),
    (pd.DataFrame({"y": ["x", "y"]}), "y", None, r"needs at least one attribute column besides the target"),
    (pd.DataFrame({"a": pd.Series([], dtype=float), "y": pd.Series([], dtype=object)}), "y", None,
     r"^The table has a header but no data rows\.$"),
    (pd.DataFrame({"a": [1.0, 2.0], "y": ["x", None]}), "y", None, r"missing labels \(data rows 2\)"),  # see labelled
    (pd.DataFrame({"a": [1.0] * 7, "y": [None] * 7}), "y", None, r"data rows 1, 2, 3, 4, 5, \.\.\.\)"),
    (pd.DataFrame([[1, 2, "x"]], columns=["a", "a", "y"]), "y", None, r"^Duplicate column names: 'a'\."),
    (pd.DataFrame({"a": [1.0, np.inf], "y": ["x", "y"]}), "y", None, r"Column 'a' holds an infinite number"),
    (pd.DataFrame({"a": ["p", "q"], "y": ["x", "y"]}), "y", {"a": "numeric"},
     r"^Column 'a' is set to numeric but data row 1 holds 'p', which is not a number"),
    (pd.DataFrame({"a": ["p", "q"], "y": ["x", "y"]}), "y", {"a": "text"}, r"Kind of 'a' must be"),
    (pd.DataFrame({"a": ["p", "q"], "y": ["x", "y"]}), "y", {"b": "numeric"}, r"Kinds were given for 'b'"),
])
def test_dataset_errors(frame, target, kinds, message):
    with pytest.raises(dtlearn.DataError, match=message):
        dtlearn.Dataset(frame, target, kinds)


def test_dataset_needs_a_dataframe():
    with pytest.raises(dtlearn.DataError, match=r"^A dataset needs a pandas DataFrame\.$"):
        dtlearn.Dataset({"a": [1], "y": ["x"]}, "y")


# --- what read_csv accepts ----------------------------------------------------------------------

def test_question_marks_and_empty_cells_are_missing():
    data = dtlearn.read_csv(b"colour,size,label\n?,1,x\n,2,y\nred,?,z\n red ,  ,x\n")
    colour, size = data.frame["colour"], data.frame["size"]
    assert colour.isna().tolist() == [True, True, False, False]
    assert colour.iloc[3] == "red"  # cells are stripped
    assert size.isna().tolist() == [False, False, True, True]
    # A column whose present values are all numbers is numeric (ints become floats with NaN).
    assert data.kinds == {"colour": "categorical", "size": "numeric"}
    assert size.iloc[:2].tolist() == [1.0, 2.0]


def test_column_kinds_are_inferred_and_can_be_forced():
    raw = b"n,code,mixed,y\n1.5,7,1,a\n2,8,x,b\n-3e2,9,2,a\n"
    data = dtlearn.read_csv(raw)
    assert data.kinds == {"n": "numeric", "code": "numeric", "mixed": "categorical"}
    assert data.frame["n"].tolist() == [1.5, 2.0, -300.0]
    forced = dtlearn.read_csv(raw, kinds={"code": "categorical"})
    assert forced.kinds["code"] == "categorical"
    # Numbers given as a category are labelled as written: 7, 8, 9 (not 7.0).
    assert dtlearn.fit(forced.select(["code"]), "id3").root.test.values == ("7", "8", "9")


def test_words_that_look_like_numbers_stay_text():
    # 'inf' and 'nan' are words in a CSV, not numbers: the column stays categorical.
    data = dtlearn.read_csv(b"a,b,y\ninf,nan,p\n1,2,q\n")
    assert data.kinds == {"a": "categorical", "b": "categorical"}
    assert data.frame["b"].tolist() == ["nan", "2"]


def test_target_defaults_to_the_last_column():
    assert dtlearn.read_csv(GOOD).target == "play"
    data = dtlearn.read_csv(GOOD, target="outlook")
    assert data.target == "outlook" and data.attributes == ("windy", "play")
    assert data.classes == ("Rain", "Sunny")


# A Titanic-like file: the class column (survived) is not last, and the last (embarked) has gaps.
TITANIC = b"name,survived,age,fare,embarked\nA,1,22,7.25,S\nB,0,,71.3,\nC,1,26,7.9,Q\nD,0,35,8.05,?\nE,1,,8.46,S\n"


def test_rows_without_a_class_are_left_out_and_a_note_says_which():
    # Weka's J48 (Instances.deleteWithMissingClass) and rpart (na.rpart) learn from the rows that
    # have a class: here rows 2 and 4 of the file have no value of embarked
    data = dtlearn.read_csv(TITANIC, target="embarked")
    assert data.frame["name"].tolist() == ["A", "C", "E"] and data.classes == ("Q", "S")
    assert data.notes[-1] == ("2 rows without a value of 'embarked' are left out (data rows 2, 4): "
                              "they have no class to learn from.")
    assert list(data.frame.index) == [0, 1, 2]  # positions, as every other Dataset's
    assert dtlearn.read_csv(TITANIC, target="survived").frame["name"].tolist() == list("ABCDE")  # all five
    arff = dtlearn.read_arff(b"@relation t\n@attribute a numeric\n@attribute c {x,y}\n@data\n1,x\n2,?\n3,y\n",
                             target="c")
    assert arff.frame["a"].tolist() == [1.0, 3.0] and "(data row 2)" in arff.notes[-1]
    with pytest.raises(dtlearn.DataError, match="missing labels"):  # Dataset itself still refuses them
        dtlearn.Dataset(pd.DataFrame({"a": [1.0, 2.0], "y": ["x", None]}), "y")


def test_a_last_column_with_gaps_is_not_the_default_target():
    # the table stays whole (a menu then offers every target with all its rows): the default is
    # the last column with a value in every row, and the note says why
    data = dtlearn.read_csv(TITANIC)
    assert data.target == "fare" and len(data.frame) == 5
    assert data.notes[-1] == ("The last column, 'embarked', has 2 rows without a value, so the target was set to "
                              "'fare', the last column with a value in every row (any column can be chosen as the "
                              "target).")
    arff = dtlearn.read_arff(b"@relation t\n@attribute a numeric\n@attribute b {p,q}\n@attribute c {x,y}\n"
                             b"@data\n1,p,x\n2,q,?\n")
    assert arff.target == "b" and len(arff.frame) == 2 and "'c', has 1 row without a value" in arff.notes[-1]
    # no column without gaps: the last one, its unlabelled rows left out
    data = dtlearn.read_csv(b"a,b\n1,x\n,?\n3,y\n")
    assert data.target == "b" and data.frame["a"].tolist() == [1.0, 3.0]


def test_an_index_saved_by_pandas_is_left_out():
    # df.to_csv() without index=False writes the index first under an empty name: the table a
    # student saves from a notebook. A first column with no name that does not number the rows
    # 0, 1, 2, ... is still refused.
    tennis = dtlearn.load_dataset("tennis")
    for separator in (",", ";"):
        data = dtlearn.read_csv(tennis.frame.to_csv(sep=separator).encode())
        assert data.attributes == tennis.attributes and data.target == "play"
        assert data.frame.values.tolist() == tennis.frame.values.tolist()
        assert data.notes[-1] == ("The first column has no name and numbers the rows 0, 1, 2, ...: an index saved "
                                  "with the table (pandas' to_csv), left out.")
    for raw in (b",a,b\n5,x,p\n6,y,q\n", b",a,b\n0,x,p\n2,y,q\n", b",a,b\n0,x,p\n,y,q\n"):
        with pytest.raises(dtlearn.DataError, match=r"^Column 1 of the header has no name\.$"):
            dtlearn.read_csv(raw)


def test_excels_separator_line_is_obeyed():
    # Excel writes (and reads) a first line "sep=;" naming the separator; it was read as the header
    # ("Column 2 of the header has no name")
    data = dtlearn.read_csv(b"\xef\xbb\xbfsep=;\r\nprice;colour;play\r\n1,5;red;no\r\n2;blue;yes\r\n")
    assert data.attributes == ("price", "colour") and data.frame["price"].tolist() == [1.5, 2.0]
    assert data.notes == ("Read as semicolon-separated (as European Excel saves CSV).",
                          "Decimal commas read as numbers in: price.")
    assert dtlearn.read_csv(b"sep=,\na,b,c\n1,x,p\n2,y,q\n").attributes == ("a", "b")
    with pytest.raises(dtlearn.DataError, match=r"^The first line, 'sep=\|', names a separator dtlearn does not"):
        dtlearn.read_csv(b"sep=|\na|b\n1|x\n")


def test_sources_path_bytes_and_file_objects(tmp_path):
    path = tmp_path / "t.csv"
    path.write_bytes(GOOD)
    expected = dtlearn.read_csv(GOOD).frame
    with open(path, "rb") as binary, open(path, encoding="utf-8", newline="") as text:
        sources = [path, str(path), bytearray(GOOD), memoryview(GOOD), io.BytesIO(GOOD),
                   io.StringIO(GOOD.decode()), binary, text]
        for source in sources:
            pd.testing.assert_frame_equal(dtlearn.read_csv(source).frame, expected)


def test_byte_order_marks_and_line_endings():
    expected = dtlearn.read_csv(GOOD).frame
    for raw in (b"\xef\xbb\xbf" + GOOD, GOOD.replace(b"\n", b"\r\n"), GOOD.decode().encode("utf-16"),
                GOOD.rstrip(b"\n")):
        data = dtlearn.read_csv(raw)
        assert list(data.frame.columns) == ["outlook", "windy", "play"]  # no '\ufeff' on 'outlook'
        pd.testing.assert_frame_equal(data.frame, expected)


def test_chinese_names_round_trip(tmp_path):
    # Zhou (2016) Table 4.1: watermelon 2.0 with Chinese column names and values.
    data = dtlearn.load_dataset("watermelon_2")
    assert data.target == "好瓜" and data.attributes == ("色泽", "根蒂", "敲声", "纹理", "脐部", "触感")
    path = tmp_path / "西瓜.csv"
    data.frame.to_csv(path, index=False, encoding="utf-8")
    again = dtlearn.read_csv(path)
    assert again.target == "好瓜" and again.attributes == data.attributes
    pd.testing.assert_frame_equal(again.frame.astype(str), data.frame.astype(str))
    # Zhou: 纹理 (texture) at the root of the ID3 tree; names survive into the rules.
    tree = dtlearn.fit(again, "id3")
    assert tree.root.test.attribute == "纹理"
    assert any(rule.startswith("IF 纹理 = 清晰") for rule in tree.rules())


def test_utf8_bom_with_chinese_header():
    raw = "\ufeff色泽,好瓜\n青绿,是\n乌黑,否\n".encode("utf-8")
    data = dtlearn.read_csv(raw)
    assert data.attributes == ("色泽",) and data.target == "好瓜" and data.classes == ("否", "是")


# --- semicolons, tabs and decimal commas --------------------------------------------------------

SEMICOLON_NOTE = "Read as semicolon-separated (as European Excel saves CSV)."
TAB_NOTE = "Read as tab-separated (as a spreadsheet copies cells)."


def test_semicolons_and_decimal_commas():
    # As European Excel saves "CSV": semicolons between fields, commas as decimal marks.
    raw = b"item;price;weight;count;play\napple;1,5;-0,25;3;No\npear;2;0,5;4;Yes\nfig;?;1,75;5;No\n"
    data = dtlearn.read_csv(raw)
    assert data.attributes == ("item", "price", "weight", "count") and data.target == "play"
    assert data.kinds == {"item": "categorical", "price": "numeric", "weight": "numeric", "count": "numeric"}
    assert data.frame["price"].tolist()[:2] == [1.5, 2.0] and math.isnan(data.frame["price"].iloc[2])
    assert data.frame["weight"].tolist() == [-0.25, 0.5, 1.75]
    assert data.frame["count"].tolist() == [3.0, 4.0, 5.0]
    # count holds whole numbers only: read as numbers already, so it is not named in the note.
    assert data.notes == (SEMICOLON_NOTE, "Decimal commas read as numbers in: price, weight.")


def test_decimal_commas_with_exponents_and_signs():
    data = dtlearn.read_csv(b"x;y\n1,5E-03;a\n+2,5;b\n-3;a\n")
    assert data.frame["x"].tolist() == [0.0015, 2.5, -3.0]


def test_numbers_beyond_whole_int64_read_as_written():
    # Whole numbers past int64 (and 1e308) were cast to int64 and read as -9.2e18; they are the
    # floats their text writes (Python's float of the text, correctly rounded).
    data = dtlearn.read_csv(b"x,y\n1e308,a\n1e20,b\n12345678901234567891,a\n-0,b\n9007199254740993,a\n")
    read = data.frame["x"].tolist()
    assert read == [1e308, 1e20, 12345678901234567891.0, 0.0, 9007199254740992.0]
    assert math.copysign(1.0, read[3]) == -1.0  # -0 is read as pandas' to_numeric reads it, -0.0
    # Whole numbers in every row are integers where int64 holds them (a numeric target's classes
    # are "1", not "1.0"), digit for digit past 2**53; past int64, floats.
    target = dtlearn.read_csv(b"x,y\n1,9007199254740993\n2,-3\n3,0\n").frame["y"]
    assert target.dtype == np.int64 and target.tolist() == [9007199254740993, -3, 0]
    assert dtlearn.read_csv(b"x,y\n1,1e20\n2,3\n").frame["y"].tolist() == [1e20, 3.0]
    assert dtlearn.read_csv(b"x,y\n2.0,a\n?,b\n4,a\n").frame["x"].tolist()[::2] == [2.0, 4.0]


NUMBERY = st.text(alphabet="0123456789+-.eE", min_size=1, max_size=8)
CELLISH = st.one_of(NUMBERY, st.sampled_from(["1_000", "inf", "-nan", "\u0661\u0662", "1e", ".", "0x1", "1,5"]))


@given(st.lists(CELLISH, min_size=1, max_size=30))
@settings(max_examples=400, deadline=None, derandomize=True)
def test_a_column_is_numeric_exactly_when_pandas_to_numeric_reads_every_cell(cells):
    # The reference is the definition a column's kind had before the fast path: pandas'
    # to_numeric of every cell, numeric when all are finite, and then its numbers.
    reference = pd.to_numeric(pd.Series(cells, dtype=object), errors="coerce").to_numpy(dtype=float)
    numeric = bool(np.isfinite(reference).all())
    if numeric and (reference % 1 == 0).all() and np.abs(reference).max() < 2.0**53:
        reference = reference + 0.0  # whole numbers int64 holds are read as integers: -0 is 0
    raw = ("x,y\n" + "".join(f'"{cell}",c{i % 2}\n' for i, cell in enumerate(cells))).encode()
    column = dtlearn.read_csv(raw).frame["x"]
    if numeric:
        assert column.dtype == float
        assert np.array_equal(column.to_numpy(), reference)
        assert np.array_equal(np.signbit(column.to_numpy()), np.signbit(reference))
    else:
        assert column.dtype == object and column.tolist() == cells


def test_tab_separated():
    data = dtlearn.read_csv(b"outlook\ttemp\tplay\nSunny\t20,5\tNo\nRain\t18\tYes\n")
    assert data.attributes == ("outlook", "temp") and data.classes == ("No", "Yes")
    assert data.frame["temp"].tolist() == [20.5, 18.0]
    assert data.notes == (TAB_NOTE, "Decimal commas read as numbers in: temp.")


def test_quoted_separators_are_data():
    # A comma inside quotes in a semicolon file, and a semicolon inside quotes, are cell text.
    raw = b'"name, full";size;class\n"Smith, J";1,5;A\n"Lee; K";2,5;B\n'
    data = dtlearn.read_csv(raw)
    assert data.attributes == ("name, full", "size") and data.target == "class"
    assert data.frame["name, full"].tolist() == ["Smith, J", "Lee; K"]
    assert data.frame["size"].tolist() == [1.5, 2.5]
    # And the other way round: a semicolon inside quotes in a comma file.
    comma = dtlearn.read_csv(b'a,b\n"x;y",1\n"z;w",2\n')
    assert comma.frame["a"].tolist() == ["x;y", "z;w"] and comma.notes == ()


def test_comma_files_are_read_as_before():
    data = dtlearn.read_csv(GOOD)
    assert data.notes == ()
    assert data.frame.to_dict("list") == {"outlook": ["Sunny", "Rain"], "windy": [1.0, 0.0], "play": ["No", "Yes"]}
    # A semicolon inside a comma file's header and data does not make it a semicolon file.
    data = dtlearn.read_csv(b"a;b,c\n1;2,x\n3;4,y\n")
    assert data.attributes == ("a;b",) and data.frame["a;b"].tolist() == ["1;2", "3;4"] and data.notes == ()


def test_columns_mixing_text_and_numbers_stay_categorical():
    # 'lots' is text, '1.234,5' has a thousands separator (not recognised), '2.5' a decimal
    # point among decimal commas: each column stays text, cells as written.
    raw = b"a;b;c;y\n1,5;1.234,5;2.5;p\nlots;2,5;1,5;q\n"
    data = dtlearn.read_csv(raw)
    assert data.kinds == {"a": "categorical", "b": "categorical", "c": "categorical"}
    assert data.frame["a"].tolist() == ["1,5", "lots"] and data.frame["b"].tolist() == ["1.234,5", "2,5"]
    assert data.notes == (SEMICOLON_NOTE,)


def test_notes_survive_select_and_with_kinds():
    data = dtlearn.read_csv(b"p;q;y\n0,5;1;a\n1,5;2;b\n")
    assert data.notes == (SEMICOLON_NOTE, "Decimal commas read as numbers in: p.")
    assert data.select(["q"]).notes == data.notes
    assert data.with_kinds({"q": "categorical"}).notes == data.notes
    assert dtlearn.Dataset(data.frame, "y").notes == ()  # a frame built by hand has none
    assert dtlearn.Dataset(data.frame, "y", None, ["made by hand"]).notes == ("made by hand",)


def test_read_table_text_tab_paste():
    # Cells copied from a spreadsheet: tabs between cells, maybe a trailing newline or none.
    text = "outlook\thumidity\tplay\r\nSunny\t85,5\tNo\r\nOvercast\t70\tYes"
    data = dtlearn.read_table_text(text)
    assert data.attributes == ("outlook", "humidity") and data.target == "play"
    assert data.frame["humidity"].tolist() == [85.5, 70.0]
    assert data.notes == (TAB_NOTE, "Decimal commas read as numbers in: humidity.")
    assert dtlearn.read_table_text(text, target="outlook").classes == ("Overcast", "Sunny")


def test_read_table_text_semicolon_and_comma_paste():
    data = dtlearn.read_table_text("x;y\n-1,5;A\n0,25;B\n")
    assert data.frame["x"].tolist() == [-1.5, 0.25]
    assert data.notes == (SEMICOLON_NOTE, "Decimal commas read as numbers in: x.")
    pd.testing.assert_frame_equal(dtlearn.read_table_text(GOOD.decode()).frame, dtlearn.read_csv(GOOD).frame)


@pytest.mark.parametrize("text,options,message", [
    ("", {}, r"^The file is empty\.$"),
    ("a\tb\n", {}, r"^The table has a header but no data rows\.$"),
    ("a\tb\n1\tx\n", {"target": "c"}, r"^Unknown target column 'c'\. The columns are: a, b\.$"),
    ("a;b\n1;x;2\n", {}, r"^Data row 1 has 3 fields but the header has 2\. Check for a missing or extra semicolon"),
    ("just one column\n1\n", {}, r"^The header has a single column\."),
    ("a\tb\n\x00\tx\n", {}, r"^The file looks binary"),
    (b"a\tb\n1\tx\n", {}, r"^Give the pasted table as text\.$"),
    (None, {}, r"^Give the pasted table as text\.$"),
])
def test_read_table_text_errors(text, options, message):
    with pytest.raises(dtlearn.DataError, match=message):
        dtlearn.read_table_text(text, **options)


def test_read_table_text_keeps_any_str():
    # A lone surrogate cannot come from a UTF-8 file, but a str may hold one: it is kept as text.
    data = dtlearn.read_table_text("a\tb\n\ud800\tx\n")
    assert data.frame["a"].tolist() == ["\ud800"]


# --- the catalogue ----------------------------------------------------------------------------

EXPECTED_SHAPES = {  # rows, columns, target -- from each source's table (see datasets/catalog.json)
    "tennis": (14, 5, "play"), "credit_risk": (10, 3, "defaulted"), "iris": (150, 5, "species"),
    "weather_numeric": (14, 5, "play"), "contact_lenses": (24, 5, "contact-lenses"),
    "internship": (6, 3, "internship"), "watermelon_2": (17, 7, "好瓜"), "watermelon_3": (17, 9, "好瓜"),
    "watermelon_2alpha": (17, 7, "好瓜"),
}


def test_dataset_names():
    # The nine teaching datasets are there (the catalogue may grow).
    assert set(EXPECTED_SHAPES) <= set(dtlearn.dataset_names())
    assert dtlearn.dataset_names()[:3] == ("tennis", "credit_risk", "iris")


@pytest.mark.parametrize("name", sorted(EXPECTED_SHAPES))
def test_load_dataset(name):
    rows, columns, target = EXPECTED_SHAPES[name]
    data = dtlearn.load_dataset(name)
    assert data.frame.shape == (rows, columns) and data.target == target
    assert not data.frame[target].isna().any()


def test_load_dataset_keeps_declared_value_orders(tennis):
    # The catalogue declares Mitchell's orders (Sunny, Overcast, Rain); they only break ties.
    assert list(tennis.frame["outlook"].cat.categories) == ["Sunny", "Overcast", "Rain"]
    assert tennis.classes == ("No", "Yes")


def test_unknown_dataset():
    with pytest.raises(ValueError, match=r"^Unknown dataset 'golf'\. Built-in datasets: tennis, credit_risk"):
        dtlearn.load_dataset("golf")


def test_watermelon_2alpha_missing_cells():
    # Zhou (2016) Table 4.4: 色泽 has 3 missing cells, the other attributes 2 each, the label none.
    data = dtlearn.load_dataset("watermelon_2alpha")
    assert data.frame.isna().sum().to_dict() == {"色泽": 3, "根蒂": 2, "敲声": 2, "纹理": 2, "脐部": 2,
                                                 "触感": 2, "好瓜": 0}


# --- fuzzing: nothing but DataError escapes ------------------------------------------------------

def read_or_data_error(raw: bytes):
    try:
        data = dtlearn.read_csv(raw)
    except dtlearn.DataError as error:
        assert str(error)  # a message, always
        return None
    assert isinstance(data, dtlearn.Dataset)
    assert data.target == data.frame.columns[-1]
    assert len(data.frame) >= 1 and len(data.attributes) >= 1
    assert not data.frame[data.target].isna().any()
    return data


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=80))
def test_random_bytes_raise_only_data_error(raw):
    read_or_data_error(raw)


CSV_PIECES = st.sampled_from([",", "\n", "\r\n", "\r", '"', "?", " ", "a", "b", "1", "2.5", "-", "e", "inf",
                              "nan", "1e400", "99999999999999999999", "\x00", "é", "\ufeff", "中", "\t", ";",
                              "True", "0x1f", "\x0b", "#"])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(CSV_PIECES, max_size=40).map("".join), st.sampled_from(["utf-8", "utf-16", "latin-1"]))
def test_random_csv_like_text_raises_only_data_error(text, encoding):
    try:
        raw = text.encode(encoding)
    except UnicodeEncodeError:
        raw = text.encode("utf-8")
    data = read_or_data_error(raw)
    if data is not None:
        # A table that loads can be learned from.
        tree = dtlearn.fit(data, "id3")
        assert tree.n_leaves >= 1
        assert all(math.isfinite(w) for w in tree.root.class_weights)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(CSV_PIECES, max_size=40).map("".join))
def test_random_pasted_text_raises_only_data_error(text):
    try:
        data = dtlearn.read_table_text(text)
    except dtlearn.DataError as error:
        assert str(error)
        return
    # the reader's rule: the last column, or when it has gaps the last one without any (rows
    # without a value of the target are left out, so the target itself has none)
    columns = list(data.frame.columns)
    after = columns[columns.index(data.target) + 1:]
    assert data.frame[data.target].notna().all() and len(data.attributes) >= 1
    assert all(data.frame[column].isna().any() for column in after)
    assert dtlearn.fit(data, "id3").n_leaves >= 1


# --- pandas' C parser reads as the csv module did ----------------------------------------------

def test_quoted_fields_hold_newlines_and_separators():
    raw = b'note;size;class\r\n"two\r\nlines; and a ;";1,5;A\r\n"said ""no"", then";2;B\r\n'
    data = dtlearn.read_csv(raw)
    assert data.frame["note"].tolist() == ["two\nlines; and a ;", 'said "no", then']  # CRLF inside read as \n
    assert data.frame["size"].tolist() == [1.5, 2.0]


@pytest.mark.parametrize("bad,fields", [(b"p,1,x,extra\n", 4), (b"p,1\n", 2), (b"p\n", 1)])
def test_a_ragged_row_far_down_is_named_by_its_data_row(bad, fields):
    # Blank lines and rows of empty cells are not data rows, so they do not count.
    good = b"q,2,y\n"
    raw = b"a,b,c\n" + good * 150_000 + b"\n , ,\n" + good * 10 + bad + good * 5
    with pytest.raises(dtlearn.DataError, match=rf"^Data row 150011 has {fields} fields but the header has 3\."):
        dtlearn.read_csv(raw)


def test_the_first_ragged_row_wins_whether_short_or_long():
    good = b"q,2,y\n"
    short_first = b"a,b,c\n" + good * 70_000 + b"q,2\n" + good * 10 + b"q,2,y,z\n"
    with pytest.raises(dtlearn.DataError, match=r"^Data row 70001 has 2 fields"):
        dtlearn.read_csv(short_first)
    long_first = b"a,b,c\n" + good * 70_000 + b"q,2,y,z\n" + good * 10 + b"q,2\n"
    with pytest.raises(dtlearn.DataError, match=r"^Data row 70001 has 4 fields"):
        dtlearn.read_csv(long_first)


def test_an_empty_last_cell_is_a_cell_not_a_short_row():
    data = dtlearn.read_csv(b"a,b,y\n" + b"1,2,p\n" * 1000 + b"3,,q\n" + b"4,?,p\n", target="a")
    assert data.frame["b"].isna().sum() == 2 and data.frame["y"].iloc[1000] == "q"


def test_spaces_before_a_quote_stay_data_at_every_offset():
    # csv.reader reads '  "q,r",1' as three fields ('  "q', 'r"', '1'): a quote after spaces is text.
    # pandas' C parser dropped those spaces when the line started near its 256 KB chunk boundary.
    for size in range(262_140, 262_146):
        filler = b"a,b,c\n" + b"x,y,z\n" * ((size - 16) // 6)
        filler += b"w" * (size - len(filler) - 5) + b",1,2\n"
        data = dtlearn.read_csv(filler + b'  "q,r",1\n' + b"c,d,e\n")
        assert data.frame.iloc[-2].tolist() == ['"q', 'r"', "1"], size


def test_files_the_c_parser_reads_otherwise_are_read_by_the_csv_module():
    # A byte order mark starting a data row is part of its first cell (the C parser would drop it).
    data = dtlearn.read_csv(b"a,b\n\xef\xbb\xbfq,1\nr,2\n")
    assert data.frame["a"].tolist() == ["\ufeffq", "r"]
    # An unclosed quote runs to the end of the file (the C parser raises on it).
    data = dtlearn.read_csv(b'a,b\nx,1\ny,"2\nz,3\n')
    assert data.frame["b"].tolist() == ["1", "2\nz,3"]  # stripped, as every cell
    # A too-long field anywhere is the csv module's error, before the header's own.
    with pytest.raises(dtlearn.DataError, match=r"^Could not read the table: field larger than field limit"):
        dtlearn.read_csv(b"a,a\n" + b"1,x\n" * 10 + b"2," + b"y" * 200_000 + b"\n")
    # A header longer than the csv module's field limit, in fields within it, is a header.
    with pytest.raises(dtlearn.DataError, match=r"^The table has a header but no data rows\.$"):
        dtlearn.read_csv(b"a" * 70_000 + b"," + b"b" * 70_000 + b"\n")


def test_two_hundred_thousand_rows_read_as_written():
    # The expected frame is the values written, not a parse of the text: floats written by repr
    # read back exactly, '?' and empty cells are missing, quoted text keeps its commas and newlines.
    n = 200_000
    rng = np.random.default_rng(7)
    x = rng.normal(0, 1e3, n)
    count = rng.integers(-50, 50, n)
    colour = np.array(["red", "green", "blue", "?", ""], dtype=object)[rng.integers(0, 5, n)]
    note = np.array(["plain", "with, comma", "two\nlines", ' "quoted" '], dtype=object)[rng.integers(0, 4, n)]
    label = np.array(["yes", "no"], dtype=object)[rng.integers(0, 2, n)]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(["x", "count", "colour", "note", "label"])
    writer.writerows(zip(map(repr, x.tolist()), count.tolist(), colour, note, label))
    data = dtlearn.read_csv(out.getvalue().encode("utf-8"))
    expected = pd.DataFrame({
        "x": x, "count": count.astype(float),  # a Dataset keeps every numeric attribute as floats
        "colour": pd.Series(np.where(np.isin(colour, ["?", ""]), None, colour), dtype=object),
        "note": pd.Series([text.strip() for text in note], dtype=object),
        "label": pd.Series(label, dtype=object),
    })
    pd.testing.assert_frame_equal(data.frame, expected)
    assert data.kinds == {"x": "numeric", "count": "numeric", "colour": "categorical", "note": "categorical"}
    assert data.frame["colour"].isna().sum() == np.isin(colour, ["?", ""]).sum()


def csv_module_table(text: str, separator: str):
    """The table as csv.reader splits it, the reading dtlearn always promised: its non-blank rows."""
    rows = csv.reader(io.StringIO(text.replace("\r\n", "\n").replace("\r", "\n")), delimiter=separator)
    return [[cell.strip() for cell in row] for row in rows if any(cell.strip() for cell in row)]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(CSV_PIECES, max_size=60).map("".join), st.sampled_from([",", ";", "\t"]))
def test_rows_and_cells_are_the_csv_modules(text, separator):
    from dtlearn.csv_cells import _header_and_body
    text = "a" + separator + "b" + separator + "c\n" + text.replace("\x00", "")
    rows = csv_module_table(text, separator)
    ragged = [number for number, row in enumerate(rows[1:], start=1) if len(row) != 3]
    if ragged or len(rows) == 1:
        message = f"^Data row {ragged[0]} has" if ragged else "no data rows"
        with pytest.raises(dtlearn.DataError, match=message):
            _header_and_body(text.replace("\r\n", "\n").replace("\r", "\n"), separator)
        return
    header, body = _header_and_body(text.replace("\r\n", "\n").replace("\r", "\n"), separator)
    assert [header, *body.to_numpy().tolist()] == rows


def test_a_histogram_counts_every_known_value_in_at_most_max_bins_bins():
    # 1,000 values 0..999: numpy's "auto" rule gives more than 10 bins, so the cap takes over and
    # cuts [0, 999] into 10 equal bins of 99.9: 100 whole numbers fall in each
    counts, edges = dtlearn.data_summary.histogram(np.arange(1000.0), max_bins=10)
    assert counts.tolist() == [100] * 10
    assert edges[0] == 0 and edges[-1] == 999 and len(edges) == 11
    # missing and non-numeric cells are left out; one distinct value is one bin holding them all
    counts, edges = dtlearn.data_summary.histogram(pd.Series([5, None, "x", 5, 5]))
    assert counts.tolist() == [3] and len(edges) == 2
    assert dtlearn.data_summary.histogram([None, None])[0].tolist() == []


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.floats(allow_nan=False), st.floats(width=32, allow_nan=False),
                          st.sampled_from([0.0, -0.0, 1e12, 1e12 + 0.5, 123456789012.5, 1e-7, 2.5e15, -3.0])),
                max_size=40),
       st.lists(st.integers(min_value=-2**62, max_value=2**62), max_size=20))
def test_labels_in_bulk_are_label_of_each_value(floats, integers):
    # dtlearn.formatting.labels writes a column of numbers at once (ID3 encodes every distinct number
    # of a 1,000,000-row column): it must be `label`, value for value, for floats (float32 too),
    # integers, text and booleans.
    from dtlearn.formatting import label, labels

    whole = np.array(integers, dtype=np.int64)
    unsigned = whole.astype(np.uint64) if (whole >= 0).all() else np.array([], dtype=np.uint64)
    with np.errstate(over="ignore"):  # a float past float32's range becomes inf, as intended
        as_float32 = np.array(floats, dtype=np.float32)
    for values in (np.array(floats, dtype=float), as_float32, whole, unsigned,
                   np.array(["Sunny", 2.5, 3, None, True], dtype=object), np.array([True, False]),
                   pd.Series(pd.to_datetime(["2024-03-01 00:00", "2024-03-02 10:00"])).array, ["x", 1.5, 2]):
        assert labels(values) == [label(v) for v in values]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.floats(allow_nan=False, allow_infinity=False),
                          st.floats(min_value=-1e13, max_value=1e13, allow_nan=False),
                          st.floats(min_value=-1e-3, max_value=1e-3, allow_nan=False),
                          st.integers(-10**15, 10**15).map(lambda i: i / 1000)), min_size=1, max_size=50))
def test_a_float_is_labelled_with_twelve_significant_digits_positionally(values):
    # label's definition: numpy's format_float_positional with 12 significant digits, trailing
    # zeros trimmed; dtlearn.formatting._float_label takes the repr where it is that short, and C's
    # %.12g where that prints no exponent (labels, in bulk: for 0 and 1e-3 <= |x| < 1e11)
    from dtlearn.formatting import label

    for value in values:
        assert label(value) == np.format_float_positional(value, precision=12, fractional=False, trim="-"), value


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.sampled_from([np.nan, 0.0, -0.0, np.inf, -np.inf, 0.1234567890123, 0.1234567890124, 2.0]),
                          st.floats(allow_nan=False, min_value=-1e6, max_value=1e6)), min_size=1, max_size=60))
def test_a_numeric_column_s_categories_and_codes_are_its_ordered_labels_and_their_codes(cells):
    # ID3 treats a numeric column as categories: dtlearn.encoding.categories_and_codes labels
    # each distinct number once; it must equal the two definitions it replaces, including values
    # whose labels coincide (12 significant digits) and a missing cell (code -1).
    from dtlearn.formatting import label, ordered_labels
    from dtlearn.encoding import categories_and_codes, codes_for

    column = pd.Series(cells, dtype=float)
    codes, categories = categories_and_codes(column)
    assert categories == ordered_labels(column)
    assert codes.tolist() == codes_for(column, ordered_labels(column)).tolist()
    assert len(set(categories)) == len(categories)  # one category per label: no branch named twice
    for code, x in zip(codes, cells):  # each cell's category is its label (0.0 and -0.0: one number, pandas')
        assert (code == -1) if x != x else categories[code] == label(x) or (x == 0 and categories[code] in ("0", "-0"))


def test_whole_numbers_past_twelve_digits_are_classes_of_their_own():
    # an ID or a millisecond timestamp as the target: the classes were written through a float
    # with 12 significant digits ('1234567890120') while each row's label was exact, so the row
    # had no class (every fit failed); and two IDs sharing 12 digits merged into one class
    data = dtlearn.read_csv(b"x,y\n1,1234567890123\n2,1\n3,1234567890124\n4,1234567890123\n")
    assert data.classes == ("1", "1234567890123", "1234567890124")
    for algorithm in dtlearn.PRESETS:  # each fits (C4.5's two cases a branch keep its four rows one leaf)
        assert set(dtlearn.fit(data, algorithm).predict(data.frame)) <= set(data.classes)
    tree = dtlearn.fit(data, "cart")
    assert tree.predict(data.frame).tolist() == ["1234567890123", "1", "1234567890124", "1234567890123"]
    one = dtlearn.fit(dtlearn.read_csv(b"x,y\n1,1234567890123\n"), "cart")  # one row: a leaf
    assert one.root.prediction == "1234567890123"


def test_a_column_without_a_name_is_refused_from_any_source():
    frame = pd.DataFrame([[1, 2, "p"], [3, 4, "q"]], columns=["a", " ", "y"])
    with pytest.raises(dtlearn.DataError, match="Column 2 has no name"):
        dtlearn.Dataset(frame, "y")
