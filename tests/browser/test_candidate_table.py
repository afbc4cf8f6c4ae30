"""The candidate table at 1280x720 (Tan et al.'s loan table, typed as printed, CART): the chosen
candidate's whole name fits its cell, and the column the algorithm ranks by is on screen without
scrolling sideways. The grid draws on a canvas, so the names are measured in the page's own font."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # `pages` importable, as `streamlit run app.py` has it
from pages.tables import candidate_width  # noqa: E402

TAN = ROOT / "tests" / "fixtures" / "books" / "tan_2006_figure_4_6.csv"
GRID = '[data-testid="stDataFrame"]'
MEASURED = """grid => {
  const canvas = document.createElement("canvas").getContext("2d");
  canvas.font = "14px 'Source Sans', sans-serif";  // the grid's type (Streamlit's body font)
  const cells = [...grid.querySelectorAll("tr")].map(r => [...r.querySelectorAll("th, td")].map(c => c.textContent));
  const box = grid.getBoundingClientRect();
  return {headers: cells[0], names: cells.slice(1).map(r => r[0]),
          widths: cells.slice(1).map(r => canvas.measureText(r[0]).width), left: box.left, right: box.right};
}"""


def test_the_chosen_candidate_is_whole_and_the_ranked_column_in_view(page, app_url, ui):
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(app_url + "/?dataset=tennis&algo=cart&page=data")
    ui.settle(page, ui.PLOT)
    page.get_by_test_id("stSidebar").get_by_test_id("stSelectbox").first.click()
    page.get_by_role("option", name="Upload a CSV or ARFF file…").click()
    page.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(TAN))
    page.get_by_text("Data: tan_2006_figure_4_6.csv").wait_for(timeout=30_000)
    page.get_by_test_id("stSidebarNav").get_by_text("Step through").click()
    page.get_by_role("button", name="Next").first.click()
    page.get_by_text("Step 1 of").first.wait_for(timeout=30_000)
    grid = page.locator(GRID).first
    grid.wait_for(timeout=30_000)
    grid.scroll_into_view_if_needed()
    # the grid fills its rows (and their accessible copy) after it is laid out
    page.wait_for_function("""() => document.querySelector('[data-testid="stDataFrame"]')
        .querySelectorAll("tr").length > 1""", timeout=30_000)
    page.evaluate("document.fonts.ready")
    shown = grid.evaluate(MEASURED)
    names = [n.strip() for n in shown["names"]]
    assert "✓ Marital Status in {Married}" in names, names
    width = candidate_width(shown["names"])
    padding = 2 * 8  # the grid's cell padding, each side
    assert max(shown["widths"]) + padding <= width, (max(shown["widths"]), width)
    # candidate, rows per branch (210 px), then the ranked column (90 px): all left of the screen's edge
    assert shown["headers"][:3] == ["candidate", "rows per branch (No/Yes)", "★ Gini gain"], shown["headers"]
    assert shown["left"] + width + 210 + 90 <= min(shown["right"], 1280)
