"""One-step rollout analysis of the expert's decisions: how much better could one choice be?

At sampled expert decisions against an opponent (one per hand: a discard, a close
pile-or-stock draw, or the first (``--knock-chance`` N: the N-th) chance to knock short of gin), every candidate is played
out ``--rollouts`` times to the end of the hand by the expert itself, the stock reshuffled
the same way for every candidate (common random numbers) and the opponent's real hand kept. That gives each candidate's true value
Q (hand points from the expert's side) given everything, including what the expert cannot
see. The report:

* ``gaps``: Q of the expert's 2nd and 3rd choices minus its 1st (how informative its ranking is);
* ``hindsight_gain``: choosing among the candidates by half the rollouts, scored on the other
  half. The rollouts know the opponent's hand, so this bounds what one better decision
  could gain *with* that knowledge; it is not reachable from the seat's view;
* ``value_slope``: Q difference per point of the expert's own value difference (1.0 means
  its values are on the scale of hand points);
* ``belief_rollout_gain`` (with ``--belief-rollouts K``): the candidate with the best mean over
  K rollouts in worlds drawn from the expert's own beliefs (the opponent's unseen cards
  sampled by the expert's per-card chances, the rest shuffled into the stock), scored on the
  true rollouts: what a slow rollout search that sees only the seat's view would gain;
  with ``--belief exact`` the worlds come instead from ``exact_posterior.py``'s Metropolis
  chain, whose likelihood replays the opponent's moves under ``simple``'s own rule (right
  only against ``simple``: the best beliefs about that opponent there are);
* ``reweighted``: off-policy estimates of one-step changes that use only what the seat sees:
  discards ranked by ``value + w * danger`` for each ``--weights`` w (the default is 2), or
  the pile taken with a bias of w points, or a knock when its expectation is within w points
  of the expert's knock line. 0 means the same choices as the expert.

``--features --out FILE`` also stores, for each discard, what the seat can know about the 10
cards kept (expected deadwood after one and two draws, knock and gin chances, danger, ...),
for fitting a better hand value offline.

The truth is read here, outside the player, only to score the candidates.

    .venv/bin/python bench/rollout_regret.py --decision discard --hands 300 --seed 1 --workers 2
    .venv/bin/python bench/rollout_regret.py --decision draw --hands 500 --seed 3 --workers 2
    .venv/bin/python bench/rollout_regret.py --decision discard --hands 300 --seed 2 --belief-rollouts 24 --workers 2
    .venv/bin/python bench/rollout_regret.py --decision knock --hands 400 --seed 2 --belief-rollouts 24 --belief exact --workers 2
"""

from __future__ import annotations

import argparse
import json
import random
import re
from concurrent.futures import ProcessPoolExecutor

from exact_posterior import _posterior
from ginrummy.actions import Kind
from ginrummy.cards import CARD_VALUES
from ginrummy.discard_search import best_discards, min_deadwood_after_discard
from ginrummy.events import Phase
from ginrummy.hand import Hand, new_hand
from ginrummy.melds import best_arrangement, deadwood, deadwood_cards
from ginrummy.players import get_player
from ginrummy.players.driver import play_hand
from ginrummy.players.expert import ExpertPlayer
from ginrummy.players.expert.value import Decision
from ginrummy.players.peers import stats
from ginrummy.rules import Rules


def _finish(hand: Hand, seat: int, opponent: str, seed: int) -> int:
    """Play the hand out, the expert in ``seat``; hand points from its side."""
    players = [get_player(opponent, seed=seed), get_player(opponent, seed=seed)]
    players[seat] = ExpertPlayer(seed=seed)
    r = play_hand(hand, players)
    return 0 if r.winner is None else (r.points if r.winner == seat else -r.points)


