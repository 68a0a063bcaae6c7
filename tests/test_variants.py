"""Every variant of RULES.md for two players, each played through the engine and scored."""

from __future__ import annotations

import pytest

from conftest import finish_auto, hand_for, mask, play, state_key
from ginrummy.actions import Action
from ginrummy.cards import parse_card
from ginrummy.errors import IllegalActionError
from ginrummy.events import Phase
from ginrummy.hand import Hand
from ginrummy.rules import Rules
from ginrummy.scoring import score_hand

ND = "As 2s 3s 4h 5h 6h 9c 9d 9s Kc"  # deadwood 10 (the K♣)
SAM = "Ks Kh Kd 5s 6s 7s 7h 9h 3c Ad"
BIG = "As 2s 3s 4s 5h 6h 7h 9c 9d 9s"  # + 8♥: all 11 cards in melds
BIGDEF = "Ks Kh Kd 5c 6c 7c 7d Th 3c Ad"  # K♠K♥K♦, 5-6-7♣, then 7♦ T♥ 3♣ A♦ = 21


def strs(h: Hand) -> list[str]:
    return [str(a) for a in h.legal_actions()]


def to_stock(h: Hand, left: int) -> None:
    while len(h.stock) > left:
        step = h.apply("stock")
        h.apply(Action.discard(step.drawn))


# ---------------------------------------------------------------- knock limit


def test_knock_limit_any_value_refuses_a_count_over_it() -> None:
    h = hand_for(ND, SAM, "Qd", stock="6d", rules=Rules(knock_limit=5))
    play(h, "pass", "pass", "stock")
    assert not any(a.startswith("knock") for a in strs(h))
    with pytest.raises(IllegalActionError, match="cannot knock: deadwood 6 is over the knock limit 5") as e:
        h.apply("knock Kc")
    assert e.value.rule == "knock_limit"


def test_knock_limit_zero_is_gin_only() -> None:
    h = hand_for(ND, SAM, "Qd", stock="Ac", rules=Rules(knock_limit=0))
    play(h, "pass", "pass", "stock")
    with pytest.raises(IllegalActionError, match="deadwood 1 after discarding Kc, and only gin"):
        h.apply("knock Kc")
    h = hand_for(ND, SAM, "Qd", stock="3h", rules=Rules(knock_limit=0))  # 3-4-5-6♥: gin
    play(h, "pass", "pass", "stock", "knock Kc")
    finish_auto(h)
    assert h.result is not None and h.result.kind == "gin"


# ---------------------------------------------------------------- straight gin


def test_straight_gin_refuses_any_knock_but_gin() -> None:
    rules = Rules(straight_gin=True)
    h = hand_for(ND, SAM, "Qd", stock="Ac", rules=rules)
    assert h.knock_limit == 0
    play(h, "pass", "pass", "stock")
    assert strs(h) == [a for a in strs(h) if not a.startswith("knock")]
    with pytest.raises(IllegalActionError, match="only gin"):
        h.apply("knock Kc")
    h = hand_for(ND, SAM, "Qd", stock="3h", rules=rules)
    play(h, "pass", "pass", "stock", "knock Kc")
    finish_auto(h)
    assert h.result is not None and (h.result.kind, h.result.points) == ("gin", 20 + 20)


def test_straight_gin_hand_ends_only_by_gin_or_as_a_dead_hand() -> None:
    h = hand_for(ND, SAM, "Qd", rules=Rules(straight_gin=True))
    play(h, "pass", "pass")
    to_stock(h, 2)
    assert h.is_over and h.result is not None and h.result.dead


def test_straight_gin_allows_big_gin() -> None:
    h = hand_for(BIG, BIGDEF, "Qd", stock="8h", rules=Rules(straight_gin=True, big_gin=True))
    play(h, "pass", "pass", "stock")
    assert "big gin" in strs(h)


# ---------------------------------------------------------------- Oklahoma


@pytest.mark.parametrize(("upcard", "limit"), [("7c", 7), ("Qc", 10), ("Jd", 10), ("Th", 10), ("2h", 2), ("Ac", 1)])
def test_oklahoma_upcard_sets_the_knock_limit_face_cards_ten(upcard: str, limit: int) -> None:
    h = hand_for(ND, SAM, upcard, rules=Rules(oklahoma=True))
    assert h.knock_limit == limit


