"""Game records: one hand or a whole game as JSON, and ``ginrummy replay``.

A record holds everything needed to replay a game exactly, and the results it claims::

    {"format": "ginrummy-record/1", "kind": "game" | "hand",
     "rules": {"preset": ..., "overrides": {...}}, "first_dealer": 0, "seed": 123,
     "players": ["You", "Sam"],
     "hands": [{"dealer": 0, "deck": ["As", ... 52 cards], "actions": ["pass", "pass", "stock", ...],
                "result": {...HandResult...} | null}],
     "result": {"over": ..., "scores": [...], "next_dealer": ..., "final": {...} | null}}

Deck order: cards are dealt one at a time starting with the non-dealer (``deck[0]`` to the
non-dealer, ``deck[1]`` to the dealer, ...), ``deck[20]`` is the upcard and ``deck[21:]`` the
stock from the top. A hand without ``"deck"`` is shuffled from the match seed, as
:class:`~ginrummy.match.Match` deals it. Actions are in the text notation of
:mod:`ginrummy.actions`; the last hand may be unfinished (``"result": null``).

Three or four players (a :class:`~ginrummy.game.Game`): ``players`` names three or four, and
each hand also says who played it, its :class:`~ginrummy.dealing.Pairing`: ``"seats"`` (the game
seats of hand seats 0 and 1), ``"dealer"`` (the hand seat with the dealer's part, as in every
hand; the hand's ``result`` is in hand seats too) and ``"dealt_by"`` (the game seat that deals).
With four players each deal is two hands, table 1 then table 2, and a finished deal is written
on the team sheet once both are over. The game's result says ``"next"`` (the next deal's
pairings) instead of ``"next_dealer"``. A hand may leave out ``"seats"`` and ``"dealt_by"``
(the games store keeps only the dealer): they are then the rotation's. Two-player records are
unchanged.

Replaying checks every action against the rules and re-derives every stated result; the first
disagreement is a :class:`RecordError` naming the hand and the action's index. Records are
written with a stable key order, ``indent=2`` and a trailing newline, so record -> replay ->
record gives the same bytes.

>>> from ginrummy.rules import Rules
>>> m = Match(Rules(), first_dealer=1, seed=5)
>>> _ = m.start_hand(list(range(52)))
>>> _ = m.apply('pass')
>>> text = dumps(match_to_record(m))
>>> dumps(match_to_record(match_from_record(loads(text)))) == text
True
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from .actions import Action
from .cards import card_str, parse_card
from .errors import GinRummyError, IllegalActionError, NotationError, RecordError, RulesError
from .events import Step
from .game import SEAT_COUNTS, Game
from .hand import Hand
from .match import Match
from .multisheet import RoundResult, SeatedResult, team_names
from .rules import Rules

FORMAT = "ginrummy-record/1"
KINDS = ("game", "hand")

#: Told of each step of a replay: ``(match, None)`` right after a deal, ``(match, step)`` after
#: each action (a finished hand already on the sheet), so a caller (the web app's move-by-move
#: replay) can look at the table in between.
ReplayObserver = Callable[[Any, Step | None], None]


class ReplayError(RecordError):
    """A record whose action ``index`` of hand ``hand`` (both 0-based) breaks a rule.

    ``action`` is the action's text as recorded, ``rule`` the rule it breaks (or "record").
    """

    def __init__(
        self, message: str, hand: int | None = None, index: int | None = None, *, action: str | None = None,
        rule: str = "record",
    ) -> None:
        super().__init__(message, hand=hand, index=index)
        self.action = action
        self.rule = rule


# ---------------------------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------------------------


def match_status(match: Game) -> dict[str, Any]:
    """The game's state as a record's ``"result"``: scores, who deals next, final (once over)."""
    if isinstance(match, Match):
        return {
            "over": match.is_over,
            "scores": list(match.scores),
            "next_dealer": None if match.is_over else match.next_dealer,
            "final": match.final().to_json() if match.is_over else None,
        }
    return {
        "over": match.is_over,
        "scores": list(match.scores),
        "next": None if match.is_over else [p.to_json() for p in match.next_pairings],
        "final": match.final().to_json() if match.is_over else None,
    }


def match_to_record(match: Game, kind: str | None = None) -> dict[str, Any]:
    """The JSON record of a game: ``kind`` "game", or "hand" for a one-deal record (default:
    the kind the game was read from, else "game")."""
    kind = kind or match.record_kind
    if kind not in KINDS:
        raise RecordError(f"record kind must be one of {', '.join(KINDS)}, not {kind!r}")
    if kind == "hand" and match.deals != 1:
        if isinstance(match, Match):
            raise RecordError(f"a hand record holds exactly one hand, this match has {len(match.hands)}")
        raise RecordError(f"a hand record holds exactly one deal, this game has {match.deals}")
    hands = []
    seated = not isinstance(match, Match)
    for h, p in zip(match.hands, match.pairings, strict=True):
        entry: dict[str, Any] = {"seats": list(p.seats), "dealer": h.dealer, "dealt_by": p.dealt_by} if seated else {
            "dealer": h.dealer
        }
        entry["deck"] = [card_str(c) for c in h.deck]
        entry["actions"] = [str(step.action) for step in h.history]
        entry["result"] = None if h.result is None else h.result.to_json()
        hands.append(entry)
    return {
        "format": FORMAT,
        "kind": kind,
        "rules": match.rules.to_json(),
        "first_dealer": match.first_dealer,
        "seed": match.seed,
        "players": list(match.players),
        "hands": hands,
        "result": match_status(match),
    }


def dumps(record: Mapping[str, Any]) -> str:
    """The record's text: stable key order, indent 2, UTF-8 as is, a trailing newline."""
    return json.dumps(record, indent=2, ensure_ascii=False) + "\n"


