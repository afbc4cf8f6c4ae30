"""Pruning (dtlearn.pruning): C4.5's pessimistic pruning against Weka's J48, cost-complexity
against scikit-learn and rpart, and reduced-error / validation pre-pruning on hand-made
validation sets where every decision is derived by hand.

Peers: tests/fixtures/weka/*.j48_pruned.txt (Weka 3.6.14 `J48 -C 0.25 -M 2`, see its README),
scikit-learn's `cost_complexity_pruning_path` / `ccp_alpha`, and rpart 4.1.19's cp table
(tests/fixtures/rpart/cptable_iris.json).
"""

from __future__ import annotations

import doctest
import json
import math
from pathlib import Path
from statistics import NormalDist

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import datasets
from sklearn.datasets import make_regression
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

import dtlearn
import exact
from dtlearn import api, pruning
from dtlearn.pruning import added_errors, cost_complexity_pruning, j48_estimate, reduced_error_pruning, \
    validation_losses, walk

from weka_tree import canonical_from_dtlearn, parse_weka_tree, render, trees_equal

HERE = Path(__file__).resolve().parent


WEKA = HERE / "fixtures" / "weka"
RPART = HERE / "fixtures" / "rpart"


# --- (a) C4.5's upper confidence bound ------------------------------------------------------------

def upper_bound(e: float, n: float, cf: float = 0.25) -> float:
    """U_CF(E, N), derived here: for E = 0 the exact binomial bound, P(0 errors) = (1 - U)^N = CF,
    so U = 1 - CF^(1/N); for E >= 1 the upper end of the Wilson score interval for the
    continuity-corrected rate f = (E + 1/2) / N at z = Phi^-1(1 - CF):
        U = (f + z^2/2N + z sqrt(f (1 - f) / N + z^2 / 4N^2)) / (1 + z^2 / N);
    once E + 1/2 >= N every case may be an error: U = 1."""
    if e == 0:
        return 1 - cf ** (1 / n)
    if e + 0.5 >= n:
        return 1.0
    z = NormalDist().inv_cdf(1 - cf)
    f = (e + 0.5) / n
    return (f + z * z / (2 * n) + z * math.sqrt(f * (1 - f) / n + z * z / (4 * n * n))) / (1 + z * z / n)


@pytest.mark.parametrize("n", [1, 2, 6, 9, 16, 100, 0.4666666666666667])
@pytest.mark.parametrize("cf", [0.25, 0.1, 0.5])
def test_added_errors_for_no_errors_is_the_binomial_bound(n, cf):
    # E = 0: N * U_CF(0, N) = N (1 - CF^(1/N)) extra errors.
    assert added_errors(n, 0, cf) == pytest.approx(n * (1 - cf ** (1 / n)), rel=1e-12)


@pytest.mark.parametrize(("n", "printed"), [(6, 0.206), (9, 0.143), (1, 0.750)])
def test_quinlans_printed_bounds_for_no_errors(n, printed):
    # Quinlan (1993), C4.5, section 4.2 (the congressional voting example): U_25%(0, 6) = 0.206,
    # U_25%(0, 9) = 0.143, U_25%(0, 1) = 0.750.
    assert round(added_errors(n, 0) / n, 3) == printed


@pytest.mark.parametrize(("e", "n"), [(1, 16), (1, 2), (1, 3), (2, 6), (5, 14), (10, 100), (4, 9), (1.5, 7.9)])
@pytest.mark.parametrize("cf", [0.25, 0.1])
def test_added_errors_is_the_continuity_corrected_normal_bound(e, n, cf):
    assert added_errors(n, e, cf) == pytest.approx(n * upper_bound(e, n, cf) - e, rel=1e-12)


def test_quinlans_voting_example_prunes_the_subtree():
    # Quinlan's subtree: leaves (6, 0), (9, 0), (1, 0) estimate 6(0.206) + 9(0.143) + 1(0.750) = 3.273
    # errors; a single leaf (16, 1) 16 U_25%(1, 16), printed 16 x 0.157 = 2.512 (Quinlan uses the
    # exact binomial; the normal approximation gives 0.1547, within 0.003). Either way: prune.
    subtree = sum(added_errors(n, 0) for n in (6, 9, 1))
    assert round(subtree, 3) == 3.273
    leaf = 1 + added_errors(16, 1)
    assert abs(leaf / 16 - 0.157) < 0.003
    assert leaf < subtree


def test_added_errors_near_n_and_below_one():
    # E + 1/2 >= N: the bound is N, so N - E extra errors; 0 < E < 1: linear between E = 0 and
    # E = 1 (Weka's Stats.addErrs, as documented in pruning.added_errors).
    assert added_errors(5, 4.6) == pytest.approx(0.4, abs=1e-12)
    assert added_errors(3, 3) == 0.0
    base, one = 6 * (1 - 0.25 ** (1 / 6)), 6 * upper_bound(1, 6) - 1
    assert added_errors(6, 0.5) == pytest.approx(base + 0.5 * (one - base), rel=1e-12)


def test_added_errors_docstring_example_runs():
    # STYLE.md: "A docstring's example runs as a doctest." 6 (1 - 0.25^(1/6)) = 1.2378 by hand.
    assert round(6 * (1 - 0.25 ** (1 / 6)), 4) == 1.2378
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(verbose=False)
    for test in finder.find(pruning.added_errors, "added_errors", globs={"added_errors": added_errors}):
        runner.run(test, out=lambda _: None)
    assert runner.failures == 0


# --- (b) pessimistic pruning = Weka's J48 ------------------------------------------------------------

J48_DATASETS = ["tennis", "contact_lenses", "credit_risk", "weather_numeric", "iris", "watermelon_2",
                "watermelon_3", "internship", "watermelon_2alpha"]


def assert_matches_weka(tree, text: str, what: str):
    expected = parse_weka_tree(text)
    got = canonical_from_dtlearn(tree.to_dict())
    ok, diff = trees_equal(expected, got)
    assert ok, f"{what}: {diff}\n--- Weka\n{render(expected)}\n--- dtlearn\n{render(got)}"


