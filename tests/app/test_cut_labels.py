"""The Partitions chart's cut labels (pages/cut_labels.py): each cut numbered by its node, never
on another label, always inside the plot."""

from __future__ import annotations

import numpy as np
import pytest

import dtlearn
from dtlearn.partition import SplitLine, default_bounds, split_lines
from pages import cut_labels


def _overlaps(a, b) -> bool:
    return not (a[2] <= b[0] or a[0] >= b[2] or a[3] <= b[1] or a[1] >= b[3])


def _boxes(places, lines, x, bounds, plot):
    """Each placed label's box in plot pixels, computed again from its anchor."""
    x0, x1, y0, y1 = bounds
    found = []
    for line in lines:
        at = places.get(line.node_id)
        if at is None:
            continue
        px, py = (at.x - x0) / (x1 - x0) * plot[0], (at.y - y0) / (y1 - y0) * plot[1]
        found.append(cut_labels._box(px, py, cut_labels.CHAR_PX * len(str(line.node_id)) + 2 * cut_labels.PAD,
                                     at.xanchor, at.yanchor))
    return found


@pytest.mark.parametrize("seed", range(30))
def test_cut_labels_never_overlap_and_stay_in_the_plot(seed):
    rng = np.random.default_rng(seed)
    bounds, plot = (0.0, 10.0, 0.0, 10.0), (420.0, 380.0)
    lines = []
    for node in range(int(rng.integers(2, 40))):
        value, a, b = rng.uniform(0, 10, 3)
        lines.append(SplitLine("x" if rng.random() < 0.5 else "y", value, min(a, b), max(a, b), node + 1, node))
    places, left_out = cut_labels.place(lines, "x", bounds, plot, first=lines[-1].node_id)
    assert lines[-1].node_id in places  # the newest cut is always numbered
    assert len(places) + left_out == len(lines)
    boxes = _boxes(places, lines, "x", bounds, plot)
    for i, a in enumerate(boxes):
        assert a[0] >= -1e-9 and a[1] >= -1e-9 and a[2] <= plot[0] + 1e-9 and a[3] <= plot[1] + 1e-9
        assert not any(_overlaps(a, b) for b in boxes[i + 1:])


def test_every_cut_of_iris_is_numbered_by_its_node():
    """Iris, CART on the petals: small regions at the corner of 2.45 / 1.75 / 4.95 put the old
    labels ("5", "4", "10") on top of each other; here every cut has its node's number, apart."""
    tree = dtlearn.fit(dtlearn.load_dataset("iris").select(["petal_length", "petal_width"]), "cart")
    bounds = default_bounds(tree, "petal_length", "petal_width")
    lines = split_lines(tree, "petal_length", "petal_width", bounds)
    splits = {node.id for node in tree.nodes() if node.status == "split"}
    assert {line.node_id for line in lines} == splits
    places, left_out = cut_labels.place(lines, "petal_length", bounds, (560.0, 520.0), first=None)
    boxes = _boxes(places, lines, "petal_length", bounds, (560.0, 520.0))
    assert all(not _overlaps(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1:])
    assert len(places) >= len(lines) - 2 and left_out == len(lines) - len(places)
