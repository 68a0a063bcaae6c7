"""The web app's store: games, their seats, each hand's deck, and an append-only log of actions.

Why a log and not snapshots: a game is *replayed* through the engine (:class:`~ginrummy.match.Match`)
from its rules, its first dealer, each hand's deck and every action in order. That is exact,
needs no second serialisation of the state that could drift from the engine, and never asks a
computer player to decide again (its decisions are in the log like anyone's).
:meth:`Store.load_match` is that replay, done once for every reader (the live game after a
restart, the move-by-move replay, the record export) by the record format's own replay.

Every action is appended (and committed) *before* the server acknowledges it, so a page reload,
a dropped connection or a killed server resumes exactly where the game was.

Seats are rows (``seats``: game, seat, token hash, name, player), not columns of ``games``, so
a game can have any number of them. The schema's version is the file's ``PRAGMA user_version``;
a file of an older version is migrated when it is opened (:data:`SCHEMA_VERSION`).

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
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..cards import card_str
from ..fairness import SCHEME, commitment
from ..match import Match
from ..record import FORMAT, ReplayObserver, match_from_record

#: The DB-API parameter placeholder of this backend (``%s`` for psycopg).
_P = "?"

#: The ``player`` of a seat taken by a person (a computer seat names its strength, e.g. "simple").
HUMAN = "human"

#: The schema this code writes. 0: files made before versions were kept, with the two seats as
#: columns of ``games`` (``token0``/``token1``, ``names``, ``opponent``, ``computer_seat``);
#: 1: seats as rows of ``seats``; 2: each seat's player identity (``player_hash``, see
#: :mod:`~ginrummy.web.identity`), a game's ``shared`` flag, and each hand's deal commitment as
#: published at the deal (:mod:`ginrummy.fairness`). Games stored before version 2 have no
#: identities and were open to everyone, so the migration marks them shared; their hands keep the
#: commitment of the scheme they were dealt under (1).
SCHEMA_VERSION = 2

_GAMES = """CREATE TABLE IF NOT EXISTS games (
        id TEXT PRIMARY KEY,
        rules TEXT NOT NULL,
        seed TEXT NOT NULL,
        first_dealer INTEGER NOT NULL,
        created REAL NOT NULL,
        finished REAL,
        status TEXT NOT NULL,
        final TEXT,
        shared INTEGER NOT NULL DEFAULT 0
    )"""

_SCHEMA = [
    _GAMES,
    """CREATE TABLE IF NOT EXISTS seats (
        game_id TEXT NOT NULL REFERENCES games (id),
        seat INTEGER NOT NULL,
        token_hash TEXT NOT NULL,
        name TEXT NOT NULL,
        player TEXT NOT NULL,
        player_hash TEXT,
        PRIMARY KEY (game_id, seat)
    )""",
    """CREATE TABLE IF NOT EXISTS hands (
        game_id TEXT NOT NULL,
        hand_no INTEGER NOT NULL,
        dealer INTEGER NOT NULL,
        deck TEXT NOT NULL,
        nonce TEXT NOT NULL,
        result TEXT,
        deadwood TEXT,
        commitment TEXT NOT NULL DEFAULT '',
        scheme INTEGER NOT NULL DEFAULT 1,
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
    "CREATE INDEX IF NOT EXISTS seats_player ON seats (player_hash)",
]

_GAME_COLUMNS = "id, rules, seed, first_dealer, created, finished, status, final, shared"
#: The columns of games as version 1 had them (the migrations copy these).
_GAME_COLUMNS_V1 = "id, rules, seed, first_dealer, created, finished, status, final"


class StoreError(Exception):
    """A database file this code cannot use (written by a newer version), or a stored game that
    does not replay as stored."""


def hash_token(token: str) -> str:
    """Seat tokens are stored hashed: a leaked database file does not let anyone act for a seat."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class SeatRow:
    """One seat of a game: its token (only as a hash), its name, and who plays it."""

    seat: int
    token_hash: str
    name: str
    #: :data:`HUMAN`, or the computer's strength (a name of :data:`~ginrummy.web.computer.STRENGTHS`).
    player: str
    #: The hash of the identity of the browser that plays this seat (None until one has).
    player_hash: str | None = None

    @property
    def computer(self) -> bool:
        return self.player != HUMAN


@dataclass(frozen=True, slots=True)
class GameRow:
    """One game as stored, with its seats in seat order."""

    id: str
    rules: dict[str, Any]
    seats: tuple[SeatRow, ...]
    seed: int
    first_dealer: int
    created: float
    finished: float | None
    status: str
    final: dict[str, Any] | None
    #: Open to everyone (replay, record, public facts) because a player shared it.
    shared: bool = False

    def seat_of_player(self, player_hash: str) -> int | None:
        """The first seat this identity plays in this game, if any."""
        return next((s.seat for s in self.seats if s.player_hash == player_hash), None)

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    @property
    def token_hashes(self) -> tuple[str, ...]:
        return tuple(s.token_hash for s in self.seats)

    @property
    def computer_seat(self) -> int | None:
        """The first seat a computer plays, or None when only people play."""
        return next((s.seat for s in self.seats if s.computer), None)

    @property
    def opponent(self) -> str:
        """What the game was created against: the computer's strength, or :data:`HUMAN`."""
        return next((s.player for s in self.seats if s.computer), HUMAN)


