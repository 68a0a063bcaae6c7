"""Paired A/B of two expert parameter sets in whole-game terms: the change of the game win chance.

Whole-game runs are the honest measure but noisy (about +-0.9 points of win rate for 8,000
games); a change that only matters at some scores is lost in them. This script uses the
performance-difference identity of a race of hands instead:

    P_B(win) - P_A(win) = sum over scores s of visits(s) * (E[W(after) | B plays s] - E[W(after) | A plays s])

with ``W`` the match-equity table of A against the opponent and ``visits`` how often a game
reaches each score (both from ``bench/match_equity.py``, built from ``--dist-hands`` single
hands of A, to first order in the change). So it samples scores by how often games visit them,
plays A and B on the same deal there (the view shows the score), and scores each result by
what it does to ``W``. Every pair where A and B play alike adds exactly nothing, which is
what makes it far less noisy than two whole-game runs.

    .venv/bin/python bench/score_ab.py --a '{"met": 0}' --b '{}' --states 6000 --seed 4 --workers 2

``--dist FILE`` keeps the single hands of the table (JSON) so later runs reuse them.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace

sys.path.insert(0, os.path.dirname(__file__))

from ab_expert import variant_arguments  # noqa: E402
from ginrummy.hand import new_hand  # noqa: E402
from ginrummy.players import get_player  # noqa: E402
from ginrummy.players.driver import play_hand  # noqa: E402
from ginrummy.players.expert import ExpertParams, ExpertPlayer  # noqa: E402
from ginrummy.players.peers import stats  # noqa: E402
from ginrummy.rules import Rules  # noqa: E402
from match_equity import distribution, equity, play_hands, visits  # noqa: E402

State = tuple[int, int, int]


def _play(rules: Rules, params: ExpertParams, opp: str, state: State, deck_seed: int, i: int) -> tuple[int, bool]:
    """Points from the expert's side (seat 0) of one hand at ``state``, and whether it was dead."""
    a, b, s = state
    hand = new_hand(rules, dealer=1 if s == 1 else 0, seed=deck_seed)
    r = play_hand(hand, [ExpertPlayer(i, params), get_player(opp, seed=i)], scores=(a, b))
    if r.winner is None:
        return 0, True
    return (r.points if r.winner == 0 else -r.points), False


def _job(args: tuple[str, str, str, str, int, list[tuple[int, State]]]) -> list[tuple[State, int, bool, int, bool]]:
    preset, a_text, b_text, opp, seed, items = args
    rules = Rules.preset(preset)
    pa = replace(ExpertParams(), **json.loads(a_text))
    pb = replace(ExpertParams(), **json.loads(b_text))
    out = []
    for i, st in items:
        deck_seed = random.Random(seed * 1_000_003 + i).getrandbits(48)
        xa, da = _play(rules, pa, opp, st, deck_seed, i)
        xb, db = _play(rules, pb, opp, st, deck_seed, i)
        out.append((st, xa, da, xb, db))
    return out


def _table_job(args: tuple[str, str, str, int, list[int]]) -> list[tuple[int, int, bool]]:
    """Single hands of A (its parameters passed to the player) for the match-equity table."""
    preset, a_text, opp, seed, indices = args
    pa = replace(ExpertParams(), **json.loads(a_text))
    return play_hands(Rules.preset(preset), lambda i: ExpertPlayer(i, pa), opp, seed, indices)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    variant_arguments(ap)
    ap.add_argument("--states", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--dist-hands", type=int, default=8000, help="single hands of A for the table")
    ap.add_argument("--dist", help="JSON file to keep (or reuse) those hands in")
    ap.add_argument("--workers", type=int, default=1)
    ns = ap.parse_args()
    rules = Rules.preset(ns.rules)
    if rules.next_dealer != "alternate" or rules.game_bonus or rules.box_bonus:
        ap.error("the table assumes a race to the target with the starter alternating (eaai, app without big gin)")
    t0 = time.perf_counter()
    results = None
    if ns.dist and os.path.exists(ns.dist):
        with open(ns.dist) as f:
            results = [tuple(r) for r in json.load(f)]
    if results is None:
        chunks = [list(range(k, ns.dist_hands, ns.workers)) for k in range(ns.workers)]
        with ProcessPoolExecutor(ns.workers) as ex:
            jobs = [(ns.rules, ns.a, ns.opponent, ns.seed + 7919, c) for c in chunks]  # the table is A's
            results = [r for part in ex.map(_table_job, jobs) for r in part]
        if ns.dist:
            with open(ns.dist, "w") as f:
                json.dump(results, f)
    dist = distribution(results)  # type: ignore[arg-type]
    w = equity(dist, rules.target)
    freq = visits(dist, rules.target)
    hands_per_game = sum(freq.values())
    keys = sorted(freq)
    rng = random.Random(ns.seed)
    picked = rng.choices(keys, [freq[k] for k in keys], k=ns.states)
    target = rules.target

    def after(x: int, dead: bool, st: State) -> float:
        a, b, s = st
        if dead:
            return w[(a, b, s)]  # replayed with the same starter
        if x > 0:
            return 1.0 if a + x >= target else w[(a + x, b, 1 - s)]
        return 0.0 if b - x >= target else w[(a, b - x, 1 - s)]

    items = list(enumerate(picked))
    chunks = [items[k::ns.workers] for k in range(ns.workers)]
    with ProcessPoolExecutor(ns.workers) as ex:
        rows = [r for part in ex.map(_job, [(ns.rules, ns.a, ns.b, ns.opponent, ns.seed, c) for c in chunks])
                for r in part]
    dw = stats([hands_per_game * (after(xb, db, st) - after(xa, da, st)) for st, xa, da, xb, db in rows])
    dp = stats([float(xb - xa) for _, xa, _, xb, _ in rows])
    changed = sum(1 for _, xa, da, xb, db in rows if (xa, da) != (xb, db))
    w0 = (w[(0, 0, 0)] + w[(0, 0, 1)]) / 2
    print(json.dumps({
        "a": json.loads(ns.a), "b": json.loads(ns.b), "opponent": ns.opponent, "rules": ns.rules,
        "states": len(rows), "results_changed": changed, "a_game_win_chance": round(w0, 4),
        "hands_per_game": round(hands_per_game, 2),
        "b_minus_a_game_win": round(dw["mean"], 4), "ci95": [round(x, 4) for x in dw["ci95"]],
        "b_minus_a_points_per_hand": round(dp["mean"], 3), "points_ci95": [round(x, 3) for x in dp["ci95"]],
        "seconds": round(time.perf_counter() - t0, 1),
    }))


if __name__ == "__main__":
    main()
