"""How growth plans its work: which scan scores each attribute, the rows encoded and sorted
once, and a level's nodes as segments of shared buffers (`engine`).

Every numeric attribute is sorted once; each node owns a segment of every sorted order, which a
split partitions stably into its children's segments (so nothing is sorted again).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import kernels, subset_scan
from .candidates import sorted_order
from .conditions import MultiwayTest
from .criteria import criterion
from .routing import code_map


@dataclass(eq=False)
class Level:
    """The nodes of one depth. Node i owns positions starts[i]..ends[i] of the buffers (shared by
    the levels while no row is shared between branches: a split reorders its segment in place).
    `order` and `vals` are rows shift..shift + A of `sorted_store`, arrays of A + 1 rows: a split
    writes the next level's one row over (rows 1 - shift..), so that nothing is copied back."""

    starts: np.ndarray  # (L,)
    ends: np.ndarray
    rows: np.ndarray  # (M,) int32: the training row at each position
    w: np.ndarray  # (M,) its weight (fractional below a C4.5 split on a missing value)
    cls: np.ndarray  # (M,) int32: its class (classification)
    ypos: np.ndarray  # (M,) its target (regression; empty otherwise)
    order: np.ndarray  # (A_threshold, M) int32: positions sorted by each numeric attribute, per node
    vals: np.ndarray  # (A_threshold, M) the value at each place of `order`
    parent: np.ndarray  # (L,) index of the parent node (-1: the root)
    branch: np.ndarray
    depth: np.ndarray
    used: np.ndarray  # (L, A) bool: attributes ID3 may not test again
    fallback: np.ndarray  # (L, k) parent's distribution, or (L, 1) parent's value
    sorted_store: tuple = ()  # (order, vals), each (A_threshold + 1, M)
    shift: int = 1
    _unit: bool | None = None

    @property
    def size(self) -> int:
        return len(self.starts)

    @property
    def buffers(self) -> kernels.Level:
        """The nodes and buffers as the kernels take them."""
        return kernels.Level(self.starts, self.ends, self.rows, self.w, self.cls, self.ypos, self.order, self.vals)

    @property
    def unit(self) -> bool:
        """Every weight is 1, so class weights are whole numbers. Found once per buffer and handed
        down with it: a scan of the whole buffer at every level is quadratic on a deep tree."""
        if self._unit is None:
            self._unit = not (self.w != 1.0).any()
        return self._unit


