"""Computations run as jobs (pages/jobs.py): a script run that Streamlit stops (the user clicked
while the bar was filling) leaves its computation running, and the next run takes it over."""

from __future__ import annotations

import threading
import time
import uuid

import pytest

import dtlearn
from pages import computing, jobs


class Stopped(Exception):
    """As Streamlit stops a script at its next element (a RerunException)."""


def _stopped(job, what, eager):
    raise Stopped


def test_a_stopped_run_leaves_its_computation_running_and_the_next_run_takes_it_over(monkeypatch):
    started, release, calls = threading.Event(), threading.Event(), []

    def compute():
        calls.append(threading.current_thread().name)
        started.set()
        release.wait(10)
        return "the tree"

    key = ("test", uuid.uuid4().hex)
    monkeypatch.setattr(computing, "_show_progress", _stopped)
    with pytest.raises(Stopped):  # the script stops while the computation runs
        computing.computed("Growing the tree…", key, compute)
    assert started.wait(5) and jobs.running() >= 1 and key not in computing.STORE
    monkeypatch.setattr(computing, "_show_progress", lambda job, what, eager: release.set())
    assert computing.computed("Growing the tree…", key, compute) == "the tree"  # the next run waits for it
    assert calls == ["dtlearn-job"] and key in computing.STORE  # computed once, in a thread of its own
    assert computing.computed("Growing the tree…", key, compute) == "the tree" and len(calls) == 1


def test_a_refusal_reaches_every_asker_as_a_data_error_of_its_own():
    def refuse():
        raise dtlearn.budget.TooCostly("This tree would have 9 nodes or more, past the 5 allowed here.")

    key = ("test", uuid.uuid4().hex)
    with pytest.raises(dtlearn.budget.TooCostly, match="past the 5 allowed") as first:
        computing.computed(None, key, refuse)
    with pytest.raises(dtlearn.budget.TooCostly) as second:
        computing.computed(None, key, refuse)  # kept: raised again, not computed again
    assert first.value is not second.value


def test_a_job_asked_for_inside_a_job_is_computed_in_its_thread_under_the_budget():
    inner_key, outer_key = ("test", uuid.uuid4().hex), ("test", uuid.uuid4().hex)
    seen = []

    def inner():
        seen.append((threading.current_thread().name, dtlearn.budget.current()))
        return 2

    value = computing.computed(None, outer_key, lambda: computing.computed(None, inner_key, inner) + 1)
    assert value == 3 and seen == [("dtlearn-job", computing.BUDGET)]


def _asked_then_left(key, compute, monkeypatch):
    """Ask for `key` and stop waiting at once (Stop, or a click to another page): its job."""
    seen = []

    def leave(job, what, eager):
        seen.append(job)
        raise Stopped

    monkeypatch.setattr(computing, "_show_progress", leave)
    with pytest.raises(Stopped):
        computing.computed("Growing the tree…", key, compute)
    return seen[0]


def _looping(calls, ended, seconds=10.0):
    """A computation checking its budget every 10 ms for `seconds`; how it ended in `ended`."""
    def compute():
        calls.append(1)
        start = time.monotonic()
        try:
            while time.monotonic() - start < seconds:
                dtlearn.budget.check_time()
                time.sleep(0.01)
        except dtlearn.budget.Cancelled:
            ended.append("cancelled")
            raise
        ended.append("finished")
        return "the tree"
    return compute


def test_a_job_nobody_waits_for_is_cancelled_and_a_later_asker_gets_it_computed_anew(monkeypatch):
    monkeypatch.setattr(jobs, "ABANDONED_AFTER", 0.2)
    calls, ended = [], []
    key = ("test", uuid.uuid4().hex)
    job = _asked_then_left(key, _looping(calls, ended), monkeypatch)
    assert job.done.wait(5)  # long before its 10 s: nobody asked again within 0.2 s
    assert ended == ["cancelled"] and key not in computing.STORE  # a cancellation is not kept as a refusal
    monkeypatch.setattr(computing, "_show_progress", lambda job, what, eager: None)
    assert computing.computed("Growing the tree…", key, _looping(calls, ended, seconds=0.1)) == "the tree"
    assert len(calls) == 2 and ended == ["cancelled", "finished"]


def test_a_job_asked_for_again_within_the_grace_runs_on_to_its_end(monkeypatch):
    monkeypatch.setattr(jobs, "ABANDONED_AFTER", 0.3)
    calls, ended = [], []
    key = ("test", uuid.uuid4().hex)
    compute = _looping(calls, ended, seconds=1.0)
    job = _asked_then_left(key, compute, monkeypatch)
    time.sleep(0.1)  # the rerun after a click asks again
    monkeypatch.setattr(computing, "_show_progress", lambda job, what, eager: None)
    assert computing.computed("Growing the tree…", key, compute) == "the tree"
    assert job.done.is_set() and calls == [1] and ended == ["finished"]  # waited for 1 s: more than the grace
