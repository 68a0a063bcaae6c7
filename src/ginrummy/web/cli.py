"""``ginrummy serve``: the web app on one SQLite file, so a fresh machine is playing within a minute,
or on a PostgreSQL database (``--db postgresql://USER@HOST/DB``) that several instances share."""

from __future__ import annotations

import argparse

from ..commands.options import port, seconds
from ..storage import DEFAULT_DB


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=port, default=8000, help="port, 1 to 65535 (default 8000)")
    parser.add_argument(
        "--db", default=DEFAULT_DB, metavar="PATH|URL",
        help=f"SQLite database file, shared with ginrummy play and tui (default ./{DEFAULT_DB}), "
        "or postgresql://USER@HOST/DB: several instances on one database",
    )
    parser.add_argument(
        "--computer-delay",
        type=seconds,
        default=0.6,
        metavar="SECONDS",
        help="pause before each computer move, so a person can follow it (default 0.6)",
    )
    parser.add_argument(
        "--compute",
        choices=("process", "thread", "inline"),
        default="process",
        help="where computer players think: worker processes (default), threads, or inline",
    )
    parser.add_argument("--workers", type=_workers, default=None, help="computer worker processes, 1 to 64 (default 2)")
    parser.add_argument(
        "--log-level", default="warning", choices=("critical", "error", "warning", "info", "debug", "trace"),
        help="uvicorn log level (default warning)",
    )


def _workers(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 64:
        raise argparse.ArgumentTypeError(f"workers is a whole number from 1 to 64, not {text!r}")
    return int(text)


def run(args: argparse.Namespace) -> int:
    import gc
    import logging

    import uvicorn

    # The app's own messages (ginrummy.web: computer moves, other instances) at the same level.
    level = logging.DEBUG if args.log_level == "trace" else getattr(logging, args.log_level.upper())
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("ginrummy").setLevel(level)

    from .app import create_app
    from .inputs import MAX_FRAME

    app = create_app(args.db, computer_delay=args.computer_delay, compute=args.compute, workers=args.workers)
    print(f"Gin Rummy: open http://{args.host}:{args.port}/  (database {app.state.store.path})", flush=True)
    # What the server holds from start to end (modules, the app, the rule tables) is set aside from
    # the garbage collector's full passes, which then walk only the games: with hundreds of games in
    # memory such a pass paused every game for about half as long.
    gc.collect()
    gc.freeze()
    # A WebSocket frame over MAX_FRAME bytes never reaches the app: uvicorn closes the socket with 1009.
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level, ws_max_size=MAX_FRAME)
    return 0
