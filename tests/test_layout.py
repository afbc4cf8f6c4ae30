"""A `dot` started for a drawing never outlives its time, its caller or its server (dtlearn.layout).

The drawing used: a ternary tree of 8,000 nodes, which `dot` lays out for longer than a test waits
(more than 30 s here), so only a kill ends it early. Whether a `dot` still runs is read from
/proc: the children of a process, their niceness and their limits.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import dtlearn
from dtlearn import budget, layout

pytestmark = pytest.mark.skipif(shutil.which("dot") is None and not os.environ.get("CI"),
                                reason="needs Graphviz's dot (CI installs it)")


def huge_dot(nodes: int = 8000) -> str:
    return "digraph t {\n" + "\n".join(f"n{(i - 1) // 3} -> n{i};" for i in range(1, nodes)) + "\n}"


def children(pid: int) -> list[int]:
    """The processes whose parent is `pid`, alive (a zombie is dead: it only waits to be reaped)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # gone meanwhile
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(stat.parent.name))
    return found


@pytest.fixture
def own_children():
    """The processes this test started and left behind: the children of pytest's process less
    those it had before (a browser test's session-wide server is one of them in a full run)."""
    before = set(children(os.getpid()))
    return lambda: sorted(set(children(os.getpid())) - before)


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_a_small_drawing_is_laid_out():
    svg = layout.run_dot("digraph t { a -> b }", "svg", seconds=30)
    assert svg.count(b'class="node"') == 2


def test_a_layout_past_its_seconds_is_killed(own_children):
    started = time.monotonic()
    with pytest.raises(budget.TooCostly, match=r"Drawing this tree needs more than the 0\.5 seconds left for it\. "
                                               r"Draw less of the tree: set a Max depth"):
        layout.run_dot(huge_dot(), seconds=0.5)
    assert time.monotonic() - started < 5  # its time, and the kill
    assert own_children() == []


def test_a_layout_gets_the_time_its_budget_has_left(own_children):
    started = time.monotonic()
    with budget.within(dtlearn.Budget(wall=0.5)), pytest.raises(budget.TooCostly, match=r"0\.\d+ seconds left for it"):
        layout.run_dot(huge_dot())
    assert time.monotonic() - started < 5
    assert own_children() == []


def test_a_layout_nobody_waits_for_is_killed(own_children):
    asked = []

    def cancelled() -> bool:  # the caller leaves once `dot` has run for a second
        asked.append(time.monotonic())
        return asked[-1] - asked[0] > 1

    with budget.within(dtlearn.Budget(), cancelled=cancelled), pytest.raises(budget.Cancelled):
        layout.run_dot(huge_dot(), seconds=60)
    assert asked[-1] - asked[0] < 3
    assert own_children() == []


SERVER = textwrap.dedent("""
    import sys
    sys.path.insert(0, {root!r})
    from dtlearn import layout
    from tests.test_layout import huge_dot
    layout.run_dot(huge_dot(), seconds=600)
""")


@pytest.mark.skipif(shutil.which("setpriv") is None and not os.environ.get("CI"),
                    reason="the death signal needs util-linux's setpriv (CI has it)")
def test_a_layout_dies_with_its_server_and_runs_below_it():
    """A server killed outright (the kernel's out-of-memory killer) takes its `dot` with it; while
    it runs, `dot` is niced and has a memory ceiling."""
    root = str(Path(__file__).resolve().parents[1])
    server = subprocess.Popen([sys.executable, "-c", SERVER.format(root=root)], cwd=root)
    try:
        deadline = time.monotonic() + 30
        while not (found := children(server.pid)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert found, "no dot started"
        dot = found[0]
        time.sleep(0.5)  # the limits are set before the source is written
        stat = Path(f"/proc/{dot}/stat").read_text().rsplit(")", 1)[1].split()
        assert int(stat[16]) >= os.getpriority(os.PRIO_PROCESS, server.pid) + layout.NICE or int(stat[16]) == 19
        limits = Path(f"/proc/{dot}/limits").read_text()
        assert f"Max address space         {layout.MEMORY}" in " ".join(limits.split("  ")) or \
            str(layout.MEMORY) in next(line for line in limits.splitlines() if line.startswith("Max address space"))
        os.kill(server.pid, signal.SIGKILL)
        server.wait()
        deadline = time.monotonic() + 5
        while alive(dot) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not alive(dot)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()


def test_a_layout_that_dies_of_its_memory_is_refused_in_words(tmp_path, monkeypatch):
    """Past its ceiling (the death test reads it in /proc) `dot` dies of a segmentation fault: a
    stand-in that does just that."""
    dies = tmp_path / "dot"
    dies.write_text("#!/bin/sh\nkill -SEGV $$\n")
    dies.chmod(0o755)
    which = shutil.which
    monkeypatch.setattr(layout.shutil, "which", lambda name: str(dies) if name == "dot" else which(name))
    refused = r"needs more than the 2,048 MiB of memory a drawing may take\. Draw less"
    with pytest.raises(budget.TooCostly, match=refused):
        layout.run_dot("digraph t { a -> b }", seconds=30)


def test_writing_a_drawing_s_dot_stops_at_its_budget():
    """Before `dot` runs, the DOT is written node by node (export): a page's view of 50,000 nodes
    spent seconds there, past the page's time; the writing looks at the clock too."""
    import pandas as pd

    frame = pd.DataFrame({"code": [f"k{i}" for i in range(20_000)], "y": ["a", "b"] * 10_000})
    tree = dtlearn.fit(dtlearn.Dataset(frame, "y", {"code": "categorical"}), "id3")
    with budget.within(dtlearn.Budget(wall=0.01)), pytest.raises(budget.TooCostly, match="Draw less of the tree"):
        time.sleep(0.02)
        tree.to_dot()
    assert tree.to_dot().count("->") == 20_000  # without a budget: the whole tree
