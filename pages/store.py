"""The app's shared cache of results: bounded in bytes, not entries, and forgotten when idle.

st.cache_resource counts entries, and one entry may be a 2 KB table or a 40,000-node tree with
its data; nor does it ever give memory back. Here every result is weighed when it is stored
(`footprint`), the least recently used go when the total passes `max_bytes`, and an entry
unused for `ttl` seconds expires. Refusals (dtlearn's DataError, TooCostly included) are kept
too, so a refused computation is not tried again on every rerun.

Sessions share results: two sessions asking for the same key wait for one computation.
"""

from __future__ import annotations

import sys
import threading
import time
from collections import Counter, OrderedDict
from dataclasses import dataclass

import numpy as np
import pandas as pd

import dtlearn


@dataclass(frozen=True)
class _Refusal:
    kind: type
    message: str


@dataclass(frozen=True)
class Weight:
    """What a value holds: `own` bytes nobody else can hold (objects, small arrays' headers) and
    its `buffers`, the large memory blocks it keeps alive (id -> bytes) that other values may
    share: a tree and the dataset it was grown on hold one frame between them."""

    own: int
    buffers: dict

    @property
    def total(self) -> int:
        return self.own + sum(self.buffers.values())


@dataclass(eq=False)
class _Entry:
    value: object
    weight: Weight
    used: float


class Store:
    def __init__(self, max_bytes: int, ttl: float, clock=time.monotonic) -> None:
        self.max_bytes, self.ttl, self._clock = max_bytes, ttl, clock
        self._entries: OrderedDict = OrderedDict()
        self._lock = threading.Lock()  # guards _entries and _making
        self._making: dict = {}  # key -> the lock held while it is computed

    @property
    def size(self) -> int:
        """Bytes held (as `weigh` weighs them), a buffer shared by several entries once."""
        with self._lock:
            return _held(self._entries.values())

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, key) -> bool:
        with self._lock:
            return key in self._entries

    def get(self, key, compute):
        """The stored result for `key`, else `compute()` stored; a stored refusal is raised again."""
        found = self._lookup(key)
        if found is None:
            with self._lock:
                making = self._making.setdefault(key, threading.Lock())
            with making:  # one computation per key; the others wait for it
                found = self._lookup(key)
                if found is None:
                    found = self._make(key, compute)
            with self._lock:
                self._making.pop(key, None)
        if isinstance(found.value, _Refusal):
            raise found.value.kind(found.value.message)
        return found.value

    def put(self, key, value) -> None:
        """Store `value` under `key` in place of what was there (a value that changes: a quiz's progress)."""
        with self._lock:
            self._entries.pop(key, None)
        self._make(key, lambda: value)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def _lookup(self, key) -> _Entry | None:
        now = self._clock()
        with self._lock:
            for old in [k for k, e in self._entries.items() if now - e.used > self.ttl]:
                del self._entries[old]
            entry = self._entries.get(key)
            if entry is not None:
                entry.used = now
                self._entries.move_to_end(key)
            return entry

    def _make(self, key, compute) -> _Entry:
        try:
            value = compute()
        except dtlearn.DataError as error:
            value = _Refusal(type(error), str(error))
        with self._lock:  # (the values are held here while weighing, so their ids stay theirs)
            stored = {id(e.value): (e.value, e.weight) for e in self._entries.values()}
        entry = _Entry(value, _as_shared(value, weigh(value, known=stored)), self._clock())
        with self._lock:
            self._entries[key] = entry
            while _held(self._entries.values()) > self.max_bytes and len(self._entries) > 1:
                victim = _victim(self._entries, key)
                if victim is None:
                    break
                del self._entries[victim]
        return entry


def _as_shared(value, weight: Weight) -> Weight:
    """An entry's weight with its own objects as one buffer of the value's: another entry whose
    value holds this one (a pruning run holding the grown tree) shares them, not owns them."""
    return Weight(0, {**weight.buffers, ("value", id(value)): weight.own})


