"""The part of the game service that plays the computer's turns: a task per table where a
computer is to move, the decision away from the event loop for the slow players
(:mod:`~ginrummy.web.computer`), and with other instances on the database only while this one
holds the game's lock. Mixed into :class:`~ginrummy.web.games.GameService`; hints too.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, Any

from ..actions import Action
from .cluster import LEAD_RETRY, Alone
from .computer import ComputerRunner
from .errors import WebError

if TYPE_CHECKING:
    from .room import Room

log = logging.getLogger("ginrummy.web")


class ComputerTurns:
    """The computer's moves and hints of a service's rooms; see :mod:`~ginrummy.web.games`."""

    cluster: Alone
    runner: ComputerRunner
    computer_delay: float
    _leading: set[str]

    if TYPE_CHECKING:  # what the service provides (games.GameService, games_cluster.Follower)

        def _take_lead(self, room: Room, *, fresh: bool = False) -> bool: ...

        def _sync(self, room: Room) -> bool: ...

        def _tell_here(self, room: Room) -> None: ...

        def broadcast(self, room: Room, ref: Any = None, *, changed: bool = True) -> None: ...

        def _play(self, room: Room, seat: int, action: Action) -> None: ...

    def kick_computer(self, room: Room, *, fresh: bool = False) -> None:
        """Start the computer's turn in the background at each table where it is a computer's move
        (with four players both tables of a deal play at once, each with a task of its own);
        ``fresh``: this room has just stored the game's newest change itself."""
        room.wake.set()  # a computer's turn waiting for another instance's lock tries again now
        for table in range(len(room.match.tables)):
            task = room.computer_tasks.get(table)
            if task is not None and not task.done():
                continue
            if self._computer_to_move(room, table) is None:
                continue
            if self.cluster.shared:
                # Take the game's lock now, before the other instances hear of the move: the
                # instance a person plays on answers them itself (no hop between instances) when
                # the lock is free. One lock per game: its holder plays every table's computer.
                self._take_lead(room, fresh=fresh)
            room.computer_tasks[table] = asyncio.create_task(self._computer_loop(room, table))

    def _computer_to_move(self, room: Room, table: int) -> int | None:
        """The computer seat to move at ``table`` of the latest deal, or None."""
        tables = room.match.tables
        if table >= len(tables) or tables[table].is_over:
            return None
        h = tables[table]
        seat = room.match.current_pairings[table].seats[h.current]
        return seat if room.is_computer(seat) else None

    async def _computer_loop(self, room: Room, table: int) -> None:
        """The computer's moves at ``table`` while a computer is to move there. With other
        instances holding the game, only the one holding the game's lock decides; the others try
        again every :data:`LEAD_RETRY` seconds (and so take over when the holder dies), catching
        up with its moves meanwhile."""
        gid = room.row.id
        try:
            while True:
                async with room.lock:
                    leading = self._take_lead(room)
                    changed = self._sync(room)
                    seat = self._computer_to_move(room, table)
                    if seat is None:
                        if changed:
                            self._tell_here(room)
                        return
                    version = room.seq(table)
                    view = room.match.view(seat)
                if changed:
                    self._tell_here(room)
                if not leading:
                    room.wake.clear()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(room.wake.wait(), LEAD_RETRY)
                    continue
                delay = self.computer_delay if room.pace is None else room.pace
                if delay:
                    await asyncio.sleep(delay)
                action = await self.runner.decide(room.row.seats[seat].player, view)
                # Not the action itself: a knock's discard is face down.
                log.info("game %s: the computer decided move %d at table %d", gid, version, table)
                async with room.lock:
                    if room.seq(table) != version or self._computer_to_move(room, table) != seat:
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
            self._let_go(room, asyncio.current_task())

    def _let_go(self, room: Room, me: asyncio.Task[None] | None = None) -> None:
        """Release the game's lock when no table's computer still plays here (other than ``me``)
        and nobody plays it here: while a person's connection is here, the next computer move is
        decided here too, with no lock to take again (the others catch up by notification)."""
        if any(room.connections) and not room.match.is_over:
            return
        if not any(t is not me and not t.done() for t in room.computer_tasks.values()):
            self._leading.discard(room.row.id)
            self.cluster.release(room.row.id)

    async def hint(self, room: Room, seat: int) -> list[dict[str, Any]]:
        async with room.lock:
            at = room.match.where(seat)
            if at is None:
                return []
            hand = room.match.tables[at[0]]
            if hand.is_over or hand.current != at[1]:
                return []
            view = room.match.view(seat)
        return await self.runner.hints(view)

