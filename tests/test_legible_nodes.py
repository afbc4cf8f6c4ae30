"""Drawn trees a projector can show: one text size, narrow nodes, class bars, fills, a legend.

Every drawing here is laid out by Graphviz's own `dot -Tsvg` and read back from the SVG, so what
is checked is what a screen shows. Expected values come from elsewhere: class counts from the
CSV files counted with pandas (each row's leaf from `Tree.apply`), fills from scikit-learn's own
`plot_tree(filled=True)` shading (`sklearn.tree._export._BaseTreeExporter.get_color`), contrast
from the WCAG 2.1 formula written out below, colours from Okabe & Ito (2008).
"""

from __future__ import annotations

import functools
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import dtlearn
from dtlearn import export
from dtlearn.colours import MAX_TINT

DATASETS = Path(__file__).resolve().parents[1] / "datasets"
SVG = "{http://www.w3.org/2000/svg}"
TREES = [("tennis", "id3"), ("iris", "c45"), ("iris", "cart"), ("credit_risk", "id3"), ("glass", "c45")]
PROJECTOR_PT = 14  # issue 31: no text of a drawing below 14 px at the scale a page draws it
NODE_LINE = 24  # characters: the widest line of a node, so the width of every node
# Okabe & Ito (2008), "Color Universal Design": the seven colours, in their order
OKABE_ITO = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#56B4E9", "#CC79A7", "#F0E442"]


@pytest.fixture(autouse=True, scope="module")
def dot_program():
    if shutil.which("dot") is None:
        pytest.fail("these tests read drawings laid out by Graphviz's `dot`: apt-get install -y graphviz")


# --- reading a drawing -----------------------------------------------------------------------

def laid_out(sources: list[str]) -> list[ET.Element]:
    """The SVG roots `dot -Tsvg` draws for DOT sources (one run: it reads a stream of graphs)."""
    done = subprocess.run(["dot", "-Tsvg"], input="\n".join(sources).encode(), capture_output=True, timeout=300)
    assert done.returncode == 0 and not done.stderr, done.stderr.decode(errors="replace")[:2000]
    documents = done.stdout.decode().split("<?xml")[1:]
    assert len(documents) == len(sources)
    return [ET.fromstring("<?xml" + document) for document in documents]


def groups(root: ET.Element, kind: str) -> list[ET.Element]:
    return [g for g in root.iter(SVG + "g") if g.get("class") == kind]


def lines(group: ET.Element) -> list[str]:
    """A group's text as its lines: the texts drawn at one height, in order, a space between
    them (`dot` writes each cell of a label's table row as a text: `node 4`, `· Gini 0.168`)."""
    found: dict[str, list[str]] = {}
    for text in group.iter(SVG + "text"):
        found.setdefault(text.get("y"), []).append((text.text or "").replace("\xa0", " ").strip())
    return [" ".join(t for t in texts if t) for texts in found.values() if any(texts)]


def node_id(group: ET.Element) -> str:
    return group.find(SVG + "title").text  # the DOT name: n3 (node 3), h7 (a folded subtree)


def outline_fill(group: ET.Element) -> str:
    """The fill of a node's box: the first shape `dot` draws in its group."""
    shape = next(e for e in group if e.tag in (SVG + "path", SVG + "polygon"))
    return shape.get("fill")


def segments(group: ET.Element) -> list[tuple[str, float]]:
    """(colour, width) of the coloured cells drawn in a group, left to right."""
    cells = []
    for polygon in group.iter(SVG + "polygon"):
        if polygon.get("stroke") == "transparent" and polygon.get("fill") not in ("none", "white"):
            xs = [float(p.split(",")[0]) for p in polygon.get("points").split()]
            cells.append((min(xs), polygon.get("fill").upper(), max(xs) - min(xs)))
    return [(colour, width) for _, colour, width in sorted(cells)]


def legend(root: ET.Element) -> dict[str, str]:
    """The graph's legend as {code: name}: a bold code, then the name unless the code is the name."""
    graph = groups(root, "graph")[0]
    entries: dict[str, str] = {}
    code = None
    for text in graph.findall(SVG + "text"):  # the graph's own texts: its label, not the nodes'
        if not (text.text or "").strip():
            continue
        if text.get("font-weight") == "bold":
            code = text.text.strip()
            entries[code] = code
        else:
            entries[code] = text.text.replace("\xa0", " ").strip()
    return entries


