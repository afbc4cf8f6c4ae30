"""The classroom in a real browser: projector mode at 1280x720 (and 125 % zoom) shows the tree
and the decision in the first screen with whole button labels, and a presenter's clicker (Page
Down / Page Up, arrows, Home / End) steps forward and back whatever has focus: a clicked
slider, a menu just chosen in the sidebar, and on the Pruning page too."""

from __future__ import annotations

import re

import pytest

pytestmark = [pytest.mark.browser,
              pytest.mark.filterwarnings("ignore:Session-scoped fixtures defined as instance methods")]

TRUNCATED = """() => [...document.querySelectorAll('[data-testid=stMainBlockContainer] button')]
  .filter((b) => b.offsetParent)
  .filter((b) => [b, ...b.querySelectorAll('p, div, span')].some((e) => e.scrollWidth > e.clientWidth + 1))
  .map((b) => b.innerText)"""


@pytest.mark.parametrize("width, height, zoom", [(1280, 720, 1), (1024, 576, 1.25)], ids=["1280x720", "zoom125"])
def test_projector_mode_keeps_whole_button_labels(browser, app_url, ui, width, height, zoom):
    """(Where the tree and the decision are: tests/browser/test_projector_stage.py, every step.)"""
    context = browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=zoom)
    page = context.new_page()
    for path in ("/step?dataset=tennis&algo=id3&step=1", "/step?dataset=iris&algo=cart&step=5",
                 "/tree?dataset=iris&algo=c45&step=4", "/partitions?dataset=iris&algo=cart&part_step=3"):
        page.goto(app_url + path + "&projector=1")
        ui.settle(page, ui.GRAPH)
        assert page.evaluate(TRUNCATED) == [], "every button label whole"
        for label in ("First", "Previous", "Next step", "Last"):
            page.get_by_role("button", name=label, exact=True).wait_for(state="visible")
    context.close()


def test_projector_mode_folds_the_pruning_method_away(browser, app_url, ui):
    """The Pruning page's method and parameters fold below the tree and its numbers take one line
    (where its heading, decision and tree are: tests/browser/test_stage_pages.py, every decision)."""
    context = browser.new_context(viewport={"width": 1024, "height": 576}, device_scale_factor=1.25)
    page = context.new_page()
    page.goto(app_url + "/pruning?dataset=tennis&algo=id3&prune_method=reduced_error&projector=1")
    ui.settle(page, ui.GRAPH)
    page.get_by_text(re.compile(r"^Decision 0 of \d+:")).first.wait_for()
    assert page.evaluate(TRUNCATED) == [], "every button label whole"
    assert page.get_by_test_id("stMetric").count() == 0
    context.close()


def ready(page, *names: str) -> None:
    """The page's scripts (keys, full-screen viewer, node picker) have run: they come with the
    sidebar, which a loaded machine may draw after the tree."""
    wanted = ("__dtlearnKeys", "__dtlearnViewer") + names
    page.wait_for_function("names => names.every(name => window[name])", arg=list(wanted), timeout=30_000)


def heading(page) -> str:
    page.get_by_text(re.compile(r"^Step \d+ of \d+:")).first.wait_for()
    return page.get_by_text(re.compile(r"^Step \d+ of \d+:")).first.inner_text()


def wait_for_step(page, k: int) -> None:
    page.get_by_text(re.compile(rf"^Step {k} of \d+:")).first.wait_for(timeout=60_000)


def test_the_clicker_keys_step_whatever_has_focus(page, app_url, ui):
    page.goto(app_url + "/step?dataset=tennis&algo=id3&step=0")
    ui.settle(page, ui.GRAPH)
    ready(page)
    page.keyboard.press("PageDown")
    wait_for_step(page, 1)
    page.get_by_role("slider").first.focus()  # focus on the slider: its own keys would move it
    now = int(re.match(r"Step (\d+)", heading(page)).group(1))
    page.keyboard.press("PageDown")
    wait_for_step(page, now + 1)  # forward, never back
    page.keyboard.press("ArrowRight")
    wait_for_step(page, now + 2)
    page.keyboard.press("PageUp")
    wait_for_step(page, now + 1)
    page.keyboard.press("End")
    wait_for_step(page, 8)
    page.keyboard.press("Home")
    page.get_by_text(re.compile(r"^Step 0 of 8")).first.wait_for()
    assert page.locator(ui.EXCEPTION).count() == 0


