"""Chart text on a projector: every axis's ticks and title contrast at least 4.5:1 with the white
plot (WCAG 2.1 AA). Streamlit's Plotly template draws them #808495 (3.7:1), which axe-core does
not see inside a chart's SVG (pages/charts.py `readable`)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest


def luminance(colour: str) -> float:
    """WCAG 2.1 relative luminance of a #rrggbb (or #rgb) colour."""
    if len(colour) == 4:
        colour = "#" + "".join(c * 2 for c in colour[1:])
    channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_on_white(colour: str) -> float:
    return 1.05 / (luminance(colour) + 0.05)


def test_the_contrast_formula():
    assert contrast_on_white("#000000") == pytest.approx(21.0)
    assert contrast_on_white("#808495") == pytest.approx(3.7, abs=0.05)  # the template's grey


@pytest.mark.parametrize("name, params", [
    ("data", {"dataset": "iris"}),
    ("partitions", {"dataset": "iris", "algo": "cart", "part_step": "3"}),
    ("step", {"dataset": "iris", "algo": "c45", "step": "1"}),
])
def test_every_axis_of_every_chart_is_readable(open_app, name, params):
    app = open_app(page=name, **params)
    if name == "step":
        app.open("thresholds_open")
    app.assert_clean()
    figures = app.figures()
    assert figures
    for figure in figures:
        axes = [value for key, value in figure["layout"].items() if key.startswith(("xaxis", "yaxis"))]
        assert axes
        for axis in axes:
            for colour in (axis["tickfont"]["color"], axis["title"]["font"]["color"]):
                assert contrast_on_white(colour) >= 4.5, (name, colour)
        for note in figure["layout"].get("annotations", []):  # a panel's title, a marked cut
            colour = note.get("font", {}).get("color") or figure["layout"]["font"]["color"]
            assert contrast_on_white(colour) >= 4.5, (name, note["text"], colour)


@pytest.mark.parametrize("params", [{"dataset": "iris", "algo": "cart", "prune_method": "cost_complexity"},
                                    {"dataset": "tennis", "algo": "id3", "prune_method": "reduced_error"}])
def test_every_text_of_the_pruning_pages_charts_is_readable(open_app, params):
    # the Pruning page draws its charts on the server as SVG (pages/svg_chart.py): each text's own colour
    app = open_app(page="pruning", **params)
    app.assert_clean()
    charts = [ET.fromstring(m.value.split("\n")[1]) for m in app.at.markdown if 'class="dtlearn-chart"' in m.value]
    assert charts
    for chart in charts:
        drawn = [(text.get("fill"), "".join(text.itertext())) for text in chart.iter("text")]
        assert len(drawn) > 10  # ticks, titles, the legend
        for colour, words in drawn:
            assert contrast_on_white(colour) >= 4.5, (words, colour)
