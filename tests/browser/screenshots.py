"""Take the app's screenshots (docs/screenshots/*.png) with Playwright and Debian's chromium.

    uv run python tests/browser/screenshots.py [--out docs/screenshots]

A tall viewport (1400 x 1800) because Streamlit scrolls an inner container, which a
full-page screenshot does not capture. Open the PNGs and look at them: an error box, an
empty chart or a cut-off table is a bug even when every test passes.
"""

from __future__ import annotations

import argparse
import importlib.util
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
UPLOAD_CSV = """student,hours_studied,hours_slept,passed
Ann,2.5,6,no
Ben,8,7.5,yes
Chloé,6.5,5,yes
Dev,1,8,no
Eli,4,7,no
Fay,9.5,6.5,yes
Gus,3,4.5,no
Hana,7,8,yes
Ivo,5.5,6,yes
Jo,2,7,no
Kai,6,4,no
Lu,8.5,5.5,yes
"""


PROJECTOR_SHOTS = [  # name, address (projector mode is added)
    ("projector-step", "/step?dataset=tennis&algo=id3&step=3"),
    ("projector-step-glass", "/step?dataset=glass&algo=c45&step=20"),
    ("projector-numbers", "/step?dataset=tennis&algo=id3&step=1&stage_view=Numbers"),
    ("projector-partitions", "/partitions?dataset=iris&algo=cart&part_step=6"),
    ("projector-pruning", "/pruning?dataset=iris&algo=cart&prune_method=cost_complexity&prune_step=1"),
    ("projector-compare", "/compare?dataset=tennis&algo=id3"),
    ("projector-quiz", "/practice?dataset=iris&algo=cart&mode=guess"),
]


def _conftest():
    spec = importlib.util.spec_from_file_location("browser_conftest", HERE / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=HERE.parents[1] / "docs" / "screenshots")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    conftest = _conftest()
    settle, GRAPH, PLOT, LATEX = conftest.settle, conftest.GRAPH, conftest.PLOT, conftest.LATEX
    from playwright.sync_api import sync_playwright

    process, url = conftest.start_server()
    formulas, thresholds = "Split information and gain ratio", "Every threshold of a numeric attribute"
    shots = [  # name, address, what must be drawn, headings to scroll to for more screenshots
        ("landing", "/", (GRAPH,), ()),
        ("data-tennis", "/?dataset=tennis&algo=id3&page=data", (PLOT,), ()),
        ("step-tennis", "/step?dataset=tennis&algo=id3&step=1", (GRAPH, LATEX), (formulas,)),
        ("step-tennis-leaf", "/step?dataset=tennis&algo=id3&step=3", (GRAPH,), ()),
        ("tree-tennis", "/tree?dataset=tennis&algo=id3&step=8", (GRAPH,), ()),
        ("data-iris", "/?dataset=iris&algo=cart&page=data", (PLOT,), ()),
        ("step-iris", "/step?dataset=iris&algo=cart&step=1", (GRAPH, LATEX, PLOT), ("Gini index", thresholds)),
        ("step-iris-c45", "/step?dataset=iris&algo=c45&step=3", (GRAPH, LATEX, PLOT), (formulas,)),
        ("tree-iris", "/tree?dataset=iris&algo=c45&step=15", (GRAPH,), ()),
        ("partitions-iris", "/partitions?dataset=iris&algo=cart&step=3", (PLOT, GRAPH), ()),
        ("step-watermelon-missing", "/step?dataset=watermelon_2alpha&algo=c45&step=1", (GRAPH, LATEX), (formulas,)),
        ("partitions-watermelon3", "/partitions?dataset=watermelon_3&algo=c45&step=4", (PLOT, GRAPH), ()),
        ("step-tips-regression", "/step?dataset=tips&algo=cart&step=1", (GRAPH, LATEX, PLOT),
         ("Decrease in mean squared error",)),
        ("pruning-iris", "/pruning?dataset=iris&algo=cart", (GRAPH, PLOT), ("Charts",)),
        ("tree-credit-surrogates", "/tree?dataset=credit_risk&algo=cart&step=3", (GRAPH,), ("Node details",)),
    ]
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=conftest.CHROMIUM, args=conftest.ARGS)
            page = browser.new_page(viewport={"width": 1400, "height": 1800})
            for name, path, selectors, headings in shots:
                page.goto(url + path)
                if path.startswith("/step") and PLOT in selectors:
                    settle(page, GRAPH)
                    conftest.open_threshold_chart(page)
                settle(page, *selectors)
                page.locator("h1").first.scroll_into_view_if_needed()  # opening the chart scrolled down
                page.wait_for_timeout(300)
                page.screenshot(path=str(args.out / f"{name}.png"))
                print(args.out / f"{name}.png")
                for n, heading in enumerate(headings, start=2):
                    page.get_by_text(heading, exact=True).first.scroll_into_view_if_needed()
                    page.wait_for_timeout(500)
                    page.screenshot(path=str(args.out / f"{name}-{n}.png"))
                    print(args.out / f"{name}-{n}.png")
            # a 1280x720 projector, projector mode on: the first screen the back row sees
            projector = browser.new_page(viewport={"width": 1280, "height": 720})
            for name, path in PROJECTOR_SHOTS:
                projector.goto(url + path + "&projector=1")
                settle(projector, '[data-testid="stTable"]' if "Numbers" in path else GRAPH)
                projector.wait_for_function(
                    "() => [...document.querySelectorAll('.dtlearn-stage')].every(s => s.dataset.fitted === 'yes')",
                    timeout=60_000)
                projector.wait_for_timeout(500)
                projector.screenshot(path=str(args.out / f"{name}.png"))
                print(args.out / f"{name}.png")
            with tempfile.TemporaryDirectory() as folder:
                csv = Path(folder) / "exam.csv"
                csv.write_text(UPLOAD_CSV, encoding="utf-8")
                page.goto(url + "/?dataset=tennis&algo=cart&page=data")
                settle(page, PLOT)
                page.get_by_test_id("stSidebar").get_by_test_id("stSelectbox").first.click()
                page.get_by_role("option", name="Upload a CSV or ARFF file…").click()
                page.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(csv))
                page.get_by_text("Data: exam.csv").wait_for(timeout=30_000)
                settle(page, PLOT)
                page.screenshot(path=str(args.out / "data-upload.png"))
                print(args.out / "data-upload.png")
                page.get_by_test_id("stSidebarNav").get_by_role("link", name="Step through").click()
                settle(page, GRAPH)
                page.get_by_role("button", name="Next step").click()
                settle(page, GRAPH, LATEX)
                conftest.open_threshold_chart(page)
                settle(page, GRAPH, LATEX, PLOT)
                page.screenshot(path=str(args.out / "step-upload.png"))
                print(args.out / "step-upload.png")
                page.get_by_test_id("stSidebarNav").get_by_role("link", name="Partitions").click()
                settle(page, PLOT, GRAPH)
                page.get_by_role("button", name="Last", exact=True).click()
                settle(page, PLOT, GRAPH)
                page.screenshot(path=str(args.out / "partitions-upload.png"))
                print(args.out / "partitions-upload.png")
            browser.close()
    finally:
        conftest.stop_server(process)


if __name__ == "__main__":
    main()
