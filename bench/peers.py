"""Our players against OpenSpiel's simple_gin_rummy_bot or RLCard's novice rule agent, on identical deals.

    .venv/bin/python bench/peers.py --players simple greedy --hands 1000 --seed 7
    .venv/bin/python bench/peers.py --peer rlcard --players simple greedy expert --hands 400

Each deal is played twice: our player as OpenSpiel's player 0 (the non-dealer), then as
player 1, with the same deck, so each side gets the other's cards once. The score is
OpenSpiel's return (point difference per hand, zero-sum, gin 25, undercut 25, knock 10):
we print our player's mean points per hand, with a 95% interval over the deals (each deal
counts once, as the mean of its two hands, so the seat swap's pairing is kept). A deal that
one engine cannot mirror in the other (see ``ginrummy.players.peers``) is left out, and the
count is printed. Needs ``pip install open_spiel``.

``--peer rlcard`` plays RLCard's GinRummyNoviceRuleAgent (``RLCardNovicePlayer``, which
translates our seat view into the agent's observation and its action back) in OUR engine,
under our "eaai" rules with the wall's last chance (gin 25, undercut 25, knock 10, layoffs):
RLCard's own game has no upcard offer, no layoffs and no undercut, and its payoffs are RL
rewards, not points, so the agent's layouts and layoffs are our driver's defaults and the
score is ours. Same pairing: each deal twice, seats swapped. Needs ``pip install rlcard``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

from ginrummy.hand import new_hand
from ginrummy.players import get_player
from ginrummy.players.driver import play_hand
from ginrummy.players.peers import OPENSPIEL_RULES, OpenSpielTable, stats

RLCARD_CAVEAT = (
    "played in our engine under our rules (upcard offer, layoffs, undercut, gin 25, undercut 25, "
    "knock 10): RLCard's own game has no upcard offer, no layoffs and no undercut; the novice "
    "agent's layouts and layoffs are our driver's defaults"
)


def _deal(seed: int, i: int) -> tuple[list[int], int]:
    """Deal ``i`` of a run: its deck order and our player's seed (the same for both seats)."""
    deck = list(range(52))
    random.Random(f"peers:{seed}:{i}").shuffle(deck)
    return deck, random.Random(f"peers:{seed}:{i}:p").getrandbits(63)


def run_rlcard(names: list[str], pairs: int, seed: int) -> list[dict[str, Any]]:
    """Each of our players against RLCard's novice agent in our engine, seat-swapped deals."""
    from ginrummy.players.peers import RLCardNovicePlayer

    out: list[dict[str, Any]] = []
    for name in names:
        per_deal: list[float] = []
        kinds: dict[str, int] = {}
        wins = losses = dead = 0
        t0 = time.perf_counter()
        for i in range(pairs):
            deck, pseed = _deal(seed, i)
            pts = []
            for seat in (0, 1):
                ours = get_player(name, seed=pseed)
                novice = RLCardNovicePlayer(seed=pseed ^ 1)
                players = [ours, novice] if seat == 0 else [novice, ours]
                hand = new_hand(OPENSPIEL_RULES, dealer=1, deck=deck)
                r = play_hand(hand, players)
                kinds[r.kind] = kinds.get(r.kind, 0) + 1
                if r.winner is None:
                    dead += 1
                    pts.append(0.0)
                elif r.winner == seat:
                    wins += 1
                    pts.append(float(r.points))
                else:
                    losses += 1
                    pts.append(-float(r.points))
            per_deal.append(sum(pts) / 2)
        s = stats(per_deal)
        out.append({
            "player": name, "opponent": "rlcard GinRummyNoviceRuleAgent", "deals": pairs, "hands": 2 * pairs,
            "wins": wins, "losses": losses, "dead": dead, "win_rate": wins / (2 * pairs),
            "points_per_hand": s["mean"], "ci95": s["ci95"], "kinds": kinds,
            "seconds": time.perf_counter() - t0, "note": RLCARD_CAVEAT,
        })
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", nargs="+", default=["simple", "greedy"], help="our players to test")
    ap.add_argument("--hands", type=int, default=400, help="hands per player (rounded up to pairs)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--peer", choices=["openspiel", "rlcard"], default="openspiel", help="which peer to play")
    ap.add_argument("--rlcard", action="store_const", const="rlcard", dest="peer", help="same as --peer rlcard")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.peer == "rlcard":
        try:
            import rlcard  # noqa: F401
        except ImportError:
            print("RLCard is not installed: pip install rlcard", file=sys.stderr)
            return 2
        rows = run_rlcard(args.players, (args.hands + 1) // 2, args.seed)
        if args.json:
            print(json.dumps(rows))
            return 0
        print(f"Against RLCard's GinRummyNoviceRuleAgent, {RLCARD_CAVEAT}.")
        for r in rows:
            lo, hi = r["ci95"]
            print(
                f"{r['player']:>8s} vs RLCard novice: {r['hands']} hands ({r['deals']} seat-swapped deals), "
                f"won {r['wins']}, lost {r['losses']}, dead {r['dead']} (win rate {r['win_rate']:.1%}); "
                f"{r['points_per_hand']:+.2f} points per hand (95% {lo:+.2f} .. {hi:+.2f}); "
                f"{r['seconds']:.1f} s; hands by kind: {r['kinds']}"
            )
        return 0
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
            deck, pseed = _deal(args.seed, i)
            results = []
            for seat in (0, 1):
                player = get_player(name, seed=pseed)
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
