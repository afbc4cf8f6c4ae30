"""A deep chain tree in the app: uploaded, stepped to the end, drawn, partitioned and pruned
with every method, with Python's recursion limit lowered (any recursion would fail) and no
traceback or error box (a computation over the app's budget shows one). A 3,000-row chain here
(2,999 levels) keeps the test short; benchmarks/bench_depth.py runs the 20,000-level one."""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd

from pages.pruning_view import METHODS

DEPTH = 3000


def chain_csv(depth: int) -> bytes:
    x = np.arange(depth)
    frame = pd.DataFrame({"x": x, "x2": x * 0.5 + 1, "y": np.where(x % 2 == 0, "a", "b")})
    return frame.to_csv(index=False).encode()


def test_a_deep_chain_is_stepped_drawn_partitioned_and_pruned(open_app):
    app = open_app(dataset="tennis", algo="cart", page="step")
    app.set("selectbox", "dataset", "__upload__")
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(600)  # far below the tree's depth, above Streamlit's own frames
    try:
        app.at.file_uploader(key="upload_file").upload("chain.csv", chain_csv(DEPTH), "text/csv").run()
        app.assert_clean()
        app.click("last")
        app.assert_clean()
        assert app.headers[0].startswith(f"Step {2 * DEPTH - 1} of {2 * DEPTH - 1}")
        assert any("levels folded:" in tree for tree in app.trees())  # the long path folded in the middle
        app.page("tree")
        app.assert_clean()
        app.set("segmented_control", "tree_view", "the whole tree")  # too large: its top levels
        app.assert_clean()
        assert app.trees() and "folded:" in app.trees()[0]
        app.page("partitions")
        app.assert_clean()
        assert app.figures()
        app.page("pruning")
        for method in METHODS:
            app.set("selectbox", "prune_method", method)
            app.assert_clean()
            app.click("prune_last")
            app.assert_clean()
            assert app.trees()
    finally:
        sys.setrecursionlimit(old)


def test_the_next_step_of_a_large_tree_is_laid_out_ahead_as_the_page_will_draw_it(open_app, monkeypatch):
    # Laid out whole, the next step of the 20,000-level chain was 28,000 labels and minutes of
    # `dot` in the background while the page only ever draws the current node's neighbourhood.
    import threading

    from drawn_trees import node_count
    from pages import drawing, stage

    ahead, drawn = [], []
    layout, show = drawing._layout, stage.show

    def laid_out(dot):
        if threading.current_thread().name.startswith("dtlearn-prefetch"):
            ahead.append(dot)
        return layout(dot)

    monkeypatch.setattr(drawing, "_layout", laid_out)
    monkeypatch.setattr(stage, "show",
                        lambda name, shown, *a, **k: drawn.append(shown.dot) or show(name, shown, *a, **k))
    app = open_app(dataset="tennis", algo="cart", page="step")
    app.set("selectbox", "dataset", "__upload__")
    app.at.file_uploader(key="upload_file").upload("chain.csv", chain_csv(400), "text/csv").run()
    app.click("last").click("prev")
    drawing.in_background(lambda: None).result()
    drawing.tree_svg.cache_clear()  # nothing laid out yet: what comes next is laid out anew
    ahead.clear()
    app.click("prev")  # step 797 of 799: the tree has ~800 nodes
    app.assert_clean()
    drawing.in_background(lambda: None).result()  # the next step is made ready on the prefetch thread
    assert ahead and all(0 < node_count(dot) < 40 for dot in ahead)  # neighbourhoods, never ~800 nodes
    app.click("next")
    app.assert_clean()
    assert drawn[-1] in ahead  # the page draws at the next step what was laid out ahead


def test_a_tree_of_many_leaves_lists_its_first_rules_and_writes_its_downloads_when_clicked(open_app):
    # the whole chain's DOT and rules were written at every click on the Tree page (20,000
    # levels: a second of the page's time, and megabytes of rules sent to the browser)
    from pages.wording import RULES_SHOWN

    app = open_app(dataset="tennis", algo="cart", page="tree")
    app.set("selectbox", "dataset", "__upload__")
    app.at.file_uploader(key="upload_file").upload("chain.csv", chain_csv(1200), "text/csv").run()
    app.click("last")
    app.assert_clean()
    assert len(app.at.code[0].value.splitlines()) == RULES_SHOWN == 500
    assert any("The first 500 of 1,200: 'Rules (text)' below downloads them all." in c.value for c in app.at.caption)
    downloads = {b.proto.label: b.proto for b in app.at.get("download_button")}
    assert {"DOT source", "SVG picture", "PNG picture", "Rules (text)"} <= set(downloads)
    assert all(downloads[name].deferred_file_id for name in ("DOT source", "Rules (text)"))  # made when clicked
