"""The numpy batch API gives exactly the scalar (and brute-force) answers, hand by hand.

Covers every branch of ``ginrummy.batch``: hands with no set rank, one rank of three,
one rank of four, several set ranks (the enumerated columns), masks with so many set
ranks that they go to the scalar code, ``exclude``, input shapes and bad input.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import deadwood_oracle as oracle
from ginrummy import batch, discard_search, melds
from ginrummy.cards import cards_of


def _hands() -> list[int]:
    rng = random.Random(977)
    out = [oracle.random_hand(rng, n) for n in [10] * 2000 + [11] * 2000]
    out += [oracle.random_hand(rng, rng.randrange(0, 21)) for _ in range(300)]
    out += [oracle.rich_hand(rng, n) for n in [9, 10, 10, 11, 11, 12, 16, 20] * 150]
    # Past the column limit: five and more ranks of four.
    out += [sum(melds.RANK_MASK << r for r in rng.sample(range(13), k)) for k in (5, 6)]
    return out


HANDS = _hands()
ARRAY = np.array(HANDS, dtype=np.uint64)


def _mask(cards: list[int]) -> int:
    return sum(1 << c for c in cards)


def test_deadwood_batch_matches_scalar_and_oracle() -> None:
    got = batch.deadwood_batch(ARRAY)
    assert got.dtype == np.int32 and got.shape == ARRAY.shape
    assert got.tolist() == [melds.deadwood(m) for m in HANDS]
    small = [i for i, m in enumerate(HANDS) if m.bit_count() <= 12]
    assert [int(got[i]) for i in small[::3]] == [oracle.deadwood(HANDS[i]) for i in small[::3]]


def test_deadwood_after_discard_batch_matches_scalar_and_oracle() -> None:
    got = batch.deadwood_after_discard_batch(ARRAY).tolist()
    assert got == [discard_search.min_deadwood_after_discard(m) for m in HANDS]
    small = [i for i, m in enumerate(HANDS) if 0 < m.bit_count() <= 12]
    assert [got[i] for i in small[1::3]] == [oracle.best_discards(HANDS[i])[0] for i in small[1::3]]


def test_best_discard_batch_matches_scalar_and_oracle() -> None:
    values, found = batch.best_discard_batch(ARRAY)
    assert found.dtype == np.uint64
    got = [(int(v), cards_of(int(f))) for v, f in zip(values, found, strict=True)]
    assert got == [discard_search.best_discards(m) for m in HANDS]
    small = [i for i, m in enumerate(HANDS) if 0 < m.bit_count() <= 12]
    assert [got[i] for i in small[2::3]] == [oracle.best_discards(HANDS[i]) for i in small[2::3]]


def test_best_discard_batch_with_exclude() -> None:
    rng = random.Random(5)
    ban = [(1 << rng.choice(cards_of(m))) if m and rng.random() < 0.7 else rng.getrandbits(52) & ~m for m in HANDS]
    values, found = batch.best_discard_batch(ARRAY, np.array(ban, dtype=np.uint64))
    got = [(int(v), cards_of(int(f))) for v, f in zip(values, found, strict=True)]
    assert got == [discard_search.best_discards(m, b) for m, b in zip(HANDS, ban, strict=True)]
    # One mask for every hand broadcasts.
    one = 1 << 0
    values, found = batch.best_discard_batch(ARRAY[:500], one)
    assert [(int(v), cards_of(int(f))) for v, f in zip(values, found, strict=True)] == [
        discard_search.best_discards(m, one) for m in HANDS[:500]
    ]


def test_several_set_ranks_are_covered() -> None:
    kinds = set()
    for m in HANDS:
        t = melds.triple_ranks(m)
        four = m & (t * melds.RANK_MASK)
        kinds.add((t.bit_count(), bool(four and any(four >> r & melds.RANK_MASK == melds.RANK_MASK for r in range(13)))))
    assert {(0, False), (1, False), (1, True), (2, False), (2, True), (3, False), (3, True)} <= kinds


def test_shapes_inputs_and_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    grid = ARRAY[:600].reshape(20, 30)
    assert batch.deadwood_batch(grid).shape == (20, 30)
    assert batch.deadwood_batch(grid).ravel().tolist() == batch.deadwood_batch(ARRAY[:600]).tolist()
    assert batch.deadwood_batch(HANDS[:50]).tolist() == [melds.deadwood(m) for m in HANDS[:50]]  # a list
    assert batch.deadwood_batch(np.array([], dtype=np.uint64)).tolist() == []
    assert batch.deadwood_after_discard_batch(np.array([0], dtype=np.uint64)).tolist() == [1 << 30]
    v, f = batch.best_discard_batch(np.array([0], dtype=np.uint64))
    assert v.tolist() == [1 << 30] and f.tolist() == [0]
    # Small chunks give the same answers as one pass.
    whole = batch.best_discard_batch(ARRAY)
    monkeypatch.setattr(batch, "_CHUNK", 97)
    parts = batch.best_discard_batch(ARRAY)
    assert whole[0].tolist() == parts[0].tolist() and whole[1].tolist() == parts[1].tolist()
    assert batch.deadwood_batch(ARRAY).tolist() == [melds.deadwood(m) for m in HANDS]


@pytest.mark.parametrize("bad", [[-1], [1 << 52], np.array([1.0])])
def test_bad_masks_are_refused(bad: object) -> None:
    with pytest.raises((ValueError, TypeError)):
        batch.deadwood_batch(bad)  # type: ignore[arg-type]


def test_card_order_in_masks() -> None:
    spades = _mask([0, 1, 2])  # As 2s 3s
    assert batch.deadwood_batch([spades | 1 << 25]).tolist() == [10]  # + Kh
