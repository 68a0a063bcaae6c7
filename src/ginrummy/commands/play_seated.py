"""``ginrummy play --players 3|4``: a three- or four-player game at the terminal prompt, or watched.

You play seat 1 against computer players (``--opponents``, in seat order; with four players
the second is your partner). Three players: two play each hand and the dealer sits out; a hand
you sit out is played by the others, and you are told only who plays whom and, once it is
over, its result. Four players, two teams (you and your partner against the other two): each
hand is two tables at once, your partner's played by the computers while you play yours; you
learn its result after it ends, as any hand's end shows it (:mod:`ginrummy.seated_play`).
``--watch A B C [D]`` plays computer players only. ``--record FILE`` writes the game record.

These games are kept in the games store as they are played, as two-player ones are
(:mod:`ginrummy.saved`): ``--resume`` continues one, ``history`` lists it once over; ``undo``
takes back your last move of the hand you play (``--no-undo`` turns it off; with four players
the other table goes back to that moment too).
"""

from __future__ import annotations

import argparse
import shlex
import sqlite3
import sys
import time
from collections.abc import Callable

from ..actions import Action, Kind
from ..game import Game
from ..multisheet import SeatedResult
from ..observation import SeatView
from ..players import get_player
from ..record import dumps, match_to_record
from ..saved import SavedGame
from ..seated_play import (
    OTHER_TABLE_BACK,
    column_names,
    deal_heading,
    deal_scoring,
    end_lines,
    finish_others,
    hand_names,
    my_table,
    score_line,
    seat_names,
    seated_sheet_lines,
    step_others,
)
from ..storage import DEFAULT_DB, HUMAN, Store, StoreError
from ..table import Seat, Table
from .display import Style
from .options import rules_from_args
from .prompt import HELP, Console, Leave, Prompt


class SeatedPrompt(Prompt):
    """The prompt of a game of three or four: the score line shows every player (or both teams)."""

    def __init__(self, console: Console, table: Table[Game], names: tuple[str, ...], saved: SavedGame | None = None) -> None:
        super().__init__(console, (names[0], names[1]), can_undo=saved.undo_refusal if saved is not None else None)
        self.table = table
        self.everyone = names

    @property
    def game(self) -> Game:
        """The game being played: the table's (an undo replaces it)."""
        return self.table.match

    help_text = HELP + "\n`sheet`: the score sheet so far (every hand, the totals, the boxes)."

    def score_fact(self, view: SeatView) -> str:
        return score_line(self.game, self.everyone)

    def other_word(self, word: str) -> bool:
        if word not in ("sheet", "score"):
            return False
        for line in sheet_text(self.game, self.everyone):
            self.console.say(line)
        return True


def sheet_text(game: Game, names: tuple[str, ...]) -> list[str]:
    """The score sheet as the prompt prints it: a column per player, or per team."""
    return seated_sheet_lines(game.sheet, names, column_names(game, names))


