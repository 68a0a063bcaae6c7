"""A hash of play: every history, result and every view's JSON of fixed-seed hands.

    .venv/bin/python bench/play_hash.py              # 150 hands of 5 pairings in 6 rule sets

For speed work that must not change play: run it before and after a change and compare
the printed hashes (one per rule set, then the total). Each hand is played through the
driver with seeded players; every view a player is shown is hashed (its ``to_json()`` plus
the opponent fields ``to_json`` leaves out), then the history and the result.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys

from ginrummy.hand import new_hand
from ginrummy.observation import SeatView
from ginrummy.players import get_player
from ginrummy.players.driver import play_hand
from ginrummy.rules import Rules

RULE_SETS = {
    "classic": Rules.preset("classic"),
    "eaai": Rules.preset("eaai"),
    "app": Rules.preset("app"),
    "last_chance": Rules.preset("classic", last_chance=True),
    "throw_back": Rules.preset("classic", throw_back=True),
    "both_knock7": Rules.preset("app", last_chance=True, throw_back=True, knock_limit=7),
}
PAIRINGS = (("greedy", "greedy"), ("simple", "simple"), ("random", "random"), ("greedy", "simple"), ("easy", "random"))


class _Watch:
    """Wraps a player: hashes each view it is shown, then lets it decide."""

    def __init__(self, player, sink) -> None:  # type: ignore[no-untyped-def]
        self.player = player
        self.sink = sink

    def new_hand(self, seat: int) -> None:
        self.player.new_hand(seat)

    def hand_over(self, view: SeatView) -> None:
        self.player.hand_over(view)

    def decide(self, view: SeatView):  # type: ignore[no-untyped-def]
        extra = [view.opponent_discards, view.opponent_taken, view.opponent_declined, view.opponent_stock_draws]
        self.sink.update(json.dumps([view.to_json(), extra], sort_keys=True).encode())
        a = self.player.decide(view)
        self.sink.update(str(a).encode())
        return a


def run(hands: int, pairings: tuple[tuple[str, str], ...] = PAIRINGS) -> dict[str, str]:
    out = {}
    total = hashlib.sha256()
    for rname, rules in RULE_SETS.items():
        h = hashlib.sha256()
        for a, b in pairings:
            players = [_Watch(get_player(a, seed=3), h), _Watch(get_player(b, seed=4), h)]
            for i in range(hands):
                deck = list(range(52))
                random.Random(f"play_hash:{rname}:{a}:{b}:{i}").shuffle(deck)
                hand = new_hand(rules, i % 2, deck=deck)
                result = play_hand(hand, players)  # type: ignore[arg-type]
                h.update(json.dumps([str(s) for s in hand.history]).encode())
                h.update(json.dumps(result.to_json(), sort_keys=True).encode())
        out[rname] = h.hexdigest()[:16]
        total.update(out[rname].encode())
    out["total"] = total.hexdigest()[:16]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=150)
    ap.add_argument("--pairing", action="append", default=[], metavar="A:B",
                    help="play these two players instead of the five default pairings (repeatable)")
    args = ap.parse_args(argv)
    pairings = tuple(tuple(p.split(":", 1)) for p in args.pairing) or PAIRINGS
    for k, v in run(args.hands, pairings).items():  # type: ignore[arg-type]
        print(f"{k:12s} {v}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