def test_oklahoma_knock_over_the_upcard_limit_is_refused() -> None:
    h = hand_for(ND, SAM, "7c", stock="8d", rules=Rules(oklahoma=True))
    play(h, "pass", "pass", "stock")
    with pytest.raises(IllegalActionError, match="cannot knock: deadwood 8 is over the knock limit 7"):
        h.apply("knock Kc")
    h = hand_for(ND, SAM, "7c", stock="6d", rules=Rules(oklahoma=True))
    play(h, "pass", "pass", "stock", "knock Kc")
    assert h.phase is Phase.LAYOUT


def test_oklahoma_limit_is_the_first_upcards_even_after_it_is_taken() -> None:
    h = hand_for(ND, SAM, "7c", rules=Rules(oklahoma=True))
    play(h, "pile", "Kc")
    assert h.knock_limit == 7 and h.upcard == parse_card("7c")


def test_oklahoma_ace_upcard_gin_only_option() -> None:
    h = hand_for(ND, SAM, "Ac", stock="Ah", rules=Rules(oklahoma=True, oklahoma_ace_gin_only=True))
    assert h.knock_limit == 0
    play(h, "pass", "pass", "stock")
    with pytest.raises(IllegalActionError, match="deadwood 1 after discarding Kc, and only gin"):
        h.apply("knock Kc")


def test_oklahoma_spade_upcard_doubles_the_hand_score() -> None:
    # Knocker 6 (the 6♦); the dealer keeps 7♦ 8♥ 3♣ A♦ = 19: (19 - 6) * 2 = 26.
    rules = Rules(oklahoma=True, oklahoma_spade_double=True)
    h = hand_for("As 2s 3s 4h 5h 6h 9c 9d 9h Kc", "Ks Kh Kd 5c 6c 7c 7d 8h 3c Ad", "7s", stock="6d", rules=rules)
    play(h, "pass", "pass", "stock", "knock Kc")
    finish_auto(h)
    r = h.result
    assert r is not None and (r.kind, r.points, r.multiplier, r.extra_boxes) == ("knock", 26, 2, 0)


def test_oklahoma_spade_doubling_includes_the_bonuses() -> None:
    rules = Rules(oklahoma=True, oklahoma_spade_double=True)
    spade, heart = parse_card("5s"), parse_card("5h")
    gin = score_hand(rules, knocker=0, knocker_deadwood=0, defender_deadwood=14, upcard=spade)
    assert (gin.points, gin.multiplier) == ((20 + 14) * 2, 2)
    under = score_hand(rules, knocker=0, knocker_deadwood=5, defender_deadwood=3, upcard=spade)
    assert (under.kind, under.points) == ("undercut", (2 + 10) * 2)
    assert score_hand(rules, knocker=0, knocker_deadwood=0, defender_deadwood=14, upcard=heart).points == 34
    big = score_hand(Rules(oklahoma=True, oklahoma_spade_double=True, big_gin=True), knocker=1, knocker_deadwood=0,
                     defender_deadwood=9, big_gin=True, upcard=spade)
    assert big.points == (31 + 9) * 2


def test_oklahoma_extra_boxes_one_for_undercut_two_for_gin_doubled_with_a_spade() -> None:
    rules = Rules(oklahoma=True, oklahoma_extra_boxes=True)
    heart, spade = parse_card("5h"), parse_card("5s")

    def boxes(kd: int, dd: int, up: int) -> int:
        return score_hand(rules, knocker=0, knocker_deadwood=kd, defender_deadwood=dd, upcard=up).extra_boxes

    assert (boxes(0, 10, heart), boxes(4, 3, heart), boxes(2, 9, heart)) == (2, 1, 0)
    assert (boxes(0, 10, spade), boxes(4, 3, spade), boxes(2, 9, spade)) == (4, 2, 0)


def test_oklahoma_with_no_upcard_uses_the_knock_limit_ten() -> None:
    h = hand_for([*ND.split(), "Qd"], SAM, None, rules=Rules(oklahoma=True, upcard=False))
    assert h.upcard is None and h.knock_limit == 10
    assert "knock Qd" in strs(h) and h.result is None


# ---------------------------------------------------------------- no upcard


def test_no_upcard_non_dealer_gets_eleven_and_starts_by_discarding() -> None:
    h = hand_for([*ND.split(), "Qd"], SAM, None, rules=Rules(upcard=False))
    assert h.phase is Phase.DISCARD and h.current == 0 and h.pile == [] and h.upcard is None
    assert h.hands[0].bit_count() == 11 and h.hands[1].bit_count() == 10 and len(h.stock) == 31
    assert "stock" not in strs(h) and "pass" not in strs(h)
    assert {"Qd", "Kc", "knock Qd", "knock Kc"} <= set(strs(h))  # a first-turn knock is allowed
    play(h, "Qd")
    assert h.current == 1 and strs(h) == ["stock", "pile"]
    play(h, "pile")
    with pytest.raises(IllegalActionError, match="cannot discard Qd: it was just taken"):
        h.apply("Qd")


