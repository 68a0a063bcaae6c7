"""Melds and exact minimum deadwood: the search every rule and player stands on.

Layoffs and the choice of melds after a knock are in :mod:`ginrummy.layout`; the search after
a discard (an 11-card hand's least deadwood, its best discards, the cards that may knock) is in
:mod:`ginrummy.discard_search`, which reads this module's tables and set unions. Both are long
because their speed comes from tables and case splits that share one representation (per-suit
13-bit masks and the set choices of a hand): the tables and the set unions live here, once.

Why it is fast: a run lies inside one suit, so once the cards used in sets are chosen,
the rest splits into four 13-bit suit masks whose best runs come from one precomputed
table of 8,192 entries. A hand has a set only where a rank has three or more cards, so
most hands cost four table look-ups; the others try each way of using their few sets
(the search after a discard skips the ways that cannot win:
:func:`ginrummy.discard_search.min_deadwood_after_discard`).

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
SUIT_POINTS: Final = [0] * (1 << 13)
for _m in range(1, 1 << 13):
    SUIT_POINTS[_m] = SUIT_POINTS[_m & (_m - 1)] + _RANK_VALUES[(_m & -_m).bit_length() - 1]


def points(mask: int) -> int:
    """The deadwood points of all the cards of a mask; ``mask_value`` by four table look-ups.

    Why a second one: the layout checks after a knock and ``arrangements`` add up points at
    every step, and the card-by-card loop was a visible part of those phases.

    >>> from ginrummy.cards import CardSet
    >>> points(CardSet.parse('As Kh 5d').mask)
    16
    """
    if 0 <= mask < 1 << 52:
        t = SUIT_POINTS
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


_SUIT_RUNS: Final = _build_suit_runs()
_R0: Final = _SUIT_RUNS[0]
_R1: Final = _SUIT_RUNS[1]
_R2: Final = _SUIT_RUNS[2]
_R3: Final = _SUIT_RUNS[3]


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
DEAD_AND_GAIN: Final = tuple(zip(RUN_DEAD, DISCARD_GAIN, strict=True))
#: For the bit of one rank (index ``1 << rank``): the ranks next to it (13 bits), and the
#: cards of those ranks in every suit; zero for any other index.
NEIGHBOUR_RANKS: Final = [0] * (1 << 13)
NEIGHBOUR_CARDS: Final = [0] * (1 << 13)
for _r in range(13):
    NEIGHBOUR_RANKS[1 << _r] = (1 << _r + 1 | 1 << _r >> 1) & SUIT_MASK
    NEIGHBOUR_CARDS[1 << _r] = NEIGHBOUR_RANKS[1 << _r] * RANK_MASK


def _without(table: tuple[_T, ...], bit: int) -> tuple[_T, ...]:
    """``table`` read at each suit mask without ``bit``: entry ``s`` is ``table[s & ~bit]``.

    Block by block (each run of ``bit`` entries repeated once), so it costs slice copies only.
    """
    out: list[_T] = []
    for i in range(0, 1 << 13, 2 * bit):
        out += table[i:i + bit] * 2
    return tuple(out)


#: For the bit of one rank (index ``1 << rank``): ``RUN_DEAD`` and ``DEAD_AND_GAIN`` of each suit
#: mask with that rank's card taken out (for its set). Why: a hand with one set rank reads its
#: suits' values without the set straight from these, where ``s & ~bit`` would build a new
#: int per suit, and making ints is most of what these functions cost. Empty at other indexes.
_DEAD_WITHOUT: Final[list[tuple[int, ...]]] = [()] * (1 << 12 | 1)
DEAD_GAIN_WITHOUT: Final[list[tuple[tuple[int, int], ...]]] = [()] * (1 << 12 | 1)
for _r in range(13):
    _DEAD_WITHOUT[1 << _r] = _without(RUN_DEAD, 1 << _r)
    DEAD_GAIN_WITHOUT[1 << _r] = _without(DEAD_AND_GAIN, 1 << _r)
#: Per 13-bit mask of set ranks: True where it holds two or more (``t & (t - 1)`` without
#: making ints).
SEVERAL_RANKS: Final = tuple(bool(m & (m - 1)) for m in range(1 << 13))
#: Per 13-bit mask of set ranks: True where it holds exactly two.
TWO_RANKS: Final = tuple(m.bit_count() == 2 for m in range(1 << 13))


def rank_ways(s0: int, s1: int, s2: int, s3: int, b: int, u: int, prune: bool) -> list[tuple[int, int, int, int, bool]]:
    """The ways to use a rank of four (its bit ``b``) in a search over two set ranks: per way,
    ``u`` for each suit whose card of the rank goes into the set (else 0), and whether the
    way takes the rank whole with ``prune``. All four, no set, and three leaving the card of
    one suit; with ``prune`` (the search after a discard: after the whole rank the best gain
    is at most 0, one of the four may go) the last two only where such a card has a
    neighbour in its suit, for the reasons given in :func:`ginrummy.discard_search.min_deadwood_after_discard`."""
    ways = [(u, u, u, u, prune)]
    nb = NEIGHBOUR_RANKS[b] if prune else SUIT_MASK
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


#: The ways to use a rank of three in a search over two set ranks (as ``rank_ways``): no
#: set, or the set (a suit without the rank's card reads the same either way).
THREE_WAYS: Final = (((0, 0, 0, 0, False), (1, 1, 1, 1, False)), ((0, 0, 0, 0, False), (2, 2, 2, 2, False)))


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


def triple_ranks(mask: int) -> int:
    """Bit r is set where rank r has three or more cards in the mask."""
    s0 = mask & SUIT_MASK
    s1 = mask >> 13 & SUIT_MASK
    s2 = mask >> 26 & SUIT_MASK
    s3 = mask >> 39 & SUIT_MASK
    return (s0 & s1 & (s2 | s3)) | ((s0 | s1) & s2 & s3)


def set_unions(mask: int, trips: int) -> Iterable[int]:
    """Every union of disjoint sets the mask can make, the empty one first.

    ``trips`` is ``triple_ranks(mask)``. The order is that of ``itertools.product`` over
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


