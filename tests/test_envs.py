"""The Gymnasium and PettingZoo environments: the libraries' own checkers, rewards, seeds, options."""

from __future__ import annotations

import random
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from ginrummy.actions import NUM_ACTIONS, Action
from ginrummy.envs import ENV_ID, GinRummyEnv, IllegalActionWrapper, gin_rummy_v0
from ginrummy.envs.encoding import action_mask, encode_observation, legal_of, pieces
from ginrummy.envs.game import EnvConfig, Episode
from ginrummy.errors import IllegalActionError
from ginrummy.events import LAYOUT_PHASES
from ginrummy.players import get_player
from ginrummy.rules import Rules

OKLAHOMA = Rules.preset("classic", oklahoma=True)

#: Warnings the checkers give every environment whose observation is a dict with an action mask
#: (PettingZoo's own classic games are exempted from them by name), and check_env's note that
#: gymnasium.make's result is wrapped (it always is: PassiveEnvChecker, OrderEnforcing).
KNOWN = ("Observation is not a NumPy array", "probably should be gymnasium.spaces.box", "different from the unwrapped")


def _unexpected(caught: list[warnings.WarningMessage]) -> list[str]:
    return [str(w.message) for w in caught if not any(k in str(w.message) for k in KNOWN)]


CONFIGS = [
    {},
    {"episode": "game", "info_state": True},
    {"rules": {"preset": "classic", "overrides": {"oklahoma": True}}, "episode": "game", "reward": "game"},
    {"rules": "eaai", "auto_layout": True, "shaping": 0.5},
]


@pytest.mark.parametrize("options", CONFIGS)
def test_gymnasium_check_env_passes(options: dict[str, object]) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(gym.make(ENV_ID, **options))
    assert _unexpected(caught) == []


@pytest.mark.parametrize("options", CONFIGS)
def test_pettingzoo_api_test_and_seed_test_pass(options: dict[str, object]) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(gin_rummy_v0.env(**options), num_cycles=200)
        seed_test(lambda: gin_rummy_v0.env(**options), num_cycles=200)
    assert _unexpected(caught) == []


def _play_aec(env: object, seed: int, rng: random.Random) -> tuple[dict[str, float], list[int]]:
    """Play one episode with random legal actions; the summed rewards and the actions."""
    env.reset(seed=seed)  # type: ignore[attr-defined]
    totals = {"player_0": 0.0, "player_1": 0.0}
    actions = []
    for agent in env.agent_iter():  # type: ignore[attr-defined]
        obs, reward, term, trunc, _ = env.last()  # type: ignore[attr-defined]
        totals[agent] += reward
        if term or trunc:
            env.step(None)  # type: ignore[attr-defined]
            continue
        a = rng.choice(legal_of(obs["action_mask"]))
        actions.append(a)
        env.step(a)  # type: ignore[attr-defined]
    return totals, actions


def test_each_observation_is_the_seat_view_and_the_mask_its_legal_actions() -> None:
    env = gin_rummy_v0.raw_env(episode="game", rules=OKLAHOMA)
    env.reset(seed=3)
    rng = random.Random(3)
    simple = get_player("simple", seed=3)
    steps = 0
    while not env.episode.over and steps < 400:
        ep = env.episode
        seat = ep.current
        for s in (0, 1):
            obs = env.observe(f"player_{s}")
            view = ep.view(s)
            np.testing.assert_array_equal(obs["observation"], encode_observation(view))
            p = pieces(obs["observation"])
            assert int(p["hand"].sum()) == view.hand.bit_count()
            assert [int(c) for c in np.flatnonzero(p["hand"])] == [c for c in range(52) if view.hand >> c & 1]
            on_pile = sorted(np.flatnonzero(p["pile"]), key=lambda c: -p["pile"][c])
            assert [int(c) for c in on_pile] == list(view.pile)
            assert float(p["stock"][0]) == view.stock_size and float(p["knock_limit"][0]) == view.knock_limit
            assert tuple(p["scores"]) == (view.scores[s], view.scores[1 - s])
            assert set(np.flatnonzero(p["opponent_taken"])) == set(view.opponent_taken)
            assert set(np.flatnonzero(p["opponent_discards"])) == set(view.opponent_discards)
            assert set(np.flatnonzero(p["opponent_declined"])) == set(view.opponent_declined)
            want = [int(a) for a in ep.hand.legal_actions()] if s == seat else []
            assert legal_of(obs["action_mask"]) == want
        # A sensible player now and then, so hands end with a score.
        view = ep.view(seat)
        env.step(int(simple.decide(view)) if rng.random() < 0.7 else rng.choice(legal_of(action_mask(view))))
        steps += 1
    assert steps == 400 and max(env.episode.match.scores) > 0  # into a later hand, with scores


