"""The server gives freed arrays' memory back (pages/memory.py, glibc's malloc on Linux)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# A page makes and drops hundreds of MB of arrays while small objects stay alive between them.
# glibc raises its mmap threshold after the first large free, so by default the later arrays
# come from the heap, between the live objects, and their memory is kept (300 MB here on
# glibc 2.36); with the server's settings each goes back when freed.
PROGRAM = textwrap.dedent("""
    import sys
    sys.path.insert(0, sys.argv[1])
    import numpy as np
    def rss():
        for line in open("/proc/self/status"):
            if line.startswith("VmRSS"):
                return int(line.split()[1]) // 1024
    if sys.argv[2] == "server":
        from pages.memory import give_back_freed_memory
        assert give_back_freed_memory()
    first = np.ones(2**19)
    del first
    base = rss()
    arrays, alive = [], []
    for _ in range(150):
        arrays.append(np.ones(2**18))  # 2 MB each
        alive.append(bytearray(1000))
    del arrays
    print(rss() - base)
""")


def retained(mode: str) -> int:
    result = subprocess.run([sys.executable, "-c", PROGRAM, str(ROOT), mode], capture_output=True, text=True,
                            check=True, cwd=ROOT)
    return int(result.stdout.split()[-1])


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc: Linux only")
def test_the_server_gives_back_the_memory_of_freed_arrays():
    assert retained("server") < 50  # MB: of 300 made and dropped (300 kept without the settings)


def test_the_app_sets_them_once_when_it_starts():
    spy = ("import sys; sys.path.insert(0, sys.argv[1]); import pages.memory as memory; calls = []; "
           "memory.give_back_freed_memory = lambda: calls.append(1); import pages.computing; print(len(calls))")
    result = subprocess.run([sys.executable, "-c", spy, str(ROOT)], capture_output=True, text=True, check=True,
                            cwd=ROOT)
    assert result.stdout.split()[-1] == "1"


def test_settings_apply_only_where_glibc_is():
    from pages.memory import give_back_freed_memory

    assert give_back_freed_memory() == sys.platform.startswith("linux")
