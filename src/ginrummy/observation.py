"""A seat's view of a hand: everything that seat may see, and nothing else.

Hidden from a seat: the opponent's cards (except those it took from the discard pile,
which were face up, and everything once both hands are laid out after a knock), the order
and faces of the stock, the card the opponent drew from the stock, and the knocker's
face-down discard. Computer players, environments and servers all read this view, so
hiding is done once, here.

After a knock each hand goes face up once its owner has laid it out (melds apart from
deadwood), as at a real table: the knocker's when the defender starts, the defender's when
the layoffs start. The knocker's face-down discard stays hidden from the defender for good.

>>> from ginrummy.hand import new_hand
>>> from ginrummy.rules import Rules
>>> h = new_hand(Rules(), dealer=1, deck=list(range(52)))
>>> _ = h.apply('pile')                 # seat 0 takes the upcard (card 20) face up
>>> observe(h, 1).opponent_known == 1 << 20, observe(h, 1).taken, observe(h, 0).taken
(True, None, 20)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from .actions import Action, Kind
from .cards import card_str, cards_of
from .events import Event, Phase, make_event, slot_maker
from .rules import Rules

_K_DISCARD = Kind.DISCARD
_K_KNOCK = Kind.KNOCK
_K_PASS = Kind.PASS
_K_PILE = Kind.PILE
_K_STOCK = Kind.STOCK


class InfoState:
    """What one seat has seen of a hand's history, kept step by step.

    The engine records each step here as it plays it (:meth:`record`), so a view costs the
    same at the hundredth move as at the first. Besides the seat's events it keeps what a
    player reasons about the opponent from: the cards it discarded and took from the pile,
    the face-up cards it passed over (an upcard passed, a top discard left for the stock),
    and how often it drew from the stock. Tuples are made once per step, on demand.
    """

    __slots__ = ("seat", "_events", "_discards", "_taken", "_declined", "stock_draws", "_cache")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self._events: list[Event] = []
        self._discards: list[int] = []
        self._taken: list[int] = []
        self._declined: list[int] = []
        #: How often the opponent drew from the stock.
        self.stock_draws = 0
        self._cache: tuple[tuple[Event, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]] | None = None

    def snapshot(self) -> tuple[tuple[Event, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        """(events, opponent discards, opponent pile takes, opponent declines) as tuples."""
        snap = self._cache
        if snap is None:
            snap = self._cache = (tuple(self._events), tuple(self._discards), tuple(self._taken), tuple(self._declined))
        return snap

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, InfoState):
            return NotImplemented
        return (self.seat, self.stock_draws, self.snapshot()) == (other.seat, other.stock_draws, other.snapshot())

    __hash__ = None  # type: ignore[assignment]  # mutable

    def copy(self) -> InfoState:
        other = InfoState(self.seat)
        other._events = list(self._events)
        other._discards = list(self._discards)
        other._taken = list(self._taken)
        other._declined = list(self._declined)
        other.stock_draws = self.stock_draws
        other._cache = self._cache
        return other


def record_step(infos: list[InfoState], seat: int, kind: Kind, card: int, meld: int, target: int, top: int) -> None:
    """Record one step in both seats' information states, hiding what the other seat may not see.

    ``card`` is the step's card as its actor saw it: the stock card drawn, the knock's
    face-down discard, the pile card taken. ``top`` is the face-up pile card the step faced
    (taken, passed or left for the stock), or -1. A public step gives one event both seats
    share; the other seat also learns from it about its opponent.
    """
    mine = infos[seat]
    other = infos[1 - seat]
    mine._cache = other._cache = None
    if kind is _K_STOCK:
        mine._events.append(make_event(seat, kind, card, 0, -1))
        other._events.append(_HIDDEN[seat][0])
        other.stock_draws += 1
        if top >= 0:
            other._declined.append(top)
        return
    if kind is _K_KNOCK:
        mine._events.append(make_event(seat, kind, card, 0, -1))
        other._events.append(_HIDDEN[seat][1])
        return
    ev = make_event(seat, kind, card, meld, target)
    mine._events.append(ev)
    other._events.append(ev)
    if kind is _K_DISCARD:
        other._discards.append(card)
    elif kind is _K_PILE:
        other._taken.append(card)
    elif kind is _K_PASS and top >= 0:
        other._declined.append(top)


#: Per seat, what the other seat sees of its stock draw and of its knock: no card.
_HIDDEN = tuple((Event(seat, Kind.STOCK, -1), Event(seat, Kind.KNOCK, -1)) for seat in (0, 1))


@dataclass(frozen=True, slots=True)
class SeatView:
    """What one seat knows. Masks are 52-bit card masks."""

    seat: int
    dealer: int
    phase: Phase
    current: int
    rules: Rules
    knock_limit: int
    hand: int
    opponent_size: int
    #: Opponent's cards this seat knows of: taken face up from the pile and still held,
    #: or the whole hand once laid out after a knock.
    opponent_known: int
    pile: tuple[int, ...]
    upcard: int | None
    stock_size: int
    taken: int | None
    must_knock: bool
    legal: tuple[Action, ...]
    events: tuple[Event, ...]
    knocker: int | None
    knock_discard: int | None
    knocker_melds: tuple[int, ...]
    laid_on: tuple[int, ...]
    defender_melds: tuple[int, ...]
    layoffs: tuple[tuple[int, int], ...]
    result: Any
    #: The game score so far (toward the target), by seat; (0, 0) outside a game.
    scores: tuple[int, int] = (0, 0)
    #: The opponent's face-up discards, in order.
    opponent_discards: tuple[int, ...] = ()
    #: The cards the opponent took from the discard pile, in order (held or not).
    opponent_taken: tuple[int, ...] = ()
    #: Face-up cards the opponent passed over: an upcard passed, a top discard left for the stock.
    opponent_declined: tuple[int, ...] = ()
    #: How often the opponent drew from the stock.
    opponent_stock_draws: int = 0

    @property
    def my_turn(self) -> bool:
        return self.current == self.seat

    @property
    def opponent(self) -> int:
        return 1 - self.seat

    @property
    def seen(self) -> int:
        """Cards whose place this seat knows: its hand, the discard pile, the opponent's known
        cards and its own face-down knock discard. Any other card may be the opponent's."""
        m = self.hand | self.opponent_known
        for c in self.pile:
            m |= 1 << c
        if self.knock_discard is not None:
            m |= 1 << self.knock_discard
        return m

    def to_json(self) -> dict[str, Any]:
        """Plain data for a server message or a log."""

        def cs(mask: int) -> list[str]:
            return [card_str(c) for c in cards_of(mask)]

        return {
            "seat": self.seat,
            "dealer": self.dealer,
            "phase": self.phase.value,
            "current": self.current,
            "rules": self.rules.to_json(),
            "knock_limit": self.knock_limit,
            "hand": cs(self.hand),
            "opponent_size": self.opponent_size,
            "opponent_known": cs(self.opponent_known),
            "pile": [card_str(c) for c in self.pile],
            "upcard": None if self.upcard is None else card_str(self.upcard),
            "stock_size": self.stock_size,
            "taken": None if self.taken is None else card_str(self.taken),
            "must_knock": self.must_knock,
            "legal": [str(a) for a in self.legal],
            "events": [{"seat": e.seat, "action": e.text()} for e in self.events],
            "knocker": self.knocker,
            "knock_discard": None if self.knock_discard is None else card_str(self.knock_discard),
            "knocker_melds": [cs(m) for m in self.knocker_melds],
            "laid_on": [cs(m) for m in self.laid_on],
            "defender_melds": [cs(m) for m in self.defender_melds],
            "layoffs": [{"card": card_str(c), "meld": t} for c, t in self.layoffs],
            "result": None if self.result is None else self.result.to_json(),
            "scores": list(self.scores),
        }


