"""A live game in memory (:class:`Room`): the engine's game, its seats' connections, its session.

Kept apart from :class:`~ginrummy.web.games.GameService` (which plays rooms) so the message
builders (:mod:`~ginrummy.web.seated`) can read a room without importing the service.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..game import Game
from ..hand import Hand
from ..storage import GameRow
from ..table import Seat, Table
from .cluster import PRESENCE_TTL
from .views import rules_text


def encode(msg: dict[str, Any]) -> str:
    """A message as the text a WebSocket carries (as Starlette's ``send_json`` writes it)."""
    return json.dumps(msg, separators=(",", ":"), ensure_ascii=False)


@dataclass(eq=False)
class Connection:
    """One open WebSocket of a seat; messages go through a queue so broadcasting never awaits.

    Messages wait as text: a state is encoded once however many connections a seat has, and what
    a connection keeps (``last``) is one string."""

    seat: int
    queue: asyncio.Queue[str] = field(default_factory=asyncio.Queue)
    #: The last state sent to it: the same state is not sent twice, so a seat sitting out or at
    #: the other table learns nothing of the pace of play elsewhere.
    last: str | None = None

    def send(self, msg: dict[str, Any]) -> None:
        """Queue a message (an error, a hint, a pong) for this connection."""
        self.queue.put_nowait(encode(msg))

    def send_state(self, text: str, *, asked: bool = False) -> None:
        """Queue a state (text from :func:`encode`), unless it is the one this connection has and
        it was not ``asked`` for."""
        if asked or text != self.last:
            self.last = text
            self.queue.put_nowait(text)


@dataclass
class Room:
    """An active game in memory."""

    row: GameRow
    match: Game
    #: Actions stored so far (the next action's ``seq`` in the store).
    actions: int = 0
    #: Actions stored before the latest deal (each table's ``seq`` counts from there).
    actions_before_deal: int = 0
    #: Nonces and commitments of the hands dealt, by hand number.
    commitments: list[str] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connections: list[set[Connection]] = field(init=False)
    ready: list[bool] = field(init=False)
    #: The computer's turns in progress, by table of the current deal.
    computer_tasks: dict[int, asyncio.Task[None]] = field(default_factory=dict)
    #: Set when the game may have moved on: a computer's turn waiting for the lock tries again at once.
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    #: The latest move at each table, as the other player there may read it.
    lasts: dict[int, dict[str, Any]] = field(default_factory=dict)
    #: The pause before each computer move a person at this table chose (None: the server's own).
    pace: float | None = None
    #: Seats other instances have connections for: instance -> (one flag per seat, when last heard).
    remote: dict[str, tuple[list[int], float]] = field(default_factory=dict)
    #: When this instance last used the room (a request, a connection coming or going): a room
    #: unused for a while leaves memory (:meth:`~ginrummy.web.games.GameService.evict_idle`).
    used: float = field(default_factory=time.monotonic)
    #: Another instance changed the game since this room last read the database (it catches up
    #: before its next change; a change racing the notice is refused by the database and caught up then).
    dirty: bool = False
    #: The rules as sent in every state message: fixed for the game, so worked out once (and shared
    #: by every message, read only).
    rules_json: dict[str, Any] = field(init=False)
    rules_text: list[str] = field(init=False)

    #: The game's session: seats, turns, layouts; each action is stored before it is applied.
    table: Table[Game] = field(init=False)
    #: The score sheet's rows as sent (:meth:`sheet_json`): (the sheet's row, the names, the JSON).
    sheet_cache: list[tuple[Any, tuple[str, ...], dict[str, Any]]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.rules_json = self.match.rules.to_json()
        self.rules_text = rules_text(self.match.rules, self.match.seats)
        n = self.match.seats
        self.table = Table(self.match, [Seat(self.row.names[s], computer=self.is_computer(s)) for s in range(n)])
        self.connections = [set() for _ in range(n)]
        self.ready = self.computers()

    def sheet_json(self, rows: Sequence[Any], build: Callable[[Any], dict[str, Any]]) -> list[dict[str, Any]]:
        """The score sheet's rows as every message sends them, each built by ``build`` once, so a
        state message costs the same in the tenth hand as in the first. A sheet's rows are frozen: a
        corrected sheet has new ones, and a seat renamed builds them again (a row's explanation
        names the players). The rows returned are shared: read only."""
        names = tuple(self.row.names)
        cache = self.sheet_cache
        del cache[len(rows) :]
        out = []
        for i, r in enumerate(rows):
            if i < len(cache) and cache[i][0] is r and cache[i][1] == names:
                out.append(cache[i][2])
                continue
            built = build(r)
            if i < len(cache):
                cache[i] = (r, names, built)
            else:
                cache.append((r, names, built))
            out.append(built)
        return out

    def note_last(self, seat: int) -> None:
        """Keep ``seat``'s move, just made, as the other player at its table may read it (a stock
        card or a knock's face-down discard hidden): what :attr:`last` and the messages show."""
        at = self.match.where(seat)
        assert at is not None
        table, hand_seat = at
        opponent = self.match.current_pairings[table].seats[1 - hand_seat]
        self.lasts[table] = {"seat": seat, "action": self.table.last_seen_by(opponent)}

    @property
    def seats(self) -> int:
        return self.match.seats

    @property
    def last(self) -> dict[str, Any] | None:
        """The latest move of a two-player game, as the other seat may read it."""
        return self.lasts.get(0)

    @property
    def version(self) -> int:
        """Changes with every action and every deal: clients echo it so stale messages are refused."""
        return self.actions + len(self.match.hands)

    def seq(self, table: int | None) -> int:
        """What a seat at ``table`` (None: sitting out) echoes: it changes with every deal and every
        action at that table only, so a move at the other table of a four-player deal does not make
        a person's move stale. With two players it is :attr:`version`."""
        base = self.actions_before_deal + len(self.match.hands)
        if table is None or table >= len(self.match.tables):
            return base
        return base + len(self.match.tables[table].history)

    def seq_of(self, seat: int) -> int:
        at = self.match.where(seat)
        return self.seq(None if at is None else at[0])

    @property
    def hand(self) -> Hand:
        assert self.match.hand is not None
        return self.match.hand

    def is_computer(self, seat: int) -> bool:
        return self.row.seats[seat].computer

    def followed_by(self, instance: str) -> bool:
        """Whether that other instance said lately that it has a connection to this game."""
        seats, heard = self.remote.get(instance, ((), 0.0))
        return any(seats) and time.monotonic() - heard < PRESENCE_TTL

    def online(self, seat: int) -> bool:
        """Whether a person has this seat open here or on another instance heard from lately."""
        if self.connections[seat]:
            return True
        now = time.monotonic()
        return any(seat < len(seats) and seats[seat] and now - t < PRESENCE_TTL for seats, t in self.remote.values())

    def computers(self) -> list[bool]:
        return [self.is_computer(s) for s in range(self.seats)]

    def hand_no(self, table: int) -> int:
        """The stored number (0-based, over every table) of ``table``'s hand in the latest deal."""
        return len(self.match.hands) - len(self.match.tables) + table


def room_connected(room: Room) -> list[bool]:
    """Whether each seat is at the table: a person with a page open (on any instance), a computer always."""
    return [room.online(s) or room.is_computer(s) for s in range(room.seats)]


def shown_sits_out(room: Room, seat: int) -> str:
    """Why a seat that sits a hand out cannot move, with who plays it."""
    names = room.row.names
    plays = " and ".join(f"{names[a]} against {names[b]}" for a, b in (p.seats for p in room.match.current_pairings))
    return f"you sit out this hand: {plays} play it"
