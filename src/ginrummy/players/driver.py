"""Play hands and games between two :class:`~ginrummy.players.base.Player` objects.

The driver is the only code that holds both a player and the engine's full state, so it is
where "a player decides from its seat's view only" is enforced: each player is handed its
seat's :class:`~ginrummy.observation.SeatView` and nothing else, and every action it returns
goes through the engine's rule checks (``Hand.apply`` / ``Match.apply``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..actions import Action
from ..events import Phase, Step
from ..hand import Hand
from ..match import Match
from ..observation import observe
from ..scoring import HandResult
from .base import Player

_P_DEAL = Phase.DEAL
_P_OVER = Phase.OVER


# ---------------------------------------------------------------------------------------------
# Playing
# ---------------------------------------------------------------------------------------------


@dataclass
class Clock:
    """Time spent in ``decide`` per seat: total seconds, number of decisions, the slowest one."""

    seconds: list[float] = field(default_factory=lambda: [0.0, 0.0])
    decisions: list[int] = field(default_factory=lambda: [0, 0])
    slowest: list[float] = field(default_factory=lambda: [0.0, 0.0])


Applier = Callable[[Action], Step]


def play_hand(
    hand: Hand,
    players: Sequence[Player],
    *,
    scores: tuple[int, int] = (0, 0),
    apply: Applier | None = None,
    clock: Clock | None = None,
) -> HandResult:
    """Play a dealt hand to its end; ``players[seat]`` plays seat ``seat``.

    Each player is told ``new_hand(seat)`` first and shown its final view (``hand_over``) at the
    end. ``apply`` plays an action on the engine (``Match.apply`` inside a game; by default
    ``hand.apply``), so every action is checked by the rules. ``clock`` accumulates decision
    times per seat.
    """
    if hand.phase is _P_DEAL:
        raise ValueError("deal the hand before playing it")
    do = apply if apply is not None else hand.apply
    for seat in (0, 1):
        players[seat].new_hand(seat)
    if clock is None:
        while hand.phase is not _P_OVER:
            seat = hand.current
            view = observe(hand, seat, scores)
            do(players[seat].decide(view))
    else:
        perf = time.perf_counter
        while hand.phase is not _P_OVER:
            seat = hand.current
            view = observe(hand, seat, scores)
            t0 = perf()
            action = players[seat].decide(view)
            dt = perf() - t0
            clock.seconds[seat] += dt
            clock.decisions[seat] += 1
            if dt > clock.slowest[seat]:
                clock.slowest[seat] = dt
            do(action)
    for seat in (0, 1):
        player = players[seat]
        # Most players keep the base class's empty hook: then no final view is built.
        if getattr(player.hand_over, "__func__", None) is not Player.hand_over:
            player.hand_over(observe(hand, seat, scores))
    assert hand.result is not None
    return hand.result


def play_game(
    match: Match,
    players: Sequence[Player],
    *,
    clock: Clock | None = None,
    deck_for: Callable[[int], Sequence[int]] | None = None,
    max_hands: int = 1000,
) -> None:
    """Play a :class:`~ginrummy.match.Match` to its end; ``players[seat]`` plays seat ``seat``.

    ``deck_for(i)`` gives hand ``i``'s deck order (default: the match's own, from its seed).
    ``max_hands`` guards against a pair of players that never end a game (e.g. gin-only rules
    and dead hand after dead hand).
    """
    n = 0
    while not match.is_over:
        if n >= max_hands:
            raise RuntimeError(f"the game did not end within {max_hands} hands")
        hand = match.start_hand(None if deck_for is None else deck_for(n))
        play_hand(hand, players, scores=match.scores, apply=match.apply, clock=clock)
        n += 1


__all__ = ["Clock", "play_game", "play_hand"]
