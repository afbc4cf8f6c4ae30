"""The built-in datasets shipped in `datasets/` with their metadata (`catalog.json`)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import pandas as pd

from .csv_reader import read_csv
from .data import Dataset

_HERE = Path(__file__).resolve().parent
# the repository's datasets/ beside the package; installed (pip install .), inside it
DATASETS_DIR = next((d for d in (_HERE.parent / "datasets", _HERE / "datasets") if (d / "catalog.json").is_file()),
                    _HERE.parent / "datasets")


@dataclass(frozen=True)
class DatasetInfo:
    name: str
    title: str
    file: str
    target: str
    description: str
    source: str


@lru_cache(maxsize=1)
def _catalog() -> dict:
    return json.loads((DATASETS_DIR / "catalog.json").read_text(encoding="utf-8"))


def dataset_names() -> tuple[str, ...]:
    """Names of the built-in datasets, in catalogue order.

    >>> dataset_names()[:3]
    ('tennis', 'credit_risk', 'iris')
    """
    return tuple(_catalog())


def dataset_info(name: str) -> DatasetInfo:
    entry = _entry(name)
    return DatasetInfo(name, entry["title"], entry["file"], entry["target"], entry["description"], entry["source"])


def load_dataset(name: str) -> Dataset:
    """A built-in dataset by name, its value orders applied (they only break ties).

    >>> d = load_dataset("tennis"); (len(d.frame), d.target, d.classes)
    (14, 'play', ('No', 'Yes'))
    """
    entry = _entry(name)
    data = read_csv(DATASETS_DIR / entry["file"], target=entry["target"])
    frame = data.frame.copy()
    for column, order in entry.get("order", {}).items():
        frame[column] = pd.Categorical(frame[column], categories=order)
    return Dataset(frame, data.target, data.kinds)


def _entry(name: str) -> dict:
    catalog = _catalog()
    if name not in catalog:
        raise ValueError(f"Unknown dataset '{name}'. Built-in datasets: {', '.join(catalog)}.")
    return catalog[name]
