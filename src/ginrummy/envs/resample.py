"""Deals a seat cannot tell from the real one, for determinizing search (ISMCTS, PIMC, ...).

:func:`resample` takes one seat's :class:`~ginrummy.observation.SeatView` and nothing else, so it
cannot leak what that view hides: the opponent's hidden cards, the stock and a face-down knock
discard are drawn afresh. It returns a :class:`World`: a deck and the hand's actions that, played
by the engine, give that seat exactly the same view (checked on every world it returns).

How the hidden cards are drawn. The cards the seat has not seen go to the opponent's dealt cards,
the opponent's stock draws (in order) and the stock left. A card the opponent later showed
(discarded face up, or holds face up now) without having taken it from the pile must have come
from its deal or from a draw made before it showed it: such a card is placed first, in the order
of those deadlines, in a slot allowed to it, chosen uniformly (the allowed slots are nested, so
this is uniform over all placements that respect the deadlines); the other unseen cards fill the
rest at random. A world in which an opponent's action turns out illegal (a knock its sampled cards
do not allow) is thrown away and drawn again, so the worlds are uniform over the deals consistent
with the seat's view and the rules (the opponent's strategy is not modelled).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..actions import STOCK, Action, Kind
from ..errors import GinRummyError
from ..events import Event, Phase
from ..hand import Hand
from ..observation import SeatView, observe
from ..rules import Rules

_K_DISCARD = Kind.DISCARD
_K_KNOCK = Kind.KNOCK
_K_PILE = Kind.PILE
_K_STOCK = Kind.STOCK

#: Worlds drawn before giving up (a consistent view needs one or a few; only a seat that asks
#: during the opponent's unfinished layout, whose hand must still allow its knock, needs more).
MAX_TRIES = 20_000


@dataclass(frozen=True)
class World:
    """A complete deal and the actions that replay the hand to the seat's view.

    ``deck`` is in the engine's order (see :mod:`ginrummy.hand`): ``deck[:21]`` the deal and the
    upcard, then the stock from the top, so the stock draws, in order, are ``deck[21:21 + n]``.
    """

    rules: Rules
    dealer: int
    deck: tuple[int, ...]
    actions: tuple[int, ...]

    def hand(self) -> Hand:
        """The engine's hand of this world (every action checked by the rules)."""
        h = Hand(self.rules, self.dealer)
        h.deal(list(self.deck))
        for a in self.actions:
            h.apply(a)
        return h

    @property
    def draws(self) -> tuple[int, ...]:
        """The stock cards drawn so far, in order (both seats)."""
        n = sum(1 for a in self.actions if a == int(STOCK))
        return self.deck[21 : 21 + n]


class ResampleError(GinRummyError):
    """No deal consistent with the view was found (a view that no real hand could give)."""


def _deal_slots(rules: Rules, dealer: int, seat: int) -> list[int]:
    """Deck positions dealt to ``seat``."""
    non_dealer = 1 - dealer
    slots = [i for i in range(20) if (i % 2 == 0) == (seat == non_dealer)]
    if not rules.upcard and seat == non_dealer:
        slots.append(20)
    return slots


@dataclass
class _Reading:
    """What the seat's events tell about where cards came from."""

    dealt: list[int]  # the seat's own dealt cards
    own_draws: list[int]  # stock cards the seat drew, in order
    draw_owner: list[int]  # for each stock draw in order, the seat that drew
    #: (card, deadline): an opponent card from a hidden source, shown before its ``deadline``-th draw.
    shown: list[tuple[int, int]]


def _read(view: SeatView) -> _Reading:
    seat, opp = view.seat, 1 - view.seat
    count = [0] * 52
    for c in range(52):
        if view.hand >> c & 1:
            count[c] += 1
    own_draws: list[int] = []
    owner: list[int] = []
    opp_from_pile: set[int] = set()
    opp_draws = 0
    first_shown: dict[int, int] = {}
    for e in view.events:
        k, c = e.kind, e.card
        if e.seat == seat:
            if k is _K_STOCK:
                own_draws.append(c)
                owner.append(seat)
                count[c] -= 1
            elif k is _K_PILE:
                count[c] -= 1
            elif k is _K_DISCARD or k is _K_KNOCK:
                count[c] += 1
            continue
        if k is _K_STOCK:
            owner.append(opp)
            opp_draws += 1
        elif k is _K_PILE:
            opp_from_pile.add(c)
        elif k is _K_DISCARD:
            if c in opp_from_pile:
                opp_from_pile.discard(c)
            else:
                first_shown.setdefault(c, opp_draws)
    held = view.opponent_known
    for c in range(52):
        if held >> c & 1 and c not in opp_from_pile:
            first_shown.setdefault(c, opp_draws)
    if any(n not in (0, 1) for n in count):
        raise ResampleError("the view's own cards do not add up (a view no hand could give)")
    dealt = [c for c in range(52) if count[c]]
    return _Reading(dealt, own_draws, owner, sorted(first_shown.items(), key=lambda x: x[1]))


