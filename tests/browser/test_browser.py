"""What only a real browser shows: charts drawn, KaTeX typeset, clicks, uploads, downloads.

Run against `streamlit run app.py` (conftest.py) with Debian's chromium; skipped only when
/usr/bin/chromium is missing and CI is not set.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytestmark = [pytest.mark.browser,
              # pytest-playwright's base_url fixture, under pytest 9 (the message spans two lines)
              pytest.mark.filterwarnings("ignore:Session-scoped fixtures defined as instance methods")]

EXAM = "hours,slept,name,passed\n1,7,Ann,no\n6,6,Ben,yes\n3,8,Chloé,no\n8,5,Dev,yes\n5,7,Eli,yes\n2,6,Fay,no\n"
EVIL = 'a}\\text{x}$\\\\,size,"**bold** $x$"\np&q,2,<b>yes</b>\nr#s,1,no\nr#s,3,no\n'


def assert_no_error_box(page, ui) -> None:
    assert page.locator(ui.EXCEPTION).count() == 0, page.locator(ui.EXCEPTION).first.inner_text()
    assert page.locator(".katex-error").count() == 0


def graph_nodes(page, ui) -> int | None:
    """The nodes of the drawn tree; None until its image is decoded."""
    return page.evaluate(ui.TREE_NODES, ui.GRAPH)


def nav(page, name: str) -> None:
    page.get_by_test_id("stSidebarNav").get_by_role("link", name=name).click()


def check_drawn(page, ui, *drawn: str) -> None:
    ui.settle(page, *(getattr(ui, name) for name in drawn))
    assert_no_error_box(page, ui)
    if "GRAPH" in drawn:
        assert (graph_nodes(page, ui) or 0) >= 1, "the tree image is decoded and has nodes"
    if "PLOT" in drawn:
        assert page.locator('[data-testid="stPlotlyChart"] .js-plotly-plot .trace').count() >= 1
    if "LATEX" in drawn:
        assert page.locator(ui.LATEX).count() >= 2  # one block per section of the derivation


def test_every_page_draws_its_charts_without_an_error_box(page, app_url, ui):
    page.goto(app_url + "/?dataset=tennis&algo=id3")  # without page=, a link opens the Step page
    check_drawn(page, ui, "GRAPH")
    page.get_by_role("button", name="Next step").click()
    check_drawn(page, ui, "GRAPH", "LATEX")
    nav(page, "Data")
    check_drawn(page, ui, "PLOT")
    nav(page, "Tree")
    check_drawn(page, ui, "GRAPH")
    nav(page, "Partitions")
    page.get_by_text("needs two numeric attributes").wait_for()
    page.goto(app_url + "/step?dataset=iris&algo=c45&step=3")
    check_drawn(page, ui, "GRAPH", "LATEX")
    ui.open_threshold_chart(page)
    check_drawn(page, ui, "GRAPH", "LATEX", "PLOT")
    nav(page, "Partitions")
    check_drawn(page, ui, "PLOT", "GRAPH")
    nav(page, "Tree")
    check_drawn(page, ui, "GRAPH")
    nav(page, "Data")
    check_drawn(page, ui, "PLOT")


def test_a_regression_tree_draws_too(page, app_url, ui):
    page.goto(app_url + "/step?dataset=tips&algo=cart&step=1")
    check_drawn(page, ui, "GRAPH", "LATEX")
    ui.open_threshold_chart(page)
    check_drawn(page, ui, "GRAPH", "LATEX", "PLOT")


def wait_for_nodes(page, ui, compare: str, count: int) -> None:
    """Wait until the drawn tree has more (compare '>') or fewer ('<') nodes than `count`."""
    page.wait_for_function(f"([s, n]) => {{ const nodes = ({ui.TREE_NODES})(s); "
                           f"return nodes !== null && nodes {compare} n; }}",
                           arg=[ui.GRAPH, count], timeout=20_000)


def test_next_step_adds_nodes_to_the_drawn_tree(page, app_url, ui):
    page.goto(app_url + "/step?dataset=tennis&algo=id3&step=0")
    ui.settle(page, ui.GRAPH)
    assert graph_nodes(page, ui) == 1
    page.get_by_role("button", name="Next step").click()
    wait_for_nodes(page, ui, ">", 1)
    ui.settle(page, ui.GRAPH)
    assert graph_nodes(page, ui) == 4  # the root split on outlook: three children, not decided yet
    assert_no_error_box(page, ui)


def test_a_shared_link_opens_on_a_fresh_server_at_its_step(page, fresh_app_url, ui):
    # the first page a new server serves is a deep link (see pages/router.py: routing)
    page.goto(fresh_app_url + "/step?dataset=iris&algo=cart&step=2")
    ui.settle(page, ui.GRAPH)
    page.get_by_text("Step 2 of", exact=False).first.wait_for()
    # step 1 splits the root (3 nodes); step 2 makes its setosa child a pure leaf: still 3 nodes
    assert graph_nodes(page, ui) == 3
    assert_no_error_box(page, ui)


@pytest.mark.parametrize("path, heading", [("/data", "Data: PlayTennis"), ("/step", "Step through the induction"),
                                           ("/tree", "The tree"), ("/compare", "Compare the algorithms"),
                                           ("/", "Step through the induction")])
def test_each_pages_address_typed_opens_that_page(page, app_url, ui, path, heading):
    # every page of the menu has an address of its own (the Data page's, /data, once said
    # "Page not found" and opened the Step page: it was the default page, at "/" only); "/"
    # opens the landing page
    page.goto(app_url + path)
    ui.settle(page)
    page.get_by_role("heading", name=heading, exact=True).first.wait_for()
    assert page.get_by_text("Page not found").count() == 0
    assert_no_error_box(page, ui)
    if path != "/":
        assert page.url.split("?")[0].endswith(path)
        current = page.get_by_test_id("stSidebarNav").locator("a[aria-current='page']")
        assert current.count() == 1 and path in current.get_attribute("href")


def _upload(page, tmp_path, name: str, text: str) -> None:
    csv = tmp_path / name
    csv.write_text(text, encoding="utf-8")
    page.get_by_test_id("stSidebar").get_by_test_id("stSelectbox").first.click()
    page.get_by_role("option", name="Upload a CSV or ARFF file…").click()
    page.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(csv))


def test_an_upload_through_the_real_file_input_is_used(page, app_url, ui, tmp_path):
    page.goto(app_url + "/?dataset=tennis&algo=cart&page=data")
    ui.settle(page, ui.PLOT)
    _upload(page, tmp_path, "exam.csv", EXAM)
    page.get_by_text("Data: exam.csv").wait_for(timeout=30_000)  # the page title names the file
    ui.settle(page, ui.PLOT)
    assert_no_error_box(page, ui)
    nav(page, "Step through")
    check_drawn(page, ui, "GRAPH")


def test_a_click_while_the_bar_fills_does_not_start_the_computation_again(page, app_url, ui, tmp_path):
    # Streamlit stops a running script at the user's click. The Pruning page's cross-validation
    # (five folds, each growing a chain of thousands of levels: seconds) ran in the script's
    # thread and started again from fold 1 after every click (pages/jobs.py). Clicked while the
    # bar says fold 2, the rerun's bar goes on from there.
    rows = "\n".join(f"{x},{'ab'[x % 2]}" for x in range(12_000))
    page.goto(app_url + "/?dataset=tennis&algo=cart&page=data")
    ui.settle(page, ui.PLOT)
    _upload(page, tmp_path, "chain.csv", "x,y\n" + rows + "\n")
    page.get_by_text("Data: chain.csv").wait_for(timeout=60_000)
    ui.settle(page, timeout=60_000)
    nav(page, "Pruning")
    bar = page.get_by_test_id("stProgress").first
    bar.get_by_text(re.compile("fold 2 of 5")).wait_for(timeout=120_000)
    before = bar.inner_text()
    page.get_by_test_id("stSidebar").locator("button", has_text=re.compile("^4$")).first.click()  # a rerun
    page.wait_for_function("text => { const bar = document.querySelector('[data-testid=\"stProgress\"]');"
                           " return bar && bar.innerText !== text; }", arg=before, timeout=60_000)
    after = bar.inner_text()
    assert "fold 1 of 5" not in after, (before, after)
    page.get_by_role("heading", name="Step through the pruning").wait_for(timeout=120_000)
    assert_no_error_box(page, ui)


def test_a_bad_upload_shows_its_error_and_keeps_the_dataset(page, app_url, ui, tmp_path):
    page.goto(app_url + "/?dataset=tennis&algo=id3&page=data")
    ui.settle(page, ui.PLOT)
    _upload(page, tmp_path, "broken.csv", "a,b\n1,2,3\n")
    page.get_by_text("has 3 fields but the header has 2").wait_for(timeout=30_000)
    assert page.locator(ui.EXCEPTION).count() == 0
    page.get_by_text("Still showing PlayTennis").wait_for()


def test_names_from_a_file_are_shown_as_text(page, app_url, ui, tmp_path):
    page.goto(app_url + "/?dataset=tennis&algo=cart&page=data")
    ui.settle(page, ui.PLOT)
    _upload(page, tmp_path, "evil.csv", EVIL)
    page.get_by_text("evil.csv").first.wait_for(timeout=30_000)
    nav(page, "Step through")
    page.get_by_role("button", name="Next step").click()
    check_drawn(page, ui, "GRAPH", "LATEX")
    assert page.locator("b", has_text="yes").count() == 0  # <b>yes</b> from the file is not markup


def test_a_download_works(page, app_url, ui):
    page.goto(app_url + "/tree?dataset=tennis&algo=id3&step=8")
    ui.settle(page, ui.GRAPH)
    with page.expect_download() as download:
        page.get_by_role("button", name="DOT source").click()
    path = download.value.path()
    text = Path(path).read_text(encoding="utf-8")
    assert text.startswith("digraph") and "outlook" in text
    # the pictures are drawn by `dot` when clicked (deferred data)
    with page.expect_download() as download:
        page.get_by_role("button", name="SVG picture").click()
    svg = Path(download.value.path()).read_text(encoding="utf-8")
    assert download.value.suggested_filename == "tree-tennis-id3-step8.svg"
    assert "<svg" in svg and svg.count('class="node"') == 8 and ">outlook</text>" in svg
    with page.expect_download() as download:
        page.get_by_role("button", name="PNG picture").click()
    assert Path(download.value.path()).read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    with page.expect_download() as download:  # the rules too are written when clicked: every one
        page.get_by_role("button", name="Rules (text)").click()
    rules = Path(download.value.path()).read_text(encoding="utf-8").splitlines()
    assert len(rules) == 5 and rules[0] == "IF outlook = Sunny AND humidity = High THEN play = No (3 rows)"


SVG_CHART = "svg.dtlearn-chart"  # the Pruning page's charts, drawn on the server (pages/svg_chart.py)


def check_svg_chart(page) -> None:
    """An SVG chart laid out in the page with its curves' points (no Plotly loaded for it)."""
    chart = page.locator(SVG_CHART).first
    chart.wait_for(state="visible")
    assert chart.bounding_box()["width"] > 300
    assert chart.locator("g.series circle").count() >= 2
    assert page.locator('[data-testid="stPlotlyChart"]').count() == 0


def test_the_pruning_page_draws_and_steps_through_the_pruning(page, app_url, ui):
    page.goto(app_url + "/pruning?dataset=iris&algo=cart")
    check_drawn(page, ui, "GRAPH")
    check_svg_chart(page)
    grown = graph_nodes(page, ui)
    page.get_by_role("button", name="Last", exact=True).click()
    wait_for_nodes(page, ui, "<", grown)
    check_drawn(page, ui, "GRAPH")
    check_svg_chart(page)
    assert graph_nodes(page, ui) < grown, "the last decision draws the pruned tree, with fewer nodes"
