"""Several app instances on one database: what one tells the others, and who decides a computer's move.

An instance alone (:class:`Alone`, the SQLite default) has nothing to tell and always decides.
On PostgreSQL (:class:`PgCluster`) every instance:

- sends a notification (``NOTIFY ginrummy``) after each change of a game that another instance
  may follow, and listens for the others': an instance holding that game in memory catches up
  from the database log (the log stays the only truth; a notification only says "look now") and
  passes the new state to its own connections. The same message carries which seats it has
  connections for (who is online), and each instance says so of all its games every few seconds;
- decides a computer's move only while it holds the game's advisory lock
  (``pg_try_advisory_lock``, on a connection of its own): two instances holding the same game never
  both ask the computer. PostgreSQL frees the lock when its holder's connection goes, so when an
  instance dies (even by SIGKILL) another one takes the move over on its next try.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import queue
import threading
import uuid
from collections.abc import Callable
from typing import Any

log = logging.getLogger("ginrummy.web.cluster")

#: The notification channel (one for every game; the payload names the game).
CHANNEL = "ginrummy"

#: Seconds between an instance's tries for a computer move another instance holds.
LEAD_RETRY = 0.5

#: Most notifications sent in one statement.
NOTIFY_BATCH = 64

#: Seconds between presence announcements (all of an instance's games in a few messages), and
#: after which an instance not heard from is gone (its people shown offline to the others).
PRESENCE_EVERY = 5.0
PRESENCE_TTL = 12.0

#: Most games in one presence announcement (a notification's payload stays under 8000 bytes).
PRESENCE_BATCH = 150

Deliver = Callable[[dict[str, Any]], None]


class Alone:
    """One instance on its own database: nobody to tell, and it always decides."""

    shared = False

    def __init__(self) -> None:
        self.instance = uuid.uuid4().hex[:10]

    def start(self, loop: asyncio.AbstractEventLoop, deliver: Deliver) -> None:
        """Begin passing the other instances' messages to ``deliver`` (on ``loop``)."""

    def publish(self, game_id: str, *, changed: bool, connected: list[bool], hello: bool = False) -> None:
        """Tell the others that ``game_id`` changed (or only who is connected here)."""

    def present(self, games: list[tuple[str, list[bool]]]) -> None:
        """Tell the others which seats of each of these games have connections here."""

    def lead(self, game_id: str) -> bool:
        """Whether this instance may decide the computer's next move in ``game_id`` (until released)."""
        return True

    def release(self, game_id: str) -> None:
        """Let another instance decide the computer's moves in ``game_id``."""

    def close(self) -> None:
        pass


def _lock_key(game_id: str) -> int:
    """A game's advisory lock key: 64 bits of its id's hash (signed, as PostgreSQL's bigint)."""
    return int.from_bytes(hashlib.sha256(f"ginrummy-game:{game_id}".encode()).digest()[:8], "big", signed=True)


