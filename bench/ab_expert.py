"""Paired A/B of two expert parameter sets on identical deals (single hands, seat-swapped).

Both variants play every deal against the same opponent, so the luck of the deal cancels out
of the per-deal difference; the report is the mean difference in points per hand with its 95%
interval. Variants are JSON objects of ``ExpertParams`` changes.

    .venv/bin/python bench/ab_expert.py --a '{}' --b '{"danger": 4}' --deals 1000 --seed 11 --workers 2
    .venv/bin/python bench/ab_expert.py --rules classic --rule straight_gin=true --b '{"danger": 4}' --deals 1000

With ``--b-oracle`` variant B is a diagnostic, not a player: its view shows the opponent's
real hand (as if every card had been seen), so the difference bounds what better inference
of the opponent's hand could gain. Only this flag breaks the hidden-information rule, on
purpose, and nothing outside ``bench/`` can.

    .venv/bin/python bench/ab_expert.py --b '{}' --b-oracle --deals 600 --seed 5 --workers 2
"""

from __future__ import annotations

import argparse
import json
import random
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace

from ginrummy.hand import Hand, new_hand
from ginrummy.players import get_player
from ginrummy.players.base import Player
from ginrummy.players.driver import play_hand
from ginrummy.players.expert import ExpertParams, ExpertPlayer
from ginrummy.players.peers import stats
from ginrummy.rules import Rules, parse_rule_settings
from ginrummy.scoring import HandResult


def _play_oracle(hand: Hand, players: list[Player], seat: int) -> HandResult:
    """Play a hand with ``players[seat]`` shown the opponent's real hand (diagnostic only)."""
    for s, p in enumerate(players):
        p.new_hand(s)
    while not hand.is_over:
        cur = hand.current
        view = hand.observation(cur)
        if cur == seat:
            view = view._replace(opponent_known=hand.hands[1 - cur])
        hand.apply(players[cur].decide(view))
    assert hand.result is not None
    return hand.result


def _points(
    rules: Rules, deck_seed: int, dealer: int, expert: ExpertPlayer, opp_name: str, seed: int, oracle: bool
) -> int:
    """Points from the expert's side of one seat-swapped pair of hands on one deck."""
    total = 0
    for expert_seat in (0, 1):
        hand = new_hand(rules, dealer=dealer, seed=deck_seed)
        opp = get_player(opp_name, seed=seed)
        players = [expert, opp] if expert_seat == 0 else [opp, expert]
        r = _play_oracle(hand, players, expert_seat) if oracle else play_hand(hand, players)
        if r.winner is not None:
            total += r.points if r.winner == expert_seat else -r.points
    return total


def _job(args: tuple[str, dict, str, str, str, int, bool, list[int]]) -> list[tuple[int, int]]:
    preset, overrides, a_text, b_text, opp, seed, b_oracle, deals = args
    rules = Rules.preset(preset, **overrides)
    a = ExpertPlayer(seed, replace(ExpertParams(), **json.loads(a_text)))
    b = ExpertPlayer(seed, replace(ExpertParams(), **json.loads(b_text)))
    out = []
    for i in deals:
        deck_seed = random.Random(seed * 1_000_003 + i).getrandbits(48)
        pa = _points(rules, deck_seed, i % 2, a, opp, i, False)
        out.append((pa, _points(rules, deck_seed, i % 2, b, opp, i, b_oracle)))
    return out


def variant_arguments(ap: argparse.ArgumentParser) -> None:
    """The two variants (JSON changes to ``ExpertParams``), the opponent and the rules preset."""
    ap.add_argument("--a", default="{}")
    ap.add_argument("--b", required=True)
    ap.add_argument("--opponent", default="simple")
    ap.add_argument("--rules", default="eaai")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    variant_arguments(ap)
    ap.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE",
                    help="change one rule of the preset, e.g. straight_gin=true (repeatable)")
    ap.add_argument("--deals", type=int, default=500)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--b-oracle", action="store_true", help="show variant B the opponent's hand (diagnostic)")
    ns = ap.parse_args()
    overrides = parse_rule_settings(ns.rule)
    Rules.preset(ns.rules, **overrides)  # a bad rule fails here, before any work
    t0 = time.perf_counter()
    chunks = [list(range(w, ns.deals, ns.workers)) for w in range(ns.workers)]
    jobs = [(ns.rules, overrides, ns.a, ns.b, ns.opponent, ns.seed, ns.b_oracle, c) for c in chunks]
    with ProcessPoolExecutor(ns.workers) as ex:
        pairs = [p for part in ex.map(_job, jobs) for p in part]
    hands = 2 * len(pairs)
    diff = stats([(b - a) / 2 for a, b in pairs])
    pa = sum(a for a, _ in pairs) / hands
    pb = sum(b for _, b in pairs) / hands
    print(json.dumps({
        "a": json.loads(ns.a), "b": json.loads(ns.b), "b_oracle": ns.b_oracle, "opponent": ns.opponent,
        "rules": ns.rules, "rule": overrides, "deals": diff["n"], "hands_each": hands, "a_points_per_hand": round(pa, 3),
        "b_points_per_hand": round(pb, 3), "b_minus_a": round(diff["mean"], 3),
        "ci95": [round(x, 3) for x in diff["ci95"]],
        "seconds": round(time.perf_counter() - t0, 1),
    }))


if __name__ == "__main__":
    main()
