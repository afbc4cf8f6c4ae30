"""CART's subset splits of a categorical attribute, scored for every node of a level at once.

`candidates.subset_block` defines them node by node: the present values ordered by mean target
(regression) or by the proportion of the last class present (two classes; Breiman et al. 1984,
Thm 4.5), and the p - 1 prefixes of that order, each written with the smaller side (on a tie,
the side holding the first value). Scoring them node by node costs ~0.3 ms of Python per node
and attribute: a 200,000-row upload's CART tree (24,000 splits, three such attributes) took a
minute. Here the same sums, orders, prefixes and `measures` are made for all the level's nodes
as arrays (a node with fewer values padded with candidates that are never eligible), and each
node's competing candidate is chosen as `splits.block_best` chooses it. The engine uses this
where it applies (`applies`) and `candidates` elsewhere; the two are tested equal.
"""

from __future__ import annotations

import numpy as np

from . import budget
from .candidates import Block, _stats, _subset_sums
from .splits import OK, TIE, no_candidate_reason, split_limits

PADDING = np.iinfo(np.int64).max  # the reason code of a padded candidate: never the smallest


def applies(encoded, settings) -> bool:
    """Whether a level's subset blocks can be scored here: CART's ordering shortcut (a numeric
    target, or two classes), no Zaki search, no class-prior sizes, a criterion ranking by gain."""
    return (settings.categorical_split == "subset" and settings.max_subset_size is None and not encoded.sized
            and settings.criterion != "gain_ratio" and (encoded.is_regression or len(encoded.classes) <= 2))


def score(encoded, settings, attributes, nodes: np.ndarray, starts, ends, rows, weights) -> list[tuple]:
    """For each of `attributes`, each node's competing subset: ((index, score, gain, reason,
    ties) arrays over `nodes`, {node: Block}), the Block holding its candidates' value sets
    (for the winner's test). The rows' channels and each node's sums are made once for all."""
    L = len(nodes)
    segments = list(zip(starts[nodes].tolist(), ends[nodes].tolist()))
    segment = np.repeat(np.arange(L), (ends - starts)[nodes])
    positions = np.concatenate([np.arange(a, b) for a, b in segments]) if L else np.zeros(0, np.int64)
    node_rows = rows[positions].astype(np.int64)
    channels = encoded.channels(node_rows, weights[positions])  # (channels, M), as the node by node path
    bounds = np.concatenate([[0], np.cumsum((ends - starts)[nodes])])
    # each node's sums as the node by node path sums its own rows (the same pairwise sum per row)
    node_sums = np.array([channels[:, a:b].sum(axis=1) for a, b in zip(bounds[:-1], bounds[1:])]) if L \
        else np.zeros((0, len(channels)))
    scored = []
    for attribute in attributes:
        budget.check_time()
        scored.append(_score(encoded, settings, attribute, segment, node_rows, channels, node_sums, nodes))
    return scored


