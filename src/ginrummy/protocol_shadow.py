"""The engine protocol's shadow hand: what a seat knows of a hand, kept as a core :class:`Hand`.

The engine (:mod:`ginrummy.protocol`) never holds hidden information: its shadow hand has the
seat's own cards, the pile and every face-up action exact, and *placeholders* for the cards the
seat cannot see. The functions here move placeholders when the host reveals a card, and rebuild
the opponent's knock once its layout is known, so the core's rules check every event. A message
that contradicts the seat's knowledge raises :class:`ProtocolError` with the state unchanged.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .actions import BIG_GIN, DONE, Action
from .cards import Card, card_str, cards_of, mask_of, parse_card
from .events import Phase
from .hand import Hand
from .observation import SeatView, observe, opponent_known
from .rules import Rules

Message = dict[str, Any]


class ProtocolError(Exception):
    """A message the engine refuses: it is answered with an ``error`` line and changes nothing."""

    def __init__(self, message: str, rule: str = "") -> None:
        super().__init__(message)
        self.rule = rule


# --------------------------------------------------------------------------- field readers


def seat_field(msg: Message, key: str) -> int:
    value = msg.get(key)
    if type(value) is not int or value not in (0, 1):
        raise ProtocolError(f"'{key}' must be 0 or 1, not {json.dumps(value)}")
    return int(value)


def card_field(value: Any, what: str) -> Card:
    if not isinstance(value, str):
        raise ProtocolError(f"{what} must be a card string such as \"7h\", not {json.dumps(value)}")
    return parse_card(value)


def cards_field(value: Any, what: str) -> int:
    """A JSON list of distinct card strings, as a mask."""
    if not isinstance(value, list):
        raise ProtocolError(f"{what} must be a list of card strings such as [\"As\", \"7h\"]")
    cards = [card_field(v, f"each card of {what}") for v in value]
    mask = mask_of(cards)
    if mask.bit_count() != len(cards):
        raise ProtocolError(f"{what} holds a card twice")
    return mask


def card_names(mask: int) -> str:
    return " ".join(card_str(c) for c in cards_of(mask)) or "nothing"


# --------------------------------------------------------------------------- the shadow hand


def opp_public(h: Hand, opp: int) -> int:
    """The opponent's cards that are face up to the seat and still in its hand."""
    return opponent_known(h, 1 - opp) & h.hands[opp]


def where(h: Hand, seat: int, card: Card) -> str:
    """Why the seat knows ``card`` is not free, for error messages."""
    name = card_str(card)
    if h.hands[seat] >> card & 1:
        return f"{name} is in your hand"
    if card in h.pile:
        return f"{name} is on the discard pile"
    if h.knocker == seat and h.knock_discard == card:
        return f"{name} is your face-down knock discard"
    if opp_public(h, 1 - seat) >> card & 1:
        return f"{name} is already face up in the opponent's hand"
    return f"{name} is not an unseen card"


def hold(h: Hand, seat: int, cards: int, keep: int = 0) -> None:
    """Make the shadow opponent hold ``cards`` by swapping placeholders with the stock.

    A card the seat has never seen may be anywhere unseen; one it has seen must already be in the
    opponent's hand. ``keep`` are opponent cards that must not be swapped out.
    """
    opp = 1 - seat
    missing = cards & ~h.hands[opp]
    if not missing:
        return
    free = h.hands[opp] & ~opp_public(h, opp) & ~cards & ~keep
    for c in cards_of(missing):
        if c not in h.stock:
            raise ProtocolError(f"the opponent cannot hold {card_str(c)}: {where(h, seat, c)}", rule="cards")
        if not free:
            raise ProtocolError(
                f"the opponent cannot hold {card_names(cards)}: it has only {h.hands[opp].bit_count()} cards "
                f"and {card_names(opp_public(h, opp))} of them are known",
                rule="cards",
            )
        u = free & -free
        free ^= u
        out = u.bit_length() - 1
        h.hands[opp] ^= u | 1 << c
        h.stock[h.stock.index(c)] = out


def put_on_stock_top(h: Hand, seat: int, card: Card) -> None:
    """Make ``card`` the top of the shadow stock before the seat draws it."""
    if not h.stock:
        raise ProtocolError("the stock is empty", rule="draw")
    if card in h.stock:
        i = h.stock.index(card)
        h.stock[i], h.stock[-1] = h.stock[-1], card
        return
    opp = 1 - seat
    if h.hands[opp] >> card & 1 and not opp_public(h, opp) >> card & 1:
        top = h.stock[-1]
        h.hands[opp] ^= 1 << card | 1 << top
        h.stock[-1] = card
        return
    raise ProtocolError(f"you cannot draw {card_str(card)} from the stock: {where(h, seat, card)}", rule="draw")