def test_every_stepping_key_works_right_after_a_sidebar_choice(page, app_url, ui):
    """A menu just chosen keeps the focus (its list closed): arrows, Home and End step all the
    same, with no click on the page first; a number typed and committed with Enter too."""
    page.goto(app_url + "/step?dataset=tennis&algo=id3&step=2")
    ui.settle(page, ui.GRAPH)
    ready(page)
    page.get_by_test_id("stSidebar").get_by_test_id("stSelectbox").first.click()
    page.get_by_role("option", name="Iris").click()  # focus stays in the menu
    page.get_by_text(re.compile(r"^Step 0 of \d+")).first.wait_for()
    ui.settle(page, ui.GRAPH)
    for key, step in (("PageDown", 1), ("ArrowRight", 2), ("ArrowLeft", 1), ("End", None), ("Home", 0)):
        page.keyboard.press(key)
        if step is None:
            page.get_by_text(re.compile(r"^Step (\d+) of \1:")).first.wait_for(timeout=60_000)
        else:
            wait_for_step(page, step)
    field = page.get_by_test_id("stSidebar").get_by_role("spinbutton").first  # a number setting (Max depth)
    field.fill("2")
    field.press("Enter")  # committed: the arrows step again
    page.get_by_text(re.compile(r"^Step 0 of \d+")).first.wait_for()
    ui.settle(page, ui.GRAPH)
    page.keyboard.press("ArrowRight")
    wait_for_step(page, 1)
    page.keyboard.press("End")
    page.get_by_text(re.compile(r"^Step (\d+) of \1:")).first.wait_for(timeout=60_000)


def test_a_key_pressed_the_moment_the_tree_appears_is_not_lost(page, app_url, ui):
    page.goto(app_url + "/step?dataset=iris&algo=cart&step=0")
    page.locator(ui.GRAPH).first.wait_for(state="visible", timeout=30_000)
    page.keyboard.press("PageDown")  # no waiting for anything else
    wait_for_step(page, 1)


def test_two_quick_presses_are_two_steps(page, app_url, ui):
    page.goto(app_url + "/step?dataset=iris&algo=cart&step=0")
    ui.settle(page, ui.GRAPH)
    ready(page)
    page.keyboard.press("PageDown")
    page.keyboard.press("PageDown")  # before the first step's page is drawn
    wait_for_step(page, 2)


def test_changing_the_algorithm_starts_at_step_zero(page, app_url, ui):
    page.goto(app_url + "/step?dataset=iris&algo=cart&step=8")
    ui.settle(page, ui.GRAPH)
    page.get_by_test_id("stSidebar").locator("button", has_text=re.compile(r"^ID3$")).first.click()
    # a new tree is grown for ID3: 60 s, as every other wait for a page on a loaded CI machine
    page.get_by_text(re.compile(r"^Step 0 of \d+: nothing decided yet")).first.wait_for(timeout=60_000)


def test_the_numbers_view_takes_the_stage_by_key_and_back(browser, app_url, ui):
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    page.goto(app_url + "/step?dataset=tennis&algo=id3&step=1&projector=1")
    ui.settle(page, ui.GRAPH)
    ready(page)
    page.keyboard.press("n")
    table = page.get_by_test_id("stTable").first
    table.wait_for(timeout=60_000)
    box = table.bounding_box()
    assert 0 <= box["y"] < 720, "the candidate table where the tree was, in the first screen"
    assert page.locator(ui.GRAPH).count() == 0
    assert "outlook" in table.inner_text() and "0.247" in table.inner_text()  # Mitchell's Gain(S, Outlook)
    page.keyboard.press("PageDown")  # stepping keeps the view
    wait_for_step(page, 2)
    page.get_by_test_id("stTable").first.wait_for(timeout=60_000)
    page.keyboard.press("t")
    page.locator(ui.GRAPH).first.wait_for(timeout=60_000)
    page.keyboard.press("b")  # a clicker's blank-screen key switches
    page.get_by_test_id("stTable").first.wait_for(timeout=60_000)
    page.keyboard.press("t")
    page.keyboard.press("b")  # pressed during T's run: it waits for it, then switches back
    page.wait_for_function(f"""() => !document.querySelector('{ui.GRAPH}') &&
        document.querySelector('[data-testid=stTable]') &&
        !document.querySelector('[data-testid=stStatusWidget]')""", timeout=60_000)
    page.wait_for_timeout(1000)  # and no late run of a lost T takes the stage back
    assert page.locator(ui.GRAPH).count() == 0 and page.get_by_test_id("stTable").count() > 0
    context.close()


