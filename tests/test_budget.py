"""Budgets (dtlearn.budget): work refused before it is done, with the setting that makes it
cheaper; progress reports; per-node tables kept for a bounded number of nodes; and the
cross-validated cost-complexity errors computed from one routing per fold, equal to pruning
and predicting every subtree of the sequence one by one.
"""

from __future__ import annotations

import re
import time
import numpy as np
import pandas as pd
import pytest

import dtlearn
from dtlearn import api, budget, pruning, table_cache
from dtlearn.evaluation import accuracy, mean_squared_error


def two_wide_columns(n_values: int = 600, rows: int = 1800) -> dtlearn.Dataset:
    """ID3 on two columns of `n_values` values, 3 rows per value of c, random classes: the root
    splits c into n_values branches and most children split d into n_values more."""
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"c": [f"c{i}" for i in rng.permutation(np.arange(rows) % n_values)],
                          "d": [f"d{i}" for i in rng.integers(0, n_values, rows)],
                          "y": rng.choice(["a", "b"], rows)})
    return dtlearn.Dataset(frame, "y")


def test_a_tree_past_the_node_budget_is_refused_before_its_level_is_made():
    data = two_wide_columns()
    with budget.within(budget.Budget(nodes=50_000)), pytest.raises(dtlearn.TooCostly) as refused:
        dtlearn.fit(data, "id3")
    message = str(refused.value)
    assert "past the 50,000 allowed" in message and "'d'" in message and "Max depth" in message
    assert isinstance(refused.value, dtlearn.DataError)  # the app's pages show DataErrors as messages
    # the same data under a budget it fits in, and without any budget: grown as always
    small = two_wide_columns(n_values=20, rows=60)
    with budget.within(budget.Budget(nodes=50_000)):
        inside = dtlearn.fit(small, "id3")
    assert inside.n_nodes == dtlearn.fit(small, "id3").n_nodes <= 50_000


def test_the_node_count_refused_is_the_one_the_next_level_would_reach():
    # the check runs before each level's children are made: the count it quotes is every node
    # down to that level (here depth 2: the root, its 30-way split, the splits below it)
    data = two_wide_columns(n_values=30, rows=90)
    tree = dtlearn.fit(data, "id3")
    down_to_two = sum(1 for node in tree.nodes() if len(node.path) <= 2)
    assert down_to_two > 31 + 30  # several children split again
    with budget.within(budget.Budget(nodes=down_to_two - 1)), pytest.raises(dtlearn.TooCostly) as refused:
        dtlearn.fit(data, "id3")
    assert f"would have {down_to_two:,} nodes" in str(refused.value)
    with budget.within(budget.Budget(nodes=down_to_two)):
        assert dtlearn.fit(data, "id3", max_depth=2).n_nodes == down_to_two


def test_time_runs_out_between_levels_and_folds():
    data = dtlearn.load_dataset("iris")
    with budget.within(budget.Budget(seconds=0.0)):
        with pytest.raises(dtlearn.TooCostly, match="more than the 0 seconds of computing.*Max depth"):
            dtlearn.fit(data, "cart")
    tree = dtlearn.fit(data, "cart")
    with budget.within(budget.Budget(seconds=0.0)):
        with pytest.raises(dtlearn.TooCostly, match="fewer folds"):
            dtlearn.cross_validate(data, "cart", k=3)
        with pytest.raises(dtlearn.TooCostly):
            dtlearn.prune(tree, "reduced_error", validation=data)
    budget.check_time()  # outside: no budget, never refused


def test_a_caller_that_cancels_stops_the_growth_at_its_next_check_and_nothing_is_refused():
    data = dtlearn.load_dataset("iris")
    asked = []

    def cancelled() -> bool:  # wanted for the root's level and the next, then no more
        asked.append(True)
        return len(asked) > 2

    with budget.within(budget.Budget(), cancelled=cancelled):
        with pytest.raises(budget.Cancelled) as stopped:
            dtlearn.fit(data, "cart")
    assert len(asked) == 3 and not isinstance(stopped.value, dtlearn.DataError)  # not the data's fault
    with budget.within(budget.Budget(), cancelled=lambda: False):  # wanted: grown as always
        assert dtlearn.fit(data, "cart").n_nodes == dtlearn.fit(data, "cart").n_nodes
    with budget.within(budget.Budget(), cancelled=lambda: True), budget.share(2), budget.part(0, 2, "fold"):
        with pytest.raises(budget.Cancelled):  # shares and parts keep their caller's wish
            budget.check_time()


