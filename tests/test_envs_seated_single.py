"""``GinRummy-v0`` with three and four players: Gymnasium's checker, whole games against built-in
players who see only their own seats and are told of each hand they play, zero-sum rewards that
match the AEC environment's, seeds, and the options it refuses."""

from __future__ import annotations

import warnings
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from ginrummy.envs import ENV_ID
from ginrummy.envs.encoding import encode_observation
from ginrummy.envs.seated_single import SeatedGinRummyEnv
from ginrummy.observation import SeatView
from ginrummy.players import get_player
from ginrummy.players.base import Player

KNOWN = ("Observation is not a NumPy array", "probably should be gymnasium.spaces.box", "different from the unwrapped")


@pytest.mark.parametrize("players", [3, 4])
def test_gymnasium_check_env_passes(players: int) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(gym.make(ENV_ID, players=players, opponent="simple"))
    assert [str(w.message) for w in caught if not any(k in str(w.message) for k in KNOWN)] == []


class Watcher(Player):
    """A simple player that checks each view it is given is its own seat's, and counts the hooks."""

    env: SeatedGinRummyEnv

    def __init__(self, seat: int) -> None:
        self.seat, self.inner = seat, get_player("simple", seed=seat)
        self.new_hands: list[int] = []
        self.hands_over = 0
        self.decisions = 0

    def new_hand(self, seat: int) -> None:
        self.new_hands.append(seat)

    def hand_over(self, view: SeatView) -> None:
        assert view.phase.name == "OVER"
        self.hands_over += 1

    def decide(self, view: SeatView) -> Any:
        g = self.env.game
        at = g.where(self.seat)
        assert at is not None, "asked to act in a hand it sits out"
        table, hand_seat = at
        assert view.seat == hand_seat and view.hand == g.tables[table].hands[hand_seat]
        assert self.new_hands and self.new_hands[-1] == hand_seat
        self.decisions += 1
        return self.inner.decide(view)


def _whole_game(players: int, seed: int) -> tuple[SeatedGinRummyEnv, list[Watcher], float, list[tuple[int, ...]]]:
    """A random agent at seat 0 against watchers; every observation checked against its view."""
    watchers = [Watcher(s) for s in range(1, players)]
    env = SeatedGinRummyEnv(players, seat=0, opponents=watchers)
    for w in watchers:
        w.env = env
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total, scores = 0.0, [tuple(info["scores"])]
    for _ in range(20_000):
        g = env.game
        at = g.where(0)
        assert at is not None and 0 in g.to_act, "the agent is asked to act only when it is its turn"
        np.testing.assert_array_equal(obs["observation"], encode_observation(g.view(0)))
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        total += float(reward)
        scores.append(tuple(info["scores"]))
        if terminated or truncated:
            assert terminated and not obs["action_mask"].any()
            return env, watchers, total, scores
        assert reward == 0.0, "the reward comes at the game's end"
    raise AssertionError("the game did not end")


def test_three_players_the_agent_sits_out_the_deals_it_deals_and_the_reward_is_the_aec_one() -> None:
    env, watchers, total, _ = _whole_game(3, seed=5)
    g = env.game
    totals = g.final().totals
    assert total == totals[0] - (totals[1] + totals[2]) / 2
    for w in watchers:  # told each hand it played, in its hand seat, and shown each one's end
        played = [p.seats.index(w.seat) for p in g.pairings if w.seat in p.seats]
        assert w.new_hands == played and w.hands_over == len(played) and w.decisions > 0
    assert any(0 not in p.seats for p in g.pairings), "the agent sat out a deal"


def test_four_players_the_partner_is_a_built_in_player_and_the_team_shares_the_reward() -> None:
    env, watchers, total, scores = _whole_game(4, seed=6)
    g = env.game
    a, b = g.final().totals
    assert total == a - b
    assert all(len(s) == 2 for s in scores)  # the ledger's two team columns
    assert watchers[1].seat == 2 and watchers[1].decisions > 0  # the agent's partner plays too
    for w in watchers:
        assert len(w.new_hands) == len(g.pairings) // 2 == w.hands_over


def test_the_same_seed_plays_the_same_game_and_the_seat_is_drawn_from_it() -> None:
    def run(seed: int) -> tuple[int, list[int]]:
        env = gym.make(ENV_ID, players=3, opponents=["simple", "greedy"])
        obs, info = env.reset(seed=seed)
        rng = np.random.default_rng(0)
        moves = []
        for _ in range(40):
            a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            moves.append(a)
            obs, _, term, trunc, info = env.step(a)
            if term or trunc:
                break
        return info["seat"], moves

    assert run(11) == run(11)
    assert len({run(s)[0] for s in range(12)}) == 3


def test_an_illegal_action_ends_the_episode_by_default() -> None:
    env = gym.make(ENV_ID, players=4)
    obs, _ = env.reset(seed=2)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info["illegal"]) == (-100.0, True, illegal)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"players": 3, "opponents": ["simple"]}, "3 players need 2 other players, not 1"),
    ({"players": 4, "opponent": "grandmaster"}, "unknown player 'grandmaster'"),
    ({"players": 3, "seat": 3}, "seat must be one of 0 to 2"),
    ({"players": 3, "episode": "hand"}, "an episode is the whole game"),
    ({"players": 5}, "players must be 2, 3 or 4"),
])
def test_options_it_does_not_play_are_refused(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        gym.make(ENV_ID, **kwargs)
