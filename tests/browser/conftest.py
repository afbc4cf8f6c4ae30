"""Real-browser fixtures: the app served by `streamlit run`, driven by Debian's chromium.

The tests skip only when /usr/bin/chromium is missing and the CI variable is not set;
under CI a missing chromium is a failure. Never `playwright install` here (see TESTING.md).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
# The app's main script: tests may point it elsewhere (e.g. a copy) with DTLEARN_APP_DIR.
APP_DIR = Path(os.environ.get("DTLEARN_APP_DIR", ROOT))


@pytest.fixture(scope="session", autouse=True)
def chromium_present():
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail(f"CI is set but {CHROMIUM} is missing: apt-get install -y chromium (see .ci/run).")
        pytest.skip(f"{CHROMIUM} is missing (install Debian's chromium to run the browser tests)")


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):  # pytest-playwright override
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": ARGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "viewport": {"width": 1400, "height": 1800}, "accept_downloads": True}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(app_dir: Path = APP_DIR, log=None) -> tuple[subprocess.Popen, str]:
    """`streamlit run app.py` on a free port; returns the process and its URL once healthy. Its
    output goes to `log` (a file) when given (benchmarks/bench_load.py keeps it)."""
    port = free_port()
    command = [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
               "--server.address", "127.0.0.1", "--server.port", str(port)]  # the rest: .streamlit/config.toml
    process = subprocess.Popen(command, cwd=app_dir, stdout=subprocess.PIPE if log is None else log,
                               stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            output = process.stdout.read().decode(errors="replace") if log is None else "(see the log)"
            raise RuntimeError(f"streamlit exited with {process.returncode}:\n{output}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=1) as response:
                if response.read().decode().strip() == "ok":
                    return process, url
        except OSError:
            time.sleep(0.1)
    stop_server(process)
    raise RuntimeError("streamlit did not answer /_stcore/health within 30 s")


def stop_server(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=10)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


@pytest.fixture(scope="session")
def app_url(chromium_present):
    """The app, served once for the whole session."""
    process, url = start_server()
    yield url
    stop_server(process)


@pytest.fixture
def fresh_app_url(chromium_present):
    """A server of its own that has served no page yet."""
    process, url = start_server()
    yield url
    stop_server(process)


GRAPH = 'img[alt="decision tree"]'  # the tree, an SVG image laid out on the server (pages/drawing.py)
# How many nodes the drawn tree has, read from its SVG (base64 in the image's address); null
# until the browser has decoded the image (a malformed SVG never decodes: naturalWidth stays 0).
TREE_NODES = """selector => {
  const image = document.querySelector(selector);
  if (!image || !image.complete || !image.naturalWidth) return null;
  return atob(image.src.split(",")[1]).split('class="node"').length - 1;
}"""
PLOT = '[data-testid="stPlotlyChart"] .js-plotly-plot .main-svg'
LATEX = ".katex"
EXCEPTION = '[data-testid="stException"]'


def open_threshold_chart(page) -> None:
    """The Step page's threshold chart is drawn once its expander is opened (pages/step.py)."""
    page.get_by_text("The chart: the score of every cut", exact=False).first.click()


def settle(page, *selectors: str, timeout: float = 60_000) -> None:
    """Wait until the script run is over and the given elements are drawn (a loaded CI machine
    took over 30 s for a step of a freshly uploaded file)."""
    for selector in selectors:
        page.locator(selector).first.wait_for(state="visible", timeout=timeout)
    page.wait_for_function("!document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=timeout)
    # a rerun the page asked for itself (the stage reporting its box) greys the old elements before
    # the status widget shows: nothing stale is left once it is over
    page.wait_for_function("!document.querySelector('[data-stale=\"true\"]')", timeout=timeout)
    page.wait_for_function("[...document.images].every(image => image.complete)", timeout=timeout)
    page.mouse.move(0, 0)  # no tooltip left over from the last click
    page.wait_for_timeout(300)


@pytest.fixture
def ui():
    """What the browser tests share: the selectors and `settle`."""
    return type("UI", (), {"GRAPH": GRAPH, "TREE_NODES": TREE_NODES, "PLOT": PLOT, "LATEX": LATEX,
                           "EXCEPTION": EXCEPTION,
                           "settle": staticmethod(settle), "open_threshold_chart": staticmethod(open_threshold_chart)})
