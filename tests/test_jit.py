"""The kernels run interpreted give the compiled kernels' numbers bit for bit (dtlearn.jit).

A server's first pages run the kernels interpreted (small inputs, while the compiled code is
loaded in the background) and later pages compiled: a student must see the same tree either
way. Each case is grown, its candidate tables rebuilt, pruned, cross-validated, predicted and
explained once with every kernel forced interpreted and once forced compiled, and the two are
compared exactly: the pickled trees (every number of every node and step), each step's table,
predictions and probabilities, the pruning path.
"""

from __future__ import annotations

import importlib
import pickle
import pkgutil
import threading
from pathlib import Path

import numpy as np
import pytest

import dtlearn
from dtlearn import jit, kernels
from dtlearn.kernels import criteria
from dtlearn.explain import explain
from dtlearn.warmup import _with_missing


def everything(data: dtlearn.Dataset, algorithm: str, method: str | None) -> dict:
    """What a student can see of this tree, its pruning and its predictions, as bytes."""
    tree = dtlearn.fit(data, algorithm)
    seen = {"tree": pickle.dumps(tree), "tables": [pickle.dumps(step.table) for step in tree.steps]}
    rows = data.frame.drop(columns=[data.target])
    seen["predict"] = pickle.dumps(tree.predict(rows))
    if not tree.is_regression:
        seen["proba"] = pickle.dumps(tree.predict_proba(rows))
        seen["explain"] = pickle.dumps(explain(tree, rows.iloc[-1].to_dict()))
    if method == "cost_complexity":
        seen["path"] = pickle.dumps(dtlearn.cost_complexity_path(tree))
        seen["cv"] = pickle.dumps(dtlearn.cost_complexity_cv(tree, k=3))
    if method is not None:
        options = {"cv": 3} if method == "cost_complexity" else {}
        seen["pruned"] = pickle.dumps(dtlearn.prune(tree, method, **options))
    return seen


CASES = [  # (dataset, missing values added, algorithm, pruning): every kind of kernel
    ("tennis", False, "id3", None),  # one branch per value
    ("tennis", False, "cart", "cost_complexity"),  # subsets of values, the weakest links
    ("credit_risk", False, "zaki", None),
    ("iris", False, "c45", "pessimistic"),  # thresholds, gain ratio
    ("iris", False, "cart", "cost_complexity"),  # thresholds, Gini
    ("iris", True, "c45", "pessimistic"),  # rows shared among branches (C4.5's weights)
    ("iris", True, "cart", None),  # surrogate splits
    ("glass", False, "c45", None),  # six classes
    ("iris", True, "c45_1993", None),  # a number's cut by gain ratio (the 1993 book's C4.5), rows shared
    ("glass", False, "c45_1993", None),
    ("tips", False, "cart", "cost_complexity"),  # regression
]


@pytest.mark.parametrize("name, missing, algorithm, method", CASES)
def test_interpreted_kernels_give_the_compiled_numbers_bit_for_bit(name, missing, algorithm, method):
    data = dtlearn.load_dataset(name)
    data = _with_missing(data) if missing else data
    with jit.forced(jit.INTERPRETED):
        interpreted = everything(data, algorithm, method)
    with jit.forced(jit.COMPILED):
        compiled = everything(data, algorithm, method)
    assert interpreted.keys() == compiled.keys()
    for part in interpreted:
        assert interpreted[part] == compiled[part], part


def test_each_way_runs_its_own_code():
    # the differential test above is only worth something if the two ways differ in what runs:
    # interpreted, a kernel is a plain Python function; compiled, numba's dispatcher
    kernel = kernels.scan_multiway
    assert type(kernel.interpreted()).__name__ == "function"
    assert kernel.interpreted().__code__ is kernel.__wrapped__.__code__  # one definition
    assert hasattr(kernel.compiled(), "signatures")
    # the plain function calls the other kernels' plain functions (never a dispatcher)
    assert kernel.interpreted().__globals__["entropy"] is criteria.entropy.interpreted()


@jit.njit(cache=False)
def _spread(counts):  # a kernel calling a kernel of another module (kernels' entropy)
    return _entropy(counts, counts.sum())


_entropy = criteria.entropy


def test_a_kernel_calls_another_modules_kernel_the_way_it_runs():
    assert _spread.interpreted().__globals__["_entropy"] is criteria.entropy.interpreted()
    assert _spread.compiled().py_func.__globals__["_entropy"] is criteria.entropy.compiled()
    counts = np.array([1.0, 1.0, 2.0])  # 1/4, 1/4, 1/2: 1.5 bits
    assert _spread.interpreted()(counts) == _spread.compiled()(counts) == 1.5


