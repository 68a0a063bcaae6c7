"""Whole hands per second on one core: our players through the engine vs OpenSpiel's simple bot.

    .venv/bin/python bench/throughput.py                 # greedy, simple, and OpenSpiel if installed
    .venv/bin/python bench/throughput.py --hands 3000 --rounds 5 --json

What is timed, for each contender, is the whole loop a user of the library runs: deal a hand,
let two players decide from their views, check and apply every action in the rules engine,
lay out, lay off and score. Our players are driven by ``ginrummy.players.driver.play_hand``
(so each decision gets a full ``SeatView`` and every action goes through ``Hand.apply``).
OpenSpiel's ``simple_gin_rummy_bot`` plays itself through ``pyspiel``'s Python API, with the
deck of each hand fed to its chance nodes (the cheapest way to deal there, so its figure is
its best). Time is this process's CPU time (``time.process_time``), so other processes on a
busy machine do not count against anyone; contenders are interleaved round by round and each
one's best round is kept; the process is pinned to one CPU (``--cpu``).

The goal in issue #3: greedy and simple at least 4x OpenSpiel's hands per second.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections.abc import Callable

from ginrummy.hand import new_hand
from ginrummy.players import get_player
from ginrummy.players.driver import play_hand
from ginrummy.rules import Rules


def decks(n: int, seed: int) -> list[list[int]]:
    out = []
    for i in range(n):
        d = list(range(52))
        random.Random(f"throughput:{seed}:{i}").shuffle(d)
        out.append(d)
    return out


def ours(name: str, rules: Rules) -> Callable[[list[list[int]]], int]:
    players = [get_player(name, seed=0), get_player(name, seed=1)]

    def run(deck_list: list[list[int]]) -> int:
        for i, deck in enumerate(deck_list):
            hand = new_hand(rules, i % 2, deck=deck)
            play_hand(hand, players)
        return len(deck_list)

    return run


def openspiel() -> Callable[[list[list[int]]], int] | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("gin_rummy")
    params = game.get_parameters()
    bots = [pyspiel.make_simple_gin_rummy_bot(params, p) for p in range(2)]

    def run(deck_list: list[list[int]]) -> int:
        for deck in deck_list:
            for b in bots:
                b.restart()
            state = game.new_initial_state()
            k = 0
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(deck[k])  # card ids: the same 0..51, only suit order differs
                    k += 1
                else:
                    state.apply_action(bots[state.current_player()].step(state))
        return len(deck_list)

    return run


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=2000, help="hands per round for our players")
    ap.add_argument("--peer-hands", type=int, default=400, help="hands per round for OpenSpiel")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rules", default="eaai", help="rule preset for our players (OpenSpiel plays its defaults)")
    ap.add_argument("--cpu", type=int, default=0, help="pin to this CPU (-1: do not pin)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)

    if args.cpu >= 0 and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {args.cpu})
    rules = Rules.preset(args.rules)
    ours_decks = decks(args.hands, args.seed)
    peer_decks = decks(args.peer_hands, args.seed)
    contenders: dict[str, tuple[Callable[[list[list[int]]], int], list[list[int]]]] = {
        "greedy vs greedy": (ours("greedy", rules), ours_decks),
        "simple vs simple": (ours("simple", rules), ours_decks),
    }
    peer = openspiel()
    if peer is not None:
        contenders["OpenSpiel simple bot vs itself"] = (peer, peer_decks)
    else:
        print("OpenSpiel not installed (pip install open_spiel): no reference figure", file=sys.stderr)

    best: dict[str, float] = {}
    for _ in range(args.rounds):
        for name, (run, deck_list) in contenders.items():
            t0 = time.process_time()
            n = run(deck_list)
            rate = n / (time.process_time() - t0)
            best[name] = max(best.get(name, 0.0), rate)

    ref = best.get("OpenSpiel simple bot vs itself")
    rows = [
        {"contender": name, "hands_per_s": round(rate, 1), "x_openspiel": round(rate / ref, 2) if ref else None}
        for name, rate in best.items()
    ]
    if args.json:
        print(json.dumps({"rules": args.rules, "rounds": args.rounds, "results": rows}))
        return 0
    print(f"{'contender':36s} {'hands/s':>9s} {'x OpenSpiel':>12s}")
    for r in rows:
        x = f"{r['x_openspiel']:.2f}x" if r["x_openspiel"] is not None else "-"
        print(f"{r['contender']:36s} {r['hands_per_s']:9.1f} {x:>12s}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
