"""Thirty first visitors at once on a fresh server, each on a deep link of its own (every page,
dataset and algorithm mix of benchmarks/bench_load.py), through Streamlit's own websocket
protocol: no browser per visitor, so the test costs the server's work only. Every link opens its
page with its stepper and no error. (Before the pages were made anew in every run, 26 of 30
got "This page cannot be called directly": app.app_pages.)"""

from __future__ import annotations

import asyncio
import importlib.util
from concurrent.futures import ThreadPoolExecutor
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("bench_load", ROOT / "benchmarks" / "bench_load.py")
bench_load = importlib.util.module_from_spec(_spec)
sys.modules["bench_load"] = bench_load  # its dataclasses look their module up
_spec.loader.exec_module(bench_load)


async def open_all(port: int, links: list) -> list:
    outcomes = [bench_load.Outcome(bench_load.link_path(link)) for link in links]

    async def visit(link, outcome):
        client, run = await bench_load.light_open(port, link, outcome)
        client.close()
        return run

    runs = await asyncio.wait_for(asyncio.gather(*(visit(link, o) for link, o in zip(links, outcomes))), 600)
    return list(zip(links, outcomes, runs))


def test_thirty_first_visitors_at_once_each_get_their_page():
    with tempfile.TemporaryFile() as log:
        process, port = bench_load.start_server(log)
        try:
            # in a thread of its own: a Playwright test run before this one in the same process
            # leaves its event loop running in the main thread, where asyncio.run refuses to start
            with ThreadPoolExecutor(1) as thread:
                visits = thread.submit(asyncio.run, open_all(port, bench_load.LINKS)).result()
        finally:
            bench_load.conftest.stop_server(process)
    assert len(visits) == 30
    for (page, dataset, algorithm), outcome, run in visits:
        assert not outcome.errors, (page, dataset, algorithm, outcome.errors)
        assert run.position(bench_load.stepper_keys(page)[2]) is not None, (page, dataset, algorithm)
