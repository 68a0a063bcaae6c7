"""``GinRummy-v0`` with three or four players: you at one seat, built-in players at the others.

    env = gymnasium.make("GinRummy-v0", players=3, opponents=["simple", "expert"])
    obs, info = env.reset(seed=7)

The game is :mod:`ginrummy.envs.seated`'s (the AEC environment ``gin_rummy_v0.env(players=3|4)``),
which this one steps: after the agent's action the other seats' players act, at every table,
until the agent acts again or the game ends. An episode is the whole game; the reward comes at
its end and is the AEC environment's (three players: the agent's total minus the mean of the
other two; four: its team's total minus the other team's). With four players seat ``s`` and seat
``(s + 2) % 4`` are partners: the partner is a built-in player too.

``opponent`` names one built-in player (or gives a :class:`~ginrummy.players.base.Player`) for
every other seat; ``opponents`` gives one per other seat, in seat order after the agent's. Each
decides from its own seat's view only and is told each hand it plays (``new_hand``) and shown its
final view (``hand_over``), as in the arena. ``seat`` fixes the agent's seat (default: drawn at
each reset from the seed). ``info`` holds ``seat`` and ``scores`` (the ledger's columns: players,
or the two teams). Illegal actions: the same wrapper as two players (:mod:`ginrummy.envs.wrappers`).
"""

from __future__ import annotations

from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np

from ..actions import NUM_ACTIONS
from ..errors import IllegalActionError
from ..game import Game
from ..hand import Hand
from ..players import get_player
from ..players.base import Player
from ..rules import Rules
from .render import render_view
from .seated import SeatedEnv

Obs = dict[str, Any]
PlayerSpec = str | Player


class SeatedGinRummyEnv(gym.Env[Obs, Any]):
    """One seat of a three- or four-player game against built-in players (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(
        self,
        players: int,
        rules: Rules | str | dict[str, Any] | None = None,
        opponent: PlayerSpec = "simple",
        opponents: list[PlayerSpec] | tuple[PlayerSpec, ...] | None = None,
        seat: int | None = None,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        self._aec = SeatedEnv(players, rules, render_mode=render_mode, **options)
        if seat is not None and (isinstance(seat, bool) or seat not in range(players)):
            raise ValueError(f"seat must be one of 0 to {players - 1} or None (drawn at each reset), not {seat!r}")
        specs = list(opponents) if opponents is not None else [opponent] * (players - 1)
        if len(specs) != players - 1:
            raise ValueError(f"opponents: {players} players need {players - 1} other players, not {len(specs)}")
        for spec in specs:
            if isinstance(spec, str):
                get_player(spec)  # an unknown name is refused now, naming the choices
            elif not isinstance(spec, Player):
                raise ValueError(f"an opponent is a built-in player's name or a Player, not {spec!r}")
        self.players = players
        self.config = self._aec.config
        self.opponent_specs = specs
        self.fixed_seat = seat
        self.render_mode = render_mode
        self.observation_space = self._aec.observation_space("player_0")
        self.action_space = gym.spaces.Discrete(NUM_ACTIONS)
        self.seat = 0 if seat is None else seat
        self._others: dict[int, Player] = {}
        self._told = 0  # hands of the game whose players have been told new_hand

    @property
    def game(self) -> Game:
        """The game being played (after ``reset``)."""
        return self._aec.game

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Obs, dict[str, Any]]:
        super().reset(seed=seed)
        rng = self.np_random
        while True:
            self.seat = int(rng.integers(self.players)) if self.fixed_seat is None else self.fixed_seat
            others = [s for s in range(self.players) if s != self.seat]
            self._others = {}
            for s, spec in zip(others, self.opponent_specs, strict=True):
                self._others[s] = get_player(spec, seed=int(rng.integers(2**63))) if isinstance(spec, str) else spec
            self._aec.reset(seed=int(rng.integers(2**63)))
            self._told = 0
            self.game.on_hand_end = self._hand_over
            self._others_move()
            if not self._over():  # a game that ended before the agent's first decision is dealt again
                return self._obs(), self._info()

    def step(self, action: Any) -> tuple[Obs, SupportsFloat, bool, bool, dict[str, Any]]:
        aec = self._aec
        me = self._agent()
        if self._over():
            raise IllegalActionError("the game is over: reset the environment", rule="game_over")
        if aec.agent_selection != me:
            raise IllegalActionError("not your turn", rule="turn")  # cannot happen between steps
        aec.step(int(action))
        reward = aec.rewards[me]
        reward += self._others_move()
        return self._obs(), float(reward), bool(aec.terminations[me]), bool(aec.truncations[me]), self._info()

    def render(self) -> str | None:
        """The agent's view as text (``ansi``), or that it sits the deal out."""
        if self.render_mode is None:
            return None
        g = self.game
        if g.where(self.seat) is None:
            return f"{g.players[self.seat]} sits this hand out."
        return render_view(g.view(self.seat))

    def close(self) -> None:
        self._aec.close()

    # -- internals ----------------------------------------------------------------------------

    def _agent(self) -> str:
        return self._aec.possible_agents[self.seat]

    def _over(self) -> bool:
        me = self._agent()
        return bool(self._aec.terminations[me] or self._aec.truncations[me])

    def _obs(self) -> Obs:
        obs = self._aec.observe(self._agent())
        return {"observation": obs["observation"], "action_mask": obs["action_mask"]}

    def _info(self) -> dict[str, Any]:
        return {"seat": self.seat, "scores": np.array(self.game.scores, dtype=np.int64)}

    def _others_move(self) -> float:
        """The other seats act until the agent does or the game ends; the agent's reward meanwhile."""
        aec = self._aec
        me = self._agent()
        total = 0.0
        self._tell_new_hands()
        while not self._over() and aec.agent_selection != me:
            seat = aec.possible_agents.index(aec.agent_selection)
            action = self._others[seat].decide(self.game.view(seat))
            aec.step(int(action))
            total += aec.rewards[me]
            self._tell_new_hands()
        return total

    def _tell_new_hands(self) -> None:
        """``new_hand(hand seat)`` to each built-in player of every hand dealt since the last call."""
        g = self.game
        while self._told < len(g.hands):
            for hand_seat, seat in enumerate(g.pairings[self._told].seats):
                if seat in self._others:
                    self._others[seat].new_hand(hand_seat)
            self._told += 1

    def _hand_over(self, game: Game, hand: Hand) -> None:
        """A hand has ended (``Game.on_hand_end``): show its built-in players their final views."""
        index = next(i for i in range(len(game.hands) - 1, -1, -1) if game.hands[i] is hand)
        pairing = game.pairings[index]
        table = next(t for t, h in enumerate(game.tables) if h is hand)
        scores = game.hand_scores(table)
        for hand_seat, seat in enumerate(pairing.seats):
            if seat in self._others:
                self._others[seat].hand_over(hand.observation(hand_seat, scores=scores))


__all__ = ["SeatedGinRummyEnv"]
