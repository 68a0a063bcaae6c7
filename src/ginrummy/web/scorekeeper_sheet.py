"""One stored scorekeeper sheet for two, three or four players, and the JSON the page draws.

The sheet keeps what the players typed (names, the first dealer, rules, entries) and rebuilds the
ledger from it through the command line's scorekeepers
(:func:`ginrummy.scorekeeper_multi.make_keeper`): two players :class:`~ginrummy.scorekeeper.Scorekeeper`,
three :class:`~ginrummy.scorekeeper_multi.ThreeScorekeeper` (the dealer sits out, the loser deals
next), four :class:`~ginrummy.scorekeeper_multi.TeamScorekeeper` (seats 1 and 3 against 2 and 4,
two tables a hand). No rule is scored here; this module only lays out what the ledger says.

Stored ``names``: a JSON list of two names (the original shape, still read), or for three and
four players ``{"players": [...], "first_dealer": "Cy"}``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import GinRummyError, shown
from ..rules import Rules
from ..scorekeeper_multi import AnyKeeper, TeamScorekeeper, ThreeScorekeeper, make_keeper
from ..scoresheet import Ledger
from .errors import WebError
from .inputs import clean_name


class EntryError(GinRummyError):
    """A hand entry or sheet request that is malformed; ``rule`` names what it breaks (422)."""

    def __init__(self, message: str, rule: str = "entry") -> None:
        super().__init__(message)
        self.rule = rule


ORDINALS = ("first", "second", "third", "fourth")


def check_names(raw: Any) -> tuple[str, ...]:
    """Two, three or four names (an empty one becomes "Player N"); none: two default names."""
    if raw is None:
        return ("Player 1", "Player 2")
    if not isinstance(raw, Sequence) or isinstance(raw, str) or not 2 <= len(raw) <= 4:
        got = f"{len(raw)} of them" if isinstance(raw, Sequence) and not isinstance(raw, str) else shown(raw)
        raise EntryError(f"names must be a list of two player names, or three, or four (two teams), not {got}",
                         rule="players")
    out: list[str] = []
    for i, n in enumerate(raw):
        try:
            n = clean_name(n, f"the name of player {i + 1}", empty_ok=True)
        except WebError as e:
            raise EntryError(str(e), rule="players") from None
        out.append(n or f"Player {i + 1}")
    folded = [n.casefold() for n in out]
    for i, n in enumerate(folded):
        if n in folded[:i]:
            j = folded.index(n)
            raise EntryError(f"the {ORDINALS[j]} and {ORDINALS[i]} players need different names (both are "
                             f"{out[i]!r})", rule="players")
    return tuple(out)


def default_first_dealer(names: Sequence[str]) -> str | None:
    """Who deals hand 1 when the page does not say: three players, the last named (so the first two
    play hand 1); four, the first named; two players: nobody tracked."""
    return {2: None, 3: names[-1], 4: names[0]}[len(names)]


def check_first_dealer(raw: Any, names: Sequence[str]) -> str | None:
    """The first dealer (a name, any case, or a seat number) of a three- or four-player sheet."""
    if raw is None:
        return default_first_dealer(names)
    if len(names) == 2:
        raise EntryError("the two-player scorekeeper does not track the dealer: leave first_dealer out",
                         rule="players")
    if isinstance(raw, int) and not isinstance(raw, bool) and 0 <= raw < len(names):
        return names[raw]
    if isinstance(raw, str):
        for n in names:
            if n.casefold() == raw.strip().casefold():
                return n
    raise EntryError(f"the first dealer (first_dealer) must be one of the players ({', '.join(names)}), "
                     f"not {shown(raw)}", rule="players")


def stored_names(names: Sequence[str], first_dealer: str | None) -> str:
    """The ``names`` column: the two-player list as before, an object for three and four."""
    if len(names) == 2:
        return json.dumps(list(names))
    return json.dumps({"players": list(names), "first_dealer": first_dealer})


def read_names(text: str) -> tuple[tuple[str, ...], str | None]:
    """The players and first dealer from the ``names`` column (either stored shape)."""
    data = json.loads(text)
    if isinstance(data, list):
        return tuple(data[:2]), None
    return tuple(data["players"]), data.get("first_dealer")


def build(rules: Rules, entries: Sequence[Mapping[str, Any]], names: Sequence[str],
          first_dealer: str | None = None) -> AnyKeeper:
    """Replay the entries through the command line's scorekeeper; an error names the hand.

    Replaying (rather than patching a ledger) is what makes a correction to an early hand
    recompute every total, bonus, game ending and, for three players, who deals after it.
    """
    keeper = make_keeper(rules, tuple(names), first_dealer)
    for entry in entries:
        keeper.add(entry)
    return keeper


def title(names: Sequence[str], columns: Sequence[str]) -> str:
    """The game's heading: "You v Sam", "Ann, Bob and Cy", "Ann & Cy v Bob & Dee"."""
    if len(names) == 3:
        return f"{names[0]}, {names[1]} and {names[2]}"
    return f"{columns[0]} v {columns[1]}"