def test_stepping_does_not_move_the_page_under_the_lecturer(browser, app_url, ui):
    """The threshold chart open and in view: Page Down changes the step, and the chart's heading
    stays where it was on the screen (the decision, tree and table above it change height)."""
    page = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    page.goto(app_url + "/step?dataset=iris&algo=c45&step=1")
    ui.settle(page, ui.GRAPH)
    ready(page)
    ui.open_threshold_chart(page)
    ui.settle(page, ui.PLOT)
    heading = page.get_by_role("heading", name="Every threshold of a numeric attribute")
    heading.scroll_into_view_if_needed()
    page.evaluate("() => document.querySelector('[data-testid=stMain]').scrollBy(0, 200)")
    page.wait_for_timeout(300)
    before = heading.bounding_box()["y"]
    assert 0 < before < 720 and page.evaluate("() => document.querySelector('[data-testid=stMain]').scrollTop") > 0
    for k in (2, 3, 4):
        page.keyboard.press("PageDown")
        wait_for_step(page, k)
        ui.settle(page)
        if k == 2:  # a leaf: no candidate split, so no chart; stepping on brings it back
            continue
        heading.wait_for()
        assert heading.bounding_box()["y"] == pytest.approx(before, abs=3), k
    page.context.close()


def test_the_pruning_page_steps_with_the_clicker(page, app_url, ui):
    page.goto(app_url + "/pruning?dataset=iris&algo=c45")
    ui.settle(page, ui.GRAPH)
    ready(page)
    page.get_by_text(re.compile(r"^Decision 0 of \d+")).first.wait_for()
    page.keyboard.press("PageDown")
    page.get_by_text(re.compile(r"^Decision 1 of \d+")).first.wait_for(timeout=60_000)
    page.keyboard.press("PageUp")
    page.get_by_text(re.compile(r"^Decision 0 of \d+")).first.wait_for(timeout=60_000)


LINKS = {  # a view on each page, and one change made to it before its link is copied
    "step": ("/step?dataset=iris&algo=c45&step=3&digits=4&projector=1", "PageDown"),
    "tree": ("/tree?dataset=tennis&algo=id3&step=2", "PageDown"),
    "partitions": ("/partitions?dataset=iris&algo=cart&part_x=sepal_length&part_y=petal_width&part_step=2",
                   "PageDown"),
    "pruning": ("/pruning?dataset=iris&algo=cart&prune_method=cost_complexity&prune_alpha_mode=by+hand"
                "&prune_alpha=0.02", "PageDown"),
    "practice": ("/practice?dataset=tennis&algo=id3&mode=guess", None),
    "compare": ("/compare?dataset=tennis&algo=cart&max_depth=2", None),
}


def main_text(page) -> str:
    """The page's text once it stops changing (Streamlit draws a run's elements as they come)."""
    main = page.get_by_test_id("stMainBlockContainer")
    text, same = main.inner_text(), 0
    for _ in range(60):
        page.wait_for_timeout(400)
        now = main.inner_text()
        same = same + 1 if now == text else 0
        if same == 3:
            return now
        text = now
    return text


@pytest.mark.parametrize("name", LINKS)
def test_a_link_opened_in_a_new_browser_shows_the_same_view(browser, app_url, ui, name):
    path, key = LINKS[name]
    first = browser.new_context(viewport={"width": 1400, "height": 1800})
    page = first.new_page()
    page.goto(app_url + path)
    ui.settle(page, ui.GRAPH)
    if key:
        page.keyboard.press(key)
        page.wait_for_timeout(500)
        ui.settle(page)
    link, shown = page.url, main_text(page)
    first.close()
    second = browser.new_context(viewport={"width": 1400, "height": 1800})
    again = second.new_page()
    again.goto(link)
    ui.settle(again, ui.GRAPH)
    assert again.url == link
    assert main_text(again) == shown
    assert again.locator(ui.EXCEPTION).count() == 0
    second.close()


def test_a_click_on_any_cell_works_out_that_row(page, app_url, ui):
    page.goto(app_url + "/step?dataset=tennis&algo=id3&step=1")
    ui.settle(page, ui.GRAPH, ui.LATEX)
    grid = page.get_by_test_id("stDataFrame").first
    grid.scroll_into_view_if_needed()
    box = grid.bounding_box()
    # the fourth row (wind), in the middle of the table's width: a cell, not the row's checkbox
    page.mouse.click(box["x"] + box["width"] * 0.5, box["y"] + 35 * 4 + 18)
    page.wait_for_function("() => [...document.querySelectorAll('.katex')].some(e => e.textContent.includes('wind'))",
                           timeout=60_000)


