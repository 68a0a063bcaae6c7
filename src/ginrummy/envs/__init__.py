"""Environments for reinforcement learning and game-theory research, on the exact engine.

- :mod:`ginrummy.envs.gin_rummy_v0`: a PettingZoo AEC environment for two seats.
- :class:`~ginrummy.envs.single.GinRummyEnv`: a Gymnasium single-agent environment, you against a
  built-in player; registered as ``GinRummy-v0`` (``gymnasium.make("GinRummy-v0")`` once this
  package is imported, or ``gymnasium.make("ginrummy.envs:GinRummy-v0")``).
- :mod:`ginrummy.envs.encoding`: the observation's named pieces, the perfect-recall information
  state and the action mask, with their tables.
- :mod:`ginrummy.envs.game`: the episode (one hand or a whole game) and its reward options.

Everything a seat is shown comes from its :class:`~ginrummy.observation.SeatView`, and every
legal action from ``Hand.legal_actions()``: the environments re-implement no rule. Needs the
``envs`` extra (``pip install 'ginrummy[envs]'``: gymnasium and pettingzoo).
"""

from __future__ import annotations

import gymnasium

from . import gin_rummy_v0
from .encoding import OBSERVATION_PIECES, OBSERVATION_SIZE, action_mask, encode_info_state, encode_observation, pieces
from .game import EnvConfig, Episode
from .single import GinRummyEnv, make_env
from .wrappers import IllegalActionWrapper

ENV_ID = "GinRummy-v0"

if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="ginrummy.envs.single:make_env")

__all__ = [
    "ENV_ID",
    "OBSERVATION_PIECES",
    "OBSERVATION_SIZE",
    "EnvConfig",
    "Episode",
    "GinRummyEnv",
    "IllegalActionWrapper",
    "action_mask",
    "encode_info_state",
    "encode_observation",
    "gin_rummy_v0",
    "make_env",
    "pieces",
]
