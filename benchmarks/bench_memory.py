"""The app server's memory under heavy uploads: a real server, a real browser, every page.

Each scenario starts a fresh `streamlit run app.py` and drives Debian's chromium (Playwright) to
upload its files through the file input and visit every page from the sidebar, waiting on each
until the run is over. After each page it reads the server process's resident memory (VmRSS) and
its peak so far (VmHWM, Linux); the highest sum of VmRSS over the server's process group (its
`dot` children included) is sampled every 0.5 s. The browser's own memory is not counted.

    uv run python benchmarks/bench_memory.py                  # codes, five, big
    uv run python benchmarks/bench_memory.py codes five       # some of them
    uv run python benchmarks/bench_memory.py big --algorithm c45

- codes: a 133 KB CSV whose column `code` holds 12,000 categories in 12,500 rows; every page,
  then the column used after all (the sidebar's one click) and every page again;
- five: five sessions at once, each uploading a different 5 MB file (bench_read.small_tables)
  and visiting every page;
- big: the 95 MB, 10-column file of bench_read.big_table (1,000,000 rows), every page.

A page past --timeout seconds is said and the next one visited. Errors on a page (an st.error
box, a traceback) are printed with it: a refusal by the budget is the app working.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd
from playwright.async_api import async_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).parent))
from bench_load import group_rss_kib, status_kib  # noqa: E402
from bench_read import big_table, small_tables  # noqa: E402

_spec = importlib.util.spec_from_file_location("browser_conftest", ROOT / "tests" / "browser" / "conftest.py")
conftest = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(conftest)  # start_server, stop_server, CHROMIUM, ARGS

PAGES = {"Data": "data", "Step through": "step", "Tree": "tree", "Partitions": "partitions", "Pruning": "pruning",
         "Compare": "compare", "Predict": "predict", "Practice": "practice"}  # the sidebar's name: the page's path
IDLE = "!document.querySelector('[data-testid=\"stStatusWidget\"]')"  # Streamlit's running indicator gone


def codes_table(values: int = 12_000, rows: int = 12_500, seed: int = 0) -> str:
    """A column of `values` categories (each at least once) in `rows` rows, a number, two classes."""
    rng = np.random.default_rng(seed)
    codes = np.concatenate([np.arange(values), rng.integers(0, values, rows - values)])
    frame = pd.DataFrame({"code": [f"k{i}" for i in rng.permutation(codes)], "x": rng.integers(0, 100, rows),
                          "y": rng.choice(["A", "B"], rows)})
    return frame.to_csv(index=False)


class Server:
    """A fresh server and its memory: VmHWM of its process, the group's highest VmRSS sampled."""

    def __init__(self, log) -> None:
        self.process, self.url = conftest.start_server(ROOT, log)
        self.group_peak_kib = 0

    async def sample(self) -> None:
        while True:
            self.group_peak_kib = max(self.group_peak_kib, group_rss_kib(self.process.pid))
            await asyncio.sleep(0.5)

    def line(self) -> str:
        rss, hwm = status_kib(self.process.pid, "VmRSS"), status_kib(self.process.pid, "VmHWM")
        group = self.group_peak_kib / 1024
        return f"server {rss / 1024:6,.0f} MB now, peak {hwm / 1024:6,.0f} MB; group peak {group:6,.0f} MB"


async def idle(page, timeout: float) -> None:
    await page.wait_for_timeout(1000)  # the run the click started has shown its indicator
    await page.wait_for_function(IDLE, timeout=timeout * 1000, polling=250)


async def said(page) -> str:
    """The first error box or traceback on the page, shortened; '' when there is none."""
    for selector in ('[data-testid="stException"]', '[data-testid="stAlertContentError"]'):
        boxes = page.locator(selector)
        if await boxes.count():
            return " ".join((await boxes.first.inner_text()).split())[:160]
    return ""


async def visit(page, server: Server, who: str, pages: dict, timeout: float) -> None:
    for name, path in pages.items():
        started = time.monotonic()
        try:
            await page.get_by_test_id("stSidebarNav").get_by_role("link", name=name).click()
            await page.wait_for_url(f"**/{path}*", timeout=timeout * 1000)  # the page's own run has begun
            await idle(page, timeout)
            took = f"{time.monotonic() - started:6.1f} s"
        except Exception as error:  # a page past the timeout: said, and the next one visited
            took = f"over {timeout:.0f} s ({type(error).__name__})"
        problem = await said(page)
        print(f"  {who}{name:<13} {took:<22} {server.line()}" + (f"\n      says: {problem}" if problem else ""),
              flush=True)