def csv_counts(name: str, tree: dtlearn.Tree) -> dict[int, pd.Series]:
    """Each node's class counts, counted by pandas in the CSV from the rows that reach its leaves."""
    frame = pd.read_csv(DATASETS / f"{name}.csv", dtype=str)
    numeric = [a for a, kind in tree.kinds.items() if kind == "numeric"]
    frame[numeric] = frame[numeric].astype(float)
    leaf = pd.Series(tree.apply(frame))
    target = frame[tree.target]
    return {node.id: target[leaf.isin([lf.id for lf in node.leaves()]).to_numpy()].value_counts()
            for node in tree.nodes()}


@functools.lru_cache(maxsize=None)
def every_step(name: str, algorithm: str) -> tuple[dtlearn.Tree, list[ET.Element], list[dtlearn.Tree]]:
    """The tree; its drawings at every step as the Step page draws them (node numbers, the
    step's node in red), then whole for a download, then around its deepest node (folds); and
    the tree each drawing is of."""
    tree = dtlearn.fit(dtlearn.load_dataset(name), algorithm)
    deepest = max(tree.nodes(), key=lambda node: node.depth).id
    drawn = [tree.at_step(k) for k in range(tree.total_steps + 1)] + [tree, tree]
    sources = [drawn[k].to_dot(highlight=tree.steps[k - 1].node_id if k else 0, numbers=True)
               for k in range(tree.total_steps + 1)]
    sources += [tree.to_dot(), tree.to_dot(highlight=deepest, numbers=True,
                                           visible=export.neighbourhood(tree, deepest, depth=1, path_levels=1))]
    return tree, laid_out(sources), drawn