def test_a_cached_kernel_is_checked_against_every_file_kernels_are_made_from():
    # numba alone checks a cached kernel against its own file: a helper or a constant it inlined
    # from another file could change unseen
    modules = [importlib.import_module(f"dtlearn.kernels.{m.name}") for m in pkgutil.iter_modules(kernels.__path__)]
    made_in = {Path(k.__wrapped__.__code__.co_filename).resolve() for module in modules
               for k in vars(module).values() if isinstance(k, jit.Kernel)}
    assert "rules.py" in {path.name for path in made_in} and len(made_in) > 2  # the rules' J48 minimum split too
    assert made_in <= set(jit.sources())
    locator = kernels.scan_multiway.compiled()._cache._impl.locator
    assert locator.get_source_stamp()[1] == jit._sources_stamp()


def way_elsewhere(*args) -> str:
    """The way a kernel called with `args` runs in a thread that forces none (as a page's)."""
    ways = []
    thread = threading.Thread(target=lambda: ways.append(jit._way(args)))
    thread.start()
    thread.join()
    return ways[0]


def test_while_warming_small_inputs_run_interpreted_and_large_ones_compiled(monkeypatch):
    monkeypatch.setattr(jit, "_mode", jit.WARMING)  # a process's start
    monkeypatch.setattr(jit, "_wanted", threading.Event())
    small, large = np.zeros(jit.SMALL), np.zeros(jit.SMALL + 1)
    assert way_elsewhere(small, 3, 0.5) == jit.WARMING  # interpreted, its time counted
    assert not jit.wanted(0)
    assert way_elsewhere(small, large) == jit.COMPILED
    assert jit.wanted(0)  # the app's warm-up starts at once
    monkeypatch.setattr(jit, "_wanted", threading.Event())
    assert way_elsewhere(kernels.Rows(small, large, small), 3) == jit.COMPILED  # inside a kernel's named structure
    assert jit.wanted(0)
    with jit.forced(jit.COMPILED):  # the warm-up's thread
        assert jit._way((small,)) == jit.COMPILED
    jit.warmed()
    assert jit.mode() == jit.COMPILED and way_elsewhere(small) == jit.COMPILED


@jit.njit(cache=False)
def _sum_to(n):  # kernels of this module's own: no other test loads their compiled code
    total = 0.0
    for i in range(n):
        total += i
    return total


@jit.njit(cache=False)
def _count_to(n):
    count = 0
    for _ in range(n):
        count += 1
    return count


def in_a_thread(work):
    """work() run in a thread that forces no way (as a page's), and what it returned."""
    found = []
    thread = threading.Thread(target=lambda: found.append(work()))
    thread.start()
    thread.join()
    return found[0]


def test_while_warming_a_thread_that_spent_its_budget_runs_compiled(monkeypatch):
    monkeypatch.setattr(jit, "_mode", jit.WARMING)
    monkeypatch.setattr(jit, "_wanted", threading.Event())
    monkeypatch.setattr(jit, "BUDGET", 0.02)

    def many_small_calls():  # a cross-validation's
        calls = 0
        while jit._way(()) == jit.WARMING and calls < 100_000:
            assert _count_to(20_000) == 20_000
            calls += 1
        return calls, jit._local.spent

    calls, spent = in_a_thread(many_small_calls)
    assert calls > 1 and spent > jit.BUDGET and jit.wanted(0)
    assert way_elsewhere() == jit.WARMING  # the other threads keep their own budget


def test_while_warming_a_kernel_whose_code_is_loaded_runs_compiled(monkeypatch):
    monkeypatch.setattr(jit, "_mode", jit.WARMING)

    def spent_by_a_call():
        before = getattr(jit._local, "spent", 0.0)
        _sum_to(100_000)  # about 5 ms interpreted
        return jit._local.spent - before if hasattr(jit._local, "spent") else 0.0

    assert in_a_thread(spent_by_a_call) > 0  # interpreted: its time counted
    _sum_to.compiled()(3)  # the warm-up, or another page, loads its code
    assert in_a_thread(spent_by_a_call) == 0  # compiled


def test_a_threads_forced_way_is_its_own(monkeypatch):
    monkeypatch.setattr(jit, "_mode", jit.COMPILED)
    with jit.forced(jit.INTERPRETED):
        assert jit._way(()) == jit.INTERPRETED
        assert way_elsewhere() == jit.COMPILED
    with pytest.raises(ValueError, match="way must be 'compiled' or 'interpreted'"):
        with jit.forced("fast"):
            pass


def test_without_numba_every_kernel_runs_interpreted(monkeypatch):
    monkeypatch.setattr(jit, "HAS_NUMBA", False)
    with jit.forced(jit.COMPILED):
        assert jit._way((np.zeros(10 * jit.SMALL),)) == jit.INTERPRETED
        tree = dtlearn.fit(dtlearn.load_dataset("tennis"), "id3")
    assert tree.root.test.attribute == "outlook"  # Mitchell (1997), Figure 3.1
