"""How well does the expert foresee the opponent's knock? Brier scores of the chance that the
opponent ends the hand on its very next turn, at every expert discard, against what happened.

Estimates compared (the truth is read here, outside the player, only to score them):

* ``rate``: the expert's ``hazard_rate`` by the opponent's turns (what the hand value uses);
* ``samples``: over the expert's sampled opponent hands, the chance that the next draw (the
  expert's discard if it melds there, else a stock card weighted by the model) lets it knock;
* ``oracle``: the same over the opponent's real hand (a bound: what reading it exactly gives).

    .venv/bin/python bench/hazard_quality.py --hands 150
"""

from __future__ import annotations

import argparse
import json
import random
from dataclasses import replace

from _expert_states import expert_views
from ginrummy.actions import Kind
from ginrummy.cards import CARD_VALUES
from ginrummy.hand import Hand, Phase
from ginrummy.melds import deadwood, joins_meld, min_deadwood_after_discard
from ginrummy.players.expert import ExpertParams, ExpertPlayer, _Decision
from ginrummy.rules import Rules


def knock_chance(opp10: int, discard: int, stock: list[tuple[int, float]], limit: int) -> float:
    """Chance a knock-at-once opponent holding ``opp10`` can knock after its next draw."""
    if joins_meld(opp10, discard):
        return float(min_deadwood_after_discard(opp10 | 1 << discard) <= limit)
    tot = hit = 0.0
    for c, w in stock:
        if opp10 >> c & 1:
            continue
        tot += w
        if min_deadwood_after_discard(opp10 | 1 << c) <= limit:
            hit += w
    return hit / tot if tot else 0.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=150)
    ap.add_argument("--opponent", default="simple")
    ap.add_argument("--rules", default="eaai")
    ap.add_argument("--improve", type=float, nargs="*", default=[0.0, 0.5, 1.0, 2.0])
    ap.add_argument("--dump", help="write one JSON line of features and outcome per discard")
    ap.add_argument("--offset", type=int, default=4242, help="deal seeds start here")
    ns = ap.parse_args()
    feats: list[dict] = []
    improves = ns.improve
    rules = Rules.preset(ns.rules)
    params = ExpertParams()
    player = ExpertPlayer(seed=1)
    rows: list[tuple[float, list[float], float, int]] = []
    pending: tuple[Hand, float, list[float], float, int, int] | None = None

    def settle(ended: bool, knock_count: int = -1) -> None:
        nonlocal pending
        if pending is not None:
            rows.append((pending[1], pending[2], pending[3], int(ended)))
            feats[-1]["y"] = int(ended)
            feats[-1]["k"] = knock_count
            events = pending[0].observation(pending[4]).events
            after = [e for e in events[pending[5]:] if e.seat != pending[4]]
            feats[-1]["took"] = int(bool(after) and after[0].kind is Kind.PILE)
            pending = None

    for i, h, view in expert_views(rules, ns.hands, ns.opponent, ns.offset):
        if pending is not None:
            if pending[0] is not h:
                r = pending[0].result
                ended = r is not None and r.knocker is not None and r.knocker != pending[4]
                settle(ended, r.knocker_deadwood if ended and r is not None else -1)
            elif view.phase in (Phase.DEFENDER_LAYOUT, Phase.LAYOFF):
                settle(True, deadwood(h.hands[1 - view.seat]))
            else:
                settle(False)
        if view.phase is not Phase.DISCARD:
            continue
        action = player.decide(view)
        if action.kind is not Kind.DISCARD:
            continue
        dec = _Decision(view, params, random.Random(i * 31 + len(view.events)))
        stock = [(c, w) for c, w in dec.stock_w if c != action.card]
        samp = []
        for imp in improves:
            d2 = _Decision(view, replace(params, improve=imp), random.Random(i * 31 + len(view.events)))
            ss = d2.samples()
            samp.append(sum(knock_chance(s, action.card, stock, dec.limit) for s in ss) / len(ss) if ss else 0.0)
        opp = h.hands[1 - view.seat]
        orc = knock_chance(opp, action.card, [(c, 1.0) for c in h.stock], dec.limit)
        pending = (h, dec.hazard, samp, orc, view.seat, len(view.events))
        ds = dec.k.opp_discards
        feats.append({
            "turns": len(ds), "last": CARD_VALUES[ds[-1]] if ds else -1,
            "prev": CARD_VALUES[ds[-2]] if len(ds) > 1 else -1,
            "known": view.opponent_known.bit_count(), "stock": view.stock_size,
            "danger": round(dec.danger(action.card), 4), "orc": orc, "rate": dec.hazard,
        })
    if pending is not None:
        r = pending[0].result
        ended = r is not None and r.knocker is not None and r.knocker != pending[4]
        settle(ended, r.knocker_deadwood if ended and r is not None else -1)
    n = len(rows)
    if ns.dump:
        with open(ns.dump, "w") as f:
            for row in feats:
                f.write(json.dumps(row) + "\n")
    if not n:
        print("no decisions")
        return
    base = sum(r[3] for r in rows) / n
    print(f"{n} discards, the opponent ended the hand at its next turn after {base:.1%}")
    cols = [("base", lambda r: base), ("rate", lambda r: r[0]), ("oracle", lambda r: r[2])]
    cols += [(f"samples, improve {imp:g}", lambda r, j=j: r[1][j]) for j, imp in enumerate(improves)]
    for name, f in cols:
        b = sum((f(r) - r[3]) ** 2 for r in rows) / n
        mean = sum(f(r) for r in rows) / n
        print(f"  {name:22} Brier {b:.4f}   mean {mean:.3f}")


if __name__ == "__main__":
    main()
