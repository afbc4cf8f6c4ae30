"""The server under a hostile file: its health check and another session, while one session works.

For each heavy file of tests/hostile_files.py (wide, high-cardinality, a huge ARFF), on a fresh
`streamlit run app.py`:

1. another session (a light client speaking Streamlit's websocket protocol, bench_load.py's)
   steps through a small tree (iris, CART, the Step page's Next button), alone: its step times;
2. one session in chromium uploads the file, uses every column the app left out, and opens every
   page (tests/browser/hostile_visit.py), while the other session goes on stepping and
   /_stcore/health is asked every 0.2 s;
3. printed: each page's time for the working session, the health check's worst and p99 answer,
   and the other session's step time while the file is worked on, against its time alone (median
   and p95, and their ratios).

    uv run python benchmarks/bench_hostile.py [--files wide,high_cardinality,huge_arff] [--alone 20]
        [--scale 1] [--settle 30] [--log server.log]

A server in another folder (a variant of the app): DTLEARN_APP_DIR=/path/to/it.

`--scale` multiplies each file's rows (the issue's files were larger: 70 MB, 60 MB).
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "browser"), str(ROOT / "benchmarks")]

import hostile_files  # noqa: E402
from bench_load import Client, next_move, stepper_keys  # noqa: E402
from hostile_visit import HealthProbe, visit  # noqa: E402
from streamlit.proto.WidgetStates_pb2 import WidgetState  # noqa: E402

_spec = importlib.util.spec_from_file_location("browser_conftest", ROOT / "tests" / "browser" / "conftest.py")
conftest = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(conftest)  # start_server, stop_server, CHROMIUM, ARGS

OTHER = ("step", "iris", "cart")  # the other session's link
PAGE_TIMEOUT = 120.0  # seconds a page may take here before it counts as stuck (the app's budget: 60)


class Stepper:
    """The other session: presses Next (First after the last step) until stopped, timing each step."""

    def __init__(self, port: int) -> None:
        self.port, self.times, self.errors = port, [], []
        self.stop, self.mark = threading.Event(), 0
        self.thread = threading.Thread(target=lambda: asyncio.run(self._run()), daemon=True)

    async def _run(self) -> None:
        client, slider = Client(self.port, OTHER), stepper_keys(OTHER[0])[2]
        try:
            run = await client.open()
            while not self.stop.is_set():
                key, _ = next_move(OTHER[0], run.position(slider))
                widget = run.buttons[key][0]
                run = await asyncio.wait_for(client.rerun([WidgetState(id=widget, trigger_value=True)]), 300)
                self.times.append(run.seconds)
                self.errors += run.errors
                await asyncio.sleep(0.2)  # a student reads a little
        except Exception as error:  # noqa: BLE001 - said in the report
            self.errors.append(repr(error))
        finally:
            client.close()

    def steps_since(self, mark: int) -> list[float]:
        return self.times[mark:]


def p95(values: list[float]) -> float:
    return sorted(values)[min(len(values) - 1, int(0.95 * len(values)))] if values else float("nan")


def measure(name: str, file: hostile_files.Hostile, alone: int, settle: float, log) -> dict:
    from playwright.sync_api import sync_playwright

    process, url = conftest.start_server(log=log)
    port = int(url.rsplit(":", 1)[1])
    try:
        other = Stepper(port)
        other.thread.start()
        time.sleep(settle)  # the compiled kernels loaded in the background (pages/computing.py kernels_warming)
        mark = len(other.times)
        while len(other.times) < mark + alone and other.thread.is_alive():
            time.sleep(0.1)
        by_itself = other.times[mark:]
        with tempfile.TemporaryDirectory() as folder, HealthProbe(url) as health, sync_playwright() as p:
            path = Path(folder) / file.name
            path.write_bytes(file.content)
            browser = p.chromium.launch(executable_path=conftest.CHROMIUM, args=conftest.ARGS)
            page = browser.new_context(viewport={"width": 1400, "height": 1800}).new_page()
            mark, start = len(other.times), time.monotonic()
            done = visit(page, url, str(path), file.algorithm, PAGE_TIMEOUT)
            working = time.monotonic() - start
            during = other.steps_since(mark)
            browser.close()
        other.stop.set()
        other.thread.join(timeout=60)
        return {"file": name, "bytes": len(file.content), "algorithm": file.algorithm, "pages": done.seconds,
                "errors": done.errors + other.errors + health.failures, "said": done.said, "working": working,
                "health_worst": health.worst, "health_p99": sorted(health.times)[int(0.99 * (len(health.times) - 1))],
                "health_asked": len(health.times), "alone": by_itself, "during": during}
    finally:
        conftest.stop_server(process)


def report(result: dict) -> None:
    alone, during = result["alone"], result["during"]
    print(f"\n== {result['file']} ({result['bytes'] / 2**20:.1f} MiB, {result['algorithm']}): "
          f"{result['working']:.0f} s of work")
    for where, seconds in result["pages"].items():
        said = " | ".join(s.replace("\n", " ")[:110] for s in result["said"].get(where, []))
        print(f"  {where:<36} {seconds:6.1f} s  {said}")
    print(f"  health: worst {result['health_worst']:.3f} s, p99 {result['health_p99']:.3f} s "
          f"({result['health_asked']} answers)")
    if alone and during:
        m0, m1, q0, q1 = statistics.median(alone), statistics.median(during), p95(alone), p95(during)
        print(f"  other session's step: alone median {m0:.3f} s / p95 {q0:.3f} s; while the file is worked on "
              f"median {m1:.3f} s / p95 {q1:.3f} s / max {max(during):.3f} s ({len(during)} steps): "
              f"ratio {m1 / m0:.1f}x median, {q1 / q0:.1f}x p95")
    for error in result["errors"]:
        print(f"  ERROR {error}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", default="wide,high_cardinality,huge_arff")
    parser.add_argument("--alone", type=int, default=20, help="the other session's steps alone, first")
    parser.add_argument("--scale", type=float, default=1.0, help="rows of each file, times this")
    parser.add_argument("--settle", type=float, default=30.0, help="seconds before the other session is timed")
    parser.add_argument("--log", type=Path, help="the server's output, appended")
    args = parser.parse_args()
    files = hostile_files.hostile_files(scale=args.scale)
    failed = False
    with open(args.log or "/dev/null", "ab") as log:
        for name in args.files.split(","):
            result = measure(name, files[name], args.alone, args.settle, log)
            report(result)
            failed |= bool(result["errors"])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
