"""Exceptions. Bad syntax and illegal actions are different errors, as in python-chess.

Every illegal-action error names the rule it breaks (``rule``) so servers can answer with it.
"""

from __future__ import annotations


class GinRummyError(Exception):
    """Base class of every error this package raises on purpose."""


class NotationError(GinRummyError, ValueError):
    """Text that is not a card, a meld or an action in our notation."""


class RulesError(GinRummyError, ValueError):
    """An unknown or impossible rule setting."""


class IllegalActionError(GinRummyError):
    """A well-formed action that the rules do not allow now. ``rule`` names the rule."""

    def __init__(self, message: str, rule: str = "") -> None:
        super().__init__(message)
        self.rule = rule


class RecordError(GinRummyError, ValueError):
    """A game record that cannot be read, or whose actions break the rules."""

    def __init__(self, message: str, hand: int | None = None, index: int | None = None) -> None:
        super().__init__(message)
        self.hand = hand
        self.index = index
