"""The web app's store: games, each hand's deck, and an append-only log of actions.

Why a log and not snapshots: a game is *replayed* through the engine (:class:`~ginrummy.match.Match`)
from its rules, its first dealer, each hand's deck and every action in order. That is exact,
needs no second serialisation of the state that could drift from the engine, and never asks a
computer player to decide again (its decisions are in the log like anyone's).

Every action is appended (and committed) *before* the server acknowledges it, so a page reload,
a dropped connection or a killed server resumes exactly where the game was.

All SQL lives in this module, behind methods, with the parameter style in one place
(:data:`_P`), so another database (PostgreSQL) could replace SQLite by reimplementing
:class:`Store` alone. Other routers (the scorekeeper) may create their own tables through
:meth:`Store.connection`.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: The DB-API parameter placeholder of this backend (``%s`` for psycopg).
_P = "?"

_SCHEMA = [
    """CREATE TABLE IF NOT EXISTS games (
        id TEXT PRIMARY KEY,
        rules TEXT NOT NULL,
        names TEXT NOT NULL,
        opponent TEXT NOT NULL,
        computer_seat INTEGER,
        seed TEXT NOT NULL,
        first_dealer INTEGER NOT NULL,
        token0 TEXT NOT NULL,
        token1 TEXT NOT NULL,
        created REAL NOT NULL,
        finished REAL,
        status TEXT NOT NULL,
        final TEXT
    )""",
    """CREATE TABLE IF NOT EXISTS hands (
        game_id TEXT NOT NULL,
        hand_no INTEGER NOT NULL,
        dealer INTEGER NOT NULL,
        deck TEXT NOT NULL,
        nonce TEXT NOT NULL,
        result TEXT,
        deadwood TEXT,
        PRIMARY KEY (game_id, hand_no)
    )""",
    """CREATE TABLE IF NOT EXISTS actions (
        game_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        hand_no INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        action TEXT NOT NULL,
        created REAL NOT NULL,
        PRIMARY KEY (game_id, seq)
    )""",
    "CREATE INDEX IF NOT EXISTS games_status ON games (status, finished)",
]


def hash_token(token: str) -> str:
    """Seat tokens are stored hashed: a leaked database file does not let anyone act for a seat."""
    return hashlib.sha256(token.encode()).hexdigest()


def deck_commitment(game_id: str, hand_no: int, deck: list[int], nonce: str) -> str:
    """A hash published when a hand is dealt and checkable once the game is over.

    Players suspect rigged shuffles; with the deck and the nonce revealed in the record, anyone can
    recompute this and see the deck was fixed before the first card was played.
    """
    text = f"{game_id}:{hand_no}:{nonce}:{','.join(map(str, deck))}"
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class GameRow:
    """One game as stored (tokens only as hashes)."""

    id: str
    rules: dict[str, Any]
    names: list[str]
    opponent: str
    computer_seat: int | None
    seed: int
    first_dealer: int
    token_hashes: tuple[str, str]
    created: float
    finished: float | None
    status: str
    final: dict[str, Any] | None


@dataclass(frozen=True, slots=True)
class HandRow:
    """One dealt hand: its deck (secret until the game is over), and its result once finished."""

    hand_no: int
    dealer: int
    deck: list[int]
    nonce: str
    result: dict[str, Any] | None
    deadwood: list[int] | None


@dataclass(frozen=True, slots=True)
class ActionRow:
    seq: int
    hand_no: int
    seat: int
    action: str


class Store:
    """SQLite store. One connection shared by the app, serialised by a lock.

    WAL mode with ``synchronous=NORMAL``: a commit survives the server process being killed
    (the issue's durability need) and costs microseconds, so writing before each ack is cheap
    enough to do on the event loop.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        self._depth = 0
        self._conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute("PRAGMA synchronous=NORMAL")
        self._conn.execute("PRAGMA foreign_keys=ON")
        with self.connection() as c:
            for stmt in _SCHEMA:
                c.execute(stmt)

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    @contextmanager
    def connection(self) -> Iterator[sqlite3.Connection]:
        """A connection inside a transaction that commits on exit (rolls back on an exception)."""
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
            c.execute("BEGIN")
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

    # -- games ---------------------------------------------------------------------------

    def create_game(
        self,
        *,
        game_id: str,
        rules: dict[str, Any],
        names: list[str],
        opponent: str,
        computer_seat: int | None,
        seed: int,
        first_dealer: int,
        token_hashes: tuple[str, str],
    ) -> None:
        with self.connection() as c:
            c.execute(
                "INSERT INTO games (id, rules, names, opponent, computer_seat, seed, first_dealer, token0, token1, "
                f"created, status) VALUES ({', '.join([_P] * 11)})",
                (
                    game_id,
                    json.dumps(rules),
                    json.dumps(names),
                    opponent,
                    computer_seat,
                    str(seed),
                    first_dealer,
                    token_hashes[0],
                    token_hashes[1],
                    time.time(),
                    "playing",
                ),
            )

    def get_game(self, game_id: str) -> GameRow | None:
        with self.connection() as c:
            row = c.execute(
                "SELECT id, rules, names, opponent, computer_seat, seed, first_dealer, token0, token1, created, "
                f"finished, status, final FROM games WHERE id = {_P}",
                (game_id,),
            ).fetchone()
        return None if row is None else _game_row(row)

    def list_games(self, status: str | None = None, limit: int = 200) -> list[GameRow]:
        sql = (
            "SELECT id, rules, names, opponent, computer_seat, seed, first_dealer, token0, token1, created, "
            "finished, status, final FROM games"
        )
        params: tuple[Any, ...] = ()
        if status is not None:
            sql += f" WHERE status = {_P}"
            params = (status,)
        sql += f" ORDER BY created DESC LIMIT {_P}"
        with self.connection() as c:
            rows = c.execute(sql, (*params, limit)).fetchall()
        return [_game_row(r) for r in rows]

    def finish_game(self, game_id: str, final: dict[str, Any]) -> None:
        with self.connection() as c:
            c.execute(
                f"UPDATE games SET status = 'finished', finished = {_P}, final = {_P} WHERE id = {_P}",
                (time.time(), json.dumps(final), game_id),
            )

    def set_names(self, game_id: str, names: list[str]) -> None:
        """The seats' names (a friend who joined by link names themself)."""
        with self.connection() as c:
            c.execute(f"UPDATE games SET names = {_P} WHERE id = {_P}", (json.dumps(names), game_id))

    # -- hands and actions -----------------------------------------------------------------

    def add_hand(self, game_id: str, hand_no: int, dealer: int, deck: list[int], nonce: str) -> None:
        with self.connection() as c:
            c.execute(
                f"INSERT INTO hands (game_id, hand_no, dealer, deck, nonce) VALUES ({_P}, {_P}, {_P}, {_P}, {_P})",
                (game_id, hand_no, dealer, json.dumps(deck), nonce),
            )

    def end_hand(self, game_id: str, hand_no: int, result: dict[str, Any], deadwood: list[int]) -> None:
        """Keep each hand's result and final deadwood so statistics need no replay."""
        with self.connection() as c:
            c.execute(
                f"UPDATE hands SET result = {_P}, deadwood = {_P} WHERE game_id = {_P} AND hand_no = {_P}",
                (json.dumps(result), json.dumps(deadwood), game_id, hand_no),
            )

    def hands(self, game_id: str) -> list[HandRow]:
        with self.connection() as c:
            rows = c.execute(
                f"SELECT hand_no, dealer, deck, nonce, result, deadwood FROM hands WHERE game_id = {_P} "
                "ORDER BY hand_no",
                (game_id,),
            ).fetchall()
        return [
            HandRow(r[0], r[1], json.loads(r[2]), r[3], _loads(r[4]), _loads(r[5]))
            for r in rows
        ]

    def append_action(self, game_id: str, seq: int, hand_no: int, seat: int, action: str) -> None:
        """Append one action. The primary key (game, seq) refuses a second writer of the same step."""
        with self.connection() as c:
            c.execute(
                f"INSERT INTO actions (game_id, seq, hand_no, seat, action, created) VALUES ({', '.join([_P] * 6)})",
                (game_id, seq, hand_no, seat, action, time.time()),
            )

    def actions(self, game_id: str) -> list[ActionRow]:
        with self.connection() as c:
            rows = c.execute(
                f"SELECT seq, hand_no, seat, action FROM actions WHERE game_id = {_P} ORDER BY seq",
                (game_id,),
            ).fetchall()
        return [ActionRow(*r) for r in rows]

    def finished_hands(self, limit_games: int = 1000) -> list[tuple[GameRow, list[HandRow]]]:
        """Finished games with their hands, newest first, for history and statistics."""
        games = self.list_games("finished", limit_games)
        if not games:
            return []
        ids = [g.id for g in games]
        with self.connection() as c:
            rows = c.execute(
                "SELECT game_id, hand_no, dealer, deck, nonce, result, deadwood FROM hands WHERE game_id IN "
                f"({', '.join([_P] * len(ids))}) ORDER BY game_id, hand_no",
                ids,
            ).fetchall()
        by_game: dict[str, list[HandRow]] = {i: [] for i in ids}
        for r in rows:
            by_game[r[0]].append(HandRow(r[1], r[2], json.loads(r[3]), r[4], _loads(r[5]), _loads(r[6])))
        return [(g, by_game[g.id]) for g in games]


def _loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def _game_row(r: tuple[Any, ...]) -> GameRow:
    return GameRow(
        id=r[0],
        rules=json.loads(r[1]),
        names=json.loads(r[2]),
        opponent=r[3],
        computer_seat=r[4],
        seed=int(r[5]),
        first_dealer=r[6],
        token_hashes=(r[7], r[8]),
        created=r[9],
        finished=r[10],
        status=r[11],
        final=_loads(r[12]),
    )
