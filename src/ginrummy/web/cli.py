"""``ginrummy serve``: the web app on one SQLite file, so a fresh machine is playing within a minute."""

from __future__ import annotations

import argparse


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument(
        "--db", default="ginrummy.sqlite3", metavar="PATH", help="SQLite database file (default ./ginrummy.sqlite3)"
    )
    parser.add_argument(
        "--computer-delay",
        type=float,
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
    parser.add_argument("--workers", type=int, default=None, help="computer worker processes (default 2)")
    parser.add_argument("--log-level", default="warning", help="uvicorn log level (default warning)")


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from .app import create_app
    from .inputs import MAX_FRAME

    app = create_app(args.db, computer_delay=args.computer_delay, compute=args.compute, workers=args.workers)
    print(f"Gin Rummy: open http://{args.host}:{args.port}/  (database {args.db})", flush=True)
    # A WebSocket frame over MAX_FRAME bytes never reaches the app: uvicorn closes the socket with 1009.
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level, ws_max_size=MAX_FRAME)
    return 0