def _score(encoded, settings, attribute: str, segment, node_rows, channels, node_sums, nodes) -> tuple:
    values = encoded.categories(attribute)
    V, L = len(values), len(nodes)
    index, gain_at, score_at = np.full(L, -1, dtype=np.int64), np.zeros(L), np.zeros(L)
    reason, ties = np.zeros(L, dtype=np.int64), np.zeros(L, dtype=np.int64)
    if L == 0:
        return (index, score_at, gain_at, reason, ties), {}
    codes = encoded.codes(attribute)[node_rows]
    known = codes >= 0
    key = segment[known] * V + codes[known]
    sums = np.stack([np.bincount(key, weights=c[known], minlength=L * V) for c in channels], axis=-1)
    sums = sums.reshape(L, V, len(channels))  # (nodes, values, channels), each node's rows in order
    missing = np.maximum(node_sums - sums.sum(axis=1), 0.0)
    present, order_key = _ordering(encoded, sums)
    subsets, real = _prefixes(present, order_key)  # (nodes, V - 1, V), (nodes, V - 1)
    left = np.zeros(subsets.shape[:2] + (sums.shape[2],))
    for i in range(L):  # summed as the definition sums them (a stacked matmul rounds otherwise)
        left[i, real[i]] = _subset_sums(subsets[i][real[i]], sums[i])
    branches = np.stack([left, sums.sum(axis=1)[:, None, :] - left], axis=2)  # (nodes, C, 2, channels)
    stats = _stats(encoded, branches, missing[:, None, :])
    ok, why = split_limits(settings, stats, max(len(encoded.classes), 1), "subset")
    ok &= real
    why = np.where(real, why, PADDING)
    rank = stats.score_by(settings.criterion)
    masked = np.where(ok, rank, -np.inf)
    within = masked >= masked.max(axis=1, initial=-np.inf)[:, None] - TIE
    has = ok.any(axis=1)
    if has.any():
        picked = np.flatnonzero(has)
        best = np.argmax(within[picked], axis=1)
        index[picked] = best
        score_at[picked] = rank[picked, best]
        gain_at[picked] = stats.gain_by(settings.criterion)[picked, best]
        ties[picked] = within[picked].sum(axis=1)
        reason[picked] = OK
    size = channels[0] if encoded.is_regression else channels.sum(axis=0)  # the rows' case weights
    known_weight = np.bincount(segment[known], weights=size[known], minlength=L)  # only its sign is read
    for i in np.flatnonzero(~has):  # no candidate qualifies: the most basic reason, as block_best says
        reason[i] = no_candidate_reason(float(known_weight[i]), why[i][real[i]])
    blocks = {int(node): Block(attribute, "subset", None, values=values, subsets=subsets[i][real[i]])
              for i, node in enumerate(nodes.tolist())}
    return (index, score_at, gain_at, reason, ties), blocks


def _ordering(encoded, sums) -> tuple[np.ndarray, np.ndarray]:
    """(present, key): the values each node holds, and the key ordering them (stable sort)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        if encoded.is_regression:  # candidates._order_by_mean
            present = sums[..., 0] > 0
            key = sums[..., 1] / sums[..., 0]
        else:  # candidates._subsets / _order_by: the proportion of the last class present
            counts = sums[..., :len(encoded.classes)]
            present = counts.sum(axis=2) > 0
            here = counts.sum(axis=1) > 0  # (nodes, classes)
            last = np.where(here.any(axis=1), here.shape[1] - 1 - np.argmax(here[:, ::-1], axis=1), 0)
            key = counts[np.arange(len(sums)), :, last] / counts.sum(axis=2)
    return present, np.where(present, key, np.inf)


def _prefixes(present: np.ndarray, key: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """candidates._prefixes of one ordering for every node: the p - 1 prefixes in size order,
    each as the smaller side (on a tie, the side holding the node's first present value);
    `real` marks the candidates a node has (p - 1 of V - 1)."""
    L, V = present.shape
    if V == 0:  # an attribute with no value at all (every cell empty): no candidate
        return np.zeros((L, 0, 0), dtype=bool), np.zeros((L, 0), dtype=bool)
    rank = np.empty((L, V), dtype=np.int64)
    rank[np.arange(L)[:, None], np.argsort(key, axis=1, kind="stable")] = np.arange(V)
    p = present.sum(axis=1)
    first = np.argmax(present, axis=1)  # the node's first present value
    size = np.arange(1, V)[None, :, None]  # (1, V - 1, 1)
    inside = rank[:, None, :] < size  # the prefix of each size
    n = p[:, None, None]
    flip = (size > n - size) | ((2 * size == n) & (rank[np.arange(L), first][:, None, None] >= size))
    subsets = np.where(flip, present[:, None, :] & ~inside, inside)
    real = np.arange(1, V)[None, :] < p[:, None]
    return subsets & real[:, :, None], real
