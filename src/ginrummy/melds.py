"""Melds and exact minimum deadwood: the search every rule and player stands on.

Layoffs and the choice of melds after a knock are in :mod:`ginrummy.layout`. This module is
long because its speed comes from tables and case splits that share one representation
(per-suit 13-bit masks and the set choices of a hand); apart they would be copied.

Why it is fast: a run lies inside one suit, so once the cards used in sets are chosen,
the rest splits into four 13-bit suit masks whose best runs come from one precomputed
table of 8,192 entries. A hand has a set only where a rank has three or more cards, so
most hands cost four table look-ups; the others try each way of using their few sets
(the search after a discard skips the ways that cannot win: ``min_deadwood_after_discard``).

>>> from ginrummy.cards import CardSet
>>> hand = CardSet.parse('As 2s 3s 7h 7d 7c 9h Th Jh Kd')
>>> deadwood(hand.mask)
10
>>> [str(CardSet(m)) for m in best_arrangement(hand.mask)[1]]
['As 2s 3s', '9h Th Jh', '7h 7d 7c']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import product
from typing import Final, TypeVar

from .cards import SUIT_MASK, Card, card_str, cards_of, mask_value

_T = TypeVar("_T")

# ---------------------------------------------------------------------------
# The meld list: a stable order, so a meld's index is its id in action encodings.


def _all_melds() -> list[int]:
    melds: list[int] = []
    for rank in range(13):
        four = 0
        for suit in range(4):
            four |= 1 << (suit * 13 + rank)
        melds.append(four)
        for suit in range(4):
            melds.append(four & ~(1 << (suit * 13 + rank)))
    for suit in range(4):
        for start in range(13):
            for end in range(start + 3, 14):
                melds.append(((1 << (end - start)) - 1) << (suit * 13 + start))
    return melds


#: Every meld as a mask: 65 sets (13 of four, 52 of three) then 264 runs. Index = meld id.
ALL_MELDS: Final[tuple[int, ...]] = tuple(_all_melds())
MELD_INDEX: Final[dict[int, int]] = {m: i for i, m in enumerate(ALL_MELDS)}

#: The four cards of rank 0 (ace); shift left by a rank for that rank's cards.
#: The four cards of the lowest rank (ace); shifted by r, the four of rank r.
RANK_MASK: Final = 1 | 1 << 13 | 1 << 26 | 1 << 39


def is_meld(mask: int) -> bool:
    """True for a set of 3-4 cards of one rank or a run of 3+ cards of one suit (ace low).

    >>> from ginrummy.cards import CardSet
    >>> is_meld(CardSet.parse('Qs Ks As').mask), is_meld(CardSet.parse('Jh Qh Kh').mask)
    (False, True)
    """
    return mask in MELD_INDEX


def is_set(mask: int) -> bool:
    """True for a meld of one rank (three or more cards, all of one rank).

    Bit arithmetic on the mask rather than a card list: the layoff checks after a knock
    ask this for every (card, meld) pair. Masks outside 0..2**52 take the card-list path,
    which gives the same answer for any mask.
    """
    if 0 < mask < 1 << 52:
        low = (mask & -mask).bit_length() - 1
        return mask.bit_count() >= 3 and not mask & ~(RANK_MASK << (low % 13))
    cards = cards_of(mask)
    return len(cards) >= 3 and len({c % 13 for c in cards}) == 1


def meld_str(mask: int) -> str:
    """Cards of a meld without spaces: ``As2s3s``, as used in action notation."""
    return "".join(card_str(c) for c in _display_order(mask))


def _display_order(mask: int) -> list[Card]:
    return sorted(cards_of(mask), key=lambda c: (c % 13, c // 13)) if is_set(mask) else cards_of(mask)


# ---------------------------------------------------------------------------
# Runs inside one suit: best deadwood and best runs for each 13-bit mask.

_RANK_VALUES: Final = tuple(min(r + 1, 10) for r in range(13))

#: Points of every 13-bit suit mask, so a hand's points are four look-ups (``points``).
_SUIT_POINTS: Final = [0] * (1 << 13)
for _m in range(1, 1 << 13):
    _SUIT_POINTS[_m] = _SUIT_POINTS[_m & (_m - 1)] + _RANK_VALUES[(_m & -_m).bit_length() - 1]


def points(mask: int) -> int:
    """The deadwood points of all the cards of a mask; ``mask_value`` by four table look-ups.

    Why a second one: the layout checks after a knock and ``arrangements`` add up points at
    every step, and the card-by-card loop was a visible part of those phases.

    >>> from ginrummy.cards import CardSet
    >>> points(CardSet.parse('As Kh 5d').mask)
    16
    """
    if 0 <= mask < 1 << 52:
        t = _SUIT_POINTS
        return t[mask & SUIT_MASK] + t[mask >> 13 & SUIT_MASK] + t[mask >> 26 & SUIT_MASK] + t[mask >> 39]
    return mask_value(mask)


#: Larger than any real deadwood: what "no card to discard" costs (an empty hand's discard).
NO_DISCARD: Final = 1 << 30


def _build_run_tables() -> tuple[tuple[int, ...], list[tuple[int, ...]]]:
    size = 1 << 13
    dead = [0] * size
    runs: list[tuple[int, ...]] = [()] * size
    for m in range(1, size):
        low = (m & -m).bit_length() - 1
        best = _RANK_VALUES[low] + dead[m & ~(1 << low)]
        best_runs = runs[m & ~(1 << low)]
        run = 1 << low
        for end in range(low + 1, 13):
            if not m >> end & 1:
                break
            run |= 1 << end
            if end - low >= 2 and dead[m & ~run] < best:
                best = dead[m & ~run]
                best_runs = (run, *runs[m & ~run])
        dead[m] = best
        runs[m] = best_runs
    return tuple(dead), runs


_RUN_TABLES: Final = _build_run_tables()
#: Least runs-only deadwood of every 13-bit suit mask (index = the suit's cards, rank 0 = bit 0).
RUN_DEAD: Final = _RUN_TABLES[0]
_RUN_MELDS: Final = _RUN_TABLES[1]


def _build_suit_runs() -> list[tuple[tuple[int, ...], ...]]:
    """Per suit (0..3) and 13-bit suit mask, the runs of ``_RUN_MELDS`` already shifted into
    that suit's place: a hand's runs are then four look-ups with no shifting or list building.
    The 305 distinct run tuples are shifted once each.
    """
    distinct = set(_RUN_MELDS)
    out = [tuple(_RUN_MELDS)]
    for suit in (1, 2, 3):
        moved = {runs: tuple(run << (13 * suit) for run in runs) for runs in distinct}
        out.append(tuple(map(moved.__getitem__, _RUN_MELDS)))
    return out


_R0, _R1, _R2, _R3 = _build_suit_runs()


def _build_removal_tables() -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per suit mask: the change to the suit's runs-only deadwood made by removing its best
    card, and which cards reach it.

    The change (``DISCARD_GAIN``) lets the 11-card search add one small number per suit
    to the hand's total instead of re-summing four suits per discard; the empty suit gets
    ``NO_DISCARD`` so it never wins. ``DISCARD_CARDS`` gives every best discard of the suit at
    once, so ``best_discards`` needs no loop over cards.
    """
    size = 1 << 13
    gain = [NO_DISCARD] * size
    cards = [0] * size
    for m in range(1, size):
        best = NO_DISCARD
        found = 0
        x = m
        while x:
            low = x & -x
            v = RUN_DEAD[m ^ low]
            if v < best:
                best, found = v, low
            elif v == best:
                found |= low
            x ^= low
        gain[m] = best - RUN_DEAD[m]
        cards[m] = found
    return tuple(gain), tuple(cards)


