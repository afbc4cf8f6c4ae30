"""A tree's nodes laid out as arrays (`FlatTree`, each node's children consecutive), as the
compiled `kernels.route` walks them, and `flatten`, which builds them from a `tree.Node`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import kernels
from ..conditions import MultiwayTest, ThresholdTest
from .branch_rule import code_map, surrogate_map

LEAF_KIND, THRESHOLD_KIND, CODE_KIND = 0, 1, 2


@dataclass(frozen=True, eq=False)
class FlatTree:
    """A tree's nodes as arrays for `kernels.route` (flat index; ids maps it to node ids)."""

    ids: np.ndarray
    kind: np.ndarray
    attribute: np.ndarray  # index into `attributes`
    threshold: np.ndarray
    map_start: np.ndarray  # into maps (maps[map_start - 1]: the branch of a never-seen value)
    maps: np.ndarray
    child_start: np.ndarray
    n_child: np.ndarray
    share: np.ndarray  # each node's share of its parent's known weight
    majority: np.ndarray  # FOLLOW's branch (-1: the row ends at the node)
    heaviest: np.ndarray  # the branch with the largest share (apply)
    s_start: np.ndarray
    s_count: np.ndarray
    s_kind: np.ndarray
    s_attribute: np.ndarray
    s_threshold: np.ndarray
    s_map_start: np.ndarray
    s_reversed: np.ndarray
    node_values: np.ndarray  # (nodes, classes): distribution; regression: (nodes, 1) value
    attributes: tuple[str, ...]  # the attributes the tree reads
    numeric: tuple[bool, ...]  # read as numbers (thresholds) or as labels (codes)
    vocabulary: tuple[tuple[str, ...], ...]  # per attribute: the labels its codes index
    surrogates: bool  # CART's rules for unknown values

    @property
    def tests(self) -> kernels.FlatTests:
        """The nodes' tests as `kernels.route` takes them."""
        return kernels.FlatTests(self.kind, self.attribute, self.threshold, self.map_start, self.maps, self.child_start,
                                 self.n_child, self.share, self.node_values)

    @property
    def surrogate_tests(self) -> kernels.FlatSurrogates:
        """The nodes' surrogates as `kernels.route` takes them."""
        return kernels.FlatSurrogates(self.s_start, self.s_count, self.s_kind, self.s_attribute, self.s_threshold,
                                      self.s_map_start, self.s_reversed)


def flatten(root, regression: bool, surrogates: bool) -> FlatTree:
    """The arrays of a built tree (`tree.Node`), breadth-first so that siblings are consecutive."""
    nodes, starts = [root], []
    while len(starts) < len(nodes):  # breadth-first: the list grows while it is read
        starts.append(len(nodes))
        nodes.extend(nodes[len(starts) - 1].children)
    child_start = np.array(starts, dtype=np.int64)
    usage: dict[str, set] = {}  # attribute -> the labels its categorical tests mention
    numeric: dict[str, bool] = {}

    def note(test) -> None:
        if isinstance(test, ThresholdTest):
            numeric[test.attribute] = True
            return
        numeric.setdefault(test.attribute, False)
        words = test.values if isinstance(test, MultiwayTest) else test.left + test.right
        usage.setdefault(test.attribute, set()).update(words)

    for node in nodes:
        if node.test is not None:
            note(node.test)
            for s in node.surrogates if surrogates else ():
                note(s.test)
    attributes = tuple(numeric)
    index = {a: i for i, a in enumerate(attributes)}
    vocabulary = tuple(tuple(sorted(usage.get(a, ()))) for a in attributes)
    n = len(nodes)
    kind = np.zeros(n, dtype=np.int64)
    attribute = np.zeros(n, dtype=np.int64)
    threshold = np.zeros(n)
    map_start = np.zeros(n, dtype=np.int64)
    n_child = np.zeros(n, dtype=np.int64)
    share = np.ones(n)
    majority = np.full(n, -1, dtype=np.int64)
    heaviest = np.zeros(n, dtype=np.int64)
    maps: list[int] = []
    s_rows: list[tuple] = []
    s_start = np.zeros(n, dtype=np.int64)
    s_count = np.zeros(n, dtype=np.int64)
    width = 1 if regression else len(root.distribution)
    node_values = np.zeros((n, width))
    for i, node in enumerate(nodes):
        node_values[i] = [node.value] if regression else node.distribution
        n_child[i] = len(node.children)
        for k, child in enumerate(node.children):
            share[child_start[i] + k] = node.branch_fractions[k] if node.branch_fractions else 0.0
        if node.test is None or not node.children:
            continue
        test = node.test
        attribute[i] = index[test.attribute]
        fractions = np.asarray(node.branch_fractions, dtype=float)
        heaviest[i] = int(np.argmax(fractions)) if len(fractions) else 0
        if isinstance(test, ThresholdTest):
            kind[i], threshold[i] = THRESHOLD_KIND, test.threshold
        else:
            kind[i] = CODE_KIND
            map_start[i] = len(maps) + 1
            maps.extend(code_map(test, vocabulary[index[test.attribute]]).tolist())
        if surrogates:
            sizes = [child.weight for child in node.children]
            majority[i] = int(np.argmax(sizes)) if len(set(sizes)) > 1 else -1
            s_start[i] = len(s_rows)
            for s in node.surrogates:
                s_test = s.test
                if isinstance(s_test, ThresholdTest):
                    s_rows.append((THRESHOLD_KIND, index[s_test.attribute], s_test.threshold, 0, int(s.reversed)))
                else:
                    start = len(maps) + 1
                    maps.extend(surrogate_map(s_test, vocabulary[index[s_test.attribute]]).tolist())
                    s_rows.append((CODE_KIND, index[s_test.attribute], 0.0, start, int(s.reversed)))
            s_count[i] = len(s_rows) - s_start[i]
        else:
            majority[i] = heaviest[i]
    columns = list(zip(*s_rows)) if s_rows else [(), (), (), (), ()]
    return FlatTree(
        ids=np.array([node.id for node in nodes], dtype=np.int64), kind=kind, attribute=attribute,
        threshold=threshold, map_start=map_start, maps=np.array(maps if maps else [0], dtype=np.int64),
        child_start=child_start, n_child=n_child, share=share, majority=majority, heaviest=heaviest,
        s_start=s_start, s_count=s_count, s_kind=np.array(columns[0], dtype=np.int64),
        s_attribute=np.array(columns[1], dtype=np.int64), s_threshold=np.array(columns[2], dtype=float),
        s_map_start=np.array(columns[3], dtype=np.int64), s_reversed=np.array(columns[4], dtype=np.int64),
        node_values=node_values, attributes=attributes, numeric=tuple(numeric[a] for a in attributes),
        vocabulary=vocabulary, surrogates=surrogates)