def _belief_world(hand: Hand, seat: int, view, player: ExpertPlayer, rng: random.Random,
                  opp: int | None = None) -> Hand:
    """A copy of the hand with the opponent's unseen cards and the stock redrawn from the
    expert's beliefs (weighted sampling without replacement by its per-card chances), or with
    the given opponent hand ``opp`` (a posterior sample) and the rest shuffled into the stock."""
    dec = Decision(view, player.params, rng)
    k = dec.k
    cards = k.unseen_cards
    if opp is None:
        keyed = sorted(((rng.random() ** (1.0 / max(k.p_opp[c], 1e-3)), c) for c in cards), reverse=True)
        stock = [c for _, c in keyed[k.opp_hidden:]]
        opp = k.opp_known
        for _, c in keyed[: k.opp_hidden]:
            opp |= 1 << c
    else:
        stock = [c for c in cards if not opp >> c & 1]
    rng.shuffle(stock)
    h = hand.clone()
    h.hands[1 - seat] = opp
    h.stock = stock
    return h


def _features(dec: Decision, hand10: int, card: int) -> dict:
    """What the seat can know about a 10-card hand, for fitting a better value offline."""
    limit = dec.limit
    pool = dec.stock_w
    tw = dec.stock_total
    dw = deadwood(hand10)
    e1, pk1, pg1 = dec.outlook(hand10)  # the next draw, as the expert's hints report it
    outs = e2 = pk2 = 0.0
    for c, w in pool:
        h = hand10 | 1 << c
        d1, drop = best_discards(h)
        if d1 >= dw:
            d1, h10 = dw, hand10
        else:
            h10 = h & ~(1 << drop[0])
            outs += w
        # The second draw: the same pool without c, weights renormalised.
        acc = tot = k2 = 0.0
        for c2, w2 in pool:
            if c2 == c:
                continue
            d2 = min(d1, min_deadwood_after_discard(h10 | 1 << c2))
            acc += w2 * d2
            k2 += w2 * (d2 <= limit)
            tot += w2
        e2 += w * acc / tot
        pk2 += w * k2 / tot
    melded = 10 - deadwood_cards(hand10, best_arrangement(hand10)[1]).bit_count()
    return {
        "dw": dw, "e1": e1, "pk1": pk1, "pg1": pg1, "outs": outs / tw,
        "e2": e2 / tw, "pk2": pk2 / tw, "melded": melded, "danger": dec.danger(card),
        "card_value": CARD_VALUES[card], "stock": dec.view.stock_size,
        "opp_dw": sum(dec.sample_deadwoods()) / max(1, len(dec.sample_deadwoods())),
    }


def _candidates(player: ExpertPlayer, view, decision: str, features: bool = False) -> list[dict] | None:
    """The expert's top discards (with value and danger), or its pile and stock options when close."""
    ranked = sorted(player.evaluate(view), key=lambda t: -t[1])
    if decision == "discard":
        if view.phase is not Phase.DISCARD or ranked[0][0].kind is not Kind.DISCARD:
            return None
        dec = Decision(view, player.params, random.Random(0))
        return [
            {"action": a, "score": v, "value": dec.value(view.hand & ~(1 << a.card)), "danger": dec.danger(a.card),
             "features": _features(dec, view.hand & ~(1 << a.card), a.card) if features else None}
            for a, v, _ in [t for t in ranked if t[0].kind is Kind.DISCARD][:3]
        ]
    if decision == "knock":
        if view.phase is not Phase.DISCARD:
            return None
        knock = next((t for t in ranked if t[0].kind is Kind.KNOCK), None)
        disc = next((t for t in ranked if t[0].kind is Kind.DISCARD), None)
        if knock is None or disc is None or knock[1] >= 900:  # gin is no choice
            return None
        # The expert knocks when ev_knock >= wait + margin; "gap" is how far it was from that line.
        m = re.search(r"expected ([-+.0-9]+) points \(waiting ([-+.0-9]+)\)", knock[2])
        assert m, knock[2]
        gap = float(m.group(1)) - float(m.group(2)) - player._wait_margin(view)
        cands = [{"action": a, "score": v, "gap": gap} for a, v, _ in (knock, disc)]
        return sorted(cands, key=lambda c: -c["score"])
    if view.phase is not Phase.DRAW:
        return None
    pile = [t for t in ranked if t[0].kind is Kind.PILE]
    stock = [t for t in ranked if t[0].kind is Kind.STOCK]
    # -1.0 is the expert's fixed answer for a pile card that cannot help: no real choice.
    if not pile or not stock or pile[0][1] == -1.0 or abs(pile[0][1] - stock[0][1]) >= 4:
        return None
    cands = [{"action": a, "score": v} for a, v, _ in (pile[0], stock[0])]
    return sorted(cands, key=lambda c: -c["score"])


