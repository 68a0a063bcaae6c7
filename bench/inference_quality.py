"""How well does the expert read the opponent's hand? Brier scores against the truth.

Plays hands of ``expert`` against an opponent; at every expert discard decision it compares
the expert's beliefs with the real hidden hand (read here, outside the player, only to
score the beliefs):

* membership: for each unseen card, the believed chance that the opponent holds it;
* danger: for each card in the expert's hand, the believed chance that it joins a meld of
  the opponent's hand (what the ``danger`` term of a discard uses).

Lower is better; "base rate" is the score of always answering the average. Variants are
``ExpertParams`` changes (JSON), e.g. ``'{"danger_model": 0}'``.

    .venv/bin/python bench/inference_quality.py --hands 150 '{}' '{"danger_model": 0}' '{"danger_model": 0, "improve": 0}'
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random

from _expert_states import expert_views
from ginrummy.cards import cards_of
from ginrummy.events import Phase
from ginrummy.melds import joins_meld
from ginrummy.players.expert import ExpertParams
from ginrummy.players.expert.value import Decision
from ginrummy.rules import Rules


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("variants", nargs="*", default=["{}"])
    ap.add_argument("--hands", type=int, default=150)
    ap.add_argument("--opponent", default="simple")
    ap.add_argument("--rules", default="eaai")
    ns = ap.parse_args()
    rules = Rules.preset(ns.rules)
    variants = [dataclasses.replace(ExpertParams(), **json.loads(v)) for v in ns.variants]
    member = [0.0] * len(variants)
    danger = [0.0] * len(variants)
    n_member = n_danger = held = melds = 0
    for i, h, view in expert_views(rules, ns.hands, ns.opponent, 999):
        if h.phase is not Phase.DISCARD:
            continue
        opp = h.hands[1 - view.seat]
        hidden = opp & ~view.opponent_known
        joins = {c: joins_meld(opp, c) for c in cards_of(view.hand)}
        unseen: list[int] = []
        for j, params in enumerate(variants):
            dec = Decision(view, params, random.Random(i * 31 + len(view.events)))
            unseen = dec.k.unseen_cards  # the same for every variant
            for c in unseen:
                member[j] += (dec.k.p_opp[c] - (hidden >> c & 1)) ** 2
            for c, t in joins.items():
                danger[j] += (dec.danger(c) - t) ** 2
        n_member += len(unseen)
        held += sum(hidden >> c & 1 for c in unseen)
        n_danger += len(joins)
        melds += sum(joins.values())
    bm, bd = held / n_member, melds / n_danger
    print(f"{ns.hands} hands vs {ns.opponent}: {n_member} unseen-card beliefs, {n_danger} danger beliefs")
    print(f"  base rate            membership {bm * (1 - bm):.4f}   danger {bd * (1 - bd):.4f}")
    for v, m, d in zip(ns.variants, member, danger, strict=True):
        print(f"  {v:20s} membership {m / n_member:.4f}   danger {d / n_danger:.4f}")


if __name__ == "__main__":
    main()
