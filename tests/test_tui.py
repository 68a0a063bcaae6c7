"""The Textual app: a person plays a whole hand with keys and buttons; only legal actions show."""

from __future__ import annotations

import asyncio

from conftest import deck_for
from ginrummy.actions import Action, Kind
from ginrummy.cards import CardSet, parse_card
from ginrummy.layout import LAYOUT_PHASES
from ginrummy.rules import Rules
from ginrummy.tui import HUMAN, GinRummyApp, ordered_hand
from tui_pilot import make_app, notice, pick, settle


def test_ordered_hand_puts_melds_first():
    groups = ordered_hand(CardSet.parse("As 2s 3s 7h 7d 7c 9h Th Jh Kd").mask, "melds")
    assert [(m, len(g)) for m, g in groups] == [(True, 3), (True, 3), (True, 3), (False, 1)]


async def _play_one_hand(app: GinRummyApp) -> None:
    async with app.run_test(size=(140, 40)) as pilot:
        for _ in range(400):
            await pilot.pause(0.02)
            hand = app.match.hand
            assert hand is not None
            if hand.is_over:
                break
            view = app.view
            if not view.my_turn:
                continue
            buttons = {b.name for b in app.query("Button")}
            kinds = {a.kind for a in view.legal}
            # Buttons appear only for legal actions.
            if Kind.PASS not in kinds:
                assert f"act-{54}" not in buttons
            if view.phase in LAYOUT_PHASES:
                await pilot.press("a")
            elif Kind.STOCK in kinds:
                await pilot.press("s")
            elif Kind.PASS in kinds:
                await pilot.press("x")
            else:
                # Pick the last card in the hand and discard it (or knock if that is all that is allowed).
                await pilot.press("-" if view.hand.bit_count() == 11 else "0")
                await pilot.pause(0.01)
                if app.picked is not None and any(a.kind is Kind.DISCARD and a.card == app.picked for a in view.legal):
                    await pilot.press("d")
                else:
                    await pilot.press("1")
                    await pilot.press("d")
        assert app.match.hand is not None and app.match.hand.is_over
        assert any("Score:" in line for line in app.lines)


def test_a_whole_hand_by_keys():
    app = GinRummyApp(Rules.preset("classic"), opponent="simple", seed=4, delay=0.01)
    asyncio.run(_play_one_hand(app))
    assert app.match.results
    assert app.match.view(HUMAN).phase.value == "over"


# ---------------------------------------------------------------- illegal moves explained

#: You hold no meld and much deadwood; Sam's cards do not matter; the upcard is Qd.
LOOSE = deck_for("As 3s 5h 7h 9d Jd Kc 2c 4c 6h", "2s 4s 6s 8s Ts Qs Ks 3h 5d 7d", "Qd", "9c")


def test_d_during_the_upcard_offer_says_to_take_or_pass_the_upcard() -> None:
    async def run() -> None:
        app = make_app([LOOSE])
        async with app.run_test(size=(100, 40)) as pilot:
            await settle(pilot, app)
            await pilot.press("d")
            text = notice(app)
            assert "take the upcard Q♦ (p) or pass it (x)" in text
            assert "pick" not in text.lower()
            assert app.view.phase.value == "offer"  # nothing was played

    asyncio.run(run())


def test_a_refused_discard_gives_the_engines_reason() -> None:
    async def run() -> None:
        app = make_app([LOOSE])
        async with app.run_test(size=(100, 40)) as pilot:
            await settle(pilot, app)
            await pilot.press("p")  # take the upcard Qd
            await settle(pilot, app)
            hand = app.match.hand
            assert hand is not None
            await pick(pilot, app, "Qd")
            await pilot.press("d")
            why = hand.refusal(Action.discard(parse_card("Qd")))
            assert why is not None and "just taken from the discard pile" in why[0]
            # The engine's words, its card names written as every card on the screen is.
            assert why[0].replace("Qd", "Q♦")[1:] in notice(app)
            assert hand.hands[0] >> parse_card("Qd") & 1  # still held: nothing was played
            await pilot.press("s")
            assert "Stock is not allowed now: discard a card (or knock)." in notice(app)
            await pick(pilot, app, "Qd")  # its key again puts it back
            assert app.picked is None
            await pilot.press("k")  # no card picked and no knock possible: how far off it is
            assert "Cannot knock: deadwood" in notice(app) and "over the knock limit 10" in notice(app)
            # Notices go on their own line, never as toasts over the log.
            assert not app.query("Toast") and not list(app._notifications)
            # A legal move clears the notice.
            await pick(pilot, app, "Kc")
            await pilot.press("d")
            assert notice(app) == ""

    asyncio.run(run())


def test_keys_while_the_computer_is_to_play_say_whose_turn_it_is() -> None:
    async def run() -> None:
        app = make_app([LOOSE], moves=["pass"])
        async with app.run_test(size=(100, 40)) as pilot:
            await settle(pilot, app)
            await pilot.press("x")  # you pass; Sam passes (scripted); you draw
            await settle(pilot, app)
            await pilot.press("s")
            await settle(pilot, app)
            await pilot.press("9")
            await pilot.press("d")
            # The scripted Sam moves at once, so it is your turn again: a draw key works and
            # a discard key is refused with the engine's words.
            await settle(pilot, app)
            await pilot.press("d")
            assert "Pick a card" not in notice(app) and "You cannot discard now" in notice(app)
            assert "Draw" in notice(app)

    asyncio.run(run())
