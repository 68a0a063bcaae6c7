"""The databases the games store (:mod:`ginrummy.storage`) runs on: one SQLite file (the default,
standard library only) or a PostgreSQL server (``postgresql://USER@HOST/DB``, the ``pg`` extra:
psycopg 3 with a connection pool), for several app instances on one database.

The store's SQL is written once, with ``?`` placeholders and SQLite's types; the PostgreSQL side
translates it here and nowhere else (``?`` to ``%s``, ``REAL`` to ``DOUBLE PRECISION`` in table
definitions) so both run the same statements. Each side also says how it keeps the schema's
version and how a duplicate key shows (a second writer of the same action).

Both commit each transaction before the call returns: SQLite in WAL mode, PostgreSQL with its
default ``synchronous_commit = on``.
"""

from __future__ import annotations

import re
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

#: A URL with one of these schemes names a PostgreSQL database; anything else is a SQLite file.
PG_SCHEMES = ("postgresql://", "postgres://")


def is_postgres(target: str | Path) -> bool:
    return str(target).startswith(PG_SCHEMES)


class Database:
    """What the store needs of a database: transactions (nested ones join the outer one), the
    schema's version, and which error means "that key is taken"."""

    dialect: str
    #: How the database is named in messages (a PostgreSQL URL without its password).
    label: str

    def transaction(self) -> Any:  # a context manager yielding a connection with execute()
        raise NotImplementedError

    def begin_schema(self) -> Any:
        """A transaction that no other process migrates the schema in at the same time."""
        raise NotImplementedError

    def write(self, sql: str, params: Any = ()) -> None:
        """One statement committed on its own (or inside the transaction under way)."""
        with self.transaction() as c:
            c.execute(sql, params)

    def version(self, c: Any) -> int:
        raise NotImplementedError

    def set_version(self, c: Any, version: int) -> None:
        raise NotImplementedError

    def columns(self, c: Any, table: str) -> list[str]:
        raise NotImplementedError

    def is_duplicate(self, exc: BaseException) -> bool:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError


class SqliteDatabase(Database):
    """One SQLite file, one connection shared by the process, serialised by a lock.

    WAL mode with ``synchronous=NORMAL``: a commit survives the process being killed and costs
    microseconds, so writing before each acknowledgement is cheap enough to do on the event loop.
    """

    dialect = "sqlite"

    def __init__(self, path: str | Path) -> None:
        self.label = str(path)
        if self.label != ":memory:":
            Path(self.label).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        self._depth = 0
        self._conn = sqlite3.connect(self.label, check_same_thread=False, isolation_level=None)
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute("PRAGMA synchronous=NORMAL")
        self._conn.execute("PRAGMA foreign_keys=ON")

    @contextmanager
    def transaction(self, begin: str = "BEGIN") -> Iterator[sqlite3.Connection]:
        with self._lock:
            c = self._conn
            if self._depth:
                # Nested use (a router calling a Store method inside its own transaction): one transaction.
                self._depth += 1
                try:
                    yield c
                finally:
                    self._depth -= 1
                return
            c.execute(begin)
            self._depth = 1
            try:
                yield c
            except BaseException:
                c.execute("ROLLBACK")
                raise
            else:
                c.execute("COMMIT")
            finally:
                self._depth = 0

    def begin_schema(self) -> Any:
        # BEGIN IMMEDIATE: two servers opening the same old file cannot both migrate it.
        return self.transaction("BEGIN IMMEDIATE")

    def version(self, c: Any) -> int:
        return int(c.execute("PRAGMA user_version").fetchone()[0])

    def set_version(self, c: Any, version: int) -> None:
        c.execute(f"PRAGMA user_version = {int(version)}")

    def columns(self, c: Any, table: str) -> list[str]:
        return [r[1] for r in c.execute(f"PRAGMA table_info({table})")]

    def is_duplicate(self, exc: BaseException) -> bool:
        return isinstance(exc, sqlite3.IntegrityError) and "UNIQUE" in str(exc)

    def close(self) -> None:
        with self._lock:
            self._conn.close()


@lru_cache(maxsize=512)
def _pg_sql(sql: str) -> str:
    """The store's SQL for psycopg: ``%`` doubled, ``?`` placeholders as ``%s``, and in a table
    definition SQLite's ``REAL`` (8 bytes there) as ``DOUBLE PRECISION`` (``REAL`` is 4 bytes here)."""
    out = sql.replace("%", "%%").replace("?", "%s")
    if out.lstrip().upper().startswith(("CREATE TABLE", "ALTER TABLE")):
        out = re.sub(r"\bREAL\b", "DOUBLE PRECISION", out)
    return out


