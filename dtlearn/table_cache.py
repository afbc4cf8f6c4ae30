"""The tables (and rows, surrogates) a grown tree rebuilds on request, kept per node: the last
`NodeCache.NODES_KEPT` nodes of each tree asked about (a student stepping through 20,000 steps
does not keep 20,000 tables), and all trees' together within `BYTES_KEPT`, least recently used
out, by a ledger of the bytes each node holds."""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict

import numpy as np

from .table import CandidateTable

# The tables kept by all trees together (a process holds many: the app's sessions, Compare's four
# trees): at most this many bytes, the newest node's whatever it weighs. A large upload's first
# levels have millions of candidates each, 100+ MB a table.
BYTES_KEPT = 128 * 2**20


class _Ledger:
    """The bytes every Growth keeps per node, least recently used first; past BYTES_KEPT the
    oldest nodes are forgotten, whichever tree holds them."""

    def __init__(self) -> None:
        self._nodes: OrderedDict = OrderedDict()  # (id(growth), node id) -> (weakref to growth, bytes)
        self._lock = threading.Lock()

    def kept(self, growth, node_id: int, size: int, dropped) -> None:
        victims = []
        with self._lock:
            for old in dropped:
                self._nodes.pop((id(growth), old), None)
            key = (id(growth), node_id)
            ref, before = self._nodes.pop(key, (None, 0))
            if ref is None or ref() is not growth:  # new, or a gone tree's id given to this one
                ref, before = weakref.ref(growth), 0
            self._nodes[key] = (ref, before + size)
            for old in [k for k, (r, _) in self._nodes.items() if r() is None]:  # trees gone
                del self._nodes[old]
            total = sum(b for _, b in self._nodes.values())
            while total > BYTES_KEPT and len(self._nodes) > 1:
                (_, old), (r, b) = self._nodes.popitem(last=False)
                total -= b
                victims.append((r(), old))
        for owner, old in victims:  # outside the ledger's lock: each tree's own lock is taken alone
            if owner is not None:
                owner._forget(old)


_LEDGER = _Ledger()


def _bytes(value) -> int:
    """Roughly the bytes of a kept node value: its arrays (rows and weights, a table's columns,
    the candidates' class weights per branch); the rest is small beside them."""
    if isinstance(value, tuple):
        return sum(_bytes(v) for v in value)
    if isinstance(value, np.ndarray):
        return value.nbytes
    if isinstance(value, CandidateTable):
        return sum(a.nbytes for a in value.columns.values()) + value.block.nbytes * 3
    blocks = getattr(value, "blocks", None)  # an Evaluation
    if blocks is not None:
        return sum(b.stats.branches.nbytes + (0 if b.thresholds is None else b.thresholds.nbytes)
                   for b in blocks) + value.rows.nbytes + value.weights.nbytes
    return 0


class NodeCache:
    """Values made once per node and kept (`_kept`) among the last NODES_KEPT nodes asked about
    and within BYTES_KEPT over all owners. The owner (a `steps.Growth`) holds `_cache`, a dict,
    and `_lock`."""

    NODES_KEPT = 64
    _cache: dict
    _lock: threading.Lock

    def _kept(self, node_id: int, what: str, make):
        """`make()` for this node, kept among the last NODES_KEPT nodes' within BYTES_KEPT (least
        recently used out). The app's sessions share a tree: the lock guards the order, not the
        making."""
        nodes = self._cache.setdefault("nodes", OrderedDict())
        with self._lock:
            if what in nodes.get(node_id, ()):
                nodes.move_to_end(node_id)
                return nodes[node_id][what]
        value = make()
        with self._lock:
            nodes.setdefault(node_id, {})[what] = value
            nodes.move_to_end(node_id)
            dropped = [nodes.popitem(last=False)[0] for _ in range(len(nodes) - self.NODES_KEPT)]
        _LEDGER.kept(self, node_id, _bytes(value), dropped)
        return value

    def _forget(self, node_id: int) -> None:
        with self._lock:
            self._cache.get("nodes", {}).pop(node_id, None)
