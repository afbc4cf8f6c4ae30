"""kernels.partition_in_place against a stable sort by branch, for splits of two to four
children (two children with every row placed take a loop of their own; wider splits and
splits with rows nothing could place, branch -1, take the general one; segments already in
branch order among them), the sorted orders written one row over in an array of a row more
than the attributes, either way (`engine_plan.Level.sorted_store`)."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from dtlearn import kernels


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_every_width_of_split_keeps_each_childs_rows_and_sorted_orders(data):
    sizes = data.draw(st.lists(st.integers(1, 12), min_size=1, max_size=4))
    n, A = sum(sizes), 2
    starts = np.cumsum([0] + sizes[:-1]).astype(np.int64)
    ends = starts + np.array(sizes)
    split = np.array(data.draw(st.lists(st.booleans(), min_size=len(sizes), max_size=len(sizes))))
    width = [data.draw(st.integers(2, 4)) for _ in sizes]
    n_children = np.where(split, width, 0).astype(np.int64)
    offsets = np.concatenate([[0], np.cumsum(n_children)])[:-1]
    unknown = data.draw(st.booleans())  # some rows nothing could place
    in_order = data.draw(st.booleans())  # a segment already in branch order (a chain's cut at an end)
    branch = np.full(n, -2, dtype=np.int32)
    for i in np.flatnonzero(split):
        low = -1 if unknown else 0
        drawn = data.draw(st.lists(st.integers(low, width[i] - 1), min_size=sizes[i], max_size=sizes[i]))
        branch[starts[i]:ends[i]] = sorted(drawn, key=lambda b: b if b >= 0 else width[i]) if in_order else drawn
    rows = np.arange(n, dtype=np.int32)[::-1].copy()
    unit = data.draw(st.booleans())  # every weight 1: w is left as it is, and still reads right
    w, ypos = np.ones(n) if unit else np.linspace(0.5, 1.5, n), np.linspace(-3.0, 7.0, n)
    cls = (np.arange(n) % 3).astype(np.int8)
    shift = data.draw(st.integers(0, 1))  # the level's orders in rows shift.., the next level's in rows 1 - shift..
    store = np.full((A + 1, n), -1, dtype=np.int32), np.full((A + 1, n), np.nan)
    order, vals = store[0][shift:shift + A], store[1][shift:shift + A]
    for a in range(A):
        value = np.array(data.draw(st.permutations(range(n))), float)
        for s, e in zip(starts, ends):
            order[a, s:e] = s + np.argsort(value[s:e], kind="stable")
            vals[a, s:e] = value[order[a, s:e]]
    before = (rows.copy(), w.copy(), cls.copy(), ypos.copy(), order.copy(), vals.copy())
    kids = int(n_children.sum())
    child_starts, child_ends = np.zeros(kids, np.int64), np.zeros(kids, np.int64)
    to = 1 - shift
    kernels.partition_in_place(kernels.Level(starts, ends, rows, w, cls, ypos, order, vals),
                               kernels.Splits(split, n_children, offsets), branch, child_starts, child_ends,
                               store[0][to:to + A], store[1][to:to + A], to == 1, unit,
                               (np.empty(n, np.int64), np.empty(n, np.int32), np.empty(n, np.int8), np.empty(n),
                                np.empty(n)))
    order, vals = store[0][to:to + A], store[1][to:to + A]
    for i, (s, e) in enumerate(zip(starts, ends)):
        if not split[i]:  # its rows stay; its sorted orders are no longer read (a leaf)
            assert (rows[s:e] == before[0][s:e]).all()
            continue
        key = np.where(branch[s:e] < 0, n_children[i], branch[s:e])  # branch -1 last
        moved = s + np.argsort(key, kind="stable")  # the old position now at each new position
        new_of = np.empty(e - s, dtype=np.int64)
        new_of[moved - s] = np.arange(s, e)
        for name, now, old in zip(("rows", "w", "cls", "ypos"), (rows, w, cls, ypos), before[:4]):
            assert (now[s:e] == old[moved]).all(), name
        for b in range(n_children[i]):
            assert child_starts[offsets[i] + b] == s + (key < b).sum()
            assert child_ends[offsets[i] + b] == s + (key <= b).sum()
        for a in range(A):
            old_order = before[4][a, s:e]
            by_branch = np.argsort(key[old_order - s], kind="stable")
            assert (order[a, s:e] == new_of[old_order - s][by_branch]).all()
            assert (vals[a, s:e] == before[5][a, s:e][by_branch]).all()
