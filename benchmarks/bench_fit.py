"""dtlearn's fit, predict and candidate tables against scikit-learn, in the same process.

Every figure is the best of `--repeat` runs, dtlearn and scikit-learn taking turns, and is
printed as a ratio (dtlearn's time over scikit-learn's): the machine's speed drifts, ratios
measured side by side do not. The goals (the one-engine issue):

  fit, 20 numeric attributes, 3 classes, full depth (gini and entropy):
      <= 0.5x DecisionTreeClassifier at 100,000 and 1,000,000 rows, <= 1.0x at 10,000;
      dtlearn's time growing like n log n; the memory fit adds at 1M rows <= 3x the data (480 MB)
  id3 and c45, 100,000 rows x 20 categorical attributes of 5 values: <= 2x scikit-learn on the
      ordinal codes (entropy)
  predict 100,000 rows: <= 5x DecisionTreeClassifier.predict
  the root's full candidate table at 100,000 rows (2.0 M candidates), in columns: < 2 s
  the cost-complexity pruning path (fit and path): <= 1.0x DecisionTreeClassifier's
      cost_complexity_pruning_path (its own fit and path), the path growing like the tree

    uv run python benchmarks/bench_fit.py                     # everything (1M rows: ~15 min)
    uv run python benchmarks/bench_fit.py --sizes 10000 100000 --repeat 3
"""

from __future__ import annotations

import argparse
import math
import subprocess
import sys
import time

import numpy as np
import pandas as pd
from sklearn.datasets import make_classification
from sklearn.tree import DecisionTreeClassifier

import dtlearn


def numeric_data(n: int):
    X, y = make_classification(n_samples=n, n_features=20, n_informative=10, n_classes=3, random_state=0)
    frame = pd.DataFrame(X, columns=[f"x{i}" for i in range(20)])
    frame["y"] = y.astype(str)
    return X, y, dtlearn.Dataset(frame, "y")


def categorical_data(n: int):
    rng = np.random.default_rng(0)
    codes = rng.integers(0, 5, (n, 20))
    y = ((codes[:, 0] + codes[:, 1] + codes[:, 2]) % 3 + (rng.random(n) < 0.1)) % 3
    frame = pd.DataFrame({f"a{i}": np.array(list("vwxyz"))[codes[:, i]] for i in range(20)})
    frame["y"] = np.array(["c0", "c1", "c2"])[y]
    return codes, y, dtlearn.Dataset(frame, "y")


def best_of(repeat: int, ours, theirs) -> tuple[float, float]:
    """Best times of two functions run in turns (ours, theirs, ours, theirs, ...)."""
    mine, peer = [], []
    for _ in range(repeat):
        for times, function in ((mine, ours), (peer, theirs)):
            start = time.perf_counter()
            function()
            times.append(time.perf_counter() - start)
    return min(mine), min(peer)


def fit_table(sizes, repeat: int) -> None:
    print("fit: 20 numeric attributes, 3 classes, full depth; best of", repeat)
    print(f"{'rows':>9} {'criterion':>9} {'dtlearn s':>10} {'sklearn s':>10} {'ratio':>6} "
          f"{'s / (n log2 n) x1e6':>20} {'leaves':>7} {'sklearn':>8}")
    for criterion in ("gini", "entropy"):
        for n in sizes:
            X, y, data = numeric_data(n)
            ours, theirs = best_of(repeat, lambda: dtlearn.fit(data, "cart", criterion=criterion),
                                   lambda: DecisionTreeClassifier(random_state=0, criterion=criterion).fit(X, y))
            tree = dtlearn.fit(data, "cart", criterion=criterion)
            peer = DecisionTreeClassifier(random_state=0, criterion=criterion).fit(X, y)
            # leaf counts may differ by a few: exact ties between different splits are broken by
            # column order here and by a random feature order in scikit-learn
            print(f"{n:>9} {criterion:>9} {ours:>10.3f} {theirs:>10.3f} {ours / theirs:>6.2f} "
                  f"{ours / (n * math.log2(n)) * 1e6:>20.3f} {tree.n_leaves:>7} {peer.get_n_leaves():>8}", flush=True)


MEMORY_PROBE = """
import sys
import dtlearn
sys.path.insert(0, {folder!r})
from bench_fit import numeric_data
X, y, data = numeric_data({n})
del X
dtlearn.fit(dtlearn.load_dataset("iris"), "cart")  # the compiled kernels loaded first

def status(field):
    for line in open("/proc/self/status"):
        if line.startswith(field):
            return int(line.split()[1]) / 1024
before = status("VmRSS")
open("/proc/self/clear_refs", "w").write("5")  # the peak below counts from here
tree = dtlearn.fit(data, "cart")
print(before, status("VmHWM"), data.frame.memory_usage(index=False).sum() / 2**20)
"""


