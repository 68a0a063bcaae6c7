"""Finished games: the history list, statistics, move-by-move replays and record export.

Only *finished* games are described here with every card visible: once a game is over nothing is
secret any more, and showing the whole deal (with the deck commitment's nonce) is what lets a
player check that the computer never saw their cards and that the shuffle was fixed in advance.
"""

from __future__ import annotations

from typing import Any

from .. import words
from ..actions import Kind
from ..cards import card_str, cards_of
from ..errors import shown
from ..events import Event, Step
from ..hand import Hand
from ..match import Match
from ..record import ReplayObserver, match_to_record
from ..storage import GameRow, HandRow, Store, StoredMatch
from .errors import WebError, not_found, private
from .inputs import check_game_id


def game_summary(g: GameRow, hands: list[HandRow]) -> dict[str, Any]:
    """One line of the history page."""
    final = g.final or {}
    return {
        "id": g.id,
        "names": g.names,
        "opponent": g.opponent,
        "rules": g.rules,
        "rules_label": words.preset_label(str(g.rules.get("preset", "classic")))
        + (" (changed)" if g.rules.get("overrides") else ""),
        "created": g.created,
        "finished": g.finished,
        "status": g.status,
        "shared": g.shared,
        "hands": len(hands),
        "totals": final.get("totals"),
        "winner": final.get("winner"),
        "margin": final.get("margin"),
    }


def _player_key(g: GameRow, seat: int) -> str:
    """Who sat there, for statistics: a computer by its strength, a person by identity (by name
    only for a seat no browser has claimed)."""
    s = g.seats[seat]
    if s.computer:
        return "computer:" + s.player
    return "player:" + s.player_hash if s.player_hash is not None else "name:" + s.name


def statistics(store: Store, player: str) -> dict[str, Any]:
    """The finished games of one identity: for it and each opponent, games and hands won, knocks,
    gins, undercuts, average deadwood; results by game. Players are told apart by identity, not name."""
    players: dict[str, dict[str, Any]] = {}
    games_out = []
    for g, hands in store.finished_hands(player=player):  # newest first: a player shows their latest name
        games_out.append(game_summary(g, hands))
        final = g.final or {}
        for seat in (0, 1):
            name = g.names[seat]
            p = players.setdefault(
                _player_key(g, seat),
                {
                    "name": name,
                    "you": g.seats[seat].player_hash == player,
                    "computer": g.computer_seat == seat,
                    "games": 0,
                    "games_won": 0,
                    "hands": 0,
                    "hands_won": 0,
                    "knocks": 0,
                    "gins": 0,
                    "big_gins": 0,
                    "undercuts": 0,
                    "undercut_against": 0,
                    "dead_hands": 0,
                    "deadwood_total": 0,
                    "best_margin": None,
                    "worst_margin": None,
                },
            )
            p["games"] += 1
            margin = final.get("margin") or 0
            signed = margin if final.get("winner") == seat else -margin
            if final.get("winner") == seat:
                p["games_won"] += 1
            p["best_margin"] = signed if p["best_margin"] is None else max(p["best_margin"], signed)
            p["worst_margin"] = signed if p["worst_margin"] is None else min(p["worst_margin"], signed)
            for h in hands:
                r = h.result
                if r is None:
                    continue
                p["hands"] += 1
                if h.deadwood is not None:
                    p["deadwood_total"] += h.deadwood[seat]
                kind = r["kind"]
                if kind == "dead":
                    p["dead_hands"] += 1
                    continue
                if r["winner"] == seat:
                    p["hands_won"] += 1
                if r["knocker"] == seat:
                    if kind == "knock":
                        p["knocks"] += 1
                    elif kind == "gin":
                        p["gins"] += 1
                    elif kind == "big_gin":
                        p["big_gins"] += 1
                    elif kind == "undercut":
                        p["knocks"] += 1
                        p["undercut_against"] += 1
                elif kind == "undercut":
                    p["undercuts"] += 1
    for p in players.values():
        p["average_deadwood"] = round(p["deadwood_total"] / p["hands"], 1) if p["hands"] else None
    order = sorted(players.values(), key=lambda p: (not p["you"], p["computer"], -p["games"]))
    return {"players": order, "games": games_out}


