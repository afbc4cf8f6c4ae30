"""How fast the app answers: one step on the server, and the first page drawn in a browser.

1. Server side: the Step page in Streamlit's AppTest, clicking "Next step" through the whole
   induction of PlayTennis (ID3) and iris (CART, C4.5); the time of each rerun (script run
   plus AppTest's own parsing), first visit of each step and a second pass (caches warm).
   Also the Partitions page stepping on iris and late in the 449-step tips tree.
2. Browser: `streamlit run app.py` and Debian's chromium (as in tests/browser); from
   navigation to a shared link until its tree is painted (read in the page) and until
   Playwright sees it, each run in a fresh browser context (empty browser cache); the app's
   bare address (the landing page); the Data page until its table and its Plotly chart are
   painted. The references, run alternately in the same process: bare pages that draw the
   same tree, or the same Plotly chart, and nothing else (the floor on this machine, under
   its load).

Targets: a step under 100 ms server-side; the first page drawn under 2 s. Medians are printed.

    uv run python benchmarks/bench_app.py [--runs 5] [--no-browser]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[1]
APP = str(ROOT / "app.py")
CASES = [("tennis", "id3"), ("iris", "cart"), ("iris", "c45")]


SCRIPT_MS: list[float] = []  # the app's own run (router.main), measured inside each AppTest rerun


def time_the_script() -> None:
    """Wrap pages.router.routing, which router.main enters once per run, with a stopwatch (once)."""
    sys.path.insert(0, str(ROOT))
    from pages import router

    routing = router.routing
    if getattr(routing, "timed", False):
        return

    @contextmanager
    def timed():
        start = time.perf_counter()
        with routing():
            yield
        SCRIPT_MS.append(1000 * (time.perf_counter() - start))

    timed.timed = True
    router.routing = timed


def step_times(name: str, algorithm: str) -> tuple[list[float], list[float], list[float], int]:
    """Milliseconds per 'Next step' rerun (first pass, second pass), the script's own share of
    them, and the number of steps."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update({"dataset": name, "algo": algorithm, "step": "0", "page": "step"})
    at.run()
    time_the_script()  # after a first run: pages.router is then imported inside Streamlit's runtime
    total = int(at.slider(key="step_slider").max)
    passes, script = [], []
    for _ in range(2):
        times = []
        for _ in range(total):
            SCRIPT_MS.clear()
            start = time.perf_counter()
            at.button(key="next").click().run()
            times.append(1000 * (time.perf_counter() - start))
            script.extend(SCRIPT_MS)
            assert not at.exception, [e.value for e in at.exception]
        passes.append(times)
        at.button(key="first").click().run()
    return passes[0], passes[1], script, total


PARTITION_CASES = [("iris", "cart", 0), ("tips", "cart", 400)]  # (dataset, algorithm, first step)


def partition_times(name: str, algorithm: str, start: int, clicks: int = 7) -> list[float]:
    """Milliseconds per 'Next step' rerun of the Partitions page from step `start` (a late step
    of a big tree draws hundreds of rectangles and cut lines)."""
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params.update({"dataset": name, "algo": algorithm, "step": str(start), "page": "partitions"})
    at.run()
    times = []
    for _ in range(clicks):
        begin = time.perf_counter()
        at.button(key="next").click().run()
        times.append(1000 * (time.perf_counter() - begin))
        assert not at.exception, [e.value for e in at.exception]
    return times


# The floor on this machine: bare Streamlit pages drawing the same tree (default) or the Data
# page's class chart (?chart=plotly: one Plotly bar chart, nothing else).
REFERENCE_APP = f"""
import sys
sys.path.insert(0, {str(ROOT)!r})
import streamlit as st
import dtlearn
from dtlearn import data_summary
from pages import charts, stage
st.set_page_config(layout="wide")
data = dtlearn.load_dataset("tennis")
if st.query_params.get("chart") == "plotly":
    st.title("Reference: the same class chart, nothing else")
    st.plotly_chart(charts.class_distribution(data_summary.class_counts(data), dtlearn.fit(data, "id3").classes))
else:
    st.title("Reference: the same tree, nothing else")
    tree = dtlearn.fit(data, "id3")
    stage.show("reference", stage.fitted(tree.at_step(1), 0, stage.box("reference"), highlight=0))
"""


