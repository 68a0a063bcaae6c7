"""Melds, exact minimum deadwood, knockers' arrangements and defenders' layoffs.

Why it is fast: a run lies inside one suit, so once the cards used in sets are chosen,
the rest splits into four 13-bit suit masks whose best runs come from one precomputed
table of 8,192 entries. A hand has a set only where a rank has three or more cards, so
most hands cost four table look-ups; the others try each way of using their few sets.

>>> from ginrummy.cards import CardSet
>>> hand = CardSet.parse('As 2s 3s 7h 7d 7c 9h Th Jh Kd')
>>> deadwood(hand.mask)
10
>>> [str(CardSet(m)) for m in best_arrangement(hand.mask)[1]]
['As 2s 3s', '9h Th Jh', '7h 7d 7c']
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import product
from typing import Final, NamedTuple

from .cards import SUIT_MASK, Card, card_str, cards_of, mask_value

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


def is_meld(mask: int) -> bool:
    """True for a set of 3-4 cards of one rank or a run of 3+ cards of one suit (ace low).

    >>> from ginrummy.cards import CardSet
    >>> is_meld(CardSet.parse('Qs Ks As').mask), is_meld(CardSet.parse('Jh Qh Kh').mask)
    (False, True)
    """
    return mask in MELD_INDEX


def is_set(mask: int) -> bool:
    """True for a meld of one rank."""
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


def _build_run_tables() -> tuple[list[int], list[tuple[int, ...]]]:
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
    return dead, runs


_RUN_DEAD, _RUN_MELDS = _build_run_tables()


def _build_removal_table() -> list[int]:
    """For each suit mask, the best runs-only deadwood after removing one of its cards."""
    out = [0] * (1 << 13)
    for m in range(1, 1 << 13):
        best = 1 << 30
        x = m
        while x:
            low = x & -x
            v = _RUN_DEAD[m ^ low]
            if v < best:
                best = v
            x ^= low
        out[m] = best
    return out


_RUN_DEAD_MINUS_ONE = _build_removal_table()


def _set_options(mask: int, rank: int) -> list[int]:
    """Ways to use the cards of one rank in a set: none, all four, or any three."""
    cards = [s * 13 + rank for s in range(4) if mask >> (s * 13 + rank) & 1]
    full = 0
    for c in cards:
        full |= 1 << c
    options = [0]
    if len(cards) == 4:
        options.append(full)
        options.extend(full & ~(1 << c) for c in cards)
    elif len(cards) == 3:
        options.append(full)
    return options


def _triple_ranks(mask: int) -> int:
    """Bit r is set where rank r has three or more cards in the mask."""
    s0 = mask & SUIT_MASK
    s1 = mask >> 13 & SUIT_MASK
    s2 = mask >> 26 & SUIT_MASK
    s3 = mask >> 39 & SUIT_MASK
    return (s0 & s1 & (s2 | s3)) | ((s0 | s1) & s2 & s3)


def _set_choices(mask: int) -> Iterator[int]:
    """Every union of disjoint sets the mask can make (the empty one first)."""
    trips = _triple_ranks(mask)
    ranks = cards_of(trips)  # bit positions 0..12 are ranks here
    if not ranks:
        yield 0
        return
    for combo in product(*(_set_options(mask, r) for r in ranks)):
        u = 0
        for part in combo:
            u |= part
        yield u


def deadwood(mask: int) -> int:
    """Exact minimum deadwood of any hand (any number of cards).

    >>> from ginrummy.cards import CardSet
    >>> deadwood(CardSet.parse('4h 5h 6h 9s 9h 9d Tc Jc Qc 2d').mask)
    2
    """
    s0 = mask & SUIT_MASK
    s1 = mask >> 13 & SUIT_MASK
    s2 = mask >> 26 & SUIT_MASK
    s3 = mask >> 39
    if not ((s0 & s1 & (s2 | s3)) | ((s0 | s1) & s2 & s3)):
        return _RUN_DEAD[s0] + _RUN_DEAD[s1] + _RUN_DEAD[s2] + _RUN_DEAD[s3]
    best = 1 << 30
    for used in _set_choices(mask):
        r = mask & ~used
        v = (
            _RUN_DEAD[r & SUIT_MASK]
            + _RUN_DEAD[r >> 13 & SUIT_MASK]
            + _RUN_DEAD[r >> 26 & SUIT_MASK]
            + _RUN_DEAD[r >> 39]
        )
        if v < best:
            best = v
    return best


def best_arrangement(mask: int) -> tuple[int, list[int]]:
    """Minimum deadwood and one arrangement that reaches it, as a list of meld masks.

    Runs come first (by suit, low to high), then sets by rank.
    """
    best = 1 << 30
    best_used = 0
    for used in _set_choices(mask):
        r = mask & ~used
        v = sum(_RUN_DEAD[r >> (13 * s) & SUIT_MASK] for s in range(4))
        if v < best:
            best, best_used = v, used
    r = mask & ~best_used
    melds = [run << (13 * s) for s in range(4) for run in _RUN_MELDS[r >> (13 * s) & SUIT_MASK]]
    for rank in range(13):
        part = best_used & (_RANK_MASK << rank)
        if part:
            melds.append(part)
    return best, melds


_RANK_MASK: Final = 1 | 1 << 13 | 1 << 26 | 1 << 39


def min_deadwood_after_discard(mask: int) -> int:
    """Minimum deadwood left after the best discard from a hand of 11 (or any n > 0) cards.

    >>> from ginrummy.cards import CardSet
    >>> min_deadwood_after_discard(CardSet.parse('As 2s 3s 4h 5h 6h 7c 7d 7s Kc Qd').mask)
    10
    """
    s0 = mask & SUIT_MASK
    s1 = mask >> 13 & SUIT_MASK
    s2 = mask >> 26 & SUIT_MASK
    s3 = mask >> 39
    table = _RUN_DEAD
    minus = _RUN_DEAD_MINUS_ONE
    if not ((s0 & s1 & (s2 | s3)) | ((s0 | s1) & s2 & s3)):
        d0, d1, d2, d3 = table[s0], table[s1], table[s2], table[s3]
        total = d0 + d1 + d2 + d3
        best = 1 << 30
        if s0:
            best = total - d0 + minus[s0]
        if s1:
            v = total - d1 + minus[s1]
            if v < best:
                best = v
        if s2:
            v = total - d2 + minus[s2]
            if v < best:
                best = v
        if s3:
            v = total - d3 + minus[s3]
            if v < best:
                best = v
        return best
    best = 1 << 30
    for used in _set_choices(mask):
        r = mask & ~used
        parts = (r & SUIT_MASK, r >> 13 & SUIT_MASK, r >> 26 & SUIT_MASK, r >> 39)
        total = table[parts[0]] + table[parts[1]] + table[parts[2]] + table[parts[3]]
        for p in parts:
            if p:
                v = total - table[p] + minus[p]
                if v < best:
                    best = v
    return best


def best_discards(mask: int, exclude: int = 0) -> tuple[int, list[Card]]:
    """The least deadwood after one discard and every discard that reaches it.

    ``exclude`` is a mask of cards that may not be discarded (the card just taken from
    the discard pile).

    >>> from ginrummy.cards import CardSet
    >>> d, cards = best_discards(CardSet.parse('As 2s 3s 4h 5h 6h 7c 7d 7s Kc Qd').mask)
    >>> d, [card_str(c) for c in cards]
    (10, ['Qd', 'Kc'])
    """
    best = 1 << 30
    found: list[Card] = []
    for card in cards_of(mask & ~exclude):
        v = deadwood(mask & ~(1 << card))
        if v < best:
            best, found = v, [card]
        elif v == best:
            found.append(card)
    return best, found


def deadwood_cards(mask: int, melds: Sequence[int]) -> int:
    """The cards of a mask outside the given melds."""
    used = 0
    for m in melds:
        used |= m
    return mask & ~used


# ---------------------------------------------------------------------------
# Knockers' arrangements.


def melds_in(mask: int) -> list[int]:
    """Every meld whose cards are all in the mask, in meld-id order."""
    return [m for m in ALL_MELDS if m & mask == m]


def arrangements(mask: int, limit: int) -> list[tuple[int, list[int]]]:
    """Every way to lay out a hand with deadwood at or under ``limit``: (deadwood, melds).

    The knocker chooses one of these; the choice matters to the defender's layoffs.
    Sorted by deadwood, then by the number of melds.

    >>> from ginrummy.cards import CardSet
    >>> [d for d, _ in arrangements(CardSet.parse('4h 5h 6h 7h 9s 9h 9d Tc Jc Qc').mask, 10)]
    [0, 4, 7]
    """
    candidates = melds_in(mask)
    total = mask_value(mask)
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
            walk(i + 1, used | m, chosen, melded + mask_value(m))
            chosen.pop()

    walk(0, 0, [], 0)
    out.sort(key=lambda item: (item[0], len(item[1])))
    return out


def layoff_targets(meld: int, laid: int = 0) -> int:
    """Cards that could be laid off on a meld now (given cards already laid off on it).

    A set takes its missing fourth card; a run takes the next card at either end.

    >>> from ginrummy.cards import CardSet
    >>> str(CardSet(layoff_targets(CardSet.parse('4h 5h 6h').mask)))
    '3h 7h'
    """
    full = meld | laid
    if is_set(meld):
        rank = cards_of(meld)[0] % 13
        return (_RANK_MASK << rank) & ~full
    cards = cards_of(full)
    lo, hi = cards[0], cards[-1]
    out = 0
    if lo % 13 > 0:
        out |= 1 << (lo - 1)
    if hi % 13 < 12:
        out |= 1 << (hi + 1)
    return out


def layoff_exposure(melds: Sequence[int], hidden: int) -> int:
    """How many cards among ``hidden`` could be laid off directly on these melds."""
    n = 0
    for m in melds:
        n += (layoff_targets(m) & hidden).bit_count()
    return n


def knocker_choice(mask: int, limit: int, hidden: int | None = None) -> tuple[int, list[int]] | None:
    """The arrangement best for the knocker: lowest deadwood, then fewest cards the
    defender could lay off (among ``hidden``, by default every card not in the hand).

    None when no arrangement is at or under the limit.
    """
    options = arrangements(mask, limit)
    if not options:
        return None
    if hidden is None:
        hidden = ((1 << 52) - 1) & ~mask
    low = options[0][0]
    return min(
        (o for o in options if o[0] == low),
        key=lambda o: (layoff_exposure(o[1], hidden), len(o[1])),
    )


class Defense(NamedTuple):
    """A defender's best answer to a knock: deadwood left, own melds, layoffs in order."""

    deadwood: int
    melds: list[int]
    layoffs: list[tuple[Card, int]]  # (card, index of the knocker's meld)


