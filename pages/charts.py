"""The Plotly figures of the pages. They only draw numbers dtlearn computed.

Class colours are the ones the Graphviz tree uses (dtlearn.export.PALETTE), so a class
has one colour everywhere. Text from a file is HTML-escaped (Plotly reads a few tags), and
shortened where it is drawn (legends, axes, ticks: dtlearn.shorten), whole in a class's hover.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from dtlearn.data_summary import histogram
from dtlearn.formatting import label
from dtlearn.export import PALETTE
from dtlearn.quantities import QUANTITIES
from dtlearn.shorten import shown, shown_names, visible

from . import cut_labels
from pages.wording import plain

FONT = dict(size=16)
MEASURE_TITLES = {key: q.title for key, q in QUANTITIES.items()}


def colour(classes, cls) -> str:
    return PALETTE[list(classes).index(cls) % len(PALETTE)]


def short(value) -> str:
    """A name as a legend, axis or tick draws it: shortened, escaped for Plotly."""
    return plain(shown(value))


def whole(value) -> str:
    """A name as a hover gives it: whole, its invisible characters visible, escaped."""
    return plain(visible(value))


def readable(fig: go.Figure) -> go.Figure:
    """Axis ticks and titles in the theme's text colour: Streamlit's Plotly template draws them
    #808495 on white (3.7:1, under WCAG AA's 4.5:1), and no theme setting reaches them. An axis
    with a colour of its own (the Pruning chart's two scales) keeps it."""
    text = st.get_option("theme.textColor") or "#141312"
    fig.update_layout(font_color=text)  # titles and notes written as annotations (a panel's title)
    fig.update_xaxes(tickfont_color=text, title_font_color=text)
    fig.update_yaxes(tickfont_color=text, selector=lambda axis: not axis.tickfont.color)
    fig.update_yaxes(title_font_color=text, selector=lambda axis: not axis.title.font.color)
    return fig


def _layout(fig: go.Figure, height: int, legend_below: bool = False) -> go.Figure:
    legend = dict(orientation="h", yanchor="top", y=-0.14, x=0) if legend_below else \
        dict(orientation="h", yanchor="bottom", y=1.02, x=0)
    fig.update_layout(height=height, font=FONT, margin=dict(l=10, r=10, t=40, b=90 if legend_below else 10),
                      legend=legend)
    return readable(fig)


def class_distribution(counts: pd.DataFrame, classes) -> go.Figure:
    """Rows per class as bars, each labelled with its count and share."""
    # Bars at positions 0, 1, ... named by their ticks: Plotly keeps a category axis's names as keys
    # of a plain object, where classes called __proto__ or constructor find no bar and draw nothing.
    fig = go.Figure(go.Bar(
        x=list(range(len(counts))), y=counts["rows"],
        customdata=[whole(c) for c in counts["class"]],
        marker_color=[colour(classes, c) for c in counts["class"]], marker_line=dict(color="#555", width=1),
        text=[f"{r} ({s:.0%})" for r, s in zip(counts["rows"], counts["share"])], textposition="outside",
        cliponaxis=False, hovertemplate="%{customdata}: %{y} rows<extra></extra>",
    ))
    fig.update_xaxes(tickmode="array", tickvals=list(range(len(counts))),
                     ticktext=[plain(c) for c in shown_names(counts["class"])], range=[-0.5, len(counts) - 0.5])
    fig.update_yaxes(title="rows", rangemode="tozero")
    return _layout(fig, 360)


def target_histogram(values: pd.Series, target: str) -> go.Figure:
    """A numeric target (regression): how its values are spread, in dtlearn's bins
    (dtlearn.data_summary.histogram: counted over every row, at most 200 bars sent to the browser)."""
    counts, edges = histogram(values)
    fig = go.Figure(go.Bar(x=(edges[:-1] + edges[1:]) / 2, y=counts, width=np.diff(edges),
                           customdata=np.column_stack([edges[:-1], edges[1:]]),
                           marker_color=PALETTE[4], marker_line=dict(color="#555", width=1),
                           hovertemplate="%{customdata[0]:.4g} to %{customdata[1]:.4g}: %{y} rows<extra></extra>"))
    fig.update_xaxes(title=short(target))
    fig.update_yaxes(title="rows")
    return _layout(fig, 360)


def _two_panels(top_title: str, bottom_title: str, x_title: str, top_y: str, bottom_y: str,
                chosen: float | None, tested: float | None = None) -> dict:
    """Layout of two stacked panels sharing the x axis (built as a dict: far faster than
    make_subplots, which matters when every step draws one). `chosen` is the chosen cut as the
    table scores it (a midpoint), `tested` the value the tree's test writes when it differs
    (C4.5 / J48 write the largest training value below the midpoint: the same rows each side)."""
    layout = {
        "xaxis": {"domain": [0, 1], "anchor": "y", "matches": "x2", "showticklabels": False},
        "yaxis": {"domain": [0.56, 1], "anchor": "x", "title": {"text": top_y}, "rangemode": "tozero"},
        "xaxis2": {"domain": [0, 1], "anchor": "y2", "title": {"text": x_title}},
        "yaxis2": {"domain": [0, 0.44], "anchor": "x2", "title": {"text": bottom_y}, "rangemode": "tozero"},
        "annotations": [
            {"text": top_title, "x": 0.5, "y": 1, "xref": "paper", "yref": "paper", "xanchor": "center",
             "yanchor": "bottom", "showarrow": False},
            {"text": bottom_title, "x": 0.5, "y": 0.44, "xref": "paper", "yref": "paper", "xanchor": "center",
             "yanchor": "bottom", "showarrow": False},
        ],
        "shapes": [],
    }
    if chosen is None:
        return layout
    marks = [(tested if tested is not None else chosen, f"the tree tests ≤ {short(label(tested))}"
              if tested is not None and tested != chosen else f"the tree's cut: ≤ {short(label(chosen))}",
              "#b52e3d", "solid")]
    if tested is not None and tested != chosen:
        marks.append((chosen, f"midpoint {short(label(chosen))}, where it is scored", "#555555", "dot"))
    for (x, text, colour, dash), side in zip(marks, ("right", "left") if len(marks) == 2 else ("left",)):
        layout["shapes"].append({"type": "line", "x0": x, "x1": x, "xref": "x2", "y0": 0, "y1": 1,
                                 "yref": "paper", "line": {"color": colour, "width": 2, "dash": dash}})
        layout["annotations"].append({"text": text, "x": x, "xref": "x2", "y": 0.97, "yref": "paper",
                                      "xanchor": side, "yanchor": "top", "showarrow": False,
                                      "bgcolor": "rgba(255,255,255,0.85)", "font": {"color": colour}})
    return layout


def _scores(x, y, eligible, name: str, hover: list[str] | None = None) -> dict:
    return {"type": "scatter", "x": x, "y": y, "xaxis": "x", "yaxis": "y", "mode": "lines+markers",
            "name": name, "showlegend": False, "line": {"color": "#444"},
            "marker": {"size": 8, "color": "#444", "symbol": ["circle" if e else "circle-open" for e in eligible]},
            "text": hover, "hovertemplate": "cut ≤ %{x}<br>" + name + " %{y:.4f}"
                                            + ("<br>%{text}" if hover else "") + "<extra></extra>"}


def regression_threshold_chart(rows: pd.DataFrame, attribute: str, target: str, chosen: float | None,
                               tested: float | None = None) -> go.Figure:
    """The decrease in MSE of every cut of one attribute (top) and the target's mean on each side (bottom)."""
    x = rows["threshold"].to_numpy(dtype=float).tolist()
    stats = np.array([np.asarray(b, dtype=float) for b in rows["branch_stats"]])  # (T, 2, [n, mean])
    data = [_scores(x, rows["score"].tolist(), rows["eligible"].tolist(), "ΔMSE")]
    for side, dash, word, colour_ in ((0, "solid", "≤ v", PALETTE[4]), (1, "dot", "> v", PALETTE[3])):
        data.append({"type": "scatter", "x": x, "y": stats[:, side, 1].tolist(), "xaxis": "x2", "yaxis": "y2",
                     "mode": "lines", "name": f"mean {word}", "customdata": stats[:, side, 0].tolist(),
                     "line": {"color": colour_, "width": 3, "dash": dash, "shape": "hv"},
                     "hovertemplate": "mean %{y:.3f} of %{customdata:g} rows<extra>" + word + "</extra>"})
    layout = _two_panels(f"Decrease in MSE of the cut {short(attribute)} ≤ v",
                         f"Mean {short(target)} on each side of the cut", short(attribute), "ΔMSE", short(target),
                         chosen, tested)
    layout["yaxis2"]["rangemode"] = "normal"
    return _layout(go.Figure({"data": data, "layout": layout}), 660, legend_below=True)


def threshold_chart(rows: pd.DataFrame, attribute: str, classes, measure: str, chosen: float | None,
                    tested: float | None = None) -> go.Figure:
    """Zaki & Meira's iris figures: the score of every cut of one attribute (top) and the
    class counts on each side of it (bottom), from the node's candidate-split table."""
    x = rows["threshold"].to_numpy(dtype=float).tolist()
    counts = np.array([np.asarray(b, dtype=float) for b in rows["branch_counts"]])  # (T, 2, k)
    hover = [_sides(v, c, classes) for v, c in zip(x, counts)]
    data = [_scores(x, rows[measure].tolist(), rows["eligible"].tolist(), MEASURE_TITLES[measure], hover)]
    for j, cls in enumerate(classes):
        for side, dash, word in ((0, "solid", "≤ v"), (1, "dot", "> v")):
            data.append({"type": "scatter", "x": x, "y": counts[:, side, j].tolist(), "xaxis": "x2",
                         "yaxis": "y2", "mode": "lines", "name": f"{short(cls)} {word}",
                         "line": {"color": colour(classes, cls), "width": 3, "dash": dash, "shape": "hv"},
                         "hovertemplate": "%{y:g} rows<extra>" + whole(cls) + f" {word}</extra>"})
    layout = _two_panels(f"{MEASURE_TITLES[measure]} of the cut {short(attribute)} ≤ v",
                         "Rows of each class on each side of the cut", short(attribute), "score", "rows", chosen,
                         tested)
    return _layout(go.Figure({"data": data, "layout": layout}), 660, legend_below=True)


def _sides(v: float, counts: np.ndarray, classes) -> str:
    left = ", ".join(f"{label(round(c, 3))} {short(k)}" for k, c in zip(classes, counts[0]))
    right = ", ".join(f"{label(round(c, 3))} {short(k)}" for k, c in zip(classes, counts[1]))
    return f"≤ {label(v)}: {left}<br>> {label(v)}: {right}"


SCALE = "Viridis"


def _scaled(values: list[float], low: float, high: float) -> list[str]:
    """The colours of `values` on the colour scale from low to high (one call: Plotly reads the
    scale anew on every call)."""
    from plotly.colors import sample_colorscale

    if not values:
        return []
    return sample_colorscale(SCALE, [(v - low) / (high - low) if high > low else 0.5 for v in values])


MANY_REGIONS = 400  # beyond this, regions and cuts are drawn as a few traces, not one shape each
LABELLED_CUTS = 40  # ... and only the newest cuts carry their node number


def _many_regions(fig: go.Figure, rectangles, fills, lines, x: str, newest: int | None) -> None:
    """Thousands of regions (a 20,000-level chain) as one filled trace per colour and all cuts as
    one line trace: Plotly lays out a trace of many polygons in milliseconds, while a shape each
    took seconds per step to build and draw. Coordinates go as numpy arrays, NaN between
    polygons (a gap, as None is): Plotly validates a list element by element (a second per
    10,000 regions), an array at once, and sends it as binary; single precision (7 digits,
    finer than a pixel; nothing here is hovered) halves what the browser receives."""
    corners = np.array([(r.x0, r.x1, r.y0, r.y1) for r in rectangles], dtype=np.float32).reshape(-1, 4)
    x0, x1, y0, y1 = corners.T
    gap = np.full(len(corners), np.nan, dtype=np.float32)
    xs = np.column_stack([x0, x1, x1, x0, x0, gap])
    ys = np.column_stack([y0, y0, y1, y1, y0, gap])
    groups: dict[tuple[str, bool], list[int]] = {}
    for i, (r, fill) in enumerate(zip(rectangles, fills)):
        groups.setdefault((fill, r.status == "pending"), []).append(i)
    for (fill, pending), members in groups.items():
        fig.add_trace(go.Scatter(x=xs[members].ravel(), y=ys[members].ravel(), mode="lines", fill="toself",
                                 fillcolor=fill, opacity=0.18 if pending else 0.5, line=dict(width=0),
                                 hoverinfo="skip", showlegend=False))
    older = [line for line in lines if line.node_id != newest]  # the newest: on its own, in red, labelled
    ends = np.array([(line.value, line.start, line.end, line.attribute == x) for line in older],
                    dtype=np.float32).reshape(-1, 4)
    value, start, end, vertical = ends.T
    gap = np.full(len(ends), np.nan, dtype=np.float32)
    xs = np.where(vertical[:, None] == 1, np.column_stack([value, value, gap]), np.column_stack([start, end, gap]))
    ys = np.where(vertical[:, None] == 1, np.column_stack([start, end, gap]), np.column_stack([value, value, gap]))
    fig.add_trace(go.Scatter(x=xs.ravel(), y=ys.ravel(), mode="lines", line=dict(color="#333", width=1),
                             hoverinfo="skip", showlegend=False))


PLANE_MARGIN = dict(l=64, r=12, t=44, b=56)  # px: fixed, so that labels are placed in the plot's own pixels


def partition_chart(rectangles, lines, frame: pd.DataFrame, x: str, y: str, target: str, classes,
                    newest: int | None, bounds, values: dict | None = None,
                    points: pd.DataFrame | None = None, size: tuple[int, int] = (640, 640)) -> tuple[go.Figure, int]:
    """Leaf rectangles coloured by the class they predict, the training points on top, and each
    cut labelled with the number of the node that made it, as the drawn tree numbers it (the
    newest cut, node `newest`, in red). For a regression tree `values` maps leaf ids to
    predictions: a colour scale replaces the classes. `points` are the rows drawn (a sample of a
    large `frame`, dtlearn.partition.drawn_sample); the colour scale spans every row's target.
    `size` is the figure's (width, height) in px. Returns the figure and how many cut labels were
    left out because they found no place free of the others (pages/cut_labels.py)."""
    points = frame if points is None else points
    fig = go.Figure()
    regression = values is not None
    if regression:
        low, high = float(frame[target].min()), float(frame[target].max())
    # Shapes and labels are set once, as lists: Plotly's add_shape re-validates every shape
    # already there, which made a 400-step tree's chart take a minute to build.
    shapes, annotations = [], []
    if regression:
        fills = _scaled([values[r.leaf_id] for r in rectangles], low, high)
    else:
        fills = [colour(classes, r.prediction) for r in rectangles]
    if len(rectangles) > MANY_REGIONS:
        _many_regions(fig, rectangles, fills, lines, x, newest)
        lines = sorted(lines, key=lambda line: line.step or 0)[-LABELLED_CUTS:]  # the newest, labelled below
    else:
        for r, fill in zip(rectangles, fills):
            pending = r.status == "pending"
            shapes.append(dict(type="rect", x0=r.x0, x1=r.x1, y0=r.y0, y1=r.y1, layer="below", fillcolor=fill,
                               opacity=0.18 if pending else 0.5,
                               line=dict(width=1, color="#999", dash="dot") if pending else dict(width=0)))
    width, height = size
    plot = (width - PLANE_MARGIN["l"] - PLANE_MARGIN["r"], height - PLANE_MARGIN["t"] - PLANE_MARGIN["b"])
    places, left_out = cut_labels.place(lines, x, bounds, plot, newest)
    for line in lines:
        red = line.node_id == newest
        style = dict(color="#d62728" if red else "#333", width=4 if red else 2)
        if line.attribute == x:
            shapes.append(dict(type="line", x0=line.value, x1=line.value, y0=line.start, y1=line.end, line=style))
        else:
            shapes.append(dict(type="line", x0=line.start, x1=line.end, y0=line.value, y1=line.value, line=style))
        at = places.get(line.node_id)
        if at is not None:
            annotations.append(dict(x=at.x, y=at.y, xanchor=at.xanchor, yanchor=at.yanchor,
                                    text=f"<b>{line.node_id}</b>", showarrow=False, bgcolor="white",
                                    bordercolor=style["color"], borderwidth=1,
                                    font=dict(size=15, color=style["color"])))
    fig.update_layout(shapes=shapes, annotations=annotations)
    if regression:
        fig.add_trace(go.Scatter(
            x=points[x], y=points[y], mode="markers", name=short(target), showlegend=False,
            marker=dict(size=10, color=points[target], colorscale=SCALE, cmin=low, cmax=high,
                        line=dict(color="#222", width=1), colorbar=dict(title=short(target))),
            hovertemplate=f"{short(x)} %{{x}}<br>{short(y)} %{{y}}<br>{short(target)} %{{marker.color}}"
                          "<extra></extra>",
        ))
        classes = ()
    labels = points[target].map(label)
    size = 11 if len(points) <= 2000 else 6  # thousands of big markers hide the regions
    for cls in classes:
        part = points[labels == cls]
        fig.add_trace(go.Scatter(
            x=part[x], y=part[y], mode="markers", name=short(cls),
            marker=dict(size=size, color=colour(classes, cls), line=dict(color="#222", width=1)),
            hovertemplate=f"{short(x)} %{{x}}<br>{short(y)} %{{y}}<extra>{whole(cls)}</extra>",
        ))
    x0, x1, y0, y1 = bounds
    fig.update_xaxes(title=short(x), range=[x0, x1], showgrid=False, zeroline=False)
    fig.update_yaxes(title=short(y), range=[y0, y1], showgrid=False, zeroline=False)
    fig.update_layout(width=width, height=height, font=FONT, margin=dict(**PLANE_MARGIN, autoexpand=False),
                      legend=dict(orientation="h", yanchor="bottom", y=1.0, x=0, font=dict(size=14)))
    return readable(fig), left_out
