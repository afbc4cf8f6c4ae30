"""The axis-parallel rectangles a tree cuts the plane of two numeric attributes into.

Only geometry: the pages draw it. Works on partial trees too (`tree.at_step(k)`), whose
undecided nodes are rectangles with status "pending", so stepping shows the plane being cut.
`drawn_sample` picks the rows a scatter of a large table draws (the rectangles use every row).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .tree import Tree


@dataclass(frozen=True)
class Rectangle:
    """A leaf's region (x0, x1] x (y0, y1]: a point on a cut belongs to the lower side, as
    the tests `attribute <= threshold` send it."""

    x0: float
    x1: float
    y0: float
    y1: float
    leaf_id: int
    class_weights: tuple[float, ...]
    prediction: str
    status: str  # "leaf" or "pending"


@dataclass(frozen=True)
class SplitLine:
    """A cut drawn across its node's rectangle: `attribute` <= `value`, made at `step`."""

    attribute: str
    value: float
    start: float  # extent along the other axis
    end: float
    step: int
    node_id: int


def default_bounds(tree: Tree, x: str, y: str) -> tuple[float, float, float, float]:
    """The training range of x and y, padded by 5% (or 0.5 for a single value)."""
    result = []
    for attribute in (x, y):
        if attribute not in tree.ranges:
            raise ValueError(f"'{attribute}' is not a numeric attribute of this tree's data.")
        low, high = tree.ranges[attribute]
        pad = (high - low) * 0.05 or 0.5
        result += [low - pad, high + pad]
    return tuple(result)


def partition(tree: Tree, x: str, y: str, bounds=None) -> tuple[Rectangle, ...]:
    """Leaf rectangles of a tree that tests only numeric thresholds on `x` and `y`.

    >>> from dtlearn import fit, load_dataset
    >>> data = load_dataset("internship")
    >>> [r.prediction for r in partition(fit(data, "cart"), "gpa", "years_experience")]
    ['0', '1']
    """
    rectangles, _ = _cut(tree, x, y, bounds)
    return rectangles


def split_lines(tree: Tree, x: str, y: str, bounds=None) -> tuple[SplitLine, ...]:
    """The cuts of the tree, each clipped to the rectangle of the node that made it."""
    _, lines = _cut(tree, x, y, bounds)
    return lines


def _cut(tree: Tree, x: str, y: str, bounds):
    if x == y:
        raise ValueError("Choose two different attributes for the axes.")
    box = tuple(bounds) if bounds is not None else default_bounds(tree, x, y)
    rectangles: list[Rectangle] = []
    lines: list[SplitLine] = []
    _visit(tree.root, x, y, box, rectangles, lines)
    return tuple(rectangles), tuple(lines)


def _visit(root, x, y, box, rectangles, lines) -> None:
    """Cut the box along the tree, depth-first (leaves left to right), without recursion."""
    stack = [(root, box)]
    while stack:
        node, (x0, x1, y0, y1) = stack.pop()
        if node.is_leaf:
            rectangles.append(Rectangle(x0, x1, y0, y1, node.id, node.class_weights, node.prediction, node.status))
            continue
        test = node.test
        if test.kind != "threshold" or test.attribute not in (x, y):
            raise ValueError(
                f"The tree tests '{test.describe()}', which is not a threshold on {x} or {y}: "
                "grow the tree on these two numeric attributes only."
            )
        t = test.threshold
        if test.attribute == x:
            lines.append(SplitLine(x, t, y0, y1, node.step, node.id))
            halves = ((x0, min(t, x1), y0, y1), (max(t, x0), x1, y0, y1))
        else:
            lines.append(SplitLine(y, t, x0, x1, node.step, node.id))
            halves = ((x0, x1, y0, min(t, y1)), (x0, x1, max(t, y0), y1))
        stack.extend(reversed(list(zip(node.children, halves))))


MAX_POINTS = 20_000  # a scatter of more rows is drawn from a sample: a browser slows down beyond


def drawn_sample(labels, size: int = MAX_POINTS, seed: int = 0) -> np.ndarray:
    """Sorted positions of at most `size` rows to draw, stratified by label: each label keeps
    its share of the rows (rounded by largest remainder, so the sizes add up to `size`), rows
    picked at random with `seed`, so the same data always draws the same points. All rows when
    there are no more than `size`. The regions are computed on every row; only drawing samples.
    (A regression target is no stratum: pass one label for every row.)

    >>> positions = drawn_sample(["a"] * 90 + ["b"] * 10, size=10)
    >>> len(positions), int((positions >= 90).sum())
    (10, 1)
    """
    labels = np.asarray(labels)
    n = len(labels)
    if n <= size:
        return np.arange(n)
    values, codes = np.unique(labels.astype(str), return_inverse=True)
    counts = np.bincount(codes, minlength=len(values))
    quota = counts * size / n
    take = np.floor(quota).astype(int)
    extra = np.argsort(-(quota - take), kind="stable")[:size - int(take.sum())]
    take[extra] += 1
    rng = np.random.default_rng(seed)
    picked = [rng.choice(np.flatnonzero(codes == j), take[j], replace=False) for j in range(len(values))]
    return np.sort(np.concatenate(picked))