def _deadwood_two(s0: int, s1: int, s2: int, s3: int, t: int, fours: int) -> int:
    """``deadwood`` for two set ranks (bits ``t``; ``fours``: those of four cards), the
    commonest several-sets hand: each suit's runs deadwood read from the tables with both
    ranks' cards, without the lower rank's, without the higher's and without both (index 1
    for the lower rank taken out plus 2 for the higher), and each way to use the ranks (those
    of ``set_unions``) picks one per suit: no 52-bit union per way."""
    b = t & -t
    c = t ^ b
    table = RUN_DEAD
    wb = _DEAD_WITHOUT[b]
    wc = _DEAD_WITHOUT[c]
    k = SUIT_MASK ^ t
    if not fours:
        # Two ranks of three: no set, either, or both; every suit reads the same way.
        best = table[s0] + table[s1] + table[s2] + table[s3]
        v = wb[s0] + wb[s1] + wb[s2] + wb[s3]
        if v < best:
            best = v
        v = wc[s0] + wc[s1] + wc[s2] + wc[s3]
        if v < best:
            best = v
        v = table[s0 & k] + table[s1 & k] + table[s2 & k] + table[s3 & k]
        return v if v < best else best
    v0 = (table[s0], wb[s0], wc[s0], table[s0 & k])
    v1 = (table[s1], wb[s1], wc[s1], table[s1 & k])
    v2 = (table[s2], wb[s2], wc[s2], table[s2 & k])
    v3 = (table[s3], wb[s3], wc[s3], table[s3 & k])
    first = rank_ways(s0, s1, s2, s3, b, 1, False) if fours & b else THREE_WAYS[0]
    second = rank_ways(s0, s1, s2, s3, c, 2, False) if fours & c else THREE_WAYS[1]
    best = NO_DISCARD
    for x0, x1, x2, x3, _ in first:
        for y0, y1, y2, y3, _ in second:
            v = v0[x0 + y0] + v1[x1 + y1] + v2[x2 + y2] + v3[x3 + y3]
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
    if SEVERAL_RANKS[t]:
        v = _SEVERAL_SETS.get(mask)
        if v is None:
            v = _deadwood_two(s0, s1, s2, s3, t, p & q) if TWO_RANKS[t] else _runs_dead_over(mask, set_unions(mask, t))
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


def best_arrangement(mask: int) -> tuple[int, list[int]]:
    """Minimum deadwood and one arrangement that reaches it, as a list of meld masks.

    Runs come first (by suit, low to high), then sets by rank. Among arrangements of equal
    deadwood the choice of sets is the first in the order of ``set_unions`` (no set first,
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
    for used in set_unions(mask, t):
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


#: ``RUNS_IN[suit mask]``: the runs inside a 13-bit suit mask, as 13-bit masks, in meld-id order.
_SETS_IN, RUNS_IN = _build_meld_lookups()


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
    runs = RUNS_IN
    out.extend(runs[s0])
    # Loops, not comprehensions: a comprehension is a call with its own frame on 3.11, more
    # than the one to three runs a suit holds cost to shift.
    for x in runs[s1]:
        out.append(x << 13)
    for x in runs[s2]:
        out.append(x << 26)
    for x in runs[s3]:
        out.append(x << 39)
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
    "DEAD_AND_GAIN",
    "DEAD_GAIN_WITHOUT",
    "DISCARD_CARDS",
    "DISCARD_GAIN",
    "MELD_INDEX",
    "NEIGHBOUR_CARDS",
    "NEIGHBOUR_RANKS",
    "NO_DISCARD",
    "RANK_MASK",
    "RUNS_IN",
    "RUN_DEAD",
    "SEVERAL_RANKS",
    "SUIT_POINTS",
    "THREE_WAYS",
    "TWO_RANKS",
    "arrangements",
    "best_arrangement",
    "deadwood",
    "deadwood_cards",
    "is_meld",
    "is_set",
    "joins_meld",
    "meld_str",
    "melds_in",
    "points",
    "rank_ways",
    "set_unions",
    "triple_ranks",
]
