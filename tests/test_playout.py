"""Playouts (the expert's Monte-Carlo rollouts) agree with the engine, card for card.

A playout is a second, fast implementation of the rest of a hand; if it scored a knock or
the wall differently from the engine, the expert would optimise the wrong game. So whole
hands are played in the engine by a player that follows the playout policy, and the
playout from the same position must give the same points.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from ginrummy.actions import DONE, PASS, PILE, STOCK, Action, Kind
from ginrummy.cards import CardSet
from ginrummy.hand import Hand, Phase, new_hand
from ginrummy.melds import best_arrangement, best_discards, deadwood, min_deadwood_after_discard
from ginrummy.players.playout import _choose, knock_points, playout, score_knock
from ginrummy.rules import Rules


def _m(text: str) -> int:
    return CardSet.parse(text).mask


def _engine_step(h: Hand, knock_at: tuple[int, int]) -> None:
    """One action of the playout policy, played through the engine's checks."""
    seat = h.current
    hand = h.hands[seat]
    p = h.phase
    if p is Phase.OFFER:
        h.apply(PASS, seat=seat)
    elif p is Phase.DRAW:
        top = h.pile[-1] if h.pile else -1
        take = top >= 0 and min_deadwood_after_discard(hand | 1 << top) < deadwood(hand)
        h.apply(PILE if take and PILE in h.legal_actions() else STOCK, seat=seat)
    elif p is Phase.DISCARD:
        d, cards = best_discards(hand, 1 << h.taken if h.taken is not None else 0)
        card = _choose(cards)
        if d == 0 or d <= min(knock_at[seat], h.knock_limit):
            h.apply(Action.knock(card), seat=seat)
        else:
            h.apply(Action.discard(card), seat=seat)
    elif p is Phase.LAYOUT:
        laid = 0
        for m in h.knocker_melds:
            laid |= m
        _, melds = best_arrangement(hand)
        todo = [m for m in melds if not laid & m]
        h.apply(Action.lay_meld(todo[0]) if todo else DONE, seat=seat)
    else:
        for a in h.auto_defense():
            h.apply(a, seat=h.current)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), self_knock=st.sampled_from([0, 4, 10]), preset=st.sampled_from(["eaai", "classic"]))
def test_playout_scores_the_hand_as_the_engine_does(seed: int, self_knock: int, preset: str) -> None:
    rules = Rules.preset(preset)
    h = new_hand(rules, dealer=seed % 2, seed=seed)
    while h.phase is Phase.OFFER:
        h.apply(PASS, seat=h.current)
    me = h.current  # the playout's "me" is the seat about to draw
    force = 0 if PILE in h.legal_actions() else 2  # both passed the upcard: the stock
    knock_at = (self_knock, rules.knock_limit) if me == 0 else (rules.knock_limit, self_knock)
    got = playout(
        h.hands[me],
        h.hands[1 - me],
        list(reversed(h.stock)),
        h.pile[-1],
        False,
        force=force,
        limit=h.knock_limit,
        self_knock=self_knock,
        dead=rules.dead_hand_stock,
        gin=rules.gin_bonus,
        under=rules.undercut_bonus,
    )
    while not h.is_over:
        _engine_step(h, knock_at)
    r = h.result
    assert r is not None
    want = 0 if r.winner is None else (r.points if r.winner == me else -r.points)
    assert got == want


def test_knock_points_equal_count_is_an_undercut() -> None:
    # The trap OpenSpiel fell into: an equal count is an undercut, not 0.
    assert knock_points(25, 25, 7, 7) == -25
    assert knock_points(20, 10, 7, 9) == 2
    assert knock_points(20, 10, 8, 3) == -15
    assert knock_points(20, 10, 0, 31) == 51


def test_score_knock_counts_layoffs_except_after_gin() -> None:
    knocker = _m("4h 5h 6h 9s 9d 9c Tc Jc Qc 2d")  # deadwood 2
    defender = _m("Ks Kh Kd 5s 6s 7s 7h 9h 3c Ad")  # 7h and 9h lay off: 3 + 1 = 4 left
    assert score_knock(knocker, defender, 25, 25) == 2
    gin_hand = _m("4h 5h 6h 9s 9d 9c Tc Jc Qc Kc")
    assert score_knock(gin_hand, defender, 25, 25) == 25 + deadwood(defender)


def test_the_wall_ends_the_playout_dead() -> None:
    me = _m("2c 4c 6c 8c Tc 3d 5d 9d Jd Qh")
    opp = _m("2s 4s 6s 8s Ts 3h 5h 9h Jh Qd")
    stock = [c for c in range(52) if not (me | opp) >> c & 1]
    random.Random(3).shuffle(stock)
    # Three cards in the stock, the wall at two: one draw each would pass it.
    assert playout(me, opp, stock[:3], -1, False, limit=10, self_knock=0, dead=2, gin=25, under=25) == 0


def test_forced_first_draw() -> None:
    me = _m("As 2s 3s 4h 5h 6h 7c 7d Kd Qc")
    opp = _m("2c 4c 6c 8c Tc 3d 5d 9d Jd Qh")
    seven = _m("7s").bit_length() - 1
    king = _m("Kh").bit_length() - 1
    args = dict(limit=10, self_knock=10, dead=0, gin=25, under=25)
    # The pile's 7s makes three sevens: taking it knocks with 10 (Kd or Qc left).
    assert playout(me, opp, [king], seven, False, force=1, **args) == deadwood(opp) - 10
    # Forced to the stock, the king does not help and the stock is then empty: dead.
    assert playout(me, opp, [king], seven, False, force=2, **args) == 0
