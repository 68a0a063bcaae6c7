"""What would knowing the opponent's hand be worth? A diagnostic, not a player.

Plays the same deals twice against one opponent: once with the ``expert`` as it is (its own
view only), once with an *oracle* expert whose view shows the opponent's real hand (as if
every card had been seen) and whose parameters may differ. The paired difference in points
per hand bounds what better inference of the opponent's hand could gain. Only this script
breaks the hidden-information rule, on purpose, and nothing outside ``bench/`` can.

    .venv/bin/python bench/oracle_gap.py --oracle '{"danger": 8}' --deals 600 --workers 2
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import random
from concurrent.futures import ProcessPoolExecutor

from ginrummy.hand import new_hand
from ginrummy.players import get_player
from ginrummy.players.expert import ExpertParams, ExpertPlayer
from ginrummy.rules import Rules


def _hand(rules: Rules, deck_seed: int, dealer: int, seat: int, opp_name: str, oracle: dict | None) -> int:
    h = new_hand(rules, dealer=dealer, seed=deck_seed)
    params = None if oracle is None else dataclasses.replace(ExpertParams(), **oracle)
    ex = ExpertPlayer(seed=1, params=params)
    opp = get_player(opp_name, seed=1)
    players = [ex, opp] if seat == 0 else [opp, ex]
    for s, p in enumerate(players):
        p.new_hand(s)
    while not h.is_over:
        cur = h.current
        view = h.observation(cur)
        if cur == seat and oracle is not None:
            view = dataclasses.replace(view, opponent_known=h.hands[1 - cur])
        h.apply(players[cur].decide(view))
    r = h.result
    assert r is not None
    if r.winner is None:
        return 0
    return r.points if r.winner == seat else -r.points


def _job(args: tuple[str, str, str, int, list[int]]) -> list[tuple[int, int]]:
    preset, oracle_text, opp, seed, deals = args
    rules = Rules.preset(preset)
    oracle = json.loads(oracle_text)
    out = []
    for i in deals:
        ds = random.Random(seed * 1_000_003 + i).getrandbits(48)
        a = sum(_hand(rules, ds, i % 2, s, opp, None) for s in (0, 1))
        b = sum(_hand(rules, ds, i % 2, s, opp, oracle) for s in (0, 1))
        out.append((a, b))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--oracle", default="{}", help="ExpertParams changes for the oracle (JSON)")
    ap.add_argument("--opponent", default="simple")
    ap.add_argument("--rules", default="eaai")
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--workers", type=int, default=1)
    ns = ap.parse_args()
    chunks = [list(range(w, ns.deals, ns.workers)) for w in range(ns.workers)]
    with ProcessPoolExecutor(ns.workers) as ex:
        pairs = [p for part in ex.map(_job, [(ns.rules, ns.oracle, ns.opponent, ns.seed, c) for c in chunks]) for p in part]
    n = len(pairs)
    diffs = [(b - a) / 2 for a, b in pairs]
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
    half = 1.96 * sd / math.sqrt(n)
    print(json.dumps({
        "oracle": json.loads(ns.oracle), "opponent": ns.opponent, "deals": n, "hands_each": 2 * n,
        "expert_points_per_hand": round(sum(a for a, _ in pairs) / (2 * n), 3),
        "oracle_points_per_hand": round(sum(b for _, b in pairs) / (2 * n), 3),
        "oracle_minus_expert": round(mean, 3), "ci95": [round(mean - half, 3), round(mean + half, 3)],
    }))


if __name__ == "__main__":
    main()
