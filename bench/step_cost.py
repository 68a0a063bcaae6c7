"""What one step of a whole hand costs, part by part: the engine's apply, its legal actions,
the seat's view, and the player's decision with the driver around it.

    .venv/bin/python bench/step_cost.py                       # greedy and random, EAAI rules
    .venv/bin/python bench/step_cost.py --players random --hands 2000 --repeat 7

It plays the hands of ``bench/throughput.py`` once through the driver and keeps each hand's
actions, then replays them adding one part at a time: the deal alone; ``Hand.apply`` of each
recorded action; ``Hand.legal_actions()`` before each; ``observe()`` (which lists the legal
actions) before each; the whole driver (``play_hand``: views, decisions, apply). Each figure is
the difference to the part before, in µs of CPU time per step (best of ``--repeat`` passes),
so on a busy machine read them as shares of the whole more than as absolutes. Last, the
decisions alone, by phase: every view of the replay decided again.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable

from ginrummy.actions import Action
from ginrummy.events import LAYOUT_PHASES, Phase
from ginrummy.hand import new_hand
from ginrummy.observation import SeatView, observe
from ginrummy.players import get_player
from ginrummy.players.base import Player
from ginrummy.players.driver import play_hand
from ginrummy.rules import Rules
from throughput import decks

Game = tuple[int, list[int], list[Action]]


def record(rules: Rules, players: list[Player], deck_list: list[list[int]]) -> list[Game]:
    games = []
    for i, deck in enumerate(deck_list):
        h = new_hand(rules, i % 2, deck=deck)
        play_hand(h, players)
        games.append((i % 2, deck, [s.action for s in h.history]))
    return games


def best(fn: Callable[[], None], repeat: int) -> float:
    t = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        fn()
        t = min(t, time.process_time() - t0)
    return t


def costs(name: str, rules: Rules, n: int, repeat: int, seed: int) -> None:
    players = [get_player(name, seed=0), get_player(name, seed=1)]
    games = record(rules, players, decks(n, seed))
    steps = sum(len(acts) for _, _, acts in games)

    def deal() -> None:
        for dealer, deck, _ in games:
            new_hand(rules, dealer, deck=deck)

    def apply() -> None:
        for dealer, deck, acts in games:
            h = new_hand(rules, dealer, deck=deck)
            for a in acts:
                h.apply(a)

    def legal() -> None:
        for dealer, deck, acts in games:
            h = new_hand(rules, dealer, deck=deck)
            for a in acts:
                h.legal_actions()
                h.apply(a)

    def view() -> None:
        for dealer, deck, acts in games:
            h = new_hand(rules, dealer, deck=deck)
            for a in acts:
                observe(h, h.current)
                h.apply(a)

    def full() -> None:
        for dealer, deck, _ in games:
            play_hand(new_hand(rules, dealer, deck=deck), players)

    t = {f.__name__: best(f, repeat) for f in (deal, apply, legal, view, full)}
    us = 1e6 / steps
    print(f"{name} vs {name}: {steps / n:.1f} steps a hand, {n / t['full']:.0f} hands/s, "
          f"{(t['full'] - t['deal']) * us:.2f} µs a step (deal {t['deal'] / n * 1e6:.1f} µs a hand)")
    print(f"  apply {(t['apply'] - t['deal']) * us:.2f}, legal actions {(t['legal'] - t['apply']) * us:.2f}, "
          f"view {(t['view'] - t['apply']) * us:.2f} (legal actions included), "
          f"decision and driver {(t['full'] - t['view']) * us:.2f} µs a step")
    # Decisions by phase: every view of the replay, decided again phase by phase (a player's
    # memory then differs from play, so these are close to, not exactly, its costs in play).
    groups: dict[str, list[SeatView]] = {"draw": [], "discard": [], "layout": []}
    for dealer, deck, acts in games:
        h = new_hand(rules, dealer, deck=deck)
        for a in acts:
            v = observe(h, h.current)
            groups["layout" if v.phase in LAYOUT_PHASES else "discard" if v.phase is Phase.DISCARD else "draw"].append(v)
            h.apply(a)

    def decide(views: list[SeatView]) -> Callable[[], None]:
        def run() -> None:
            for v in views:
                players[v.seat].decide(v)

        return run

    split = [f"{label} {best(decide(views), repeat) / n * 1e6:.1f} ({len(views) / n:.1f} a hand)"
             for label, views in groups.items()]
    print(f"  decisions by phase, µs a hand: {', '.join(split)}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", nargs="+", default=["greedy", "random"])
    ap.add_argument("--hands", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rules", default="eaai")
    args = ap.parse_args(argv)
    for name in args.players:
        costs(name, Rules.preset(args.rules), args.hands, args.repeat, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
