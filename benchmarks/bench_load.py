"""A class at once: many sessions stepping through the app together, measured.

1. Light clients: `streamlit run app.py` on 127.0.0.1, and N sessions (30) that speak
   Streamlit's own websocket protocol (/_stcore/stream, the protobufs a browser exchanges:
   BackMsg out, ForwardMsg in), so the clients cost the machine almost nothing beside the
   server. Each opens a deep link of its own (page, dataset, algorithm) and presses its page's
   next button S times (20), back to the first step once the last is reached. A step is timed
   from the BackMsg sent to the script_finished received: the server's round trip.
2. With --browser N: a fresh server and N Playwright contexts at once in Debian's chromium,
   opening the first N links and clicking the same button, each click timed until the app is
   idle again (the run finished, the new step drawn, Streamlit's running indicator gone).

Errors: an exception element, an st.error alert, a page not found, a step that did not
move, a lost connection, a timeout. A link that opens on an error is opened once more (a
student's reload), so its steps are still measured. The server's peak memory is read from
/proc: VmHWM of its process, and the highest sum of VmRSS over its process group (the server
and its `dot` children, sampled every 0.5 s).

    uv run python benchmarks/bench_load.py [--sessions 30] [--steps 20] [--browser 10]
        [--timeout 300] [--think 0] [--warm] [--verbose] [--log server.log]

Every session starts at once on a fresh server (cold: no page run yet, caches empty), as a
class opening the teacher's link does; --warm first opens the bare address alone. Steps
follow each other at once (--think: seconds between them). Exits with status 1 on an error.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import math
import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import streamlit
from streamlit.proto.Alert_pb2 import Alert
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ClientState_pb2 import ClientState, ContextInfo
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState, WidgetStates
from streamlit.runtime.state.common import user_key_from_element_id
from tornado.websocket import WebSocketClosedError, websocket_connect

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("browser_conftest", ROOT / "tests" / "browser" / "conftest.py")
conftest = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(conftest)  # free_port, stop_server, CHROMIUM, ARGS, EXCEPTION

# (page, dataset, algorithm): no two alike. Partitions needs two numeric attributes; the
# Pruning links have pruning decisions to step through. The first 10 are the browser's.
LINKS = [
    ("step", "iris", "cart"), ("tree", "tennis", "id3"), ("partitions", "iris", "c45"), ("pruning", "glass", "c45"),
    ("step", "credit_risk", "c45"), ("tree", "watermelon_2", "id3"), ("partitions", "glass", "cart"),
    ("pruning", "iris", "cart"), ("step", "iris", "zaki"), ("tree", "watermelon_3", "c45"),
    ("step", "tennis", "c45"), ("tree", "credit_risk", "id3"), ("partitions", "watermelon_3", "cart"),
    ("pruning", "glass", "cart"), ("step", "contact_lenses", "id3"), ("tree", "iris", "c45"),
    ("partitions", "weather_numeric", "c45"), ("pruning", "tips", "cart"), ("step", "watermelon_2alpha", "c45"),
    ("tree", "internship", "cart"), ("step", "glass", "zaki"), ("tree", "contact_lenses", "cart"),
    ("partitions", "internship", "zaki"), ("pruning", "credit_risk", "cart"), ("step", "tips", "cart"),
    ("tree", "weather_numeric", "zaki"), ("step", "watermelon_3", "id3"), ("tree", "glass", "c45"),
    ("partitions", "iris", "cart"), ("step", "tennis", "zaki"),
]
PREFIX = {"pruning": "prune_"}  # the stepper's keys on each page (pages/stepper.py stepper_ui)
POSITION = re.compile(r"(\d+) of (\d+)$")  # the stepper slider's label: "Step 3 of 12", "Decision 1 of 4"
STEP_TIMEOUT = 60.0  # seconds for one step (or the first page)
FINISHED = (ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_WITH_COMPILE_ERROR)


def link_path(link: tuple[str, str, str]) -> str:
    page, dataset, algorithm = link
    return f"/{page}?dataset={dataset}&algo={algorithm}&step=0"


def stepper_keys(page: str) -> tuple[str, str, str]:
    """The page's next and first buttons and its slider, by their widget keys."""
    prefix = PREFIX.get(page, "")
    return prefix + "next", prefix + "first", (prefix or "step_") + "slider"


