"""Every worked example and figure in the three seed documents, checked against the engine."""

from __future__ import annotations

import pytest

from conftest import finish_auto, hand_for, mask, play
from ginrummy.cards import card_str, parse_card, value_of
from ginrummy.layout import best_defense
from ginrummy.melds import deadwood, is_meld
from ginrummy.rules import Rules
from ginrummy.scoring import score_hand

# ---------------------------------------------------------------- 000: the family rules reference


def test_000_example_knock_with_layoffs_scores_2() -> None:
    """You: 4-5-6♥, three 9s, T-J-Q♣ and the 2♦ (deadwood 2). Sam: three kings, 5-6-7♠, then
    7♥ 9♥ 3♣ A♦ (20). Sam lays off 7♥ and 9♥ and keeps 4: you score 4 - 2 = 2."""
    you = "4h 5h 6h 9s 9d 9c Tc Jc Qc Js"  # you draw the 2♦ and knock with the J♠ face down
    sam = "Ks Kh Kd 5s 6s 7s 7h 9h 3c Ad"
    h = hand_for(you, sam, "Qd", stock="2d")
    play(h, "pass", "pass", "stock", "knock Js", "meld 4h5h6h", "meld 9s9d9c", "meld TcJcQc", "done")
    assert h.knocker_deadwood() == 2
    play(h, "meld KsKhKd", "meld 5s6s7s", "done")
    assert h.defender_deadwood() == 20
    play(h, "layoff 7h 0", "layoff 9h 1", "done")
    r = h.result
    assert r is not None and (r.kind, r.winner, r.knocker_deadwood, r.defender_deadwood, r.points) == ("knock", 0, 2, 4, 2)
    # The automatic defence finds the same answer.
    auto = hand_for(you, sam, "Qd", stock="2d")
    play(auto, "pass", "pass", "stock", "knock Js")
    finish_auto(auto)
    assert auto.result is not None and auto.result.points == 2 and auto.result.defender_deadwood == 4


@pytest.mark.parametrize(
    ("hand", "knocker_dw", "defender_dw", "winner", "points"),
    [
        (1, 3, 25, "you", 22),  # you knock with 3, Sam has 25
        (2, 0, 14, "sam", 34),  # Sam goes gin, you have 14 (20 + 14)
        (3, 8, 6, "sam", 12),  # you knock with 8, Sam has 6: an undercut (2 + 10)
        (4, 0, 31, "you", 51),  # you go gin, Sam has 31 (20 + 31)
        (5, 5, 35, "you", 30),  # you knock with 5, Sam has 35
    ],
)
def test_000_five_hand_game_hand_scores(hand: int, knocker_dw: int, defender_dw: int, winner: str, points: int) -> None:
    knocker = 1 if hand == 2 else 0  # you are 0, Sam is 1; Sam knocks (gin) in hand 2
    r = score_hand(Rules(), knocker=knocker, knocker_deadwood=knocker_dw, defender_deadwood=defender_dw)
    assert r.winner == (0 if winner == "you" else 1) and r.points == points


def test_000_five_hand_game_totals_before_bonuses() -> None:
    you = 22 + 51 + 30
    sam = 34 + 12
    assert you == 103 and sam == 46
    # 263 and 86 after the game bonus (100) and 20 a box: checked by the match ledger's tests.
    assert you + 100 + 3 * 20 == 263 and sam + 2 * 20 == 86


def test_000_equal_counts_score_0_plus_10() -> None:
    r = score_hand(Rules(), knocker=0, knocker_deadwood=7, defender_deadwood=7)
    assert (r.kind, r.winner, r.points) == ("undercut", 1, 10)


def test_000_gin_cannot_be_beaten_even_by_no_deadwood() -> None:
    r = score_hand(Rules(), knocker=0, knocker_deadwood=0, defender_deadwood=0)
    assert (r.kind, r.winner, r.points) == ("gin", 0, 20)


@pytest.mark.parametrize(
    ("cards", "meld"),
    [
        ("Ks Kh Kd", True),  # 3 cards of the same rank
        ("Ac 2c 3c 4c", True),  # same suit, in order, ace low
        ("Jh Qh Kh", True),  # the king is the top of a run
        ("Qs Ks As", False),  # the ace cannot follow the king
        ("5d 6d 7c", False),  # a run must stay in one suit
        ("4h 4s", False),  # a meld needs at least 3 cards
    ],
)
def test_000_meld_table(cards: str, meld: bool) -> None:
    assert is_meld(mask(cards)) is meld


def test_000_card_values_and_the_deck() -> None:
    assert sum(value_of(c) for c in range(52)) == 4 * (1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10 + 10 + 10 + 10)
    assert [value_of(parse_card(c)) for c in "As 9h Td Jc Qs Kh".split()] == [1, 9, 10, 10, 10, 10]