def test_hand_rewards_are_the_hands_points_zero_sum() -> None:
    rng = random.Random(1)
    env = gin_rummy_v0.raw_env()
    seen_win = False
    for seed in range(30):
        totals, _ = _play_aec(env, seed, rng)
        result = env.episode.hand.result
        assert result is not None
        if result.winner is None:
            assert totals == {"player_0": 0.0, "player_1": 0.0}
        else:
            seen_win = True
            assert totals[f"player_{result.winner}"] == result.points
            assert totals[f"player_{1 - result.winner}"] == -result.points
    assert seen_win


@pytest.mark.parametrize("reward", ["hand", "game"])
def test_game_rewards_add_up_to_the_final_margin(reward: str) -> None:
    rng = random.Random(2)
    env = gin_rummy_v0.raw_env(episode="game", reward=reward, rules="eaai", auto_layout=True)
    totals, _ = _play_aec(env, 5, rng)
    final = env.episode.match.final()
    assert totals["player_0"] == final.totals[0] - final.totals[1]
    assert totals["player_0"] == -totals["player_1"]
    assert len(env.episode.match.hands) > 1


def test_game_rewards_by_hand_are_paid_as_each_hand_ends() -> None:
    ep = Episode(EnvConfig(rules=Rules.preset("eaai"), episode="game", auto_layout=True), seed=4)
    rng = random.Random(4)
    paid_mid_game = False
    while not ep.over:
        n = len(ep.match.hands)
        r = ep.step(rng.choice([int(a) for a in ep.hand.legal_actions()]))
        if len(ep.match.hands) > n and not ep.over and r[0] != 0:
            paid_mid_game = True
    assert paid_mid_game


def test_the_same_seed_gives_the_same_game_and_options_survive_reset() -> None:
    env = gin_rummy_v0.raw_env(rules=OKLAHOMA)
    a = _play_aec(env, 11, random.Random(0))
    b = _play_aec(env, 11, random.Random(0))
    c = _play_aec(env, 12, random.Random(0))
    assert a == b and a != c
    assert env.episode.config.rules == OKLAHOMA
    g = gym.make(ENV_ID, rules=OKLAHOMA, opponent="greedy")
    first, _ = g.reset(seed=5)
    g.reset()
    again, _ = g.reset(seed=5)
    np.testing.assert_array_equal(first["observation"], again["observation"])
    assert g.unwrapped.config.rules == OKLAHOMA  # type: ignore[attr-defined]


def test_gym_env_plays_the_opponent_and_reports_the_result() -> None:
    env = GinRummyEnv(opponent="simple", seat=1, auto_layout=True)
    obs, info = env.reset(seed=9)
    assert info["seat"] == 1 and env.episode.current == 1
    rng = random.Random(9)
    total = 0.0
    terminated = False
    while not terminated:
        assert env.episode.current == 1
        assert env.episode.hand.phase not in LAYOUT_PHASES  # auto_layout: the agent never lays out
        obs, reward, terminated, truncated, info = env.step(rng.choice(legal_of(obs["action_mask"])))
        total += float(reward)
        assert not truncated
    result = env.episode.hand.result
    assert result is not None and info["result"] == result.kind
    points = 0 if result.winner is None else result.points if result.winner == 1 else -result.points
    assert total == info["hand_points"] == points
    assert not obs["action_mask"].any()