@dataclass
class Outcome:
    """One session: the time to its first page, each step's round trip (seconds), what went wrong."""

    link: str
    opened: float | None = None
    total: int | None = None  # the stepper's last step
    steps: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


@dataclass
class Run:
    """What one script run sent back: errors, buttons (key -> id, disabled), sliders (key -> label)."""

    seconds: float = 0.0
    errors: list[str] = field(default_factory=list)
    buttons: dict[str, tuple[str, bool]] = field(default_factory=dict)
    sliders: dict[str, str] = field(default_factory=dict)
    status: int | None = None

    def position(self, slider: str) -> tuple[int, int] | None:
        found = POSITION.search(self.sliders.get(slider, ""))
        return (int(found[1]), int(found[2])) if found else None


def read_forward(msg: ForwardMsg, run: Run) -> None:
    """Note in `run` what a ForwardMsg says about errors and the stepper's widgets."""
    kind = msg.WhichOneof("type")
    if kind == "page_not_found":
        run.errors.append(f"page not found: {msg.page_not_found.page_name!r}")
    elif kind == "session_event" and msg.session_event.WhichOneof("type") == "script_compilation_exception":
        run.errors.append(f"script compilation: {msg.session_event.script_compilation_exception.message}")
    elif kind == "script_finished" and msg.script_finished in FINISHED:
        run.status = msg.script_finished
        if msg.script_finished == ForwardMsg.FINISHED_WITH_COMPILE_ERROR:
            run.errors.append("script finished with a compile error")
    elif kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
        read_element(msg.delta.new_element, run)


def read_element(element, run: Run) -> None:
    kind = element.WhichOneof("type")
    if kind == "exception":
        run.errors.append(f"exception {element.exception.type}: {element.exception.message[:300]}")
    elif kind == "alert" and element.alert.format == Alert.ERROR:
        run.errors.append(f"st.error: {element.alert.body[:300]}")
    elif kind == "button":
        run.buttons[user_key_from_element_id(element.button.id)] = (element.button.id, element.button.disabled)
    elif kind == "slider":
        run.sliders[user_key_from_element_id(element.slider.id)] = element.slider.label


# the light client ----------------------------------------------------------------------------

class Client:
    """One browser tab as Streamlit's server sees it: a websocket and the client state it sends."""

    def __init__(self, port: int, link: tuple[str, str, str]):
        self.port, self.page = port, link[0]
        self.query = link_path(link).split("?", 1)[1]
        self.page_hash = ""  # known after the first run (navigation), as the frontend does
        self.socket = None

    async def open(self) -> Run:
        self.socket = await websocket_connect(f"ws://127.0.0.1:{self.port}/_stcore/stream", subprotocols=["streamlit"],
                                              max_message_size=256 * 1024 * 1024)
        return await self.rerun([])

    async def rerun(self, widgets: list[WidgetState]) -> Run:
        """Ask for a script run with these widget states; read until it has finished."""
        state = ClientState(query_string=self.query, widget_states=WidgetStates(widgets=widgets),
                            context_info=ContextInfo(timezone="UTC", timezone_offset=0, locale="en-US",
                                                     url=f"http://127.0.0.1:{self.port}/{self.page}"))
        if self.page_hash:
            state.page_script_hash = self.page_hash
        else:  # a deep link's first run: the page by the name in its path
            state.page_name = self.page
        run, start = Run(), time.perf_counter()
        await self.socket.write_message(BackMsg(rerun_script=state).SerializeToString(), binary=True)
        while run.status is None:
            data = await self.socket.read_message()
            if data is None:
                raise ConnectionError(f"the server closed the connection ({self.socket.close_code})")
            msg = ForwardMsg()
            msg.ParseFromString(data)
            self.received(msg)
            if msg.WhichOneof("type") == "navigation":  # the page st.navigation runs: the frontend's next hash
                self.page_hash = msg.navigation.page_script_hash
            elif msg.WhichOneof("type") == "page_info_changed":  # the app rewrote the URL (address.save_url)
                self.query = msg.page_info_changed.query_string
            read_forward(msg, run)
        run.seconds = time.perf_counter() - start
        return run

    def received(self, msg: ForwardMsg) -> None:
        """Each ForwardMsg as it arrives (benchmarks/bench_arrival.py notes when the tree comes)."""

    def close(self) -> None:
        if self.socket is not None:
            self.socket.close()