def _finished(store: Store, game_id: str, player: str) -> GameRow:
    """A finished game this identity may see (it played it, or a player shared it)."""
    g = store.get_game(check_game_id(game_id))
    if g is None:
        raise not_found(f"no game {shown(game_id)}")
    if not g.shared and g.seat_of_player(player) is None:
        raise private()
    if g.status != "finished":
        raise WebError(403, "in_progress", "the game is still being played: its cards are secret until it is over")
    return g


def _cs(mask: int) -> list[str]:
    return [card_str(c) for c in cards_of(mask)]


def _frame(hand: Hand, seat: int | None, text: str) -> dict[str, Any]:
    """One step of a replay: the action just played and the whole table after it."""
    return {
        "seat": seat,
        "action": text,
        "hands": [_cs(hand.hands[0]), _cs(hand.hands[1])],
        "pile": [card_str(c) for c in hand.pile],
        "stock": [card_str(c) for c in reversed(hand.stock)],
        "phase": hand.phase.value,
        "current": hand.current,
        "knocker": hand.knocker,
        "knock_discard": None if hand.knock_discard is None else card_str(hand.knock_discard),
        "knocker_melds": [_cs(m) for m in hand.knocker_melds],
        "laid_on": [_cs(m) for m in hand.laid_on],
        "defender_melds": [_cs(m) for m in hand.defender_melds],
        "layoffs": [{"card": card_str(c), "meld": t} for c, t in hand.layoffs],
        "result": None if hand.result is None else hand.result.to_json(),
    }


def _load_finished(
    store: Store, game_id: str, player: str, observe: ReplayObserver | None = None
) -> StoredMatch:
    _finished(store, game_id, player)  # refuse an unfinished or private game before replaying anything
    stored = store.load_match(game_id, observe=observe)
    if stored is None:
        raise not_found(f"no game {shown(game_id)}")
    return stored


def replay(store: Store, game_id: str, player: str) -> dict[str, Any]:
    """Every step of a finished game with both hands face up, rebuilt by the engine from the log."""
    frames: list[list[dict[str, Any]]] = []
    events: list[list[Event]] = []
    scores_after: list[tuple[int, int]] = []

    def observe(match: Match, step: Step | None) -> None:
        hand = match.hand
        assert hand is not None
        if step is None:
            frames.append([_frame(hand, None, "deal")])
            events.append([])
            return
        a = step.action
        text = str(a)
        card = a.card
        if a.kind is Kind.STOCK:
            text = f"stock ({card_str(step.drawn)})"
            card = step.drawn
        elif a.kind is Kind.PILE and hand.taken is not None:
            card = hand.taken
        events[-1].append(Event(step.seat, a.kind, card, a.meld, a.target))
        frames[-1].append(_frame(hand, step.seat, text))
        if hand.is_over:
            scores_after.append(match.scores)

    stored = _load_finished(store, game_id, player, observe)
    g, match = stored.row, stored.match
    names = (g.names[0], g.names[1])
    hands_out = []
    for h, hand, hand_frames, scores, seen in zip(stored.hands, match.hands, frames, scores_after, events, strict=True):
        # Every move in the rule documents' words (every card is face up in a replay).
        r = hand.result
        log = words.hand_log(seen, names, None if r is None or r.dead else r.knocker_deadwood)
        hand_frames[0]["words"] = f"{names[h.dealer]} dealt"
        for frame, text in zip(hand_frames[1:], log, strict=True):
            frame["words"] = text
        hands_out.append(
            {
                "hand": h.hand_no + 1,
                "dealer": h.dealer,
                "deck": [card_str(c) for c in h.deck],
                "nonce": h.nonce,
                "commitment": h.commitment,
                "scheme": h.scheme,
                "scores_after": list(scores),
                "explain": hand.result.explain(names) if hand.result is not None else None,
                "frames": hand_frames,
            }
        )
    final = match.final()
    return {
        "id": g.id,
        "names": g.names,
        "rules": g.rules,
        "hands": hands_out,
        "final": {**final.to_json(), "explain": final.explain(tuple(g.names))},
    }


def record(store: Store, game_id: str, player: str) -> dict[str, Any]:
    """The engine's JSON record (:mod:`ginrummy.record`) of a finished game, with the game's id and
    each hand's deal commitment, so ``ginrummy verify`` can check the deals offline."""
    stored = _load_finished(store, game_id, player)
    out = match_to_record(stored.match)
    out["game_id"] = game_id
    for hd, h in zip(out["hands"], stored.hands, strict=True):
        hd["commitment"] = {"scheme": h.scheme, "nonce": h.nonce, "sha256": h.commitment}
    return out
