"""What a seat's view costs as a hand grows: ``observe()`` and ``SeatView.to_json()`` by move.

    .venv/bin/python bench/views.py              # µs per call at moves 0, 25, 50, 75, 100, and the ratio to move 0

The engine keeps each seat's information state step by step, so a view should cost the same
at the hundredth move as at the first (goal: within 2x); a view that replays the history grows
with it and makes a whole hand quadratic on a server's path. Hands are random players' hands of
the EAAI rules with dead hands past the stock's end switched off by the repetition rule only,
long enough to reach move 100.
"""

from __future__ import annotations

import argparse
import random
import time

from ginrummy.hand import Hand, new_hand
from ginrummy.observation import observe
from ginrummy.rules import Rules


def long_hand(rules: Rules, moves: int, seed: int) -> list[Hand]:
    """Copies of one hand at each move up to ``moves`` (random legal actions, no early knock)."""
    rng = random.Random(seed)
    for attempt in range(1000):
        h = new_hand(rules, attempt % 2, seed=seed * 1000 + attempt)
        states = [h.clone()]
        while not h.is_over and len(h.history) < moves:
            legal = [a for a in h.legal_actions() if a.kind.name not in ("KNOCK", "BIG_GIN")] or h.legal_actions()
            h.apply(rng.choice(legal))
            states.append(h.clone())
        if len(h.history) >= moves:
            return states
    raise SystemExit(f"no hand reached {moves} moves")


def per_call(fn, n: int) -> float:
    best = float("inf")
    for _ in range(5):
        t0 = time.process_time()
        for _ in range(n):
            fn()
        best = min(best, (time.process_time() - t0) / n)
    return best * 1e6


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--calls", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    # The stock allows about 60 moves; dead_hand_stock 0 and last-chance off keep the hand going
    # only that long, so the long hands come from passing the pile back and forth (repetition off).
    rules = Rules.preset("eaai", repetition_limit=0)
    states = long_hand(rules, 100, args.seed)
    marks = [m for m in (0, 25, 50, 75, 100) if m < len(states)]
    print(f"{'move':>5} {'observe µs':>11} {'x move 0':>9} {'to_json µs':>11} {'x move 0':>9}")
    base_o = base_j = 0.0
    for m in marks:
        h = states[m]
        seat = 0
        o = per_call(lambda h=h, seat=seat: observe(h, seat), args.calls)
        v = observe(h, seat)
        j = per_call(v.to_json, args.calls // 3)
        if m == 0:
            base_o, base_j = o, j
        print(f"{m:>5} {o:>11.2f} {o / base_o:>9.2f} {j:>11.2f} {j / base_j:>9.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
