"""Gymnasium environment ``GinRummy-v0``: you against a built-in player, on the exact engine.

    import gymnasium, ginrummy.envs
    env = gymnasium.make("GinRummy-v0", opponent="simple", rules="eaai")
    obs, info = env.reset(seed=7)
    obs, reward, terminated, truncated, info = env.step(int(obs["action_mask"].argmax()))

With ``players=3`` or ``4`` the same id makes :class:`~ginrummy.envs.seated_single.SeatedGinRummyEnv`
(one seat against built-in players at the others, the whole game an episode).

With two, the agent plays one seat (``seat=0`` or ``1``; by default drawn at each reset from the
seed); the opponent is a built-in player by name (``random``, ``easy``, ``simple``, ``greedy``,
``expert``) or any :class:`~ginrummy.players.base.Player`, and decides from its own seat's view
only. Each ``step`` plays the agent's action, then the opponent's moves until the agent acts again
or the episode ends; the reward is the agent's share of what those steps paid (rewards and the
other options: :mod:`ginrummy.envs.game`; observations: :mod:`ginrummy.envs.encoding`). ``info``
holds ``seat`` and, when a hand has just ended, ``result`` (its kind: knock, undercut, gin, big_gin
or dead) and ``hand_points`` (its points for the agent: won positive, lost negative), plain
values that Gymnasium's vector environments can stack.

:class:`GinRummyEnv` itself raises the engine's :class:`~ginrummy.errors.IllegalActionError`
on an illegal action and changes nothing; ``gymnasium.make("GinRummy-v0")`` (:func:`make_env`)
wraps it in :class:`~ginrummy.envs.wrappers.IllegalActionWrapper` with ``illegal="lose"`` by
default (the episode ends with ``illegal_reward``, -100); ``illegal="random"`` plays a random
legal action instead and ``illegal="raise"`` leaves the error to the caller.

An episode starts with the agent's first decision: with ``auto_layout`` a one-hand episode can end
before it (the opponent takes the upcard and knocks at once); such a deal is replaced by the next
one from the seed.
"""

from __future__ import annotations

from typing import Any, SupportsFloat

import gymnasium as gym

from ..actions import NUM_ACTIONS
from ..errors import IllegalActionError
from ..observation import SeatView, observe
from ..players import get_player
from ..players.base import Player
from ..rules import Rules
from .encoding import InfoStateEncoder, ObservationEncoder
from .game import EnvConfig, Episode
from .render import render_view
from .spaces import observation_space, observe_seat
from .wrappers import IllegalActionWrapper

Obs = dict[str, Any]


