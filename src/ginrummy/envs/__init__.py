"""Environments for reinforcement learning and game-theory research, on the exact engine.

- :mod:`ginrummy.envs.gin_rummy_v0`: a PettingZoo AEC environment for two seats (three or four:
  :mod:`ginrummy.envs.seated`).
- :class:`~ginrummy.envs.single.GinRummyEnv`: a Gymnasium single-agent environment, you against a
  built-in player; registered as ``GinRummy-v0`` (``gymnasium.make("GinRummy-v0")`` once this
  package is imported, or ``gymnasium.make("ginrummy.envs:GinRummy-v0")``); with ``players=3`` or
  ``4``, :class:`~ginrummy.envs.seated_single.SeatedGinRummyEnv`.
- :mod:`ginrummy.envs.vector`: many hands stepped together (a Gymnasium ``VectorEnv``, a batch).
- :class:`~ginrummy.envs.fast.FastHandBatch`: thousands of one-hand self-play episodes played by
  numpy, all hands at once (ten times OpenSpiel's steps per second and more; ``bench/envs.py``).
- :mod:`ginrummy.envs.openspiel`: the OpenSpiel game ``python_ginrummy``.
- :mod:`ginrummy.envs.encoding`: the observation's named pieces, the perfect-recall information
  state and the action mask, with their tables; :mod:`ginrummy.envs.game`: the episode (one hand
  or a whole game) and its reward options; :mod:`ginrummy.envs.resample`: deals a seat cannot
  tell from the real one.

Everything a seat is shown comes from its :class:`~ginrummy.observation.SeatView`, and every
legal action from ``Hand.legal_actions()``: the environments re-implement no rule, but for
``FastHandBatch``, which plays the offer, the draw and the discard on arrays for speed (its tests
replay thousands of its hands in the engine step by step and compare every mask, observation and
score; knocks are laid out and scored by the engine's functions). The Gymnasium
and PettingZoo parts need the ``envs`` extra (``pip install 'ginrummy[envs]'``), the OpenSpiel
game the ``peers`` extra; this package imports each only when it is used.
"""

from __future__ import annotations

import importlib
from typing import Any

from .encoding import OBSERVATION_PIECES, OBSERVATION_SIZE, action_mask, encode_info_state, encode_observation, pieces
from .game import EnvConfig, Episode

ENV_ID = "GinRummy-v0"

#: Names this package gives from its submodules, imported when first asked for.
_LAZY = {
    "gin_rummy_v0": ("ginrummy.envs.gin_rummy_v0", None),
    "GinRummyEnv": ("ginrummy.envs.single", "GinRummyEnv"),
    "SeatedGinRummyEnv": ("ginrummy.envs.seated_single", "SeatedGinRummyEnv"),
    "make_env": ("ginrummy.envs.single", "make_env"),
    "IllegalActionWrapper": ("ginrummy.envs.wrappers", "IllegalActionWrapper"),
    "GinRummyVectorEnv": ("ginrummy.envs.vector", "GinRummyVectorEnv"),
    "HandBatch": ("ginrummy.envs.vector", "HandBatch"),
    "FastHandBatch": ("ginrummy.envs.fast", "FastHandBatch"),
}


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'ginrummy.envs' has no attribute {name!r}")
    module, attr = _LAZY[name]
    m = importlib.import_module(module)
    return m if attr is None else getattr(m, attr)


def _register() -> None:
    """Register ``GinRummy-v0`` with Gymnasium, if it is installed."""
    try:
        import gymnasium
    except ImportError:
        return
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(id=ENV_ID, entry_point="ginrummy.envs.single:make_env")


_register()

__all__ = [
    "ENV_ID",
    "OBSERVATION_PIECES",
    "OBSERVATION_SIZE",
    "EnvConfig",
    "Episode",
    "FastHandBatch",
    "GinRummyEnv",
    "GinRummyVectorEnv",
    "HandBatch",
    "IllegalActionWrapper",
    "SeatedGinRummyEnv",
    "action_mask",
    "encode_info_state",
    "encode_observation",
    "gin_rummy_v0",
    "make_env",
    "pieces",
]
