"""Where the expert's points come from against an opponent: hand results by kind and winner.

Plays seat-swapped single hands and prints, for each (result, winner) pair, how many hands,
the points and the points per hand. For the hands the opponent won by knocking it also shows
the expert's deadwood after its last discard against the least that discard could have left
(a large gap would mean it held deadwood it could have shed). Last, the opponent's chance to
knock (or go gin) at each of its turns, the hand still going: the curve the expert's
``hazard_rate`` follows.

    .venv/bin/python bench/outcomes.py --deals 300 --seed 5
"""

from __future__ import annotations

import argparse
import collections
import random
import statistics

from ginrummy.actions import Action, Kind
from ginrummy.cards import cards_of
from ginrummy.hand import new_hand
from ginrummy.melds import deadwood
from ginrummy.observation import SeatView
from ginrummy.players import get_player
from ginrummy.players.base import Player
from ginrummy.players.driver import play_hand
from ginrummy.rules import Rules


class _Recorder(Player):
    """Plays as ``inner`` and notes, per discard, (stock left, deadwood kept, least possible)."""

    name = "recorder"

    def __init__(self, inner: Player) -> None:
        super().__init__(0)
        self.inner = inner
        self.discards: list[tuple[int, int, int]] = []

    def new_hand(self, seat: int) -> None:
        self.inner.new_hand(seat)
        self.discards = []

    def decide(self, view: SeatView) -> Action:
        a = self.inner.decide(view)
        if a.kind in (Kind.DISCARD, Kind.KNOCK):
            kept = deadwood(view.hand & ~(1 << a.card))
            least = min(deadwood(view.hand & ~(1 << c)) for c in cards_of(view.hand))
            self.discards.append((view.stock_size, kept, least))
        return a


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--player", default="expert")
    ap.add_argument("--opponent", default="simple")
    ap.add_argument("--rules", default="eaai")
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--seed", type=int, default=5)
    ns = ap.parse_args()
    rules = Rules.preset(ns.rules)
    me = _Recorder(get_player(ns.player, seed=ns.seed))
    turns: collections.Counter[int] = collections.Counter()
    knocks: collections.Counter[int] = collections.Counter()
    count: collections.Counter[tuple[str, str]] = collections.Counter()
    points: collections.Counter[tuple[str, str]] = collections.Counter()
    lost: list[tuple[int, int, int, int]] = []
    for i in range(ns.deals):
        deck_seed = random.Random(ns.seed * 7919 + i).getrandbits(48)
        for seat in (0, 1):
            hand = new_hand(rules, dealer=i % 2, seed=deck_seed)
            opp = _Recorder(get_player(ns.opponent, seed=i))
            r = play_hand(hand, [me, opp] if seat == 0 else [opp, me])
            for t in range(len(opp.discards)):
                turns[t] += 1
            if r.kind in ("knock", "gin", "undercut") and r.knocker != seat and opp.discards:
                knocks[len(opp.discards) - 1] += 1
            who = "-" if r.winner is None else ns.player if r.winner == seat else ns.opponent
            count[r.kind, who] += 1
            points[r.kind, who] += 0 if r.winner is None else r.points if r.winner == seat else -r.points
            if r.kind == "knock" and r.winner is not None and r.winner != seat and me.discards:
                stock, kept, least = me.discards[-1]
                lost.append((r.knocker_deadwood, r.defender_deadwood, kept - least, stock))
    hands = sum(count.values())
    print(f"{hands} hands, {ns.player} against {ns.opponent} ({ns.rules} rules), points from {ns.player}'s side")
    for key in sorted(count):
        n = count[key]
        print(f"  {key[0]:9} won by {key[1]:8} {n:6} hands ({n / hands:6.1%})  {points[key]:+7} points  "
              f"{points[key] / n:+7.2f} each  {points[key] / hands:+6.2f} per hand")
    print(f"  all: {sum(points.values()) / hands:+.3f} points per hand")
    if lost:
        print(f"hands {ns.opponent} won by knocking: its deadwood {statistics.mean(x[0] for x in lost):.1f}, "
              f"{ns.player}'s after layoffs {statistics.mean(x[1] for x in lost):.1f}, stock left "
              f"{statistics.mean(x[3] for x in lost):.1f}; {ns.player}'s last discard kept "
              f"{statistics.mean(x[2] for x in lost):.2f} more deadwood than the least it could")
    print(f"{ns.opponent}'s chance to end the hand at its n-th discard (n from 1), the hand still going:")
    print("  " + "  ".join(f"{t + 1}:{knocks[t] / turns[t]:.2f}" for t in sorted(turns) if turns[t] >= 20))


if __name__ == "__main__":
    main()
