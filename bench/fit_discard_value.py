"""Could a hand value fitted to rollouts choose better discards than the expert's?

Reads the states that ``rollout_regret.py --decision discard --features --out FILE`` wrote
(the expert's three best discards at one decision per hand, each with its rollout points Q
and what the seat can know about the ten cards it keeps). Fits, by ridge regression, the Q
difference of the 2nd and 3rd candidates from the 1st on their feature differences
(optionally times a state variable: the stock left, or the opponent's expected deadwood),
then replays the decisions with the fitted value, ten-fold cross-validated (each fold chosen
by a fit on the other nine), and prints the mean Q gained over the expert's own choice.

Q comes from rollouts that know the opponent's hand, so a fit here may only use what the
seat can see as features; the gain it reports is then reachable by a real player.

    .venv/bin/python bench/rollout_regret.py --decision discard --rules eaai --hands 3000 --seed 11 \\
        --rollouts 8 --features --out /tmp/feat.jsonl --workers 2
    .venv/bin/python bench/fit_discard_value.py /tmp/feat.jsonl --features e1,dw,e2,pk1,pk2,danger \\
        --times-stock e1,dw
"""

from __future__ import annotations

import argparse
import json
import random

import numpy as np


def _q(c: dict) -> float:
    return sum(c["q"]) / len(c["q"])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("states", help="JSON lines from rollout_regret.py --features --out")
    ap.add_argument("--features", default="e1", help="comma-separated feature names")
    ap.add_argument("--times-stock", default="", help="features also entered times stock/31")
    ap.add_argument("--times-threat", default="", help="features also entered times 1 - opp_dw/30")
    ap.add_argument("--ridge", type=float, default=0.01, help="ridge penalty per row")
    ap.add_argument("--folds", type=int, default=10)
    ns = ap.parse_args()
    feats = [f for f in ns.features.split(",") if f]
    by_stock = [f for f in ns.times_stock.split(",") if f]
    by_threat = [f for f in ns.times_threat.split(",") if f]
    states = [json.loads(line) for line in open(ns.states)]
    random.Random(0).shuffle(states)

    def row(c0: dict, cj: dict) -> list[float]:
        f0, fj = c0["features"], cj["features"]
        stock = f0["stock"] / 31.0
        threat = max(0.0, 1.0 - f0["opp_dw"] / 30.0)
        return (
            [fj[k] - f0[k] for k in feats]
            + [(fj[k] - f0[k]) * stock for k in by_stock]
            + [(fj[k] - f0[k]) * threat for k in by_threat]
        )

    weights, gains = [], []
    for fold in range(ns.folds):
        xs, ys = [], []
        for i, s in enumerate(states):
            if i % ns.folds != fold:
                cs = s["candidates"]
                for j in range(1, len(cs)):
                    xs.append(row(cs[0], cs[j]))
                    ys.append(_q(cs[j]) - _q(cs[0]))
        x, y = np.array(xs), np.array(ys)
        w = np.linalg.solve(x.T @ x + ns.ridge * len(x) * np.eye(x.shape[1]), x.T @ y)
        weights.append(w)
        for i, s in enumerate(states):
            if i % ns.folds == fold:
                cs = s["candidates"]
                pred = [0.0] + [float(np.array(row(cs[0], cs[j])) @ w) for j in range(1, len(cs))]
                best = max(range(len(cs)), key=lambda j: pred[j])
                gains.append(_q(cs[best]) - _q(cs[0]))
    wa = np.array(weights)
    names = feats + [f"{k}*stock" for k in by_stock] + [f"{k}*threat" for k in by_threat]
    for n, m, sd in zip(names, wa.mean(0), wa.std(0), strict=True):
        print(f"{n:14s} {m:+.3f} (±{sd:.3f} over folds)")
    g = np.array(gains)
    half = 1.96 * g.std() / np.sqrt(len(g))
    print(
        f"{len(states)} states; cross-validated gain over the expert's choice {g.mean():+.3f} "
        f"({g.mean() - half:+.3f} .. {g.mean() + half:+.3f}); choice changed in {np.mean(g != 0):.1%}"
    )


if __name__ == "__main__":
    main()
