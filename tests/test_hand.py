"""One test per clause of RULES.md's core, as a referee would check a real table.

Seat 0 is the non-dealer and seat 1 the dealer unless a test says otherwise.
"""

from __future__ import annotations

import pytest

from conftest import cards, deck_for, finish_auto, hand_for, mask, play, state_key
from ginrummy.actions import NUM_ACTIONS, Action, Kind
from ginrummy.cards import card_str, cards_of, parse_card
from ginrummy.errors import IllegalActionError, NotationError
from ginrummy.events import CHANCE, Phase, Step
from ginrummy.hand import Hand, new_hand
from ginrummy.melds import deadwood
from ginrummy.rules import Rules

# A non-dealer with A-2-3♠, 4-5-6♥, three 9s and K♣: deadwood 10 (the K♣).
ND = "As 2s 3s 4h 5h 6h 9c 9d 9s Kc"
# 000's Sam: three kings, 5-6-7♠, then 7♥ 9♥ 3♣ A♦ (20 points).
SAM = "Ks Kh Kd 5s 6s 7s 7h 9h 3c Ad"
# Two hands with a lot of deadwood and nothing close to a knock.
HIGH0 = "As 3s 5s 7s 9s Qh 2d 4d 6d Tc"
HIGH1 = "4s 8s Ts Ah 3d 5d Jh Kh 8c 6c"


def strs(actions: list[Action]) -> list[str]:
    return [str(a) for a in actions]


def to_stock(h: Hand, left: int) -> None:
    """Both players draw from the stock and throw the drawn card until ``left`` cards remain."""
    while len(h.stock) > left:
        step = h.apply("stock")
        h.apply(Action.discard(step.drawn))


# ---------------------------------------------------------------- the deal


def test_deal_is_alternate_non_dealer_first_then_upcard_then_31_stock() -> None:
    deck = list(range(52))
    h = new_hand(Rules(), dealer=1, deck=deck)
    assert h.hands[0] == mask(deck[0:20:2]) and h.hands[1] == mask(deck[1:20:2])
    assert h.upcard == 20 and h.pile == [20]
    assert len(h.stock) == 31 and h.stock[-1] == 21  # the top of the stock is deck[21]
    assert h.phase is Phase.OFFER and h.current == 0


def test_deal_with_dealer_0_gives_seat_1_the_first_card() -> None:
    h = new_hand(Rules(), dealer=0, deck=list(range(52)))
    assert h.hands[1] >> 0 & 1 and h.current == 1 and h.non_dealer == 1


def test_deal_is_the_chance_step_and_refuses_a_bad_deck_or_a_second_deal() -> None:
    h = Hand(Rules(), dealer=1)
    assert h.phase is Phase.DEAL and h.current == CHANCE and h.legal_actions() == []
    with pytest.raises(IllegalActionError, match="each of the 52 cards once.*missing As"):
        h.deal([1] * 52)
    assert h.phase is Phase.DEAL and h.hands == [0, 0]
    h.deal(list(range(52)))
    with pytest.raises(IllegalActionError, match="already been dealt") as e:
        h.deal(list(range(52)))
    assert e.value.rule == "deal"


def test_seeded_shuffle_is_reproducible() -> None:
    a, b = new_hand(Rules(), 0, seed=7), new_hand(Rules(), 0, seed=7)
    assert a.deck == b.deck and sorted(a.deck) == list(range(52))


def test_deck_for_places_every_named_card() -> None:
    deck = deck_for(ND, SAM, "Qd", stock="2d Js")
    assert deck[20] == parse_card("Qd") and deck[21:23] == cards("2d Js")
    h = new_hand(Rules(), 1, deck=deck)
    assert h.hands[0] == mask(ND) and h.hands[1] == mask(SAM)


# ---------------------------------------------------------------- the first turn


def test_first_turn_non_dealer_is_offered_the_upcard_first() -> None:
    h = hand_for(ND, SAM, "Qd")
    assert h.current == 0 and strs(h.legal_actions()) == ["pile", "pass"]


def test_first_turn_non_dealer_takes_discards_then_dealer_plays() -> None:
    h = hand_for(ND, SAM, "Qd")
    play(h, "pile")
    assert h.phase is Phase.DISCARD and h.current == 0 and h.hands[0] >> parse_card("Qd") & 1
    play(h, "Kc")
    assert h.phase is Phase.DRAW and h.current == 1 and h.top_discard == parse_card("Kc")
    assert strs(h.legal_actions()) == ["stock", "pile"]