class Plan:
    """How each attribute is scored: a compiled threshold scan, a compiled multiway scan, or the
    `candidates` definitions node by node (CART's subsets and anything else)."""

    def __init__(self, encoded, settings) -> None:
        self.encoded, self.settings = encoded, settings
        attributes = encoded.attributes
        kinds = [self._kind(a) for a in attributes]
        self.threshold = [j for j, k in enumerate(kinds) if k == "threshold"]
        self.threshold_row = {j: i for i, j in enumerate(self.threshold)}
        self.multiway = [j for j, k in enumerate(kinds) if k == "multiway"]
        # a criterion no compiled scan ranks by (its record has no `kernel`): every attribute is scored in
        # Python by its `measures` definition; numbers are still sorted once and routed by their cut
        self.scanned = criterion(settings.criterion).kernel is not None
        self.python = [j for j, k in enumerate(kinds) if k == "python" or not self.scanned]
        self.categorical = [j for j, k in enumerate(kinds) if k != "threshold"]
        self.codes = _code_matrix(encoded, [attributes[j] for j in self.categorical])
        self.code_row = {j: i for i, j in enumerate(self.categorical)}
        entropy = criterion(settings.criterion).impurity == "entropy" and not encoded.is_regression
        self.scoring = _scoring(encoded, settings, kernels.xlogx_table(encoded.n_rows if entropy else 0))
        self.n_values = np.array([len(encoded.categories(attributes[j])) for j in self.multiway], dtype=np.int64)
        self.mw_codes = self.codes if self.multiway == self.categorical else \
            np.ascontiguousarray(self.codes[:, [self.code_row[j] for j in self.multiway]])
        self.many_valued = np.array([k != "threshold" and self._many(a) for a, k in zip(attributes, kinds)],
                                    dtype=bool)
        # a used attribute blocks ID3's reuse: categorical ones, and numbers split per value
        self.blocks_reuse = np.array([encoded.kind(a) == "categorical" or settings.numeric_split == "multiway"
                                      for a in attributes], dtype=bool)
        self._multiway_tests: dict = {}
        self._scratch: tuple | None = None  # `partition_scratch`
        self._code_maps: dict = {}
        # scored in Python: subsets for a whole level at once where `subset_scan` applies, else node by node
        batched = subset_scan.applies(encoded, settings)
        self.batched = [j for j in self.python if batched and encoded.kind(attributes[j]) == "categorical"
                        and subset_scan.fits(encoded, settings, attributes[j])]
        self.one_by_one = [j for j in self.python if j not in self.batched]
        # per attribute: cut by a compiled scan (`engine_grown.Scanned`), and its row of the sorted orders
        self.compiled_cut = np.array([k == "threshold" and j not in self.python for j, k in enumerate(kinds)],
                                     dtype=bool)
        self.per_value = np.array([k == "multiway" and j not in self.python for j, k in enumerate(kinds)],
                                  dtype=bool)  # and split one branch per value by the multiway scan
        self.threshold_row_of = np.full(len(attributes), -1, dtype=np.int64)
        self.threshold_row_of[self.threshold] = np.arange(len(self.threshold))
        self.code_row_of = np.full(len(attributes), -1, dtype=np.int64)  # and its column of `codes`
        self.code_row_of[self.categorical] = np.arange(len(self.categorical))
        self.n_values_of = np.zeros(len(attributes), dtype=np.int64)  # a multiway attribute's branches
        self.n_values_of[self.multiway] = self.n_values

    def multiway_test(self, j: int) -> MultiwayTest:
        """Attribute j's one-branch-per-value test, one object for every node that makes it (its
        branch labels are made once: 6,000 nodes splitting 6,000 ways held 36 million strings)."""
        if j not in self._multiway_tests:
            attribute = self.encoded.attributes[j]
            self._multiway_tests[j] = MultiwayTest(attribute, self.encoded.categories(attribute))
        return self._multiway_tests[j]

    def code_map(self, j: int, test) -> np.ndarray:
        """`routing.code_map` of `test` on attribute j, as `_branches` hands it to the kernels:
        attribute j's multiway test's made once, shared by every node that splits on it."""
        if self._multiway_tests.get(j) is not test:
            return code_map(test, self.encoded.categories(test.attribute))
        if j not in self._code_maps:
            self._code_maps[j] = code_map(test, self.encoded.categories(test.attribute))
        return self._code_maps[j]

    def partition_scratch(self, level: Level) -> tuple:
        """`kernels.partition_in_place`'s buffers for `level`'s, made once and kept while as long."""
        n = len(level.rows)
        kept = self._scratch
        if kept is None or len(kept[0]) < n or kept[2].dtype != level.cls.dtype:
            kept = self._scratch = (np.empty(n, dtype=np.int64), np.empty(n, dtype=level.rows.dtype),
                                    np.empty(n, dtype=level.cls.dtype), np.empty(n), np.empty(n))
        return kept

    def multiway_blocked(self, level: Level) -> np.ndarray:
        """(L, multiway attributes): those a node of `level` may not test again (ID3's used ones),
        which the multiway scan skips; in C order, as it reads them (and as the warm-up compiled it)."""
        if self.settings.reuse_attributes:
            return np.zeros((level.size, len(self.multiway)), dtype=bool)
        return np.ascontiguousarray(level.used[:, self.multiway] & self.blocks_reuse[self.multiway][None, :])

    def _kind(self, attribute: str) -> str:
        e, s = self.encoded, self.settings
        if e.kind(attribute) == "numeric" and s.numeric_split == "threshold":
            return "threshold"
        subsets = s.categorical_split == "subset" and e.kind(attribute) == "categorical"
        return "python" if subsets or e.is_regression else "multiway"

    def _many(self, attribute: str) -> bool:
        return len(self.encoded.categories(attribute)) >= 0.3 * self.encoded.n_rows

    def presorted(self) -> tuple[np.ndarray, np.ndarray]:
        """Each numeric attribute's rows sorted by value (missing values last, ties in row order),
        and the values in that order: rows 1.. of arrays with a spare row 0 (`Level.sorted_store`)."""
        n, attributes = self.encoded.n_rows, self.encoded.attributes
        order, vals = sorted_store(len(self.threshold), n)
        for i, j in enumerate(self.threshold):
            column = self.encoded.numeric(attributes[j])
            order[i + 1] = sorted_order(column)
            vals[i + 1] = column[order[i + 1]]
        return order, vals


