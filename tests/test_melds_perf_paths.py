"""Every fast path of melds.deadwood / discard_search.min_deadwood_after_discard / best_discards /
best_arrangement is exact.

The scalar functions branch on the hand's sets: no rank of three, one rank of three,
one rank of four, several set ranks; best_discards also on ``exclude`` and on ties
between suits; min_deadwood_after_discard also on whether a card of a set rank has a
neighbour in its suit. Each branch is checked against a brute-force oracle on seeded
hands, and the test asserts that every branch was actually reached. best_arrangement
is also checked against the plain search it replaced, meld for meld, because the layout
it picks among equal ones decides play.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

import deadwood_oracle as oracle
from ginrummy import discard_search, melds
from ginrummy.cards import mask_value


def path_of(mask: int) -> str:
    t = melds.triple_ranks(mask)
    if not t:
        return "no set"
    if t & (t - 1):
        return "several set ranks"
    return "rank of four" if mask & (t * melds.RANK_MASK) == t * melds.RANK_MASK else "rank of three"


def hands() -> list[int]:
    rng = random.Random(20240601)
    out = [oracle.random_hand(rng, n) for n in [10] * 1500 + [11] * 1500]
    out += [oracle.random_hand(rng, rng.randrange(0, 16)) for _ in range(400)]
    out += [oracle.rich_hand(rng, n) for n in [9, 10, 10, 11, 11, 12] * 150]
    # A rank of four with cards around it (the neighbour branches of the discard search).
    for _ in range(300):
        rank = rng.randrange(13)
        m = melds.RANK_MASK << rank
        near = [s * 13 + r for s in range(4) for r in (rank - 1, rank + 1) if 0 <= r < 13]
        for c in rng.sample(near, rng.randrange(1, 4)) + rng.sample(range(52), rng.randrange(3, 8)):
            m |= 1 << c
        out.append(m)
    return out


def discard_path_of(mask: int) -> str:
    """The branch of ``min_deadwood_after_discard`` that a rank of four takes."""
    t = melds.triple_ranks(mask)
    fours = [r for r in range(13) if mask >> r & melds.RANK_MASK == melds.RANK_MASK]
    if not fours:
        return path_of(mask)
    if t & (t - 1):
        near = (mask << 1 | mask >> 1) & mask
        return "several, a four with a neighbour" if any(near & melds.RANK_MASK << r for r in fours) else "several, a lone four"
    nb = (t << 1 | t >> 1) & 0x1FFF
    near = sum(1 for s in range(4) if mask >> (13 * s) & nb)
    return f"four, {min(near, 2)} suits with a neighbour"


HANDS = hands()
DISCARD_PATHS = (
    "four, 0 suits with a neighbour",
    "four, 1 suits with a neighbour",
    "four, 2 suits with a neighbour",
    "several, a lone four",
    "several, a four with a neighbour",
)


def test_every_path_is_reached() -> None:
    seen = Counter(path_of(m) for m in HANDS)
    assert min(seen[p] for p in ("no set", "rank of three", "rank of four", "several set ranks")) >= 100, seen
    seen = Counter(discard_path_of(m) for m in HANDS if m)
    assert min(seen[p] for p in DISCARD_PATHS) >= 30, seen


def test_discarding_from_a_rank_of_four() -> None:
    # Every other card is in a run of three, so the best discard is one of the kings
    # (a set of three is left); with a second set rank as well.
    from ginrummy.cards import CardSet

    for text in ("Ks Kh Kd Kc As 2s 3s 4h 5h 6h", "Ks Kh Kd Kc 7s 7h 7d As 2s 3s", "Ks Kh Kd Kc"):
        m = CardSet.parse(text).mask
        assert discard_search.min_deadwood_after_discard(m) == oracle.best_discards(m)[0] == 0, text
        assert discard_search.best_discards(m) == oracle.best_discards(m), text


@pytest.mark.parametrize("chunk", range(4))
def test_deadwood_and_discards_match_the_oracle(chunk: int) -> None:
    rng = random.Random(chunk)
    for m in HANDS[chunk::4]:
        assert melds.deadwood(m) == oracle.deadwood(m), m
        if not m:
            continue
        best, found = oracle.best_discards(m)
        assert discard_search.min_deadwood_after_discard(m) == best, m
        assert discard_search.best_discards(m) == (best, found), m
        ban = 1 << rng.choice(oracle.cards(m))
        assert discard_search.best_discards(m, ban) == oracle.best_discards(m, ban), (m, ban)


def test_discards_within_a_limit_match_the_oracle() -> None:
    """``discards_within`` (the knock check's cards) is the cards whose discard leaves deadwood
    at most the limit, on every path (with and without set ranks) and at limits 0 to 30."""
    rng = random.Random(7)
    paths: Counter[str] = Counter()
    for m in HANDS[::3]:
        limit = rng.choice([0, 5, 10, 10, 20, 30])
        want = 0
        for c in oracle.cards(m):
            if oracle.deadwood(m & ~(1 << c)) <= limit:
                want |= 1 << c
        assert discard_search.discards_within(m, limit) == want, (m, limit)
        paths["set ranks" if melds.triple_ranks(m) else "no set"] += bool(want)
    assert paths["set ranks"] > 25 and paths["no set"] > 25, paths


def test_best_arrangement_is_legal_and_optimal() -> None:
    for m in HANDS[::7]:
        d, ms = melds.best_arrangement(m)
        used = 0
        for meld in ms:
            assert melds.is_meld(meld) and meld & m == meld and not meld & used
            used |= meld
        assert d == mask_value(m & ~used) == melds.deadwood(m)


def plain_arrangement(mask: int) -> tuple[int, list[int]]:
    """The search ``best_arrangement`` replaced: the first union of sets (in
    ``set_unions`` order) with the least runs-only deadwood, its runs by suit from the
    run table, then its sets by rank."""
    best, best_used = 1 << 30, 0
    for used in melds.set_unions(mask, melds.triple_ranks(mask)):
        r = mask & ~used
        v = sum(melds.RUN_DEAD[r >> (13 * s) & 0x1FFF] for s in range(4))
        if v < best:
            best, best_used = v, used
    r = mask & ~best_used
    out = [run << (13 * s) for s in range(4) for run in melds._RUN_MELDS[r >> (13 * s) & 0x1FFF]]
    out += [best_used & melds.RANK_MASK << rank for rank in range(13) if best_used & melds.RANK_MASK << rank]
    return best, out


def test_best_arrangement_keeps_the_same_layout_among_equal_ones() -> None:
    from ginrummy.cards import CardSet

    # Ties between no set, the whole rank and three of four (the king of spades or of
    # hearts could run with the queen and jack; every 7 could end a run of four).
    extra = [
        CardSet.parse(h).mask
        for h in (
            "Js Qs Ks Kh Kd Kc Qh Jh 2c 3d",
            "7s 7h 7d 5s 6s 5h 6h 9c Tc Jc",
            "4s 5s 6s 7s 7h 8h 9h Th 4d 5d 6d 7d 7c 8c 9c Tc",
            "4s 5s 6s 7s 4h 5h 6h 7h 7d 7c Kd",
        )
    ]
    for m in HANDS + extra:
        assert melds.best_arrangement(m) == plain_arrangement(m), m


def test_edge_cases() -> None:
    assert melds.deadwood(0) == 0
    assert discard_search.min_deadwood_after_discard(0) == 1 << 30
    assert discard_search.best_discards(0) == (1 << 30, [])
    one = 1 << 12
    assert discard_search.best_discards(one, exclude=one) == (1 << 30, [])
    # Six ranks of four (6**6 set choices): the lazy path, exact and bounded in memory.
    big = sum(melds.RANK_MASK << r for r in range(6))
    assert melds.deadwood(big) == 0
    assert discard_search.min_deadwood_after_discard(big) == 0
    assert discard_search.best_discards(big) == (0, oracle.cards(big))
    assert melds.deadwood(big | 1 << 12) == 10


def test_ties_across_suits_and_set_choices() -> None:
    # Kings of spades and diamonds tie as best discards, in different suits.
    from ginrummy.cards import CardSet

    m = CardSet.parse("As 2s 3s 4h 5h 6h 7c 7d 7s Ks Kd").mask
    assert discard_search.best_discards(m) == oracle.best_discards(m)
    # A rank of three whose set and runs tie: 7s in the set or in 5s-6s-7s.
    m = CardSet.parse("5s 6s 7s 7h 7d 9c Tc Jc 2h 3d Kh").mask
    assert discard_search.best_discards(m) == oracle.best_discards(m)
