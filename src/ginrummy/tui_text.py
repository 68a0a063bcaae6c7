"""What the terminal app writes: the line that says what to do now, and the reasons it gives.

Pure functions of a seat's view (no Textual here), so the words can be tested without a
terminal. Every choice they mention is one of ``view.legal``; the reasons for a refused
action are the engine's own (:meth:`ginrummy.hand.Hand.refusal`), never re-worded rules.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rich.markup import escape

from .actions import Action, Kind
from .cards import card_str, cards_of, parse_card
from .discard_search import min_deadwood_after_discard
from .events import Event, Phase
from .layout import LAYOUT_PHASES, layout_action, layout_outcomes
from .melds import best_arrangement, deadwood, is_set, points
from .observation import SeatView
from .rules import Rules

Show = Callable[[int], str]

#: Each suit's colour (s h d c) as a theme variable the app defines (:func:`suit_colours`).
TWO_COLOURS = ("$suit-black", "$suit-red", "$suit-red", "$suit-black")
FOUR_COLOURS = ("$suit-black", "$suit-red", "$suit-blue", "$suit-green")
#: The theme colour each suit colour starts from.
SUIT_BASES = {"suit-black": "foreground", "suit-red": "text-error", "suit-blue": "text-primary", "suit-green": "text-success"}
#: The least contrast a card's colour keeps with the backgrounds it is drawn on (WCAG AA, 4.5:1).
MIN_CONTRAST = 4.5


def luminance(hex_colour: str) -> float:
    """WCAG relative luminance of ``#rrggbb``."""
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two ``#rrggbb`` colours (1 to 21).

    >>> round(contrast('#000000', '#ffffff'), 1)
    21.0
    """
    lo, hi = sorted((luminance(a), luminance(b)))
    return (hi + 0.05) / (lo + 0.05)


def readable(colour: str, backgrounds: Sequence[str], step: Callable[[str], str]) -> str:
    """``colour`` moved by ``step`` (towards black on a light theme, white on a dark one) until
    it keeps :data:`MIN_CONTRAST` with every background; unchanged if it already does."""
    for _ in range(40):
        if all(contrast(colour, bg) >= MIN_CONTRAST for bg in backgrounds):
            break
        colour = step(colour)
    return colour

_CARD_TOKEN = re.compile(r"(?<![A-Za-z0-9])([A2-9TJQK])([shdc])(?![A-Za-z0-9])")


@dataclass(frozen=True)
class CardStyle:
    """How cards and marks are drawn: two or four suit colours, suit symbols or ASCII only."""

    four_colour: bool = False
    ascii: bool = False

    def text(self, card: int) -> str:
        """A card's name: ``T♠``, or ``Ts`` in ASCII mode."""
        return card_str(card, symbols=not self.ascii)

    def markup(self, card: int) -> str:
        """A card in content markup, coloured by its suit."""
        colour = (FOUR_COLOURS if self.four_colour else TWO_COLOURS)[card // 13]
        return f"[bold {colour}]{self.text(card)}[/]"

    @property
    def sep(self) -> str:
        return " | " if self.ascii else " · "

    @property
    def mark(self) -> str:
        """Marks the picked card."""
        return ">" if self.ascii else "▶"

    def restyle(self, text: str) -> str:
        """Plain text from the engine or a player (``cannot discard Qd: ...``) as markup, its card
        names drawn like every other card on the screen, so cards are written one way."""
        out = []
        last = 0
        for m in _CARD_TOKEN.finditer(text):
            out.append(escape(text[last : m.start()]))
            out.append(self.markup(parse_card(m.group(0))))
            last = m.end()
        out.append(escape(text[last:]))
        return "".join(out)


def _plain(card: int) -> str:
    return card_str(card, True)


def event_text(e: Event, view: SeatView, show: Show) -> str:
    """One step of the hand as this seat saw it, its cards drawn by ``show``."""
    k = e.kind
    if k is Kind.STOCK:
        return "draw from the stock" + (f": {show(e.card)}" if e.card >= 0 else "")
    if k is Kind.KNOCK:
        return "knock" + (f", {show(e.card)} face down" if e.card >= 0 else "")
    if k is Kind.PILE:
        return f"take {show(e.card)}" if e.card >= 0 else "take the upcard"
    if k is Kind.PASS:
        return "pass"
    if k is Kind.DISCARD:
        return f"discard {show(e.card)}"
    if k is Kind.MELD:
        return "meld " + " ".join(show(c) for c in meld_cards(e.meld))
    if k is Kind.LAYOFF:
        return f"lay off {show(e.card)} on meld {e.target + 1}"
    if k is Kind.DONE:
        return "done"
    return "big gin"

#: The keys that pick a card by its position in the hand.
PICK_KEYS = "1234567890-"
PICK_HELP = "1-9, 0, -"


def prompt_line(view: SeatView, opponent: str, show: Show = _plain) -> str:
    """What the person may do now, with the keys, from the legal actions of their view."""
    if view.phase is Phase.OVER:
        return "The hand is over: n for the next hand."
    if not view.my_turn:
        return f"{opponent}'s turn."
    kinds = {a.kind for a in view.legal}
    top = show(view.pile[-1]) if view.pile else ""
    p = view.phase
    if p is Phase.OFFER:
        return f"First turn: take the upcard {top} (p) or pass it (x)."
    if p is Phase.LAST_CHANCE:
        if Kind.PILE in kinds:
            return f"Last chance: take the last discard {top} to knock with it (p), or pass (x)."
        return f"Last chance: {top} may be taken only to knock, and it would not let you knock: pass (x)."
    if p is Phase.DRAW:
        if Kind.PILE in kinds:
            return f"Draw: from the stock (s), or take {top} from the discard pile (p)."
        return "Draw from the stock (s)."
    if p is Phase.DISCARD:
        if view.must_knock:
            return f"You must knock now: pick the card to discard face down ({PICK_HELP}), then k."
        text = f"Pick a card ({PICK_HELP}), then discard it (d)"
        if Kind.KNOCK in kinds:
            text += " or knock with it (k)"
        if Kind.BIG_GIN in kinds:
            text += "; or big gin (b)"
        return text + "."
    if p is Phase.LAYOUT:
        return "Lay out your melds one by one (1-9 or Enter), then done; a: the best."
    if p is Phase.DEFENDER_LAYOUT:
        return "Lay out your own melds (1-9 or Enter), then done; a: the best."
    if p is Phase.LAYOFF:
        return "Lay off cards on the knocker's melds (1-9 or Enter), then done; a: the best."
    return ""


def refusal_line(reason: str, style: CardStyle) -> str:
    """A refused action's reason: the engine's words, its cards drawn in ``style`` (what may be
    done instead is on the prompt line just above)."""
    reason = reason[:1].upper() + reason[1:]
    if not reason.endswith("."):
        reason += "."
    return style.restyle(reason)


def no_pick_line(view: SeatView, knock: bool, opponent: str, show: Show = _plain) -> str:
    """What ``d`` (or ``k``) without a picked card means now."""
    kinds = {a.kind for a in view.legal}
    wanted = Kind.KNOCK if knock else Kind.DISCARD
    if view.my_turn and wanted in kinds:
        what = "the card to discard face down" if knock else "a card"
        return f"Pick {what} first ({PICK_HELP}), then {'k' if knock else 'd'}."
    verb = "knock" if knock else "discard"
    return f"You cannot {verb} now. {prompt_line(view, opponent, show)}"


def best_knock_card(view: SeatView) -> Action:
    """The knock that would leave the least deadwood: the one whose refusal says how far the
    hand is from a knock."""
    free = view.hand if view.taken is None else view.hand & ~(1 << view.taken)
    card = min(cards_of(free), key=lambda c: deadwood(view.hand & ~(1 << c)))
    return Action.knock(card)


def rules_header(rules: Rules) -> str:
    """The rules a game is played by, for the header: the preset and every switch that differs."""
    changed = rules.overrides()
    if not changed:
        return f"{rules.name} rules, no changes"

    def value(v: object) -> str:
        return ("on" if v else "off") if isinstance(v, bool) else str(v)

    return f"{rules.name} + " + ", ".join(f"{k.replace('_', ' ')} {value(v)}" for k, v in changed.items())


def meld_cards(meld: int) -> list[int]:
    """A meld's cards in reading order: a run low to high, a set by suit."""
    cards = cards_of(meld)
    return sorted(cards, key=lambda c: (c % 13, c // 13)) if is_set(meld) else cards


def action_label(a: Action, view: SeatView, show: Show = _plain) -> str:
    """An action in a player's words, its cards drawn by ``show``."""
    k = a.kind
    if k is Kind.MELD:
        return "meld " + " ".join(show(c) for c in meld_cards(a.meld))
    if k is Kind.LAYOFF:
        target = view.knocker_melds[a.target] | view.laid_on[a.target]
        return f"lay off {show(a.card)} on " + " ".join(show(c) for c in meld_cards(target))
    if k is Kind.DONE:
        return "done: no more layoffs" if view.phase is Phase.LAYOFF else "done: the other cards are deadwood"
    if k is Kind.DISCARD:
        return f"discard {show(a.card)}"
    if k is Kind.KNOCK:
        return f"knock with {show(a.card)} face down"
    if k is Kind.PILE:
        return f"take {show(view.pile[-1])}" if view.pile else "take the upcard"
    return {Kind.STOCK: "draw from the stock", Kind.PASS: "pass", Kind.BIG_GIN: "big gin"}.get(k, str(a))


def by_rank(mask: int) -> list[int]:
    """Loose cards in rank order (then suit), as a player reads deadwood."""
    return sorted(cards_of(mask), key=lambda c: (c % 13, c // 13))


def ordered_hand(mask: int, order: str) -> list[tuple[bool, list[int]]]:
    """The hand in groups of (is a meld, cards): melds first then loose cards ('melds'), or one
    group by rank or by suit."""
    if order == "rank":
        return [(False, by_rank(mask))]
    if order == "suit":
        return [(False, cards_of(mask))]
    _, melds = best_arrangement(mask)
    used = 0
    for m in melds:
        used |= m
    loose = by_rank(mask & ~used)
    return [(True, cards_of(m)) for m in melds] + ([(False, loose)] if loose else [])


def melds_text(melds: Sequence[int], style: CardStyle, laid_on: Sequence[int] = ()) -> str:
    """Melds on the table, each in brackets; cards laid off on a meld after a ``+``."""
    out = []
    for i, m in enumerate(melds):
        text = " ".join(style.markup(c) for c in meld_cards(m))
        extra = laid_on[i] if i < len(laid_on) else 0
        if extra:
            text += " + " + " ".join(style.markup(c) for c in cards_of(extra))
        out.append("\\[" + text + "]")
    return "  ".join(out)


def hand_text(view: SeatView, order: str, picked: int | None, style: CardStyle) -> str:
    """Your cards: with their keys while you play; after a knock, what is laid and what is left."""
    me = view.seat
    if view.phase in LAYOUT_PHASES or view.phase is Phase.OVER and view.knocker is not None:
        free = view.hand
        for m in view.knocker_melds if view.knocker == me else view.defender_melds:
            free &= ~m
        laid_off = 0
        if view.knocker != me:
            for c, _ in view.layoffs:
                laid_off |= 1 << c
        free &= ~laid_off
        parts = []
        if laid_off:
            parts.append("laid off " + " ".join(style.markup(c) for c in by_rank(laid_off)))
        loose = " ".join(style.markup(c) for c in by_rank(free)) or "none"
        if view.phase in (Phase.LAYOUT, Phase.DEFENDER_LAYOUT):
            parts.append(f"not laid out yet: {loose}")
        else:
            parts.append(f"deadwood: {loose} = {points(free)}")
        return "Your hand: " + "; ".join(parts)
    parts = []
    i = 0
    for is_meld, group in ordered_hand(view.hand, order):
        texts = []
        for c in group:
            key = PICK_KEYS[i] if i < len(PICK_KEYS) else " "
            mark = style.mark if c == picked else ""
            texts.append(f"{mark}{key}:{style.markup(c)}")
            i += 1
        parts.append(("\\[ " + " ".join(texts) + " ]") if is_meld else " ".join(texts))
    count = f"   deadwood {deadwood(view.hand)}"
    if view.hand.bit_count() > 10:
        count += f"; after the best discard {min_deadwood_after_discard(view.hand)}"
    return "Your hand: " + "  ".join(parts) + count


def layout_choices(view: SeatView) -> list[tuple[Action, int]]:
    """The legal layout actions with the count each still reaches: the default layout's next
    action first (the best arrangement, offered first), then the others, lowest count first."""
    default = layout_action(view)
    outcomes = layout_outcomes(view)
    first = [(a, n) for a, n in outcomes if a == default]
    rest = sorted(((a, n) for a, n in outcomes if a != default), key=lambda t: t[1])
    return first + rest


__all__ = [
    "FOUR_COLOURS", "MIN_CONTRAST", "PICK_HELP", "PICK_KEYS", "SUIT_BASES", "TWO_COLOURS", "CardStyle", "action_label",
    "best_knock_card", "by_rank", "contrast", "event_text", "hand_text", "layout_choices", "meld_cards", "melds_text",
    "no_pick_line", "ordered_hand", "prompt_line", "readable", "refusal_line", "rules_header",
]
