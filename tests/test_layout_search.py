"""The layout searches against their definitions, on random and meld-rich hands."""

from __future__ import annotations

import random
from itertools import product

from ginrummy.layout import best_defense, knocker_choice, layoff_exposure, layoff_options
from ginrummy.melds import ALL_MELDS, arrangements, best_arrangement, deadwood


def _rich(rng: random.Random) -> int:
    m = 0
    while m.bit_count() < rng.choice([9, 10, 10, 11, 12]):
        if rng.random() < 0.5:
            suit, start = rng.randrange(4), rng.randrange(13)
            for r in range(start, min(13, start + rng.randrange(3, 8))):
                m |= 1 << (suit * 13 + r)
        else:
            r = rng.randrange(13)
            for suit in rng.sample(range(4), rng.choice([3, 4])):
                m |= 1 << (suit * 13 + r)
        if rng.random() < 0.3:
            m |= 1 << rng.randrange(52)
    return m


def test_knocker_choice_is_the_first_least_exposed_lowest_arrangement() -> None:
    rng = random.Random(19)
    checked = 0
    for i in range(1500):
        mask = _rich(rng) if i % 2 else sum(1 << c for c in rng.sample(range(52), 10))
        limit = rng.choice([0, 5, 10, 99])
        hidden = None if i % 3 == 0 else rng.getrandbits(52) & ~mask
        seen_hidden = ((1 << 52) - 1) & ~mask if hidden is None else hidden
        options = arrangements(mask, limit)
        got = knocker_choice(mask, limit, hidden)
        if not options:
            assert got is None
            continue
        low = options[0][0]
        assert low == deadwood(mask)
        # arrangements() sorts stably, so among equal keys its list order is the search order.
        lowest = [melds for d, melds in options if d == low]
        want = min(lowest, key=lambda melds: (layoff_exposure(melds, seen_hidden), len(melds)))
        assert got == (low, want)
        checked += 1
    assert checked > 500


def _defense_by_definition(hand: int, knocker_melds: list[int]) -> tuple[int, int]:
    best = None
    for combo in product(*[layoff_options(m, hand) for m in knocker_melds]):
        laid = 0
        for m, _ in combo:
            if laid & m:
                break
            laid |= m
        else:
            key = (deadwood(hand & ~laid), laid.bit_count())
            best = key if best is None or key < best else best
    assert best is not None
    return best


def test_best_defense_reaches_the_least_deadwood_with_the_fewest_layoffs() -> None:
    rng = random.Random(7)
    for _ in range(3000):
        melds: list[int] = []
        used = 0
        for m in rng.sample(ALL_MELDS, rng.randrange(0, 4)):
            if not m & used:
                melds.append(m)
                used |= m
        hand = sum(1 << c for c in rng.sample([c for c in range(52) if not used >> c & 1], 10))
        d = best_defense(hand, melds)
        laid = 0
        for c, _ in d.layoffs:
            laid |= 1 << c
        assert (d.deadwood, laid.bit_count()) == _defense_by_definition(hand, melds)
        assert d.melds == best_arrangement(hand & ~laid)[1]
