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
from .match import Match
from .rules import Rules

FORMAT = "ginrummy-record/1"
KINDS = ("game", "hand")

#: Told of each step of a replay: ``(match, None)`` right after a deal, ``(match, step)`` after
#: each action (a finished hand already on the sheet), so a caller (the web app's move-by-move
#: replay) can look at the table in between.
ReplayObserver = Callable[[Match, Step | None], None]


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


def match_status(match: Match) -> dict[str, Any]:
    """The game's state as a record's ``"result"``: scores, next dealer, final (once over)."""
    return {
        "over": match.is_over,
        "scores": list(match.scores),
        "next_dealer": None if match.is_over else match.next_dealer,
        "final": match.final().to_json() if match.is_over else None,
    }


def match_to_record(match: Match, kind: str | None = None) -> dict[str, Any]:
    """The JSON record of a match: ``kind`` "game", or "hand" for a one-hand record (default:
    the kind the match was read from, else "game")."""
    kind = kind or match.record_kind
    if kind not in KINDS:
        raise RecordError(f"record kind must be one of {', '.join(KINDS)}, not {kind!r}")
    if kind == "hand" and len(match.hands) != 1:
        raise RecordError(f"a hand record holds exactly one hand, this match has {len(match.hands)}")
    hands = []
    for h in match.hands:
        hands.append(
            {
                "dealer": h.dealer,
                "deck": [card_str(c) for c in h.deck],
                "actions": [str(step.action) for step in h.history],
                "result": None if h.result is None else h.result.to_json(),
            }
        )
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
    """Replay a record into a :class:`Match`, checking every action and every stated result.

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
    first = data.get("first_dealer")
    if first not in (0, 1) or isinstance(first, bool):
        raise ReplayError(f"first_dealer must be 0 or 1, not {first!r}")
    seed = data.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise ReplayError(f"seed must be a whole number, not {seed!r}")
    players = data.get("players", ["Player 1", "Player 2"])
    if not isinstance(players, list) or len(players) != 2 or not all(isinstance(p, str) for p in players):
        raise ReplayError("players must be a list of two names")
    hands = data.get("hands")
    if not isinstance(hands, list):
        raise ReplayError("hands must be a list")
    if kind == "hand" and len(hands) != 1:
        raise ReplayError(f"a hand record holds exactly one hand, not {len(hands)}")
    match = Match(rules, first_dealer=first, seed=seed, players=players)
    match.record_kind = kind
    for i, hd in enumerate(hands):
        _replay_hand(match, i, hd, last=i == len(hands) - 1, observe=observe)
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
            step = match.apply(action)
        except NotationError as e:
            raise ReplayError(f"{where}: {e}", hand=i, index=j, action=str(text), rule="notation") from None
        except IllegalActionError as e:
            seat = match.players[h.current] if h.current in (0, 1) else "nobody"
            raise ReplayError(
                f"{where}, by {seat}: {e} [rule: {e.rule}]", hand=i, index=j, action=str(text), rule=e.rule
            ) from None
        if observe is not None:
            observe(match, step)
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
        match = match_from_record(data)
    except ReplayError as e:
        return {"ok": False, "error": str(e), "hand": e.hand, "index": e.index, "action": e.action, "rule": e.rule}
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
    "load",
    "loads",
    "match_from_record",
    "match_status",
    "match_to_record",
    "replay_report",
    "save",
]
