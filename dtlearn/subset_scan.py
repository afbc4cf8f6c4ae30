"""Subset splits of a categorical attribute, scored for every node of a level at once: CART's
and Zaki & Meira's.

`candidates.subset_block` defines them node by node: CART's are the present values ordered by
mean target (regression) or by the proportion of the last class present (two classes; Breiman
et al. 1984, Thm 4.5), and the p - 1 prefixes of that order, each written with the smaller side
(on a tie, the side holding the first value); with three classes or more, every partition up
to `max_exhaustive_values` values, else the prefixes of each class's ordering; Zaki's are
every set of at most l present values, in size then value order (`candidates.small_subsets`).
Scoring them node by node costs ~0.3 ms of Python per node and attribute: a 200,000-row
upload's CART tree (24,000 splits, three such attributes) took a minute, its Zaki tree 12 s,
a three-class CART tree of a 5 MB file 40 s. Here the same sums, candidate sets and `measures`
are made for all the level's nodes as arrays (a node's candidates among a padding that is
never eligible: after its own, or for Zaki wherever a set holds a value the node lacks, the
order of the rest kept; three classes: each node's sets made by `candidates._subsets` itself),
and each node's competing candidate is chosen as `splits.block_best` chooses it. The engine
uses this where it applies (`applies`, `fits`) and `candidates` elsewhere; the two are tested
equal, bit for bit.
"""

from __future__ import annotations

from collections import ChainMap
from collections.abc import Mapping

import numpy as np

from . import budget
from .candidates import (Block, _stats, _subset_sums, _subsets, count_small_subsets, small_subsets, subset_advice,
                         subset_bytes)
from .criteria import criterion
from .splits import OK, TIE, no_candidate_reason, split_limits

PADDING = np.iinfo(np.int64).max  # the reason code of a padded candidate: never the smallest
MAX_SETS = 2_000  # Zaki's sets over an attribute's every value, beyond which it is scored node by node
CELLS = 4_000_000  # nodes x candidates x values per batch: the arrays of one batch stay in tens of MB
BATCH_BYTES = 64 * 2**20  # and their bytes (`candidates.subset_bytes`): many classes make wide sums


def applies(encoded, settings) -> bool:
    """Whether a level's subset blocks can be scored here: subset splits without class-prior
    sizes, by a criterion ranking by gain."""
    ratio = criterion(settings.criterion).kind == "ratio"
    return settings.categorical_split == "subset" and not encoded.sized and not ratio


def _shortcut(encoded, settings) -> bool:
    """CART's ordering shortcut: a numeric target, or two classes."""
    return settings.max_subset_size is None and (encoded.is_regression or len(encoded.classes) <= 2)


