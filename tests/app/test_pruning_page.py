"""AppTest of the Pruning page: every method renders, stepping replays dtlearn's pruning trace,
and the pruned tree can feed the Tree page."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

import dtlearn
from pages import stage

from drawn_trees import drawn, node_count
from tests.app.conftest import unescape


def _trace(data, algorithm, method, **options):
    """dtlearn's own pruning run for the page's defaults (the expected values)."""
    if method in ("reduced_error", "validation_prepruning"):
        train, validation, _ = dtlearn.train_validation_test_split(data, validation=0.3, test=0, seed=0)
        base = dtlearn.fit(train, algorithm)
        return base, dtlearn.prune(base, method, validation=validation)
    base = dtlearn.fit(data, algorithm)
    return base, dtlearn.prune(base, method, **options)


RED = dtlearn.export.HIGHLIGHT["color"]


def red_nodes(tree: str) -> list[int]:
    """The node numbers drawn with the highlight's red border (`App.trees()`: SVG or DOT)."""
    if tree.lstrip().startswith("digraph"):
        return [int(m[1]) for m in re.finditer(rf'^\s*n(\d+) \[label=<.*[ \[]color="{RED}"', tree, re.M)]
    marked = []
    for node in tree.split('class="node"')[1:]:  # each node's group: its outline is its first shape
        outline = re.search(r"<(?:path|polygon) [^>]*>", node)[0]
        if f'stroke="{RED}"' in outline:
            marked.append(int(re.search(r">node (\d+)\b", node)[1]))
    return marked


def heading(app) -> str:
    return next(text for m in app.at.markdown if (text := unescape(m.value)).startswith("**Decision "))


def pruning_page(open_app, dataset, algorithm, method, step, **link):
    app = open_app(dataset=dataset, algo=algorithm, page="pruning", prune_method=method, prune_step=str(step),
                   **link)
    app.assert_clean()
    return app


@pytest.mark.parametrize(("algorithm", "method", "options"), [
    ("c45", "pessimistic", {"confidence": 0.25, "subtree_raising": True}),
    ("cart", "cost_complexity", {"cv": 5, "one_se": True, "seed": 0}),  # the page's defaults
])
def test_the_red_border_is_on_the_node_the_heading_names(open_app, algorithm, method, options):
    # The border was on the next decision's node while the heading spoke of the last one (iris
    # C4.5 pessimistic, decision 1: "node 6 kept", border on node 3; iris CART cost-complexity,
    # decision 1: "node 4 replaced by a leaf", border on node 6). The node the heading names is
    # marked in the tree as that decision left it (a node replaced by a leaf: drawn as a leaf).
    base, pruned = _trace(dtlearn.load_dataset("iris"), algorithm, method, **options)
    trace = pruned.steps[base.total_steps:]
    assert len(trace) >= 3
    app = pruning_page(open_app, "iris", algorithm, method, 0)
    assert heading(app).startswith(f"**Decision 0 of {len(trace)}:**")
    assert red_nodes(app.trees()[0]) == []
    for j in (1, 3, len(trace)):
        app = pruning_page(open_app, "iris", algorithm, method, j)
        named = int(re.match(rf"\*\*Decision {j} of {len(trace)}: node (\d+) ", heading(app))[1])
        assert named == trace[j - 1].node_id
        assert red_nodes(app.trees()[0]) == [named]
        after = pruned.at_step(base.total_steps + j)
        # the tree as that decision left it, as much of it as the stage draws legibly (pages/stage.py)
        assert app.trees()[0] == drawn(stage.fitted(after, named, stage.DEFAULT_BOX, highlight=named).dot)
        node = next(n for n in after.nodes() if n.id == named)
        assert node.is_leaf == (trace[j - 1].action == "prune")  # pruned: a leaf in the drawing
        caption = " ".join(c.value for c in app.at.caption)
        assert f"Red border: node {named}, the node decision {j} is about" in caption


