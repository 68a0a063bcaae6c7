"""Traps other engines fell into, each tested by name so a regression says what it broke.

OpenSpiel and RLCard are named only to say where each trap was seen; nothing here imports them.
"""

from __future__ import annotations

import random

import pytest

from conftest import finish_auto, hand_for, lively_step, mask, play
from ginrummy.actions import Action, Kind
from ginrummy.cards import CARD_VALUES, card_str, cards_of, parse_card
from ginrummy.discard_search import best_discards, min_deadwood_after_discard
from ginrummy.errors import IllegalActionError
from ginrummy.events import Phase
from ginrummy.hand import Hand, new_hand
from ginrummy.melds import arrangements
from ginrummy.rules import Rules

ND = "As 2s 3s 4h 5h 6h 9c 9d 9s Kc"
SAM = "Ks Kh Kd 5s 6s 7s 7h 9h 3c Ad"


def strs(h: Hand) -> list[str]:
    return [str(a) for a in h.legal_actions()]


def test_trap_equal_count_is_an_undercut_scoring_0_plus_bonus() -> None:
    """OpenSpiel scores an equal count 0. RULES.md: equal is an undercut, 0 + the undercut bonus."""
    # Knocker keeps the 5♣ (5). The defender keeps A♥ 2♥ 2♣ (5) and cannot lay any of them off.
    defender = "Qs Qh Qd 5d 6d 7d 8d 2c Ah 2h"
    for rules, bonus in ((Rules(), 10), (Rules.preset("online"), 25), (Rules.preset("eaai"), 25)):
        h = hand_for(ND, defender, "Jd", stock="5c", rules=rules)
        play(h, "pass", "pass", "stock", "knock Kc")
        finish_auto(h)
        r = h.result
        assert r is not None and h.layoffs == []
        assert (r.knocker_deadwood, r.defender_deadwood) == (5, 5)
        assert (r.kind, r.winner, r.points) == ("undercut", 1, 0 + bonus)


# An 11-card hand where the lowest-deadwood arrangement of all 11 cards is 5-6-7-8♦ with
# 7♠ 7♥ 7♣, loose 6♠ 2♦ 3♣ 6♣ (17). Dropping its highest loose card leaves 11: over the limit.
# But discarding the 8♦ leaves 6♠ 6♦ 6♣ + 7♠ 7♥ 7♦ 7♣ with 2♦ 5♦ 3♣ loose: 10, a legal knock.
SHORTCUT_TRAP_10 = "6s 7s 7h 2d 5d 6d 7d 3c 6c 7c"


def test_trap_eleven_card_deadwood_must_consider_every_discard() -> None:
    """OpenSpiel's 11-card deadwood drops the highest loose card of one arrangement."""
    hand11 = mask(SHORTCUT_TRAP_10) | mask("8d")
    # The shortcut, applied to every lowest-deadwood arrangement of the 11 cards, refuses the knock.
    options = arrangements(hand11, 200)
    low = options[0][0]
    assert low == 17
    for d, melds in options:
        if d == low:
            used = 0
            for m in melds:
                used |= m
            assert d - max(CARD_VALUES[c] for c in cards_of(hand11 & ~used)) > 10
    # The exact count considers every discard.
    assert min_deadwood_after_discard(hand11) == 10
    assert best_discards(hand11) == (10, [parse_card("8d")])
    # And the engine lets the knock through.
    h = hand_for(SHORTCUT_TRAP_10, "Ks Kh Kd 2s 3s 4s 9h Th Ad Qc", "Jc", stock="8d")
    play(h, "pass", "pass", "stock")
    assert strs(h).count("knock 8d") == 1 and [a for a in strs(h) if a.startswith("knock")] == ["knock 8d"]
    play(h, "knock 8d")
    assert h.phase is Phase.LAYOUT
    play(h, *h.auto_layout())
    assert h.knocker_deadwood() == 10


