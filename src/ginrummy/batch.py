"""Exact deadwood for many hands at once, with numpy.

Training loops, simulations and analysis tools ask for the deadwood of thousands of
hands; calling ``melds.deadwood`` in a Python loop costs about a microsecond each, most
of it interpreter overhead. These functions take an array of 52-bit hand masks
(``uint64``, or any integer array of non-negative values below ``2**52``) and give the
same exact numbers as the scalar functions in :mod:`ginrummy.melds`, computed with a few
whole-array operations:

* every hand first gets its runs-only deadwood: four look-ups in the per-suit run table;
* hands with a rank of three or more cards are grouped by how many ranks of three and of
  four they hold; inside a group every way to use those sets is an extra column (two per
  rank of three, six per rank of four), so the minimum over the columns is exact and the
  work stays vectorized. Up to 11 cards no hand needs more than 72 columns. Hands whose
  sets would need more than ``_MAX_COLUMNS`` columns (only possible with many more cards,
  such as a 30-card mask) are handed to the scalar code.

>>> import numpy as np
>>> from ginrummy.cards import CardSet
>>> hands = np.array([CardSet.parse(h).mask for h in (
...     '4h 5h 6h 9s 9h 9d Tc Jc Qc 2d',
...     'As 2s 3s 7h 7d 7c 9h Th Jh Kd')], dtype=np.uint64)
>>> deadwood_batch(hands).tolist()
[2, 10]
>>> values, discards = best_discard_batch(hands | np.uint64(1 << 12))  # add the Ks
>>> values.tolist(), [str(CardSet(int(m))) for m in discards]
([2, 10], ['Ks', 'Ks Kd'])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

import numpy as np
from numpy.typing import ArrayLike, NDArray

from . import discard_search, melds
from .melds import DISCARD_CARDS, DISCARD_GAIN, NO_DISCARD, RUN_DEAD

__all__ = ["best_discard_batch", "deadwood_after_discard_batch", "deadwood_batch"]

I64 = NDArray[np.int64]
I32 = NDArray[np.int32]

_SUIT: Final = np.int64(0x1FFF)
_RANK: Final = np.int64(1 | 1 << 13 | 1 << 26 | 1 << 39)
#: Per-suit tables from melds. Values are int32 (half the memory traffic of int64, and
#: the result type); the card masks are int64 because they are shifted into place.
_DEAD: Final = np.array(RUN_DEAD, dtype=np.int32)
_GAIN: Final = np.array(DISCARD_GAIN, dtype=np.int32)
_CARDS: Final = np.array(DISCARD_CARDS, dtype=np.int64)
_POP: Final = np.array([bin(m).count("1") for m in range(1 << 13)], dtype=np.int64)
#: Most set choices tried for one hand in one array; beyond it the scalar code is used.
_MAX_COLUMNS: Final = 6**4
#: Hands per pass: small enough that every temporary array stays in the CPU cache and
#: is recycled by numpy's allocator instead of being mapped afresh for each operation.
_CHUNK: Final = 1 << 14


def _masks(masks: ArrayLike) -> tuple[I64, tuple[int, ...]]:
    """Flat int64 view of the masks (values below 2**52, so signedness does not matter)."""
    a = np.asarray(masks)
    if a.dtype.kind not in "iu":
        raise TypeError(f"hand masks must be an integer array, not {a.dtype}")
    flat = np.ascontiguousarray(a.reshape(-1)).astype(np.int64, copy=False)
    if flat.size and (int(flat.min()) < 0 or int(flat.max()) >> 52):
        raise ValueError("hand masks must lie in 0 .. 2**52 - 1")
    return flat, a.shape


def _suits(m: I64) -> tuple[I64, I64, I64, I64]:
    return m & _SUIT, (m >> 13) & _SUIT, (m >> 26) & _SUIT, m >> 39


def _set_groups(m: I64, rows: I64) -> list[tuple[I64, I64]]:
    """For the given hands (rows that can form a set): every union of sets, per row.

    Rows are grouped by their number of set ranks K, so each group's unions form a
    rectangular array of 6**K columns: each rank contributes "none", "the whole rank" and,
    for a rank of four, "all but the card of suit j" (for a rank of three those four
    columns repeat "none", which is harmless for a minimum). A few groups of uniform
    shape cost far fewer numpy calls than grouping by the exact option counts.
    """
    if rows.size == 0:
        return []
    s0, s1, s2, s3 = _suits(m[rows])
    t = (s0 & s1 & (s2 | s3)) | ((s0 | s1) & s2 & s3)
    key = _POP[t]
    groups: list[tuple[I64, I64]] = []
    for k in np.flatnonzero(np.bincount(key)).tolist():
        pick = np.flatnonzero(key == k)
        sel = rows[pick]
        x = t[pick]
        mm = m[sel]
        unions = np.zeros((sel.size, 1), dtype=np.int64)
        opts = np.zeros((sel.size, 6), dtype=np.int64)
        for _ in range(k if 6**k <= _MAX_COLUMNS else 0):
            low = x & -x
            x = x ^ low
            every = low * _RANK
            full = mm & every
            four = full == every
            opts[:, 1] = full
            for j in range(4):
                opts[:, 2 + j] = np.where(four, full ^ (low << 13 * j), 0)
            unions = (unions[:, :, None] | opts[:, None, :]).reshape(sel.size, -1)
        groups.append((sel, unions))
    return groups


def _split_large(groups: list[tuple[I64, I64]]) -> tuple[list[tuple[I64, I64]], list[int]]:
    """Groups small enough to vectorize, and the rows left for the scalar code."""
    keep = [g for g in groups if g[1].shape[1] > 1]
    big = [row for g in groups if g[1].shape[1] == 1 for row in g[0].tolist()]
    return keep, big


class _Sets:
    """Where the sets of each hand are, computed once for the whole batch.

    ``strip`` removes every rank of three or more: always a legal union of sets, and
    with "no set" the only choices a hand with at most one such rank (of three cards)
    has. ``hard`` marks the other hands, which get the full enumeration.
    """

    def __init__(self, m: I64, four_is_hard: bool) -> None:
        s0, s1, s2, s3 = _suits(m)
        t = (s0 & s1 & (s2 | s3)) | ((s0 | s1) & s2 & s3)
        self.trips = t
        self.strip = m & ~(t * _RANK)
        hard = t & (t - 1)
        if four_is_hard:
            hard |= t & s0 & s1 & s2 & s3
        self.hard = np.flatnonzero(hard)


def _dead_of(r: I64) -> I32:
    dead: I32 = _DEAD[r & _SUIT] + _DEAD[(r >> 13) & _SUIT] + _DEAD[(r >> 26) & _SUIT] + _DEAD[r >> 39]
    return dead


def _after_of(r: I64) -> I32:
    p0, p1, p2, p3 = _suits(r)
    g = np.minimum(np.minimum(_GAIN[p0], _GAIN[p1]), np.minimum(_GAIN[p2], _GAIN[p3]))
    return _DEAD[p0] + _DEAD[p1] + _DEAD[p2] + _DEAD[p3] + g


def _finish_hard(m: I64, rows: I64, out: I32, evaluate: Callable[[I64], I32], scalar: Callable[[int], int]) -> None:
    """Set ``out`` for the hard rows to the best over every union of sets."""
    groups, big = _split_large(_set_groups(m, rows))
    for sel, unions in groups:
        out[sel] = evaluate(m[sel, None] & ~unions).min(axis=1)
    for row in big:
        out[row] = scalar(int(m[row]))


def deadwood_batch(masks: ArrayLike) -> I32:
    """``melds.deadwood`` of every mask, as an int32 array of the same shape.

    >>> deadwood_batch([0, 0b111, 0b1011]).tolist()  # nothing; A-2-3 of spades; A, 2, 4
    [0, 0, 7]
    """
    m, shape = _masks(masks)
    out = np.empty(m.size, dtype=np.int32)
    for i in range(0, m.size, _CHUNK):
        out[i : i + _CHUNK] = _deadwood_chunk(m[i : i + _CHUNK])
    return out.reshape(shape)


def _deadwood_chunk(m: I64) -> I32:
    """``deadwood_batch`` of one chunk.

    A rank of four with no other set rank needs no enumeration either: keeping one of
    its cards for a run only changes that card's suit, so the best such choice is the
    stripped total plus the smallest per-suit difference.
    """
    s0, s1, s2, s3 = _suits(m)
    t = (s0 & s1 & (s2 | s3)) | ((s0 | s1) & s2 & s3)
    a0, a1, a2, a3 = _DEAD[s0], _DEAD[s1], _DEAD[s2], _DEAD[s3]
    out = a0 + a1 + a2 + a3
    rows = np.flatnonzero(t)
    if rows.size:
        tr = t[rows]
        keep = ~tr
        q0, q1, q2, q3 = s0[rows], s1[rows], s2[rows], s3[rows]
        c0, c1, c2, c3 = _DEAD[q0 & keep], _DEAD[q1 & keep], _DEAD[q2 & keep], _DEAD[q3 & keep]
        b0, b1, b2, b3 = a0[rows], a1[rows], a2[rows], a3[rows]
        whole = c0 + c1 + c2 + c3
        d = np.minimum(np.minimum(b0 - c0, b1 - c1), np.minimum(b2 - c2, b3 - c3))
        is_four = (tr & q0 & q1 & q2 & q3) != 0
        best = np.minimum(out[rows], whole + np.where(is_four, np.minimum(d, 0), 0))
        out[rows] = best
        hard = np.flatnonzero(tr & (tr - 1))
        if hard.size:
            _finish_hard(m, rows[hard], out, _dead_of, melds.deadwood)
    return out


def deadwood_after_discard_batch(masks: ArrayLike) -> I32:
    """``discard_search.min_deadwood_after_discard`` of every mask (an empty mask gives 2**30).

    >>> deadwood_after_discard_batch([0b1111, 1 << 51 | 0b111]).tolist()
    [0, 0]
    """
    m, shape = _masks(masks)
    out = np.empty(m.size, dtype=np.int32)
    for i in range(0, m.size, _CHUNK):
        part = m[i : i + _CHUNK]
        sets = _Sets(part, four_is_hard=True)
        best = np.minimum(_after_of(part), _after_of(sets.strip))
        _finish_hard(part, sets.hard, best, _after_of, discard_search.min_deadwood_after_discard)
        out[i : i + _CHUNK] = best
    return np.minimum(out, NO_DISCARD).reshape(shape)


def _suit_discards(p: I64, banned: I64 | None) -> tuple[I32, I64]:
    """Per suit mask: the change in runs deadwood of its best discard, and those cards.

    ``banned`` cards of the suit may not be discarded; rows that ban one are worked out
    card by card (13 vectorized steps over those rows only).
    """
    gain = _GAIN[p]
    cards = _CARDS[p]
    if banned is None:
        return gain, cards
    banned = banned & p
    rows = np.flatnonzero(banned)
    if rows.size:
        q = p[rows]
        allowed = q & ~banned[rows]
        base = _DEAD[q]
        best = np.full(rows.size, NO_DISCARD, dtype=np.int32)
        found = np.zeros(rows.size, dtype=np.int64)
        for bit in (1 << k for k in range(13)):
            w = np.where(allowed & bit != 0, _DEAD[q ^ bit] - base, NO_DISCARD)
            found = np.where(w < best, bit, np.where((w == best) & (w < NO_DISCARD), found | bit, found))
            best = np.minimum(best, w)
        gain = gain.copy()
        cards = cards.copy()
        gain[rows] = best
        cards[rows] = found
    return gain, cards


def _discards_of(r: I64, e: I64 | None) -> tuple[I32, I64]:
    """Best deadwood after one discard from each ``r`` (not of ``e``) and those discards."""
    shape = r.shape
    r = r.reshape(-1)
    if e is not None:
        e = e.reshape(-1)
    p = _suits(r)
    total = _DEAD[p[0]] + _DEAD[p[1]] + _DEAD[p[2]] + _DEAD[p[3]]
    parts = [_suit_discards(p[i], None if e is None else (e >> 13 * i) & _SUIT) for i in range(4)]
    g = np.minimum(np.minimum(parts[0][0], parts[1][0]), np.minimum(parts[2][0], parts[3][0]))
    found = np.zeros_like(r)
    for i, (gain, cards) in enumerate(parts):
        found |= np.where(gain == g, cards << 13 * i, 0)
    value = total + g
    none = g >= NO_DISCARD
    value[none] = NO_DISCARD
    found[none] = 0
    return value.reshape(shape), found.reshape(shape)


def best_discard_batch(masks: ArrayLike, exclude: ArrayLike | None = None) -> tuple[I32, NDArray[np.uint64]]:
    """``discard_search.best_discards`` of every mask: least deadwood after one discard, and the
    mask of every discard that reaches it (``uint64``; ``cards.cards_of`` lists them).

    ``exclude`` (a mask per hand, or one mask for all) bars cards from being discarded,
    as the card just taken from the discard pile. A hand with nothing to discard gives
    2**30 and an empty mask, like the scalar function.

    >>> from ginrummy.cards import CardSet
    >>> hand = CardSet.parse('As 2s 3s 4s 8h').mask
    >>> values, found = best_discard_batch([hand], exclude=CardSet.parse('8h').mask)
    >>> values.tolist(), [str(CardSet(int(f))) for f in found]
    ([8], ['As 4s'])
    """
    m, shape = _masks(masks)
    e: I64 | None = None
    if exclude is not None:
        e = np.broadcast_to(np.asarray(exclude), shape).reshape(-1).astype(np.int64) & m
        if not e.any():
            e = None
    value = np.empty(m.size, dtype=np.int32)
    found = np.empty(m.size, dtype=np.int64)
    for i in range(0, m.size, _CHUNK):
        value[i : i + _CHUNK], found[i : i + _CHUNK] = _best_discard_chunk(
            m[i : i + _CHUNK], None if e is None else e[i : i + _CHUNK]
        )
    return value.reshape(shape), found.view(np.uint64).reshape(shape)


def _best_discard_chunk(m: I64, e: I64 | None) -> tuple[I32, I64]:
    """``best_discard_batch`` of one chunk: the two cheap choices for every hand, then
    the full enumeration for the hard ones."""
    sets = _Sets(m, four_is_hard=True)
    value, found = _discards_of(m, e)
    v2, f2 = _discards_of(sets.strip, e)
    found = np.where(v2 < value, f2, np.where(v2 == value, found | f2, found))
    value = np.minimum(value, v2)
    groups, big = _split_large(_set_groups(m, sets.hard))
    for sel, unions in groups:
        r = m[sel, None] & ~unions
        v, f = _discards_of(r, None if e is None else np.broadcast_to(e[sel, None], r.shape))
        low = v.min(axis=1)
        value[sel] = low
        found[sel] = np.bitwise_or.reduce(np.where(v == low[:, None], f, 0), axis=1)
    for row in big:
        v0, cards = discard_search.best_discards(int(m[row]), 0 if e is None else int(e[row]))
        value[row] = v0
        found[row] = sum(1 << c for c in cards)
    return value, found
