"""Who deals and who plays each hand: the dealer rules for two, three and four players.

- Two players: after each hand the rule set's ``next_dealer`` (the hand's winner, its loser, or
  taking turns); the same dealer after a dead hand (:func:`next_dealer`).
- Three players (seed 000, "Other ways to play"): the dealer deals to the other two and sits
  the hand out; the loser of each hand deals the next, so the winner stays and meets the player
  who just dealt; after a dead hand the same dealer deals again, so the same two play again
  (:func:`three_pairing`, :func:`three_next_dealer`). ``rules.next_dealer`` does not apply.
- Four players in two teams, seats 0 and 2 (A and C) against 1 and 3 (B and D): each hand is
  two tables of ordinary two-player hands, one player of each team at each; partners switch
  opponents every hand, A-B and C-D, then A-D and C-B, and so on (:func:`team_round`). The
  seed does not say who deals: here the teams take turns, the first dealer's team dealing at
  both tables first (each player deals every other hand, each pairing alternates its dealer). A
  dead hand at one table scores 0 there and is not played again.
- The first dealer (any number of players): by cut or at random, per ``rules.first_dealer``
  (:func:`cut_for_deal`).

A hand of a bigger game is an ordinary two-player hand; :class:`Pairing` says which game seats
play it, in the engine's hand seats 0 and 1, and which of them has the dealer's part.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .cards import Card, rank_of
from .rules import Rules
from .scoring import HandResult

#: The teams of the four-player game: seats 0 and 2 against seats 1 and 3.
TEAMS: tuple[tuple[int, int], tuple[int, int]] = ((0, 2), (1, 3))


def team_of(seat: int) -> int:
    """The team (0 or 1) of a seat of the four-player game.

    >>> [team_of(s) for s in range(4)]
    [0, 1, 0, 1]
    """
    return seat % 2


def next_dealer(rules: Rules, dealer: int, result: HandResult) -> int:
    """Who deals after a two-player hand dealt by ``dealer`` ended with ``result``.

    The same dealer deals again after a dead hand, whatever the rule (every document agrees).

    >>> from ginrummy.scoring import DEAD_HAND, HandResult
    >>> won_by_1 = HandResult(kind='knock', winner=1, points=5, knocker=1)
    >>> [next_dealer(Rules(next_dealer=r), 0, won_by_1) for r in ('winner', 'loser', 'alternate')]
    [1, 0, 1]
    >>> next_dealer(Rules(next_dealer='alternate'), 0, DEAD_HAND)
    0
    """
    if result.winner is None:
        return dealer
    if rules.next_dealer == "winner":
        return result.winner
    if rules.next_dealer == "loser":
        return 1 - result.winner
    return 1 - dealer


@dataclass(frozen=True, slots=True)
class Pairing:
    """Who plays one two-player hand of a game, and who deals it.

    ``seats[i]`` is the game seat playing the engine's hand seat ``i``; ``dealer`` is the hand
    seat (0 or 1) with the dealer's part (dealt to last, offered the upcard second, the other
    plays first); ``dealt_by`` is the game seat that deals. In the three-player game the dealer
    sits out, so ``dealt_by`` plays neither seat and ``dealer`` is the player on the dealer's right.

    >>> p = three_pairing(2)
    >>> p.seats, p.dealer, p.sits_out
    ((0, 1), 1, 2)
    >>> p.hand_seat(1), p.game_seat(0)
    (1, 0)
    """

    seats: tuple[int, int]
    dealer: int
    dealt_by: int

    @property
    def sits_out(self) -> int | None:
        """The dealer when the dealer does not play this hand (three players), else None."""
        return None if self.dealt_by in self.seats else self.dealt_by

    def plays(self, seat: int) -> bool:
        return seat in self.seats

    def game_seat(self, hand_seat: int) -> int:
        return self.seats[hand_seat]

    def hand_seat(self, game_seat: int) -> int:
        """The hand seat (0 or 1) of a game seat that plays this hand."""
        if game_seat not in self.seats:
            raise ValueError(f"seat {game_seat} does not play this hand (seats {self.seats[0]} and {self.seats[1]})")
        return self.seats.index(game_seat)

    def to_json(self) -> dict[str, object]:
        return {"seats": list(self.seats), "dealer": self.dealer, "dealt_by": self.dealt_by}


def two_pairing(dealer: int) -> Pairing:
    """A two-player game's hand: both seats play, hand seats are game seats."""
    return Pairing(seats=(0, 1), dealer=dealer, dealt_by=dealer)