def test_trap_third_chained_layoff_on_one_end_of_a_run_is_allowed() -> None:
    """OpenSpiel refuses a third card laid off on the same end of a run."""
    knocker = "4h 5h 6h 9s 9d 9c Tc Jc Qc 2d"  # + Q♦ drawn and knocked with: deadwood 2
    defender = "7h 8h 9h Ks Kd Kc As 5c 7c 3d"
    h = hand_for(knocker, defender, "Qs", stock="Qd")
    play(h, "pass", "pass", "stock", "knock Qd", "meld 4h5h6h", "meld 9s9d9c", "meld TcJcQc", "done")
    play(h, "meld KsKdKc", "done")  # the defender keeps 7-8-9♥ loose to lay them off one by one
    play(h, "layoff 7h 0", "layoff 8h 0")
    assert "layoff 9h 0" in strs(h)
    play(h, "layoff 9h 0", "done")
    assert h.laid_on[0] == mask("7h 8h 9h")
    r = h.result
    assert r is not None and r.defender_deadwood == 1 + 5 + 7 + 3


def test_trap_throwing_back_the_card_just_taken_from_the_pile_is_refused() -> None:
    """Some engines let the card just taken go straight back; the rules forbid it (no throw-back)."""
    h = hand_for(ND, SAM, "Qd")
    play(h, "pile")
    assert "Qd" not in strs(h)
    with pytest.raises(IllegalActionError, match="cannot discard Qd: it was just taken from the discard pile") as e:
        h.apply("Qd")
    assert e.value.rule == "no_throw_back"


def test_trap_throwing_back_the_card_just_taken_is_refused_as_the_face_down_knock_discard() -> None:
    # Knocking with the Q♦ just taken would leave ND itself (deadwood 10, within the limit),
    # but the face-down knock discard is still a discard of that card.
    h = hand_for(ND, SAM, "Qd")
    play(h, "pile")
    assert "knock Qd" not in strs(h) and "knock Kc" in strs(h)
    with pytest.raises(IllegalActionError, match="cannot knock with Qd: it was just taken from the discard pile") as e:
        h.apply("knock Qd")
    assert e.value.rule == "no_throw_back" and h.knocker is None


def _view_cards(data: object) -> set[int]:
    """Every card named anywhere in a view's JSON (lists of cards and action texts)."""
    out: set[int] = set()
    if isinstance(data, dict):
        for v in data.values():
            out |= _view_cards(v)
    elif isinstance(data, list | tuple):
        for v in data:
            out |= _view_cards(v)
    elif isinstance(data, str):
        for token in data.split():
            c = _CARD_NAMES.get(token)
            if c is not None:
                out.add(c)
            elif len(token) > 3 and len(token) % 2 == 0 and token[:2] in _CARD_NAMES:
                out |= {_CARD_NAMES[token[i : i + 2]] for i in range(0, len(token), 2)}  # 'As2s3s'
    return out


_CARD_NAMES = {card_str(c): c for c in range(52)}


def assert_no_leak(h: Hand, seat: int, face_up: int) -> None:
    """The seat's view names no stock card, no hidden opponent card, no foreign knock discard."""
    opp = 1 - seat
    view = h.observation(seat)
    forbidden = 0
    for c in h.stock:
        forbidden |= 1 << c
    if h.knock_discard is not None and h.knocker != seat:
        # A knock discard that was once face up (taken from the pile earlier) is known anyway.
        forbidden |= (1 << h.knock_discard) & ~face_up
    opp_hidden = h.hands[opp] & ~face_up
    forbidden |= opp_hidden
    named = _view_cards(view.to_json())
    for c in (view.hand, view.opponent_known):
        named |= set(cards_of(c))
    assert not named & set(cards_of(forbidden)), (
        f"seat {seat} sees {[card_str(c) for c in sorted(named & set(cards_of(forbidden)))]} in phase {h.phase}"
    )
    for field in (view.knocker_melds, view.defender_melds, view.laid_on):
        for m in field:
            assert not m & forbidden