def _job(args: tuple[str, str, str, int, int, int, str, bool, int, list[int]]) -> list[dict]:
    decision, preset, opponent, seed, rollouts, belief_rollouts, belief, features, knock_chance, hands = args
    rules = Rules.preset(preset)
    out = []
    for i in hands:
        rng = random.Random(seed * 7919 + i)
        hand = new_hand(rules, dealer=i % 2, seed=rng.getrandbits(48))
        seat = i % 2
        players = [get_player(opponent, seed=i), get_player(opponent, seed=i)]
        players[seat] = ExpertPlayer(seed=i)
        for s, p in enumerate(players):
            p.new_hand(s)
        # Discards: one decision at a random turn; draws: the first close one.
        target = rng.randint(1, 7)
        turn = 0
        chances = 0  # knock chances short of gin seen so far (--knock-chance picks one)
        while not hand.is_over:
            cur = hand.current
            view = hand.observation(cur)
            if cur == seat and hand.phase in (Phase.DISCARD, Phase.DRAW):
                turn += hand.phase is Phase.DISCARD
                pick = decision in ("draw", "knock") or turn == target
                cands = _candidates(players[seat], view, decision, features) if pick else None
                if cands and decision == "knock":
                    chances += 1
                    if chances < knock_chance:
                        cands = None
                if cands:
                    posterior = None
                    if belief_rollouts and belief == "exact":
                        dec = Decision(view, players[seat].params, random.Random(i))
                        posterior = _posterior(view, dec, random.Random(i * 31), 100 + 60 * belief_rollouts, 2, True)
                    for c in cands:
                        qs = []
                        for r in range(rollouts):
                            h = hand.clone()
                            random.Random(r * 1000 + i).shuffle(h.stock)
                            h.apply(c["action"])
                            qs.append(_finish(h, seat, opponent, 10_000 + r))
                        c["q"] = qs
                        bq = []
                        for r in range(belief_rollouts):
                            opp = posterior[r * len(posterior) // belief_rollouts] if posterior else None
                            h = _belief_world(hand, seat, view, players[seat], random.Random(r * 7777 + i), opp)
                            h.apply(c["action"])
                            bq.append(_finish(h, seat, opponent, 20_000 + r))
                        c["belief_q"] = bq
                        c["action"] = str(c["action"])
                    out.append({"hand": i, "candidates": cands})
                    break
                if decision == "discard" and turn >= target:
                    break
            hand.apply(players[cur].decide(view))
    return out


def _mean(xs: list[int]) -> float:
    return sum(xs) / len(xs)


def _ci(xs: list[float]) -> dict:
    s = stats(xs)
    return {"mean": round(s["mean"], 3), "ci95": [round(x, 3) for x in s["ci95"]], "n": s["n"]}


def _report(decision: str, states: list[dict], weights: list[float]) -> dict:
    gaps: dict[str, list[float]] = {}
    hindsight, dv, dq = [], [], []
    for st in states:
        cs = st["candidates"]
        q = [_mean(c["q"]) for c in cs]
        for j in range(1, len(cs)):
            gaps.setdefault(f"choice{j + 1}_minus_choice1", []).append(q[j] - q[0])
            dv.append(cs[j]["score"] - cs[0]["score"])
            dq.append(q[j] - q[0])
        best = max(range(len(cs)), key=lambda j: _mean(cs[j]["q"][0::2]))
        hindsight.append(_mean(cs[best]["q"][1::2]) - _mean(cs[0]["q"][1::2]))
    belief = []
    for st in states:
        cs = st["candidates"]
        if cs[0].get("belief_q"):
            best = max(range(len(cs)), key=lambda j: _mean(cs[j]["belief_q"]))
            belief.append(_mean(cs[best]["q"]) - _mean(cs[0]["q"]))
    mx, my = sum(dv) / len(dv), sum(dq) / len(dq)
    sxx = sum((x - mx) ** 2 for x in dv)
    slope = sum((x - mx) * (y - my) for x, y in zip(dv, dq, strict=True)) / sxx if sxx else 0.0
    rew = {}
    for w in weights:
        diffs = []
        for st in states:
            cs = st["candidates"]
            if decision == "discard":
                j = min(range(len(cs)), key=lambda j: cs[j]["value"] + w * cs[j]["danger"])
            elif decision == "knock":
                knock = next(k for k, c in enumerate(cs) if c["action"].startswith("knock"))
                j = knock if cs[knock]["gap"] + w >= 0 else 1 - knock
            else:
                pile = next(k for k, c in enumerate(cs) if c["action"] == "pile")
                j = pile if cs[pile]["score"] + w > cs[1 - pile]["score"] else 1 - pile
            diffs.append(_mean(cs[j]["q"]) - _mean(cs[0]["q"]))
        rew[str(w)] = _ci(diffs)
    return {
        "decision": decision, "states": len(states),
        "gaps": {k: _ci(v) for k, v in gaps.items()},
        "hindsight_gain": _ci(hindsight), "belief_rollout_gain": _ci(belief) if belief else None,
        "value_slope": round(slope, 3),
        {"discard": "danger_weight", "draw": "pile_bias", "knock": "knock_bias"}[decision]: rew,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--decision", choices=("discard", "draw", "knock"), default="discard")
    ap.add_argument("--opponent", default="simple")
    ap.add_argument("--rules", default="eaai")
    ap.add_argument("--hands", type=int, default=300)
    ap.add_argument("--rollouts", type=int, default=24)
    ap.add_argument("--belief-rollouts", type=int, default=0, help="rollouts per candidate in belief worlds")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--weights", type=float, nargs="*", help="danger weights (discard) or pile biases (draw)")
    ap.add_argument("--belief", choices=("weights", "exact"), default="weights",
                    help="belief worlds from the expert's per-card weights, or from exact_posterior's chain "
                         "(which models the opponent as simple)")
    ap.add_argument("--knock-chance", type=int, default=1,
                    help="with --decision knock: study the N-th chance to knock short of gin in a hand")
    ap.add_argument("--features", action="store_true", help="store features of each discard (with --out)")
    ap.add_argument("--out", help="also write the states (candidates and rollout points) as JSON lines")
    ns = ap.parse_args()
    weights = ns.weights or {
        "discard": [0, 1, 2, 3, 4, 6, 8], "draw": [-2, -1, -0.5, 0, 0.5, 1, 2], "knock": [-12, -8, -4, 0, 4, 8, 12],
    }[ns.decision]
    chunks = [list(range(w, ns.hands, ns.workers)) for w in range(ns.workers)]
    jobs = [(ns.decision, ns.rules, ns.opponent, ns.seed, ns.rollouts, ns.belief_rollouts, ns.belief, ns.features,
             ns.knock_chance, c) for c in chunks]
    with ProcessPoolExecutor(ns.workers) as ex:
        states = [s for part in ex.map(_job, jobs) for s in part]
    if ns.out:
        with open(ns.out, "w") as f:
            for s in states:
                f.write(json.dumps(s) + "\n")
    for key, val in _report(ns.decision, states, weights).items():
        print(f"{key}: {json.dumps(val)}")


if __name__ == "__main__":
    main()
