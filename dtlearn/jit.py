"""Compiled kernels that can answer before they are compiled.

numba compiles a kernel on its first call and caches the machine code (`dtlearn/__pycache__`):
on a machine's first run the first tree waits for the compiler, and every new process waits for
numba and its cache to load. `njit` here records a kernel with its numba options and returns a
`Kernel`, which the rest of dtlearn calls as before (`kernels.scan_thresholds(...)`). A call runs
either

- the compiled code: numba's dispatcher of the function, made on first need (numba is imported
  only then), compiling or loading from the cache as numba does; or
- the same function interpreted by Python, in a copy of its module's namespace where every
  kernel it calls (its module's, or one it imports) is its plain function too: one definition,
  two ways of running it.

Which: without numba, the interpreted one. Otherwise, while the process is *warming* (from its
start until `warmed()`, which dtlearn.warmup calls once it has loaded the compiled code), a call
runs interpreted, so that a first tree waits for no compiler, when it is small (its largest array
at most `SMALL` elements: PlayTennis, iris, glass), its thread has spent less than `BUDGET` of
processor time in interpreted kernels (a cross-validation makes thousands of small calls: past
that it pays for the compiled code, as a skier who has rented for the price of skis buys them),
and the kernel's compiled code is not loaded yet (by the warm-up or another thread). Any other
call runs compiled, and a call too large sets `wanted` (the app then starts its warm-up at once).
A thread may force one way (`forced`): the warm-up compiles while pages interpret.

numba checks a cached kernel against its own file only; here every cached kernel is checked against
all the files kernels are made from (`sources`), so that a constant or a helper changed in one of
them is never run from old machine code.

Both ways give the same numbers, bit for bit (tests/test_jit.py): the kernels do double-precision
arithmetic in the order written, and numba, without fastmath or parallel loops, keeps that order.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import threading
import time
import types
from contextlib import contextmanager
from pathlib import Path

import numpy as np

SMALL = 4096  # elements of a call's largest array, at most, to be interpreted while warming
BUDGET = 0.03  # seconds of a thread's processor time in interpreted kernels, while warming (a bundled table's fit
#               takes a small part of it; a cross-validation more)
COMPILED, INTERPRETED, WARMING = "compiled", "interpreted", "warming"

HAS_NUMBA = importlib.util.find_spec("numba") is not None
_mode = WARMING  # the process's: WARMING until the compiled code is loaded, then COMPILED
_local = threading.local()  # .forced: a thread's own choice (COMPILED or INTERPRETED), or None;
#                             .spent: its processor time in interpreted kernels while warming
_locks = {COMPILED: threading.RLock(), INTERPRETED: threading.RLock()}  # a page never waits for numba's import
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
        self._made: dict = {}  # way -> the function made for it (numba's dispatcher, or plain)
        self._loaded = False  # whether its compiled code has been loaded (for some argument types)

    def __call__(self, *args):
        way = _way(args)
        compiled = self._made.get(COMPILED)
        if way == WARMING and (self._loaded or compiled is not None and compiled.overloads):
            self._loaded = True  # loaded by another thread: nothing to wait for
            way = COMPILED
        if way == COMPILED:
            return (compiled or self.compiled())(*args)
        interpreted = self._made.get(INTERPRETED) or self.interpreted()
        if way == INTERPRETED:
            return interpreted(*args)
        start = time.thread_time()  # WARMING: interpreted, and counted against the thread's budget
        try:
            return interpreted(*args)
        finally:
            _local.spent = getattr(_local, "spent", 0.0) + time.thread_time() - start

    def compiled(self):
        """numba's dispatcher of this kernel (made, with the module's others, on first need)."""
        return self._make(COMPILED)

    def interpreted(self):
        """The plain function, calling the other kernels' plain functions."""
        return self._make(INTERPRETED)

    def _make(self, way: str):
        """The function for `way`, made once from the same code with its module's namespace as
        `way` sees it (making that namespace may make this kernel too: it is one of its names)."""
        with _locks[way]:
            if way not in self._made:
                namespace = _copy(self._namespace, way)
                if way not in self._made:
                    f = self.__wrapped__
                    plain = types.FunctionType(f.__code__, namespace, f.__name__, f.__defaults__, f.__closure__)
                    self._made[way] = _by_numba(plain, self.options) if way == COMPILED else plain
            return self._made[way]


def _way(args: tuple) -> str:
    """COMPILED, INTERPRETED, or WARMING (interpreted while warming: the time counts)."""
    forced = getattr(_local, "forced", None)
    if not HAS_NUMBA or forced == INTERPRETED:
        return INTERPRETED
    if forced == COMPILED or _mode == COMPILED:
        return COMPILED
    if getattr(_local, "spent", 0.0) <= BUDGET and all(a.size <= SMALL for a in _arrays(args)):
        return WARMING
    _wanted.set()  # too much to interpret: the compiled code is wanted now
    return COMPILED


def _arrays(args: tuple):
    """The arrays among `args`, and inside the tuples among them (a kernel's named structures)."""
    for a in args:
        if isinstance(a, np.ndarray):
            yield a
        elif isinstance(a, tuple):
            yield from _arrays(a)


_COPIES: dict[tuple[int, str], dict] = {}  # (id of a module's namespace, way) -> its copy


def _copy(namespace: dict, way: str) -> dict:
    """A copy of a module's namespace where every Kernel is its function for `way`, so that a
    kernel calls the others, its module's and those it imports, the same way (numba reads them
    from there when it compiles). Called with `_locks[way]` held."""
    key = (id(namespace), way)
    if key not in _COPIES:
        copy = _COPIES[key] = dict(namespace)  # listed first: its own kernels find it while it fills
        for name, value in namespace.items():
            if isinstance(value, Kernel):
                copy[name] = value._make(way)
    return _COPIES[key]


def _by_numba(function, options: dict):
    from numba import njit as numba_njit

    _stamp_with_every_source()
    return numba_njit(**options)(function)


def sources() -> list[Path]:
    """The files compiled kernels are made from: numba inlines a kernel's callees and freezes
    the constants it reads, from these files as well as its own."""
    here = Path(__file__).resolve().parent
    return [here / "rules.py", *sorted((here / "kernels").glob("*.py"))]


@functools.cache
def _sources_stamp() -> bytes:
    digest = hashlib.sha256()
    for path in sources():
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.digest()


@functools.cache
def _stamp_with_every_source() -> None:
    """numba checks a cached kernel against its own file only: a change to a constant or a helper
    it took from another file would leave the old machine code in use. Here a kernel of dtlearn
    is checked against all of `sources()`."""
    from numba.core import caching

    mine = {str(path) for path in sources()}

    class Stamped(caching._CacheLocator):
        """The locator numba would choose, with the stamp of every source."""

        def __init__(self, inner):
            self._inner = inner

        def ensure_cache_path(self):
            self._inner.ensure_cache_path()

        def get_cache_path(self):
            return self._inner.get_cache_path()

        def get_disambiguator(self):
            return self._inner.get_disambiguator()

        def get_source_stamp(self):
            return self._inner.get_source_stamp(), _sources_stamp()

        @classmethod
        def from_function(cls, py_func, py_file):
            if str(Path(py_file).resolve()) not in mine:
                return None
            for other in caching.CacheImpl._locator_classes:
                inner = None if other is cls else other.from_function(py_func, py_file)
                if inner is not None:
                    return cls(inner)
            return None

    caching.CacheImpl._locator_classes.insert(0, Stamped)


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