def three_pairing(dealer: int) -> Pairing:
    """The hand ``dealer`` deals in the three-player game: the other two play, the dealer sits out.

    The player on the dealer's left (the next seat) is dealt first and plays first, as the
    non-dealer does in a two-player hand (hand seat 0); the player on the right has the dealer's
    part (hand seat 1).

    >>> [three_pairing(d).seats for d in range(3)]
    [(1, 2), (2, 0), (0, 1)]
    """
    if dealer not in (0, 1, 2):
        raise ValueError(f"the three-player game has seats 0, 1 and 2, not {dealer!r}")
    return Pairing(seats=((dealer + 1) % 3, (dealer + 2) % 3), dealer=1, dealt_by=dealer)


def three_next_dealer(pairing: Pairing, result: HandResult) -> int:
    """Who deals after a three-player hand: its loser; after a dead hand, the same dealer.

    >>> won = HandResult(kind='knock', winner=0, points=5, knocker=0)
    >>> three_next_dealer(three_pairing(0), won)  # seat 1 won against seat 2: seat 2 deals
    2
    """
    if result.winner is None:
        return pairing.dealt_by
    return pairing.seats[1 - result.winner]


def team_round(index: int, first_dealer: int) -> tuple[Pairing, Pairing]:
    """The two tables of hand ``index`` (0-based) of the four-player game.

    At each table ``seats`` are (the player of team 0, the player of team 1); the tables are
    listed by team 0's player (seat 0's table first). Partners switch opponents every hand; the
    teams take turns to deal, ``first_dealer``'s team first.

    >>> [[p.seats for p in team_round(i, 0)] for i in range(3)]
    [[(0, 1), (2, 3)], [(0, 3), (2, 1)], [(0, 1), (2, 3)]]
    >>> [p.dealt_by for p in team_round(1, 0)]
    [3, 1]
    """
    if first_dealer not in (0, 1, 2, 3):
        raise ValueError(f"the four-player game has seats 0 to 3, not {first_dealer!r}")
    if index < 0:
        raise ValueError(f"hands are numbered from 0, not {index}")
    opponents = (1, 3) if index % 2 == 0 else (3, 1)
    dealing_team = (team_of(first_dealer) + index) % 2
    a, b = (
        Pairing(seats=(p, o), dealer=dealing_team, dealt_by=(p, o)[dealing_team])
        for p, o in zip((0, 2), opponents, strict=True)
    )
    return a, b


@dataclass(frozen=True, slots=True)
class Cut:
    """One round of cutting for the deal: ``cards[seat]`` is the card that seat drew."""

    cards: tuple[Card, ...]

    @property
    def tie(self) -> bool:
        ranks = [rank_of(c) for c in self.cards]
        return len(set(ranks)) < len(ranks)


def cut_for_deal(rules: Rules, rng: random.Random, seats: int = 2) -> tuple[int, list[Cut]]:
    """Choose the first dealer per ``rules.first_dealer``: returns (dealer, the cuts made).

    Cutting: each of the ``seats`` players draws a card from a shuffled deck; kings are high and
    aces low, suits do not count, so equal ranks cut again (from a new shuffle). ``random``
    draws no cards.

    >>> d, cuts = cut_for_deal(Rules(), random.Random(7))
    >>> d in (0, 1) and len(cuts) >= 1
    True
    >>> cut_for_deal(Rules(first_dealer='random'), random.Random(7))[1]
    []
    >>> len(cut_for_deal(Rules(), random.Random(7), seats=4)[1][-1].cards)
    4
    """
    if seats < 2:
        raise ValueError(f"cutting for the deal needs at least two players, not {seats}")
    if rules.first_dealer == "random":
        return rng.randrange(seats), []
    cuts: list[Cut] = []
    while True:
        deck = list(range(52))
        rng.shuffle(deck)
        cut = Cut(tuple(deck[:seats]))
        cuts.append(cut)
        if cut.tie:
            continue
        ranks = [rank_of(c) for c in cut.cards]
        best = max(ranks) if rules.first_dealer == "high_cut" else min(ranks)
        return ranks.index(best), cuts


__all__ = [
    "TEAMS",
    "Cut",
    "Pairing",
    "cut_for_deal",
    "next_dealer",
    "team_of",
    "team_round",
    "three_next_dealer",
    "three_pairing",
    "two_pairing",
]
