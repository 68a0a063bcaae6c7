"""The arena's Ray backend: its chunks of seat-swapped pairs run as Ray tasks on a cluster.

``ginrummy arena --backend ray`` starts a Ray instance on this machine, or joins a running cluster
with ``--address`` (``ray://host:10001`` through Ray Client, or ``host:6379`` from a node of the
cluster). The result is exactly the local backend's for the same seed: every deal and player RNG
is fixed by the seed and the pair's index, never by where or in which order a chunk runs, and the
chunks' counts are summed. Only the timings differ.

The driver ships its own ``ginrummy`` package to the workers (Ray's ``runtime_env`` ``py_modules``),
so every node plays the same code; the nodes need Python, numpy and Ray (``pip install
'ginrummy[ray]'``). Needs the ``ray`` extra.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")


def _package_dir() -> str:
    return str(Path(__file__).resolve().parent)


@contextmanager
def ray_session(address: str | None = None) -> Iterator[int]:
    """Use the Ray instance already started in this process, or connect to ``address`` (None:
    start one on this machine, shut down at the end); yields the cluster's CPU count."""
    import ray

    started = not ray.is_initialized()
    if started:
        ray.init(
            address=address,
            runtime_env={"py_modules": [_package_dir()]},
            include_dashboard=False,
            log_to_driver=False,
            logging_level=logging.WARNING,
        )
    try:
        yield max(1, int(ray.cluster_resources().get("CPU", 1)))  # type: ignore[no-untyped-call]
    finally:
        if started:
            ray.shutdown()


def run_tasks(fn: Callable[[T], R], tasks: Sequence[T], done: Callable[[int], None] | None = None) -> Iterator[R]:
    """``fn(task)`` for every task as a Ray task (inside :func:`ray_session`), yielded as they
    finish; ``done(i)`` is called after task ``i``'s result is yielded."""
    import ray

    remote = ray.remote(fn)
    pending = {remote.remote(t): i for i, t in enumerate(tasks)}
    while pending:
        ready, _ = ray.wait(list(pending), num_returns=1)
        for ref in ready:
            i = pending.pop(ref)
            yield ray.get(ref)
            if done is not None:
                done(i)


__all__ = ["ray_session", "run_tasks"]