# In the page, from navigation start: when an element was first painted. Its insertion is seen by
# a MutationObserver (an image: once decoded); the next animation frame paints it, and a task
# queued in that frame runs just after the paint. (Playwright's own "visible" is also printed:
# it polls from the page, so it sees the tree only after whatever long task follows the paint.)
PAINT_WATCH = """
window.__painted = {};
const watch = %s;
const painted = name => requestAnimationFrame(() => setTimeout(() => {
  window.__painted[name] = performance.now() / 1000;
}, 0));
new MutationObserver(() => {
  for (const [name, selector] of Object.entries(watch)) {
    const element = document.querySelector(selector);
    if (!(name in window.__painted) && element) {
      window.__painted[name] = null;
      if (element.tagName === "IMG") element.decode().then(() => painted(name), () => painted(name));
      else painted(name);
    }
  }
}).observe(document, {subtree: true, childList: true});
"""


def browser_times(runs: int) -> dict[str, list[float]]:
    """Seconds from navigation, each run in a fresh browser context (empty cache): the app's
    shared link until its tree is painted and until Playwright sees it, its candidate table
    painted, and (alternating with it, so both see the same machine load) a reference page that
    draws the same tree and nothing else; the same link with the cache warm; the app's bare
    address (the landing page: Step, PlayTennis at step 0) until its tree is painted; the Data
    page until its table and its Plotly chart are painted, and a reference page with the same
    chart and nothing else. The first run (on just-started servers) is kept apart."""
    spec = importlib.util.spec_from_file_location("browser_conftest", ROOT / "tests" / "browser" / "conftest.py")
    conftest = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conftest)
    from playwright.sync_api import sync_playwright

    tree = conftest.GRAPH
    watch = PAINT_WATCH % json.dumps({"tree": tree, "table": '[data-testid="stDataFrame"] canvas',
                                      "plot": conftest.PLOT})
    times: dict[str, list[float]] = {}

    def visit(page, link: str, wait_for: str, prefix: str) -> None:
        start = time.perf_counter()
        page.goto(link)
        page.locator(wait_for).first.wait_for(state="visible", timeout=60_000)
        times.setdefault(prefix + " seen", []).append(time.perf_counter() - start)
        page.wait_for_function("Object.values(window.__painted).every(t => t !== null)", timeout=60_000)
        page.wait_for_timeout(1000)  # the rest of the page (a table, a chart) painted too
        if prefix.endswith(("app", "warm")):  # the Step page's candidate table comes after its tree
            page.wait_for_function("window.__painted.table != null", timeout=60_000)
        page.wait_for_function("Object.values(window.__painted).every(t => t !== null)", timeout=60_000)
        for name, at in page.evaluate("window.__painted").items():
            times.setdefault(f"{prefix} {name}", []).append(at)

    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "app.py").write_text(REFERENCE_APP, encoding="utf-8")
        app, app_url = conftest.start_server()
        reference, reference_url = conftest.start_server(Path(folder))
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=conftest.CHROMIUM, args=conftest.ARGS)
                for run in range(runs + 1):
                    first = "first " if run == 0 else ""
                    for prefix, link, wait_for in (
                            ("app", app_url + "/step?dataset=tennis&algo=id3&step=1", tree),
                            ("reference", reference_url + "/", tree),
                            ("landing", app_url + "/", tree),
                            ("data", app_url + "/?dataset=tennis&algo=id3&page=data", conftest.PLOT),
                            ("plotly reference", reference_url + "/?chart=plotly", conftest.PLOT)):
                        context = browser.new_context(viewport={"width": 1400, "height": 1800})
                        context.add_init_script(watch)
                        page = context.new_page()
                        visit(page, link, wait_for, first + prefix)
                        if prefix == "app":  # the same link again with the browser's cache warm
                            visit(page, link, wait_for, first + "warm")
                        context.close()
                browser.close()
        finally:
            conftest.stop_server(app)
            conftest.stop_server(reference)
    return times


