"""Helpers for the Textual pilot tests of ``ginrummy tui``: known deals, a scripted computer
player, waiting for the computer, picking a card by name, reading the screen as text."""

from __future__ import annotations

import io
from collections.abc import Sequence

from rich.console import Console
from textual.pilot import Pilot

from ginrummy.actions import DONE, Action, Kind
from ginrummy.cards import parse_card
from ginrummy.layout import LAYOUT_PHASES, layout_action
from ginrummy.melds import deadwood
from ginrummy.observation import SeatView
from ginrummy.players.base import Player
from ginrummy.rules import Rules
from ginrummy.tui import PICK_KEYS, GinRummyApp


class Scripted(Player):
    """A computer player that plays a fixed list of moves (text), then its default: knock
    as soon as it can, lay out by the table's plan, draw from the stock, throw the card
    that leaves the least deadwood."""

    name = "scripted"

    def __init__(self, moves: Sequence[str] = ()) -> None:
        super().__init__(0)
        self.moves = list(moves)

    def decide(self, view: SeatView) -> Action:
        if self.moves:
            a = Action.parse(self.moves.pop(0))
            assert a in view.legal, (str(a), [str(x) for x in view.legal])
            return a
        legal = view.legal
        if view.phase in LAYOUT_PHASES:
            return layout_action(view)
        knocks = [a for a in legal if a.kind is Kind.KNOCK]
        if knocks:
            return min(knocks, key=lambda a: deadwood(view.hand & ~(1 << a.card)))
        if any(a.kind is Kind.STOCK for a in legal):
            return next(a for a in legal if a.kind is Kind.STOCK)
        if any(a.kind is Kind.PASS for a in legal):
            return next(a for a in legal if a.kind is Kind.PASS)
        discards = [a for a in legal if a.kind is Kind.DISCARD]
        if discards:
            return min(discards, key=lambda a: (deadwood(view.hand & ~(1 << a.card)), -a.card))
        return DONE if DONE in legal else legal[0]


def make_app(
    decks: Sequence[Sequence[int]],
    moves: Sequence[str] = (),
    rules: Rules | None = None,
    delay: float = 0.0,
    **kw: object,
) -> GinRummyApp:
    """An app where you (seat 0) are the non-dealer of the first hand, dealt from ``decks``."""
    return GinRummyApp(
        rules or Rules.preset("classic"),
        opponent="Sam",
        seed=1,
        delay=delay,
        first_dealer=1,
        decks=decks,
        player=Scripted(moves),
        **kw,  # type: ignore[arg-type]
    )


async def settle(pilot: Pilot[int], app: GinRummyApp) -> None:
    """Wait until the computer has made every move it is due (and the screen is drawn)."""
    for _ in range(500):
        await pilot.pause()
        if not app.table.computer_to_act:
            break
    await pilot.pause()


async def pick(pilot: Pilot[int], app: GinRummyApp, card: str) -> None:
    """Press the key of ``card``'s position in the hand as shown."""
    await pilot.press(PICK_KEYS[app.hand_cards().index(parse_card(card))])


def notice(app: GinRummyApp) -> str:
    return str(app.query_one("#notice").render())


def screen_text(app: GinRummyApp) -> str:
    """The whole screen as plain text (what ``export_screenshot`` draws, without the styles)."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True,
                      color_system="truecolor", record=True, legacy_windows=False, safe_box=False)
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return "\n".join(line.rstrip() for line in console.export_text().splitlines())


def card_cells(app: GinRummyApp) -> list[tuple[str, str, str]]:
    """Every drawn piece of text holding a suit symbol, with its colour and background (hex)."""
    out = []
    update = app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    for line in update.strips:
        for strip in line:
            for seg in strip:
                if seg.style is None or not any(s in seg.text for s in "♠♥♦♣"):
                    continue
                fg, bg = seg.style.color, seg.style.bgcolor
                assert fg is not None and bg is not None and fg.triplet and bg.triplet, seg
                out.append((seg.text.strip(), fg.triplet.hex, bg.triplet.hex))
    return out


def footer_line(app: GinRummyApp) -> str:
    return screen_text(app).splitlines()[-1]
