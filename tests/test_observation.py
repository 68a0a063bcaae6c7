"""A seat's view holds what that seat may see, and nothing else."""

from __future__ import annotations

import json

import pytest

from conftest import hand_for, mask, play
from ginrummy.actions import Kind
from ginrummy.cards import parse_card
from ginrummy.events import Phase
from ginrummy.observation import SeatView
from ginrummy.rules import Rules

ND = "As 2s 3s 4h 5h 6h 9c 9d 9s Kc"
SAM = "Ks Kh Kd 5s 6s 7s 7h 9h 3c Ad"


def test_view_at_the_deal_shows_own_hand_upcard_and_sizes_only() -> None:
    h = hand_for(ND, SAM, "Qd")
    v = h.observation(0)
    assert isinstance(v, SeatView) and v.seat == 0 and v.opponent == 1 and v.my_turn
    assert v.hand == mask(ND) and v.opponent_known == 0 and v.opponent_size == 10
    assert v.pile == (parse_card("Qd"),) and v.upcard == parse_card("Qd") and v.stock_size == 31
    assert [str(a) for a in v.legal] == ["pile", "pass"]
    other = h.observation(1)
    assert other.hand == mask(SAM) and other.legal == () and not other.my_turn


def test_view_shows_the_opponents_card_taken_from_the_pile() -> None:
    h = hand_for(ND, SAM, "Qd")
    play(h, "pile", "Kc")
    v = h.observation(1)
    assert v.opponent_known == mask("Qd") and v.taken is None
    assert [e.text() for e in v.events] == ["pile", "Kc"]


def test_view_hides_the_card_the_opponent_drew_from_the_stock() -> None:
    h = hand_for(ND, SAM, "Qd", stock="2c")
    play(h, "pass", "pass", "stock")
    assert h.observation(1).events[-1].card == -1 and h.observation(1).events[-1].text() == "stock"
    assert h.observation(0).events[-1].text() == "stock 2c"
    assert "2c" not in json.dumps(h.observation(1).to_json())


def test_view_hides_the_knock_discard_from_the_defender_for_good() -> None:
    h = hand_for(ND, SAM, "Qd", stock="2c")
    play(h, "pass", "pass", "stock", "knock Kc")
    assert h.observation(0).knock_discard == parse_card("Kc")
    assert h.observation(0).events[-1].text() == "knock Kc"
    assert h.observation(1).events[-1].text() == "knock"

    def hidden_from_defender() -> None:
        v = h.observation(1)
        assert v.knock_discard is None and "Kc" not in json.dumps(v.to_json())

    hidden_from_defender()
    play(h, "meld As2s3s", "meld 4h5h6h", "meld 9s9d9c", "done")
    hidden_from_defender()
    play(h, "meld KsKhKd", "meld 5s6s7s", "done")
    hidden_from_defender()
    play(h, "layoff 7h 1", "layoff 9h 2", "done")
    assert h.is_over
    hidden_from_defender()


def test_a_known_card_knocked_face_down_stays_known_until_the_knocker_is_face_up() -> None:
    """The defender saw the knocker take Qd; the knock discard (Qd, face down) must not show
    early by Qd vanishing from what the defender knows, only once the knocker's hand is up."""
    h = hand_for(ND, SAM, "Qd", stock="2c 2d")
    play(h, "pile", "Kc", "stock", "3c", "stock")
    assert h.observation(1).opponent_known == mask("Qd")
    play(h, "knock Qd")
    for v in (h.observation(1), h.clone().observation(1)):
        assert v.knock_discard is None and v.opponent_known == mask("Qd")
    play(h, "meld As2s3s")
    assert h.observation(1).opponent_known == mask("Qd As 2s 3s")
    play(h, "meld 4h5h6h", "meld 9s9d9c", "done")
    assert h.observation(1).opponent_known == h.hands[0] == mask("As 2s 3s 4h 5h 6h 9s 9d 9c 2d")


def test_view_after_a_knock_shows_laid_melds_then_each_whole_hand_once_laid_out() -> None:
    h = hand_for(ND, SAM, "Qd", stock="2c")
    play(h, "pass", "pass", "stock", "knock Kc", "meld As2s3s")
    v = h.observation(1)
    assert v.opponent_known == mask("As 2s 3s")  # the rest of the knocker's hand is not down yet
    play(h, "meld 4h5h6h", "meld 9s9d9c", "done")
    assert h.observation(1).opponent_known == h.hands[0]  # melds and deadwood face up
    assert h.observation(0).opponent_known == 0
    play(h, "meld KsKhKd")
    assert h.observation(0).opponent_known == mask("Ks Kh Kd")
    play(h, "meld 5s6s7s", "done")
    assert h.phase is Phase.LAYOFF and h.observation(0).opponent_known == h.hands[1]


def test_view_after_a_dead_hand_keeps_the_opponents_hand_hidden() -> None:
    h = hand_for(ND, SAM, "Qd")
    play(h, "pass", "pass")
    while not h.is_over:
        step = h.apply("stock")
        h.apply(step.drawn)  # an int is the discard of that card
    assert h.result is not None and h.result.dead
    assert h.observation(0).opponent_known == 0 and h.observation(1).opponent_known == 0


def test_view_taken_and_must_knock_are_for_the_seat_to_act_only() -> None:
    h = hand_for(ND, SAM, "Qd")
    play(h, "pile")
    assert h.observation(0).taken == parse_card("Qd") and h.observation(1).taken is None


def test_view_carries_the_game_score_and_rules_and_serialises() -> None:
    h = hand_for(ND, SAM, "7c", rules=Rules(oklahoma=True))
    v = h.observation(0, scores=(12, 40))
    data = v.to_json()
    # Oklahoma switched on: the target is kept whatever it is (its default becomes 150).
    assert data["scores"] == [12, 40] and data["knock_limit"] == 7
    assert data["rules"]["overrides"] == {"oklahoma": True, "target": 100}
    assert json.loads(json.dumps(data)) == data


def test_view_refuses_a_seat_that_does_not_exist() -> None:
    with pytest.raises(ValueError, match="seat must be 0 or 1"):
        hand_for(ND, SAM, "Qd").observation(2)


def test_view_events_keep_public_actions_in_order() -> None:
    h = hand_for(ND, SAM, "Qd", stock="2c")
    play(h, "pass", "pass", "stock", "2c")
    assert [(e.seat, e.kind) for e in h.observation(1).events] == [
        (0, Kind.PASS), (1, Kind.PASS), (0, Kind.STOCK), (0, Kind.DISCARD)
    ]
