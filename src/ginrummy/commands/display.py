"""How ``ginrummy play`` writes cards, actions and steps: one card notation everywhere.

A card reads the same in the hand, the prompt, the list of choices and every message. Three styles:

- ``symbols`` (the default): ``K♦``, and on a colour terminal four-colour suits (spades in the
  terminal's own colour, hearts red, diamonds blue, clubs green: readable on light and dark
  backgrounds alike, since none is black or white);
- ``ascii``: ``Kd``, the notation typed at the prompt;
- ``plain``: ascii cards, no colour, no box drawing, one fact per line (screen readers, pipes).

Engine messages (a refusal's reason, a hint's reason, an action's notation) name cards in the
notation (``Kd``, melds as ``As2s3s``); :meth:`Style.text` rewrites every card name in them, so
nothing reaches the screen in another notation; what is quoted in backticks (what to type) stays
as it is. Input is read in either notation.

>>> Style("symbols").text("cannot lay 8s8h8d: Kd is not free; type `knock Kd`")
'cannot lay 8♠ 8♥ 8♦: K♦ is not free; type `knock Kd`'
>>> Style("ascii").text("meld As2s3s"), Style("plain").cards(0b111)
('meld As 2s 3s', 'As 2s 3s')
>>> Style("plain").text("not a card: 'K♦x' (suit must be s, h, d, c or ♠ ♥ ♦ ♣)")
"not a card: 'Kdx' (suit must be s, h, d, c)"
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TextIO

from ..actions import Action, Kind
from ..cards import card_str, cards_of, parse_card
from ..events import Event
from ..melds import best_arrangement

STYLES = ("symbols", "ascii", "plain")

#: A run of card names as the engine writes them (``Kd``, or a meld ``As2s3s``), not inside a word.
_CARDS = re.compile(r"(?<![A-Za-z0-9])((?:[A2-9TJQK][shdc])+)(?![A-Za-z0-9])")

_SYMBOL_TO_LETTER = str.maketrans("♠♥♦♣♤♡♢♧", "shdcshdc")

#: ANSI colours of the four suits (spades: the terminal's own foreground colour).
_SUIT_COLOURS = ("1", "1;31", "1;34", "1;32")


@dataclass(frozen=True)
class Style:
    """The card notation, and whether to colour and to draw boxes."""

    name: str = "symbols"
    colour: bool = False

    def __post_init__(self) -> None:
        if self.name not in STYLES:
            raise ValueError(f"unknown style {self.name!r}: choose one of {', '.join(STYLES)}")

    @staticmethod
    def for_output(name: str, out: TextIO) -> Style:
        """The style ``name``, coloured when ``out`` is a terminal and NO_COLOR is not set (never in plain)."""
        tty = getattr(out, "isatty", lambda: False)()
        return Style(name, colour=name != "plain" and tty and not os.environ.get("NO_COLOR"))

    @property
    def plain(self) -> bool:
        return self.name == "plain"

    def card(self, card: int) -> str:
        text = card_str(card, symbols=self.name == "symbols")
        if self.colour:
            return f"\x1b[{_SUIT_COLOURS[card // 13]}m{text}\x1b[0m"
        return text

    def cards(self, mask_or_cards: int | Iterable[int]) -> str:
        cards = cards_of(mask_or_cards) if isinstance(mask_or_cards, int) else list(mask_or_cards)
        return " ".join(self.card(c) for c in cards)

    def text(self, message: str) -> str:
        """``message`` with every card name written in this style."""

        def cards(m: re.Match[str]) -> str:
            run = m.group(1)
            return " ".join(self.card(parse_card(run[i : i + 2])) for i in range(0, len(run), 2))

        if self.name != "symbols":  # no suit symbol on the screen: a message's list of them goes
            message = message.replace(" or ♠ ♥ ♦ ♣", "").translate(_SYMBOL_TO_LETTER)
        parts = message.split("`")
        return "`".join(p if i % 2 else _CARDS.sub(cards, p) for i, p in enumerate(parts))

    def action(self, action: Action) -> str:
        return self.text(str(action))

    def actions(self, actions: Iterable[Action]) -> str:
        return ", ".join(self.action(a) for a in actions)

    def heading(self, text: str) -> str:
        """A section heading: a ruled line, or the bare sentence in plain style."""
        return f"{text}." if self.plain else f"══ {text} ══"

    def hand(self, mask: int) -> str:
        """The hand arranged by melds (bracketed), then the deadwood cards by rank, and the count;
        in plain style one line each: every meld, the unmatched cards, the count."""
        dead, melds = best_arrangement(mask)
        used = 0
        for m in melds:
            used |= m
        loose = sorted(cards_of(mask & ~used), key=lambda c: (c % 13, c // 13))
        if self.plain:
            lines = [f"{mask.bit_count()} cards."] + [f"Meld: {self.cards(m)}." for m in melds]
            lines += [f"Unmatched: {self.cards(loose)}."] * bool(loose) + [f"Deadwood: {dead}."]
            return "\n".join(lines)
        groups = ["[" + self.cards(m) + "]" for m in melds] + [self.cards(loose)] * bool(loose)
        return f"{'  '.join(groups)}   deadwood {dead}"

    def event(self, e: Event, who: str, you: bool = False) -> str:
        """One step in words: ``simple discards K♦``; ``you`` conjugates for the person."""
        verb = _VERBS_YOU if you else _VERBS
        k = e.kind
        if k is Kind.DISCARD:
            return f"{who} {verb['discard']} {self.card(e.card)}"
        if k is Kind.STOCK:
            seen = f" ({self.card(e.card)})" if e.card >= 0 else ""
            return f"{who} {verb['draw']} from the stock{seen}"
        if k is Kind.PILE:
            card = f" {self.card(e.card)}" if e.card >= 0 else ""
            return f"{who} {verb['take']}{card} from the discard pile"
        if k is Kind.PASS:
            return f"{who} {verb['pass']}"
        if k is Kind.KNOCK:
            down = f", {self.card(e.card)} face down" if e.card >= 0 else ""
            return f"{who} {verb['knock']}{down}"
        if k is Kind.BIG_GIN:
            return f"{who} {verb['big gin']}"
        if k is Kind.DONE:
            return f"{who} {verb['done']}"
        if k is Kind.MELD:
            return f"{who} {verb['meld']} {self.cards(e.meld)}"
        return f"{who} {verb['layoff']} {self.card(e.card)} on meld {e.target}"


_VERBS = {
    "discard": "discards", "draw": "draws", "take": "takes", "pass": "passes", "knock": "knocks",
    "big gin": "goes big gin", "done": "is done laying out", "meld": "lays", "layoff": "lays off",
}
_VERBS_YOU = {
    "discard": "discard", "draw": "draw", "take": "take", "pass": "pass", "knock": "knock",
    "big gin": "go big gin", "done": "are done laying out", "meld": "lay", "layoff": "lay off",
}

__all__ = ["STYLES", "Style"]
