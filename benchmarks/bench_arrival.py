"""A class arriving: N students open the quiz link at the same moment on a freshly started server.

Each round starts `streamlit run app.py` anew, and as soon as it answers, N light clients
(benchmarks/bench_load.py's: Streamlit's own websocket protocol, so they cost the machine
almost nothing beside the server) open /practice?dataset=tennis&algo=id3&mode=guess at once.
Each is timed from the moment it connects until its tree has arrived (the stage's image, or a
chart the browser lays out), until the question's answers have (the radio and the Reveal
button), and until the script run has finished. The figures are pooled over the rounds:
p50 / p95 / max over N x rounds first pages.

--fresh points numba's cache at an empty folder (NUMBA_CACHE_DIR) for each round, as on a fresh
clone: nothing compiled yet. --browser adds, after each round, one chromium visit of the same
link on another fresh server (fresh cache too with --fresh), timed from navigation until the
tree is painted (read in the page). --warm opens the link once alone first (a server that
has had its first visit). --against DIR runs the same rounds on another copy of the app, the
code before a change (`git archive HEAD~1 | tar -x -C DIR`, then `python -c "from dtlearn.warmup
import warm_up; warm_up()"` in DIR for its compiled cache), alternating A B A B... so that both
see the same machine load; each round's figures are printed too (the machine's noise).

    uv run python benchmarks/bench_arrival.py [--sessions 30] [--rounds 3] [--fresh] [--browser]
        [--warm] [--against DIR] [--link PATH] [--verbose]
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import os
import sys
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("bench_load", ROOT / "benchmarks" / "bench_load.py")
bench_load = sys.modules["bench_load"] = importlib.util.module_from_spec(_spec)  # (dataclasses look it up)
_spec.loader.exec_module(bench_load)
conftest = bench_load.conftest
ForwardMsg = bench_load.ForwardMsg

QUIZ = "/practice?dataset=tennis&algo=id3&mode=guess"
TREE_ELEMENTS = ("bidi_component", "graphviz_chart")  # the stage (pages/stage.py), or the browser's layout
TIMEOUT = 120.0  # seconds for one first page


@dataclass
class Arrival:
    """One student's first page: seconds from connecting until each part arrived."""

    tree: float | None = None
    answers: float | None = None
    finished: float | None = None
    errors: list[str] = field(default_factory=list)


class Student(bench_load.Client):
    """A light client that notes when the tree and the answers arrive."""

    def __init__(self, port: int, path: str, arrival: Arrival):
        page, query = path.lstrip("/").split("?", 1)
        super().__init__(port, (page, "", ""))
        self.query, self.arrival, self.start = query, arrival, 0.0
        self.radio = self.reveal = False

    def received(self, msg: ForwardMsg) -> None:
        if msg.WhichOneof("type") != "delta" or msg.delta.WhichOneof("type") != "new_element":
            return
        element = msg.delta.new_element
        kind, now = element.WhichOneof("type"), time.perf_counter() - self.start
        if self.arrival.tree is None and (kind in TREE_ELEMENTS or (
                kind == "markdown" and element.markdown.body.startswith("![decision tree]"))):
            self.arrival.tree = now
        self.radio |= kind == "radio"
        self.reveal |= kind == "button" and "reveal" in element.button.id
        if self.arrival.answers is None and self.radio and self.reveal:
            self.arrival.answers = now


async def arrive(port: int, path: str, arrival: Arrival) -> None:
    student = Student(port, path, arrival)
    student.start = time.perf_counter()
    try:
        run = await asyncio.wait_for(student.open(), TIMEOUT)
        arrival.finished = time.perf_counter() - student.start
        arrival.errors += run.errors
        if arrival.tree is None:
            arrival.errors.append("no tree on the page")
    except Exception as error:  # a timeout, a lost connection: said, and counted as failed
        arrival.errors.append(f"{type(error).__name__}: {error}")
    finally:
        student.close()


@contextmanager
def server(app_dir: Path, fresh: bool):
    """A freshly started server for `app_dir`; with `fresh`, numba's cache an empty folder."""
    with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryFile() as log:
        saved = os.environ.get("NUMBA_CACHE_DIR")
        if fresh:
            os.environ["NUMBA_CACHE_DIR"] = cache
        try:
            process, url = conftest.start_server(app_dir, log)
        finally:
            if fresh and saved is None:
                os.environ.pop("NUMBA_CACHE_DIR")
            elif fresh:
                os.environ["NUMBA_CACHE_DIR"] = saved
        try:
            yield process, url
        finally:
            conftest.stop_server(process)


def light_round(app_dir: Path, fresh: bool, sessions: int, path: str, warm: bool = False) -> list[Arrival]:
    arrivals = [Arrival() for _ in range(sessions)]
    with server(app_dir, fresh) as (_, url):
        port = int(url.rsplit(":", 1)[1])

        async def together():
            if warm:  # one visit alone first: the app's modules imported, its caches begun
                await arrive(port, path, Arrival())
            await asyncio.gather(*(arrive(port, path, a) for a in arrivals))

        asyncio.run(together())
    return arrivals