_REMOVAL_TABLES: Final = _build_removal_tables()
#: Per 13-bit suit mask, the least change of its ``RUN_DEAD`` that discarding one card makes.
DISCARD_GAIN: Final = _REMOVAL_TABLES[0]
#: Per 13-bit suit mask, the cards (a 13-bit mask) whose discard makes that least change.
DISCARD_CARDS: Final = _REMOVAL_TABLES[1]
#: ``(RUN_DEAD[m], DISCARD_GAIN[m])`` per suit mask: one look-up for both.
_DEAD_GAIN: Final = tuple(zip(RUN_DEAD, DISCARD_GAIN, strict=True))
#: For the bit of one rank (index ``1 << rank``): the ranks next to it (13 bits), and the
#: cards of those ranks in every suit; zero for any other index.
_NEIGHBOURS: Final = [0] * (1 << 13)
_NEIGHBOUR_CARDS: Final = [0] * (1 << 13)
for _r in range(13):
    _NEIGHBOURS[1 << _r] = (1 << _r + 1 | 1 << _r >> 1) & SUIT_MASK
    _NEIGHBOUR_CARDS[1 << _r] = _NEIGHBOURS[1 << _r] * RANK_MASK


def _without(table: tuple[_T, ...], bit: int) -> tuple[_T, ...]:
    """``table`` read at each suit mask without ``bit``: entry ``s`` is ``table[s & ~bit]``.

    Block by block (each run of ``bit`` entries repeated once), so it costs slice copies only.
    """
    out: list[_T] = []
    for i in range(0, 1 << 13, 2 * bit):
        out += table[i:i + bit] * 2
    return tuple(out)