def test_a_cost_complexity_decision_names_g_and_alpha_apart_with_dtlearns_numbers(open_app):
    # The weakest link's g(t) was labelled "alpha = 0.0065" in the numbers' table, under the
    # chosen "α 0.0297", and the g(t) column was off-screen at 1280 px. g(t) of the cut link is
    # the alpha at which that prune happens; the chosen alpha picks the final subtree (Breiman et
    # al. 1984): both are in the decision's box, each with its name; the g(t) table has four columns.
    base, pruned = _trace(dtlearn.load_dataset("iris"), "cart", "cost_complexity", cv=5, one_se=True, seed=0)
    trace = pruned.steps[base.total_steps:]
    alpha = pruned.pruning["alpha"]
    for j in (1, 3):
        step = trace[j - 1]
        g = step.details["alpha"]
        assert g < alpha
        app = pruning_page(open_app, "iris", "cart", "cost_complexity", j)
        box = unescape(app.at.info[0].value)
        assert "**This link's g(t)** = (R(t) − R(T_t)) / (|T_t| − 1) = " in box
        assert f"= **{g:.4f}**, the smallest: node {step.node_id} is pruned once α reaches {g:.4f}." in box
        assert (f"**The chosen α = {alpha:.4f}** (cross-validation, 1-SE rule) prunes every link with g(t) ≤ "
                f"{alpha:.4f}: {pruned.n_leaves} leaves stay." in box)
        numbers, g_frame = app.frames()[:2]
        quantities = dict(zip(numbers["quantity"], numbers["value"]))
        assert "alpha" not in quantities and quantities["g(t) of this link"] == dtlearn.formatting.label(round(g, 4))
        assert list(g_frame.columns) == ["node", "where", "g(t)", "weakest"]
        assert g_frame["node"].tolist() == list(step.details["g"])
        assert g_frame["g(t)"].tolist() == [f"{v:.4f}" for v in step.details["g"].values()]  # all >= 0.001 here
        assert g_frame["weakest"].tolist() == [i == step.node_id for i in step.details["g"]]
        nodes = {n.id: n for n in base.nodes()}
        for i, where in zip(g_frame["node"], g_frame["where"]):  # the last test of the path, not all of it
            assert where == ("root" if not nodes[i].path else
                             nodes[i].path[-1] if len(nodes[i].path) == 1 else f"… {nodes[i].path[-1]}")


def charts(app) -> list[ET.Element]:
    """The page's charts, drawn on the server as SVG (pages/svg_chart.py), parsed."""
    return [ET.fromstring(m.value.split("\n")[1]) for m in app.at.markdown if 'class="dtlearn-chart"' in m.value]


def series(chart: ET.Element) -> dict[str, dict]:
    """Each curve by its legend name: its points (exact, as the page passed them) and its scale."""
    return {g.get("data-name"): {"x": [float(v) for v in g.get("data-x").split()],
                                 "y": [float(v) for v in g.get("data-y").split()],
                                 "right": g.get("data-axis") == "right"}
            for g in chart.iter("g") if g.get("class") == "series"}


def texts(chart: ET.Element, kind: str) -> list[str]:
    return ["".join(t.itertext()) for t in chart.iter("text") if t.get("class") == kind]


def mark(chart: ET.Element) -> tuple[float, str]:
    """The vertical line's place on the x axis and its words."""
    g = next(g for g in chart.iter("g") if g.get("class") == "mark")
    return float(g.get("data-x")), "".join(g.find("text").itertext())


def alpha_chart(app) -> ET.Element:
    return next(c for c in charts(app) if "total leaf impurity R(T_α)" in series(c))


