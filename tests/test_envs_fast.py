"""``FastHandBatch`` plays the engine's rules exactly: step by step against ``Hand`` on many
hands (masks, observations, ends, scores), and ``ObservationEncoder`` gives ``encode_observation``'s
numbers on every step."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from ginrummy.envs import gin_rummy_v0
from ginrummy.envs.encoding import ObservationEncoder, action_mask, encode_observation
from ginrummy.envs.fast import FastHandBatch
from ginrummy.envs.game import EnvConfig, Episode
from ginrummy.errors import IllegalActionError
from ginrummy.events import LAYOUT_PHASES, Phase
from ginrummy.hand import Hand, new_hand
from ginrummy.layout import layout_action
from ginrummy.melds import deadwood
from ginrummy.observation import observe
from ginrummy.rules import Rules


def _engine(b: FastHandBatch, i: int) -> Hand:
    """Hand ``i`` of the batch as the engine deals it (the same deck order and dealer)."""
    return new_hand(b.rules, int(b.dealer[i]), deck=b.deck[i].tolist())


def _play_against_engine(rules: Rules, n: int, steps: int, seed: int) -> Counter[str]:
    """Step the batch and ``n`` engine hands with the same actions, comparing everything; how the
    engine's hands ended. The policy takes the pile often (so positions repeat) and knocks when
    it can (so knocks, gins and undercuts are scored)."""
    b = FastHandBatch(n, rules, seed=seed)
    gen = np.random.default_rng(seed)
    hands = [_engine(b, i) for i in range(n)]
    ends: Counter[str] = Counter()
    for _ in range(steps):
        for i, h in enumerate(hands):
            v = observe(h, h.current)
            assert b.seats[i] == h.current
            np.testing.assert_array_equal(b.masks[i], action_mask(v))
            np.testing.assert_array_equal(b.obs[i], encode_observation(v))
        w = gen.random(b.masks.shape) * b.masks
        w[:, 53] *= np.where(np.arange(n) % 2, 3.0, 0.3)  # half the hands take the pile often
        pick = w.argmax(axis=1)
        for i, h in enumerate(hands):
            if h.phase is Phase.DISCARD:  # a greedy discard (lowest deadwood), often a knock
                cards = h.hands[h.current]
                legal = [int(a) for a in np.flatnonzero(b.masks[i, :107])]
                best = min(legal, key=lambda a: (deadwood(cards & ~(1 << (a % 55 if a >= 55 else a))),
                                                 a < 55 if gen.random() < 0.4 else a >= 55, gen.random()))
                pick[i] = best
        rewards, done = b.step(pick)
        for i, h in enumerate(hands):
            h.apply(int(pick[i]))
            while h.phase in LAYOUT_PHASES:  # the engine's default layouts (auto_layout)
                h.apply(layout_action(observe(h, h.current)))
            assert done[i] == (h.phase is Phase.OVER)
            if not done[i]:
                assert rewards[i].tolist() == [0.0, 0.0]
                continue
            r = h.result
            assert r is not None
            expect = [0.0, 0.0]
            if r.winner is not None:
                expect[r.winner], expect[1 - r.winner] = r.points, -r.points
            assert rewards[i].tolist() == expect
            ends["repeated" if r.kind == "dead" and h.stock_size > rules.dead_hand_stock else r.kind] += 1
            hands[i] = _engine(b, i)  # the batch dealt hand i afresh
    assert b.episodes_done == sum(ends.values()) == len(b.returns)
    return ends


@pytest.mark.parametrize(("rules", "steps"), [
    (Rules(), 300),
    (Rules.preset("eaai"), 200),
    (Rules(oklahoma=True, oklahoma_spade_double=True, knock_limit=7), 200),
])
def test_the_batch_plays_the_engines_rules_step_by_step(rules: Rules, steps: int) -> None:
    ends = _play_against_engine(rules, 48, steps, seed=len(str(rules.to_json())))
    # Every way a hand ends was reached (so every rule was compared, not just the common path).
    for kind in ("knock", "gin", "undercut", "dead"):
        assert ends[kind] > 0, ends
    if rules == Rules():
        assert ends["repeated"] > 0, ends


def test_straight_gin_ends_only_by_gin_or_a_dead_hand() -> None:
    ends = _play_against_engine(Rules(straight_gin=True), 32, 200, seed=3)
    assert set(ends) <= {"gin", "dead", "repeated"} and ends["dead"] > 0


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    b = FastHandBatch(3, seed=4)
    obs, masks, hands = b.obs.copy(), b.masks.copy(), b.hands.copy()
    bad = b.masks.argmax(axis=1)
    bad[1] = 52  # the stock, on the first turn: only the upcard offer (pile or pass)
    with pytest.raises(IllegalActionError, match="hand 1: action 52 is not legal"):
        b.step(bad)
    with pytest.raises(IllegalActionError, match="hand 0: action 9999"):
        b.step([9999, 53, 53])
    np.testing.assert_array_equal(b.obs, obs)
    np.testing.assert_array_equal(b.masks, masks)
    np.testing.assert_array_equal(b.hands, hands)


def test_the_same_seed_plays_the_same_hands() -> None:
    def run(seed: int) -> list[tuple[float, float]]:
        b = FastHandBatch(16, seed=seed)
        gen = np.random.default_rng(0)
        for _ in range(300):
            b.step(b.random_actions(gen))
        return b.returns

    assert run(1) == run(1) and run(1) != run(2)


def test_random_actions_are_legal_and_cover_the_choices() -> None:
    b = FastHandBatch(64, seed=5)
    gen = np.random.default_rng(5)
    seen = set()
    for _ in range(200):
        a = b.random_actions(gen)
        assert b.masks[np.arange(64), a].all()
        seen.update(a.tolist())
        b.step(a)
    assert {52, 53, 54} <= seen and len(seen & set(range(52))) == 52


@pytest.mark.parametrize("flag", [{"big_gin": True}, {"last_chance": True}, {"throw_back": True}, {"upcard": False}])
def test_rule_sets_it_does_not_play_are_refused(flag: dict[str, bool]) -> None:
    with pytest.raises(ValueError, match="use HandBatch"):
        FastHandBatch(2, Rules(**flag))


def test_the_incremental_observation_is_the_fresh_one_on_every_step() -> None:
    rng = random.Random(6)
    for cfg in (EnvConfig.make(), EnvConfig.make("eaai", episode="game"), EnvConfig.make(auto_layout=True)):
        mine = [ObservationEncoder(), ObservationEncoder()]
        anyone = ObservationEncoder()  # one encoder fed both seats' views in turn
        ep = Episode(cfg, 1)
        for _ in range(1500):
            if ep.over:
                ep = Episode(cfg, rng.getrandbits(63))
            for seat in (0, 1):
                v = ep.view(seat)
                fresh = encode_observation(v)
                a, b = mine[seat].observation(v), anyone.observation(v)
                np.testing.assert_array_equal(a, fresh)
                np.testing.assert_array_equal(b, fresh)
                a[:] = -1.0  # the arrays handed out are copies: changing one changes nothing after
            ep.step(rng.choice(ep.view(ep.current).legal).code)


def test_the_aec_environment_observes_through_the_encoder() -> None:
    env = gin_rummy_v0.raw_env()
    env.reset(seed=3)
    rng = random.Random(3)
    for _ in range(400):
        if env.episode.over:
            env.reset()
        for agent in env.agents:
            obs = env.observe(agent)
            np.testing.assert_array_equal(obs["observation"], encode_observation(env.episode.view(env.agents.index(agent))))
        obs = env.observe(env.agent_selection)
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
