"""The vocabulary of a hand, below every module that plays or shows one.

:class:`Phase` says where a hand is, :class:`Step` is one entry of the engine's history (the
referee's record), and :class:`Event` is one step as one seat saw it. They live here, apart
from :mod:`ginrummy.hand` and :mod:`ginrummy.observation`, so that players, views and records
import the words without importing the engine, and no two core modules import each other.

>>> [p.value for p in Phase][:4]
['deal', 'offer', 'draw', 'discard']
>>> Event(0, Kind.STOCK, 21).text(), Event(1, Kind.STOCK).text()
('stock 9h', 'stock')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from .actions import ACTIONS, STOCK, Action, Kind
from .cards import card_str

#: ``Hand.current`` while nobody acts: before the deal (the chance step) and after the end.
CHANCE = -1


class Phase(Enum):
    """Where a hand is. The phase alone says what kind of action comes next, so interfaces
    can render a prompt without re-deriving any rule."""

    DEAL = "deal"
    OFFER = "offer"
    DRAW = "draw"
    DISCARD = "discard"
    LAST_CHANCE = "last_chance"
    LAYOUT = "layout"
    DEFENDER_LAYOUT = "defender_layout"
    LAYOFF = "layoff"
    OVER = "over"

    # Members are singletons compared by identity, so identity hashing is exact; Enum's own
    # __hash__ is a Python function, and the engine looks phases up in tables at every step.
    __hash__ = object.__hash__


#: The phases after a knock, in which the hands are laid out.
LAYOUT_PHASES = frozenset({Phase.LAYOUT, Phase.DEFENDER_LAYOUT, Phase.LAYOFF})


@dataclass(frozen=True, slots=True)
class Step:
    """One entry of the hand's history: who acted, and what.

    ``drawn`` records the stock card so a record can replay the hand from its deck and a
    referee can audit it; seat views hide it from the other seat.
    """

    seat: int
    action: Action
    #: The card drawn from the stock (hidden from the other seat), or -1.
    drawn: int = -1

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # copy and pickle by fields (frozen classes compiled by mypyc cannot be rebuilt by setattr)
        return Step, (self.seat, self.action, self.drawn)


@dataclass(frozen=True, slots=True)
class Event:
    """One step of the hand as a seat saw it. ``card`` is -1 where the seat may not see it.

    A pile take carries the card taken (it was face up); a stock draw carries its card only
    for the drawer, a knock its face-down discard only for the knocker.
    """

    seat: int
    kind: Kind
    card: int = -1
    meld: int = 0
    target: int = -1
    #: ``text()`` once it has been asked for (a view's JSON formats each event once).
    label: str = field(default="", init=False, compare=False, repr=False)

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # copy and pickle by fields (frozen classes compiled by mypyc cannot be rebuilt by setattr)
        return Event, (self.seat, self.kind, self.card, self.meld, self.target)

    def text(self) -> str:
        """The step in action notation, as this seat may read it."""
        t = self.label
        if not t:
            t = self._format()
            object.__setattr__(self, "label", t)
        return t

    def _format(self) -> str:
        k = self.kind
        if k is Kind.STOCK:
            return f"stock {card_str(self.card)}" if self.card >= 0 else "stock"
        if k is Kind.KNOCK:
            return f"knock {card_str(self.card)}" if self.card >= 0 else "knock"
        if k is Kind.PILE:
            return "pile"
        return str(Action(k, self.card, self.meld, self.target))


def _step_tables() -> tuple[tuple[tuple[Step, ...], ...], tuple[tuple[Step, ...], ...]]:
    """Per seat, the history entry of each action (by integer code) and of each stock draw (by
    card drawn). Steps are immutable, so every hand shares these and a step allocates nothing."""
    steps = tuple(tuple(Step(seat, a) for a in ACTIONS) for seat in (0, 1))
    draws = tuple(tuple(Step(seat, STOCK, c) for c in range(52)) for seat in (0, 1))
    return steps, draws


#: ``STEPS[seat][code]``: ``Step(seat, ACTIONS[code])``; ``STOCK_STEPS[seat][card]``: the draw of ``card``.
STEPS, STOCK_STEPS = _step_tables()