def loads(text: str) -> dict[str, Any]:
    """Parse a record's text (not yet checked against the rules)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError(f"the record is not valid JSON: {e}") from e
    if not isinstance(data, dict):
        raise RecordError("a record must be a JSON object")
    return data


def save(record: Mapping[str, Any], path: str | Path) -> None:
    Path(path).write_text(dumps(record), encoding="utf-8")


def load(path: str | Path) -> dict[str, Any]:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise RecordError(f"cannot read record {path}: {e.strerror}") from e
    return loads(text)


# ---------------------------------------------------------------------------------------------
# Replaying
# ---------------------------------------------------------------------------------------------


def _deck(raw: Any, hand: int) -> list[int]:
    if not isinstance(raw, list) or len(raw) != 52:
        raise ReplayError(f"hand {hand + 1}: the deck must be a list of the 52 cards", hand=hand)
    cards = []
    for i, text in enumerate(raw):
        if not isinstance(text, str):
            raise ReplayError(f"hand {hand + 1}: deck card {i} is not a card: {text!r}", hand=hand)
        try:
            cards.append(parse_card(text))
        except NotationError as e:
            raise ReplayError(f"hand {hand + 1}: deck card {i}: {e}", hand=hand) from None
    if sorted(cards) != list(range(52)):
        raise ReplayError(f"hand {hand + 1}: the deck must hold each of the 52 cards once", hand=hand)
    return cards


def match_from_record(data: Mapping[str, Any], *, observe: ReplayObserver | None = None) -> Match:
    """Replay a two-player record into a :class:`Match` (see :func:`game_from_record`)."""
    game = game_from_record(data, observe=observe)
    if not isinstance(game, Match):
        raise ReplayError(f"this record is of a {game.seats}-player game, not a two-player match", rule="players")
    return game


def game_from_record(data: Mapping[str, Any], *, observe: ReplayObserver | None = None) -> Game:
    """Replay a record into a :class:`Match` (two players) or a :class:`~ginrummy.game.Game`
    (three or four), checking every action and every stated result.

    ``observe`` (optional) is called after each deal and each action (see :data:`ReplayObserver`).
    """
    if not isinstance(data, Mapping):
        raise ReplayError("a record must be a JSON object")
    if data.get("format") != FORMAT:
        raise ReplayError(f"not a game record: format must be {FORMAT!r}, not {data.get('format')!r}")
    kind = data.get("kind", "game")
    if kind not in KINDS:
        raise ReplayError(f"record kind must be one of {', '.join(KINDS)}, not {kind!r}")
    try:
        rules = Rules.from_json(data.get("rules", "classic"))
    except RulesError as e:
        raise ReplayError(f"the record's rules: {e}", rule="rules") from None
    players = data.get("players", ["Player 1", "Player 2"])
    if (
        not isinstance(players, list)
        or len(players) not in SEAT_COUNTS
        or not all(isinstance(p, str) for p in players)
    ):
        raise ReplayError("players must be a list of two, three or four names")
    n = len(players)
    first = data.get("first_dealer")
    if first not in range(n) or isinstance(first, bool):
        raise ReplayError(f"first_dealer must be {'0 or 1' if n == 2 else f'0 to {n - 1}'}, not {first!r}")
    seed = data.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise ReplayError(f"seed must be a whole number, not {seed!r}")
    hands = data.get("hands")
    if not isinstance(hands, list):
        raise ReplayError("hands must be a list")
    match: Game
    if n == 2:
        if kind == "hand" and len(hands) != 1:
            raise ReplayError(f"a hand record holds exactly one hand, not {len(hands)}")
        two = Match(rules, first_dealer=first, seed=seed, players=players)
        two.record_kind = kind
        for i, hd in enumerate(hands):
            _replay_hand(two, i, hd, last=i == len(hands) - 1, observe=observe)
        match = two
    else:
        match = _replay_seated(Game(rules, players=players, first_dealer=first, seed=seed), kind, hands, observe)
    stated = data.get("result")
    if stated is not None:
        derived = match_status(match)
        if stated != derived:
            raise ReplayError(
                f"the record's game result disagrees with the replay: {_diff(stated, derived)}", rule="result"
            )
    return match


def _replay_hand(match: Match, i: int, hd: Any, *, last: bool, observe: ReplayObserver | None) -> None:
    if not isinstance(hd, Mapping):
        raise ReplayError(f"hand {i + 1} must be an object", hand=i)
    if match.is_over:
        raise ReplayError(f"hand {i + 1}: the game was already over after hand {i}", hand=i, rule="game_over")
    if match.in_progress:
        raise ReplayError(f"hand {i + 1}: hand {i} was not finished", hand=i, rule="record")
    dealer = hd.get("dealer")
    if dealer != match.next_dealer:
        raise ReplayError(
            f"hand {i + 1}: the dealer must be {match.next_dealer} ({match.players[match.next_dealer]}) "
            f"under the next-dealer rule {match.rules.next_dealer!r}, not {dealer!r}",
            hand=i,
            rule="next_dealer",
        )
    if "deck" not in hd and match.seed_given is False:
        raise ReplayError(f"hand {i + 1} has no deck, and the record has no seed to shuffle one from", hand=i)
    deck = _deck(hd["deck"], i) if "deck" in hd else None
    h = match.start_hand(deck)
    if observe is not None:
        observe(match, None)
    _replay_actions(match, h, 0, i, hd, last=last, observe=observe)


def _replay_seated(game: Game, kind: str, hands: list[Any], observe: ReplayObserver | None) -> Game:
    """Replay the hands of a three- or four-player record, deal by deal."""
    game.record_kind = kind
    per_deal = len(game.next_pairings)
    if kind == "hand" and len(hands) != per_deal:
        raise ReplayError(f"a hand record holds exactly one deal ({per_deal} hand(s)), not {len(hands)}")
    for start in range(0, len(hands), per_deal):
        deal = hands[start : start + per_deal]
        if game.is_over:
            raise ReplayError(
                f"hand {start + 1}: the game was already over after hand {start}", hand=start, rule="game_over"
            )
        if game.in_progress:
            raise ReplayError(f"hand {start + 1}: hand {start} was not finished", hand=start, rule="record")
        if len(deal) < per_deal:
            raise ReplayError(
                f"hand {start + 1}: a deal of the four-player game is two hands (both tables), "
                f"the record ends after one",
                hand=start,
            )
        decks: list[list[int] | None] = []
        for t, (hd, expected) in enumerate(zip(deal, game.next_pairings, strict=True)):
            i = start + t
            if not isinstance(hd, Mapping):
                raise ReplayError(f"hand {i + 1} must be an object", hand=i)
            stated = {"seats": hd.get("seats"), "dealer": hd.get("dealer"), "dealt_by": hd.get("dealt_by")}
            if "seats" not in hd and "dealt_by" not in hd:  # the rotation's (the games store keeps the dealer only)
                stated.update(seats=list(expected.seats), dealt_by=expected.dealt_by)
            if stated != expected.to_json():
                names = game.players
                a, b = expected.seats
                raise ReplayError(
                    f"hand {i + 1}: {names[a]} and {names[b]} play this hand (seats {a} and {b}, hand seat "
                    f"{expected.dealer} with the dealer's part) and {names[expected.dealt_by]} deals (seat "
                    f"{expected.dealt_by}); the record says {json.dumps(stated)}",
                    hand=i,
                    rule="rotation",
                )
            if "deck" not in hd and game.seed_given is False:
                raise ReplayError(f"hand {i + 1} has no deck, and the record has no seed to shuffle one from", hand=i)
            decks.append(_deck(hd["deck"], i) if "deck" in hd else None)
        game.deal(decks)
        if observe is not None:
            observe(game, None)
        last = start + per_deal >= len(hands)
        for t, hd in enumerate(deal):
            _replay_actions(game, game.tables[t], t, start + t, hd, last=last, observe=observe)
    return game


def _replay_actions(
    game: Game, h: Hand, table: int, i: int, hd: Mapping[str, Any], *, last: bool, observe: ReplayObserver | None
) -> None:
    """Play hand ``i``'s recorded actions (at ``table`` of its deal) and check its stated result."""
    actions = hd.get("actions", [])
    if not isinstance(actions, list):
        raise ReplayError(f"hand {i + 1}: actions must be a list", hand=i)
    for j, text in enumerate(actions):
        where = f"hand {i + 1}, action {j + 1} (index {j}) {text!r}"
        if h.is_over:
            raise ReplayError(f"{where}: the hand is already over", hand=i, index=j, action=str(text), rule="over")
        try:
            if isinstance(text, str):
                action = Action.parse(text)
            elif isinstance(text, int) and not isinstance(text, bool):
                action = Action.from_int(text)
            else:
                raise NotationError(f"not an action: {text!r}")
            step = game.apply(action, table) if table else game.apply(action)
        except NotationError as e:
            raise ReplayError(f"{where}: {e}", hand=i, index=j, action=str(text), rule="notation") from None
        except IllegalActionError as e:
            pairing = game.pairings[i]
            seat = game.players[pairing.seats[h.current]] if h.current in (0, 1) else "nobody"
            raise ReplayError(
                f"{where}, by {seat}: {e} [rule: {e.rule}]", hand=i, index=j, action=str(text), rule=e.rule
            ) from None
        if observe is not None:
            observe(game, step)
    if not h.is_over and not last:
        raise ReplayError(f"hand {i + 1} is not finished, but another hand follows it", hand=i)
    stated = hd.get("result")
    derived = None if h.result is None else h.result.to_json()
    if "result" in hd and stated != derived:
        raise ReplayError(
            f"hand {i + 1}: the record's result disagrees with the replay: {_diff(stated, derived)}",
            hand=i,
            rule="result",
        )


