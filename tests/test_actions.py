"""Typed actions: a stable integer encoding and a text notation that round-trip."""

from __future__ import annotations

import pytest

from ginrummy.actions import (
    BIG_GIN_ID,
    DONE_ID,
    KNOCK_BASE,
    LAYOFF_BASE,
    MELD_BASE,
    NUM_ACTIONS,
    PASS_ID,
    PILE_ID,
    STOCK_ID,
    Action,
    Kind,
)
from ginrummy.cards import parse_card
from ginrummy.errors import NotationError
from ginrummy.melds import ALL_MELDS


def test_the_integer_encoding_is_stable() -> None:
    # Environments and records store these numbers: changing one is a breaking change.
    assert (STOCK_ID, PILE_ID, PASS_ID, KNOCK_BASE, BIG_GIN_ID, DONE_ID, MELD_BASE) == (52, 53, 54, 55, 107, 108, 109)
    assert len(ALL_MELDS) == 65 + 264 and LAYOFF_BASE == 438 and NUM_ACTIONS == 646
    assert int(Action.parse("Kc")) == 51 and int(Action.parse("knock Kd")) == 55 + 38
    assert int(Action.parse("meld As2s3s")) == MELD_BASE + ALL_MELDS.index(0b111)
    assert int(Action.parse("layoff 7h 2")) == 438 + 4 * parse_card("7h") + 2


def test_every_number_round_trips_through_action_and_text() -> None:
    seen = set()
    for n in range(NUM_ACTIONS):
        a = Action.from_int(n)
        assert int(a) == n and Action.parse(str(a)) == a and Action.from_int(int(a)) is a
        seen.add(str(a))
    assert len(seen) == NUM_ACTIONS


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("STOCK", "stock"),
        ("draw", "stock"),
        ("take", "pile"),
        ("  pass ", "pass"),
        ("10h", "Th"),
        ("discard K♣", "Kc"),
        ("gin Qd", "knock Qd"),
        ("knock  qd", "knock Qd"),
        ("biggin", "big gin"),
        ("meld 3s 2s As", "meld As2s3s"),
        ("meld 9c,9d,9s", "meld 9s9d9c"),
        ("layoff 7♥ 0", "layoff 7h 0"),
        ("Done", "done"),
    ],
)
def test_text_notation_accepts_variants_and_prints_one_form(text: str, canonical: str) -> None:
    assert str(Action.parse(text)) == canonical


@pytest.mark.parametrize(
    "bad", ["", "knock", "meld As2s", "meld As 2s 4s", "layoff 7h", "layoff 7h 4", "layoff 7h x", "draw two", "Zz"]
)
def test_bad_notation_raises_notation_error(bad: str) -> None:
    with pytest.raises(NotationError):
        Action.parse(bad)


def test_constructors_validate_and_share_the_table() -> None:
    assert Action.discard(5) is Action.from_int(5) and Action.knock(5).kind is Kind.KNOCK
    assert Action.layoff(3, 1) == Action(Kind.LAYOFF, 3, target=1)
    for bad in (-1, 52, True):
        with pytest.raises(NotationError):
            Action.discard(bad)
    with pytest.raises(NotationError):
        Action.layoff(3, 4)
    with pytest.raises(NotationError, match="not a meld"):
        Action.lay_meld(0b1011)
    for bad_n in (-1, NUM_ACTIONS, True):
        with pytest.raises(NotationError, match="not an action number"):
            Action.from_int(bad_n)