def test_the_alpha_chart_spreads_the_subtrees_by_rank_and_draws_the_1se_line(open_app):
    # Every subtree sat in the chart's left tenth (alpha from 0 to 0.33, the first five below
    # 0.03) and the 1-SE rule's line was missing: the subtrees stand by rank, labelled with their
    # alpha (as rpart's plotcp), and the rule's threshold, from dtlearn, is a named line.
    data = dtlearn.load_dataset("iris")
    base, pruned = _trace(data, "cart", "cost_complexity", cv=5, one_se=True, seed=0)
    alphas = list(dict.fromkeys(dtlearn.cost_complexity_path(base)["alpha"]))
    app = pruning_page(open_app, "iris", "cart", "cost_complexity", 0)
    chart = alpha_chart(app)
    assert texts(chart, "x-tick") == ["0"] + [f"{a:.4f}" for a in alphas[1:]]  # iris: under ten, all labelled
    curves = series(chart)
    assert curves["total leaf impurity R(T_α)"]["x"] == list(range(len(alphas)))  # iris: no two links share an α
    threshold = pruned.pruning["one_se_threshold"]
    table = pruned.pruning["cv_table"]
    best = table.loc[table["chosen"]].iloc[0]
    assert threshold == pytest.approx(best["cv_error"] + best["cv_se"], rel=1e-12)
    name = f"1-SE line: lowest CV error {best['cv_error']:.4f} + its SE {best['cv_se']:.4f} = {threshold:.4f}"
    assert curves[name]["right"] and curves[name]["y"] == [threshold, threshold]
    assert mark(chart) == (alphas.index(pruned.pruning["alpha"]), f"chosen α = {pruned.pruning['alpha']:.4f}")


def test_an_alpha_set_by_hand_is_marked_on_the_subtree_it_keeps(open_app):
    # 0.02 lies between two links' alphas: it keeps the subtree that starts at the lower one
    data = dtlearn.load_dataset("iris")
    base = dtlearn.fit(data, "cart")
    pruned = dtlearn.prune(base, "cost_complexity", alpha=0.02)
    alphas = list(dict.fromkeys(dtlearn.cost_complexity_path(base)["alpha"]))
    kept = max(a for a in alphas if a <= 0.02)
    app = pruning_page(open_app, "iris", "cart", "cost_complexity", 0, prune_alpha_mode="by hand",
                       prune_alpha="0.02")
    chart = alpha_chart(app)
    assert mark(chart) == (alphas.index(kept), "α = 0.0200 keeps this subtree")
    assert not any(name.startswith("1-SE") for name in series(chart))  # no cross-validation, no rule
    assert len(pruned.pruning_steps) == alphas.index(kept)  # iris: one link per subtree


@pytest.mark.parametrize(("dataset", "algorithm", "method"), [
    ("tennis", "id3", "reduced_error"),
    ("iris", "cart", "validation_prepruning"),
    ("iris", "c45", "pessimistic"),
    ("iris", "cart", "cost_complexity"),
    ("tips", "cart", "cost_complexity"),
    ("watermelon_2alpha", "c45", "pessimistic"),
])
def test_every_method_renders_with_its_charts(open_app, dataset, algorithm, method):
    app = open_app(dataset=dataset, algo=algorithm).page("pruning")
    app.set("selectbox", "prune_method", method)
    app.assert_clean()
    assert app.title == "Pruning"
    assert app.trees(), "the tree being pruned is drawn"
    if method != "pessimistic":
        assert charts(app), "the overfitting curve or the alpha chart is drawn"


@pytest.mark.parametrize(("dataset", "error"), [("tips", "cross-validated mean squared error"),
                                              ("iris", "cross-validated error rate")])
def test_the_alpha_chart_plots_dtlearns_cross_validated_error_by_its_name(open_app, dataset, error):
    # The chart plotted 1 - cv_error as "accuracy" for every tree; for tips' regression tree
    # cv_error is a mean squared error, so "accuracy" was wrong. It plots cost_complexity_cv's
    # own column now (5 folds, seed 0: the page's defaults), named by the task.
    app = open_app(dataset=dataset, algo="cart").page("pruning")
    app.set("selectbox", "prune_method", "cost_complexity")
    app.assert_clean()
    chart = alpha_chart(app)
    assert texts(chart, "y2-title") == [error]
    table = dtlearn.cost_complexity_cv(dtlearn.fit(dtlearn.load_dataset(dataset), "cart"), 5, 0)
    curve = series(chart)[error]
    assert curve["right"]
    assert curve["y"] == pytest.approx(table["cv_error"].tolist(), rel=1e-12)


