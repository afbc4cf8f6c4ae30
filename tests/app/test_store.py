"""The app's shared store (pages/store.py): bounded in bytes, expiring, refusals kept, one
computation per key however many sessions ask at once."""

from __future__ import annotations

import sys
import threading
import time
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pytest

import dtlearn
from pages.store import Store, footprint

MB = 2**20


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_footprint_weighs_arrays_by_their_buffers_and_shared_parts_once():
    block = np.zeros(MB // 8)  # 1 MB
    assert MB <= footprint(block) < MB + 1024
    assert MB <= footprint([block, block, {"again": block}]) < MB + 4096  # the same array once
    assert 2 * MB <= footprint((block, np.ones(MB // 8))) < 2 * MB + 4096


def test_a_frame_shared_by_several_entries_is_weighed_once():
    # A 100 MB upload is held as read, as prepared and by its tree: one frame, not three.
    frame = pd.DataFrame({"x": np.arange(MB // 8, dtype=float), "y": np.ones(MB // 8)})  # 2 MB of floats
    assert 2 * MB <= footprint(frame) < 2 * MB + 8192
    assert footprint([frame, frame[["x"]], frame["y"]]) < 2 * MB + 8192  # a column is a view on its block
    assert footprint([frame, frame.copy()]) >= 4 * MB  # a copy is memory of its own
    store = Store(max_bytes=7 * MB, ttl=3600)
    for key in "abc":
        store.get(key, lambda: {"data": frame, "tree": [frame]})
    assert all(k in store for k in "abc") and 2 * MB <= store.size < 2 * MB + 16384
    store.get("d", lambda: np.zeros(4 * MB // 8))  # 4 MB of its own: 6 MB in all (10 if weighed apart)
    assert all(k in store for k in "abcd")
    store.get("e", lambda: np.zeros(2 * MB // 8))  # 8 MB: dropping a, b or c frees nothing; d frees 4 MB
    assert [k for k in "abcde" if k in store] == ["a", "b", "c", "e"] and store.size < 4 * MB + 16384


def test_an_object_column_weighs_its_values():
    words = pd.Series(["a long enough value %d" % i for i in range(10_000)])
    assert footprint(words) >= 10_000 * (8 + sys.getsizeof("a long enough value 0")) * 0.9


def test_a_column_of_a_few_shared_values_weighs_them_once():
    # pandas' parser hands equal cells one string object: 100,000 references to 3 strings
    # weigh their pointers, not 100,000 strings (a 1,000,000-row upload was weighed 283 MB for ~100).
    values = ["a long enough category %d" % i for i in range(3)]
    column = pd.Series(np.array(values, dtype=object)[np.arange(100_000) % 3], dtype=object)  # as a Dataset holds text
    assert 100_000 * 8 <= footprint(column) < 100_000 * 8 + 100 * sys.getsizeof(values[0])
    copies = pd.Series([("a long enough category %d " % (i % 3)).strip() for i in range(100_000)], dtype=object)
    assert footprint(copies) >= 100_000 * (8 + sys.getsizeof(values[0])) * 0.9  # a string a cell: each weighed


@dataclass(frozen=True)
class _Item:  # as a tree's Step: a few fields, a string, a part every item shares
    name: str
    numbers: tuple
    shared: object


def _exact(items, shared_bytes: int) -> int:
    """The weight of a tuple of _Item, summed by hand: the tuple, each item's object, its
    __dict__, its string and its tuple (the shared part once; small ints weigh nothing)."""
    total = sys.getsizeof(items) + shared_bytes
    for item in items:
        total += sys.getsizeof(item) + sys.getsizeof(item.__dict__) + sys.getsizeof(item.name)
        total += sys.getsizeof(item.numbers)
    return total


def test_a_long_sequence_is_weighed_from_a_sample_close_to_its_exact_weight():
    # A pruned 20,000-level tree holds ~43,000 steps (~300,000 objects, 1.4 s to walk on every
    # store); the sample walks ~500 of them. Two kinds of item alternate in blocks, as growth's
    # and pruning's steps do, and the first item reaches the shared array (8 MB, counted once).
    shared = np.zeros(MB)
    items = tuple(_Item("x" * (10 if i < 30_000 else 200), (i % 7, i % 5), shared) for i in range(50_000))
    exact = _exact(items, 8 * MB)
    assert abs(footprint(items) - exact) < 0.05 * (exact - 8 * MB)
    assert abs(footprint([items, list(items)]) - exact - sys.getsizeof(list(items))) < 0.05 * (exact - 8 * MB)
    assert footprint((items[0],) * 50_000) == sys.getsizeof((items[0],) * 50_000) + _exact((items[0],), 8 * MB) \
        - sys.getsizeof((items[0],))  # one item many times: weighed once
    # views of one array weigh nothing once it is weighed (its buffer counts once), the strings
    # between them still count; alternating, as an evenly spaced sample would see one kind only
    base = np.zeros(10_000)
    mixed = [base[i:i + 1] if i % 2 else "a string of its own %d" % i for i in range(20_000)]
    strings = sum(sys.getsizeof(v) for v in mixed if isinstance(v, str))
    assert abs(footprint(mixed) - (sys.getsizeof(mixed) + base.nbytes + strings)) < 0.1 * strings


class _Index:  # as a tree's growth: every step leads to it, and its index holds every step
    def __init__(self) -> None:
        self.by_id: dict = {}


def test_a_sampled_item_does_not_walk_the_items_it_leads_to_on_another_path():
    # Every step of a grown tree leads to its growth, whose index holds all the steps: the first
    # sampled step used to walk them all (a pruned chain's run: 0.9 s a store). The items not
    # sampled are counted by the sample's mean, and now no sampled item's walk reaches them
    # again. With a walk limit well under the objects the items hold, the old walk stopped
    # early (a fraction of the weight); now the sample fits, within 5% of the exact weight.
    index = _Index()
    items = tuple(_Item("step %d" % i, (i % 7, i % 5), index) for i in range(20_000))
    index.by_id = {i: item for i, item in enumerate(items)}
    exact = _exact(items, 0) + sys.getsizeof(index) + sys.getsizeof(index.__dict__) + sys.getsizeof(index.by_id)
    # (ints weigh nothing in the walk: the index's keys are not counted)
    weighed = footprint(items, limit=30_000)  # the items hold ~100,000 objects
    assert abs(weighed - exact) < 0.05 * exact


def test_an_entry_holding_another_entrys_value_shares_it():
    # A pruning run holds the grown tree the store holds already (a 20,000-level chain's: a
    # second to walk again). It is not walked again: its weight joins the run's as buffers the
    # two entries share, so the store counts it once, and dropping the tree would free nothing.
    tree = [("node %d" % i, [i]) for i in range(3_000)]
    store = Store(max_bytes=8 * MB, ttl=3600)
    store.get("tree", lambda: tree)
    alone = store.size
    assert alone > 3_000 * sys.getsizeof("node 1000")
    store.get("run", lambda: {"base": tree, "own": np.zeros(MB // 8)})
    assert alone + MB <= store.size < alone + MB + 4096
    store.max_bytes = store.size + MB // 2
    store.get("other", lambda: np.zeros(MB // 8))  # over the bound: the tree is the older, but only the run frees
    assert "tree" in store and "run" not in store and "other" in store


def test_the_least_recently_used_go_when_the_bytes_pass_the_bound():
    store = Store(max_bytes=3 * MB, ttl=3600)
    for key in "abc":
        store.get(key, lambda: np.zeros(MB // 8))
    store.get("a", lambda: pytest.fail("a is stored"))  # a used again: b is now the oldest
    store.get("d", lambda: np.zeros(MB // 8))
    assert "b" not in store and all(k in store for k in "acd")
    assert store.size <= 3 * MB + 4096


def test_an_entry_unused_for_the_ttl_expires():
    clock = Clock()
    store = Store(max_bytes=100 * MB, ttl=60, clock=clock)
    store.get("tree", lambda: "grown")
    clock.now = 59
    assert store.get("tree", lambda: "regrown") == "grown"  # used at 59: kept until 119
    clock.now = 118.5
    assert store.get("tree", lambda: "regrown") == "grown"
    clock.now = 200
    assert store.get("tree", lambda: "regrown") == "regrown"


def test_a_refusal_is_kept_and_raised_again_without_computing_again():
    store, calls = Store(max_bytes=MB, ttl=60), []

    def costly():
        calls.append(1)
        raise dtlearn.TooCostly("past the 200,000 allowed here. Set a Max depth.")

    for _ in range(3):
        with pytest.raises(dtlearn.TooCostly, match="Max depth"):
            store.get("k", costly)
    assert calls == [1]
    with pytest.raises(ZeroDivisionError):  # a bug is not a refusal: not kept
        store.get("bug", lambda: 1 / 0)
    assert "bug" not in store


def test_sessions_asking_at_once_share_one_computation():
    store, calls, results = Store(max_bytes=MB, ttl=60), [], []

    def slow():
        calls.append(1)
        time.sleep(0.2)
        return "tree"

    threads = [threading.Thread(target=lambda: results.append(store.get("k", slow))) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert calls == [1] and results == ["tree"] * 8


def test_a_built_trees_nodes_are_weighed_from_a_sample_close_to_their_exact_weight(monkeypatch):
    # A tree whose nodes are built hangs them from its root, a chain of children per level: the
    # walk met them one by one (a 20,000-level chain's 40,000 nodes: 0.7 s on every store). Its
    # nodes are weighed from a sample as a long sequence is, close to the exact walk (every
    # sequence walked whole: LONG out of reach) and walking a fraction of the objects.
    from pages import store

    x = np.arange(3_000.0)
    tree = dtlearn.fit(dtlearn.Dataset(pd.DataFrame({"x": x, "y": np.where(x % 2 == 0, "a", "b")}), "y"), "cart")
    assert tree.n_nodes > store.LONG  # (n_nodes builds the nodes)
    walked = []
    counting = sys.getsizeof
    monkeypatch.setattr(sys, "getsizeof", lambda item: walked.append(1) or counting(item))
    sampled, sampled_objects = footprint(tree), len(walked)
    walked.clear()
    monkeypatch.setattr(store, "LONG", 10**9)
    monkeypatch.setattr(store, "LONG_DICT", 10**9)
    exact, exact_objects = footprint(tree), len(walked)
    assert abs(sampled - exact) < 0.1 * exact
    assert sampled_objects < exact_objects / 4
