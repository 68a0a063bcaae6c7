"""Reading the opponent's hand from its moves: a particle filter over the seat's own view.

Each particle is one guess at the opponent's hidden cards. The hand's events are replayed
from the deal as the seat saw them; at each opponent move every guess is weighted by how
well it explains the move under the habits of nearly every player and rule-of-thumb bot:

* a pile card is taken when it joins a meld of the hand, and passed over when it does not;
* the card thrown is the highest-valued unmelded card (not the one just taken);
* a player who could knock, does.

A broken habit multiplies the weight by a small factor instead of ruling the guess out, so a
player with other habits only makes the filter less sharp, never wrong. Cards become certain
as they show up (a discard swaps the thrown card into every guess that lacked it; a card
the seat draws itself leaves every guess that held it).

Only the seat's :class:`~ginrummy.observation.SeatView` goes in: the real hidden cards and
the stock order are never read, so the filter cannot leak them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..actions import Kind
from ..cards import CARD_VALUES, FULL_DECK, cards_of
from ..melds import best_arrangement, joins_meld

if TYPE_CHECKING:
    from ..observation import SeatView

_K_DISCARD = Kind.DISCARD
_K_PILE = Kind.PILE
_K_STOCK = Kind.STOCK
_K_PASS = Kind.PASS


def _pick(rng: random.Random, mask: int) -> int:
    """A uniformly random card of a non-empty mask."""
    cards = cards_of(mask)
    return cards[rng.randrange(len(cards))]


def _initial_hand(view: SeatView) -> tuple[int, list[int]]:
    """The seat's hand at the deal, and the card each pile draw took (in event order)."""
    me = view.seat
    pile: list[int] = [] if view.upcard is None else [view.upcard]
    taken: list[int] = []
    for e in view.events:
        k = e.kind
        if k is _K_DISCARD:
            pile.append(e.card)
        elif k is _K_PILE:
            taken.append(pile.pop() if pile else -1)
    hand = view.hand
    i = len(taken)
    for e in reversed(view.events):
        k = e.kind
        if k is _K_PILE:
            i -= 1
            if e.seat == me and taken[i] >= 0:
                hand &= ~(1 << taken[i])
        elif e.seat != me:
            continue
        elif k is _K_DISCARD:
            hand |= 1 << e.card
        elif k is _K_STOCK and e.card >= 0:
            hand &= ~(1 << e.card)
    return hand, taken


def infer_opponent(
    view: SeatView,
    rng: random.Random,
    particles: int = 64,
    eps_draw: float = 0.2,
    eps_discard: float = 0.2,
    eps_knock: float = 0.1,
) -> list[tuple[int, float]]:
    """Weighted guesses ``(opponent hand mask, weight)`` for the opponent's current hand.

    Every guess holds the opponent's known cards and exactly as many other cards as it
    holds face down; the weights sum to 1. Empty when there is nothing to guess.
    """
    opp = 1 - view.seat
    limit = view.knock_limit
    start, taken_cards = _initial_hand(view)
    upcard = view.upcard
    pool = FULL_DECK & ~start
    if upcard is not None:
        pool &= ~(1 << upcard)
    opp_size0 = 10
    # The opponent's initial hand: 10 cards from the pool (11 for the non-dealer without upcard).
    if not view.rules.upcard:
        opp_size0 = 11 if opp != view.dealer else 10
        # Without an upcard the non-dealer's 11th card is the deck's 21st: unknown here, hidden.
    hands = []
    for _ in range(particles):
        h = 0
        left = pool
        for _ in range(opp_size0):
            c = _pick(rng, left)
            h |= 1 << c
            left &= ~(1 << c)
        hands.append(h)
    weights = [1.0] * particles
    known = 0  # opponent cards we saw it take
    pile: list[int] = [] if upcard is None else [upcard]
    took_now = -1  # the card the opponent took this turn (not its discard)
    prev_kind = None
    ti = 0
    for e in view.events:
        k = e.kind
        if k is _K_DISCARD:
            c = e.card
            bit = 1 << c
            if e.seat == opp:
                pool &= ~bit
                for i in range(particles):
                    h = hands[i]
                    full = h | known
                    if not h & bit and not known & bit:
                        h = h & ~(1 << _pick(rng, h)) if h else h
                        full = h | known | bit
                    else:
                        full = h | known
                    # Likelihood: the highest unmelded card, and no knock after it.
                    _, melds = best_arrangement(full)
                    loose = full
                    for m in melds:
                        loose &= ~m
                    if took_now >= 0:
                        loose &= ~(1 << took_now)
                    w = weights[i]
                    if not loose >> c & 1 or any(CARD_VALUES[x] > CARD_VALUES[c] for x in cards_of(loose)):
                        w *= eps_discard
                    rest = full & ~bit
                    d, _ = best_arrangement(rest)
                    if d <= limit:
                        w *= eps_knock
                    weights[i] = w
                    hands[i] = h & ~bit
                known &= ~bit
                took_now = -1
            pile.append(c)
        elif k is _K_PILE:
            card = taken_cards[ti]
            ti += 1
            if card >= 0:
                pile.pop()
                if e.seat == opp:
                    for i in range(particles):
                        if not joins_meld(hands[i] | known, card):
                            weights[i] *= eps_draw
                    known |= 1 << card
                    took_now = card
        elif k is _K_STOCK:
            if e.seat == opp:
                forced = prev_kind is _K_PASS
                if pile and not forced:
                    top = pile[-1]
                    for i in range(particles):
                        if joins_meld(hands[i] | known, top):
                            weights[i] *= eps_draw
                for i in range(particles):
                    free = pool & ~hands[i]
                    if free:
                        hands[i] |= 1 << _pick(rng, free)
                took_now = -1
            elif e.card >= 0:
                bit = 1 << e.card
                pool &= ~bit
                for i in range(particles):
                    if hands[i] & bit:
                        free = pool & ~hands[i]
                        hands[i] &= ~bit
                        if free:
                            hands[i] |= 1 << _pick(rng, free)
        elif k is _K_PASS:
            if e.seat == opp and pile:
                top = pile[-1]
                for i in range(particles):
                    if joins_meld(hands[i] | known, top):
                        weights[i] *= eps_draw
        else:
            break  # a knock: the layout shows the rest
        prev_kind = k
        total = sum(weights)
        if total <= 0:
            weights = [1.0] * particles
            continue
        ess = total * total / sum(w * w for w in weights)
        if ess < particles / 2:
            hands, weights = _resample(rng, hands, weights, total)
    # Cards seen since (our hand now, the pile) cannot be hidden opponent cards.
    seen = view.hand | known
    for c in view.pile:
        seen |= 1 << c
    total = sum(weights)
    out = []
    for h, w in zip(hands, weights, strict=True):
        out.append(((h & ~seen) | view.opponent_known | known, w / total if total else 1.0 / particles))
    return out


def _resample(
    rng: random.Random, hands: Sequence[int], weights: Sequence[float], total: float
) -> tuple[list[int], list[float]]:
    """Systematic resampling: equal weights, guesses kept in proportion to their weight."""
    n = len(hands)
    step = total / n
    u = rng.random() * step
    out = []
    acc = weights[0]
    j = 0
    for _ in range(n):
        while u > acc and j < n - 1:
            j += 1
            acc += weights[j]
        out.append(hands[j])
        u += step
    return out, [1.0] * n


__all__ = ["infer_opponent"]
