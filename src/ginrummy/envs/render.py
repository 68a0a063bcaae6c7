"""A seat's view as a few lines of text, for the environments' ``ansi`` render mode.

Built from the :class:`~ginrummy.observation.SeatView` only, so it shows what the seat may see.

>>> from ginrummy.hand import new_hand
>>> from ginrummy.rules import Rules
>>> print(render_view(new_hand(Rules(), dealer=1, deck=list(range(52))).observation(0)))
seat 0 (non-dealer), offer, seat 0 to act; scores 0-0
hand: As 3s 5s 7s 9s Js Ks 2h 4h 6h
pile (top last): 8h; stock 31; knock limit 10
opponent: 10 cards, known none
legal: pile pass
"""

from __future__ import annotations

from ..cards import card_str, cards_of
from ..observation import SeatView


def _cards(mask: int) -> str:
    return " ".join(card_str(c) for c in cards_of(mask)) or "none"


def render_view(view: SeatView) -> str:
    seat = view.seat
    who = "dealer" if view.dealer == seat else "non-dealer"
    turn = "nobody" if view.current < 0 else f"seat {view.current}"
    lines = [
        f"seat {seat} ({who}), {view.phase.value}, {turn} to act; scores {view.scores[seat]}-{view.scores[1 - seat]}",
        f"hand: {_cards(view.hand)}",
        f"pile (top last): {' '.join(card_str(c) for c in view.pile) or 'empty'}; stock {view.stock_size}; "
        f"knock limit {view.knock_limit}",
        f"opponent: {view.opponent_size} cards, known {_cards(view.opponent_known)}",
    ]
    if view.knocker is not None:
        melds = " | ".join(_cards(m) for m in view.knocker_melds) or "none yet"
        lines.append(f"seat {view.knocker} knocked; melds {melds}")
    if view.result is not None:
        lines.append(f"result: {view.result.explain(('seat 0', 'seat 1'))}")
    if view.legal:
        lines.append("legal: " + " ".join(str(a) for a in view.legal))
    return "\n".join(lines)
