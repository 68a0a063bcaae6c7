"""Display choices of the terminal app: four-colour suits, an ASCII mode, cards readable on the
light and the dark theme, the real rules in the header, a footer that fits 80 columns with only
the keys legal now, and notices on their own line above the log."""

from __future__ import annotations

import asyncio

from ginrummy.actions import Kind
from ginrummy.layout import LAYOUT_PHASES
from ginrummy.rules import Rules
from ginrummy.saved import save_game
from ginrummy.tui import GinRummyApp
from ginrummy.tui_sheet import SheetScreen
from ginrummy.tui_text import MIN_CONTRAST, CardStyle, contrast
from test_tui_layout import DEFENDER, KNOCKER
from tui_pilot import card_cells, footer_line, make_app, notice, pick, screen_text, settle

SUITS = "♠♥♦♣"


def test_cards_keep_a_readable_contrast_on_light_and_dark_themes_in_two_and_four_colours() -> None:
    async def run(four: bool, light: bool) -> dict[str, set[str]]:
        app = make_app([KNOCKER], style=CardStyle(four_colour=four), light=light)
        colours: dict[str, set[str]] = {s: set() for s in SUITS}
        async with app.run_test(size=(100, 40)) as pilot:

            def check() -> None:
                cells = card_cells(app)
                assert cells
                for text, fg, bg in cells:
                    assert contrast(fg, bg) >= MIN_CONTRAST, (text, fg, bg, app.theme)
                    colours[text[-1]].add(fg)

            await settle(pilot, app)
            check()
            await pilot.press("p")
            await pick(pilot, app, "Kd")
            await pilot.press("h")  # hints name cards too
            check()
            await pilot.press("k")
            await settle(pilot, app)
            check()  # the layout choices
            await pilot.press("a")
            await settle(pilot, app)
            assert isinstance(app.screen, SheetScreen)
            check()  # the sheet over the table
        return colours

    for light in (False, True):
        two = asyncio.run(run(False, light))
        assert two["♥"] == two["♦"] and two["♠"] == two["♣"] and two["♥"] != two["♠"]
        four = asyncio.run(run(True, light))
        assert all(len(four[s]) == 1 for s in SUITS) and len(set().union(*four.values())) == 4


def test_f_switches_four_colours_and_t_switches_light_and_dark() -> None:
    async def run() -> None:
        app = make_app([KNOCKER])
        async with app.run_test(size=(100, 40)) as pilot:
            await settle(pilot, app)
            before = {text[-1]: fg for text, fg, _ in card_cells(app)}
            assert before["♥"] == before["♦"]
            await pilot.press("f")
            after = {text[-1]: fg for text, fg, _ in card_cells(app)}
            assert after["♥"] != after["♦"] and after["♠"] != after["♣"]
            dark_bg = card_cells(app)[0][2]
            await pilot.press("t")
            await pilot.pause()
            assert app.theme == "textual-light" and card_cells(app)[0][2] != dark_bg

    asyncio.run(run())


def test_ascii_mode_draws_no_suit_symbols_and_nothing_but_ascii() -> None:
    async def run() -> None:
        app = make_app([KNOCKER], style=CardStyle(ascii=True))
        async with app.run_test(size=(80, 30)) as pilot:

            def check() -> None:
                text = screen_text(app)
                assert not any(s in text for s in SUITS)
                odd = {ch for ch in text if ord(ch) > 127}
                assert not odd, odd

            await settle(pilot, app)
            check()
            assert "take the upcard 3d (p)" in screen_text(app)
            await pilot.press("p")
            await pick(pilot, app, "Kd")
            await pilot.press("h")
            await pilot.press("s")  # a refusal notice
            check()
            await pilot.press("k")
            await settle(pilot, app)
            check()
            await pilot.press("a")
            await settle(pilot, app)
            check()
            assert "Kd face down" in screen_text(app)

    asyncio.run(run())


def test_the_header_names_the_preset_and_every_changed_rule() -> None:
    async def run(rules: Rules) -> str:
        app = make_app([KNOCKER], rules=rules)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            return screen_text(app).splitlines()[0]

    assert "classic rules, no changes" in asyncio.run(run(Rules.preset("classic")))
    header = asyncio.run(run(Rules.preset("online", knock_limit=7, big_gin=True)))
    assert "online + big gin on, knock limit 7" in header  # whole, at 80 columns


def test_the_footer_fits_80_columns_and_shows_only_the_keys_legal_now() -> None:
    """A whole hand at 80 x 24: at every turn each key the footer offers is drawn whole, and a
    move key is offered only when its move is legal."""
    words = {"s Stock": Kind.STOCK, "p Take": Kind.PILE, "x Pass": Kind.PASS, "d Discard": Kind.DISCARD, "k Knock": Kind.KNOCK}

    async def run() -> None:
        app = GinRummyApp(Rules.preset("classic"), opponent="simple", seed=4, delay=0.0)
        app.keep(save_game(app.table, ":memory:"))  # a saved game: the footer offers u too
        async with app.run_test(size=(80, 24)) as pilot:
            turns = 0
            undo_offered = 0
            for _ in range(300):
                await settle(pilot, app)
                hand = app.match.hand
                assert hand is not None
                if hand.is_over:
                    break
                view = app.view
                line = footer_line(app)
                assert len(line) <= 80
                for binding in app.screen.active_bindings.values():
                    if binding.binding.show and binding.enabled:
                        assert f"{binding.binding.key} {binding.binding.description}" in line, line
                kinds = {a.kind for a in view.legal}
                for word, kind in words.items():
                    assert (word in line) == (kind in kinds), (word, line, view.phase)
                assert ("a Best layout" in line) == (view.phase in LAYOUT_PHASES)
                undo_offered += "u Undo" in line
                turns += 1
                if view.phase in LAYOUT_PHASES:
                    await pilot.press("a")
                elif Kind.STOCK in kinds:
                    await pilot.press("s")
                elif Kind.PASS in kinds:
                    await pilot.press("x")
                else:
                    await pilot.press("-" if view.hand.bit_count() == 11 else "0")
                    await pilot.press("d")
            assert turns > 10 and undo_offered > 5 and app.match.hand is not None and app.match.hand.is_over
            await pilot.press("escape")
            assert "n Next hand" in footer_line(app) and len(footer_line(app)) <= 80

    asyncio.run(run())


def test_a_notice_sits_above_the_log_and_leaves_it_readable() -> None:
    async def run() -> None:
        app = make_app([DEFENDER])
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            await pilot.press("s")  # refused during the offer
            assert "Stock is not allowed now" in notice(app)
            note = app.query_one("#notice").region
            log = app.query_one("#log").region
            assert note.height >= 1 and log.height >= 3
            assert not note.overlaps(log) and note.bottom <= log.y
            # The log's last line is still on the screen under the notice.
            assert "-- hand 1: the computer deals --" in screen_text(app)

    asyncio.run(run())
