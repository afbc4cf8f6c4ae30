"""The projector stage (issue 31): at 1280x720 and at 125 % zoom, in projector mode, every step of
the lectures' trees shows the heading, the decision and the whole drawn tree inside the first
screen, and no text of the drawing is smaller than 14 CSS px on screen (its SVG font size times
the scale at which the image is drawn: TESTING.md, "Measuring what a projector shows")."""

from __future__ import annotations

import re

import pytest

from tests.browser.hostile_visit import Runs, idle

pytestmark = [pytest.mark.browser,
              pytest.mark.filterwarnings("ignore:Session-scoped fixtures defined as instance methods")]

SCREENS = [(1280, 720, 1), (1024, 576, 1.25)]  # a 1280x720 projector, and the same at 125 % zoom
LECTURES = [  # dataset, algorithm, which steps (None: every step)
    ("tennis", "id3", None), ("credit_risk", "id3", None), ("iris", "c45", None), ("iris", "cart", None),
    ("glass", "c45", 5),
]

# Where each part of the first screen is, measured in the page: the tree image's box and the
# smallest text of its SVG on screen, the heading's and the decision's boxes.
MEASURE = """() => {
  const image = document.querySelector('img[alt="decision tree"]');
  const svg = new DOMParser().parseFromString(atob(image.src.split(",")[1]), "image/svg+xml").documentElement;
  const width = Number(svg.getAttribute("viewBox").split(/[\\s,]+/)[2]);
  const box = image.getBoundingClientRect();
  const sizes = [...svg.querySelectorAll("text")].map((t) => Number(t.getAttribute("font-size")));
  const heading = [...document.querySelectorAll("h2")].find((h) => /^Step \\d+ of \\d+/.test(h.textContent));
  const decision = document.querySelector('[data-testid="stAlert"]');
  const part = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  return {tree: part(image), smallest: Math.min(...sizes) * box.width / width, heading: part(heading),
          decision: part(decision), heading_text: heading.textContent, screen: [innerWidth, innerHeight],
          scrolled: document.querySelector('[data-testid="stMain"]').scrollTop};
}"""


def settled(page) -> None:
    """The run is over, the image decoded, and the stage drew for the box it is in."""
    page.wait_for_function("""() => !document.querySelector('[data-testid="stStatusWidget"]')
        && [...document.images].every((image) => image.complete)
        && document.querySelector('.dtlearn-stage[data-fitted="yes"]')""", timeout=30_000)
    page.wait_for_timeout(150)


def inside(part, screen) -> bool:
    left, top, right, bottom = part
    return left >= -0.5 and top >= -0.5 and right <= screen[0] + 0.5 and bottom <= screen[1] + 0.5


@pytest.mark.parametrize("width, height, zoom", SCREENS, ids=["1280x720", "zoom125"])
@pytest.mark.parametrize("dataset, algorithm, every", LECTURES, ids=[f"{d}-{a}" for d, a, _ in LECTURES])
def test_every_step_is_whole_and_legible_on_the_first_screen(browser, app_url, width, height, zoom,
                                                            dataset, algorithm, every):
    context = browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=zoom)
    page = context.new_page()
    runs = Runs(page)  # the stage of the step asked for, not the last one's still on screen
    page.goto(f"{app_url}/step?dataset={dataset}&algo={algorithm}&step=0&projector=1")
    page.get_by_text(re.compile(r"^Step 0 of \d+")).first.wait_for(timeout=30_000)
    settled(page)
    total = int(re.search(r"of (\d+)", page.evaluate(MEASURE)["heading_text"])[1])
    steps = range(0, total + 1, every) if every else range(total + 1)
    failures = []
    for k in steps:
        if k:
            before = runs.finished
            page.goto(f"{app_url}/step?dataset={dataset}&algo={algorithm}&step={k}&projector=1") if every else \
                page.keyboard.press("PageDown")
            page.get_by_text(re.compile(rf"^Step {k} of {total}")).first.wait_for(timeout=30_000)
            idle(page, runs, before, timeout=60)
        settled(page)
        seen = page.evaluate(MEASURE)
        assert seen["scrolled"] == 0
        for part in ("heading", "decision", "tree"):
            if not inside(seen[part], seen["screen"]):
                failures.append(f"step {k}: the {part} at {seen[part]} is not inside {seen['screen']}")
        if seen["smallest"] < 14 - 1e-6:
            failures.append(f"step {k}: the smallest text of the tree is {seen['smallest']:.1f} px")
    context.close()
    assert not failures, failures
