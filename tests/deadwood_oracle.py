"""A slow, obviously-correct deadwood oracle for the fast paths in melds and batch.

It lists melds from first principles (not from ``melds.ALL_MELDS``) and tries every
collection of disjoint melds. For the discard questions it uses one fact: after the best
discard from a hand, some disjoint melds U are kept and the discard is a card outside U,
best the highest-valued one; so one walk over U answers the value and every best card.
"""

from __future__ import annotations

import random

VALUE = [min(c % 13 + 1, 10) for c in range(52)]
NONE = 1 << 30


def melds_of(mask: int) -> list[tuple[int, int]]:
    """(meld mask, meld value) for every meld inside ``mask``."""
    out = []
    for rank in range(13):
        cards = [s * 13 + rank for s in range(4) if mask >> (s * 13 + rank) & 1]
        for drop in [None, *cards] if len(cards) == 4 else [None] if len(cards) == 3 else []:
            m = sum(1 << c for c in cards if c != drop)
            out.append((m, sum(VALUE[c] for c in cards if c != drop)))
    for suit in range(4):
        for lo in range(13):
            for hi in range(lo + 2, 13):
                cs = [suit * 13 + r for r in range(lo, hi + 1)]
                if not all(mask >> c & 1 for c in cs):
                    break
                out.append((sum(1 << c for c in cs), sum(VALUE[c] for c in cs)))
    return out


def _walk(mask: int, visit):  # type: ignore[no-untyped-def]
    ms = melds_of(mask)

    def go(i: int, used: int) -> None:
        visit(used)
        for j in range(i, len(ms)):
            if not ms[j][0] & used:
                go(j + 1, used | ms[j][0])

    go(0, 0)


def cards(mask: int) -> list[int]:
    return [c for c in range(52) if mask >> c & 1]


def deadwood(mask: int) -> int:
    best = [NONE]

    def visit(used: int) -> None:
        best[0] = min(best[0], sum(VALUE[c] for c in cards(mask & ~used)))

    _walk(mask, visit)
    return best[0]


def best_discards(mask: int, exclude: int = 0) -> tuple[int, list[int]]:
    """(least deadwood after one discard not in ``exclude``, every such discard)."""
    state: dict[int, int] = {"best": NONE, "found": 0}

    def visit(used: int) -> None:
        rest = cards(mask & ~used)
        allowed = [c for c in rest if not exclude >> c & 1]
        if not allowed:
            return
        top = max(VALUE[c] for c in allowed)
        v = sum(VALUE[c] for c in rest) - top
        got = sum(1 << c for c in allowed if VALUE[c] == top)
        if v < state["best"]:
            state["best"], state["found"] = v, got
        elif v == state["best"]:
            state["found"] |= got

    _walk(mask, visit)
    return state["best"], cards(state["found"])


def random_hand(rng: random.Random, n: int) -> int:
    return sum(1 << c for c in rng.sample(range(52), n))


def rich_hand(rng: random.Random, n: int) -> int:
    """About ``n`` cards built from sets (of three and four) and runs that overlap them."""
    m = 0
    while m.bit_count() < n:
        if rng.random() < 0.6:
            rank = rng.randrange(13)
            for s in rng.sample(range(4), rng.choice([3, 4, 4])):
                m |= 1 << (s * 13 + rank)
        else:
            suit, lo = rng.randrange(4), rng.randrange(11)
            for r in range(lo, min(13, lo + rng.randint(3, 5))):
                m |= 1 << (suit * 13 + r)
    while m.bit_count() > n:
        m &= ~(1 << rng.choice(cards(m)))
    return m
