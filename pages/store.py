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
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np
import pandas as pd

import dtlearn


@dataclass(frozen=True)
class _Refusal:
    kind: type
    message: str


@dataclass(eq=False)
class _Entry:
    value: object
    size: int
    used: float


class Store:
    def __init__(self, max_bytes: int, ttl: float, clock=time.monotonic) -> None:
        self.max_bytes, self.ttl, self._clock = max_bytes, ttl, clock
        self._entries: OrderedDict = OrderedDict()
        self._lock = threading.Lock()  # guards _entries and _making
        self._making: dict = {}  # key -> the lock held while it is computed

    @property
    def size(self) -> int:
        """Bytes held (as `footprint` weighs them)."""
        with self._lock:
            return sum(entry.size for entry in self._entries.values())

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
        entry = _Entry(value, footprint(value), self._clock())
        with self._lock:
            self._entries[key] = entry
            total = sum(e.size for e in self._entries.values())
            while total > self.max_bytes and len(self._entries) > 1:
                oldest, dropped = next(iter(self._entries.items()))
                if oldest == key:
                    break
                del self._entries[oldest]
                total -= dropped.size
        return entry


def footprint(value, limit: int = 2_000_000) -> int:
    """Roughly the bytes `value` holds: arrays and frames by their buffers, everything else by
    sys.getsizeof, each object once, walking at most `limit` objects (no recursion)."""
    seen, stack, total = set(), [value], 0
    while stack and len(seen) < limit:
        item = stack.pop()
        if id(item) in seen or item is None or isinstance(item, (type, bool, int, float)):
            continue
        seen.add(id(item))
        if isinstance(item, np.ndarray):
            total += item.nbytes if item.dtype != object else item.nbytes + sum(sys.getsizeof(v) for v in item.flat)
        elif isinstance(item, (pd.DataFrame, pd.Series, pd.Index)):
            total += int(np.sum(item.memory_usage(deep=True, index=True)))
        elif isinstance(item, (str, bytes, bytearray, memoryview)):
            total += sys.getsizeof(item)
        elif isinstance(item, dict):
            total += sys.getsizeof(item)
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (list, tuple, set, frozenset)):
            total += sys.getsizeof(item)
            stack.extend(item)
        else:
            total += sys.getsizeof(item)
            stack.extend(getattr(item, "__dict__", {}).values())
            stack.extend(getattr(item, name) for name in getattr(type(item), "__slots__", ()) if hasattr(item, name))
    return total