@dataclass(frozen=True, slots=True)
class HandRow:
    """One dealt hand: its deck (secret until the game is over), and its result once finished."""

    hand_no: int
    dealer: int
    deck: list[int]
    nonce: str
    result: dict[str, Any] | None
    deadwood: list[int] | None
    #: The SHA-256 published when the hand was dealt, and the scheme of :mod:`ginrummy.fairness` it uses.
    commitment: str
    scheme: int


@dataclass(frozen=True, slots=True)
class ActionRow:
    seq: int
    hand_no: int
    seat: int
    action: str


@dataclass(frozen=True, slots=True)
class StoredMatch:
    """A stored game replayed by the engine, with the rows it was replayed from."""

    row: GameRow
    match: Match
    #: Every hand dealt, in order: deck, nonce (for the deck commitment), result.
    hands: list[HandRow]
    #: Every action, in order, with the seat that played it.
    actions: list[ActionRow]


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
        self._open_schema()

    def _open_schema(self) -> None:
        """Create the tables, or bring an older file up to :data:`SCHEMA_VERSION`, in one transaction.

        ``BEGIN IMMEDIATE``: two servers opening the same old file cannot both migrate it.
        """
        with self._lock:
            c = self._conn
            c.execute("BEGIN IMMEDIATE")
            try:
                version = c.execute("PRAGMA user_version").fetchone()[0]
                if version > SCHEMA_VERSION:
                    raise StoreError(
                        f"{self.path} has schema version {version}, newer than this ginrummy reads ({SCHEMA_VERSION})"
                    )
                if version == 0 and "token0" in _columns(c, "games"):
                    _migrate_seat_columns_to_rows(c)
                elif version == 1:
                    _migrate_add_identities(c)
                for stmt in _SCHEMA:
                    c.execute(stmt)
                c.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            except BaseException:
                c.execute("ROLLBACK")
                raise
            c.execute("COMMIT")

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
        seed: int,
        first_dealer: int,
        seats: Sequence[SeatRow],
    ) -> None:
        """A new game and its seats (numbered 0, 1, ... in order), in one transaction."""
        if [s.seat for s in seats] != list(range(len(seats))):
            raise ValueError(f"seats must be numbered 0 to {len(seats) - 1} in order")
        with self.connection() as c:
            c.execute(
                f"INSERT INTO games (id, rules, seed, first_dealer, created, status) VALUES ({', '.join([_P] * 6)})",
                (game_id, json.dumps(rules), str(seed), first_dealer, time.time(), "playing"),
            )
            c.executemany(
                f"INSERT INTO seats (game_id, seat, token_hash, name, player, player_hash) VALUES ({', '.join([_P] * 6)})",
                [(game_id, s.seat, s.token_hash, s.name, s.player, s.player_hash) for s in seats],
            )

    def get_game(self, game_id: str) -> GameRow | None:
        with self.connection() as c:
            row = c.execute(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = {_P}", (game_id,)).fetchone()
            return None if row is None else _with_seats(c, [row])[0]

    def list_games(self, status: str | None = None, limit: int = 200, *, player: str | None = None) -> list[GameRow]:
        """Games newest first; ``player`` (an identity hash) keeps only the games it plays a seat of."""
        sql = f"SELECT {_GAME_COLUMNS} FROM games"
        where, params = [], []
        if status is not None:
            where.append(f"status = {_P}")
            params.append(status)
        if player is not None:
            where.append(f"id IN (SELECT game_id FROM seats WHERE player_hash = {_P})")
            params.append(player)
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += f" ORDER BY created DESC LIMIT {_P}"
        with self.connection() as c:
            rows = c.execute(sql, (*params, limit)).fetchall()
            return _with_seats(c, rows)

    def finish_game(self, game_id: str, final: dict[str, Any]) -> None:
        with self.connection() as c:
            c.execute(
                f"UPDATE games SET status = 'finished', finished = {_P}, final = {_P} WHERE id = {_P}",
                (time.time(), json.dumps(final), game_id),
            )

    def set_name(self, game_id: str, seat: int, name: str) -> None:
        """One seat's name (a friend who joined by link names themself)."""
        with self.connection() as c:
            c.execute(
                f"UPDATE seats SET name = {_P} WHERE game_id = {_P} AND seat = {_P}", (name, game_id, seat)
            )

    def claim_seat(self, game_id: str, seat: int, player_hash: str) -> bool:
        """Record the identity playing a seat, once: a seat already claimed keeps its player.

        Returns whether this call claimed it."""
        with self.connection() as c:
            cur = c.execute(
                f"UPDATE seats SET player_hash = {_P} WHERE game_id = {_P} AND seat = {_P} AND player_hash IS NULL",
                (player_hash, game_id, seat),
            )
            return bool(cur.rowcount)

    def set_shared(self, game_id: str, shared: bool) -> None:
        with self.connection() as c:
            c.execute(f"UPDATE games SET shared = {_P} WHERE id = {_P}", (int(shared), game_id))

    # -- hands and actions -----------------------------------------------------------------

    def add_hand(self, game_id: str, hand_no: int, dealer: int, deck: list[int], nonce: str) -> str:
        """Store a dealt hand before anyone sees it; returns its commitment (to publish)."""
        digest = commitment(game_id, hand_no + 1, nonce, deck)
        with self.connection() as c:
            c.execute(
                "INSERT INTO hands (game_id, hand_no, dealer, deck, nonce, commitment, scheme) "
                f"VALUES ({', '.join([_P] * 7)})",
                (game_id, hand_no, dealer, json.dumps(deck), nonce, digest, SCHEME),
            )
        return digest

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
                f"SELECT {_HAND_COLUMNS} FROM hands WHERE game_id = {_P} ORDER BY hand_no", (game_id,)
            ).fetchall()
        return [_hand(r) for r in rows]

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

    def load_match(self, game_id: str, *, observe: ReplayObserver | None = None) -> StoredMatch | None:
        """Replay a stored game through the engine (None if there is no such game).

        The rows are read in one transaction and turned into a game record that
        :func:`~ginrummy.record.match_from_record` replays, checking every action and each hand's
        dealer; the seat stored with each action must be the seat the replay says played it.
        ``observe`` sees each deal and each action as it is replayed (the move-by-move replay).
        """
        with self.connection():  # one transaction: the rows of one moment
            row = self.get_game(game_id)
            if row is None:
                return None
            hands = self.hands(game_id)
            actions = self.actions(game_id)
        by_hand: dict[int, list[ActionRow]] = {h.hand_no: [] for h in hands}
        for a in actions:
            if a.hand_no not in by_hand:
                raise StoreError(f"game {game_id}: action {a.seq} belongs to hand {a.hand_no}, which was never dealt")
            by_hand[a.hand_no].append(a)
        record = {
            "format": FORMAT,
            "kind": "game",
            "rules": row.rules,
            "first_dealer": row.first_dealer,
            "seed": row.seed,
            "players": row.names,
            "hands": [
                {
                    "dealer": h.dealer,
                    "deck": [card_str(card) for card in h.deck],
                    "actions": [a.action for a in by_hand[h.hand_no]],
                }
                for h in hands
            ],
        }
        match = match_from_record(record, observe=observe)
        for h, hand in zip(hands, match.hands, strict=True):
            for a, step in zip(by_hand[h.hand_no], hand.history, strict=True):
                if a.seat != step.seat:
                    raise StoreError(
                        f"game {game_id}: action {a.seq} ({a.action!r}) is stored for seat {a.seat}, "
                        f"but seat {step.seat} played it on replay"
                    )
        return StoredMatch(row, match, hands, actions)

    def finished_hands(
        self, limit_games: int = 1000, *, player: str | None = None
    ) -> list[tuple[GameRow, list[HandRow]]]:
        """Finished games with their hands, newest first, for history and statistics (``player``: its own)."""
        games = self.list_games("finished", limit_games, player=player)
        if not games:
            return []
        ids = [g.id for g in games]
        with self.connection() as c:
            rows = c.execute(
                f"SELECT game_id, {_HAND_COLUMNS} FROM hands WHERE game_id IN "
                f"({', '.join([_P] * len(ids))}) ORDER BY game_id, hand_no",
                ids,
            ).fetchall()
        by_game: dict[str, list[HandRow]] = {i: [] for i in ids}
        for r in rows:
            by_game[r[0]].append(_hand(r[1:]))
        return [(g, by_game[g.id]) for g in games]


