"""The messages of a web game of three or four players (RULES.md, "Three and four players").

Each hand is an ordinary two-player hand between two game seats (a
:class:`~ginrummy.dealing.Pairing`); with four players a deal is two hands at two tables, played
at once. A seat's state message carries its own hand exactly as a two-player message does
(``view``, ``mine``, ``knock``, ``log``, ``explain`` and ``last``, in the hand's seats 0 and 1,
built from ``game.view(seat)`` only), plus the game around it: who plays whom, the ledger (three
players' columns, or the teams AC and BD) and, for every table of the deal, whether it is over.

A seat learns nothing of a hand it does not play while that hand is played: not a card, not a
move, only that it is being played. Once that hand is over, the seat sees its result and the
cards the end of any hand shows: a hand laid out after a knock (both, once the defender has laid
out), the melds and the layoffs; the cards of a dead hand stay face down.
"""

from __future__ import annotations

from typing import Any

from ..cards import card_str, cards_of
from ..dealing import team_of
from ..hand import Hand
from ..multisheet import RoundResult, SeatedResult, TeamSheet, team_names
from ..observation import opponent_known
from ..words import hand_log
from .room import Room, room_connected
from .views import game_columns, knock, knocker_count, mine, plan


def columns(room: Room) -> list[str]:
    """The ledger's column names: the players (three), or the two teams (four)."""
    names = room.row.names
    return list(team_names(names)) if room.seats == 4 else list(names)


def _cs(mask: int) -> list[str]:
    return [card_str(c) for c in cards_of(mask)]


def shown(hand: Hand) -> dict[str, Any]:
    """What the end of a finished hand shows everyone: each hand laid out after a knock (None for a
    hand still face down: both of a dead hand), the melds on the table and the layoffs."""
    assert hand.is_over
    faces = [_cs(hand.hands[s]) if opponent_known(hand, 1 - s) == hand.hands[s] and hand.knocker is not None else None
             for s in (0, 1)]
    return {
        "hands": faces,
        "knocker": hand.knocker,
        "knocker_melds": [_cs(m) for m in hand.knocker_melds],
        "laid_on": [_cs(m) for m in hand.laid_on],
        "defender_melds": [_cs(m) for m in hand.defender_melds],
        "layoffs": [{"card": card_str(c), "meld": t} for c, t in hand.layoffs],
    }


def _sheet_row(room: Room, index: int, result: Any, totals: Any, written: Any, closed: Any) -> dict[str, Any]:
    names = room.row.names
    tables: tuple[SeatedResult, ...] = result.tables if isinstance(result, RoundResult) else (result,)
    row: dict[str, Any] = {
        "hand": index + 1,
        "tables": [
            {**t.to_json(), "explain": t.explain(names)} for t in tables
        ],
        # The ledger column that scores this hand (a seat, or a team with four), and what it scores.
        "winner": result.winner,
        "points": result.points,
        "kind": result.kind,
        "totals": [list(t) for t in totals],
        "written": list(written),
        "closed": list(closed),
    }
    if isinstance(result, RoundResult):
        row["team_points"] = list(result.team_points)
        row["explain"] = result.explain(names, team_names(names))
    else:
        row["explain"] = result.explain(names)
    return row


def public(room: Room) -> dict[str, Any]:
    """Facts every seat (and the history page) may see of a three- or four-player game: no card."""
    m = room.match
    sheet = m.sheet
    final = None
    if m.is_over:
        f = m.final()
        final = {**f.to_json(), "explain": f.explain(tuple(columns(room)))}
    deal_hashes = room.commitments[len(room.commitments) - len(m.tables):] if m.tables else []
    return {
        "id": room.row.id,
        "players": room.seats,
        "names": list(room.row.names),
        "kinds": [s.player for s in room.row.seats],
        "opponent": room.row.opponent,
        "computer_seat": room.row.computer_seat,
        "rules": room.rules_json,
        "rules_text": room.rules_text,
        "status": "finished" if m.is_over else "playing",
        "shared": room.row.shared,
        "deal": m.deals,
        "hand_no": len(m.hands),
        "deck_hashes": deal_hashes,
        "ready": list(room.ready),
        "connected": room_connected(room),
        "columns": columns(room),
        "teams": [[0, 2], [1, 3]] if isinstance(sheet, TeamSheet) else None,
        "target": sheet.target,
        "scores": list(sheet.scores),
        "hands_won": list(sheet.hands_won),
        "games": sheet.games,
        "hollywood": m.rules.hollywood,
        "game_columns": game_columns(sheet),
        "pairings": [p.to_json() for p in m.current_pairings],
        "upcoming": [p.to_json() for p in m.next_pairings] if not m.in_progress and not m.is_over else [],
        "tables_over": [h.is_over for h in m.tables],
        "sheet": room.sheet_json(sheet.rows, lambda r: _sheet_row(room, r.index, r.result, r.totals, r.written, r.closed)),
        "final": final,
    }


def state(room: Room, seat: int, pub: dict[str, Any]) -> dict[str, Any]:
    """The whole state message for one seat of a three- or four-player game."""
    m = room.match
    names = room.row.names
    at = m.where(seat)
    out: dict[str, Any] = {
        "type": "state",
        "seq": room.seq_of(seat),
        "seat": seat,
        "players": room.seats,
        "game": pub,
        "table": None if at is None else at[0],
        "sits_out": at is None and bool(m.tables),
        "hand_seat": None,
        "opponent": None,
        "partner": (seat + 2) % 4 if room.seats == 4 else None,
        "column": team_of(seat) if room.seats == 4 else seat,
        "hand_no": None,
        "deck_hash": None,
        "view": None,
        "mine": None,
        "knock": None,
        "log": [],
        "explain": None,
        "last": None,
        "tables": [],
    }
    for t, (h, p) in enumerate(zip(m.tables, m.current_pairings, strict=True)):
        entry: dict[str, Any] = {"table": t, "pairing": p.to_json(), "over": h.is_over, "mine": at is not None and at[0] == t}
        if h.result is not None:
            seated = SeatedResult(p, h.result)
            entry["result"] = seated.to_json()
            entry["explain"] = seated.explain(names)
            if not entry["mine"]:
                entry["shown"] = shown(h)
        out["tables"].append(entry)
    if at is None:
        return out
    table, hand_seat = at
    pairing = m.current_pairings[table]
    view = m.view(seat)
    pair_names = (names[pairing.seats[0]], names[pairing.seats[1]])
    out["hand_seat"] = hand_seat
    out["opponent"] = pairing.seats[1 - hand_seat]
    out["hand_no"] = room.hand_no(table) + 1
    out["deck_hash"] = room.commitments[room.hand_no(table)] if room.hand_no(table) < len(room.commitments) else None
    out["view"] = view.to_json()
    out["mine"] = {**mine(view), "plan": plan(view, room.table.layout_plan(seat))}
    out["knock"] = knock(view)
    log = hand_log(view.events, pair_names, knocker_count(view))
    out["log"] = [{"seat": e.seat, "text": text} for e, text in zip(view.events, log, strict=True)]
    if view.result is not None:
        out["explain"] = view.result.explain(pair_names)
    last = room.lasts.get(table)
    if last is not None:
        # In hand seats, as the two-player table reads it.
        out["last"] = {"seat": pairing.seats.index(last["seat"]), "action": last["action"]}
    return out