def sorted_store(attributes: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """A level's sorted orders and values (`Level.sorted_store`): a row more than the attributes."""
    return np.empty((attributes + 1, n), dtype=np.int32), np.empty((attributes + 1, n))


def _code_matrix(encoded, attributes: list) -> np.ndarray:
    """(rows, attributes): a row's codes side by side, read together by the multiway scan; one
    byte a code when every attribute has fewer than 127 values (a row's codes then share a cache
    line), else four."""
    small = all(len(encoded.categories(a)) < 127 for a in attributes)
    matrix = np.empty((encoded.n_rows, len(attributes)), dtype=np.int8 if small else np.int32)
    for k, a in enumerate(attributes):
        matrix[:, k] = encoded.codes(a)
    return matrix


def _scoring(encoded, settings, xlogx: np.ndarray) -> kernels.Scoring:
    """What the compiled scans rank by and the split rules they apply. Regression's cuts keep
    only the leaf size (no J48 minimum, no cut tolerance)."""
    s = settings
    rank_by = criterion(s.criterion).kernel
    rank_by = kernels.BY_GAIN if rank_by is None else rank_by  # a criterion no scan scores: nothing is scanned
    if encoded.is_regression:
        return kernels.Scoring(rank_by, np.ones(1), False, 1, float(s.min_samples_leaf), 0.0, 0.0, False,
                               False, xlogx)
    return kernels.Scoring(rank_by, encoded.factor, bool(encoded.sized), len(encoded.classes),
                           float(s.min_samples_leaf), float(s.min_branch_cases), float(s.cut_tolerance),
                           bool(s.threshold_correction), bool(s.threshold_by_ratio), xlogx)


def root_level(plan: Plan) -> Level:
    encoded = plan.encoded
    n = encoded.n_rows
    k = 1 if encoded.is_regression else len(encoded.classes)
    uniform = np.zeros((1, 1)) if encoded.is_regression else np.full((1, k), 1.0 / k)
    one = np.array([0])
    store = plan.presorted()
    order, vals = store[0][1:], store[1][1:]
    small = np.int8 if len(encoded.classes) < 127 else np.int32  # fewer bytes: fewer cache misses
    cls = np.zeros(n, dtype=np.int8) if encoded.is_regression else encoded.y.astype(small)
    ypos = encoded.y.astype(float) if encoded.is_regression else np.zeros(0)
    return Level(one, np.array([n]), np.arange(n, dtype=np.int32), np.ones(n), cls, ypos, order, vals,
                  one - 1, one - 1, one, np.zeros((1, len(encoded.attributes)), bool), uniform, store)


def subtree_level(plan: Plan, rows, weights, depth: int = 0, used=frozenset(), fallback=None) -> Level:
    """A level of one node made of any `rows` (with `weights`): a subtree's root."""
    encoded = plan.encoded
    rows = np.asarray(rows, dtype=np.int32)
    weights = np.asarray(weights, dtype=float)
    n = len(rows)
    store = sorted_store(len(plan.threshold), n)
    order, vals = store[0][1:], store[1][1:]
    for i, j in enumerate(plan.threshold):
        values = encoded.numeric(encoded.attributes[j])[rows]
        order[i] = sorted_order(values)
        vals[i] = values[order[i]]
    k = 1 if encoded.is_regression else len(encoded.classes)
    cls = np.zeros(n, np.int8) if encoded.is_regression else encoded.y[rows].astype(np.int32)
    ypos = encoded.y[rows].astype(float) if encoded.is_regression else np.zeros(0)
    mask = np.array([[a in used for a in encoded.attributes]])
    inherited = np.full((1, k), 1.0 / k) if fallback is None else np.asarray(fallback, dtype=float).reshape(1, k)
    return Level(np.array([0]), np.array([n]), rows, weights.copy(), cls, ypos, order, vals, np.array([-1]),
                  np.array([-1]), np.array([depth]), mask, inherited, store)


def empty_level(plan: Plan, level: Level) -> Level:
    none = np.zeros(0, dtype=np.int64)
    return Level(none, none, level.rows, level.w, level.cls, level.ypos, level.order, level.vals,
                  none, none, none, np.zeros((0, level.used.shape[1]), bool), np.zeros((0, level.fallback.shape[1])),
                  level.sorted_store, level.shift)
