"""Live games: the engine's game (:class:`~ginrummy.match.Match`, or a :class:`~ginrummy.game.Game`
of three or four) for each game, its seats and its log.

The order of every change is fixed, because the issue requires it and players hate lost games:

1. check the message (token, turn, ``seq`` against replays, notation, legality) — nothing changes
   if any check fails;
2. append the action to the store (committed);
3. apply it to the match;
4. queue the new state for every connection of every seat (that is the acknowledgement).

A game not in memory (after a restart) is rebuilt by replaying its log through the engine
(:meth:`~ginrummy.storage.Store.load_game`); the computer is never asked again for a move it
already made. So a game nobody has open here for :data:`ROOM_IDLE` seconds leaves memory
(:meth:`GameService.evict_idle`): a server that runs for weeks holds the games being played, not
every game ever started and left.

Several instances may hold the same game (PostgreSQL, :mod:`~ginrummy.web.cluster`): before each
change a room catches up with what the others stored (:meth:`GameService.catch_up`), the
database's primary keys refuse a second writer of the same action or deal (which then catches
up and answers ``stale``), each change is announced to the other instances that follow the game
(:meth:`~ginrummy.web.games_cluster.Follower.others_follow`), and a computer's move
is decided only by the instance holding the game's lock.

What goes to a seat is built from ``match.view(seat).to_json()`` plus public facts (names, score
sheet, who is connected) and facts derived from that seat's own cards (its best melds): never
from the hand's internals, so the other seat's cards, the stock and the face-down knock discard
cannot leak. Games of three or four players send the messages of :mod:`~ginrummy.web.seated`
(a seat sitting a hand out, or at the other table, is sent nothing of that hand until it ends);
two-player messages are as they always were.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
import uuid
from collections.abc import Callable, Sequence
from typing import Any

from ..actions import Action
from ..errors import shown
from ..events import LAYOUT_PHASES
from ..game import Game
from ..hand import Hand
from ..match import Match
from ..rules import Rules
from ..storage import HUMAN, SeatRow, Store, Taken, final_deadwood, hash_token
from ..words import computer_name, hand_log
from . import seated
from .cluster import Alone
from .computer import STRENGTHS, ComputerRunner
from .errors import WebError, forbidden, not_found
from .games_cluster import Follower
from .games_computer import ComputerTurns
from .inputs import check_action_text, check_game_id, check_pace, check_seq, choose, clean_name
from .room import Connection, Room, encode, room_connected, shown_sits_out
from .views import game_columns, knock, knocker_count, mine, plan

log = logging.getLogger("ginrummy.web")

#: Seconds a room stays in memory with nobody using it here (no connection, no computer turn, no
#: request): a page reloaded or a phone back from sleep finds it still there; later it is replayed
#: from the store.
ROOM_IDLE = 60.0
#: Seconds between looks for such rooms.
ROOM_SWEEP_EVERY = 15.0


class GameService(ComputerTurns, Follower):
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
        self,
        *,
        opponent: str | None = None,
        rules: Rules,
        names: list[str] | None = None,
        player: str | None = None,
        others: Sequence[str] | None = None,
    ) -> tuple[str, list[str]]:
        """A new game with its first deal made; returns (game id, the seat tokens in seat order).

        ``others`` says who plays each seat after the creator's (1 to 3 of them: two, three or
        four players), each :data:`~ginrummy.storage.HUMAN` or a computer strength; ``opponent``
        is the one other seat of a two-player game (``others`` left out). ``names`` are the seats'
        names in order; an empty or missing one takes the default.

        ``player`` (an identity hash, :mod:`~ginrummy.web.identity`) plays seat 0: the creator.
        """
        if others is None:
            others = [opponent if opponent is not None else "simple"]
        kinds = [HUMAN, *(choose(o, [*STRENGTHS, HUMAN], f"seat {i + 2}") for i, o in enumerate(others))]
        n = len(kinds)
        if n not in (2, 3, 4):
            raise WebError(400, "malformed", f"a game has two, three or four players, not {n}")
        game_id = uuid.uuid4().hex[:12]
        tokens = [secrets.token_urlsafe(24) for _ in range(n)]
        seed = secrets.randbits(63)
        # One name per player everywhere: the person's own (or "Player 1"), never a bare "You" that
        # reads as the other seat's name on the other screen; each page marks its own seat "(you)".
        plain = [f"Player {s + 1}" if k == HUMAN else computer_name(k) for s, k in enumerate(kinds)]
        # Two computers of one strength: "Computer (Medium)" and "Computer (Medium) 2".
        default = [d if plain.index(d) == s else f"{d} {plain[:s].count(d) + 1}" for s, d in enumerate(plain)]
        given = [clean_name(nm, empty_ok=True) for nm in (names or [])] + [""] * n
        seat_names = [given[i] or default[i] for i in range(n)]
        match: Game = Match(rules, seed=seed, players=seat_names) if n == 2 else Game(rules, players=seat_names, seed=seed)
        with self.store.connection():  # the game, its seats and its first deal: one transaction
            self.store.create_game(
                game_id=game_id,
                rules=rules.to_json(),
                seed=seed,
                first_dealer=match.first_dealer,
                seats=[
                    SeatRow(s, hash_token(tokens[s]), seat_names[s], kinds[s], player if s == 0 else None)
                    for s in range(n)
                ],
            )
            row = self.store.get_game(game_id)
            assert row is not None
            room = Room(row, match)
            self._deal(room)
        self.rooms[game_id] = room
        return game_id, tokens

    def _deal(self, room: Room) -> None:
        """Deal the next deal (one hand per table) from CSPRNG shuffles, storing each deck and nonce
        before anyone sees it. A two-player hand stores its dealer, a bigger game's the game seat
        that deals (the rotation gives who plays: :func:`~ginrummy.storage.Store.load_game`)."""
        decks: list[Sequence[int] | None] = []
        digests = []
        with self.store.connection():  # one transaction: a deal's tables are stored together (or Taken)
            for t, p in enumerate(room.match.next_pairings):
                hand_no = len(room.match.hands) + t
                dealer = p.dealer if room.seats == 2 else p.dealt_by
                if self.deck_for is not None:
                    deck = list(self.deck_for(hand_no, dealer))
                else:
                    deck = list(range(52))
                    secrets.SystemRandom().shuffle(deck)
                nonce = secrets.token_hex(16)
                digests.append(self.store.add_hand(room.row.id, hand_no, dealer, deck, nonce))
                decks.append(deck)
        room.actions_before_deal = room.actions
        room.table.deal(decks)
        room.commitments.extend(digests)
        room.ready = room.computers()
        room.lasts = {}  # the last action named a card of the previous deal

    # ------------------------------------------------------------------ loading

    async def room(self, game_id: str) -> Room:
        """The live game as stored now, rebuilt from the store if it is not in memory."""
        room = self.rooms.get(game_id)
        if room is not None:
            room.used = time.monotonic()
            if self.cluster.shared and not any(room.connections):
                # Nobody tells this instance of a game it has no connection to: read it again.
                async with room.lock:
                    self._follow(room)
            return room
        check_game_id(game_id)
        lock = self._loading.setdefault(game_id, asyncio.Lock())
        try:
            async with lock:
                room = self.rooms.get(game_id)
                if room is None:
                    room = self.load(game_id)
                    self.rooms[game_id] = room
                room.used = time.monotonic()
        finally:
            if not lock.locked():
                self._loading.pop(game_id, None)  # unknown ids must not pile up locks
        return room

    def load(self, game_id: str) -> Room:
        """Replay a stored game through the engine: decks and actions, no decisions."""
        stored = self.store.load_game(game_id)
        if stored is None:
            raise not_found(f"no game {shown(game_id)}")
        room = Room(stored.row, stored.match)
        room.commitments = [h.commitment for h in stored.hands]
        room.actions = len(stored.actions)
        room.actions_before_deal = room.actions - sum(len(h.history) for h in stored.match.tables)
        room.pace = stored.row.pace
        for table in range(len(room.match.tables)):  # each table's latest move, as when it was made
            last = next((a for a in reversed(stored.actions) if a.hand_no == room.hand_no(table)), None)
            if last is not None:
                room.note_last(last.seat)
        self._load_ready(room)
        return room

    def _load_ready(self, room: Room) -> None:
        """The seats ready for the next hand, as stored (a computer always is)."""
        ready: list[int] = []
        if room.match.tables and not room.match.in_progress:
            ready = self.store.ready(room.row.id, len(room.match.hands) - 1)
        room.ready = [room.is_computer(s) or s in ready for s in range(room.seats)]

    def seat_of(self, room: Room, token: Any) -> int:
        """The seat whose secret this is; refuse anything else."""
        if not token:
            raise forbidden()
        if not isinstance(token, str):
            raise forbidden("the seat's token must be text")
        h = hash_token(token)
        for seat in range(room.seats):
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
            self._check_fresh(room, seat, seq)
            text = check_action_text(text)
            if room.match.is_over:
                raise WebError(409, "game_over", "the game is over: start a new game from the Play page")
            hand, hand_seat, opponent = self._seat_hand(room, seat)
            if hand.is_over:
                if room.match.in_progress:
                    raise WebError(409, "hand_over", "your hand is over: the other table is still playing its hand")
                raise WebError(409, "hand_over", "the hand is over: deal the next hand first")
            if hand.current != hand_seat:
                raise WebError(409, "not_your_turn", f"it is not your turn: wait for {room.row.names[opponent]} to play")
            action = Action.parse(text)
            self._play_raced(room, seat, lambda s: [room.table.act(s, action)])
        self.kick_computer(room, fresh=True)
        self.broadcast(room)

    def _seat_hand(self, room: Room, seat: int) -> tuple[Hand, int, int]:
        """The hand ``seat`` plays in the latest deal, its hand seat there and its opponent's game
        seat; refused (409) for a seat that sits this hand out."""
        at = room.match.where(seat)
        if at is None:
            raise WebError(409, "sits_out", shown_sits_out(room, seat))
        table, hand_seat = at
        return room.match.tables[table], hand_seat, room.match.current_pairings[table].seats[1 - hand_seat]

    async def auto(self, room: Room, seat: int, seq: Any) -> None:
        """Lay out (or defend) with the engine's best choice for this seat: the rules' "offer it automatically"."""
        async with room.lock:
            self._follow(room)
            self._check_fresh(room, seat, seq)
            hand, hand_seat, _ = self._seat_hand(room, seat)
            if hand.is_over or hand.current != hand_seat:
                raise WebError(409, "not_your_turn", "it is not your turn to lay out your melds")
            if hand.phase not in LAYOUT_PHASES:
                raise WebError(409, "not_layout", "the best layout is offered only after a knock, to lay out the melds")
            self._play_raced(room, seat, lambda s: room.table.lay_out(s))
        self.kick_computer(room, fresh=True)
        self.broadcast(room)

    async def next_hand(self, room: Room, seat: int) -> None:
        """A seat is ready for the next hand; deal when every seat is (a computer always is)."""
        async with room.lock:
            self._follow(room)
            if room.match.is_over:
                raise WebError(409, "game_over", "the game is over: start a new game from the Play page")
            if room.match.in_progress:
                return  # a double click, another seat already started it, or a table still plays
            ready = self.store.set_ready(room.row.id, len(room.match.hands) - 1, seat)
            room.ready = [room.is_computer(s) or s in ready for s in range(room.seats)]
            if all(room.ready):
                try:
                    self._deal(room)
                except Taken:  # another instance dealt it first
                    room.dirty = True
                    self._sync(room)
        self.kick_computer(room, fresh=True)
        self.broadcast(room)

    def _check_fresh(self, room: Room, seat: int, seq: Any) -> None:
        seq = check_seq(seq)
        now = room.seq_of(seat)
        if seq != now:
            raise WebError(
                409,
                "stale",
                f"the game moved on before this move arrived (it answered move {seq}, the game is at move "
                f"{now}): the table now shows where the game is",
            )

    def _play_raced(self, room: Room, seat: int, play: Callable[[int], object]) -> None:
        """A person's :meth:`_play_all`, tried again when another instance stored a move at the
        other table of the deal under the same number first (the log numbers every table's moves
        in one row): the room has caught up, and this seat's table has not moved, so the move still
        answers what the person saw; the rules check it again."""
        seen = room.seq_of(seat)
        for attempt in range(3):
            try:
                self._play_all(room, seat, play)
                return
            except WebError as e:
                if e.code != "stale" or attempt == 2 or room.seq_of(seat) != seen:
                    raise

    def _play(self, room: Room, seat: int, action: Action) -> None:
        """Verify, apply, store: the log is written before anyone is told."""
        self._play_all(room, seat, lambda s: [room.table.act(s, action)])

    def _play_all(self, room: Room, seat: int, play: Callable[[int], object]) -> None:
        """Run ``play(seat)`` on the room's table (under the room's lock), then store its writes
        together before anyone is told; if they fail the room follows the log again."""
        at = room.match.where(seat)
        assert at is not None
        table = at[0]
        hand = room.match.tables[table]
        hand_no = room.hand_no(table)

        def store(s: int, action: Action) -> None:
            self.store.append_action(room.row.id, room.actions, hand_no, s, str(action))
            room.actions += 1

        room.table.before = store
        before = room.actions
        try:
            # One step's writes together: a layout's several actions, and the hand's and the
            # game's end with the last one, are stored together or not at all (an instance dying
            # between them cannot leave a hand over in the log but not in the hands).
            with self.store.collect() as writes:
                play(seat)
                if room.actions != before:
                    room.note_last(seat)
                if hand.is_over:
                    self._hand_over(room, hand, hand_no)
            self.store.flush(writes)
            if hand.is_over and room.match.is_over:
                self._reload_row(room)  # the game's row as stored, finished
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
        if not room.match.in_progress:
            room.ready = room.computers()

    async def set_pace(self, room: Room, seat: int, seconds: Any) -> None:
        """A person sets the pause before each computer move at their table (None: the server's)."""
        pace = check_pace(seconds)
        if room.is_computer(seat):
            raise forbidden("the computer does not set its own pace")
        room.pace = pace
        # Stored: the room may leave memory and be replayed, or another instance may decide the
        # computer's moves.
        self.store.set_pace(room.row.id, pace)
        if self.cluster.shared:
            self.broadcast(room)

    async def set_name(self, room: Room, seat: int, name: Any) -> None:
        """A seat names itself (a friend joining by link): stored with the seat, shown to every seat."""
        clean = clean_name(name)
        if room.is_computer(seat):
            raise forbidden("the computer's name cannot be changed")
        async with room.lock:
            self._follow(room)
            self.store.set_name(room.row.id, seat, clean)
            self._reload_row(room)
            room.table.seats[seat].name = clean
        self.broadcast(room)

    # ------------------------------------------------------------------ connections

    def connect(self, room: Room, seat: int) -> Connection:
        """A seat's new connection: told the game as it is now, and announced to the other instances."""
        conn = Connection(seat)
        room.connections[seat].add(conn)
        room.used = time.monotonic()
        self.cluster.publish(room.row.id, changed=False, connected=self._here(room), hello=True)
        self._tell_here(room)
        self.kick_computer(room)
        return conn

    def disconnect(self, room: Room, conn: Connection) -> None:
        room.connections[conn.seat].discard(conn)
        room.used = time.monotonic()
        self.broadcast(room, changed=False)
        self._let_go(room)
        if room.match.is_over and not any(room.connections):
            # A finished game takes no more actions, so dropping it cannot split its log; it reloads on demand.
            self.rooms.pop(room.row.id, None)

    def evict_idle(self, now: float | None = None) -> int:
        """Drop from memory the rooms nobody has used here for :data:`ROOM_IDLE` seconds (no
        connection, no computer turn under way, nothing holding the room's lock) and return how
        many. Everything of a game is in the store before anyone sees it, so nothing is lost:
        the next request replays it (:meth:`room`). Without this every game started and left
        would stay in memory, and the collector's full passes would walk them all."""
        now = time.monotonic() if now is None else now
        idle = [
            room
            for room in self.rooms.values()
            if now - room.used >= ROOM_IDLE
            and not any(room.connections)
            and not room.lock.locked()
            and all(t.done() for t in room.computer_tasks.values())
        ]
        for room in idle:
            del self.rooms[room.row.id]
            self._let_go(room)  # a computer lock it still held goes back to the other instances
        return len(idle)

    async def sweep(self) -> None:
        """Every :data:`ROOM_SWEEP_EVERY` seconds, :meth:`evict_idle`."""
        while True:
            await asyncio.sleep(ROOM_SWEEP_EVERY)
            if n := self.evict_idle():
                log.debug("%d idle games left memory; %d stay", n, len(self.rooms))

    def broadcast(self, room: Room, ref: tuple[Connection, Any] | None = None, *, changed: bool = True) -> None:
        """Queue each seat's own state to each of its connections (two tabs see the same), and
        tell the other instances (``changed``: the game itself changed, not only who is connected)."""
        self._tell_here(room)
        if not changed or self.others_follow(room):
            self.cluster.publish(room.row.id, changed=changed, connected=self._here(room))

    def _tell_here(self, room: Room) -> None:
        """Queue each seat's own state to each of this instance's connections of it, unless that
        connection was last sent the same state (a move at another table changes nothing it sees)."""
        for seat in range(room.seats):
            conns = room.connections[seat]
            if not conns:
                continue
            text = encode(self.state(room, seat))
            for c in conns:
                c.send_state(text)

    # ------------------------------------------------------------------ what a seat sees

    def public(self, room: Room) -> dict[str, Any]:
        """Facts every seat (and the history page) may see."""
        if room.seats != 2:
            return seated.public(room)
        m = room.match
        assert isinstance(m, Match)
        rules = m.rules
        rows = room.sheet_json(
            m.sheet.rows,
            lambda row: {
                "hand": row.index + 1,
                "result": row.result.to_json(),
                "totals": [list(t) for t in row.totals],
                # Games this hand was written in and games it closed (0-based), as on a Hollywood sheet.
                "written": list(row.written),
                "closed": list(row.closed),
            },
        )
        columns = game_columns(m.sheet)
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
            "connected": room_connected(room),
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
        if room.seats != 2:
            return seated.state(room, seat, self.public(room))
        view = room.match.view(seat)
        out = {
            "type": "state",
            "seq": room.version,
            "seat": seat,
            "game": self.public(room),
            "view": view.to_json(),
            "mine": {**mine(view), "plan": plan(view, room.table.layout_plan(seat))},
            "knock": knock(view),
            "explain": None,
        }
        names = (room.row.names[0], room.row.names[1])
        # The hand's moves in the rule documents' words, as this seat may read them.
        log = hand_log(view.events, names, knocker_count(view))
        out["log"] = [{"seat": e.seat, "text": text} for e, text in zip(view.events, log, strict=True)]
        if view.result is not None:
            out["explain"] = view.result.explain(names)
        return out


async def close_rooms(service: GameService) -> None:
    """Stop computer tasks (server shutdown); the store already holds everything."""
    for room in service.rooms.values():
        for task in room.computer_tasks.values():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