def test_000_mixed_suits_deadwood_1_2_3_is_6_and_low_enough_to_knock() -> None:
    hand = mask("Kc Kd Kh 7s 8s 9s Ts Ah 2d 3c")
    assert deadwood(hand) == 6


def test_000_two_runs_of_5_make_gin() -> None:
    assert deadwood(mask("As 2s 3s 4s 5s 6h 7h 8h 9h Th")) == 0


def test_000_a_card_is_in_only_one_meld() -> None:
    # The 8♥ counts in 6-7-8♥ (leaving 8♠ 8♦ = 16) or in 8♥ 8♠ 8♦ (leaving 6♥ 7♥ = 13), never both.
    assert deadwood(mask("6h 7h 8h 8s 8d")) == 13


def test_000_deal_10_each_upcard_31_stock() -> None:
    h = hand_for("As 2s 3s 4s 5s 6s 7s 8s 9s Ts", "Ah 2h 3h 4h 5h 6h 7h 8h 9h Th", "Js")
    assert h.hands[0].bit_count() == h.hands[1].bit_count() == 10 and len(h.stock) == 31 and len(h.pile) == 1


# ---------------------------------------------------------------- 003: the online site


def test_003_example_knock_with_6_opponent_left_with_21_scores_15() -> None:
    r = score_hand(Rules.preset("online"), knocker=0, knocker_deadwood=6, defender_deadwood=21)
    assert (r.kind, r.points) == ("knock", 15)


def test_003_scoring_table() -> None:
    online = Rules.preset("online")
    assert score_hand(online, knocker=0, knocker_deadwood=9, defender_deadwood=4).points == 5 + 25
    assert score_hand(online, knocker=0, knocker_deadwood=0, defender_deadwood=17).points == 17 + 25
    assert score_hand(online.replace(big_gin=True), knocker=0, knocker_deadwood=0, defender_deadwood=17,
                      big_gin=True).points == 17 + 31


def test_003_layoff_examples_ten_of_diamonds_on_7_8_9_and_the_fourth_4() -> None:
    knocker = [mask("7d 8d 9d"), mask("4s 4h 4d")]
    d = best_defense(mask("Td 4c Kh Ks"), knocker)
    assert sorted(card_str(c) for c, _ in d.layoffs) == ["4c", "Td"] and d.deadwood == 20


# ---------------------------------------------------------------- 004: the game app


def test_004_example_round_scores_12() -> None:
    """You take the 9♣ upcard (for 9♥ 9♦), throw the K♦; the opponent draws and throws the 3♥;
    later you knock with a set of 9s, 4-5-6♠ and 6 points; the opponent lays off the 9♠ and is
    left with 18: you score 18 - 6 = 12."""
    you = "9h 9d 4s 5s 6s Ac Ah 2c Kd Qc"
    opponent = "9s Kh Ks Kc 5h 6h 7h Jd 5c 3h"
    h = hand_for(you, opponent, "9c", stock="3c 2d", rules=Rules.preset("app"))
    play(h, "pile", "Kd")  # you draw the 9♣ from the discard pile and discard the K♦
    play(h, "stock", "3h")  # the opponent draws from the stock and discards the 3♥
    play(h, "stock", "knock Qc")  # you draw the 2♦ and knock: 9s, 4-5-6♠, A♣ A♥ 2♣ 2♦ = 6
    play(h, *h.auto_layout())
    assert h.knocker_deadwood() == 6
    play(h, *h.auto_defense())
    assert [card_str(c) for c, _ in h.layoffs] == ["9s"]
    r = h.result
    assert r is not None and (r.kind, r.knocker_deadwood, r.defender_deadwood, r.points) == ("knock", 6, 18, 12)


def test_004_scoring_table_gin_25_big_gin_31_undercut_25() -> None:
    app = Rules.preset("app")
    assert score_hand(app, knocker=0, knocker_deadwood=0, defender_deadwood=12).points == 37
    assert score_hand(app, knocker=0, knocker_deadwood=0, defender_deadwood=12, big_gin=True).points == 43
    assert score_hand(app, knocker=0, knocker_deadwood=8, defender_deadwood=3).points == 5 + 25


def test_004_deadwood_of_a_5_and_a_king_is_15() -> None:
    assert deadwood(mask("5c Kd")) == 15


def test_004_run_layoffs_at_either_end() -> None:
    d = best_defense(mask("3s 7s Qh"), [mask("4s 5s 6s")])
    assert sorted(card_str(c) for c, _ in d.layoffs) == ["3s", "7s"] and d.deadwood == 10
