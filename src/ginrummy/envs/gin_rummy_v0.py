"""PettingZoo AEC environment ``gin_rummy_v0``: two seats, any rule set, the exact engine.

    from ginrummy.envs import gin_rummy_v0
    env = gin_rummy_v0.env(rules="eaai", episode="game")
    env.reset(seed=7)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else policy(obs["observation"], obs["action_mask"])
        env.step(action)

``players=3`` or ``4`` plays a three- or four-player game instead (:mod:`ginrummy.envs.seated`).
Agents ``player_0`` and ``player_1`` are the engine's seats 0 and 1; ``agent_selection`` is
the seat to act (the same seat acts twice in a row when it draws then discards, and through
its layout). Each observation is a dict: ``observation`` (the named pieces, see
:mod:`ginrummy.envs.encoding`), ``action_mask`` (int8, 1 at each legal action) and, with
``info_state=True``, ``info_state`` (the perfect-recall tensor). Options are
:class:`~ginrummy.envs.game.EnvConfig`'s (episode, reward, shaping, auto_layout, info_state,
max_moves) and ``rules`` (a Rules, a preset name or its JSON); they survive ``reset``, and
``reset(seed=s)`` deals the same game for the same ``s``.

``env()`` wraps the raw environment as PettingZoo's classic games are: an illegal action
ends the game with ``illegal_reward`` (default -100) for the seat that played it and 0 for the
other (PettingZoo's ``TerminateIllegalWrapper``), an action out of range is an error, and the
API order is enforced. ``raw_env()`` raises the engine's :class:`IllegalActionError` instead.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..actions import NUM_ACTIONS
from ..rules import Rules
from .encoding import InfoStateEncoder, ObservationEncoder
from .game import EnvConfig, Episode
from .render import render_view
from .spaces import observation_space, observe_seat

AGENTS = ("player_0", "player_1")
DEFAULT_ILLEGAL_REWARD = -100.0


class raw_env(AECEnv):  # type: ignore[misc]  # noqa: N801 - PettingZoo's name (its classes are untyped)
    """The AEC environment without wrappers (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "name": "gin_rummy_v0", "is_parallelizable": False, "render_fps": 1}

    def __new__(cls, *args: Any, players: int = 2, **kwargs: Any) -> Any:
        """``players=3`` or ``4`` gives the seated game's environment (:mod:`ginrummy.envs.seated`)."""
        if players == 2:
            return super().__new__(cls)
        from .seated import SeatedEnv

        return SeatedEnv(players, *args, **kwargs)

    def __init__(self, rules: Rules | str | dict[str, Any] | None = None, render_mode: str | None = None,
                 players: int = 2, **options: Any) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.config = EnvConfig.make(rules, **options)
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        space = observation_space(self.config)
        self.observation_spaces = {a: space for a in AGENTS}
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in AGENTS}
        self._rng = random.Random()
        self._episode: Episode | None = None
        self._encoders: list[InfoStateEncoder] | None = None
        #: Each seat's observation, kept from step to step (only what changed is rewritten).
        self._observers = [ObservationEncoder() for _ in AGENTS]

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def episode(self) -> Episode:
        """The episode being played (after ``reset``)."""
        if self._episode is None:
            raise RuntimeError("call reset() before using the environment")
        return self._episode

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(f"gin_rummy_v0:{seed}")
        self._episode = Episode(self.config, self._rng.getrandbits(63))
        if self.config.info_state:
            self._encoders = [InfoStateEncoder(self.config.max_moves) for _ in AGENTS]
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        self.agent_selection = AGENTS[self._episode.current]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = AGENTS.index(agent)
        return observe_seat(self.episode, seat, None if self._encoders is None else self._encoders[seat],
                            self._observers[seat])

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act now: None is only for a finished agent")
        ep = self.episode
        r0, r1 = ep.step(int(action))
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {AGENTS[0]: r0, AGENTS[1]: r1}
        if ep.over:
            self.terminations = dict.fromkeys(self.agents, ep.terminated)
            self.truncations = dict.fromkeys(self.agents, ep.truncated)
        else:
            self.agent_selection = AGENTS[ep.current]
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The seat to act's view as text (``ansi``): only what that seat may see."""
        if self.render_mode is None:
            return None
        ep = self.episode
        seat = AGENTS.index(self.agent_selection)
        return render_view(ep.view(seat))

    def close(self) -> None:
        pass


def env(illegal_reward: float = DEFAULT_ILLEGAL_REWARD, **kwargs: Any) -> Any:
    """The wrapped environment (see the module docstring); ``kwargs`` go to :class:`raw_env`."""
    e = raw_env(**kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=illegal_reward)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


__all__ = ["AGENTS", "env", "raw_env"]