def test_first_turn_non_dealer_passes_dealer_takes_then_non_dealer_plays() -> None:
    h = hand_for(ND, SAM, "Qd")
    play(h, "pass")
    assert h.phase is Phase.OFFER and h.current == 1 and strs(h.legal_actions()) == ["pile", "pass"]
    assert h.hands[0] == mask(ND)  # a passer does not discard
    play(h, "pile", "9h")
    assert h.phase is Phase.DRAW and h.current == 0
    assert strs(h.legal_actions()) == ["stock", "pile"]  # the dealer's discard may be taken


def test_first_turn_both_pass_non_dealer_must_draw_from_the_stock() -> None:
    h = hand_for(ND, SAM, "Qd", stock="2d")
    play(h, "pass", "pass")
    assert h.phase is Phase.DRAW and h.current == 0 and strs(h.legal_actions()) == ["stock"]
    before = state_key(h)
    with pytest.raises(IllegalActionError, match="both players passed it") as e:
        h.apply("pile")
    assert e.value.rule == "upcard_offer" and state_key(h) == before
    play(h, "stock")
    assert h.hands[0] >> parse_card("2d") & 1 and h.phase is Phase.DISCARD
    play(h, "2d")
    assert h.current == 1 and strs(h.legal_actions()) == ["stock", "pile"]


def test_first_turn_offer_refuses_anything_but_take_or_pass() -> None:
    h = hand_for(ND, SAM, "Qd")
    for bad in ("stock", "Kc", "knock Kc", "done"):
        with pytest.raises(IllegalActionError, match="you take the upcard \\(pile\\) or pass") as e:
            h.apply(bad)
        assert e.value.rule == "upcard_offer"
    assert h.phase is Phase.OFFER and h.history == []


# ---------------------------------------------------------------- draw and discard


def test_turn_draw_then_discard_and_the_other_player_plays() -> None:
    h = hand_for(ND, SAM, "Qd", stock="2c")
    play(h, "pile", "Kc")
    step = h.apply("stock")
    assert step.drawn == parse_card("2c") and h.phase is Phase.DISCARD and h.current == 1
    assert len(h.legal_actions()) == 11  # 11 discards, no knock (Sam has 20+)
    with pytest.raises(IllegalActionError, match="draw first|discard a card"):
        h.apply("stock")
    play(h, "3c")
    assert h.current == 0 and h.phase is Phase.DRAW and len(h.stock) == 30


def test_a_card_drawn_from_the_stock_may_be_discarded_at_once() -> None:
    h = hand_for(ND, SAM, "Qd", stock="2c")
    play(h, "pass", "pass", "stock")
    assert Action.parse("2c") in h.legal_actions()
    play(h, "2c")
    assert h.top_discard == parse_card("2c")


def test_a_card_taken_from_the_pile_may_not_be_discarded_that_turn() -> None:
    h = hand_for(ND, SAM, "Qd")
    play(h, "pile")
    assert Action.parse("Qd") not in h.legal_actions()
    before = state_key(h)
    with pytest.raises(IllegalActionError, match="cannot discard Qd: it was just taken from the discard pile") as e:
        h.apply("Qd")
    assert e.value.rule == "no_throw_back" and state_key(h) == before


def test_discarding_a_card_not_held_names_the_card() -> None:
    h = hand_for(ND, SAM, "Qd")
    play(h, "pile")
    with pytest.raises(IllegalActionError, match="cannot discard Ks: it is not in your hand") as e:
        h.apply("Ks")
    assert e.value.rule == "not_in_hand"


# ---------------------------------------------------------------- knock


def test_knock_at_the_limit_is_allowed_and_over_it_refused_with_the_numbers() -> None:
    # After taking the Q♦ the non-dealer may knock with the K♣ (the Q♦ left: 10, at the limit).
    h = hand_for(ND, SAM, "Qd")
    play(h, "pile")
    legal = strs(h.legal_actions())
    assert "knock Kc" in legal  # leaves Q♦ = 10, at the limit
    assert "knock Qd" not in legal  # just taken
    with pytest.raises(IllegalActionError, match="cannot knock: deadwood 38 is over the knock limit 10") as e:
        h.apply("knock 9c")  # breaks the 9s: 9d 9s Kc Qd are loose
    assert e.value.rule == "knock_limit"


