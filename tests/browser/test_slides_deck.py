"""The HTML slide deck in a real browser, opened from a file with the network cut off: a clicker's
keys (Page Down / Page Up, Home / End) move through the slides, the counter and the heading follow,
each tree's text is at least 14 px on a 1280x720 projector, and the formulas are drawn (MathML).

Expected headings are the deck's own frames (dtlearn.slides), counted here independently of the
page's script.
"""

from __future__ import annotations

import pytest

import dtlearn
from dtlearn.slides import deck
from dtlearn.slides_html import to_html

pytestmark = [pytest.mark.browser]

MIN_TEXT_PX = 14  # the back row of a lecture hall (docs/limits.md, pages/stage.py)

# The visible slide: its counter, heading, and each drawn text's size on screen (font-size times
# the SVG's scale to the screen: TESTING.md, "A drawn tree's size on screen").
SHOWN = """() => {
  const slide = [...document.querySelectorAll('.slide')].find(s => !s.hidden);
  const svg = slide.querySelector('svg');
  const sizes = svg ? [...svg.querySelectorAll('text')].map(t =>
      parseFloat(t.getAttribute('font-size')) * svg.getScreenCTM().a) : [];
  const box = svg ? svg.getBoundingClientRect() : null;
  return {counter: document.getElementById('counter').textContent,
          heading: slide.querySelector('h1, h2').textContent, kind: slide.dataset.kind,
          smallest: sizes.length ? Math.min(...sizes) : null,
          inside: box ? box.top >= 0 && box.left >= 0 && box.bottom <= innerHeight && box.right <= innerWidth : null,
          fractions: [...slide.querySelectorAll('mfrac')].map(f => f.getBoundingClientRect().height)};
}"""


@pytest.fixture(scope="module")
def slides():
    tree = dtlearn.fit(dtlearn.load_dataset("tennis"), "id3")
    return deck(tree, 1, 4, tables=True, formulas=True, dataset="PlayTennis")


@pytest.fixture
def offline(browser, slides, tmp_path):
    """The deck opened from a file in a 1280x720 window, every request but file:// refused."""
    path = tmp_path / "deck.html"
    path.write_text(to_html(slides), encoding="utf-8")
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    asked = []

    def route(request_route):
        if request_route.request.url.startswith("file://"):
            request_route.continue_()
        else:
            asked.append(request_route.request.url)
            request_route.abort()

    context.route("**/*", route)
    page = context.new_page()
    page.goto(path.as_uri())
    yield page, asked, path
    context.close()


def test_the_clicker_keys_move_through_the_slides(offline, slides):
    page, asked, _ = offline
    headings = [frame.heading for frame in slides.frames]
    total = len(headings)
    assert page.evaluate(SHOWN)["counter"] == f"1 / {total}"
    for expected in range(2, total + 1):  # Page Down to the end, one slide at a time
        page.keyboard.press("PageDown")
        shown = page.evaluate(SHOWN)
        assert (shown["counter"], shown["heading"]) == (f"{expected} / {total}", headings[expected - 1])
    page.keyboard.press("PageDown")  # past the last: stays
    assert page.evaluate(SHOWN)["counter"] == f"{total} / {total}"
    page.keyboard.press("PageUp")
    assert page.evaluate(SHOWN)["heading"] == headings[total - 2]
    page.keyboard.press("Home")
    assert page.evaluate(SHOWN)["counter"] == f"1 / {total}"
    page.keyboard.press("End")
    assert page.evaluate(SHOWN)["heading"] == headings[-1]
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")  # a clicker that sends arrows
    page.keyboard.press("Space")
    assert page.evaluate(SHOWN)["counter"] == f"3 / {total}"
    assert asked == []  # nothing was fetched: the deck is one file


def test_a_reload_stays_on_the_slide(offline, slides):
    page, _, path = offline
    for _ in range(3):
        page.keyboard.press("PageDown")
    page.reload()
    assert page.evaluate(SHOWN)["heading"] == slides.frames[3].heading
    page.goto(path.as_uri() + "#2")
    assert page.evaluate(SHOWN)["counter"] == f"2 / {len(slides.frames)}"


def test_each_tree_reads_at_14_px_on_a_1280x720_projector(offline, slides):
    page, _, _ = offline
    for number, frame in enumerate(slides.frames, start=1):
        shown = page.evaluate(SHOWN)
        assert shown["kind"] == frame.kind
        if frame.kind == "step":
            assert shown["smallest"] >= MIN_TEXT_PX, (number, shown)
            assert shown["inside"], (number, shown)  # the whole drawing on the screen
        if frame.kind == "formulas":
            assert shown["fractions"] and min(shown["fractions"]) > 10  # MathML drawn, numerator over denominator
        page.keyboard.press("PageDown")


def test_the_deck_scales_to_a_smaller_window(offline):
    page, _, _ = offline
    page.set_viewport_size({"width": 640, "height": 480})
    # the deck rescales on the window's resize event, which a loaded machine may deliver late
    page.wait_for_function("() => Math.abs(document.getElementById('deck').getBoundingClientRect().width - 640) < 1",
                           timeout=10_000)
    box = page.evaluate("() => { const r = document.getElementById('deck').getBoundingClientRect();"
                        " return [r.left, r.top, r.width, r.height]; }")
    assert box == pytest.approx([0, 60, 640, 360], abs=1)  # 1280x720 at half size, letterboxed
