"""Computations that outlive the script run that asked for them.

Streamlit stops a running script at its next element when the user clicks anything (a rerun).
A computation made in the script's thread, drawing its progress bar, was stopped with it, and
the next run started it again from nothing: 38 s of cross-validation on a deep upload, lost to a
click at second 30. Each computation now runs in a thread of its own; the script waits for it
(drawing its progress), and a stopped script leaves it running. The next run, or another
session asking for the same key, waits for the same job. A job asked for inside another job
(the Pruning page's tree, grown on the way) is computed in that job's thread.

A job nobody waits for is cancelled: when its last asker stopped waiting (the Stop button, or a
click to another page) and no one asked again within ABANDONED_AFTER seconds, its next budget
check raises `Cancelled`. A rerun after a click asks again long before that; a student who
leaves a 60-second cross-validation for another page no longer leaves it on a core the class
shares.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass, field

import dtlearn


@dataclass(eq=False)
class Job:
    done: threading.Event = field(default_factory=threading.Event)
    progress: tuple | None = None  # the last report: (stage, done, detail)
    value: object = None
    error: BaseException | None = None
    waiting: int = 0  # askers waiting now
    left_at: float = float("inf")  # when the last asker stopped waiting (time.monotonic)

    def report(self, stage: str, done: float | None, detail: str) -> None:
        self.progress = (stage, done, detail)

    def abandoned(self) -> bool:
        """Nobody has waited for the result for ABANDONED_AFTER seconds."""
        return self.waiting == 0 and time.monotonic() - self.left_at > ABANDONED_AFTER


# Seconds a job runs on with nobody waiting. A click reruns the script, which asks again within a
# second or two even on a busy server (bench_load, 30 sessions at once: a step's round trip p95 1.8 s).
ABANDONED_AFTER = 15.0


_jobs: dict = {}  # key -> the Job computing it
_lock = threading.Lock()
_here = threading.local()  # .job: the Job this thread computes


def result(key, work, wait):
    """`work(job)` for `key`, computed once at a time in a thread of its own (reporting to
    `job.report`, stopping when `job.abandoned()`); `wait(job)` runs in the caller's thread until
    the job is done (and may be stopped: the job goes on). Inside a job, `work` runs at once in
    its thread, with that job."""
    inside = getattr(_here, "job", None)
    if inside is not None:
        return work(inside)
    job = _waited(key, work, wait)
    while isinstance(job.error, dtlearn.budget.Cancelled):  # cancelled as this asker came: again
        job = _waited(key, work, wait)
    if isinstance(job.error, dtlearn.DataError):  # each asker its own copy (a refusal is shown, not a bug)
        raise type(job.error)(*job.error.args)
    if job.error is not None:
        raise job.error
    return job.value


def _waited(key, work, wait) -> Job:
    """The job computing `key` (started if none is), once done; waited for in this thread."""
    with _lock:
        job = _jobs.get(key)
        if job is None:
            job = _jobs[key] = Job()
            threading.Thread(target=_run, args=(key, job, work), name="dtlearn-job", daemon=True).start()
        job.waiting += 1
    try:
        wait(job)
        job.done.wait()
    finally:
        with _lock:
            job.waiting -= 1
            if not job.waiting:
                job.left_at = time.monotonic()
    return job


def running() -> int:
    """How many jobs are computing now."""
    with _lock:
        return len(_jobs)


# Niceness added to each computing thread (Linux schedules threads one by one): a long computation
# (its compiled kernels run without the interpreter's lock, on the cores) is never ahead of the
# server's event loop, which answers health checks and sends every session its pages, nor of any
# session's page being built.
NICE = 10
# Seconds a thread holds the interpreter while another waits for it (Python's default: 0.005). The
# event loop takes and gives it back at every read and write of a request, and waited a whole
# interval behind each computing thread every time: a health check took seconds.
SWITCH_INTERVAL = 0.001


def lower_priority() -> None:
    """This thread runs NICE below the server's main thread (where threads have no priority of
    their own, or it cannot be set, it runs as it is)."""
    try:
        base = os.getpriority(os.PRIO_PROCESS, os.getpid())  # the main thread's
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), min(base + NICE, 19))
    except (AttributeError, OSError):
        pass


def _run(key, job: Job, work) -> None:
    lower_priority()
    _here.job = job
    try:
        job.value = work(job)
    except BaseException as error:  # handed to every asker
        job.error = error
    finally:
        _here.job = None
        with _lock:
            if _jobs.get(key) is job:
                del _jobs[key]
        job.done.set()
