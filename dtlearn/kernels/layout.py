"""The named structures the kernels take instead of long lists of arrays: a level's buffers and
its splits, what a scan scores by and what it finds, a flat tree's tests and surrogates, the rows
routed down it and what routing writes, a tree as the weakest-link sequence reads it, and a
node's sorted values with the surrogate cuts found there. numba reads a named tuple's fields as
it reads arguments. A kernel takes the fields it needs out once, at its top: a structure holding
arrays, handed to a helper inside a loop, costs the loop reference counts on every array it holds.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class Level(NamedTuple):
    """A level's nodes, node i owning positions starts[i]..ends[i] of the buffers."""

    starts: np.ndarray  # (L,)
    ends: np.ndarray  # (L,)
    rows: np.ndarray  # (M,) the training row at each position
    w: np.ndarray  # (M,) its weight (fractional below a C4.5 split on a missing value)
    cls: np.ndarray  # (M,) its class (classification)
    ypos: np.ndarray  # (M,) its target (regression; empty otherwise)
    order: np.ndarray  # (A, M) positions sorted by each numeric attribute's value within each node, missing last
    vals: np.ndarray  # (A, M) the value at each place of `order`


class Splits(NamedTuple):
    """Which nodes of a level split, and where their children stand in the next level."""

    split: np.ndarray  # (L,) bool
    n_children: np.ndarray  # (L,)
    first_child: np.ndarray  # (L,) the index of its first child among the next level's nodes


class Scoring(NamedTuple):
    """What a threshold scan ranks cuts by, and the split rules a cut must satisfy."""

    rank_by: int  # criteria.BY_GAIN, BY_GINI or BY_RATIO
    factor: np.ndarray  # (k,) each class's weight (priors); all 1: class weights are counts
    sized: bool  # the size rules read case weights, not the class-weighted masses
    n_classes: int
    min_leaf: float
    min_branch: float  # J48's -M (0: off)
    tolerance: float  # values closer than this are one value: no cut between them
    correction: bool  # C4.5 release 8's threshold correction
    by_ratio: bool  # the 1993 book's C4.5: a cut picked by gain ratio among those of average gain
    table: np.ndarray  # x log2 x of 0, 1, ..., n


class Found(NamedTuple):
    """Each attribute's competing candidate at each node of a level: (L, A) arrays a scan writes."""

    index: np.ndarray  # its rank among the attribute's candidates (-1: none qualifies)
    threshold: np.ndarray  # a cut's midpoint (NaN: not a cut)
    score: np.ndarray  # what the criterion ranks the attribute by
    gain: np.ndarray  # its gain (Gini gain for gini; for gain ratio the corrected gain)
    reason: np.ndarray  # rules.OK, or why no candidate qualifies
    ok: np.ndarray  # how many candidates satisfy the split rules
    ties: np.ndarray  # how many tie with the best

    @staticmethod
    def empty(nodes: int, attributes: int, reason: int) -> "Found":
        """Nothing found yet: every reason `reason`."""
        shape = (nodes, attributes)
        return Found(np.full(shape, -1, dtype=np.int64), np.full(shape, np.nan), np.zeros(shape), np.zeros(shape),
                     np.full(shape, reason, dtype=np.int64), np.zeros(shape, dtype=np.int64),
                     np.zeros(shape, dtype=np.int64))


class FlatTests(NamedTuple):
    """A tree's nodes, breadth-first (`dtlearn.routing.FlatTree`): each node's test and children."""

    kind: np.ndarray  # 0 leaf, 1 threshold, 2 categorical
    attribute: np.ndarray  # the column of the rows' values or codes it reads
    threshold: np.ndarray
    map_start: np.ndarray  # its value map's first entry in `maps` (`routing.code_branch`)
    maps: np.ndarray  # every categorical test's and surrogate's value map
    child_start: np.ndarray  # its children are consecutive from here
    n_child: np.ndarray
    share: np.ndarray  # each node's share of its parent's known weight
    node_values: np.ndarray  # (nodes, classes): distribution; regression: (nodes, 1) value


class FlatSurrogates(NamedTuple):
    """Each node's surrogates, in rank order: node i's are start[i]..start[i] + count[i]."""

    start: np.ndarray
    count: np.ndarray
    kind: np.ndarray  # per surrogate, as FlatTests
    attribute: np.ndarray
    threshold: np.ndarray
    map_start: np.ndarray  # into FlatTests.maps
    reversed: np.ndarray  # 1: its branches stand for the primary's the other way round


class Rows(NamedTuple):
    """Rows to route, in the tree's encoding (`dtlearn.routing.EncodedRows`)."""

    values: np.ndarray  # (rows, attributes) float, NaN = missing
    codes: np.ndarray  # (rows, attributes) -1 missing, -2 never seen in training, else a code
    weights: np.ndarray  # (rows,)


class Routed(NamedTuple):
    """What routing writes, each skipped when empty."""

    values: np.ndarray  # (rows, classes) += weight * node value where a row's weight ends
    y: np.ndarray  # (rows,) the column of node_totals each row adds to
    node_totals: np.ndarray  # (nodes, columns) += the weight reaching each node
    leaf_of: np.ndarray  # (rows,) the node where a row's largest weight ends


class SortedNode(NamedTuple):
    """One node's numeric attributes in ascending order (`dtlearn.surrogates.SortedValues`): for p
    in start..end, order[k, p] is the level position of attribute k's p-th smallest value."""

    order: np.ndarray  # (A, M) positions sorted by each attribute's value within the node, missing last
    vals: np.ndarray  # (A, M) the value at each place of `order`
    start: int
    end: int


class SurrogateCuts(NamedTuple):
    """Each numeric attribute's best surrogate cut at a node: (A,) arrays `surrogate_cuts` writes."""

    threshold: np.ndarray  # the cut's midpoint
    flipped: np.ndarray  # bool: x <= t goes right
    score: np.ndarray  # the weight the cut agrees on with the primary; -inf: no valid cut


class Subtrees(NamedTuple):
    """A tree in pre-order as the weakest-link sequence reads it, updated as it prunes."""

    own: np.ndarray  # R(t)
    below: np.ndarray  # R(T_t) of the tree pruned so far
    leaves: np.ndarray  # |leaves(T_t)|
    end: np.ndarray  # node i's subtree is the positions i..end[i]
    parent: np.ndarray  # its parent's position (-1 at the root)
    order: np.ndarray  # growth order: ties in g(t) go to the node grown first
    internal: np.ndarray  # bool: not pruned to a leaf yet


class Links(NamedTuple):
    """The weakest-link sequence, one row a link."""

    node: np.ndarray  # the position pruned
    risk_subtree: np.ndarray  # its R(T_t) before
    leaves: np.ndarray  # its |leaves(T_t)| before
    shown: np.ndarray  # (links, SHOWN) the internal nodes of least g(t), -1 after the last
    g: np.ndarray  # (links, SHOWN) their g(t)
