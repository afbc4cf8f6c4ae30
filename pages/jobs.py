"""Computations that outlive the script run that asked for them.

Streamlit stops a running script at its next element when the user clicks anything (a rerun).
A computation made in the script's thread, drawing its progress bar, was stopped with it, and
the next run started it again from nothing: 38 s of cross-validation on a deep upload, lost to a
click at second 30. Each computation now runs in a thread of its own; the script waits for it
(drawing its progress), and a stopped script leaves it running. The next run, or another
session asking for the same key, waits for the same job. A job asked for inside another job
(the Pruning page's tree, grown on the way) is computed in that job's thread.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

import dtlearn


@dataclass(eq=False)
class Job:
    done: threading.Event = field(default_factory=threading.Event)
    progress: tuple | None = None  # the last report: (stage, done, detail)
    value: object = None
    error: BaseException | None = None

    def report(self, stage: str, done: float | None, detail: str) -> None:
        self.progress = (stage, done, detail)


_jobs: dict = {}  # key -> the Job computing it
_lock = threading.Lock()
_here = threading.local()  # .job: the Job this thread computes


def result(key, work, wait):
    """`work(report)` for `key`, computed once at a time in a thread of its own; `wait(job)`
    runs in the caller's thread until the job is done (and may be stopped: the job goes on).
    Inside a job, `work` runs at once in its thread, reporting to it."""
    inside = getattr(_here, "job", None)
    if inside is not None:
        return work(inside.report)
    with _lock:
        job = _jobs.get(key)
        if job is None:
            job = _jobs[key] = Job()
            threading.Thread(target=_run, args=(key, job, work), name="dtlearn-job", daemon=True).start()
    wait(job)
    job.done.wait()
    if isinstance(job.error, dtlearn.DataError):  # each asker its own copy (a refusal is shown, not a bug)
        raise type(job.error)(*job.error.args)
    if job.error is not None:
        raise job.error
    return job.value


def running() -> int:
    """How many jobs are computing now."""
    with _lock:
        return len(_jobs)


def _run(key, job: Job, work) -> None:
    _here.job = job
    try:
        job.value = work(job.report)
    except BaseException as error:  # handed to every asker
        job.error = error
    finally:
        _here.job = None
        with _lock:
            if _jobs.get(key) is job:
                del _jobs[key]
        job.done.set()
