"""The expert's model of the opponent's hidden cards, from what its seat has seen.

Every card the seat has not seen is weighted by what the opponent threw away (it does not want
that rank or its neighbours), took from the pile (it does) and declined (it did not need it);
around a card it took and still holds, the chances are conditioned on a meld with that card
being in its hand. The closed-form chances below (a card joining a meld, laying off, being the
next discard) read those per-card chances as independent.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING

from ...cards import CARD_VALUES, FULL_DECK, cards_of
from ...melds import best_arrangement, deadwood
from .params import ExpertParams

if TYPE_CHECKING:
    from ...observation import SeatView

#: The opponent's chance to knock on its next turn by the value of its last discard, relative to
#: its average (measured for ``simple`` by ``bench/hazard_quality.py``): a player who throws its
#: highest loose card and has thrown a low one holds only low loose cards.
HAZARD_BY_LAST = (1.0, 2.0, 2.0, 2.0, 2.0, 2.0, 1.65, 1.4, 1.0, 0.8, 0.8)


@dataclass
class Knowledge:
    """What the seat knows about the cards, built once per decision from the view."""

    me: int
    unseen: int
    opp_known: int
    opp_hidden: int  # number of the opponent's cards we have not seen
    #: Per card: probability it is in the opponent's hidden hand (0 for seen cards).
    p_opp: list[float]
    opp_stock_draws: int
    opp_discards: tuple[int, ...] = ()
    opp_taken: tuple[int, ...] = ()
    opp_declined: tuple[int, ...] = ()

    @property
    def unseen_cards(self) -> list[int]:
        return cards_of(self.unseen)


def build_knowledge(view: SeatView, params: ExpertParams) -> Knowledge:
    """The unseen cards and the probability that each is in the opponent's hand."""
    me = view.hand
    unseen = FULL_DECK & ~view.seen
    opp_hidden = max(0, view.opponent_size - view.opponent_known.bit_count())
    discards, taken, declined = view.opponent_discards, view.opponent_taken, view.opponent_declined
    w = [0.0] * 52
    ucards = cards_of(unseen)
    for c in ucards:
        w[c] = 1.0

    def push(card: int, rank_f: float, adj_f: float, two_f: float) -> None:
        r, s = card % 13, card // 13
        for t in range(4):
            x = t * 13 + r
            if x != card and unseen >> x & 1:
                w[x] *= rank_f
        for d, f in ((1, adj_f), (2, two_f)):
            for rr in (r - d, r + d):
                if 0 <= rr < 13:
                    x = s * 13 + rr
                    if unseen >> x & 1:
                        w[x] *= f

    p = params
    # Each card counts once as evidence: a card passed back and forth must not compound.
    for c in dict.fromkeys(discards):
        push(c, p.discard_rank, p.discard_adj, p.discard_two)
    for c in dict.fromkeys(taken):
        push(c, p.take_rank, p.take_adj, p.take_two)
    for c in dict.fromkeys(declined):
        push(c, p.decline_rank, p.decline_adj, 1.0)
    for c in ucards:
        w[c] = min(max(w[c], 1e-4), 1e4)
    total = sum(w[c] for c in ucards)
    p_opp = [0.0] * 52
    if total > 0 and opp_hidden:
        scale = opp_hidden / total
        # Cap at 0.95 and spread the excess, a few passes are plenty.
        for c in ucards:
            p_opp[c] = w[c] * scale
        for _ in range(3):
            over = 0.0
            free = 0.0
            for c in ucards:
                if p_opp[c] > 0.95:
                    over += p_opp[c] - 0.95
                    p_opp[c] = 0.95
                elif p_opp[c] < 0.95:
                    free += p_opp[c]
            if over <= 1e-9 or free <= 0:
                break
            f = 1 + over / free
            for c in ucards:
                if p_opp[c] < 0.95:
                    p_opp[c] *= f
    if params.take_melds and total > 0 and opp_hidden:
        for t in dict.fromkeys(taken):
            if view.opponent_known >> t & 1:
                _condition_on_meld(p_opp, view.opponent_known, unseen, t)
    return Knowledge(
        me=me,
        unseen=unseen,
        opp_known=view.opponent_known,
        opp_hidden=opp_hidden,
        p_opp=p_opp,
        opp_stock_draws=view.opponent_stock_draws,
        opp_discards=discards,
        opp_taken=taken,
        opp_declined=declined,
    )


def meld_join_chance(p_opp: list[float], known: int, x: int) -> float:
    """Chance that card ``x`` joins a meld of the opponent's hand, the cards held independently.

    A set needs two of the other three cards of the rank; a run needs both neighbours on one
    side or one on each side (inclusion-exclusion of the three pairs).
    """

    def q(c: int) -> float:
        return 1.0 if known >> c & 1 else p_opp[c]

    r = x % 13
    a, b, c = (q(t * 13 + r) for t in range(4) if t * 13 + r != x)
    p_set = a * b + a * c + b * c - 2 * a * b * c
    m2 = q(x - 2) if r >= 2 else 0.0
    m1 = q(x - 1) if r >= 1 else 0.0
    p1 = q(x + 1) if r <= 11 else 0.0
    p2 = q(x + 2) if r <= 10 else 0.0
    p_run = m2 * m1 + m1 * p1 + p1 * p2 - m2 * m1 * p1 - m1 * p1 * p2
    return 1.0 - (1.0 - p_set) * (1.0 - p_run)


