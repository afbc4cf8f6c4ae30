"""Unit tests of tests/weka_tree.py (the Weka text-tree parser and comparer).

These need neither Java nor dtlearn.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from weka_tree import (
    canonical_from_dtlearn,
    format_threshold,
    parse_weka_tree,
    threshold_matches,
    threshold_of,
    trees_equal,
)

HERE = Path(__file__).resolve().parent


FIXTURES = HERE / "fixtures" / "weka"

ID3_TENNIS = """\
outlook = Overcast: Yes
outlook = Rain
|  wind = Strong: No
|  wind = Weak: Yes
outlook = Sunny
|  humidity = High: No
|  humidity = Normal: Yes
"""

ID3_TENNIS_TREE = {
    "attribute": "outlook",
    "branches": {
        "= Overcast": {"leaf": "Yes", "n": None, "errors": None},
        "= Rain": {
            "attribute": "wind",
            "branches": {
                "= Strong": {"leaf": "No", "n": None, "errors": None},
                "= Weak": {"leaf": "Yes", "n": None, "errors": None},
            },
        },
        "= Sunny": {
            "attribute": "humidity",
            "branches": {
                "= High": {"leaf": "No", "n": None, "errors": None},
                "= Normal": {"leaf": "Yes", "n": None, "errors": None},
            },
        },
    },
}

J48_WEATHER = """\

Options: -U -M 2 

J48 unpruned tree
------------------

outlook = overcast: yes (4.0)
outlook = rainy
|   windy = FALSE: yes (3.0)
|   windy = TRUE: no (2.0)
outlook = sunny
|   humidity <= 75: yes (2.0)
|   humidity > 75: no (3.0)

Number of Leaves  : \t5

Size of the tree : \t8


Time taken to build model: 0.01 seconds
Time taken to test model on training data: 0 seconds

=== Error on training data ===

