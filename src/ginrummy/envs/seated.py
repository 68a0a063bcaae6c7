"""``gin_rummy_v0`` with three or four players: ``gin_rummy_v0.env(players=3)`` (or 4).

The agents ``player_0`` .. ``player_{n-1}`` are the seats of a :class:`~ginrummy.game.Game`
(RULES.md "Three and four players": with three, the dealer sits each hand out; with four, two
tables of two play at once, partners p0+p2 against p1+p3). An episode is the whole game. The
seat to act is one of ``Game.to_act`` (with two tables in progress they take turns, a step at
each). A seat that sits the current deal out, or that is not the one to act, has an all-zero
action mask; a seat that sits the deal out also has an all-zero observation: it sees no card of
a hand it does not play (the game's views hold none). A seated observation is the two-player
layout (:mod:`ginrummy.envs.encoding`) of that seat's view of its own hand, its scores piece the
game score of the two at its table (with four: their teams').

Rewards come at the end, zero-sum: with three players each seat gets its final total minus the
mean of the other two; with four, each seat gets its team's final total minus the other team's.
A hand with more than ``max_moves`` steps truncates the episode. ``auto_layout`` plays the
engine's default layouts after a knock. Info states, shaping and per-hand rewards are two-player
options only.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..actions import NUM_ACTIONS, Action
from ..events import LAYOUT_PHASES
from ..game import Game
from ..layout import layout_action
from ..rules import Rules
from .encoding import OBSERVATION_SIZE, action_mask, encode_observation
from .game import EnvConfig
from .render import render_view
from .spaces import observation_space


class SeatedEnv(AECEnv):  # type: ignore[misc]  # PettingZoo's classes are untyped
    """The AEC environment for three or four players (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "name": "gin_rummy_v0", "is_parallelizable": False, "render_fps": 1}

    def __init__(self, players: int, rules: Rules | str | dict[str, Any] | None = None,
                 render_mode: str | None = None, **options: Any) -> None:
        super().__init__()
        if players not in (3, 4):
            raise ValueError(f"players must be 2, 3 or 4, not {players!r}")
        for name in ("info_state", "shaping"):
            if options.get(name):
                raise ValueError(f"{name} is a two-player option (players=2)")
        for name in ("episode", "reward"):
            if options.get(name, "game") != "game":
                raise ValueError(f"with {players} players an episode is the whole game: {name} must be 'game'")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.config = EnvConfig.make(rules, **{k: v for k, v in options.items() if k not in ("episode", "reward")})
        self.players = players
        self.render_mode = render_mode
        self.possible_agents = [f"player_{k}" for k in range(players)]
        space = observation_space(self.config)
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self._rng = random.Random()
        self._game: Game | None = None
        self._table = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def game(self) -> Game:
        """The game being played (after ``reset``)."""
        if self._game is None:
            raise RuntimeError("call reset() before using the environment")
        return self._game

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(f"gin_rummy_v0:{self.players}:{seed}")
        self._game = Game(self.config.rules, players=self.possible_agents, seed=self._rng.getrandbits(63))
        self._game.deal()
        self._table = 0
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._auto()
        self._select()

    def _select(self) -> None:
        """The next seat to act: at the next table in progress after the last one that acted."""
        g = self.game
        tables = [t for t, h in enumerate(g.tables) if not h.is_over]
        t = next((t for t in tables if t > self._table), tables[0])
        self._table = t
        h = g.tables[t]
        self.agent_selection = self.possible_agents[g.current_pairings[t].seats[h.current]]

    def _auto(self) -> None:
        """Lay out by the engine's default when ``auto_layout`` is on (every table)."""
        if not self.config.auto_layout:
            return
        g = self.game
        for t, h in enumerate(g.tables):
            while not h.is_over and h.phase in LAYOUT_PHASES:
                g.apply(layout_action(h.observation(h.current)), t)
        if not g.is_over and not g.in_progress:
            g.deal()
            self._auto()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        g = self.game
        if g.where(seat) is None:  # sitting this deal out: nothing of its hands
            return {"observation": np.zeros(OBSERVATION_SIZE, dtype=np.float32),
                    "action_mask": np.zeros(NUM_ACTIONS, dtype=np.int8)}
        view = g.view(seat)
        mask = action_mask(view)
        if agent != self.agent_selection or self.terminations[agent] or self.truncations[agent]:
            mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        return {"observation": encode_observation(view), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act now: None is only for a finished agent")
        g = self.game
        seat = self.possible_agents.index(agent)
        g.act(seat, Action.from_int(int(action)))
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        h = g.tables[self._table]
        if not h.is_over and len(h.history) >= self.config.max_moves:
            self.truncations = dict.fromkeys(self.agents, True)
        else:
            if not g.is_over and not g.in_progress:
                g.deal()
            self._auto()
            if g.is_over:
                self.rewards = self._final_rewards()
                self.terminations = dict.fromkeys(self.agents, True)
            else:
                self._select()
        self._accumulate_rewards()

    def _final_rewards(self) -> dict[str, float]:
        totals = self.game.final().totals
        out = {}
        for seat, agent in enumerate(self.possible_agents):
            if self.players == 4:
                mine = seat % 2
                out[agent] = float(totals[mine] - totals[1 - mine])
            else:
                others = [totals[s] for s in range(3) if s != seat]
                out[agent] = float(totals[seat] - sum(others) / 2)
        return out

    def render(self) -> str | None:
        """The seat to act's view as text (``ansi``): only what that seat may see."""
        if self.render_mode is None:
            return None
        return render_view(self.game.view(self.possible_agents.index(self.agent_selection)))

    def close(self) -> None:
        pass


__all__ = ["SeatedEnv"]
