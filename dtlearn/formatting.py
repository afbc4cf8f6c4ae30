"""How values are written in tables, tests, rules and pages: `label` (2.0 -> '2', 12 significant
digits), its bulk forms, and the order in which a column's labels are listed."""

from __future__ import annotations

import numpy as np
import pandas as pd


def label(value) -> str:
    """How a value is written in tables, tests and rules: 2.0 -> '2', 0.1 -> '0.1'.

    Floats keep at most 12 significant digits, so a midpoint like 20.369999999999997
    reads 20.37 (the test itself keeps the exact float).

    >>> label(2.0), label(20.29 / 2 + 20.45 / 2), label("Sunny")
    ('2', '20.37', 'Sunny')
    """
    if isinstance(value, (bool, np.bool_)):
        return str(value)
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        return _float_label(repr(float(value)), float(value))  # repr: the shortest digits that read back
    return str(value)


def labels(values) -> list[str]:
    """`label` of each value, the same strings, made in bulk: a column of numbers is written a
    million values at a time (ID3 labels every distinct number of a numeric column it treats as
    categories; one `label` call each took a minute on a 1,000,000-row upload)."""
    kind = values.dtype.kind if isinstance(getattr(values, "dtype", None), np.dtype) else None
    if kind in ("i", "u"):
        return list(map(str, np.asarray(values).tolist()))
    if kind != "f":  # text, booleans, dates (pandas' own arrays yield Timestamps): one at a time, as given
        return [label(v) for v in values]
    array = np.asarray(values)
    numbers = array.tolist()
    written = ["%.12g" % v for v in numbers]  # `label` itself wherever %.12g prints no exponent,
    with np.errstate(invalid="ignore"):  # as for 0 and 1e-3 <= |x| < 1e11; the rest (inf, nan too) one by one
        size = np.abs(array)
        exponent = ~((size >= 1e-3) & (size < 1e11) | (array == 0))
    for i in np.flatnonzero(exponent).tolist():
        written[i] = _float_label(repr(numbers[i]), numbers[i])
    return written


def _float_label(written: str, value: float) -> str:
    """`label` of a float from its repr (as `label` writes it): 12 significant digits,
    positional, trailing zeros trimmed (numpy's format_float_positional, the definition; C's
    %.12g writes the same digits five times faster wherever it does not switch to an exponent)."""
    if "e" not in written and "n" not in written and len(written.lstrip("-0.").replace(".", "")) <= 12:
        return written[:-2] if written.endswith(".0") else written
    short = "%.12g" % value
    if "e" not in short and "n" not in short:
        return short
    return np.format_float_positional(value, precision=12, fractional=False, trim="-")


def distinct_runs(names: list[str]) -> tuple[tuple[str, ...], np.ndarray]:
    """Labels of values in ascending order, each written once, and the position of each value's
    label among them. Two floats within 12 significant digits share a label (0.1 + 0.2 and 0.3:
    '0.3'), and rounding keeps order, so a shared label is a run of neighbours."""
    named = np.array(names, dtype=object)
    new = np.ones(len(named), dtype=bool)
    new[1:] = named[1:] != named[:-1]
    return tuple(named[new].tolist()), np.cumsum(new) - 1


def labels_of(column: pd.Series) -> np.ndarray:
    """`label` of every cell (an object array; None where missing), computed once per distinct
    value, not once per row."""
    codes, uniques = pd.factorize(column, use_na_sentinel=True)
    table = np.array(labels(uniques) + [None], dtype=object)
    return table[codes]


def ordered_labels(column: pd.Series) -> tuple[str, ...]:
    """Distinct non-missing values of a column as labels, in a row-order-free order.

    A pandas Categorical keeps its declared values in their declared order, those no row holds
    included (an ARFF file's domain: ID3 and C4.5 give them an empty branch, as Weka does);
    numbers sort numerically; anything else sorts as text. This order breaks ties (first wins),
    so it is part of determinism.
    """
    if isinstance(column.dtype, pd.CategoricalDtype):
        return tuple(label(c) for c in column.cat.categories)
    values = column.dropna().unique()
    if pd.api.types.is_numeric_dtype(column) and not pd.api.types.is_bool_dtype(column):
        if column.dtype.kind in "iu":  # whole numbers written whole, as `labels` writes each row's
            whole = np.asarray(values, dtype=getattr(column.dtype, "numpy_dtype", column.dtype))  # (pandas' Int64 too)
            return tuple(labels(np.sort(whole)))
        return distinct_runs(labels(np.sort(values.astype(float))))[0]
    return tuple(sorted({label(v) for v in values}))
