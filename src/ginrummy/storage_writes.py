"""The writes of one step of a game, sent together (a part of :class:`~ginrummy.storage.Store`).

A move's action, and a hand's and the game's end with the last one, are kept while the step is
played and sent when it ends: one alone as one autocommitted statement (a single round trip to
PostgreSQL), several in one transaction, all or none.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

from .storage_backend import Database
from .storage_errors import Taken

#: A kept write: its SQL, its parameters, and the refusal when its key is already stored.
Write = tuple[str, tuple[Any, ...], "str | None"]


class StepWrites:
    """Keeping and sending a step's writes; mixed into the store."""

    _db: Database
    _batch: threading.local

    def connection(self) -> AbstractContextManager[Any]:
        raise NotImplementedError

    @contextmanager
    def writes(self) -> Iterator[None]:
        """The writes of one step (actions, a hand's end, the game's end) sent together when it
        ends (:meth:`collect`, then :meth:`flush`): stored when this returns, before anyone is told."""
        with self.collect() as items:
            yield
        self.flush(items)

    @contextmanager
    def collect(self) -> Iterator[list[Write]]:
        """Keep the writes made inside (on this thread) instead of sending them, in the list it
        gives, for :meth:`flush`. Nested use joins the outer one."""
        outer = getattr(self._batch, "items", None)
        if outer is not None:
            yield outer
            return
        items: list[Write] = []
        self._batch.items = items
        try:
            yield items
        finally:
            self._batch.items = None

    def flush(self, items: list[Write]) -> None:
        """Send kept writes: one alone as one autocommitted statement (a single round trip to
        PostgreSQL), several in one transaction (all or none). A step another writer stored
        first raises :class:`Taken`."""
        if len(items) == 1:
            self._write_now(*items[0])
        elif items:
            with self.connection():
                for item in items:
                    self._write_now(*item)

    def _write(self, sql: str, params: tuple[Any, ...], taken: str | None = None) -> None:
        """One write, now or with the step under way (:meth:`writes`); ``taken``: the refusal
        when its key is already stored."""
        items = getattr(self._batch, "items", None)
        if items is not None:
            items.append((sql, params, taken))
        else:
            self._write_now(sql, params, taken)

    def _write_now(self, sql: str, params: tuple[Any, ...], taken: str | None) -> None:
        try:
            self._db.write(sql, params)
        except Exception as e:
            if taken is not None and self._db.is_duplicate(e):
                raise Taken(taken) from None
            raise