Correctly Classified Instances          14              100      %
"""


def leaf(cls, n=None, errors=None):
    return {"leaf": cls, "n": n, "errors": errors}


def test_id3_bare_tree():
    assert parse_weka_tree(ID3_TENNIS) == ID3_TENNIS_TREE


def test_id3_whole_output_with_header_and_statistics():
    text = "\nId3\n\n\n" + ID3_TENNIS + "\nTime taken to build model: 0 seconds\n\n=== Error on training data ===\n"
    assert parse_weka_tree(text) == ID3_TENNIS_TREE


def test_id3_null_leaf_and_deep_nesting():
    text = "a = p: n\na = q\n|  b = u\n|  |  c = x: y\n|  |  c = z: null\n|  b = v: n\na = r: null\n"
    t = parse_weka_tree(text)
    assert t["branches"]["= r"] == leaf("null")
    assert t["branches"]["= q"]["branches"]["= u"]["branches"]["= z"] == leaf("null")
    assert t["branches"]["= q"]["branches"]["= v"] == leaf("n")


def test_j48_whole_output_numeric_and_nominal():
    t = parse_weka_tree(J48_WEATHER)
    assert t["attribute"] == "outlook"
    assert list(t["branches"]) == ["= overcast", "= rainy", "= sunny"]
    assert t["branches"]["= overcast"] == leaf("yes", 4.0, 0.0)
    sunny = t["branches"]["= sunny"]
    assert sunny["attribute"] == "humidity"
    assert sunny["branches"] == {"<= 75": leaf("yes", 2.0, 0.0), "> 75": leaf("no", 3.0, 0.0)}
    assert threshold_of("<= 75") == 75.0


def test_j48_fractional_weights_and_errors():
    text = "纹理 = 模糊: 否 (3.4/0.2)\n纹理 = 清晰\n|   根蒂 = 硬挺: 否 (0.47)\n|   根蒂 = 稍蜷: 是 (2.47/1.0)\n纹理 = 稍糊: 否 (5.67/1.33)\n"
    t = parse_weka_tree(text)
    assert t["attribute"] == "纹理"
    assert t["branches"]["= 模糊"] == leaf("否", 3.4, 0.2)
    assert t["branches"]["= 清晰"]["branches"]["= 硬挺"] == leaf("否", 0.47, 0.0)
    assert t["branches"]["= 稍糊"] == leaf("否", 5.67, 1.33)


def test_j48_threshold_kept_as_printed_string():
    t = parse_weka_tree("petal_width <= 0.6: setosa (50.0)\npetal_width > 0.6\n|   petal_length <= 4.9: versicolor (48.0/1.0)\n|   petal_length > 4.9: virginica (52.0/5.0)\n")
    assert list(t["branches"]) == ["<= 0.6", "> 0.6"]
    assert list(t["branches"]["> 0.6"]["branches"]) == ["<= 4.9", "> 4.9"]
    assert threshold_of("> 0.6") == 0.6


def test_j48_empty_leaf_and_negative_threshold():
    t = parse_weka_tree("a = p: n (4.0)\na = r: n (0.0)\na = q\n|   x <= -1.25: y (2.0)\n|   x > -1.25: n (2.0)\n")
    assert t["branches"]["= r"] == leaf("n", 0.0, 0.0)
    assert list(t["branches"]["= q"]["branches"]) == ["<= -1.25", "> -1.25"]


def test_single_leaf_trees():
    assert parse_weka_tree("J48 unpruned tree\n------------------\n: n (5.0/2.0)\n\nNumber of Leaves  : \t1\n") == leaf("n", 5.0, 2.0)
    assert parse_weka_tree("\nId3\n\n: n\n\nTime taken to build model: 0 seconds\n") == leaf("n")


def test_binary_nominal_split():
    t = parse_weka_tree("outlook = Overcast: Yes (4.0)\noutlook != Overcast\n|   humidity = High: No (5.0/1.0)\n|   humidity != High: Yes (5.0/1.0)\n")
    assert list(t["branches"]) == ["= Overcast", "!= Overcast"]
    assert list(t["branches"]["!= Overcast"]["branches"]) == ["= High", "!= High"]


def test_values_with_spaces_and_hyphens():
    t = parse_weka_tree("tear-prod-rate = normal\n|   age = pre presbyopic: soft (2.0)\n|   age = young: hard (1.0)\ntear-prod-rate = reduced: none (12.0)\n")
    assert t["attribute"] == "tear-prod-rate"
    assert t["branches"]["= normal"]["branches"]["= pre presbyopic"] == leaf("soft", 2.0, 0.0)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "a = p: n\n|  |  b = u: y\n",  # jumps two levels
        "a = p: n\nb = q: y\n",  # two attributes at one level
        "a = p\n",  # test with no subtree
        "a = p: n\na = p: y\n",  # duplicate branch
        "no test here\n",
    ],
)
def test_malformed_text_raises(text):
    with pytest.raises(ValueError):
        parse_weka_tree(text)


def test_all_stored_fixtures_parse():
    files = sorted(FIXTURES.glob("*.txt"))
    assert files, "no stored Weka outputs"
    for f in files:
        t = parse_weka_tree(f.read_text(encoding="utf-8"))
        assert "attribute" in t or "leaf" in t


# -- thresholds ----------------------------------------------------------------


def test_threshold_matches_uses_weka_precision():
    assert threshold_matches("75", 75.0)
    assert threshold_matches("75", 75.0000004)
    assert not threshold_matches("75", 75.00001)
    assert threshold_matches("0.36", "0.36")
    assert not threshold_matches("0.36", 0.381)
    # printed-decimals rule (digits=None): "2.45" stands for [2.445, 2.455]
    assert threshold_matches("2.45", 2.4549, digits=None)
    assert not threshold_matches("2.45", 2.456, digits=None)


def test_format_threshold():
    assert format_threshold(83.0) == "83"
    assert format_threshold(0.6) == "0.6"
    assert format_threshold(-1.5) == "-1.5"


# -- canonical_from_dtlearn ------------------------------------------------------


def _dt_leaf(i, depth, pred, weights, classes=("No", "Yes")):
    return {
        "id": i,
        "depth": depth,
        "n": float(sum(weights)),
        "class_weights": [float(w) for w in weights],
        "prediction": pred,
        "impurity": 0.0,
        "leaf_reason": "pure",
        "test": None,
        "children": [],
    }


def _dt_node(i, depth, test, children, weights, pred):
    return {
        "id": i,
        "depth": depth,
        "n": float(sum(weights)),
        "class_weights": [float(w) for w in weights],
        "prediction": pred,
        "impurity": 0.5,
        "leaf_reason": None,
        "test": test,
        "children": children,
    }


def _dt_weather():
    humidity = _dt_node(
        5, 1, {"kind": "threshold", "attribute": "humidity", "threshold": 75.0},
        [_dt_leaf(6, 2, "yes", [0, 2]), _dt_leaf(7, 2, "no", [3, 0])], [3, 2], "no",
    )
    windy = _dt_node(
        2, 1, {"kind": "multiway", "attribute": "windy", "values": ["FALSE", "TRUE"]},
        [_dt_leaf(3, 2, "yes", [0, 3]), _dt_leaf(4, 2, "no", [2, 0])], [2, 3], "yes",
    )
    return _dt_node(
        0, 0, {"kind": "multiway", "attribute": "outlook", "values": ["sunny", "overcast", "rainy"]},
        [humidity, _dt_leaf(1, 1, "yes", [0, 4]), windy], [5, 9], "yes",
    )


def test_canonical_from_dtlearn_matches_weka():
    ours = canonical_from_dtlearn(_dt_weather())
    assert ours["branches"]["= sunny"]["branches"]["<= 75"] == leaf("yes", 2.0, 0.0)
    ok, msg = trees_equal(parse_weka_tree(J48_WEATHER), ours)
    assert ok, msg


def test_canonical_from_dtlearn_accepts_whole_to_dict():
    root = _dt_leaf(0, 0, "no", [3, 1])
    t = canonical_from_dtlearn({"classes": ["no", "yes"], "root": root})
    assert t == leaf("no", 4.0, 1.0)


def test_canonical_from_dtlearn_subset_split():
    root = _dt_node(
        0, 0, {"kind": "subset", "attribute": "color", "left": ["red", "blue"], "right": ["green"]},
        [_dt_leaf(1, 1, "a", [1, 0]), _dt_leaf(2, 1, "b", [0, 1])], [1, 1], "a",
    )
    assert list(canonical_from_dtlearn(root)["branches"]) == ["in [blue, red]", "in [green]"]


# -- trees_equal ------------------------------------------------------------------


def test_trees_equal_reports_first_difference():
    weka = parse_weka_tree(J48_WEATHER)
    ours = canonical_from_dtlearn(_dt_weather())

    ours["branches"]["= sunny"]["branches"]["> 75"]["leaf"] = "yes"
    ok, msg = trees_equal(weka, ours)
    assert not ok and "leaf class 'no' vs 'yes'" in msg and "humidity > 75" in msg


def test_trees_equal_threshold_difference():
    weka = parse_weka_tree(J48_WEATHER)
    root = _dt_weather()
    root["children"][0]["test"]["threshold"] = 77.5  # midpoint instead of a data value
    ok, msg = trees_equal(weka, canonical_from_dtlearn(root))
    assert not ok and "'<= 75'" in msg and "'<= 77.5'" in msg


def test_trees_equal_threshold_within_precision():
    weka = parse_weka_tree("x <= 0.36: a (2.0)\nx > 0.36: b (7.0)\n")
    ours = {"attribute": "x", "branches": {"<= 0.3600000001": leaf("a", 2.0), "> 0.3600000001": leaf("b", 7.0)}}
    assert trees_equal(weka, ours) == (True, "")


def test_trees_equal_attribute_and_weights():
    a = parse_weka_tree("a = p: n (3.0)\na = q: y (2.0/1.0)\n")
    b = parse_weka_tree("b = p: n (3.0)\nb = q: y (2.0/1.0)\n")
    ok, msg = trees_equal(a, b)
    assert not ok and "'a'" in msg and "'b'" in msg
    c = parse_weka_tree("a = p: n (3.0)\na = q: y (2.5/1.0)\n")
    ok, msg = trees_equal(a, c)
    assert not ok and "leaf n 2 vs 2.5" in msg
    # n is only compared when both sides have it
    d = parse_weka_tree("a = p: n\na = q: y\n")
    assert trees_equal(a, d) == (True, "")
    # weights are printed with 2 decimals
    e = {"attribute": "a", "branches": {"= p": leaf("n", 3.0, 0.0), "= q": leaf("y", 2.0 + 1 / 300, 1.0)}}
    assert trees_equal(a, e) == (True, "")


def test_trees_equal_branch_sets():
    a = parse_weka_tree("a = p: n\na = q: y\na = r: null\n")
    b = parse_weka_tree("a = p: n\na = q: y\n")
    ok, msg = trees_equal(a, b)
    assert not ok and "only in first ['= r']" in msg
    ok, msg = trees_equal(a, parse_weka_tree("a = p: n\na = q\n|  b = u: y\n|  b = v: n\na = r: null\n"))
    assert not ok and "leaf 'y'" in msg and "test on 'b'" in msg


def test_id3_null_leaf_matches_only_empty_leaf():
    weka = parse_weka_tree("a = p: n\na = r: null\n")
    empty = {"attribute": "a", "branches": {"= p": leaf("n", 3.0, 0.0), "= r": leaf("n", 0.0, 0.0)}}
    assert trees_equal(weka, empty) == (True, "")
    assert trees_equal(empty, weka) == (True, "")
    nonempty = {"attribute": "a", "branches": {"= p": leaf("n", 3.0, 0.0), "= r": leaf("n", 1.0, 0.0)}}
    assert not trees_equal(weka, nonempty)[0]


def test_branch_order_is_ignored():
    a = parse_weka_tree("a = q: y\na = p: n\n")
    b = parse_weka_tree("a = p: n\na = q: y\n")
    assert trees_equal(a, b) == (True, "")
