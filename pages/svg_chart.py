"""A line chart drawn on the server as SVG, for the charts where Plotly's weight buys nothing.

Plotly's script is megabytes the browser must download and compile before it draws anything;
a few curves of a few dozen points need none of it. The page receives the SVG as text: it
runs no script, each point's numbers are its hover text (an SVG <title>), and every text is
XML-escaped here. `line_chart` only places numbers the page computed with dtlearn.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from html import escape

import streamlit as st

FONT_PX = 16
CHAR_EM = 0.55  # a character's average width in ems (Source Sans): to place legends and labels
GRID = "#e3e3e3"


@dataclass(frozen=True)
class Series:
    """One curve: its legend name, points, colour and look."""

    name: str
    x: tuple[float, ...]
    y: tuple[float, ...]
    colour: str
    right: bool = False  # on the right-hand scale
    step: bool = False  # drawn as steps (flat until the next point), as rpart's plotcp
    marker: str = "circle"  # "circle", "star" or "" (a line only)
    line: bool = True
    dash: str = ""  # an SVG stroke-dasharray
    error: tuple[float, ...] | None = None  # a bar of plus or minus this much at each point
    tips: tuple[str, ...] | None = None  # each point's hover text


@dataclass(frozen=True)
class Mark:
    """A vertical line at `x` across the plot, its words at the top."""

    x: float
    text: str
    colour: str
    text_colour: str


def nice_ticks(high: float, count: int = 5) -> list[float]:
    """Ticks from 0 to at least `high` at a round step (1, 2, 2.5 or 5 times a power of ten)."""
    if not high > 0 or not math.isfinite(high):
        return [0.0, 1.0]
    raw = high / count
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)
    n = math.ceil(high / step - 1e-9)
    return [round(i * step, 12) for i in range(n + 1)]


def tick_label(value: float, step: float) -> str:
    decimals = max(0, -math.floor(math.log10(step) + 1e-9)) if step > 0 else 0
    if step > 0 and round(step, decimals) != step:  # a step of 2.5 times a power of ten
        decimals += 1
    return f"{value:.{decimals}f}"


def text_width(text: str, px: float = FONT_PX) -> float:
    return len(text) * px * CHAR_EM


def _legend(series: list[Series], width: float) -> tuple[list[tuple[Series, float, float]], float]:
    """Each series' legend entry placed (x, y of its baseline), wrapped to the width; the height taken."""
    placed, x, row = [], 0.0, 0
    for s in series:
        entry = 34 + text_width(s.name) + 24
        if x > 0 and x + entry > width:
            x, row = 0.0, row + 1
        placed.append((s, x, FONT_PX + row * (FONT_PX + 8)))
        x += entry
    return placed, (row + 1) * (FONT_PX + 8) + 6


def _marker(kind: str, x: float, y: float, colour: str, tip: str | None) -> str:
    title = f"<title>{escape(tip)}</title>" if tip else ""
    if kind == "star":
        corners = []
        for i in range(10):
            r, angle = (11 if i % 2 == 0 else 4.6), math.pi / 2 + i * math.pi / 5
            corners.append(f"{x + r * math.cos(angle):.1f},{y - r * math.sin(angle):.1f}")
        return (f'<polygon points="{" ".join(corners)}" fill="{colour}" stroke="#333" stroke-width="1">'
                f"{title}</polygon>")
    return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="5" fill="{colour}">{title}</circle>'