def next_discard_chances(p_opp: list[float], known: int, cards: list[int], power: float) -> dict[int, float]:
    """Chance that each of ``cards`` is the opponent's next discard: it must hold the card, the
    card must be loose (not in one of its melds), and a player throws its high loose cards
    first, so the weight grows with the card's value to ``power``.

    >>> from ginrummy.cards import parse_card
    >>> p = [0.0] * 52
    >>> p[parse_card("Kc")] = p[parse_card("2d")] = 0.5
    >>> q = next_discard_chances(p, 0, [parse_card("Kc"), parse_card("2d")], 2.0)
    >>> round(q[parse_card("Kc")], 3), round(q[parse_card("2d")], 3)
    (0.962, 0.038)
    """
    wts = {}
    for c in cards:
        pc = p_opp[c]
        if pc > 0:
            wts[c] = pc * (1.0 - meld_join_chance(p_opp, known, c)) * CARD_VALUES[c] ** power
    tot = sum(wts.values())
    return {c: x / tot for c, x in wts.items()} if tot > 0 else {}


def _condition_on_meld(p_opp: list[float], known: int, unseen: int, t: int) -> None:
    """Sharpen the chances of the cards around ``t``, a card the opponent took and holds:
    it took it to meld, so some 3-card meld with ``t`` is (most likely) in its hand.

    The other cards are not lowered in turn, so the chances may now add up to a little more
    than the opponent's hidden cards (as measured; renormalising is untried)."""
    r, s = t % 13, t // 13
    rel = [x * 13 + r for x in range(4) if x != s]
    rel += [s * 13 + r + d for d in (-2, -1, 1, 2) if 0 <= r + d < 13]
    rel = [c for c in rel if (unseen | known) >> c & 1]
    if not rel:
        return
    q = [1.0 if known >> c & 1 else p_opp[c] for c in rel]
    idx = {c: i for i, c in enumerate(rel)}
    cands = [(idx[a], idx[b]) for a, b in combinations([c for c in rel if c % 13 == r], 2)]
    for a, b in ((-2, -1), (-1, 1), (1, 2)):
        ca, cb = t + a, t + b
        if 0 <= r + a < 13 and 0 <= r + b < 13 and ca in idx and cb in idx:
            cands.append((idx[ca], idx[cb]))
    if not cands:
        return
    n = len(rel)
    z = 0.0
    marg = [0.0] * n
    for bits in range(1 << n):
        if not any(bits >> i & 1 and bits >> j & 1 for i, j in cands):
            continue
        pr = 1.0
        for i in range(n):
            pr *= q[i] if bits >> i & 1 else 1.0 - q[i]
        if pr == 0.0:
            continue
        z += pr
        for i in range(n):
            if bits >> i & 1:
                marg[i] += pr
    if z <= 0.0:
        return
    for i, c in enumerate(rel):
        if not known >> c & 1:
            p_opp[c] = min(0.98, marg[i] / z)


def layoff_chance(p_opp: list[float], known: int, x: int) -> float:
    """Chance that card ``x`` extends a meld of the opponent's hand (a layoff)."""

    def q(c: int) -> float:
        return 1.0 if known >> c & 1 else p_opp[c]

    r = x % 13
    a, b, c = (q(t * 13 + r) for t in range(4) if t * 13 + r != x)
    p_set = a * b * c
    up = q(x + 1) * q(x + 2) * q(x + 3) if r <= 9 else 0.0
    down = q(x - 1) * q(x - 2) * q(x - 3) if r >= 3 else 0.0
    p_run = up + down - up * down
    return 1.0 - (1.0 - p_set) * (1.0 - p_run)


def drop_worst(mask: int, n: int, keep: int) -> int:
    """Drop ``n`` cards a sensible player would have thrown: highest deadwood outside melds."""
    _, melds = best_arrangement(mask)
    used = 0
    for m in melds:
        used |= m
    loose = sorted(cards_of(mask & ~used & ~keep), key=lambda c: -CARD_VALUES[c])
    for c in loose[:n]:
        mask &= ~(1 << c)
    left = n - min(n, len(loose))
    while left > 0:
        best_c, best_v = -1, 1 << 30
        for c in cards_of(mask & ~keep):
            v = deadwood(mask & ~(1 << c))
            if v < best_v:
                best_c, best_v = c, v
        if best_c < 0:
            break
        mask &= ~(1 << best_c)
        left -= 1
    return mask


__all__ = [
    "HAZARD_BY_LAST",
    "Knowledge",
    "build_knowledge",
    "drop_worst",
    "layoff_chance",
    "meld_join_chance",
    "next_discard_chances",
]
