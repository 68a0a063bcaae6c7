"""Steps' writes sent to PostgreSQL from the event loop without holding it for the round trip
(:meth:`~ginrummy.storage.Store.flush_soon`).

One connection per app instance, read by the loop itself (psycopg's ``AsyncConnection``). The
steps that arrive while a batch is on its way are sent together as the next batch, in psycopg's
pipeline mode: every statement and one ``Sync``, so one round trip for the whole batch, and one
implicit transaction (PostgreSQL runs what comes before a ``Sync`` all or none). A step waits for
its batch to be committed, so nothing is acknowledged before it is stored. A batch the database
refuses (another instance stored one of its steps first) is sent again a step at a time, so only
the step that came too late fails.

Writes one at a time on a connection would queue behind each other's round trips; under load the
round trip grows (the database process waits for a core) and so does the queue. Batching makes
the round trips fewer as the load grows instead.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from .storage_backend import _pg_sql

log = logging.getLogger("ginrummy.storage")

#: Most steps sent in one batch.
BATCH = 256

#: A step's writes: (SQL with ``?`` placeholders, parameters) each, stored all or none.
Step = list[tuple[str, tuple[Any, ...]]]


class PipelinedWriter:
    """Batches of steps on one asynchronous connection; :meth:`send` from the event loop only."""

    def __init__(self, url: str) -> None:
        import psycopg

        self._psycopg = psycopg
        self.url = url
        self._conn: Any = None
        #: Steps waiting, each with what its sender awaits; None asks the writer to stop.
        self._queue: asyncio.Queue[tuple[Step, asyncio.Future[None]] | None] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        #: Batches sent (each one round trip, if none is refused) and the steps in them.
        self.batches = 0
        self.steps = 0

    async def start(self) -> None:
        self._conn = await self._psycopg.AsyncConnection.connect(self.url, autocommit=True)
        self._task = asyncio.create_task(self._run(), name="ginrummy-writes")

    async def send(self, step: Step) -> None:
        """Store ``step`` (all or none), returning once it is committed; raises the database's
        error for this step (a ``UniqueViolation`` when another writer stored it first)."""
        if self._task is None or self._task.done():
            raise RuntimeError("the database writer is not running")
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((step, done))
        try:
            await asyncio.shield(done)
        except asyncio.CancelledError:
            # Sent already: the caller learns how it ended (it may undo what it applied), not before.
            await asyncio.wait([done])
            raise

    async def _run(self) -> None:
        stop = False
        while not stop:
            first = await self._queue.get()
            if first is None:
                return
            batch = [first]
            while len(batch) < BATCH and not self._queue.empty():
                item = self._queue.get_nowait()
                if item is None:
                    stop = True
                    break
                batch.append(item)
            self.batches += 1
            self.steps += len(batch)
            try:
                await self._write([w for step, _ in batch for w in step])
                results: list[BaseException | None] = [None] * len(batch)
            except self._psycopg.errors.UniqueViolation as e:
                # One step came too late (or several): find which, each alone.
                results = [e] if len(batch) == 1 else [await self._alone(step) for step, _ in batch]
            except Exception as e:  # noqa: BLE001 - the database is away: every step of the batch failed
                results = [e] * len(batch)
            for (_, done), error in zip(batch, results, strict=True):
                if done.done():  # its sender gave up waiting (cancelled)
                    continue
                if error is None:
                    done.set_result(None)
                else:
                    done.set_exception(error)

    async def _alone(self, step: Step) -> BaseException | None:
        try:
            await self._write(step)
        except Exception as e:  # noqa: BLE001 - passed to the step's sender
            return e
        return None

    async def _write(self, writes: Step) -> None:
        """All of ``writes`` in one round trip and one transaction; a lost connection is opened
        again for the next batch."""
        if self._conn is None or self._conn.closed:
            self._conn = await self._psycopg.AsyncConnection.connect(self.url, autocommit=True)
        try:
            if len(writes) == 1:  # autocommitted alone: no pipeline to set up
                await self._conn.execute(_pg_sql(writes[0][0]), writes[0][1])
                return
            async with self._conn.pipeline():
                for sql, params in writes:
                    await self._conn.execute(_pg_sql(sql), params)
        except Exception:
            if self._conn.broken:
                await self._conn.close()
            raise

    async def close(self) -> None:
        """Stop once the steps already waiting are sent."""
        if self._task is not None:
            self._queue.put_nowait(None)
            try:
                await asyncio.wait_for(self._task, 10)
            except (TimeoutError, asyncio.CancelledError):
                pass
            self._task = None
        if self._conn is not None:
            await self._conn.close()
