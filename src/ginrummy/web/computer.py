"""Computer moves and hints, computed off the server's event loop.

Why a process pool by default: the players are pure Python, so running them in threads would
still hold the GIL and stall every other game's messages while an ``expert`` thinks. Worker
processes keep the event loop free; ``thread`` mode exists for tests (no start-up cost) and
``inline`` for debugging.

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

from ..actions import Action, Kind
from ..cards import card_str, cards_of
from ..events import Phase
from ..melds import deadwood
from ..observation import SeatView

Mode = Literal["process", "thread", "inline"]

#: Strengths offered to people, weakest first (names of ``ginrummy.players``).
STRENGTHS: tuple[str, ...] = ("random", "easy", "simple", "greedy", "expert")


def _fallback_decide(view: SeatView) -> Action:
    """A reasonable stand-in while a named player is unavailable: lowest deadwood, knock when allowed."""
    legal = list(view.legal)
    kinds = {a.kind for a in legal}
    if Kind.BIG_GIN in kinds:
        return next(a for a in legal if a.kind is Kind.BIG_GIN)
    if view.phase in (Phase.LAYOUT, Phase.DEFENDER_LAYOUT, Phase.LAYOFF):
        melds = [a for a in legal if a.kind in (Kind.MELD, Kind.LAYOFF)]
        if melds:
            return max(melds, key=lambda a: bin(a.meld).count("1") if a.kind is Kind.MELD else 1)
        return legal[0]
    knocks = [a for a in legal if a.kind is Kind.KNOCK]
    if knocks:
        return min(knocks, key=lambda a: deadwood(view.hand & ~(1 << a.card)))
    discards = [a for a in legal if a.kind is Kind.DISCARD]
    if discards:
        return min(discards, key=lambda a: (deadwood(view.hand & ~(1 << a.card)), -a.card % 13))
    if Kind.PILE in kinds and view.pile:
        top = view.pile[-1]
        if deadwood(view.hand | 1 << top) - 10 < deadwood(view.hand) - 5:
            return next(a for a in legal if a.kind is Kind.PILE)
    for k in (Kind.STOCK, Kind.PASS):
        for a in legal:
            if a.kind is k:
                return a
    return legal[0]


def decide(name: str, view: SeatView) -> int:
    """One decision of the named player, as the action's integer (cheap to send between processes)."""
    try:
        from ..players import get_player

        player = get_player(name)
        player.new_hand(view.seat)
        action = player.decide(view)
    except (ImportError, AttributeError):
        action = _fallback_decide(view)
    if action not in view.legal:
        # A player bug must not stop a person's game: fall back rather than hang.
        action = _fallback_decide(view)
    return int(action)


def hints(view: SeatView, limit: int = 3) -> list[dict[str, Any]]:
    """The computer's ranked suggestions for a seat, from its own view."""
    ranked: list[tuple[Action, float, str]]
    try:
        from ..players.hints import rank_actions

        ranked = [(a, float(v), str(r)) for a, v, r in rank_actions(view)]
    except ImportError:
        ranked = _fallback_rank(view)
    return [{"action": str(a), "value": round(v, 3), "reason": r} for a, v, r in ranked[:limit]]


def _fallback_rank(view: SeatView) -> list[tuple[Action, float, str]]:
    out: list[tuple[Action, float, str]] = []
    best = _fallback_decide(view)
    for a in view.legal:
        if a.kind in (Kind.DISCARD, Kind.KNOCK):
            d = deadwood(view.hand & ~(1 << a.card))
            verb = "knock with" if a.kind is Kind.KNOCK else "discard"
            out.append((a, -float(d) + (0.5 if a.kind is Kind.KNOCK else 0), f"{verb} {card_str(a.card)}: deadwood {d} after"))
        else:
            out.append((a, 1.0 if a == best else 0.0, "suggested" if a == best else ""))
    out.sort(key=lambda t: (t[0] != best, -t[1]))
    return out


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
    try:
        from .. import players  # noqa: F401
    except ImportError:
        pass
    return len(cards_of(7))


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
        if self._pool is None:
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