def next_move(page: str, position: tuple[int, int] | None) -> tuple[str, int]:
    """The button to press (next, or first after the last step) and the step it leads to."""
    if position is None:
        raise LookupError("no stepper on the page")
    next_key, first_key, _ = stepper_keys(page)
    k, total = position
    if total == 0:
        raise LookupError("the stepper has no step to take")
    return (next_key, k + 1) if k < total else (first_key, 0)


async def light_open(port: int, link: tuple[str, str, str], outcome: Outcome) -> tuple[Client, Run]:
    """Open the link; on an error or a page without its stepper, say so and open it once more (a reload)."""
    slider = stepper_keys(link[0])[2]
    for attempt in ("opening", "reloading"):
        client = Client(port, link)
        try:
            run = await asyncio.wait_for(client.open(), STEP_TIMEOUT)
        except BaseException:
            client.close()
            raise
        outcome.opened, outcome.total = run.seconds, (run.position(slider) or (None, None))[1]
        outcome.errors += [f"{attempt}: {e}" for e in run.errors]
        if not run.errors and run.position(slider):
            break
        client.close()
    return client, run


async def light_session(port: int, link: tuple[str, str, str], steps: int, think: float, outcome: Outcome) -> None:
    """Open the link, then press next (or first, after the last step) `steps` times, `think` seconds apart."""
    client, slider = None, stepper_keys(link[0])[2]
    try:
        client, run = await light_open(port, link, outcome)
        for i in range(1, steps + 1):
            await asyncio.sleep(think)
            key, expected = next_move(link[0], run.position(slider))
            widget_id, disabled = run.buttons.get(key, ("", True))
            if not widget_id or disabled:
                raise LookupError(f"button '{key}' is missing or disabled")
            run = await asyncio.wait_for(client.rerun([WidgetState(id=widget_id, trigger_value=True)]), STEP_TIMEOUT)
            outcome.steps.append(run.seconds)
            outcome.errors += [f"step {i}: {e}" for e in run.errors]
            moved = run.position(slider)
            if moved is None or moved[0] != expected:
                raise LookupError(f"step {i}: '{key}' led to {moved}, not step {expected}")
    except asyncio.TimeoutError:
        outcome.errors.append(f"timeout: no script_finished within {STEP_TIMEOUT:.0f} s "
                              f"after step {len(outcome.steps)}")
    except (LookupError, ConnectionError, WebSocketClosedError, OSError) as error:
        outcome.errors.append(str(error))
    finally:
        if client is not None:
            client.close()


# the browser ---------------------------------------------------------------------------------

# Idle: Streamlit's running indicator gone and the stepper showing step k (null: any step; with
# `any`, the stepper is not looked for: the run sent an error).
IDLE = """([slider, k, any]) => {
  if (document.querySelector('[data-testid="stStatusWidget"]')) return false;
  if (any) return true;
  const label = document.querySelector(`.st-key-${slider} [data-testid="stWidgetLabel"]`);
  const found = label && label.innerText.trim().match(/(\\d+) of (\\d+)$/);
  return Boolean(found) && (k === null || Number(found[1]) === k);
}"""
POSITION_JS = """slider => {
  const label = document.querySelector(`.st-key-${slider} [data-testid="stWidgetLabel"]`);
  return label ? label.innerText.trim() : "";
}"""


