"""The split rules' constants, written once for the definitions (`splits`, `table`) and the
compiled kernels (`kernels`): why a candidate does not compete, when two scores tie, when a case
weight reaches a minimum, and J48's minimum cases on each side of a cut.
"""

from __future__ import annotations

import numpy as np

# why a candidate breaks the split rules, the most basic first (an attribute says the lowest broken)
OK, NO_KNOWN, ONE_BRANCH, SMALL_LEAF, FEW_CASES, SMALL_SIDE = range(6)
# why a candidate that satisfies them does not compete (the table's words: `table.CandidateTable`)
USED, NOT_BEST_THRESHOLD, NO_CORRECTED_GAIN, BELOW_AVERAGE, ZERO_RATIO, SHORTCUT = range(6, 12)

TIE = 1e-12  # scores within TIE of each other are ties, won by the candidate first in table order
SIZE_TOLERANCE = 1e-6  # case weights below a minimum by less than this count as reaching it (Weka's
# Utils.grOrEq): fractional weights add up with rounding, 2 may arrive as 1.9999999999999996
AVERAGE_TOLERANCE = 1e-3  # J48 compares gain >= average - 1e-3 ("closer to the original C4.5")


def j48_min_split(n_known, m, n_classes):
    """J48's minimum cases on each side of a threshold (Weka's C45Split): 10% of the node's known
    weight per class; M when that is at most M, else at most 25. One formula for one cut (a
    number, in the kernels) and for a column of cuts (an array, in `splits`): each case times
    whether it holds, which adds 0 to the other.

    >>> [float(j48_min_split(n, 2.0, 2)) for n in (30, 100, 1000)]
    [2.0, 5.0, 25.0]
    """
    raw = 0.1 * n_known / n_classes
    return (raw <= m) * m + (raw > m) * np.minimum(raw, 25.0)
