"""RLCard's novice rule agent as one of our players (optional extra ``peers``)."""

from __future__ import annotations

import random

import rlcard  # noqa: F401 - the peers extra (make test installs it); a missing peer fails, never skips

from conftest import Referee
from ginrummy.hand import new_hand
from ginrummy.players import get_player
from ginrummy.players.driver import play_hand
from ginrummy.players.peers import OPENSPIEL_RULES


def test_novice_plays_legal_hands_seat_swapped() -> None:
    from ginrummy.players.peers import RLCardNovicePlayer

    kinds = set()
    for i in range(5):
        deck = list(range(52))
        random.Random(f"rlcard-test:{i}").shuffle(deck)
        for seat in (0, 1):
            novice = Referee(RLCardNovicePlayer(seed=i))
            ours = Referee(get_player("simple", seed=i))
            players = [ours, novice] if seat == 0 else [novice, ours]
            hand = new_hand(OPENSPIEL_RULES, dealer=1, deck=deck)
            r = play_hand(hand, players)
            assert hand.is_over and r is hand.result
            assert novice.decisions > 0
            kinds.add(r.kind)
    assert kinds <= {"knock", "gin", "undercut", "dead", "big_gin"}


def test_novice_is_reproducible_and_leaves_numpy_alone() -> None:
    import numpy as np

    from ginrummy.players.peers import RLCardNovicePlayer

    deck = list(range(52))
    random.Random("rlcard-test:repro").shuffle(deck)
    histories = []
    for _ in range(2):
        np.random.seed(123)
        hand = new_hand(OPENSPIEL_RULES, dealer=1, deck=deck)
        play_hand(hand, [RLCardNovicePlayer(seed=5), get_player("greedy", seed=5)])
        after = np.random.random()
        np.random.seed(123)
        assert after == np.random.random()  # our play did not draw from numpy's global state
        histories.append([str(s.action) for s in hand.history])
    assert histories[0] == histories[1]


def test_card_ids_are_rlcards() -> None:
    from rlcard.games.gin_rummy.utils import utils

    from ginrummy.cards import card_str

    assert [str(utils.get_card(c)) for c in range(52)] == [card_str(c).upper() for c in range(52)]


def test_novice_discard_is_a_legal_discard_or_knock() -> None:
    from ginrummy.actions import Kind
    from ginrummy.observation import observe
    from ginrummy.players.peers import RLCardNovicePlayer

    deck = list(range(52))
    random.Random("rlcard-test:discard").shuffle(deck)
    hand = new_hand(OPENSPIEL_RULES, dealer=1, deck=deck)
    p = RLCardNovicePlayer(seed=1)
    while hand.phase.value != "discard":
        hand.apply(p.decide(observe(hand, hand.current)))
    view = observe(hand, hand.current)
    a = p.decide(view)
    assert a in view.legal and a.kind in (Kind.DISCARD, Kind.KNOCK, Kind.BIG_GIN)