class Tab:
    """One browser tab on a link, and what its websocket received (errors, script runs finished)."""

    def __init__(self, page, link: tuple[str, str, str]):
        self.page, self.link, self.slider = page, link, stepper_keys(link[0])[2]
        self.seen, self.finished = Run(), 0
        page.on("websocket", lambda socket: socket.on("framereceived", self.frame))

    def frame(self, payload) -> None:
        msg = ForwardMsg()
        msg.ParseFromString(payload if isinstance(payload, bytes) else payload.encode())
        self.seen.status = None
        read_forward(msg, self.seen)
        self.finished += self.seen.status is not None

    async def position(self) -> tuple[int, int] | None:
        found = POSITION.search(await self.page.evaluate(POSITION_JS, self.slider))
        return (int(found[1]), int(found[2])) if found else None

    async def idle(self, before: tuple[int, int], expected: int | None) -> None:
        """Wait for a script run finished after `before` (runs, errors) and the page idle again, showing
        step `expected` (None: any step) unless the run sent an error."""
        deadline = time.monotonic() + STEP_TIMEOUT
        while self.finished <= before[0]:
            if time.monotonic() > deadline:
                raise asyncio.TimeoutError(f"no script run finished within {STEP_TIMEOUT:.0f} s")
            await asyncio.sleep(0.005)
        failed = len(self.seen.errors) > before[1]
        await self.page.wait_for_function(IDLE, arg=[self.slider, expected, failed],
                                          timeout=1000 * max(deadline - time.monotonic(), 0.1))

    def mark(self) -> tuple[int, int]:
        return self.finished, len(self.seen.errors)


async def browser_open(tab: Tab, url: str, outcome: Outcome) -> None:
    """Open the link; on an error or a page without its stepper, say so and reload it once."""
    for attempt in ("opening", "reloading"):
        before, start = tab.mark(), time.perf_counter()
        if attempt == "opening":
            await tab.page.goto(url + link_path(tab.link), wait_until="commit")
        else:
            await tab.page.reload(wait_until="commit")
        await tab.idle(before, None)
        outcome.opened = time.perf_counter() - start
        errors = tab.seen.errors[before[1]:]
        outcome.errors += [f"{attempt}: {e}" for e in errors]
        if not errors and await tab.position():
            return


async def browser_session(browser, url: str, link: tuple[str, str, str], steps: int, think: float,
                          outcome: Outcome) -> None:
    """One tab: open the link, then click next (or first) `steps` times, each until the app is idle."""
    context = await browser.new_context(viewport={"width": 1400, "height": 1800})
    page = await context.new_page()
    tab = Tab(page, link)
    page.on("pageerror", lambda error: outcome.errors.append(f"JavaScript: {error}"))
    try:
        await browser_open(tab, url, outcome)
        for i in range(1, steps + 1):
            await asyncio.sleep(think)
            position = await tab.position()
            outcome.total = position[1] if position else None
            key, expected = next_move(link[0], position)
            before, start = tab.mark(), time.perf_counter()
            await page.locator(f".st-key-{key} button").first.click(timeout=1000 * STEP_TIMEOUT)
            await tab.idle(before, expected)
            outcome.steps.append(time.perf_counter() - start)
            outcome.errors += [f"step {i}: {e}" for e in tab.seen.errors[before[1]:]]
            if await page.locator(conftest.EXCEPTION).count():
                outcome.errors.append(f"step {i}: an exception is shown ({conftest.EXCEPTION})")
    except (asyncio.TimeoutError, TimeoutError) as error:
        outcome.errors.append(f"timeout after step {len(outcome.steps)}: {str(error).splitlines()[0][:200]}")
    except Exception as error:  # Playwright's own errors: said, and the session counted as failed
        outcome.errors.append(f"{type(error).__name__}: {str(error).splitlines()[0][:200]}")
    finally:
        await context.close()