def line_chart(series: list[Series], *, label: str, x_title: str, x_range: tuple[float, float],
               y_title: str, y_colour: str | None = None, y2_title: str | None = None,
               y2_colour: str | None = None, x_ticks: list[tuple[float, str]] | None = None,
               mark: Mark | None = None, y_high: float | None = None, width: int = 640, height: int = 400,
               ink: str = "#141312") -> str:
    """The SVG of `series` over one x axis and one or two y scales (each from 0; the left one to
    `y_high` when given, e.g. an accuracy's 1), `mark` a vertical line with its words; `label`
    names the chart for a screen reader. It scales to its
    column's width (at most 1.3 times `width`), its text with it."""
    left_series = [s for s in series if not s.right]
    right_series = [s for s in series if s.right]

    def scale_top(group: list[Series]) -> list[float]:
        values = [y + (s.error[i] if s.error else 0) for s in group for i, y in enumerate(s.y)
                  if y is not None and math.isfinite(y)]
        return nice_ticks(max(values, default=1.0) * 1.02)

    y_ticks = nice_ticks(y_high) if y_high else scale_top(left_series)
    y2_ticks = scale_top(right_series) if right_series else None
    legend, legend_height = _legend(series, width - 20)
    label_w = max(text_width(tick_label(t, y_ticks[1] - y_ticks[0])) for t in y_ticks)
    left = 10 + FONT_PX + 8 + label_w + 8
    right = 20
    if y2_ticks:
        right = 10 + FONT_PX + 8 + max(text_width(tick_label(t, y2_ticks[1] - y2_ticks[0])) for t in y2_ticks) + 8
    top, bottom = legend_height + 30, height - (FONT_PX * 2 + 26)
    plot_right = width - right
    x0, x1 = x_range

    def px(x: float) -> float:
        return left + (x - x0) / (x1 - x0 or 1) * (plot_right - left)

    def py(y: float, ticks: list[float]) -> float:
        return bottom - y / (ticks[-1] or 1) * (bottom - top)

    parts = [f'<rect x="{left:.1f}" y="{top:.1f}" width="{plot_right - left:.1f}" height="{bottom - top:.1f}" '
             'fill="none" stroke="#bbb"/>']
    step = y_ticks[1] - y_ticks[0]
    for t in y_ticks:  # the left scale: grid lines and labels
        y = py(t, y_ticks)
        parts.append(f'<line x1="{left:.1f}" x2="{plot_right:.1f}" y1="{y:.1f}" y2="{y:.1f}" stroke="{GRID}"/>')
        parts.append(f'<text x="{left - 6:.1f}" y="{y + 5:.1f}" text-anchor="end" fill="{y_colour or ink}">'
                     f"{tick_label(t, step)}</text>")
    if y2_ticks:
        step2 = y2_ticks[1] - y2_ticks[0]
        for t in y2_ticks:
            parts.append(f'<text x="{plot_right + 6:.1f}" y="{py(t, y2_ticks) + 5:.1f}" fill="{y2_colour or ink}">'
                         f"{tick_label(t, step2)}</text>")
    if x_ticks is None:
        x_ticks = [(t, tick_label(t, nice_ticks(x1)[1])) for t in nice_ticks(x1) if x0 <= t <= x1]
    shown_until = -math.inf  # a label that would overlap the one before is left out (its tick stays)
    for x, text in x_ticks:
        parts.append(f'<line x1="{px(x):.1f}" x2="{px(x):.1f}" y1="{bottom:.1f}" y2="{bottom + 5:.1f}" '
                     f'stroke="{ink}"/>')
        half = text_width(text) / 2
        if px(x) - half < shown_until + 8:
            continue
        shown_until = px(x) + half
        parts.append(f'<text class="x-tick" x="{px(x):.1f}" y="{bottom + FONT_PX + 6:.1f}" text-anchor="middle" '
                     f'fill="{ink}">{escape(text)}</text>')
    middle = (top + bottom) / 2
    parts.append(f'<text x="{(left + plot_right) / 2:.1f}" y="{height - 8:.1f}" text-anchor="middle" '
                 f'fill="{ink}">{escape(x_title)}</text>')
    parts.append(f'<text transform="translate({10 + FONT_PX:.1f} {middle:.1f}) rotate(-90)" text-anchor="middle" '
                 f'fill="{y_colour or ink}">{escape(y_title)}</text>')
    if y2_title:
        parts.append(f'<text class="y2-title" transform="translate({width - 10 - 4:.1f} {middle:.1f}) rotate(-90)" '
                     f'text-anchor="middle" fill="{y2_colour or ink}">{escape(y2_title)}</text>')
    for s in series:
        parts.append(_curve(s, px, lambda y, s=s: py(y, y2_ticks if s.right else y_ticks)))
    if mark is not None:
        x = px(mark.x)
        side = "start" if x < (left + plot_right) / 2 else "end"
        parts.append(f'<g class="mark" data-x="{float(mark.x)!r}"><line x1="{x:.1f}" x2="{x:.1f}" y1="{top - 24:.1f}" '
                     f'y2="{bottom:.1f}" stroke="{mark.colour}" stroke-width="3" stroke-dasharray="8 5"/>'
                     f'<text x="{x + (6 if side == "start" else -6):.1f}" y="{top - 8:.1f}" text-anchor="{side}" '
                     f'fill="{mark.text_colour}">{escape(mark.text)}</text></g>')
    for s, x, y in legend:
        x += 10
        parts.append(f'<g class="legend"><line x1="{x:.1f}" x2="{x + 28:.1f}" y1="{y - 5:.1f}" y2="{y - 5:.1f}" '
                     f'stroke="{s.colour}" stroke-width="{3 if s.line else 0}"'
                     + (f' stroke-dasharray="{s.dash}"' if s.dash else "") + "/>"
                     + (_marker(s.marker, x + 14, y - 5, s.colour, None) if s.marker else "")
                     + f'<text x="{x + 34:.1f}" y="{y:.1f}" fill="{ink}">{escape(s.name)}</text></g>')
    return (f'<svg class="dtlearn-chart" viewBox="0 0 {width} {height}" '
            f'role="img" aria-label="{escape(label)}" font-family="\'Source Sans\', sans-serif" '
            f'font-size="{FONT_PX}" style="width: 100%; max-width: {round(width * 1.3)}px; height: auto">'
            + "".join(parts) + "</svg>")


