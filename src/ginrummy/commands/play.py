"""``ginrummy play``: a whole game in the terminal, against a computer player or watched.

A person types actions in the engine's notation (``stock``, ``pile``, ``pass``, ``Kd``,
``knock Kd``, ``big gin``); ``hint`` asks the expert, and Enter in a layout phase takes the
best layout. ``--watch`` plays two computer players and prints the game.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import TextIO

from ..actions import Action
from ..cards import card_str, cards_of
from ..errors import NotationError
from ..layout import LAYOUT_PHASES, layout_action
from ..match import Match
from ..melds import best_arrangement
from ..observation import SeatView
from ..players import PLAYERS, get_player
from ..players.base import Player
from ..record import match_to_record
from ..rules import Rules, parse_rule_settings
from ..table import Seat, Table


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("--opponent", default="simple", choices=sorted(PLAYERS), help="computer player to play against")
    p.add_argument("--watch", nargs=2, metavar=("P1", "P2"), help="watch two computer players instead of playing")
    p.add_argument("--rules", default="classic", help="rule preset: classic, online, app, eaai")
    p.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE", help="change one rule (repeatable)")
    p.add_argument("--seed", type=int, default=None, help="seed for the deal (a game can be replayed from it)")
    p.add_argument("--name", default="You", help="your name on the score sheet")
    p.add_argument("--record", metavar="FILE", help="write the game record (JSON) to FILE at the end")


def rules_from_args(args: argparse.Namespace) -> Rules:
    return Rules.preset(args.rules, **parse_rule_settings(args.rule))


def show_hand(mask: int) -> str:
    """The hand arranged by melds, then the deadwood cards and the count."""
    dead, melds = best_arrangement(mask)
    used = 0
    for m in melds:
        used |= m
    parts = ["[" + " ".join(card_str(c, symbols=True) for c in cards_of(m)) + "]" for m in melds]
    loose = sorted(cards_of(mask & ~used), key=lambda c: (c % 13, c // 13))
    parts += [card_str(c, symbols=True) for c in loose]
    return f"{' '.join(parts)}   deadwood {dead}"


class TerminalPlayer(Player):
    """A person at the terminal. Reads actions from ``inp`` and writes to ``out``."""

    name = "human"

    def __init__(
        self,
        seed: int | None = None,
        *,
        names: tuple[str, str] = ("You", "Computer"),
        inp: Callable[[str], str] = input,
        out: TextIO = sys.stdout,
    ) -> None:
        super().__init__(seed)
        self.names = names
        self.inp = inp
        self.out = out
        self._seen_events = 0

    def new_hand(self, seat: int) -> None:
        self._seen_events = 0
        print("\n=== A new hand ===", file=self.out)

    def _news(self, view: SeatView) -> None:
        for e in view.events[self._seen_events :]:
            if e.seat != view.seat:
                print(f"  {self.names[1]}: {e.text()}", file=self.out)
            elif e.card >= 0 and e.text().startswith("stock"):
                print(f"  you drew {card_str(e.card, symbols=True)}", file=self.out)
        self._seen_events = len(view.events)

    def decide(self, view: SeatView) -> Action:
        self._news(view)
        if view.phase in LAYOUT_PHASES:
            best = layout_action(view)
            answer = self.inp(f"{view.phase.value}: {', '.join(str(a) for a in view.legal)}\n  [Enter = {best}] > ")
            return self._read(answer, view) or best
        top = card_str(view.pile[-1], symbols=True) if view.pile else "-"
        print(
            f"\nScore {self.names[0]} {view.scores[view.seat]} - {self.names[1]} {view.scores[1 - view.seat]}"
            f" | stock {view.stock_size} | discard pile top {top} | knock limit {view.knock_limit}",
            file=self.out,
        )
        print("  your hand: " + show_hand(view.hand), file=self.out)
        if view.opponent_known:
            print("  they hold: " + " ".join(card_str(c, symbols=True) for c in cards_of(view.opponent_known)), file=self.out)
        while True:
            answer = self.inp(f"  {', '.join(str(a) for a in view.legal)} (or hint) > ")
            action = self._read(answer, view)
            if action is not None:
                return action

    def _read(self, answer: str, view: SeatView) -> Action | None:
        text = answer.strip()
        if not text:
            return None
        if text.lower() == "hint":
            try:
                from ..players.hints import rank_actions
            except ImportError:
                print("  hints are not available in this version", file=self.out)
                return None
            for a, value, reason in rank_actions(view)[:3]:
                print(f"    {a}  ({value:+.1f}) {reason}", file=self.out)
            return None
        try:
            action = Action.parse(text)
        except NotationError as e:
            print(f"  {e}", file=self.out)
            return None
        if action not in view.legal:
            print(f"  {action} is not allowed now; choose one of: {', '.join(str(a) for a in view.legal)}", file=self.out)
            return None
        return action

    def hand_over(self, view: SeatView) -> None:
        self._news(view)
        if view.result is not None:
            names = (self.names[0], self.names[1]) if view.seat == 0 else (self.names[1], self.names[0])
            print("  " + view.result.explain(names), file=self.out)


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    match = Match(rules, seed=args.seed)
    person: TerminalPlayer | None = None
    if args.watch:
        seats = [Seat(args.watch[0], get_player(args.watch[0], seed=1)), Seat(args.watch[1], get_player(args.watch[1], seed=2))]
    else:
        person = TerminalPlayer(names=(args.name, args.opponent))
        seats = [Seat(args.name), Seat(args.opponent, get_player(args.opponent, seed=args.seed))]
    table = Table(match, seats)
    names = table.names
    print("\n".join(rules.describe()))
    try:
        while not match.is_over:
            table.start_hand()
            if person is not None:
                person.new_hand(0)
            while table.to_act is not None:
                table.play_computers()
                if person is not None and table.waiting_for == 0:
                    table.act(0, person.decide(table.view(0)))
            result = match.results[-1]
            if person is not None:
                person.hand_over(table.view(0))
            else:
                score = f"score {match.scores[0]}-{match.scores[1]}"
                print(f"hand {len(match.results)}: {result.explain((names[0], names[1]))}  {score}")
    except (EOFError, KeyboardInterrupt):
        print("\nGame abandoned.")
        return 1
    print()
    for line in match.final().explain(names[:2]):
        print(line)
    if args.record:
        with open(args.record, "w", encoding="utf-8") as f:
            json.dump(match_to_record(match), f, indent=2)
            f.write("\n")
    return 0
