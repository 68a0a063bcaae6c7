"""Instructions per whole hand (valgrind's callgrind): ours vs OpenSpiel, exact on a busy machine.

    .venv/bin/python bench/instructions.py                  # greedy and random vs OpenSpiel, 100 hands
    .venv/bin/python bench/instructions.py --hands 200 --only greedy

Each contender of ``bench/throughput.py`` runs twice under callgrind in a child process, once
with ``--hands`` hands and once with none (imports, tables, OpenSpiel's game setup), with
``PYTHONHASHSEED=0``; the difference divided by the hands is the cost of a hand. The counts
do not move with other jobs on the machine, so they compare two versions of our code, and us
with OpenSpiel, where wall-clock ratios swing. OpenSpiel's C++ does more per instruction than
the interpreter, so its time ratio comes out somewhat below the instruction ratio.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

#: (label, ours or OpenSpiel, player or bot); the OpenSpiel rows clone their initial state.
CONTENDERS = {
    "greedy": ("ours", "greedy"),
    "simple": ("ours", "simple"),
    "random": ("ours", "random"),
    "openspiel-simple": ("openspiel", "simple"),
    "openspiel-random": ("openspiel", "random"),
}
#: Our contender -> the OpenSpiel one it is compared with.
COMPARE = {"greedy": "openspiel-simple", "simple": "openspiel-simple", "random": "openspiel-random"}


def child(name: str, hands: int, seed: int, rules_name: str) -> None:
    """Play ``hands`` hands of one contender (the run measured under callgrind)."""
    from ginrummy.rules import Rules
    from throughput import decks, openspiel, ours

    kind, who = CONTENDERS[name]
    if kind == "ours":
        run = ours(who, Rules.preset(rules_name))
    else:
        peer = openspiel(who, True)
        if peer is None:
            raise SystemExit("OpenSpiel is not installed")
        run = peer
    run(decks(hands, seed))


def count(name: str, hands: int, seed: int, rules_name: str) -> int:
    """Total instructions of a child run under callgrind."""
    with tempfile.TemporaryDirectory() as tmp:
        cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/out", sys.executable, __file__,
               "--child", name, "--hands", str(hands), "--seed", str(seed), "--rules", rules_name]
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        done = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    found = re.search(r"Collected\s*:\s*(\d+)", done.stderr)
    if done.returncode or not found:
        raise SystemExit(f"callgrind run of {name} failed:\n{done.stderr[-2000:]}")
    return int(found.group(1))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rules", default="eaai", help="rule preset for our players (OpenSpiel plays its defaults)")
    ap.add_argument("--only", choices=sorted(COMPARE), action="append", help="our contenders to run (repeatable)")
    ap.add_argument("--child", choices=sorted(CONTENDERS), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        child(args.child, args.hands, args.seed, args.rules)
        return 0
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed: apt-get install valgrind")
    mine = args.only or ["greedy", "random"]
    names = [*mine, *sorted({COMPARE[m] for m in mine})]
    per_hand = {}
    for name in names:
        per_hand[name] = (count(name, args.hands, args.seed, args.rules) - count(name, 0, args.seed, args.rules)) / args.hands
    print(f"{'contender':20s} {'instructions/hand':>18s} {'ratio':>7s}  against")
    for name in names:
        ref = COMPARE.get(name)
        ratio = f"{per_hand[ref] / per_hand[name]:.2f}x" if ref else "-"
        print(f"{name:20s} {per_hand[name] / 1e6:16.3f} M {ratio:>7s}  {ref or ''}")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    sys.exit(main())
