"""What happens to an illegal action: a policy in a wrapper, never in the engine.

The engine refuses an illegal action (``IllegalActionError``, naming the rule) and the plain
environments pass that on. :class:`IllegalActionWrapper` decides instead, from the action mask
of the last observation (which is ``Hand.legal_actions()``):

==========  ==========================================================================
policy      an illegal action (or one outside the action space)
==========  ==========================================================================
``lose``    ends the episode: reward ``illegal_reward`` (default -100), ``terminated``,
            ``info["illegal"]`` the action; the next call must be ``reset``
``random``  is replaced by a legal action drawn uniformly (from the wrapper's own
            generator, seeded by ``reset(seed=...)``); ``info["illegal"]`` the action
``raise``   is passed to the environment, which raises the engine's error
==========  ==========================================================================

PettingZoo's AEC environment uses PettingZoo's own ``TerminateIllegalWrapper`` for ``lose``.
"""

from __future__ import annotations

from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np

from ..errors import IllegalActionError

POLICIES = ("lose", "random", "raise")
Obs = dict[str, Any]


class IllegalActionWrapper(gym.Wrapper[Obs, Any, Obs, Any]):
    """Apply ``policy`` (``lose``, ``random`` or ``raise``) to illegal actions; see the module docstring."""

    def __init__(self, env: gym.Env[Obs, Any], policy: str = "lose", illegal_reward: float = -100.0) -> None:
        if policy not in POLICIES:
            raise ValueError(f"illegal-action policy must be one of {', '.join(POLICIES)}, not {policy!r}")
        super().__init__(env)
        self.policy = policy
        self.illegal_reward = float(illegal_reward)
        self._mask: np.ndarray | None = None
        self._last: Obs | None = None
        self._ended = False
        self._rng = np.random.default_rng()

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Obs, dict[str, Any]]:
        obs, info = self.env.reset(seed=seed, options=options)
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self._keep(obs)
        self._ended = False
        return obs, info

    def step(self, action: Any) -> tuple[Obs, SupportsFloat, bool, bool, dict[str, Any]]:
        if self._ended:
            raise IllegalActionError("the episode ended on an illegal action: reset the environment", rule="hand_over")
        mask = self._mask
        legal = mask is not None and _allowed(mask, action)
        if legal or self.policy == "raise" or mask is None:
            obs, reward, terminated, truncated, info = self.env.step(action)
        elif self.policy == "random":
            choices = np.flatnonzero(mask)
            replacement = int(choices[self._rng.integers(len(choices))])
            obs, reward, terminated, truncated, info = self.env.step(replacement)
            info = {**info, "illegal": _plain(action)}
        else:
            assert self._last is not None
            self._ended = True
            obs = {k: v.copy() for k, v in self._last.items()}
            obs["action_mask"].fill(0)
            return obs, self.illegal_reward, True, False, {"illegal": _plain(action)}
        self._keep(obs)
        return obs, reward, terminated, truncated, info

    def _keep(self, obs: Obs) -> None:
        self._last = obs
        self._mask = obs["action_mask"]


def _allowed(mask: np.ndarray, action: Any) -> bool:
    try:
        a = int(action)
    except (TypeError, ValueError):
        return False
    return 0 <= a < len(mask) and bool(mask[a])


def _plain(action: Any) -> Any:
    try:
        return int(action)
    except (TypeError, ValueError):
        return repr(action)


__all__ = ["POLICIES", "IllegalActionWrapper"]