def _diff(stated: Any, derived: Any) -> str:
    if isinstance(stated, Mapping) and isinstance(derived, Mapping):
        keys = [k for k in derived if stated.get(k) != derived.get(k)] + [k for k in stated if k not in derived]
        if keys:
            return "; ".join(f"{k} is {stated.get(k)!r} in the record, {derived.get(k)!r} on replay" for k in keys[:4])
    return f"the record says {json.dumps(stated)}, the replay gives {json.dumps(derived)}"


# ---------------------------------------------------------------------------------------------
# ginrummy replay FILE [--json]
# ---------------------------------------------------------------------------------------------


def replay_report(data: Mapping[str, Any]) -> dict[str, Any]:
    """Replay a record and describe each hand and the game, or the first error, as plain data."""
    try:
        game = game_from_record(data)
    except ReplayError as e:
        return {"ok": False, "error": str(e), "hand": e.hand, "index": e.index, "action": e.action, "rule": e.rule}
    if not isinstance(game, Match):
        return _seated_report(game)
    match = game
    names = match.players
    hands = []
    rows = match.sheet.rows
    for i, h in enumerate(match.hands):
        hands.append(
            {
                "hand": i + 1,
                "dealer": h.dealer,
                "actions": len(h.history),
                "result": None if h.result is None else h.result.to_json(),
                "explain": "Not finished." if h.result is None else h.result.explain(names),
                # Totals toward the target after this hand, one pair per game (three for Hollywood).
                "totals": [list(t) for t in rows[i].totals] if i < len(rows) else None,
            }
        )
    status = match_status(match)
    lines = match.final().explain(names) if match.is_over else [
        f"Not over: {names[0]} {match.scores[0]}, {names[1]} {match.scores[1]}."
    ]
    return {"ok": True, "players": list(names), "hands": hands, "game": status, "explain": lines}


