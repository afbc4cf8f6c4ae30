"""Drawing a variant's table from a template: rows, cells, labels and numbers moved at random.

`Source.of(template)` reads the template once (each column as text, its values, each numeric
column's decimals and terciles); `draw(source, rng, constraints)` makes one table from it:

- the classes and attributes kept (`classes`, `attributes`; `numeric` of the numeric
  attributes stay numeric, the others kept become low / medium / high by the template's
  terciles);
- `rows` rows: the template's, each once in a random order (then again when more are asked
  for), a `perturb` share of them redrawn with replacement;
- a `perturb` share of the categorical cells given another value of their column, then each
  column's values permuted (`relabel`): the same exercise, other names in other places;
- numbers scaled by 0.85-1.15, shifted by up to a tenth of their range, half of the cells
  jittered by a twentieth of it, rounded to the template's decimals, kept >= 0 if they were;
- at least a `missing` share of the attribute cells left empty.

The random stream of one attempt (`stream`) comes from SHA-256 of (seed, student, attempt), not
Python's `hash` (salted per process): the same three give the same table in any process.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .data import Dataset
from .formatting import label

BINS = ("low", "medium", "high")  # a numeric attribute made categorical (`numeric`): its terciles


def stream(seed: int, student: str, attempt: int) -> np.random.Generator:
    """The random stream of one attempt, the same in every process and on every machine.

    >>> bool(stream(7, "ada", 0).integers(1000) == stream(7, "ada", 0).integers(1000))
    True
    """
    digest = hashlib.sha256(f"dtlearn-variant\x1f{seed}\x1f{student}\x1f{attempt}".encode("utf-8")).digest()
    return np.random.default_rng(int.from_bytes(digest[:16], "big"))


def _text(column: pd.Series) -> np.ndarray:
    """A column's cells as text (None where missing), as tables and sheets write them."""
    return np.array([None if pd.isna(v) else label(v) for v in column], dtype=object)


def _decimals(values: np.ndarray) -> int:
    """The fewest decimals (up to 6) that write every value of a column."""
    values = values[~np.isnan(values)]
    return next((d for d in range(7) if np.allclose(np.round(values, d), values, rtol=0, atol=1e-9)), 6)


def _bins(values: np.ndarray, cuts: np.ndarray) -> np.ndarray:
    """Numbers as low / medium / high (low / high when two terciles coincide)."""
    names = np.asarray(BINS if len(cuts) == 2 else ("low", "high"), dtype=object)
    return np.where(np.isnan(values), None, names[np.searchsorted(cuts, values, side="left")])


@dataclass(frozen=True, eq=False)
class Source:
    """A template read once for many draws."""

    target: str
    classes: tuple[str, ...]
    attributes: tuple[str, ...]
    numeric: tuple[str, ...]  # the numeric attributes
    labels: np.ndarray  # the target's cells as text
    text: dict  # categorical attribute -> its cells as text (None: missing)
    domain: dict  # attribute -> its values (a numeric one's: BINS), sorted
    numbers: dict  # numeric attribute -> its cells (NaN: missing)
    decimals: dict  # numeric attribute -> decimals
    cuts: dict  # numeric attribute -> its terciles

    @staticmethod
    def of(template: Dataset) -> "Source":
        frame, kinds = template.frame, template.kinds
        numeric = tuple(a for a in template.attributes if kinds[a] == "numeric")
        text = {a: _text(frame[a]) for a in template.attributes if a not in numeric}
        numbers = {a: frame[a].to_numpy(dtype=float) for a in numeric}
        cuts = {a: np.unique(np.quantile(v[~np.isnan(v)], [1 / 3, 2 / 3])) if (~np.isnan(v)).any() else np.zeros(0)
                for a, v in numbers.items()}
        domain = {a: tuple(sorted({v for v in cells if v is not None})) for a, cells in text.items()}
        domain |= {a: tuple(b for b in BINS if b in set(_bins(numbers[a], cuts[a]))) for a in numeric}
        return Source(template.target, template.classes, template.attributes, numeric, _text(frame[template.target]),
                      text, domain, numbers, {a: _decimals(v) for a, v in numbers.items()}, cuts)


def _some(names, count: int, rng: np.random.Generator) -> list[str]:
    """`count` of `names` drawn at random (all of them, drawing nothing, when count is all)."""
    names = list(names)
    if count >= len(names):
        return names
    return [names[i] for i in sorted(rng.choice(len(names), count, replace=False))]


