"""Cards as ints and masks: the deck, names, values and parsing."""

from __future__ import annotations

import pytest

from ginrummy.cards import (
    CARD_VALUES,
    FULL_DECK,
    CardSet,
    card_name,
    card_str,
    cards_of,
    make_card,
    mask_of,
    mask_value,
    parse_card,
    parse_cards,
    rank_of,
    suit_of,
)
from ginrummy.errors import NotationError


def test_52_distinct_cards_round_trip_through_text_and_symbols() -> None:
    names = {card_str(c) for c in range(52)}
    assert len(names) == 52
    for c in range(52):
        assert parse_card(card_str(c)) == c == parse_card(card_str(c, symbols=True))
        assert make_card(rank_of(c), suit_of(c)) == c


def test_card_values_ace_1_numbers_face_value_faces_10() -> None:
    assert [CARD_VALUES[make_card(r, 0)] for r in range(13)] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]
    assert sum(CARD_VALUES) == 340


def test_suit_order_and_names() -> None:
    assert [card_str(make_card(0, s)) for s in range(4)] == ["As", "Ah", "Ad", "Ac"]
    assert card_name(parse_card("Td")) == "10 of diamonds"
    assert parse_card("10h") == parse_card("Th") == parse_card("t♡")


@pytest.mark.parametrize("bad", ["", "A", "1s", "Ax", "11h", "ZZ"])
def test_bad_card_text_raises_notation_error(bad: str) -> None:
    with pytest.raises(NotationError, match="not a card"):
        parse_card(bad)


def test_parse_cards_refuses_duplicates_and_accepts_commas() -> None:
    assert parse_cards("As, 2s 3s") == [0, 1, 2]
    with pytest.raises(NotationError, match="a card appears twice: As"):
        parse_cards("As 2s as")


def test_masks() -> None:
    assert cards_of(mask_of([51, 0, 13])) == [0, 13, 51]
    assert mask_value(FULL_DECK) == 340
    with pytest.raises(NotationError):
        card_str(52)
    with pytest.raises(NotationError):
        make_card(13, 0)


def test_cardset_behaves_like_a_set() -> None:
    a = CardSet.parse("As 2s 3s")
    b = CardSet.parse("3s Kd")
    assert str(a | b) == "As 2s 3s Kd" and str(a & b) == "3s" and str(a - b) == "As 2s"
    assert len(a) == 3 and 0 in a and 51 not in a and "As" not in a  # type: ignore[operator]
    assert a == CardSet([0, 1, 2]) and hash(a) == hash(CardSet(7)) and a.value() == 6
    assert not CardSet() and a.strings(symbols=True) == ["A♠", "2♠", "3♠"]
    with pytest.raises(NotationError):
        CardSet(1 << 52)