#: For the bit of one rank (index ``1 << rank``): ``RUN_DEAD`` and ``_DEAD_GAIN`` of each suit
#: mask with that rank's card taken out (for its set). Why: a hand with one set rank reads its
#: suits' values without the set straight from these, where ``s & ~bit`` would build a new
#: int per suit, and making ints is most of what these functions cost. Empty at other indexes.
_DEAD_WITHOUT: Final[list[tuple[int, ...]]] = [()] * (1 << 12 | 1)
_DG_WITHOUT: Final[list[tuple[tuple[int, int], ...]]] = [()] * (1 << 12 | 1)
for _r in range(13):
    _DEAD_WITHOUT[1 << _r] = _without(RUN_DEAD, 1 << _r)
    _DG_WITHOUT[1 << _r] = _without(_DEAD_GAIN, 1 << _r)
#: Per 13-bit mask of set ranks: True where it holds two or more (``t & (t - 1)`` without
#: making ints).
_SEVERAL: Final = tuple(bool(m & (m - 1)) for m in range(1 << 13))


def _set_options(mask: int, rank: int) -> list[int]:
    """Ways to use the cards of one rank in a set: none, all four, or any three."""
    full = mask & (RANK_MASK << rank)
    n = full.bit_count()
    if n == 4:
        b = 1 << rank
        return [0, full, full ^ b, full ^ b << 13, full ^ b << 26, full ^ b << 39]
    if n == 3:
        return [0, full]
    return [0]


def _triple_ranks(mask: int) -> int:
    """Bit r is set where rank r has three or more cards in the mask."""
    s0 = mask & SUIT_MASK
    s1 = mask >> 13 & SUIT_MASK
    s2 = mask >> 26 & SUIT_MASK
    s3 = mask >> 39 & SUIT_MASK
    return (s0 & s1 & (s2 | s3)) | ((s0 | s1) & s2 & s3)


def _set_unions(mask: int, trips: int) -> Iterable[int]:
    """Every union of disjoint sets the mask can make, the empty one first.

    ``trips`` is ``_triple_ranks(mask)``. The order is that of ``itertools.product`` over
    the ranks (lowest rank slowest), which ``best_arrangement`` relies on for ties. A list
    built in place costs far less than a generator over ``product`` for the one or two
    set ranks a real hand has; a mask with many set ranks (say 40 cards) gets the lazy
    generator instead, so the choices are never all held in memory at once.
    """
    if trips.bit_count() <= 4:
        # At most 6**4 unions: built in place, without a list of options per rank.
        unions = [0]
        while trips:
            low = trips & -trips
            trips ^= low
            full = mask & RANK_MASK * low
            if full.bit_count() == 4:
                opts: tuple[int, ...] = (0, full, full ^ low, full ^ low << 13, full ^ low << 26, full ^ low << 39)
            else:
                opts = (0, full)
            unions = [u | o for u in unions for o in opts]
        return unions
    options = []
    while trips:
        low = trips & -trips
        trips ^= low
        options.append(_set_options(mask, low.bit_length() - 1))
    return (sum(combo) for combo in product(*options))