class _PgConnection:
    """A psycopg connection that takes the store's SQL (see :func:`_pg_sql`)."""

    def __init__(self, conn: Any) -> None:
        self.raw = conn

    def execute(self, sql: str, params: Any = ()) -> Any:
        return self.raw.execute(_pg_sql(sql), tuple(params))

    def executemany(self, sql: str, rows: Any) -> Any:
        cur = self.raw.cursor()
        cur.executemany(_pg_sql(sql), [tuple(r) for r in rows])
        return cur


#: The advisory lock key that serialises schema migrations between instances ("ginrummy" in hex).
SCHEMA_LOCK = 0x67696E72756D6D79


class PostgresDatabase(Database):
    """A PostgreSQL database through a pool of psycopg connections (one per thread at a time).

    A transaction takes a connection from the pool and commits when it ends; a nested one (a
    router calling the store inside its own transaction) joins it, on the same thread.
    """

    dialect = "postgresql"

    def __init__(self, url: str, *, min_size: int = 1, max_size: int = 8) -> None:
        try:
            import psycopg
            from psycopg_pool import ConnectionPool
        except ImportError as e:  # pragma: no cover - the message is the point
            raise RuntimeError(
                "a postgresql:// database needs psycopg 3 and psycopg_pool: pip install 'ginrummy[pg]'"
            ) from e
        self.url = url
        self.label = without_password(url)
        self._psycopg = psycopg
        try:  # one connection first, for a clear refusal (the pool only says it timed out)
            psycopg.connect(url, connect_timeout=5).close()
        except psycopg.Error as e:
            reason = " ".join(str(e).split()) or type(e).__name__
            raise ConnectionError(f"cannot reach the database server: {reason}") from None
        self._local = threading.local()
        #: Each thread's single-write connection (:meth:`write`), closed with the database.
        self._autos: list[Any] = []
        self._autos_lock = threading.Lock()
        self.pool = ConnectionPool(url, min_size=min_size, max_size=max_size, open=False, name="ginrummy")
        self.pool.open(wait=True, timeout=15)

    @contextmanager
    def transaction(self) -> Iterator[_PgConnection]:
        current = getattr(self._local, "conn", None)
        if current is not None:
            yield current
            return
        with self.pool.connection() as raw:  # commits on a clean exit, rolls back on an exception
            conn = _PgConnection(raw)
            self._local.conn = conn
            try:
                with raw.transaction():
                    yield conn
            finally:
                self._local.conn = None

    def write(self, sql: str, params: Any = ()) -> None:
        """One statement in autocommit: one round trip instead of three (BEGIN, it, COMMIT),
        committed before it returns all the same. Inside a transaction under way, part of it.

        Single writes go through a connection of the calling thread's own, kept in autocommit
        (the web app's event loop writes a move at a time: no pool to check out of and back into);
        one that fails is closed, and the next write opens another."""
        current = getattr(self._local, "conn", None)
        if current is not None:
            current.execute(sql, params)
            return
        auto = getattr(self._local, "auto", None)
        if auto is None or auto.closed:
            auto = self._psycopg.connect(self.url, autocommit=True)
            self._local.auto = auto
            with self._autos_lock:
                self._autos = [a for a in self._autos if not a.closed] + [auto]
        try:
            auto.execute(_pg_sql(sql), tuple(params))
        except self._psycopg.Error as e:
            if not self.is_duplicate(e):  # a refused key leaves the connection as good as it was
                auto.close()
            raise

    @contextmanager
    def begin_schema(self) -> Iterator[_PgConnection]:
        with self.transaction() as c:
            c.execute("SELECT pg_advisory_xact_lock(?)", (SCHEMA_LOCK,))
            yield c

    def version(self, c: Any) -> int:
        c.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        row = c.execute("SELECT max(version) FROM schema_version").fetchone()
        return 0 if row is None or row[0] is None else int(row[0])

    def set_version(self, c: Any, version: int) -> None:
        c.execute("DELETE FROM schema_version")
        c.execute("INSERT INTO schema_version (version) VALUES (?)", (int(version),))

    def columns(self, c: Any, table: str) -> list[str]:
        rows = c.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() "
            "AND table_name = ? ORDER BY ordinal_position",
            (table,),
        ).fetchall()
        return [r[0] for r in rows]

    def is_duplicate(self, exc: BaseException) -> bool:
        return isinstance(exc, self._psycopg.errors.UniqueViolation)

    def close(self) -> None:
        with self._autos_lock:
            for auto in self._autos:
                auto.close()
            self._autos.clear()
        self.pool.close()


def without_password(url: str) -> str:
    """A database URL as it may be shown: its password as ``***``."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def open_database(target: str | Path) -> Database:
    """A PostgreSQL database for a ``postgresql://`` URL, else the SQLite file at that path."""
    if is_postgres(target):
        return PostgresDatabase(str(target))
    return SqliteDatabase(target)
