"""The player interface: a computer player decides from its seat's view only.

A player is given a :class:`~ginrummy.observation.SeatView`, which by construction holds
nothing its seat may not see (no opponent's hidden cards, no stock order, no face-down
knock discard), and returns one of ``view.legal``.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from ..actions import Action
from ..observation import SeatView


class Player(ABC):
    """Base class of computer players. Subclasses set ``name`` and implement ``decide``."""

    name: str = "player"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    @abstractmethod
    def decide(self, view: SeatView) -> Action:
        """Choose one action of ``view.legal`` (never empty when asked)."""

    def new_hand(self, seat: int) -> None:  # noqa: B027 - optional hook
        """Called before each hand; players that keep memory reset it here."""

    def hand_over(self, view: SeatView) -> None:  # noqa: B027 - optional hook
        """Called with the final view of each hand (both hands are laid out after a knock)."""