def test_the_overfitting_chart_plots_dtlearns_curve_and_the_pruned_tree(open_app):
    # drawn on the server (no Plotly on this page): the curves are dtlearn's overfitting curve of
    # the tree grown on the training part (the page's defaults: 30 % validation, seed 0)
    data = dtlearn.load_dataset("tennis")
    train, validation, _ = dtlearn.train_validation_test_split(data, validation=0.3, test=0, seed=0)
    base, pruned = _trace(data, "id3", "reduced_error")
    curve = dtlearn.overfitting_curve(base, train, validation)
    app = pruning_page(open_app, "tennis", "id3", "reduced_error", 0)
    (chart,) = charts(app)
    curves = series(chart)
    for column, name in (("train_accuracy", "training accuracy"), ("validation_accuracy", "validation accuracy")):
        assert curves[name]["x"] == curve["nodes"].tolist()
        assert curves[name]["y"] == pytest.approx(curve[column].tolist(), rel=1e-12)
    star = curves["pruned tree (validation)"]
    assert star == {"x": [pruned.n_nodes], "y": [dtlearn.accuracy(pruned, validation)], "right": False}
    assert chart.get("role") == "img" and chart.get("aria-label")  # named for a screen reader


def test_the_cp_and_cv_tables_are_sent_only_once_opened(open_app):
    # closed expanders' tables made the browser load the table grid's script on every first visit
    base = dtlearn.fit(dtlearn.load_dataset("iris"), "cart")
    app = pruning_page(open_app, "iris", "cart", "cost_complexity", 0)
    assert not app.at.dataframe
    app.open("prune_cp_open")
    app.assert_clean()
    (cp,) = app.frames()
    assert cp.equals(dtlearn.rpart_cp_table(base).round(5).reset_index(drop=True))
    app.open("prune_cv_open")
    cv = app.frames()[1]
    expected = dtlearn.cost_complexity_cv(base, 5, 0).round(5)  # the page's defaults: 5 folds, seed 0
    assert cv[["alpha", "cv_error", "cv_se"]].equals(expected[["alpha", "cv_error", "cv_se"]].reset_index(drop=True))


def test_the_validation_accuracies_are_dtlearns_and_short_enough_for_their_column(open_app):
    # "0.750 → 0.750" in one metric was cut to "0.750 → 0.…" at 1280x720 (a screenshot): the
    # pruned tree's accuracy is the value, the grown tree's goes below it.
    app = open_app(dataset="tennis", algo="id3").page("pruning")
    app.set("selectbox", "prune_method", "reduced_error")
    app.assert_clean()
    data = dtlearn.load_dataset("tennis")
    base, pruned = _trace(data, "id3", "reduced_error")
    _, validation, _ = dtlearn.train_validation_test_split(data, validation=0.3, test=0, seed=0)
    metric = next(m for m in app.at.metric if m.label == "Validation accuracy, pruned")
    assert metric.value == f"{dtlearn.accuracy(pruned, validation):.3f}"
    assert metric.delta == f"grown: {dtlearn.accuracy(base, validation):.3f}"