_VIEW_FIELDS = (
    "seat", "dealer", "phase", "current", "rules", "knock_limit", "hand", "opponent_size", "opponent_known", "pile",
    "upcard", "stock_size", "taken", "must_knock", "legal", "events", "knocker", "knock_discard", "knocker_melds",
    "laid_on", "defender_melds", "layoffs", "result", "scores", "opponent_discards", "opponent_taken",
    "opponent_declined", "opponent_stock_draws",
)
#: A new SeatView from its fields in order, a third of the time of ``SeatView(...)`` (see slot_maker).
_make_view: Any = slot_maker(SeatView, _VIEW_FIELDS)


class Table(Protocol):
    """The parts of a hand's state a view is read from (:class:`ginrummy.hand.Hand` has them)."""

    rules: Rules
    dealer: int
    phase: Phase
    current: int
    hands: list[int]
    stock: list[int]
    pile: list[int]
    upcard: int | None
    knock_limit: int
    taken: int | None
    must_knock: bool
    shown: list[int]
    infos: list[InfoState]
    knocker: int | None
    knock_discard: int | None
    knocker_melds: list[int]
    laid_on: list[int]
    defender_melds: list[int]
    layoffs: list[tuple[int, int]]
    result: Any

    def legal_actions(self) -> list[Action]: ...


