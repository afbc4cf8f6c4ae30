"""A Dataset's categorical codes are made once for all its fits (`encoding.shared_codes`): the
same arrays for every `Encoded` of the same Dataset object, read-only, and freed with it."""

from __future__ import annotations

import gc
import weakref

import numpy as np
import pandas as pd
import pytest

import dtlearn
from dtlearn.encoding import Encoded, categories_and_codes, shared_codes


def table() -> dtlearn.Dataset:
    frame = pd.DataFrame({"colour": ["red", "blue", None, "red", "green"], "size": [3.0, 1.0, 2.0, 3.0, np.nan],
                          "y": ["a", "b", "a", "a", "b"]})
    return dtlearn.Dataset(frame, "y")


def test_two_fits_of_one_dataset_read_the_same_codes():
    data = table()
    first, second = Encoded(data), Encoded(data, class_factor=(1.0, 2.0))
    assert first.codes("colour") is second.codes("colour")
    codes, categories = categories_and_codes(data.frame["colour"])  # made afresh from the column
    assert np.array_equal(first.codes("colour"), codes) and first.categories("colour") == categories
    assert first.categories("colour") == ("blue", "green", "red") and first.codes("colour").tolist() == [2, 0, -1, 2, 1]


def test_shared_codes_cannot_be_changed_by_one_fit_for_the_next():
    codes = Encoded(table()).codes("colour")
    with pytest.raises(ValueError):
        codes[0] = 0


def test_numbers_and_other_datasets_are_not_shared():
    data = table()
    # ID3 codes a number by its distinct values: a label per value, kept no longer than the fit
    assert Encoded(data).codes("size") is not Encoded(data).codes("size")
    assert Encoded(data).codes("size").tolist() == [2, 0, 1, 2, -1]
    other = dtlearn.Dataset(data.frame, "y")  # the same rows, another Dataset: its own codes
    assert Encoded(other).codes("colour") is not Encoded(data).codes("colour")
    assert Encoded(data.with_kinds({"size": "categorical"})).codes("size").flags.writeable is False


def test_the_codes_go_with_their_dataset():
    data = table()
    encoded = Encoded(data)
    encoded.codes("colour")
    kept = weakref.ref(shared_codes(data))
    del data, encoded
    gc.collect()
    assert kept() is None