# The slow pages (issue 36): Compare and Pruning, first visit in a fresh browser context, until
# the page is ready: the script run over, every tree painted at its fitted size and every chart
# painted. `READY` marks that moment in the page (a rerun after it, e.g. the stage reporting its
# box, starts the clock again) and adds up the main thread's long tasks (over 50 ms) since navigation.
READY = """
window.__ready = null; window.__long = 0;
new PerformanceObserver(list => { for (const e of list.getEntries()) window.__long += e.duration / 1000; })
  .observe({type: "longtask", buffered: true});
const expected = %s;
const ready = () => !document.querySelector('[data-testid="stStatusWidget"]')
  && !document.querySelector('[data-stale="true"]')
  && document.querySelectorAll('img[alt="decision tree"]').length >= expected.trees
  && [...document.images].every(image => image.complete && image.naturalWidth > 0)
  && [...document.querySelectorAll('.dtlearn-stage')].every(stage => stage.dataset.fitted === "yes")
  && document.querySelectorAll(%s).length >= expected.charts;
let pending = false;
new MutationObserver(() => {
  if (!ready()) { window.__ready = null; return; }
  if (window.__ready !== null || pending) return;
  pending = true;
  requestAnimationFrame(() => setTimeout(() => {
    pending = false;
    if (ready() && window.__ready === null) window.__ready = performance.now() / 1000;
  }, 0));
}).observe(document, {subtree: true, childList: true, attributes: true});
"""
# What a drawn chart is: Plotly's SVG, Vega's canvas or SVG, or an SVG image made on the server
CHART = ('[data-testid="stPlotlyChart"] .main-svg, [data-testid="stVegaLiteChart"] canvas, svg.dtlearn-chart, '
         '[data-testid="stVegaLiteChart"] svg, img[alt^="chart"]')
# (name, address, trees and charts the page draws); Pruning: CART's default, cost-complexity with
# cross-validation (one chart: alpha and the subtree sequence), and C4.5's pessimistic (none)
SLOW_PAGES = [(f"{page} {dataset}", f"/{page.split()[0].lower()}?dataset={dataset}&{query}", trees, charts)
              for dataset in ("iris", "glass", "tennis")
              for page, query, trees, charts in (
                  ("Compare", "algo=cart", 4, 0),
                  ("Pruning cost-complexity", "algo=cart&prune_method=cost_complexity", 1, 1),
                  ("Pruning pessimistic", "algo=c45&prune_method=pessimistic", 1, 0))]


def slow_page_times(runs: int) -> dict[str, list[tuple[float, float]]]:
    """(seconds from navigation until ready, seconds of long tasks) for each of SLOW_PAGES and for
    a bare page drawing one tree (the floor, REFERENCE_APP), each visit in a fresh browser context
    (empty cache) at 1280x720; the first visit of each on a just-started server comes first."""
    spec = importlib.util.spec_from_file_location("browser_conftest", ROOT / "tests" / "browser" / "conftest.py")
    conftest = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conftest)
    from playwright.sync_api import sync_playwright

    times: dict[str, list[tuple[float, float]]] = {}
    folder = tempfile.TemporaryDirectory()
    (Path(folder.name) / "app.py").write_text(REFERENCE_APP, encoding="utf-8")
    app, url = conftest.start_server()
    reference, reference_url = conftest.start_server(Path(folder.name))
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=conftest.CHROMIUM, args=conftest.ARGS)
            for _ in range(runs + 1):
                for name, link, trees, charts in [*SLOW_PAGES, (REFERENCE, reference_url, 1, 0)]:
                    context = browser.new_context(viewport={"width": 1280, "height": 720})
                    context.add_init_script(READY % (json.dumps({"trees": trees, "charts": charts}),
                                                     json.dumps(CHART)))
                    page = context.new_page()
                    page.goto(link if link == reference_url else url + link)
                    page.wait_for_function("window.__ready !== null", timeout=120_000)
                    page.wait_for_timeout(1500)  # a rerun the page asks for itself starts the clock again
                    page.wait_for_function("window.__ready !== null", timeout=120_000)
                    times.setdefault(name, []).append(tuple(page.evaluate("[window.__ready, window.__long]")))
                    context.close()
            browser.close()
    finally:
        conftest.stop_server(app)
        conftest.stop_server(reference)
        folder.cleanup()
    return times