def _runs_dead_over(mask: int, unions: Iterable[int]) -> int:
    """Least runs-only deadwood of ``mask`` minus one of ``unions``."""
    table = RUN_DEAD
    best = NO_DISCARD
    for used in unions:
        r = mask & ~used
        v = table[r & SUIT_MASK] + table[r >> 13 & SUIT_MASK] + table[r >> 26 & SUIT_MASK] + table[r >> 39]
        if v < best:
            best = v
    return best


#: Answers of ``deadwood`` for hands with several set ranks, the one slow path. Such a hand
#: is usually asked about many times in a row (a knocker with two sets: each layout and
#: layoff step checks its whole hand again), so a small memo, emptied when full, pays.
_SEVERAL_SETS: dict[int, int] = {}
_MEMO_SIZE: Final = 4096


def deadwood(mask: int) -> int:
    """Exact minimum deadwood of any hand (any number of cards).

    Three paths, cheapest first: no rank with three cards (four look-ups, about three
    hands in four); one such rank (the set is either taken whole or not, and a rank of
    four may also keep one card for a run, which is one subtraction per suit); several
    such ranks (try every union of sets, rare).

    >>> from ginrummy.cards import CardSet
    >>> deadwood(CardSet.parse('4h 5h 6h 9s 9h 9d Tc Jc Qc 2d').mask)
    2
    """
    s0 = mask & SUIT_MASK
    s1 = mask >> 13 & SUIT_MASK
    s2 = mask >> 26 & SUIT_MASK
    s3 = mask >> 39
    p = s0 & s1
    q = s2 & s3
    t = p & (s2 | s3) | q & (s0 | s1)
    table = RUN_DEAD
    a0 = table[s0]
    a1 = table[s1]
    a2 = table[s2]
    a3 = table[s3]
    if not t:
        return a0 + a1 + a2 + a3
    if _SEVERAL[t]:
        v = _SEVERAL_SETS.get(mask)
        if v is None:
            v = _runs_dead_over(mask, _set_unions(mask, t))
            if len(_SEVERAL_SETS) >= _MEMO_SIZE:
                _SEVERAL_SETS.clear()
            _SEVERAL_SETS[mask] = v
        return v
    # One set rank, bit t in each suit that holds it: the suits without it from a table.
    w = _DEAD_WITHOUT[t]
    c0 = w[s0]
    c1 = w[s1]
    c2 = w[s2]
    c3 = w[s3]
    best = a0 + a1 + a2 + a3
    whole = c0 + c1 + c2 + c3
    if whole < best:
        best = whole
    if p & q:
        # Four of the rank (a rank in all four suits is a set rank: ``p & q`` lies in ``t``):
        # a set of three may leave the card of any one suit to its runs.
        d = a0 - c0
        if a1 - c1 < d:
            d = a1 - c1
        if a2 - c2 < d:
            d = a2 - c2
        if a3 - c3 < d:
            d = a3 - c3
        if whole + d < best:
            best = whole + d
    return best


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
        for used in _set_unions(mask, t):
            r = mask & ~used
            out |= _runs_within(r & SUIT_MASK, r >> 13 & SUIT_MASK, r >> 26 & SUIT_MASK, r >> 39, limit)
        return out
    for q0, q1, q2, q3 in _union_suits(s0, s1, s2, s3, t):
        out |= _runs_within(q0, q1, q2, q3, limit)
    return out


