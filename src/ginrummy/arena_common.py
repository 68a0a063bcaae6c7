"""What the arena's two-player and three-/four-player runs share: the Wilson interval, a
player's counts (:class:`Side`), counting a hand and the decision clock, the seeds derived from
the run's seed, and the progress bar.
"""

from __future__ import annotations

import math
import random
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol, TextIO

from .players.driver import Clock
from .scoring import HandResult

Z95 = 1.959963984540054


def wilson(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion ``wins / n`` (default 95%).

    >>> lo, hi = wilson(60, 100)
    >>> round(lo, 3), round(hi, 3)
    (0.502, 0.691)
    >>> wilson(0, 0)
    (0.0, 1.0)
    """
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    z2 = z * z
    denom = 1 + z2 / n
    center = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    return max(0.0, center - half), min(1.0, center + half)


@dataclass
class Side:
    """One player's counts over the whole run (whatever seat it sat in)."""

    wins: int = 0
    points: int = 0  # hand points won (before game, box and shutout bonuses)
    total: int = 0  # final game totals, bonuses included (games mode)
    knocks: int = 0  # hands it won by knocking (not gin)
    gins: int = 0  # gin and big gin
    big_gins: int = 0
    undercuts: int = 0  # hands it won by undercutting the knocker
    undercut_against: int = 0  # its knocks that were undercut
    seconds: float = 0.0
    decisions: int = 0
    slowest: float = 0.0

    def add(self, other: Side) -> None:
        for name in ("wins", "points", "total", "knocks", "gins", "big_gins", "undercuts", "undercut_against",
                     "seconds", "decisions"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.slowest = max(self.slowest, other.slowest)


class HandCounts(Protocol):
    """A run's counts of hands played and dead hands (what :func:`count_hand` adds to)."""

    hands: int
    dead: int


def count_hand(t: HandCounts, result: HandResult, sides: Sequence[Side]) -> None:
    """Count one hand; ``sides[seat]`` is the Side of the player in that seat."""
    t.hands += 1
    if result.winner is None:
        t.dead += 1
        return
    w = sides[result.winner]
    w.points += result.points
    if result.kind == "knock":
        w.knocks += 1
    elif result.kind in ("gin", "big_gin"):
        w.gins += 1
        if result.kind == "big_gin":
            w.big_gins += 1
    elif result.kind == "undercut":
        w.undercuts += 1
        assert result.knocker is not None
        sides[result.knocker].undercut_against += 1


def count_clock(clock: Clock, sides: Sequence[Side]) -> None:
    for seat in (0, 1):
        s = sides[seat]
        s.seconds += clock.seconds[seat]
        s.decisions += clock.decisions[seat]
        s.slowest = max(s.slowest, clock.slowest[seat])


def derived(seed: int, index: int, what: str) -> int:
    """A 63-bit number fixed by (seed, pair index, purpose): deals and player RNGs."""
    return random.Random(f"ginrummy-arena:{seed}:{index}:{what}").getrandbits(63)


class Progress:
    """A one-line progress bar on stderr (only when it is a terminal, unless forced)."""

    def __init__(self, total: int, unit: str, stream: TextIO | None = None, enabled: bool | None = None) -> None:
        self.total = total
        self.unit = unit
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.done = 0
        self.start = time.perf_counter()

    def update(self, n: int) -> None:
        self.done += n
        if not self.enabled:
            return
        frac = self.done / self.total if self.total else 1.0
        width = 30
        filled = int(width * frac)
        elapsed = time.perf_counter() - self.start
        eta = elapsed / frac - elapsed if frac > 0 else 0.0
        self.stream.write(
            f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} {self.unit} "
            f"{elapsed:5.1f}s, {eta:5.1f}s left "
        )
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()


def chunks(n: int, size: int) -> Iterator[list[int]]:
    """The indices 0..n-1 in runs of ``size``: the work one worker process takes at a time."""
    for start in range(0, n, size):
        yield list(range(start, min(n, start + size)))


__all__ = ["Z95", "Clock", "HandCounts", "Progress", "Side", "chunks", "count_clock", "count_hand", "derived", "wilson"]