REFERENCE = "bare page, one tree (the floor)"


def print_slow_pages(runs: int) -> None:
    times = slow_page_times(runs)
    print("\nCompare and Pruning, first visit (fresh browser context, 1280x720): seconds from navigation until "
          "ready\n(script over, every tree and chart painted); median of "
          f"{runs}, the first visit on a just-started server apart; long tasks: the main thread's busy seconds")
    print(f"{'page':>34} {'ready median':>13} {'max':>6} {'long tasks':>11} {'first (cold server)':>20}")
    for name in [page for page, _, _, _ in SLOW_PAGES] + [REFERENCE]:
        first, *rest = times[name]
        ready, busy = [t for t, _ in rest], [b for _, b in rest]
        print(f"{name:>34} {statistics.median(ready):>13.2f} {max(ready):>6.2f} {statistics.median(busy):>11.2f} "
              f"{first[0]:>20.2f}")
    print("target: ready within 1.5 s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="browser runs after the first (default 5)")
    parser.add_argument("--no-browser", action="store_true", help="only the server-side steps")
    parser.add_argument("--slow-pages", action="store_true", help="only the Compare and Pruning first visits")
    args = parser.parse_args()
    if args.slow_pages:
        print_slow_pages(args.runs)
        return
    print("Server side: one step (AppTest rerun after clicking Next), milliseconds;")
    print("'script' is the app's own run inside it (router.main), the rest is Streamlit and AppTest")
    print(f"{'dataset':>8} {'algorithm':>9} {'steps':>5} {'first visit median':>19} {'max':>6} "
          f"{'second pass median':>19} {'max':>6} {'script median':>14}")
    for name, algorithm in CASES:
        first, second, script, total = step_times(name, algorithm)
        print(f"{name:>8} {algorithm:>9} {total:>5} {statistics.median(first):>19.0f} {max(first):>6.0f} "
              f"{statistics.median(second):>19.0f} {max(second):>6.0f} {statistics.median(script):>14.0f}")
    print("target: under 100 ms")
    print("\nPartitions page: one step (AppTest rerun after Next), milliseconds")
    for name, algorithm, start in PARTITION_CASES:
        times = partition_times(name, algorithm, start)
        print(f"{name:>8} {algorithm:>9} from step {start:>3}: median {statistics.median(times):.0f}, "
              f"max {max(times):.0f}")
    if args.no_browser:
        return
    times = browser_times(args.runs)
    def median(name: str) -> float:
        return statistics.median(times[name])
    print("\nBrowser: seconds from navigation, each run in a fresh browser context (empty cache),")
    print(f"median of {args.runs}; 'painted' is read in the page, 'seen' is when Playwright finds it visible")
    print(f"  shared link /step (PlayTennis, step 1): tree painted {median('app tree'):.2f}, "
          f"seen {median('app seen'):.2f}; "
          f"candidate table painted {median('app table'):.2f}")
    print(f"  reference page (the same tree, nothing else): painted {median('reference tree'):.2f}, "
          f"seen {median('reference seen'):.2f}; ratio app / reference (painted) "
          f"{median('app tree') / median('reference tree'):.2f}")
    print(f"  the same link again, browser cache warm: tree painted {median('warm tree'):.2f}, "
          f"seen {median('warm seen'):.2f}")
    print(f"  landing page (the bare address: Step, PlayTennis at step 0): tree painted "
          f"{median('landing tree'):.2f}, seen {median('landing seen'):.2f}")
    print(f"  on just-started servers (first run): shared link tree painted {times['first app tree'][0]:.2f}, "
          f"landing tree painted {times['first landing tree'][0]:.2f}")
    print("target: under 2 s")
    print(f"  Data page (page=data): table painted {median('data table'):.2f}, Plotly chart painted "
          f"{median('data plot'):.2f}, seen {median('data seen'):.2f}")
    print(f"  reference page (the same Plotly chart, nothing else): painted {median('plotly reference plot'):.2f}; "
          f"ratio Data page / reference (chart painted) {median('data plot') / median('plotly reference plot'):.2f}")
    print_slow_pages(args.runs)


if __name__ == "__main__":
    main()
