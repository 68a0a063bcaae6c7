"""Instructions per hand part by part (valgrind's callgrind), on replays of the same hands.

    .venv/bin/python bench/replay_instructions.py greedy                  # every part, 100 hands
    .venv/bin/python bench/replay_instructions.py random --parts full --no-gc

The hands of ``bench/throughput.py`` are played once through the driver and their actions kept
(in a temporary file); then each part runs under callgrind in a child process, with the hands
and with none (start-up and loading the actions), ``PYTHONHASHSEED=0``, and the difference per
hand is printed. The parts add one thing at a time, as in ``bench/step_cost.py``: ``deal``
(``new_hand``), ``apply`` (each recorded action through ``Hand.apply``), ``legal`` (plus
``Hand.legal()`` before each), ``observe`` (plus the seat's view, which lists the legal actions),
``full`` (the driver's ``play_hand``: views, decisions, apply). Unlike ``bench/instructions.py``
no deck is made in the measured hands (about 180,000 instructions a hand there), so the parts
compare two versions of the code more finely. ``--no-gc`` turns the garbage collector off in
the children: a change that adds objects at start-up can move a collection of them into the
measured hands and a whole-hand count by up to 1%.
"""

from __future__ import annotations

import argparse
import os
import pickle
import re
import subprocess
import sys
import tempfile

PARTS = ("deal", "apply", "legal", "observe", "full")


def record(name: str, hands: int, seed: int, rules_name: str, path: str) -> None:
    """Play the hands once and keep (dealer, deck, action codes) of each."""
    from ginrummy.hand import new_hand
    from ginrummy.players import get_player
    from ginrummy.players.driver import play_hand
    from ginrummy.rules import Rules
    from throughput import decks

    rules = Rules.preset(rules_name)
    players = [get_player(name, seed=0), get_player(name, seed=1)]
    games = []
    for i, deck in enumerate(decks(hands, seed)):
        h = new_hand(rules, i % 2, deck=deck)
        play_hand(h, players)
        games.append((i % 2, deck, [s.action.code for s in h.history]))
    with open(path, "wb") as f:
        pickle.dump(games, f)


def child(name: str, part: str, hands: int, rules_name: str, path: str, no_gc: bool) -> None:
    """Replay ``hands`` recorded hands up to ``part`` (the run measured under callgrind)."""
    import gc

    from ginrummy.actions import ACTIONS
    from ginrummy.hand import new_hand
    from ginrummy.observation import observe
    from ginrummy.players import get_player
    from ginrummy.players.driver import play_hand
    from ginrummy.rules import Rules

    if no_gc:
        gc.disable()
    rules = Rules.preset(rules_name)
    with open(path, "rb") as f:
        games = [(dealer, deck, [ACTIONS[c] for c in codes]) for dealer, deck, codes in pickle.load(f)]
    games = games[:hands]
    # Made in every part, so the run without hands counts their imports too.
    players = [get_player(name, seed=0), get_player(name, seed=1)]
    if part == "full":
        for dealer, deck, _ in games:
            play_hand(new_hand(rules, dealer, deck=deck), players)
        return
    for dealer, deck, actions in games:
        h = new_hand(rules, dealer, deck=deck)
        if part == "deal":
            continue
        for a in actions:
            if part == "legal":
                h.legal()
            elif part == "observe":
                observe(h, h.current)
            h.apply(a)


def count(args: argparse.Namespace, part: str, hands: int, path: str) -> int:
    """Total instructions of one child run under callgrind."""
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, __file__, args.player,
           "--child", part, "--hands", str(hands), "--rules", args.rules, "--games", path]
    if args.no_gc:
        cmd.append("--no-gc")
    done = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": "0"}, check=False)
    found = re.search(r"Collected\s*:\s*(\d+)", done.stderr)
    if done.returncode or not found:
        raise SystemExit(f"callgrind run of {part} failed:\n{done.stderr[-2000:]}")
    return int(found.group(1))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("player", help="the player of both seats (greedy, simple, random, ...)")
    ap.add_argument("--parts", default=",".join(PARTS), help=f"comma-separated, of {', '.join(PARTS)}")
    ap.add_argument("--hands", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rules", default="eaai")
    ap.add_argument("--no-gc", action="store_true", help="garbage collector off in the measured runs")
    ap.add_argument("--child", choices=PARTS, help=argparse.SUPPRESS)
    ap.add_argument("--games", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        child(args.player, args.child, args.hands, args.rules, args.games, args.no_gc)
        return 0
    parts = args.parts.split(",")
    if not set(parts) <= set(PARTS):
        ap.error(f"--parts: choose among {', '.join(PARTS)}")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "games.pickle")
        record(args.player, args.hands, args.seed, args.rules, path)
        base = count(args, "deal", 0, path)
        for part in parts:
            per_hand = (count(args, part, args.hands, path) - base) / args.hands
            print(f"{part:10s} {per_hand / 1e6:8.3f} M instructions/hand", flush=True)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    sys.exit(main())
