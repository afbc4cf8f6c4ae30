"""Compiled kernels that can answer before they are compiled.

numba compiles a kernel on its first call and caches the machine code (`dtlearn/__pycache__`):
on a machine's first run the first tree waits for the compiler, and every new process waits for
numba and its cache to load. `njit` here records a kernel with its numba options and returns a
`Kernel`, which the rest of dtlearn calls as before (`kernels.scan_thresholds(...)`). A call runs
either

- the compiled code: numba's dispatcher of the function, made on first need (numba is imported
  only then), compiling or loading from the cache as numba does; or
- the same function interpreted by Python, in a copy of its module's namespace where every
  kernel it calls is its plain function too: one definition, two ways of running it.

Which: without numba, the interpreted one. Otherwise, while the process is *warming* (from its
start until `warmed()`, which dtlearn.warmup calls once it has loaded the compiled code), a call
runs interpreted, so that a first tree waits for no compiler, when it is small (its largest array
at most `SMALL` elements: PlayTennis, iris, glass), its thread has spent less than `BUDGET` of
processor time in interpreted kernels (a cross-validation makes thousands of small calls: past
that it pays for the compiled code, as a skier who has rented for the price of skis buys them),
and the kernel's compiled code is not loaded yet (by the warm-up or another thread). Any other
call runs compiled, and a call too large sets `wanted` (the app then starts its warm-up at once).
A thread may force one way (`forced`): the warm-up compiles while pages interpret.

Both ways give the same numbers, bit for bit (tests/test_jit.py): the kernels do double-precision
arithmetic in the order written, and numba, without fastmath or parallel loops, keeps that order.
"""

from __future__ import annotations

import functools
import importlib.util
import threading
import time
import types
from contextlib import contextmanager

import numpy as np

SMALL = 4096  # elements of a call's largest array, at most, to be interpreted while warming
BUDGET = 0.03  # seconds of a thread's processor time in interpreted kernels, while warming (PlayTennis's fit: 0.001 s)
COMPILED, INTERPRETED, WARMING = "compiled", "interpreted", "warming"

HAS_NUMBA = importlib.util.find_spec("numba") is not None
_mode = WARMING  # the process's: WARMING until the compiled code is loaded, then COMPILED
_local = threading.local()  # .forced: a thread's own choice (COMPILED or INTERPRETED), or None;
#                             .spent: its processor time in interpreted kernels while warming
_locks = {COMPILED: threading.Lock(), INTERPRETED: threading.Lock()}  # a page never waits for numba's import
_wanted = threading.Event()  # set when, while warming, a call was too large to interpret


def njit(*args, **options):
    """numba's `njit` (the same options), applied when the compiled code is first needed."""
    if args and callable(args[0]):
        return Kernel(args[0], options)
    return lambda function: Kernel(function, options)


class Kernel:
    """A kernel as Python calls it: its compiled code, or the same function interpreted."""

    def __init__(self, function, options: dict):
        functools.update_wrapper(self, function)
        self.options = options
        self._namespace = function.__globals__  # its module's: the other kernels, the constants
        self._compiled = self._interpreted = None
        self._loaded = False  # whether its compiled code has been loaded (for some argument types)

    def __call__(self, *args):
        way = _way(args)
        if way == WARMING and (self._loaded or self._compiled is not None and self._compiled.overloads):
            self._loaded = True  # loaded by another thread: nothing to wait for
            way = COMPILED
        if way == COMPILED:
            return (self._compiled or self.compiled())(*args)
        if way == INTERPRETED:
            return (self._interpreted or self.interpreted())(*args)
        start = time.thread_time()  # WARMING: interpreted, and counted against the thread's budget
        try:
            return (self._interpreted or self.interpreted())(*args)
        finally:
            _local.spent = getattr(_local, "spent", 0.0) + time.thread_time() - start

    def compiled(self):
        """numba's dispatcher of this kernel (made, with the module's others, on first need)."""
        if self._compiled is None:
            self._compiled = _copies(self._namespace, COMPILED)[self.__name__]
        return self._compiled

    def interpreted(self):
        """The plain function, calling the other kernels' plain functions."""
        if self._interpreted is None:
            self._interpreted = _copies(self._namespace, INTERPRETED)[self.__name__]
        return self._interpreted


def _way(args: tuple) -> str:
    """COMPILED, INTERPRETED, or WARMING (interpreted while warming: the time counts)."""
    forced = getattr(_local, "forced", None)
    if not HAS_NUMBA or forced == INTERPRETED:
        return INTERPRETED
    if forced == COMPILED or _mode == COMPILED:
        return COMPILED
    if getattr(_local, "spent", 0.0) <= BUDGET and all(a.size <= SMALL for a in args if isinstance(a, np.ndarray)):
        return WARMING
    _wanted.set()  # too much to interpret: the compiled code is wanted now
    return COMPILED


_COPIES: dict[tuple[int, str], dict] = {}  # (id of a module's namespace, way) -> its copy


def _copies(namespace: dict, way: str) -> dict:
    """A copy of a module's namespace where every Kernel is its function, compiled or not. The
    functions are made anew from the same code with the copy as their globals, so that a kernel
    calls the others the same way (numba reads them from there when it compiles)."""
    with _locks[way]:
        key = (id(namespace), way)
        if key not in _COPIES:
            wrap = _by_numba if way == COMPILED else (lambda function, options: function)
            copy = dict(namespace)
            for name, value in namespace.items():
                if isinstance(value, Kernel):
                    f = value.__wrapped__
                    plain = types.FunctionType(f.__code__, copy, f.__name__, f.__defaults__, f.__closure__)
                    copy[name] = wrap(plain, value.options)
            _COPIES[key] = copy
        return _COPIES[key]


def _by_numba(function, options: dict):
    from numba import njit as numba_njit

    return numba_njit(**options)(function)


def warmed() -> None:
    """From now on every call runs compiled (the code is loaded: nothing to wait for any more)."""
    global _mode
    _mode = COMPILED


def mode() -> str:
    return _mode


def wanted(timeout: float) -> bool:
    """Waits until, while warming, a call was too large to interpret (True: the compiled code
    is wanted now), or `timeout` seconds."""
    return _wanted.wait(timeout)


@contextmanager
def forced(way: str):
    """In this thread, every kernel runs `way` (COMPILED or INTERPRETED), whatever the mode."""
    if way not in (COMPILED, INTERPRETED):
        raise ValueError(f"way must be {COMPILED!r} or {INTERPRETED!r}, not {way!r}")
    before = getattr(_local, "forced", None)
    _local.forced = way
    try:
        yield
    finally:
        _local.forced = before
