"""The games store (a SQLite file, or a PostgreSQL database): games, their seats, each hand's deck, and an append-only log
of actions. The web app, ``ginrummy play`` and ``ginrummy tui`` keep their games here, so one
history holds them all; it needs nothing but the standard library (no web extra).

Why a log and not snapshots: a game is *replayed* through the engine (:class:`~ginrummy.match.Match`)
from its rules, its first dealer, each hand's deck and every action in order. That is exact,
needs no second serialisation of the state that could drift from the engine, and never asks a
computer player to decide again (its decisions are in the log like anyone's).
:meth:`Store.load_game` is that replay (:meth:`Store.load_match` for a two-player game), done once
for every reader (the live game after a restart, the move-by-move replay, the record export) by the
record format's own replay. A hand of three or four players stores the game seat that dealt it in
``dealer``; who played it follows from the rotation (:func:`stored_pairing`).

Every action is appended (and committed) *before* the server acknowledges it, so a page reload,
a dropped connection or a killed server resumes exactly where the game was.

Seats are rows (``seats``: game, seat, token hash, name, player), not columns of ``games``, so
a game can have any number of them. The schema's version is the file's ``PRAGMA user_version``
(PostgreSQL: the ``schema_version`` table); a database of an older version is migrated when it
is opened (:data:`SCHEMA_VERSION`).

Undo never rewrites a log: a game whose last moves are taken back continues as a *new* game row
holding the same seats, hands and the actions kept (:meth:`Store.continue_game`); the old row's
status becomes ``replaced`` and the new row names it in ``terminal_games.replaces``.

Games played at a terminal have a row in ``terminal_games`` too: which app (``play`` or ``tui``),
whether undo is allowed, and the game it replaces; :meth:`Store.last_unfinished` finds the game
``--resume`` continues. Game statuses: ``playing``, ``finished``, ``replaced`` (by an undo),
``abandoned`` (left without keeping it).

All SQL lives in this module, behind methods, and in :mod:`~ginrummy.storage_schema` (the tables
and their migrations), written once with ``?`` placeholders; :mod:`~ginrummy.storage_backend`
runs it on SQLite (a file path, the default) or PostgreSQL (a ``postgresql://`` URL, several app
instances on one database). Other routers (the scorekeeper) may create their own tables through
:meth:`Store.connection`.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from .cards import card_str
from .dealing import team_round, three_pairing
from .fairness import SCHEME, commitment
from .game import Game
from .hand import Hand
from .match import Match
from .melds import deadwood
from .record import FORMAT, ReplayObserver, game_from_record
from .storage_backend import Database, open_database
from .storage_errors import StoreError as StoreError
from .storage_errors import Taken as Taken
from .storage_errors import Unreachable as Unreachable
from .storage_schema import GAME_COLUMNS, PARAM, SCHEMA_VERSION, upgrade
from .storage_schema import HUMAN as HUMAN
from .storage_writes import StepWrites

#: The database file when none is named: ``ginrummy serve``, ``play`` and ``tui`` share it.
DEFAULT_DB = "ginrummy.sqlite3"

#: The terminal apps whose games ``--resume`` continues.
TERMINAL_CLIENTS = ("play", "tui")




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
    #: The pause before each computer move a person at this table chose (None: the server's own).
    pace: float | None = None

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


@dataclass(frozen=True, slots=True)
class StoredGame:
    """A stored game of two, three or four players replayed by the engine (:meth:`Store.load_game`)."""

    row: GameRow
    match: Game
    hands: list[HandRow]
    actions: list[ActionRow]


class Store(StepWrites):
    """The games store on one database (:mod:`~ginrummy.storage_backend`): a SQLite file by
    default, or a PostgreSQL database for a ``postgresql://`` URL (several app instances at once).
    """

    def __init__(self, path: str | Path) -> None:
        try:
            self._db = open_database(path)
        except ConnectionError as e:  # a PostgreSQL server out of reach or refusing
            raise Unreachable(str(e)) from None
        self._batch = threading.local()  # the writes of a step under way (:meth:`writes`), per thread
        #: The file's path, or the database's URL without its password.
        self.path = self._db.label
        self._open_schema()

    @property
    def dialect(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self._db.dialect

    @property
    def database(self) -> Database:
        return self._db

    def _open_schema(self) -> None:
        """Create the tables, or bring an older database up to :data:`SCHEMA_VERSION`, in one
        transaction that no other process migrates in at the same time."""
        with self._db.begin_schema() as c:
            version = self._db.version(c)
            if version > SCHEMA_VERSION:
                raise StoreError(
                    f"{self.path} has schema version {version}, newer than this ginrummy reads ({SCHEMA_VERSION})"
                )
            upgrade(self._db, c, version)

    def close(self) -> None:
        self._db.close()

    def ensure_table(self, ddl: str) -> None:
        """Create another module's table (``CREATE TABLE IF NOT EXISTS``) while no other process
        changes the schema: two instances starting at once on one PostgreSQL database cannot collide."""
        with self._db.begin_schema() as c:
            c.execute(ddl)

    def connection(self) -> AbstractContextManager[Any]:
        """A connection inside a transaction that commits on exit (rolls back on an exception);
        nested use joins the outer transaction. Its ``execute`` takes ``?`` placeholders on both databases."""
        return cast(AbstractContextManager[Any], self._db.transaction())

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
                f"INSERT INTO games (id, rules, seed, first_dealer, created, status) VALUES ({', '.join([PARAM] * 6)})",
                (game_id, json.dumps(rules), str(seed), first_dealer, time.time(), "playing"),
            )
            c.executemany(
                f"INSERT INTO seats (game_id, seat, token_hash, name, player, player_hash) VALUES ({', '.join([PARAM] * 6)})",
                [(game_id, s.seat, s.token_hash, s.name, s.player, s.player_hash) for s in seats],
            )

    def get_game(self, game_id: str) -> GameRow | None:
        with self.connection() as c:
            row = c.execute(f"SELECT {GAME_COLUMNS} FROM games WHERE id = {PARAM}", (game_id,)).fetchone()
            return None if row is None else _with_seats(c, [row])[0]

    def list_games(self, status: str | None = None, limit: int = 200, *, player: str | None = None) -> list[GameRow]:
        """Games newest first; ``player`` (an identity hash) keeps only the games it plays a seat of."""
        sql = f"SELECT {GAME_COLUMNS} FROM games"
        where, params = [], []
        if status is not None:
            where.append(f"status = {PARAM}")
            params.append(status)
        if player is not None:
            where.append(f"id IN (SELECT game_id FROM seats WHERE player_hash = {PARAM})")
            params.append(player)
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += f" ORDER BY created DESC LIMIT {PARAM}"
        with self.connection() as c:
            rows = c.execute(sql, (*params, limit)).fetchall()
            return _with_seats(c, rows)

    def finish_game(self, game_id: str, final: dict[str, Any]) -> None:
        self._write(
            f"UPDATE games SET status = 'finished', finished = {PARAM}, final = {PARAM} WHERE id = {PARAM}",
            (time.time(), json.dumps(final), game_id),
        )

    def set_status(self, game_id: str, status: str) -> None:
        """An unfinished game becomes ``abandoned`` (left without keeping it); see the module docstring."""
        if status not in ("playing", "abandoned"):
            raise ValueError(f"a game can be set playing or abandoned, not {status!r}")
        with self.connection() as c:
            c.execute(f"UPDATE games SET status = {PARAM} WHERE id = {PARAM} AND status != 'finished'", (status, game_id))

    # -- games played at a terminal --------------------------------------------------------

    def mark_terminal(self, game_id: str, client: str, *, undo: bool, replaces: str | None = None) -> None:
        """Note that ``game_id`` is played in a terminal app (``play`` or ``tui``)."""
        if client not in TERMINAL_CLIENTS:
            raise ValueError(f"terminal clients are {', '.join(TERMINAL_CLIENTS)}, not {client!r}")
        with self.connection() as c:
            c.execute(
                f"INSERT INTO terminal_games (game_id, client, undo, replaces) VALUES ({PARAM}, {PARAM}, {PARAM}, {PARAM})",
                (game_id, client, int(undo), replaces),
            )

    def terminal(self, game_id: str) -> tuple[str, bool, str | None] | None:
        """``(client, undo allowed, the game it replaces)`` of a terminal game, or None."""
        with self.connection() as c:
            row = c.execute(
                f"SELECT client, undo, replaces FROM terminal_games WHERE game_id = {PARAM}", (game_id,)
            ).fetchone()
        return None if row is None else (row[0], bool(row[1]), row[2])

    def last_unfinished(self, clients: Sequence[str] = TERMINAL_CLIENTS) -> GameRow | None:
        """The newest game still being played in one of these terminal apps, or None."""
        with self.connection() as c:
            row = c.execute(
                f"SELECT {', '.join('g.' + col for col in GAME_COLUMNS.split(', '))} FROM games g "
                f"JOIN terminal_games t ON t.game_id = g.id WHERE g.status = 'playing' "
                f"AND t.client IN ({', '.join([PARAM] * len(clients))}) ORDER BY g.created DESC, g.rowid DESC LIMIT 1",
                tuple(clients),
            ).fetchone()
            return None if row is None else _with_seats(c, [row])[0]

    def continue_game(self, old_id: str, new_id: str, *, actions: int) -> None:
        """Undo: a new game row ``new_id`` with the rules, seats, hands and the first ``actions``
        actions of ``old_id``, which becomes ``replaced``; one transaction, nothing deleted.

        The hands are copied as they are, so the actions dropped must all belong to unfinished hands
        of the deal in progress (an undo within a finished hand would leave its result behind)."""
        with self.connection() as c:
            old = c.execute(f"SELECT status FROM games WHERE id = {PARAM}", (old_id,)).fetchone()
            if old is None or old[0] != "playing":
                raise StoreError(f"game {old_id} is not being played: {'no such game' if old is None else old[0]}")
            c.execute(
                f"INSERT INTO games (id, rules, seed, first_dealer, created, status) "
                f"SELECT {PARAM}, rules, seed, first_dealer, {PARAM}, 'playing' FROM games WHERE id = {PARAM}",
                (new_id, time.time(), old_id),
            )
            c.execute(
                f"INSERT INTO seats (game_id, seat, token_hash, name, player) "
                f"SELECT {PARAM}, seat, token_hash, name, player FROM seats WHERE game_id = {PARAM}",
                (new_id, old_id),
            )
            c.execute(
                f"INSERT INTO hands (game_id, hand_no, dealer, deck, nonce, result, deadwood) "
                f"SELECT {PARAM}, hand_no, dealer, deck, nonce, result, deadwood FROM hands WHERE game_id = {PARAM}",
                (new_id, old_id),
            )
            c.execute(
                f"INSERT INTO actions (game_id, seq, hand_no, seat, action, created) "
                f"SELECT {PARAM}, seq, hand_no, seat, action, created FROM actions WHERE game_id = {PARAM} AND seq < {PARAM}",
                (new_id, old_id, actions),
            )
            c.execute(f"UPDATE games SET status = 'replaced' WHERE id = {PARAM}", (old_id,))
            t = c.execute(f"SELECT client, undo FROM terminal_games WHERE game_id = {PARAM}", (old_id,)).fetchone()
            if t is not None:
                c.execute(
                    f"INSERT INTO terminal_games (game_id, client, undo, replaces) VALUES ({PARAM}, {PARAM}, {PARAM}, {PARAM})",
                    (new_id, t[0], t[1], old_id),
                )

    def set_name(self, game_id: str, seat: int, name: str) -> None:
        """One seat's name (a friend who joined by link names themself)."""
        with self.connection() as c:
            c.execute(
                f"UPDATE seats SET name = {PARAM} WHERE game_id = {PARAM} AND seat = {PARAM}", (name, game_id, seat)
            )

    def claim_seat(self, game_id: str, seat: int, player_hash: str) -> bool:
        """Record the identity playing a seat, once: a seat already claimed keeps its player.

        Returns whether this call claimed it."""
        with self.connection() as c:
            cur = c.execute(
                f"UPDATE seats SET player_hash = {PARAM} WHERE game_id = {PARAM} AND seat = {PARAM} AND player_hash IS NULL",
                (player_hash, game_id, seat),
            )
            return bool(cur.rowcount)

    def set_shared(self, game_id: str, shared: bool) -> None:
        with self.connection() as c:
            c.execute(f"UPDATE games SET shared = {PARAM} WHERE id = {PARAM}", (int(shared), game_id))

    # -- hands and actions -----------------------------------------------------------------

    def add_hand(self, game_id: str, hand_no: int, dealer: int, deck: list[int], nonce: str) -> str:
        """Store a dealt hand before anyone sees it; returns its commitment (to publish).

        The primary key (game, hand) refuses a second deal of the same hand: :class:`Taken`."""
        digest = commitment(game_id, hand_no + 1, nonce, deck)
        try:
            with self.connection() as c:
                c.execute(
                    "INSERT INTO hands (game_id, hand_no, dealer, deck, nonce, commitment, scheme) "
                    f"VALUES ({', '.join([PARAM] * 7)})",
                    (game_id, hand_no, dealer, json.dumps(deck), nonce, digest, SCHEME),
                )
        except Exception as e:
            if self._db.is_duplicate(e):
                raise Taken(f"game {game_id}: hand {hand_no + 1} is already dealt") from None
            raise
        return digest

    def end_hand(self, game_id: str, hand_no: int, result: dict[str, Any], deadwood: list[int]) -> None:
        """Keep each hand's result and final deadwood so statistics need no replay."""
        self._write(
            f"UPDATE hands SET result = {PARAM}, deadwood = {PARAM} WHERE game_id = {PARAM} AND hand_no = {PARAM}",
            (json.dumps(result), json.dumps(deadwood), game_id, hand_no),
        )

    def hands(self, game_id: str) -> list[HandRow]:
        with self.connection() as c:
            rows = c.execute(
                f"SELECT {_HAND_COLUMNS} FROM hands WHERE game_id = {PARAM} ORDER BY hand_no", (game_id,)
            ).fetchall()
        return [_hand(r) for r in rows]

    def append_action(self, game_id: str, seq: int, hand_no: int, seat: int, action: str) -> None:
        """Append one action. The primary key (game, seq) refuses a second writer of the same step
        (another instance that played it first): :class:`Taken`."""
        self._write(
            f"INSERT INTO actions (game_id, seq, hand_no, seat, action, created) VALUES ({', '.join([PARAM] * 6)})",
            (game_id, seq, hand_no, seat, action, time.time()),
            f"game {game_id}: action {seq} is already stored",
        )

    def actions_since(self, game_id: str, seq: int, hand_no: int) -> tuple[list[HandRow], list[ActionRow]]:
        """The hands from ``hand_no`` and the actions from ``seq`` on, in one transaction: what
        another instance stored since this one last looked."""
        with self.connection() as c:
            hands = c.execute(
                f"SELECT {_HAND_COLUMNS} FROM hands WHERE game_id = {PARAM} AND hand_no >= {PARAM} ORDER BY hand_no",
                (game_id, hand_no),
            ).fetchall()
            actions = c.execute(
                f"SELECT seq, hand_no, seat, action FROM actions WHERE game_id = {PARAM} AND seq >= {PARAM} ORDER BY seq",
                (game_id, seq),
            ).fetchall()
        return [_hand(r) for r in hands], [ActionRow(*r) for r in actions]

    def set_ready(self, game_id: str, hand_no: int, seat: int) -> list[int]:
        """A seat is ready for the hand after ``hand_no``; returns every seat ready for it."""
        with self.connection() as c:
            # The game's row locked first: two seats marked at once on two instances each see the other.
            c.execute(f"UPDATE games SET status = status WHERE id = {PARAM}", (game_id,))
            c.execute(
                f"INSERT INTO ready (game_id, hand_no, seat) VALUES ({PARAM}, {PARAM}, {PARAM}) ON CONFLICT DO NOTHING",
                (game_id, hand_no, seat),
            )
            return self._ready(c, game_id, hand_no)

    def ready(self, game_id: str, hand_no: int) -> list[int]:
        """The seats ready for the hand after ``hand_no``."""
        with self.connection() as c:
            return self._ready(c, game_id, hand_no)

    @staticmethod
    def _ready(c: Any, game_id: str, hand_no: int) -> list[int]:
        rows = c.execute(
            f"SELECT seat FROM ready WHERE game_id = {PARAM} AND hand_no = {PARAM} ORDER BY seat", (game_id, hand_no)
        ).fetchall()
        return [int(r[0]) for r in rows]

    def set_pace(self, game_id: str, pace: float | None) -> None:
        with self.connection() as c:
            c.execute(f"UPDATE games SET pace = {PARAM} WHERE id = {PARAM}", (pace, game_id))

    def actions(self, game_id: str) -> list[ActionRow]:
        with self.connection() as c:
            rows = c.execute(
                f"SELECT seq, hand_no, seat, action FROM actions WHERE game_id = {PARAM} ORDER BY seq",
                (game_id,),
            ).fetchall()
        return [ActionRow(*r) for r in rows]

    def load_match(self, game_id: str, *, observe: ReplayObserver | None = None) -> StoredMatch | None:
        """Replay a stored two-player game through the engine (None if there is no such game).

        The rows are read in one transaction and turned into a game record that
        :func:`~ginrummy.record.game_from_record` replays, checking every action and each hand's
        dealer; the seat stored with each action must be the seat the replay says played it.
        ``observe`` sees each deal and each action as it is replayed (the move-by-move replay).
        A game of three or four players is :meth:`load_game`'s.
        """
        stored = self.load_game(game_id, observe=observe)
        if stored is None:
            return None
        if not isinstance(stored.match, Match):
            raise StoreError(f"game {game_id} has {stored.match.seats} players, not two: load it with load_game")
        return StoredMatch(stored.row, stored.match, stored.hands, stored.actions)

    def load_game(self, game_id: str, *, observe: ReplayObserver | None = None) -> StoredGame | None:
        """Replay a stored game of two, three or four players (see :meth:`load_match`)."""
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
                    **stored_pairing(row, h),
                    "deck": [card_str(card) for card in h.deck],
                    "actions": [a.action for a in by_hand[h.hand_no]],
                }
                for h in hands
            ],
        }
        match = game_from_record(record, observe=observe)
        for h, hand, pairing in zip(hands, match.hands, match.pairings, strict=True):
            for a, step in zip(by_hand[h.hand_no], hand.history, strict=True):
                if a.seat != pairing.seats[step.seat]:
                    raise StoreError(
                        f"game {game_id}: action {a.seq} ({a.action!r}) is stored for seat {a.seat}, "
                        f"but seat {pairing.seats[step.seat]} played it on replay"
                    )
        return StoredGame(row, match, hands, actions)

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
                f"({', '.join([PARAM] * len(ids))}) ORDER BY game_id, hand_no",
                ids,
            ).fetchall()
        by_game: dict[str, list[HandRow]] = {i: [] for i in ids}
        for r in rows:
            by_game[r[0]].append(_hand(r[1:]))
        return [(g, by_game[g.id]) for g in games]