def _face_up_to(h: Hand, seat: int) -> int:
    """Cards this seat has seen face up: every discard and the upcard, laid melds, a laid-out hand."""
    opp = 1 - seat
    up = 0 if h.upcard is None else 1 << h.upcard
    for s in h.history:
        if s.action.kind.name == "DISCARD":
            up |= 1 << s.action.card
    if h.knocker is not None:
        melds = h.knocker_melds if opp == h.knocker else h.defender_melds
        for m in melds:
            up |= m
        laid_out = h.phase is not Phase.LAYOUT if opp == h.knocker else h.phase in (Phase.LAYOFF, Phase.OVER)
        if laid_out:
            up |= h.hands[opp]
    return up


@pytest.mark.parametrize("rules", [Rules(), Rules(last_chance=True, throw_back=True, big_gin=True), Rules(upcard=False)])
def test_trap_no_view_ever_shows_the_opponents_hidden_cards_stock_or_knock_discard(rules: Rules) -> None:
    """OpenSpiel's layoff phase leaked the knocker's face-down discard and more; check every step."""
    knocks = 0
    for seed in range(40):
        rng = random.Random(seed)
        h = new_hand(rules, seed % 2, seed=seed)
        step = 0
        while not h.is_over:
            # Every step of the first turns and after a knock; every few steps of mid-hand play
            # (the view's event list grows with the hand, so checking all of it is quadratic).
            if step < 6 or step % 5 == 0 or h.phase not in (Phase.DRAW, Phase.DISCARD):
                for seat in (0, 1):
                    assert_no_leak(h, seat, _face_up_to(h, seat))
            h.apply(lively_step(h, rng))
            step += 1
        knocks += h.knocker is not None
        for seat in (0, 1):
            assert_no_leak(h, seat, _face_up_to(h, seat))
    assert knocks > 10  # the layout and layoff phases were really visited


def test_trap_layoff_phase_view_hides_the_knock_discard_and_the_stock() -> None:
    h = hand_for(ND, SAM, "Qd", stock="2d 8c 7c")
    play(h, "pass", "pass", "stock", "knock Kc")
    play(h, *h.auto_layout())
    play(h, "meld KsKhKd", "meld 5s6s7s", "done")
    assert h.phase is Phase.LAYOFF
    view = h.observation(1)
    assert view.knock_discard is None and "Kc" not in str(view.to_json())
    assert not {"8c", "7c"} & set(str(view.to_json()).replace("'", " ").replace(",", " ").split())
    assert view.stock_size == 30
    assert h.observation(0).knock_discard == parse_card("Kc")


def test_trap_the_upcard_offer_exists() -> None:
    """RLCard has no first-turn upcard offer: the non-dealer may take it or pass, then the dealer."""
    h = hand_for(ND, SAM, "Qd")
    assert (h.phase, h.current, strs(h)) == (Phase.OFFER, 0, ["pile", "pass"])
    play(h, "pass")
    assert (h.phase, h.current, strs(h)) == (Phase.OFFER, 1, ["pile", "pass"])


def test_trap_layoffs_and_undercut_exist() -> None:
    """RLCard has neither layoffs nor an undercut. 000's Sam lays off 7♥ and 9♥ and undercuts."""
    h = hand_for(ND, SAM, "Qd")
    play(h, "pile", "knock Kc")
    play(h, *h.auto_layout())
    play(h, *h.auto_defense())
    assert sorted(card_str(c) for c, _ in h.layoffs) == ["7h", "9h"]
    assert h.result is not None and h.result.kind == "undercut" and h.result.points == (10 - 4) + 10