def _seated_report(game: Game) -> dict[str, Any]:
    """The replay report of a three- or four-player game: each hand (who played it, at which
    table), each deal as the ledger wrote it (with four players: what the teams scored), the game."""
    names = game.players
    teams = team_names(names) if game.seats == 4 else None
    columns = teams or names
    per = len(game.tables) or 1
    hands = []
    for i, (h, p) in enumerate(zip(game.hands, game.pairings, strict=True)):
        a, b = p.seats
        hands.append(
            {
                "hand": i + 1,
                "deal": i // per + 1,
                "table": i % per + 1,
                "seats": [a, b],
                "dealer": h.dealer,
                "dealt_by": p.dealt_by,
                "actions": len(h.history),
                "result": None if h.result is None else h.result.to_json(),
                "winner": None if h.result is None or h.result.winner is None else p.seats[h.result.winner],
                "explain": "Not finished." if h.result is None else h.result.explain((names[a], names[b])),
            }
        )
    rows = game.sheet.rows
    deals = []
    for k in range(game.deals):
        row = rows[k] if k < len(rows) else None
        entry = None if row is None else row.result
        if isinstance(entry, RoundResult):
            assert teams is not None
            explain = entry.explain(names, teams)
        elif isinstance(entry, SeatedResult):
            explain = entry.explain(names)
        else:
            explain = "Not finished."
        deals.append(
            {
                "deal": k + 1,
                "hands": [k * per + t + 1 for t in range(per)],
                "winner": None if entry is None else entry.winner,
                "points": None if entry is None else entry.points,
                # Totals toward the target after this deal, one list per game (three for Hollywood).
                "totals": None if row is None else [list(t) for t in row.totals],
                "explain": explain,
            }
        )
    status = match_status(game)
    lines = game.final().explain(columns) if game.is_over else [
        "Not over: " + ", ".join(f"{c} {s}" for c, s in zip(columns, game.scores, strict=True)) + "."
    ]
    out: dict[str, Any] = {"ok": True, "players": list(names)}
    if teams is not None:
        out["teams"] = {teams[0]: [names[0], names[2]], teams[1]: [names[1], names[3]]}
    out.update({"hands": hands, "deals": deals, "game": status, "explain": lines})
    return out


