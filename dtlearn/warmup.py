"""Every compiled kernel loaded before a visitor needs it.

numba compiles a kernel on its first call and keeps the machine code in `dtlearn/__pycache__`:
on a machine's first run that takes many seconds, on later runs loading numba and the code
about one. Until then small inputs (the bundled tables) run the kernels interpreted (`jit`).
`warm_up`, which an app runs in the background, takes the library's usual paths once on tiny
bundled tables, compiled (the kernels take the types they will meet: numeric and categorical
attributes, missing values, regression); after it every kernel runs compiled.
"""

from __future__ import annotations

import numpy as np

from . import jit
from .api import fit, prune
from .catalog import load_dataset
from .data import Dataset
from .explain import explain

WORKLOADS = (  # (dataset, algorithm, settings): each reaches kernels the others do not
    ("tennis", "id3", {}),  # one branch per value (first: the app's first view)
    ("iris", "cart", {}),  # numeric thresholds, Gini
    ("iris", "c45", {}),  # entropy and gain ratio over thresholds
    ("tennis", "cart", {}),  # subsets of values
    ("tips", "cart", {}),  # regression
)


def warm_up() -> None:
    """Grow, prune, cross-validate and predict once along every compiled path; from then on
    every kernel runs compiled."""
    with jit.forced(jit.COMPILED):
        _every_path()
    jit.warmed()


def _every_path() -> None:
    for name, algorithm, settings in WORKLOADS:
        data = load_dataset(name)
        tree = fit(data, algorithm, **settings)
        tree.predict(data.frame)
    missing = _with_missing(load_dataset("iris"))  # C4.5's shared rows; CART's surrogates
    c45 = fit(missing, "c45")
    c45.predict(missing.frame)
    cart = fit(missing, "cart")
    cart.predict(missing.frame)
    unknown_at_root = missing.frame[cart.root.test.attribute].isna()
    explain(cart, missing.frame[unknown_at_root].iloc[0].to_dict())  # a test's branch, a surrogate's
    prune(cart, "cost_complexity", cv=3)  # the weakest-link sequence
    prune(c45, "pessimistic")
    prune(fit(load_dataset("tennis"), "c45"), "pessimistic")  # a categorical test's branches of training rows
    fit(load_dataset("glass").select(["RI"]), "id3")  # 178 values, one branch each: four-byte codes (engine_plan)


def _with_missing(data: Dataset) -> Dataset:
    """`data` with every fifth value of its numeric attributes missing (shifted per column)."""
    frame = data.frame.copy()
    for i, column in enumerate(c for c in frame.columns if c != data.target):
        if frame[column].dtype.kind == "f":
            frame.loc[np.arange(i, len(frame), 5), column] = np.nan
    return Dataset(frame, data.target)
