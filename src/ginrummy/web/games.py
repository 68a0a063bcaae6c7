"""Live games: the engine's :class:`~ginrummy.match.Match` for each game, its seats and its log.

The order of every change is fixed, because the issue requires it and players hate lost games:

1. check the message (token, turn, ``seq`` against replays, notation, legality) — nothing changes
   if any check fails;
2. append the action to the store (committed);
3. apply it to the match;
4. queue the new state for every connection of both seats (that is the acknowledgement).

A game not in memory (after a restart) is rebuilt by replaying its log through the engine
(:meth:`~ginrummy.storage.Store.load_match`); the computer is never asked again for a move it
already made.

Several instances may hold the same game (PostgreSQL, :mod:`~ginrummy.web.cluster`): before each
change a room catches up with what the others stored (:meth:`GameService.catch_up`), the
database's primary keys refuse a second writer of the same action or deal (which then catches
up and answers ``stale``), each change is announced to the other instances, and a computer's move
is decided only by the instance holding the game's lock.

What goes to a seat is built from ``match.view(seat).to_json()`` plus public facts (names, score
sheet, who is connected) and facts derived from that seat's own cards (its best melds): never
from the hand's internals, so the other seat's cards, the stock and the face-down knock discard
cannot leak.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..actions import Action, Kind
from ..cards import card_str, cards_of
from ..errors import shown
from ..events import LAYOUT_PHASES, Phase
from ..hand import Hand
from ..match import Match
from ..melds import best_arrangement, deadwood, min_deadwood_after_discard, points
from ..observation import SeatView
from ..rules import Rules
from ..storage import HUMAN, GameRow, SeatRow, Store, Taken, final_deadwood, hash_token
from ..table import Seat, Table
from ..words import computer_name, hand_log
from .cluster import LEAD_RETRY, PRESENCE_TTL, Alone
from .computer import STRENGTHS, ComputerRunner
from .errors import WebError, forbidden, not_found
from .games_cluster import Follower
from .inputs import check_action_text, check_game_id, check_pace, check_seq, choose, clean_name

log = logging.getLogger("ginrummy.web")

@dataclass(eq=False)
class Connection:
    """One open WebSocket of a seat; messages go through a queue so broadcasting never awaits."""

    seat: int
    queue: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)


@dataclass
class Room:
    """An active game in memory."""

    row: GameRow
    match: Match
    #: Actions stored so far (the next action's ``seq`` in the store).
    actions: int = 0
    #: Nonces and commitments of the hands dealt, by hand number.
    commitments: list[str] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connections: list[set[Connection]] = field(default_factory=lambda: [set(), set()])
    ready: list[bool] = field(default_factory=lambda: [False, False])
    computer_task: asyncio.Task[None] | None = None
    last: dict[str, Any] | None = None
    #: The pause before each computer move a person at this table chose (None: the server's own).
    pace: float | None = None
    #: Seats other instances have connections for: instance -> (seats, when last heard).
    remote: dict[str, tuple[list[int], float]] = field(default_factory=dict)
    #: Another instance changed the game since this room last read the database (it catches up
    #: before its next change; a change racing the notice is refused by the database and caught up then).
    dirty: bool = False
    #: The rules as sent in every state message: fixed for the game, so worked out once (and shared
    #: by every message, read only).
    rules_json: dict[str, Any] = field(init=False)
    rules_text: list[str] = field(init=False)

    #: The game's session: seats, turns, layouts; each action is stored before it is applied.
    table: Table[Match] = field(init=False)

    def __post_init__(self) -> None:
        self.rules_json = self.match.rules.to_json()
        self.rules_text = self.match.rules.describe()
        self.table = Table(self.match, [Seat(self.row.names[s], computer=self.is_computer(s)) for s in (0, 1)])

    @property
    def version(self) -> int:
        """Changes with every action and every deal: clients echo it so stale messages are refused."""
        return self.actions + len(self.match.hands)

    @property
    def hand(self) -> Hand:
        assert self.match.hand is not None
        return self.match.hand

    def is_computer(self, seat: int) -> bool:
        return self.row.computer_seat == seat

    def online(self, seat: int) -> bool:
        """Whether a person has this seat open here or on another instance heard from lately."""
        if self.connections[seat]:
            return True
        now = time.monotonic()
        return any(seats[seat] and now - t < PRESENCE_TTL for seats, t in self.remote.values())


class GameService(Follower):
    """Creates, loads, plays and describes games. One per app (its part that follows other
    instances on the same database is :class:`~ginrummy.web.games_cluster.Follower`)."""

    def __init__(
        self,
        store: Store,
        runner: ComputerRunner,
        computer_delay: float = 0.6,
        deck_for: Callable[[int, int], Sequence[int]] | None = None,
        cluster: Alone | None = None,
    ) -> None:
        """``deck_for(hand_no, dealer)``, for tests only, gives each deck instead of a shuffle.
        ``cluster``: the other instances on the same database (none by default)."""
        self.store = store
        self.runner = runner
        self.cluster = cluster or Alone()
        #: Games whose computer moves this instance decides now (holds the lock of).
        self._leading: set[str] = set()
        #: Catch-up tasks started by other instances' messages (kept so they are not collected mid-run).
        self._tasks: set[asyncio.Task[None]] = set()
        self.computer_delay = computer_delay
        self.deck_for = deck_for
        self.rooms: dict[str, Room] = {}
        self._loading: dict[str, asyncio.Lock] = {}

    # ------------------------------------------------------------------ creating

    def create(
        self, *, opponent: str, rules: Rules, names: list[str] | None = None, player: str | None = None
    ) -> tuple[str, list[str]]:
        """A new game with its first hand dealt; returns (game id, the two seat tokens).

        ``names`` are the seats' names in order; an empty or missing one takes the default.

        ``player`` (an identity hash, :mod:`~ginrummy.web.identity`) plays seat 0: the creator.
        """
        choose(opponent, [*STRENGTHS, HUMAN], "opponent")
        game_id = uuid.uuid4().hex[:12]
        tokens = [secrets.token_urlsafe(24), secrets.token_urlsafe(24)]
        seed = secrets.randbits(63)
        computer_seat = None if opponent == HUMAN else 1
        # One name per player everywhere: the person's own (or "Player 1"), never a bare "You" that
        # reads as the other seat's name on the other screen; each page marks its own seat "(you)".
        default = ["Player 1", "Player 2"] if opponent == HUMAN else ["Player 1", computer_name(opponent)]
        given = [clean_name(n, empty_ok=True) for n in (names or [])] + ["", ""]
        seat_names = [given[i] or default[i] for i in range(2)]
        match = Match(rules, seed=seed, players=seat_names)
        self.store.create_game(
            game_id=game_id,
            rules=rules.to_json(),
            seed=seed,
            first_dealer=match.first_dealer,
            seats=[
                SeatRow(
                    s,
                    hash_token(tokens[s]),
                    seat_names[s],
                    opponent if s == computer_seat else HUMAN,
                    player if s == 0 else None,
                )
                for s in range(2)
            ],
        )
        row = self.store.get_game(game_id)
        assert row is not None
        room = Room(row, match)
        self._deal(room)
        self.rooms[game_id] = room
        return game_id, tokens

    def _deal(self, room: Room) -> None:
        """Deal the next hand from a CSPRNG shuffle, storing deck and nonce before anyone sees it."""
        hand_no = len(room.match.hands)
        if self.deck_for is not None:
            deck = list(self.deck_for(hand_no, room.match.next_dealer))
        else:
            deck = list(range(52))
            secrets.SystemRandom().shuffle(deck)
        nonce = secrets.token_hex(16)
        digest = self.store.add_hand(room.row.id, hand_no, room.match.next_dealer, deck, nonce)
        room.match.start_hand(deck)
        room.commitments.append(digest)
        room.ready = [room.is_computer(0), room.is_computer(1)]
        room.last = None  # the last action named a card of the previous deal

    # ------------------------------------------------------------------ loading

    async def room(self, game_id: str) -> Room:
        """The live game, rebuilt from the store if it is not in memory."""
        room = self.rooms.get(game_id)
        if room is not None:
            return room
        check_game_id(game_id)
        lock = self._loading.setdefault(game_id, asyncio.Lock())
        try:
            async with lock:
                room = self.rooms.get(game_id)
                if room is None:
                    room = self.load(game_id)
                    self.rooms[game_id] = room
        finally:
            if not lock.locked():
                self._loading.pop(game_id, None)  # unknown ids must not pile up locks
        return room

    def load(self, game_id: str) -> Room:
        """Replay a stored game through the engine: decks and actions, no decisions."""
        stored = self.store.load_match(game_id)
        if stored is None:
            raise not_found(f"no game {shown(game_id)}")
        room = Room(stored.row, stored.match)
        room.commitments = [h.commitment for h in stored.hands]
        room.actions = len(stored.actions)
        room.pace = stored.row.pace
        self._load_ready(room)
        return room

    def _load_ready(self, room: Room) -> None:
        """The seats ready for the next hand, as stored (a computer always is)."""
        ready: list[int] = []
        if room.match.hand is not None and room.match.hand.is_over:
            ready = self.store.ready(room.row.id, len(room.match.hands) - 1)
        room.ready = [room.is_computer(s) or s in ready for s in (0, 1)]

    def seat_of(self, room: Room, token: Any) -> int:
        """The seat whose secret this is; refuse anything else."""
        if not token:
            raise forbidden()
        if not isinstance(token, str):
            raise forbidden("the seat's token must be text")
        h = hash_token(token)
        for seat in (0, 1):
            if secrets.compare_digest(h, room.row.token_hashes[seat]):
                return seat
        raise forbidden("this link's seat token belongs to no seat of this game: open the link you were given")

    def claim(self, room: Room, seat: int, player: str) -> None:
        """The identity that acts for a person's seat plays it from now on (once: the first one keeps it)."""
        if room.is_computer(seat) or room.row.seats[seat].player_hash is not None:
            return
        if self.store.claim_seat(room.row.id, seat, player):
            self._reload_row(room)

    def share(self, room: Room, shared: bool) -> None:
        """Open a game to everyone (replay, record, public facts), or close it again."""
        self.store.set_shared(room.row.id, shared)
        self._reload_row(room)

    def visible(self, room: Room, player: str) -> bool:
        """Whether this identity may see the game's public facts: a player of it, or anyone once shared."""
        return room.row.shared or room.row.seat_of_player(player) is not None

    def _reload_row(self, room: Room) -> None:
        row = self.store.get_game(room.row.id)
        assert row is not None
        room.row = row

    # ------------------------------------------------------------------ playing

    async def act(self, room: Room, seat: int, text: Any, seq: Any) -> None:
        """A person's action. Raises (and changes nothing) if it is stale, out of turn or illegal."""
        async with room.lock:
            self._follow(room)
            self._check_fresh(room, seq)
            text = check_action_text(text)
            if room.match.is_over:
                raise WebError(409, "game_over", "the game is over: start a new game from the Play page")
            hand = room.hand
            if hand.is_over:
                raise WebError(409, "hand_over", "the hand is over: deal the next hand first")
            if hand.current != seat:
                raise WebError(409, "not_your_turn", f"it is not your turn: wait for {room.row.names[1 - seat]} to play")
            action = Action.parse(text)
            self._play(room, seat, action)
        self.kick_computer(room, fresh=True)
        self.broadcast(room)

    async def auto(self, room: Room, seat: int, seq: Any) -> None:
        """Lay out (or defend) with the engine's best choice for this seat: the rules' "offer it automatically"."""
        async with room.lock:
            self._follow(room)
            self._check_fresh(room, seq)
            hand = room.hand
            if hand.is_over or hand.current != seat:
                raise WebError(409, "not_your_turn", "it is not your turn to lay out your melds")
            if hand.phase not in LAYOUT_PHASES:
                raise WebError(409, "not_layout", "the best layout is offered only after a knock, to lay out the melds")
            self._play_all(room, seat, room.table.lay_out)
        self.kick_computer(room, fresh=True)
        self.broadcast(room)

    async def next_hand(self, room: Room, seat: int) -> None:
        """A seat is ready for the next hand; deal when both are (a computer always is)."""
        async with room.lock:
            self._follow(room)
            if room.match.is_over:
                raise WebError(409, "game_over", "the game is over: start a new game from the Play page")
            if not room.hand.is_over:
                return  # a double click, or the other seat already started it
            ready = self.store.set_ready(room.row.id, len(room.match.hands) - 1, seat)
            room.ready = [room.is_computer(s) or s in ready for s in (0, 1)]
            if all(room.ready):
                try:
                    self._deal(room)
                except Taken:  # another instance dealt it first
                    room.dirty = True
                    self._sync(room)
        self.kick_computer(room, fresh=True)
        self.broadcast(room)

    def _check_fresh(self, room: Room, seq: Any) -> None:
        seq = check_seq(seq)
        if seq != room.version:
            raise WebError(
                409,
                "stale",
                f"the game moved on before this move arrived (it answered move {seq}, the game is at move "
                f"{room.version}): the table now shows where the game is",
            )

    def _play(self, room: Room, seat: int, action: Action) -> None:
        """Verify, store, apply: the log is written before anyone is told."""
        self._play_all(room, seat, lambda s: [room.table.act(s, action)])

    def _play_all(self, room: Room, seat: int, play: Callable[[int], object]) -> None:
        """Run ``play(seat)`` on the room's table, storing each action before it is applied."""
        hand = room.hand
        hand_no = len(room.match.hands) - 1

        def store(s: int, action: Action) -> None:
            self.store.append_action(room.row.id, room.actions, hand_no, s, str(action))
            room.actions += 1

        room.table.before = store
        before = room.actions
        try:
            # One transaction: a layout's several actions, and the hand's and the game's end with
            # the last one, are stored together or not at all (an instance dying between them
            # cannot leave a hand over in the log but not in the hands).
            with self.store.connection():
                play(seat)
                if room.actions != before:
                    # The last step as the other seat may read it (a stock card or knock discard hidden).
                    room.last = {"seat": seat, "action": room.table.last_seen_by(1 - seat)}
                if hand.is_over:
                    self._hand_over(room, hand, hand_no)
        except BaseException as e:
            room.table.before = None
            if room.actions != before or isinstance(e, Taken):
                self._rebuild(room)  # what this room applied was rolled back: follow the log again
                self._tell_here(room)
            if isinstance(e, Taken):
                # Another instance stored this step first: say the move came too late.
                raise WebError(
                    409, "stale", "the game moved on before this move arrived: the table now shows where the game is"
                ) from None
            raise
        finally:
            room.table.before = None

    def _hand_over(self, room: Room, hand: Hand, hand_no: int) -> None:
        assert hand.result is not None
        self.store.end_hand(room.row.id, hand_no, hand.result.to_json(), final_deadwood(hand))
        if room.match.is_over:
            self.store.finish_game(room.row.id, room.match.final().to_json())
            self._reload_row(room)
        room.ready = [room.is_computer(0), room.is_computer(1)]

    async def set_pace(self, room: Room, seat: int, seconds: Any) -> None:
        """A person sets the pause before each computer move at their table (None: the server's)."""
        pace = check_pace(seconds)
        if room.is_computer(seat):
            raise forbidden("the computer does not set its own pace")
        room.pace = pace
        if self.cluster.shared:  # the instance deciding the computer's moves may be another one
            self.store.set_pace(room.row.id, pace)
            self.broadcast(room)

    async def set_name(self, room: Room, seat: int, name: Any) -> None:
        """A seat names itself (a friend joining by link): stored with the seat, shown to both."""
        clean = clean_name(name)
        if room.is_computer(seat):
            raise forbidden("the computer's name cannot be changed")
        async with room.lock:
            self._follow(room)
            self.store.set_name(room.row.id, seat, clean)
            self._reload_row(room)
            room.table.seats[seat].name = clean
        self.broadcast(room)

    # ------------------------------------------------------------------ the computer

    def kick_computer(self, room: Room, *, fresh: bool = False) -> None:
        """Start the computer's turn in the background if it is its move (or its deal); ``fresh``:
        this room has just stored the game's newest change itself."""
        if room.row.computer_seat is None:
            return
        if room.computer_task is not None and not room.computer_task.done():
            return
        if not self._computer_to_move(room):
            return
        if self.cluster.shared:
            # Take the lock now, before the other instances hear of the move: the instance a person
            # plays on answers them itself (no hop between instances) when the lock is free.
            self._take_lead(room, fresh=fresh)
        room.computer_task = asyncio.create_task(self._computer_loop(room))

    def _computer_to_move(self, room: Room) -> bool:
        h = room.match.hand
        return h is not None and not h.is_over and h.current == room.row.computer_seat

    async def _computer_loop(self, room: Room) -> None:
        """The computer's moves while it is to move. With other instances holding the game, only
        the one holding the game's lock decides; the others try again every :data:`LEAD_RETRY`
        seconds (and so take over when the holder dies), catching up with its moves meanwhile."""
        seat = room.row.computer_seat
        assert seat is not None
        gid = room.row.id
        try:
            while True:
                async with room.lock:
                    leading = self._take_lead(room)
                    changed = self._sync(room)
                    if not self._computer_to_move(room):
                        if changed:
                            self._tell_here(room)
                        return
                    version = room.version
                    view = room.match.view(seat)
                if changed:
                    self._tell_here(room)
                if not leading:
                    await asyncio.sleep(LEAD_RETRY)
                    continue
                delay = self.computer_delay if room.pace is None else room.pace
                if delay:
                    await asyncio.sleep(delay)
                action = await self.runner.decide(room.row.opponent, view)
                # Not the action itself: a knock's discard is face down.
                log.info("game %s: the computer decided move %d", gid, version)
                async with room.lock:
                    if room.version != version or not self._computer_to_move(room):
                        continue
                    try:
                        self._play(room, seat, action)
                    except WebError as e:
                        if e.code != "stale":
                            raise
                        continue
                self.broadcast(room)
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - keep the server up; the game resumes on the next message
            log.exception("computer move failed in game %s", gid)
        finally:
            self._leading.discard(gid)
            self.cluster.release(gid)

    async def hint(self, room: Room, seat: int) -> list[dict[str, Any]]:
        async with room.lock:
            if room.hand.is_over or room.hand.current != seat:
                return []
            view = room.match.view(seat)
        return await self.runner.hints(view)

    # ------------------------------------------------------------------ connections

    def connect(self, room: Room, seat: int) -> Connection:
        conn = Connection(seat)
        room.connections[seat].add(conn)
        self._tell_here(room)
        self.cluster.publish(room.row.id, changed=False, connected=self._here(room), hello=True)
        self.kick_computer(room)
        return conn

    def disconnect(self, room: Room, conn: Connection) -> None:
        room.connections[conn.seat].discard(conn)
        self.broadcast(room, changed=False)
        if room.match.is_over and not any(room.connections):
            # A finished game takes no more actions, so dropping it cannot split its log; it reloads on demand.
            self.rooms.pop(room.row.id, None)

    def broadcast(self, room: Room, ref: tuple[Connection, Any] | None = None, *, changed: bool = True) -> None:
        """Queue each seat's own state to each of its connections (two tabs see the same), and
        tell the other instances (``changed``: the game itself changed, not only who is connected)."""
        self._tell_here(room)
        self.cluster.publish(room.row.id, changed=changed, connected=self._here(room))

    def _tell_here(self, room: Room) -> None:
        """Queue each seat's own state to each of this instance's connections of it."""
        for seat in (0, 1):
            conns = room.connections[seat]
            if not conns:
                continue
            msg = self.state(room, seat)
            for c in conns:
                c.queue.put_nowait(msg)

    # ------------------------------------------------------------------ what a seat sees

    def public(self, room: Room) -> dict[str, Any]:
        """Facts both seats (and the history page) may see."""
        m = room.match
        rules = m.rules
        rows = []
        for row in m.sheet.rows:
            rows.append(
                {
                    "hand": row.index + 1,
                    "result": row.result.to_json(),
                    "totals": [list(t) for t in row.totals],
                    # Games this hand was written in and games it closed (0-based), as on a Hollywood sheet.
                    "written": list(row.written),
                    "closed": list(row.closed),
                }
            )
        sheet = m.sheet
        columns = []
        for g in range(sheet.games):
            closer = next((r for r in sheet.rows if g in r.closed), None)
            columns.append(
                {
                    "game": g + 1,
                    "scores": list(sheet.game_scores(g)),
                    "open": sheet.game_open(g),
                    "winner": closer.result.winner if closer is not None else None,
                    "closed_by": closer.index + 1 if closer is not None else None,
                }
            )
        final = None
        if m.is_over:
            f = m.final()
            final = {**f.to_json(), "explain": f.explain(tuple(room.row.names))}
        return {
            "id": room.row.id,
            "names": list(room.row.names),
            "opponent": room.row.opponent,
            "computer_seat": room.row.computer_seat,
            "rules": room.rules_json,
            "rules_text": room.rules_text,
            "status": "finished" if m.is_over else "playing",
            "shared": room.row.shared,
            "hand_no": len(m.hands),
            "deck_hash": room.commitments[-1] if room.commitments else None,
            "ready": list(room.ready),
            "connected": [room.online(0) or room.is_computer(0), room.online(1) or room.is_computer(1)],
            "scores": list(m.scores),
            "hands_won": list(m.sheet.hands_won),
            "games": m.sheet.games,
            "hollywood": rules.hollywood,
            #: How each hand's knock limit is set (the limit itself is the view's ``knock_limit``).
            "oklahoma": rules.oklahoma,
            "straight_gin": rules.straight_gin,
            #: Every game kept on the sheet (three with Hollywood scoring): totals, open or closed.
            "game_columns": columns,
            "sheet": rows,
            "final": final,
            "last": room.last,
        }

    def state(self, room: Room, seat: int) -> dict[str, Any]:
        """The whole state message for one seat."""
        view = room.match.view(seat)
        out = {
            "type": "state",
            "seq": room.version,
            "seat": seat,
            "game": self.public(room),
            "view": view.to_json(),
            "mine": {**_mine(view), "plan": _plan(view, room.table.layout_plan(seat))},
            "knock": _knock(view),
            "explain": None,
        }
        names = (room.row.names[0], room.row.names[1])
        # The hand's moves in the rule documents' words, as this seat may read them.
        log = hand_log(view.events, names, _knocker_count(view))
        out["log"] = [{"seat": e.seat, "text": text} for e, text in zip(view.events, log, strict=True)]
        if view.result is not None:
            out["explain"] = view.result.explain(names)
        return out


