"""The search after a discard: what an 11-card hand (a discard turn's) can leave.

The engine's knock check on every discard turn (:func:`min_deadwood_after_discard`, then
:func:`discards_within` for the cards that may knock) and the players' choice of discard
(:func:`best_discards`). Most of the code is the several-set-rank cases: a hand with two set
ranks, a rank of four, or more, each read from the per-suit tables of :mod:`ginrummy.melds`
(whose representation, tables and set unions this module shares and does not copy).

Why it is fast: once the cards used in sets are chosen, removing one card changes only its
own suit's runs deadwood, by that suit's precomputed ``DISCARD_GAIN``; so the best discard is
one small number per suit, for each way of using the sets, and no 10-card remainder is
searched card by card.

>>> from ginrummy.cards import CardSet
>>> min_deadwood_after_discard(CardSet.parse('As 2s 3s 4h 5h 6h 7c 7d 7s Kc Qd').mask)
10
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from .cards import SUIT_MASK, Card, cards_of
from .melds import (
    DEAD_AND_GAIN,
    DEAD_GAIN_WITHOUT,
    DISCARD_CARDS,
    DISCARD_GAIN,
    NEIGHBOUR_CARDS,
    NEIGHBOUR_RANKS,
    NO_DISCARD,
    RANK_MASK,
    RUN_DEAD,
    SEVERAL_RANKS,
    THREE_WAYS,
    TWO_RANKS,
    rank_ways,
    set_unions,
    triple_ranks,
)

# ---------------------------------------------------------------------------
# The least deadwood after the best discard (the knock check).


def min_deadwood_after_discard(mask: int, s0: int = -1, s1: int = 0, s2: int = 0, s3: int = 0) -> int:
    """Minimum deadwood left after the best discard from a hand of 11 (or any n > 0) cards.

    The discard never needs a loop: for the cards left after the sets, the hand's runs
    deadwood is the sum of four suits, and removing one card changes only its own suit,
    by the precomputed ``DISCARD_GAIN`` of that suit. So the answer is the sum plus the
    smallest of four gains, for each way of using sets. A card of a set rank with no
    neighbour in its suit is in no run: keeping it out of the set adds its value and at
    most wins it back as the discard, so those set choices are not tried; and discarding
    one card of a rank of four still leaves a set, so after the whole rank the best gain
    is at most 0.

    ``s0`` .. ``s3``, when given, are the mask's four 13-bit suit masks (``mask & SUIT_MASK``,
    ``mask >> 13 & SUIT_MASK``, ...), for a caller that has them already: the engine's discard
    turn splits the hand once for its discards and this.

    >>> from ginrummy.cards import CardSet
    >>> min_deadwood_after_discard(CardSet.parse('As 2s 3s 4h 5h 6h 7c 7d 7s Kc Qd').mask)
    10
    """
    if s0 < 0:
        s0 = mask & SUIT_MASK
        s1 = mask >> 13 & SUIT_MASK
        s2 = mask >> 26 & SUIT_MASK
        s3 = mask >> 39
    p = s0 & s1
    q = s2 & s3
    t = p & (s2 | s3) | q & (s0 | s1)
    if not t:
        gain = DISCARD_GAIN
        g = gain[s0]
        x = gain[s1]
        if x < g:
            g = x
        x = gain[s2]
        if x < g:
            g = x
        x = gain[s3]
        if x < g:
            g = x
        table = RUN_DEAD
        return table[s0] + table[s1] + table[s2] + table[s3] + g
    if SEVERAL_RANKS[t]:
        if TWO_RANKS[t]:
            return _after_discard_two(s0, s1, s2, s3, t, p & q)
        return _after_discard_several(mask, t)
    dg = DEAD_AND_GAIN
    # The suits without the set rank's cards (c_j, h_j), read from a table: no new ints.
    w = DEAD_GAIN_WITHOUT[t]
    c0, h0 = w[s0]
    c1, h1 = w[s1]
    c2, h2 = w[s2]
    c3, h3 = w[s3]
    if p & q:
        # A rank of four, taken whole: the four cards leave their suits.
        m01 = h0 if h0 < h1 else h1
        m23 = h2 if h2 < h3 else h3
        h = m01 if m01 < m23 else m23
        whole = c0 + c1 + c2 + c3
        best = whole + h if h < 0 else whole
        if not mask & NEIGHBOUR_CARDS[t]:
            return best
        # Three to the set and the card of suit j kept for its runs (suit j whole again:
        # a_j, g_j), where that card has a neighbour; no set at all only where two cards
        # have one (with three cards in no run it is worse than keeping just the fourth).
        nb = NEIGHBOUR_RANKS[t]
        near = 0
        if s0 & nb:
            near = 1
            a, g = dg[s0]
            o = h1 if h1 < m23 else m23
            v = whole - c0 + a + (g if g < o else o)
            if v < best:
                best = v
        if s1 & nb:
            near += 1
            a, g = dg[s1]
            o = h0 if h0 < m23 else m23
            v = whole - c1 + a + (g if g < o else o)
            if v < best:
                best = v
        if s2 & nb:
            near += 1
            a, g = dg[s2]
            o = m01 if m01 < h3 else h3
            v = whole - c2 + a + (g if g < o else o)
            if v < best:
                best = v
        if s3 & nb:
            near += 1
            a, g = dg[s3]
            o = m01 if m01 < h2 else h2
            v = whole - c3 + a + (g if g < o else o)
            if v < best:
                best = v
        if near > 1:
            v = _runs_after_discard(s0, s1, s2, s3)
            if v < best:
                best = v
        return best
    # A rank of three: the set (its cards leave their suits), or no set.
    if h1 < h0:
        h0 = h1
    if h3 < h2:
        h2 = h3
    v = c0 + c1 + c2 + c3 + (h0 if h0 < h2 else h2)
    a0, g0 = dg[s0]
    a1, g1 = dg[s1]
    a2, g2 = dg[s2]
    a3, g3 = dg[s3]
    if g1 < g0:
        g0 = g1
    if g3 < g2:
        g2 = g3
    best = a0 + a1 + a2 + a3 + (g0 if g0 < g2 else g2)
    return v if v < best else best


def _after_discard_two(s0: int, s1: int, s2: int, s3: int, t: int, fours: int) -> int:
    """``min_deadwood_after_discard`` for two set ranks (bits ``t``; ``fours``: those of four
    cards), the commonest several-sets hand. Each suit's values are read four ways from the
    tables (with both ranks' cards, without the lower rank's, without the higher's, without
    both: index 1 for the lower rank taken out plus 2 for the higher), and each way to use
    the ranks picks one per suit: no 52-bit masks per choice."""
    b = t & -t
    c = t ^ b
    dg = DEAD_AND_GAIN
    wb = DEAD_GAIN_WITHOUT[b]
    wc = DEAD_GAIN_WITHOUT[c]
    k = SUIT_MASK ^ t
    if not fours:
        # Two ranks of three: no set, either, or both; every suit reads the same way (the
        # four ways written out: no tuples of readings to build and index).
        a0, g0 = dg[s0 & k]
        a1, g1 = dg[s1 & k]
        a2, g2 = dg[s2 & k]
        a3, g3 = dg[s3 & k]
        if g1 < g0:
            g0 = g1
        if g3 < g2:
            g2 = g3
        best = a0 + a1 + a2 + a3 + (g0 if g0 < g2 else g2)
        a0, g0 = dg[s0]
        a1, g1 = dg[s1]
        a2, g2 = dg[s2]
        a3, g3 = dg[s3]
        if g1 < g0:
            g0 = g1
        if g3 < g2:
            g2 = g3
        v = a0 + a1 + a2 + a3 + (g0 if g0 < g2 else g2)
        if v < best:
            best = v
        a0, g0 = wb[s0]
        a1, g1 = wb[s1]
        a2, g2 = wb[s2]
        a3, g3 = wb[s3]
        if g1 < g0:
            g0 = g1
        if g3 < g2:
            g2 = g3
        v = a0 + a1 + a2 + a3 + (g0 if g0 < g2 else g2)
        if v < best:
            best = v
        a0, g0 = wc[s0]
        a1, g1 = wc[s1]
        a2, g2 = wc[s2]
        a3, g3 = wc[s3]
        if g1 < g0:
            g0 = g1
        if g3 < g2:
            g2 = g3
        v = a0 + a1 + a2 + a3 + (g0 if g0 < g2 else g2)
        return v if v < best else best
    v0 = (dg[s0], wb[s0], wc[s0], dg[s0 & k])
    v1 = (dg[s1], wb[s1], wc[s1], dg[s1 & k])
    v2 = (dg[s2], wb[s2], wc[s2], dg[s2 & k])
    v3 = (dg[s3], wb[s3], wc[s3], dg[s3 & k])
    best = NO_DISCARD
    first = rank_ways(s0, s1, s2, s3, b, 1, True) if fours & b else THREE_WAYS[0]
    second = rank_ways(s0, s1, s2, s3, c, 2, True) if fours & c else THREE_WAYS[1]
    for x0, x1, x2, x3, fx in first:
        for y0, y1, y2, y3, fy in second:
            a0, g0 = v0[x0 + y0]
            a1, g1 = v1[x1 + y1]
            a2, g2 = v2[x2 + y2]
            a3, g3 = v3[x3 + y3]
            if g1 < g0:
                g0 = g1
            if g3 < g2:
                g2 = g3
            if g2 < g0:
                g0 = g2
            if g0 > 0 and (fx or fy):
                g0 = 0
            v = a0 + a1 + a2 + a3 + g0
            if v < best:
                best = v
    return best


def _runs_after_discard(s0: int, s1: int, s2: int, s3: int) -> int:
    """Runs-only deadwood of four suit masks after the best discard."""
    dg = DEAD_AND_GAIN
    a0, g0 = dg[s0]
    a1, g1 = dg[s1]
    a2, g2 = dg[s2]
    a3, g3 = dg[s3]
    if g1 < g0:
        g0 = g1
    if g3 < g2:
        g2 = g3
    return a0 + a1 + a2 + a3 + (g0 if g0 < g2 else g2)


#: Marks a union of sets holding a whole rank of four (bit 52, outside every hand): after it
#: the hand may discard one of the four and keep a set, so its best gain is at most 0.
_FOUR_FLAG: Final = 1 << 52


def _after_discard_several(mask: int, t: int) -> int:
    """``min_deadwood_after_discard`` for several set ranks (bits ``t``).

    Each union of one choice per rank is tried: a rank of three is in a set or not; a rank
    of four is taken whole (flagged), and only where some card of it has a neighbour in its
    suit also not at all or as three leaving such a card to its runs (the reasons are in
    ``min_deadwood_after_discard``). Masks with more than four set ranks (30 cards or so)
    try every union of sets instead, lazily.
    """
    if t.bit_count() > 4:
        return _after_discard_over(mask, set_unions(mask, t))
    near = (mask << 1 | mask >> 1) & mask
    unions = [0]
    while t:
        low = t & -t
        t ^= low
        full = mask & RANK_MASK * low
        if full.bit_count() == 3:
            unions += [u | full for u in unions]
            continue
        x = full & near
        full |= _FOUR_FLAG
        if not x:
            unions = [u | full for u in unions]
            continue
        opts = [0, full]
        while x:
            b = x & -x
            x ^= b
            opts.append(full ^ b ^ _FOUR_FLAG)
        unions = [u | o for u in unions for o in opts]
    return _after_discard_over(mask, unions)


def _after_discard_over(mask: int, unions: Iterable[int]) -> int:
    """``min_deadwood_after_discard`` over explicit set unions (flagged as above)."""
    dg = DEAD_AND_GAIN
    best = NO_DISCARD
    for used in unions:
        r = mask & ~used
        a0, g0 = dg[r & SUIT_MASK]
        a1, g1 = dg[r >> 13 & SUIT_MASK]
        a2, g2 = dg[r >> 26 & SUIT_MASK]
        a3, g3 = dg[r >> 39 & SUIT_MASK]
        if g1 < g0:
            g0 = g1
        if g3 < g2:
            g2 = g3
        if g2 < g0:
            g0 = g2
        if g0 > 0 and used & _FOUR_FLAG:
            g0 = 0
        v = a0 + a1 + a2 + a3 + g0
        if v < best:
            best = v
    return best


# ---------------------------------------------------------------------------
# The cards whose discard leaves deadwood within a limit (the cards that may knock).


def discards_within(mask: int, limit: int) -> int:
    """The cards of ``mask`` whose discard leaves deadwood at most ``limit``, as a mask.

    Why not ``deadwood`` card by card: once the sets are chosen, taking a card out changes
    only its suit's runs deadwood, so each card costs one table look-up (the knock check of
    every discard turn that may knock asks this). With set ranks, each union of sets is
    searched so: the sets of the hand without a card are exactly the hand's sets that leave
    it out, so a card's deadwood after its discard is the least over those unions.

    >>> from ginrummy.cards import CardSet
    >>> str(CardSet(discards_within(CardSet.parse('As 2s 3s 4h 5h 6h 7c 8c 9c Kd Qd').mask, 10)))
    'Qd Kd'
    """
    s0 = mask & SUIT_MASK
    s1 = mask >> 13 & SUIT_MASK
    s2 = mask >> 26 & SUIT_MASK
    s3 = mask >> 39
    t = (s0 & s1 & (s2 | s3)) | ((s0 | s1) & s2 & s3)
    if not t:
        return _runs_within(s0, s1, s2, s3, limit)
    out = 0
    if t.bit_count() > 4:
        # (A mask of 30 cards or so: every union lazily.)
        for used in set_unions(mask, t):
            r = mask & ~used
            out |= _runs_within(r & SUIT_MASK, r >> 13 & SUIT_MASK, r >> 26 & SUIT_MASK, r >> 39, limit)
        return out
    for q0, q1, q2, q3 in _union_suits(s0, s1, s2, s3, t):
        out |= _runs_within(q0, q1, q2, q3, limit)
    return out


def _union_suits(s0: int, s1: int, s2: int, s3: int, t: int) -> list[tuple[int, int, int, int]]:
    """The four suit masks left by each union of sets of ``set_unions`` (not in its order):
    per set rank (bit of ``t``) none, the whole rank, or of four any three, each taken out of
    the suits by 13-bit operations (no 52-bit union and split per union)."""
    out = [(s0, s1, s2, s3)]
    while t:
        b = t & -t
        t ^= b
        r0 = s0 & b
        r1 = s1 & b
        r2 = s2 & b
        r3 = s3 & b
        if r0 and r1 and r2 and r3:
            opts: tuple[tuple[int, int, int, int], ...] = (
                (r0, r1, r2, r3), (0, r1, r2, r3), (r0, 0, r2, r3), (r0, r1, 0, r3), (r0, r1, r2, 0))
        else:
            opts = ((r0, r1, r2, r3),)
        grown = []
        for q0, q1, q2, q3 in out:
            for x0, x1, x2, x3 in opts:
                grown.append((q0 ^ x0, q1 ^ x1, q2 ^ x2, q3 ^ x3))
        out += grown
    return out


def _runs_within(s0: int, s1: int, s2: int, s3: int, limit: int) -> int:
    """The cards of four suit masks whose discard leaves runs-only deadwood at most ``limit``."""
    dg = DEAD_AND_GAIN
    a0, g0 = dg[s0]
    a1, g1 = dg[s1]
    a2, g2 = dg[s2]
    a3, g3 = dg[s3]
    # A card qualifies when its suit's runs deadwood without it fits in the room the other
    # suits leave; a suit whose best discard does not fit is skipped (an empty suit's gain
    # is huge), usually all but one.
    spare = limit - a0 - a1 - a2 - a3
    out = 0
    if g0 <= spare:
        out = _suit_within(s0, spare + a0)
    if g1 <= spare:
        out |= _suit_within(s1, spare + a1) << 13
    if g2 <= spare:
        out |= _suit_within(s2, spare + a2) << 26
    if g3 <= spare:
        out |= _suit_within(s3, spare + a3) << 39
    return out


def _suit_within(s: int, room: int) -> int:
    """The cards of the 13-bit suit mask ``s`` whose removal leaves its runs deadwood at most ``room``."""
    table = RUN_DEAD
    out = 0
    x = s
    while x:
        low = x & -x
        x ^= low
        if table[s ^ low] <= room:
            out |= low
    return out


# ---------------------------------------------------------------------------
# Every best discard (the players' choice).


def _build_discard_lists() -> tuple[tuple[tuple[Card, ...], ...], ...]:
    """Per suit and suit mask, the cards of ``DISCARD_CARDS`` as a ready tuple.

    Turning a mask into a card list costs more than the whole table search, and almost
    always the best discards lie in one suit; only 147 distinct tuples exist.
    """
    shared: dict[tuple[int, int], tuple[Card, ...]] = {}
    out = []
    for suit in range(4):
        row = []
        for found in DISCARD_CARDS:
            key = (suit, found)
            if key not in shared:
                shared[key] = tuple(cards_of(found << (13 * suit)))
            row.append(shared[key])
        out.append(tuple(row))
    return tuple(out)


_D0, _D1, _D2, _D3 = _build_discard_lists()


def best_discards(mask: int, exclude: int = 0) -> tuple[int, list[Card]]:
    """The least deadwood after one discard and every discard that reaches it.

    ``exclude`` is a mask of cards that may not be discarded (the card just taken from
    the discard pile). Like ``min_deadwood_after_discard``, it reads each suit's best
    removal from tables (``DISCARD_CARDS`` holds all tied cards of a suit at once)
    instead of computing the deadwood of every 10-card remainder.

    >>> from ginrummy.cards import CardSet, card_str
    >>> d, cards = best_discards(CardSet.parse('As 2s 3s 4h 5h 6h 7c 7d 7s Kc Qd').mask)
    >>> d, [card_str(c) for c in cards]
    (10, ['Qd', 'Kc'])
    """
    if exclude and mask & exclude:
        # Usually some best discard of the whole hand is allowed: then the best value is
        # the same and the answer is those discards without the excluded cards. Only when
        # every best discard is excluded does the search run again card by card.
        value, cards = best_discards(mask)
        if len(cards) == 1:
            if not exclude >> cards[0] & 1:
                return value, cards
        else:
            kept = []
            for c in cards:
                if not exclude >> c & 1:
                    kept.append(c)
            if kept:
                return value, kept
        return _best_discards_over(mask, exclude, set_unions(mask, triple_ranks(mask)))
    s0 = mask & SUIT_MASK
    s1 = mask >> 13 & SUIT_MASK
    s2 = mask >> 26 & SUIT_MASK
    s3 = mask >> 39
    p = s0 & s1
    q = s2 & s3
    t = p & (s2 | s3) | q & (s0 | s1)
    if t:
        if SEVERAL_RANKS[t]:
            if TWO_RANKS[t]:
                return _best_discards_two(s0, s1, s2, s3, t, p & q)
            return _best_discards_over(mask, exclude, set_unions(mask, t))
        if p & q:
            # (No card of the mask is excluded here.)
            return _best_discards_four(s0, s1, s2, s3, t)
    dg = DEAD_AND_GAIN
    a0, g0 = dg[s0]
    a1, g1 = dg[s1]
    a2, g2 = dg[s2]
    a3, g3 = dg[s3]
    g = g0
    if g1 < g:
        g = g1
    if g2 < g:
        g = g2
    if g3 < g:
        g = g3
    value = a0 + a1 + a2 + a3 + g
    if t:
        # One set rank with three cards: also try the set taken whole (each suit's values
        # without the rank's card from a table; the suit masks without it made only for the
        # suits that hold a best discard).
        w = DEAD_GAIN_WITHOUT[t]
        c0, h0 = w[s0]
        c1, h1 = w[s1]
        c2, h2 = w[s2]
        c3, h3 = w[s3]
        h = h0
        if h1 < h:
            h = h1
        if h2 < h:
            h = h2
        if h3 < h:
            h = h3
        other = c0 + c1 + c2 + c3 + h
        if other == value:
            # Both choices tie: the answer is every card either one reaches.
            return _best_discards_over(mask, 0, [0, mask & t * RANK_MASK])
        if other < value:
            k = SUIT_MASK ^ t
            out = list(_D0[s0 & k]) if h0 == h else []
            if h1 == h:
                out += _D1[s1 & k]
            if h2 == h:
                out += _D2[s2 & k]
            if h3 == h:
                out += _D3[s3 & k]
            return other, out
    # The ready-made card tuples of the suits that reach the best gain, in suit order (so
    # lowest card first): no mask of cards to build and take apart.
    out = list(_D0[s0]) if g0 == g else []
    if g1 == g:
        out += _D1[s1]
    if g2 == g:
        out += _D2[s2]
    if g3 == g:
        out += _D3[s3]
    return value, out


def _best_discards_two(s0: int, s1: int, s2: int, s3: int, t: int, fours: int) -> tuple[int, list[Card]]:
    """``best_discards`` (nothing excluded) for two set ranks (bits ``t``; ``fours``: those of
    four cards): every way to use them (as ``set_unions``); the least deadwood and every
    discard that reaches it under any way."""
    b = t & -t
    c = t ^ b
    k = SUIT_MASK ^ t
    dg = DEAD_AND_GAIN
    cards = DISCARD_CARDS
    best = NO_DISCARD
    if not fours:
        # Two ranks of three: no set, either set, or both, each suit without the sets' bits.
        found = 0
        for m in (SUIT_MASK, SUIT_MASK ^ b, SUIT_MASK ^ c, k):
            p0 = s0 & m
            p1 = s1 & m
            p2 = s2 & m
            p3 = s3 & m
            a0, x0 = dg[p0]
            a1, x1 = dg[p1]
            a2, x2 = dg[p2]
            a3, x3 = dg[p3]
            g = x0
            if x1 < g:
                g = x1
            if x2 < g:
                g = x2
            if x3 < g:
                g = x3
            v = a0 + a1 + a2 + a3 + g
            if v > best or g >= NO_DISCARD:
                continue
            got = cards[p0] if x0 == g else 0
            if x1 == g:
                got |= cards[p1] << 13
            if x2 == g:
                got |= cards[p2] << 26
            if x3 == g:
                got |= cards[p3] << 39
            if v < best:
                best, found = v, got
            else:
                found |= got
        return best, cards_of(found)
    # A rank of four among them: up to 36 ways, so each suit's values are read four ways from
    # the tables first (as in ``_after_discard_two``) and each way picks one per suit; a
    # suit's cards are found only for the ways that tie the best.
    wb = DEAD_GAIN_WITHOUT[b]
    wc = DEAD_GAIN_WITHOUT[c]
    v0 = (dg[s0], wb[s0], wc[s0], dg[s0 & k])
    v1 = (dg[s1], wb[s1], wc[s1], dg[s1 & k])
    v2 = (dg[s2], wb[s2], wc[s2], dg[s2 & k])
    v3 = (dg[s3], wb[s3], wc[s3], dg[s3 & k])
    first = rank_ways(s0, s1, s2, s3, b, 1, False) if fours & b else THREE_WAYS[0]
    second = rank_ways(s0, s1, s2, s3, c, 2, False) if fours & c else THREE_WAYS[1]
    wins: list[tuple[int, int, int, int, int, int, int, int, int]] = []
    for x0, x1, x2, x3, _ in first:
        for y0, y1, y2, y3, _ in second:
            i0 = x0 + y0
            i1 = x1 + y1
            i2 = x2 + y2
            i3 = x3 + y3
            a0, g0 = v0[i0]
            a1, g1 = v1[i1]
            a2, g2 = v2[i2]
            a3, g3 = v3[i3]
            g = g0
            if g1 < g:
                g = g1
            if g2 < g:
                g = g2
            if g3 < g:
                g = g3
            v = a0 + a1 + a2 + a3 + g
            if v > best or g >= NO_DISCARD:
                continue
            if v < best:
                best = v
                wins = []
            wins.append((g, g0, g1, g2, g3, i0, i1, i2, i3))
    # The suit mask of each reading: with both ranks' cards, without b's, without c's, without both.
    keep = (SUIT_MASK, SUIT_MASK ^ b, SUIT_MASK ^ c, k)
    f0 = f1 = f2 = f3 = 0
    for g, g0, g1, g2, g3, i0, i1, i2, i3 in wins:
        if g0 == g:
            f0 |= cards[s0 & keep[i0]]
        if g1 == g:
            f1 |= cards[s1 & keep[i1]]
        if g2 == g:
            f2 |= cards[s2 & keep[i2]]
        if g3 == g:
            f3 |= cards[s3 & keep[i3]]
    return best, cards_of(f0 | f1 << 13 | f2 << 26 | f3 << 39)


def _best_discards_four(s0: int, s1: int, s2: int, s3: int, t: int) -> tuple[int, list[Card]]:
    """``best_discards`` for one set rank of four (bit ``t`` in every suit): the six ways to
    use it (no set, all four, three leaving the card of one suit), each suit's values read
    from the tables with or without that card, the least deadwood and its discards kept."""
    dg = DEAD_AND_GAIN
    w = DEAD_GAIN_WITHOUT[t]
    a0, g0 = dg[s0]
    a1, g1 = dg[s1]
    a2, g2 = dg[s2]
    a3, g3 = dg[s3]
    c0, h0 = w[s0]
    c1, h1 = w[s1]
    c2, h2 = w[s2]
    c3, h3 = w[s3]
    q0 = s0 ^ t
    q1 = s1 ^ t
    q2 = s2 ^ t
    q3 = s3 ^ t
    whole = c0 + c1 + c2 + c3
    choices = (
        (s0, s1, s2, s3, a0 + a1 + a2 + a3, g0, g1, g2, g3),
        (q0, q1, q2, q3, whole, h0, h1, h2, h3),
        (s0, q1, q2, q3, whole - c0 + a0, g0, h1, h2, h3),
        (q0, s1, q2, q3, whole - c1 + a1, h0, g1, h2, h3),
        (q0, q1, s2, q3, whole - c2 + a2, h0, h1, g2, h3),
        (q0, q1, q2, s3, whole - c3 + a3, h0, h1, h2, g3),
    )
    cards = DISCARD_CARDS
    best = NO_DISCARD
    found = 0
    for p0, p1, p2, p3, d, x0, x1, x2, x3 in choices:
        g = x0
        if x1 < g:
            g = x1
        if x2 < g:
            g = x2
        if x3 < g:
            g = x3
        v = d + g
        if v > best or g >= NO_DISCARD:
            continue
        got = cards[p0] if x0 == g else 0
        if x1 == g:
            got |= cards[p1] << 13
        if x2 == g:
            got |= cards[p2] << 26
        if x3 == g:
            got |= cards[p3] << 39
        if v < best:
            best, found = v, got
        else:
            found |= got
    return best, cards_of(found)


def _best_discards_over(mask: int, exclude: int, unions: Iterable[int]) -> tuple[int, list[Card]]:
    """``best_discards`` over explicit set unions, honouring ``exclude`` card by card."""
    table = RUN_DEAD
    gain = DISCARD_GAIN
    cards = DISCARD_CARDS
    best = NO_DISCARD
    found = 0
    if not exclude:
        # The common case (several set ranks, or a rank of four): four gains per union.
        for used in unions:
            r = mask & ~used
            p0 = r & SUIT_MASK
            p1 = r >> 13 & SUIT_MASK
            p2 = r >> 26 & SUIT_MASK
            p3 = r >> 39
            g0 = gain[p0]
            g1 = gain[p1]
            g2 = gain[p2]
            g3 = gain[p3]
            g = g0
            if g1 < g:
                g = g1
            if g2 < g:
                g = g2
            if g3 < g:
                g = g3
            v = table[p0] + table[p1] + table[p2] + table[p3] + g
            if v > best or g >= NO_DISCARD:
                continue
            got = cards[p0] if g0 == g else 0
            if g1 == g:
                got |= cards[p1] << 13
            if g2 == g:
                got |= cards[p2] << 26
            if g3 == g:
                got |= cards[p3] << 39
            if v < best:
                best, found = v, got
            else:
                found |= got
        return best, cards_of(found)
    for used in unions:
        r = mask & ~used
        parts = (r & SUIT_MASK, r >> 13 & SUIT_MASK, r >> 26 & SUIT_MASK, r >> 39)
        total = table[parts[0]] + table[parts[1]] + table[parts[2]] + table[parts[3]]
        for i in range(4):
            p = parts[i]
            if not p:
                continue
            banned = exclude >> (13 * i) & p
            if not banned:
                v = total + gain[p]
                got = cards[p]
            else:
                q = p ^ banned
                base = total - table[p]
                v = NO_DISCARD
                got = 0
                while q:
                    low = q & -q
                    q ^= low
                    w = base + table[p ^ low]
                    if w < v:
                        v, got = w, low
                    elif w == v:
                        got |= low
                if not got:
                    continue
            if v < best:
                best, found = v, got << (13 * i)
            elif v == best:
                found |= got << (13 * i)
    return best, cards_of(found)


__all__ = ["best_discards", "discards_within", "min_deadwood_after_discard"]
