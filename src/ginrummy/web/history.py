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
from ..dealing import team_of
from ..errors import shown
from ..events import Event, Step
from ..game import Game
from ..hand import Hand
from ..multisheet import team_names
from ..record import ReplayObserver, match_to_record
from ..storage import GameRow, HandRow, Store, StoredGame, stored_pairing
from .errors import WebError, not_found, private
from .inputs import check_game_id


def game_summary(g: GameRow, hands: list[HandRow]) -> dict[str, Any]:
    """One line of the history page."""
    final = g.final or {}
    return {
        "id": g.id,
        "names": g.names,
        "players": len(g.seats),
        "columns": _columns(g),
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


def _columns(g: GameRow) -> list[str]:
    """The names of the final result's columns: the players, or with four players the two teams."""
    return list(team_names(g.names)) if len(g.seats) == 4 else g.names


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
        n = len(g.seats)
        # Who played each hand, in its hand seats (two players: the game seats themselves).
        played = [stored_pairing(g, h) for h in hands]
        for seat in range(n):
            name = g.names[seat]
            column = team_of(seat) if n == 4 else seat
            p = players.setdefault(
                _player_key(g, seat),
                {
                    "name": name,
                    "you": g.seats[seat].player_hash == player,
                    "computer": g.seats[seat].computer,
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
            signed = margin if final.get("winner") == column else -margin
            if final.get("winner") == column:
                p["games_won"] += 1
            p["best_margin"] = signed if p["best_margin"] is None else max(p["best_margin"], signed)
            p["worst_margin"] = signed if p["worst_margin"] is None else min(p["worst_margin"], signed)
            for h, who in zip(hands, played, strict=True):
                r = h.result
                seats = who.get("seats", [0, 1])
                if r is None or seat not in seats:
                    continue
                seat_in_hand = seats.index(seat)
                p["hands"] += 1
                if h.deadwood is not None:
                    p["deadwood_total"] += h.deadwood[seat_in_hand]
                kind = r["kind"]
                if kind == "dead":
                    p["dead_hands"] += 1
                    continue
                if r["winner"] == seat_in_hand:
                    p["hands_won"] += 1
                if r["knocker"] == seat_in_hand:
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
) -> StoredGame:
    _finished(store, game_id, player)  # refuse an unfinished or private game before replaying anything
    stored = store.load_game(game_id, observe=observe)
    if stored is None:
        raise not_found(f"no game {shown(game_id)}")
    return stored


def replay(store: Store, game_id: str, player: str) -> dict[str, Any]:
    """Every step of a finished game with both hands face up, rebuilt by the engine from the log."""
    frames: list[list[dict[str, Any]]] = []
    events: list[list[Event]] = []
    scores_after: list[list[int]] = []
    deals: list[tuple[int, int]] = []  # each hand's deal (1-based) and table

    def observe(match: Game, step: Step | None) -> None:
        base = len(match.hands) - len(match.tables)
        if step is None:
            deal = deals[-1][0] + 1 if deals else 1
            for t, h in enumerate(match.tables):  # one hand per table of the deal
                frames.append([_frame(h, None, "deal")])
                events.append([])
                scores_after.append([])
                deals.append((deal, t))
            return
        # The table whose hand just moved (four players: the two tables of a deal are replayed in turn).
        t = next(t for t, h in enumerate(match.tables) if len(h.history) != len(events[base + t]))
        hand = match.tables[t]
        i = base + t
        a = step.action
        text = str(a)
        card = a.card
        if a.kind is Kind.STOCK:
            text = f"stock ({card_str(step.drawn)})"
            card = step.drawn
        elif a.kind is Kind.PILE and hand.taken is not None:
            card = hand.taken
        events[i].append(Event(step.seat, a.kind, card, a.meld, a.target))
        frames[i].append(_frame(hand, step.seat, text))
        if hand.is_over and not match.in_progress:
            for j in range(base, len(match.hands)):  # the deal is on the ledger
                scores_after[j] = list(match.scores)

    stored = _load_finished(store, game_id, player, observe)
    g, match = stored.row, stored.match
    # Each frame's "at": the deal's moves so far at every table, in the order they were stored
    # (four players: the two hands of a deal were played at once).
    seqs: dict[int, list[int]] = {h.hand_no: [] for h in stored.hands}
    for a in stored.actions:
        seqs[a.hand_no].append(a.seq)
    by_deal: dict[int, list[int]] = {}
    for h, (deal, _) in zip(stored.hands, deals, strict=True):
        by_deal.setdefault(deal, []).extend(seqs[h.hand_no])
    for h, hand_frames, (deal, _) in zip(stored.hands, frames, deals, strict=True):
        rank = {q: k + 1 for k, q in enumerate(sorted(by_deal[deal]))}
        hand_frames[0]["at"] = 0
        for frame, q in zip(hand_frames[1:], seqs[h.hand_no], strict=True):
            frame["at"] = rank[q]
    hands_out = []
    for h, hand, pairing, hand_frames, scores, seen, (deal, table) in zip(
        stored.hands, match.hands, match.pairings, frames, scores_after, events, deals, strict=True
    ):
        # Every move in the rule documents' words (every card is face up in a replay); the two
        # who play the hand, in its hand seats (two players: the game seats).
        names = (g.names[pairing.seats[0]], g.names[pairing.seats[1]])
        r = hand.result
        log = words.hand_log(seen, names, None if r is None or r.dead else r.knocker_deadwood)
        hand_frames[0]["words"] = f"{g.names[h.dealer]} dealt"
        for frame, text in zip(hand_frames[1:], log, strict=True):
            frame["words"] = text
        hands_out.append(
            {
                "hand": h.hand_no + 1,
                # Four players: the deal's two hands were played at once; each frame's "at" counts
                # the deal's moves at both tables in the order they were made.
                "deal": deal,
                "table": table,
                "dealer": h.dealer,
                "seats": list(pairing.seats),
                "hand_dealer": hand.dealer,
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
        "players": len(g.seats),
        "columns": _columns(g),
        "rules": g.rules,
        "hands": hands_out,
        "final": {**final.to_json(), "explain": final.explain(tuple(_columns(g)))},
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
