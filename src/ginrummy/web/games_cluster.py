"""The part of the game service that follows other app instances on the same database
(:mod:`~ginrummy.web.cluster`): catching a room up from the log, other instances' messages, who
is online, and taking a game's computer lock. Mixed into :class:`~ginrummy.web.games.GameService`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any

from ..actions import Action
from ..storage import Store
from .cluster import Alone

if TYPE_CHECKING:
    from .room import Room

log = logging.getLogger("ginrummy.web")


class Follower:
    """Keeps a service's rooms in step with the other instances; see :mod:`~ginrummy.web.games`."""

    store: Store
    cluster: Alone
    rooms: dict[str, Room]
    #: Games whose computer moves this instance decides now (holds the lock of).
    _leading: set[str]
    #: Catch-up tasks started by other instances' messages (kept so they are not collected mid-run).
    _tasks: set[asyncio.Task[None]]

    # What the service provides (games.GameService).
    def load(self, game_id: str) -> Room:
        raise NotImplementedError

    def _load_ready(self, room: Room) -> None:
        raise NotImplementedError

    def _tell_here(self, room: Room) -> None:
        raise NotImplementedError

    def kick_computer(self, room: Room, *, fresh: bool = False) -> None:
        raise NotImplementedError

    async def catch_up(self, room: Room) -> None:
        """Bring the room up to the database (another instance may have played); no-op alone."""
        if not self.cluster.shared:
            return
        async with room.lock:
            self._follow(room)
        self.kick_computer(room)

    def _follow(self, room: Room) -> None:
        """Catch up (under the room's lock) and show this instance's connections what changed."""
        if self._sync(room):
            self._tell_here(room)

    def _sync(self, room: Room) -> bool:
        """Apply what other instances stored since this room last looked: the game's row (names,
        status, pace), new deals and new actions, replayed through the table (so every rule is
        checked again), and the seats ready. Under the room's lock. Returns whether anything changed."""
        if not self.cluster.shared or not room.dirty:
            return False
        room.dirty = False  # a notice arriving while this reads marks it again
        gid = room.row.id
        try:
            with self.store.connection():  # one transaction: the rows of one moment
                hands, actions = self.store.actions_since(gid, room.actions, len(room.match.hands))
                row = self.store.get_game(gid)
            assert row is not None
            changed = row != room.row
            if changed:
                room.row = row
                room.pace = row.pace
                for s in range(room.seats):
                    room.table.seats[s].name = row.names[s]
            by_no = {h.hand_no: h for h in hands}

            def deal_to(hand_no: int) -> None:
                # Whole deals (one hand per table: two at once with four players), as stored together.
                while len(room.match.hands) <= hand_no:
                    first = len(room.match.hands)
                    deal = [by_no[first + t] for t in range(len(room.match.next_pairings))]
                    room.actions_before_deal = room.actions
                    room.table.deal([h.deck for h in deal])
                    room.commitments.extend(h.commitment for h in deal)
                    room.lasts = {}

            for a in actions:
                deal_to(a.hand_no)
                room.table.act(a.seat, Action.parse(a.action))
                room.actions += 1
                at = room.match.where(a.seat)
                assert at is not None
                table, hand_seat = at
                opponent = room.match.current_pairings[table].seats[1 - hand_seat]
                room.lasts[table] = {"seat": a.seat, "action": room.table.last_seen_by(opponent)}
            if hands and not room.match.in_progress:
                deal_to(max(by_no))
            if actions or hands:
                changed = True
            ready = list(room.ready)
            self._load_ready(room)
            return changed or ready != room.ready
        except Exception:  # noqa: BLE001 - a room that cannot follow the log is rebuilt from it
            log.exception("game %s: replaying another instance's moves failed; reloading it", gid)
            self._rebuild(room)
            return True

    def _rebuild(self, room: Room) -> None:
        """Replay the room from the database in place (its connections and lock stay)."""
        fresh = self.load(room.row.id)
        for name in ("row", "match", "table", "actions", "actions_before_deal", "commitments", "ready", "pace", "lasts"):
            setattr(room, name, getattr(fresh, name))
        room.dirty = False

    def on_message(self, msg: dict[str, Any]) -> None:
        """Another instance's message (on the event loop): who it has connected, and whether the game changed."""
        if msg.get("all"):
            for each in list(self.rooms.values()):
                each.dirty = True
                self._spawn(self.catch_up(each))
            return
        room = self.rooms.get(str(msg.get("g")))
        if room is None:
            return
        if msg.get("s"):
            room.dirty = True
        seats = msg.get("c")
        if isinstance(seats, list) and len(seats) == room.seats:
            before = [room.online(s) for s in range(room.seats)]
            room.remote[str(msg.get("i"))] = ([int(bool(x)) for x in seats], time.monotonic())
            if msg.get("h"):  # a new instance on this game: tell it who is here
                self.cluster.publish(room.row.id, changed=False, connected=self._here(room))
            if not msg.get("s") and before != [room.online(s) for s in range(room.seats)]:
                self._tell_here(room)
        if msg.get("s") and any(room.connections):  # a room nobody watches here catches up when next used
            self._spawn(self.catch_up(room))

    def _spawn(self, work: Any) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def announce(self) -> None:
        """Every few seconds, tell the other instances which seats have connections here."""
        from .cluster import PRESENCE_EVERY

        while True:
            await asyncio.sleep(PRESENCE_EVERY)
            for room in list(self.rooms.values()):
                if any(room.connections):
                    self.cluster.publish(room.row.id, changed=False, connected=self._here(room))

    @staticmethod
    def _here(room: Room) -> list[bool]:
        return [bool(c) for c in room.connections]

    def _take_lead(self, room: Room, *, fresh: bool = False) -> bool:
        """Whether this instance decides the game's computer moves now (taking its lock if free).

        Newly taken, the room reads the database before deciding: the last holder's moves are
        stored before it let go, so this instance never decides a move already decided. Not when
        ``fresh``: this room itself has just stored the newest move (so it has every one before
        it), and nobody stores a computer's move but the lock's holder."""
        gid = room.row.id
        leading = self.cluster.lead(gid)
        if leading and gid not in self._leading:
            self._leading.add(gid)
            if not fresh:
                room.dirty = True
            log.info("game %s: this instance decides the computer's moves", gid)
        return leading
