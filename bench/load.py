"""Load test of the web app: many concurrent games against a computer, over WebSockets on loopback.

Each simulated person plays one game through the same protocol as the browser and acts every
``--interval`` seconds (2 s by default). Two latencies are measured on the client:

- ack: from sending an action to receiving the state that includes it (the action is stored in
  the database before that state is sent);
- reply: from a person's action that hands the turn over to the state where the computer has
  finished its turn (drawn and discarded) and it is the person's move again; ``first`` is to the
  computer's first move.

The server is started here (``ginrummy serve`` on 127.0.0.1, a fresh database, computer delay 0 so
the figures measure the server, not the deliberate pause) unless ``--url`` names a running one.
Bounded on purpose: at most 2000 games and 900 seconds, loopback only.

    python bench/load.py --games 200 --opponent simple --duration 60
    python bench/load.py --games 250 --opponent expert --duration 45 --workers 2

Measured on the 2-core build machine (load generator, server and workers on the same 2 cores, other
jobs running, load average 1.5-4.5), person acting every 2 s:

=======================  =======  =========  =============  ====================
run                      actions  ack p99    computer p99   bounds (100/250 ms)
=======================  =======  =========  =============  ====================
200 vs simple, 1 worker  98/s     29 ms      86 ms          hold
100 vs expert, 1 worker  50/s     6 ms       39 ms          hold
150 vs expert, 2 workers 75/s     12 ms      71 ms          hold
200 vs expert, 2 workers 99/s     44 ms      243 ms         hold (at the edge)
250 vs expert, 2 workers 124/s    68 ms      220 ms         hold
300 vs expert, 2 workers 146/s    95 ms      372 ms         exceeded
=======================  =======  =========  =============  ====================

"computer p99" is to the end of the computer's turn (draw and discard); its first move is sooner.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from ginrummy.web.autoplay import respond  # noqa: E402

MAX_GAMES = 2000
MAX_SECONDS = 900


@dataclass
class Stats:
    ack: list[float] = field(default_factory=list)
    first: list[float] = field(default_factory=list)
    reply: list[float] = field(default_factory=list)
    actions: int = 0
    errors: int = 0
    hands: int = 0
    games_finished: int = 0
    disconnects: int = 0


def pct(xs: list[float], p: float) -> float:
    if not xs:
        return float("nan")
    s = sorted(xs)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def post_json(url: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        data: dict[str, Any] = json.loads(r.read())
        return data


async def person(base: str, opponent: str, interval: float, deadline: float, stats: Stats, rng: random.Random) -> None:
    """One simulated person: plays games back to back until the deadline, one action per interval."""
    import websockets

    ws_base = base.replace("http://", "ws://")
    await asyncio.sleep(rng.random() * interval)  # spread the start
    while time.monotonic() < deadline:
        try:
            g = await asyncio.to_thread(post_json, base + "/api/games", {"opponent": opponent})
        except OSError:  # refused, or an HTTP error from the server or the proxy: counted, tried again
            stats.errors += 1
            await asyncio.sleep(0.5)
            continue
        try:
            async with websockets.connect(f"{ws_base}/api/ws/{g['id']}", max_size=2**22) as ws:
                await ws.send(json.dumps({"type": "hello", "token": g["token"]}))
                await play(ws, interval, deadline, stats)
        except (OSError, websockets.ConnectionClosed, websockets.InvalidStatus):
            stats.disconnects += 1
            await asyncio.sleep(0.5)


async def play(ws: Any, interval: float, deadline: float, stats: Stats) -> None:
    """Answer states like a person, at most one action per interval, timing each answer."""
    last_action = 0.0
    sent_at: float | None = None
    sent_seq = -1
    awaiting_ack = awaiting_reply = saw_first = False
    while time.monotonic() < deadline:
        try:
            raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, deadline - time.monotonic()))
        except TimeoutError:
            return
        now = time.monotonic()
        msg = json.loads(raw)
        if msg["type"] == "error":
            stats.errors += 1
            continue
        if msg["type"] != "state":
            continue
        game, view, seat = msg["game"], msg["view"], msg["seat"]
        computer_to_move = view["phase"] != "over" and view["current"] != seat
        if sent_at is not None and msg["seq"] > sent_seq:
            if awaiting_ack:
                stats.ack.append(now - sent_at)
                awaiting_ack = False
                awaiting_reply = computer_to_move
            elif awaiting_reply and not saw_first:
                stats.first.append(now - sent_at)
                saw_first = True
            if awaiting_reply and not computer_to_move:
                stats.reply.append(now - sent_at)
                awaiting_reply = False
            if not awaiting_ack and not awaiting_reply:
                sent_at = None
        if game["status"] == "finished":
            stats.games_finished += 1
            return
        out = respond(msg)
        if out is None:
            continue
        if out["type"] == "next":
            stats.hands += 1
        wait = last_action + interval - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)
        last_action = sent_at = time.monotonic()
        sent_seq = msg["seq"]
        awaiting_ack, awaiting_reply, saw_first = True, False, False
        await ws.send(json.dumps(out))
        stats.actions += 1


async def run(base: str, games: int, opponent: str, interval: float, duration: float, seed: int) -> Stats:
    stats = Stats()
    # Game creation goes through threads (urllib): enough of them that a step's start is not queued.
    asyncio.get_running_loop().set_default_executor(ThreadPoolExecutor(64))
    deadline = time.monotonic() + duration
    rng = random.Random(seed)
    tasks = [
        asyncio.create_task(person(base, opponent, interval, deadline, stats, random.Random(rng.randrange(2**32))))
        for _ in range(games)
    ]
    for outcome in await asyncio.gather(*tasks, return_exceptions=True):
        if isinstance(outcome, BaseException):  # a person stopped by anything unforeseen: not a quiet loss
            stats.errors += 1
    return stats


def start_server(workers: int, compute: str) -> tuple[subprocess.Popen[bytes], str, str]:
    port = free_port()
    db = os.path.join(tempfile.mkdtemp(prefix="ginrummy-bench-"), "bench.sqlite3")
    cmd = [sys.executable, "-m", "ginrummy.cli", "serve", "--host", "127.0.0.1", "--port", str(port), "--db", db]
    cmd += ["--computer-delay", "0", "--compute", compute, "--workers", str(workers)]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            urllib.request.urlopen(base + "/api/options", timeout=1).read()
            return proc, base, db
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise SystemExit("server did not start")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help=f"concurrent games (max {MAX_GAMES})")
    ap.add_argument("--opponent", default="simple", help="computer strength (simple, expert, ...)")
    ap.add_argument("--interval", type=float, default=2.0, help="seconds between a person's actions (default 2)")
    ap.add_argument("--duration", type=float, default=60.0, help=f"seconds to run (max {MAX_SECONDS})")
    ap.add_argument("--workers", type=int, default=1, help="computer worker processes of the started server")
    ap.add_argument("--compute", default="process", choices=("process", "thread", "inline"))
    ap.add_argument("--url", help="use a running server on 127.0.0.1 instead of starting one")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if not 1 <= args.games <= MAX_GAMES or not 1 <= args.duration <= MAX_SECONDS:
        raise SystemExit(f"bounded: 1..{MAX_GAMES} games, 1..{MAX_SECONDS} seconds")
    proc = None
    if args.url:
        if not args.url.startswith(("http://127.0.0.1", "http://localhost")):
            raise SystemExit("loopback only")
        base = args.url.rstrip("/")
    else:
        proc, base, _ = start_server(args.workers, args.compute)
    try:
        t0 = time.monotonic()
        stats = asyncio.run(run(base, args.games, args.opponent, args.interval, args.duration, args.seed))
        elapsed = time.monotonic() - t0
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(10)
    ms = 1000.0
    print(f"{args.games} games vs {args.opponent}, a person acts every {args.interval:g} s, {elapsed:.0f} s, "
          f"server compute={args.compute} workers={args.workers}, {os.cpu_count()} CPUs")
    print(f"actions {stats.actions} ({stats.actions / elapsed:.0f}/s), hands {stats.hands}, games finished "
          f"{stats.games_finished}, errors {stats.errors}, disconnects {stats.disconnects}")
    for name, xs in (("ack", stats.ack), ("computer first move", stats.first), ("computer reply (turn done)", stats.reply)):
        print(f"{name:28s} n={len(xs):6d}  p50 {pct(xs, 50) * ms:7.1f} ms  p95 {pct(xs, 95) * ms:7.1f} ms  "
              f"p99 {pct(xs, 99) * ms:7.1f} ms  max {max(xs, default=float('nan')) * ms:7.1f} ms")
    ok = pct(stats.ack, 99) < 0.100 and pct(stats.reply, 99) < 0.250
    print("bounds (p99 ack < 100 ms, p99 reply < 250 ms):", "HOLD" if ok else "EXCEEDED")


if __name__ == "__main__":
    main()
