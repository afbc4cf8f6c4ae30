"""A 20,000-level chain tree in the app: every action under 2 s, and no RecursionError.

The chain (tests/test_depth_and_pickle.py): x = 0..n-1, classes alternating a / b, CART; every
cut leaves one row behind, so the tree is n - 1 levels deep. Here it is uploaded as a CSV with
a second numeric column x2 (for the Partitions page) and stepped, drawn, partitioned and pruned
in Streamlit's AppTest. Each line is one action: the seconds of its rerun (the app's script
plus AppTest's own parsing; computations are kept in the app's store, so a first visit pays for
them). Python's recursion limit is lowered while the app runs, so that any recursion on the way
fails. Timings on a shared machine are noisy: read them as orders of magnitude.

The reference, in the same process: the same actions on iris (a tree of a few dozen nodes),
so that the ratio says what the depth costs. With --run 2 the classes come in runs of two rows
(40,000 rows for 20,000 levels): pessimistic pruning, opened last, keeps the whole chain, which
the Tree and Partitions pages then show pruned.

    uv run python benchmarks/bench_depth.py [--depth 20000] [--run 1] [--no-reference]
"""

from __future__ import annotations

import argparse
import io
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[1]
APP = str(ROOT / "app.py")
LIMIT = 2.0  # seconds per action
METHODS = ("reduced_error", "validation_prepruning", "cost_complexity", "pessimistic")  # the last is drawn


