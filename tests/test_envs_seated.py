"""``gin_rummy_v0`` with three and four players: PettingZoo's API test, the seat that sits a deal
out never acts and sees nothing of it, zero-sum final rewards, seeds."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from ginrummy.envs import gin_rummy_v0
from ginrummy.envs.encoding import encode_observation
from ginrummy.envs.seated import SeatedEnv


@pytest.mark.parametrize("players", [3, 4])
def test_pettingzoos_api_test_and_seed_test_pass(players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its note that a dict observation is not one array
        api_test(gin_rummy_v0.env(players=players), num_cycles=200, verbose_progress=False)
        seed_test(lambda: gin_rummy_v0.env(players=players), num_cycles=200)


def _play(players: int, seed: int, max_steps: int = 60_000) -> tuple[SeatedEnv, dict[str, float], int]:
    """Random legal play of one whole game (default layouts), checking every seat's observation
    at every step; the final rewards and how many hands a seat sat out while another acted."""
    env = gin_rummy_v0.raw_env(players=players, auto_layout=True)
    assert isinstance(env, SeatedEnv)
    env.reset(seed=seed)
    rng = random.Random(seed)
    final: dict[str, float] = {}
    sat_out = 0
    for step, agent in enumerate(env.agent_iter(max_iter=max_steps)):
        obs, reward, term, trunc, _ = env.last()
        if term or trunc:
            final[agent] = reward
            env.step(None)
            continue
        g = env.game
        if step % 7 == 0:  # every seat, now and then (a full check at each step is slow)
            for k, other in enumerate(env.possible_agents):
                o = env.observe(other)
                if g.where(k) is None:
                    sat_out += 1
                    assert not o["observation"].any() and not o["action_mask"].any()
                else:
                    np.testing.assert_array_equal(o["observation"], encode_observation(g.view(k)))
                    assert o["action_mask"].any() == (other == agent)
        seat = env.possible_agents.index(agent)
        assert g.where(seat) is not None and seat in g.to_act
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    assert not env.agents, "the game did not end"
    return env, final, sat_out


def test_three_players_the_dealer_sits_out_and_the_rewards_are_zero_sum() -> None:
    env, final, sat_out = _play(3, seed=2)
    totals = env.game.final().totals
    assert sat_out > 0
    assert final == {f"player_{s}": totals[s] - sum(totals[o] for o in range(3) if o != s) / 2 for s in range(3)}
    assert sum(final.values()) == pytest.approx(0.0)


def test_four_players_two_tables_partners_share_the_reward() -> None:
    env, final, sat_out = _play(4, seed=11)  # 96 hands of random play (seed 3 took 410), both teams score
    a, b = env.game.final().totals
    assert sat_out == 0  # every seat plays at one of the two tables
    assert final == {"player_0": a - b, "player_2": a - b, "player_1": b - a, "player_3": b - a}


def test_the_same_seed_deals_the_same_game() -> None:
    def first_hands(seed: int) -> list[int]:
        env = gin_rummy_v0.raw_env(players=3)
        env.reset(seed=seed)
        return list(env.game.tables[0].hands)

    assert first_hands(4) == first_hands(4) != first_hands(5)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"players": 5}, "players must be 2, 3 or 4"),
    ({"players": 3, "info_state": True}, "info_state is a two-player option"),
    ({"players": 4, "episode": "hand"}, "an episode is the whole game"),
])
def test_options_it_does_not_play_are_refused(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        gin_rummy_v0.raw_env(**kwargs)
