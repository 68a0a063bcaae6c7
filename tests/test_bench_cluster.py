"""``bench/cluster.py``'s spinners (``Awake``): one per core, pinned to it, at idle priority (so
they take only what no other process wants), counted apart, and gone when stopped."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import cluster  # noqa: E402


def test_a_spinner_per_core_at_idle_priority_and_none_left_after() -> None:
    cpus = sorted(os.sched_getaffinity(0))
    awake = cluster.Awake()
    try:
        assert len(awake.procs) == len(cpus)
        for proc, cpu in zip(awake.procs, cpus, strict=True):
            deadline = time.monotonic() + 10
            while os.sched_getscheduler(proc.pid) != os.SCHED_IDLE and time.monotonic() < deadline:
                time.sleep(0.01)
            assert os.sched_getscheduler(proc.pid) == os.SCHED_IDLE
            assert os.sched_getaffinity(proc.pid) == {cpu}
        before = awake.cpu()
        time.sleep(0.3)
        assert awake.cpu() > before  # they spin, and their CPU is what the bench leaves out
    finally:
        awake.stop()
    assert all(p.poll() is not None for p in awake.procs)
