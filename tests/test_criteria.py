"""The criteria registry (`dtlearn.criteria`): an unknown criterion is refused, and a criterion no
compiled scan ranks by is scored in Python by its `measures` definition to the same tree."""

from __future__ import annotations

from dataclasses import replace

import pytest

import dtlearn
from dtlearn import criteria, engine
from dtlearn.induction import encode


def test_an_unknown_criterion_is_refused_with_the_known_ones_named(tennis):
    settings = replace(dtlearn.make_settings("cart"), criterion="information")  # past make_settings' check
    with pytest.raises(ValueError, match=r"Unknown criterion 'information'\. Criteria are: entropy, gini, "):
        engine.grow(encode(tennis, settings), settings)
    with pytest.raises(ValueError, match=r"Unknown criterion 'information'"):
        _ = settings.impurity


@pytest.mark.parametrize("name", ["tennis", "credit_risk", "iris", "weather_numeric", "watermelon_3",
                                  "contact_lenses"])
@pytest.mark.parametrize("algorithm", ["cart", "id3", "c45", "c45_1993", "zaki"])
def test_a_criterion_without_a_compiled_scan_grows_the_same_tree_in_python(monkeypatch, name, algorithm):
    """The compiled scans are the oracle: with its record's kernel taken away, the criterion is
    scored node by node by `measures` (every cut of a number, every subset) and must choose alike."""
    data = dtlearn.load_dataset(name)
    compiled = dtlearn.fit(data, algorithm)
    key = compiled.settings.criterion
    monkeypatch.setitem(criteria.CRITERIA, key, replace(criteria.CRITERIA[key], kernel=None))
    python = dtlearn.fit(data, algorithm)
    assert python.to_text() == compiled.to_text()
    assert [s.reason for s in python.steps] == [s.reason for s in compiled.steps]
    assert [s.gain for s in python.steps] == pytest.approx([s.gain for s in compiled.steps], abs=1e-12)
