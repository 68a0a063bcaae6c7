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
from typing import TYPE_CHECKING, Any

from .actions import Action, Kind
from .cards import card_str, cards_of
from .rules import Rules

if TYPE_CHECKING:
    from .hand import Hand, Phase


@dataclass(frozen=True, slots=True)
class Event:
    """One step of the hand as a seat saw it. ``card`` is -1 where the seat may not see it."""

    seat: int
    kind: Kind
    card: int = -1
    meld: int = 0
    target: int = -1

    def text(self) -> str:
        if self.kind is Kind.STOCK:
            return f"stock {card_str(self.card)}" if self.card >= 0 else "stock"
        if self.kind is Kind.KNOCK:
            return f"knock {card_str(self.card)}" if self.card >= 0 else "knock"
        return str(Action(self.kind, self.card, self.meld, self.target))


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

    @property
    def my_turn(self) -> bool:
        return self.current == self.seat

    @property
    def opponent(self) -> int:
        return 1 - self.seat

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


def observe(hand: Hand, seat: int, scores: tuple[int, int] = (0, 0)) -> SeatView:
    """Build ``seat``'s view of ``hand``: what that seat may see, and nothing else."""
    from .hand import Phase

    if seat not in (0, 1):
        raise ValueError(f"seat must be 0 or 1, not {seat!r}")
    opp = 1 - seat
    phase = hand.phase
    known = hand.shown[opp] & hand.hands[opp]
    if hand.knocker == opp and hand.knock_discard is not None:
        # The knock discard goes face down: a card this seat saw the knocker take stays known
        # until the knocker's hand is face up; only then does its absence show.
        known |= hand.shown[opp] & 1 << hand.knock_discard
    if hand.knocker is not None:
        # After a knock each hand goes face up once its owner has finished laying it out
        # (melds apart from deadwood): the knocker's when the defender starts, the
        # defender's when layoffs start. Melds already on the table are public before that.
        if opp == hand.knocker:
            revealed = phase is not Phase.LAYOUT
            melds = hand.knocker_melds
        else:
            revealed = phase is Phase.LAYOFF or phase is Phase.OVER
            melds = hand.defender_melds
        if revealed:
            known = hand.hands[opp]
        else:
            for m in melds:
                known |= m & hand.hands[opp]
    events = []
    for step in hand.history:
        a = step.action
        if a.kind is Kind.STOCK:
            events.append(Event(step.seat, Kind.STOCK, step.drawn if step.seat == seat else -1))
        elif a.kind is Kind.KNOCK:
            events.append(Event(step.seat, Kind.KNOCK, a.card if step.seat == seat else -1))
        else:
            events.append(Event(step.seat, a.kind, a.card, a.meld, a.target))
    mine = hand.current == seat
    return SeatView(
        seat=seat,
        dealer=hand.dealer,
        phase=hand.phase,
        current=hand.current,
        rules=hand.rules,
        knock_limit=hand.knock_limit,
        hand=hand.hands[seat],
        opponent_size=hand.hands[opp].bit_count(),
        opponent_known=known,
        pile=tuple(hand.pile),
        upcard=hand.upcard,
        stock_size=len(hand.stock),
        taken=hand.taken if mine else None,
        must_knock=hand.must_knock if mine else False,
        legal=tuple(hand.legal_actions()) if mine else (),
        events=tuple(events),
        knocker=hand.knocker,
        knock_discard=hand.knock_discard if hand.knocker == seat else None,
        knocker_melds=tuple(hand.knocker_melds),
        laid_on=tuple(hand.laid_on),
        defender_melds=tuple(hand.defender_melds),
        layoffs=tuple(hand.layoffs),
        result=hand.result,
        scores=scores,
    )