def test_knock_is_never_forced() -> None:
    h = hand_for(ND, SAM, "Qd")
    play(h, "pile")
    assert Action.parse("Kc") in h.legal_actions()  # a plain discard stays legal
    play(h, "Kc")
    assert h.knocker is None and h.phase is Phase.DRAW


def test_knock_on_the_first_turn_right_after_taking_the_upcard() -> None:
    h = hand_for(ND, SAM, "Qd")
    play(h, "pile", "knock Kc")
    assert h.phase is Phase.LAYOUT and h.knocker == 0 and h.knock_discard == parse_card("Kc")
    assert h.current == 0


def test_knock_on_the_first_turn_after_both_passed() -> None:
    h = hand_for(ND, SAM, "Qd", stock="2d")
    play(h, "pass", "pass", "stock", "knock Kc")
    assert h.knocker == 0 and h.phase is Phase.LAYOUT


def test_knock_on_the_dealers_first_turn_after_taking_the_upcard() -> None:
    dealer = "4c 5c 6c 8h 8s 8d Jc Qc Kc 2h"  # 4-5-6♣, three 8s, J-Q-K♣; the 2♥ is loose
    h = hand_for(HIGH0, dealer, "Th")
    play(h, "pass", "pile")
    assert "knock 2h" in strs(h.legal_actions())  # leaves the T♥ just taken: 10
    with pytest.raises(IllegalActionError, match="cannot knock with Th: it was just taken"):
        h.apply("knock Th")
    play(h, "knock 2h")
    assert h.knocker == 1


def test_knock_deadwood_counts_after_the_face_down_discard() -> None:
    # 4-5-6-7♥, three 9s, 2♣ Q♠ J♦ and the K♦ just taken: the K♦ may not go, so the best
    # knock keeps 2 + 10 + 10 = 22.
    h = hand_for("4h 5h 6h 7h 9s 9d 9c 2c Qs Jd", HIGH1, "Kd")
    play(h, "pile")
    legal = strs(h.legal_actions())
    assert not any(a.startswith("knock") for a in legal)
    with pytest.raises(IllegalActionError, match="cannot knock: deadwood 22 is over the knock limit 10"):
        h.apply("knock Qs")
    assert h.knocker is None


# ---------------------------------------------------------------- the knocker's layout


def test_layout_melds_offered_lead_only_to_legal_layouts() -> None:
    # Knocker after drawing A♦ and knocking with K♣: 3-4-5-6♥ 6♠ 6♦ A♣ 2♣ 2♦ A♦.  Laying
    # 3-4-5-6♥ leaves 6♠ 6♦ A♣ 2♣ 2♦ A♦ = 18 (too much); 3-4-5♥ + 6♠6♥6♦ leaves 6.
    knocker = "3h 4h 5h 6h 6s 6d Ac 2c 2d Kc"
    h = hand_for(knocker, HIGH1, "Qs", stock="Ad")
    play(h, "pass", "pass", "stock", "knock Kc")
    offered = {str(a) for a in h.legal_actions()}
    assert "meld 3h4h5h" in offered and "meld 6s6h6d" in offered
    assert "meld 3h4h5h6h" not in offered and "meld 4h5h6h" not in offered
    assert "done" not in offered  # 36 points are loose before any meld is laid
    before = state_key(h)
    with pytest.raises(IllegalActionError, match=r"cannot lay 3h4h5h6h: the other cards would keep deadwood 18") as e:
        h.apply("meld 3h4h5h6h")
    assert e.value.rule == "layout" and state_key(h) == before
    with pytest.raises(IllegalActionError, match=r"cannot finish the layout: deadwood 36 is left"):
        h.apply("done")
    play(h, "meld 3h4h5h")
    assert strs(h.legal_actions()) == ["meld 6s6h6d"]
    play(h, "meld 6s6h6d", "done")
    assert h.phase is Phase.DEFENDER_LAYOUT and h.current == 1 and h.knocker_deadwood() == 6


def test_knocker_chooses_the_arrangement_that_matters_for_layoffs() -> None:
    # 4-5-6-7♥ and 7♠ 7♦ 7♣ with A♣ 2♦ 3♠ (6): the 7♥ may go in the run or the set, and
    # 5-6-7♥ + 7♠7♦7♣ leaving the 4♥ (10) is legal too; 7♠7♥7♦ would strand the 7♣ (13).
    knocker = "4h 5h 6h 7h 7s 7d 7c Ac 2d 3s"
    h = hand_for(knocker, HIGH1, "Qs", stock="Kd")
    play(h, "pass", "pass", "stock", "knock Kd")
    offered = {str(a) for a in h.legal_actions()}
    assert {"meld 4h5h6h7h", "meld 4h5h6h", "meld 5h6h7h", "meld 7s7h7d7c", "meld 7s7d7c"} <= offered
    assert "meld 7s7h7d" not in offered and "meld 4h5h6h7h" in offered


