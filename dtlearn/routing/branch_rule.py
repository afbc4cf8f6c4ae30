"""One test's branch for training rows: the rule of `kernels.routing` (`value_branch`,
`code_branch`) applied to a column of the encoded training data, and the value maps through
which the kernels read a categorical test or surrogate.
"""

from __future__ import annotations

import numpy as np

from .. import kernels
from ..conditions import MultiwayTest, ThresholdTest


def branches(encoded, test, rows: np.ndarray) -> np.ndarray:
    """The branch of each training row at `test`: 0, 1, ... or -1 where its value is missing."""
    out = np.empty(len(rows), dtype=np.int64)
    if isinstance(test, ThresholdTest):
        kernels.branches_by_threshold(encoded.numeric(test.attribute)[rows], test.threshold, out)
    else:
        lookup = code_map(test, encoded.categories(test.attribute))
        kernels.branches_by_code(encoded.codes(test.attribute)[rows], lookup, 1, out)
    return out


def value_map(test, categories) -> np.ndarray:
    """Branch of each category (a code), -1 where the test cannot place it."""
    if isinstance(test, MultiwayTest):
        where = {v: b for b, v in enumerate(test.values)}
        return np.array([where.get(c, -1) for c in categories], dtype=np.int64)
    left = set(test.left)
    return np.array([0 if c in left else 1 for c in categories], dtype=np.int64)


def code_map(test, categories) -> np.ndarray:
    """A categorical test's map as the kernels read it (`code_branch`, from position 1): first
    where a value never seen in training goes (a subset test: its second branch; a multiway
    test: nowhere, -1), then `value_map`."""
    return np.concatenate(([-1 if isinstance(test, MultiwayTest) else 1], value_map(test, categories)))


def surrogate_map(test, categories) -> np.ndarray:
    """A categorical surrogate's map, read as `code_map`'s: a value it never saw, or one neither side
    lists, it cannot tell (-1); the others go to the primary branch its side stands for."""
    known, inside = set(test.left) | set(test.right), set(test.left)
    return np.array([-1] + [(0 if c in inside else 1) if c in known else -1 for c in categories], dtype=np.int64)


def surrogate_branches(encoded, surrogate, rows: np.ndarray) -> np.ndarray:
    """The primary branch a surrogate sends each training row to (-1: it cannot tell)."""
    test = surrogate.test
    if isinstance(test, ThresholdTest):
        branch = branches(encoded, test, rows)
    else:
        branch = np.empty(len(rows), dtype=np.int64)
        lookup = surrogate_map(test, encoded.categories(test.attribute))
        kernels.branches_by_code(encoded.codes(test.attribute)[rows], lookup, 1, branch)
    return np.where(branch < 0, -1, branch ^ int(surrogate.reversed))