def memory(n: int) -> None:
    """Peak resident memory that fit adds, measured in a fresh process (Linux's VmHWM, reset
    before fit), against the size of the float64 data."""
    folder = str(__import__("pathlib").Path(__file__).resolve().parent)
    out = subprocess.run([sys.executable, "-c", MEMORY_PROBE.format(folder=folder, n=n)], capture_output=True,
                         text=True, check=True).stdout.split()
    before, peak, data_mb = (float(v) for v in out)
    added = peak - before
    print(f"\nmemory: fit on {n:,} x 20 adds {added:.0f} MB at its peak; the data is {data_mb:.0f} MB "
          f"(ratio {added / data_mb:.2f}, goal <= 3)")


def categorical(repeat: int) -> None:
    codes, y, data = categorical_data(100_000)
    print("\nid3 / c45 on 100,000 x 20 categorical attributes (5 values) vs scikit-learn on the ordinal codes")
    for algorithm in ("id3", "c45"):
        ours, theirs = best_of(repeat, lambda: dtlearn.fit(data, algorithm),
                               lambda: DecisionTreeClassifier(random_state=0, criterion="entropy").fit(codes, y))
        print(f"{algorithm:>5}: dtlearn {ours:.3f} s, sklearn {theirs:.3f} s, ratio {ours / theirs:.2f} (goal <= 2)")


def predict(repeat: int) -> None:
    X, y, data = numeric_data(100_000)
    tree = dtlearn.fit(data, "cart")
    peer = DecisionTreeClassifier(random_state=0).fit(X, y)
    tree.predict(data.frame)  # the tree's arrays are made on first use
    ours, theirs = best_of(repeat, lambda: tree.predict(data.frame), lambda: peer.predict(X))
    agree = (tree.predict(data.frame) == y.astype(str)).mean()
    print(f"\npredict 100,000 rows: dtlearn {ours:.4f} s (from a DataFrame), sklearn {theirs:.4f} s, "
          f"ratio {ours / theirs:.2f} (goal <= 5); training accuracy {agree:.3f}")


def table(repeat: int) -> None:
    _, _, data = numeric_data(100_000)
    times = []
    for _ in range(repeat):
        tree = dtlearn.fit(data, "cart", max_depth=0)  # the root alone: its table is made on request
        start = time.perf_counter()
        candidates = tree.steps[0].candidates
        first = candidates.frame(candidates.best_rows())
        times.append(time.perf_counter() - start)
    print(f"\nthe root's candidate table at 100,000 rows: {len(candidates):,} candidates in columns, each "
          f"attribute's best rows ({len(first)}) written out: {min(times):.2f} s (goal < 2)")


def pruning_path(sizes, repeat: int) -> None:
    """Fit and the weakest-link sequence (every alpha), against scikit-learn's
    cost_complexity_pruning_path, which fits and prunes in C."""
    print("\ncost-complexity pruning path (fit + path), gini; best of", repeat)
    print(f"{'rows':>9} {'dtlearn s':>10} {'of it path s':>13} {'sklearn s':>10} {'ratio':>6} {'alphas':>7} "
          f"{'sklearn':>8}")
    for n in sizes:
        X, y, data = numeric_data(n)
        paths = []

        def ours():
            tree = dtlearn.fit(data, "cart")
            start = time.perf_counter()
            path = dtlearn.cost_complexity_path(tree)
            paths.append((time.perf_counter() - start, path))

        mine, peer = best_of(repeat, ours, lambda: DecisionTreeClassifier(random_state=0)
                             .cost_complexity_pruning_path(X, y))
        alphas = DecisionTreeClassifier(random_state=0).cost_complexity_pruning_path(X, y).ccp_alphas
        path_time, path = min(paths, key=lambda pair: pair[0])
        print(f"{n:>9} {mine:>10.3f} {path_time:>13.3f} {peer:>10.3f} {mine / peer:>6.2f} "
              f"{path['alpha'].nunique():>7} {len(np.unique(alphas)):>8}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--skip-memory", action="store_true")
    args = parser.parse_args()
    dtlearn.fit(dtlearn.load_dataset("iris"), "cart")  # compiled kernels loaded before timing
    fit_table(args.sizes, args.repeat)
    if not args.skip_memory:
        memory(max(args.sizes))
    categorical(args.repeat)
    predict(args.repeat)
    table(args.repeat)
    pruning_path(args.sizes, args.repeat)


if __name__ == "__main__":
    main()