def stored_pairing(row: GameRow, h: HandRow) -> dict[str, Any]:
    """Who played a stored hand, as a record's hand says it. A two-player hand stores its dealer
    (a seat, hand seats being game seats); with three or four players ``dealer`` holds the game
    seat that dealt (``dealt_by``), and the rotation gives the rest: the three-player dealer sits
    out, the four-player game's tables follow from the hand's number. The replay checks it."""
    n = len(row.seats)
    if n == 2:
        return {"dealer": h.dealer}
    if n == 3:
        pairing = three_pairing(h.dealer) if h.dealer in (0, 1, 2) else None
    else:
        pairing = team_round(h.hand_no // 2, row.first_dealer)[h.hand_no % 2]
    if pairing is None:
        raise StoreError(f"game {row.id}: hand {h.hand_no + 1} is stored as dealt by seat {h.dealer}, of 3")
    return {**pairing.to_json(), "dealt_by": h.dealer}


def final_deadwood(hand: Hand) -> list[int]:
    """Each seat's deadwood at the end of a finished hand (after layoffs, as scored), as
    :meth:`Store.end_hand` keeps it."""
    result = hand.result
    assert result is not None
    if result.dead:
        return [deadwood(hand.hands[0]), deadwood(hand.hands[1])]
    assert result.knocker is not None
    dw = [0, 0]
    dw[result.knocker] = result.knocker_deadwood
    dw[1 - result.knocker] = result.defender_deadwood
    return dw


def _loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)


_HAND_COLUMNS = "hand_no, dealer, deck, nonce, result, deadwood, commitment, scheme"


def _hand(r: Sequence[Any]) -> HandRow:
    """A hands row (in :data:`_HAND_COLUMNS` order)."""
    return HandRow(r[0], r[1], json.loads(r[2]), r[3], _loads(r[4]), _loads(r[5]), r[6], r[7])


def _with_seats(c: Any, rows: Sequence[tuple[Any, ...]]) -> list[GameRow]:
    """Game rows (in :data:`GAME_COLUMNS` order) with their seats, read in one query."""
    if not rows:
        return []
    ids = [r[0] for r in rows]
    seats: dict[str, list[SeatRow]] = {i: [] for i in ids}
    for game_id, seat, token_hash, name, player, player_hash in c.execute(
        "SELECT game_id, seat, token_hash, name, player, player_hash FROM seats WHERE game_id IN "
        f"({', '.join([PARAM] * len(ids))}) ORDER BY game_id, seat",
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
            pace=r[9],
        )
        for r in rows
    ]