def _victim(entries: OrderedDict, newest) -> object:
    """The least recently used entry whose going frees memory (at least 1 MiB, or all it holds):
    an entry sharing its buffers with others frees only its own bytes, and dropping it would
    only make it be computed again (a dataset as read, beside its prepared copy and tree)."""
    holders: dict = {}
    for entry in entries.values():
        for buffer in entry.weight.buffers:
            holders[buffer] = holders.get(buffer, 0) + 1
    fallback = None
    for key, entry in entries.items():
        if key == newest:
            continue
        alone = entry.weight.own + sum(size for buffer, size in entry.weight.buffers.items() if holders[buffer] == 1)
        if alone >= min(2**20, entry.weight.total):
            return key
        fallback = key if fallback is None else fallback
    return fallback


def _held(entries) -> int:
    """The bytes of these entries, each buffer once however many entries share it (entries keep
    their buffers alive, so an id stands for one buffer while its entry is stored)."""
    buffers: dict = {}
    own = 0
    for entry in entries:
        own += entry.weight.own
        buffers.update(entry.weight.buffers)
    return own + sum(buffers.values())


def footprint(value, limit: int = 2_000_000) -> int:
    """Roughly the bytes `value` holds (`weigh`), each buffer once."""
    return weigh(value, limit).total


_SCALARS = (type(None), bool, int, float, type)  # weigh nothing of their own (shared, small or interned)
_SEQUENCES = (list, tuple, set, frozenset)
LONG = 5_000  # a list or tuple longer than this is weighed from a sample of its items
LONG_DICT = 1_000  # a dict this long holds one record per node or row (a grown tree's tests): sampled too
SAMPLE = 500
OUTLIER = 10  # a sampled item over 10 times the median met a part the items share first: not in the mean
# (at most a twentieth of the sample is left out: items that weigh nothing, such as views of an array
# weighed already, make the median 0, and the items beside them still count)


def weigh(value, limit: int = 2_000_000, known: dict | None = None) -> Weight:
    """Roughly the bytes `value` holds: arrays by the buffer they view (a slice or a frame's
    column is its whole block, counted once), object arrays with their elements estimated from
    a sample, everything else by sys.getsizeof, each object once, walking at most `limit`
    objects (no recursion beyond one level per nested long sequence).

    A long list, tuple or dict (a 20,000-level tree's 40,000 steps or its growth record: some
    300,000 objects, a second to walk, on every store) is weighed from a sample: the items not
    weighed yet are marked seen, each sampled one is weighed in turn, and the others are taken
    to weigh the mean of the sample, leaving out its few heaviest items when over 10 times its
    median (the first item to reach a part all items share, such as the tree's data, carries
    it). Being seen, no other path to them (a sampled item's own walk included) counts them
    again.

    `known` (id -> (value, Weight)): values weighed already, such as the store's other entries:
    met inside `value`, one is not walked again; its weight joins as buffers shared with it."""
    walk = _Walk(limit, {key: w for key, (held, w) in (known or {}).items() if held is not value})
    walk.run(value)
    return Weight(walk.own, walk.buffers)