def _loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)


_HAND_COLUMNS = "hand_no, dealer, deck, nonce, result, deadwood, commitment, scheme"


def _hand(r: Sequence[Any]) -> HandRow:
    """A hands row (in :data:`_HAND_COLUMNS` order)."""
    return HandRow(r[0], r[1], json.loads(r[2]), r[3], _loads(r[4]), _loads(r[5]), r[6], r[7])


def _with_seats(c: sqlite3.Connection, rows: Sequence[tuple[Any, ...]]) -> list[GameRow]:
    """Game rows (in :data:`_GAME_COLUMNS` order) with their seats, read in one query."""
    if not rows:
        return []
    ids = [r[0] for r in rows]
    seats: dict[str, list[SeatRow]] = {i: [] for i in ids}
    for game_id, seat, token_hash, name, player, player_hash in c.execute(
        "SELECT game_id, seat, token_hash, name, player, player_hash FROM seats WHERE game_id IN "
        f"({', '.join([_P] * len(ids))}) ORDER BY game_id, seat",
        ids,
    ):
        seats[game_id].append(SeatRow(seat, token_hash, name, player, player_hash))
    return [
        GameRow(
            id=r[0],
            rules=json.loads(r[1]),
            seats=tuple(seats[r[0]]),
            seed=int(r[2]),
            first_dealer=r[3],
            created=r[4],
            finished=r[5],
            status=r[6],
            final=_loads(r[7]),
            shared=bool(r[8]),
        )
        for r in rows
    ]


