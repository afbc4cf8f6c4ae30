"""`routing.training_rows` (the rows and weights growth sent to a node) against the walk it replaced.

The reference below is the former `training_rows`, copied from dtlearn/routing.py: every row
filtered at every split from the root down, O(depth x rows). The new one settles the rows every
test of the path can place with one condition per attribute and walks only the others; rows,
their order and their weights must be exactly the same (`==`, not approximately), at every
node of trees grown on the built-in datasets, with each missing-value rule (C4.5's fractional
weights, CART's surrogates, a missing value as a value of its own), on chains of 2,000 levels,
and on random paths of tests built by hand (repeated attributes, values a multiway test cannot
place, branches with no share of the known weight, surrogates that cannot tell).
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

import dtlearn
from dtlearn.conditions import MultiwayTest, SubsetTest, ThresholdTest
from dtlearn.encoding import Encoded
from dtlearn.routing import branches, surrogate_branches, training_rows
from dtlearn.surrogates import Surrogate


def reference_training_rows(encoded, ancestry, settings) -> tuple[np.ndarray, np.ndarray]:
    """The former `training_rows`, its loop body split out as `reference_step` (unchanged) so that
    a deep tree can be checked one level at a time."""
    rows = np.arange(encoded.n_rows)
    weights = np.ones(encoded.n_rows)
    for step, b in ancestry:
        rows, weights = reference_step(encoded, step, b, settings, rows, weights)
    return rows, weights


def reference_step(encoded, step, b, settings, rows, weights):
    branch = branches(encoded, step.test, rows)
    unknown = branch < 0
    if settings.missing_values == "surrogate":
        for surrogate in step.found_surrogates or ():
            if not unknown.any():
                break
            branch = np.where(unknown, surrogate_branches(encoded, surrogate, rows), branch)
            unknown = branch < 0
        if unknown.any() and step.majority_branch >= 0:
            branch = np.where(unknown, step.majority_branch, branch)
        keep = branch == b
        return rows[keep], weights[keep]
    share = step.branch_fractions[b]
    keep = (branch == b) | (unknown & (share > 0))
    weights = np.where(unknown, weights * share, weights)[keep]
    return rows[keep], weights


def assert_same(new, old, where="") -> None:
    rows, weights = new
    assert rows.dtype == old[0].dtype and weights.dtype == old[1].dtype, where
    assert np.array_equal(rows, old[0]), where
    assert np.array_equal(weights, old[1]), where  # exactly: same products in the same order


def growth_of(tree):
    return next(step.origin for step in tree.steps if step.origin is not None)


def assert_every_node(tree) -> int:
    """At every node growth made: `Growth.rows` (`training_rows`) == the reference, the
    reference carried down from the parent's rows (one level per node, so deep trees stay cheap)."""
    growth = growth_of(tree)
    encoded, settings = growth.encoded, growth.settings
    reference = {}
    nodes = sorted({step.node_id: step.depth for step in growth.steps}.items(), key=lambda item: item[1])
    for node, _ in nodes:
        if node in growth.parent:
            parent, b = growth.parent[node]
            reference[node] = reference_step(encoded, growth.splits[parent], b, settings, *reference[parent])
        else:
            reference[node] = reference_training_rows(encoded, (), settings)
        assert_same(growth.rows(node), reference[node], f"node {node}")  # training_rows(encoded, ancestry, ...)
    return len(nodes)


CASES = [
    ("iris", "cart", {}), ("iris", "c45", {}), ("iris", "id3", {}), ("tennis", "id3", {}), ("tennis", "c45", {}),
    ("tennis", "cart", {}), ("watermelon_2alpha", "c45", {}), ("watermelon_2alpha", "id3", {}),
    ("watermelon_2alpha", "cart", {"missing_values": "surrogate"}),
    ("watermelon_2alpha", "cart", {"missing_values": "fractional"}),
    ("watermelon_2alpha", "c45", {"missing_values": "own_value"}),
    ("watermelon_2alpha", "zaki", {}), ("credit_risk", "id3", {}), ("credit_risk", "c45", {}),
    ("credit_risk", "cart", {}), ("tips", "cart", {}), ("weather_numeric", "c45", {}), ("glass", "cart", {}),
    ("watermelon_3", "c45", {}), ("contact_lenses", "id3", {}),
]


@pytest.mark.parametrize(("name", "algorithm", "options"), CASES)
def test_every_node_of_the_built_in_trees(name, algorithm, options):
    tree = dtlearn.fit(dtlearn.load_dataset(name), algorithm, **options)
    assert assert_every_node(tree) >= tree.n_nodes  # (C4.5 collapses some grown nodes)


def test_the_full_reference_walk_is_the_one_carried_down():
    # the level-by-level reference is the former function itself, called with whole paths
    tree = dtlearn.fit(dtlearn.load_dataset("watermelon_2alpha"), "c45")
    growth = growth_of(tree)
    for step in growth.steps:
        ancestry = growth.ancestry(step.node_id)
        assert_same(training_rows(growth.encoded, ancestry, growth.settings),
                    reference_training_rows(growth.encoded, ancestry, growth.settings))


def with_holes(name: str, share: float, seed: int) -> dtlearn.Dataset:
    """A built-in dataset with a share of its attribute values blanked out."""
    data = dtlearn.load_dataset(name)
    frame = data.frame.copy()
    rng = np.random.default_rng(seed)
    for attribute in data.attributes:
        holes = rng.random(len(frame)) < share
        frame[attribute] = frame[attribute].astype(object).where(~holes, None)
    return dtlearn.Dataset(frame, data.target, kinds=dict(data.kinds))