@pytest.mark.parametrize("name", J48_DATASETS)
def test_c45_prune_true_is_j48_default(name):
    text = (WEKA / f"{name}.j48_pruned.txt").read_text(encoding="utf-8")
    data = dtlearn.load_dataset(name)
    assert_matches_weka(dtlearn.fit(data, "c45", prune=True), text, f"{name} fit(prune=True)")
    assert_matches_weka(dtlearn.prune(dtlearn.fit(data, "c45"), "pessimistic"), text, f"{name} prune()")


# Weka 3.6.14 `J48 -C 0.1 -M 2` and `J48 -C 0.01 -M 2` on tests/fixtures/weka/arff/iris.arff (run
# for this test as in tests/fixtures/weka/README.md; both print this tree): a lower CF prunes
# petal_length > 4.9's subtree, which the default CF = 0.25 keeps.
J48_IRIS_LOW_CF = """
petal_width <= 0.6: setosa (50.0)
petal_width > 0.6
|   petal_width <= 1.7
|   |   petal_length <= 4.9: versicolor (48.0/1.0)
|   |   petal_length > 4.9: virginica (6.0/2.0)
|   petal_width > 1.7: virginica (46.0/1.0)
"""


@pytest.mark.parametrize("confidence", [0.1, 0.01])
def test_confidence_matches_j48_on_iris(confidence):
    data = dtlearn.load_dataset("iris")
    assert_matches_weka(dtlearn.fit(data, "c45", prune=True, confidence=confidence), J48_IRIS_LOW_CF,
                        f"iris -C {confidence}")
    default = dtlearn.fit(data, "c45", prune=True)
    assert default.n_leaves == 5  # tests/fixtures/weka/iris.j48_pruned.txt: 5 leaves


def test_watermelon_2alpha_pruning_decisions_by_hand():
    # The one stored case where J48's pruning changes the tree. Node 纹理 = 清晰 holds (bad, good)
    # weights (22/15, 97/15), N = 119/15, E = 22/15; its leaves (by hand, test_missing_values):
    # 硬挺 (7/15, 0), 稍蜷 (1, 22/15), 蜷缩 (0, 5). Estimated errors E + N U - E:
    def estimate(e, n):
        return n * upper_bound(e, n)

    leaf = estimate(22 / 15, 119 / 15)
    subtree = estimate(0, 7 / 15) + estimate(1, 37 / 15) + estimate(0, 5)
    assert leaf < subtree  # -> prune (J48 compares leaf <= subtree + 0.1)
    # 纹理 = 稍糊: (13/3, 4/3), leaves 沉闷 (3, 0), 浊响 (1, 4/3), 清脆 (1/3, 0)
    leaf2 = estimate(4 / 3, 17 / 3)
    subtree2 = estimate(0, 3) + estimate(1, 7 / 3) + estimate(0, 1 / 3)
    assert leaf2 < subtree2
    tree = dtlearn.prune(dtlearn.fit(dtlearn.load_dataset("watermelon_2alpha"), "c45"), "pessimistic")
    steps = {s.node_id: s for s in tree.pruning_steps}
    clear = next(c for c in tree.root.children if c.branch == "= 清晰")
    blurry = next(c for c in tree.root.children if c.branch == "= 稍糊")
    for node, (n, e, as_leaf, below) in ((clear, (119 / 15, 22 / 15, leaf, subtree)),
                                          (blurry, (17 / 3, 4 / 3, leaf2, subtree2))):
        step = steps[node.id]
        assert step.action == "prune" and node.is_leaf
        assert step.details["N"] == pytest.approx(n, rel=1e-12)
        assert step.details["E"] == pytest.approx(e, rel=1e-12)
        assert step.details["U_CF"] == pytest.approx(upper_bound(e, n), rel=1e-12)
        assert step.details["errors_as_leaf"] == pytest.approx(as_leaf, rel=1e-12)
        assert step.details["errors_of_subtree"] == pytest.approx(below, rel=1e-12)
    assert steps[0].action == "keep"


# A table on which J48 raises a subtree (found with a seeded random search; no stored dataset
# does). a, b, c and y column by column, 34 rows.
RAISE_TABLE = {
    "a": "qpqqqrpqppprqrqrpprqprqqpqrpprqpqr",
    "b": "tsstsstsssttstsssstssssttttttssttt",
    "c": "wuuvvvvuvuwuuwuvuuvwuvvuvvvvvuwvuv",
    "y": "NNNNNYYNYYYNNNNYYYYYYYYNYNNYYNYNNN",
}
# Weka 3.6.14 on that table (nominal values in sorted order, as in tests/fixtures/weka/README.md),
# run for this test with `java -cp /usr/share/java/weka.jar weka.classifiers.trees.J48 <options>
# -t raise.arff -no-cv`; the tree part of the output, verbatim.
J48_RAISE = {
    "-C 0.25 -M 2": """
a = p: Y (12.0/2.0)
a = q: N (13.0/3.0)
a = r
|   b = s: Y (4.0/1.0)
|   b = t: N (5.0/1.0)
""",
    "-S -C 0.25 -M 2": """
a = p: Y (12.0/2.0)
a = q: N (13.0/3.0)
a = r
|   c = u: N (2.0)
|   c = v
|   |   b = s: Y (3.0)
|   |   b = t: N (3.0/1.0)
|   c = w: N (1.0)
""",
}


def raise_table() -> dtlearn.Dataset:
    return dtlearn.Dataset(pd.DataFrame({k: list(v) for k, v in RAISE_TABLE.items()}), "y")


def test_subtree_raising_matches_j48():
    # J48 (default: subtree raising) replaces a = r's subtree on c by its largest branch, c = v's
    # subtree on b, with all 9 rows of a = r re-sorted into it: (4/1) and (5/1). With -S
    # (subtree_raising=False) the c subtree stays.
    data = raise_table()
    raised = dtlearn.fit(data, "c45", prune=True)
    assert "raise" in [s.action for s in raised.pruning_steps]
    assert_matches_weka(raised, J48_RAISE["-C 0.25 -M 2"], "raise")
    assert_matches_weka(dtlearn.fit(data, "c45", prune=True, subtree_raising=False), J48_RAISE["-S -C 0.25 -M 2"],
                        "no raise")


# --- (c) cost-complexity pruning = scikit-learn and rpart ------------------------------------------

