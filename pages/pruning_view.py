"""The Pruning page's computations: cached dtlearn calls and the figures (numbers from dtlearn).

A pruning run is described by hashable `PruneChoice`; `pruned()` grows the base tree (on the
training part for the validation methods) and prunes it. Pages only draw what comes back.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

import dtlearn
from dtlearn import shorten
from pages import cached, svg_chart
from pages.cached import pair_algorithm
from pages.computing import computed
from pages.session import Choices, pruning_choice
from pages.wording import md

METHODS = {
    "reduced_error": "Reduced-error (validation set)",
    "validation_prepruning": "Pre-pruning (validation set)",
    "pessimistic": "Pessimistic (C4.5, CF)",
    "cost_complexity": "Cost-complexity (CART, weakest link)",
}
VALIDATION_METHODS = ("reduced_error", "validation_prepruning")
ALPHA_MODES = ("by cross-validation", "by hand")
# The Pruning page's widgets: their ranges, read by the widgets and by the link (address.PAGE_STATE)
LIMITS = {"prune_validation": (0.1, 0.5), "prune_seed": (0, 10_000), "prune_cf": (0.01, 0.5),
          "prune_folds": (2, 10), "prune_cv_seed": (0, 10_000), "prune_alpha": (0.0, 10.0)}
NOTES = {
    "reduced_error": "Quinlan (1987): grow the tree on the training part, then repeatedly "
                     "replace by a leaf the subtree whose removal most improves accuracy on the validation part, "
                     "as long as accuracy does not drop.",
    "validation_prepruning": "Mitchell (1997), 3.7.1: before each split (in growth order), compare validation "
                             "accuracy with the node as a leaf and with the split; split only if it improves "
                             "(a tie keeps the leaf).",
    "pessimistic": "C4.5 / Weka's J48 (Quinlan 1993): bottom-up, compare the estimated errors N·U_CF(E, N) of a "
                   "leaf, of "
                   "the subtree and of its largest branch; no validation set needed.",
    "cost_complexity": "Breiman et al. (1984): prune the weakest link g(t) = (R(t) − R(T_t)) / (|T_t| − 1) "
                       "again and again; every α picks one subtree of the sequence.",
}
ACTION_WORDS = {"prune": "replaced by a leaf", "raise": "replaced by its largest branch", "keep": "kept",
                "collapse": "collapsed (C4.5)"}
# what the drawn tree after a decision shows at the node that decision is about (marked red there)
AFTER_WORDS = {"prune": "a leaf now", "raise": "its largest branch now in its place", "keep": "kept as it was",
               "collapse": "a leaf now (collapsed)"}
# a step's details named as a student reads them: cost-complexity records the cut link's g(t) as the
# alpha at which it is pruned, which is not the alpha chosen for the final tree
QUANTITY_WORDS = {"alpha": "g(t) of this link", "R(T_t)": "R(T_t)", "leaves": "|T_t| (leaves under it)", "U_CF": "U_CF"}


@dataclass(frozen=True)
class PruneChoice:
    method: str
    options: tuple[tuple[str, object], ...]  # validation fraction, seed, confidence, alpha, folds, ...


@dataclass(frozen=True, eq=False)
class PruneResult:
    base: dtlearn.Tree  # the grown tree that was pruned
    pruned: dtlearn.Tree
    train: dtlearn.Dataset
    validation: dtlearn.Dataset | None
    curve: pd.DataFrame | None  # training / validation accuracy against size (validation methods)
    path: pd.DataFrame | None  # the weakest-link sequence (cost-complexity)
    cp_table: pd.DataFrame | None = None  # rpart's CP table (cost-complexity, classification): made once, with the run

    @property
    def trace(self) -> tuple:
        return self.pruned.steps[self.base.total_steps:]


@dataclass(frozen=True, eq=False)
class TrainingPart:
    """What both validation methods start from: the data split, the tree grown on the
    training part and its accuracy against size."""

    train: dtlearn.Dataset
    validation: dtlearn.Dataset
    base: dtlearn.Tree
    curve: pd.DataFrame | None


def _pruned(source: str, target: str, kinds: tuple, algorithm: str, settings: tuple, method: str,
            options: tuple, pair: tuple | None = None) -> PruneResult:
    data = cached.prepared(source, target, kinds)
    if pair is not None and data.attributes == tuple(pair):
        pair = None  # the data's own two attributes: the same pruning as the Pruning page's
    grow_settings = tuple((k, v) for k, v in settings if k != "prune")

    def stored() -> dtlearn.Tree:  # on every row: the tree the other pages show, grown once
        return cached.grown_from(data, source, target, kinds, algorithm, grow_settings)

    def training_part(validation: float, seed: int) -> TrainingPart:  # one for both validation methods
        return computed("Growing the tree on the training part…",
                        ("training part", source, target, kinds, algorithm, grow_settings, validation, seed,
                         pair),
                        lambda: _training_part(data, algorithm, dict(grow_settings), validation, seed, pair))

    def cross_validated(base: dtlearn.Tree, folds: int, seed: int):  # one for both settings of the 1-SE rule
        return computed("Cross-validating…",
                        ("cv table", source, target, kinds, algorithm, grow_settings, folds, seed, pair),
                        lambda: dtlearn.cost_complexity_cv(base, folds, seed))

    return computed("Pruning…", ("pruned", source, target, kinds, algorithm, settings, method, options, pair),
                    lambda: _prune(data, algorithm, dict(grow_settings), method, options, pair,
                                   stored if pair is None else None, training_part, cross_validated))


def _training_part(data: dtlearn.Dataset, algorithm: str, grow_settings: dict, validation: float, seed: int,
                   pair: tuple | None) -> TrainingPart:
    if pair is not None:
        data = data.select(list(pair))
    try:
        train, held, _ = dtlearn.train_validation_test_split(data, validation=validation, test=0, seed=seed)
    except dtlearn.DataError as error:  # a table too small for this share: said with what to do instead
        raise dtlearn.DataError(f"{error} The validation methods grow the tree on the training part and judge "
                                "each prune on the validation part: choose another share, or pessimistic pruning "
                                "(Quinlan 1993), which needs no validation set.") from None
    base = dtlearn.fit(train, algorithm, **grow_settings)
    # accuracy against size: a classification chart (the page shows none for a numeric target)
    curve = None if base.is_regression else dtlearn.overfitting_curve(base, train, held)
    return TrainingPart(train, held, base, curve)


def _prune(data: dtlearn.Dataset, algorithm: str, grow_settings: dict, method: str, options: tuple,
           pair: tuple | None, stored, training_part, cross_validated) -> PruneResult:
    """The pruning asked for; `stored()`, when given, is the tree already grown on all of `data`;
    `training_part(validation, seed)` is the validation methods' start and
    `cross_validated(base, folds, seed)` the cross-validation table (each made once)."""
    opts = dict(options)
    if method in VALIDATION_METHODS:
        part = training_part(opts["validation"], int(opts["seed"]))
        pruned = dtlearn.prune(part.base, method, validation=part.validation)
        return PruneResult(part.base, pruned, part.train, part.validation, part.curve, None)
    if pair is not None:
        data = data.select(list(pair))
    base = stored() if stored is not None else dtlearn.fit(data, algorithm, **grow_settings)
    if method == "pessimistic":
        pruned = dtlearn.prune(base, method, confidence=opts["confidence"], subtree_raising=opts["raising"])
        return PruneResult(base, pruned, data, None, None, None)
    if opts.get("cv"):
        folds, seed = int(opts["folds"]), int(opts["seed"])
        pruned = dtlearn.prune(base, method, cv=folds, one_se=opts["one_se"], seed=seed,
                               cv_table=cross_validated(base, folds, seed))
    else:
        pruned = dtlearn.prune(base, method, alpha=float(opts["alpha"]))
    cp_table = None if base.is_regression else dtlearn.rpart_cp_table(base)  # a deep tree's: seconds, not per rerun
    return PruneResult(base, pruned, data, None, None, dtlearn.cost_complexity_path(base), cp_table)


def pruned(choices: Choices, prune: PruneChoice, pair: tuple | None = None) -> PruneResult:
    """The pruning run for these choices (on two attributes only, for the Partitions page)."""
    c = choices
    algorithm, settings = pair_algorithm(c) if pair else (c.algorithm, c.settings)
    return _pruned(c.source, c.target, c.kinds, algorithm, settings, prune.method, prune.options, pair)


def grow_on_pair(choices: Choices, x: str, y: str) -> dtlearn.Tree:
    """The tree grown on two numeric attributes only (pruned as on the Pruning page when the
    student chose to show the pruned tree)."""
    prune = pruning_choice()
    if prune is not None:
        return pruned(choices, prune, (x, y)).pruned
    c = choices
    algorithm, settings = pair_algorithm(c)
    return cached.grown_on_pair(c.source, c.target, c.kinds, algorithm, settings, x, y)


def number(value: float) -> str:
    """An alpha or g(t) as the page writes it: four decimals, or three significant digits below
    0.001 (a large tree's first links), so that no positive value reads 0.0000."""
    if value == 0:
        return "0"
    return f"{value:.4f}" if abs(value) >= 1e-3 else f"{value:.3g}"


def alpha_lines(step, final: dtlearn.Tree, symbols: bool = True) -> str:
    """A cost-complexity decision told with its two numbers named apart (Breiman et al. 1984): the
    cut link's g(t), the alpha at which that prune happens, and the alpha chosen for the final tree.
    `symbols=False` (a projector) says the two numbers only, in two short lines."""
    d, pruning = step.details, final.pruning
    g, alpha = number(d["alpha"]), number(pruning["alpha"])
    how = "by hand"
    if "cv_table" in pruning:
        how = "cross-validation, " + ("1-SE rule" if pruning.get("one_se") else "lowest error")
    leaves = f"{final.n_leaves} lea{'f' if final.n_leaves == 1 else 'ves'}"
    if not symbols:  # a projector: the two numbers, named apart, in two short lines
        return (f"**This link's g(t) = {g}**, the smallest: node {step.node_id} goes once α reaches it.  \n"
                f"**The chosen α = {alpha}** ({how}) keeps {leaves}.")
    formula = "= (R(t) − R(T_t)) / (|T_t| − 1) " + \
        f"= ({number(d['R(t)'])} − {number(d['R(T_t)'])}) / ({d['leaves']} − 1) ="
    return (f"**This link's g(t)** {md(formula)} **{g}**, the smallest: node {step.node_id} is pruned once α "
            f"reaches {g}.  \n**The chosen α = {alpha}** ({how}) prunes every link with g(t) ≤ {alpha}: "
            f"{leaves} stay.")


def details_table(tree: dtlearn.Tree, step) -> pd.DataFrame | None:
    """The numbers behind one pruning step, one row each (g(t) of every node: its own table)."""
    rows = []
    for key, value in step.details.items():
        if key in ("g", "candidates"):
            continue
        name = QUANTITY_WORDS.get(key, key.replace("_", " "))
        if isinstance(value, dict):
            text = ", ".join(f"{label}: {dtlearn.formatting.label(round(v, 3))}" for label, v in value.items())
            rows.append({"quantity": name, "value": text})
        else:
            value = float(value)  # a tiny g(t) or R(t) (tips: 8.2e-07) is not rounded to 0
            text = dtlearn.formatting.label(round(value, 4)) if value == 0 or abs(value) >= 1e-3 else number(value)
            rows.append({"quantity": name, "value": text})
    return pd.DataFrame(rows) if rows else None


def where(node) -> str:
    """A node's place in few characters: the last test on its path (the node number says the rest)."""
    if node is None or not node.path:
        return "root"
    last = shorten.shown(node.path[-1], shorten.LABEL_CHARS)
    return last if len(node.path) == 1 else f"… {last}"


def g_table(tree: dtlearn.Tree, step) -> pd.DataFrame | None:
    """g(t) of every internal node when this weakest link was cut (cost-complexity)."""
    values = step.details.get("g")
    if not values:
        return None
    nodes = {node.id: node for node in tree.nodes()}
    # g(t) written as the decision's line writes it (a tips link's 3.07e-07 is not 0.0000)
    return pd.DataFrame([{"node": i, "where": where(nodes.get(i)), "g(t)": number(g),
                          "weakest": i == step.node_id} for i, g in values.items()])


def overfitting_chart(curve: pd.DataFrame, pruned_nodes: int, pruned_accuracy: float, ink: str) -> str:
    """Accuracy on the training and validation rows as the tree grows (Mitchell 1997, fig. 3.6),
    and the pruned tree's, as SVG (pages/svg_chart.py)."""
    nodes = curve["nodes"].astype(float).tolist()

    def series(column: str, name: str, colour: str) -> svg_chart.Series:
        values = curve[column].astype(float).tolist()
        return svg_chart.Series(name, tuple(nodes), tuple(values), colour,
                                tips=tuple(f"{n:g} nodes: {name} {v:.3f}" for n, v in zip(nodes, values)))

    star = svg_chart.Series("pruned tree (validation)", (float(pruned_nodes),), (float(pruned_accuracy),),
                            "#2ca02c", marker="star", line=False,
                            tips=(f"pruned tree, {pruned_nodes} nodes: validation accuracy {pruned_accuracy:.3f}",))
    high = max(nodes + [float(pruned_nodes)])
    return svg_chart.line_chart(
        [series("train_accuracy", "training accuracy", "#1f77b4"),
         series("validation_accuracy", "validation accuracy", "#d62728"), star],
        label="Accuracy on the training and validation rows against the size of the tree as it grows",
        x_title="size of the tree (nodes) as it grows", x_range=(0.0, high * 1.04 or 1.0), y_title="accuracy",
        y_high=1.0, height=380, ink=ink)


RISK_COLOUR, CV_COLOUR = "#1f77b4", "#c0262d"  # each axis in its curve's colour: two scales, one chart
CHOSEN_COLOUR, CHOSEN_TEXT = "#2ca02c", "#1a7a1a"


def alpha_chart(path: pd.DataFrame, pruning: dict, kept_alpha: float, regression: bool, ink: str) -> str:
    """Total leaf risk (and, with cross-validation, the CV error that chose alpha) for each subtree
    of the weakest-link sequence, as SVG (pages/svg_chart.py). The subtrees stand evenly spaced,
    by rank, labelled with the alpha at which each starts, as rpart's plotcp draws them: on an
    alpha axis a large tree's first links (alpha near 0) sat in its left tenth, and alpha = 0 has
    no place on a log axis. `kept_alpha`: where the final subtree starts (the chosen alpha
    itself, unless set by hand)."""
    alphas = path["alpha"].drop_duplicates().tolist()  # ascending: each starts one subtree
    rank = {a: i for i, a in enumerate(alphas)}
    risk = path["impurity"].astype(float).tolist()
    series = [svg_chart.Series(
        "total leaf impurity R(T_α)", tuple(float(rank[a]) for a in path["alpha"]), tuple(risk), RISK_COLOUR,
        step=True, tips=tuple(f"α from {number(a)}: R = {r:.4f}, {n} leaves"
                              for a, r, n in zip(path["alpha"], risk, path["n_leaves"])))]
    cv_table = pruning.get("cv_table")
    error = None
    if cv_table is not None:  # dtlearn's cv_error as it is: the error rate, or a regression tree's squared error
        error = "cross-validated mean squared error" if regression else "cross-validated error rate"
        cv, se = cv_table["cv_error"].astype(float).tolist(), cv_table["cv_se"].astype(float).tolist()
        series.append(svg_chart.Series(
            error, tuple(float(rank[a]) for a in cv_table["alpha"]), tuple(cv), CV_COLOUR, right=True,
            error=tuple(se), tips=tuple(f"α from {number(a)}: CV error {c:.4f} ± {s:.4f}"
                                        for a, c, s in zip(cv_table["alpha"], cv, se))))
        best = cv_table.loc[cv_table["chosen"]].iloc[0]
        threshold = float(pruning["one_se_threshold"])
        # named in the legend with its numbers: a label beside the line sat by the other axis's scale
        series.append(svg_chart.Series(
            f"1-SE line: lowest CV error {number(best['cv_error'])} + its SE {number(best['cv_se'])} = "
            f"{number(threshold)}", (-0.5, len(alphas) - 0.5), (threshold, threshold), "#8c1c13", right=True,
            marker="", dash="4 4"))
    chosen = pruning["alpha"]
    words = f"chosen α = {number(chosen)}" if chosen == kept_alpha else f"α = {number(chosen)} keeps this subtree"
    step = max(1, -(-len(alphas) // 10))  # at most about ten labels: 160 subtrees (tips) would overlap
    return svg_chart.line_chart(
        series, label="Total leaf risk" + (f" and {error}" if error else "") + " of each subtree of the "
                      "weakest-link sequence",
        x_title="subtrees of the sequence, each at the α where it starts (evenly spaced)",
        x_range=(-0.5, len(alphas) - 0.5), x_ticks=[(i, number(alphas[i])) for i in range(0, len(alphas), step)],
        y_title="total leaf risk R(T_α)", y_colour=RISK_COLOUR, y2_title=error, y2_colour=CV_COLOUR,
        mark=svg_chart.Mark(rank[kept_alpha], words, CHOSEN_COLOUR, CHOSEN_TEXT), ink=ink)
