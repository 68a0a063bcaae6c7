"""How long the ``expert`` takes to decide: p50 / p95 / max over real game positions.

The expert plays whole EAAI games against ``simple``; every one of its decisions is timed
(one core, wall clock, ``time.perf_counter``). The goal is p95 under 50 ms.

    .venv/bin/python bench/expert_speed.py --games 20
    taskset -c 0 .venv/bin/python bench/expert_speed.py --games 20   # pin to one core
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import defaultdict

from ginrummy.hand import new_hand
from ginrummy.players import get_player
from ginrummy.players.expert import ExpertPlayer
from ginrummy.rules import Rules, parse_rule_settings


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--rules", default="eaai")
    ap.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE", help="change one rule")
    ap.add_argument("--opponent", default="simple")
    args = ap.parse_args(argv)
    rules = Rules.preset(args.rules, **parse_rule_settings(args.rule))
    rng = random.Random(args.seed)
    times: list[float] = []
    by_phase: dict[str, list[float]] = defaultdict(list)
    for g in range(args.games):
        expert = ExpertPlayer(seed=g)
        other = get_player(args.opponent, seed=g)
        players = [expert, other] if g % 2 == 0 else [other, expert]
        scores = [0, 0]
        dealer = rng.randrange(2)
        while max(scores) < rules.target:
            h = new_hand(rules, dealer, seed=rng.getrandbits(64))
            while not h.is_over:
                seat = h.current
                view = h.observation(seat, (scores[0], scores[1]))
                p = players[seat]
                if p is expert:
                    t0 = time.perf_counter()
                    a = p.decide(view)
                    dt = (time.perf_counter() - t0) * 1000
                    times.append(dt)
                    by_phase[view.phase.value].append(dt)
                else:
                    a = p.decide(view)
                h.apply(a)
            r = h.result
            assert r is not None
            if r.winner is not None:
                scores[r.winner] += r.points
                dealer = r.winner
    times.sort()

    def pct(xs: list[float], q: float) -> float:
        return xs[min(len(xs) - 1, int(q * len(xs)))]

    rules_text = " ".join([args.rules, *args.rule])
    print(f"expert decisions: {len(times)} over {args.games} games ({rules_text} rules, vs {args.opponent})")
    print(f"p50 {pct(times, 0.5):.2f} ms  p95 {pct(times, 0.95):.2f} ms  max {times[-1]:.2f} ms  "
          f"mean {statistics.fmean(times):.2f} ms")
    for phase, xs in sorted(by_phase.items()):
        xs.sort()
        print(f"  {phase:16s} n={len(xs):5d}  p50 {pct(xs, 0.5):6.2f}  p95 {pct(xs, 0.95):6.2f}  max {xs[-1]:6.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