async def upload(page, server: Server, path: Path, algorithm: str, who: str, timeout: float) -> None:
    await page.goto(f"{server.url}/?dataset=tennis&algo={algorithm}&page=data")
    await idle(page, timeout)
    await page.get_by_test_id("stSidebar").get_by_test_id("stSelectbox").first.click()
    await page.get_by_role("option", name="Upload a CSV or ARFF file…").click()
    started = time.monotonic()
    await page.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(path))
    try:  # (a tree the budget refuses leaves the page on the last tree: no title names the file then)
        await page.get_by_test_id("stFileUploader").get_by_text(path.name, exact=True).wait_for(timeout=timeout * 1000)
        await idle(page, timeout)
        took = f"{time.monotonic() - started:6.1f} s"
    except Exception as error:  # said, and the pages visited all the same
        took = f"over {timeout:.0f} s ({type(error).__name__})"
    problem = await said(page)
    print(f"  {who}{'upload':<13} {took:<22} {server.line()}" + (f"\n      says: {problem}" if problem else ""),
          flush=True)


async def session(browser, server: Server, path: Path, algorithm: str, who: str, timeout: float,
                  use_after: str | None = None) -> None:
    context = await browser.new_context(viewport={"width": 1400, "height": 1000})
    page = await context.new_page()
    try:
        await upload(page, server, path, algorithm, who, timeout)
        await visit(page, server, who, PAGES, timeout)
        if use_after:
            await page.get_by_test_id("stSidebar").get_by_role("button", name=use_after).click()
            await idle(page, timeout)
            print(f"  {who}clicked '{use_after}'", flush=True)
            await visit(page, server, who, PAGES, timeout)
    finally:
        await context.close()


async def scenario(name: str, files: list[Path], algorithm: str, timeout: float, log) -> dict:
    server = Server(log)
    sampler = asyncio.ensure_future(server.sample())
    try:
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=conftest.CHROMIUM, args=conftest.ARGS)
            use = "Use code as an attribute" if name == "codes" else None
            who = (lambda i: f"[{i + 1}] ") if len(files) > 1 else (lambda i: "")
            await asyncio.gather(*[session(browser, server, path, algorithm, who(i), timeout, use)
                                   for i, path in enumerate(files)])
            await browser.close()
        hwm = status_kib(server.process.pid, "VmHWM") / 1024
        return {"name": name, "peak_mb": hwm, "group_peak_mb": server.group_peak_kib / 1024}
    finally:
        sampler.cancel()
        conftest.stop_server(server.process)


def files_of(name: str, folder: Path) -> list[Path]:
    if name == "codes":
        tables = [("codes.csv", codes_table())]
    elif name == "five":
        tables = small_tables()
    else:
        tables = [("big.csv", big_table(1_000_000))]
    paths = []
    for file_name, text in tables:
        path = folder / file_name
        path.write_bytes(text.encode("utf-8"))
        paths.append(path)
    return paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("scenarios", nargs="*", default=["codes", "five", "big"], choices=["codes", "five", "big"])
    parser.add_argument("--algorithm", default="id3", choices=["id3", "c45", "cart", "zaki"])
    parser.add_argument("--timeout", type=float, default=300, help="seconds a page may take before it is said")
    parser.add_argument("--log", help="the servers' output (default: discarded)")
    args = parser.parse_args()
    results = []
    with tempfile.TemporaryDirectory() as folder, open(args.log or "/dev/null", "ab") as log:
        for name in args.scenarios:
            files = files_of(name, Path(folder))
            size = ", ".join(f"{p.name} {p.stat().st_size / 2**20:.2f} MB" for p in files)
            print(f"{name}: {size}; {args.algorithm}", flush=True)
            results.append(asyncio.run(scenario(name, files, args.algorithm, args.timeout, log)))
    print("\nscenario   server peak (VmHWM)   group peak (server + dot, sampled)")
    for result in results:
        print(f"{result['name']:<10} {result['peak_mb']:10,.0f} MB {result['group_peak_mb']:18,.0f} MB")


if __name__ == "__main__":
    main()
