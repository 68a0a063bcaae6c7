"""Exceptions. Bad syntax and illegal actions are different errors, as in python-chess.

Every illegal-action error names the rule it breaks (``rule``) so servers can answer with it.
"""

from __future__ import annotations

import reprlib


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


#: The most characters of someone's input that any message quotes.
QUOTE_LIMIT = 40


def shown(value: object, limit: int = QUOTE_LIMIT) -> str:
    """``value`` quoted for a message, never longer than about ``limit`` characters.

    Messages quote what was typed so a player sees their mistake; a huge or deeply nested input
    must not come back whole (nor cost a deep ``repr``), so long text is cut and its length said.

    >>> shown('Zz'), shown(7), shown(10**30)
    ("'Zz'", '7', '10^30')
    >>> shown('x' * 20_000_000)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…' (20000000 characters)"
    >>> shown([[[[[[1]]]]]])
    '[[[[...]]]]'
    """
    if isinstance(value, str):
        whole = repr(value[: limit + 1])
        if len(value) <= limit and len(whole) <= limit + 2:
            return whole
        n = limit - 8
        while len(cut := repr(value[:n])) > limit - 6:  # escapes (\x00) make a repr longer than its text
            n //= 2
        return f"{cut[:-1]}…{cut[-1]} ({len(value)} characters)"
    if isinstance(value, int) and not isinstance(value, bool):
        return _number(value, limit)
    return _REPR.repr(value)[: limit + 10]


def _number(n: int, limit: int) -> str:
    """A whole number in at most ``limit`` characters: ``10^k`` for a power of ten, else its size."""
    if n.bit_length() <= 3 * limit:  # at most about 0.9 * limit digits: printable as is
        text = str(abs(n))
        sign = "-" if n < 0 else ""
        if len(text) > 6 and text.strip("0") == "1":
            return f"{sign}10^{len(text) - 1}"
        return sign + text
    digits = int(n.bit_length() * 0.30103) + 1
    return f"a {'negative ' if n < 0 else ''}number of about {digits} digits"


def _repr_settings() -> reprlib.Repr:
    r = reprlib.Repr()
    r.maxlevel, r.maxstring, r.maxother = 4, QUOTE_LIMIT, QUOTE_LIMIT
    r.maxlist = r.maxtuple = r.maxdict = r.maxset = 4
    r.maxlong = QUOTE_LIMIT
    return r


_REPR = _repr_settings()
