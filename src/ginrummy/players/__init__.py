"""Computer players, found by name.

>>> sorted(PLAYERS)[:2]
['easy', 'expert']
"""

from __future__ import annotations

import importlib

from .base import Player

#: name -> "module:Class"
PLAYERS: dict[str, str] = {
    "random": "ginrummy.players.simple_players:RandomPlayer",
    "easy": "ginrummy.players.simple_players:EasyPlayer",
    "simple": "ginrummy.players.simple_players:SimplePlayer",
    "greedy": "ginrummy.players.simple_players:GreedyPlayer",
    "expert": "ginrummy.players.expert:ExpertPlayer",
}


def get_player(name: str, seed: int | None = None) -> Player:
    """A new player by name (``random``, ``easy``, ``simple``, ``greedy``, ``expert``)."""
    if name not in PLAYERS:
        raise ValueError(f"unknown player {name!r}: choose one of {', '.join(PLAYERS)}")
    module, cls = PLAYERS[name].split(":")
    player: Player = getattr(importlib.import_module(module), cls)(seed=seed)
    return player


__all__ = ["PLAYERS", "Player", "get_player"]
