"""Would an exact posterior read `simple` better than the expert's per-card model?

At expert discards against ``simple`` (after the first few moves), the chance that each card
of the expert's hand joins a meld of the opponent's hand ("danger") is estimated three ways
and scored against the real hand (Brier score, lower is better):

* ``closed``: the expert's own closed form from its per-card weights;
* ``exact``: a Metropolis chain over the opponent's unseen cards whose likelihood replays the
  opponent's recent moves under ``simple``'s own rule (``simple_discard_choices``; it takes a
  card only if it melds, passes otherwise, knocks as soon as it can), with the cards it drew
  from the stock on its last ``--window`` stock draws summed out; a uniform prior;
* ``exact+weights``: the same likelihood with the expert's per-card weights as the prior.

The model of the opponent is exactly right here, so this bounds what better reading of
*this* opponent could give. The chain's finite sample adds some noise to its scores.

    .venv/bin/python bench/exact_posterior.py --hands 30 --steps 600
"""

from __future__ import annotations

import argparse
import random

from _expert_states import expert_views
from ginrummy.actions import Kind
from ginrummy.cards import cards_of
from ginrummy.discard_search import best_discards
from ginrummy.events import Phase
from ginrummy.melds import joins_meld
from ginrummy.players.expert import ExpertParams
from ginrummy.players.expert.value import Decision
from ginrummy.players.simple_players import simple_discard_choices
from ginrummy.rules import Rules

EPS = 0.02  # the chance of a move the rule would not make (keeps the chain moving)


def _opponent_moves(view) -> list[tuple[str, int, int | None]]:
    """The opponent's moves in order: pass / stock (with the pile card it declined) / take / discard."""
    opp = 1 - view.seat
    pile = [] if view.upcard is None else [view.upcard]
    moves: list[tuple[str, int, int | None]] = []
    taken = None
    for e in view.events:
        if e.kind is Kind.DISCARD:
            if e.seat == opp:
                moves.append(("discard", e.card, taken))
                taken = None
            pile.append(e.card)
        elif e.kind is Kind.PILE:
            c = pile.pop() if pile else -1
            if e.seat == opp:
                moves.append(("take", c, None))
                taken = c
        elif e.kind is Kind.STOCK and e.seat == opp:
            moves.append(("stock", pile[-1] if pile else -1, None))
        elif e.kind is Kind.PASS and e.seat == opp and pile:
            moves.append(("pass", pile[-1], None))
    return moves


def _likelihood(hand: int, moves, i: int, draws: int, from_pile: int, limit: int) -> float:
    """Chance of ``moves[..i]`` under the rule, given the opponent's hand after move ``i``."""
    if i < 0:
        return 1.0
    kind, c, taken = moves[i]
    if kind == "discard":
        h11 = hand | 1 << c
        excl = 0 if taken is None else 1 << taken
        if best_discards(h11, excl)[0] <= limit:
            p = EPS  # it would have knocked
        else:
            ties = simple_discard_choices(h11, cards_of(h11 & ~excl))
            p = 1.0 / len(ties) if c in ties else EPS
        return p * _likelihood(h11, moves, i - 1, draws, from_pile, limit)
    if kind == "take":
        before = hand & ~(1 << c)
        return (1.0 if joins_meld(before, c) else EPS) * _likelihood(before, moves, i - 1, draws, from_pile, limit)
    if kind == "pass":
        return (EPS if joins_meld(hand, c) else 1.0) * _likelihood(hand, moves, i - 1, draws, from_pile, limit)
    if draws == 0:
        return 1.0
    # A stock draw: any card it holds that it did not take from the pile may be the one drawn.
    drawn = cards_of(hand & ~from_pile)
    if not drawn:
        return 1.0
    total = 0.0
    for u in drawn:
        before = hand & ~(1 << u)
        p = EPS if c >= 0 and joins_meld(before, c) else 1.0
        total += p * _likelihood(before, moves, i - 1, draws - 1, from_pile, limit)
    return total / len(drawn)


def _posterior(view, dec: Decision, rng: random.Random, steps: int, window: int, weighted: bool) -> list[int]:
    """Opponent hands from a Metropolis chain (swap one unseen card in, one out)."""
    k = dec.k
    moves = _opponent_moves(view)
    from_pile = 0
    for kind, c, _ in moves:
        if kind == "take":
            from_pile |= 1 << c
    unseen, n = k.unseen_cards, k.opp_hidden
    if n == 0 or len(unseen) <= n:
        return [k.opp_known | k.unseen]
    w = {c: max(k.p_opp[c], 1e-3) for c in unseen}
    order = sorted(unseen, key=lambda c: -(rng.random() ** (1.0 / w[c])))
    held, rest = order[:n], order[n:]

    def lik(cards: list[int]) -> tuple[float, int]:
        m = k.opp_known
        for c in cards:
            m |= 1 << c
        return _likelihood(m, moves, len(moves) - 1, window, from_pile, view.knock_limit), m

    cur, mask = lik(held)
    burn, thin = steps // 10, 8
    out: list[int] = []
    for step in range(steps):
        a, b = rng.randrange(n), rng.randrange(len(rest))
        held2, rest2 = held[:], rest[:]
        held2[a], rest2[b] = rest[b], held[a]
        new, mask2 = lik(held2)
        ratio = new / cur if cur > 0 else 1.0
        if weighted:
            ratio *= w[rest[b]] / w[held[a]]
        if rng.random() < ratio:
            held, rest, cur, mask = held2, rest2, new, mask2
        if step >= burn and (step - burn) % thin == 0:
            out.append(mask)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=30)
    ap.add_argument("--steps", type=int, default=600, help="Metropolis steps per decision")
    ap.add_argument("--window", type=int, default=2, help="stock draws summed out, counted back from now")
    ns = ap.parse_args()
    rules = Rules.preset("eaai")
    params = ExpertParams()
    score = {"closed": 0.0, "exact": 0.0, "exact+weights": 0.0}
    n = hits = 0
    for i, hand, view in expert_views(rules, ns.hands, "simple", 4242):
        if hand.phase is not Phase.DISCARD or len(view.events) <= 6:
            continue
        truth = hand.hands[1 - view.seat]  # read only to score the estimates
        dec = Decision(view, params, random.Random(i))
        rng = random.Random(i * 97 + len(view.events))
        exact = _posterior(view, dec, rng, ns.steps, ns.window, weighted=False)
        weighted = _posterior(view, dec, rng, ns.steps, ns.window, weighted=True)
        for c in cards_of(view.hand):
            t = joins_meld(truth, c)
            score["closed"] += (dec.danger(c) - t) ** 2
            score["exact"] += (sum(joins_meld(m, c) for m in exact) / len(exact) - t) ** 2
            score["exact+weights"] += (sum(joins_meld(m, c) for m in weighted) / len(weighted) - t) ** 2
            n += 1
            hits += t
    base = hits / n
    print(f"{ns.hands} hands, {n} danger estimates; base rate {base * (1 - base):.4f}; "
          + ", ".join(f"{k} {v / n:.4f}" for k, v in score.items()))


if __name__ == "__main__":
    main()
