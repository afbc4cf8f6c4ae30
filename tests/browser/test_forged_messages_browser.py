"""Messages forged in the browser's console reach the server checked (pages/stage.py).

stage.js sends the node picker a node's number and the stage its box, but anyone can call them
from the console with anything: a list sent to the node picker showed a traceback on the Tree
page. Each forged message is ignored; a real pick still works afterwards.
"""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser,
              pytest.mark.filterwarnings("ignore:Session-scoped fixtures defined as instance methods")]

FORGED_PICKS = ("[1, 2]", "({node: 3})", "'4'", "null", "true", "1e300", "NaN", "-1", "2.5", "[]")
FORGED_BOXES = ("'900x480'", "[true, 480]", "({0: 900, 1: 480})", "[[900], [480]]", "[900]", "[1e308, 1e308]")
TREE_NODE = "() => new URLSearchParams(location.search).get('tree_node')"


def after(page, ui, script: str) -> None:
    """Run `script` in the page, then wait for the run it starts (if any) to end."""
    page.evaluate(script)
    page.wait_for_timeout(400)  # the rerun starts
    ui.settle(page)


def test_forged_node_picks_and_boxes_are_ignored(page, app_url, ui):
    page.goto(app_url + "/tree?dataset=iris&algo=cart&complete=1&tree_node=0")
    ui.settle(page, ui.GRAPH)
    page.wait_for_function("() => window.__dtlearnPickNode", timeout=30_000)
    for forged in FORGED_PICKS:
        after(page, ui, f"() => window.__dtlearnPickNode({forged})")
        assert page.locator(ui.EXCEPTION).count() == 0, forged
        assert page.evaluate(TREE_NODE) == "0", forged
    for forged in FORGED_BOXES:
        after(page, ui, f"() => document.querySelector('.dtlearn-stage').__stage.setStateValue('box', {forged})")
        assert page.locator(ui.EXCEPTION).count() == 0, forged
    after(page, ui, "() => window.__dtlearnPickNode(2)")  # a node of the tree: picked
    page.wait_for_function(f"() => ({TREE_NODE})() === '2'", timeout=20_000)
    assert page.locator(ui.EXCEPTION).count() == 0
