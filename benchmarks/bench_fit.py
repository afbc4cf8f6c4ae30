"""dtlearn's fit, predict and candidate tables against scikit-learn, in the same process.

Every figure is the median CPU time (`time.process_time`) of `--repeat` runs, dtlearn and its
peer taking turns, and is printed as a ratio (dtlearn's time over the peer's): the machine's
speed drifts and it is shared, ratios measured side by side do not drift as much. The `check`
column says whether the two trees agree (leaf counts; regression: the training predictions too).
Kernels run compiled, as in a warmed process (`dtlearn.warmup`). The goals (the one-engine issue
and issue 36):

  fit, 20 numeric attributes, 3 classes, full depth (gini and entropy):
      <= 0.5x DecisionTreeClassifier at 100,000 and 1,000,000 rows, <= 1.0x at 10,000;
      dtlearn's time growing like n log n
  narrow tables (2-5 attributes, 2-5 classes, 100,000 and 1,000,000 rows): <= 0.5x
  id3 and c45, 10,000 and 100,000 rows x 20 categorical attributes of 5 values: <= 0.5x
      scikit-learn on the ordinal codes (entropy)
  regression, squared error, 20 attributes, 10,000 / 100,000 / 1,000,000 rows: <= 0.5x
      DecisionTreeRegressor, the same tree
  memory: fit adds at most 3x the float64 data at its peak at 1M x 20 (a fresh process, VmHWM),
      and what the fitted tree keeps grows with its nodes, not its rows
  a single tree at 1M x 20, depth 10: LightGBM and XGBoost (hist), when installed
  predict 100,000 rows: <= 5x DecisionTreeClassifier.predict
  the root's full candidate table at 100,000 rows (2.0 M candidates), in columns: < 2 s
  the cost-complexity pruning path (fit and path): <= 1.0x DecisionTreeClassifier's
      cost_complexity_pruning_path (its own fit and path), the path growing like the tree

    uv run python benchmarks/bench_fit.py                     # the default groups (1M rows: ~15 min)
    uv run python benchmarks/bench_fit.py --sizes 10000 100000 --repeat 3
    uv run python benchmarks/bench_fit.py --cases narrow,categorical,regression --sizes 10000 100000
    uv run python benchmarks/bench_fit.py --cases memory,peers --sizes 1000000
    uv run python benchmarks/bench_fit.py --cases all        # every row of issue 36's table
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import math
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.datasets import make_classification, make_regression
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

import dtlearn
import dtlearn.warmup

DEFAULT_CASES = ("fit", "memory", "categorical", "predict", "table", "path")
ALL_CASES = ("fit", "depth", "wide", "narrow", "categorical", "regression", "memory", "peers", "predict", "table",
             "path")


def numeric_data(n: int, features: int = 20):
    X, y = make_classification(n_samples=n, n_features=features, n_informative=10, n_classes=3, random_state=0)
    frame = pd.DataFrame(X, columns=[f"x{i}" for i in range(features)])
    frame["y"] = y.astype(str)
    return X, y, dtlearn.Dataset(frame, "y")


def narrow_data(n: int, features: int, classes: int, all_informative: bool = False):
    """`features` numeric attributes: the first `features` of 5 generated columns, 3 of them
    informative, one cluster per class, so that even two attributes separate up to 5 classes in
    part; `all_informative`: every column informative, two clusters per class (a harder table)."""
    if all_informative:
        X, y = make_classification(n_samples=n, n_features=features, n_informative=features, n_redundant=0,
                                   n_classes=classes, random_state=0)
    else:
        X, y = make_classification(n_samples=n, n_features=5, n_informative=3, n_redundant=0,
                                   n_classes=classes, n_clusters_per_class=1, shuffle=False, random_state=0)
        X = np.ascontiguousarray(X[:, :features])
    frame = pd.DataFrame(X, columns=[f"x{i}" for i in range(features)])
    frame["y"] = y.astype(str)
    return X, y, dtlearn.Dataset(frame, "y")


def regression_data(n: int, features: int = 20):
    X, y = make_regression(n_samples=n, n_features=features, n_informative=10, noise=10.0, random_state=0)
    frame = pd.DataFrame(X, columns=[f"x{i}" for i in range(features)])
    frame["y"] = y
    return X, y, dtlearn.Dataset(frame, "y")


def categorical_data(n: int):
    rng = np.random.default_rng(0)
    codes = rng.integers(0, 5, (n, 20))
    y = ((codes[:, 0] + codes[:, 1] + codes[:, 2]) % 3 + (rng.random(n) < 0.1)) % 3
    frame = pd.DataFrame({f"a{i}": np.array(list("vwxyz"))[codes[:, i]] for i in range(20)})
    frame["y"] = np.array(["c0", "c1", "c2"])[y]
    return codes, y, dtlearn.Dataset(frame, "y")


STAT = {"median": statistics.median, "best": min}
CLOCK = {"cpu": time.process_time, "wall": time.perf_counter}
MEASURE = {"stat": "median", "clock": "cpu"}  # set from the command line


def side_by_side(repeat: int, ours, theirs) -> tuple[float, float]:
    """The median (or best) times of two functions run in turns (ours, theirs, ours, ...)."""
    clock, stat = CLOCK[MEASURE["clock"]], STAT[MEASURE["stat"]]
    mine, peer = [], []
    for _ in range(repeat):
        for times, function in ((mine, ours), (peer, theirs)):
            gc.collect()
            start = clock()
            function()
            times.append(clock() - start)
    return stat(mine), stat(peer)


best_of = side_by_side  # the name earlier scripts import


def _header(title: str, repeat: int) -> None:
    print(f"\n{title}; {MEASURE['stat']} of {repeat}, {MEASURE['clock']} time", flush=True)
    print(f"{'case':<42} {'dtlearn s':>10} {'peer s':>10} {'ratio':>6} {'goal':>5} {'leaves':>8} "
          f"{'peer':>8} {'check':>8}")


def _row(case: str, ours: float, theirs: float, goal: float | None, leaves, peer_leaves, check: str) -> None:
    goal_text = f"{goal:.1f}" if goal is not None else "-"
    print(f"{case:<42} {ours:>10.3f} {theirs:>10.3f} {ours / theirs:>6.2f} {goal_text:>5} {leaves:>8} "
          f"{peer_leaves:>8} {check:>8}", flush=True)


def _classification_row(case: str, repeat: int, X, y, data, goal, algorithm="cart", **settings) -> None:
    peer_settings = {"criterion": settings.get("criterion", "gini"), "max_depth": settings.get("max_depth")}
    ours, theirs = side_by_side(repeat, lambda: dtlearn.fit(data, algorithm, **settings),
                                lambda: DecisionTreeClassifier(random_state=0, **peer_settings).fit(X, y))
    tree = dtlearn.fit(data, algorithm, **settings)
    peer = DecisionTreeClassifier(random_state=0, **peer_settings).fit(X, y)
    # leaf counts may differ by a few: exact ties between different splits are broken by
    # column order here and by a random feature order in scikit-learn
    check = "same" if tree.n_leaves == peer.get_n_leaves() else "near" if (
        abs(tree.n_leaves - peer.get_n_leaves()) <= 0.01 * peer.get_n_leaves() + 2) else "DIFF"
    _row(case, ours, theirs, goal, tree.n_leaves, peer.get_n_leaves(), check)


def fit_table(sizes, repeat: int) -> None:
    print(f"fit: 20 numeric attributes, 3 classes, full depth; {MEASURE['stat']} of {repeat}, "
          f"{MEASURE['clock']} time")
    print(f"{'rows':>9} {'criterion':>9} {'dtlearn s':>10} {'sklearn s':>10} {'ratio':>6} "
          f"{'s / (n log2 n) x1e6':>20} {'leaves':>7} {'sklearn':>8}")
    for criterion in ("gini", "entropy"):
        for n in sizes:
            X, y, data = numeric_data(n)
            ours, theirs = side_by_side(repeat, lambda: dtlearn.fit(data, "cart", criterion=criterion),
                                        lambda: DecisionTreeClassifier(random_state=0, criterion=criterion).fit(X, y))
            tree = dtlearn.fit(data, "cart", criterion=criterion)
            peer = DecisionTreeClassifier(random_state=0, criterion=criterion).fit(X, y)
            print(f"{n:>9} {criterion:>9} {ours:>10.3f} {theirs:>10.3f} {ours / theirs:>6.2f} "
                  f"{ours / (n * math.log2(n)) * 1e6:>20.3f} {tree.n_leaves:>7} {peer.get_n_leaves():>8}", flush=True)


def depth_and_width(cases, repeat: int, n: int) -> None:
    _header(f"classification at {n:,} rows, 3 classes, gini", repeat)
    if "depth" in cases:
        X, y, data = numeric_data(n)
        _classification_row("20 numeric, max_depth 10", repeat, X, y, data, 0.5, max_depth=10)
    if "wide" in cases:
        X, y, data = numeric_data(n, features=80)
        _classification_row("80 numeric, full depth", repeat, X, y, data, 0.5)


def narrow(sizes, repeat: int) -> None:
    _header("narrow tables: 2-5 numeric attributes, 2-5 classes, full depth, gini", repeat)
    for n in sizes:
        for features in (2, 3, 5):
            for classes in (2, 5):
                X, y, data = narrow_data(n, features, classes)
                _classification_row(f"{n:>9,} x {features} attr, {classes} classes", repeat, X, y, data, 0.5)
        X, y, data = narrow_data(n, 5, 5, all_informative=True)
        _classification_row(f"{n:>9,} x 5 attr (all informative), 5 cl", repeat, X, y, data, 0.5)


def categorical(sizes, repeat: int) -> None:
    _header("id3 / c45 on 20 categorical attributes (5 values) vs scikit-learn (entropy) on the ordinal codes",
            repeat)
    for algorithm in ("id3", "c45"):
        dtlearn.fit(categorical_data(500)[2], algorithm)  # its kernels loaded before timing
    for n in sizes:
        codes, y, data = categorical_data(n)
        for algorithm in ("id3", "c45"):
            ours, theirs = side_by_side(repeat, lambda: dtlearn.fit(data, algorithm),
                                        lambda: DecisionTreeClassifier(random_state=0, criterion="entropy")
                                        .fit(codes, y))
            tree = dtlearn.fit(data, algorithm)
            peer = DecisionTreeClassifier(random_state=0, criterion="entropy").fit(codes, y)
            # multiway splits against binary ones: different trees by design, no check
            _row(f"{n:>9,} {algorithm}", ours, theirs, 0.5, tree.n_leaves, peer.get_n_leaves(), "-")


def regression(sizes, repeat: int) -> None:
    _header("regression: 20 numeric attributes, squared error, full depth, vs DecisionTreeRegressor", repeat)
    dtlearn.fit(regression_data(500)[2], "cart")  # its kernels loaded before timing
    for n in sizes:
        X, y, data = regression_data(n)
        ours, theirs = side_by_side(repeat, lambda: dtlearn.fit(data, "cart"),
                                    lambda: DecisionTreeRegressor(random_state=0).fit(X, y))
        tree = dtlearn.fit(data, "cart")
        peer = DecisionTreeRegressor(random_state=0).fit(X, y)
        assert tree.is_regression and tree.settings.criterion == "squared_error"
        # the training rows whose predictions differ from scikit-learn's (the same tree: none)
        predicted = np.asarray(tree.predict(data.frame), dtype=float)
        differ = int((~np.isclose(predicted, peer.predict(X), rtol=1e-9, atol=1e-12)).sum())
        check = "same" if differ == 0 and tree.n_leaves == peer.get_n_leaves() else f"{differ} rows"
        _row(f"{n:>9,} x 20", ours, theirs, 0.5, tree.n_leaves, peer.get_n_leaves(), check)


MEMORY_PROBE = """
import ctypes, gc, sys
sys.path.insert(0, {folder!r})
import numpy as np
import dtlearn
from sklearn.tree import DecisionTreeClassifier
from bench_fit import numeric_data
X, y, data = numeric_data({n})
if {who!r} == "dtlearn":
    del X
    with dtlearn.jit.forced(dtlearn.jit.COMPILED):  # numba and the compiled kernels loaded first (a small
        dtlearn.fit(dtlearn.load_dataset("iris"), "cart")  # tree alone would run them interpreted)