def test_the_plain_env_raises_the_engines_error_and_changes_nothing() -> None:
    env = GinRummyEnv(seat=0)
    obs, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = len(env.episode.hand.history)
    with pytest.raises(IllegalActionError):
        env.step(illegal)
    assert len(env.episode.hand.history) == before


def test_illegal_action_policies() -> None:
    lose = IllegalActionWrapper(GinRummyEnv(seat=0), policy="lose", illegal_reward=-7)
    obs, _ = lose.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = lose.step(illegal)
    assert (reward, terminated, truncated, info["illegal"]) == (-7, True, False, illegal)
    with pytest.raises(IllegalActionError):
        lose.step(0)
    lose.reset(seed=1)
    _, reward, terminated, *_ = lose.step(NUM_ACTIONS + 5)  # outside the action space: lost too
    assert (reward, terminated) == (-7, True)

    rand = IllegalActionWrapper(GinRummyEnv(seat=0), policy="random")
    obs, _ = rand.reset(seed=1)
    before = len(rand.unwrapped.episode.hand.history)  # type: ignore[attr-defined]
    _, _, _, _, info = rand.step(illegal)
    assert info["illegal"] == illegal and len(rand.unwrapped.episode.hand.history) > before  # type: ignore[attr-defined]

    strict = IllegalActionWrapper(GinRummyEnv(seat=0), policy="raise")
    strict.reset(seed=1)
    with pytest.raises(IllegalActionError):
        strict.step(illegal)
    with pytest.raises(ValueError, match="lose, random, raise"):
        IllegalActionWrapper(GinRummyEnv(), policy="ignore")


def test_pettingzoo_env_ends_the_game_on_an_illegal_action() -> None:
    env = gin_rummy_v0.env(illegal_reward=-9)
    env.reset(seed=2)
    agent = env.agent_selection
    obs, *_ = env.last()
    env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert all(env.terminations.values())
    assert env._cumulative_rewards[agent] == -9  # noqa: SLF001 - the wrapper's documented effect
    with pytest.raises(IllegalActionError):
        raw = gin_rummy_v0.raw_env()
        raw.reset(seed=2)
        raw.step(int(np.flatnonzero(raw.observe(raw.agent_selection)["action_mask"] == 0)[0]))


def test_a_hand_past_max_moves_is_truncated() -> None:
    env = gin_rummy_v0.raw_env(max_moves=6)
    totals, actions = _play_aec(env, 1, random.Random(1))
    assert len(actions) == 6 and env.episode.truncated and not env.episode.terminated
    assert totals == {"player_0": 0.0, "player_1": 0.0}


def test_shaping_pays_the_fall_in_deadwood() -> None:
    plain = Episode(EnvConfig(), seed=3)
    shaped = Episode(EnvConfig(shaping=1.0), seed=3)
    rng = random.Random(3)
    from ginrummy.melds import deadwood

    for _ in range(8):
        seat = shaped.current
        before = deadwood(shaped.hand.hands[seat])
        a = rng.choice([int(x) for x in shaped.hand.legal_actions()])
        r0 = plain.step(a)
        r1 = shaped.step(a)
        assert r1[seat] - r0[seat] == before - deadwood(shaped.hand.hands[seat])


def test_bad_options_are_refused_in_words() -> None:
    with pytest.raises(ValueError, match="episode must be 'hand' or 'game'"):
        EnvConfig(episode="match")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown player"):
        GinRummyEnv(opponent="grandmaster")
    with pytest.raises(ValueError, match="seat must be 0, 1 or None"):
        GinRummyEnv(seat=2)


def test_render_shows_the_agents_view() -> None:
    env = GinRummyEnv(seat=0, render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert text is not None and text.startswith("seat 0") and "legal:" in text
    view = env.episode.view(0)
    assert " ".join(str(a) for a in view.legal) in text
    assert action_mask(view).sum() == len(view.legal) and Action.from_int(legal_of(action_mask(view))[0]) in view.legal
