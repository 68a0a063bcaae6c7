"""Our players against OpenSpiel's simple_gin_rummy_bot, in OpenSpiel's own game, on identical deals.

    .venv/bin/python bench/peers.py --players simple greedy --hands 1000 --seed 7

Each deal is played twice: our player as OpenSpiel's player 0 (the non-dealer), then as
player 1, with the same deck, so each side gets the other's cards once. The score is
OpenSpiel's return (point difference per hand, zero-sum, gin 25, undercut 25, knock 10):
we print our player's mean points per hand, with a 95% interval over the deals (each deal
counts once, as the mean of its two hands, so the seat swap's pairing is kept). A deal that
one engine cannot mirror in the other (see ``ginrummy.players.peers``) is left out, and the
count is printed. Needs ``pip install open_spiel``.

RLCard's GinRummyNoviceRuleAgent is not wired in yet (see bench/PEERS_NOTES.md for how it is
called; its payoffs are not gin-rummy points).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

from ginrummy.players import get_player
from ginrummy.players.peers import OpenSpielTable, stats


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", nargs="+", default=["simple", "greedy"], help="our players to test")
    ap.add_argument("--hands", type=int, default=400, help="hands per player (rounded up to pairs)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    try:
        table = OpenSpielTable()
    except ImportError:
        print("OpenSpiel is not installed: pip install open_spiel", file=sys.stderr)
        return 2
    pairs = (args.hands + 1) // 2
    out = []
    for name in args.players:
        per_deal: list[float] = []
        kinds: dict[str, int] = {}
        desync = 0
        disagree = 0
        decisions = 0
        t0 = time.perf_counter()
        for i in range(pairs):
            deck = list(range(52))
            random.Random(f"peers:{args.seed}:{i}").shuffle(deck)
            results = []
            for seat in (0, 1):
                player = get_player(name, seed=random.Random(f"peers:{args.seed}:{i}:p").getrandbits(63))
                results.append(table.play(player, seat, deck))
            decisions += sum(res.decisions for res in results)
            if any(res.desync for res in results):
                desync += 1
                continue
            for res in results:
                kinds[res.kind] = kinds.get(res.kind, 0) + 1
                disagree += res.ours != res.points
            per_deal.append((results[0].points + results[1].points) / 2)
        s = stats(per_deal)
        out.append({
            "player": name, "opponent": "openspiel simple_gin_rummy_bot", "deals": pairs, "kept": s["n"],
            "left_out": desync, "scores_disagree": disagree, "points_per_hand": s["mean"], "ci95": s["ci95"], "kinds": kinds,
            "seconds": time.perf_counter() - t0,
        })
    if args.json:
        print(json.dumps(out))
        return 0
    for r in out:
        lo, hi = r["ci95"]
        print(
            f"{r['player']:>8s} vs OpenSpiel simple bot: {r['points_per_hand']:+.2f} points per hand "
            f"(95% {lo:+.2f} .. {hi:+.2f}) over {r['kept']} seat-swapped deals"
            f" ({r['left_out']} left out), {r['seconds']:.1f} s; hands by our engine: {r['kinds']}; "
            f"hands our engine scored differently: {r['scores_disagree']}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
