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

from typing import Any, NamedTuple, Protocol

from .actions import ACTIONS, Action, Kind
from .cards import card_str, cards_of
from .events import Event, Phase
from .rules import Rules

_K_DISCARD = Kind.DISCARD
_K_KNOCK = Kind.KNOCK
_K_PASS = Kind.PASS
_K_PILE = Kind.PILE
_K_STOCK = Kind.STOCK


class InfoState:
    """What one seat has seen of a hand's history, kept step by step.

    The engine records each step here as it plays it (:func:`record_step`), so a view costs
    the same at the hundredth move as at the first. Besides the seat's events it keeps what a
    player reasons about the opponent from: the cards it discarded and took from the pile,
    the face-up cards it passed over (an upcard passed, a top discard left for the stock),
    and how often it drew from the stock. Those three are tuples, grown when they change (a
    view takes them as they are); the events are a list, copied into each view as a tuple.
    """

    __slots__ = ("seat", "_events", "discards", "taken", "declined", "stock_draws")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self._events: list[Event] = []
        #: The opponent's face-up discards, its pile takes, and the face-up cards it passed over.
        self.discards: tuple[int, ...] = ()
        self.taken: tuple[int, ...] = ()
        self.declined: tuple[int, ...] = ()
        #: How often the opponent drew from the stock.
        self.stock_draws = 0

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, InfoState):
            return NotImplemented
        return (self.seat, self.stock_draws, self._events, self.discards, self.taken, self.declined) == (
            other.seat, other.stock_draws, other._events, other.discards, other.taken, other.declined)

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # copy and pickle by fields (a class compiled by mypyc is not rebuilt without its seat)
        return _info_state, (self.seat, self._events, self.discards, self.taken, self.declined, self.stock_draws)

    def copy(self) -> InfoState:
        return _info_state(self.seat, list(self._events), self.discards, self.taken, self.declined, self.stock_draws)


def _info_state(seat: int, events: list[Event], discards: tuple[int, ...], taken: tuple[int, ...],
                declined: tuple[int, ...], stock_draws: int) -> InfoState:
    info = InfoState(seat)
    info._events = events
    info.discards = discards
    info.taken = taken
    info.declined = declined
    info.stock_draws = stock_draws
    return info


def record_step(infos: list[InfoState], seat: int, action: Action, drawn: int, top: int) -> None:
    """Record one step in both seats' information states, hiding what the other seat may not see.

    ``drawn`` is the stock card drawn (or -1), seen by its drawer only; a knock's face-down
    discard is seen by the knocker only; a pile take shows the card taken (``top``, the
    face-up pile card the step faced, or -1) to both. A public step gives one event both
    seats share; the other seat also learns from it about its opponent. Events come from
    tables built once (one object per seat and action or card), so a step allocates nothing.
    """
    mine = infos[seat]
    other = infos[1 - seat]
    kind = action.kind
    # The commonest kinds first: a discard, then a draw.
    if kind is _K_DISCARD:
        ev = _PUBLIC_EVENTS[seat][action.code]
        other.discards += (action.card,)
    elif kind is _K_STOCK:
        mine._events.append(_STOCK_EVENTS[seat][drawn])
        other._events.append(_HIDDEN_STOCK[seat])
        other.stock_draws += 1
        if top >= 0:
            other.declined += (top,)
        return
    elif kind is _K_PILE:
        ev = _PILE_EVENTS[seat][top]
        other.taken += (top,)
    elif kind is _K_KNOCK:
        mine._events.append(_PUBLIC_EVENTS[seat][action.code])
        other._events.append(_HIDDEN_KNOCK[seat])
        return
    else:
        ev = _PUBLIC_EVENTS[seat][action.code]
        if kind is _K_PASS and top >= 0:
            other.declined += (top,)
    mine._events.append(ev)
    other._events.append(ev)


def _event_tables() -> tuple[list[tuple[Event, ...]], list[tuple[Event, ...]], list[tuple[Event, ...]]]:
    """Per seat: the event of each action as both seats see it (by integer code; a knock as the
    knocker sees it), of each pile take and of each stock draw as the drawer sees it (by card)."""
    public = [tuple(Event(s, a.kind, a.card, a.meld, a.target) for a in ACTIONS) for s in (0, 1)]
    pile = [tuple(Event(s, Kind.PILE, c) for c in range(52)) for s in (0, 1)]
    stock = [tuple(Event(s, Kind.STOCK, c) for c in range(52)) for s in (0, 1)]
    return public, pile, stock


_PUBLIC_EVENTS, _PILE_EVENTS, _STOCK_EVENTS = _event_tables()
#: ``_BITS(c)``: ``1 << c`` by table look-up.
_BITS = tuple(1 << c for c in range(52)).__getitem__
#: Per seat, what the other seat sees of its stock draw and of its knock: no card.
_HIDDEN_STOCK = tuple(Event(seat, Kind.STOCK, -1) for seat in (0, 1))
_HIDDEN_KNOCK = tuple(Event(seat, Kind.KNOCK, -1) for seat in (0, 1))


class SeatView(NamedTuple):
    """What one seat knows. Masks are 52-bit card masks.

    An immutable record (a named tuple: the cheapest to build, and every decision gets one);
    ``view._replace(field=...)`` gives a changed copy.
    """

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
        # The pile's cards are distinct, so the sum of their bits is their mask.
        m = self.hand | self.opponent_known | sum(map(_BITS, self.pile))
        if self.knock_discard is not None:
            m |= 1 << self.knock_discard
        return m

    def to_json(self) -> dict[str, Any]:
        """Plain data for a server message or a log."""

        cs = _card_strs
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


def _card_strs(mask: int) -> list[str]:
    return [card_str(c) for c in cards_of(mask)]


#: ``_new_view(SeatView, values)``: a view from all its fields in order, without the keyword
#: handling of ``SeatView(...)`` (a third of its time).
_new_view = tuple.__new__


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

    def legal(self) -> tuple[Action, ...]: ...


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
    # The seat's events as a tuple: every step adds one to both seats' lists, so in play the
    # last view's tuple is always out of date; copying is cheaper than checking.
    events = tuple(info._events)
    hands = hand.hands
    opp = hands[1 - seat]
    current = hand.current
    knocker = hand.knocker
    if current == seat:
        taken, must_knock, legal = hand.taken, hand.must_knock, hand.legal()
    else:
        taken, must_knock, legal = None, False, ()
    if knocker is None:
        # Before a knock (most of a hand): nothing laid out, no face-down discard.
        return _new_view(SeatView, (
            seat, hand.dealer, hand.phase, current, hand.rules, hand.knock_limit, hands[seat], opp.bit_count(),
            hand.shown[1 - seat] & opp, tuple(hand.pile), hand.upcard, len(hand.stock), taken, must_knock, legal,
            events, None, None, (), (), (), (), hand.result, scores, info.discards,
            info.taken, info.declined, info.stock_draws,
        ))
    known = opponent_known(hand, seat)
    knock_discard = hand.knock_discard if knocker == seat else None
    return _new_view(SeatView, (
        seat, hand.dealer, hand.phase, current, hand.rules, hand.knock_limit, hands[seat], opp.bit_count(),
        known, tuple(hand.pile), hand.upcard, len(hand.stock), taken, must_knock, legal, events, knocker,
        knock_discard, tuple(hand.knocker_melds), tuple(hand.laid_on), tuple(hand.defender_melds),
        tuple(hand.layoffs), hand.result, scores, info.discards,
        info.taken, info.declined, info.stock_draws,
    ))
