"""Which presets grow a tree on which built-in datasets (shared by the tests that visit them all)."""

from __future__ import annotations

import dtlearn


def applies(name: str, algorithm: str) -> bool:
    """Whether the preset applies to the dataset (ID3 and C4.5 grow no regression trees)."""
    try:
        dtlearn.fit(dtlearn.load_dataset(name), algorithm, max_depth=0)
    except ValueError:
        return False
    return True


def every_case() -> list[tuple[str, str]]:
    """(dataset, preset) for every built-in dataset and every preset that applies to it."""
    return [(name, algorithm) for name in dtlearn.dataset_names() for algorithm in dtlearn.ALGORITHMS
            if applies(name, algorithm)]
