"""Where the Partitions chart writes each cut's node number: beside its line, never on another label.

A cut is numbered by the node that made it, as the drawn tree numbers its nodes. Each label is
tried at a few places along its line (the far end first, as before, then the near end, the
middle, the quarters), on either side of it, and takes the first whose box, in the plot's
pixels, overlaps no label placed before it and stays inside the plot. The newest cut is placed
first, then the others newest first; a label that finds no free place is left out, and the
count of those is returned for the caption to say.
"""

from __future__ import annotations

from dataclasses import dataclass

CHAR_PX, LABEL_H, PAD = 10.0, 24.0, 6.0  # bold 15 px digits, in a bordered box
ALONG = (1.0, 0.0, 0.5, 0.75, 0.25)  # where along its line a label is tried


@dataclass(frozen=True)
class Placed:
    """A label's anchor in data coordinates and how it hangs from it (Plotly's anchors)."""

    x: float
    y: float
    xanchor: str
    yanchor: str


def _box(px: float, py: float, width: float, xanchor: str, yanchor: str) -> tuple[float, float, float, float]:
    """The label's box in plot pixels (y up), hanging from (px, py) as Plotly anchors it."""
    left = {"left": px, "right": px - width, "center": px - width / 2}[xanchor]
    bottom = {"bottom": py, "top": py - LABEL_H, "middle": py - LABEL_H / 2}[yanchor]
    return left, bottom, left + width, bottom + LABEL_H


def _free(box, placed, plot_w: float, plot_h: float) -> bool:
    left, bottom, right, top = box
    if left < 0 or bottom < 0 or right > plot_w or top > plot_h:
        return False
    return all(right <= a or left >= c or top <= b or bottom >= d for a, b, c, d in placed)


def place(lines, x: str, bounds, plot_px: tuple[float, float], first: int | None) -> tuple[dict, int]:
    """{node id: Placed} for the cuts `lines` (dtlearn.partition.SplitLine) on a plot of
    `plot_px` (width, height) pixels spanning `bounds`; `first` is the newest cut's node, placed
    first. Returns the places and how many labels found none."""
    x0, x1, y0, y1 = bounds
    plot_w, plot_h = plot_px

    def to_px(vx: float, vy: float) -> tuple[float, float]:
        return (vx - x0) / (x1 - x0) * plot_w, (vy - y0) / (y1 - y0) * plot_h

    order = sorted(lines, key=lambda line: (line.node_id != first, -(line.step or 0)))
    placed, where, left_out = [], {}, 0
    for line in order:
        width = CHAR_PX * len(str(line.node_id)) + 2 * PAD
        vertical = line.attribute == x
        for t in ALONG:
            along = line.start + t * (line.end - line.start)
            vx, vy = (line.value, along) if vertical else (along, line.value)
            px, py = to_px(vx, vy)
            yend = "top" if t == 1.0 else "bottom" if t == 0.0 else "middle"
            xend = "right" if t == 1.0 else "left" if t == 0.0 else "center"
            sides = ((("left", yend), ("right", yend)) if vertical else ((xend, "bottom"), (xend, "top")))
            found = next(((xa, ya) for xa, ya in sides if _free(_box(px, py, width, xa, ya), placed, plot_w, plot_h)),
                         None)
            if found:
                placed.append(_box(px, py, width, *found))
                where[line.node_id] = Placed(vx, vy, *found)
                break
        else:
            left_out += 1
    return where, left_out