@pytest.mark.parametrize(("name", "algorithm", "options"), [
    ("iris", "c45", {}), ("iris", "cart", {}), ("iris", "cart", {"missing_values": "fractional"}),
    ("iris", "c45", {"missing_values": "own_value"}), ("iris", "id3", {}),
    ("tennis", "id3", {}), ("tennis", "c45", {}), ("tennis", "cart", {}), ("tennis", "zaki", {}),
    ("weather_numeric", "c45", {}), ("weather_numeric", "cart", {}), ("watermelon_3", "cart", {}),
    ("tips", "cart", {}), ("tips", "cart", {"missing_values": "fractional"}), ("glass", "c45", {}),
])
def test_every_node_with_values_missing(name, algorithm, options):
    tree = dtlearn.fit(with_holes(name, 0.15, seed=len(name)), algorithm, **options)
    assert assert_every_node(tree) >= tree.n_nodes  # (C4.5 collapses some grown nodes)


def chain(depth: int, holes: int = 0) -> dtlearn.Dataset:
    """x = 0..depth-1, classes alternating (as in test_depth_and_pickle); `holes` rows lose x."""
    x = np.arange(depth, dtype=float)
    x[np.linspace(0, depth - 1, holes).astype(int)] = np.nan
    frame = pd.DataFrame({"x": x, "y": np.where(np.arange(depth) % 2 == 0, "a", "b")})
    return dtlearn.Dataset(frame, "y")


def test_every_node_of_a_chain_2000_levels_deep():
    tree = dtlearn.fit(chain(2000), "cart")
    assert tree.depth == 1999
    assert assert_every_node(tree) == 3999


@pytest.mark.parametrize("missing_values", ["surrogate", "fractional"])
def test_every_node_of_a_chain_with_holes(missing_values):
    tree = dtlearn.fit(chain(600, holes=7), "cart", missing_values=missing_values)
    assert tree.depth > 100
    assert assert_every_node(tree) >= tree.n_nodes  # (C4.5 collapses some grown nodes)


# --- paths built by hand: every kind of test, in any order, on any rows ---------------------------

def random_table(rng, n: int) -> dtlearn.Dataset:
    numbers = rng.choice([-5.0, 0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 12.0, np.nan], size=n)
    ties = rng.integers(0, 4, size=n).astype(float)
    ties[rng.random(n) < 0.1] = np.nan
    words = rng.choice(np.array(["a", "b", "c", "d", None], dtype=object), size=n)
    colours = rng.choice(np.array(["red", "green", "blue"], dtype=object), size=n)
    frame = pd.DataFrame({"u": numbers, "v": ties, "w": words, "k": colours, "y": rng.choice(["p", "q"], size=n)})
    return dtlearn.Dataset(frame, "y")


def random_test(rng, encoded, attribute: str):
    """A threshold, multiway or subset test on the attribute; a multiway test may not list every
    value (the others it cannot place), a subset test's two sides may not cover them all."""
    kind = encoded.kind(attribute)
    choice = rng.integers(0, 3) if kind == "numeric" else rng.integers(1, 3)
    if choice == 0:
        return ThresholdTest(attribute, float(rng.choice([-1.0, 0.0, 0.5, 1.0, 1.7, 2.0, 3.0, 9.0])))
    categories = list(encoded.categories(attribute))
    rng.shuffle(categories)
    if choice == 1:
        return MultiwayTest(attribute, tuple(categories[: rng.integers(1, len(categories) + 1)]))
    cut = int(rng.integers(0, len(categories) + 1))
    end = int(rng.integers(cut, len(categories) + 1))
    return SubsetTest(attribute, tuple(categories[:cut]), tuple(categories[cut:end]))


def random_path(rng, encoded, depth: int):
    # (growth never tests an attribute whose every value is missing; column k has no gaps)
    usable = [a for a in encoded.attributes if encoded.categories(a)]
    path = []
    for _ in range(depth):
        test = random_test(rng, encoded, str(rng.choice(usable)))
        width = len(test.values) if isinstance(test, MultiwayTest) else 2
        fractions = rng.choice([0.0, 0.25, 1 / 3, 0.5, 0.9], size=width)
        surrogates = tuple(Surrogate(random_test(rng, encoded, str(rng.choice(usable))), bool(r), 0.5, 0.1)
                           for r in rng.integers(0, 2, size=rng.integers(0, 3)))
        surrogates = tuple(s for s in surrogates if not isinstance(s.test, MultiwayTest))
        step = SimpleNamespace(test=test, branch_fractions=tuple(fractions), found_surrogates=surrogates or None,
                               majority_branch=int(rng.integers(-1, width)))
        path.append((step, int(rng.integers(0, width))))
    return path


@pytest.mark.parametrize("missing_values", ["fractional", "surrogate"])
def test_random_paths_built_by_hand(missing_values):
    rng = np.random.default_rng(7)
    settings = SimpleNamespace(missing_values=missing_values)
    arrived = 0
    for trial in range(300):
        encoded = Encoded(random_table(rng, int(rng.integers(1, 80))))
        path = random_path(rng, encoded, int(rng.integers(0, 9)))
        for depth in range(len(path) + 1):
            old = reference_training_rows(encoded, path[:depth], settings)
            assert_same(training_rows(encoded, path[:depth], settings), old, f"trial {trial} depth {depth}")
            arrived += len(old[0])
    assert arrived > 1000  # the paths are not all empty
