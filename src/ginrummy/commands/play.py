"""``ginrummy play``: a whole game in the terminal, against a computer player or watched.

A person types actions in the engine's notation at a prompt (:mod:`.prompt`): ``stock``,
``pile``, ``pass``, ``Kd``, ``knock Kd``, ``big gin``, and after a knock ``meld ...``,
``layoff ...``, ``done`` (Enter takes the best layout step); ``hint`` asks the expert, ``quit``
or Ctrl-D leaves. ``--watch P1 P2`` plays two computer players and prints the game.
"""

from __future__ import annotations

import argparse

from ..actions import Action
from ..match import Match
from ..players import PLAYERS, get_player
from ..record import dumps, match_to_record
from ..rules import Rules, parse_rule_settings
from ..table import Seat, Table
from .display import Style
from .prompt import Console, Leave, Prompt

#: The person's seat in a game against the computer.
PERSON = 0


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


def show_hand(mask: int, style: Style | None = None) -> str:
    """The hand arranged by melds, then the deadwood cards and the count."""
    return (style or Style()).hand(mask)


class Session:
    """One game at the terminal: deals, computer moves, the person's prompt, each hand's end."""

    def __init__(self, table: Table, console: Console, *, person: int | None) -> None:
        self.table = table
        self.console = console
        self.person = person
        self.seen = 0
        names = table.names
        self.prompt = Prompt(console, (names[0], names[1])) if person is not None else None

    @property
    def style(self) -> Style:
        return self.console.style

    def play(self) -> None:
        """Play until the game is over; raises :class:`~.prompt.Leave` when the person leaves."""
        table, match = self.table, self.table.match
        while not match.is_over:
            if table.can_deal:
                self.deal()
            while table.to_act is not None:
                if table.computer_to_act:
                    table.computer_move()
                else:
                    assert self.prompt is not None and self.person is not None
                    choice = self.prompt.choose(table, self.person)
                    assert isinstance(choice, Action)  # undo is not offered here
                    table.act(self.person, choice)
                self.news()
            self.hand_over()

    def deal(self) -> None:
        hand = self.table.start_hand()
        self.seen = 0
        n = len(self.table.match.hands)
        dealer = self.who(hand.dealer)
        verb = "deal" if hand.dealer == self.person else "deals"
        self.console.say()
        self.console.say(self.style.heading(f"Hand {n}: {dealer} {verb}"))

    def who(self, seat: int) -> str:
        return "you" if seat == self.person else self.table.names[seat]

    def news(self) -> None:
        """The steps the person has not seen yet, in words (watching: every step of the game)."""
        if self.person is None:
            return
        events, self.seen = self.table.news(self.person, self.seen)
        for e in events:
            mine = e.seat == self.person
            if mine and e.card < 0:
                continue
            if mine and e.kind.name not in ("STOCK", "KNOCK"):
                continue  # the person's own move, as typed
            line = self.style.event(e, "You" if mine else self.table.names[e.seat], you=mine)
            self.console.say(f"  {line}{'.' * self.style.plain}")

    def hand_over(self) -> None:
        match = self.table.match
        result = match.results[-1]
        names = self.table.names
        if self.person is not None:
            view = self.table.view(self.person)
            other = 1 - self.person
            if view.knocker is not None and view.opponent_known:
                self.console.say(f"  {names[other]} held: {self.style.hand(view.opponent_known)}")
            self.console.say("  " + result.explain((names[0], names[1])))
            self.console.say(f"  Score: {names[0]} {match.scores[0]}, {names[1]} {match.scores[1]}.")
        else:
            score = f"score {match.scores[0]}-{match.scores[1]}"
            self.console.say(f"hand {len(match.results)}: {result.explain((names[0], names[1]))}  {score}")


def run(args: argparse.Namespace) -> int:
    return play(args, Console())


def play(args: argparse.Namespace, console: Console) -> int:
    """``ginrummy play`` with its input and output given (a terminal, or a test's script)."""
    rules = rules_from_args(args)
    person: int | None
    if args.watch:
        names = (args.watch[0], args.watch[1])
        seats = [Seat(names[0], get_player(names[0], seed=1)), Seat(names[1], get_player(names[1], seed=2))]
        person = None
    else:
        names = (args.name, args.opponent)
        seats = [Seat(args.name), Seat(args.opponent, get_player(args.opponent, seed=args.seed))]
        person = PERSON
    match = Match(rules, seed=args.seed, players=names)
    table = Table(match, seats)
    session = Session(table, console, person=person)
    for line in rules.describe():
        console.say(line)
    try:
        session.play()
    except Leave:
        console.say("Game left.")
        write_record(args.record, match)
        return 1
    console.say()
    for line in match.final().explain(names):
        console.say(line)
    write_record(args.record, match)
    return 0


def write_record(path: str | None, match: Match) -> None:
    """The game record (finished or not) to ``path``, when one was asked for."""
    if path:
        with open(path, "w", encoding="utf-8") as f:
            f.write(dumps(match_to_record(match)))
