"""How the server's process gives memory back (glibc's malloc, on Linux).

By default glibc serves a freed array's memory to later small objects and keeps it: after a
page made and dropped a few hundred MB of arrays (a million-row node's candidates, Compare's
folds), the next page's arrays came from fresh memory and the process's peak climbed with
every page. Arrays of 1 MB or more are made with their own mapping instead (given back to the
system when freed), and threads share two heaps rather than one each (a session's thread no
longer keeps a heap of its own). Measured with benchmarks/bench_upload.py: the million-row
upload's root table 1,622 -> 1,418 MB peak. Elsewhere (macOS, Windows, musl) nothing changes.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import sys

M_ARENA_MAX, M_MMAP_THRESHOLD = -8, -3  # glibc's malloc.h
MMAP_FROM = 1 << 20
HEAPS = 2


def give_back_freed_memory() -> bool:
    """Set glibc's malloc as above; True when it took the settings."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):  # not glibc
        return False
    return bool(mallopt(M_MMAP_THRESHOLD, MMAP_FROM)) and bool(mallopt(M_ARENA_MAX, HEAPS))


def settle() -> int:
    """Leave the objects made so far (Streamlit, pandas, numba's compiled kernels: never garbage)
    out of the collector's full passes, which scan every object while holding the interpreter:
    with the trees of a 50,000-category file besides, a pass held it for up to 1.2 s, and the
    health check and every session waited. Returns how many objects are left out."""
    gc.freeze()
    return gc.get_freeze_count()
