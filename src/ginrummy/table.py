"""A table: one game, its seats (people or computer players), and the turn-by-turn session.

Every interactive front end (the terminal prompt, the terminal app, the web app) runs the same
session: deal, let computer seats move, take a person's action, lay out by the default plan on
request, tell computer players when a hand starts and ends, deal the next hand. It is written
once here; front ends only render views and collect a person's input. Seats are a list, so the
session does not care which seat is whose, nor how many there are: a
:class:`~ginrummy.game.Game` of three or four players runs the same way (:attr:`Table.acting`
lists every seat to act, one per table in progress; a seat that sits a hand out is told so
through the optional ``sit_out(game_view)`` hook and sees nothing of that hand).

Computer players are anything with ``decide(view)`` (and the optional ``new_hand`` /
``hand_over`` hooks of :class:`ginrummy.players.base.Player`); they are handed their seat's
:class:`~ginrummy.observation.SeatView` only. A seat whose player decides elsewhere (the web
app's worker processes) is a computer seat with ``player=None`` and ``computer=True``: the
session then only says it is that seat's turn, and the move comes back through :meth:`Table.act`.

>>> from ginrummy.match import Match
>>> from ginrummy.rules import Rules
>>> from ginrummy.players import get_player
>>> t = Table(Match(Rules(), seed=4), [Seat("Ann"), Seat("Bot", get_player("simple", seed=1))])
>>> _ = t.start_hand()
>>> t.play_computers(); t.waiting_for in (0, None)
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from .actions import Action
from .errors import IllegalActionError
from .events import LAYOUT_PHASES, Event, Step
from .game import Game, GameView
from .hand import Hand
from .layout import layout_action
from .observation import SeatView


class Decider(Protocol):
    """A computer player as the table uses it (see :class:`ginrummy.players.base.Player`)."""

    def decide(self, view: SeatView) -> Action: ...


@dataclass
class Seat:
    """One seat: a display name, and the computer player that plays it (None: a person)."""

    name: str
    player: Decider | None = None
    #: A computer seat whose decisions are made outside the table (``player`` None).
    computer: bool = False

    @property
    def is_computer(self) -> bool:
        return self.computer or self.player is not None


G = TypeVar("G", bound=Game)


class Table(Generic[G]):
    """One game played at a table of seats; every action goes through the game (``Game.act``).

    ``match`` is a :class:`~ginrummy.match.Match` (two players) or any
    :class:`~ginrummy.game.Game`, with one seat per player. ``before(seat, action)``, when given,
    is called with each checked action just before it is applied: a server stores it there, so
    nothing is acknowledged that is not in its log.
    """

    def __init__(
        self, match: G, seats: Sequence[Seat], before: Callable[[int, Action], None] | None = None
    ) -> None:
        if len(seats) != match.seats:
            raise ValueError(f"this table seats {match.seats} players, not {len(seats)}")
        self.match: G = match
        self.seats = list(seats)
        self.before = before

    # -- state ---------------------------------------------------------------------------

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.seats)

    @property
    def hand(self) -> Hand | None:
        return self.match.hand

    @property
    def acting(self) -> tuple[int, ...]:
        """Every seat to act now, one per table in progress (in table order)."""
        return self.match.to_act

    @property
    def to_act(self) -> int | None:
        """The seat to act in the hand in progress (with two tables: the first), or None between
        hands and after the game."""
        acting = self.match.to_act
        return acting[0] if acting else None

    @property
    def waiting_for(self) -> int | None:
        """The person seat whose action the table waits for (the first, with two tables), or None."""
        return next((s for s in self.match.to_act if not self.seats[s].is_computer), None)

    @property
    def computer_to_act(self) -> bool:
        return any(self.seats[s].is_computer for s in self.match.to_act)

    @property
    def can_deal(self) -> bool:
        """A hand may be dealt: none is in progress and the game is not over."""
        return not self.match.in_progress and not self.match.is_over

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may see now of the hand it plays, with the game score."""
        return self.match.view(seat)

    def game_view(self, seat: int) -> GameView:
        """What ``seat`` may see of the whole game (a seat sitting a hand out: nothing of it)."""
        return self.match.game_view(seat)

    def last_seen_by(self, seat: int) -> str:
        """The latest step of the hand as ``seat`` may read it (a hidden card left out), or ""."""
        events = self.view(seat).events
        return events[-1].text() if events else ""

    def news(self, seat: int, since: int) -> tuple[list[Event], int]:
        """The events ``seat`` has not been shown yet (after the first ``since``), and the new count."""
        events = self.view(seat).events
        return list(events[since:]), len(events)

    # -- playing -------------------------------------------------------------------------

    def start_hand(self, deck: Sequence[int] | None = None) -> Hand:
        """Deal the next hand and tell each computer player which seat it plays (with four players
        both tables are dealt, shuffled from the seed, and the last is returned)."""
        self.deal(None if deck is None else [deck])
        assert self.match.hand is not None
        return self.match.hand

    def deal(self, decks: Sequence[Sequence[int] | None] | None = None) -> tuple[Hand, ...]:
        """Deal the next deal (one hand per table) and tell each computer player its hand seat,
        or that it sits the deal out."""
        game = self.match
        game.deal(decks)
        for i, s in enumerate(self.seats):
            at = game.where(i)
            if at is not None:
                hook = getattr(s.player, "new_hand", None)
                if hook is not None:
                    hook(at[1])
            else:
                hook = getattr(s.player, "sit_out", None)
                if hook is not None:
                    hook(game.game_view(i))
        return game.tables

    def act(self, seat: int, action: Action | str | int) -> Step:
        """Play ``seat``'s action, checked by the rules (whose turn it is included)."""
        game = self.match
        if not game.in_progress:
            raise IllegalActionError("no hand in progress: deal the next hand first", rule="deal")
        if not isinstance(action, Action):
            action = Action.parse(action) if isinstance(action, str) else Action.from_int(action)
        game.verify(seat, action)
        if self.before is not None:
            self.before(seat, action)
        at = game.where(seat)
        assert at is not None
        h = game.tables[at[0]]
        step = game.apply(action, at[0]) if at[0] else game.apply(action)
        if h.is_over:
            for i in game.current_pairings[at[0]].seats:
                hook = getattr(self.seats[i].player, "hand_over", None)
                if hook is not None:
                    hook(game.view(i))
        return step

    def computer_move(self, seat: int | None = None) -> Step:
        """One move of a computer seat to act (default: the first seat to act) with a player of
        its own at the table."""
        if seat is None:
            seat = self.to_act
        if seat is None:
            raise IllegalActionError("no hand in progress: nobody is to act", rule="deal")
        player = self.seats[seat].player
        if player is None:
            raise IllegalActionError(f"seat {seat} ({self.seats[seat].name}) has no computer player here", rule="turn")
        return self.act(seat, player.decide(self.view(seat)))

    def play_computers(self) -> None:
        """Let computer seats with a player move until only people are to act or the deal ends."""
        while True:
            seat = next((s for s in self.match.to_act if self.seats[s].player is not None), None)
            if seat is None:
                return
            self.computer_move(seat)

    def layout_plan(self, seat: int) -> list[Action]:
        """What :meth:`lay_out` would play for ``seat`` now, worked out on a copy of the hand
        (nothing changes): the proposal a front end shows at once after a knock, for the person
        to accept or to change by laying out melds by hand. Empty when ``seat`` is not laying out."""
        at = self.match.where(seat)
        if at is None:
            return []
        h = self.match.tables[at[0]]
        if h.is_over or h.current != at[1] or h.phase not in LAYOUT_PHASES:
            return []
        return h.default_layout()

    def lay_out(self, seat: int) -> list[Step]:
        """Play ``seat``'s default layout (:func:`ginrummy.layout.layout_action`) while it lays out."""
        steps = []
        while seat in self.match.to_act and self.view(seat).phase in LAYOUT_PHASES:
            steps.append(self.act(seat, layout_action(self.view(seat))))
        return steps
