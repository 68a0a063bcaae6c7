"""Command-line values checked when they are read: a bad one is a usage error (exit 2) before
anything starts, naming the option and what it accepts, never a traceback or a failure later.

Each function is an ``argparse`` ``type=``; what only a combination can say (a rule that needs
another) is checked by a subcommand's ``check(args)``, which :func:`ginrummy.cli.main` runs
right after parsing (see there).
"""

from __future__ import annotations

import argparse
import difflib
import importlib
import math
import os
from pathlib import Path

from ..errors import RulesError
from ..players import PLAYERS
from ..rules import PRESETS, Rules, parse_rule_settings


def preset(text: str) -> str:
    """A rule preset's name, in any case: ``CLASSIC`` is ``classic``."""
    name = text.strip().lower()
    if name not in PRESETS:
        raise argparse.ArgumentTypeError(f"unknown rule preset {text!r}: choose one of {', '.join(PRESETS)}")
    return name


def rule_setting(text: str) -> str:
    """One ``key=value`` rule change, its key a rule and its value of the rule's kind."""
    try:
        parse_rule_settings([text])
    except RulesError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    return text


def add_rule_options(p: argparse.ArgumentParser, default: str | None = "classic") -> None:
    """``--rules PRESET`` and the repeatable ``--rule KEY=VALUE``, checked as they are read."""
    p.add_argument("--rules", default=default, type=preset, metavar="PRESET", help=f"rule preset: {', '.join(PRESETS)}")
    p.add_argument(
        "--rule", action="append", default=[], type=rule_setting, metavar="KEY=VALUE",
        help="change one rule, e.g. --rule knock_limit=7 --rule big_gin=yes (repeatable)",
    )


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The rule set of ``--rules`` (any case) and ``--rule``; raises :class:`RulesError` for a
    combination the rules refuse (a rule that needs another)."""
    return Rules.preset(preset(args.rules or "classic"), **parse_rule_settings(args.rule or []))


def port(text: str) -> int:
    """A TCP port, 1 to 65535."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a port is a whole number from 1 to 65535, not {text!r}") from None
    if not 1 <= n <= 65535:
        raise argparse.ArgumentTypeError(f"a port is a whole number from 1 to 65535, not {n}")
    return n


def seconds(text: str) -> float:
    """A pause in seconds, 0 to 60."""
    try:
        s = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a pause is a number of seconds from 0 to 60, not {text!r}") from None
    if not math.isfinite(s) or not 0 <= s <= 60:
        raise argparse.ArgumentTypeError(f"a pause is a number of seconds from 0 to 60, not {text}")
    return s


def writable_file(text: str) -> str:
    """A file that can be written: its folder exists, and it is not a folder or read-only."""
    path = Path(text).expanduser()
    folder = path.parent
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{text} is a folder, not a file")
    if not folder.is_dir():
        raise argparse.ArgumentTypeError(f"cannot write {text}: the folder {folder} does not exist")
    if path.exists() and not os.access(path, os.W_OK):
        raise argparse.ArgumentTypeError(f"cannot write {text}: the file is read-only")
    if not path.exists() and not os.access(folder, os.W_OK):
        raise argparse.ArgumentTypeError(f"cannot write {text}: the folder {folder} is read-only")
    return str(path)


def games_store(text: str) -> str:
    """The games store: a PostgreSQL URL as given (reached when the game starts), else a SQLite
    file that can be written."""
    from ..storage_backend import is_postgres

    return text if is_postgres(text) else writable_file(text)


def builtin_player(text: str) -> str:
    """A built-in computer player's name (``simple``, ``expert``...), the nearest one suggested.

    >>> builtin_player('exprt')  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: unknown player 'exprt' (did you mean 'expert'?): choose one of random, easy, ...
    """
    name = text.strip().lower()
    if name in PLAYERS:
        return name
    close = difflib.get_close_matches(name, list(PLAYERS), n=1) if len(name) <= 20 else []
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise argparse.ArgumentTypeError(f"unknown player {text[:40]!r}{hint}: choose one of {', '.join(PLAYERS)}")


def player_list(text: str) -> list[str]:
    """Built-in computer players, comma-separated (``simple,expert``), each checked."""
    names = [w.strip() for w in text.split(",")]
    if len(names) > 3 or not all(names):
        raise argparse.ArgumentTypeError(f"give one to three players, comma-separated (simple,expert,greedy), not {text[:60]!r}")
    return [builtin_player(n) for n in names]


def player(text: str) -> str:
    """A computer player: a built-in name, or ``module:Class`` of your own (imported now, so a
    wrong one fails at start)."""
    if text in PLAYERS:
        return text
    module, sep, cls = text.partition(":")
    if not sep:
        raise argparse.ArgumentTypeError(f"unknown player {text!r}: choose one of {', '.join(PLAYERS)}, or module:Class")
    try:
        mod = importlib.import_module(module)
    except ImportError as e:
        raise argparse.ArgumentTypeError(f"cannot load player {text!r}: {e}") from None
    found = getattr(mod, cls, None)
    if not callable(found) or not callable(getattr(found, "decide", None)):
        raise argparse.ArgumentTypeError(f"cannot load player {text!r}: {module} has no player class {cls!r} (one with decide)")
    return text


__all__ = [
    "add_rule_options", "builtin_player", "player", "player_list", "port", "preset", "rule_setting", "rules_from_args",
    "seconds", "writable_file", "games_store",
]


def add_seat_options(p: argparse.ArgumentParser) -> None:
    """``--opponent``, ``--players`` and ``--opponents``: who sits at the table, as both terminal apps take it."""
    players = ", ".join(PLAYERS)
    p.add_argument(
        "--opponent", type=builtin_player, default=None,
        help=f"computer player to play against (default simple; with --players 3 or 4: at every other seat): {players}",
    )
    p.add_argument(
        "--players", type=int, choices=(2, 3, 4), default=None,
        help="how many play: 2 (default), 3 (the dealer sits out each hand) or 4 (two teams: you and seat 3 "
        "against seats 2 and 4; team target 125)",
    )
    p.add_argument(
        "--opponents", type=player_list, default=None, metavar="P2,P3[,P4]",
        help="the computer players of the other seats in seat order, comma-separated (with four players the "
        "second is your partner)",
    )
