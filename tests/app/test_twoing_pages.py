"""Breiman's twoing rule (dtlearn.criteria) on every page: chosen in the menu, it reaches each page
through the registry alone, with no traceback and no error box."""

from __future__ import annotations

import pytest

from tests.app.conftest import PAGES


@pytest.mark.parametrize("page", list(PAGES))
def test_every_page_opens_clean_with_the_twoing_rule(open_app, page):
    app = open_app(dataset="tennis", algo="cart", criterion="twoing", step="1").page(page)
    app.assert_clean()
    assert app.at.selectbox(key="criterion").value == "twoing"


@pytest.mark.parametrize("mode", ["guess", "hand", "worksheet"])
def test_practice_s_modes_open_with_the_twoing_rule(open_app, mode):
    app = open_app(dataset="tennis", algo="cart", criterion="twoing", step="1", mode=mode).page("practice")
    assert not app.at.exception, [e.value for e in app.at.exception]
    if mode == "worksheet":  # worksheets are written for entropy, gain ratio and Gini: the page says so
        assert [e.value for e in app.at.error] == ["Worksheets are written for classification trees ranked by "
                                                   "information gain, gain ratio or Gini gain."]
    else:
        app.assert_clean()