def test_a_tree_over_40_nodes_is_drawn_around_the_decision_or_whole_on_request(open_app):
    # tips' CART tree (435 nodes) was drawn whole in the column, its labels too small to read
    # on a projector: it is drawn around the node the decision is about (before any decision:
    # around the root), as the Tree page draws a large tree, and whole when asked.
    app = open_app(dataset="tips", algo="cart").page("pruning")
    app.set("selectbox", "prune_method", "cost_complexity")
    app.assert_clean()
    data = dtlearn.load_dataset("tips")
    base = dtlearn.fit(data, "cart")
    pruned = dtlearn.prune(base, "cost_complexity", cv=5, one_se=True, seed=0)  # the page's defaults
    assert base.n_nodes > 40
    around = stage.fitted(base, base.root.id, stage.DEFAULT_BOX)  # as much as the back row reads
    assert app.trees()[0] == drawn(around.dot)
    assert around.legible and len(around.visible) < base.n_nodes / 4
    app.set("segmented_control", "tree_view", "the whole tree")
    assert app.trees()[0] == drawn(base.to_dot(numbers=True))
    assert app.at.query_params["tree_view"] in ("the whole tree", ["the whole tree"])  # the link keeps the view
    linked = open_app(dataset="tips", algo="cart", page="pruning", prune_method="cost_complexity",
                      tree_view="the whole tree")
    assert linked.trees()[0] == app.trees()[0]
    app.set("segmented_control", "tree_view", "around this node").click("prune_next")
    app.assert_clean()
    first = pruned.steps[base.total_steps].node_id
    after = pruned.at_step(base.total_steps + 1)
    assert after.n_nodes > 40
    around = stage.fitted(after, first, stage.DEFAULT_BOX, highlight=first)
    assert app.trees()[0] == drawn(around.dot) and around.legible and first in around.visible
    app.click("prune_last")
    app.assert_clean()
    final = pruned.at_step(pruned.total_steps)
    last = pruned.pruning_steps[-1].node_id
    expected = final.to_dot(highlight=last, numbers=True,
                            visible=dtlearn.export.neighbourhood(final, last, 2) if final.n_nodes > 40 else None)
    assert app.trees()[0] == drawn(expected)


def test_both_validation_methods_prune_one_tree_grown_on_the_training_part(monkeypatch, open_app):
    # reduced-error pruning and validation pre-pruning start from the same split and the same
    # tree grown on its training part: switching between them grew it (and drew its overfitting
    # curve) again, 3.5 s on a 20,000-level chain (bench_depth)
    data = dtlearn.load_dataset("glass")
    _, validation, _ = dtlearn.train_validation_test_split(data, validation=0.3, test=0, seed=0)
    expected = {method: f"{dtlearn.accuracy(_trace(data, 'cart', method)[1], validation):.3f}"
                for method in ("reduced_error", "validation_prepruning")}
    app = open_app(dataset="glass", algo="cart").page("pruning")
    app.set("selectbox", "prune_method", "reduced_error")
    app.assert_clean()
    grown, curves = [], []
    fit, curve = dtlearn.fit, dtlearn.overfitting_curve
    monkeypatch.setattr(dtlearn, "fit", lambda *a, **k: grown.append(1) or fit(*a, **k))
    monkeypatch.setattr(dtlearn, "overfitting_curve", lambda *a, **k: curves.append(1) or curve(*a, **k))
    for method in ("validation_prepruning", "reduced_error"):
        app.set("selectbox", "prune_method", method)
        app.assert_clean()
        assert grown == [] and curves == []
        metric = next(m for m in app.at.metric if m.label == "Validation accuracy, pruned")
        assert metric.value == expected[method]