def fits(encoded, settings, attribute: str) -> bool:
    """Whether the attribute's candidates, padded to its every value, are few enough: Zaki's
    sets of l of hundreds of values are many more than any node holds (3,000 values: 4.5
    million pairs), and are scored node by node among the node's present values."""
    n = len(encoded.categories(attribute))
    return settings.max_subset_size is None or count_small_subsets(n, settings.max_subset_size) <= MAX_SETS


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
        V = len(encoded.categories(attribute))
        width = _most_candidates(encoded, settings, V)
        # a node's candidates are padded to the attribute's every value: one node is the least a
        # batch holds, so past the budget the attribute is refused before any is made
        per_node = subset_bytes(width, V, len(channels))
        budget.check_bytes(per_node, f"The subsets of '{attribute}' ({V:,} values)",
                           subset_advice(attribute, settings.max_subset_size))
        batch = max(1, min(CELLS // max(width * V, 1), BATCH_BYTES // max(per_node, 1)))  # 0: no candidates
        parts = [_score(encoded, settings, attribute, segment[bounds[a]:bounds[b]] - a,
                        node_rows[bounds[a]:bounds[b]], channels[:, bounds[a]:bounds[b]], node_sums[a:b], nodes[a:b])
                 for a, b in ((a, min(a + batch, L)) for a in range(0, max(L, 1), batch))]
        found = tuple(np.concatenate([part[0][k] for part in parts]) for k in range(5))
        scored.append((found, ChainMap(*[part[1] for part in parts])))
    return scored


def _score(encoded, settings, attribute: str, segment, node_rows, channels, node_sums, nodes) -> tuple:
    values = encoded.categories(attribute)
    V, L = len(values), len(nodes)
    index, gain_at, score_at = np.full(L, -1, dtype=np.int64), np.zeros(L), np.zeros(L)
    reason, ties = np.zeros(L, dtype=np.int64), np.zeros(L, dtype=np.int64)
    if L == 0:
        return (index, score_at, gain_at, reason, ties), NodeBlocks(attribute, values, None, None, "", nodes)
    codes = encoded.codes(attribute)[node_rows]
    known = codes >= 0
    key = segment[known] * V + codes[known]
    sums = np.stack([np.bincount(key, weights=c[known], minlength=L * V) for c in channels], axis=-1)
    sums = sums.reshape(L, V, len(channels))  # (nodes, values, channels), each node's rows in order
    missing = np.maximum(node_sums - sums.sum(axis=1), 0.0)
    if settings.max_subset_size is not None:
        subsets, real = _small_subsets(np.abs(sums).sum(axis=2) > 0, settings.max_subset_size)
        note = f"subsets of at most {settings.max_subset_size} values (Zaki & Meira's l)"
    elif _shortcut(encoded, settings):
        subsets, real = _prefixes(*_ordering(encoded, sums))  # (nodes, V - 1, V), (nodes, V - 1)
        note = ""
    else:
        subsets, real, note = _each_nodes_sets(sums[..., :len(encoded.classes)], settings.max_exhaustive_values)
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
        index[picked] = (np.cumsum(real[picked], axis=1) - 1)[np.arange(len(picked)), best]  # among the node's own
        score_at[picked] = rank[picked, best]
        gain_at[picked] = stats.gain_by(settings.criterion)[picked, best]
        ties[picked] = within[picked].sum(axis=1)
        reason[picked] = OK
    size = channels[0] if encoded.is_regression else channels.sum(axis=0)  # the rows' case weights
    known_weight = np.bincount(segment[known], weights=size[known], minlength=L)  # only its sign is read
    for i in np.flatnonzero(~has):  # no candidate qualifies: the most basic reason, as block_best says
        reason[i] = no_candidate_reason(float(known_weight[i]), why[i][real[i]])
    return (index, score_at, gain_at, reason, ties), NodeBlocks(attribute, values, subsets, real, note, nodes)


class NodeBlocks(Mapping):
    """node -> its Block (the candidates' value sets, for the winner's test), made when asked
    for: the engine asks for the winners' alone (a Block for every node and attribute of a
    million-row CART tree's levels was 1.6 s)."""

    def __init__(self, attribute: str, values: tuple, subsets, real, note, nodes: np.ndarray) -> None:
        self._attribute, self._values, self._subsets, self._real, self._note = attribute, values, subsets, real, note
        self._at = dict(zip(nodes.tolist(), range(len(nodes))))

    def __getitem__(self, node: int) -> Block:
        i = self._at[node]
        note = self._note if isinstance(self._note, str) else self._note[i]
        return Block(self._attribute, "subset", None, values=self._values, subsets=self._subsets[i][self._real[i]],
                     note=note)

    def __contains__(self, node) -> bool:
        return node in self._at

    def __iter__(self):
        return iter(self._at)

    def __len__(self) -> int:
        return len(self._at)


def _most_candidates(encoded, settings, V: int) -> int:
    """The most candidate sets a node can have on an attribute of V values."""
    if settings.max_subset_size is not None:
        return count_small_subsets(V, settings.max_subset_size)
    if _shortcut(encoded, settings):
        return max(V - 1, 1)
    exhaustive = 2 ** (min(V, settings.max_exhaustive_values) - 1) - 1
    return max(exhaustive, len(encoded.classes) * (V - 1), 1)


def _each_nodes_sets(counts: np.ndarray, max_exhaustive: int) -> tuple[np.ndarray, np.ndarray, list]:
    """Three classes or more (no ordering shortcut): each node's candidate sets as the
    definition makes them (`candidates._subsets`: every partition up to max_exhaustive values,
    else the prefixes of each class's ordering), padded after its last; and each node's note."""
    made = [_subsets(node, max_exhaustive) for node in counts]
    L, V = counts.shape[:2]
    subsets = np.zeros((L, max([len(sets) for sets, _ in made] + [0]), V), dtype=bool)
    real = np.zeros(subsets.shape[:2], dtype=bool)
    for i, (sets, _) in enumerate(made):
        subsets[i, :len(sets)], real[i, :len(sets)] = sets, True
    return subsets, real, [note for _, note in made]


def _small_subsets(present: np.ndarray, max_size: int) -> tuple[np.ndarray, np.ndarray]:
    """candidates.small_subsets for every node: its sets over all V values (each present), `real`
    where every member is present at the node and the set is not all p present values (the
    node's own sets, in their order: a subsequence of these)."""
    L, V = present.shape
    every, _ = small_subsets(np.ones((V, 1)), max_size)  # (C, V), in size then value order
    p = present.sum(axis=1)
    inside = ~(every[None, :, :] & ~present[:, None, :]).any(axis=2)  # (L, C): every member present
    real = inside & (every.sum(axis=1)[None, :] <= p[:, None] - 1)
    return np.broadcast_to(every, (L,) + every.shape), real


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
