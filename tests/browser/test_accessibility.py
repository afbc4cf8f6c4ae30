"""axe-core's WCAG 2.1 A and AA rules on every page, projector mode off and on, at 1280x720:
no violation at all (contrast, names and labels of widgets, headings, alt text, ARIA, ...).

axe-core comes from the npm registry, pinned in tests/browser/package.json and its lock file;
`.ci/run` installs it with `npm ci` (by hand: `cd tests/browser && npm ci`). Without it the
test skips, except under CI, where a missing axe is a failure. The colours are set by the theme
in .streamlit/config.toml.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

pytestmark = [pytest.mark.browser,
              pytest.mark.filterwarnings("ignore:Session-scoped fixtures defined as instance methods")]

AXE = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]

# One run of axe, its results cut to what a failure message needs. The page is scrolled back to
# its top first: with Streamlit's main area scrolled (opening the threshold chart scrolls it),
# axe 4.14's color-contrast rule stops at KaTeX's boxes ("Element midpoint exceeds the grid
# bounds", dequelabs/axe-core#4253) and checks nothing.
RUN_AXE = """async (only) => {
  for (const element of document.querySelectorAll("*")) if (element.scrollTop > 0) element.scrollTop = 0;
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  const result = await axe.run(document, {runOnly: only});
  const brief = (rule) => ({
    id: rule.id, impact: rule.impact, help: rule.help, error: rule.error ? rule.error.message : null,
    nodes: rule.nodes.map((node) => ({target: node.target.join(" "), summary: node.failureSummary || "",
                                      html: node.html.slice(0, 160)}))});
  return {violations: result.violations.map(brief), passes: result.passes.map(brief),
          incomplete: result.incomplete.map(brief)};
}"""
# Streamlit scrolls the main area and the sidebar inside containers of the window's height, and
# axe checks the contrast of text in view of those only (at 1280x720, not the Step page's
# formulas, its threshold chart nor the sidebar's lower half). For a second run of the contrast
# rule, each scrolling box and its ancestors grow to their content, so that the window scrolls
# instead and every text is in view. Returns how many boxes still scroll (none).
SCROLLING = """() => [...document.querySelectorAll("*")].filter((box) => box.scrollHeight > box.clientHeight + 1 &&
  ["auto", "scroll"].includes(getComputedStyle(box).overflowY))"""
UNROLL = f"""async () => {{
  const grown = [["overflow", "visible"], ["height", "auto"], ["max-height", "none"], ["bottom", "auto"]];
  for (const box of ({SCROLLING})())
    for (let element = box; element !== document.documentElement; element = element.parentElement)
      for (const [name, value] of grown) element.style.setProperty(name, value, "important");
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  return ({SCROLLING})().length;
}}"""
# Violations inside Streamlit's own widgets that no setting fixes: (rule, CSS selector axe
# reports), each with why and the Streamlit version it was seen in. None at streamlit 1.67.
EXCLUDED: set[tuple[str, str]] = set()
# At least this many texts had their contrast checked in the unrolled run: a page not drawn yet
# would otherwise pass with nothing to check (each page has more than 50, the sidebar about 30).
CHECKED_TEXTS = 40

# name -> (address, what it draws last: a selector of conftest's `ui` by name, or a CSS selector)
PAGES = {
    "data": ("/data?dataset=tennis&algo=id3", "PLOT"),
    "step": ("/step?dataset=iris&algo=c45&step=3", "PLOT"),  # a split (on petal_width), its threshold chart opened
    "tree": ("/tree?dataset=tennis&algo=id3&step=8", "GRAPH"),
    "partitions": ("/partitions?dataset=iris&algo=c45", "PLOT"),
    "pruning-pessimistic": ("/pruning?dataset=iris&algo=c45&prune_method=pessimistic", "GRAPH"),
    "pruning-cost-complexity": ("/pruning?dataset=iris&algo=cart&prune_method=cost_complexity", "GRAPH"),
    "compare": ("/compare?dataset=tennis&algo=id3", "GRAPH"),
    "predict": ("/predict?dataset=tennis&algo=id3", "GRAPH"),
    "practice-check": ("/practice?dataset=tennis&algo=id3&mode=check", '[data-testid="stNumberInput"]'),
    "practice-guess": ("/practice?dataset=tennis&algo=id3&mode=guess", "GRAPH"),
    "practice-hand": ("/practice?dataset=tennis&algo=id3&mode=hand", "GRAPH"),
    "practice-worksheet": ("/practice?dataset=tennis&algo=id3&mode=worksheet", '[data-testid="stDownloadButton"]'),
    "teacher": ("/teacher?dataset=tennis&algo=id3", '[data-testid="stDataFrame"]'),  # two students' keys drawn
}


def ready(page, ui, name: str) -> None:
    """Wait until the page has drawn what it draws last (the Step page: its threshold chart, opened)."""
    drawn = PAGES[name][1]
    if name == "step":
        ui.settle(page, ui.GRAPH)
        ui.open_threshold_chart(page)
    ui.settle(page, getattr(ui, drawn, drawn))


@pytest.fixture(scope="module")
def axe_script() -> str:
    if not AXE.exists():
        if os.environ.get("CI"):
            pytest.fail(f"CI is set but {AXE} is missing: `npm ci` in tests/browser (see .ci/run).")
        pytest.skip(f"{AXE} is missing (`cd tests/browser && npm ci` installs axe-core)")
    return AXE.read_text(encoding="utf-8")


def axe_results(page, ui, axe_script: str) -> tuple[dict, dict]:
    """All the rules on the page as shown, then the contrast rule on the page unrolled."""
    page.add_script_tag(content=axe_script)
    shown = page.evaluate(RUN_AXE, {"type": "tag", "values": TAGS})
    assert page.evaluate(UNROLL) == 0, "no box scrolls once unrolled"
    ui.settle(page)
    unrolled = page.evaluate(RUN_AXE, {"type": "rule", "values": ["color-contrast"]})
    return shown, unrolled


def violations_of(*results: dict) -> list[dict]:
    """The violations of the runs, each node once, less the EXCLUDED ones."""
    merged: dict[str, dict] = {}
    for result in results:
        for rule in result["violations"]:
            kept = merged.setdefault(rule["id"], {**rule, "nodes": []})
            seen = {node["target"] for node in kept["nodes"]}
            kept["nodes"] += [node for node in rule["nodes"]
                              if node["target"] not in seen and (rule["id"], node["target"]) not in EXCLUDED]
    return [rule for rule in merged.values() if rule["nodes"]]


def described(violations: list[dict]) -> str:
    return "\n".join(f"{v['id']} ({v['impact']}): {v['help']}\n" + "\n".join(
        f"    {n['target']}\n      {n['summary']}\n      {n['html']}" for n in v["nodes"]) for v in violations)


@pytest.mark.parametrize("projector", ["0", "1"], ids=["projector-off", "projector-on"])
@pytest.mark.parametrize("name", list(PAGES))
def test_axe_finds_no_violation(browser, app_url, ui, axe_script, name, projector):
    address = f"{PAGES[name][0]}&projector={projector}"
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    try:
        page.goto(app_url + address)
        ready(page, ui, name)
        assert page.locator(ui.EXCEPTION).count() == 0, page.locator(ui.EXCEPTION).first.inner_text()
        shown, unrolled = axe_results(page, ui, axe_script)
    finally:
        context.close()
    crashed = [(rule["id"], rule["error"]) for result in (shown, unrolled) for rule in result["incomplete"]
               if rule["error"]]
    assert not crashed, f"axe could not run these rules on {address}: {crashed}"
    checked = sum(len(rule["nodes"]) for rule in unrolled["passes"] + unrolled["violations"])
    assert checked >= CHECKED_TEXTS, f"axe checked the contrast of only {checked} texts on {address}"
    violations = violations_of(shown, unrolled)
    assert not violations, f"axe-core ({', '.join(TAGS)}) on {address}:\n{described(violations)}"
