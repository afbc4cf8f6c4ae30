"""One session working through every page with a hostile file, and a probe of the server's health
meanwhile: what tests/browser/test_hostile_server.py asserts and benchmarks/bench_hostile.py measures.

`visit` uploads the file through the real file input, uses every column the app left out (the
sidebar's "Use …" buttons: the student who asks for all of them), then opens each page of the
menu in turn (the Step page at its last step, Practice in each mode), timing each from the click
to the script run's end (Streamlit's `script_finished`, read from the websocket) and the page idle.
`HealthProbe` asks /_stcore/health every `every` seconds from a process of its own and keeps each
answer's time (a failure or a timeout counts as the timeout).
"""

from __future__ import annotations

import re
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

PAGES = ("Data", "Step through", "Tree", "Partitions", "Pruning", "Compare", "Predict", "Practice")
MODES = ("Guess the next split", "Grow it by hand", "Worksheet", "Check my numbers")
EXCEPTION = '[data-testid="stException"]'
USE = re.compile(r"^Use (all [\d,]+ columns|.+ as an attribute)$")  # app.identifiers_ui's buttons


@dataclass
class Visit:
    """Each page's time (seconds, from the click to the page idle) and what went wrong."""

    seconds: dict[str, float] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    said: dict[str, list[str]] = field(default_factory=dict)  # each page's error boxes (the budget's words)


class Runs:
    """Counts the script runs a tab's websocket says have finished."""

    def __init__(self, page) -> None:
        self.finished = 0
        page.on("websocket", lambda socket: socket.on("framereceived", self.frame))

    def frame(self, payload) -> None:
        msg = ForwardMsg()
        msg.ParseFromString(payload if isinstance(payload, bytes) else payload.encode())
        self.finished += msg.WhichOneof("type") == "script_finished"


def idle(page, runs: Runs, before: int, timeout: float) -> float:
    """Seconds until a script run finished after `before` runs and the page is idle (no running
    indicator); raises TimeoutError past `timeout`."""
    start = time.monotonic()
    deadline = start + timeout
    while runs.finished <= before:
        if time.monotonic() > deadline:
            raise TimeoutError(f"no script run finished within {timeout:.0f} s")
        page.wait_for_timeout(20)
    page.wait_for_function("!document.querySelector('[data-testid=\"stStatusWidget\"]')",
                           timeout=1000 * max(deadline - time.monotonic(), 0.1))
    return time.monotonic() - start


def timed(page, runs: Runs, visit: Visit, where: str, action, timeout: float) -> None:
    """`action()` (a click), then the time until the page is idle, under `where`."""
    before = runs.finished
    action()
    try:
        visit.seconds[where] = idle(page, runs, before, timeout)
    except TimeoutError as error:
        visit.seconds[where] = timeout
        visit.errors.append(f"{where}: {error}")
    if page.locator(EXCEPTION).count():
        visit.errors.append(f"{where}: a traceback: {page.locator(EXCEPTION).first.inner_text()[:300]}")
    visit.said[where] = [a.inner_text() for a in page.locator('[data-testid="stAlertContentError"]').all()]


def visit(page, url: str, path: str, algorithm: str, timeout: float) -> Visit:
    """Upload the file at `path` with `algorithm`, use every column, and open every page."""
    runs, done = Runs(page), Visit()
    page.set_default_timeout(1000 * timeout)  # a click waits as long as a page may: a slow page is timed, not fatal
    page.goto(f"{url}/?dataset=tennis&algo={algorithm}&page=data")
    idle(page, runs, 0, timeout)
    page.get_by_test_id("stSidebar").get_by_test_id("stSelectbox").first.click()
    before = runs.finished
    page.get_by_role("option", name="Upload a CSV or ARFF file…").click()
    idle(page, runs, before, timeout)
    timed(page, runs, done, "upload", lambda: page.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(path),
          timeout)
    for _ in range(3):  # each button uses a column or all of them; the next run may offer another
        buttons = page.get_by_test_id("stSidebar").get_by_role("button", name=USE)
        if not buttons.count():
            break
        timed(page, runs, done, "use every column", buttons.first.click, timeout)
    for name in PAGES:
        link = page.get_by_test_id("stSidebarNav").get_by_role("link", name=name, exact=True)
        timed(page, runs, done, name, link.click, timeout)
        if name == "Step through" and page.get_by_role("button", name="Last").is_enabled():
            timed(page, runs, done, "Step through: the last step", page.get_by_role("button", name="Last").click,
                  timeout)
        if name == "Practice":
            for mode in MODES:
                option = page.get_by_test_id("stButtonGroup").get_by_text(mode, exact=True)
                if option.count():
                    timed(page, runs, done, f"Practice: {mode}", option.first.click, timeout)
    return done


class HealthProbe:
    """/_stcore/health asked every `every` seconds by a process of its own: each answer's time, in
    seconds. A thread of the test's process would count the test's own work (Playwright's callbacks,
    parsing the websocket's frames) against the server."""

    def __init__(self, url: str, every: float = 0.2, timeout: float = 5.0) -> None:
        self.args = [sys.executable, str(Path(__file__).with_name("health_probe.py")), f"{url}/_stcore/health",
                     str(every), str(timeout)]
        self.times: list[float] = []
        self.failures: list[str] = []
        self._process: subprocess.Popen | None = None
        self._reader = threading.Thread(target=self._read, name="health-probe", daemon=True)

    def __enter__(self) -> "HealthProbe":
        self._process = subprocess.Popen(self.args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self._reader.start()
        return self

    def __exit__(self, *exc) -> None:
        self._process.stdin.close()  # the probe's signal to stop
        self._reader.join()
        self._process.wait()

    def _read(self) -> None:
        for line in self._process.stdout:
            seconds, _, failure = line.rstrip("\n").partition(" ")
            self.times.append(float(seconds))
            if failure:
                self.failures.append(failure)

    @property
    def worst(self) -> float:
        return max(self.times, default=0.0)
