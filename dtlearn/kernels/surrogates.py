"""CART's surrogate cuts of the numeric attributes at one node (Breiman et al. 1984, ch. 5.3).
"""

from __future__ import annotations

import math

import numpy as np

from ..jit import njit


@njit(cache=True, nogil=True)
def surrogate_cuts(node, primary, out):
    """Each numeric attribute's best surrogate cut at the node of level positions start..end
    (`surrogates._numeric`, whose numbers these are, for rows of weight 1), its values sorted
    in `node` (`layout.SortedNode`); primary[q - start] the primary's branch of position q (-1:
    unknown, the row left out). Writes `out` (`layout.SurrogateCuts`): score[k] the weight the
    best cut agrees on, -inf when no cut is valid (fewer than 4 known rows, or none with 2 on
    each side); threshold[k] its midpoint, flipped[k] whether x <= t goes right.

    Both structures come as plain tuples, in their fields' order: numba's dispatcher types a
    named tuple in Python, on every call, and this kernel is called once for each split node."""
    order, vals, start, end = node
    out_threshold, out_flipped, out_score = out
    for k in range(order.shape[0]):
        m, total_l, total_r = 0, 0.0, 0.0
        for p in range(start, end):
            b = primary[order[k, p] - start]
            if b >= 0 and not math.isnan(vals[k, p]):
                m += 1
                if b == 0:
                    total_l += 1.0
                else:
                    total_r += 1.0
        out_score[k] = -np.inf
        if m < 4:
            continue
        count, left_l, left_r = 0, 0.0, 0.0
        previous = 0.0
        previous_straight, previous_flipped = 0.0, 0.0
        for p in range(start, end):
            b = primary[order[k, p] - start]
            x = vals[k, p]
            if b < 0 or math.isnan(x):
                continue
            if count >= 2 and m - count >= 2 and x > previous:  # the cut after the previous row
                best = max(previous_straight, previous_flipped)
                if best > out_score[k]:
                    out_score[k] = best
                    out_threshold[k] = previous / 2 + x / 2
                    out_flipped[k] = previous_flipped > previous_straight
            if b == 0:
                left_l += 1.0
            else:
                left_r += 1.0
            count += 1
            previous = x
            previous_straight = left_l + (total_r - left_r)  # x <= t goes left
            previous_flipped = left_r + (total_l - left_l)  # x <= t goes right
