"""A game of two, three or four players played with the engine: who plays each hand, the ledger.

Every hand is an ordinary two-player :class:`~ginrummy.hand.Hand` between two game seats, named
by a :class:`~ginrummy.dealing.Pairing` (which game seats play the hand's seats 0 and 1, who
deals). A *deal* is one entry of the ledger: one hand with two or three players, two tables
played at once with four (partners at different tables, RULES.md "Three and four players").
:class:`Game` deals them, maps game seats to hand seats, writes each finished deal on its ledger
(:class:`~ginrummy.scoresheet.ScoreSheet`, :class:`~ginrummy.multisheet.ThreeSheet` or
:class:`~ginrummy.multisheet.TeamSheet`, which say who deals and plays next) and ends when the
ledger says. No rule lives here: hands are the engine's, scores and rotation the ledger's.

A seat that does not play a hand (the dealer of a three-player hand; with four players, the
other table's hand) sees nothing of it while it is played: its :class:`GameView` holds no
card of that hand, only who plays whom and, once it is over, its result. A seat's view of the
hand it plays carries the game score of the two at its table (with four players: their teams'),
and with four players the hand's rules carry the team target as their ``target``, so a player
weighs the score against the end of its own game.
:class:`~ginrummy.match.Match` is the two-player game, with its two-player conveniences.

>>> g = Game(Rules(), players=["Ann", "Bob", "Cy"], first_dealer=2, seed=1)
>>> [p.seats for p in g.deal()], g.to_act, g.game_view(2).sits_out
([(0, 1)], (0,), True)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .actions import Action
from .dealing import Cut, Pairing, cut_for_deal, next_dealer, team_of, two_pairing
from .errors import IllegalActionError
from .events import Step
from .hand import Hand
from .multisheet import SeatedResult, TeamSheet, ThreeSheet
from .observation import SeatView
from .rules import Rules
from .scoresheet import FinalResult, Ledger, ScoreSheet

#: How many players a game may have.
SEAT_COUNTS = (2, 3, 4)


def hand_rules(rules: Rules, players: int) -> Rules:
    """The rules each hand of a game is played with: the game's, except that with four players
    ``target`` is the team target (a player's view of the score then points at its game's end)."""
    return rules.replace(target=rules.team_target) if players == 4 else rules


def hand_rng(seed: int, index: int) -> random.Random:
    """The RNG of hand ``index`` (0-based, over every table): a fixed function of the game seed."""
    return random.Random(f"ginrummy:{seed}:hand:{index}")


def cut_rng(seed: int) -> random.Random:
    return random.Random(f"ginrummy:{seed}:cut")


@dataclass(frozen=True, slots=True)
class GameView:
    """What one game seat may see of the game now.

    ``pairings`` are the tables of the latest deal (empty before the first), ``upcoming`` the
    next deal's while none is in progress. ``table`` is the seat's table in the latest deal and
    ``hand`` its :class:`~ginrummy.observation.SeatView` of that hand (in hand seats 0 and 1);
    both are None when the seat sits that deal out. ``finished[t]`` is table ``t``'s result once
    over: the only thing a seat learns of a hand it does not play. ``scores`` are the ledger's
    columns (players; the two teams with four players).
    """

    seat: int
    players: int
    deal: int
    scores: tuple[int, ...]
    pairings: tuple[Pairing, ...]
    upcoming: tuple[Pairing, ...]
    table: int | None
    hand: SeatView | None
    finished: tuple[SeatedResult | None, ...]
    over: bool

    @property
    def sits_out(self) -> bool:
        """The seat plays no hand of the latest deal."""
        return self.table is None and bool(self.pairings)

    @property
    def my_turn(self) -> bool:
        return self.hand is not None and self.hand.my_turn

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "players": self.players,
            "deal": self.deal,
            "scores": list(self.scores),
            "pairings": [p.to_json() for p in self.pairings],
            "upcoming": [p.to_json() for p in self.upcoming],
            "table": self.table,
            "sits_out": self.sits_out,
            "hand": None if self.hand is None else self.hand.to_json(),
            "finished": [None if r is None else r.to_json() for r in self.finished],
            "over": self.over,
        }


class Game:
    """A game of two, three or four players, played hand after hand to the ledger's end.

    ``first_dealer`` None decides the first dealer per ``rules.first_dealer`` (a cut among all
    the players, or a random choice) from ``seed``; ``seed`` None picks a fresh one, kept in
    ``self.seed`` so the game can be replayed. Each hand's deck is shuffled from a per-hand RNG
    derived from the seed (hands counted over every table, in table order).
    """

    def __init__(
        self,
        rules: Rules,
        *,
        players: Sequence[str],
        first_dealer: int | None = None,
        seed: int | None = None,
    ) -> None:
        n = len(players)
        if n not in SEAT_COUNTS:
            raise ValueError(f"a game has two, three or four players, not {n}")
        self.rules = rules
        #: The rules each hand is dealt with: the game's (with four players, ``target`` is the team target).
        self.hand_rules = hand_rules(rules, n)
        self.seed: int = seed if seed is not None else random.SystemRandom().randrange(2**63)
        #: Whether the seed was given (a record without one cannot shuffle hands it lacks decks for).
        self.seed_given = seed is not None
        self.players: tuple[str, ...] = tuple(str(p) for p in players)
        self.cuts: list[Cut] = []
        if first_dealer is None:
            first_dealer, self.cuts = cut_for_deal(rules, cut_rng(self.seed), seats=n)
        if first_dealer not in range(n) or isinstance(first_dealer, bool):
            seats = "0 or 1" if n == 2 else f"0 to {n - 1}"
            raise ValueError(f"first_dealer must be {seats}, not {first_dealer!r}")
        self.first_dealer: int = first_dealer
        self.sheet: Ledger[Any] = (
            ScoreSheet(rules) if n == 2 else ThreeSheet(rules, first_dealer) if n == 3 else TeamSheet(rules, first_dealer)
        )
        #: Every hand dealt, in order (the current deal's last), and who played each.
        self.hands: list[Hand] = []
        self.pairings: list[Pairing] = []
        #: The hands of the latest deal (one per table), in table order.
        self.tables: tuple[Hand, ...] = ()
        #: The latest hand dealt (with one table per deal: the current hand).
        self.hand: Hand | None = None
        self._next_dealer = first_dealer  # two players: the ledger does not know the dealer
        #: Called with (game, hand) when a hand ends, after a finished deal is on the ledger.
        self.on_hand_end: Callable[[Any, Hand], None] | None = None
        #: The kind of record this game writes by default ("game", or "hand" once read from one).
        self.record_kind = "game"

    # -- state ---------------------------------------------------------------------------

    @property
    def seats(self) -> int:
        """How many players the game has."""
        return len(self.players)

    @property
    def deals(self) -> int:
        """How many deals have been made (each one table, or two with four players)."""
        return len(self.hands) // len(self.tables) if self.tables else 0

    @property
    def scores(self) -> tuple[int, ...]:
        """The ledger's totals toward the target (players; teams with four), boxes excluded."""
        return self.sheet.scores

    @property
    def is_over(self) -> bool:
        return self.sheet.is_over

    @property
    def winner(self) -> int | None:
        """The winning column once over: a seat, or with four players a team (0: seats 0 and 2)."""
        return self.sheet.winner

    @property
    def in_progress(self) -> bool:
        """A deal has been made and one of its hands is not finished."""
        return any(not h.is_over for h in self.tables)

    @property
    def current_pairings(self) -> tuple[Pairing, ...]:
        """The tables of the latest deal (empty before the first)."""
        return tuple(self.pairings[len(self.pairings) - len(self.tables):])

    @property
    def next_pairings(self) -> tuple[Pairing, ...]:
        """Who plays (and deals) at each table of the next deal; while one is in progress, its own."""
        if self.in_progress:
            return self.current_pairings
        if self.seats == 2:
            return (two_pairing(self._next_dealer),)
        if isinstance(self.sheet, ThreeSheet):
            return (self.sheet.next_pairing,)
        assert isinstance(self.sheet, TeamSheet)
        return self.sheet.next_round

    @property
    def to_act(self) -> tuple[int, ...]:
        """The game seats to act now, one per table in progress (in table order)."""
        return tuple(
            p.seats[h.current] for h, p in zip(self.tables, self.current_pairings, strict=True) if not h.is_over
        )

    def column(self, seat: int) -> int:
        """The ledger column a seat scores in: itself, or its team with four players."""
        return team_of(seat) if self.seats == 4 else seat

    def where(self, seat: int) -> tuple[int, int] | None:
        """(table, hand seat) where ``seat`` plays in the latest deal, or None if it sits out."""
        if seat not in range(self.seats):
            raise ValueError(f"no seat {seat!r} in a {self.seats}-player game")
        for t, p in enumerate(self.current_pairings):
            if seat in p.seats:
                return t, p.seats.index(seat)
        return None

    def hand_scores(self, table: int) -> tuple[int, int]:
        """The game score as the hand at ``table`` sees it: its players' columns, in hand seats."""
        s = self.sheet.scores
        a, b = self.current_pairings[table].seats
        return s[self.column(a)], s[self.column(b)]

    # -- playing -------------------------------------------------------------------------

    def deal(self, decks: Sequence[Sequence[int] | None] | None = None) -> tuple[Pairing, ...]:
        """Deal the next deal's hands: the given deck orders (one per table, None to shuffle),
        or decks shuffled from the game seed. Returns who plays at each table."""
        if self.is_over:
            raise IllegalActionError("the game is over: no more hands are dealt", rule="game_over")
        if self.in_progress:
            raise IllegalActionError("a hand is in progress: finish it before dealing the next", rule="deal")
        pairings = self.next_pairings
        if decks is not None and len(decks) != len(pairings):
            raise ValueError(f"this deal has {len(pairings)} table(s), not {len(decks)} decks")
        hands = []
        for t, p in enumerate(pairings):
            h = Hand(self.hand_rules, p.dealer)
            deck = None if decks is None else decks[t]
            if deck is None:
                h.deal(rng=hand_rng(self.seed, len(self.hands)))
            else:
                h.deal(deck)
            self.hands.append(h)
            self.pairings.append(p)
            hands.append(h)
        self.tables = tuple(hands)
        self.hand = hands[-1]
        return pairings

    def start_hand(self, deck: Sequence[int] | None = None) -> Hand:
        """Deal the next hand of a game with one table a deal (two or three players)."""
        if self.seats == 4:
            raise IllegalActionError("the four-player game deals two tables at once: use deal()", rule="deal")
        self.deal(None if deck is None else [deck])
        assert self.hand is not None
        return self.hand

    def apply(self, action: Action | str | int, table: int = 0) -> Step:
        """Play one action of whoever is to act at ``table``; a finished deal goes on the ledger."""
        tables = self.tables
        h = tables[table] if 0 <= table < len(tables) else None
        if h is None or h.is_over:
            if len(tables) > 1 or table:
                raise IllegalActionError(f"no hand in progress at table {table + 1}", rule="deal")
            raise IllegalActionError("no hand in progress: deal one with start_hand()", rule="deal")
        step = h.apply(action)
        if h.is_over:
            self._hand_over(h)
        return step

    def verify(self, seat: int, action: Action) -> None:
        """Raise :class:`IllegalActionError` unless ``seat`` may play ``action`` now; change nothing."""
        if seat not in range(self.seats) or isinstance(seat, bool):
            raise IllegalActionError(f"no seat {seat!r} in a {self.seats}-player game", rule="seat")
        at = self.where(seat)
        if at is None:
            if not self.tables:
                raise IllegalActionError("no hand has been dealt yet", rule="deal")
            raise IllegalActionError(self._sits_out_text(seat), rule="sits_out")
        table, hand_seat = at
        h = self.tables[table]
        if h.current != hand_seat and not h.is_over:
            who = "nobody" if h.current not in (0, 1) else f"player {self.current_pairings[table].seats[h.current]}"
            raise IllegalActionError(f"not your turn: it is {who}'s turn to act, not player {seat}'s", rule="turn")
        h.verify(action)

    def act(self, seat: int, action: Action | str | int) -> Step:
        """Play game seat ``seat``'s action at its table, checked (whose turn it is included)."""
        if not isinstance(action, Action):
            action = Action.parse(action) if isinstance(action, str) else Action.from_int(action)
        self.verify(seat, action)
        at = self.where(seat)
        assert at is not None
        return self.apply(action, at[0])

    def _hand_over(self, h: Hand) -> None:
        if all(t.is_over for t in self.tables):
            results = [t.result for t in self.tables if t.result is not None]
            assert len(results) == len(self.tables)
            sheet = self.sheet
            if isinstance(sheet, ThreeSheet):
                sheet.add_hand(results[0])
            elif isinstance(sheet, TeamSheet):
                sheet.add_round(results)
            else:
                sheet.add(results[0])
                self._next_dealer = next_dealer(self.rules, h.dealer, results[0])
        if self.on_hand_end is not None:
            self.on_hand_end(self, h)

    # -- views ---------------------------------------------------------------------------

    def _sits_out_text(self, seat: int) -> str:
        names = self.players
        plays = " and ".join(f"{names[a]} against {names[b]}" for a, b in (p.seats for p in self.current_pairings))
        return f"{names[seat]} sits out this hand: {plays} play it"

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may see of the hand it plays in the latest deal, with the game score."""
        if not self.tables:
            raise IllegalActionError("no hand has been dealt yet", rule="deal")
        at = self.where(seat)
        if at is None:
            raise IllegalActionError(self._sits_out_text(seat), rule="sits_out")
        table, hand_seat = at
        return self.tables[table].observation(hand_seat, scores=self.hand_scores(table))

    def game_view(self, seat: int) -> GameView:
        """What ``seat`` may see of the whole game now (nothing of a hand it does not play)."""
        at = self.where(seat)
        pairings = self.current_pairings
        finished = tuple(
            None if h.result is None else SeatedResult(p, h.result) for h, p in zip(self.tables, pairings, strict=True)
        )
        return GameView(
            seat=seat,
            players=self.seats,
            deal=self.deals,
            scores=self.sheet.scores,
            pairings=pairings,
            upcoming=() if self.in_progress or self.is_over else self.next_pairings,
            table=None if at is None else at[0],
            hand=None if at is None else self.view(seat),
            finished=finished,
            over=self.is_over,
        )

    def final(self) -> FinalResult:
        """The final result (bonuses, totals, winner, margin). Only once the game is over."""
        return self.sheet.final()


__all__ = ["SEAT_COUNTS", "Game", "GameView", "cut_rng", "hand_rng", "hand_rules"]