def sklearn_case(name):
    bunch = getattr(datasets, f"load_{name}")()
    features = pd.DataFrame(bunch.data, columns=[str(c) for c in bunch.feature_names])
    labels = np.asarray(bunch.target_names)[bunch.target].astype(str)
    return bunch.data, bunch.target, features, dtlearn.Dataset(features.assign(cls=labels), "cls")


@pytest.mark.parametrize("criterion", ["gini", "entropy"])
@pytest.mark.parametrize("name", ["iris", "wine"])
def test_cost_complexity_path_and_prunes_match_sklearn(name, criterion):
    # On these the grown trees equal scikit-learn's (tests/test_sklearn_oracle.py), so the
    # weakest-link sequences must too: every alpha and total leaf impurity, and for each alpha
    # of the path the pruned tree's leaves (ccp_alpha = alpha).
    X, y, features, data = sklearn_case(name)
    tree = dtlearn.fit(data, "cart", criterion=criterion)
    path = dtlearn.cost_complexity_path(tree)
    reference = DecisionTreeClassifier(criterion=criterion, random_state=0).cost_complexity_pruning_path(X, y)
    np.testing.assert_allclose(path["alpha"], reference.ccp_alphas, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(path["impurity"], reference.impurities, rtol=1e-9, atol=1e-12)
    for alpha in reference.ccp_alphas:
        ours = dtlearn.prune(tree, "cost_complexity", alpha=float(alpha))
        theirs = DecisionTreeClassifier(criterion=criterion, random_state=0, ccp_alpha=alpha).fit(X, y)
        assert exact.partition_of(ours.apply(features)) == exact.partition_of(theirs.apply(X)), alpha
        assert ours.n_leaves == theirs.get_n_leaves()


def test_regression_cost_complexity_path_matches_sklearn():
    X, y = make_regression(n_samples=60, n_features=3, noise=10.0, random_state=0)
    features = pd.DataFrame(X, columns=["a", "b", "c"])
    tree = dtlearn.fit(dtlearn.Dataset(features.assign(t=y), "t"), "cart")
    path = dtlearn.cost_complexity_path(tree)
    reference = DecisionTreeRegressor(random_state=0).cost_complexity_pruning_path(X, y)
    np.testing.assert_allclose(path["alpha"], reference.ccp_alphas, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(path["impurity"], reference.impurities, rtol=1e-9, atol=1e-9)


def test_rpart_cp_table_on_iris():
    # rpart(species ~ ., cp = 0, minsplit = 2, minbucket = 1): CP, nsplit, rel error. rpart
    # prunes the nodes 12, 13 and 26, whose g tie at 0.01, together (nsplit 3 -> 6).
    expected = json.loads((RPART / "cptable_iris.json").read_text(encoding="utf-8"))["cptable"]
    table = dtlearn.rpart_cp_table(dtlearn.fit(dtlearn.load_dataset("iris"), "cart"))
    assert len(table) == len(expected)
    for (_, row), ref in zip(table.iterrows(), expected):
        assert row["CP"] == pytest.approx(ref["CP"], abs=1e-12)
        assert row["nsplit"] == ref["nsplit"]
        assert row["rel error"] == pytest.approx(ref["rel_error"], abs=1e-12)


def _links_by_definition(tree, sequence, risk):
    """Checks `sequence` link by link against g(t) recomputed from its definition on the tree
    pruned so far (Breiman et al. 1984, 3.3): R(T_t) the sum of R over the current leaves below
    t, exactly (fractions of the same R(t) floats), without the compiled loop's running sums."""
    from fractions import Fraction

    total = cost_complexity_pruning._mass(tree, tree.root)
    risk_of = {node.id: Fraction(cost_complexity_pruning._risk(tree, node, total, risk)) for node in tree.root.walk()}
    order = {step.node_id: step.number for step in tree.steps}
    collapsed = set()

    def current(node):  # the current leaves below node, iteratively
        stack, found = [node], []
        while stack:
            n = stack.pop()
            if n.is_leaf or n.id in collapsed:
                found.append(n)
            else:
                stack.extend(n.children)
        return found

    def internal_nodes():  # of the tree pruned so far: below no collapsed node
        stack, found = [tree.root], []
        while stack:
            n = stack.pop()
            if not n.is_leaf and n.id not in collapsed:
                found.append(n)
                stack.extend(n.children)
        return found

    for link in sequence:
        internal = internal_nodes()
        g = {}
        for n in internal:
            below = current(n)
            g[n.id] = (risk_of[n.id] - sum(risk_of[b.id] for b in below)) / (len(below) - 1)
        smallest = min(g.values())
        assert float(g[link.node.id]) == pytest.approx(float(smallest), abs=1e-12)  # a weakest link
        ties = [i for i in g if abs(g[i] - smallest) <= Fraction(1, 10**12)]
        if all(abs(g[i] - g[link.node.id]) > Fraction(1, 10**15) for i in ties if i != link.node.id):
            assert link.node.id == min(ties, key=order.get)  # clear ties: the first grown
        assert link.alpha == pytest.approx(max(float(g[link.node.id]), 0.0), abs=1e-12)
        below = current(link.node)
        assert link.leaves == len(below)
        assert link.risk_node == pytest.approx(float(risk_of[link.node.id]), abs=1e-12)
        assert link.risk_subtree == pytest.approx(float(sum(risk_of[b.id] for b in below)), abs=1e-12)
        listed = list(link.g)
        assert len(listed) == min(len(g), pruning.SHOWN) and listed[0] == link.node.id
        assert all(float(g[i]) == pytest.approx(link.g[i], abs=1e-12) for i in listed)
        shown = list(link.g.values())
        assert all(a <= b + 1e-12 for a, b in zip(shown, shown[1:]))  # ascending
        not_shown = [float(v) for i, v in g.items() if i not in link.g]
        assert max(shown) <= min(not_shown, default=math.inf) + 1e-12  # the smallest are the ones listed
        collapsed.add(link.node.id)
    assert tree.root.id in collapsed or tree.root.is_leaf


@pytest.mark.parametrize("name, algorithm, risk", [("iris", "cart", "impurity"), ("iris", "cart", "error"),
                                                   ("glass", "cart", "error"), ("glass", "id3", "impurity"),
                                                   ("tips", "cart", "impurity"), ("credit_risk", "c45", "error")])
def test_the_compiled_weakest_link_sequence_follows_the_definition(name, algorithm, risk):
    # kernels.weakest_links keeps R(T_t) and |leaves(T_t)| as running sums over the ancestors of
    # each prune; here every link is recomputed from the tree pruned so far. iris with the error
    # risk has rpart's tie at g = 0.01 (nodes 12, 13, 26; test_rpart_cp_table_on_iris).
    tree = dtlearn.fit(dtlearn.load_dataset(name), algorithm, prune=False)
    sequence = pruning.weakest_links(tree, risk)
    assert sequence
    _links_by_definition(tree, sequence, risk)


def _drawn_tree(draw, shape: str):
    """A tree in pre-order as `kernels.weakest_links` reads it: each node's own risk R(t)
    (eighths: many ties in g), parent, subtree end, leaf flag and growth order (repeated: ties
    left to the position, as nodes without a growth step of their own have). `shape`: "bushy"
    (up to three children, random), "caterpillar" (a deep chain: each split keeps one leaf and
    one split child) or "mixed" (a bushy tree with a caterpillar hanging from it)."""
    parent, children = [-1], [[]]
    frontier, size = [0], draw(st.integers(3, 120))
    while frontier and len(parent) < size:
        node = frontier.pop(0 if shape == "bushy" else -1)
        chain = shape == "caterpillar" or (shape == "mixed" and node > size // 3)
        width = 2 if chain else draw(st.integers(0, 3))
        if width < 2 and node != 0:
            continue
        kids = []
        for _ in range(max(width, 2)):
            parent.append(node)
            children.append([])
            kids.append(len(parent) - 1)
        children[node] = kids
        frontier += kids[-1:] if chain else kids
    n = len(parent)
    preorder, stack = [], [0]  # positions in pre-order, as the library numbers them
    while stack:
        node = stack.pop()
        preorder.append(node)
        stack.extend(reversed(children[node]))
    position = {node: i for i, node in enumerate(preorder)}
    parent_at = np.array([position[parent[node]] if parent[node] >= 0 else -1 for node in preorder], dtype=np.int64)
    end = np.arange(n)
    for i in range(n - 1, -1, -1):
        kids = children[preorder[i]]
        if kids:
            end[i] = end[position[kids[-1]]]
    leaf = np.array([not children[node] for node in preorder])
    own = np.array(draw(st.lists(st.integers(0, 16), min_size=n, max_size=n)), dtype=float) / 8
    order = np.array(draw(st.lists(st.integers(0, n // 3), min_size=n, max_size=n)), dtype=np.int64)
    return own, parent_at, end, leaf, order


def _links_by_reference(own, parent, end, leaf, order, shown):
    """The weakest-link sequence the slow, plain way: every link, g(t) of every internal node of
    the tree pruned so far, sorted by (g, growth order, position)."""
    n = len(own)
    below, leaves = np.where(leaf, own, 0.0), leaf.astype(np.int64)
    for i in range(n - 1, 0, -1):  # children after their parents in pre-order
        below[parent[i]] += below[i]
        leaves[parent[i]] += leaves[i]
    internal = ~leaf
    sequence = []
    while internal[0]:
        g = {j: (own[j] - below[j]) / (leaves[j] - 1) for j in np.flatnonzero(internal)}
        ranked = sorted(g, key=lambda j: (g[j], order[j], j))[:shown]
        i = ranked[0]
        sequence.append((i, below[i], leaves[i], ranked, [g[j] for j in ranked]))
        a = parent[i]
        while a >= 0:
            below[a] += own[i] - below[i]
            leaves[a] -= leaves[i] - 1
            a = parent[a]
        below[i], leaves[i] = own[i], 1
        internal[i:end[i] + 1] = False
    return sequence


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_the_compiled_weakest_links_are_the_plain_sequence_exactly(data):
    # kernels.weakest_links against the sequence worked out the plain way on drawn trees (bushy,
    # a deep caterpillar, both): the same node, R(T_t), leaves and listed (g, node) at every
    # link, bit for bit (g ties between nodes are decided on these numbers), called in batches
    # of drawn sizes as pruning.weakest_links calls it between the time budget's checks.
    from dtlearn import kernels
    own, parent, end, leaf, order = _drawn_tree(data.draw, data.draw(st.sampled_from(["bushy", "caterpillar",
                                                                                       "mixed"])))
    shown = data.draw(st.sampled_from([1, 3, pruning.SHOWN]))
    expected = _links_by_reference(own, parent, end, leaf, order, shown)
    below, leaves = np.where(leaf, own, 0.0), leaf.astype(np.int64)
    for i in range(len(own) - 1, 0, -1):
        below[parent[i]] += below[i]
        leaves[parent[i]] += leaves[i]
    internal = ~leaf
    links = int(internal.sum())
    picked, risk_subtree, n_leaves = np.empty(links, np.int64), np.empty(links), np.empty(links, np.int64)
    listed, listed_g = np.empty((links, shown), np.int64), np.empty((links, shown))
    done = 0
    subtrees = kernels.Subtrees(own, below, leaves, end, parent, order, internal)
    sequence = kernels.Links(picked, risk_subtree, n_leaves, listed, listed_g)
    while internal[0]:
        done = kernels.weakest_links(subtrees, data.draw(st.integers(1, 9)), sequence, done)
    assert done == len(expected)
    for k, (i, subtree_risk, subtree_leaves, ranked, g) in enumerate(expected):
        assert (picked[k], n_leaves[k]) == (i, subtree_leaves)
        assert risk_subtree[k].tobytes() == np.float64(subtree_risk).tobytes()
        assert list(listed[k][listed[k] >= 0]) == ranked
        assert listed_g[k, :len(g)].tobytes() == np.array(g, dtype=float).tobytes()


# --- (d) reduced-error pruning and validation pre-pruning, by hand --------------------------------------
#
# The ID3 tree of PlayTennis (Mitchell 1997, Fig. 3.1; tests/test_induction.py): node 0 outlook
# (training majority Yes), node 1 = Sunny -> humidity (High: No, Normal: Yes; majority No 3:2),
# node 2 = Overcast: Yes, node 3 = Rain -> wind (Weak: Yes, Strong: No; majority Yes 3:2).
# Node 1 is decided at step 2, node 3 at step 6 (depth-first).

def validation(*rows) -> pd.DataFrame:
    return pd.DataFrame([dict(outlook=o, temperature="Mild", humidity=h, wind=w, play=p) for o, h, w, p in rows])


@pytest.fixture(scope="module")
def tennis_tree():
    tree = dtlearn.fit(dtlearn.load_dataset("tennis"), "id3")
    by_path = {n.path: n.id for n in tree.nodes()}
    assert by_path[("outlook = Sunny",)] == 1 and by_path[("outlook = Rain",)] == 3
    return tree


# v1-v7, and by hand what the full tree / each node as a leaf predicts:
SEVEN = validation(
    ("Sunny", "High", "Weak", "No"),       # tree No ok;  node 1 leaf No ok;  root leaf Yes wrong
    ("Sunny", "Normal", "Weak", "No"),     # tree Yes wrong; node 1 leaf No ok;  root wrong
    ("Sunny", "Normal", "Strong", "No"),   # tree Yes wrong; node 1 leaf No ok;  root wrong
    ("Rain", "High", "Weak", "Yes"),       # tree Yes ok;  node 3 leaf Yes ok;  root ok
    ("Rain", "High", "Strong", "Yes"),     # tree No wrong; node 3 leaf Yes ok;  root ok
    ("Overcast", "High", "Weak", "No"),    # tree Yes wrong (always)
    ("Rain", "Normal", "Strong", "No"),    # tree No ok;  node 3 leaf Yes wrong; root wrong
)


def test_reduced_error_pruning_by_hand(tennis_tree):
    # Step 1: node 1 gains 2 (subtree 2 errors, leaf 0), node 3 gains 0 (1 vs 1), the root -1
    # (4 vs 5): prune node 1, accuracy 3/7 -> 5/7. Step 2: node 3 gains 0, the root 2 - 5 = -3:
    # prune node 3 (accuracy does not drop), 5/7 -> 5/7. Step 3: the root alone would go from 2
    # to 5 errors: stop.
    pruned = dtlearn.prune(tennis_tree, "reduced_error", validation=SEVEN)
    steps = pruned.pruning_steps
    assert [(s.node_id, s.action) for s in steps] == [(1, "prune"), (3, "prune")]
    first, second = (s.details for s in steps)
    assert first["candidates"] == {0: -1.0, 1: 2.0, 3: 0.0}
    assert (first["errors_of_subtree"], first["errors_as_leaf"]) == (2.0, 0.0)
    assert first["accuracy_before"] == pytest.approx(3 / 7) and first["accuracy_after"] == pytest.approx(5 / 7)
    assert first["validation_counts"] == {"No": 3.0, "Yes": 0.0}
    assert second["candidates"] == {0: -3.0, 3: 0.0}
    assert second["accuracy_before"] == pytest.approx(5 / 7) and second["accuracy_after"] == pytest.approx(5 / 7)
    assert {leaf.path: leaf.prediction for leaf in pruned.root.leaves()} == {
        ("outlook = Sunny",): "No", ("outlook = Overcast",): "Yes", ("outlook = Rain",): "Yes"}
    assert dtlearn.accuracy(pruned, dtlearn.Dataset(SEVEN, "play")) == pytest.approx(5 / 7)


def test_reduced_error_ties_go_to_the_first_node_in_growth_order(tennis_tree):
    # v1 (Sunny, Normal, No): node 1 gains 1; v2 (Rain, High, Strong, Yes): node 3 gains 1;
    # v3 (Sunny, High, No): right everywhere but as a root leaf. Root: subtree 2 errors, leaf 2
    # (v1, v3): gain 0. Nodes 1 and 3 tie on gain and size (3 nodes each): node 1 (step 2) first.
    # Then node 3 gains 1 (v2) and the root 1 - 2 = -1: prune node 3; then the root alone would go
    # from 0 to 2 errors: stop.
    rows = validation(("Sunny", "Normal", "Weak", "No"), ("Rain", "High", "Strong", "Yes"),
                      ("Sunny", "High", "Weak", "No"))
    pruned = dtlearn.prune(tennis_tree, "reduced_error", validation=rows)
    assert [s.node_id for s in pruned.pruning_steps] == [1, 3]
    assert pruned.pruning_steps[0].details["candidates"] == {0: 0.0, 1: 1.0, 3: 1.0}
    assert pruned.pruning_steps[1].details["candidates"] == {0: -1.0, 3: 1.0}
    assert pruned.n_leaves == 3


def test_reduced_error_tie_prefers_the_prune_removing_more_nodes(tennis_tree):
    # Without v3 the root also gains 1 (2 subtree errors, 1 as a leaf: v1): three-way tie; the root
    # removes the most nodes (8), so the whole tree becomes one leaf at once.
    rows = validation(("Sunny", "Normal", "Weak", "No"), ("Rain", "High", "Strong", "Yes"))
    pruned = dtlearn.prune(tennis_tree, "reduced_error", validation=rows)
    assert [s.node_id for s in pruned.pruning_steps] == [0]
    assert pruned.pruning_steps[0].details["candidates"] == {0: 1.0, 1: 1.0, 3: 1.0}
    assert pruned.root.is_leaf and pruned.root.prediction == "Yes"


def test_validation_prepruning_by_hand(tennis_tree):
    # In growth order (seed 000, 3.1), with the children as leaves:
    #  root: as a leaf (Yes) 5 errors (v1, v2, v3, v6, v7); split (Sunny No, Overcast Yes, Rain Yes):
    #        2 (v6, v7) -> keep; accuracy 2/7 -> 5/7.
    #  node 1: as a leaf (No) 0 errors; split (High No, Normal Yes) 2 (v2, v3) -> refuse; 5/7 -> 3/7.
    #  node 3: as a leaf (Yes) 1 (v7); split (Weak Yes, Strong No) 1 (v5): a tie is refused; 5/7 -> 5/7.
    pruned = dtlearn.prune(tennis_tree, "validation_prepruning", validation=SEVEN)
    steps = pruned.pruning_steps
    assert [(s.node_id, s.action) for s in steps] == [(0, "keep"), (1, "prune"), (3, "prune")]
    expected = [(5, 2, 2 / 7, 5 / 7), (0, 2, 5 / 7, 3 / 7), (1, 1, 5 / 7, 5 / 7)]
    for step, (as_leaf, split, before, after) in zip(steps, expected):
        assert step.details["errors_as_leaf"] == as_leaf
        assert step.details["errors_with_split"] == split
        assert step.details["accuracy_without_split"] == pytest.approx(before)
        assert step.details["accuracy_with_split"] == pytest.approx(after)
    assert "a tie also keeps the leaf" in steps[2].reason
    assert pruned.n_leaves == 3


def test_refused_split_is_never_grown(tennis_tree):
    # Overcast (Yes) and (Rain, High, Weak, Yes): the root as a leaf makes 0 errors, the split 0:
    # refused; nodes 1 and 3 lie under it and get no step at all.
    rows = validation(("Overcast", "High", "Weak", "Yes"), ("Rain", "High", "Weak", "Yes"))
    pruned = dtlearn.prune(tennis_tree, "validation_prepruning", validation=rows)
    assert [(s.node_id, s.action) for s in pruned.pruning_steps] == [(0, "prune")]
    assert pruned.root.is_leaf


# --- (e) the trace replays -----------------------------------------------------------------------

def pruned_trees(tennis_tree):
    iris = dtlearn.load_dataset("iris")
    yield dtlearn.prune(tennis_tree, "reduced_error", validation=SEVEN)
    yield dtlearn.prune(tennis_tree, "validation_prepruning", validation=SEVEN)
    yield dtlearn.fit(raise_table(), "c45", prune=True)  # collapse, prune, keep and raise steps
    yield dtlearn.prune(dtlearn.fit(dtlearn.load_dataset("watermelon_2alpha"), "c45"), "pessimistic")
    yield dtlearn.prune(dtlearn.fit(iris, "cart"), "cost_complexity", alpha=0.01)


def test_pruning_trace_replays_and_shrinks(tennis_tree):
    for pruned in pruned_trees(tennis_tree):
        assert pruned.total_steps == len(pruned.steps) > pruned.growth_steps
        sizes = [pruned.at_step(k).n_nodes for k in range(pruned.growth_steps, pruned.total_steps + 1)]
        assert all(b <= a for a, b in zip(sizes, sizes[1:])), sizes
        assert sizes[-1] < sizes[0]
        assert pruned.at_step(pruned.total_steps).to_dict() == pruned.to_dict()
        # the grown tree is the replay of the growth steps
        assert sizes[0] == pruned.at_step(pruned.growth_steps).n_nodes


# --- (f) cross-validated alpha and bad options --------------------------------------------------------

def test_cost_complexity_cv_is_reproducible_and_one_se_is_not_bigger():
    tree = dtlearn.fit(dtlearn.load_dataset("iris"), "cart")
    for seed in (0, 1, 2):
        first = dtlearn.cost_complexity_cv(tree, 5, seed=seed)
        again = dtlearn.cost_complexity_cv(tree, 5, seed=seed)
        pd.testing.assert_frame_equal(first, again)
        assert first["chosen"].sum() == 1 and first["chosen_1se"].sum() == 1
        best = first.loc[first["chosen"]].iloc[0]
        one_se = first.loc[first["chosen_1se"]].iloc[0]
        assert one_se["n_leaves"] <= best["n_leaves"]
        assert best["cv_error"] == first["cv_error"].min()
        assert one_se["cv_error"] <= best["cv_error"] + best["cv_se"] + 1e-12
        # the pruned tree uses the chosen alpha
        pruned = dtlearn.prune(tree, "cost_complexity", cv=5, seed=seed, one_se=True)
        assert pruned.pruning["alpha"] == one_se["alpha"]
        assert pruned.n_leaves == one_se["n_leaves"]


def test_a_cross_validation_table_already_computed_prunes_as_computing_it_does(monkeypatch):
    # the Pruning page keeps cost_complexity_cv's table and hands it back when the 1-SE rule is
    # switched (five trees grown again otherwise): the pruned tree and its record are the same
    tree = dtlearn.fit(dtlearn.load_dataset("glass"), "cart")
    table = dtlearn.cost_complexity_cv(tree, 4, seed=2)
    for one_se in (False, True):
        computed = dtlearn.prune(tree, "cost_complexity", cv=4, seed=2, one_se=one_se)
        monkeypatch.setattr(api, "cost_complexity_cv", lambda *a, **k: pytest.fail("computed again"))
        given = dtlearn.prune(tree, "cost_complexity", cv=4, seed=2, one_se=one_se, cv_table=table)
        monkeypatch.undo()
        assert [s.node_id for s in given.pruning_steps] == [s.node_id for s in computed.pruning_steps]
        assert given.pruning["alpha"] == computed.pruning["alpha"]
        pd.testing.assert_frame_equal(given.pruning["cv_table"], computed.pruning["cv_table"])
    assert dtlearn.prune(tree, "cost_complexity", cv=4, seed=2, one_se=True, cv_table=table).n_leaves < \
        dtlearn.prune(tree, "cost_complexity", cv=4, seed=2, cv_table=table).n_leaves  # the rule chose


@pytest.mark.parametrize(("call", "message"), [
    (lambda t, v: dtlearn.prune(t, "magic"), "Unknown pruning method 'magic'"),
    (lambda t, v: dtlearn.prune(t.at_step(2), "reduced_error", validation=v), "Prune a complete tree"),
    (lambda t, v: dtlearn.prune(t, "cost_complexity"), "Give either alpha or cv"),
    (lambda t, v: dtlearn.prune(t, "cost_complexity", alpha=0.1, cv=5), "Give either alpha or cv"),
    (lambda t, v: dtlearn.prune(t, "cost_complexity", alpha=-1.0), "alpha must be >= 0"),
    (lambda t, v: dtlearn.cost_complexity_path(t, risk="gini"), "risk must be 'impurity'"),
    (lambda t, v: dtlearn.prune(t, "pessimistic", confidence=0.9), r"The confidence CF must be in \(0, 0.5\]"),
    (lambda t, v: dtlearn.prune(t, "reduced_error", validation=v.iloc[:0]), "The validation set is empty"),
    (lambda t, v: dtlearn.prune(t, "reduced_error", validation=v.drop(columns="play")),
     "with the target column 'play'"),
    (lambda t, v: dtlearn.cost_complexity_cv(t, 1), "The number of folds must be a whole number from 2 to 14"),
    (lambda t, v: dtlearn.fit(dtlearn.load_dataset("tennis"), "c45", confidence=0.7),
     r"confidence \(C4.5's CF\) must be in \(0, 0.5\]"),
])
def test_bad_pruning_options(tennis_tree, call, message):
    with pytest.raises(ValueError, match=message):
        call(tennis_tree, SEVEN)


def test_pessimistic_pruning_refuses_a_regression_tree():
    X, y = make_regression(n_samples=30, n_features=2, random_state=0)
    tree = dtlearn.fit(dtlearn.Dataset(pd.DataFrame(X, columns=["a", "b"]).assign(t=y), "t"), "cart")
    with pytest.raises(ValueError, match="Pessimistic \\(C4.5\\) pruning is for classification trees"):
        dtlearn.prune(tree, "pessimistic")


def reduced_error_by_definition(tree, validation) -> list[tuple[int, dict]]:
    """Reduced-error pruning as defined: every round, every internal node's gain summed anew
    over the whole tree, the best (gain, nodes removed, earlier in growth) pruned."""
    root = walk._work(tree.root)
    losses = validation_losses._Losses(tree, validation)
    order = {step.node_id: step.number for step in tree.steps}
    made = []
    while not root.is_leaf:
        below, sizes = validation_losses._subtree_losses(root, losses), reduced_error_pruning._subtree_sizes(root)
        options = [(below[w.id] - losses.leaf(w), sizes[w.id], -order[w.id], w) for w in root.walk() if not w.is_leaf]
        ranked = sorted(options, key=lambda o: (-o[0], -o[1], -o[2]))[:pruning.SHOWN]
        gain, _, _, best = ranked[0]
        if gain < -1e-12:
            break
        made.append((best.id, {o[3].id: round(o[0], 6) for o in ranked}))
        best.children = []
    return made


def noisy(rows: int = 600) -> dtlearn.Dataset:
    """Two numbers, a category with missing cells and 30% label noise: a tree with many prunes."""
    rng = np.random.default_rng(4)
    frame = pd.DataFrame({"a": rng.normal(size=rows).round(2), "b": rng.integers(0, 50, rows).astype(float),
                          "c": np.where(rng.random(rows) < 0.1, None, rng.choice(list("pqrs"), rows))})
    signal = (frame["a"] > 0) ^ (frame["b"] > 25)
    frame["y"] = np.where(rng.random(rows) < 0.3, ~signal, signal).astype(str)
    return dtlearn.Dataset(frame, "y")


@pytest.mark.parametrize("name, algorithm", [("glass", "cart"), ("glass", "c45"), ("tips", "cart"),
                                             ("watermelon_2alpha", "id3"), ("iris", "id3"),
                                             ("noisy", "cart")])
def test_reduced_error_kept_up_to_date_equals_every_round_summed_anew(name, algorithm):
    # reduced_error_pruning._PruneRanking updates only a prune's ancestors, not the whole tree;
    # the prunes, their order and each step's listed candidates must be the definition's.
    data = noisy() if name == "noisy" else dtlearn.load_dataset(name)
    train, validation = dtlearn.train_test_split(data, 0.4, seed=5)
    tree = dtlearn.fit(train, algorithm)
    pruned = dtlearn.prune(tree, "reduced_error", validation=validation)
    made = [(step.node_id, step.details["candidates"]) for step in pruned.steps[tree.total_steps:]]
    assert made == reduced_error_by_definition(tree, validation)
    assert len(made) >= (10 if name == "noisy" else 2)


def split_missing(rows: int = 500) -> dtlearn.Dataset:
    """Missing cells of c only where a > 0.6, and there the tree does not ask c: every row takes
    one path, but the rows of a > 0.6 cannot be sorted through the c subtree of a <= 0.6."""
    rng = np.random.default_rng(7)
    a = rng.random(rows).round(3)
    c = rng.choice(list("pqrs"), rows).astype(object)
    left = a <= 0.6
    y = np.where(left, np.isin(c, ["p", "q"]), True)
    y = np.where(rng.random(rows) < 0.2, ~y, y)
    c[~left & (rng.random(rows) < 0.3)] = None
    return dtlearn.Dataset(pd.DataFrame({"a": a, "c": c, "y": y.astype(str)}), "y")


def pessimistic_trace(tree) -> list:
    return [(s.action, s.node_id, s.reason, sorted(s.details.items()), getattr(s, "new_stats", None))
            for s in tree.pruning_steps] + [tree.to_dict()]


@pytest.mark.parametrize("name, algorithm, one_path", [
    ("glass", "cart", True), ("glass", "c45", True), ("iris", "id3", True), ("without_missing", "cart", True),
    ("split_missing", "c45", True), ("noisy", "cart", False)])
def test_pessimistic_pruning_of_rows_on_one_path_equals_sorting_them_node_by_node(name, algorithm, one_path,
                                                                                monkeypatch):
    # J48 sorts the training rows down every node (O(rows x depth): 4 s on a 20,000-level chain);
    # when every row takes one path, _Training.assign_all routes them once and raised_errors
    # sorts only the other branches' rows into the largest one (with no value missing, also
    # after a raise has re-sorted rows: each still takes one path, weight 1). The trace (each
    # decision, its numbers, the raised subtrees' counts) and the pruned tree must be J48's
    # way's, exactly.
    data = {"noisy": noisy, "split_missing": split_missing}.get(name, lambda: None)()
    if name == "without_missing":
        data = noisy()
        data = dtlearn.Dataset(data.frame.fillna({"c": "p"}), "y")
    data = data or dtlearn.load_dataset(name)
    tree = dtlearn.fit(data, algorithm)
    training = j48_estimate._Training(tree)
    one_path_found = j48_estimate.single_paths(tree.flat, j48_estimate.encode_training(tree.flat, training.encoded))
    assert (one_path_found is not None) == one_path
    refused, sorted_whole = [], []
    errors_with, branch_errors = j48_estimate._Training._errors_with, j48_estimate._Training.branch_errors
    monkeypatch.setattr(j48_estimate._Training, "_errors_with",
                        lambda self, *a: refused.append(errors_with(self, *a)) or refused[-1])
    monkeypatch.setattr(j48_estimate._Training, "branch_errors",
                        lambda self, *a: sorted_whole.append(1) or branch_errors(self, *a))
    fast = dtlearn.prune(tree, "pessimistic")
    if training.encoded.complete:  # every raise's rows sorted the short way, before and after a raise
        assert not sorted_whole
    with monkeypatch.context() as patched:  # the leaves found by routing, not read from growth
        patched.setattr(j48_estimate._Training, "_grown_leaf_ranks", lambda self, leaves: None)
        routed = dtlearn.prune(tree, "pessimistic")
        patched.setattr(j48_estimate, "single_paths", lambda flat, rows: None)  # J48's way: every node sorts its rows,
        patched.setattr(j48_estimate._Training, "_errors_with", lambda self, *a: None)  # and every raise all of them
        slow = dtlearn.prune(tree, "pessimistic")
    assert pessimistic_trace(fast) == pessimistic_trace(routed) == pessimistic_trace(slow)
    if name == "without_missing":
        assert training.encoded.complete and "raise" in [s.action for s in fast.pruning_steps]
    if name == "split_missing":  # the other branch's rows miss c: sorted the J48 way
        assert None in refused


@pytest.mark.parametrize("name, algorithm", [
    ("glass", "cart"), ("glass", "c45"), ("iris", "id3"), ("tennis", "c45"), ("tennis", "cart"), ("credit_risk", "id3"),
    ("split_missing", "c45"), ("noisy", "cart"), ("without_missing", "c45"), ("watermelon_2", "c45")])
def test_growth_records_the_leaf_routing_finds_for_every_training_row(name, algorithm):
    # Pessimistic pruning reads each training row's leaf from growth (engine.Grown.leaf_of_row)
    # instead of routing every row down again, O(rows x depth). Where no value is missing it
    # must be the leaf routing finds (routing.single_paths, the prediction's walk); with a
    # missing value growth records nothing and pruning routes (or sorts J48's way) as before.
    data = {"noisy": noisy, "split_missing": split_missing}.get(name, lambda: None)()
    if name == "without_missing":
        data = dtlearn.Dataset(noisy().frame.fillna({"c": "p"}), "y")
    data = data or dtlearn.load_dataset(name)
    tree = dtlearn.fit(data, algorithm)
    growth = tree.steps[0].origin
    complete = not data.frame.drop(columns=data.target).isna().any().any()
    if not complete:
        assert growth.training_leaves is None
        return
    routed = j48_estimate.single_paths(tree.flat, j48_estimate.encode_training(tree.flat, growth.encoded))
    assert growth.training_leaves is not None and len(growth.training_leaves) == len(data.frame)
    tree_leaves = {leaf.id for leaf in tree.root.leaves()}

    def leaf_above(node_id: int) -> int:  # C4.5's collapse makes leaves of grown splits
        while node_id not in tree_leaves:
            node_id = growth.parent[node_id][0]
        return node_id

    assert [leaf_above(int(i)) for i in growth.training_leaves] == tree.flat.ids[routed].tolist()
    assert all(growth.steps[0].node_id == 0 and i not in growth.splits for i in growth.training_leaves.tolist())
    # and pessimistic pruning takes them (watermelon 2.0's C4.5 collapses a node over an empty
    # leaf whose id passes every row's leaf: it fell back to routing)
    training = j48_estimate._Training(tree)
    leaves = [work for work in walk._work(tree.root).walk() if work.is_leaf]
    ranks = training._grown_leaf_ranks(leaves)
    assert ranks is not None
    assert [leaves[r].id for r in ranks] == tree.flat.ids[routed].tolist()


def test_pessimistic_pruning_of_a_pruned_tree_reads_the_leaves_above_the_grown_ones(monkeypatch):
    # A tree already pruned (here: cost-complexity) has leaves that were split in growth: a
    # row's leaf is the pruned node above its grown leaf, as routing the pruned tree finds it.
    tree = dtlearn.prune(dtlearn.fit(dtlearn.load_dataset("glass"), "cart"), "cost_complexity", alpha=0.01)
    assert tree.n_leaves < tree.steps[0].origin.training_leaves.size
    fast = dtlearn.prune(tree, "pessimistic")
    monkeypatch.setattr(j48_estimate._Training, "_grown_leaf_ranks", lambda self, leaves: None)
    assert pessimistic_trace(fast) == pessimistic_trace(dtlearn.prune(tree, "pessimistic"))


def test_a_kept_subtrees_estimated_errors_are_summed_son_by_son_as_j48_does():
    # A chain whose leaves hold 2, 3 or 4 rows (runs of one class along x) is kept whole by
    # pessimistic pruning. Each decision compares the node's subtree errors, J48's
    # getEstimatedErrors: errors = 0 + son 0's + son 1's, each son's the same sum below it (a
    # leaf's: E + added_errors(N, E) of its class weights). Summed here by that recursion on the
    # unpruned tree and compared exactly: the order of the additions is J48's. (Summed leaf by
    # leaf at every node, as before, it also cost O(depth^2): 14 s on a 4,000-level chain.)
    runs = np.resize([2, 3, 4], 400)  # runs of one class, 2, 3 or 4 rows long: leaves of unlike errors
    y = np.repeat(np.resize(["a", "b"], len(runs)), runs)
    data = dtlearn.Dataset(pd.DataFrame({"x": np.arange(len(y)), "y": y}), "y")
    tree = dtlearn.fit(data, "cart")

    def j48_errors(node) -> float:
        if not node.children:
            n, e = sum(node.class_weights), sum(node.class_weights) - max(node.class_weights)
            return e + added_errors(n, e, 0.25)
        errors = 0.0
        for son in node.children:
            errors = errors + j48_errors(son)
        return errors

    pruned = dtlearn.prune(tree, "pessimistic")
    kept = [step for step in pruned.pruning_steps if step.action == "keep"]
    assert tree.depth > 300 and len(kept) == tree.n_nodes - tree.n_leaves  # every split kept
    for step in kept:
        assert step.details["errors_of_subtree"] == j48_errors(tree.node(step.node_id))
