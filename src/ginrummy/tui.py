"""``ginrummy tui``: play a whole game against a computer player in a Textual terminal app.

The app is only a view of a :class:`~ginrummy.table.Table` session: every button is one of
the seat's legal actions (``SeatView.legal``), and every action goes through the table. The
person is seat 0; the computer only ever sees its own ``SeatView``.

Keys: ``s`` stock, ``p`` pile / take the upcard, ``x`` pass, ``1``-``9``/``0``/``-`` pick the
card in that position, ``d`` discard the picked card, ``k`` knock with it, ``a`` take the best
layout, ``h`` hint, ``o`` change the order of the hand, ``n`` next hand, ``q`` quit.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Header, OptionList, Static
from textual.widgets.option_list import Option

from .actions import Action, Kind
from .cards import card_str, cards_of
from .errors import IllegalActionError
from .events import Phase
from .layout import LAYOUT_PHASES
from .match import Match
from .melds import best_arrangement, deadwood, min_deadwood_after_discard, points
from .observation import SeatView
from .players import PLAYERS, get_player
from .rules import Rules
from .table import Decider, Seat, Table
from .tui_sheet import SheetScreen, hand_lines, sheet_lines
from .tui_text import (
    PICK_KEYS,
    action_label,
    best_knock_card,
    layout_choices,
    meld_cards,
    no_pick_line,
    prompt_line,
    refusal_line,
)

HUMAN = 0
COMPUTER = 1
ORDERS = ("melds", "rank", "suit")
#: How many ranked hints are shown.
HINTS = 3
_RED = (1, 2)  # hearts, diamonds


def card_markup(card: int) -> str:
    """A card in Rich markup, red suits in red."""
    text = card_str(card, symbols=True)
    return f"[bold red]{text}[/]" if card // 13 in _RED else f"[bold]{text}[/]"


def ordered_hand(mask: int, order: str) -> list[tuple[bool, list[int]]]:
    """The hand in groups of (is a meld, cards): melds first then loose cards ('melds'), or one
    group by rank or by suit."""
    if order == "rank":
        return [(False, sorted(cards_of(mask), key=lambda c: (c % 13, c // 13)))]
    if order == "suit":
        return [(False, cards_of(mask))]
    _, melds = best_arrangement(mask)
    used = 0
    for m in melds:
        used |= m
    loose = sorted(cards_of(mask & ~used), key=lambda c: (c % 13, c // 13))
    return [(True, cards_of(m)) for m in melds] + ([(False, loose)] if loose else [])


class GinRummyApp(App[int]):
    """One game against a computer player."""

    CSS = """
    Screen { layout: vertical; }
    #status { height: 3; padding: 0 1; background: $panel; }
    #prompt { height: auto; padding: 0 1; text-style: bold; }
    #notice { height: auto; padding: 0 1; color: $text-warning; }
    #table { height: auto; min-height: 2; padding: 0 1; }
    #hand { height: 3; padding: 0 1; }
    #buttons { height: 3; }
    #buttons Button { margin: 0 1 0 0; min-width: 8; }
    #choices { height: auto; max-height: 9; display: none; margin: 0 1; }
    #choices.shown { display: block; }
    #hints { height: auto; padding: 0 1; color: $text-accent; }
    #log { height: 1fr; border: round $primary; padding: 0 1; }
    """
    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("s", "act('stock')", "Stock"),
        Binding("p", "act('pile')", "Pile"),
        Binding("x", "act('pass')", "Pass"),
        Binding("d", "discard", "Discard"),
        Binding("k", "knock", "Knock"),
        Binding("b", "act('big gin')", "Big gin", show=False),
        Binding("a", "auto", "Best layout"),
        Binding("h", "hint", "Hint"),
        Binding("o", "order", "Order"),
        Binding("n", "next_hand", "Next hand"),
        Binding("g", "sheet", "Score sheet"),
        Binding("q", "quit", "Quit"),
        *[Binding(key, f"pick({i})", show=False) for i, key in enumerate("1234567890-")],
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
    ) -> None:
        """``first_dealer``, ``decks`` (the first hands' decks, in order) and ``player`` (a
        computer player of one's own, named ``opponent``) set up a known game: tests, lessons."""
        super().__init__()
        self.rules = rules
        self.opponent_name = opponent
        self.match = Match(rules, seed=seed, first_dealer=first_dealer)
        self.decks = [list(d) for d in decks]
        computer = player if player is not None else get_player(opponent, seed=seed)
        self.table = Table(self.match, [Seat("You"), Seat(opponent, computer)])
        self.delay = delay
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

    # -- layout -------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
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
        self.sub_title = self.rules.name
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
        self.say(f"-- hand {len(self.match.results) + 1}: {'you deal' if hand.dealer == HUMAN else 'the computer deals'} --")
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
            self.warn(prompt_line(self.view, self.opponent_name))
            return
        if hand.current != HUMAN:
            self.warn(f"It is {self.opponent_name}'s turn: wait for its move.")
            return
        try:
            self.table.act(HUMAN, action)
        except IllegalActionError as e:
            self.warn(refusal_line(str(e), self.view, self.opponent_name))
            return
        self.picked = None
        self.warn("")
        self.after_action()

    def warn(self, text: str) -> None:
        """Show a notice on its own line above the log (cleared by the next move), never over it."""
        self.notice = text
        if self.screen_stack:
            self.board.query_one("#notice", Static).update(text)

    def finish_hand(self) -> None:
        view = self.view
        result = view.result
        if result is not None:
            self.say(result.explain(("You", self.opponent_name)))
        for line in hand_lines(view, ("You", self.opponent_name), card_markup)[1:]:
            self.say(line)
        self.say(f"Score: you {self.match.scores[0]}, {self.opponent_name} {self.match.scores[1]}")
        if self.match.is_over:
            for line in self.match.final().explain(("You", self.opponent_name)):
                self.say(f"[b]{line}[/]")
            self.say("Game over. Press q to quit.")
        else:
            self.say("Press n for the next hand.")
        self.action_sheet()

    def log_events(self) -> None:
        view = self.view
        for e in view.events[self._events_seen :]:
            who = "You" if e.seat == HUMAN else self.opponent_name
            self.say(f"{who}: {e.text()}")
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
        turn = "your turn" if view.my_turn else ("hand over" if hand is not None and hand.is_over else "computer's turn")
        self.board.query_one("#status", Static).update(
            f"You {view.scores[0]}  ·  {self.opponent_name} {view.scores[1]}  ·  target {self.rules.target}"
            f"  ·  knock limit {view.knock_limit}  ·  [b]{turn}[/] ({view.phase.value.replace('_', ' ')})"
        )
        top = card_markup(view.pile[-1]) if view.pile else "-"
        known = " ".join(card_markup(c) for c in cards_of(view.opponent_known)) or "none"
        table = [
            f"Stock: {view.stock_size} cards    Discard pile: {top}",
            f"{self.opponent_name}: {view.opponent_size} cards; known: {known}",
        ]
        if view.phase is Phase.OVER:
            table.extend(hand_lines(view, ("You", self.opponent_name), card_markup))
        elif view.knocker_melds:
            label = "Your melds" if view.knocker == HUMAN else f"{self.opponent_name}'s melds (the knocker)"
            table.append(f"{label}: " + self.melds_text(view.knocker_melds, view.laid_on))
        if view.defender_melds and view.knocker == HUMAN and view.phase is not Phase.OVER:
            table.append(f"{self.opponent_name}'s melds: " + self.melds_text(view.defender_melds))
        self.board.query_one("#prompt", Static).update(prompt_line(view, self.opponent_name))
        self.board.query_one("#table", Static).update("\n".join(table))
        self.board.query_one("#hand", Static).update(self.hand_text(view))
        self.draw_choices(view)
        self.draw_buttons(view)

    def melds_text(self, melds: Sequence[int], laid_on: Sequence[int] = ()) -> str:
        """Melds on the table, each in brackets; cards laid off on a meld after a ``+``."""
        out = []
        for i, m in enumerate(melds):
            text = " ".join(card_markup(c) for c in meld_cards(m))
            extra = laid_on[i] if i < len(laid_on) else 0
            if extra:
                text += " + " + " ".join(card_markup(c) for c in cards_of(extra))
            out.append("\\[" + text + "]")
        return "  ".join(out)

    def hand_text(self, view: SeatView) -> str:
        """Your cards: with their keys while you play; after a knock, what is laid and what is left."""
        if view.phase in LAYOUT_PHASES or view.phase is Phase.OVER and view.knocker is not None:
            mine = view.knocker_melds if view.knocker == HUMAN else view.defender_melds
            free = view.hand
            for m in mine:
                free &= ~m
            laid_off = 0
            if view.knocker != HUMAN:
                for c, _ in view.layoffs:
                    laid_off |= 1 << c
            free &= ~laid_off
            parts = []
            if view.knocker != HUMAN and laid_off:
                parts.append("laid off " + " ".join(card_markup(c) for c in cards_of(laid_off)))
            loose = " ".join(card_markup(c) for c in cards_of(free)) or "none"
            parts.append(f"not in melds: {loose} (deadwood {points(free)})")
            return "Your hand: " + "; ".join(parts)
        parts = []
        i = 0
        for is_meld, group in ordered_hand(view.hand, self.order):
            texts = []
            for c in group:
                key = PICK_KEYS[i] if i < len(PICK_KEYS) else " "
                mark = "▶" if c == self.picked else ""
                texts.append(f"{mark}{key}:{card_markup(c)}")
                i += 1
            parts.append(("\\[ " + " ".join(texts) + " ]") if is_meld else " ".join(texts))
        if view.hand.bit_count() <= 10:
            count = f"   deadwood {deadwood(view.hand)}"
        else:
            count = f"   deadwood {deadwood(view.hand)}; after the best discard {min_deadwood_after_discard(view.hand)}"
        return "Your hand: " + "  ".join(parts) + count

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
            options.append(Option(f"{key}  {action_label(a, view, card_markup)}  ->  {noun} {left}{tag}"))
        box.add_options(options)
        box.highlighted = 0
        box.focus()

    def show_hints(self, lines: list[str]) -> None:
        self.hints = lines
        if self.screen_stack:
            widget = self.board.query_one("#hints", Static)
            widget.update("\n".join(lines))

    def draw_buttons(self, view: SeatView) -> None:
        box = self.board.query_one("#buttons", Horizontal)
        box.remove_children()
        buttons: list[Button] = []
        legal = view.legal
        kinds = {a.kind for a in legal}
        labels = {Kind.STOCK: "Stock", Kind.PILE: "Take pile", Kind.PASS: "Pass", Kind.BIG_GIN: "Big gin"}
        for a in legal:
            if a.kind in labels:
                buttons.append(Button(labels[a.kind], name=f"act-{int(a)}"))
        if Kind.DISCARD in kinds or Kind.KNOCK in kinds:
            if self.picked is not None and Action.discard(self.picked) in legal:
                buttons.append(Button(f"Discard {card_str(self.picked, True)}", name="discard", variant="primary"))
            knock = Action.knock(self.picked) if self.picked is not None else None
            if knock is not None and knock in legal:
                gin = deadwood(view.hand & ~(1 << knock.card)) == 0
                label = ("Gin" if gin else "Knock") + f" with {card_str(knock.card, True)}"
                buttons.append(Button(label, name="knock", variant="success"))
        if view.phase in LAYOUT_PHASES and view.my_turn:
            buttons.append(Button("Best layout", name="auto", variant="primary"))
        if view.my_turn:
            buttons.append(Button("Hint", name="hint"))
        hand = self.match.hand
        if hand is not None and hand.is_over and not self.match.is_over:
            buttons.append(Button("Next hand", name="next", variant="primary"))
        box.mount_all(buttons)

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
            self.warn(no_pick_line(self.view, False, self.opponent_name))
            return
        self.apply(Action.discard(self.picked))

    def action_knock(self) -> None:
        view = self.view
        if self.picked is None:
            if view.my_turn and view.phase is Phase.DISCARD and not any(a.kind is Kind.KNOCK for a in view.legal):
                # Say how far the hand is from a knock: the engine's refusal of the best one.
                self.apply(best_knock_card(view))
            else:
                self.warn(no_pick_line(view, True, self.opponent_name))
            return
        self.apply(Action.knock(self.picked))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if 0 <= event.option_index < len(self.choices):
            self.apply(self.choices[event.option_index])

    def action_auto(self) -> None:
        view = self.view
        if not (view.my_turn and view.phase in LAYOUT_PHASES):
            self.warn(f"The best layout is for after a knock. {prompt_line(view, self.opponent_name)}")
            return
        self.table.lay_out(HUMAN)
        self.warn("")
        self.after_action()

    def action_hint(self) -> None:
        """The expert's ranking of your choices (the web app's hints): the best three, each with its reason."""
        view = self.view
        if not view.my_turn:
            self.warn(prompt_line(view, self.opponent_name))
            return
        from .players.hints import rank_actions

        ranked = rank_actions(view)[:HINTS]
        lines = []
        for i, (a, _, why) in enumerate(ranked):
            lines.append(f"Hint {i + 1}: {action_label(a, view, card_markup)}" + (f": {why}" if why else ""))
        self.show_hints(lines)

    def action_order(self) -> None:
        self.order = ORDERS[(ORDERS.index(self.order) + 1) % len(ORDERS)]
        self.refresh_view()

    def action_next_hand(self) -> None:
        hand = self.match.hand
        if hand is not None and hand.is_over and not self.match.is_over:
            self.start_hand()
        elif self.match.is_over:
            self.warn("The game is over: q to quit.")
        else:
            self.warn(f"Finish this hand first. {prompt_line(self.view, self.opponent_name)}")

    def action_sheet(self) -> None:
        """The score sheet screen; after a hand, with both hands laid out above it."""
        names = ("You", self.opponent_name)
        hand = self.match.hand
        over = hand is not None and hand.is_over
        n = len(self.match.results)
        title = f"Hand {n} is over: the score sheet" if over else "The score sheet"
        laid = hand_lines(self.view, names, card_markup) if over else []
        self.push_screen(SheetScreen(title, laid, sheet_lines(self.match.sheet, names), self.table.can_deal))


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("--opponent", default="simple", choices=sorted(PLAYERS), help="computer player to play against")
    p.add_argument("--rules", default="classic", help="rule preset: classic, online, app, eaai")
    p.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE", help="change one rule (repeatable)")
    p.add_argument("--seed", type=int, default=None, help="seed for the deal")


def run(args: argparse.Namespace) -> int:
    from .commands.play import rules_from_args

    GinRummyApp(rules_from_args(args), opponent=args.opponent, seed=args.seed).run()
    return 0