def test_no_upcard_dead_hand_rule_is_unchanged() -> None:
    h = hand_for([*ND.split(), "Qd"], SAM, None, rules=Rules(upcard=False))
    play(h, "Qd")
    to_stock(h, 2)
    assert h.is_over and h.result is not None and h.result.dead and h.card_count_check()


# ---------------------------------------------------------------- last chance

# The dealer can knock only with the K♣: K♠ K♥ K♣, 5-6-7♠, 7-8-9♥, then the 2♦ (Q♣ goes down).
LC_DEALER = "Ks Kh 5s 6s 7s 7h 8h 9h 2d Qc"


def last_chance_hand(discard: str, rules: Rules | None = None) -> Hand:
    h = hand_for(ND, LC_DEALER, "Qd", rules=rules or Rules(last_chance=True))
    play(h, "pass", "pass")
    to_stock(h, 3)
    play(h, "stock", discard)  # the non-dealer leaves 2 cards in the stock
    return h


def test_last_chance_other_player_may_take_that_discard_only_to_knock() -> None:
    h = last_chance_hand("Kc")
    assert h.phase is Phase.LAST_CHANCE and h.current == 1 and len(h.stock) == 2
    assert strs(h) == ["pile", "pass"]
    play(h, "pile")
    assert h.must_knock and "Qc" not in strs(h)
    before = state_key(h)
    with pytest.raises(IllegalActionError, match="you took the last discard, so you must knock") as e:
        h.apply("Qc")
    assert e.value.rule == "must_knock" and state_key(h) == before
    assert strs(h) == ["knock 2d", "knock Qc"]  # never the K♣ just taken
    play(h, "knock Qc")
    finish_auto(h)
    r = h.result
    assert r is not None and r.winner is not None and r.knocker == 1 and not r.dead


def test_last_chance_if_they_cannot_knock_the_hand_ends_with_no_score() -> None:
    h = last_chance_hand("9c")
    assert h.phase is Phase.LAST_CHANCE and strs(h) == ["pass"]
    with pytest.raises(IllegalActionError, match=r"cannot take the last discard 9c: .*deadwood 31, over the knock limit 10"):
        h.apply("pile")
    play(h, "pass")
    assert h.is_over and h.result is not None and h.result.dead


def test_last_chance_if_they_will_not_the_hand_ends_with_no_score() -> None:
    h = last_chance_hand("Kc")
    play(h, "pass")
    assert h.is_over and h.result is not None and h.result.dead


def test_without_last_chance_that_discard_ends_the_hand_at_once() -> None:
    h = last_chance_hand("Kc", Rules())
    assert h.is_over and h.result is not None and h.result.dead


# ---------------------------------------------------------------- throw-back


def test_throw_back_take_and_discard_the_same_card() -> None:
    h = hand_for(ND, SAM, "Qd", rules=Rules(throw_back=True))
    play(h, "pile")
    assert "Qd" in strs(h)
    play(h, "Qd")
    assert h.top_discard == parse_card("Qd") and h.current == 1


# 38 points of deadwood: 9♣ 9♦ Q♠ Q♥. No card taken back makes a knock.
ND_FAR = "As 2s 3s 4h 5h 6h 9c 9d Qs Qh"


def throw_back_setup(nd_draws: str, nd: str = ND) -> Hand:
    """The non-dealer draws and throws a card; the dealer takes it and throws it straight back."""
    h = hand_for(nd, SAM, "Jd", stock=nd_draws, rules=Rules(throw_back=True))
    play(h, "pass", "pass", "stock", nd_draws, "pile", nd_draws)
    assert h.current == 0 and h.top_discard == parse_card(nd_draws)
    return h


def test_throw_back_first_thrower_may_not_take_it_back_to_play_on() -> None:
    h = throw_back_setup("8c", ND_FAR)
    assert strs(h) == ["stock"]
    with pytest.raises(IllegalActionError, match="cannot take 8c back: you threw it first") as e:
        h.apply("pile")
    assert e.value.rule == "throw_back"