def test_the_1se_rule_chooses_from_the_cross_validation_already_run(monkeypatch, open_app):
    # switching the 1-SE rule ran the whole cross-validation again (five trees grown: 12-28 s on
    # a 20,000-level chain); the table is kept and each setting prunes as dtlearn does
    tree = dtlearn.fit(dtlearn.load_dataset("glass"), "cart")
    pruned = {one_se: dtlearn.prune(tree, "cost_complexity", cv=5, seed=0, one_se=one_se) for one_se in (True, False)}
    expected = {one_se: f"{p.n_nodes} / {p.n_leaves}" for one_se, p in pruned.items()}
    assert expected[True] != expected[False]
    app = open_app(dataset="glass", algo="cart").page("pruning")
    app.assert_clean()
    assert app.at.checkbox(key="prune_one_se").value
    runs = []
    cv = dtlearn.cost_complexity_cv
    monkeypatch.setattr(dtlearn, "cost_complexity_cv", lambda *a, **k: runs.append(1) or cv(*a, **k))
    monkeypatch.setattr(dtlearn.api, "cost_complexity_cv", dtlearn.cost_complexity_cv)
    for one_se in (False, True):
        app.set("checkbox", "prune_one_se", one_se)
        app.assert_clean()
        assert runs == []
        assert next(m for m in app.at.metric if m.label == "Pruned tree: nodes / leaves").value == expected[one_se]


def test_projector_mode_folds_the_method_away_and_says_dtlearns_numbers_in_one_line(open_app):
    app = open_app(dataset="tennis", algo="id3", page="pruning", prune_method="reduced_error", projector="1")
    app.assert_clean()
    assert not app.at.metric and not app.at.title
    assert [e.label for e in app.at.expander][0] == "Method and parameters"
    assert app.at.selectbox(key="prune_method").value == "reduced_error"
    base, pruned = _trace(dtlearn.load_dataset("tennis"), "id3", "reduced_error")
    _, validation, _ = dtlearn.train_validation_test_split(dtlearn.load_dataset("tennis"), validation=0.3, test=0,
                                                           seed=0)
    line = next(text for m in app.at.markdown if (text := unescape(m.value)).startswith("**Reduced-error"))
    assert f"grown **{base.n_nodes} / {base.n_leaves}**" in line
    assert f"pruned **{pruned.n_nodes} / {pruned.n_leaves}**" in line
    assert f"validation accuracy **{dtlearn.accuracy(pruned, validation):.3f}**" in line
    assert app.trees(), "the tree is drawn"


def test_stepping_replays_the_trace_with_its_numbers(open_app):
    app = open_app(dataset="watermelon_2alpha", algo="c45").page("pruning")
    app.set("selectbox", "prune_method", "pessimistic")
    base, pruned = _trace(dtlearn.load_dataset("watermelon_2alpha"), "c45", "pessimistic", confidence=0.25)
    trace = pruned.steps[base.total_steps:]
    assert trace and any(step.action == "prune" for step in trace)
    before = app.trees()[0]
    grown = pruned.at_step(base.total_steps)
    assert before == drawn(stage.fitted(grown, grown.root.id, stage.DEFAULT_BOX).dot)  # no decision yet: none marked
    app.click("prune_next")
    app.assert_clean()
    first = trace[0]
    one = pruned.at_step(base.total_steps + 1)
    assert app.trees()[0] == drawn(stage.fitted(one, first.node_id, stage.DEFAULT_BOX, highlight=first.node_id).dot)
    assert any(first.reason[:40] in text for text in [i.value.replace("\\", "") for i in app.at.info])
    details = app.frames()[0]
    shown = dict(zip(details["quantity"], details["value"]))
    assert shown["N"] == dtlearn.formatting.label(round(first.details["N"], 4))
    assert shown["errors as leaf"] == dtlearn.formatting.label(round(first.details["errors_as_leaf"], 4))
    app.click("prune_last")
    after = app.trees()[0]
    final = pruned.at_step(pruned.total_steps)
    last = stage.fitted(final, trace[-1].node_id, stage.DEFAULT_BOX, highlight=trace[-1].node_id).dot
    assert after == drawn(last), "the last decision shows the pruned tree, its node marked"
    assert node_count(after) < node_count(before)


