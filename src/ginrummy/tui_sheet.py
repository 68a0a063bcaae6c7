"""The terminal app's score sheet screen: each hand's result, the running totals and the boxes,
and at a hand's end both hands laid out (melds, layoffs, deadwood).

The figures are the ledger's own (:class:`~ginrummy.scoresheet.ScoreSheet`: rows, totals,
boxes, the final breakdown); the hands are what the person's view holds, so a dead hand keeps
the opponent's cards hidden and the knocker's face-down discard stays the knocker's secret.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from rich.markup import escape
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from .cards import cards_of
from .melds import points
from .observation import SeatView
from .scoresheet import ScoreSheet
from .seated_play import result_words, seated_sheet_lines
from .tui_text import by_rank, meld_cards

Show = Callable[[int], str]


def sheet_lines(sheet: ScoreSheet, names: Sequence[str]) -> list[str]:
    """The score sheet as text: one row per hand with the running totals of every game kept,
    then the totals toward the target and the boxes; the final breakdown once the game is over."""
    rules = sheet.rules
    width = max(5, *(len(n) for n in names))
    games = sheet.games
    what = max([14, *(len(result_words(r.result, names)) for r in sheet.rows)])
    lines = []
    if games > 1:
        lines.append(" " * (6 + what + 2) + "".join(f"Game {g + 1}".ljust(2 * (width + 1) + 2) for g in range(games)).rstrip())
    cols = "  ".join(" ".join(n.rjust(width) for n in names) for _ in range(games))
    lines.append(f"Hand  {'What happened'.ljust(what)}  {cols}")
    for row in sheet.rows:
        cells = "  ".join(" ".join(str(t).rjust(width) for t in row.totals[g]) for g in range(games))
        lines.append(f"{row.index + 1:>4}  {result_words(row.result, names).ljust(what)}  {cells}")
    if not sheet.rows:
        lines.append("      no hands yet")

    def summary(label: str, values: Callable[[int], Sequence[object]]) -> str:
        cells = "  ".join(" ".join(str(v).rjust(width) for v in values(g)) for g in range(games))
        return f"      {label.ljust(what)}  {cells}"

    lines.append(summary(f"toward {rules.target}", sheet.game_scores))
    lines.append(summary("boxes", sheet.boxes))
    if rules.box_bonus:
        lines.append(f"Each box is worth {rules.box_bonus} when the game is over; boxes never count toward the target.")
    else:
        lines.append("No box bonus under these rules.")
    if games > 1:
        for g in range(games):
            closer = next((r for r in sheet.rows if g in r.closed), None)
            if closer is not None and closer.result.winner is not None:
                lines.append(f"Game {g + 1} closed in hand {closer.index + 1}: won by {names[closer.result.winner]}.")
            else:
                lines.append(f"Game {g + 1} is open.")
    if sheet.is_over:
        lines.append("")
        lines.extend(sheet.final().explain(names))
    return lines


def hand_lines(view: SeatView, names: Sequence[str], show: Show) -> list[str]:
    """Both hands as laid out at the end of a hand (markup): each seat's melds, the cards laid
    off and the deadwood with its count. Nothing of the opponent's after a dead hand."""
    result = view.result
    lines = [escape(result.explain((names[0], names[1])))] if result is not None else []
    knocker = view.knocker
    if knocker is None:
        if result is not None:
            lines.append("Nobody knocked, so the cards stay face down.")
        return lines
    laid_off = 0
    for c, _ in view.layoffs:
        laid_off |= 1 << c
    for seat in (view.seat, view.opponent):
        cards = view.hand if seat == view.seat else view.opponent_known
        melds = view.knocker_melds if seat == knocker else view.defender_melds
        free = cards
        for m in melds:
            free &= ~m
        parts = []
        shown = []
        for i, m in enumerate(melds):
            text = " ".join(show(c) for c in meld_cards(m))
            if seat == knocker and view.laid_on[i]:
                text += " + " + " ".join(show(c) for c in cards_of(view.laid_on[i]))
            shown.append("\\[" + text + "]")
        parts.append("melds " + ("  ".join(shown) if shown else "none"))
        if seat != knocker:
            free &= ~laid_off
            if laid_off:
                parts.append("laid off " + " ".join(show(c) for c in by_rank(laid_off)))
        loose = " ".join(show(c) for c in by_rank(free)) or "none"
        parts.append(f"deadwood {loose} = {points(free)}")
        role = "knocked" if seat == knocker else "defended"
        if seat == knocker and view.knock_discard is not None:
            role += f", {show(view.knock_discard)} face down"
        lines.append(f"{names[seat]} ({role}): " + "; ".join(parts))
    return lines


class SheetScreen(ModalScreen[None]):
    """The score sheet, with the hand just played laid out above it when there is one."""

    DEFAULT_CSS = """
    SheetScreen { align: center middle; }
    SheetScreen > VerticalScroll { width: 100%; height: 1fr; border: round $primary; padding: 0 1; background: $surface; }
    SheetScreen #sheet-hand { margin: 0 0 1 0; }
    SheetScreen.ascii > VerticalScroll { border: ascii $primary; scrollbar-size: 0 0; }
    """
    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("n", "next", "Next hand"),
        Binding("escape,g", "close", "Back to the table"),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, title: str, hand: list[str], sheet: list[str], can_deal: bool, ascii: bool = False) -> None:
        super().__init__(classes="ascii" if ascii else None)
        self.heading = title
        self.hand = hand
        self.sheet = sheet
        self.can_deal = can_deal

    def compose(self) -> ComposeResult:
        with VerticalScroll() as box:
            box.border_title = self.heading
            if self.hand:
                yield Static("\n".join(self.hand), id="sheet-hand")
            yield Static(escape("\n".join(self.sheet)), id="sheet-table")
        yield Footer()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.can_deal if action == "next" else True

    def action_close(self) -> None:
        self.dismiss(None)

    async def action_next(self) -> None:
        self.dismiss(None)
        await self.app.run_action("next_hand")


__all__ = ["SheetScreen", "hand_lines", "result_words", "seated_sheet_lines", "sheet_lines"]
