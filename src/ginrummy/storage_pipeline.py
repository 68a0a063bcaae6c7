"""Steps' writes sent to PostgreSQL without holding the event loop for the round trip
(:meth:`~ginrummy.storage.Store.flush_soon`).

A thread of the app instance's own writes on one connection. The steps that arrive while a batch
is on its way go together in the next batch, in one round trip and one transaction: the usual
batch (moves only) as one multi-row ``INSERT``, any other in psycopg's pipeline mode (every
statement, then one ``Sync``: PostgreSQL runs what comes before a ``Sync`` all or none). A step's
sender waits for its batch to be committed, so nothing is acknowledged before it is stored. A
batch the database refuses (another instance stored one of its steps first) is sent again a step
at a time, so only the step that came too late fails.

Writes one at a time would queue behind each other's round trips; under load the round trip grows
(the database process waits for a core) and so would the queue. Batching makes the round trips
fewer as the load grows instead. A thread rather than an asynchronous connection: psycopg's
asynchronous round trip costs the loop about 110 us of CPU, a blocking one 45 (2026-12-05).
"""

from __future__ import annotations

import asyncio
import logging
import queue
import re
import threading
from typing import Any

from .storage_backend import _pg_sql

log = logging.getLogger("ginrummy.storage")

#: Most steps sent in one batch.
BATCH = 256

#: A step's writes: (SQL with ``?`` placeholders, parameters) each, stored all or none.
Step = list[tuple[str, tuple[Any, ...]]]

#: A one-row ``INSERT ... VALUES (...)``, whose rows several writes can share.
_ONE_ROW = re.compile(r"^(INSERT INTO .* VALUES )(\([^()]*\))$", re.DOTALL)


def merged(writes: Step) -> tuple[str, tuple[Any, ...]] | None:
    """Writes that are all the same one-row ``INSERT`` as one multi-row ``INSERT`` (one statement,
    all or none), else None."""
    sql = writes[0][0]
    if any(w[0] != sql for w in writes):
        return None
    m = _ONE_ROW.match(sql)
    if m is None:
        return None
    return m.group(1) + ", ".join([m.group(2)] * len(writes)), tuple(p for w in writes for p in w[1])


class PipelinedWriter:
    """Batches of steps from a thread of their own; :meth:`send` from the event loop only."""

    def __init__(self, url: str) -> None:
        import psycopg

        self._psycopg = psycopg
        self.url = url
        self._conn: Any = None
        #: Steps for the thread, each with what its sender awaits, handed over a list at a time
        #: (one wake-up of the thread per turn of the loop); None asks the thread to stop.
        self._queue: queue.SimpleQueue[list[tuple[Step, asyncio.Future[None]]] | None] = queue.SimpleQueue()
        #: Steps sent during this turn of the event loop, handed over at its end.
        self._pending: list[tuple[Step, asyncio.Future[None]]] = []
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        #: Batches sent (each one round trip, if none is refused) and the steps in them.
        self.batches = 0
        self.steps = 0

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._conn = await asyncio.to_thread(self._connect)
        self._thread = threading.Thread(target=self._run, daemon=True, name="ginrummy-writes")
        self._thread.start()

    def _connect(self) -> Any:
        return self._psycopg.connect(self.url, autocommit=True)

    async def send(self, step: Step) -> None:
        """Store ``step`` (all or none), returning once it is committed; raises the database's
        error for this step (a ``UniqueViolation`` when another writer stored it first)."""
        if self._thread is None or not self._thread.is_alive() or self._loop is None:
            raise RuntimeError("the database writer is not running")
        done: asyncio.Future[None] = self._loop.create_future()
        self._pending.append((step, done))
        if len(self._pending) == 1:
            self._loop.call_soon(self._hand_over)
        try:
            await asyncio.shield(done)
        except asyncio.CancelledError:
            # Sent already: the caller learns how it ended (it may undo what it applied), not before.
            await asyncio.wait([done])
            raise

    def _hand_over(self) -> None:
        pending, self._pending = self._pending, []
        if pending:
            self._queue.put(pending)

    def _run(self) -> None:
        """The thread: a batch of what is waiting, sent, its senders told on the loop."""
        stop = False
        while not stop:
            first = self._queue.get()
            if first is None:
                return
            batch = first
            while len(batch) < BATCH:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                batch.extend(more)
            self.batches += 1
            self.steps += len(batch)
            results: list[BaseException | None]
            try:
                self._write([w for step, _ in batch for w in step])
                results = [None] * len(batch)
            except self._psycopg.errors.UniqueViolation as e:
                # One step came too late (or several): find which, each alone.
                results = [e] if len(batch) == 1 else [self._alone(step) for step, _ in batch]
            except Exception as e:  # noqa: BLE001 - the database is away: every step of the batch failed
                results = [e] * len(batch)
            assert self._loop is not None
            try:
                self._loop.call_soon_threadsafe(_settle, [done for _, done in batch], results)
            except RuntimeError:  # the loop is closed: nobody waits any more
                return

    def _alone(self, step: Step) -> BaseException | None:
        try:
            self._write(step)
        except Exception as e:  # noqa: BLE001 - passed to the step's sender
            return e
        return None

    def _write(self, writes: Step) -> None:
        """All of ``writes`` in one round trip and one transaction; a lost connection is opened
        again for the next batch."""
        if self._conn is None or self._conn.closed:
            self._conn = self._connect()
        conn = self._conn
        try:
            one = writes[0] if len(writes) == 1 else merged(writes)
            if one is not None:  # a single statement, autocommitted
                conn.execute(_pg_sql(one[0]), one[1])
                return
            with conn.pipeline():
                for sql, params in writes:
                    conn.execute(_pg_sql(sql), params)
        except Exception:
            if conn.broken:
                conn.close()
            raise

    async def close(self) -> None:
        """Stop once the steps already waiting are sent."""
        if self._thread is not None:
            if self._pending:
                self._hand_over()
            self._queue.put(None)
            await asyncio.to_thread(self._thread.join, 10)
            self._thread = None
        if self._conn is not None:
            self._conn.close()


def _settle(waiting: list[asyncio.Future[None]], results: list[BaseException | None]) -> None:
    """On the loop: each sender told how its step ended (unless it gave up waiting)."""
    for done, error in zip(waiting, results, strict=True):
        if done.done():
            continue
        if error is None:
            done.set_result(None)
        else:
            done.set_exception(error)