def _union_suits(s0: int, s1: int, s2: int, s3: int, t: int) -> list[tuple[int, int, int, int]]:
    """The four suit masks left by each union of sets of ``_set_unions`` (not in its order):
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
        out += [(q0 ^ x0, q1 ^ x1, q2 ^ x2, q3 ^ x3) for q0, q1, q2, q3 in out for x0, x1, x2, x3 in opts]
    return out


def _runs_within(s0: int, s1: int, s2: int, s3: int, limit: int) -> int:
    """The cards of four suit masks whose discard leaves runs-only deadwood at most ``limit``."""
    dg = _DEAD_GAIN
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


def best_arrangement(mask: int) -> tuple[int, list[int]]:
    """Minimum deadwood and one arrangement that reaches it, as a list of meld masks.

    Runs come first (by suit, low to high), then sets by rank. Among arrangements of equal
    deadwood the choice of sets is the first in the order of ``_set_unions`` (no set first,
    then the whole rank, then three of four dropping spades, hearts, ...): the layout shown
    and laid down, and so play, depends on it. The paths are those of ``deadwood``, each
    reading its runs from the per-suit tables.
    """
    s0 = mask & SUIT_MASK
    s1 = mask >> 13 & SUIT_MASK
    s2 = mask >> 26 & SUIT_MASK
    s3 = mask >> 39 & SUIT_MASK
    t = (s0 & s1 & (s2 | s3)) | ((s0 | s1) & s2 & s3)
    table = RUN_DEAD
    if not t:
        return table[s0] + table[s1] + table[s2] + table[s3], [*_R0[s0], *_R1[s1], *_R2[s2], *_R3[s3]]
    if t & (t - 1):
        return _arrangement_over(mask, t)
    # One set rank, bit t in each suit that holds it.
    keep = ~t
    q0 = s0 & keep
    q1 = s1 & keep
    q2 = s2 & keep
    q3 = s3 & keep
    a0 = table[s0]
    a1 = table[s1]
    a2 = table[s2]
    a3 = table[s3]
    c0 = table[q0]
    c1 = table[q1]
    c2 = table[q2]
    c3 = table[q3]
    best = a0 + a1 + a2 + a3
    whole = c0 + c1 + c2 + c3
    if not s0 & s1 & s2 & s3 & t:
        if whole < best:
            return whole, [*_R0[q0], *_R1[q1], *_R2[q2], *_R3[q3], mask & t * RANK_MASK]
        return best, [*_R0[s0], *_R1[s1], *_R2[s2], *_R3[s3]]
    # A rank of four: no set, all four, or three leaving the card of one suit to its runs.
    keeps = -1
    if whole < best:
        best, keeps = whole, 4
    v = whole - c0 + a0
    if v < best:
        best, keeps = v, 0
    v = whole - c1 + a1
    if v < best:
        best, keeps = v, 1
    v = whole - c2 + a2
    if v < best:
        best, keeps = v, 2
    v = whole - c3 + a3
    if v < best:
        best, keeps = v, 3
    if keeps < 0:
        return best, [*_R0[s0], *_R1[s1], *_R2[s2], *_R3[s3]]
    full = t * RANK_MASK
    if keeps == 4:
        return best, [*_R0[q0], *_R1[q1], *_R2[q2], *_R3[q3], full]
    if keeps == 0:
        return best, [*_R0[s0], *_R1[q1], *_R2[q2], *_R3[q3], full ^ t]
    if keeps == 1:
        return best, [*_R0[q0], *_R1[s1], *_R2[q2], *_R3[q3], full ^ t << 13]
    if keeps == 2:
        return best, [*_R0[q0], *_R1[q1], *_R2[s2], *_R3[q3], full ^ t << 26]
    return best, [*_R0[q0], *_R1[q1], *_R2[q2], *_R3[s3], full ^ t << 39]


def _arrangement_over(mask: int, t: int) -> tuple[int, list[int]]:
    """``best_arrangement`` for several set ranks (``t``): the first best union of sets."""
    table = RUN_DEAD
    best = NO_DISCARD
    best_used = 0
    for used in _set_unions(mask, t):
        r = mask & ~used
        v = table[r & SUIT_MASK] + table[r >> 13 & SUIT_MASK] + table[r >> 26 & SUIT_MASK] + table[r >> 39 & SUIT_MASK]
        if v < best:
            best, best_used = v, used
    r = mask & ~best_used
    out = [*_R0[r & SUIT_MASK], *_R1[r >> 13 & SUIT_MASK], *_R2[r >> 26 & SUIT_MASK], *_R3[r >> 39 & SUIT_MASK]]
    while t:
        low = t & -t
        t ^= low
        part = best_used & RANK_MASK * low
        if part:
            out.append(part)
    return best, out


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
    if _SEVERAL[t]:
        if _TWO[t]:
            return _after_discard_two(s0, s1, s2, s3, t, p & q)
        return _after_discard_several(mask, t)
    dg = _DEAD_GAIN
    # The suits without the set rank's cards (c_j, h_j), read from a table: no new ints.
    w = _DG_WITHOUT[t]
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
        if not mask & _NEIGHBOUR_CARDS[t]:
            return best
        # Three to the set and the card of suit j kept for its runs (suit j whole again:
        # a_j, g_j), where that card has a neighbour; no set at all only where two cards
        # have one (with three cards in no run it is worse than keeping just the fourth).
        nb = _NEIGHBOURS[t]
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


#: Per 13-bit mask of set ranks: True where it holds exactly two.
_TWO: Final = tuple(m.bit_count() == 2 for m in range(1 << 13))


def _rank_ways(s0: int, s1: int, s2: int, s3: int, b: int, u: int, prune: bool) -> list[tuple[int, int, int, int, bool]]:
    """The ways to use a rank of four (its bit ``b``) in a search over two set ranks: per way,
    ``u`` for each suit whose card of the rank goes into the set (else 0), and whether the
    way takes the rank whole with ``prune``. All four, no set, and three leaving the card of
    one suit; with ``prune`` (the search after a discard: after the whole rank the best gain
    is at most 0, one of the four may go) the last two only where such a card has a
    neighbour in its suit, for the reasons given in ``min_deadwood_after_discard``."""
    ways = [(u, u, u, u, prune)]
    nb = _NEIGHBOURS[b] if prune else SUIT_MASK
    if s0 & nb:
        ways.append((0, u, u, u, False))
    if s1 & nb:
        ways.append((u, 0, u, u, False))
    if s2 & nb:
        ways.append((u, u, 0, u, False))
    if s3 & nb:
        ways.append((u, u, u, 0, False))
    if len(ways) > 1:
        ways.append((0, 0, 0, 0, False))
    return ways


#: The ways to use a rank of three in a search over two set ranks (as ``_rank_ways``): no
#: set, or the set (a suit without the rank's card reads the same either way).
_THREE_WAYS: Final = (((0, 0, 0, 0, False), (1, 1, 1, 1, False)), ((0, 0, 0, 0, False), (2, 2, 2, 2, False)))


def _after_discard_two(s0: int, s1: int, s2: int, s3: int, t: int, fours: int) -> int:
    """``min_deadwood_after_discard`` for two set ranks (bits ``t``; ``fours``: those of four
    cards), the commonest several-sets hand. Each suit's values are read four ways from the
    tables (with both ranks' cards, without the lower rank's, without the higher's, without
    both: index 1 for the lower rank taken out plus 2 for the higher), and each way to use
    the ranks picks one per suit: no 52-bit masks per choice."""
    b = t & -t
    c = t ^ b
    dg = _DEAD_GAIN
    wb = _DG_WITHOUT[b]
    wc = _DG_WITHOUT[c]
    k = SUIT_MASK ^ t
    v0 = (dg[s0], wb[s0], wc[s0], dg[s0 & k])
    v1 = (dg[s1], wb[s1], wc[s1], dg[s1 & k])
    v2 = (dg[s2], wb[s2], wc[s2], dg[s2 & k])
    v3 = (dg[s3], wb[s3], wc[s3], dg[s3 & k])
    best = NO_DISCARD
    if not fours:
        # Two ranks of three: no set, either, or both; every suit reads the same way.
        for i in (0, 1, 2, 3):
            a0, g0 = v0[i]
            a1, g1 = v1[i]
            a2, g2 = v2[i]
            a3, g3 = v3[i]
            if g1 < g0:
                g0 = g1
            if g3 < g2:
                g2 = g3
            if g2 < g0:
                g0 = g2
            v = a0 + a1 + a2 + a3 + g0
            if v < best:
                best = v
        return best
    first = _rank_ways(s0, s1, s2, s3, b, 1, True) if fours & b else _THREE_WAYS[0]
    second = _rank_ways(s0, s1, s2, s3, c, 2, True) if fours & c else _THREE_WAYS[1]
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
    dg = _DEAD_GAIN
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
        return _after_discard_over(mask, _set_unions(mask, t))
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
    dg = _DEAD_GAIN
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

    >>> from ginrummy.cards import CardSet
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
            kept = [c for c in cards if not exclude >> c & 1]
            if kept:
                return value, kept
        return _best_discards_over(mask, exclude, _set_unions(mask, _triple_ranks(mask)))
    s0 = mask & SUIT_MASK
    s1 = mask >> 13 & SUIT_MASK
    s2 = mask >> 26 & SUIT_MASK
    s3 = mask >> 39
    p = s0 & s1
    q = s2 & s3
    t = p & (s2 | s3) | q & (s0 | s1)
    if t:
        if _SEVERAL[t]:
            if _TWO[t]:
                return _best_discards_two(s0, s1, s2, s3, t, p & q)
            return _best_discards_over(mask, exclude, _set_unions(mask, t))
        if p & q:
            # (No card of the mask is excluded here.)
            return _best_discards_four(s0, s1, s2, s3, t)
    dg = _DEAD_GAIN
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
        w = _DG_WITHOUT[t]
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
    four cards): every way to use them (as ``_set_unions``); the least deadwood and every
    discard that reaches it under any way."""
    b = t & -t
    c = t ^ b
    k = SUIT_MASK ^ t
    dg = _DEAD_GAIN
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
    wb = _DG_WITHOUT[b]
    wc = _DG_WITHOUT[c]
    v0 = (dg[s0], wb[s0], wc[s0], dg[s0 & k])
    v1 = (dg[s1], wb[s1], wc[s1], dg[s1 & k])
    v2 = (dg[s2], wb[s2], wc[s2], dg[s2 & k])
    v3 = (dg[s3], wb[s3], wc[s3], dg[s3 & k])
    first = _rank_ways(s0, s1, s2, s3, b, 1, False) if fours & b else _THREE_WAYS[0]
    second = _rank_ways(s0, s1, s2, s3, c, 2, False) if fours & c else _THREE_WAYS[1]
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
    dg = _DEAD_GAIN
    w = _DG_WITHOUT[t]
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


