"""The scorekeeper: score a game played with real cards, and ``ginrummy score``.

Per hand, the players enter who knocked (or went gin / big gin, or that the hand was dead) and
both deadwood counts after layoffs. The scorekeeper decides knock, gin or undercut with the same
:func:`~ginrummy.scoring.score_hand` the engine uses, and keeps the sheet with the same
:class:`~ginrummy.scoresheet.ScoreSheet` (so bonuses, shutouts, Oklahoma boxes and Hollywood agree
with played games by construction).

Input, one object per hand (players are named by the keys used)::

    {"knocker": "A", "deadwood": {"A": 3, "B": 25}}
    {"knocker": "B", "gin": true, "deadwood": {"A": 14, "B": 0}}
    {"knocker": "A", "big_gin": true, "deadwood": {"A": 0, "B": 20}}
    {"knocker": "A", "upcard": "7s", "deadwood": {"A": 3, "B": 25}}     (Oklahoma)
    {"dead": true}

000's worked example, final 263 to 86:

>>> k = Scorekeeper(Rules(), players=('You', 'Sam'))
>>> for e in [{'knocker': 'You', 'deadwood': {'You': 3, 'Sam': 25}},
...           {'knocker': 'Sam', 'gin': True, 'deadwood': {'You': 14, 'Sam': 0}},
...           {'knocker': 'You', 'deadwood': {'You': 8, 'Sam': 6}},
...           {'knocker': 'You', 'gin': True, 'deadwood': {'You': 0, 'Sam': 31}},
...           {'knocker': 'You', 'deadwood': {'You': 5, 'Sam': 35}}]:
...     _ = k.add(e)
>>> [r.points for r in k.sheet.results], k.sheet.final().totals
([22, 34, 12, 51, 30], (263, 86))
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from .cards import parse_card
from .errors import GinRummyError, IllegalActionError, NotationError, shown
from .rules import Rules, parse_rule_settings
from .scoresheet import ScoreSheet
from .scoring import DEAD_HAND, HandResult, score_hand

ENTRY_KEYS = frozenset({"knocker", "deadwood", "gin", "big_gin", "upcard", "dead"})


class ScoreInputError(GinRummyError, ValueError):
    """A hand entry the scorekeeper refuses. ``hand`` is 1-based; ``rule`` names the rule."""

    def __init__(self, message: str, hand: int | None = None, rule: str = "input") -> None:
        super().__init__(message)
        self.hand = hand
        self.rule = rule


def players_of(entries: Iterable[Any]) -> tuple[str, str]:
    """The two player names, in order of first appearance in the entries.

    >>> players_of([{'dead': True}, {'knocker': 'Sam', 'deadwood': {'You': 3, 'Sam': 2}}])
    ('Sam', 'You')
    """
    names: list[str] = []
    for e in entries:
        if not isinstance(e, Mapping):
            continue
        cands: list[Any] = [e.get("knocker")]
        if isinstance(e.get("deadwood"), Mapping):
            cands += list(e["deadwood"])
        for n in cands:
            if isinstance(n, str) and n not in names:
                names.append(n)
    if len(names) > 2:
        names = names[:2]  # the extra name is reported by the entry that uses it
    defaults = [n for n in ("A", "B", "Player 1", "Player 2") if n not in names]
    while len(names) < 2:
        names.append(defaults.pop(0))
    return names[0], names[1]


class Scorekeeper:
    """A score sheet for a game played with real cards, fed one hand entry at a time."""

    def __init__(self, rules: Rules, players: Sequence[str] = ("A", "B")) -> None:
        if len(players) != 2 or players[0] == players[1]:
            raise ScoreInputError("the scorekeeper needs two different player names")
        self.rules = rules
        self.players: tuple[str, str] = (str(players[0]), str(players[1]))
        self.sheet = ScoreSheet(rules)

    # -- entries ---------------------------------------------------------------------------

    def result_of(self, entry: Any, number: int) -> HandResult:
        """Turn one entry into a HandResult, or refuse it naming hand ``number`` and the rule.

        >>> k = Scorekeeper(Rules(), ('A', 'B'))
        >>> k.result_of({'knocker': 'A', 'deadwood': {'A': 12, 'B': 30}}, 4)
        Traceback (most recent call last):
        ...
        ginrummy.scorekeeper.ScoreInputError: hand 4: cannot knock: deadwood 12 is over the knock limit 10 (rule: knock_limit)
        """
        where = f"hand {number}"

        def fail(msg: str, rule: str = "input") -> ScoreInputError:
            return ScoreInputError(f"{where}: {msg} (rule: {rule})", hand=number, rule=rule)

        if not isinstance(entry, Mapping):
            raise fail(f"each hand must be an object, not {shown(entry)}")
        unknown = sorted(str(k) for k in set(entry) - ENTRY_KEYS)
        if unknown:
            more = f" and {len(unknown) - 3} more" if len(unknown) > 3 else ""
            raise fail(f"unknown key {', '.join(shown(k) for k in unknown[:3])}{more} (use {', '.join(sorted(ENTRY_KEYS))})")
        for flag in ("dead", "gin", "big_gin"):
            if flag in entry and not isinstance(entry[flag], bool):
                raise fail(f"{flag!r} must be true or false, not {shown(entry[flag])}")
        if entry.get("dead"):
            extra = sorted(set(entry) - {"dead", "upcard"})
            if extra:
                raise fail(f"a dead hand has no {', '.join(extra)}: nobody knocked and nobody scores", "dead_hand")
            return DEAD_HAND
        knocker_name = entry.get("knocker")
        if knocker_name is None:
            raise fail("say who knocked ('knocker'), or mark the hand {\"dead\": true}")
        if knocker_name not in self.players:
            raise fail(f"unknown player {shown(knocker_name)} (the players are {self.players[0]} and {self.players[1]})",
                       "players")
        counts = entry.get("deadwood")
        if not isinstance(counts, Mapping):
            raise fail("give both deadwood counts after layoffs, e.g. "
                       f"\"deadwood\": {{\"{self.players[0]}\": 3, \"{self.players[1]}\": 25}}", "deadwood")
        for name in counts:
            if name not in self.players:
                raise fail(f"unknown player {shown(name)} (the players are {self.players[0]} and {self.players[1]})",
                           "players")
        values: list[int] = []
        for name in self.players:
            if name not in counts:
                raise fail(f"missing deadwood count for {name}", "deadwood")
            v = counts[name]
            if not isinstance(v, int) or isinstance(v, bool):
                raise fail(f"{name}'s deadwood must be a whole number, not {shown(v)}", "deadwood")
            if v < 0:
                raise fail(f"{name}'s deadwood cannot be negative ({v})", "deadwood")
            if v > 100:
                raise fail(f"{name}'s deadwood {shown(v)} is more than 10 cards can count (100)", "deadwood")
            values.append(v)
        knocker = self.players.index(knocker_name)
        kd, dd = values[knocker], values[1 - knocker]
        upcard: int | None = None
        if "upcard" in entry and entry["upcard"] is not None:
            try:
                upcard = parse_card(str(entry["upcard"]))
            except NotationError as e:
                raise fail(f"upcard: {e}", "upcard") from None
        big = bool(entry.get("big_gin"))
        if (entry.get("gin") or big) and kd:
            label = "big gin" if big else "gin"
            raise fail(f"{label} means no deadwood, but {knocker_name} has {kd}", "big_gin" if big else "gin")
        try:
            return score_hand(self.rules, knocker=knocker, knocker_deadwood=kd, defender_deadwood=dd,
                              big_gin=big, upcard=upcard)
        except IllegalActionError as e:
            raise fail(str(e), e.rule) from None

    def add(self, entry: Any) -> HandResult:
        """Score the next hand and write it on the sheet."""
        number = len(self.sheet.results) + 1
        result = self.result_of(entry, number)
        if self.sheet.is_over:
            final = self.sheet.final()
            w = self.players[final.winner] if final.winner is not None else "nobody"
            raise ScoreInputError(
                f"hand {number}: the game was already over after hand {number - 1} ({w} won); "
                "start a new game for more hands (rule: game_over)",
                hand=number,
                rule="game_over",
            )
        self.sheet.add(result)
        return result

    def replace(self, number: int, entry: Any) -> HandResult:
        """Correct hand ``number`` (1-based); refused if the game would then end before a later hand."""
        if not 1 <= number <= len(self.sheet.results):
            raise ScoreInputError(f"there is no hand {number} to correct", hand=number)
        result = self.result_of(entry, number)
        try:
            self.sheet.replace(number - 1, result)
        except IllegalActionError as e:
            raise ScoreInputError(f"hand {number}: that correction is refused: {e}", hand=number,
                                  rule=e.rule) from None
        return result

    def remove(self, number: int) -> HandResult:
        """Delete hand ``number`` (1-based)."""
        if not 1 <= number <= len(self.sheet.results):
            raise ScoreInputError(f"there is no hand {number} to delete", hand=number)
        try:
            return self.sheet.remove(number - 1)
        except IllegalActionError as e:
            raise ScoreInputError(f"deleting hand {number} is refused: {e}", hand=number, rule=e.rule) from None

    # -- output ----------------------------------------------------------------------------

    def _by_name(self, values: Sequence[int]) -> dict[str, int]:
        return {self.players[s]: values[s] for s in range(2)}

    def report(self) -> dict[str, Any]:
        """Per-hand points, running totals, bonuses and final totals, keyed by player name."""
        hollywood = self.rules.hollywood
        hands = []
        for row in self.sheet.rows:
            r = row.result
            item: dict[str, Any] = {
                "hand": row.index + 1,
                "kind": r.kind,
                "winner": None if r.winner is None else self.players[r.winner],
                "points": r.points,
                "extra_boxes": r.extra_boxes,
                "explain": r.explain(self.players),
                "totals": self._by_name(row.totals[0]),
            }
            if hollywood:
                item["written_in_games"] = [g + 1 for g in row.written]
                item["games"] = [self._by_name(t) for t in row.totals]
                item["closed_games"] = [g + 1 for g in row.closed]
            hands.append(item)
        out: dict[str, Any] = {
            "players": list(self.players),
            "rules": self.rules.to_json(),
            "hands": hands,
            "over": self.sheet.is_over,
            "scores": self._by_name(self.sheet.scores),
            "final": None,
        }
        if self.sheet.is_over:
            f = self.sheet.final()
            final: dict[str, Any] = {
                "winner": None if f.winner is None else self.players[f.winner],
                "margin": f.margin,
                "points": self._by_name(f.points),
                "hands_won": self._by_name(f.hands_won),
                "extra_boxes": self._by_name(f.extra_boxes),
                "game_bonus": self._by_name(f.game_bonus),
                "box_bonus": self._by_name(f.box_bonus),
                "shutout": f.shutout,
                "shutout_bonus": self._by_name(f.shutout_bonus),
                "totals": self._by_name(f.totals),
                "breakdown": [
                    {"game": ln.game + 1, "player": self.players[ln.seat], "label": ln.label, "points": ln.points}
                    for ln in f.breakdown
                ],
                "explain": f.explain(self.players),
            }
            if hollywood:
                final["games"] = [
                    {"game": g.index + 1, "winner": self.players[g.winner], "totals": self._by_name(g.totals),
                     "points": self._by_name(g.points), "closed_by_hand": g.closed_by + 1}
                    for g in f.games
                ]
            out["final"] = final
        return out

    def table(self) -> str:
        """The sheet as a plain-text table, like a paper score pad."""
        a, b = self.players
        w = max(6, len(a), len(b))
        lines = [self.rules.describe()[0], ""]
        lines.append(f"{'Hand':>4}  {'Won by':<{w}}  {'Points':>6}  {a:>{w}}  {b:>{w}}  What happened")
        for row in self.sheet.rows:
            r = row.result
            who = "-" if r.winner is None else self.players[r.winner]
            if self.rules.hollywood:
                t0 = "/".join(str(t[0]) for t in row.totals)
                t1 = "/".join(str(t[1]) for t in row.totals)
            else:
                t0, t1 = str(row.totals[0][0]), str(row.totals[0][1])
            lines.append(
                f"{row.index + 1:>4}  {who:<{w}}  {r.points:>6}  {t0:>{w}}  {t1:>{w}}  {r.explain(self.players)}"
            )
        lines.append("")
        if self.sheet.is_over:
            lines.extend(self.sheet.final().explain(self.players))
        else:
            s = self.sheet.scores
            lines.append(f"Not over yet: {a} {s[0]}, {b} {s[1]} (target {self.rules.target}).")
        return "\n".join(lines)


def keep_score(rules: Rules, data: Any) -> Scorekeeper:
    """Score a whole input: a list of hand entries, or ``{"players": [...], "hands": [...]}``."""
    players: Sequence[str] | None = None
    entries = data
    if isinstance(data, Mapping):
        entries = data.get("hands")
        if "players" in data:
            p = data["players"]
            if not isinstance(p, list) or len(p) != 2 or not all(isinstance(n, str) for n in p):
                raise ScoreInputError("players must be a list of two names")
            players = p
    if not isinstance(entries, list):
        raise ScoreInputError("the input must be a JSON list of hands (or an object with a 'hands' list)")
    k = Scorekeeper(rules, players or players_of(entries))
    for e in entries:
        k.add(e)
    return k


# ---------------------------------------------------------------------------------------------
# ginrummy score FILE [--rules PRESET] [--rule key=value ...] [--rules-file FILE] [--json]
# ---------------------------------------------------------------------------------------------


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="JSON list of hands, e.g. [{\"knocker\": \"A\", \"deadwood\": {\"A\": 3, \"B\": 25}}]; "
                                "- reads standard input")
    p.add_argument("--rules", default=None, metavar="PRESET", help="rule preset (classic, online, app, ...)")
    p.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE",
                   help="change one rule, e.g. --rule target=150 (repeatable)")
    p.add_argument("--rules-file", default=None, metavar="FILE", help="rules from a TOML or JSON file")
    p.add_argument("--json", action="store_true", help="print JSON")


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The rule set from ``--rules``, ``--rules-file`` and ``--rule key=value`` (applied last)."""
    overrides = parse_rule_settings(args.rule)
    if args.rules_file:
        return Rules.load(args.rules_file, preset=args.rules, **overrides)
    return Rules.preset(args.rules or "classic", **overrides)


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    try:
        text = Path(args.file).read_text(encoding="utf-8") if args.file != "-" else sys.stdin.read()
    except OSError as e:
        raise ScoreInputError(f"cannot read {args.file}: {e.strerror}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ScoreInputError(f"{args.file} is not valid JSON: {e}") from None
    k = keep_score(rules, data)
    if args.json:
        print(json.dumps(k.report(), ensure_ascii=False, indent=2))
    else:
        print(k.table())
    return 0
