"""Paired A/B of two expert parameter sets on identical deals (single hands, seat-swapped).

Both variants play every deal against the same opponent, so the luck of the deal cancels out
of the per-deal difference; the report is the mean difference in points per hand with its 95%
interval. Variants are JSON objects of ``ExpertParams`` changes.

    .venv/bin/python bench/ab_expert.py --a '{}' --b '{"danger": 4}' --deals 1000 --seed 11 --workers 2
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace

from ginrummy.hand import new_hand
from ginrummy.players import get_player
from ginrummy.players.driver import play_hand
from ginrummy.players.expert import ExpertParams, ExpertPlayer
from ginrummy.rules import Rules


def _points(rules: Rules, deck_seed: int, dealer: int, expert: ExpertPlayer, opp_name: str, seed: int) -> int:
    """Points from the expert's side of one seat-swapped pair of hands on one deck."""
    total = 0
    for expert_seat in (0, 1):
        hand = new_hand(rules, dealer=dealer, seed=deck_seed)
        opp = get_player(opp_name, seed=seed)
        players = [expert, opp] if expert_seat == 0 else [opp, expert]
        r = play_hand(hand, players)
        if r.winner is not None:
            total += r.points if r.winner == expert_seat else -r.points
    return total


def _job(args: tuple[str, str, str, str, int, list[int]]) -> list[tuple[int, int]]:
    preset, a_text, b_text, opp, seed, deals = args
    rules = Rules.preset(preset)
    a = ExpertPlayer(seed, replace(ExpertParams(), **json.loads(a_text)))
    b = ExpertPlayer(seed, replace(ExpertParams(), **json.loads(b_text)))
    out = []
    for i in deals:
        deck_seed = random.Random(seed * 1_000_003 + i).getrandbits(48)
        out.append((_points(rules, deck_seed, i % 2, a, opp, i), _points(rules, deck_seed, i % 2, b, opp, i)))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--a", default="{}")
    ap.add_argument("--b", required=True)
    ap.add_argument("--opponent", default="simple")
    ap.add_argument("--rules", default="eaai")
    ap.add_argument("--deals", type=int, default=500)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--workers", type=int, default=1)
    ns = ap.parse_args()
    t0 = time.perf_counter()
    chunks = [list(range(w, ns.deals, ns.workers)) for w in range(ns.workers)]
    jobs = [(ns.rules, ns.a, ns.b, ns.opponent, ns.seed, c) for c in chunks]
    with ProcessPoolExecutor(ns.workers) as ex:
        pairs = [p for part in ex.map(_job, jobs) for p in part]
    n = len(pairs)
    hands = 2 * n
    diffs = [(b - a) / 2 for a, b in pairs]
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
    half = 1.96 * sd / math.sqrt(n)
    pa = sum(a for a, _ in pairs) / hands
    pb = sum(b for _, b in pairs) / hands
    print(json.dumps({
        "a": json.loads(ns.a), "b": json.loads(ns.b), "opponent": ns.opponent, "rules": ns.rules,
        "deals": n, "hands_each": hands, "a_points_per_hand": round(pa, 3), "b_points_per_hand": round(pb, 3),
        "b_minus_a": round(mean, 3), "ci95": [round(mean - half, 3), round(mean + half, 3)],
        "seconds": round(time.perf_counter() - t0, 1),
    }))


if __name__ == "__main__":
    main()
