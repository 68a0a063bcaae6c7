"""``ginrummy play``: a whole game in the terminal, against a computer player or watched.

A person types actions in the engine's notation at a prompt (:mod:`.prompt`): ``stock``,
``pile``, ``pass``, ``Kd``, ``knock Kd``, ``big gin``, and after a knock ``meld ...``,
``layoff ...``, ``done`` (Enter takes the best layout step); ``hint`` asks the expert, ``quit``
or Ctrl-D leaves. ``--watch P1 P2`` plays two computer players and prints each hand's result,
or with ``--delay SECONDS`` every move, one at a time. ``--players 3`` or ``4`` plays a game of
three or four (:mod:`.play_seated`). Every option is checked before the game
starts (:mod:`.options`): a wrong player, rule or record path is a usage error, exit 2.

A game against the computer is saved as it is played, in the games store the web app uses
(``--db``, default ``./ginrummy.sqlite3``, the same file as ``ginrummy serve``'s): each action
is stored before it is shown as done (:mod:`ginrummy.saved`). ``--resume`` continues the last
unfinished game (of ``play`` or ``tui``), and ``undo`` at the prompt takes back your last move
(``--no-undo`` turns it off). ``--no-save`` keeps the game in memory only. Exit status: 0 when
the game was played to its end, 1 when it was left unfinished (saved unless told not to).
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
import time
from collections.abc import Callable

from ..actions import Action, Kind
from ..match import Match
from ..players import PLAYERS, get_player
from ..saved import SavedGame
from ..storage import DEFAULT_DB, HUMAN, Store, StoreError
from ..storage_backend import without_password
from ..table import Seat, Table
from .display import Style
from .options import add_rule_options, add_seat_options, builtin_player, games_store, rules_from_args, seconds, writable_file
from .play_seated import check_seats, db_option, leave_game, play_seated, players_of, write_record
from .prompt import Console, Leave, Prompt

#: The person's seat in a game against the computer.
PERSON = 0
#: The longest name the person may take (as in the web app).
MAX_NAME = 40


def configure(p: argparse.ArgumentParser) -> None:
    players = ", ".join(PLAYERS)
    add_seat_options(p)
    p.add_argument(
        "--watch", nargs="+", metavar="PLAYER", type=builtin_player,
        help=f"watch two, three or four computer players instead of playing ({players})",
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
    p.add_argument(
        "--db", default=DEFAULT_DB, metavar="DB",
        help=f"the games store, shared with ginrummy serve and tui: a SQLite file (default ./{DEFAULT_DB}) or postgresql://USER@HOST/DB",
    )
    p.add_argument("--resume", action="store_true", help="continue the last unfinished game (its own rules and opponent)")
    p.add_argument("--no-undo", action="store_true", help="no taking back moves in this game")
    p.add_argument("--no-save", action="store_true", help="keep the game in memory only (no --resume, no history)")


def _name(text: str) -> str:
    clean = " ".join(text.split())
    if not clean or len(clean) > MAX_NAME:
        raise argparse.ArgumentTypeError(f"a name is 1 to {MAX_NAME} characters, not {len(clean)}")
    return clean


def check(args: argparse.Namespace) -> None:
    """The rules as a whole (a rule that needs another), before the game starts."""
    rules_from_args(args)
    check_seats(args)
    if args.delay is not None and not args.watch:
        raise ValueError("--delay paces --watch: give it with --watch P1 P2")
    if args.resume and (args.watch or args.no_save):
        raise ValueError("--resume continues a saved game of yours: it cannot go with --watch or --no-save")
    if not args.no_save and not args.watch:
        games_store(args.db)  # the games store can be written (an ArgumentTypeError is a usage error)


def show_hand(mask: int, style: Style | None = None) -> str:
    """The hand arranged by melds, then the deadwood cards and the count."""
    return (style or Style()).hand(mask)


class Session:
    """One game at the terminal: deals, computer moves, the person's prompt, each hand's end.

    ``game``, when given, is the saved game the table's actions go to (and ``undo`` comes from).
    """

    def __init__(
        self, table: Table[Match], console: Console, *, person: int | None, delay: float | None = None,
        sleep: Callable[[float], object] | None = None, game: SavedGame | None = None,
    ) -> None:
        self.table = table
        self.console = console
        self.person = person
        #: Watching: None prints each hand's result only; a number prints every move and pauses.
        self.delay = delay
        self.sleep = sleep or time.sleep
        self.game = game
        self.seen = 0
        names = table.names
        can_undo = game.undo_refusal if game is not None else None
        self.prompt = Prompt(console, (names[0], names[1]), can_undo=can_undo) if person is not None else None

    @property
    def style(self) -> Style:
        return self.console.style

    def play(self) -> None:
        """Play until the game is over; raises :class:`~.prompt.Leave` when the person leaves."""
        table = self.table
        if table.match.in_progress:
            self.recap()
        while not table.match.is_over:  # table.match: an undo replaces it
            if table.can_deal:
                self.deal()
            while table.to_act is not None:
                if table.computer_to_act:
                    table.computer_move()
                else:
                    assert self.prompt is not None and self.person is not None
                    choice = self.prompt.choose(table, self.person)
                    if isinstance(choice, Action):
                        table.act(self.person, choice)
                    else:
                        self.take_back()
                        continue
                self.news()
            self.hand_over()

    def deal(self) -> None:
        hand = self.table.start_hand()
        self.seen = 0
        self.console.say()
        self.console.say(self.style.heading(self.dealt()))
        if self.person is None and self.delay is not None:
            for seat, name in enumerate(self.table.names):
                self.console.tell(f"{name}: {self.style.hand(hand.hands[seat])}")

    def dealt(self) -> str:
        hand = self.table.match.hand
        assert hand is not None
        verb = "deal" if hand.dealer == self.person else "deals"
        return f"Hand {len(self.table.match.hands)}: {self.who(hand.dealer)} {verb}"

    def recap(self) -> None:
        """A resumed hand: who dealt, and every step of it so far as the person saw them."""
        self.console.say()
        self.console.say(self.style.heading(self.dealt() + " (resumed)"))
        self.seen = 0
        self.news(everything=True)

    def who(self, seat: int) -> str:
        return "you" if seat == self.person else self.table.names[seat]

    def news(self, everything: bool = False) -> None:
        """The steps the person has not seen yet, in words, their own moves only where they
        learn something (the card drawn); watching with a delay: every step, as the player who
        made it saw it, then the pause."""
        if self.person is None:
            if self.delay is not None:
                self.watch_news()
            return
        events, self.seen = self.table.news(self.person, self.seen)
        for e in events:
            mine = e.seat == self.person
            if mine and not everything and (e.card < 0 or e.kind.name not in ("STOCK", "KNOCK")):
                continue  # the person's own move, as typed
            line = self.style.event(e, "You" if mine else self.table.names[e.seat], you=mine)
            self.console.tell(f"{line}{'.' * self.style.plain}")

    def take_back(self) -> None:
        assert self.game is not None and self.person is not None
        undone, dropped = self.game.undo()
        them = self.table.names[1 - self.person]
        after = f" and {them}'s {dropped} move{'s' * (dropped != 1)} after it" if dropped else ""
        move = f"discard {self.style.action(undone)}" if undone.kind is Kind.DISCARD else self.style.action(undone)
        self.console.tell(f"Undone: your move {move}{after}.")
        self.seen = len(self.table.view(self.person).events)

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
    if players_of(args) > 2 and not args.resume:
        return play_seated(args, console)
    game: SavedGame | None = None
    if args.watch:
        names = (args.watch[0], args.watch[1])
        seats = [Seat(names[0], get_player(names[0], seed=1)), Seat(names[1], get_player(names[1], seed=2))]
        table = Table(Match(rules_from_args(args), seed=args.seed, players=names), seats)
        person: int | None = None
    else:
        try:
            store = Store(":memory:" if args.no_save else args.db)
        except (sqlite3.Error, StoreError) as e:
            print(f"ginrummy play: cannot use the games store {without_password(args.db)}: {e}", file=sys.stderr)
            return 2
        if args.resume:
            game = SavedGame.resume(store)  # NothingToResume: "ginrummy play: no unfinished game ..." (exit 2)
            if game.match.seats > 2:
                return play_seated(args, console, saved=game)
            table = game.table
            person = next(s.seat for s in game.row.seats if s.player == HUMAN)
            console.say(f"Resuming the game {table.names[0]} against {table.names[1]}, saved in {args.db}.")
        else:
            opponent = args.opponents[0] if args.opponents else args.opponent or "simple"
            names = (args.name, opponent)
            seats = [Seat(args.name), Seat(opponent, get_player(opponent, seed=args.seed))]
            table = Table(Match(rules_from_args(args), seed=args.seed, players=names), seats)
            person = PERSON
            game = SavedGame.start(store, table, client="play", undo=not args.no_undo)
    session = Session(table, console, person=person, delay=args.delay, game=game)
    for line in table.match.rules.describe():
        console.say(line)
    try:
        try:
            session.play()
        except KeyboardInterrupt:  # Ctrl-C while the computer thinks: as Ctrl-D at a prompt
            console.say()
            raise Leave(eof=True) from None
    except Leave as leave:
        leave_game(args, console, game, asked=not leave.eof)
        write_record(args.record, table.match)
        return 1
    console.say()
    for line in table.match.final().explain(table.names[:2]):
        console.say(line)
    if game is not None and not args.no_save:
        console.say(f"The game is in the history: ginrummy history{db_option(args.db)}")
    write_record(args.record, table.match)
    return 0


__all__ = ["Session", "check", "configure", "play", "rules_from_args", "run", "show_hand", "write_record"]
