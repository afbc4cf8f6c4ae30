"""Incremental evaluation against the definitions, in the same process on the same trees.

1. The overfitting curve: one routing pass and a running sum (dtlearn.overfitting_curve)
   against every partial tree built and scored anew (the reference).
2. Cost-complexity cross-validation (dtlearn.cost_complexity_cv, 5 folds): each fold's
   errors along the weakest-link sequence from one routing pass, against pruning and
   predicting the subtree of every probe alpha anew (the reference).

Prints seconds and the ratio.

    uv run python benchmarks/bench_curve.py
"""

from __future__ import annotations

import time
from contextlib import contextmanager

import numpy as np
import pandas as pd

import dtlearn
from dtlearn import api


def reference(tree, train, validation) -> pd.DataFrame:
    rows = [{"step": k, "train_accuracy": dtlearn.accuracy(tree.at_step(k), train),
             "validation_accuracy": dtlearn.accuracy(tree.at_step(k), validation)}
            for k in range(tree.growth_steps + 1)]
    return pd.DataFrame(rows)


def noisy(n: int, values: int, seed: int = 0) -> dtlearn.Dataset:
    """A staircase of classes over one many-valued category and two numbers, with label noise:
    a tree that keeps growing into the noise (the curve's classic shape)."""
    rng = np.random.default_rng(seed)
    code = rng.integers(0, values, n)
    x, z = rng.normal(size=n), rng.normal(size=n)
    y = np.where(rng.random(n) < 0.2, rng.integers(0, 3, n), (code % 3 + (x > 0)) % 3)
    frame = pd.DataFrame({"code": [f"v{c}" for c in code], "x": x, "z": z, "y": [f"c{v}" for v in y]})
    return dtlearn.Dataset(frame, "y")


def main() -> None:
    print("dataset                  algorithm  steps  curve s  reference s  ratio")
    for name, data, algorithm in (("iris", dtlearn.load_dataset("iris"), "cart"),
                                  ("glass", dtlearn.load_dataset("glass"), "cart"),
                                  ("noisy 4000 x 40 values", noisy(4000, 40), "cart"),
                                  ("noisy 2000 x 300 values", noisy(2000, 300), "cart")):
        train, validation = dtlearn.train_test_split(data, 0.3, seed=0)
        tree = dtlearn.fit(train, algorithm)
        start = time.perf_counter()
        fast = dtlearn.overfitting_curve(tree, train, validation)
        curve = time.perf_counter() - start
        start = time.perf_counter()
        slow = reference(tree, train, validation)
        ref = time.perf_counter() - start
        assert np.allclose(fast["validation_accuracy"], slow["validation_accuracy"])
        print(f"{name:24} {algorithm:9} {tree.growth_steps:6} {curve:8.3f} {ref:12.3f} {ref / curve:6.0f}x")
    print()
    print("cost-complexity CV, 5 folds  probes  incremental s  reference s  ratio")
    for name, data in (("tips (regression)", dtlearn.load_dataset("tips")), ("glass", dtlearn.load_dataset("glass")),
                       ("noisy 4000 x 40 values", noisy(4000, 40))):
        tree = dtlearn.fit(data, "cart")
        start = time.perf_counter()
        fast = dtlearn.cost_complexity_cv(tree, 5, seed=0)
        incremental = time.perf_counter() - start
        start = time.perf_counter()
        with per_probe():
            slow = dtlearn.cost_complexity_cv(tree, 5, seed=0)
        ref = time.perf_counter() - start
        assert np.allclose(fast["cv_error"], slow["cv_error"], rtol=0, atol=1e-12)
        print(f"{name:28} {len(fast):6} {incremental:14.3f} {ref:12.3f} {ref / incremental:6.0f}x")


@contextmanager
def per_probe():
    """cost_complexity_cv as it was: every probe's subtree pruned and predicted anew."""
    saved = api._prefix_losses
    api._prefix_losses = lambda grown, sequence, data: None
    try:
        yield
    finally:
        api._prefix_losses = saved


if __name__ == "__main__":
    main()