class _Walk:
    def __init__(self, limit: int, known: dict) -> None:
        self.limit, self.seen, self.own, self.buffers, self.buffer_bytes = limit, set(), 0, {}, 0
        self.known = known

    @property
    def weighed(self) -> int:
        return self.own + self.buffer_bytes

    def run(self, value) -> None:
        seen, stack, size = self.seen, [value], sys.getsizeof
        while stack and len(seen) < self.limit:
            item = stack.pop()
            if isinstance(item, _SCALARS) or id(item) in seen:  # (subclasses too: numpy's float64, an IntEnum)
                continue
            seen.add(id(item))
            if id(item) in self.known:
                self.own += self.known[id(item)].own  # 0 for a stored entry (`_as_shared`)
                for key, size_of in self.known[id(item)].buffers.items():
                    self._add_bytes(key, size_of)
            elif isinstance(item, (str, bytes, bytearray, memoryview)):
                self.own += size(item)
            elif isinstance(item, dict):
                self.own += size(item)
                if len(item) > LONG_DICT:  # a grown tree's record: a test, its numbers, ... per split
                    self._sampled([*item.keys(), *item.values()])
                else:
                    stack.extend(item.keys())
                    stack.extend(item.values())
            elif isinstance(item, _SEQUENCES):
                self.own += size(item)
                if isinstance(item, (list, tuple)) and len(item) > LONG:
                    self._sampled(item)
                else:
                    stack.extend(item)
            elif isinstance(item, np.ndarray):
                self._add_buffer(item)
            elif isinstance(item, (pd.DataFrame, pd.Series)):
                columns = item.items() if isinstance(item, pd.DataFrame) else [(None, item)]
                for _, column in columns:  # the views made here are dropped: weighed at once, not walked
                    for array in _column_values(column):
                        self._add_buffer(array)
                stack.append(item.index)
                self.own += size(object())  # the frame's own header; its blocks are the columns
            elif isinstance(item, pd.Index):
                self.own += int(item.memory_usage(deep=False))
            elif isinstance(item, dtlearn.Tree) and "root" in vars(item) and item.n_nodes > LONG:
                # a built tree's nodes hang from its root, a chain of children per level: walked
                # one by one, 40,000 nodes took 0.7 s on every store. Weighed as a long list is.
                self.own += size(item) + size(vars(item))
                self._sampled(list(item.nodes()))
                stack.extend(vars(item).values())
            else:
                self.own += size(item)
                fields = getattr(item, "__dict__", None)
                if fields:
                    self.own += size(fields)
                    stack.extend(fields.values())
                for name in getattr(type(item), "__slots__", ()):
                    stack.append(getattr(item, name, None))

    def _sampled(self, items) -> None:
        picked = np.sort(np.random.default_rng(len(items)).choice(len(items), SAMPLE, replace=False))
        # (a random sample, seeded: an evenly spaced one fell on one kind of items that alternate)
        sample = {id(item): item for item in map(items.__getitem__, picked.tolist())
                  if not isinstance(item, _SCALARS) and id(item) not in self.seen}
        rest = {id(item): item for item in items
                if not isinstance(item, _SCALARS) and id(item) not in self.seen and id(item) not in sample}
        # Every item is seen before the sample is walked: the rest count by the sample's mean, and
        # a sampled item is weighed here, not on another path to it (every step of a tree leads to
        # its growth, whose index and steps lead to all the steps).
        self.seen.update(rest)
        self.seen.update(sample)
        weights = []
        for key, item in sample.items():
            self.seen.discard(key)
            before = self.weighed
            self.run(item)
            weights.append(self.weighed - before)
        if rest and weights:
            kept = sorted(weights)
            typical = kept[len(kept) // 2]
            for _ in range(max(1, len(kept) // 20)):  # a few first comers, at most a twentieth of the sample
                if kept[-1] > OUTLIER * typical:
                    kept.pop()
            self.own += int(len(rest) * sum(kept) / len(kept))

    def _add_buffer(self, array: np.ndarray) -> None:
        """Counts the array owning the memory `array` looks at (a view keeps all of it alive)."""
        while isinstance(array.base, np.ndarray):
            array = array.base
        if id(array) not in self.buffers:
            self._add_bytes(id(array), _array_bytes(array))

    def _add_bytes(self, key, size: int) -> None:
        if key not in self.buffers:
            self.buffers[key] = size
            self.buffer_bytes += size


def _array_bytes(array: np.ndarray, sample: int = 1000) -> int:
    """An array's buffer; an object array's elements too, estimated from an even sample of them.
    Elements are weighed per distinct object (pandas' parser gives equal cells one string, so a
    column of categories refers to a few strings many times): the sample's distinct objects plus,
    for the rows not sampled, as many new ones as the sample met once (Good-Turing: all of them
    for a column of distinct values, none for a few categories)."""
    if array.dtype != object or array.size == 0:
        return array.nbytes
    flat = array.reshape(-1)
    picked = flat[:: max(1, flat.size // sample)]
    seen = Counter(map(id, picked))
    sizes = {id(v): sys.getsizeof(v) for v in picked}
    once = sum(1 for count in seen.values() if count == 1)
    distinct = min(flat.size, len(seen) + once * (flat.size - len(picked)) / len(picked))
    return array.nbytes + int(sum(sizes.values()) / len(sizes) * distinct)


def _column_values(column: pd.Series) -> list[np.ndarray]:
    """A column's arrays as pandas holds them: views on the frame's blocks where there are some."""
    values = column.array
    inner = getattr(values, "_ndarray", None)  # numpy-backed columns (object, float, int, bool)
    if isinstance(inner, np.ndarray):
        return [inner]
    if isinstance(values, pd.Categorical):
        return [values.codes, np.asarray(values.categories)]
    return [column.to_numpy()]