def _seated_text(report: Mapping[str, Any]) -> list[str]:
    """The text of a three- or four-player replay: one line per deal, then the game."""
    names = report["players"]
    hands = report["hands"]
    lines = []
    for d in report["deals"]:
        tables = [hands[n - 1] for n in d["hands"]]
        if len(tables) == 1:
            h = tables[0]
            a, b = h["seats"]
            who = f"{names[h['dealt_by']]} deals and sits out; {names[a]} against {names[b]}"
        else:
            who = "; ".join(
                f"{names[h['seats'][0]]} against {names[h['seats'][1]]}, {names[h['dealt_by']]} deals" for h in tables
            )
        explain = d["explain"]
        if d["totals"] is None:
            explain = " ".join(f"Table {t + 1}: {h['explain']}" for t, h in enumerate(tables)) if len(tables) > 1 \
                else tables[0]["explain"]
        score = "" if d["totals"] is None else " [" + " / ".join("-".join(map(str, t)) for t in d["totals"]) + "]"
        lines.append(f"Hand {d['deal']} ({who}): {explain}{score}")
    return lines + list(report["explain"])


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="a game or hand record (JSON); - reads standard input")
    p.add_argument("--json", action="store_true", help="print JSON")


def run(args: argparse.Namespace) -> int:
    if args.file == "-":
        data = loads(sys.stdin.read())
    else:
        data = load(args.file)
    report = replay_report(data)
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=2))
        return 0 if report["ok"] else 1
    if not report["ok"]:
        print(f"illegal record: {report['error']}")
        return 1
    if "deals" in report:
        for line in _seated_text(report):
            print(line)
        return 0
    names = report["players"]
    for h in report["hands"]:
        score = ""
        if h["totals"] is not None:
            score = " [" + " / ".join(f"{t[0]}-{t[1]}" for t in h["totals"]) + "]"
        print(f"Hand {h['hand']} (dealer {names[h['dealer']]}): {h['explain']}{score}")
    for line in report["explain"]:
        print(line)
    return 0


__all__ = [
    "FORMAT",
    "GinRummyError",
    "ReplayError",
    "ReplayObserver",
    "dumps",
    "game_from_record",
    "load",
    "loads",
    "match_from_record",
    "match_status",
    "match_to_record",
    "replay_report",
    "save",
]