class PgCluster(Alone):
    """Instances on one PostgreSQL database: LISTEN/NOTIFY and advisory locks (see the module docstring)."""

    shared = True

    def __init__(self, url: str) -> None:
        super().__init__()
        import psycopg

        self._psycopg = psycopg
        self.url = url
        self._send = psycopg.connect(url, autocommit=True)
        self._locks = psycopg.connect(url, autocommit=True)
        self._held: set[str] = set()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        # Notifications wait here for the sending thread, so the event loop never waits on a
        # round trip to tell the others; None asks the thread to stop.
        self._outbox: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self._sender = threading.Thread(target=self._send_all, daemon=True, name="ginrummy-notify")
        self._sender.start()

    def start(self, loop: asyncio.AbstractEventLoop, deliver: Deliver) -> None:
        ready = threading.Event()
        self._thread = threading.Thread(
            target=self._listen, args=(loop, deliver, ready), daemon=True, name="ginrummy-listen"
        )
        self._thread.start()
        ready.wait(10)  # listening before the first request is served

    def _listen(self, loop: asyncio.AbstractEventLoop, deliver: Deliver, ready: threading.Event) -> None:
        """The listening thread: one connection, reconnected if it drops (then everyone catches up)."""
        first = True
        while not self._stop.is_set():
            try:
                with self._psycopg.connect(self.url, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    ready.set()
                    if not first:  # notifications may have been missed while away
                        loop.call_soon_threadsafe(deliver, {"all": True})
                    first = False
                    while not self._stop.is_set():
                        for n in conn.notifies(timeout=0.5):
                            try:
                                msg = json.loads(n.payload)
                            except ValueError:
                                continue
                            if isinstance(msg, dict) and msg.get("i") != self.instance:
                                loop.call_soon_threadsafe(deliver, msg)
            except Exception:  # noqa: BLE001 - keep listening: the database may come back
                if self._stop.is_set():
                    return
                log.warning("lost the notification connection; reconnecting", exc_info=True)
                self._stop.wait(1.0)
            finally:
                ready.set()

    def publish(self, game_id: str, *, changed: bool, connected: list[bool], hello: bool = False) -> None:
        msg = {"i": self.instance, "g": game_id, "s": int(changed), "c": [int(c) for c in connected]}
        if hello:
            msg["h"] = 1
        self._outbox.put(json.dumps(msg, separators=(",", ":")))

    def present(self, games: list[tuple[str, list[bool]]]) -> None:
        for i in range(0, len(games), PRESENCE_BATCH):
            part = [[gid, [int(c) for c in seats]] for gid, seats in games[i : i + PRESENCE_BATCH]]
            self._outbox.put(json.dumps({"i": self.instance, "p": part}, separators=(",", ":")))

    def _send_all(self) -> None:
        """The sending thread: the notifications waiting, in order, up to :data:`NOTIFY_BATCH` in
        one statement (one round trip); on ``None``, what came before it is sent and it stops."""
        while True:
            first = self._outbox.get()
            if first is None:
                return
            batch, stop = [first], False
            while len(batch) < NOTIFY_BATCH:
                try:
                    item = self._outbox.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    stop = True
                    break
                batch.append(item)
            sql = "SELECT " + ", ".join(["pg_notify(%s, %s)"] * len(batch))
            try:
                self._send.execute(sql, [x for payload in batch for x in (CHANNEL, payload)])
            except self._psycopg.Error:
                log.warning("could not notify the other instances of %d changes", len(batch), exc_info=True)
                self._reconnect("_send")
            if stop:
                return

    def lead(self, game_id: str) -> bool:
        if game_id in self._held:
            return True
        try:
            row = self._locks.execute("SELECT pg_try_advisory_lock(%s)", (_lock_key(game_id),)).fetchone()
        except self._psycopg.Error:
            log.warning("could not take the lock of game %s", game_id, exc_info=True)
            self._reconnect("_locks")
            self._held.clear()  # a new connection holds nothing
            return False
        if row is not None and row[0]:
            self._held.add(game_id)
            return True
        return False

    def release(self, game_id: str) -> None:
        if game_id not in self._held:
            return
        self._held.discard(game_id)
        try:
            self._locks.execute("SELECT pg_advisory_unlock(%s)", (_lock_key(game_id),))
        except self._psycopg.Error:
            self._reconnect("_locks")
            self._held.clear()

    def _reconnect(self, name: str) -> None:
        try:
            getattr(self, name).close()
            setattr(self, name, self._psycopg.connect(self.url, autocommit=True))
        except self._psycopg.Error:
            log.warning("the database is out of reach", exc_info=True)

    def close(self) -> None:
        self._stop.set()
        self._outbox.put(None)  # what is waiting is sent first
        self._sender.join(timeout=3)
        if self._thread is not None:
            self._thread.join(timeout=3)
        for c in (self._send, self._locks):
            try:
                c.close()
            except self._psycopg.Error:
                pass


def cluster_for(target: str, dialect: str) -> Alone:
    """The cluster of an app on this database: :class:`PgCluster` on PostgreSQL, else :class:`Alone`."""
    return PgCluster(target) if dialect == "postgresql" else Alone()