_P_LAYOUT = Phase.LAYOUT
_P_LAYOFF = Phase.LAYOFF
_P_OVER = Phase.OVER


def opponent_known(hand: Table, seat: int) -> int:
    """The opponent's cards ``seat`` has seen and that are still in play for it.

    Taken face up from the pile (a card the knocker then discarded face down stays known
    until its hand is face up, when its absence shows), melds already on the table, and the
    whole hand once its owner has finished laying it out after a knock: the knocker's when
    the defender starts, the defender's when the layoffs start.
    """
    opp = 1 - seat
    opp_hand = hand.hands[opp]
    shown = hand.shown[opp]
    known = shown & opp_hand
    knocker = hand.knocker
    if knocker is None:
        return known
    phase = hand.phase
    if knocker == opp:
        if hand.knock_discard is not None:
            known |= shown & 1 << hand.knock_discard
        if phase is not _P_LAYOUT:
            return opp_hand
        melds = hand.knocker_melds
    else:
        if phase is _P_LAYOFF or phase is _P_OVER:
            return opp_hand
        melds = hand.defender_melds
    for m in melds:
        known |= m & opp_hand
    return known


def observe(hand: Table, seat: int, scores: tuple[int, int] = (0, 0)) -> SeatView:
    """Build ``seat``'s view of ``hand``: what that seat may see, and nothing else.

    Its cost does not grow with the hand's length: the history part comes from the seat's
    :class:`InfoState`, which the engine keeps up to date.
    """
    if seat not in (0, 1):
        raise ValueError(f"seat must be 0 or 1, not {seat!r}")
    info = hand.infos[seat]
    events, discards, taken, declined = info.snapshot()
    mine = hand.current == seat
    knocker = hand.knocker
    view: SeatView = _make_view(
        seat,
        hand.dealer,
        hand.phase,
        hand.current,
        hand.rules,
        hand.knock_limit,
        hand.hands[seat],
        hand.hands[1 - seat].bit_count(),
        hand.shown[1 - seat] & hand.hands[1 - seat] if knocker is None else opponent_known(hand, seat),
        tuple(hand.pile),
        hand.upcard,
        len(hand.stock),
        hand.taken if mine else None,
        hand.must_knock if mine else False,
        tuple(hand.legal_actions()) if mine else (),
        events,
        knocker,
        hand.knock_discard if knocker == seat else None,
        # Empty until a knock: skip the tuple() calls then (most of a hand).
        tuple(hand.knocker_melds) if hand.knocker_melds else (),
        tuple(hand.laid_on) if hand.laid_on else (),
        tuple(hand.defender_melds) if hand.defender_melds else (),
        tuple(hand.layoffs) if hand.layoffs else (),
        hand.result,
        scores,
        discards,
        taken,
        declined,
        info.stock_draws,
    )
    return view
