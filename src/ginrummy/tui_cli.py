"""``ginrummy tui``'s command line: the options, checked before the app starts, and the app run
on a game kept in the games store (:mod:`ginrummy.saved`), new or resumed; after the app, what
became of the game (finished and in the history, kept for ``--resume``, or left).
"""

from __future__ import annotations

import argparse
import shlex

from . import saved
from .commands.options import add_rule_options, add_seat_options, games_store, rules_from_args
from .storage import DEFAULT_DB
from .tui import GinRummyApp
from .tui_seated import SeatedApp
from .tui_text import CardStyle

#: The keys, for ``--help`` (the footer shows those that work at each moment).
KEYS = (
    "keys: s stock, p take the pile, x pass, 1-9 0 - pick a card, d discard it, k knock with it, b big gin, "
    "a the best layout, u undo your last move, h hints, g the score sheet, o order the hand, f four colours, "
    "t light or dark, n next hand, q quit (asks whether to keep the game for --resume). Every game is saved "
    "as it is played."
)


def configure(p: argparse.ArgumentParser) -> None:
    p.epilog = KEYS
    add_seat_options(p)
    add_rule_options(p)
    p.add_argument("--seed", type=int, default=None, help="seed for the deal")
    p.add_argument(
        "--db", default=DEFAULT_DB, metavar="DB",
        help=f"the games store, shared with ginrummy play and serve: a SQLite file (default ./{DEFAULT_DB}) or postgresql://USER@HOST/DB",
    )
    p.add_argument("--resume", action="store_true", help="continue the last unfinished game of tui or play")
    p.add_argument(
        "--no-undo", action="store_true", help="no taking back moves in this game (key u); a resumed game keeps its own"
    )
    p.add_argument("--four-colour", "--four-color", action="store_true", help="four suit colours (key f switches)")
    p.add_argument("--ascii", action="store_true", help="letters for the suits (Ts, Qh) and plain ASCII marks")
    p.add_argument("--light", action="store_true", help="start with the light theme (key t switches)")


def check(args: argparse.Namespace) -> None:
    """The rules as a whole and the games store, before the app starts (a usage error, exit 2)."""
    rules_from_args(args)
    n = players_count(args)
    if args.opponents and args.opponent:
        raise ValueError("give the computer players with --opponent or with --opponents, not both")
    if args.opponents and len(args.opponents) != n - 1:
        raise ValueError(f"--players {n} needs {n - 1} opponent{'s' * (n > 2)}, got {len(args.opponents)}")
    games_store(args.db)


def players_count(args: argparse.Namespace) -> int:
    """How many play: ``--players``, else one more than ``--opponents`` names, else 2."""
    if args.players:
        return int(args.players)
    return len(args.opponents) + 1 if args.opponents else 2


def opponents(args: argparse.Namespace) -> list[str]:
    """The other seats' computer players: ``--opponents``, else ``--opponent`` (simple) at each."""
    if args.opponents:
        return list(args.opponents)
    return [args.opponent or "simple"] * (players_count(args) - 1)


def run(args: argparse.Namespace) -> int:
    """The app on a game kept in the store; after it, what became of the game. Exit status as
    ``play``'s: 0 when the game was played to its end, 1 when it was left unfinished."""
    style = CardStyle(four_colour=args.four_colour, ascii=args.ascii)
    db = "" if args.db == DEFAULT_DB else f" --db {shlex.quote(args.db)}"
    app: GinRummyApp
    if args.resume:  # the saved game's table and match, replayed; its first deal continues the one in progress
        game = saved.resume_game(args.db)
        if game.match.seats > 2:
            others = [s.player for s in game.row.seats if s.computer]
            app = SeatedApp(game.match.rules, others, style=style, light=args.light)
        else:
            app = GinRummyApp(game.match.rules, opponent=game.table.names[1], style=style, light=args.light)
    else:
        if players_count(args) > 2:
            app = SeatedApp(rules_from_args(args), opponents(args), seed=args.seed, style=style, light=args.light)
        else:
            app = GinRummyApp(rules_from_args(args), opponent=opponents(args)[0], seed=args.seed, style=style, light=args.light)
        game = saved.save_game(app.table, args.db, client="tui", undo=not args.no_undo)  # each action stored first
    app.keep(game, f"ginrummy tui --resume{db}")
    app.run()
    rc, words = farewell(app, db)
    print(words)
    return rc


def farewell(app: GinRummyApp, db: str = "") -> tuple[int, str]:
    """The exit status and the words after the app: where the game went (``db``: the ``--db``
    option to repeat, or empty)."""
    if app.match.is_over:
        return 0, f"The game is in the history: ginrummy history{db}"
    if app.abandoned:
        return 1, "Game left; it will not be offered to --resume."
    return 1, f"Game saved: ginrummy tui --resume{db} continues it."


__all__ = ["KEYS", "check", "configure", "farewell", "opponents", "players_count", "run"]