class SeatedSession:
    """One game of three or four at the terminal: deals, the person's hands, the others' results.

    ``saved``, when given, is the saved game the table's actions go to (and ``undo`` comes from)."""

    def __init__(
        self, table: Table[Game], console: Console, *, person: int | None, delay: float | None = None,
        sleep: Callable[[float], object] | None = None, saved: SavedGame | None = None,
    ) -> None:
        self.table = table
        self.console = console
        self.person = person
        self.delay = delay
        self.sleep = sleep or time.sleep
        self.names = table.names
        self.seen = 0
        self.resumed = False
        self.saved = saved
        self.prompt = SeatedPrompt(console, table, self.names, saved) if person is not None else None

    @property
    def style(self) -> Style:
        return self.console.style

    @property
    def game(self) -> Game:
        return self.table.match

    def play(self) -> None:
        """Play until the game is over; raises :class:`~.prompt.Leave` when the person leaves."""
        while not self.game.is_over:
            self.deal()
            if self.person is None:
                self.watch()
            else:
                self.play_deal(self.person)
            self.deal_over()

    def deal(self) -> None:
        """Deal the next deal (a resumed game: continue the one in progress), and say who plays whom."""
        self.table.deal()
        self.seen = 0
        game, names = self.game, self.names
        self.resumed = any(h.history for h in game.tables)
        self.console.say()
        if self.person is not None:
            again = " (resumed)" if self.resumed else ""
            self.console.say(self.style.heading(deal_heading(game, names, self.person) + again))
            return
        tables = []
        for p in game.current_pairings:
            a, b = p.seats
            tables.append(f"{names[a]} against {names[b]}, {names[p.dealt_by]} deals")
        self.console.say(self.style.heading(f"Hand {game.deals}: " + "; ".join(tables)))
        if self.delay is not None:
            for t, h in enumerate(game.tables):
                for hs, seat in enumerate(game.current_pairings[t].seats):
                    self.console.tell(f"{self._at(t)}{names[seat]}: {self.style.hand(h.hands[hs])}")

    def _at(self, table: int) -> str:
        return f"Table {table + 1}: " if self.game.seats == 4 else ""

    def play_deal(self, person: int) -> None:
        """The person's hand (the other table played meanwhile), or the hand they sit out."""
        game, table = self.game, self.table
        mine = my_table(game, person)
        if mine is None:
            self.console.tell("You sit out this hand: you see nothing of it until it ends.")
            finish_others(table, person)
            self.console.tell("The hand you sat out is over:")
            self.tell_end(0)
            return
        assert self.prompt is not None
        self.prompt.names = hand_names(game, self.names, mine)
        seats = game.current_pairings[mine].seats
        if self.resumed:
            self.news(mine, everything=True)  # the hand so far, as you saw it
        while not (hand := self.game.tables[mine]).is_over:  # self.game: an undo replaces it
            seat = seats[hand.current]
            if seat == person:
                choice = self.prompt.choose(table, person)
                if not isinstance(choice, Action):
                    self.take_back(mine)
                    continue
                table.act(person, choice)
            else:
                table.computer_move(seat)
            step_others(table, person)  # the other table plays on meanwhile, unseen
            self.news(mine)
        self.tell_end(mine)
        for t in finish_others(table, person):
            self.console.tell("The other table's hand is over:")
            self.tell_end(t)

    def take_back(self, mine: int) -> None:
        """``undo``: your last move and what was played after it (with four players, at both tables)."""
        assert self.saved is not None and self.person is not None
        undone, dropped = self.saved.undo()
        a, b = hand_names(self.game, self.names, mine)
        them = b if self.game.current_pairings[mine].seats[0] == self.person else a
        after = f" and {them}'s {dropped} move{'s' * (dropped != 1)} after it" if dropped else ""
        move = f"discard {self.style.action(undone)}" if undone.kind is Kind.DISCARD else self.style.action(undone)
        self.console.tell(f"Undone: your move {move}{after}.")
        if self.game.seats == 4:
            self.console.tell(OTHER_TABLE_BACK)
        self.seen = len(self.table.view(self.person).events)

    def news(self, mine: int, everything: bool = False) -> None:
        """The steps of the person's hand they have not seen yet (their own only where they
        learn something: the card drawn)."""
        assert self.person is not None
        events, self.seen = self.table.news(self.person, self.seen)
        me = self.game.current_pairings[mine].hand_seat(self.person)
        names = hand_names(self.game, self.names, mine)
        for e in events:
            own = e.seat == me
            if own and not everything and (e.card < 0 or e.kind.name not in ("STOCK", "KNOCK")):
                continue  # the person's own move, as typed
            line = self.style.event(e, "You" if own else names[e.seat], you=own)
            self.console.tell(f"{line}{'.' * self.style.plain}")

    def tell_end(self, table: int) -> None:
        for line in end_lines(self.game, table, self.names, self.style.card):
            self.console.tell(self.style.text(line))

    def watch(self) -> None:
        """Watching: every table's hand played out; with ``--delay``, every move as its player saw it."""
        game, table = self.game, self.table
        if self.delay is None:
            table.play_computers()
            return
        while game.in_progress:
            for seat in table.acting:
                at = game.where(seat)
                assert at is not None
                table.computer_move(seat)
                e = table.view(seat).events[-1]
                self.console.tell(f"{self._at(at[0])}{self.style.event(e, self.names[seat])}{'.' * self.style.plain}")
                self.sleep(self.delay)

    def deal_over(self) -> None:
        game, names = self.game, self.names
        if self.person is None:
            for t, (h, p) in enumerate(zip(game.tables, game.current_pairings, strict=True)):
                assert h.result is not None
                self.console.say(f"hand {game.deals}: {self._at(t)}{SeatedResult(p, h.result).explain(names)}")
        scoring = deal_scoring(game, names)
        if scoring is not None:
            self.console.tell(scoring)
        self.console.tell(score_line(game, names) + ".")


def opponents_of(args: argparse.Namespace, players: int) -> list[str]:
    """The computer players of the other seats, in seat order: ``--opponents``, else
    ``--opponent`` (default simple) at every other seat."""
    if args.opponents:
        return list(args.opponents)
    return [args.opponent or "simple"] * (players - 1)


def players_of(args: argparse.Namespace) -> int:
    """How many play: ``--players``, else as many as ``--watch`` or ``--opponents`` name, else 2."""
    if args.players:
        return int(args.players)
    if args.watch:
        return len(args.watch)
    if args.opponents:
        return len(args.opponents) + 1
    return 2