def test_knocker_whose_ten_cards_are_gin_must_lay_them_as_gin() -> None:
    # 4-5-6-7♥ + 9s + T-J-Q♣: gin. 7♥ alone would be a legal knock with 7, but a gin hand is gin.
    knocker = "4h 5h 6h 7h 9s 9d 9c Tc Jc Qc"
    h = hand_for(knocker, HIGH1, "Ks")
    play(h, "pass", "pass", "stock")
    drawn = h.history[-1].drawn
    play(h, Action.knock(drawn))
    offered = strs(h.legal_actions())
    assert "meld 4h5h6h" not in offered  # would leave 7♥: legal knock, but not gin
    assert "done" not in offered
    finish_auto(h)
    assert h.result is not None and h.result.kind == "gin"


def test_auto_layout_is_a_legal_sequence_and_reaches_the_lowest_deadwood() -> None:
    h = hand_for(ND, SAM, "Qd")
    play(h, "pile", "knock Kc")
    layout = h.auto_layout()
    play(h, *layout)
    assert h.phase is Phase.DEFENDER_LAYOUT and h.knocker_deadwood() == 10


# ---------------------------------------------------------------- the defender


def test_defender_lays_melds_then_lays_off_a_fourth_card_on_a_set() -> None:
    # Knocker: 9♠9♦9♣ set; the defender's 9♥ goes on as the fourth card.
    h = hand_for(ND, SAM, "Qd")
    play(h, "pile", "knock Kc", "meld As2s3s", "meld 4h5h6h", "meld 9s9d9c", "done")
    assert h.current == 1 and h.phase is Phase.DEFENDER_LAYOUT
    with pytest.raises(IllegalActionError, match="lay out your own melds first") as e:
        h.apply("layoff 9h 2")
    assert e.value.rule == "layoff"
    play(h, "meld KsKhKd", "meld 5s6s7s", "done")
    assert h.phase is Phase.LAYOFF and h.current == 1
    legal = strs(h.legal_actions())
    assert "layoff 9h 2" in legal and "layoff 7h 1" in legal
    play(h, "layoff 9h 2")
    assert "layoff 9h 2" not in strs(h.legal_actions())


def test_run_layoffs_chain_at_either_end_repeatedly() -> None:
    # Knocker 4-5-6♥; the defender holds 2♥ 3♥ 7♥ 8♥ and lays 7♥ then 8♥, 3♥ then 2♥.
    knocker = "4h 5h 6h 9s 9d 9c Tc Jc Qc 2d"
    defender = "2h 3h 7h 8h Ks Kd Kc As 5c 7c"
    h = hand_for(knocker, defender, "Qs", stock="Qd")
    play(h, "pass", "pass", "stock", "knock Qd", "meld 4h5h6h", "meld 9s9d9c", "meld TcJcQc", "done")
    play(h, "meld KsKdKc", "done")
    assert "layoff 8h 0" not in strs(h.legal_actions())  # not yet adjacent
    play(h, "layoff 7h 0", "layoff 8h 0", "layoff 3h 0", "layoff 2h 0")
    assert h.laid_on[0] == mask("2h 3h 7h 8h")
    play(h, "done")
    assert h.defender_deadwood() == 1 + 5 + 7 and h.result is not None


def test_nothing_is_laid_off_on_the_knockers_deadwood() -> None:
    # Knocker's deadwood is 2♦; the defender's A♦ / 3♦ cannot go on it.
    knocker = "4h 5h 6h 9s 9d 9c Tc Jc Qc 2d"
    defender = "Ad 3d Ks Kh Kd 5s 6s 7s 8c 4c"
    h = hand_for(knocker, defender, "Qs", stock="Qd")
    play(h, "pass", "pass", "stock", "knock Qd")
    play(h, "meld 4h5h6h", "meld 9s9d9c", "meld TcJcQc", "done", "meld KsKhKd", "meld 5s6s7s", "done")
    legal = strs(h.legal_actions())
    assert legal == ["done"]
    with pytest.raises(IllegalActionError, match="cannot lay off Ad on 4h 5h 6h: it does not extend"):
        h.apply("layoff Ad 0")
    with pytest.raises(IllegalActionError, match="cannot lay off on meld 3: the knocker laid out 3 melds"):
        h.apply("layoff Ad 3")


