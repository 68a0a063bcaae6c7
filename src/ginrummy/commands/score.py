"""``ginrummy score FILE [--players 2|3|4] [--rules PRESET] [--rule key=value ...] [--json]``.

Scores a game played with real cards from a JSON file of hand entries (see
:mod:`ginrummy.scorekeeper`; three and four players: :mod:`ginrummy.scorekeeper_multi`) and
prints the sheet as a table, or as JSON: per-hand points, running totals, bonuses and the final
totals per player or per team.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..rules import Rules, parse_rule_settings
from ..scorekeeper import ScoreInputError
from ..scorekeeper_multi import keep_score

#: The largest input file read (a real game is a few kilobytes).
MAX_INPUT = 1_000_000


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="JSON list of hands, e.g. [{\"knocker\": \"A\", \"deadwood\": {\"A\": 3, \"B\": 25}}]; "
                                "- reads standard input")
    p.add_argument("--players", type=int, choices=(2, 3, 4), default=None,
                   help="how many play: 2, 3 (the dealer sits out) or 4 (two teams, two tables a hand); "
                        "default: the number of names in the file's \"players\", else 2 (4 with \"tables\")")
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


def read_input(name: str) -> object:
    """The JSON of a file (``-``: standard input), refused with the reason when unreadable."""
    try:
        if name == "-":
            text = sys.stdin.read(MAX_INPUT + 1)
        else:
            with Path(name).open(encoding="utf-8") as f:
                text = f.read(MAX_INPUT + 1)
    except (OSError, UnicodeDecodeError) as e:
        raise ScoreInputError(f"cannot read {name}: {getattr(e, 'strerror', None) or e}") from None
    if len(text) > MAX_INPUT:
        raise ScoreInputError(f"{name} is larger than a score sheet can be ({MAX_INPUT} characters)")
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise ScoreInputError(f"{name} is not valid JSON: {e}") from None


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    k = keep_score(rules, read_input(args.file), players=args.players)
    if args.json:
        print(json.dumps(k.report(), ensure_ascii=False, indent=2))
    else:
        print(k.table())
    return 0