async def browser_sessions(url: str, links: list, steps: int, think: float, outcomes: list[Outcome],
                           timeout: float) -> None:
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=conftest.CHROMIUM, args=conftest.ARGS)
        try:
            await run_all([browser_session(browser, url, link, steps, think, o) for link, o in zip(links, outcomes)],
                          outcomes, timeout)
        finally:
            await browser.close()


# the server and its memory -------------------------------------------------------------------

def start_server(log) -> tuple[subprocess.Popen, int]:
    """`streamlit run app.py` on a free port (tests/browser/conftest.py), its output to `log`."""
    process, url = conftest.start_server(ROOT, log)
    return process, int(url.rsplit(":", 1)[1])


def status_kib(pid: int | str, field_name: str) -> int:
    """A field of /proc/<pid>/status in KiB (0 if the process is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field_name + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def group_rss_kib(pgid: int) -> int:
    """The resident memory of every process in a process group (the server and its `dot` children)."""
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[2]) == pgid:  # fields after the name: state, ppid, pgrp
            total += status_kib(entry.name, "VmRSS")
    return total


async def sample_memory(pgid: int, peak: list[int]) -> None:
    while True:
        peak[0] = max(peak[0], group_rss_kib(pgid))
        await asyncio.sleep(0.5)


# the runs ------------------------------------------------------------------------------------

async def run_all(sessions: list, outcomes: list[Outcome], timeout: float) -> None:
    """Run the sessions at once; those still running after `timeout` seconds are stopped and said."""
    tasks = [asyncio.ensure_future(session) for session in sessions]
    _, pending = await asyncio.wait(tasks, timeout=timeout)
    for task, outcome in zip(tasks, outcomes):
        if task in pending:
            task.cancel()
            outcome.errors.append(f"still running after the overall timeout ({timeout:.0f} s)")
    if pending:
        await asyncio.wait(pending, timeout=30)


async def warm_up(port: int) -> None:
    """One visit of the bare address, alone: app.py's st.navigation has then run in the server."""
    client = Client(port, ("", "tennis", "id3"))
    try:
        await asyncio.wait_for(client.open(), STEP_TIMEOUT)
    finally:
        client.close()


def measure(title: str, sessions, links: list, steps: int, timeout: float, log_path: str | None,
            warm: bool, verbose: bool) -> bool:
    """Start a server, run `sessions(port, links, outcomes)` against it, print the figures; True if no error."""
    outcomes = [Outcome(link_path(link)) for link in links]
    with tempfile.TemporaryFile() as log:
        process, port = start_server(log)
        peak = [0]

        async def go() -> float:
            if warm:
                await warm_up(port)
            sampler = asyncio.ensure_future(sample_memory(process.pid, peak))
            start = time.perf_counter()
            await sessions(port, links, outcomes)
            wall = time.perf_counter() - start
            sampler.cancel()
            return wall

        try:
            wall = asyncio.run(go())
            hwm = status_kib(process.pid, "VmHWM")
        finally:
            conftest.stop_server(process)
        log.seek(0)
        server_log = log.read().decode(errors="replace")
    if log_path:
        Path(log_path).write_text(server_log)
    report(title, outcomes, steps, wall, hwm, peak[0], server_log, verbose)
    return not any(o.errors for o in outcomes)