def show(svg: str) -> None:
    """The chart in the page, inline (so that its hover texts show): an HTML block of Markdown, which
    Streamlit passes on as it is (st.html's sanitizer keeps no SVG)."""
    st.markdown(f'<div class="dtlearn-chart-box">\n{svg}\n</div>', unsafe_allow_html=True)


def _curve(s: Series, px, py) -> str:
    """One series: its line (steps or straight), error bars and markers, each point's numbers as
    data attributes (what a test reads) and hover text."""
    points = [(px(x), py(y)) for x, y in zip(s.x, s.y)]
    parts = []
    if s.line and len(points) > 1:
        path = [f"M{points[0][0]:.1f},{points[0][1]:.1f}"]
        for (_, ya), (xb, yb) in zip(points, points[1:]):
            path.append(f"H{xb:.1f}V{yb:.1f}" if s.step else f"L{xb:.1f},{yb:.1f}")
        parts.append(f'<path d="{"".join(path)}" fill="none" stroke="{s.colour}" stroke-width="3"'
                     + (f' stroke-dasharray="{s.dash}"' if s.dash else "") + "/>")
    for i, ((x, y), value) in enumerate(zip(points, s.y)):
        if s.error:
            low, high = py(value - s.error[i]), py(value + s.error[i])
            parts.append(f'<path d="M{x - 4:.1f},{low:.1f}H{x + 4:.1f}M{x:.1f},{low:.1f}V{high:.1f}'
                         f'M{x - 4:.1f},{high:.1f}H{x + 4:.1f}" stroke="{s.colour}" stroke-width="1.5"/>')
        if s.marker:
            parts.append(_marker(s.marker, x, y, s.colour, s.tips[i] if s.tips else None))
    xs = " ".join(repr(float(v)) for v in s.x)
    ys = " ".join(repr(float(v)) for v in s.y)
    return (f'<g class="series" data-name="{escape(s.name)}" data-x="{xs}" data-y="{ys}"'
            + (' data-axis="right"' if s.right else "") + ">" + "".join(parts) + "</g>")
