"""One branch per value of each categorical attribute at every active node of a level (ID3, C4.5).
"""

from __future__ import annotations

import numpy as np

from ..jit import njit
from ..rules import FEW_CASES, NO_KNOWN, OK, ONE_BRANCH, SIZE_TOLERANCE, SMALL_LEAF, USED
from .criteria import BY_RATIO, entropy, gain, impurity, ratio


@njit(cache=True, nogil=True)
def scan_multiway(level, active, blocked, codes, n_values, scoring, found):
    """One branch per value of each categorical attribute at every active node of `level` (ID3,
    C4.5), scored and ruled by `scoring`, into `found`. `codes` is (rows, attributes), n_values
    each attribute's number of values: one pass over a node's rows counts every attribute.
    `blocked` (L, attributes): those a node may not test (ID3's used ones), left unscored (USED).

    A node's class weights are counted into a (values, classes) table per attribute. An attribute
    with no more values than the node has rows is read value by value, in order; one with more
    (thousands of values at a node of a few rows) by the values the rows touched, sorted, so that
    the branches are summed in the same order either way (an absent value adds exact zeros)."""
    starts, ends, rows, w, cls = level.starts, level.ends, level.rows, level.w, level.cls
    factor, rank_by, min_leaf, min_branch = scoring.factor, scoring.rank_by, scoring.min_leaf, scoring.min_branch
    K = factor.shape[0]
    A = codes.shape[1]
    most = 1
    for a in range(A):
        most = max(most, n_values[a])
    counts = np.zeros((A, most, K))
    sizes = np.zeros((A, most))
    seen = np.zeros((A, most), dtype=np.bool_)
    touched = np.empty((A, most), dtype=np.int64)
    n_touched = np.zeros(A, dtype=np.int64)
    missing = np.zeros(A)
    known = np.zeros(K)
    parts = np.zeros(most + 1)  # the weight of each branch, then of the unknown rows
    todo = np.empty(A, dtype=np.int64)  # the attributes a node scores
    dense = np.zeros(A, dtype=np.bool_)  # read value by value (else by the touched values)
    for i in range(starts.shape[0]):
        if not active[i]:
            continue
        s, e = starts[i], ends[i]
        n_todo = 0
        for a in range(A):
            if blocked[i, a]:
                found.index[i, a] = -1
                found.reason[i, a] = USED
                continue
            todo[n_todo] = a
            n_todo += 1
            dense[a] = n_values[a] <= e - s
            n_touched[a] = 0
            missing[a] = 0.0
        for p in range(s, e):
            r = rows[p]
            c = cls[p]
            weight = w[p]
            mass = weight * factor[c]
            for t in range(n_todo):
                a = todo[t]
                v = codes[r, a]
                if v < 0:
                    missing[a] += mass
                    continue
                if not dense[a] and not seen[a, v]:
                    seen[a, v] = True
                    touched[a, n_touched[a]] = v
                    n_touched[a] += 1
                counts[a, v, c] += mass
                sizes[a, v] += weight
        for t in range(n_todo):
            a = todo[t]
            if dense[a]:
                m = n_values[a]
            else:
                m = n_touched[a]
                touched[a, :m].sort()
            known[:] = 0.0
            n_known = 0.0
            known_size = 0.0
            nonempty = 0
            enough = 0
            small = False
            for b in range(m):
                v = b if dense[a] else touched[a, b]
                size = sizes[a, v]
                for c in range(K):
                    known[c] += counts[a, v, c]
                if size > 0:
                    nonempty += 1
                    if min_leaf > 0 and size < min_leaf - SIZE_TOLERANCE:
                        small = True
                    # a value no row touched has no size: every row's weight is positive
                    if min_branch > 0 and size >= min_branch - SIZE_TOLERANCE:
                        enough += 1
                known_size += size
            for c in range(K):
                n_known += known[c]
            n_all = n_known + missing[a]
            after = 0.0  # sum_v n_v/n impurity(v): the definition, branch by branch
            for b in range(m):
                v = b if dense[a] else touched[a, b]
                mass = 0.0
                for c in range(K):
                    mass += counts[a, v, c]
                parts[b] = mass
                after += ratio(mass, n_known) * impurity(counts[a, v], mass, rank_by)
            parts[m] = missing[a]
            reason = OK
            if nonempty < 2:
                reason = ONE_BRANCH
            if known_size <= 0:
                reason = NO_KNOWN
            if reason == OK and small:
                reason = SMALL_LEAF
            if reason == OK and min_branch > 0 and enough < 2:
                reason = FEW_CASES
            found.reason[i, a] = reason
            found.index[i, a] = 0 if reason == OK else -1
            found.ok[i, a] = 1 if reason == OK else 0  # one candidate, which ties with itself
            found.ties[i, a] = found.ok[i, a]
            found.gain[i, a] = gain(impurity(known, n_known, rank_by), after, ratio(n_known, n_all))
            if reason != OK:
                found.score[i, a] = 0.0
            elif rank_by == BY_RATIO:  # over the split information: the entropy of `parts`
                found.score[i, a] = ratio(found.gain[i, a], entropy(parts[:m + 1], n_all))
            else:
                found.score[i, a] = found.gain[i, a]
            for b in range(m):  # clean the scratch for the next node
                v = b if dense[a] else touched[a, b]
                seen[a, v] = False
                sizes[a, v] = 0.0
                for c in range(K):
                    counts[a, v, c] = 0.0
