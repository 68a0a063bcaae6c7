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

Goals: greedy vs greedy and random vs random at least 3x OpenSpiel's hands per second with
its initial state cloned (the ratio column). The first line names the build measured: the pure
source, or the compiled one (``make fast``, then ``PYTHONPATH=build/fast`` before the command).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections.abc import Callable

import ginrummy
from ginrummy.hand import new_hand
from ginrummy.players import get_player
from ginrummy.players.driver import play_hand
from ginrummy.rules import Rules

#: OpenSpiel contenders: (label, bot, clone the initial state).
PEERS = (
    ("OpenSpiel simple bot vs itself, new state", "simple", False),
    ("OpenSpiel simple bot vs itself, cloned", "simple", True),
    ("OpenSpiel random vs random, cloned", "random", True),
)
#: Which OpenSpiel figure each of ours is compared with (the cloned, faster baselines).
COMPARE = {
    "greedy vs greedy": "OpenSpiel simple bot vs itself, cloned",
    "simple vs simple": "OpenSpiel simple bot vs itself, cloned",
    "random vs random": "OpenSpiel random vs random, cloned",
}


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


def openspiel(bot: str, clone: bool) -> Callable[[list[list[int]]], int] | None:
    """OpenSpiel's gin rummy played by its simple bot or uniformly random legal actions.

    ``clone``: each hand starts from a clone of one initial state instead of a new one, which
    spares OpenSpiel's 1.3 ms of game setup per hand: the fairer, faster baseline.
    """
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("gin_rummy")
    params = game.get_parameters()
    bots = [pyspiel.make_simple_gin_rummy_bot(params, p) for p in range(2)] if bot == "simple" else []
    initial = game.new_initial_state()
    rng = random.Random(0)

    def run(deck_list: list[list[int]]) -> int:
        for deck in deck_list:
            for b in bots:
                b.restart()
            state = initial.clone() if clone else game.new_initial_state()
            k = 0
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(deck[k])  # card ids: the same 0..51, only suit order differs
                    k += 1
                elif bots:
                    state.apply_action(bots[state.current_player()].step(state))
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
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
        "random vs random": (ours("random", rules), ours_decks),
    }
    for label, bot, clone in PEERS:
        peer = openspiel(bot, clone)
        if peer is None:
            print("OpenSpiel not installed (pip install open_spiel): no reference figure", file=sys.stderr)
            break
        contenders[label] = (peer, peer_decks)

    best: dict[str, float] = {}
    for _ in range(args.rounds):
        for name, (run, deck_list) in contenders.items():
            t0 = time.process_time()
            n = run(deck_list)
            rate = n / (time.process_time() - t0)
            best[name] = max(best.get(name, 0.0), rate)

    rows = []
    for name, rate in best.items():
        ref_name = COMPARE.get(name)
        ref = best.get(ref_name) if ref_name else None
        rows.append({"contender": name, "hands_per_s": round(rate, 1), "against": ref_name if ref else None,
                     "ratio": round(rate / ref, 2) if ref else None})
    build = "compiled (mypyc)" if ginrummy.COMPILED else "pure Python"
    if args.json:
        print(json.dumps({"rules": args.rules, "rounds": args.rounds, "build": build, "results": rows}))
        return 0
    print(f"ginrummy build: {build}")
    print(f"{'contender':44s} {'hands/s':>9s} {'ratio':>7s}  against")
    for r in rows:
        x = f"{r['ratio']:.2f}x" if r["ratio"] is not None else "-"
        print(f"{r['contender']:44s} {r['hands_per_s']:9.1f} {x:>7s}  {r['against'] or ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