def chain_csv(depth: int, run: int = 1) -> bytes:
    """The chain as a CSV: x = 0..depth*run-1, y a / b in runs of `run` rows, and x2 = 100 sqrt(x)
    rounded to 3 decimals (a second number for the Partitions page's plane). x2 is in x's order,
    so its cuts only tie with x's and x, first, wins each tie: the tree is depth - 1 levels deep.
    (An x2 in another order gives cuts that peel off several rows: 20,000 rows made 8,574 levels.)
    With run 1 every pruning method collapses the chain; with run 2 (leaves of two rows)
    pessimistic pruning keeps it whole, so a 20,000-level pruned tree is drawn and partitioned."""
    x = np.arange(depth * run)
    frame = pd.DataFrame({"x": x, "x2": np.round(np.sqrt(x) * 100, 3),
                          "y": np.where((x // run) % 2 == 0, "a", "b")})
    return frame.to_csv(index=False).encode()


class Timed:
    """An AppTest whose actions are timed and checked (no traceback, no error box)."""

    def __init__(self, label: str, timeout: float) -> None:
        self.label, self.times, self.missing = label, {}, None
        self.at = AppTest.from_file(APP, default_timeout=timeout)

    def do(self, name: str, action) -> None:
        start = time.perf_counter()
        action()
        self.times[name] = time.perf_counter() - start
        print(f"  {self.label}: {name}: {self.times[name]:.2f} s", flush=True)
        problems = [e.value for e in self.at.exception] + [e.value for e in self.at.error]
        if self.missing:
            problems.append(f"no {self.missing} button on the page")
            self.missing = None
        if problems:
            print(f"  {self.label}: {name}: {problems[0][:300]}")
            self.times[name] = float("nan")

    def click(self, key: str):
        def run():
            try:
                button = self.at.button(key=key)
            except KeyError:  # not on the page (it shows an error instead): counted as failed
                self.missing = key
                self.at.run()
                return
            if button.disabled:  # already there (e.g. the last decision is the first)
                self.at.run()
            else:
                button.click().run()
        return run

    def page(self, path: str):
        return lambda: self.at.switch_page(path).run()

    def state(self, **values):
        def run():
            for key, value in values.items():
                self.at.session_state[key] = value
            self.at.run()
        return run


def actions(app: Timed, upload: bytes | None, middle: int) -> None:
    """The actions timed, in order; `upload` None: the dataset is set by the link (iris)."""
    at = app.at
    if upload is None:
        app.do("open + fit", lambda: at.run())
    else:
        at.query_params.update({"dataset": "tennis", "algo": "cart", "page": "step"})
        at.run()
        at.selectbox(key="dataset").set_value("__upload__").run()
        app.do("upload + fit (Step, step 0)",
               lambda: at.file_uploader(key="upload_file").upload("chain.csv", upload, "text/csv").run())
    app.do("Step: next", app.click("next"))
    app.do("Step: last", app.click("last"))
    app.do("Step: previous", app.click("prev"))
    app.do(f"Step: slider to {middle}", lambda: at.slider(key="step_slider").set_value(middle).run())
    app.do("Tree (large-tree view)", app.page("pages/tree.py"))
    app.do("Tree: last", app.click("last"))
    app.do("Tree: whole tree asked", app.state(tree_view="the whole tree"))
    app.do("Tree: back to around the node", app.state(tree_view="around this node"))
    app.do("Tree: complete", app.state(complete=True))
    app.do("Partitions", app.page("pages/partitions.py"))
    app.do("Partitions: first", app.click("first"))
    app.do("Partitions: last", app.click("last"))
    app.do("Partitions: previous", app.click("prev"))
    app.do("Pruning (first method)", app.page("pages/pruning.py"))
    for method in METHODS:
        app.do(f"Pruning {method}", lambda m=method: at.selectbox(key="prune_method").set_value(m).run()
               if at.selectbox(key="prune_method").value != m else at.run())
        app.do(f"Pruning {method}: next", app.click("prune_next"))
        app.do(f"Pruning {method}: last", app.click("prune_last"))
        app.do(f"Pruning {method}: first", app.click("prune_first"))
    app.do("Pruned tree on the Tree page", lambda: (at.toggle(key="use_pruned").set_value(True).run(),
                                                    at.switch_page("pages/tree.py").run()))
    app.do("Pruned tree on Partitions", app.page("pages/partitions.py"))


def run(label: str, upload: bytes | None, middle: int, params: dict) -> dict[str, float]:
    app = Timed(label, timeout=600)
    app.at.query_params.update(params)
    actions(app, upload, middle)
    return app.times


def peer_fits(depth: int, run: int) -> tuple[float, float]:
    """Seconds to grow the chain with dtlearn (CART, in the library) and with scikit-learn's
    DecisionTreeClassifier (its C code), in this process: what a page that grows new trees on
    the chain (pruning's training part, cross-validation's folds) cannot go below. Every cut of
    every level is scanned, O(n^2) in both."""
    import dtlearn
    from sklearn.tree import DecisionTreeClassifier

    frame = pd.read_csv(io.BytesIO(chain_csv(depth, run)))
    start = time.perf_counter()
    dtlearn.fit(dtlearn.Dataset(frame, "y"), "cart")
    ours = time.perf_counter() - start
    start = time.perf_counter()
    DecisionTreeClassifier(random_state=0).fit(frame[["x", "x2"]].to_numpy(), frame["y"].to_numpy())
    return ours, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=20_000)
    parser.add_argument("--run", type=int, default=1, help="rows per run of one class (2: a chain pruning keeps)")
    parser.add_argument("--no-reference", action="store_true")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    import dtlearn

    dtlearn.fit(dtlearn.load_dataset("iris"), "cart")  # compiled kernels loaded before the limit
    reference = {} if args.no_reference else run("iris", None, 5, {"dataset": "iris", "algo": "cart",
                                                                   "page": "step"})
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(600)  # far below 20,000 levels, above Streamlit's own frames
    try:
        chain = run("chain", chain_csv(args.depth, args.run), args.depth // 2, {})
    finally:
        sys.setrecursionlimit(old)
    print(f"chain of {args.depth * args.run} rows ({args.depth - 1} levels, classes in runs of {args.run}), CART; "
          "seconds per action (AppTest rerun)")
    print(f"{'action':42} {'chain':>8} {'iris':>7} {'ratio':>7}")
    slow = []
    for name, seconds in chain.items():
        ref = reference.get(name.replace("upload + fit (Step, step 0)", "open + fit"))
        ratio = f"{seconds / ref:7.0f}" if ref else ""
        flag = "  OVER 2 s" if not seconds < LIMIT else ""
        if flag:
            slow.append(name)
        print(f"{name:42} {seconds:8.2f} {ref if ref is not None else float('nan'):7.2f} {ratio}{flag}")
    print(f"target: every action under {LIMIT:.0f} s; over it (or failed): {', '.join(slow) or 'none'}")
    ours, sklearn = peer_fits(args.depth, args.run)
    print(f"growing the chain anew (the floor of an action that grows new trees on it): dtlearn {ours:.1f} s, "
          f"scikit-learn {sklearn:.1f} s (ratio {ours / sklearn:.2f})")


if __name__ == "__main__":
    main()
