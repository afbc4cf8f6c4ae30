"""Four algorithms on the same data, side by side: ID3 (Quinlan 1986), C4.5 (as Weka's J48,
release 8, or as in the 1993 book: one version of it, `COMPARED`), CART (Breiman et al. 1984)
and Zaki & Meira's DECISIONTREE (Zaki & Meira 2014, ch. 19).

For each algorithm that accepts the data: its tree, what it put at the root and why, the
tree's size, its score on the training rows and under cross-validation. For every pair of
algorithms: the first node (pre-order) where their trees disagree. And the root's ranking
table: for each attribute's best candidate, the measure each algorithm ranks by, which shows
why the roots differ (ID3 ranks by gain, C4.5 by gain ratio, CART by Gini gain).

>>> import dtlearn
>>> c = compare_algorithms(dtlearn.load_dataset("tennis"))
>>> c.result("id3").root_test, c.result("cart").root_test
('outlook (one branch per value)', 'outlook in {Overcast}')
>>> c.disagreement("id3", "cart").where
'the root'
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np
import pandas as pd

from . import budget
from .api import cross_validate, fit
from .data import Dataset
from .evaluation import CrossValidation, accuracy, mean_squared_error
from .induction import infer_task, resolve_task
from .measures import RANKED_BY
from .settings import CRITERION_NAMES, OPTIONS, PRESET, make_settings
from .tree import Tree

LEAF = "a leaf"  # the decision of a node that does not split
# The algorithms compared: one version of C4.5 (`with_version` puts the other in its place). Two
# versions would grow two trees that differ only in how a number's cut is picked, each with its
# cross-validation on the shared budget.
COMPARED = ("id3", "c45", "cart", "zaki")


def with_version(algorithm: str) -> tuple[str, ...]:
    """`COMPARED` with `algorithm` in the place of the preset of its family ('c45_1993': the
    1993 book's C4.5 instead of release 8); unchanged for an algorithm compared already."""
    family = PRESET[algorithm].family
    return tuple(algorithm if family and PRESET[a].family == family else a for a in COMPARED)


def decision(node) -> str:
    """What a node does, in words: its test, or 'a leaf' ('not decided yet' in a partial tree)."""
    if node.status == "split":
        if node.test.kind == "multiway":
            return f"{node.test.attribute} (one branch per value)"
        return node.test.describe()
    return LEAF if node.status == "leaf" else "not decided yet"


def decisions(tree: Tree) -> list[tuple[tuple[str, ...], str]]:
    """(path from the root, decision) of every node, in pre-order."""
    return [(node.path, decision(node)) for node in tree.nodes()]


def first_disagreement(first: Tree, second: Tree) -> tuple[str, ...] | None:
    """The path of the first node, in pre-order, where two trees decide differently (another test,
    or a leaf against a split), or None when they are the same tree. Tests are compared as they
    are written: a cut at 2.45 and one at 1.9 disagree. Symmetric: up to the first difference
    both trees have the same nodes, so either tree's pre-order finds the same node."""
    theirs = dict(decisions(second))
    return next((path for path, done in decisions(first) if theirs.get(path) != done), None)


def where(path: tuple[str, ...] | None) -> str | None:
    """A node's path in words: 'the root', or its conditions joined by 'and'."""
    if path is None:
        return None
    return " and ".join(path) or "the root"


def ranked_by(tree: Tree) -> str:
    """The candidate-table column the tree's criterion ranks by (regression: `score`, the
    decrease in mean squared error)."""
    return RANKED_BY.get(tree.settings.criterion, "score")


@dataclass(frozen=True, eq=False)
class AlgorithmResult:
    """One algorithm on the data: its tree, or why it does not apply."""

    algorithm: str
    tree: Tree | None  # None: the algorithm does not apply to this data (see `problem`)
    problem: str | None = None  # dtlearn's message saying why it does not apply
    settings: tuple[tuple[str, object], ...] = ()  # the keyword settings it was grown with
    skipped: tuple[tuple[str, str], ...] = ()  # (setting, why this algorithm rejected it)
    notes: tuple[str, ...] = ()  # settings turned off for this data (or a score refused by the budget), in words
    training_score: float | None = None  # accuracy on the training rows (regression: MSE)
    cv: CrossValidation | None = None  # the fold scores (accuracy, or MSE)
    cv_problem: str | None = None  # why cross-validation could not run (e.g. too few rows)
    too_costly: bool = False  # `problem` is the budget's refusal (budget.TooCostly), not the data's

    @property
    def applies(self) -> bool:
        return self.tree is not None

    @property
    def root_test(self) -> str | None:
        return None if self.tree is None else decision(self.tree.root)

    @property
    def root_reason(self) -> str | None:
        """Why the root was split on its test, or which rule made it a leaf."""
        if self.tree is None:
            return None
        root = self.tree.root
        return self.tree.steps[0].reason if root.status == "split" or not root.leaf_reason else root.leaf_reason

    @property
    def n_nodes(self) -> int | None:
        return None if self.tree is None else self.tree.n_nodes

    @property
    def n_leaves(self) -> int | None:
        return None if self.tree is None else self.tree.n_leaves

    @property
    def depth(self) -> int | None:
        return None if self.tree is None else self.tree.depth

    @property
    def cv_mean(self) -> float | None:
        return None if self.cv is None else self.cv.mean

    @property
    def cv_std(self) -> float | None:
        return None if self.cv is None else self.cv.std

    @property
    def measure(self) -> str | None:
        """The name of what ranks this tree's candidates, in words ('gain ratio', ...)."""
        return None if self.tree is None else CRITERION_NAMES[self.tree.settings.criterion]


@dataclass(frozen=True)
class Disagreement:
    """Where the trees of two algorithms first differ (`path` None: they are the same tree)."""

    first: str
    second: str
    path: tuple[str, ...] | None
    first_decision: str | None = None  # what each tree does at that node
    second_decision: str | None = None

    @property
    def where(self) -> str | None:
        return where(self.path)


@dataclass(frozen=True, eq=False)
class AlgorithmComparison:
    """The algorithms of `COMPARED` (or others) on the same data (see `compare_algorithms`)."""

    data: Dataset
    task: str  # "classification" or "regression": the score is accuracy, or MSE
    k: int
    seed: int
    results: tuple[AlgorithmResult, ...]
    disagreements: tuple[Disagreement, ...]  # every pair of algorithms that grew a tree

    @property
    def score_name(self) -> str:
        return "mean squared error" if self.task == "regression" else "accuracy"

    @property
    def applied(self) -> tuple[AlgorithmResult, ...]:
        return tuple(r for r in self.results if r.applies)

    def result(self, algorithm: str) -> AlgorithmResult:
        for r in self.results:
            if r.algorithm == algorithm:
                return r
        raise ValueError(f"Unknown algorithm '{algorithm}'. Choose one of: "
                         f"{', '.join(r.algorithm for r in self.results)}.")

    def first_differences(self, algorithm: str) -> dict[str, int]:
        """Where `algorithm`'s tree first differs from each other algorithm's: {other algorithm:
        the id of that node in `algorithm`'s tree}; an algorithm that grew the same tree, or none,
        is absent. The node's path is the disagreement's, which both trees share."""
        tree = self.result(algorithm).tree
        if tree is None:
            return {}
        at = {node.path: node.id for node in tree.nodes()}
        found = {}
        for d in self.disagreements:
            if algorithm in (d.first, d.second) and d.path is not None:
                found[d.second if d.first == algorithm else d.first] = at[d.path]
        return found

    def disagreement(self, first: str, second: str) -> Disagreement:
        """Where the trees of two algorithms first differ (either order)."""
        for d in self.disagreements:
            if (d.first, d.second) in ((first, second), (second, first)):
                return d
        raise ValueError(f"No trees of both {first} and {second} to compare on this data.")

    def table(self) -> pd.DataFrame:
        """One row per algorithm that grew a tree: root test, size, training and CV scores."""
        return pd.DataFrame({
            "algorithm": [r.algorithm for r in self.applied],
            "root": [r.root_test for r in self.applied],
            "nodes": [r.n_nodes for r in self.applied],
            "leaves": [r.n_leaves for r in self.applied],
            "depth": [r.depth for r in self.applied],
            "training": [r.training_score for r in self.applied],
            "cv_mean": [np.nan if r.cv is None else r.cv_mean for r in self.applied],
            "cv_std": [np.nan if r.cv is None else r.cv_std for r in self.applied],
        })

    def root_table(self) -> pd.DataFrame:
        """At the root, for each attribute's best candidate (eligible first, then the highest
        score, then table order: as induction ranks them), the measure each algorithm ranks
        by (`dtlearn.measures.RANKED_BY`): one column per algorithm, NaN where an attribute has
        no candidate. Each algorithm's root is its own column's best eligible attribute."""
        attributes = list(self.data.attributes)
        columns = {}
        for r in self.applied:
            budget.check_time()  # each root's table may be made again: a page's time for it
            best = _best_per_attribute(r.tree.steps[0])
            column = ranked_by(r.tree)
            columns[r.algorithm] = [float(best[a][column]) if a in best else np.nan for a in attributes]
        return pd.DataFrame({"attribute": attributes, **columns})


def _best_per_attribute(step) -> dict:
    """Each attribute's best candidate row at a node, as every page lists it first
    (`CandidateTable.best_rows`: eligible first, then score, then table order)."""
    candidates = step.candidates
    if candidates is None or not len(candidates):
        return {}
    rows = candidates.frame(candidates.best_rows())
    rows = rows.sort_values("chosen", ascending=False, kind="stable").drop_duplicates("attribute")  # chosen first
    return {row["attribute"]: row for _, row in rows.iterrows()}


def _accepted(algorithm: str, data: Dataset, options: dict) -> tuple[dict, list[str]]:
    """The options as the algorithm grows them on `data`, and what was turned off, in words.
    For a numeric target, a setting of classes only (Zaki's purity π) that the preset switches
    on is switched off, as the app's sidebar does. Raises ValueError when they do not apply."""
    config = make_settings(algorithm, **options)
    options, notes = dict(options), []
    if (config.task or infer_task(data)) == "regression":
        for option in OPTIONS:
            if option.classes_only and option.name not in options and getattr(config, option.name) is not None:
                options[option.name] = None
                notes.append(f"{option.title} is off: it applies to classes, not to a numeric target.")
    resolve_task(make_settings(algorithm, **options), data)
    return options, notes


def _settings_for(algorithm: str, data: Dataset, settings: dict):
    """(options, notes, skipped): the settings the algorithm accepts on this data, added one at
    a time until none more fits (so `task` may make another setting fit); ValueError when even
    the preset does not apply."""
    chosen: dict = {}
    waiting = dict(settings)
    added = True
    while added and waiting:
        added = False
        for name, value in list(waiting.items()):
            try:
                _accepted(algorithm, data, {**chosen, name: value})
            except ValueError:
                continue
            chosen[name] = waiting.pop(name)
            added = True
    options, notes = _accepted(algorithm, data, chosen)  # the preset's own problem, if any
    skipped = []
    for name, value in waiting.items():
        try:
            _accepted(algorithm, data, {**chosen, name: value})
        except ValueError as error:
            skipped.append((name, str(error)))
    return options, notes, tuple(skipped)


def _run(algorithm: str, data: Dataset, settings: dict, k: int, seed: int, still_to_run: int) -> AlgorithmResult:
    with budget.share(still_to_run):  # a fair share of the comparison's budget each
        return _grown_and_scored(algorithm, data, settings, k, seed)


def _grown_and_scored(algorithm: str, data: Dataset, settings: dict, k: int, seed: int) -> AlgorithmResult:
    try:
        options, notes, skipped = _settings_for(algorithm, data, settings)
        tree = fit(data, algorithm, **options)
    except ValueError as error:  # e.g. ID3 on a numeric target: only CART grows regression trees
        return AlgorithmResult(algorithm, None, str(error), too_costly=isinstance(error, budget.TooCostly))
    scorer = mean_squared_error if tree.is_regression else accuracy
    training = None
    try:
        training = scorer(tree, data)
    except budget.TooCostly as error:  # a large CART tree predicting with surrogates past the budget
        notes.append(f"no training score: {error}")
    cv, cv_problem = None, None
    try:
        cv = cross_validate(data, algorithm, k, seed, **options)
    except ValueError as error:  # too few rows for k folds, or a fold no tree can be grown on
        cv_problem = str(error)
    return AlgorithmResult(algorithm, tree, None, tuple(options.items()), skipped, tuple(notes),
                           training, cv, cv_problem)


def compare_algorithms(data: Dataset, settings: dict | None = None, k: int = 5, seed: int = 0,
                       algorithms: tuple[str, ...] = COMPARED) -> AlgorithmComparison:
    """Grow each of `algorithms` (presets: ID3, C4.5, CART and Zaki's by default) on `data` and
    compare the trees.

    `settings` (keyword settings of `dtlearn.fit`, e.g. {"max_depth": 2}) apply to every
    algorithm that accepts them; one an algorithm rejects is skipped for it and noted in its
    `skipped`. An algorithm that does not apply to the data (ID3 and C4.5 on a numeric target:
    regression trees are CART's) has no tree and says why in `problem`. Cross-validation is
    `dtlearn.cross_validate(data, algorithm, k, seed, **settings)`, stratified k-fold. Under a
    `dtlearn.budget`, each algorithm (its tree and its folds) gets a fair share of the time left
    (`budget.share`): one the budget refuses is reported in `problem`, with `too_costly` set.
    """
    settings = dict(settings or {})
    for algorithm in algorithms:
        make_settings(algorithm)  # an unknown name: its message
    results = tuple(_run(algorithm, data, settings, k, seed, still_to_run=len(algorithms) - i)
                    for i, algorithm in enumerate(algorithms))
    grown = [r for r in results if r.applies]
    task = grown[0].tree.task if grown else infer_task(data)
    pairs = []
    for a, b in combinations(grown, 2):
        path = first_disagreement(a.tree, b.tree)
        done = (None, None) if path is None else tuple(dict(decisions(t.tree))[path] for t in (a, b))
        pairs.append(Disagreement(a.algorithm, b.algorithm, path, *done))
    return AlgorithmComparison(data, task, k, seed, results, tuple(pairs))