def test_the_knocker_never_lays_off() -> None:
    # After the defender's layoffs the hand is scored: the knocker never gets a layoff turn.
    h = hand_for(ND, SAM, "Qd")
    play(h, "pile", "knock Kc")
    finish_auto(h)
    assert h.is_over
    assert all(s.seat == 1 for s in h.history if s.action.kind is Kind.LAYOFF)
    knocker_after = [s for s in h.history[2:] if s.seat == 0]
    assert all(s.action.kind in (Kind.MELD, Kind.DONE) for s in knocker_after)


def test_nothing_is_laid_off_against_gin() -> None:
    defender = "7h Ks Kh Kd 5s 6s 7s 8h 3c 4d"
    h = hand_for("4h 5h 6h 9s 9d 9c Tc Jc Qc Kc", defender, "Qs", stock="2d")
    play(h, "pass", "pass", "stock", "knock 2d")
    play(h, *h.auto_layout())
    assert h.knocker_deadwood() == 0
    play(h, "meld KsKhKd", "meld 5s6s7s")
    assert strs(h.legal_actions()) == ["done"]  # 7♥ / 8♥ would fit 4-5-6♥, but not against gin
    play(h, "done")
    assert h.is_over and h.layoffs == [] and h.result is not None and h.result.kind == "gin"
    assert h.result.points == 20 + (7 + 8 + 3 + 4)


# ---------------------------------------------------------------- hand score


def test_score_knocker_lower_scores_the_difference() -> None:
    # Knocker 2 (the 2♦); the defender lays off 4♠ on A-2-3♠ and keeps 65 - 4 = 61.
    h = hand_for(ND, HIGH1, "Kd", stock="2d")
    play(h, "pass", "pass", "stock", "knock Kc")
    finish_auto(h)
    r = h.result
    assert r is not None and [c for c, _ in h.layoffs] == [parse_card("4s")]
    assert (r.kind, r.winner, r.knocker_deadwood, r.defender_deadwood, r.points) == ("knock", 0, 2, 61, 59)


def test_score_undercut_when_the_defender_is_lower() -> None:
    h = hand_for(ND, SAM, "Qd")
    play(h, "pile", "knock Kc")
    finish_auto(h)
    r = h.result
    assert r is not None
    assert (r.kind, r.winner, r.knocker_deadwood, r.defender_deadwood, r.points) == ("undercut", 1, 10, 4, 6 + 10)


def test_score_gin_is_never_undercut_even_by_zero() -> None:
    knocker = "4h 5h 6h 9s 9d 9c Tc Jc Qc Kc"
    defender = "As 2s 3s 4s 5d 6d 7d Jh Qh Kh"  # gin too, but gin is never undercut
    h = hand_for(knocker, defender, "Qs", stock="2d")
    play(h, "pass", "pass", "stock", "knock 2d")
    finish_auto(h)
    r = h.result
    assert r is not None and (r.kind, r.winner, r.defender_deadwood, r.points) == ("gin", 0, 0, 20)
    assert r.winner == r.knocker


# ---------------------------------------------------------------- dead hand


def test_dead_hand_when_two_cards_are_left_and_the_drawer_discards() -> None:
    h = hand_for(HIGH0, HIGH1, "Qc")
    play(h, "pass", "pass")
    to_stock(h, 3)
    assert not h.is_over
    step = h.apply("stock")
    assert len(h.stock) == 2 and h.phase is Phase.DISCARD
    h.apply(Action.discard(step.drawn))
    assert h.is_over and h.result is not None and h.result.dead and h.result.winner is None
    assert h.result.points == 0 and h.legal_actions() == []


def test_dead_hand_player_who_drew_the_third_to_last_card_may_still_knock() -> None:
    h = hand_for("As 2s 3s 4h 5h 6h 9c 9d 9s Qd", HIGH1, "Qc")  # deadwood 10 all along
    play(h, "pass", "pass")
    to_stock(h, 3)
    assert h.current == 0 and h.phase is Phase.DRAW
    step = h.apply("stock")  # the third-to-last card: 2 are left
    assert len(h.stock) == 2
    assert "knock Qd" in strs(h.legal_actions()) and Action.knock(step.drawn) in h.legal_actions()
    play(h, "knock Qd")
    assert h.phase is Phase.LAYOUT