def deadwood_cards(mask: int, melds: Sequence[int]) -> int:
    """The cards of a mask outside the given melds."""
    used = 0
    for m in melds:
        used |= m
    return mask & ~used


# ---------------------------------------------------------------------------
# Knockers' arrangements.


def _build_meld_lookups() -> tuple[dict[int, tuple[int, ...]], list[tuple[int, ...]]]:
    """The tables behind ``melds_in``: the sets inside each rank's cards, and the runs inside
    each 13-bit suit mask, both in meld-id order.

    The sets map every combination of three or four cards of one rank (65 keys) to the sets
    it holds; the runs of a suit mask are its (start, end) pairs with start slowest, as in
    ``ALL_MELDS``. Most suit masks hold no run and share the empty tuple.
    """
    sets: dict[int, tuple[int, ...]] = {}
    for rank in range(13):
        four = RANK_MASK << rank
        sets[four] = tuple(m for m in ALL_MELDS[:65] if m & four == m)
        for suit in range(4):
            three = four & ~(1 << (suit * 13 + rank))
            sets[three] = (three,)
    runs: list[tuple[int, ...]] = [()] * (1 << 13)
    for m in range(1 << 13):
        starts = m & m >> 1 & m >> 2
        if starts:
            found = []
            for start in range(11):
                if starts >> start & 1:
                    run = 7 << start
                    found.append(run)
                    end = start + 3
                    while end < 13 and m >> end & 1:
                        run |= 1 << end
                        found.append(run)
                        end += 1
            runs[m] = tuple(found)
    return sets, runs