@pytest.mark.parametrize(
    "rules", [Rules(), Rules(last_chance=True), Rules(throw_back=True), Rules(upcard=False), Rules(straight_gin=True)]
)
def test_trap_play_cannot_loop_at_the_wall_dead_hand_at_two_stock_cards(rules: Rules) -> None:
    """OpenSpiel's wall phase could go round; here the discard that leaves 2 cards ends play."""
    far = "As 3s 5s 7s 9s Qh 2d 4d 6d Tc"
    far2 = "4s 8s Ts Ah 3d 5d Jh Kh 8c 6c"
    h = hand_for([*far.split(), "Jc"] if not rules.upcard else far, far2, None if not rules.upcard else "Qc",
                 rules=rules)
    if rules.upcard:
        play(h, "pass", "pass")
    else:
        play(h, "Jc")
    while not h.is_over:
        assert len(h.stock) > rules.dead_hand_stock or h.phase is Phase.LAST_CHANCE
        if h.phase is Phase.LAST_CHANCE:
            assert strs(h) == ["pass"]  # nobody can knock with these hands
            play(h, "pass")
            break
        step = h.apply("stock")
        h.apply(Action.discard(step.drawn))
    assert h.is_over and h.result is not None and h.result.dead and len(h.stock) == 2
    assert h.legal_actions() == []


def test_trap_random_games_never_draw_below_the_wall() -> None:
    for seed in range(80):
        rules = Rules(last_chance=bool(seed % 2), throw_back=bool(seed % 3 == 0))
        h = new_hand(rules, seed % 2, seed=seed)
        rng = random.Random(seed)
        while not h.is_over:
            h.apply(rng.choice(h.legal_actions()))
            assert len(h.stock) >= rules.dead_hand_stock
        if h.result is not None and h.result.dead:
            assert len(h.stock) == rules.dead_hand_stock


def _trade_discards_for_ever(rules: Rules) -> Hand:
    """Both players only take the top discard and throw the card they took a turn earlier."""
    h = new_hand(rules, dealer=1, seed=5)
    h.apply("pass")
    h.apply("pass")
    h.apply("stock")
    last_taken: dict[int, int] = {}
    first = cards_of(h.hands[h.current])[0]
    h.apply(Action.discard(first))
    for _ in range(200):
        if h.is_over:
            break
        seat = h.current
        h.apply("pile")
        taken = h.taken
        assert taken is not None
        throw = last_taken.get(seat)
        if throw is None or not h.hands[seat] >> throw & 1:
            throw = next(c for c in cards_of(h.hands[seat]) if c != taken)
        last_taken[seat] = taken
        h.apply(Action.discard(throw))
    return h


def test_trap_play_cannot_loop_when_players_only_trade_discards() -> None:
    h = _trade_discards_for_ever(Rules())
    assert h.is_over and h.result is not None and h.result.kind == "dead"
    assert h.stock_size == 30  # nobody touched the stock after the first draw
    assert len(h.history) < 40


def test_repetition_rule_can_be_switched_off() -> None:
    h = _trade_discards_for_ever(Rules(repetition_limit=0))
    assert not h.is_over


def test_positions_of_one_stock_size_share_the_pile_below_the_top_card() -> None:
    """The repetition count keys a position by its top discard, not its whole pile: sound only
    because every turn within one stock size takes the top discard and throws one. Checked
    at every discard of many hands, every variant, random and trading players alike."""
    from ginrummy.players import get_player

    checked = 0
    for i, rules in enumerate([Rules(), Rules(upcard=False), Rules(last_chance=True, throw_back=True), Rules.preset("eaai")]):
        for names in (("random", "random"), ("greedy", "simple"), ("easy", "random")):
            players = [get_player(n, seed=i) for n in names]
            for k in range(25):
                h = Hand(rules, dealer=k % 2)
                h.deal(rng=random.Random(1000 * i + k))
                below: dict[int, tuple[int, ...]] = {}  # stock size -> the pile below the top card
                while not h.is_over:
                    action = players[h.current].decide(h.observation(h.current))
                    h.apply(action)
                    if action.kind is Kind.DISCARD:
                        assert below.setdefault(len(h.stock), tuple(h.pile[:-1])) == tuple(h.pile[:-1])
                        checked += 1
    assert checked > 2000