def many_classes() -> tuple[dtlearn.Tree, pd.DataFrame]:
    """26 classes (a-z) of 5 rows each on one number: CART cuts it into 26 pure leaves."""
    frame = pd.DataFrame({"x": [float(i) for i in range(130)], "y": [chr(ord("a") + i // 5) for i in range(130)]})
    return dtlearn.fit(dtlearn.Dataset(frame, "y"), "cart"), frame


# --- WCAG 2.1 contrast, from the recommendation's definitions -----------------------------------

def hex_of(colour: str) -> str:
    """An SVG colour as #rrggbb (`dot` writes a few by name; `none`: unfilled, the page's white)."""
    return {"white": "#ffffff", "none": "#ffffff", "black": "#000000"}.get(colour, colour).lower()


def relative_luminance(colour: str) -> float:
    # WCAG 2.1, "relative luminance": L = 0.2126 R + 0.7152 G + 0.0722 B, each sRGB channel
    # linearised as C/12.92 if C <= 0.03928 else ((C + 0.055) / 1.055) ^ 2.4
    colour = hex_of(colour)
    rgb = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(a: str, b: str) -> float:
    # WCAG 2.1, "contrast ratio": (L1 + 0.05) / (L2 + 0.05), L1 the lighter
    la, lb = relative_luminance(a), relative_luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


# --- the tests ---------------------------------------------------------------------------------

@pytest.mark.parametrize("name, algorithm", TREES)
def test_every_text_of_every_step_is_one_size_of_at_least_14_points(name, algorithm):
    # 14 points are the SVG's viewBox units: a page drawing it at 1 px per unit shows 14 px text
    _, drawings, _ = every_step(name, algorithm)
    sizes = {float(text.get("font-size")) for root in drawings for text in root.iter(SVG + "text")}
    assert min(sizes) >= PROJECTOR_PT
    assert min(sizes) == export.SMALLEST_PT  # the constant a page computes its scale with is the truth


def test_a_regression_tree_writes_size_and_mean_in_the_same_size_and_has_no_bars():
    tree = dtlearn.fit(dtlearn.load_dataset("tips"), "cart", max_depth=2)
    root = laid_out([tree.to_dot(numbers=True)])[0]
    assert {float(t.get("font-size")) for t in root.iter(SVG + "text")} == {export.SMALLEST_PT}
    tips = pd.read_csv(DATASETS / "tips.csv")
    node = next(g for g in groups(root, "node") if node_id(g) == "n0")
    assert f"n = {len(tips)} · mean {round(tips['tip'].mean(), 4):g}" in lines(node)  # pandas: 244 rows
    assert not any(segments(g) for g in groups(root, "node")) and not legend(root)


@pytest.mark.parametrize("name, algorithm", TREES)
def test_each_bar_shares_its_width_by_the_class_counts_in_the_csv(name, algorithm):
    tree, drawings, _ = every_step(name, algorithm)
    counts = csv_counts(name, tree)
    whole = drawings[tree.total_steps]
    totals = set()
    for group in groups(whole, "node"):
        node = int(node_id(group)[1:])
        expected = [(i, counts[node].get(c, 0)) for i, c in enumerate(tree.classes) if counts[node].get(c, 0) > 0]
        bar = segments(group)
        assert [colour for colour, _ in bar] == [export.PALETTE[i].upper() for i, _ in expected], node
        width, n = sum(w for _, w in bar), sum(c for _, c in expected)
        for (_, drawn), (_, count) in zip(bar, expected):
            assert abs(drawn - width * count / n) <= 1, (node, bar, expected)  # whole points: within one
        totals.add(width)
    assert len(totals) == 1  # every node's bar is as long: the widths compare across nodes


@pytest.mark.parametrize("name, algorithm", TREES)
def test_every_count_is_written_beside_its_class_code_and_the_legend_names_each_class_once(name, algorithm):
    tree, drawings, _ = every_step(name, algorithm)
    counts = csv_counts(name, tree)
    whole = drawings[tree.total_steps]
    codes = legend(whole)
    assert sorted(codes.values()) == sorted(tree.classes)  # every class, once
    assert all(len(code) <= 5 for code in codes)
    for group in groups(whole, "node"):
        node = int(node_id(group)[1:])
        text = lines(group)
        size = next(i for i, line in enumerate(text) if line.startswith("n = "))
        assert text[size] == f"n = {counts[node].sum()}"
        written = re.findall(r"(\d+) (\S+?)(?:,|$)", " ".join(text[size + 1:]))
        assert {codes[code]: int(count) for count, code in written} == counts[node].to_dict(), (node, text)
    # every drawing of the tree, each step's, has the legend
    assert all(legend(root) == codes for root in drawings)


def test_the_codes_are_the_names_when_short_and_their_first_letters_otherwise():
    # the examples: No / Yes stay whole; setosa, versicolor, virginica are se, ve, vi
    tennis = laid_out([dtlearn.fit(dtlearn.load_dataset("tennis"), "id3").to_dot()])[0]
    iris = laid_out([dtlearn.fit(dtlearn.load_dataset("iris"), "cart").to_dot()])[0]
    assert legend(tennis) == {"No": "No", "Yes": "Yes"}
    assert legend(iris) == {"se": "setosa", "ve": "versicolor", "vi": "virginica"}


@pytest.mark.parametrize("name, algorithm", [("iris", "c45"), ("iris", "cart"), ("glass", "c45"), ("glass", "cart")])
def test_no_line_of_a_node_is_wider_than_24_characters(name, algorithm):
    tree = dtlearn.fit(dtlearn.load_dataset(name), algorithm)
    sources = [tree.at_step(k).to_dot(highlight=0, numbers=True) for k in range(tree.total_steps + 1)]
    widest = max((line for root in laid_out(sources) for g in groups(root, "node") for line in lines(g)), key=len)
    assert len(widest) <= NODE_LINE, widest


def test_twenty_six_classes_give_narrow_nodes_a_bar_of_26_segments_and_a_legend_of_26():
    tree, frame = many_classes()
    root = laid_out([tree.to_dot(numbers=True)])[0]
    codes = legend(root)
    assert sorted(codes.values()) == [chr(ord("a") + i) for i in range(26)]
    top = next(g for g in groups(root, "node") if node_id(g) == "n0")
    text = lines(top)
    assert all(len(line) <= NODE_LINE for g in groups(root, "node") for line in lines(g))
    written = re.findall(r"(\d+) (\S+?)(?:,|$)", " ".join(text[text.index("n = 130") + 1:]))
    assert {codes[code]: int(count) for count, code in written} == frame["y"].value_counts().to_dict()
    bar = segments(top)
    assert len(bar) == 26 and max(w for _, w in bar) - min(w for _, w in bar) <= 1  # 5 rows each: equal shares


def sklearn_fill(colours: list[str], shares) -> tuple[str, float]:
    """scikit-learn's plot_tree(filled=True) fill for a node of these class shares, and its alpha."""
    from sklearn.tree._export import _BaseTreeExporter

    exporter = _BaseTreeExporter()
    exporter.colors = {"rgb": [[int(c[i:i + 2], 16) for i in (1, 3, 5)] for c in colours], "bounds": None}
    ordered = sorted(shares, reverse=True)
    return exporter.get_color(np.asarray(shares, dtype=float)), (ordered[0] - ordered[1]) / (1 - ordered[1])


def opacity(fill: str, colour: str) -> float:
    """The alpha with which `colour` laid over white gives `fill`, checked alike on every channel."""
    alphas = [(255 - int(fill[i:i + 2], 16)) / (255 - int(colour[i:i + 2], 16))
              for i in (1, 3, 5) if int(colour[i:i + 2], 16) < 200]
    assert max(alphas) - min(alphas) < 0.02, (fill, colour)  # the same hue, only lighter
    return sum(alphas) / len(alphas)


def inks(group: ET.Element) -> set[str]:
    """The colours of a group's texts (a text without `fill` is black)."""
    return {text.get("fill", "black") for text in group.iter(SVG + "text")}


def readable(colours: set[str], fill: str) -> float:
    """The lowest contrast of texts of these colours on a fill."""
    return min(contrast_ratio(ink, fill) for ink in colours)


@pytest.mark.parametrize("name, algorithm", TREES)
def test_fills_are_the_majority_class_shaded_by_purity_and_every_text_stays_readable(name, algorithm):
    tree, drawings, partial = every_step(name, algorithm)
    colours = [export.PALETTE[i % len(export.PALETTE)] for i in range(len(tree.classes))]
    every_ink = set().union(*(inks(group) for root in drawings for group in groups(root, "node")))
    assert len(every_ink) > 1  # black, and the grey of node numbers and undecided nodes
    for root, drawn in zip(drawings, partial):
        counts = csv_counts(name, drawn)  # (C4.5 grows nodes it prunes away later)
        for group in groups(root, "node"):
            fill = hex_of(outline_fill(group))
            assert readable(inks(group), fill) >= 4.5, (node_id(group), fill)  # WCAG 2.1 AA, every step, folds too
            if not node_id(group).startswith("n"):
                continue
            node = counts[int(node_id(group)[1:])]
            shares = [node.get(c, 0) / node.sum() for c in tree.classes]
            expected, purity = sklearn_fill(colours, shares)
            if fill == expected.lower():
                continue
            # lighter than scikit-learn's: only a pure-enough node, capped where text would get hard to read
            majority = colours[int(np.argmax(shares))]
            alpha = opacity(fill, majority.lower())
            assert alpha < purity, (node_id(group), fill, expected)
            stronger = alpha + 0.03
            darker = "#" + "".join(f"{round(stronger * int(majority[i:i + 2], 16) + (1 - stronger) * 255):02x}"
                                   for i in (1, 3, 5))
            # as strong as a tint may be: a shade darker, some text of the drawing would be under 4.5:1
            assert readable(every_ink, darker) < 4.5 or alpha >= MAX_TINT - 0.01, (node_id(group), fill, expected)


def test_every_colour_of_the_palette_keeps_text_readable_when_a_node_is_pure():
    tree, _ = many_classes()  # 26 pure leaves: every colour of the palette, at its strongest tint
    root = laid_out([tree.to_dot(numbers=True)])[0]
    fills = {outline_fill(g) for g in groups(root, "node")}
    assert len(fills) >= len(export.PALETTE)
    assert all(readable(inks(g), outline_fill(g)) >= 4.5 for g in groups(root, "node"))


def test_the_palette_is_okabe_itos_and_the_current_node_stands_apart_from_it():
    assert [c.upper() for c in export.PALETTE[:7]] == OKABE_ITO
    assert export.HIGHLIGHT["color"].upper() not in {c.upper() for c in export.PALETTE}
    # thicker than any other border: an example's blue paths and the plain boxes (1)
    assert float(export.HIGHLIGHT["penwidth"]) > float(export.HIGHLIGHTS["penwidth"]) > 1