_SETS_IN, _RUNS_IN = _build_meld_lookups()


def melds_in(mask: int) -> list[int]:
    """Every meld whose cards are all in the mask, in meld-id order.

    Why not a scan of the 329 melds: the layout phases ask this at every action. Sets come
    first in meld-id order (ranks ascending), then runs by suit; the ranks holding three or
    more cards and each suit's runs come from tables, so a ten-card hand costs a few look-ups.

    >>> from ginrummy.cards import CardSet
    >>> [str(CardSet(m)) for m in melds_in(CardSet.parse('7s 7h 7d 5h 6h 8h Kc').mask)]
    ['7s 7h 7d', '5h 6h 7h', '5h 6h 7h 8h', '6h 7h 8h']
    """
    s0 = mask & SUIT_MASK
    s1 = mask >> 13 & SUIT_MASK
    s2 = mask >> 26 & SUIT_MASK
    s3 = mask >> 39 & SUIT_MASK
    t = (s0 & s1 & (s2 | s3)) | ((s0 | s1) & s2 & s3)
    out: list[int] = []
    while t:
        low = t & -t
        t ^= low
        out.extend(_SETS_IN[mask & RANK_MASK * low])
    runs = _RUNS_IN
    out.extend(runs[s0])
    r = runs[s1]
    if r:
        out.extend([x << 13 for x in r])
    r = runs[s2]
    if r:
        out.extend([x << 26 for x in r])
    r = runs[s3]
    if r:
        out.extend([x << 39 for x in r])
    return out


