"""Every fast path of melds.deadwood / min_deadwood_after_discard / best_discards is exact.

The scalar functions branch on the hand's sets: no rank of three, one rank of three,
one rank of four, several set ranks; best_discards also on ``exclude`` and on ties
between suits. Each branch is checked against a brute-force oracle on seeded hands, and
the test asserts that every branch was actually reached.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

import deadwood_oracle as oracle
from ginrummy import melds
from ginrummy.cards import mask_value


def path_of(mask: int) -> str:
    t = melds._triple_ranks(mask)
    if not t:
        return "no set"
    if t & (t - 1):
        return "several set ranks"
    return "rank of four" if mask & (t * melds._RANK_MASK) == t * melds._RANK_MASK else "rank of three"


def hands() -> list[int]:
    rng = random.Random(20240601)
    out = [oracle.random_hand(rng, n) for n in [10] * 1500 + [11] * 1500]
    out += [oracle.random_hand(rng, rng.randrange(0, 16)) for _ in range(400)]
    out += [oracle.rich_hand(rng, n) for n in [9, 10, 10, 11, 11, 12] * 150]
    return out


HANDS = hands()


def test_every_path_is_reached() -> None:
    seen = Counter(path_of(m) for m in HANDS)
    assert min(seen[p] for p in ("no set", "rank of three", "rank of four", "several set ranks")) >= 100, seen


@pytest.mark.parametrize("chunk", range(4))
def test_deadwood_and_discards_match_the_oracle(chunk: int) -> None:
    rng = random.Random(chunk)
    for m in HANDS[chunk::4]:
        assert melds.deadwood(m) == oracle.deadwood(m), m
        if not m:
            continue
        best, found = oracle.best_discards(m)
        assert melds.min_deadwood_after_discard(m) == best, m
        assert melds.best_discards(m) == (best, found), m
        ban = 1 << rng.choice(oracle.cards(m))
        assert melds.best_discards(m, ban) == oracle.best_discards(m, ban), (m, ban)


def test_best_arrangement_is_legal_and_optimal() -> None:
    for m in HANDS[::7]:
        d, ms = melds.best_arrangement(m)
        used = 0
        for meld in ms:
            assert melds.is_meld(meld) and meld & m == meld and not meld & used
            used |= meld
        assert d == mask_value(m & ~used) == melds.deadwood(m)


def test_edge_cases() -> None:
    assert melds.deadwood(0) == 0
    assert melds.min_deadwood_after_discard(0) == 1 << 30
    assert melds.best_discards(0) == (1 << 30, [])
    one = 1 << 12
    assert melds.best_discards(one, exclude=one) == (1 << 30, [])
    # Six ranks of four (6**6 set choices): the lazy path, exact and bounded in memory.
    big = sum(melds._RANK_MASK << r for r in range(6))
    assert melds.deadwood(big) == 0
    assert melds.min_deadwood_after_discard(big) == 0
    assert melds.best_discards(big) == (0, oracle.cards(big))
    assert melds.deadwood(big | 1 << 12) == 10


def test_ties_across_suits_and_set_choices() -> None:
    # Kings of spades and diamonds tie as best discards, in different suits.
    from ginrummy.cards import CardSet

    m = CardSet.parse("As 2s 3s 4h 5h 6h 7c 7d 7s Ks Kd").mask
    assert melds.best_discards(m) == oracle.best_discards(m)
    # A rank of three whose set and runs tie: 7s in the set or in 5s-6s-7s.
    m = CardSet.parse("5s 6s 7s 7h 7d 9c Tc Jc 2h 3d Kh").mask
    assert melds.best_discards(m) == oracle.best_discards(m)