def _knocker_count(view: SeatView) -> int | None:
    """The knocker's deadwood when this seat may know it: once the hand is scored, or its own knock."""
    if view.result is not None:
        return None if view.result.dead else view.result.knocker_deadwood
    if view.knocker == view.seat:
        return deadwood(view.hand)
    return None


def _mine(view: SeatView) -> dict[str, Any]:
    """Facts computed from the seat's own cards only: best melds, deadwood, and after the best discard."""
    hand = view.hand
    dw, melds = best_arrangement(hand)
    after = min_deadwood_after_discard(hand) if hand.bit_count() > 10 else None
    melded = 0
    for m in melds:
        melded |= m
    after_each = (
        {card_str(c): deadwood(hand & ~(1 << c)) for c in cards_of(hand)} if hand.bit_count() > 10 else None
    )
    return {
        "deadwood": dw,
        "after": after_each,
        "melds": [[card_str(c) for c in cards_of(m)] for m in melds],
        "deadwood_cards": [card_str(c) for c in cards_of(hand & ~melded)],
        "after_discard": after,
    }


def _plan(view: SeatView, actions: list[Action]) -> dict[str, Any] | None:
    """The default layout this seat would play now (the engine's plan, from its own view), shown at
    once after a knock for the person to accept or change: the melds and layoffs still to come, and
    the deadwood the seat is left with. None when the seat is not laying out."""
    if not actions:
        return None
    melds = [a.meld for a in actions if a.kind is Kind.MELD]
    layoffs = [(a.card, a.target) for a in actions if a.kind is Kind.LAYOFF]
    rest = view.hand
    for m in (*melds, *(view.knocker_melds if view.knocker == view.seat else view.defender_melds)):
        rest &= ~m
    for c, _ in (*view.layoffs, *layoffs):  # the defender's (a knocker never lays off)
        rest &= ~(1 << c)
    return {
        "actions": [str(a) for a in actions],
        "melds": [[card_str(c) for c in cards_of(m)] for m in melds],
        "layoffs": [{"card": card_str(c), "meld": t} for c, t in layoffs],
        "deadwood": points(rest),
        "deadwood_cards": [card_str(c) for c in cards_of(rest)],
    }


