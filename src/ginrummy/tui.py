"""``ginrummy tui``: play a whole game against a computer player in a Textual terminal app.

The app is only a view of a :class:`~ginrummy.table.Table` session: every button is one of
the seat's legal actions (``SeatView.legal``), and every action goes through the table. The
person is seat 0; the computer only ever sees its own ``SeatView``. A key that is not legal
now is answered with the engine's reason; the footer shows only the keys that are.

Keys: ``s`` stock, ``p`` pile / take the upcard, ``x`` pass, ``1``-``9``/``0``/``-`` pick the
card in that position (after a knock: choose the layout option), ``d`` discard the picked card,
``k`` knock with it, ``b`` big gin, ``a`` the best layout, ``u`` undo, ``h`` hints, ``g`` the
score sheet, ``o`` the order of the hand, ``f`` four-colour suits, ``t`` light or dark, ``n`` next
hand, ``q`` quit.

``ginrummy tui`` keeps the game in the games store as it is played (:mod:`ginrummy.saved`, shared
with ``play`` and ``serve``): ``u`` takes back your last move (not with ``--no-undo``), ``q``
asks whether to keep the game for ``--resume`` (:mod:`.tui_keep`), and ``--resume`` continues
the last unfinished game of ``tui`` or ``play``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.color import Color
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Header, OptionList, Static
from textual.widgets.option_list import Option

from .actions import Action, Kind
from .cards import cards_of
from .errors import IllegalActionError
from .events import Phase
from .layout import LAYOUT_PHASES
from .match import Match
from .melds import deadwood
from .observation import SeatView
from .players import get_player
from .rules import Rules
from .saved import SavedGame
from .table import Decider, Seat, Table
from .tui_keep import KeepScreen
from .tui_sheet import SheetScreen, hand_lines, sheet_lines
from .tui_text import (
    PICK_KEYS,
    SUIT_BASES,
    CardStyle,
    action_label,
    best_knock_card,
    event_text,
    hand_text,
    layout_choices,
    melds_text,
    no_pick_line,
    ordered_hand,
    prompt_line,
    readable,
    refusal_line,
    rules_header,
)

HUMAN = 0
COMPUTER = 1
ORDERS = ("melds", "rank", "suit")
#: How many ranked hints are shown.
HINTS = 3
THEMES = {"dark": "textual-dark", "light": "textual-light"}
#: The words of the keys ``s``, ``p``, ``x``, ``b``, as actions.
_KINDS = {"stock": Kind.STOCK, "pile": Kind.PILE, "pass": Kind.PASS, "big gin": Kind.BIG_GIN}


def _key(key: str, action: str, label: str) -> list[Binding]:
    """A key shown in the footer only while its action is legal, and a hidden twin that
    answers it otherwise with the reason (Textual tries a key's bindings in order)."""
    name, _, params = action.partition("(")
    twin = f"{name}_anyway" + (f"({params}" if params else "")
    return [Binding(key, action, label), Binding(key, twin, label, show=False)]


class GinRummyApp(App[int]):
    """One game against a computer player."""

    ENABLE_COMMAND_PALETTE = False
    CSS = """
    Screen { layout: vertical; }
    #status { height: auto; padding: 0 1; background: $panel; }
    #prompt { height: auto; padding: 0 1; text-style: bold; }
    #notice { height: auto; padding: 0 1; color: $text-warning; }
    #table { height: auto; min-height: 2; padding: 0 1; }
    #hand { height: auto; padding: 0 1; }
    #buttons { height: 1; margin: 0 1; }
    #buttons Button { margin: 0 1 0 0; min-width: 6; }
    #choices { height: auto; max-height: 8; display: none; margin: 0 1; }
    #choices.shown { display: block; }
    /* The highlight stays on backgrounds the suit colours are checked against (see get_theme_variable_defaults). */
    #choices, #choices:focus { background: $surface; background-tint: $foreground 0%; }
    #choices > .option-list--option-highlighted, #choices:focus > .option-list--option-highlighted {
        color: $foreground; background: $panel; text-style: bold;
    }
    #choices > .option-list--option-hover { background: $panel; }
    #hints { height: auto; padding: 0 1; color: $text-accent; }
    #log { height: 1fr; min-height: 3; border: round $primary; padding: 0 1; }
    .ascii #log, .ascii #choices { border: ascii $primary; scrollbar-size: 0 0; }
    """
    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        *_key("s", "act('stock')", "Stock"),
        *_key("p", "act('pile')", "Take"),
        *_key("x", "act('pass')", "Pass"),
        *_key("d", "discard", "Discard"),
        *_key("k", "knock", "Knock"),
        *_key("b", "act('big gin')", "Big gin"),
        *_key("a", "auto", "Best layout"),
        *_key("n", "next_hand", "Next hand"),
        *_key("u", "undo", "Undo"),
        Binding("h", "hint", "Hints"),
        Binding("g", "sheet", "Sheet"),
        Binding("o", "order", "Order"),
        Binding("f", "four_colour", "Four colours", show=False),
        Binding("t", "light_dark", "Light/dark", show=False),
        Binding("q", "quit", "Quit"),
        Binding("ctrl+c", "quit", show=False, priority=True),  # as in play: Ctrl-C leaves (and asks)
        *[Binding(key, f"pick({i})", show=False) for i, key in enumerate(PICK_KEYS)],
    ]

    def __init__(
        self,
        rules: Rules,
        opponent: str = "simple",
        seed: int | None = None,
        delay: float = 0.4,
        *,
        first_dealer: int | None = None,
        decks: Sequence[Sequence[int]] = (),
        player: Decider | None = None,
        style: CardStyle | None = None,
        light: bool = False,
    ) -> None:
        """``first_dealer``, ``decks`` (the first hands' decks, in order) and ``player`` (a
        computer player of one's own, named ``opponent``) set up a known game: tests, lessons.
        ``style`` draws the cards (four colours, ASCII); ``light`` starts on the light theme."""
        super().__init__()
        self.rules = rules
        self.opponent_name = opponent
        self.decks = [list(d) for d in decks]
        computer = player if player is not None else get_player(opponent, seed=seed)
        self.table = Table(Match(rules, seed=seed, first_dealer=first_dealer), [Seat("You"), Seat(opponent, computer)])
        #: The game in the store (see :meth:`keep`): None plays in memory only, with no undo.
        self.game: SavedGame | None = None
        #: The command that continues a kept game, said on quitting.
        self.resume_command = "ginrummy tui --resume"
        #: Set when the person quit and chose not to keep the game.
        self.abandoned = False
        self.delay = delay
        self.style = style or CardStyle()
        self.theme = THEMES["light" if light else "dark"]
        self.order = "melds"
        self.picked: int | None = None
        self.lines: list[str] = []
        #: The notice line: why the last key did nothing (empty once a move is played).
        self.notice = ""
        #: The layout choices on show, in the order of the list (the default first).
        self.choices: list[Action] = []
        #: The hints on show (the best first), until the next move.
        self.hints: list[str] = []
        self._events_seen = 0

    def get_theme_variable_defaults(self) -> dict[str, str]:
        """The suit colours for the current theme: its error, primary and success text colours
        and its foreground, darkened on a light theme or lightened on a dark one until each
        keeps a 4.5:1 contrast with every background a card is drawn on."""
        system = self.current_theme.to_color_system().generate()
        backgrounds = [Color.parse(system[k]).hex for k in ("background", "surface", "panel")]
        dark = self.current_theme.dark

        def step(colour: str) -> str:
            c = Color.parse(colour)
            return (c.lighten(0.04) if dark else c.darken(0.04)).hex

        out = {}
        for name, base in SUIT_BASES.items():
            out[name] = readable(Color.parse(system[base]).hex, backgrounds, step)
        return out

    @property
    def names(self) -> tuple[str, str]:
        return ("You", self.opponent_name)

    @property
    def match(self) -> Match:
        """The game being played: the table's (an undo replays it as a new match)."""
        return self.table.match

    def keep(self, game: SavedGame, resume_command: str | None = None) -> None:
        """Play on ``game``'s table, kept in the store: ``u`` takes back a move, ``q`` asks
        whether to keep the game (``resume_command`` continues it, said on quitting)."""
        self.game = game
        self.table = game.table
        self.opponent_name = game.table.names[1]
        if resume_command is not None:
            self.resume_command = resume_command

    # -- layout -------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False, icon="*" if self.style.ascii else None)
        with Vertical():
            yield Static(id="status")
            yield Static(id="prompt")
            yield Static(id="table")
            yield Static(id="hand")
            yield Horizontal(id="buttons")
            yield OptionList(id="choices")
            yield Static(id="notice")
            yield Static(id="hints")
            with VerticalScroll(id="log"):
                yield Static(id="logtext")
        yield Footer()

    def on_mount(self) -> None:
        self.title = f"Gin Rummy: you vs {self.opponent_name}"
        self.sub_title = rules_header(self.rules)
        if self.style.ascii:  # the header joins the two with a dash that is not ASCII
            self.title, self.sub_title = f"{self.title} - {self.sub_title}", ""
        self.set_class(self.style.ascii, "ascii")
        self.board.query_one("#log", VerticalScroll).anchor()
        self.say("\n".join(self.rules.describe()))
        self.start_hand()

    # -- game flow ----------------------------------------------------------------------

    @property
    def board(self) -> Screen[object]:
        """The table's screen (under the score sheet when that is open): the widgets to draw."""
        return self.screen_stack[0]

    @property
    def view(self) -> SeatView:
        return self.match.view(HUMAN)

    def start_hand(self) -> None:
        index = len(self.match.hands)
        hand = self.table.start_hand(self.decks[index] if index < len(self.decks) else None)
        self._events_seen = 0
        self.picked = None
        resumed = " (resumed)" if hand.history else ""  # a saved game's hand in progress, continued
        dealer = "you deal" if hand.dealer == HUMAN else "the computer deals"
        self.say(f"-- hand {len(self.match.results) + 1}{resumed}: {dealer} --")
        self.after_action()

    def after_action(self) -> None:
        hand = self.match.hand
        assert hand is not None
        self.show_hints([])
        self.log_events()
        if hand.is_over:
            self.finish_hand()
        elif self.table.computer_to_act:
            if self.delay > 0:
                self.set_timer(self.delay, self.computer_move)
            else:
                self.call_later(self.computer_move)
        self.refresh_view()

    def computer_move(self) -> None:
        if not self.table.computer_to_act:
            return
        self.table.computer_move()
        self.after_action()

    def apply(self, action: Action) -> None:
        """Play the person's action; a refused one is explained with the engine's reason."""
        hand = self.match.hand
        if hand is None or hand.is_over:
            self.warn(self.prompt())
            return
        if hand.current != HUMAN:
            self.warn(f"It is {self.opponent_name}'s turn: wait for its move.")
            return
        try:
            self.table.act(HUMAN, action)
        except IllegalActionError as e:
            self.warn(refusal_line(str(e), self.style))
            return
        self.picked = None
        self.warn("")
        self.after_action()

    def prompt(self) -> str:
        if self.match.is_over:
            return "The game is over: g for the score sheet, q to quit."
        return prompt_line(self.view, self.opponent_name, self.style.markup)

    def warn(self, text: str) -> None:
        """Show a notice on its own line above the log (cleared by the next move), never over it:
        the log gives up the room and stays anchored at its latest line."""
        self.notice = text
        if self.screen_stack:
            widget = self.board.query_one("#notice", Static)
            widget.update(text)
            widget.display = bool(text)

    def finish_hand(self) -> None:
        for line in hand_lines(self.view, self.names, self.style.markup):
            self.say(line)
        self.say(f"Score: you {self.match.scores[0]}, {self.opponent_name} {self.match.scores[1]}")
        if self.match.is_over:
            for line in self.match.final().explain(self.names):
                self.say(f"[b]{line}[/]")
            self.say("Game over. Press q to quit.")
        else:
            self.say("Press n for the next hand.")
        self.action_sheet()

    def log_events(self) -> None:
        view = self.view
        for e in view.events[self._events_seen :]:
            self.say(f"{self.names[e.seat]}: {event_text(e, view, self.style.markup)}")
        self._events_seen = len(view.events)

    def say(self, line: str) -> None:
        self.lines.append(line)
        if self.screen_stack:
            self.board.query_one("#logtext", Static).update("\n".join(self.lines[-200:]))
            self.board.query_one("#log", VerticalScroll).scroll_end(animate=False)

    # -- drawing ------------------------------------------------------------------------

    def hand_cards(self) -> list[int]:
        return [c for _, group in ordered_hand(self.view.hand, self.order) for c in group]

    def refresh_view(self) -> None:
        view = self.view
        hand = self.match.hand
        show = self.style.markup
        over = hand is not None and hand.is_over
        turn = "your turn" if view.my_turn else ("hand over" if over else f"{self.opponent_name}'s turn")
        sep = self.style.sep
        self.board.query_one("#status", Static).update(
            f"You {view.scores[0]}{sep}{self.opponent_name} {view.scores[1]}{sep}target {self.rules.target}"
            f"{sep}knock limit {view.knock_limit}{sep}[b]{turn}[/] ({view.phase.value.replace('_', ' ')})"
        )
        top = show(view.pile[-1]) if view.pile else "-"
        known = " ".join(show(c) for c in cards_of(view.opponent_known)) or "none"
        table = [
            f"Stock: {view.stock_size} cards    Discard pile: {top}",
            f"{self.opponent_name}: {view.opponent_size} cards; known: {known}",
        ]
        if view.phase is Phase.OVER:
            table.extend(hand_lines(view, self.names, show))
        elif view.knocker_melds:
            label = "Your melds" if view.knocker == view.seat else f"{self.opponent_name}'s melds (the knocker)"
            table.append(f"{label}: " + melds_text(view.knocker_melds, self.style, view.laid_on))
        if view.defender_melds and view.knocker == view.seat and view.phase is not Phase.OVER:
            table.append(f"{self.opponent_name}'s melds: " + melds_text(view.defender_melds, self.style))
        self.board.query_one("#prompt", Static).update(self.prompt())
        self.board.query_one("#table", Static).update("\n".join(table))
        self.board.query_one("#hand", Static).update(hand_text(view, self.order, self.picked, self.style))
        self.draw_choices(view)
        self.draw_buttons(view)
        self.refresh_bindings()

    def draw_choices(self, view: SeatView) -> None:
        """The layout choices, the best arrangement's next step first, each with the count it reaches."""
        box = self.board.query_one("#choices", OptionList)
        show = view.my_turn and view.phase in LAYOUT_PHASES
        box.set_class(show, "shown")
        if not show:
            self.choices = []
            box.clear_options()
            return
        noun = "deadwood" if view.phase is Phase.LAYOUT else "count after layoffs"
        ranked = layout_choices(view)
        self.choices = [a for a, _ in ranked]
        box.clear_options()
        options = []
        for i, (a, left) in enumerate(ranked):
            key = PICK_KEYS[i] if i < 9 else " "
            tag = "  [b](best)[/]" if i == 0 else ""
            options.append(Option(f"{key}  {action_label(a, view, self.style.markup)}  ->  {noun} {left}{tag}"))
        box.add_options(options)
        box.highlighted = 0
        box.focus()

    def show_hints(self, lines: list[str]) -> None:
        self.hints = lines
        if self.screen_stack:
            widget = self.board.query_one("#hints", Static)
            widget.update("\n".join(lines))
            widget.display = bool(lines)

    def draw_buttons(self, view: SeatView) -> None:
        box = self.board.query_one("#buttons", Horizontal)
        box.remove_children()
        buttons: list[Button] = []
        legal = view.legal
        kinds = {a.kind for a in legal}
        labels = {Kind.STOCK: "Stock", Kind.PILE: "Take pile", Kind.PASS: "Pass", Kind.BIG_GIN: "Big gin"}
        for a in legal:
            if a.kind in labels:
                buttons.append(Button(labels[a.kind], name=f"act-{int(a)}", compact=True))
        if Kind.DISCARD in kinds or Kind.KNOCK in kinds:
            if self.picked is not None and Action.discard(self.picked) in legal:
                buttons.append(Button(f"Discard {self.style.markup(self.picked)}", name="discard", compact=True))
            knock = Action.knock(self.picked) if self.picked is not None else None
            if knock is not None and knock in legal:
                gin = deadwood(view.hand & ~(1 << knock.card)) == 0
                label = ("Gin" if gin else "Knock") + f" with {self.style.markup(knock.card)}"
                buttons.append(Button(label, name="knock", compact=True))
        if view.phase in LAYOUT_PHASES and view.my_turn:
            buttons.append(Button("Best layout", name="auto", compact=True))
        if view.my_turn:
            buttons.append(Button("Hint", name="hint", compact=True))
        if self.table.can_deal:
            buttons.append(Button("Next hand", name="next", compact=True))
        box.mount_all(buttons)

    # -- which keys the footer shows ------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Show (and run) a key's action only while it is legal; its hidden twin explains it otherwise."""
        if action == "next_hand":
            return self.table.can_deal
        if action == "undo":
            return self.undo_refusal() is None
        if action not in ("act", "discard", "knock", "auto"):
            return True
        if self.match.hand is None:
            return False
        view = self.view
        if not view.my_turn:
            return False
        kinds = {a.kind for a in view.legal}
        if action == "act":
            return _KINDS.get(str(parameters[0]) if parameters else "") in kinds
        if action == "discard":
            return Kind.DISCARD in kinds
        if action == "knock":
            return Kind.KNOCK in kinds
        return view.phase in LAYOUT_PHASES

    # -- input --------------------------------------------------------------------------

    def on_button_pressed(self, event: Button.Pressed) -> None:
        bid = event.button.name or ""
        if bid.startswith("act-"):
            self.apply(Action.from_int(int(bid[4:])))
        elif bid == "discard":
            self.action_discard()
        elif bid == "knock":
            self.action_knock()
        elif bid == "auto":
            self.action_auto()
        elif bid == "hint":
            self.action_hint()
        elif bid == "next":
            self.action_next_hand()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if 0 <= event.option_index < len(self.choices):
            self.apply(self.choices[event.option_index])

    def action_act(self, word: str) -> None:
        self.apply(Action.parse(word))

    def action_pick(self, index: int) -> None:
        if self.choices:
            if index < min(len(self.choices), 9):
                self.apply(self.choices[index])
            else:
                self.warn(f"No choice {PICK_KEYS[index]}: there are {len(self.choices)} (use the arrows and Enter).")
            return
        cards = self.hand_cards()
        if 0 <= index < len(cards):
            # The picked card's key again puts it back.
            self.picked = None if self.picked == cards[index] else cards[index]
            self.warn("")
            self.refresh_view()
        else:
            self.warn(f"No card at position {PICK_KEYS[index]}: your hand has {len(cards)} cards.")

    def action_discard(self) -> None:
        if self.picked is None:
            self.warn(no_pick_line(self.view, False, self.opponent_name, self.style.markup))
            return
        self.apply(Action.discard(self.picked))

    def action_knock(self) -> None:
        view = self.view
        if self.picked is None:
            if view.my_turn and view.phase is Phase.DISCARD and not any(a.kind is Kind.KNOCK for a in view.legal):
                # Say how far the hand is from a knock: the engine's refusal of the best one.
                self.apply(best_knock_card(view))
            else:
                self.warn(no_pick_line(view, True, self.opponent_name, self.style.markup))
            return
        self.apply(Action.knock(self.picked))

    def action_auto(self) -> None:
        view = self.view
        if not (view.my_turn and view.phase in LAYOUT_PHASES):
            self.warn(f"The best layout is for after a knock. {self.prompt()}")
            return
        self.table.lay_out(HUMAN)
        self.warn("")
        self.after_action()

    def action_next_hand(self) -> None:
        if self.table.can_deal:
            self.start_hand()
        elif self.match.is_over:
            self.warn("The game is over: q to quit.")
        else:
            self.warn(f"Finish this hand first. {self.prompt()}")

    def undo_refusal(self) -> str | None:
        """Why ``u`` cannot take back a move now, or None if it can (the saved game's reasons)."""
        if self.game is None:
            return "undo needs a saved game, and this one is played in memory only"
        return self.game.undo_refusal()

    def action_undo(self) -> None:
        """Take back your last move of the hand (and the computer's moves after it), by replay:
        the store keeps the old moves, the game goes on as a new row (see :mod:`ginrummy.saved`)."""
        why = self.undo_refusal()
        if why is not None:
            self.warn(refusal_line(why, self.style))
            return
        assert self.game is not None
        undone, dropped = self.game.undo()
        view = self.view
        after = f" and {self.opponent_name}'s {dropped} move{'s' * (dropped != 1)} after it" if dropped else ""
        self.say(f"Undone: your move {action_label(undone, view, self.style.markup)}{after}.")
        self._events_seen = len(view.events)
        self.picked = None
        self.warn("")
        self.after_action()

    # The hidden twins of the keys above: the same code, which explains a key not legal now.
    action_act_anyway = action_act
    action_discard_anyway = action_discard
    action_knock_anyway = action_knock
    action_auto_anyway = action_auto
    action_next_hand_anyway = action_next_hand
    action_undo_anyway = action_undo

    async def action_quit(self) -> None:
        """``q`` (and Ctrl-C, Ctrl-Q): leave. A saved game in progress first asks whether to keep
        it for ``--resume``; Escape goes back to the table."""
        if self.game is None or self.match.is_over:
            self.exit(0 if self.match.is_over else 1)
        elif not isinstance(self.screen, KeepScreen):
            self.push_screen(KeepScreen(self.resume_command, ascii=self.style.ascii), self._answered)

    def _answered(self, keep: bool | None) -> None:
        if keep is None:
            return
        if not keep and self.game is not None:
            self.game.abandon()
            self.abandoned = True
        self.exit(1)

    def action_hint(self) -> None:
        """The expert's ranking of your choices (the web app's hints): the best three, each with its reason."""
        view = self.view
        if not view.my_turn:
            self.warn(self.prompt())
            return
        from .players.hints import rank_actions

        lines = []
        for i, (a, _, why) in enumerate(rank_actions(view)[:HINTS]):
            words = action_label(a, view, self.style.markup)
            why = why.removeprefix(f"discard {a}: ")  # "discard Kd: deadwood 6" names the action once
            lines.append(f"Hint {i + 1}: {words}" + (f": {self.style.restyle(why)}" if why else ""))
        self.show_hints(lines)

    def action_order(self) -> None:
        self.order = ORDERS[(ORDERS.index(self.order) + 1) % len(ORDERS)]
        self.refresh_view()

    def action_four_colour(self) -> None:
        self.style = CardStyle(four_colour=not self.style.four_colour, ascii=self.style.ascii)
        self.refresh_view()

    def action_light_dark(self) -> None:
        self.theme = THEMES["dark"] if self.theme == THEMES["light"] else THEMES["light"]

    def action_sheet(self) -> None:
        """The score sheet screen; after a hand, with both hands laid out above it."""
        hand = self.match.hand
        over = hand is not None and hand.is_over
        n = len(self.match.results)
        title = f"Hand {n} is over: the score sheet" if over else "The score sheet"
        laid = hand_lines(self.view, self.names, self.style.markup) if over else []
        sheet = sheet_lines(self.match.sheet, self.names)
        self.push_screen(SheetScreen(title, laid, sheet, self.table.can_deal, ascii=self.style.ascii))


__all__ = ["HUMAN", "PICK_KEYS", "GinRummyApp", "ordered_hand"]
