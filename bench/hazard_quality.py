"""How well does the expert foresee the opponent's knock? Brier scores of the chance that the
opponent ends the hand on its very next turn, at every expert discard, against what happened.

Estimates compared (the truth is read here, outside the player, only to score them):

* ``rate``: the expert's ``hazard_rate`` by the opponent's turns (what the hand value uses);
* ``samples``: over the expert's sampled opponent hands, the chance that the next draw (the
  expert's discard if it melds there, else a stock card weighted by the model) lets it knock;
* ``filtered``: the same over hands sampled from the model, kept only if a least-deadwood,
  knock-at-once opponent would have made its last discard from them and not knocked;
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
from ginrummy.discard_search import best_discards, min_deadwood_after_discard
from ginrummy.events import Phase
from ginrummy.hand import Hand
from ginrummy.melds import deadwood, joins_meld
from ginrummy.observation import SeatView
from ginrummy.players.expert import ExpertParams, ExpertPlayer
from ginrummy.players.expert.value import Decision
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


def filtered(view: SeatView, dec: Decision, discard: int, stock: list[tuple[int, float]], seed: int,
             n: int) -> tuple[float, int]:
    """The knock chance over ``n`` hands sampled from the model (not improved), keeping only those
    from which a knock-at-once, least-deadwood opponent would have made its last discard and
    not knocked; the rate when none is kept. Also returns how many were kept."""
    k = dec.k
    if not k.opp_discards:
        return dec.hazard, 0
    d = k.opp_discards[-1]
    last_draw = next((e for e in reversed(view.events)
                      if e.seat != view.seat and e.kind in (Kind.PILE, Kind.STOCK)), None)
    # The card it had just taken from the pile could not be thrown back.
    excl = 1 << k.opp_taken[-1] if last_draw is not None and last_draw.kind is Kind.PILE and k.opp_taken else 0
    plain = Decision(view, replace(dec.params, improve=0.0, samples=n), random.Random(seed))
    kept = []
    for m in plain.samples():
        best, choices = best_discards(m | 1 << d, excl)
        if d in choices and best > dec.limit:
            kept.append(m)
    if not kept:
        return dec.hazard, 0
    return sum(knock_chance(s, discard, stock, dec.limit) for s in kept) / len(kept), len(kept)


def _knocked_against(hand: Hand, seat: int) -> int:
    """The opponent's knock count if the finished ``hand`` ended by its knock (or gin), else -1."""
    r = hand.result
    return r.knocker_deadwood if r is not None and r.knocker is not None and r.knocker != seat else -1


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=150)
    ap.add_argument("--opponent", default="simple")
    ap.add_argument("--rules", default="eaai")
    ap.add_argument("--improve", type=float, nargs="*", default=[0.0, 0.5, 1.0, 2.0])
    ap.add_argument("--filter-n", type=int, default=100, help="model samples tried for the filtered estimate")
    ap.add_argument("--dump", help="write one JSON line of features and outcome per discard")
    ap.add_argument("--offset", type=int, default=4242, help="deal seeds start here")
    ns = ap.parse_args()
    rules = Rules.preset(ns.rules)
    params = ExpertParams()
    player = ExpertPlayer(seed=1)
    rows: list[dict] = []  # one per expert discard: what was known, the estimates, the outcome
    pending: tuple[Hand, int, int] | None = None  # the hand, the expert's seat, events seen then

    def settle(knock_count: int) -> None:
        """Close the last discard's row: -1 if the opponent's turn passed without a knock."""
        nonlocal pending
        if pending is not None:
            hand, seat, seen = pending
            row = rows[-1]
            row["y"] = int(knock_count >= 0)
            row["k"] = knock_count
            after = [e for e in hand.observation(seat).events[seen:] if e.seat != seat]
            row["took"] = int(bool(after) and after[0].kind is Kind.PILE)
            pending = None

    for i, h, view in expert_views(rules, ns.hands, ns.opponent, ns.offset):
        if pending is not None:
            if pending[0] is not h:
                settle(_knocked_against(pending[0], pending[1]))
            elif view.phase in (Phase.DEFENDER_LAYOUT, Phase.LAYOFF):
                settle(deadwood(h.hands[1 - view.seat]))
            else:
                settle(-1)
        if view.phase is not Phase.DISCARD:
            continue
        action = player.decide(view)
        if action.kind is not Kind.DISCARD:
            continue
        dec = Decision(view, params, random.Random(i * 31 + len(view.events)))
        stock = [(c, w) for c, w in dec.stock_w if c != action.card]
        samples = []
        for imp in ns.improve:
            d2 = Decision(view, replace(params, improve=imp), random.Random(i * 31 + len(view.events)))
            ss = d2.samples()
            samples.append(sum(knock_chance(s, action.card, stock, dec.limit) for s in ss) / len(ss) if ss else 0.0)
        fk, nk = filtered(view, dec, action.card, stock, i * 77 + len(view.events), ns.filter_n)
        opp = h.hands[1 - view.seat]
        pending = (h, view.seat, len(view.events))
        ds = dec.k.opp_discards
        rows.append({
            "turns": len(ds), "last": CARD_VALUES[ds[-1]] if ds else -1,
            "prev": CARD_VALUES[ds[-2]] if len(ds) > 1 else -1,
            "known": view.opponent_known.bit_count(), "stock": view.stock_size,
            "filtered": fk, "kept": nk, "danger": round(dec.danger(action.card), 4), "rate": dec.hazard, "samples": samples,
            "orc": knock_chance(opp, action.card, [(c, 1.0) for c in h.stock], dec.limit),
        })
    if pending is not None:
        settle(_knocked_against(pending[0], pending[1]))
    if ns.dump:
        with open(ns.dump, "w") as f:
            for row in rows:
                f.write(json.dumps(row) + "\n")
    n = len(rows)
    if not n:
        print("no decisions")
        return
    base = sum(r["y"] for r in rows) / n
    print(f"{n} discards, the opponent ended the hand at its next turn after {base:.1%}")
    cols = [("base", lambda r: base), ("rate", lambda r: r["rate"]), ("oracle", lambda r: r["orc"]),
            ("filtered", lambda r: r["filtered"])]
    cols += [(f"samples, improve {imp:g}", lambda r, j=j: r["samples"][j]) for j, imp in enumerate(ns.improve)]
    for name, f in cols:
        b = sum((f(r) - r["y"]) ** 2 for r in rows) / n
        mean = sum(f(r) for r in rows) / n
        print(f"  {name:22} Brier {b:.4f}   mean {mean:.3f}")


if __name__ == "__main__":
    main()
