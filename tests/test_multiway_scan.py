"""The compiled multiway scan (ID3, C4.5 on categories) and what `engine_plan.Plan` prepares for it:
the codes, the attributes a node may not test, each attribute's value map.

The scores are checked against `splits.evaluate` (the `measures` definitions the tables show),
at nodes with more values than rows (the scan reads the values the rows touched) and with fewer
(it reads every value in order).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import dtlearn
from dtlearn import engine, kernels
from dtlearn.engine_plan import Plan, root_level
from dtlearn.induction import encode, resolve_task
from dtlearn.routing import code_map
from dtlearn.rules import USED
from dtlearn.settings import make_settings
from dtlearn.splits import evaluate

TOLERANCE = 1e-12


def many_valued(n: int = 600, seed: int = 3) -> dtlearn.Dataset:
    """300 values of `many` (more than a small node's rows, more than a byte's codes), 3 of `few`;
    a tenth of each missing; the class follows `few` with noise."""
    rng = np.random.default_rng(seed)
    few = rng.integers(0, 3, n)
    frame = pd.DataFrame({"many": [f"v{i}" for i in rng.integers(0, 300, n)],
                          "few": np.array(["p", "q", "r"])[few],
                          "two": rng.integers(0, 2, n).astype(str)})
    for column in ("many", "few"):
        frame.loc[rng.random(n) < 0.1, column] = None
    frame["y"] = np.where((few == 0) ^ (rng.random(n) < 0.2), "A", "B")
    return dtlearn.Dataset(frame, "y")


def setup(data, algorithm, **options):
    config = resolve_task(make_settings(algorithm, **options), data)
    return encode(data, config), config


@pytest.mark.parametrize("algorithm", ["id3", "c45"])
@pytest.mark.parametrize("size", [2, 5, 40, 600])
def test_a_node_of_any_size_scores_each_attribute_as_the_definitions(algorithm, size):
    encoded, config = setup(many_valued(), algorithm)
    rng = np.random.default_rng(size)
    rows = np.sort(rng.choice(600, size, replace=False))
    weights = rng.choice([0.5, 1.0, 1.0, 2.0], size)  # fractional weights, as below a C4.5 split
    reference = evaluate(encoded, rows, weights, config, frozenset())
    bests, _ = engine.score_node(encoded, config, rows, weights)
    for j, best in enumerate(reference.bests):
        where = f"{encoded.attributes[j]} at {size} rows"
        assert (bests.reason[0, j], bests.index[0, j]) == (best.reason, best.index), where
        if best.index >= 0:
            assert bests.score[0, j] == pytest.approx(best.score, abs=TOLERANCE, rel=TOLERANCE), where
            assert bests.gain[0, j] == pytest.approx(best.gain, abs=TOLERANCE, rel=TOLERANCE), where


def test_the_scan_skips_the_attributes_a_node_may_not_test():
    encoded, config = setup(dtlearn.load_dataset("tennis"), "id3")
    plan = Plan(encoded, config)
    level = root_level(plan)
    active = np.array([True])

    def scan(blocked):
        found = kernels.Found.empty(1, len(plan.multiway), -1)
        kernels.scan_multiway(level.buffers, active, blocked, plan.mw_codes, plan.n_values, plan.scoring, found)
        return found

    free = scan(np.zeros((1, len(plan.multiway)), dtype=bool))
    outlook = plan.multiway.index(encoded.attributes.index("outlook"))
    blocked = np.zeros((1, len(plan.multiway)), dtype=bool)
    blocked[0, outlook] = True
    found = scan(blocked)
    assert free.gain[0, outlook] > 0.2  # outlook's gain at PlayTennis' root: 0.246 (Mitchell 1997)
    assert (found.reason[0, outlook], found.index[0, outlook], found.gain[0, outlook]) == (USED, -1, 0.0)
    others = ~blocked[0]
    for name, a, b in zip(found._fields, found, free):
        assert np.array_equal(a[0, others], b[0, others], equal_nan=True), name


def test_the_plan_blocks_only_what_id3_has_used():
    encoded, config = setup(dtlearn.load_dataset("tennis"), "id3")
    level = root_level(Plan(encoded, config))
    level.used[0, encoded.attributes.index("wind")] = True
    plan = Plan(encoded, config)
    blocked = plan.multiway_blocked(level)
    assert blocked[0].tolist() == [encoded.attributes[j] == "wind" for j in plan.multiway]
    encoded, config = setup(dtlearn.load_dataset("tennis"), "id3", reuse_attributes=True)
    assert not Plan(encoded, config).multiway_blocked(level).any()


@pytest.mark.parametrize("data, width", [(dtlearn.load_dataset("tennis"), np.int8), (many_valued(), np.int32)])
def test_the_code_matrix_holds_the_encoded_codes_in_as_few_bytes_as_fit(data, width):
    # a byte while every attribute has fewer than 127 values (many_valued's `many` has 300)
    encoded, config = setup(data, "id3")
    plan = Plan(encoded, config)
    assert plan.codes.dtype == width
    for j in plan.categorical:
        expected = encoded.codes(encoded.attributes[j])
        assert np.array_equal(plan.codes[:, plan.code_row[j]], expected)
    assert np.array_equal(plan.mw_codes, plan.codes)


def test_every_node_splitting_on_an_attribute_shares_its_value_map():
    encoded, config = setup(dtlearn.load_dataset("tennis"), "id3")
    plan = Plan(encoded, config)
    j = encoded.attributes.index("outlook")
    test = plan.multiway_test(j)
    made = plan.code_map(j, test)
    assert plan.code_map(j, plan.multiway_test(j)) is made  # made once per fit
    assert np.array_equal(made, code_map(test, encoded.categories("outlook")))  # routing's own map