def _kept(source: Source, rng: np.random.Generator, c) -> tuple[list[str], set[str]]:
    """The attributes a variant keeps (in the template's order) and those of them kept numeric:
    `numeric` of the numeric ones (all when None), the others drawn from the rest."""
    count = len(source.attributes) if c.attributes is None else c.attributes
    if c.numeric is None:
        picked = set(_some(source.attributes, count, rng))
        return [a for a in source.attributes if a in picked], picked & set(source.numeric)
    stays = set(_some(source.numeric, c.numeric, rng))
    picked = stays | set(_some([a for a in source.attributes if a not in stays], count - c.numeric, rng))
    return [a for a in source.attributes if a in picked], stays


def _rows(pool: np.ndarray, count: int, rng: np.random.Generator, share: float) -> np.ndarray:
    """`count` rows of `pool`: each once in a random order (then again, when more are asked
    for), and a `share` of them redrawn from the whole pool (with replacement)."""
    order = rng.permutation(pool)
    if count > len(order):
        order = np.concatenate([order, rng.choice(pool, count - len(order), replace=True)])
    rows = order[:count].copy()
    redrawn = rng.random(count) < share
    rows[redrawn] = rng.choice(pool, int(redrawn.sum()), replace=True)
    return rows


def _categorical(values: np.ndarray, domain: tuple[str, ...], rng, c) -> np.ndarray:
    """A share of the cells given another value of the column, then the values permuted."""
    values = values.copy()
    if len(domain) < 2:
        return values
    if c.perturb > 0:  # another value: a step of 1 to k-1 along the domain
        changed = np.flatnonzero(pd.notna(values))
        changed = changed[rng.random(len(changed)) < c.perturb]
        at = np.array([domain.index(v) for v in values[changed]], dtype=np.int64)
        step = rng.integers(1, len(domain), len(changed))
        values[changed] = np.asarray(domain, dtype=object)[(at + step) % len(domain)]
    if c.relabel:
        mapping = dict(zip(domain, rng.permutation(np.asarray(domain, dtype=object))))
        values = np.array([None if v is None else mapping[v] for v in values], dtype=object)
    return values


def _numbers(values: np.ndarray, whole: np.ndarray, decimals: int, rng) -> np.ndarray:
    """Scaled, shifted, half of the cells jittered, rounded to the template's decimals."""
    present = whole[~np.isnan(whole)]
    span = float(present.max() - present.min()) if present.size else 1.0
    span = span or max(abs(float(present.max())), 1.0)  # a constant column: moved by its size
    out = values * rng.uniform(0.85, 1.15) + rng.uniform(-0.1, 0.1) * span
    out = out + np.where(rng.random(len(values)) < 0.5, rng.normal(0.0, span / 20, len(values)), 0.0)
    if present.size and present.min() >= 0:
        out = np.maximum(out, 0.0)
    return np.round(out, decimals)


def _empty(columns: dict, kinds: dict, rng, share: float) -> None:
    """Empties attribute cells at random until at least `share` of them are empty."""
    names = list(columns)
    if not names:
        return
    present = [(name, i) for name in names for i in np.flatnonzero(pd.notna(columns[name]))]
    total = len(names) * len(columns[names[0]])
    needed = math.ceil(share * total) - (total - len(present))
    for k in rng.choice(len(present), min(max(needed, 0), len(present)), replace=False):
        name, i = present[k]
        columns[name][i] = np.nan if kinds[name] == "numeric" else None


def draw(source: Source, rng: np.random.Generator, constraints) -> Dataset:
    """One table drawn from the template (not checked), as the constraints say (`variants.Constraints`:
    classes, attributes, numeric, rows, perturb, relabel, missing)."""
    c = constraints
    classes = source.classes
    if c.classes is not None and c.classes < len(classes):
        classes = tuple(_some(classes, c.classes, rng))
    pool = np.flatnonzero(np.isin(source.labels, classes))
    low, high = c.rows or (len(source.labels), len(source.labels))
    rows = _rows(pool, int(rng.integers(low, high + 1)), rng, c.perturb)
    kept, numeric = _kept(source, rng, c)
    columns, kinds = {}, {}
    for name in kept:
        if name in numeric:
            whole = source.numbers[name]
            columns[name], kinds[name] = _numbers(whole[rows], whole, source.decimals[name], rng), "numeric"
            continue
        values = source.text[name][rows] if name in source.text else _bins(source.numbers[name][rows],
                                                                            source.cuts[name])
        columns[name], kinds[name] = _categorical(values, source.domain[name], rng, c), "categorical"
    if c.missing:
        _empty(columns, kinds, rng, c.missing)
    columns[source.target] = source.labels[rows]
    return Dataset(pd.DataFrame(columns), source.target, kinds)
