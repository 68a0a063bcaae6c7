"""Many hands stepped together: batched observations for rollouts and reinforcement learning.

Each hand is still played by the engine (``Hand.legal_actions()`` and ``Hand.apply``: no rule is
re-implemented in numpy), but everything around it is done for the whole batch at once: the
observations (:func:`~ginrummy.envs.encoding.encode_observations`: one bit unpacking and one
scatter for every view), the action masks, and the deadwood of every hand
(:func:`ginrummy.batch.deadwood_batch`).

- :class:`GinRummyVectorEnv`: a Gymnasium ``VectorEnv`` of ``num_envs`` copies of ``GinRummy-v0``
  (you against a built-in player). It gives exactly what ``gymnasium.vector.SyncVectorEnv`` of
  :class:`~ginrummy.envs.single.GinRummyEnv` gives for the same seeds and actions (the tests
  check it), faster. Autoreset is Gymnasium's default, next-step: the action after an episode's
  end is ignored and that environment starts a new episode. An illegal action raises the
  engine's error (choose from ``obs["action_mask"]``).
- :class:`HandBatch`: ``n`` self-play episodes (both seats played by the caller), as PettingZoo's
  ``gin_rummy_v0`` but batched: ``obs`` and ``masks`` are those of the seat to act in each
  episode, ``seats`` says which seat that is; a finished episode is replaced by a new one at once
  and its total rewards are kept in ``returns``. For one-hand episodes under the common rule
  sets, :class:`~ginrummy.envs.fast.FastHandBatch` plays the same on numpy arrays, far faster.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space
from numpy.typing import NDArray

from ..batch import deadwood_batch
from ..players.base import Player
from ..rules import Rules
from .encoding import action_masks, encode_observations
from .game import EnvConfig, Episode
from .single import GinRummyEnv

Obs = dict[str, np.ndarray]


def _batched_obs(views: list[Any], infos: list[np.ndarray] | None) -> Obs:
    obs: Obs = {"observation": encode_observations(views), "action_mask": action_masks(views)}
    if infos is not None:
        obs["info_state"] = np.stack(infos)
    return obs


class GinRummyVectorEnv(VectorEnv[Obs, NDArray[np.int64], NDArray[Any]]):
    """``num_envs`` copies of ``GinRummy-v0`` stepped together (see the module docstring).

    ``kwargs`` are :class:`GinRummyEnv`'s (rules, opponent, seat, episode, reward, ...). An
    opponent given as a :class:`Player` object would be shared by every copy: give a name.
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, num_envs: int, **kwargs: Any) -> None:
        if not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a whole number of at least 1, not {num_envs!r}")
        if isinstance(kwargs.get("opponent"), Player) and num_envs > 1:
            raise ValueError("give the opponent by name: one Player object cannot play every copy")
        self.envs = [GinRummyEnv(**kwargs) for _ in range(num_envs)]
        self.num_envs = num_envs
        first = self.envs[0]
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(first.observation_space, num_envs)
        self.action_space = batch_space(first.action_space, num_envs)
        self.autoreset_mode = AutoresetMode.NEXT_STEP
        self._autoreset = np.zeros(num_envs, dtype=np.bool_)
        self._info_state = first.config.info_state

    def reset(self, *, seed: int | list[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[Obs, dict[str, Any]]:
        if seed is None:
            seeds: list[int | None] = [None] * self.num_envs
        elif isinstance(seed, int):
            seeds = [seed + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise ValueError(f"give {self.num_envs} seeds, not {len(seeds)}")
        infos: dict[str, Any] = {}
        for i, (env, s) in enumerate(zip(self.envs, seeds, strict=True)):
            infos = self._add_info(infos, env.begin(s), i)
        self._autoreset[:] = False
        return self._obs(), infos

    def step(
        self, actions: NDArray[np.int64]
    ) -> tuple[Obs, NDArray[np.float64], NDArray[np.bool_], NDArray[np.bool_], dict[str, Any]]:
        acts = np.asarray(actions).reshape(self.num_envs).tolist()
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        terminations = np.zeros(self.num_envs, dtype=np.bool_)
        truncations = np.zeros(self.num_envs, dtype=np.bool_)
        infos: dict[str, Any] = {}
        for i, env in enumerate(self.envs):
            if self._autoreset[i]:
                info = env.begin()
            else:
                rewards[i], terminations[i], truncations[i], info = env.advance(int(acts[i]))
            infos = self._add_info(infos, info, i)
        self._autoreset = terminations | truncations
        return self._obs(), rewards, terminations, truncations, infos

    def _obs(self) -> Obs:
        views = [env.agent_view() for env in self.envs]
        infos = None
        if self._info_state:
            infos = []
            for env, view in zip(self.envs, views, strict=True):
                enc = env._encoder  # noqa: SLF001 - the copies' own incremental encoders
                assert enc is not None
                infos.append(enc.encode(view))
        obs = _batched_obs(views, infos)
        for i, env in enumerate(self.envs):
            if env.episode.over:
                obs["action_mask"][i] = 0
        return obs

    def close_extras(self, **kwargs: Any) -> None:
        self.envs = []


class HandBatch:
    """``n`` self-play episodes stepped together (see the module docstring).

    >>> b = HandBatch(4, seed=1)
    >>> b.obs.shape, b.masks.shape, b.seats.tolist()  # the seat to act in each (the first dealers cut)
    ((4, 747), (4, 646), [0, 0, 0, 0])
    >>> _ = b.step(b.masks.argmax(axis=1))
    """

    def __init__(self, n: int, rules: Rules | str | dict[str, Any] | None = None, seed: int | None = None,
                 **options: Any) -> None:
        if not isinstance(n, int) or n < 1:
            raise ValueError(f"n must be a whole number of at least 1, not {n!r}")
        if options.get("info_state"):
            raise ValueError("HandBatch gives observations only; use GinRummyVectorEnv for info_state")
        self.config = EnvConfig.make(rules, **options)
        self.n = n
        self._rng = random.Random(f"HandBatch:{seed}") if seed is not None else random.Random()
        self.episodes = [self._new() for _ in range(n)]
        #: Each episode's rewards so far, by seat; ``returns`` keeps those of finished ones.
        self.totals = np.zeros((n, 2), dtype=np.float64)
        self.returns: list[tuple[float, float]] = []
        self.episodes_done = 0
        self._refresh()

    def _new(self) -> Episode:
        return Episode(self.config, self._rng.getrandbits(63))

    def _refresh(self) -> None:
        views = [ep.view(ep.current) for ep in self.episodes]
        #: The seat to act in each episode, its observation and its action mask.
        self.seats = np.array([v.seat for v in views], dtype=np.int8)
        self.obs = encode_observations(views)
        self.masks = action_masks(views)

    def deadwood(self) -> NDArray[np.int32]:
        """The deadwood of the acting seat's cards in each episode (``batch.deadwood_batch``)."""
        hands = np.array([ep.hand.hands[ep.current] for ep in self.episodes], dtype=np.uint64)
        return deadwood_batch(hands)

    def step(self, actions: NDArray[np.int64] | list[int]) -> tuple[NDArray[np.float64], NDArray[np.bool_]]:
        """Play one action in every episode (for its acting seat): the rewards (n, 2) of the step
        and which episodes ended (they are replaced by new ones)."""
        acts = np.asarray(actions).reshape(self.n).tolist()
        rewards = np.zeros((self.n, 2), dtype=np.float64)
        done = np.zeros(self.n, dtype=np.bool_)
        for i, ep in enumerate(self.episodes):
            rewards[i] = ep.step(int(acts[i]))
            if ep.over:
                done[i] = True
        self.totals += rewards
        for i in np.flatnonzero(done).tolist():
            self.returns.append((float(self.totals[i, 0]), float(self.totals[i, 1])))
            self.totals[i] = 0.0
            self.episodes[i] = self._new()
            self.episodes_done += 1
        self._refresh()
        return rewards, done


__all__ = ["GinRummyVectorEnv", "HandBatch"]