def test_zaki_s_subset_search_is_refused_as_too_costly():
    frame = pd.DataFrame({"c": [f"v{i}" for i in range(800)], "y": ["a", "b"] * 400})
    with pytest.raises(dtlearn.TooCostly, match="Largest value set"):
        dtlearn.fit(dtlearn.Dataset(frame, "y"), "zaki")


def test_progress_reports_encoding_then_growing_up_to_every_row_settled():
    seen = []
    with budget.within(budget.Budget(), report=lambda stage, done, detail: seen.append((stage, done, detail))):
        tree = dtlearn.fit(dtlearn.load_dataset("iris"), "cart")
    stages = [stage for stage, _, _ in seen]
    assert stages[0] == "encoding" and "growing" in stages and stages[-1] == "recording"
    growing = [done for stage, done, _ in seen if stage == "growing"]
    assert growing == sorted(growing) and growing[-1] == 1.0  # the last level leaves no row waiting
    assert seen[-1][2] == f"{tree.n_nodes:,} nodes"
    assert budget.current() is None  # the context ends with the block


@pytest.mark.parametrize("run", ["cost_complexity_cv", "cross_validate"])
def test_cross_validation_reports_each_fold_as_a_part_of_one_bar(run):
    # Each fold grows a tree, whose progress goes 0 -> 1: without parts the bar filled five
    # times over. As parts, fold f's progress p is (f + p) / k and its detail names the fold.
    seen = []
    tree = dtlearn.fit(dtlearn.load_dataset("iris"), "cart")
    with budget.within(budget.Budget(), report=lambda stage, done, detail: seen.append((stage, done, detail))):
        if run == "cost_complexity_cv":
            api.cost_complexity_cv(tree, k=3)
        else:
            api.cross_validate(dtlearn.load_dataset("iris"), "cart", k=3)
    growing = [(done, detail) for stage, done, detail in seen if stage == "growing"]
    for f in range(3):
        of_fold = [done for done, detail in growing if detail.startswith(f"fold {f + 1} of 3, ")]
        assert of_fold and all(f / 3 <= done <= (f + 1) / 3 for done in of_fold)
        assert of_fold[-1] == (f + 1) / 3  # the fold's tree grown: its third of the bar filled
    assert [done for done, _ in growing] == sorted(done for done, _ in growing)
    assert all(detail.startswith("fold ") for _, _, detail in seen)  # encoding and recording too


def test_budgets_nest_and_restore():
    outer, inner = budget.Budget(nodes=10), budget.Budget(nodes=20)
    with budget.within(outer):
        with budget.within(inner):
            assert budget.current() is inner
        assert budget.current() is outer


def test_a_wall_clock_budget_counts_waiting_and_holds_inside_nested_budgets():
    """A page's budget (Budget.wall): waiting counts, unlike a computation's processor time, and a
    computation the page runs inside it cannot outlast it, whatever its own budget."""
    with budget.within(budget.Budget(wall=0.3), cancelled=lambda: False):
        assert 0.2 < budget.time_left() <= 0.3
        time.sleep(0.1)
        budget.check_time()
        with budget.within(budget.Budget(seconds=60)):  # the app's computing budget, inside the page
            assert budget.time_left() <= 0.2  # the page's end, not 60 s
            time.sleep(0.25)
            with pytest.raises(dtlearn.TooCostly, match=r"more than the time a page may take\. Set a Max depth"):
                budget.check_time()
        with pytest.raises(dtlearn.TooCostly, match=r"more than the 0\.3 seconds a page may take"):
            budget.check_time()
    assert budget.time_left() is None  # no budget: no limit


def test_a_nested_budget_keeps_its_callers_cancellation():
    with budget.within(budget.Budget(wall=60), cancelled=lambda: True), budget.within(budget.Budget(seconds=60)):
        with pytest.raises(budget.Cancelled):
            budget.check_time()


def _burn(seconds: float) -> None:
    start = time.thread_time()
    while time.thread_time() - start < seconds:
        pass


def test_a_share_gets_its_part_of_the_time_left_and_says_so_when_it_runs_out():
    reports = []
    with budget.within(budget.Budget(seconds=4.0, nodes=7), report=lambda *a: reports.append(a)):
        _burn(1.0)
        with budget.share(3):  # about 3 s left: 1 s of it
            assert budget.current().nodes == 7  # the same budget, the same progress display
            budget.report("growing", 0.5)
            _burn(0.5)
            budget.check_time()
            _burn(0.6)
            with pytest.raises(dtlearn.TooCostly, match="more than the 1 seconds"):
                budget.check_time()
        budget.check_time()  # the whole budget still has time
    assert reports == [("growing", 0.5, "")]
    with budget.share(2):
        budget.check_time()  # no budget: no share, never refused


