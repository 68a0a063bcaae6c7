"""The Textual app: a person plays a whole hand with keys and buttons; only legal actions show."""

from __future__ import annotations

import asyncio

from ginrummy.actions import Kind
from ginrummy.cards import CardSet
from ginrummy.layout import LAYOUT_PHASES
from ginrummy.rules import Rules
from ginrummy.tui import HUMAN, GinRummyApp, ordered_hand


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
