"""The Pruning page in a real browser at 1280x720: a cost-complexity decision's numbers fit
their tables, and the drawn tree marks the node the heading names."""

from __future__ import annotations

import re

import pytest

import dtlearn

pytestmark = [pytest.mark.browser,
              pytest.mark.filterwarnings("ignore:Session-scoped fixtures defined as instance methods")]

FRAME = '[data-testid="stDataFrame"]'
# each table's scrolled width and visible width (glide-data-grid scrolls inside .dvn-scroller)
WIDTHS = """() => [...document.querySelectorAll('[data-testid="stDataFrame"] .dvn-scroller')]
  .map((s) => [s.scrollWidth, s.clientWidth])"""
RED_NODES = """red => {
  const svg = atob(document.querySelector('img[alt="decision tree"]').src.split(",")[1]);
  return svg.split('class="node"').slice(1)
    .filter((g) => g.match(/<(?:path|polygon) [^>]*>/)[0].includes(`stroke="${red}"`))
    .map((g) => Number(g.match(/>node (\\d+)\\b/)[1]));
}"""


@pytest.mark.parametrize("projector", ["", "&projector=1"], ids=["normal", "projector"])
def test_a_cost_complexity_decision_fits_1280_pixels_and_marks_its_node(browser, app_url, ui, projector):
    # The g(t) table's columns ran 669 px wide in a 376 px column (g(t) and "weakest" out of view,
    # reached only by scrolling sideways), and the red border was on the next decision's node.
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    page.goto(app_url + "/pruning?dataset=iris&algo=cart&prune_method=cost_complexity&prune_step=1" + projector)
    ui.settle(page, ui.GRAPH, FRAME)
    page.wait_for_function(f"document.querySelectorAll('{FRAME} .dvn-scroller').length >= 2", timeout=30_000)
    widths = page.evaluate(WIDTHS)
    assert len(widths) >= 2 and all(scrolled <= visible + 1 for scrolled, visible in widths), widths
    text = page.get_by_text(re.compile(r"^Decision 1 of \d+: node \d+ ")).first.inner_text()
    named = int(re.match(r"Decision 1 of \d+: node (\d+) ", text)[1])
    base = dtlearn.fit(dtlearn.load_dataset("iris"), "cart")
    first = dtlearn.prune(base, "cost_complexity", cv=5, one_se=True, seed=0).pruning_steps[0]
    assert named == first.node_id
    assert page.evaluate(RED_NODES, dtlearn.export.HIGHLIGHT["color"]) == [named]
    context.close()

