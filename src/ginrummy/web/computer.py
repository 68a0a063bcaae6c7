"""Computer moves and hints, computed off the server's event loop.

Why a process pool by default: the players are pure Python, so running them in threads would
still hold the GIL and stall every other game's messages while an ``expert`` thinks. Worker
processes keep the event loop free; ``thread`` mode exists for tests (no start-up cost) and
``inline`` for debugging. The quick players (:data:`QUICK`: well under a millisecond a
decision) decide on the event loop in every mode: sending a view to a worker and back costs
more than their decision, and waits for a core.

A player only ever receives a :class:`~ginrummy.observation.SeatView` (it cannot see hidden
cards), and a fresh player is made for each decision: what it decides is then a function of the
view alone, so nothing is lost when the server restarts and the game is resumed from its log.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import multiprocessing
import os
from typing import Any, Literal

from ..actions import Action
from ..observation import SeatView
from ..players import PLAYERS, get_player
from ..players.hints import rank_actions
from ..words import action_words

Mode = Literal["process", "thread", "inline"]

#: Strengths offered to people, weakest first (names of ``ginrummy.players``).
STRENGTHS: tuple[str, ...] = ("random", "easy", "simple", "greedy", "expert")


#: Players that decide on the event loop: about 30 µs a decision, p99 about 0.1 ms
#: (``bench/decisions.py``).
QUICK = frozenset({"random", "easy", "simple", "greedy"})


def decide(name: str, view: SeatView) -> int:
    """One decision of the named player, as the action's integer (cheap to send between processes).

    A player bug must not stop a person's game: an action outside ``view.legal`` is replaced by
    the ``simple`` player's choice.
    """
    player = get_player(name)
    player.new_hand(view.seat)
    action = player.decide(view)
    if action not in view.legal:
        fallback = get_player("simple")
        fallback.new_hand(view.seat)
        action = fallback.decide(view)
    return int(action)


def hints(view: SeatView, limit: int = 3) -> list[dict[str, Any]]:
    """The computer's ranked suggestions for a seat, from its own view."""
    top = view.pile[-1] if view.pile else None
    return [
        {"action": str(a), "words": action_words(a, top), "value": round(float(v), 3), "reason": str(r)}
        for a, v, r in rank_actions(view)[:limit]
    ]


def _watch_parent(parent: int) -> None:
    """Worker initializer: exit when the server process is gone (even killed with SIGKILL).

    Without this, workers of a killed server linger as orphans holding its pipes open.
    """
    import threading
    import time

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, daemon=True, name="parent-watch").start()


def _warm() -> int:
    """Import the players in a fresh worker so the first real decision is not slow."""
    return len(PLAYERS)


class ComputerRunner:
    """Runs decisions and hints away from the event loop."""

    def __init__(self, mode: Mode = "process", workers: int | None = None) -> None:
        self.mode = mode
        self._pool: concurrent.futures.Executor | None = None
        if mode == "process":
            ctx = multiprocessing.get_context("spawn")
            self._pool = concurrent.futures.ProcessPoolExecutor(
                max_workers=workers or 2, mp_context=ctx, initializer=_watch_parent, initargs=(os.getpid(),)
            )
            for _ in range(workers or 2):
                self._pool.submit(_warm)
        elif mode == "thread":
            self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=workers or 4)

    async def decide(self, name: str, view: SeatView) -> Action:
        if self._pool is None or name in QUICK:
            return Action.from_int(decide(name, view))
        loop = asyncio.get_running_loop()
        n = await loop.run_in_executor(self._pool, decide, name, view)
        return Action.from_int(n)

    async def hints(self, view: SeatView) -> list[dict[str, Any]]:
        if self._pool is None:
            return hints(view)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, hints, view)

    def close(self) -> None:
        if self._pool is not None:
            # Wait, so worker processes have exited before the server does (no orphans).
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
