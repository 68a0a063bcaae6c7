"""Self-play evaluation and tuning of the ``expert`` player.

Plays whole games (to the rule set's target) between two players, seat-swapped, and prints
the win rate with its 95% Wilson interval and the mean points per hand. It uses the project's
players by name when they exist and falls back to small local copies of the ``simple`` and
``greedy`` baselines, so tuning never waits on other modules.

    .venv/bin/python bench/tune_expert.py --p1 expert --p2 simple --games 200 --workers 2
    .venv/bin/python bench/tune_expert.py --p1 expert --p2 simple --set danger=0.8 --games 400

``--set name=value`` changes one of :class:`ExpertParams` for the first player (``expert``).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from ginrummy.actions import DONE, PASS, PILE, STOCK, Action, Kind
from ginrummy.cards import cards_of
from ginrummy.hand import Phase, new_hand
from ginrummy.melds import best_arrangement, best_defense, deadwood, knocker_choice, melds_in
from ginrummy.observation import SeatView
from ginrummy.players.base import Player
from ginrummy.players.expert import ExpertParams, ExpertPlayer
from ginrummy.rules import Rules


class _Baseline(Player):
    """Shared layout logic of the local baselines: best arrangement, best defence."""

    greedy_take = False

    def decide(self, view: SeatView) -> Action:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        p = view.phase
        if p in (Phase.OFFER, Phase.DRAW):
            top = view.pile[-1] if view.pile else None
            if PILE in legal and top is not None and self._wants(view.hand, top):
                return PILE
            return STOCK if STOCK in legal else PASS
        if p is Phase.LAST_CHANCE:
            return PILE if PILE in legal else PASS
        if p is Phase.DISCARD:
            knocks = [a for a in legal if a.kind is Kind.KNOCK]
            if any(a.kind is Kind.BIG_GIN for a in legal):
                return next(a for a in legal if a.kind is Kind.BIG_GIN)
            if knocks:
                return min(knocks, key=lambda a: deadwood(view.hand & ~(1 << a.card)))
            discards = [a for a in legal if a.kind is Kind.DISCARD]
            scored = [(deadwood(view.hand & ~(1 << a.card)), a) for a in discards]
            low = min(s for s, _ in scored)
            return self.rng.choice([a for s, a in scored if s == low])
        return _layout(view)

    def _wants(self, hand: int, top: int) -> bool:
        if self.greedy_take:
            from ginrummy.melds import min_deadwood_after_discard

            return min_deadwood_after_discard(hand | 1 << top) < deadwood(hand)
        return any(m >> top & 1 for m in melds_in(hand | 1 << top))


class LocalSimple(_Baseline):
    name = "simple"


class LocalGreedy(_Baseline):
    name = "greedy"
    greedy_take = True


def _layout(view: SeatView) -> Action:
    legal = set(view.legal)
    if view.phase is Phase.LAYOUT:
        laid = 0
        for m in view.knocker_melds:
            laid |= m
        rest = view.hand & ~laid
        limit = 0 if deadwood(view.hand) == 0 else view.knock_limit
        choice = knocker_choice(rest, limit)
        for m in choice[1] if choice else []:
            if Action.lay_meld(m) in legal:
                return Action.lay_meld(m)
        return DONE
    if view.phase is Phase.DEFENDER_LAYOUT:
        laid = 0
        for m in view.defender_melds:
            laid |= m
        rest = view.hand & ~laid
        melds = best_defense(rest, list(view.knocker_melds)).melds if view.knocker_melds else best_arrangement(rest)[1]
        for m in melds:
            if Action.lay_meld(m) in legal:
                return Action.lay_meld(m)
        return DONE
    for a in view.legal:
        if a.kind is Kind.LAYOFF:
            return a
    return DONE


def make_player(name: str, seed: int, params: dict[str, float] | None = None) -> Player:
    if name == "expert":
        base = ExpertParams()
        if params:
            fields = {k: type(getattr(base, k))(v) for k, v in params.items()}
            base = ExpertParams(**{**base.__dict__, **fields})
        return ExpertPlayer(seed=seed, params=base)
    try:
        from ginrummy.players import get_player

        return get_player(name, seed=seed)
    except (ImportError, ModuleNotFoundError, AttributeError, ValueError):
        return {"simple": LocalSimple, "greedy": LocalGreedy}[name](seed=seed)


def play_game(players: list[Player], rules: Rules, rng: random.Random) -> dict[str, Any]:
    """One whole game; returns the winner seat, final scores, and per-hand points by seat."""
    scores = [0, 0]
    dealer = rng.randrange(2)
    hands = 0
    hand_points = [0, 0]
    decisions = 0
    while max(scores) < rules.target and hands < 200:
        h = new_hand(rules, dealer, seed=rng.getrandbits(64))
        for seat, p in enumerate(players):
            p.new_hand(seat)
        while not h.is_over:
            seat = h.current
            view = h.observation(seat, (scores[0], scores[1]))
            a = players[seat].decide(view)
            decisions += 1
            h.apply(a)
        for seat, p in enumerate(players):
            p.hand_over(h.observation(seat, (scores[0], scores[1])))
        r = h.result
        assert r is not None
        hands += 1
        if r.winner is not None:
            scores[r.winner] += r.points
            hand_points[r.winner] += r.points
            hand_points[1 - r.winner] -= r.points
            dealer = r.winner if rules.next_dealer == "winner" else (1 - r.winner if rules.next_dealer == "loser" else 1 - dealer)
    winner = 0 if scores[0] >= scores[1] else 1
    return {"winner": winner, "scores": scores, "hands": hands, "points": hand_points, "decisions": decisions}


def _job(args: tuple[str, str, int, dict[str, float], str, int]) -> dict[str, Any]:
    p1, p2, game_seed, params, preset, swap = args
    rules = Rules.preset(preset)
    a = make_player(p1, game_seed, params)
    b = make_player(p2, game_seed + 1)
    players = [b, a] if swap else [a, b]
    res = play_game(players, rules, random.Random(game_seed))
    me = 1 if swap else 0
    return {
        "won": res["winner"] == me,
        "hands": res["hands"],
        "points": res["points"][me],
        "decisions": res["decisions"],
    }


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


def run(p1: str, p2: str, games: int, seed: int, workers: int, params: dict[str, float], preset: str) -> dict[str, Any]:
    jobs = [(p1, p2, seed * 100003 + i // 2, params, preset, i % 2) for i in range(games)]
    t0 = time.perf_counter()
    if workers > 1:
        with ProcessPoolExecutor(workers) as ex:
            results = list(ex.map(_job, jobs, chunksize=4))
    else:
        results = [_job(j) for j in jobs]
    wins = sum(r["won"] for r in results)
    hands = sum(r["hands"] for r in results)
    pts = sum(r["points"] for r in results)
    lo, hi = wilson(wins, games)
    return {
        "p1": p1, "p2": p2, "games": games, "wins": wins, "win_rate": wins / games,
        "wilson95": [round(lo, 4), round(hi, 4)], "hands": hands, "points_per_hand": pts / max(hands, 1),
        "seconds": round(time.perf_counter() - t0, 1), "params": params, "rules": preset,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--p1", default="expert")
    ap.add_argument("--p2", default="simple")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--rules", default="eaai")
    ap.add_argument("--set", action="append", default=[], help="name=value for ExpertParams")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    params = {}
    for kv in args.set:
        k, _, v = kv.partition("=")
        params[k] = float(v)
    res = run(args.p1, args.p2, args.games, args.seed, args.workers, params, args.rules)
    if args.json:
        print(json.dumps(res))
    else:
        lo, hi = res["wilson95"]
        print(
            f"{res['p1']} vs {res['p2']} ({res['rules']}): {res['wins']}/{res['games']} games = "
            f"{res['win_rate']:.1%} [{lo:.1%}, {hi:.1%}], {res['points_per_hand']:+.2f} points/hand over "
            f"{res['hands']} hands, {res['seconds']} s {params or ''}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

__all__ = ["LocalGreedy", "LocalSimple", "play_game", "run", "wilson", "cards_of"]
