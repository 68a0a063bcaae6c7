"""The ``ginrummy`` command. Each subcommand lives in its own module, loaded only when used.

A subcommand module defines ``configure(parser)`` (adds its arguments) and ``run(args) -> int``,
and may define ``check(args)``: run right after parsing, what it raises (a rules or value error)
is a usage error, so a bad combination of options stops the command before anything starts.
Usage errors exit with 2, as ``argparse`` does; ``python -m ginrummy`` is this command.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

#: name -> (module, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "serve": ("ginrummy.web.cli", "start the web app (play, scorekeeper, history) on http://127.0.0.1:8000"),
    "tui": ("ginrummy.tui_cli", "play a whole game of two, three or four against the computer in a terminal app (Textual)"),
    "play": ("ginrummy.commands.play", "play a game of two, three or four at a plain terminal prompt, or watch computer players"),
    "deadwood": ("ginrummy.commands.deadwood", "best melds and deadwood of some cards"),
    "score": ("ginrummy.commands.score", "score a game played with real cards (2, 3 or 4 players) from a JSON file"),
    "history": ("ginrummy.commands.history", "list the finished games kept by play, tui and serve, with their records"),
    "replay": ("ginrummy.record", "check a game record against the rules and print each hand's outcome"),
    "verify": ("ginrummy.fairness", "check that each deal of a web game's record was fixed before its hand began"),
    "arena": ("ginrummy.arena", "play computer players against each other and report win rates"),
    "engine": ("ginrummy.protocol", "speak the line-based JSON engine protocol on stdin/stdout"),
    "rules": ("ginrummy.commands.rules_sheet", "print the rules of a preset with overrides"),
}


def build_parser() -> argparse.ArgumentParser:
    from . import COMPILED, __version__

    parser = argparse.ArgumentParser(prog="ginrummy", description="Gin Rummy: rules engine, players, apps.")
    build = " (compiled with mypyc)" if COMPILED else ""
    parser.add_argument("--version", action="version", version=f"ginrummy {__version__}{build}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module, help_text) in COMMANDS.items():
        try:
            mod = importlib.import_module(module)
        except ModuleNotFoundError as e:
            if e.name and module.startswith(e.name):
                continue  # not built yet
            raise
        p = sub.add_parser(name, help=help_text, description=help_text)
        mod.configure(p)
        p.set_defaults(_run=mod.run, _check=getattr(mod, "check", None), _parser=p)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    from .errors import GinRummyError

    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if not getattr(args, "_run", None):
            parser.print_help()
            return 2
        if args._check is not None:
            try:
                args._check(args)
            except (GinRummyError, ValueError, argparse.ArgumentTypeError) as e:
                args._parser.error(str(e))
    except SystemExit as e:  # a usage error (2), --help or --version (0)
        return e.code if isinstance(e.code, int) else 2
    try:
        return int(args._run(args) or 0)
    except GinRummyError as e:
        print(f"ginrummy {args.command}: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
