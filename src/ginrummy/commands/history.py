"""``ginrummy history``: the finished games of the games store, newest first, with their records.

The store is the one ``ginrummy play``, ``tui`` and ``serve`` keep their games in (``--db``,
default ``./ginrummy.sqlite3``). Each line names the players, the final score and the winner;
``--json`` prints every game with its full record (the format ``ginrummy replay`` checks), and
``ginrummy history ID`` prints one game's record, ready to save as a file.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from ..multisheet import team_names
from ..record import dumps, match_to_record
from ..storage import DEFAULT_DB, GameRow, HandRow, Store


def _limit(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 1000:
        raise argparse.ArgumentTypeError(f"a number of games from 1 to 1000, not {text!r}")
    return int(text)


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", nargs="?", metavar="ID", help="print this game's record (JSON) instead of the list")
    p.add_argument("--db", default=DEFAULT_DB, metavar="PATH", help=f"the games store (default ./{DEFAULT_DB})")
    p.add_argument("--json", action="store_true", help="print the games as JSON, each with its record")
    p.add_argument("--limit", type=_limit, default=50, help="at most this many games, newest first (default 50)")


def summary(row: GameRow, hands: list[HandRow]) -> dict[str, Any]:
    final = row.final or {}
    return {
        "id": row.id,
        "names": row.names,
        "players": [s.player for s in row.seats],
        "rules": row.rules,
        "created": row.created,
        "finished": row.finished,
        "hands": len(hands),
        "totals": final.get("totals"),
        "winner": final.get("winner"),
        "margin": final.get("margin"),
    }


def line(s: dict[str, Any]) -> str:
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(s["finished"] or s["created"]))
    # The result's columns: the players, or the two teams of a four-player game.
    names = list(team_names(s["names"])) if len(s["names"]) == 4 else s["names"]
    totals = s["totals"] or [0] * len(names)
    winner = s["winner"]
    result = f"{names[winner]} won by {s['margin']}" if winner is not None else "no winner"
    rules = s["rules"].get("preset", "classic") if isinstance(s["rules"], dict) else s["rules"]
    return (
        f"{when}  {s['id']}  {' - '.join(f'{n} {t}' for n, t in zip(names, totals, strict=False))}  {result}"
        f"  ({s['hands']} hand{'s' * (s['hands'] != 1)}, {rules})"
    )


def run(args: argparse.Namespace) -> int:
    if not Path(args.db).exists():  # nothing to read, and reading makes no file
        if args.game:
            print(f"ginrummy history: no game {args.game!r}: {args.db} does not exist", file=sys.stderr)
            return 2
        print(json.dumps({"games": []}) if args.json else f"No games yet: {args.db} does not exist.")
        return 0
    store = Store(args.db)
    if args.game:
        row = store.get_game(args.game)
        if row is None or row.status != "finished":
            why = "no such game" if row is None else "it is not finished (a record shows every card: only once it is over)"
            print(f"ginrummy history: no record of game {args.game!r} in {args.db}: {why}", file=sys.stderr)
            return 2
        stored = store.load_game(args.game)
        assert stored is not None
        sys.stdout.write(dumps(match_to_record(stored.match)))
        return 0
    games = store.finished_hands(args.limit)
    if args.json:
        out = []
        for row, hands in games:
            stored = store.load_game(row.id)
            assert stored is not None
            out.append({**summary(row, hands), "record": match_to_record(stored.match)})
        print(json.dumps({"games": out}, ensure_ascii=False, indent=2))
        return 0
    if not games:
        print(f"No finished games in {args.db} yet.")
        return 0
    for row, hands in games:
        print(line(summary(row, hands)))
    print(f"ginrummy history ID{'' if args.db == DEFAULT_DB else ' --db ' + args.db} prints a game's record.")
    return 0
