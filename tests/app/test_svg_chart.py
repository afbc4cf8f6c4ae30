"""The Pruning page's server-drawn charts (pages/svg_chart.py): round ticks, every text escaped,
labels that would overlap left out."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from pages import svg_chart


def test_ticks_are_round_and_reach_the_highest_value():
    # steps of 1, 2, 2.5 or 5 times a power of ten, from 0 to at least the value
    assert svg_chart.nice_ticks(1.0) == [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]
    assert svg_chart.nice_ticks(0.68) == [0.0, 0.2, 0.4, 0.6, 0.8]
    assert svg_chart.nice_ticks(250) == [0, 50, 100, 150, 200, 250]
    assert svg_chart.nice_ticks(0.0) == [0.0, 1.0]  # nothing to scale: a unit axis, not a division by zero
    assert svg_chart.tick_label(0.5, 0.25) == "0.50" and svg_chart.tick_label(150, 50) == "150"


def test_every_text_is_escaped_and_overlapping_labels_are_left_out():
    hostile = '<script>alert(1)</script> & "x"'
    series = [svg_chart.Series(hostile, (0.0, 1.0), (0.2, 0.4), "#1f77b4", tips=(hostile, "b")),
              svg_chart.Series("second", (0.0, 1.0), (3.0, 4.0), "#c0262d", right=True)]
    svg = svg_chart.line_chart(series, label=hostile, x_title=hostile, x_range=(0.0, 1.0), y_title=hostile,
                               y2_title="right", x_ticks=[(i / 100, f"label {i}") for i in range(101)],
                               mark=svg_chart.Mark(0.5, hostile, "#2ca02c", "#1a7a1a"))
    assert "<script" not in svg
    chart = ET.fromstring(svg)  # well-formed: every name a text, not markup
    assert chart.get("aria-label") == hostile and chart.get("role") == "img"
    texts = ["".join(t.itertext()) for t in chart.iter("text")]
    assert texts.count(hostile) == 4  # the x title, the y title, the mark's words and the legend
    hovers = ["".join(t.itertext()) for circle in chart.iter("circle") for t in circle.iter("title")]
    assert hovers == [hostile, "b"]  # each point's hover text, as given
    labels = [t for t in chart.iter("text") if t.get("class") == "x-tick"]
    assert 2 <= len(labels) < 101  # 101 labels of 9 characters in 600 px: most left out
    placed = [(float(t.get("x")), svg_chart.text_width(t.text) / 2) for t in labels]  # centre, half width
    assert all(b - half_b >= a + half_a for (a, half_a), (b, half_b) in zip(placed, placed[1:]))  # none overlap