def test_the_pruned_tree_feeds_the_tree_page(open_app):
    app = open_app(dataset="iris", algo="cart").page("pruning")
    app.set("selectbox", "prune_method", "cost_complexity")
    app.set("radio", "prune_alpha_mode", "by hand")
    app.set("number_input", "prune_alpha", 0.02)
    app.set("toggle", "use_pruned", True)
    app.assert_clean()
    app.page("tree")
    app.assert_clean()
    base = dtlearn.fit(dtlearn.load_dataset("iris"), "cart")
    pruned = dtlearn.prune(base, "cost_complexity", alpha=0.02)
    assert any("pruned tree of the Pruning page" in i.value.replace("\\", "") for i in app.at.info)
    app.set("toggle", "complete", True)
    metrics = {m.label: m.value for m in app.at.metric}
    assert metrics["Nodes"] == str(pruned.n_nodes) and pruned.n_nodes < base.n_nodes


def test_issue_4_settings_travel_in_the_link_and_reach_dtlearn(open_app):
    # Equal priors on credit risk (7 N, 3 Y): each class weighs half, so the root predicts by
    # seed 002's rule N1(node)/N1(root) vs N0(node)/N0(root): 3/3 = 1 vs 7/7 = 1, a tie -> first class;
    # the page must show dtlearn's prior-adjusted distribution (0.5, 0.5) at the root.
    app = open_app(dataset="credit_risk", algo="cart", priors="equal", step="0").page("tree")
    app.assert_clean()
    shares = app.frames()[0]["share"].tolist()
    assert shares == [0.5, 0.5]
    app = open_app(dataset="credit_risk", algo="cart", missing="nonsense")
    assert any("missing = 'nonsense'" in w for w in app.warnings)


@pytest.mark.parametrize(("method", "link", "expected"), [
    ("reduced_error", {"prune_validation": "0.4", "prune_seed": "3"}, {"prune_validation": 0.4, "prune_seed": 3}),
    ("pessimistic", {"prune_cf": "0.1"}, {"prune_cf": 0.1, "prune_raising": True}),
])
def test_a_link_sets_the_pruning_parameters_without_streamlits_warning(open_app, method, link, expected):
    # The widgets were given a default and also received the link's value through the session
    # state, which Streamlit logs as a warning on every such visit; the defaults are now set in
    # the state before the widgets, and the link's values win.
    import logging

    records: list = []
    handler = logging.Handler()
    handler.emit = records.append
    logger = logging.getLogger("streamlit.elements.lib.policies")
    logger.addHandler(handler)
    try:
        app = open_app(dataset="tennis", algo="c45", page="pruning", prune_method=method, **link)
    finally:
        logger.removeHandler(handler)
    app.assert_clean()
    assert {key: app.at.session_state[key] for key in expected} == expected
    assert not [r for r in records if "default value" in r.getMessage()]


def test_surrogates_are_listed_in_the_node_details(open_app):
    app = open_app(dataset="iris", algo="cart", step="1").page("tree")
    app.assert_clean()
    tree = dtlearn.fit(dtlearn.load_dataset("iris"), "cart")
    # rpart's iris root (tests/fixtures/rpart/surrogates_iris.json): petal_width 1.000, sepal_length 0.920 ...
    frames = [f for f in app.frames() if "surrogate" in f.columns]
    assert frames and frames[0]["agree"].tolist() == [round(s.agree, 3) for s in tree.root.surrogates]
    assert frames[0]["agree"].tolist()[:2] == [1.0, 0.92]


def test_the_task_can_be_overridden(open_app):
    # tips' target `tip` has 123 distinct numbers: regression by default; as classes on request
    app = open_app(dataset="tips", algo="cart", step="1").page("step")
    app.assert_clean()
    assert "mean squared error" in " ".join(m.value for m in app.at.markdown).lower()
    app.open("more_settings_open").set("selectbox", "task", "classification")
    app.assert_clean()
    assert dtlearn.fit(dtlearn.load_dataset("tips"), "cart", task="classification", max_depth=1).classes[0] == "1"
    assert "Gini" in " ".join(m.value for m in app.at.markdown)
