"""What the terminal app writes: the line that says what to do now, and the reasons it gives.

Pure functions of a seat's view (no Textual here), so the words can be tested without a
terminal. Every choice they mention is one of ``view.legal``; the reasons for a refused
action are the engine's own (:meth:`ginrummy.hand.Hand.refusal`), never re-worded rules.
"""

from __future__ import annotations

from collections.abc import Callable

from .actions import Action, Kind
from .cards import card_str, cards_of
from .events import Phase
from .layout import layout_action, layout_outcomes
from .melds import deadwood, is_set
from .observation import SeatView

Show = Callable[[int], str]


def _plain(card: int) -> str:
    return card_str(card, True)

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
        return "Lay out your melds one by one (1-9 or Enter), then done; a lays out the best."
    if p is Phase.DEFENDER_LAYOUT:
        return "Lay out your own melds (1-9 or Enter), then done; a lays out the best."
    if p is Phase.LAYOFF:
        return "Lay off your deadwood on the knocker's melds (1-9 or Enter), then done; a for the best."
    return ""


def refusal_line(reason: str, view: SeatView, opponent: str) -> str:
    """A refused action's reason (the engine's words), then what may be done instead."""
    reason = reason[:1].upper() + reason[1:]
    if not reason.endswith("."):
        reason += "."
    return f"{reason} {prompt_line(view, opponent)}"


def no_pick_line(view: SeatView, knock: bool, opponent: str) -> str:
    """What ``d`` (or ``k``) without a picked card means now."""
    kinds = {a.kind for a in view.legal}
    wanted = Kind.KNOCK if knock else Kind.DISCARD
    if view.my_turn and wanted in kinds:
        what = "the card to discard face down" if knock else "a card"
        return f"Pick {what} first ({PICK_HELP}), then {'k' if knock else 'd'}."
    verb = "knock" if knock else "discard"
    return f"You cannot {verb} now. {prompt_line(view, opponent)}"


def best_knock_card(view: SeatView) -> Action:
    """The knock that would leave the least deadwood: the one whose refusal says how far the
    hand is from a knock."""
    free = view.hand if view.taken is None else view.hand & ~(1 << view.taken)
    card = min(cards_of(free), key=lambda c: deadwood(view.hand & ~(1 << c)))
    return Action.knock(card)


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


def layout_choices(view: SeatView) -> list[tuple[Action, int]]:
    """The legal layout actions with the count each still reaches: the default layout's next
    action first (the best arrangement, offered first), then the others, lowest count first."""
    default = layout_action(view)
    outcomes = layout_outcomes(view)
    first = [(a, n) for a, n in outcomes if a == default]
    rest = sorted(((a, n) for a, n in outcomes if a != default), key=lambda t: t[1])
    return first + rest


__all__ = [
    "PICK_HELP", "PICK_KEYS", "action_label", "best_knock_card", "layout_choices", "meld_cards", "no_pick_line",
    "prompt_line", "refusal_line",
]