def taken_only_to_knock(h: Hand) -> bool:
    """The player to act may take the top discard only if it then knocks (last chance, or a
    throw-back of its own card)."""
    top = h.top_discard
    if top is None:
        return False
    if h.phase is Phase.LAST_CHANCE:
        return True
    return (
        h.phase is Phase.DRAW
        and not h.stock_only
        and h.rules.throw_back
        and h.first_thrower.get(top) == h.current
    )


def shadow_deal(rules: Rules, seat: int, dealer: int, own: int, upcard: Card | None) -> Hand:
    """A dealt shadow hand: the seat's cards where the deal put them, unseen cards elsewhere."""
    non_dealer = 1 - dealer
    own_slots = [i for i in range(20) if (i % 2 == 0) == (seat == non_dealer)]
    if upcard is None and seat == non_dealer:
        own_slots.append(20)
    deck: list[Card | None] = [None] * 52
    for slot, c in zip(own_slots, cards_of(own), strict=True):
        deck[slot] = c
    if upcard is not None:
        deck[20] = upcard
    unseen = iter(cards_of(((1 << 52) - 1) & ~own & ~(0 if upcard is None else 1 << upcard)))
    full = [c if c is not None else next(unseen) for c in deck]
    h = Hand(rules, dealer)
    h.deal(full)
    return h


@dataclass
class PendingKnock:
    """The opponent announced a knock (or big gin); its layout is checked at its ``done``."""

    before: Hand
    big_gin: bool
    melds: list[int] = field(default_factory=list)


@dataclass
class SeatHand:
    """One hand as the engine's seat knows it."""

    seat: int
    shadow: Hand
    scores: tuple[int, int]
    pending: PendingKnock | None = None
    finished: bool = False

    @property
    def opp(self) -> int:
        return 1 - self.seat

    def view(self) -> SeatView:
        return observe(self.shadow, self.seat, self.scores)


def provisional_layout(seat: int, pending: PendingKnock) -> Hand:
    """The shadow during the opponent's layout: the knock and melds so far, not yet checked.

    A placeholder hand cannot pass the core's knock check, so this state is built with the core's
    unchecked step; it only serves ``view`` until ``done`` replays everything with the checks.
    """
    h = pending.before.clone()
    laid = 0
    for m in pending.melds:
        laid |= m
    hold(h, seat, laid)
    opp = 1 - seat
    if pending.big_gin:
        h.apply_unchecked(BIG_GIN)
    else:
        spare = h.hands[opp] & ~laid & ~opp_public(h, opp)
        if not spare:
            spare = h.hands[opp] & ~laid
        h.apply_unchecked(Action.knock((spare & -spare).bit_length() - 1))
    for m in pending.melds:
        h.apply_unchecked(Action.lay_meld(m))
    return h


def replay_knock(seat: int, pending: PendingKnock, deadwood_cards: int) -> Hand:
    """Check the opponent's knock once its ten (or eleven) cards are known, by the core's rules."""
    opp = 1 - seat
    before = pending.before
    laid = 0
    for m in pending.melds:
        laid |= m
    if laid & deadwood_cards:
        raise ProtocolError(f"{card_names(laid & deadwood_cards)} both laid in a meld and listed as deadwood")
    kept = laid | deadwood_cards
    size = 11 if pending.big_gin else 10
    if kept.bit_count() != size:
        raise ProtocolError(
            f"the knocker's melds and deadwood hold {kept.bit_count()} cards; "
            f"{'big gin lays out all 11' if pending.big_gin else 'a knocker keeps 10 after the face-down discard'}",
            rule="knock",
        )
    h = before.clone()
    known = opp_public(h, opp)
    left_out = known & ~kept
    if left_out.bit_count() > (0 if pending.big_gin else 1):
        raise ProtocolError(f"the knocker held {card_names(left_out)}, which the layout leaves out", rule="knock")
    hold(h, seat, kept)
    if pending.big_gin:
        h.apply(BIG_GIN)
    else:
        # The face-down discard: a known card the layout left out, or else any unseen placeholder.
        spare = left_out or h.hands[opp] & ~kept
        if not spare:
            raise ProtocolError("the knocker's hand has no card left to discard face down", rule="knock")
        h.apply(Action.knock((spare & -spare).bit_length() - 1))
    for m in pending.melds:
        h.apply(Action.lay_meld(m))
    h.apply(DONE)
    return h
