"""The hint button: rank a human's legal actions with the expert's own values.

The expert scores every legal action on one scale (higher is better) and says why, so a hint
is the expert's decision plus the reasoning behind the alternatives. Because the expert's
randomness is seeded from the view itself, the top of the ranking is exactly what
``ExpertPlayer.decide`` would play in that seat.

>>> from ginrummy.hand import new_hand
>>> from ginrummy.rules import Rules
>>> h = new_hand(Rules(), dealer=1, seed=3)
>>> ranked = rank_actions(h.observation(h.current))
>>> sorted(str(a) for a, _, _ in ranked) == sorted(str(a) for a in h.legal_actions())
True
"""

from __future__ import annotations

from ..actions import Action, Kind
from ..events import LAYOUT_PHASES, Phase
from ..layout import layout_outcomes
from ..observation import SeatView
from .base import Player
from .expert import ExpertPlayer


def rank_actions(view: SeatView, player: Player | None = None) -> list[tuple[Action, float, str]]:
    """Every legal action of ``view`` as (action, value, reason), best first.

    ``player`` defaults to a fresh ``ExpertPlayer(seed=0)``. A player without an ``evaluate``
    method is still supported: its choice comes first (value 1) and the rest follow (value 0).
    Values are on the expert's scale: deadwood-like figures for draws and discards (negated,
    so higher is better) and expected points for knocks. In the layout phases every option's
    value is the count it still reaches, negated, with the player's choice first among equals.
    """
    if not view.legal:
        return []
    p = player if player is not None else ExpertPlayer(seed=0)
    evaluate = getattr(p, "evaluate", None)
    if callable(evaluate):
        ranked: list[tuple[Action, float, str]] = list(evaluate(view))
    else:
        choice = p.decide(view)
        ranked = [(a, 1.0 if a == choice else 0.0, "the player's choice" if a == choice else "") for a in view.legal]
    # A stable sort keeps the player's first-best action on top, as ``decide`` picks it.
    ranked = sorted(ranked, key=lambda t: -t[1])
    if view.phase in LAYOUT_PHASES:
        return _layout_ranking(view, ranked[0])
    return ranked


def _layout_ranking(view: SeatView, top: tuple[Action, float, str]) -> list[tuple[Action, float, str]]:
    """Layout choices ranked by the count each still reaches (:func:`ginrummy.layout.layout_outcomes`),
    the player's choice first among equals: every option gets its figure, not only the best."""
    choice, _, why = top
    noun = "deadwood" if view.phase is Phase.LAYOUT else "count after layoffs"
    ranked = []
    for a, left in layout_outcomes(view):
        if a == choice:
            reason = f"{why}: {noun} {left}" if why else f"{noun} {left}"
        elif a.kind is Kind.DONE:
            reason = f"stop here: {noun} {left}"
        else:
            reason = f"{noun} {left} at best after this"
        ranked.append((a, float(-left), reason))
    return sorted(ranked, key=lambda t: (-t[1], t[0] != choice))


def best_hint(view: SeatView, player: Player | None = None) -> tuple[Action, str] | None:
    """The single best action and its reason, or None when it is not this seat's turn."""
    ranked = rank_actions(view, player)
    if not ranked:
        return None
    a, _, why = ranked[0]
    return a, why


__all__ = ["best_hint", "rank_actions"]