def test_one_algorithm_running_out_of_time_leaves_the_others_their_share(monkeypatch):
    # Compare on a 1,000,000-row upload: ID3 spent the whole 60 s labelling a million distinct
    # numbers before its split was refused, and C4.5, CART and Zaki were refused at once. Each
    # now has a share of what is left: ID3 a quarter, and the rest goes on to the next ones.
    from dtlearn import comparison

    real_fit = comparison.fit
    spent = {}

    def fit(data, algorithm, **settings):
        start = time.thread_time()
        try:
            if algorithm == "id3":
                while True:  # a fit that never ends checks its time between levels, as dtlearn's do
                    _burn(0.01)
                    budget.check_time()
            return real_fit(data, algorithm, **settings)
        finally:
            spent[algorithm] = time.thread_time() - start

    monkeypatch.setattr(comparison, "fit", fit)
    with budget.within(budget.Budget(seconds=4.0)):  # ample for tennis, first numba loads included
        result = comparison.compare_algorithms(dtlearn.load_dataset("tennis"), k=2)
    assert re.search(r"more than the (0\.9\d|1) seconds", result.result("id3").problem)  # its share, as said
    assert result.result("id3").too_costly
    assert 0.95 <= spent["id3"] < 1.5  # a quarter of 4 s, not all of it
    assert [r.algorithm for r in result.applied] == ["c45", "cart", "zaki"]
    assert not comparison.compare_algorithms(dtlearn.load_dataset("tips"), k=2).result("id3").too_costly  # the data's


def test_a_tree_predicting_with_surrogates_past_its_share_is_reported_not_raised(monkeypatch):
    # A 200,000-row upload's Compare: CART's tree predicts rows with missing values through its
    # surrogates, found node by node from each node's training rows (O(rows) a node): it ran for
    # many minutes unchecked, and a check there must not escape the comparison as an error.
    from dtlearn import comparison, routing, steps

    def slow_rows(*args):
        _burn(0.05)
        return routing.training_rows(*args)

    monkeypatch.setattr(steps, "training_rows", slow_rows)
    frame = dtlearn.load_dataset("iris").frame.copy()
    frame.loc[::7, "petal_length"] = np.nan  # rows that surrogates place
    with budget.within(budget.Budget(seconds=2.0)):
        result = comparison.compare_algorithms(dtlearn.Dataset(frame, "species"), k=2)
    cart = result.result("cart")
    assert cart.applies  # the tree is grown; what its share could not afford is said, not raised
    refused = [n for n in cart.notes if n.startswith("no training score")] + [cart.cv_problem or ""]
    assert any("more than the" in text for text in refused)
    with budget.within(budget.Budget(seconds=0.5)):
        with pytest.raises(dtlearn.TooCostly):  # the check itself, where the time goes
            for _ in range(20):
                routing.training_rows(cart.tree.steps[0].origin.encoded, (), cart.tree.settings)
                _burn(0.05)


def test_tables_are_kept_for_a_bounded_number_of_nodes_and_rebuilt_the_same():
    tree = dtlearn.fit(dtlearn.load_dataset("iris"), "cart")
    growth = tree.steps[0].origin
    splits = [step for step in tree.steps if step.action == "split"]
    first = splits[0].table.copy()
    for step in splits:
        step.table
    assert len(growth._cache["nodes"]) <= growth.NODES_KEPT
    growth.NODES_KEPT = 2
    growth._cache["nodes"].clear()
    for step in splits[1:]:
        step.table
    assert list(growth._cache["nodes"]) == [s.node_id for s in splits[-2:]]
    pd.testing.assert_frame_equal(splits[0].table, first)  # rebuilt on request, equal


def test_tables_are_kept_within_a_bound_in_bytes_for_all_trees_the_newest_whatever_it_weighs(monkeypatch):
    # A large upload's first levels have millions of candidates, and the app holds many trees
    # (sessions, Compare's four): 64 tables each would be GBs.
    iris = dtlearn.load_dataset("iris")
    first, second = (dtlearn.fit(iris, algorithm) for algorithm in ("cart", "c45"))
    splits = [step for step in first.steps if step.action == "split"]
    assert sum(a.nbytes for a in splits[0].candidates.columns.values()) > 0
    monkeypatch.setattr(table_cache, "BYTES_KEPT", 1)  # less than any node's table: only the newest stays
    for step in splits[:3]:
        step.table
        assert list(first.steps[0].origin._cache["nodes"]) == [step.node_id]
    second.steps[0].table  # another tree's node is newer: the first tree keeps none
    assert not first.steps[0].origin._cache["nodes"]
    assert list(second.steps[0].origin._cache["nodes"]) == [second.steps[0].node_id]
    monkeypatch.setattr(table_cache, "BYTES_KEPT", 10**9)
    for step in splits[:3]:
        step.table
    assert list(first.steps[0].origin._cache["nodes"]) == [s.node_id for s in splits[:3]]