def _layoff_options(meld: int, hand: int) -> list[tuple[int, list[Card]]]:
    """Each way to lay off cards of ``hand`` on one meld: (mask, cards in a legal order)."""
    if is_set(meld):
        extra = layoff_targets(meld) & hand
        return [(0, [])] + ([(extra, [cards_of(extra)[0]])] if extra else [])
    cards = cards_of(meld)
    lo, hi = cards[0], cards[-1]
    down: list[Card] = []
    c = lo - 1
    while c >= 0 and c // 13 == lo // 13 and hand >> c & 1:
        down.append(c)
        c -= 1
    up: list[Card] = []
    c = hi + 1
    while c < 52 and c // 13 == hi // 13 and hand >> c & 1:
        up.append(c)
        c += 1
    out = []
    for i in range(len(down) + 1):
        for j in range(len(up) + 1):
            seq = down[:i] + up[:j]
            m = 0
            for x in seq:
                m |= 1 << x
            out.append((m, seq))
    return out


def best_defense(hand: int, knocker_melds: Sequence[int]) -> Defense:
    """The defender's lowest count: own melds plus chained layoffs on the knocker's melds.

    The knocker's layout in 000's example: 4-5-6♥, three 9s, T-J-Q♣; Sam lays off 7♥ and 9♥.

    >>> from ginrummy.cards import CardSet
    >>> knocker = [CardSet.parse(m).mask for m in ('4h 5h 6h', '9s 9d 9c', 'Tc Jc Qc')]
    >>> sam = CardSet.parse('Ks Kh Kd 5s 6s 7s 7h 9h 3c Ad').mask
    >>> d = best_defense(sam, knocker)
    >>> d.deadwood, [(card_str(c), i) for c, i in d.layoffs]
    (4, [('7h', 0), ('9h', 1)])
    """
    per_meld = [_layoff_options(m, hand) for m in knocker_melds]
    best: Defense | None = None
    for combo in product(*per_meld) if per_meld else [()]:
        laid = 0
        ok = True
        for m, _ in combo:
            if laid & m:
                ok = False
                break
            laid |= m
        if not ok:
            continue
        rest = hand & ~laid
        d = deadwood(rest)
        if best is None or d < best.deadwood or (d == best.deadwood and laid.bit_count() < _laid_count(best)):
            _, melds = best_arrangement(rest)
            layoffs = [(c, i) for i, (_, seq) in enumerate(combo) for c in seq]
            best = Defense(d, melds, layoffs)
    assert best is not None
    return best


def _laid_count(d: Defense) -> int:
    return len(d.layoffs)


def can_lay_off(card: Card, meld: int, laid: int) -> bool:
    """Whether ``card`` fits on ``meld`` that already carries the cards ``laid``."""
    return bool(layoff_targets(meld, laid) >> card & 1)


def split_into_melds(mask: int) -> list[int] | None:
    """An arrangement that uses every card in melds (gin / big gin), or None."""
    d, melds = best_arrangement(mask)
    return melds if d == 0 else None


__all__ = [
    "ALL_MELDS",
    "MELD_INDEX",
    "Defense",
    "arrangements",
    "best_arrangement",
    "best_defense",
    "best_discards",
    "can_lay_off",
    "deadwood",
    "deadwood_cards",
    "is_meld",
    "is_set",
    "knocker_choice",
    "layoff_exposure",
    "layoff_targets",
    "meld_str",
    "melds_in",
    "min_deadwood_after_discard",
    "split_into_melds",
]
