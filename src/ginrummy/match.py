"""A game (match) of two-player Gin Rummy played with the engine: hands to the target, dealers.

:class:`Match` deals and plays :class:`~ginrummy.hand.Hand` objects, writes each finished hand on
its :class:`~ginrummy.scoresheet.ScoreSheet` (the pure ledger, shared with the scorekeeper), and
rotates the dealer. Records of a match are written and replayed by :mod:`ginrummy.record`
(``match_to_record`` / ``match_from_record``), which imports this module, never the reverse.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .game import Game, cut_rng, hand_rng
from .hand import Hand
from .rules import Rules
from .scoresheet import ScoreSheet
from .scoring import HandResult

# Kept under their old names for callers of the two-player match.
_hand_rng = hand_rng
_cut_rng = cut_rng


class Match(Game):
    """A two-player game played to the target, hand after hand, with the engine.

    ``first_dealer`` None decides the first dealer per ``rules.first_dealer`` (a cut or a random
    choice) from ``seed``; ``seed`` None picks a fresh one, kept in ``self.seed`` so the match can
    be replayed. Each hand's deck is shuffled from a per-hand RNG derived from the seed. Hand
    seats are game seats; everything else is :class:`~ginrummy.game.Game`'s.

    >>> m = Match(Rules(), first_dealer=0, seed=1)
    >>> h = m.start_hand()
    >>> h.dealer, m.apply('pass').seat, m.scores
    (0, 1, (0, 0))
    """

    sheet: ScoreSheet
    players: tuple[str, str]
    on_hand_end: Callable[[Match, Hand], None] | None

    def __init__(
        self,
        rules: Rules,
        *,
        first_dealer: int | None = None,
        seed: int | None = None,
        players: Sequence[str] = ("Player 1", "Player 2"),
    ) -> None:
        if len(players) != 2:
            raise ValueError("a two-player match needs two player names")
        super().__init__(rules, players=players, first_dealer=first_dealer, seed=seed)

    # -- state ---------------------------------------------------------------------------

    @property
    def results(self) -> list[HandResult]:
        """Finished hands, in order (dead hands included)."""
        return list(self.sheet.results)

    @property
    def scores(self) -> tuple[int, int]:
        """Totals toward the target, boxes excluded (Hollywood: the first game still open)."""
        s = self.sheet.scores
        return (s[0], s[1])

    @property
    def next_dealer(self) -> int:
        """The dealer of the next hand to deal (while a hand is in progress: that hand's dealer)."""
        if self.hand is not None and not self.hand.is_over:
            return self.hand.dealer
        return self._next_dealer

    @property
    def in_progress(self) -> bool:
        """A hand has been dealt and is not finished."""
        return self.hand is not None and not self.hand.is_over


__all__ = ["Match"]