def _knock(view: SeatView) -> dict[str, Any] | None:
    """What this seat knows of the knock: its kind (``gin``, ``big_gin``, ``knock``; None while the
    other seat's layout does not yet show it) and the knocker's count once it is face up (the
    knocker's own at once). From the view only: the knocker's hand is face up once laid out."""
    if view.knocker is None:
        return None
    mine = view.knocker == view.seat
    if view.result is not None:
        r = view.result
        kind = "gin" if r.kind == "gin" else "big_gin" if r.kind == "big_gin" else "knock"
        return {"kind": kind, "deadwood": r.knocker_deadwood}
    cards = view.hand if mine else view.opponent_known
    size = cards.bit_count() if mine else view.opponent_size
    if size == 11:
        return {"kind": "big_gin", "deadwood": 0}
    if mine:
        dw = deadwood(cards)
        return {"kind": "gin" if dw == 0 else "knock", "deadwood": dw}
    if view.phase is Phase.LAYOUT:
        return {"kind": None, "deadwood": None}
    rest = cards
    for m in view.knocker_melds:
        rest &= ~m
    dw = points(rest)
    return {"kind": "gin" if dw == 0 else "knock", "deadwood": dw}


async def close_rooms(service: GameService) -> None:
    """Stop computer tasks (server shutdown); the store already holds everything."""
    for room in service.rooms.values():
        if room.computer_task is not None:
            room.computer_task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await room.computer_task
