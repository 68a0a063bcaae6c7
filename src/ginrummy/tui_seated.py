"""``ginrummy tui --players 3|4``: the terminal app at a three- or four-player table.

The same app as the two-player one (:class:`~ginrummy.tui.GinRummyApp`: keys, buttons, hints,
the layout choices), on a :class:`~ginrummy.game.Game` of three or four seats, you at seat 1
and computer players at the others. Three players: a hand you deal you sit out; the screen says
so and who plays whom, and shows nothing of that hand until it is over, then its result. Four
players, two teams (you and your partner at seat 3): your table is played here, your partner's
by the computers at the same time; you learn its result, and what its end shows face up, once
your own hand is over too (:mod:`ginrummy.seated_play`). The score sheet (``g``) has a column
per player, or per team. ``ginrummy tui`` keeps these games in the store as it keeps two-player
ones (``q`` asks, ``--resume`` continues, ``u`` takes back your last move of the hand you play;
with four players the other table goes back to that moment too).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.markup import escape
from textual import events
from textual.containers import Horizontal
from textual.widgets import Button, OptionList, Static

from .actions import Action
from .errors import IllegalActionError
from .game import Game
from .players import get_player
from .rules import Rules
from .saved import SavedGame
from .seated_play import (
    OTHER_TABLE_BACK,
    column_names,
    deal_heading,
    deal_scoring,
    end_lines,
    final_lines,
    finish_others,
    hand_names,
    my_table,
    score_line,
    seat_names,
    step_others,
)
from .table import Decider, Seat, Table
from .tui import HUMAN, GinRummyApp
from .tui_sheet import SheetScreen, hand_lines, seated_sheet_lines
from .tui_text import CardStyle, prompt_line, refusal_line, rules_header


class SeatedApp(GinRummyApp):
    """One game of three or four players: you at seat 1, computer players at the others."""

    def __init__(
        self,
        rules: Rules,
        opponents: Sequence[str],
        seed: int | None = None,
        delay: float = 0.4,
        *,
        first_dealer: int | None = None,
        players: Sequence[Decider] | None = None,
        style: CardStyle | None = None,
        light: bool = False,
    ) -> None:
        """``opponents`` are the other seats' computer players in seat order (with four players
        the second is your partner); ``players``, when given, play them instead (tests)."""
        if len(opponents) not in (2, 3):
            raise ValueError(f"a game of three or four has two or three opponents, not {len(opponents)}")
        deciders = list(players) if players is not None else [
            get_player(p, seed=None if seed is None else seed + k) for k, p in enumerate(opponents)
        ]
        super().__init__(rules, opponent=opponents[0], seed=seed, delay=delay, player=deciders[0], style=style, light=light)
        self.everyone = seat_names("You", opponents)
        seats = [Seat("You"), *(Seat(self.everyone[k + 1], d) for k, d in enumerate(deciders))]
        self.table = Table(Game(rules, players=self.everyone, seed=seed, first_dealer=first_dealer), seats)  # type: ignore[arg-type]
        self.opponent_name = ""
        #: The deal whose end has been told (each deal's end is told once).
        self._told = 0

    # -- the game -----------------------------------------------------------------------

    @property
    def mine(self) -> int | None:
        """Your table in the latest deal, or None when you sit it out (or before the first deal)."""
        return my_table(self.match, HUMAN) if self.match.tables else None

    @property
    def sitting_out(self) -> bool:
        return bool(self.match.tables) and self.mine is None

    @property
    def names(self) -> tuple[str, str]:
        """The names of your hand's seats 0 and 1 (as the two-player screens want them)."""
        mine = self.mine
        if mine is None:
            return ("You", self.opponent_name)
        return hand_names(self.match, self.everyone, mine)

    def keep(self, game: SavedGame, resume_command: str | None = None) -> None:
        """Play on ``game``'s table, kept in the store (a resumed game: its own players and names)."""
        super().keep(game, resume_command)
        self.everyone = tuple(game.table.names)

    def on_mount(self, event: events.Mount) -> None:  # type: ignore[override]
        event.prevent_default()  # the two-player app's handler runs here, once, not again after
        super().on_mount()
        kind = "three players" if self.match.seats == 3 else "four players, two teams"
        self.title = f"Gin Rummy: {kind}"
        self.sub_title = rules_header(self.rules)
        if self.style.ascii:
            self.title, self.sub_title = f"{self.title} - {self.sub_title}", ""

    def start_hand(self) -> None:
        self.table.deal()
        self._events_seen = 0
        self.picked = None
        game = self.match
        mine = self.mine
        if mine is not None:
            a, b = self.names
            self.opponent_name = b if a == "You" else a
        resumed = " (resumed)" if any(h.history for h in game.tables) else ""  # a saved game's deal, continued
        self.say(f"-- {escape(deal_heading(game, self.everyone, HUMAN))}{resumed} --")
        if mine is None:
            self.say("You sit out this hand: you see nothing of it until it ends.")
        self.after_action()

    def after_action(self) -> None:
        game = self.match
        mine = self.mine
        self.show_hints([])
        if mine is None:
            if game.in_progress:
                self._later(self.sit_out_play)
            else:
                self.finish_hand()
        else:
            self.log_events()
            hand = game.tables[mine]
            if hand.is_over:
                self.finish_hand()
            elif self._computer_at_mine() is not None:
                self._later(self.computer_move)
        self.refresh_view()

    def _later(self, then: Any) -> None:
        if self.delay > 0:
            self.set_timer(self.delay, then)
        else:
            self.call_later(then)

    def _computer_at_mine(self) -> int | None:
        """The computer seat to act at your table, if any."""
        mine = self.mine
        if mine is None:
            return None
        hand = self.match.tables[mine]
        if hand.is_over:
            return None
        seat: int = self.match.current_pairings[mine].seats[hand.current]
        return None if seat == HUMAN else seat

    def sit_out_play(self) -> None:
        """The hand you sit out, played by the others at once (you see only its end)."""
        if self.sitting_out and self.match.in_progress:
            finish_others(self.table, HUMAN)
            self.after_action()

    def computer_move(self) -> None:
        seat = self._computer_at_mine()
        if seat is None:
            return
        self.table.computer_move(seat)
        step_others(self.table, HUMAN)  # the other table plays on meanwhile, unseen
        self.after_action()

    def apply(self, action: Action) -> None:
        """Play your action at your table; a refused one is explained with the engine's reason."""
        if self.sitting_out:
            self.warn(self.prompt())
            return
        mine = self.mine
        if mine is None or self.match.tables[mine].is_over:
            self.warn(self.prompt())
            return
        if self._computer_at_mine() is not None:
            self.warn(f"It is {self.opponent_name}'s turn: wait for its move.")
            return
        try:
            self.table.act(HUMAN, action)
        except IllegalActionError as e:
            self.warn(refusal_line(str(e), self.style))
            return
        step_others(self.table, HUMAN)
        self.picked = None
        self.warn("")
        self.after_action()

    def prompt(self) -> str:
        game = self.match
        if game.is_over:
            return "The game is over: g for the score sheet, q to quit."
        if self.sitting_out:
            if game.in_progress:
                return "You sit out this hand: wait for its end."
            return "The hand you sat out is over: n for the next hand."
        return prompt_line(self.view, self.opponent_name, self.style.markup)

    def finish_hand(self) -> None:
        """Your hand is over: the other tables are played out, then each hand's end, the scores."""
        game = self.match
        finish_others(self.table, HUMAN)
        if self._told == game.deals:
            return
        self._told = game.deals
        for line in self.end_of_deal():
            self.say(line)
        scoring = deal_scoring(game, self.everyone)
        if scoring is not None:
            self.say(escape(scoring))
        self.say(escape(score_line(game, self.everyone)))
        if game.is_over:
            for line in final_lines(game, self.everyone):
                self.say(f"[b]{escape(line)}[/]")
            self.say("Game over. Press q to quit.")
        else:
            self.say("Press n for the next hand.")
        self.action_sheet()

    def end_of_deal(self) -> list[str]:
        """Each hand of the deal as its end shows it (markup): yours, then the other table's."""
        game = self.match
        mine = self.mine
        lines = []
        if mine is not None:
            lines.extend(hand_lines(self.view, self.names, self.style.markup))
        for t in range(len(game.tables)):
            if t == mine:
                continue
            lines.append("The other table's hand:" if mine is not None else "The hand you sat out:")
            lines.extend(escape(x) if i == 0 else x for i, x in enumerate(self._end_lines(t)))
        return lines

    def _end_lines(self, table: int) -> list[str]:
        return end_lines(self.match, table, self.everyone, self.style.markup, bracket="\\[")

    def log_events(self) -> None:
        if self.mine is None:
            return
        super().log_events()

    # -- drawing ------------------------------------------------------------------------

    def status_line(self) -> str:
        game = self.match
        sep = self.style.sep
        cols = column_names(game, self.everyone)
        scores = sep.join(f"{n} {s}" for n, s in zip(cols, game.scores, strict=True))
        first = "first team to" if game.seats == 4 else "target"
        if self.sitting_out:
            state = "[b]you sit out[/]"
        else:
            view = self.view
            turn = "your turn" if view.my_turn else ("hand over" if view.result is not None else f"{self.opponent_name}'s turn")
            state = f"[b]{turn}[/] ({view.phase.value.replace('_', ' ')})"
        return f"{escape(scores)}{sep}{first} {game.sheet.target}{sep}{state}"

    def refresh_view(self) -> None:
        if not self.match.tables:
            return
        if self.sitting_out:
            self.draw_sit_out()
        else:
            super().refresh_view()
        self.board.query_one("#status", Static).update(self.status_line())

    def draw_sit_out(self) -> None:
        """The board while you sit a hand out: who plays whom; nothing of their cards until the end."""
        game = self.match
        p = game.current_pairings[0]
        a, b = (self.everyone[s] for s in p.seats)
        lines = [f"{a} plays {b}; you dealt and sit this hand out."]
        if game.in_progress:
            lines.append("You see nothing of their hand while it is played.")
        else:
            lines.extend(escape(x) if i == 0 else x for i, x in enumerate(self._end_lines(0)))
        self.board.query_one("#prompt", Static).update(self.prompt())
        self.board.query_one("#table", Static).update("\n".join(lines))
        self.board.query_one("#hand", Static).update("")
        box = self.board.query_one("#choices", OptionList)
        box.set_class(False, "shown")
        self.choices = []
        box.clear_options()
        buttons = self.board.query_one("#buttons", Horizontal)
        buttons.remove_children()
        if self.table.can_deal:
            buttons.mount(Button("Next hand", name="next", compact=True))
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("act", "discard", "knock", "auto") and (not self.match.tables or self.sitting_out):
            return False
        return super().check_action(action, parameters)

    # -- keys that need a hand of yours ---------------------------------------------------

    def _sat_out(self) -> bool:
        """True (and the reason said) when you sit this hand out."""
        if self.sitting_out:
            self.warn(self.prompt())
            return True
        return False

    def action_pick(self, index: int) -> None:
        if not self._sat_out():
            super().action_pick(index)

    def action_discard(self) -> None:
        if not self._sat_out():
            super().action_discard()

    def action_knock(self) -> None:
        if not self._sat_out():
            super().action_knock()

    def action_auto(self) -> None:
        if not self._sat_out():
            super().action_auto()

    def action_hint(self) -> None:
        if not self._sat_out():
            super().action_hint()

    def action_undo(self) -> None:
        """Your last move back (the two-player app's undo); with four players the other table too."""
        taken = self.undo_refusal() is None
        super().action_undo()
        if taken and self.match.seats == 4:
            self.say(escape(OTHER_TABLE_BACK))

    action_undo_anyway = action_undo
    action_discard_anyway = action_discard
    action_knock_anyway = action_knock
    action_auto_anyway = action_auto

    def action_sheet(self) -> None:
        """The score sheet (a column per player, or per team); after a deal, its hands laid out."""
        game = self.match
        over = bool(game.tables) and not game.in_progress
        title = f"Hand {game.deals} is over: the score sheet" if over else "The score sheet"
        laid = self.end_of_deal() if over else []
        sheet = seated_sheet_lines(game.sheet, self.everyone, column_names(game, self.everyone))
        self.push_screen(SheetScreen(title, laid, sheet, self.table.can_deal, ascii=self.style.ascii))


__all__ = ["SeatedApp"]
