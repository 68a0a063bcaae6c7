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
from .cluster import PRESENCE_EVERY, Alone

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
        checked again), and the seats ready. Under the room's lock. Returns whether anything changed.

        A room told of a change (``dirty``) reads the database; so does a room with no connection
        here, every time: nobody tells an instance of a game it is not heard to follow
        (:meth:`others_follow`), so such a room may be behind at any time."""
        if not self.cluster.shared or not (room.dirty or not any(room.connections)):
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
                room.note_last(a.seat)
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

    def others_follow(self, room: Room) -> bool:
        """Whether another instance may follow this game, and so must be told of its changes: one
        said lately (within :data:`~ginrummy.web.cluster.PRESENCE_TTL`) that it has a connection to
        it, or this instance has none (it changes a game it does not follow: a new game, a
        computer's move after the person left, and it cannot know who follows).

        An instance with a connection to a game says so when it arrives and every
        :data:`~ginrummy.web.cluster.PRESENCE_EVERY` seconds; an instance holding the game that
        hears of a new follower answers with its own presence and a "read the game again" (it may
        have changed the game before it heard, and so told nobody). Where nobody else follows a
        game (the usual case behind a proxy: a person and the computer on one instance), its moves
        cost no notification."""
        if not self.cluster.shared:
            return False
        return not any(room.connections) or any(room.followed_by(i) for i in room.remote)

    def on_message(self, msg: dict[str, Any]) -> None:
        """Another instance's message (on the event loop): who it has connected, and whether the game changed."""
        if msg.get("all"):
            for each in list(self.rooms.values()):
                each.dirty = True
                self._spawn(self.catch_up(each))
            return
        present = msg.get("p")
        if isinstance(present, list):  # the periodic presence of many games at once
            for item in present:
                if isinstance(item, list) and len(item) == 2:
                    self._heard(str(msg.get("i")), str(item[0]), item[1], changed=False, hello=False)
            return
        self._heard(str(msg.get("i")), str(msg.get("g")), msg.get("c"), changed=bool(msg.get("s")), hello=bool(msg.get("h")))

    def _heard(self, instance: str, game_id: str, seats: Any, *, changed: bool, hello: bool) -> None:
        """One game's news from another instance: the seats it has connections for, and whether the
        game changed (``hello``: its first connection to the game)."""
        room = self.rooms.get(game_id)
        if room is None:
            return
        if changed:
            room.dirty = True
        if isinstance(seats, list) and len(seats) == room.seats:
            before, followed = [room.online(s) for s in range(room.seats)], room.followed_by(instance)
            room.remote[instance] = ([int(bool(x)) for x in seats], time.monotonic())
            if any(room.connections) and (hello or (room.followed_by(instance) and not followed)):
                # A new follower of this game: tell it who is here, and to read the game again
                # (this instance may have changed it before hearing of it, and so told nobody;
                # without a connection here it tells every change, and has nobody to name).
                self.cluster.publish(room.row.id, changed=True, connected=self._here(room))
            if before != [room.online(s) for s in range(room.seats)]:
                self._tell_here(room)
        if changed and any(room.connections):  # a room nobody watches here catches up when next used
            self._spawn(self.catch_up(room))

    def _spawn(self, work: Any) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def announce(self) -> None:
        """Every few seconds, tell the other instances which seats have connections here (many
        games in one message)."""
        while True:
            await asyncio.sleep(PRESENCE_EVERY)
            self.cluster.present([(room.row.id, self._here(room)) for room in list(self.rooms.values()) if any(room.connections)])

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
