"""``ginrummy play``: a whole game in the terminal, against a computer player or watched.

A person types actions in the engine's notation at a prompt (:mod:`.prompt`): ``stock``,
``pile``, ``pass``, ``Kd``, ``knock Kd``, ``big gin``, and after a knock ``meld ...``,
``layoff ...``, ``done`` (Enter takes the best layout step); ``hint`` asks the expert, ``quit``
or Ctrl-D leaves. ``--watch P1 P2`` plays two computer players and prints each hand's result,
or with ``--delay SECONDS`` every move, one at a time. Every option is checked before the game
starts (:mod:`.options`): a wrong player, rule or record path is a usage error, exit 2.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable

from ..actions import Action
from ..match import Match
from ..players import PLAYERS, get_player
from ..record import dumps, match_to_record
from ..table import Seat, Table
from .display import Style
from .options import add_rule_options, rules_from_args, seconds, writable_file
from .prompt import Console, Leave, Prompt

#: The person's seat in a game against the computer.
PERSON = 0
#: The longest name the person may take (as in the web app).
MAX_NAME = 40


def configure(p: argparse.ArgumentParser) -> None:
    players = ", ".join(PLAYERS)
    p.add_argument("--opponent", default="simple", choices=list(PLAYERS), help=f"computer player to play against: {players}")
    p.add_argument(
        "--watch", nargs=2, metavar=("P1", "P2"), choices=list(PLAYERS),
        help=f"watch two computer players instead of playing ({players})",
    )
    p.add_argument(
        "--delay", type=seconds, default=None, metavar="SECONDS",
        help="with --watch: print every move, pausing this long after each (0 to 60)",
    )
    look = p.add_mutually_exclusive_group()
    look.add_argument("--ascii", action="store_const", const="ascii", dest="style", help="suits as letters (Kd), no symbols")
    look.add_argument(
        "--plain", action="store_const", const="plain", dest="style",
        help="a line mode for screen readers and pipes: letters for suits, no colour, no box drawing, one fact a line",
    )
    p.set_defaults(style="symbols")
    add_rule_options(p)
    p.add_argument("--seed", type=int, default=None, help="seed for the deal (a game can be replayed from it)")
    p.add_argument("--name", type=_name, default="You", help="your name on the score sheet (at most 40 characters)")
    p.add_argument(
        "--record", type=writable_file, metavar="FILE",
        help="write the game record (JSON, with the players' names) to FILE when the game ends or is left",
    )


def _name(text: str) -> str:
    clean = " ".join(text.split())
    if not clean or len(clean) > MAX_NAME:
        raise argparse.ArgumentTypeError(f"a name is 1 to {MAX_NAME} characters, not {len(clean)}")
    return clean


def check(args: argparse.Namespace) -> None:
    """The rules as a whole (a rule that needs another), before the game starts."""
    rules_from_args(args)
    if args.delay is not None and not args.watch:
        raise ValueError("--delay paces --watch: give it with --watch P1 P2")


def show_hand(mask: int, style: Style | None = None) -> str:
    """The hand arranged by melds, then the deadwood cards and the count."""
    return (style or Style()).hand(mask)


class Session:
    """One game at the terminal: deals, computer moves, the person's prompt, each hand's end."""

    def __init__(
        self, table: Table, console: Console, *, person: int | None, delay: float | None = None,
        sleep: Callable[[float], object] | None = None,
    ) -> None:
        self.table = table
        self.console = console
        self.person = person
        #: Watching: None prints each hand's result only; a number prints every move and pauses.
        self.delay = delay
        self.sleep = sleep or time.sleep
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
        if self.person is None and self.delay is not None:
            for seat, name in enumerate(self.table.names):
                self.console.tell(f"{name}: {self.style.hand(hand.hands[seat])}")

    def who(self, seat: int) -> str:
        return "you" if seat == self.person else self.table.names[seat]

    def news(self) -> None:
        """The steps the person has not seen yet, in words (watching with a delay: every step,
        as the player who made it saw it, then the pause)."""
        if self.person is None:
            if self.delay is not None:
                self.watch_news()
            return
        events, self.seen = self.table.news(self.person, self.seen)
        for e in events:
            mine = e.seat == self.person
            if mine and e.card < 0:
                continue
            if mine and e.kind.name not in ("STOCK", "KNOCK"):
                continue  # the person's own move, as typed
            line = self.style.event(e, "You" if mine else self.table.names[e.seat], you=mine)
            self.console.tell(f"{line}{'.' * self.style.plain}")

    def watch_news(self) -> None:
        assert self.table.hand is not None
        history = self.table.hand.history
        for i in range(self.seen, len(history)):
            seat = history[i].seat
            e = self.table.view(seat).events[i]
            self.console.tell(f"{self.style.event(e, self.table.names[seat])}{'.' * self.style.plain}")
            self.sleep(self.delay or 0.0)
        self.seen = len(history)

    def hand_over(self) -> None:
        match = self.table.match
        result = match.results[-1]
        names = self.table.names
        if self.person is not None:
            view = self.table.view(self.person)
            other = 1 - self.person
            if view.knocker is not None and view.opponent_known:
                self.console.tell(f"{names[other]} held: {self.style.hand(view.opponent_known)}")
            self.console.tell(result.explain((names[0], names[1])))
            self.console.tell(f"Score: {names[0]} {match.scores[0]}, {names[1]} {match.scores[1]}.")
        else:
            score = f"score {match.scores[0]}-{match.scores[1]}"
            self.console.say(f"hand {len(match.results)}: {result.explain((names[0], names[1]))}  {score}")


def run(args: argparse.Namespace) -> int:
    return play(args, Console(style=Style.for_output(args.style, sys.stdout)))


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
    session = Session(table, console, person=person, delay=args.delay)
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


__all__ = ["Session", "check", "configure", "play", "rules_from_args", "run", "show_hand", "write_record"]
