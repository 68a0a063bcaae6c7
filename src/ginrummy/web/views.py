"""What a seat's state message says of its own hand, from its own view only: its best melds and
deadwood, the layout the engine would play for it, what it knows of the knock."""

from __future__ import annotations

from typing import Any

from ..actions import Action, Kind
from ..cards import card_str, cards_of
from ..discard_search import min_deadwood_after_discard
from ..events import Phase
from ..melds import best_arrangement, deadwood, points
from ..observation import SeatView
from ..rules import Rules
from ..scoresheet import Ledger


def knocker_count(view: SeatView) -> int | None:
    """The knocker's deadwood when this seat may know it: once the hand is scored, or its own knock."""
    if view.result is not None:
        return None if view.result.dead else view.result.knocker_deadwood
    if view.knocker == view.seat:
        return deadwood(view.hand)
    return None


def mine(view: SeatView) -> dict[str, Any]:
    """Facts computed from the seat's own cards only: best melds, deadwood, and after the best discard."""
    hand = view.hand
    dw, melds = best_arrangement(hand)
    after = min_deadwood_after_discard(hand) if hand.bit_count() > 10 else None
    melded = 0
    for m in melds:
        melded |= m
    after_each = (
        {card_str(c): deadwood(hand & ~(1 << c)) for c in cards_of(hand)} if hand.bit_count() > 10 else None
    )
    return {
        "deadwood": dw,
        "after": after_each,
        "melds": [[card_str(c) for c in cards_of(m)] for m in melds],
        "deadwood_cards": [card_str(c) for c in cards_of(hand & ~melded)],
        "after_discard": after,
    }


def plan(view: SeatView, actions: list[Action]) -> dict[str, Any] | None:
    """The default layout this seat would play now (the engine's plan, from its own view), shown at
    once after a knock for the person to accept or change: the melds and layoffs still to come, and
    the deadwood the seat is left with. None when the seat is not laying out."""
    if not actions:
        return None
    melds = [a.meld for a in actions if a.kind is Kind.MELD]
    layoffs = [(a.card, a.target) for a in actions if a.kind is Kind.LAYOFF]
    rest = view.hand
    for m in (*melds, *(view.knocker_melds if view.knocker == view.seat else view.defender_melds)):
        rest &= ~m
    for c, _ in (*view.layoffs, *layoffs):  # the defender's (a knocker never lays off)
        rest &= ~(1 << c)
    return {
        "actions": [str(a) for a in actions],
        "melds": [[card_str(c) for c in cards_of(m)] for m in melds],
        "layoffs": [{"card": card_str(c), "meld": t} for c, t in layoffs],
        "deadwood": points(rest),
        "deadwood_cards": [card_str(c) for c in cards_of(rest)],
    }


def knock(view: SeatView) -> dict[str, Any] | None:
    """What this seat knows of the knock: its kind (``gin``, ``big_gin``, ``knock``; None while the
    other seat's layout does not yet show it) and the knocker's count once it is face up (the
    knocker's own at once). From the view only: the knocker's hand is face up once laid out."""
    if view.knocker is None:
        return None
    mine = view.knocker == view.seat
    if view.result is not None:
        r = view.result
        kind = "gin" if r.kind == "gin" else "big_gin" if r.kind == "big_gin" else "knock"
        return {"kind": kind, "deadwood": r.knocker_deadwood}
    cards = view.hand if mine else view.opponent_known
    size = cards.bit_count() if mine else view.opponent_size
    if size == 11:
        return {"kind": "big_gin", "deadwood": 0}
    if mine:
        dw = deadwood(cards)
        return {"kind": "gin" if dw == 0 else "knock", "deadwood": dw}
    if view.phase is Phase.LAYOUT:
        return {"kind": None, "deadwood": None}
    rest = cards
    for m in view.knocker_melds:
        rest &= ~m
    dw = points(rest)
    return {"kind": "gin" if dw == 0 else "knock", "deadwood": dw}


def rules_text(rules: Rules, players: int) -> list[str]:
    """The rules at a table in plain lines (:meth:`~ginrummy.rules.Rules.describe`), with what
    changes for three or four players: who deals, the team target, which bonuses apply."""
    lines = rules.describe()
    if players == 2:
        return lines
    first = lines[-1].split(". ")[0] + "."
    if players == 3:
        lines[-1] = f"{first} Two play each hand and the dealer sits out; the loser of each hand deals the next."
        if not rules.three_player_bonuses:
            lines.append("No game, box or shutout bonuses with three players.")
        return lines
    lines = [
        line.replace(f"Game to {rules.target}", f"Game to {rules.team_target} for a team", 1)
        if line.startswith("Game to ") else line
        for line in lines
    ]
    lines[-1] = f"{first} The teams take turns to deal at both tables; partners switch opponents every hand."
    if not rules.team_bonuses:
        lines.append("No game, box or shutout bonuses for the teams.")
    return lines


def game_columns(sheet: Ledger[Any]) -> list[dict[str, Any]]:
    """Every game a ledger keeps (three with Hollywood scoring): its totals, open or closed, and
    which column closed it in which hand (1-based); the same for two, three and four players."""
    out = []
    for g in range(sheet.games):
        closer = next((r for r in sheet.rows if g in r.closed), None)
        out.append({
            "game": g + 1,
            "scores": list(sheet.game_scores(g)),
            "open": sheet.game_open(g),
            "winner": closer.result.winner if closer is not None else None,
            "closed_by": closer.index + 1 if closer is not None else None,
        })
    return out
