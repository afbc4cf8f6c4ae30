"""Axis-parallel rectangles of trees over two numeric attributes (Zaki & Meira, seed 004).

Checked geometrically: the leaf rectangles tile the bounds (areas add up, no two overlap),
every training point lies in the rectangle of the leaf apply() gives it, and each rectangle's
class weights are the classes of the training points inside it, recounted here.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

import dtlearn


def area(r) -> float:
    return (r.x1 - r.x0) * (r.y1 - r.y0)


def overlap(a, b) -> float:
    width = min(a.x1, b.x1) - max(a.x0, b.x0)
    height = min(a.y1, b.y1) - max(a.y0, b.y0)
    return max(width, 0.0) * max(height, 0.0)


def check_tiling(rectangles, bounds):
    x0, x1, y0, y1 = bounds
    for r in rectangles:
        assert x0 <= r.x0 <= r.x1 <= x1 and y0 <= r.y0 <= r.y1 <= y1
    assert sum(area(r) for r in rectangles) == pytest.approx((x1 - x0) * (y1 - y0), rel=1e-12)
    for a, b in combinations(rectangles, 2):
        assert overlap(a, b) == pytest.approx(0.0, abs=1e-12)


def inside(r, px, py) -> bool:
    """Half-open (x0, x1] x (y0, y1]: a test 'x <= t' sends x == t to the left / lower side,
    so each point of the (open-below) bounds lies in exactly one rectangle."""
    return r.x0 < px <= r.x1 and r.y0 < py <= r.y1


def two_d(name, x, y):
    data = dtlearn.load_dataset(name)
    return data if set(data.attributes) == {x, y} else data.select([x, y])


@pytest.mark.parametrize("name,x,y,algorithm", [
    ("internship", "gpa", "years_experience", "cart"),
    ("internship", "gpa", "years_experience", "c45"),
    ("iris", "petal_length", "petal_width", "cart"),
    ("iris", "sepal_length", "sepal_width", "cart"),
    ("iris", "sepal_width", "sepal_length", "c45"),
])
def test_rectangles_tile_the_plane_and_hold_their_points(name, x, y, algorithm):
    data = two_d(name, x, y)
    tree = dtlearn.fit(data, algorithm)
    rectangles = dtlearn.partition(tree, x, y)
    frame = data.frame
    px, py = frame[x].to_numpy(dtype=float), frame[y].to_numpy(dtype=float)
    # Default bounds: the training range padded by 5% on each side (dtlearn/partition.py).
    bounds = (px.min() - 0.05 * np.ptp(px), px.max() + 0.05 * np.ptp(px),
              py.min() - 0.05 * np.ptp(py), py.max() + 0.05 * np.ptp(py))
    x0, x1, y0, y1 = (min(r.x0 for r in rectangles), max(r.x1 for r in rectangles),
                      min(r.y0 for r in rectangles), max(r.y1 for r in rectangles))
    assert (x0, x1, y0, y1) == pytest.approx(bounds, abs=1e-12)
    check_tiling(rectangles, bounds)
    # One rectangle per leaf.
    assert sorted(r.leaf_id for r in rectangles) == sorted(leaf.id for leaf in tree.root.leaves())
    by_leaf = {r.leaf_id: r for r in rectangles}
    labels = frame[data.target].astype(str).to_numpy()
    for leaf_id, a, b in zip(tree.apply(frame), px, py):
        assert inside(by_leaf[leaf_id], a, b)
        # ... and in no other (C4.5 cuts at data values, so points may lie on a cut).
        assert sum(inside(r, a, b) for r in rectangles) == 1
    for r in rectangles:
        here = np.array([inside(r, a, b) for a, b in zip(px, py)])
        assert tuple(float((labels[here] == c).sum()) for c in tree.classes) == r.class_weights
        assert r.status == "leaf"


def test_internship_partition_by_hand():
    # Seed 001's 2-D example: CART cuts years_experience at 2.5 (between 2 and 3 years); GPA is
    # not needed. Below the cut all three students got no internship, above all three did.
    data = dtlearn.load_dataset("internship")
    tree = dtlearn.fit(data, "cart")
    rectangles = dtlearn.partition(tree, "gpa", "years_experience", bounds=(2.0, 4.5, -1.0, 5.0))
    assert [(r.x0, r.x1, r.y0, r.y1, r.prediction) for r in rectangles] == [
        (2.0, 4.5, -1.0, 2.5, "0"), (2.0, 4.5, 2.5, 5.0, "1")]
    assert [r.class_weights for r in rectangles] == [(3.0, 0.0), (0.0, 3.0)]
    lines = dtlearn.split_lines(tree, "gpa", "years_experience", bounds=(2.0, 4.5, -1.0, 5.0))
    assert [(line.attribute, line.value, line.start, line.end, line.step, line.node_id) for line in lines] == [
        ("years_experience", 2.5, 2.0, 4.5, 1, 0)]


def test_split_lines_lie_on_rectangle_edges(iris):
    data = iris.select(["petal_length", "petal_width"])
    tree = dtlearn.fit(data, "cart")
    bounds = (0.0, 8.0, 0.0, 3.0)
    rectangles = dtlearn.partition(tree, "petal_length", "petal_width", bounds=bounds)
    lines = dtlearn.split_lines(tree, "petal_length", "petal_width", bounds=bounds)
    internal = [n for n in tree.nodes() if not n.is_leaf]
    assert len(lines) == len(internal)
    for line, node in zip(lines, internal):
        assert (line.attribute, line.value, line.node_id, line.step) == (
            node.test.attribute, node.test.threshold, node.id, node.step)
        assert line.start < line.end
        # Some rectangle has this cut as an edge along the line's whole extent.
        if line.attribute == "petal_length":
            edges = [r for r in rectangles if line.value in (r.x0, r.x1) and line.start <= r.y0 <= r.y1 <= line.end]
        else:
            edges = [r for r in rectangles if line.value in (r.y0, r.y1) and line.start <= r.x0 <= r.x1 <= line.end]
        assert edges


def test_partial_trees_give_pending_rectangles(iris):
    data = iris.select(["petal_length", "petal_width"])
    tree = dtlearn.fit(data, "cart")
    bounds = (0.0, 8.0, 0.0, 3.0)
    root = dtlearn.partition(tree.at_step(0), "petal_length", "petal_width", bounds=bounds)
    assert len(root) == 1 and root[0].status == "pending"
    assert (root[0].x0, root[0].x1, root[0].y0, root[0].y1) == bounds
    assert root[0].class_weights == (50.0, 50.0, 50.0)
    # After the first step the plane is cut at petal_length 2.45 into two undecided halves.
    first = dtlearn.partition(tree.at_step(1), "petal_length", "petal_width", bounds=bounds)
    assert [r.status for r in first] == ["pending", "pending"]
    assert first[0].x1 == first[1].x0 == pytest.approx(2.45)
    for k in range(tree.total_steps + 1):
        partial = tree.at_step(k)
        rectangles = dtlearn.partition(partial, "petal_length", "petal_width", bounds=bounds)
        check_tiling(rectangles, bounds)
        pending = {n.id for n in partial.nodes() if n.status == "pending"}
        assert {r.leaf_id for r in rectangles if r.status == "pending"} == pending
        assert len(dtlearn.split_lines(partial, "petal_length", "petal_width", bounds=bounds)) == sum(
            1 for n in partial.nodes() if n.status == "split")


def test_a_third_attribute_is_refused(iris):
    # The full iris CART tree also tests sepal_length, which is not an axis of the plot.
    tree = dtlearn.fit(iris, "cart")
    assert "sepal_length" in {n.test.attribute for n in tree.nodes() if n.test}
    with pytest.raises(ValueError, match=r"The tree tests 'sepal_length <= .*', which is not a threshold on "
                                         r"petal_length or petal_width: grow the tree on these two numeric "
                                         r"attributes only\."):
        dtlearn.partition(tree, "petal_length", "petal_width")


def test_categorical_tests_and_bad_axes_are_refused(iris):
    # weather_numeric with C4.5 tests outlook (multiway), not a threshold.
    tree = dtlearn.fit(dtlearn.load_dataset("weather_numeric"), "c45")
    with pytest.raises(ValueError, match=r"The tree tests 'outlook = \?', which is not a threshold"):
        dtlearn.partition(tree, "temperature", "humidity")
    tree = dtlearn.fit(iris, "cart")
    with pytest.raises(ValueError, match=r"^Choose two different attributes for the axes\.$"):
        dtlearn.partition(tree, "petal_length", "petal_length")
    with pytest.raises(ValueError, match=r"^'species' is not a numeric attribute of this tree's data\.$"):
        dtlearn.partition(tree, "petal_length", "species")
