"""A file whose names are markup, in a real browser (issue 33): no page fetches a URL named in the
data, no name becomes a link, an image or coloured LaTeX, and the class chart draws classes called
__proto__ and constructor.

The table and file name of `hostile_names` are uploaded through the real file input; every page is
visited, and each Practice mode. Every request the browser makes is recorded: none may go to
example.invalid, the only host the data names. Before the fix a guess's option fetched
http://example.invalid/x.png, and Plotly, keying its category axis by class name in a plain
object, drew no bar for __proto__ or constructor.
"""

from __future__ import annotations

import pytest

import hostile_names as hostile

pytestmark = [pytest.mark.browser,
              pytest.mark.filterwarnings("ignore:Session-scoped fixtures defined as instance methods")]

PAGES = ("Step through", "Tree", "Partitions", "Pruning", "Compare", "Predict", "Practice")
MODES = ("Check my numbers", "Guess the next split", "Grow it by hand", "Worksheet")
# What a name would have become: a link or image to the data's host, a script link, red LaTeX, a
# formula KaTeX could not read
MADE_OF_DATA = """() => ({
  links: [...document.querySelectorAll('a[href]')].map(a => a.getAttribute('href'))
    .filter(h => h.includes('example.invalid') || h.trim().toLowerCase().startsWith('javascript:')),
  images: [...document.querySelectorAll('img[src]')].map(i => i.getAttribute('src'))
    .filter(s => s.includes('example.invalid')),
  coloured: [...document.querySelectorAll('.katex [style*="color"]')].map(e => e.textContent),
  "formula errors": [...document.querySelectorAll('.katex-error')].map(e => e.textContent),
})"""
BARS = """() => [...document.querySelectorAll('[data-testid="stPlotlyChart"] .js-plotly-plot .bars .point path')]
  .map(p => p.getBoundingClientRect().height)"""

TEXTS = """selector => [...document.querySelectorAll(
  '[data-testid="stPlotlyChart"] .js-plotly-plot ' + selector)].map(t => t.textContent)"""


def made_of_data(page, where: str) -> list[str]:
    found = page.evaluate(MADE_OF_DATA)
    return [f"{where}: {kind} {items[:3]}" for kind, items in found.items() if items]


def test_no_page_fetches_or_links_a_url_from_the_data(page, app_url, ui):
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto(app_url + "/?dataset=tennis&algo=c45&page=data")
    ui.settle(page, ui.PLOT)
    page.get_by_test_id("stSidebar").get_by_test_id("stSelectbox").first.click()
    page.get_by_role("option", name="Upload a CSV or ARFF file…").click()
    page.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(
        {"name": hostile.FILE_NAME, "mimeType": "text/csv", "buffer": hostile.csv_bytes()})
    page.get_by_text("example.invalid/f.png", exact=False).first.wait_for(timeout=60_000)  # the title: text
    ui.settle(page, ui.PLOT)
    found = made_of_data(page, "Data")
    # the class chart: one bar per class, each as high as its rows (none of the four classes is empty)
    page.wait_for_function(f"() => ({BARS})().length >= {len(hostile.CLASSES)}", timeout=30_000)
    bars = page.evaluate(BARS)
    if len(bars) != len(hostile.CLASSES) or not all(height > 0 for height in bars):
        found.append(f"Data: the class chart's bars are {bars} high")
    ticks = page.evaluate(TEXTS, ".xtick text")  # each bar named by its class, as text
    if sorted(ticks) != sorted(hostile.CLASSES):
        found.append(f"Data: the class chart's names are {ticks}")
    for name in PAGES:
        page.get_by_test_id("stSidebarNav").get_by_role("link", name=name).click()
        ui.settle(page)
        page.wait_for_timeout(500)
        found += made_of_data(page, name)
        if name == "Partitions":  # a legend entry per class, named as the class is
            legend = page.evaluate(TEXTS, ".legendtext")
            if not {"__proto__", "constructor"} <= set(legend):
                found.append(f"Partitions: the legend says {legend}")
        assert page.locator(ui.EXCEPTION).count() == 0, name
    for mode in MODES:
        page.get_by_text(mode, exact=True).click()
        ui.settle(page)
        if mode == "Worksheet":  # the solution's formulas hold the names, as KaTeX text
            page.get_by_text("Show the solution").click()
            ui.settle(page, ui.LATEX)
        page.wait_for_timeout(500)
        found += made_of_data(page, f"Practice: {mode}")
        assert page.locator(ui.EXCEPTION).count() == 0, mode
    found += [f"fetched {url}" for url in requested if "example.invalid" in url]
    assert not found, "\n".join(found)
