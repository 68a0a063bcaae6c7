"""The OpenSpiel game: OpenSpiel's own random simulation test, chance nodes, returns, and a
``resample_from_infostate`` that reads the player's view only."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import ginrummy.envs.openspiel  # noqa: F401 - registers python_ginrummy
from ginrummy.envs.resample import resample
from ginrummy.hand import new_hand
from ginrummy.observation import observe
from ginrummy.players import get_player
from ginrummy.rules import Rules

SIMPLE = get_player("simple", seed=1)
RULE_SETS = ["classic", "eaai", "classic;upcard:false;big_gin:true;throw_back:true"]


@pytest.mark.parametrize("rules", RULE_SETS)
def test_openspiels_random_simulation_test_passes(rules: str) -> None:
    game = pyspiel.load_game("python_ginrummy", {"rules": rules})
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)


def _random_state(game: pyspiel.Game, rng: random.Random, moves: int, knock: bool = False) -> pyspiel.State:
    """A state after ``moves`` random player moves (with ``knock``, the ``simple`` player's)."""
    state = game.new_initial_state()
    while not state.is_terminal() and moves > 0:
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            assert abs(sum(probs) - 1.0) < 1e-9
            state.apply_action(rng.choice(outcomes))
        else:
            if knock:
                state.apply_action(int(SIMPLE.decide(observe(state.hand, state.current_player()))))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            moves -= 1
    return state


def test_a_cloned_state_is_independent_of_its_original() -> None:
    game = pyspiel.load_game("python_ginrummy")
    state = _random_state(game, random.Random(2), 20)
    copy = state.clone()
    before = str(state)
    copy.apply_action(copy.legal_actions()[0] if not copy.is_chance_node() else copy.chance_outcomes()[0][0])
    assert str(state) == before and str(copy) != before
    assert copy.history()[:-1] == state.history()


def test_the_deal_and_each_stock_draw_are_chance_nodes() -> None:
    game = pyspiel.load_game("python_ginrummy")
    state = game.new_initial_state()
    for n in range(21):
        assert state.is_chance_node() and len(state.chance_outcomes()) == 52 - n
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.current_player() == 0 and state.legal_actions() == [53, 54]  # pile, pass
    state.apply_action(54)
    state.apply_action(54)
    assert state.legal_actions() == [52]  # stock only
    state.apply_action(52)
    assert state.is_chance_node() and len(state.chance_outcomes()) == 31
    card = state.chance_outcomes()[7][0]
    state.apply_action(card)
    assert state.current_player() == 0 and state.hand.hands[0] >> card & 1


def test_returns_are_the_engines_points() -> None:
    game = pyspiel.load_game("python_ginrummy", {"rules": "eaai"})
    rng = random.Random(3)
    scored = 0
    for _ in range(20):
        state = _random_state(game, rng, 10_000, knock=True)
        assert state.is_terminal()
        r = state.hand.result
        if r is None or r.winner is None:
            assert state.returns() == [0.0, 0.0]
            continue
        scored += 1
        assert state.returns()[r.winner] == r.points and sum(state.returns()) == 0
    assert scored > 10


def test_a_hand_cut_off_at_max_moves_ends_with_no_score() -> None:
    game = pyspiel.load_game("python_ginrummy", {"max_moves": 9})
    state = _random_state(game, random.Random(1), 10_000)
    assert state.is_terminal() and len(state.hand.history) == 9 and state.returns() == [0.0, 0.0]


def test_resampled_states_look_the_same_to_the_player() -> None:
    game = pyspiel.load_game("python_ginrummy", {"rules": "eaai"})
    rng = random.Random(7)
    differed = 0
    for _ in range(40):
        state = _random_state(game, rng, rng.randrange(0, 80))
        if state.is_terminal():
            continue
        for p in (0, 1):
            other = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
            assert other.information_state_string(p) == state.information_state_string(p)
            assert other.observation_string(p) == state.observation_string(p)
            assert other.information_state_tensor(p) == state.information_state_tensor(p)
            assert other.observation_tensor(p) == state.observation_tensor(p)
            assert other.current_player() == state.current_player()
            if other.hand is not None and other.hand.hands[1 - p] != state.hand.hands[1 - p]:
                differed += 1
    assert differed > 20


def test_resampling_during_the_deal_and_before_a_stock_card_is_turned() -> None:
    game = pyspiel.load_game("python_ginrummy")
    state = game.new_initial_state()
    for c in (5, 9, 40, 1, 2, 3, 4):
        state.apply_action(c)
    for p in (0, 1):
        other = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert other.is_chance_node() and len(other.history()) == 7
        assert other.information_state_string(p) == state.information_state_string(p)
        own = range(p, 7, 2)  # player 0 is the non-dealer: the even deal positions are its cards
        assert [other.history()[i] for i in own] == [state.history()[i] for i in own]
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    for a in (54, 54, 52):  # pass, pass, stock: the card is not turned yet
        state.apply_action(a)
    assert state.is_chance_node()
    for p in (0, 1):
        other = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert other.is_chance_node() and other.information_state_string(p) == state.information_state_string(p)


def test_resampling_reads_only_the_players_view() -> None:
    """Two states the player cannot tell apart resample to the very same state."""
    game = pyspiel.load_game("python_ginrummy")
    rng = random.Random(11)
    for _ in range(15):
        state = _random_state(game, rng, rng.randrange(1, 60))
        if state.is_terminal():
            continue
        p = rng.randrange(2)
        twin = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        one = state.resample_from_infostate(p, lambda: 0.375)
        two = twin.resample_from_infostate(p, lambda: 0.375)
        assert one.history() == two.history()


def test_resample_from_a_view_replays_to_the_same_view() -> None:
    rng = random.Random(5)
    changed = 0
    for n in range(60):
        rules = Rules.preset(("classic", "eaai", "online")[n % 3])
        h = new_hand(rules, n % 2, seed=n)
        for _ in range(rng.randrange(0, 120)):
            if h.is_over:
                break
            h.apply(rng.choice(h.legal_actions()))
        for seat in (0, 1):
            view = observe(h, seat)
            world = resample(view, random.Random(n))
            assert observe(world.hand(), seat) == view
            mine = [i for i in range(20) if (i % 2 == 0) == (seat != h.dealer)] + [20]  # its deal and the upcard
            assert sorted(world.deck[i] for i in mine) == sorted(h.deck[i] for i in mine)
            changed += world.deck != tuple(h.deck)
    assert changed > 100


def test_openspiels_search_bots_play_the_game() -> None:
    game = pyspiel.load_game("python_ginrummy", {"rules": "eaai", "max_moves": 60})
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, max_simulations=4, random_state=rng)
    state = game.new_initial_state()
    r = random.Random(0)
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(r.choice([o for o, _ in state.chance_outcomes()]))
        elif state.current_player() == 0:
            state.apply_action(bot.step(state))
            decisions += 1
        else:
            state.apply_action(r.choice(state.legal_actions()))
    assert decisions > 3