def test_after_a_dead_hand_nothing_more_is_legal() -> None:
    h = hand_for(HIGH0, HIGH1, "Qc")
    play(h, "pass", "pass")
    to_stock(h, 3)
    play(h, "stock")
    assert len(h.stock) == 2
    drawn = h.history[-1].drawn
    play(h, Action.discard(drawn))
    assert h.is_over
    with pytest.raises(IllegalActionError, match="the hand is over") as e:
        h.apply("stock")
    assert e.value.rule == "hand_over"


# ---------------------------------------------------------------- engine contracts


def test_illegal_actions_never_change_state() -> None:
    h = hand_for(ND, SAM, "Qd")
    play(h, "pile")
    before = state_key(h)
    for bad in ("Qd", "knock Qd", "knock 9c", "stock", "pass", "done", "big gin", "meld As2s3s", "layoff 7h 0", "Ks"):
        with pytest.raises(IllegalActionError):
            h.apply(bad)
        assert state_key(h) == before, bad


def test_bad_text_or_numbers_raise_notation_errors_not_illegal_actions() -> None:
    h = hand_for(ND, SAM, "Qd")
    for bad in ("draw two", "1s", 9999, -1):
        with pytest.raises(NotationError):
            h.apply(bad)
    with pytest.raises(NotationError):
        h.apply(3.5)  # type: ignore[arg-type]
    assert h.history == []


def test_hand_made_out_of_range_actions_are_refused_with_a_message() -> None:
    h = hand_for(ND, SAM, "Qd")
    play(h, "pile")
    for bad in (Action(Kind.DISCARD, 99), Action(Kind.DISCARD, -1), Action(Kind.KNOCK, -3)):
        with pytest.raises(IllegalActionError, match="not a card"):
            h.apply(bad)


def test_apply_accepts_text_int_and_typed_actions_alike() -> None:
    a, b, c = (hand_for(ND, SAM, "Qd") for _ in range(3))
    a.apply("pile")
    b.apply(53)
    c.apply(Action.parse("pile"))
    assert state_key(a) == state_key(b) == state_key(c)


def test_apply_with_a_seat_refuses_the_wrong_seat() -> None:
    h = hand_for(ND, SAM, "Qd")
    with pytest.raises(IllegalActionError, match="not your turn: it is player 0's turn") as e:
        h.apply("pass", seat=1)
    assert e.value.rule == "turn" and h.history == []
    assert h.apply("pass", seat=0) == Step(0, Action.parse("pass"))


def test_legal_actions_are_sorted_by_integer_and_each_verifies() -> None:
    h = hand_for(ND, SAM, "Qd")
    play(h, "pile")
    legal = h.legal_actions()
    assert [int(a) for a in legal] == sorted(int(a) for a in legal)
    for a in legal:
        h.verify(a)
    for n in range(NUM_ACTIONS):
        a = Action.from_int(n)
        assert h.is_legal(a) == (a in legal)


def test_clone_is_independent() -> None:
    h = hand_for(ND, SAM, "Qd")
    c = h.clone()
    play(c, "pile", "knock Kc")
    assert h.phase is Phase.OFFER and h.history == [] and h.hands[0] == mask(ND)
    assert c.knocker == 0 and c.card_count_check() and h.card_count_check()


def test_history_records_who_did_what_and_the_hidden_stock_card() -> None:
    h = hand_for(ND, SAM, "Qd", stock="2c")
    play(h, "pass", "pass", "stock", "2c")
    assert [(s.seat, str(s.action)) for s in h.history] == [(0, "pass"), (1, "pass"), (0, "stock"), (0, "2c")]
    assert h.history[2].drawn == parse_card("2c")


def test_legal_actions_are_never_empty_until_the_end() -> None:
    import random

    from conftest import random_play

    for seed in range(40):
        h = new_hand(Rules(), seed % 2, seed=seed)
        random_play(h, random.Random(seed))
        assert h.is_over and h.card_count_check()


def test_card_values_are_used_for_deadwood_face_cards_ten() -> None:
    assert deadwood(mask("Ks Qh Jd Tc")) == 40 and deadwood(mask("As 2h")) == 3
    assert [card_str(c) for c in cards_of(mask("Kc As"))] == ["As", "Kc"]
