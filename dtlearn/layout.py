"""Graphviz's `dot`, run as a child process that cannot outlive its budget, its caller or its server.

How long a layout takes cannot be known before it starts (a 50,000-way split, a 20,000-level
chain: minutes, and gigabytes), so it is bounded while it runs. `dot` gets the time the current
budget has left (`budget.time_left`; `SECONDS` without a budget), a lower priority than the
server (`nice`: the server answers while `dot` works), at most `MEMORY` bytes of address space
(`prlimit`), and the parent-death signal (`setpriv --pdeathsig KILL`: it dies with the server,
even one the kernel kills). It stays in the server's process group, so stopping the server's group stops it
too. Past its time, or as soon as the budget's caller stops waiting (`budget.check_time` says
`Cancelled`), it is killed; `TooCostly` says what draws less.
"""

from __future__ import annotations

import shutil
import subprocess
import time

from . import budget


SECONDS = 120.0  # a layout's time without a budget (a notebook)
MEMORY = 2 * 2**30  # bytes of address space; `dot` on a 50,000-node drawing went past 1.8 GB
NICE = 10  # added to the server's niceness
POLL = 0.1  # seconds between looks at the time and at the caller


def run_dot(source: str, fmt: str = "svg", seconds: float | None = None, advice: str = budget.DRAWING) -> bytes | None:
    """`source` laid out by `dot -T<fmt>`: its output, or None when `dot` is not installed or
    refuses the source. `seconds`: the wall-clock time it may take (default: the current budget's
    time left, else SECONDS). Raises `budget.TooCostly` past it or past MEMORY (naming `advice`),
    and `budget.Cancelled` when the budget's caller stops waiting; `dot` is killed either way."""
    program = shutil.which("dot")
    if program is None:
        return None
    allowed = seconds if seconds is not None else budget.time_left()
    allowed = SECONDS if allowed is None else max(allowed, 0.0)
    process = subprocess.Popen(_guarded([program, f"-T{fmt}"]), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    try:
        output = _communicate(process, source.encode("utf-8"), allowed, advice)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    if process.returncode < 0:  # killed by a signal: past its memory, `dot` dies of a segmentation fault
        raise budget.TooCostly(f"Drawing this tree needs more than the {MEMORY / 2**20:,.0f} MiB of memory a "
                               f"drawing may take. {advice}.")
    return output if process.returncode == 0 else None


def _communicate(process: subprocess.Popen, data: bytes, allowed: float, advice: str) -> bytes:
    """`process`'s output, looking every POLL seconds at the time and at the caller."""
    deadline = time.monotonic() + allowed
    while True:
        try:
            return process.communicate(data, timeout=max(min(POLL, deadline - time.monotonic()), 0.001))[0]
        except subprocess.TimeoutExpired:
            data = None  # what is left of it is remembered: given again, it would be refused
            if time.monotonic() >= deadline:
                raise budget.TooCostly(f"Drawing this tree needs more than the {budget.seconds_text(allowed)} "
                                       f"left for it. {advice}.") from None
            budget.check_time(advice)  # Cancelled when nobody waits any more


def _guarded(command: list[str]) -> list[str]:
    """`command` run by the programs that set its limits before it starts, each in turn by `exec`
    (one process): util-linux's setpriv (the death signal) and prlimit (memory), and nice. Where
    one is missing (not Linux), `dot` runs without that limit."""
    wrappers = (("setpriv", "--pdeathsig", "KILL", "--"), ("prlimit", f"--as={MEMORY}", "--"),
                ("nice", "-n", str(NICE)))
    for name, *arguments in reversed(wrappers):
        program = shutil.which(name)
        if program is not None:
            command = [program, *arguments, *command]
    return command
