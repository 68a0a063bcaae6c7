"""The observation space and the observation dict every environment gives a seat."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from ..actions import NUM_ACTIONS
from .encoding import (
    OBSERVATION_SIZE,
    InfoStateEncoder,
    ObservationEncoder,
    action_mask,
    encode_observation,
    info_state_high,
    info_state_size,
    observation_high,
)
from .game import EnvConfig, Episode


def observation_space(config: EnvConfig) -> spaces.Dict:
    """One seat's observation space under ``config``: ``observation``, ``action_mask`` and, with
    ``info_state=True``, ``info_state`` (layouts in :mod:`ginrummy.envs.encoding`)."""
    parts: dict[str, spaces.Space[Any]] = {
        "observation": spaces.Box(0.0, observation_high(), (OBSERVATION_SIZE,), np.float32),
        "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
    }
    if config.info_state:
        n = config.max_moves
        parts["info_state"] = spaces.Box(0.0, info_state_high(n), (info_state_size(n),), np.float32)
    return spaces.Dict(parts)


def observe_seat(episode: Episode, seat: int, encoder: InfoStateEncoder | None,
                 observer: ObservationEncoder | None = None) -> dict[str, np.ndarray]:
    """The observation dict of ``seat``, built from its view alone (fresh arrays every time).

    ``observer``, the seat's own :class:`ObservationEncoder`, makes the same arrays by writing
    only what changed since its last call. Once the episode is over the mask is all zeros
    (nothing is legal).
    """
    view = episode.view(seat)
    obs: dict[str, np.ndarray] = {
        "observation": encode_observation(view) if observer is None else observer.observation(view),
        "action_mask": action_mask(view),
    }
    if encoder is not None:
        obs["info_state"] = encoder.encode(view, obs["observation"])
    if episode.over:
        obs["action_mask"].fill(0)
    return obs


__all__ = ["observation_space", "observe_seat"]