def slow_errors(grown, sequence, data) -> list[float]:
    """The definition: prune the first m links, predict every row, score; m = 0..len(sequence)."""
    errors = []
    for m in range(len(sequence) + 1):
        pruned = pruning.with_steps(grown, pruning.prunes_up_to(grown, sequence[:m], float("inf")), {})
        errors.append(mean_squared_error(pruned, data) if grown.is_regression else 1 - accuracy(pruned, data))
    return errors


@pytest.mark.parametrize("name", ["tips", "iris", "glass", "tennis"])
def test_prefix_losses_equal_pruning_and_predicting_each_subtree(name):
    data = dtlearn.load_dataset(name)
    train, test = dtlearn.train_test_split(data, 0.3, seed=1)
    grown = dtlearn.fit(train, "cart")
    sequence = pruning.weakest_links(grown)
    fast = api._prefix_losses(grown, sequence, test)
    np.testing.assert_allclose(fast, slow_errors(grown, sequence, test), rtol=0, atol=1e-12)


@pytest.mark.parametrize("case", ["chain", "unseen class", "multiway", "three classes, error risk"])
def test_prefix_losses_count_every_link_as_pruning_and_predicting_does(case):
    # deep, multiway, an unseen class, the error risk: the fast errors against the definition
    risk = "impurity"
    if case == "chain":  # alternating classes, every 7th an odd one: 212 levels deep, 5 links
        x = np.arange(300)
        y = np.where((x % 2 == 1) | (x % 7 == 0), "b", "a")
        grown = dtlearn.fit(dtlearn.Dataset(pd.DataFrame({"x": x, "y": y}), "y"), "cart")
        assert grown.depth > 200
        test = dtlearn.Dataset(pd.DataFrame({"x": np.arange(300) + 0.5, "y": np.where(np.arange(300) % 3, "b", "a")}),
                               "y")
    elif case == "unseen class":  # rows of a class the tree never saw are wrong wherever they stop
        grown = dtlearn.fit(dtlearn.Dataset(dtlearn.load_dataset("iris").frame.iloc[50:], "species"), "cart")
        test = dtlearn.load_dataset("iris")
    elif case == "multiway":  # ID3: a split per value (contact lenses: 9 leaves, 5 links)
        grown = dtlearn.fit(dtlearn.load_dataset("contact_lenses"), "id3")
        test = dtlearn.load_dataset("contact_lenses")
    else:
        risk = "error"
        data = dtlearn.load_dataset("iris")
        train, test = dtlearn.train_test_split(data, 0.5, seed=3)
        grown = dtlearn.fit(train, "cart")
    sequence = pruning.weakest_links(grown, risk)
    assert len(sequence) > 1
    fast = api._prefix_losses(grown, sequence, test)
    np.testing.assert_allclose(fast, slow_errors(grown, sequence, test), rtol=0, atol=1e-12)


def test_rows_with_missing_values_fall_back_to_predicting_each_subtree():
    data = dtlearn.load_dataset("watermelon_2alpha")
    grown = dtlearn.fit(data, "cart")
    assert api._prefix_losses(grown, pruning.weakest_links(grown), data) is None
    table = dtlearn.cost_complexity_cv(grown, 3, seed=0)  # still computed, the slow way
    assert table["cv_error"].notna().all()


def test_a_tree_of_many_nodes_over_many_classes_is_refused_by_its_class_weights():
    # one class per row (an id as the target): ID3's root splits a column of 200 distinct values
    # into 200 pure leaves, 201 nodes of 200 class weights each = 40,200 numbers
    frame = pd.DataFrame({"a": [f"a{i}" for i in range(200)], "y": [f"k{i}" for i in range(200)]})
    data = dtlearn.Dataset(frame, "y")
    with budget.within(budget.Budget(cells=40_199)), pytest.raises(dtlearn.TooCostly) as refused:
        dtlearn.fit(data, "id3")
    assert "201 nodes x 200 classes = 40,200 class weights" in str(refused.value)
    assert "fewer classes" in str(refused.value)
    with budget.within(budget.Budget(cells=40_200)):
        assert dtlearn.fit(data, "id3").n_nodes == 201
