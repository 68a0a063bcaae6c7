"""A game (match) of two-player Gin Rummy played with the engine: hands to the target, dealers.

:class:`Match` deals and plays :class:`~ginrummy.hand.Hand` objects, writes each finished hand on
its :class:`~ginrummy.scoresheet.ScoreSheet` (the pure ledger, shared with the scorekeeper), and
rotates the dealer. Records of a match are written and replayed by :mod:`ginrummy.record`
(``match_to_record`` / ``match_from_record``), which imports this module, never the reverse.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from .actions import Action
from .dealing import Cut, cut_for_deal, next_dealer
from .errors import IllegalActionError
from .events import Step
from .hand import Hand
from .observation import SeatView
from .rules import Rules
from .scoresheet import FinalResult, ScoreSheet
from .scoring import HandResult


def _hand_rng(seed: int, index: int) -> random.Random:
    """The RNG of hand ``index``: a fixed function of the match seed, so decks are reproducible."""
    return random.Random(f"ginrummy:{seed}:hand:{index}")


def _cut_rng(seed: int) -> random.Random:
    return random.Random(f"ginrummy:{seed}:cut")


class Match:
    """A two-player game played to the target, hand after hand, with the engine.

    ``first_dealer`` None decides the first dealer per ``rules.first_dealer`` (a cut or a random
    choice) from ``seed``; ``seed`` None picks a fresh one, kept in ``self.seed`` so the match can
    be replayed. Each hand's deck is shuffled from a per-hand RNG derived from the seed.

    >>> m = Match(Rules(), first_dealer=0, seed=1)
    >>> h = m.start_hand()
    >>> h.dealer, m.apply('pass').seat, m.scores
    (0, 1, (0, 0))
    """

    def __init__(
        self,
        rules: Rules,
        *,
        first_dealer: int | None = None,
        seed: int | None = None,
        players: Sequence[str] = ("Player 1", "Player 2"),
    ) -> None:
        self.rules = rules
        self.seed: int = seed if seed is not None else random.SystemRandom().randrange(2**63)
        #: Whether the seed was given (a record without one cannot shuffle hands it lacks decks for).
        self.seed_given = seed is not None
        if len(players) != 2:
            raise ValueError("a two-player match needs two player names")
        self.players: tuple[str, str] = (str(players[0]), str(players[1]))
        self.cuts: list[Cut] = []
        if first_dealer is None:
            first_dealer, self.cuts = cut_for_deal(rules, _cut_rng(self.seed))
        if first_dealer not in (0, 1):
            raise ValueError(f"first_dealer must be 0 or 1, not {first_dealer!r}")
        self.first_dealer: int = first_dealer
        self.sheet = ScoreSheet(rules)
        #: Every hand dealt, in order (the current one last).
        self.hands: list[Hand] = []
        self.hand: Hand | None = None
        self._next_dealer = first_dealer
        #: Called with (match, hand) when a hand ends (web app, logs).
        self.on_hand_end: Callable[[Match, Hand], None] | None = None
        #: The kind of record this match writes by default ("game", or "hand" once read from one).
        self.record_kind = "game"

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
    def is_over(self) -> bool:
        return self.sheet.is_over

    @property
    def winner(self) -> int | None:
        return self.sheet.winner

    @property
    def in_progress(self) -> bool:
        """A hand has been dealt and is not finished."""
        return self.hand is not None and not self.hand.is_over

    # -- playing -------------------------------------------------------------------------

    def start_hand(self, deck: Sequence[int] | None = None) -> Hand:
        """Deal the next hand: the given deck order, or one shuffled from the match seed."""
        if self.is_over:
            raise IllegalActionError("the game is over: no more hands are dealt", rule="game_over")
        if self.in_progress:
            raise IllegalActionError("a hand is in progress: finish it before dealing the next", rule="deal")
        h = Hand(self.rules, self._next_dealer)
        if deck is None:
            h.deal(rng=_hand_rng(self.seed, len(self.hands)))
        else:
            h.deal(deck)
        self.hands.append(h)
        self.hand = h
        return h

    def apply(self, action: Action | str | int) -> Step:
        """Play one action on the current hand; a finished hand is written on the sheet."""
        h = self.hand
        if h is None or h.is_over:
            raise IllegalActionError("no hand in progress: deal one with start_hand()", rule="deal")
        step = h.apply(action)
        if h.is_over:
            assert h.result is not None
            self.sheet.add(h.result)
            self._next_dealer = next_dealer(self.rules, h.dealer, h.result)
            if self.on_hand_end is not None:
                self.on_hand_end(self, h)
        return step

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may see of the current hand, with the game score."""
        if self.hand is None:
            raise IllegalActionError("no hand has been dealt yet", rule="deal")
        return self.hand.observation(seat, scores=self.scores)

    def final(self) -> FinalResult:
        """The final result (bonuses, totals, winner, margin). Only once the game is over."""
        return self.sheet.final()


__all__ = ["Match"]
