"""Laying out by hand in the terminal app: after a knock the best arrangement is offered first,
any legal meld or layoff may be chosen instead, and hints rank the choices with their counts."""

from __future__ import annotations

import asyncio

from textual.content import Content

from conftest import deck_for, mask
from ginrummy.actions import DONE, Action
from ginrummy.cards import parse_card
from ginrummy.events import Phase
from ginrummy.layout import layout_action
from tui_pilot import make_app, pick, settle

#: You take the upcard 3d and knock with Kd: 4h-7h and three 8s leave 6 (2c As 3d); laying
#: 5h-6h-7h instead (4h left over) is worse but legal: deadwood 10, the knock limit.
KNOCKER = deck_for("4h 5h 6h 7h 8s 8d 8c 2c As Kd", "9s 9h 9d Tc Jc Qc 2s 3s 5d Kh", "3d", "Qh")

#: Sam takes the upcard Ah and knocks with Kd (T-J-Q♠, three 3s, 5-6-7♣: deadwood 1). You hold
#: three 2s and Ks 9s 4c 8c 3s, each of which can be laid off, and 9h Kh which cannot.
DEFENDER = deck_for("Ks 9s 4c 8c 3s 2h 2d 2c 9h Kh", "Ts Js Qs 3h 3d 3c 5c 6c 7c Kd", "Ah", "Qh")


def _options(app) -> list[str]:  # type: ignore[no-untyped-def]
    box = app.query_one("#choices")
    prompts = [box.get_option_at_index(i).prompt for i in range(box.option_count)]
    return [Content.from_markup(p).plain if isinstance(p, str) else Content(str(p)).plain for p in prompts]


def test_the_knocker_chooses_a_worse_legal_meld_by_hand_and_the_engine_keeps_it() -> None:
    async def run() -> None:
        app = make_app([KNOCKER])
        async with app.run_test(size=(110, 45)) as pilot:
            await settle(pilot, app)
            await pilot.press("p")
            await pick(pilot, app, "Kd")
            await pilot.press("k")
            await settle(pilot, app)
            view = app.view
            assert view.phase is Phase.LAYOUT and view.my_turn
            # The best arrangement's next meld is offered first, with the count it reaches.
            assert app.choices[0] == layout_action(view)
            options = _options(app)
            assert "(best)" in options[0] and "deadwood 6" in options[0]
            worse = Action.lay_meld(mask("5h 6h 7h"))
            i = app.choices.index(worse)
            assert "meld 5♥ 6♥ 7♥" in options[i] and "deadwood 10" in options[i]
            # Hints during the layout: ranked, each with its figure.
            await pilot.press("h")
            hints = app.hints
            assert len(hints) == 3 and "deadwood 6" in hints[0] and all("deadwood" in h for h in hints)
            await pilot.press(str(i + 1))
            hand = app.match.hand
            assert hand is not None and hand.knocker_melds == [worse.meld]
            assert app.hints == []  # a move clears the hints
            # The plan is re-made from the cards still free: three 8s come first now; Enter lays them.
            assert app.choices[0] == Action.lay_meld(mask("8s 8d 8c"))
            await pilot.press("enter")
            assert hand.knocker_melds == [worse.meld, mask("8s 8d 8c")]
            assert app.choices == [DONE]
            await pilot.press("1")
            await settle(pilot, app)
            assert hand.result is not None and hand.result.knocker_deadwood == 10

    asyncio.run(run())


def test_the_defender_lays_off_by_hand_and_may_keep_cards_it_could_lay_off() -> None:
    async def run() -> None:
        app = make_app([DEFENDER], moves=["pile", "knock Kd"])
        async with app.run_test(size=(110, 45)) as pilot:
            await settle(pilot, app)
            await pilot.press("x")
            await settle(pilot, app)
            view = app.view
            assert view.phase is Phase.DEFENDER_LAYOUT and view.my_turn
            assert app.choices[0] == Action.lay_meld(mask("2h 2d 2c"))
            await pilot.press("enter")
            assert app.choices[0] == DONE
            await pilot.press("enter")
            view = app.view
            assert view.phase is Phase.LAYOFF
            options = _options(app)
            ks = Action.layoff(parse_card("Ks"), list(view.knocker_melds).index(mask("Ts Js Qs")))
            i = app.choices.index(ks)
            assert "lay off K♠ on T♠ J♠ Q♠" in options[i]
            # Every option says the count it still reaches: the best lays off all five (19 left).
            assert "count after layoffs 19" in options[0] and "(best)" in options[0]
            await pilot.press(str(i + 1))
            hand = app.match.hand
            assert hand is not None and hand.layoffs == [(ks.card, ks.target)]
            await pilot.press(str(app.choices.index(DONE) + 1))
            await settle(pilot, app)
            result = hand.result
            assert result is not None and result.defender_deadwood == 9 + 4 + 8 + 3 + 9 + 10
            assert result.points == 43 - 1 and result.winner == 1

    asyncio.run(run())


def test_a_lays_out_the_best_layout_at_once() -> None:
    async def run() -> None:
        app = make_app([KNOCKER])
        async with app.run_test(size=(110, 45)) as pilot:
            await settle(pilot, app)
            await pilot.press("p")
            await pick(pilot, app, "Kd")
            await pilot.press("k")
            await settle(pilot, app)
            await pilot.press("a")
            await settle(pilot, app)
            hand = app.match.hand
            assert hand is not None and hand.result is not None and hand.result.knocker_deadwood == 6

    asyncio.run(run())