FIRST_VISITS = ["/step?dataset=iris&algo=cart&step=0", "/tree?dataset=tennis&algo=id3&step=3",
                "/partitions?dataset=iris&algo=c45", "/pruning?dataset=iris&algo=cart",
                "/practice?dataset=tennis&algo=id3&mode=guess"]


def test_five_first_visitors_at_once_on_a_fresh_server(browser, fresh_app_url, ui):
    """Deep links to every page, opened together before the server has served anything."""
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in FIRST_VISITS]
    pages = [context.new_page() for context in contexts]
    for page, path in zip(pages, FIRST_VISITS):
        page.goto(fresh_app_url + path, wait_until="commit")
    for page, path in zip(pages, FIRST_VISITS):
        ui.settle(page, ui.GRAPH)
        assert page.locator(ui.EXCEPTION).count() == 0, path
        assert page.get_by_text("cannot be called directly").count() == 0, path
        assert path.split("?")[0] in page.url
    for context in contexts:
        context.close()


def test_the_tree_opens_full_screen_zooms_pans_and_follows_the_clicker(page, app_url, ui):
    page.goto(app_url + "/step?dataset=iris&algo=cart&step=3")
    ui.settle(page, ui.GRAPH)
    ready(page)
    page.locator(ui.GRAPH).first.click()
    viewer = page.get_by_test_id("dtlearnTreeViewer")
    viewer.wait_for()
    picture = viewer.get_by_role("img")
    page.wait_for_function("() => document.querySelector('[data-testid=dtlearnTreeViewer] img').style.transform")
    fitted = picture.evaluate("e => e.getBoundingClientRect().width")
    assert 0 < fitted <= page.viewport_size["width"]
    page.mouse.move(700, 500)
    page.mouse.wheel(0, -400)  # zoom in around the pointer
    page.wait_for_timeout(300)
    assert picture.evaluate("e => e.getBoundingClientRect().width") > fitted * 1.1
    before = picture.evaluate("e => e.getBoundingClientRect().left")
    page.mouse.down()
    page.mouse.move(900, 500)
    page.mouse.up()
    assert picture.evaluate("e => e.getBoundingClientRect().left") == pytest.approx(before + 200, abs=2)
    source = picture.get_attribute("src")
    page.keyboard.press("PageDown")  # the page steps underneath: the picture follows
    page.wait_for_function("s => document.querySelector('[data-testid=dtlearnTreeViewer] img').src !== s",
                           arg=source, timeout=60_000)
    page.keyboard.press("Escape")
    viewer.wait_for(state="detached")
    wait_for_step(page, 4)


def test_a_click_on_a_node_shows_its_details(page, app_url, ui):
    """The Tree page, iris CART complete: a click on node 14 (the leaf of 43 virginica) picks it;
    a click beside the nodes opens the full-screen view instead."""
    page.goto(app_url + "/tree?dataset=iris&algo=cart&complete=1&tree_node=0")
    ui.settle(page, ui.GRAPH)
    ready(page, "__dtlearnPickNode")
    image = page.locator(ui.GRAPH).first
    box = image.bounding_box()
    spot = image.evaluate("""(img) => {
      const svg = new DOMParser().parseFromString(atob(img.src.split(",")[1]), "image/svg+xml").documentElement;
      const [vx, vy, vw, vh] = svg.getAttribute("viewBox").split(/[\\s,]+/).map(Number);
      const shift = /translate\\(([-\\d.]+)[ ,]+([-\\d.]+)\\)/.exec(svg.querySelector("g").getAttribute("transform"));
      const node = [...svg.querySelectorAll("g.node")].find(
        (g) => [...g.querySelectorAll("text")].some((t) => t.textContent === "node 14"));
      const text = [...node.querySelectorAll("text")].find((t) => t.textContent === "node 14");
      const x = Number(text.getAttribute("x")) + Number(shift[1]);
      const y = Number(text.getAttribute("y")) + Number(shift[2]);
      return [(x - vx) / vw, (y - vy) / vh];
    }""")
    page.mouse.click(box["x"] + spot[0] * box["width"], box["y"] + spot[1] * box["height"] + 6)
    page.wait_for_function("() => new URLSearchParams(location.search).get('tree_node') === '14'", timeout=60_000)
    page.get_by_text("43 rows: 43 virginica").first.wait_for(timeout=60_000)  # the node's details
    assert page.get_by_test_id("dtlearnTreeViewer").count() == 0
    page.mouse.click(box["x"] + 3, box["y"] + box["height"] - 3)  # a corner: no node there
    page.get_by_test_id("dtlearnTreeViewer").wait_for()