class GinRummyEnv(gym.Env[Obs, Any]):
    """One seat of a two-player game against a built-in player (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(
        self,
        rules: Rules | str | dict[str, Any] | None = None,
        opponent: str | Player = "simple",
        seat: int | None = None,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        if seat not in (None, 0, 1):
            raise ValueError(f"seat must be 0, 1 or None (drawn at each reset), not {seat!r}")
        if isinstance(opponent, str):
            get_player(opponent)  # an unknown name is refused now, naming the choices
        self.config = EnvConfig.make(rules, **options)
        self.opponent_spec = opponent
        self.fixed_seat = seat
        self.render_mode = render_mode
        space = observation_space(self.config)
        self.observation_space = space
        self.action_space = gym.spaces.Discrete(NUM_ACTIONS)
        self._episode: Episode | None = None
        self._opponent: Player | None = None
        self._encoder: InfoStateEncoder | None = None
        self._observer = ObservationEncoder()
        self._hands_seen = 0
        self._hands_over = 0
        self.seat = 0 if seat is None else seat

    @property
    def episode(self) -> Episode:
        if self._episode is None:
            raise RuntimeError("call reset() before using the environment")
        return self._episode

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Obs, dict[str, Any]]:
        info = self.begin(seed)
        return self._obs(), info

    def step(self, action: int) -> tuple[Obs, SupportsFloat, bool, bool, dict[str, Any]]:
        reward, terminated, truncated, info = self.advance(action)
        return self._obs(), reward, terminated, truncated, info

    def begin(self, seed: int | None = None) -> dict[str, Any]:
        """``reset`` without building the observation (the vector environment builds them all at
        once); returns the info."""
        super().reset(seed=seed)
        rng = self.np_random
        while True:
            match_seed = int(rng.integers(2**63))
            player_seed = int(rng.integers(2**63))
            self.seat = int(rng.integers(2)) if self.fixed_seat is None else self.fixed_seat
            spec = self.opponent_spec
            self._opponent = get_player(spec, seed=player_seed) if isinstance(spec, str) else spec
            self._episode = Episode(self.config, match_seed)
            self._encoder = InfoStateEncoder(self.config.max_moves) if self.config.info_state else None
            self._hands_seen = 0
            self._hands_over = 0
            info: dict[str, Any] = {"seat": self.seat}
            self._opponent_moves(info)
            # With automatic layouts a hand can end before the agent acts (the opponent takes the
            # upcard and knocks): an episode must start with a decision, so that one is dealt again.
            if not self.episode.over:
                return info

    def advance(self, action: int) -> tuple[float, bool, bool, dict[str, Any]]:
        """``step`` without building the observation: (reward, terminated, truncated, info)."""
        ep = self.episode
        if not ep.over and ep.current != self.seat:
            raise IllegalActionError("not your turn", rule="turn")  # cannot happen between steps
        info: dict[str, Any] = {"seat": self.seat}
        rewards = ep.step(int(action))
        reward = rewards[self.seat]
        self._note_hand(info)
        reward += self._opponent_moves(info)
        return float(reward), ep.terminated, ep.truncated, info

    def agent_view(self) -> SeatView:
        """The agent's view now (what its observation is built from)."""
        return self.episode.view(self.seat)

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return render_view(self.episode.view(self.seat))

    def close(self) -> None:
        pass

    # -- internals ----------------------------------------------------------------------------

    def _obs(self) -> Obs:
        return observe_seat(self.episode, self.seat, self._encoder, self._observer)

    def _opponent_moves(self, info: dict[str, Any]) -> float:
        """Play the opponent until the agent acts or the episode ends; the agent's reward."""
        ep = self.episode
        opp = 1 - self.seat
        player = self._opponent
        assert player is not None
        total = 0.0
        self._note_hand(info)
        while not ep.over and ep.current == opp:
            action = player.decide(ep.view(opp))
            total += ep.step(int(action))[self.seat]
            self._note_hand(info)
        return total

    def _note_hand(self, info: dict[str, Any]) -> None:
        """Tell the opponent of each finished hand (``hand_over``) and each new one (``new_hand``),
        as the driver does; a finished hand's result goes in ``info``."""
        ep = self.episode
        player = self._opponent
        assert player is not None
        opp = 1 - self.seat
        hands = ep.match.hands
        while self._hands_over < len(hands) and hands[self._hands_over].is_over:
            h = hands[self._hands_over]
            r = h.result
            assert r is not None
            info["result"] = r.kind
            info["hand_points"] = 0 if r.winner is None else r.points if r.winner == self.seat else -r.points
            player.hand_over(observe(h, opp, ep.match.scores))
            self._hands_over += 1
        while self._hands_seen < len(hands):
            player.new_hand(opp)
            self._hands_seen += 1


def make_env(illegal: str = "lose", illegal_reward: float = -100.0, players: int = 2, **kwargs: Any) -> gym.Env[Obs, Any]:
    """``GinRummy-v0``: :class:`GinRummyEnv` (``kwargs``), or with ``players=3`` or ``4``
    :class:`~ginrummy.envs.seated_single.SeatedGinRummyEnv`, inside the illegal-action wrapper."""
    if players == 2:
        env: gym.Env[Obs, Any] = GinRummyEnv(**kwargs)
    else:
        from .seated_single import SeatedGinRummyEnv

        env = SeatedGinRummyEnv(players, **kwargs)
    return IllegalActionWrapper(env, policy=illegal, illegal_reward=illegal_reward)


__all__ = ["GinRummyEnv", "make_env"]
