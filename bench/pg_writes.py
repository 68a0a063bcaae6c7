"""CPU of the calling process per move written to PostgreSQL, by the ways the web app could write.

A fresh PostgreSQL server (the tests' ``tests/pg_server.py``), a table shaped like the store's
``actions``, and ``--writes`` inserts each way:

* blocking, one statement at a time (autocommit): what the loop paid before the writer thread;
* psycopg's ``AsyncConnection``, one at a time: what an asynchronous writer on the loop pays;
* a blocking pipeline of ``--batch`` statements, and one multi-row ``INSERT`` of ``--batch`` rows
  (blocking, and on an ``AsyncConnection``): two ways to send many moves in one round trip.

The web app writes a move blocking, on its event loop; writers that batched moves off the loop
were measured worse in the tails (``bench/README.md``, the cluster section).

CPU time (``time.process_time``) of this process only: the server's own work is left out, so a
busy machine moves the figures little.

    .venv/bin/python bench/pg_writes.py [--writes 4000] [--batch 8]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tests"))

import psycopg  # noqa: E402

import pg_server  # noqa: E402

PG_ONE = "INSERT INTO actions (game_id, seq, hand_no, seat, action, created) VALUES (%s, %s, %s, %s, %s, %s)"


class Rows:
    """A new row each call (a game id, a rising seq)."""

    def __init__(self) -> None:
        self.seq = 0

    def __call__(self) -> tuple[Any, ...]:
        self.seq += 1
        return ("g0123456789a", self.seq, 0, self.seq % 2, "discard 7h", time.time())


def per_write(label: str, n: int, work: Callable[[], None]) -> None:
    t0 = time.process_time()
    work()
    print(f"{label:44s} {1e6 * (time.process_time() - t0) / n:7.1f} µs of CPU a write", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--writes", type=int, default=4000)
    ap.add_argument("--batch", type=int, default=8)
    args = ap.parse_args()
    n, b = args.writes, args.batch
    if not 1 <= b <= 256 or not b <= n <= 100_000:
        raise SystemExit("bounded: 1..256 a batch, batch..100000 writes")
    n -= n % b
    server = pg_server.start()
    try:
        url = server.fresh_url()
        conn = psycopg.connect(url, autocommit=True)
        conn.execute(
            "CREATE TABLE actions (game_id TEXT, seq INTEGER, hand_no INTEGER, seat INTEGER, action TEXT, "
            "created DOUBLE PRECISION, PRIMARY KEY (game_id, seq))"
        )
        row = Rows()

        def blocking() -> None:
            for _ in range(n):
                conn.execute(PG_ONE, row())

        def pipelined() -> None:
            for _ in range(n // b):
                with conn.pipeline():
                    for _ in range(b):
                        conn.execute(PG_ONE, row())

        multi = PG_ONE.rsplit(" VALUES ", 1)[0] + " VALUES " + ", ".join(["(%s, %s, %s, %s, %s, %s)"] * b)

        def multi_row() -> None:
            for _ in range(n // b):
                conn.execute(multi, [p for _ in range(b) for p in row()])

        async def asynchronous() -> None:
            a = await psycopg.AsyncConnection.connect(url, autocommit=True)
            for _ in range(n):
                await a.execute(PG_ONE, row())
            await a.close()

        async def asynchronous_multi() -> None:
            a = await psycopg.AsyncConnection.connect(url, autocommit=True)
            for _ in range(n // b):
                await a.execute(multi, [p for _ in range(b) for p in row()])
            await a.close()

        per_write("blocking, one at a time", n, blocking)
        per_write("AsyncConnection, one at a time", n, lambda: asyncio.run(asynchronous()))
        per_write(f"blocking pipeline of {b}", n, pipelined)
        per_write(f"multi-row INSERT of {b}", n, multi_row)
        per_write(f"AsyncConnection, multi-row INSERT of {b}", n, lambda: asyncio.run(asynchronous_multi()))
        conn.close()
    finally:
        server.stop()


if __name__ == "__main__":
    main()