def players_line(names: Sequence[str], columns: Sequence[str], target: int, bonuses: bool) -> str | None:
    """How a game of three or four is kept, in a sentence for the page's rules line."""
    extras = "with the rule set's bonuses" if bonuses else "hand points only, no bonuses"
    if len(names) == 3:
        return (f"Three players: two play each hand and the dealer sits out; the loser deals the next. "
                f"Game to {target}, {extras}.")
    if len(names) == 4:
        return (f"Four players, {columns[0]} against {columns[1]}: partners switch opponents every hand; a team "
                "that wins both tables adds both results, one table each scores the difference. "
                f"First team to {target}, {extras}.")
    return None


class Sheet:
    """One stored sheet: players, rules and the entries, and the ledger computed from them."""

    def __init__(self, sheet_id: str, names: tuple[str, ...], rules: Rules, entries: list[dict[str, Any]],
                 created: float, updated: float, first_dealer: str | None = None) -> None:
        self.id = sheet_id
        self.names = names
        self.first_dealer = first_dealer if first_dealer or len(names) == 2 else default_first_dealer(names)
        self.rules = rules
        self.entries = entries
        self.created = created
        self.updated = updated
        self.keeper = build(rules, entries, names, first_dealer)
        sheet = self.keeper.sheet
        assert sheet is not None  # three players: the web sheet always knows the first dealer
        self.ledger: Ledger[Any] = sheet
        self.columns: tuple[str, ...] = (self.keeper.teams if isinstance(self.keeper, TeamScorekeeper)
                                         else tuple(names))

    def game_over_text(self) -> str:
        """The last line of the final result ("Ann wins: ..."), for refusing a hand after the end."""
        return self.ledger.final().explain(self.columns)[-1]

    def to_json(self) -> dict[str, Any]:
        """Everything the page draws: each hand with its points and running totals, then the end.

        The columns are the players (two or three) or the two teams; ``winner``, ``totals``,
        ``scores`` and the final figures are indexed by column.
        """
        names, rules, ledger, columns = self.names, self.rules, self.ledger, self.columns
        multi = isinstance(self.keeper, (ThreeScorekeeper, TeamScorekeeper))
        report = self.keeper.report()["hands"] if multi else []
        hands = []
        for row, entry in zip(ledger.rows, self.entries, strict=True):
            r = row.result
            h: dict[str, Any] = {
                "number": row.index + 1,
                "entry": entry,
                "kind": r.kind,
                "winner": r.winner,
                "winner_name": None if r.winner is None else columns[r.winner],
                "points": r.points,
                "extra_boxes": r.extra_boxes,
                "multiplier": getattr(r, "multiplier", 1),
                "written": list(row.written),
                "totals": [list(t) for t in row.totals],
                "closed": list(row.closed),
                "explain": report[row.index]["explain"] if multi else r.explain(names),
            }
            if multi:
                rep = report[row.index]
                for key in ("dealer", "players", "tables", "team_points"):
                    if key in rep:
                        h[key] = rep[key]
            hands.append(h)
        games = ledger.games
        over = ledger.is_over
        out: dict[str, Any] = {
            "id": self.id,
            "players": len(names),
            "names": list(names),
            "columns": list(columns),
            "title": title(names, columns),
            "teams": [[names[0], names[2]], [names[1], names[3]]] if len(names) == 4 else None,
            "first_dealer": self.first_dealer,
            "players_line": players_line(names, columns, ledger.target, ledger.bonuses),
            "next": self.keeper.next_hand() if multi else None,
            "rules": rules.to_json(),
            "rules_summary": rules.describe(),
            "target": ledger.target,
            "bonuses": ledger.bonuses,
            "hollywood": rules.hollywood,
            "oklahoma": rules.oklahoma,
            "big_gin": rules.big_gin,
            "straight_gin": rules.straight_gin,
            "upcard": rules.upcard,
            "knock_limit": rules.knock_limit,
            "games": games,
            "hands": hands,
            "scores": [list(ledger.game_scores(g)) for g in range(games)],
            "game_open": [ledger.game_open(g) for g in range(games)],
            "hands_won": list(ledger.hands_won),
            "over": over,
            "created": self.created,
            "updated": self.updated,
            "final": None,
            "totals": None,
            "margin": None,
            "winner": None,
        }
        if over:
            final = ledger.final()
            f = final.to_json()
            f["winner_name"] = None if final.winner is None else columns[final.winner]
            f["explain"] = final.explain(columns)
            f["games"] = [g.to_json() for g in final.games]
            out.update(final=f, totals=list(final.totals), margin=final.margin, winner=final.winner)
        return out


__all__ = ["EntryError", "Sheet", "build", "check_first_dealer", "check_names", "read_names", "stored_names"]