def percentile(values: list[float], p: float) -> float:
    """The nearest-rank percentile (p in 0..100)."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def times_line(values: list[float]) -> str:
    if not values:
        return "none"
    return "  ".join(f"{name} {1000 * percentile(values, p):7.0f} ms" for name, p in
                     (("p50", 50), ("p95", 95), ("max", 100)))


def report(title: str, outcomes: list[Outcome], steps: int, wall: float, hwm: int, group_peak: int,
           server_log: str, verbose: bool) -> None:
    errors = [(o.link, e) for o in outcomes for e in o.errors]
    done = sum(len(o.steps) for o in outcomes)
    print(f"\n{title}")
    print(f"  sessions finished   {sum(len(o.steps) == steps and not o.errors for o in outcomes)}/{len(outcomes)}")
    print(f"  steps done          {done}/{len(outcomes) * steps}")
    print(f"  errors              {len(errors)}")
    print(f"  first page          {times_line([o.opened for o in outcomes if o.opened is not None])}")
    print(f"  round trip per step {times_line([s for o in outcomes for s in o.steps])}")
    print(f"  server peak memory  VmHWM {hwm / 1024:.0f} MiB (server process); "
          f"{group_peak / 1024:.0f} MiB RSS (process group, sampled every 0.5 s)")
    print(f"  wall time           {wall:.1f} s")
    if verbose:
        for o in outcomes:
            opened = f"{o.opened:6.1f} s" if o.opened is not None else "     - "
            print(f"    {o.link:52} steps 0..{o.total}  first page {opened}  step {times_line(o.steps)}")
    for link, error in errors[:30]:
        print(f"  ! {link}: {error}")
    if len(errors) > 30:
        print(f"  ! ... and {len(errors) - 30} more")
    trouble = [line for line in server_log.splitlines() if re.search(r"Traceback|Error|Exception|WARNING", line)]
    if trouble:
        print(f"  server log: {len(trouble)} lines of trouble, the first:")
        for line in trouble[:10]:
            print(f"    {line[:200]}")


def main() -> None:
    global STEP_TIMEOUT
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=30, help=f"light clients at once (default 30, at most "
                        f"{len(LINKS)}: one link each)")
    parser.add_argument("--steps", type=int, default=20, help="steps per session (default 20)")
    parser.add_argument("--browser", type=int, default=0, help="then N browser sessions at once (default 0: none)")
    parser.add_argument("--warm", action="store_true",
                        help="open the bare address once, alone, before the sessions start (not a cold server)")
    parser.add_argument("--verbose", action="store_true", help="also a line per session")
    parser.add_argument("--log", help="write the server's output here (the browser run's to PATH.browser)")
    parser.add_argument("--step-timeout", type=float, default=STEP_TIMEOUT,
                        help=f"seconds for one step or first page (default {STEP_TIMEOUT:.0f})")
    parser.add_argument("--think", type=float, default=0.0,
                        help="seconds a student looks at a step before the next click (default 0: at once)")
    parser.add_argument("--timeout", type=float, default=300, help="seconds for each run as a whole (default 300)")
    args = parser.parse_args()
    if not 0 <= args.sessions <= len(LINKS) or not 0 <= args.browser <= len(LINKS):
        parser.error(f"--sessions and --browser take 0..{len(LINKS)}: each session opens a link of its own")
    print(f"streamlit {streamlit.__version__}, {os.cpu_count()} cores; the sessions start at once on a fresh server"
          + (" after one visit alone (--warm)" if args.warm else " (cold)"))
    STEP_TIMEOUT = args.step_timeout
    ok = True
    if args.sessions:
        async def light(port, links, outcomes):
            await run_all([light_session(port, link, args.steps, args.think, o) for link, o in zip(links, outcomes)],
                          outcomes, args.timeout)

        ok &= measure(f"Light clients (Streamlit's websocket protocol): {args.sessions} sessions x {args.steps} steps",
                      light, LINKS[:args.sessions], args.steps, args.timeout, args.log, args.warm, args.verbose)
    if args.browser:
        async def browsers(port, links, outcomes):
            await browser_sessions(f"http://127.0.0.1:{port}", links, args.steps, args.think, outcomes,
                                   args.timeout)

        ok &= measure(f"Browser (chromium, one context each): {args.browser} sessions x {args.steps} steps",
                      browsers, LINKS[:args.browser], args.steps, args.timeout,
                      args.log and args.log + ".browser", args.warm, args.verbose)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
