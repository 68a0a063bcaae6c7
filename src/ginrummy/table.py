"""A table: one game, its seats (people or computer players), and the turn-by-turn session.

Every interactive front end (the terminal prompt, the terminal app, the web app) runs the same
session: deal, let computer seats move, take a person's action, lay out by the default plan on
request, tell computer players when a hand starts and ends, deal the next hand. It is written
once here; front ends only render views and collect a person's input. Seats are a list, so the
session does not care which seat is whose.

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
from typing import Protocol

from .actions import Action
from .errors import IllegalActionError
from .events import LAYOUT_PHASES, Event, Step
from .hand import Hand
from .layout import layout_action
from .match import Match
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


class Table:
    """One game played at a table of seats; every action goes through ``Match.apply``.

    ``before(seat, action)``, when given, is called with each checked action just before it is
    applied: a server stores it there, so nothing is acknowledged that is not in its log.
    """

    def __init__(
        self, match: Match, seats: Sequence[Seat], before: Callable[[int, Action], None] | None = None
    ) -> None:
        if len(seats) != 2:
            raise ValueError(f"this table seats two players, not {len(seats)}")
        self.match = match
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
    def to_act(self) -> int | None:
        """The seat to act in the hand in progress, or None between hands and after the game."""
        h = self.match.hand
        return h.current if h is not None and not h.is_over else None

    @property
    def waiting_for(self) -> int | None:
        """The person seat whose action the table waits for, or None."""
        seat = self.to_act
        return seat if seat is not None and not self.seats[seat].is_computer else None

    @property
    def computer_to_act(self) -> bool:
        seat = self.to_act
        return seat is not None and self.seats[seat].is_computer

    @property
    def can_deal(self) -> bool:
        """A hand may be dealt: none is in progress and the game is not over."""
        return not self.match.in_progress and not self.match.is_over

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may see now, with the game score."""
        return self.match.view(seat)

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
        """Deal the next hand and tell each computer player which seat it plays."""
        hand = self.match.start_hand(deck)
        for i, s in enumerate(self.seats):
            hook = getattr(s.player, "new_hand", None)
            if hook is not None:
                hook(i)
        return hand

    def act(self, seat: int, action: Action | str | int) -> Step:
        """Play ``seat``'s action, checked by the rules (whose turn it is included)."""
        h = self.match.hand
        if h is None or h.is_over:
            raise IllegalActionError("no hand in progress: deal the next hand first", rule="deal")
        if not isinstance(action, Action):
            action = Action.parse(action) if isinstance(action, str) else Action.from_int(action)
        h.verify(action, seat)
        if self.before is not None:
            self.before(seat, action)
        step = self.match.apply(action)
        if h.is_over:
            for i, s in enumerate(self.seats):
                hook = getattr(s.player, "hand_over", None)
                if hook is not None:
                    hook(self.match.view(i))
        return step

    def computer_move(self) -> Step:
        """One move of the computer seat to act (with a player of its own at the table)."""
        seat = self.to_act
        if seat is None:
            raise IllegalActionError("no hand in progress: nobody is to act", rule="deal")
        player = self.seats[seat].player
        if player is None:
            raise IllegalActionError(f"seat {seat} ({self.seats[seat].name}) has no computer player here", rule="turn")
        return self.act(seat, player.decide(self.view(seat)))

    def play_computers(self) -> None:
        """Let computer seats with a player move until a person is to act or the hand ends."""
        while self.computer_to_act and self.seats[self.to_act or 0].player is not None:
            self.computer_move()

    def layout_plan(self, seat: int) -> list[Action]:
        """What :meth:`lay_out` would play for ``seat`` now, worked out on a copy of the hand
        (nothing changes): the proposal a front end shows at once after a knock, for the person
        to accept or to change by laying out melds by hand. Empty when ``seat`` is not laying out."""
        h = self.match.hand
        if h is None or self.to_act != seat or h.phase not in LAYOUT_PHASES:
            return []
        return h.default_layout()

    def lay_out(self, seat: int) -> list[Step]:
        """Play ``seat``'s default layout (:func:`ginrummy.layout.layout_action`) while it lays out."""
        steps = []
        while self.to_act == seat and self.view(seat).phase in LAYOUT_PHASES:
            steps.append(self.act(seat, layout_action(self.view(seat))))
        return steps