def arrangements(mask: int, limit: int) -> list[tuple[int, list[int]]]:
    """Every way to lay out a hand with deadwood at or under ``limit``: (deadwood, melds).

    The knocker chooses one of these; the choice matters to the defender's layoffs.
    Sorted by deadwood, then by the number of melds.

    >>> from ginrummy.cards import CardSet
    >>> [d for d, _ in arrangements(CardSet.parse('4h 5h 6h 7h 9s 9h 9d Tc Jc Qc').mask, 10)]
    [0, 4, 7]
    """
    candidates = melds_in(mask)
    total = points(mask)
    out: list[tuple[int, list[int]]] = []

    def walk(start: int, used: int, chosen: list[int], melded: int) -> None:
        dead = total - melded
        if dead <= limit:
            out.append((dead, list(chosen)))
        for i in range(start, len(candidates)):
            m = candidates[i]
            if m & used:
                continue
            chosen.append(m)
            walk(i + 1, used | m, chosen, melded + points(m))
            chosen.pop()

    walk(0, 0, [], 0)
    out.sort(key=lambda item: (item[0], len(item[1])))
    return out


def joins_meld(hand: int, card: int) -> bool:
    """Whether ``card`` would be part of some meld (a set or a run) with the cards of ``hand``.

    >>> from ginrummy.cards import CardSet, parse_card
    >>> h = CardSet.parse('7h 8h Ks Kd 2c').mask
    >>> [joins_meld(h, parse_card(c)) for c in ('9h', '6h', 'Kc', '2d', 'Th')]
    [True, True, True, False, False]
    """
    rank = card % 13
    if ((hand & ~(1 << card)) & (RANK_MASK << rank)).bit_count() >= 2:
        return True
    base = card - rank
    lo = card
    while lo > base and hand >> (lo - 1) & 1:
        lo -= 1
    hi = card
    while hi < base + 12 and hand >> (hi + 1) & 1:
        hi += 1
    return hi - lo >= 2


__all__ = [
    "ALL_MELDS",
    "DISCARD_CARDS",
    "DISCARD_GAIN",
    "MELD_INDEX",
    "NO_DISCARD",
    "RANK_MASK",
    "RUN_DEAD",
    "arrangements",
    "best_arrangement",
    "best_discards",
    "deadwood",
    "deadwood_cards",
    "discards_within",
    "is_meld",
    "is_set",
    "joins_meld",
    "meld_str",
    "melds_in",
    "min_deadwood_after_discard",
    "points",
]
