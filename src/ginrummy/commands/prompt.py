"""The person's prompt in ``ginrummy play``: a typo never plays a move.

Every prompt (the draw, the discard, the layouts after a knock) reads a line and answers anything
but a legal action with the reason, then asks again. Only a legal action, or Enter in a layout
(the best next layout step, shown in the prompt), plays. Words understood at every prompt: an
action in the notation (``stock``, ``pile``, ``pass``, ``Kd``, ``knock Kd``, ``big gin``,
``meld 7h 8h 9h``, ``layoff 7h 0``, ``done``), ``hint``, ``help``, ``undo`` (when the session
allows it) and ``quit`` / ``q``; the end of input (Ctrl-D) or Ctrl-C leaves like ``quit``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TextIO

from ..actions import Action
from ..cards import cards_of
from ..errors import IllegalActionError, NotationError
from ..layout import LAYOUT_PHASES, layout_action
from ..observation import SeatView
from ..players.hints import rank_actions
from ..table import Table
from .display import Style

QUIT_WORDS = frozenset({"q", "quit", "exit"})
HINT_WORDS = frozenset({"hint", "?"})

HELP = """\
Type an action: `stock`, `pile` (take the top discard), `pass`, a card to discard, `knock` and a card
(discarded face down), `big gin`; after a knock `meld` and its cards, `layoff`, a card and the meld's
number, `done`. A card is its rank (A 2-9 T J Q K) and suit (s h d c, or a suit symbol): `Kd`, `Th`.
Enter in a layout takes the best next step shown in the prompt.
Other words: `hint` (the expert's best choices), `undo` (take back your last move), `help`, `quit` (or `q`).
Ctrl-D leaves too."""


class Leave(Exception):
    """The person leaves the game: ``quit`` typed (``eof`` False), or the input ended (True)."""

    def __init__(self, eof: bool) -> None:
        super().__init__("input ended" if eof else "quit")
        self.eof = eof


class Undo:
    """The person asked to take back their last move (the session decides whether it may)."""


UNDO = Undo()


@dataclass
class Console:
    """Where the terminal game reads and writes: ``inp`` is :func:`input` or a test's script."""

    inp: Callable[[str], str] = field(default=lambda prompt: input(prompt))
    out: TextIO = field(default_factory=lambda: sys.stdout)
    style: Style = field(default_factory=Style)

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def tell(self, text: str) -> str:
        """A reply or a piece of news: indented under the table, bare in plain style."""
        self.say(text if self.style.plain else "  " + text)
        return text

    def ask(self, prompt: str) -> str:
        """One line of input; the end of input (Ctrl-D) or Ctrl-C raises :class:`Leave`."""
        try:
            return self.inp(prompt)
        except (EOFError, KeyboardInterrupt):
            self.say()
            raise Leave(eof=True) from None


class Prompt:
    """Asks the person at ``seat`` for an action until the answer is a legal one (or a command).

    ``names`` are the names of the hand's seats 0 and 1 (a game of more players sets them each deal).
    """

    def __init__(self, console: Console, names: tuple[str, str], *, can_undo: Callable[[], str | None] | None = None):
        self.console = console
        self.names = names
        #: None when ``undo`` may be played now, else the reason it may not.
        self.can_undo = can_undo or (lambda: "undo is off in this game")

    @property
    def style(self) -> Style:
        return self.console.style

    def choose(self, table: Table[Any], seat: int) -> Action | Undo:
        """The person's next action, or :data:`UNDO`; raises :class:`Leave` on quit or end of input."""
        view = table.view(seat)
        self.show(view)
        best = layout_action(view) if view.phase in LAYOUT_PHASES else None
        while True:
            answer = self.console.ask(self._question(view, best))
            text = " ".join(answer.split())
            word = text.lower()
            if not text:
                if best is not None:
                    return best
                self.console.tell("Nothing typed: type one of the choices, or hint, help, quit.")
                continue
            if word in QUIT_WORDS:
                raise Leave(eof=False)
            if word in HINT_WORDS:
                self.hint(view)
                continue
            if word == "help":
                self.console.say(self.style.text(self.help_text))
                continue
            if self.other_word(word):
                continue
            if word == "undo":
                why = self.can_undo()
                if why is None:
                    return UNDO
                self.console.tell(why)
                continue
            refusal = self.refuse(table, seat, text)
            if refusal is None:
                return Action.parse(text)
            self.console.tell(refusal)

    #: What ``help`` prints.
    help_text = HELP

    def other_word(self, word: str) -> bool:
        """A word of a prompt of its own (a game of more players: ``sheet``); True once answered."""
        return False

    def refuse(self, table: Table[Any], seat: int, text: str) -> str | None:
        """Why ``text`` is not a legal action now, in the engine's words (the rule and its numbers),
        or None if it is legal."""
        try:
            table.match.verify(seat, Action.parse(text))
        except (NotationError, IllegalActionError) as e:
            return self.style.text(str(e))
        return None

    def hint(self, view: SeatView) -> None:
        ranked = rank_actions(view)
        if not ranked:
            self.console.tell("No hint: it is not your turn.")
            return
        for i, (a, value, reason) in enumerate(ranked[:3]):
            head = "Best" if i == 0 else "Then"
            self.console.tell(f"{head}: {self.style.action(a)} (value {value:+.1f}): {self.style.text(reason)}")

    def _question(self, view: SeatView, best: Action | None) -> str:
        choices = self.style.actions(view.legal)
        enter = f" Enter takes {self.style.action(best)}." if best is not None else ""
        if self.style.plain:
            return f"Your choices: {choices}.{enter}\n> "
        enter = f" [Enter = {self.style.action(best)}]" if best is not None else ""
        return f"  {choices} (or hint, help){enter} > "

    def score_fact(self, view: SeatView) -> str:
        """The game score as the prompt shows it (a game of more players says its own)."""
        you, them = self.names[view.seat], self.names[1 - view.seat]
        return f"Score: {you} {view.scores[view.seat]}, {them} {view.scores[1 - view.seat]}"

    def show(self, view: SeatView) -> None:
        """The table as the person sees it before they choose (plain style: one fact a line)."""
        s, c = self.style, self.console
        them = self.names[1 - view.seat]
        top = s.card(view.pile[-1]) if view.pile else "none"
        facts = [
            self.score_fact(view),
            f"Stock: {view.stock_size} cards",
            f"Discard pile top: {top}",
            f"Knock limit: {view.knock_limit}",
        ]
        end = "." if s.plain else ""
        c.say()
        if s.plain:
            for f in facts:
                c.say(f + ".")
        else:
            c.say(" | ".join(facts))
        c.tell("Your hand: " + s.hand(view.hand))
        if view.opponent_known:
            c.tell(f"{them} holds: {s.cards(view.opponent_known)}{end}")
        if view.phase in LAYOUT_PHASES and view.knocker_melds:
            laid = zip(view.knocker_melds, view.laid_on, strict=True)
            melds = [f"{i}: {s.cards(cards_of(m | x))}" for i, (m, x) in enumerate(laid)]
            c.tell(f"The knocker's melds (lay off by number): {'; '.join(melds)}{end}")


__all__ = ["HELP", "UNDO", "Console", "Leave", "Prompt", "Undo"]
