"""The built-in players: found by name, always legal, and doing what their docstrings say."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import Referee, cards, hand_for, mask, play
from ginrummy.actions import PASS, PILE, STOCK, Action, Kind
from ginrummy.cards import parse_card
from ginrummy.events import Phase
from ginrummy.hand import new_hand
from ginrummy.melds import deadwood
from ginrummy.observation import SeatView, observe
from ginrummy.players import PLAYERS, get_player
from ginrummy.players.base import Player
from ginrummy.players.driver import play_hand
from ginrummy.players.simple_players import (
    EasyPlayer,
    GreedyPlayer,
    RandomPlayer,
    SimplePlayer,
    joins_meld,
    pairs_with,
)
from ginrummy.rules import Rules

BUILT_IN = ["random", "easy", "simple", "greedy"]


@pytest.mark.parametrize("name", BUILT_IN)
def test_found_by_name(name: str) -> None:
    p = get_player(name, seed=1)
    assert isinstance(p, Player) and p.name == name
    assert name in PLAYERS


def test_unknown_name() -> None:
    with pytest.raises(ValueError, match="unknown player"):
        get_player("grandmaster")


@pytest.mark.parametrize("name", BUILT_IN)
@pytest.mark.parametrize(
    "rules",
    [Rules.preset("eaai"), Rules(last_chance=True), Rules(upcard=False), Rules.preset("app"), Rules(knock_limit=0)],
    ids=["eaai", "last_chance", "no_upcard", "big_gin", "gin_only"],
)
def test_always_legal_and_never_throws_back_the_card_taken(name: str, rules: Rules) -> None:
    for i in range(8 if name == "random" else 15):
        players = [Referee(get_player(name, seed=i)), Referee(get_player("greedy", seed=i))]
        if i % 2:
            players.reverse()
        h = new_hand(rules, i % 2, seed=i)
        play_hand(h, players)
        assert h.is_over


def test_same_seed_same_game() -> None:
    def run(seed: int) -> list[int]:
        h = new_hand(Rules(), 0, seed=42)
        play_hand(h, [get_player("easy", seed=seed), get_player("random", seed=seed)])
        return [int(s.action) for s in h.history]

    assert run(1) == run(1)


# ---------------------------------------------------------------------------------------------
# Helpers


def test_joins_meld_and_pairs_with() -> None:
    h = mask("7h 8h Ks Kd 2c 4c")
    assert joins_meld(h, parse_card("6h")) and joins_meld(h, parse_card("9h"))
    assert joins_meld(h, parse_card("Kc"))
    assert not joins_meld(h, parse_card("3d")) and not joins_meld(h, parse_card("Th"))
    assert joins_meld(h, parse_card("3c"))  # 2c 3c 4c
    assert not joins_meld(mask("Ks Qs"), parse_card("As"))  # Q-K-A is not a run
    assert pairs_with(h, parse_card("2d")) and not pairs_with(h, parse_card("3d"))


# ---------------------------------------------------------------------------------------------
# simple: the EAAI baseline's documented behaviour

ND = "As 2s 3s 7h 7d 7c 4d 9c Jh Qd"  # seat 0, the non-dealer: melds A-2-3s and 7s
DEALER = "5h 6h 8s 8c Th Td 2d 3c Kh Kc"


def view0(h) -> SeatView:  # type: ignore[no-untyped-def]
    return observe(h, h.current)


def test_simple_takes_the_upcard_only_if_it_joins_a_meld() -> None:
    assert SimplePlayer(seed=0).decide(view0(hand_for(ND, DEALER, upcard="4s"))) == PILE  # A-2-3-4s
    assert SimplePlayer(seed=0).decide(view0(hand_for(ND, DEALER, upcard="7s"))) == PILE  # four 7s
    # Neither Ks nor 5d joins a meld.
    assert SimplePlayer(seed=0).decide(view0(hand_for(ND, DEALER, upcard="Ks"))) == PASS
    assert SimplePlayer(seed=0).decide(view0(hand_for(ND, DEALER, upcard="5d"))) == PASS
    # Also later in the hand, from the draw: the top discard.
    h = play(hand_for(ND, DEALER, upcard="Ks"), "pass", "pass")
    assert h.phase is Phase.DRAW
    assert SimplePlayer(seed=0).decide(view0(h)) == STOCK


def test_simple_discards_its_highest_unmelded_card_not_the_one_taken() -> None:
    h = play(hand_for(ND, DEALER, upcard="4s"), "pile")
    # Unmelded: 4d 9c Jh Qd; the highest value is 10 (Jh and Qd). As in the baseline's source,
    # a tie is a coin toss (not the higher rank): over seeds it throws both and nothing else.
    thrown = {SimplePlayer(seed=s).decide(view0(h)) for s in range(40)}
    assert thrown == {Action.discard(parse_card("Jh")), Action.discard(parse_card("Qd"))}
    # With a king taken to make a set, the king is melded and the rule throws Jh or Qd.
    h = play(hand_for("Ks Kd 2s 7h 7d 7c 4d 9c Jh Qd", DEALER.replace("Kh ", "5c "), upcard="Kh"), "pile")
    thrown = {SimplePlayer(seed=s).decide(view0(h)) for s in range(40)}
    assert thrown == {Action.discard(parse_card("Jh")), Action.discard(parse_card("Qd"))}


def test_simple_weighs_every_card_not_one_arrangement() -> None:
    # 7s 7h 7d 6d 8d meld either as the set of 7s (6d 8d loose) or as the run 6-7-8d (7s 7h
    # loose): 14 deadwood both ways. The source's rule tries every discard: 8d leaves the set
    # and 6d, deadwood 6, the least; a 7 would leave 7. So it knocks with 8d, whichever
    # arrangement a highest-unmelded-card rule would have looked at.
    nd = "As 2s 3s 3h 4h 5h 7s 7h 7d 6d"
    h = play(hand_for(nd, "9s 9c Ts Tc 2d 3c Kh Kc Qh Jc", upcard="5c", stock="8d"), "pass", "pass", "stock")
    for seed in range(10):
        assert SimplePlayer(seed=seed).decide(view0(h)) == Action.knock(parse_card("8d"))


def test_simple_never_discards_the_card_just_picked_up_even_if_highest() -> None:
    # Kh joins a set with Ks Kd, so simple takes it; but the best arrangement keeps the two
    # runs J-Q-K, which leaves Kh unmelded and the highest. It must throw 9c instead.
    nd = "Js Qs Ks Jd Qd Kd 2c 3h 5c 9c"
    h = hand_for(nd, "As 2h 4h 6c 7c 8c Tc Jc Qc 4d", upcard="Kh")
    assert SimplePlayer(seed=0).decide(view0(h)) == PILE
    play(h, "pile")
    assert SimplePlayer(seed=0).decide(view0(h)) == Action.discard(parse_card("9c"))


def test_simple_knocks_as_soon_as_it_can() -> None:
    # Both pass the upcard, then 2c from the stock leaves 2 deadwood after throwing Qd: knock.
    h = play(hand_for("As 2s 3s 7h 7d 7c 4d 5d 6d Qd", DEALER, upcard="Ks", stock="2c"), "pass", "pass", "stock")
    a = SimplePlayer(seed=0).decide(view0(h))
    assert a == Action.knock(parse_card("Qd"))
    assert deadwood(h.hands[0] & ~(1 << a.card)) == 2


def test_simple_goes_gin_when_it_can() -> None:
    h = play(hand_for("As 2s 3s 7h 7d 7c 4d 5d 6d Kc", DEALER.replace("Kc", "9h"), upcard="4s"), "pile")
    a = SimplePlayer(seed=0).decide(view0(h))
    assert a == Action.knock(parse_card("Kc")) and deadwood(h.hands[0] & ~(1 << a.card)) == 0


# ---------------------------------------------------------------------------------------------
# greedy


def test_greedy_takes_the_upcard_when_it_lowers_its_deadwood() -> None:
    # 5d would replace Qd (10) in the deadwood: lower, so take it, though it joins no meld.
    assert GreedyPlayer(seed=0).decide(view0(hand_for(ND, DEALER, upcard="5d"))) == PILE
    assert SimplePlayer(seed=0).decide(view0(hand_for(ND, DEALER, upcard="5d"))) == PASS
    # Ks would not lower it.
    assert GreedyPlayer(seed=0).decide(view0(hand_for(ND, DEALER, upcard="Ks"))) == PASS


def test_greedy_discards_to_the_lowest_deadwood_and_knocks_at_once() -> None:
    h = play(hand_for(ND, DEALER, upcard="4s"), "pile")
    a = GreedyPlayer(seed=0).decide(view0(h))
    hand = h.hands[0]
    best = min(deadwood(hand & ~(1 << c)) for c in cards("4d 9c Jh Qd As 2s 3s 7h 7d 7c"))
    assert a.kind is Kind.DISCARD and deadwood(hand & ~(1 << a.card)) == best
    h = play(hand_for("As 2s 3s 7h 7d 7c 4d 5d 6d 2c", DEALER, upcard="Qc"), "pile")
    a = GreedyPlayer(seed=0).decide(view0(h))
    assert a == Action.knock(parse_card("2c"))


# ---------------------------------------------------------------------------------------------
# easy and random


def test_easy_chases_pairs() -> None:
    # Jc pairs Jh: a beginner takes it; simple does not.
    h = hand_for(ND, DEALER, upcard="Jc")
    assert EasyPlayer(seed=0).decide(view0(h)) == PILE
    assert SimplePlayer(seed=0).decide(view0(h)) == PASS


def test_easy_always_goes_gin() -> None:
    h = play(hand_for("As 2s 3s 7h 7d 7c 4d 5d 6d Kc", DEALER.replace("Kc", "9h"), upcard="4s"), "pile")
    for seed in range(20):
        assert EasyPlayer(seed=seed).decide(view0(h)) == Action.knock(parse_card("Kc"))


def test_weaker_players_lose_to_stronger_ones() -> None:
    """A sanity check of strength order on a few seat-swapped deals (random is far weaker)."""
    score = {"random": 0, "simple": 0}
    for i in range(10):
        for names in (("random", "simple"), ("simple", "random")):
            h = new_hand(Rules.preset("eaai"), i % 2, seed=7000 + i)
            r = play_hand(h, [get_player(n, seed=i) for n in names])
            if r.winner is not None:
                score[names[r.winner]] += r.points
    assert score["simple"] > score["random"]


def test_random_player_uses_its_seed() -> None:
    view = view0(hand_for(ND, DEALER, upcard="5d"))
    picks = {RandomPlayer(seed=s).decide(view) for s in range(30)}
    assert picks == {PILE, PASS}


def test_melded_cards_is_a_best_arrangement() -> None:
    import random

    from ginrummy.cards import mask_value
    from ginrummy.players.simple_players import melded_cards

    rng = random.Random(5)
    for n in (10, 11) * 1500:
        hand = 0
        for c in rng.sample(range(52), n):
            hand |= 1 << c
        melded = melded_cards(hand)
        assert melded & ~hand == 0
        assert mask_value(hand & ~melded) == deadwood(hand)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=11, max_size=11, unique=True), st.integers(0, 10))
def test_simple_discards_as_the_baseline_source_does(cards11: list[int], taken_at: int) -> None:
    """SimpleGinRummyPlayer.getDiscard, by brute force: every card but the one taken, and of
    those exactly the ones whose removal leaves the least deadwood (ties all kept)."""
    from ginrummy.players.simple_players import simple_discard_choices

    hand = sum(1 << c for c in cards11)
    allowed = [c for c in cards11 if c != cards11[taken_at]]
    left = {c: deadwood(hand & ~(1 << c)) for c in allowed}
    low = min(left.values())
    assert simple_discard_choices(hand, allowed) == sorted(c for c in allowed if left[c] == low)


def test_simple_lays_out_one_of_its_lowest_arrangements_at_random() -> None:
    # 2s 2h 2d Ad 3d meld as the set of 2s (Ad 3d loose) or the run A-2-3d (2s 2h loose):
    # 4 deadwood both ways, with different layoffs for the defender. The source picks either.
    nd = "2s 2h 2d Ad 3d 5h 6h 7h 8h Kc"
    layouts = set()
    for seed in range(30):
        h = play(hand_for(nd, "9s 9c Ts Tc 4c 3c Kh Ks Qh Jc", upcard="5c", stock="9h"), "pass", "pass", "stock")
        p = SimplePlayer(seed=seed)
        assert p.decide(view0(h)) == Action.knock(parse_card("Kc"))
        play(h, Action.knock(parse_card("Kc")))
        laid = []
        while h.phase is Phase.LAYOUT:
            a = p.decide(view0(h))
            if a.kind is Kind.MELD:
                laid.append(a.meld)
            play(h, a)
        layouts.add(frozenset(laid))
        assert deadwood(h.hands[0]) == 4
    assert layouts == {
        frozenset({mask("2s 2h 2d"), mask("5h 6h 7h 8h 9h")}),
        frozenset({mask("Ad 2d 3d"), mask("5h 6h 7h 8h 9h")}),
    }