else:
    del data
    DecisionTreeClassifier().fit(X[:100], y[:100])
gc.collect()

def status(field):
    for line in open("/proc/self/status"):
        if line.startswith(field):
            return int(line.split()[1]) / 1024
before = status("VmRSS")
open("/proc/self/clear_refs", "w").write("5")  # the peak below counts from here
if {who!r} == "dtlearn":
    tree = dtlearn.fit(data, "cart")
else:
    tree = DecisionTreeClassifier(random_state=0).fit(X, y)
peak = status("VmHWM")
gc.collect()
after = status("VmRSS")
ctypes.CDLL("libc.so.6").malloc_trim(0)  # freed memory the allocator still holds, given back
print(before, peak, after, status("VmRSS"))
"""


def memory(n: int) -> None:
    """Resident memory that fit adds, each library in its own fresh process (Linux's VmHWM,
    reset just before fit; VmRSS after fit with the tree still held), against the float64 data."""
    folder = str(Path(__file__).resolve().parent)
    data_mb = n * 20 * 8 / 2**20
    print(f"\nmemory: fit on {n:,} x 20 numeric, full depth, gini; the float64 data is {data_mb:.0f} MiB "
          f"(a fresh process each)")
    print(f"{'library':<10} {'peak adds MiB':>14} {'x data':>7} {'held after MiB':>15} {'x data':>7} "
          f"{'after malloc_trim':>18} {'goal':>11}")
    for who in ("dtlearn", "sklearn"):
        out = subprocess.run([sys.executable, "-c", MEMORY_PROBE.format(folder=folder, n=n, who=who)],
                             capture_output=True, text=True, check=True).stdout.split()
        before, peak, after, trimmed = (float(v) for v in out)
        print(f"{who:<10} {peak - before:>14.0f} {(peak - before) / data_mb:>7.2f} {after - before:>15.0f} "
              f"{(after - before) / data_mb:>7.2f} {trimmed - before:>18.0f} "
              f"{'peak <= 3x' if who == 'dtlearn' else '':>11}", flush=True)


def peers(n: int, repeat: int) -> None:
    """One histogram tree (one boosting round at learning rate 1, depth 10) against dtlearn's exact
    tree of depth 10: LightGBM and XGBoost build one tree per class on 3 classes."""
    X, y, data = numeric_data(n)
    _header(f"single trees at {n:,} x 20, depth 10, against dtlearn's exact CART (peer = the row's library)",
            repeat)
    found = False
    if importlib.util.find_spec("lightgbm") is not None:
        import lightgbm
        params = dict(objective="multiclass", num_class=3, max_depth=10, num_leaves=1024, learning_rate=1.0,
                      min_data_in_leaf=1, min_sum_hessian_in_leaf=0, num_threads=1, verbose=-1)
        ours, theirs = side_by_side(repeat, lambda: dtlearn.fit(data, "cart", max_depth=10),
                                    lambda: lightgbm.train(params, lightgbm.Dataset(X, y), num_boost_round=1))
        _row("LightGBM, hist, 1 round", ours, theirs, None, "-", "-", "-")
        found = True
    else:
        print(f"{'LightGBM':<42} not installed")
    if importlib.util.find_spec("xgboost") is not None:
        import xgboost
        model = dict(n_estimators=1, tree_method="hist", max_depth=10, learning_rate=1.0, n_jobs=1)
        ours, theirs = side_by_side(repeat, lambda: dtlearn.fit(data, "cart", max_depth=10),
                                    lambda: xgboost.XGBClassifier(**model).fit(X, y))
        _row("XGBoost, hist, 1 round", ours, theirs, None, "-", "-", "-")
        found = True
    else:
        print(f"{'XGBoost':<42} not installed")
    if not found:
        print("(neither is a dependency of dtlearn: install one into the environment to compare)")


def predict(repeat: int) -> None:
    X, y, data = numeric_data(100_000)
    tree = dtlearn.fit(data, "cart")
    peer = DecisionTreeClassifier(random_state=0).fit(X, y)
    tree.predict(data.frame)  # the tree's arrays are made on first use
    ours, theirs = side_by_side(repeat, lambda: tree.predict(data.frame), lambda: peer.predict(X))
    agree = (tree.predict(data.frame) == y.astype(str)).mean()
    print(f"\npredict 100,000 rows: dtlearn {ours:.4f} s (from a DataFrame), sklearn {theirs:.4f} s, "
          f"ratio {ours / theirs:.2f} (goal <= 5); training accuracy {agree:.3f}")


def table(repeat: int) -> None:
    _, _, data = numeric_data(100_000)
    times = []
    for _ in range(repeat):
        tree = dtlearn.fit(data, "cart", max_depth=0)  # the root alone: its table is made on request
        clock = CLOCK[MEASURE["clock"]]
        start = clock()
        candidates = tree.steps[0].candidates
        first = candidates.frame(candidates.best_rows())
        times.append(clock() - start)
    print(f"\nthe root's candidate table at 100,000 rows: {len(candidates):,} candidates in columns, each "
          f"attribute's best rows ({len(first)}) written out: {min(times):.2f} s (goal < 2)")


def pruning_path(sizes, repeat: int) -> None:
    """Fit and the weakest-link sequence (every alpha), against scikit-learn's
    cost_complexity_pruning_path, which fits and prunes in C."""
    print(f"\ncost-complexity pruning path (fit + path), gini; {MEASURE['stat']} of {repeat}")
    print(f"{'rows':>9} {'dtlearn s':>10} {'of it path s':>13} {'sklearn s':>10} {'ratio':>6} {'alphas':>7} "
          f"{'sklearn':>8}")
    for n in sizes:
        X, y, data = numeric_data(n)
        paths = []

        def ours():
            tree = dtlearn.fit(data, "cart")
            clock = CLOCK[MEASURE["clock"]]  # the clock the whole is timed by
            start = clock()
            path = dtlearn.cost_complexity_path(tree)
            paths.append((clock() - start, path))

        mine, peer = side_by_side(repeat, ours, lambda: DecisionTreeClassifier(random_state=0)
                                  .cost_complexity_pruning_path(X, y))
        alphas = DecisionTreeClassifier(random_state=0).cost_complexity_pruning_path(X, y).ccp_alphas
        path_time, path = min(paths, key=lambda pair: pair[0])
        print(f"{n:>9} {mine:>10.3f} {path_time:>13.3f} {peer:>10.3f} {mine / peer:>6.2f} "
              f"{path['alpha'].nunique():>7} {len(np.unique(alphas)):>8}", flush=True)


def _cases(text: str) -> tuple:
    cases = ALL_CASES if text == "all" else DEFAULT_CASES if text == "default" else tuple(text.split(","))
    unknown = set(cases) - set(ALL_CASES)
    if unknown:
        raise SystemExit(f"Unknown case(s) {', '.join(sorted(unknown))}; cases are: {', '.join(ALL_CASES)}, "
                         "all, default")
    return cases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000],
                        help="rows for fit, path, regression, categorical and narrow (these at 10,000 and over)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cases", default="default", help=f"comma-separated: {', '.join(ALL_CASES)}; all; default "
                                                            f"({', '.join(DEFAULT_CASES)})")
    parser.add_argument("--stat", choices=tuple(STAT), default="median")
    parser.add_argument("--clock", choices=tuple(CLOCK), default="cpu")
    parser.add_argument("--skip-memory", action="store_true")
    args = parser.parse_args()
    MEASURE.update(stat=args.stat, clock=args.clock)
    cases = _cases(args.cases)
    if args.skip_memory:
        cases = tuple(c for c in cases if c != "memory")
    # every kernel compiled and loaded before timing, as in the app after its warm-up: until then a
    # process runs small inputs' kernels interpreted (dtlearn.jit), which is not what is measured here
    dtlearn.warmup.warm_up()
    biggest = max(args.sizes)
    if "fit" in cases:
        fit_table(args.sizes, args.repeat)
    if "depth" in cases or "wide" in cases:
        depth_and_width(cases, args.repeat, 100_000)
    if "narrow" in cases:
        narrow([n for n in args.sizes if n >= 100_000] or [biggest], args.repeat)
    if "categorical" in cases:
        categorical([n for n in args.sizes if n <= 100_000] or [100_000], args.repeat)
    if "regression" in cases:
        regression(args.sizes, args.repeat)
    if "memory" in cases:
        memory(biggest)
    if "peers" in cases:
        peers(biggest, args.repeat)
    if "predict" in cases:
        predict(args.repeat)
    if "table" in cases:
        table(args.repeat)
    if "path" in cases:
        pruning_path(args.sizes, args.repeat)


if __name__ == "__main__":
    main()