# From navigation: when the tree's image was decoded and the next frame painted it.
PAINT_WATCH = """
window.__tree = null;
new MutationObserver((_, observer) => {
  const image = document.querySelector(%s);
  if (image && image.getAttribute("src")) {
    observer.disconnect();
    image.decode().catch(() => null).then(() => requestAnimationFrame(() => setTimeout(() => {
      window.__tree = performance.now() / 1000;
    }, 0)));
  }
}).observe(document, {subtree: true, childList: true, attributes: true});
"""


def browser_round(app_dir: Path, fresh: bool, path: str) -> float | None:
    """Seconds from navigation until the tree is painted, in a fresh chromium on a fresh server."""
    from playwright.sync_api import sync_playwright

    with server(app_dir, fresh) as (_, url), sync_playwright() as p:
        browser = p.chromium.launch(executable_path=conftest.CHROMIUM, args=conftest.ARGS)
        try:
            context = browser.new_context(viewport={"width": 1280, "height": 720})
            context.add_init_script(PAINT_WATCH % json.dumps(conftest.GRAPH))
            page = context.new_page()
            page.goto(url + path, wait_until="commit")
            page.wait_for_function("window.__tree !== null", timeout=1000 * TIMEOUT)
            return page.evaluate("window.__tree")
        except Exception as error:  # said, and the round has no figure
            print(f"  ! browser: {type(error).__name__}: {str(error).splitlines()[0][:200]}")
            return None
        finally:
            browser.close()


def spread(values: list[float]) -> str:
    if not values:
        return "none"
    return "  ".join(f"{name} {bench_load.percentile(values, p):5.2f} s" for name, p in
                     (("p50", 50), ("p95", 95), ("max", 100)))


def report(name: str, rounds: list[list[Arrival]], painted: list[float], verbose: bool) -> None:
    arrivals = [a for arrived in rounds for a in arrived]
    errors = [e for a in arrivals for e in a.errors]
    print(f"\n{name}: {len(arrivals)} first pages, {len(errors)} errors")
    for part in ("tree", "answers", "finished"):
        print(f"  {part:<9} {spread([getattr(a, part) for a in arrivals if getattr(a, part) is not None])}")
    if len(rounds) > 1:  # the machine's noise: the same figure round by round
        print("  tree by round: " + "; ".join(spread([a.tree for a in arrived if a.tree is not None])
                                              .replace("  p95", " p95").replace("  max", " max")
                                              for arrived in rounds))
    if painted:
        print(f"  browser, alone: tree painted {', '.join(f'{t:.2f}' for t in painted)} s after navigation")
    for error in errors[:10]:
        print(f"  ! {error[:300]}")
    if verbose:
        for a in arrivals:
            print(f"    tree {a.tree}  answers {a.answers}  finished {a.finished}")


def main() -> None:
    global TIMEOUT
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=30, help="students at once (default 30)")
    parser.add_argument("--rounds", type=int, default=3, help="fresh servers, one after another (default 3)")
    parser.add_argument("--fresh", action="store_true", help="an empty numba cache for each server (a fresh clone)")
    parser.add_argument("--warm", action="store_true", help="one visit alone before the class (not a cold server)")
    parser.add_argument("--browser", action="store_true", help="also one chromium visit per round, alone")
    parser.add_argument("--against", type=Path, help="another copy of the app, measured in alternation")
    parser.add_argument("--link", default=QUIZ, help=f"the link every student opens (default {QUIZ})")
    parser.add_argument("--timeout", type=float, default=TIMEOUT, help="seconds for one first page")
    parser.add_argument("--verbose", action="store_true", help="also each student's figures")
    args = parser.parse_args()
    TIMEOUT = args.timeout
    apps = {"this app": ROOT} | ({f"against {args.against}": args.against.resolve()} if args.against else {})
    print(f"{os.cpu_count()} cores; {args.sessions} sessions open {args.link} at once on a freshly started "
          f"server{' after one visit alone' if args.warm else ''}, {args.rounds} rounds"
          + (", numba's cache empty (a fresh clone)" if args.fresh else ""))
    arrivals = {name: [] for name in apps}  # a list of first pages per round
    painted = {name: [] for name in apps}
    for _ in range(args.rounds):
        for name, app_dir in apps.items():
            if args.sessions:
                arrivals[name].append(light_round(app_dir, args.fresh, args.sessions, args.link, args.warm))
            if args.browser:
                seconds = browser_round(app_dir, args.fresh, args.link)
                painted[name] += [] if seconds is None else [seconds]
    for name in apps:
        report(name, arrivals[name], painted[name], args.verbose)
    sys.exit(1 if any(a.errors for rounds in arrivals.values() for arrived in rounds for a in arrived) else 0)


if __name__ == "__main__":
    main()
