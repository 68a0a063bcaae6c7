"""The batched environments give what the one-at-a-time ones give, for the same seeds and actions."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.vector import SyncVectorEnv

from ginrummy.envs import GinRummyEnv
from ginrummy.envs.encoding import action_masks, encode_observation, encode_observations
from ginrummy.envs.game import EnvConfig, Episode
from ginrummy.envs.vector import GinRummyVectorEnv, HandBatch
from ginrummy.hand import new_hand
from ginrummy.observation import observe
from ginrummy.players import get_player
from ginrummy.rules import Rules


def _same(a: object, b: object) -> None:
    if isinstance(a, dict):
        assert isinstance(b, dict) and set(a) == set(b), (a, b)
        for k in a:
            _same(a[k], b[k])
    else:
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("options", [{"opponent": "simple"}, {"opponent": "greedy", "episode": "game", "rules": "eaai",
                                                                "info_state": True, "max_moves": 200}])
def test_the_vector_env_equals_gymnasiums_sync_vector_env(options: dict[str, object]) -> None:
    n = 4
    ours = GinRummyVectorEnv(n, **options)
    theirs = SyncVectorEnv([lambda: GinRummyEnv(**options) for _ in range(n)])  # type: ignore[misc]
    o1, i1 = ours.reset(seed=21)
    o2, i2 = theirs.reset(seed=21)
    _same(o1, o2)
    _same(i1, i2)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(300):
        mask = o1["action_mask"]
        acts = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask])
        o1, r1, t1, u1, i1 = ours.step(acts)
        o2, r2, t2, u2, i2 = theirs.step(acts)
        _same(o1, o2)
        _same((r1, t1, u1), (r2, t2, u2))
        _same(i1, i2)
        ended += int(t1.sum())
    assert ended >= 4


def test_batched_encodings_equal_one_by_one() -> None:
    rng = np.random.default_rng(1)
    views = []
    for i in range(60):
        h = new_hand(Rules.preset("eaai"), i % 2, seed=i)
        for _ in range(int(rng.integers(0, 150))):
            if h.is_over:
                break
            legal = h.legal_actions()
            h.apply(legal[int(rng.integers(len(legal)))])
        views.append(observe(h, i % 2))
    obs = encode_observations(views)
    masks = action_masks(views)
    for i, v in enumerate(views):
        np.testing.assert_array_equal(obs[i], encode_observation(v))
        assert [int(a) for a in v.legal] == [int(x) for x in np.flatnonzero(masks[i])]


def test_a_hand_batch_plays_episodes_like_the_single_episode() -> None:
    batch = HandBatch(3, seed=5, episode="hand")
    players = [get_player("simple", seed=1), get_player("simple", seed=2)]
    # Replay each of the batch's episodes alone, from the same seed, with the same actions.
    seeds = [ep.match.seed for ep in batch.episodes]
    alone = [Episode(EnvConfig(), s) for s in seeds]
    totals = np.zeros((3, 2))
    batch_totals = np.zeros((3, 2))
    finished: list[object] = [None, None, None]
    while any(f is None for f in finished):
        acts = []
        for i, ep in enumerate(batch.episodes):
            acts.append(int(players[ep.current].decide(ep.view(ep.current))))
            assert batch.seats[i] == ep.current
            np.testing.assert_array_equal(batch.obs[i], encode_observation(ep.view(ep.current)))
        live = [finished[i] is None for i in range(3)]
        for i in range(3):
            if live[i]:
                totals[i] += alone[i].step(acts[i])
        rewards, done = batch.step(acts)
        for i in range(3):
            if live[i]:
                batch_totals[i] += rewards[i]
                assert bool(done[i]) == alone[i].over
                if done[i]:
                    finished[i] = tuple(totals[i])
                    assert tuple(batch_totals[i]) == finished[i] and finished[i] in batch.returns
    assert batch.episodes_done >= 3


def test_hand_batch_deadwood_is_the_engines() -> None:
    from ginrummy.melds import deadwood

    batch = HandBatch(5, seed=2)
    assert batch.deadwood().tolist() == [deadwood(ep.hand.hands[ep.current]) for ep in batch.episodes]