def _draw_deck(view: SeatView, r: _Reading, rng: random.Random) -> list[int] | None:
    """One deck consistent with the reading (before the rules are checked)."""
    rules, dealer, seat, opp = view.rules, view.dealer, view.seat, 1 - view.seat
    deck: list[int | None] = [None] * 52
    mine = _deal_slots(rules, dealer, seat)
    theirs = _deal_slots(rules, dealer, opp)
    if len(r.dealt) != len(mine):
        raise ResampleError(f"the view's dealt cards number {len(r.dealt)}, not {len(mine)}")
    for slot, c in zip(mine, r.dealt, strict=True):
        deck[slot] = c
    if view.upcard is not None:
        deck[20] = view.upcard
    own = iter(r.own_draws)
    opp_draw_slots: list[int] = []
    for i, who in enumerate(r.draw_owner):
        if who == seat:
            deck[21 + i] = next(own)
        else:
            opp_draw_slots.append(21 + i)
    # Slots the opponent's cards came from, oldest first: its deal, then its draws in order.
    ordered = theirs + opp_draw_slots
    free = [True] * len(ordered)
    placed: set[int] = set()
    for card, deadline in r.shown:
        allowed = [i for i in range(len(theirs) + deadline) if free[i]]
        if not allowed:
            return None
        i = rng.choice(allowed)
        free[i] = False
        deck[ordered[i]] = card
        placed.add(card)
    used = {c for c in deck if c is not None}
    rest = [c for c in range(52) if c not in used]
    rng.shuffle(rest)
    it = iter(rest)
    for i, slot in enumerate(ordered):
        if free[i]:
            deck[slot] = next(it)
    for slot in range(52):
        if deck[slot] is None:
            deck[slot] = next(it)
    return [c for c in deck if c is not None]


def _action_of(e: Event) -> Action:
    if e.kind is _K_PILE:
        return Action(Kind.PILE)
    if e.kind is _K_STOCK:
        return STOCK
    return Action(e.kind, e.card, e.meld, e.target)


def _replay(view: SeatView, deck: list[int], rng: random.Random) -> World | None:
    """Play the view's events on ``deck``; None when the rules refuse one (a wrong world)."""
    h = Hand(view.rules, view.dealer)
    h.deal(deck)
    opp = 1 - view.seat
    actions: list[int] = []
    try:
        for e in view.events:
            if e.seat == opp and e.kind is _K_KNOCK:
                a = _opponent_knock(h, view, rng)
                if a is None:
                    return None
            else:
                a = _action_of(e)
            h.apply(a)
            actions.append(int(a))
    except GinRummyError:
        return None
    if observe(h, view.seat, view.scores) != view:
        return None
    return World(view.rules, view.dealer, tuple(deck), tuple(actions))


def _opponent_knock(h: Hand, view: SeatView, rng: random.Random) -> Action | None:
    """The opponent's face-down knock discard in this world.

    Its hand once laid out tells which card is missing; before that any card it may knock with
    that the seat has not seen will do (the later melds are checked as they are replayed).
    """
    opp = 1 - view.seat
    hand = h.hands[opp]
    if view.phase is not Phase.LAYOUT or view.knocker != opp:
        rest = hand & ~view.opponent_known
        # Laid out: exactly one card of its hand is not in the view (the face-down one).
        if rest.bit_count() == 1:
            return Action.knock(rest.bit_length() - 1)
    candidates = [c for c in range(52) if hand >> c & 1 and not view.opponent_known >> c & 1]
    rng.shuffle(candidates)
    for c in candidates:
        a = Action.knock(c)
        if h.is_legal(a):
            return a
    return None


def resample(view: SeatView, rng: random.Random | None = None, tries: int = MAX_TRIES) -> World:
    """A world the seat of ``view`` cannot tell from the real one (see the module docstring).

    >>> from ginrummy.hand import new_hand
    >>> h = new_hand(Rules(), dealer=1, seed=4)
    >>> for a in ('pass', 'pass', 'stock'):
    ...     _ = h.apply(a)
    >>> w = resample(observe(h, 1), random.Random(0))
    >>> observe(w.hand(), 1) == observe(h, 1), w.deck[:20:2] == tuple(h.deck[:20:2])
    (True, False)
    """
    if view.phase is Phase.DEAL:
        raise ResampleError("the hand has not been dealt: there is nothing to resample")
    rng = rng or random.Random()
    reading = _read(view)
    for _ in range(tries):
        deck = _draw_deck(view, reading, rng)
        if deck is None:
            continue
        world = _replay(view, deck, rng)
        if world is not None:
            return world
    raise ResampleError(f"no deal consistent with seat {view.seat}'s view was found in {tries} tries")


__all__ = ["MAX_TRIES", "ResampleError", "World", "resample"]