def _columns(c: sqlite3.Connection, table: str) -> list[str]:
    return [r[1] for r in c.execute(f"PRAGMA table_info({table})")]


def _migrate_seat_columns_to_rows(c: sqlite3.Connection) -> None:
    """Schema 0 -> 2: each game's ``token0``/``token1``, ``names``, ``opponent`` and
    ``computer_seat`` become two rows of ``seats``; ``games`` is rebuilt without those columns
    (SQLite cannot drop them in place on every version) and every game is shared, as it was open to
    everyone then. Runs inside the caller's transaction."""
    old = c.execute("SELECT id, names, opponent, computer_seat, token0, token1 FROM games").fetchall()
    c.execute(_GAMES.replace("games", "games_new", 1))
    c.execute(f"INSERT INTO games_new ({_GAME_COLUMNS_V1}) SELECT {_GAME_COLUMNS_V1} FROM games")
    c.execute("DROP TABLE games")  # its index goes with it; the schema creates it again
    c.execute("ALTER TABLE games_new RENAME TO games")
    c.execute(_SCHEMA[1])
    seat_rows = []
    for game_id, names, opponent, computer_seat, token0, token1 in old:
        seat_names = json.loads(names)
        for seat, token_hash in enumerate((token0, token1)):
            player = opponent if computer_seat == seat else HUMAN
            seat_rows.append((game_id, seat, token_hash, seat_names[seat], player))
    c.executemany(f"INSERT INTO seats (game_id, seat, token_hash, name, player) VALUES ({', '.join([_P] * 5)})", seat_rows)
    c.execute("UPDATE games SET shared = 1")
    _migrate_deal_commitments(c)


def _migrate_add_identities(c: sqlite3.Connection) -> None:
    """Schema 1 -> 2: seats gain ``player_hash``, games ``shared``. Games of version 1 were open to
    everyone who had their address, so they stay open (shared). Runs inside the caller's transaction."""
    c.execute("ALTER TABLE seats ADD COLUMN player_hash TEXT")
    c.execute("ALTER TABLE games ADD COLUMN shared INTEGER NOT NULL DEFAULT 0")
    c.execute("UPDATE games SET shared = 1")
    _migrate_deal_commitments(c)


def _migrate_deal_commitments(c: sqlite3.Connection) -> None:
    """Hands dealt before version 2 get the commitment they were published with (scheme 1)."""
    c.execute("ALTER TABLE hands ADD COLUMN commitment TEXT NOT NULL DEFAULT ''")
    c.execute("ALTER TABLE hands ADD COLUMN scheme INTEGER NOT NULL DEFAULT 1")
    rows = c.execute("SELECT game_id, hand_no, deck, nonce FROM hands").fetchall()
    c.executemany(
        f"UPDATE hands SET commitment = {_P} WHERE game_id = {_P} AND hand_no = {_P}",
        [(commitment(g, n + 1, nonce, json.loads(deck), scheme=1), g, n) for g, n, deck, nonce in rows],
    )
