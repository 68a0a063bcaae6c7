"""Match equity of a player against an opponent, and what the match score could change in its knocks.

A game to the target is a race of hands. If the hands were independent, the chance of winning
the game from any score follows from the distribution of one hand's points and who starts it
(the starting player alternates under ``eaai`` rules). This script

1. plays ``--hands`` single hands (``--p1`` against ``--p2``, random dealer, seats alternating)
   and tabulates the points from ``--p1``'s side, separately for the hands it starts;
2. computes the match-equity table W(my score, their score, who starts) from them, exactly
   (a recursion over the scores), and the expected number of hands per game;
3. with ``--knock-states`` (the ``--out`` file of ``rollout_regret.py --decision knock``), scores
   every studied knock decision at every score on a 5-point grid: the mean change of W when the
   expert knocks instead of discarding, over the rollouts of each. A positive cell is a score at
   which the match score should make the expert knock sooner. The bound at the end adds up the
   positive cells, weighted by how often a hand starts there.

    .venv/bin/python bench/rollout_regret.py --decision knock --rules eaai --hands 1600 --seed 8 \
        --rollouts 24 --workers 2 --out /tmp/knock1.jsonl
    .venv/bin/python bench/match_equity.py --hands 8000 --knock-states /tmp/knock1.jsonl --workers 2

The hands of ``rollout_regret.py`` always have the expert as dealer, so the next hand is the
expert's to start; a dead hand is replayed with the same starter.
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from functools import cache

from ginrummy.hand import new_hand
from ginrummy.players import Player, get_player
from ginrummy.players.driver import play_hand
from ginrummy.rules import Rules

Dist = dict[int, list[tuple[int, float]]]


def _job(args: tuple[str, str, str, int, list[int]]) -> list[tuple[int, int, bool]]:
    """(p1 started, points from p1's side, dead) for each hand index."""
    preset, p1, p2, seed, indices = args
    return play_hands(Rules.preset(preset), lambda i: get_player(p1, seed=i), p2, seed, indices)


def play_hands(rules: Rules, make_p1: Callable[[int], Player], p2: str, seed: int,
               indices: list[int]) -> list[tuple[int, int, bool]]:
    """:func:`_job` with p1 built by ``make_p1(hand index)`` (a player with chosen parameters)."""
    out = []
    for i in indices:
        rng = random.Random(seed * 1_000_003 + i)
        dealer = rng.randrange(2)
        seat = i % 2
        hand = new_hand(rules, dealer=dealer, seed=rng.getrandbits(48))
        mine, theirs = make_p1(i), get_player(p2, seed=i)
        r = play_hand(hand, [mine, theirs] if seat == 0 else [theirs, mine])
        pts = 0 if r.winner is None else (r.points if r.winner == seat else -r.points)
        out.append((int(1 - dealer == seat), pts, r.winner is None))
    return out


def distribution(results: list[tuple[int, int, bool]]) -> Dist:
    """Per starter (1 = p1 starts): the points of the hands that scored, as (points, chance)."""
    dist: Dist = {}
    for s in (0, 1):
        c = Counter(p for st, p, dead in results if st == s and not dead)
        n = sum(c.values())
        dist[s] = sorted((p, m / n) for p, m in c.items())
    return dist


def equity(dist: Dist, target: int) -> dict[tuple[int, int, int], float]:
    """W(a, b, s): chance p1 wins the game at scores a (p1) and b, s = 1 if p1 starts the hand.

    Every scored hand adds points to one side, so the table fills from the target down.
    """
    w: dict[tuple[int, int, int], float] = {}

    def at(a: int, b: int, s: int) -> float:
        if a >= target:
            return 1.0
        if b >= target:
            return 0.0
        return w[(a, b, s)]

    for a in range(target - 1, -1, -1):
        for b in range(target - 1, -1, -1):
            for s in (0, 1):
                w[(a, b, s)] = sum(
                    q * (at(a + p, b, 1 - s) if p > 0 else at(a, b - p, 1 - s)) for p, q in dist[s]
                )
    return w


def visits(dist: Dist, target: int) -> Counter[tuple[int, int, int]]:
    """How often a hand starts at each (a, b, s), from 0-0 with a random first starter."""
    freq: Counter[tuple[int, int, int]] = Counter()
    front: dict[tuple[int, int, int], float] = {(0, 0, 0): 0.5, (0, 0, 1): 0.5}
    while front:
        nxt: Counter[tuple[int, int, int]] = Counter()
        for (a, b, s), f in front.items():
            freq[(a, b, s)] += f
            for p, q in dist[s]:
                if p > 0 and a + p < target:
                    nxt[(a + p, b, 1 - s)] += f * q
                elif p < 0 and b - p < target:
                    nxt[(a, b - p, 1 - s)] += f * q
        front = {k: v for k, v in nxt.items() if v > 1e-12}
    return freq


def knock_gains(states: list[dict], w: dict, target: int, step: int = 5) -> dict[tuple[int, int], float]:
    """Mean change of W from knocking instead of discarding, per (a, b) on a grid; the expert
    was the dealer of these hands, so the next hand is its to start (s = 1)."""

    @cache
    def after(x: int, a: int, b: int) -> float:
        if x > 0:
            return 1.0 if a + x >= target else w[(a + x, b, 1)]
        if x < 0:
            return 0.0 if b - x >= target else w[(a, b - x, 1)]
        return w[(a, b, 0)]  # dead: replayed, the opponent starts again

    gains = {}
    for a in range(0, target, step):
        for b in range(0, target, step):
            d = []
            for st in states:
                cs = st["candidates"]
                k = next(c for c in cs if c["action"].startswith("knock"))
                o = next(c for c in cs if not c["action"].startswith("knock"))
                d.append(sum(after(x, a, b) for x in k["q"]) / len(k["q"])
                         - sum(after(x, a, b) for x in o["q"]) / len(o["q"]))
            gains[(a, b)] = sum(d) / len(d)
    return gains


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--p1", default="expert")
    ap.add_argument("--p2", default="simple")
    ap.add_argument("--rules", default="eaai")
    ap.add_argument("--hands", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=99)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--knock-states", help="the --out file of rollout_regret.py --decision knock")
    ap.add_argument("--knock-hands", type=int, default=1600, help="the --hands of that run (chance of a first knock)")
    ns = ap.parse_args()
    rules = Rules.preset(ns.rules)
    if rules.next_dealer != "alternate":
        ap.error(f"the table assumes the starting player alternates; {ns.rules} has next_dealer={rules.next_dealer}")
    chunks = [list(range(k, ns.hands, ns.workers)) for k in range(ns.workers)]
    with ProcessPoolExecutor(ns.workers) as ex:
        results = [r for part in ex.map(_job, [(ns.rules, ns.p1, ns.p2, ns.seed, c) for c in chunks]) for r in part]
    dist = distribution(results)
    for s in (0, 1):
        mean = sum(p * q for p, q in dist[s])
        won = sum(q for p, q in dist[s] if p > 0)
        print(f"{ns.p1} {'starts' if s else 'deals'}: {sum(1 for r in results if r[0] == s)} hands, "
              f"{mean:+.2f} points per scored hand, wins {won:.1%} of them")
    w = equity(dist, rules.target)
    freq = visits(dist, rules.target)
    print(f"game win chance from 0-0 (random first starter): {(w[(0, 0, 0)] + w[(0, 0, 1)]) / 2:.1%}; "
          f"{sum(freq.values()):.2f} scored hands per game")
    if not ns.knock_states:
        return
    with open(ns.knock_states) as f:
        states = [json.loads(line) for line in f]
    gains = knock_gains(states, w, rules.target)
    print(f"{len(states)} knock states; knocking instead of discarding changes the game win chance by "
          "(x1000; rows: expert's score, columns: opponent's):")
    print("     " + " ".join(f"{b:>5}" for b in range(0, rules.target, 5)))
    for a in range(0, rules.target, 5):
        print(f"{a:>4} " + " ".join(f"{1000 * gains[(a, b)]:>5.0f}" for b in range(0, rules.target, 5)))
    p_chance = len(states) / ns.knock_hands
    bound = sum(f * p_chance * max(0.0, gains[(a // 5 * 5, b // 5 * 5)])
                for (a, b, s), f in freq.items() if s == 0)
    print(f"a first chance to knock short of gin in {p_chance:.0%} of hands; knocking in every positive "
          f"cell would add at most {bound:+.2%} to the game win chance (hands the expert deals)")


if __name__ == "__main__":
    main()
