"""The library's work a page does after the tree is grown stops at the page's budget (issue 33):
a view's nodes, Compare's root table, a worksheet. Each is asked for with a budget already past
its time (Budget(wall=...) a page sets, router.main): each says what makes it cheaper, instead of
running on; without a budget each gives its result."""

from __future__ import annotations

import time

import pandas as pd
import pytest

import dtlearn
from dtlearn import budget, worksheet
from dtlearn.comparison import compare_algorithms
from dtlearn.export import neighbourhood


@pytest.fixture(scope="module")
def wide_split() -> dtlearn.Tree:
    """ID3 splitting 20,000 ways at the root."""
    frame = pd.DataFrame({"code": [f"k{i}" for i in range(20_000)], "y": ["a", "b"] * 10_000})
    return dtlearn.fit(dtlearn.Dataset(frame, "y", {"code": "categorical"}), "id3")


def past_its_time():
    """A page's budget whose time has run out."""
    context = budget.within(dtlearn.Budget(wall=0.001))
    context.__enter__()
    time.sleep(0.01)
    return context


def test_a_view_around_a_node_stops_at_the_budget(wide_split):
    context = past_its_time()
    try:
        with pytest.raises(budget.TooCostly, match="Draw less of the tree"):
            neighbourhood(wide_split, wide_split.root.id, 1)
    finally:
        context.__exit__(None, None, None)
    assert len(neighbourhood(wide_split, wide_split.root.id, 1)) == 20_001


def test_compare_s_root_table_stops_at_the_budget():
    comparison = compare_algorithms(dtlearn.load_dataset("tennis"))
    context = past_its_time()
    try:
        with pytest.raises(budget.TooCostly, match="a page may take"):
            comparison.root_table()
    finally:
        context.__exit__(None, None, None)
    assert len(comparison.root_table()) == 4  # outlook, temperature, humidity, wind


def test_a_worksheet_stops_at_the_budget():
    tree = dtlearn.fit(dtlearn.load_dataset("tennis"), "id3")
    context = past_its_time()
    try:
        with pytest.raises(budget.TooCostly, match="Choose fewer steps"):
            worksheet.worksheet(tree)
    finally:
        context.__exit__(None, None, None)
    assert worksheet.worksheet(tree).parts


def test_comparing_a_hand_grown_tree_stops_at_the_budget():
    from dtlearn.by_hand import compare, grow_by_hand

    base = dtlearn.fit(dtlearn.load_dataset("tennis"), "id3")
    hand, algorithm = grow_by_hand(base, {}), grow_by_hand(base, {})
    context = past_its_time()
    try:
        with pytest.raises(budget.TooCostly, match="a page may take"):
            compare(hand, algorithm)
    finally:
        context.__exit__(None, None, None)
    assert compare(hand, algorithm).first_difference is None  # the same tree