def check_seats(args: argparse.Namespace) -> None:
    """The counts of ``--players``, ``--opponents`` and ``--watch`` agree (a usage error otherwise)."""
    n = players_of(args)
    if args.watch:
        if not 2 <= len(args.watch) <= 4:
            raise ValueError(f"--watch takes two, three or four computer players, not {len(args.watch)}")
        if len(args.watch) != n:
            raise ValueError(f"--players {n} --watch needs {n} players, got {len(args.watch)}")
        if args.opponents or args.opponent:
            raise ValueError("--watch names every player: it cannot go with --opponent or --opponents")
        return
    if args.opponents and args.opponent:
        raise ValueError("give the computer players with --opponent or with --opponents, not both")
    if args.opponents and len(args.opponents) != n - 1:
        got = len(args.opponents)
        raise ValueError(f"--players {n} needs {n - 1} opponent{'s' * (n > 2)}, got {got}")


def play_seated(args: argparse.Namespace, console: Console, saved: SavedGame | None = None) -> int:
    """``ginrummy play`` with three or four players (or watching them); ``saved``: a resumed game."""
    person: int | None
    game: SavedGame | None = saved
    if saved is not None:
        table: Table[Game] = saved.table
        names = table.names
        person = next(s.seat for s in saved.row.seats if s.player == HUMAN)
        console.say(f"Resuming the game of {', '.join(names)}, saved in {args.db}.")
    elif args.watch:
        names = seat_names("", args.watch)[1:]
        seats = [Seat(names[k], get_player(p, seed=k + 1)) for k, p in enumerate(args.watch)]
        table = Table(Game(rules_from_args(args), players=names, seed=args.seed), seats)
        person = None
    else:
        try:
            store = Store(":memory:" if args.no_save else args.db)
        except (sqlite3.Error, StoreError) as e:
            print(f"ginrummy play: cannot use the games store {args.db}: {e}", file=sys.stderr)
            return 2
        players = opponents_of(args, players_of(args))
        names = seat_names(args.name, players)
        seed = args.seed

        def player_seed(k: int) -> int | None:
            return None if seed is None else seed + k

        seats = [Seat(args.name), *(Seat(names[k + 1], get_player(p, seed=player_seed(k))) for k, p in enumerate(players))]
        table = Table(Game(rules_from_args(args), players=names, seed=args.seed), seats)
        person = 0
        game = SavedGame.start(store, table, client="play", undo=not args.no_undo)
    session = SeatedSession(table, console, person=person, delay=args.delay, saved=game)
    for line in table.match.rules.describe():
        console.say(line)
    console.say(intro(table.match, names, person))
    try:
        try:
            session.play()
        except KeyboardInterrupt:
            console.say()
            raise Leave(eof=True) from None
    except Leave as leave:
        leave_game(args, console, game, asked=not leave.eof)
        write_record(args.record, table.match)  # table.match: an undo replaces it
        return 1
    console.say()
    for line in sheet_text(table.match, names):
        console.say(line)
    if game is not None and not args.no_save:
        console.say(f"The game is in the history: ginrummy history{db_option(args.db)}")
    write_record(args.record, table.match)
    return 0


def leave_game(args: argparse.Namespace, console: Console, game: SavedGame | None, *, asked: bool) -> None:
    """Leaving: ``quit`` asks whether to keep the game for ``--resume``; Ctrl-D keeps it."""
    if game is None or args.no_save:
        console.say("Game left (not saved).")
        return
    keep = True
    if asked:
        try:
            answer = console.ask("Keep this game to continue it later? [Y/n] ")
        except Leave:
            answer = ""
        keep = answer.strip().lower() not in ("n", "no")
    if keep:
        console.say(f"Game saved: ginrummy play --resume{db_option(args.db)} continues it.")
    else:
        game.abandon()
        console.say("Game left; it will not be offered to --resume.")


def db_option(db: str) -> str:
    return "" if db == DEFAULT_DB else f" --db {shlex.quote(db)}"


def intro(game: Game, names: tuple[str, ...], person: int | None) -> str:
    """Who plays, and how the game goes."""
    if game.seats == 3:
        who = ", ".join(names)
        return (f"Three players: {who}. Two play each hand and the dealer sits out; the loser of a hand deals the "
                f"next. First to {game.sheet.target} wins.")
    teams = column_names(game, names)
    if person is None:
        return f"Four players, two teams: {teams[0]} against {teams[1]}; first team to {game.sheet.target} wins."
    return (f"Four players, two teams: you and your partner {names[2]} against {names[1]} and {names[3]}. Each "
            f"hand is played at two tables at once, partners switching opponents every hand; first team to "
            f"{game.sheet.target} wins.")


def write_record(path: str | None, game: Game) -> None:
    """The game record (finished or not) to ``path``, when one was asked for."""
    if path:
        with open(path, "w", encoding="utf-8") as f:
            f.write(dumps(match_to_record(game)))


__all__ = [
    "SeatedPrompt", "SeatedSession", "check_seats", "db_option", "leave_game", "opponents_of", "play_seated",
    "players_of", "sheet_text", "write_record",
]
