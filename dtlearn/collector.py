"""Python's cyclic garbage collector paused while a bulk of new objects is made.

Growing a deep tree or building its nodes makes hundreds of thousands of objects, none in a
reference cycle. Each few hundred new objects the collector runs, and every so often it rescans
every object the process holds (in the app: every session's trees and tables), so building a
20,000-node tree took twice as long as the building itself. Paused, those objects are freed by
reference counting as always; the collector runs again at the end.

Thread-safe in effect: a block entered while another has paused the collector leaves it paused,
and the first block turns it back on when it ends (a block running on a moment longer with the
collector on is only slower)."""

from __future__ import annotations

import gc
from contextlib import contextmanager


@contextmanager
def no_cycle_collection():
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