def test_throw_back_first_thrower_may_take_it_back_to_knock() -> None:
    h = throw_back_setup("Qc")
    assert strs(h) == ["stock", "pile"]  # with the Q♣ back, knocking with the K♣ keeps 10
    play(h, "pile")
    assert h.must_knock
    with pytest.raises(IllegalActionError, match="you took your own discard back, so you must knock"):
        h.apply("Kc")
    assert strs(h) == ["knock Kc"]
    play(h, "knock Kc")
    assert h.phase is Phase.LAYOUT


def test_throw_back_bar_lapses_once_the_card_was_kept_a_turn() -> None:
    # The dealer takes the non-dealer's 8♣, keeps it, then discards it a turn later: that is the
    # dealer's own discard now, and the non-dealer may take it as usual.
    h = hand_for(ND_FAR, SAM, "Jd", stock="8c 2h Td", rules=Rules(throw_back=True))
    play(h, "pass", "pass", "stock", "8c", "pile", "3c", "stock", "2h", "stock", "8c")
    assert h.current == 0 and h.top_discard == parse_card("8c")
    assert strs(h) == ["stock", "pile"]


def test_without_throw_back_the_taken_card_may_not_go_straight_back() -> None:
    h = hand_for(ND, SAM, "Jd", stock="8c")
    play(h, "pass", "pass", "stock", "8c", "pile")
    with pytest.raises(IllegalActionError, match="no_throw_back|just taken from the discard pile") as e:
        h.apply("8c")
    assert e.value.rule == "no_throw_back"


# ---------------------------------------------------------------- big gin



def test_big_gin_eleven_cards_no_discard_bonus_plus_defender_deadwood_no_layoffs() -> None:
    h = hand_for(BIG, BIGDEF, "Qd", stock="8h", rules=Rules.preset("app"))
    play(h, "pass", "pass", "stock")
    assert "big gin" in strs(h) and "knock 4s" in strs(h)  # ordinary gin stays possible too
    play(h, "big gin")
    assert h.big_gin and h.knock_discard is None and h.hands[0] == mask(BIG) | mask("8h")
    finish_auto(h)
    # The defender's 3♣ A♦ 7♦ T♥ = 21 all count: nothing is laid off on big gin.
    r = h.result
    assert r is not None and h.layoffs == [] and (r.kind, r.points, r.defender_deadwood) == ("big_gin", 31 + 21, 21)
    assert h.card_count_check()


def test_big_gin_bonus_fifty_variant() -> None:
    h = hand_for(BIG, BIGDEF, "Qd", stock="8h", rules=Rules(big_gin=True, big_gin_bonus=50))
    play(h, "pass", "pass", "stock", "big gin")
    finish_auto(h)
    assert h.result is not None and h.result.points == 50 + 21


def test_big_gin_is_refused_when_off_or_not_all_eleven_melded() -> None:
    h = hand_for(BIG, BIGDEF, "Qd", stock="8h")
    play(h, "pass", "pass", "stock")
    with pytest.raises(IllegalActionError, match="big gin is not played under these rules") as e:
        h.apply("big gin")
    assert e.value.rule == "big_gin"
    h = hand_for(BIG, BIGDEF, "Qd", stock="Kc", rules=Rules(big_gin=True))
    play(h, "pass", "pass", "stock")
    with pytest.raises(IllegalActionError, match="cannot go big gin: deadwood 10, big gin needs all 11 cards in melds"):
        h.apply("big gin")


def test_big_gin_layout_must_use_all_eleven_cards() -> None:
    h = hand_for(BIG, BIGDEF, "Qd", stock="8h", rules=Rules(big_gin=True))
    play(h, "pass", "pass", "stock", "big gin")
    assert "done" not in strs(h)
    assert "meld 9s9d9c" in strs(h)


# ---------------------------------------------------------------- bonus figures and dead-hand depth


def test_bonus_figures_any_gin_and_undercut_bonus() -> None:
    rules = Rules(gin_bonus=25, undercut_bonus=20)
    assert score_hand(rules, knocker=0, knocker_deadwood=0, defender_deadwood=7).points == 32
    assert score_hand(rules, knocker=0, knocker_deadwood=7, defender_deadwood=7).points == 20
    h = hand_for(ND, SAM, "Qd", rules=rules)
    play(h, "pile", "knock Kc")
    finish_auto(h)
    assert h.result is not None and (h.result.kind, h.result.points) == ("undercut", 6 + 20)


def test_dead_hand_stock_setting_moves_the_wall() -> None:
    h = hand_for(ND, SAM, "Qd", rules=Rules(dead_hand_stock=0))
    play(h, "pass", "pass")
    to_stock(h, 1)
    assert not h.is_over
    to_stock(h, 0)
    assert h.is_over and h.result is not None and h.result.dead
