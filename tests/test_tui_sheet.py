"""The score sheet screen of the terminal app: after each hand both hands laid out and the
sheet with its running totals and boxes; the ledger's own figures, nothing of a hidden hand."""

from __future__ import annotations

import asyncio
import random

from conftest import deck_for
from ginrummy.cards import card_str, cards_of
from ginrummy.hand import new_hand
from ginrummy.players import get_player
from ginrummy.rules import Rules
from ginrummy.scoresheet import ScoreSheet
from ginrummy.scoring import HandResult
from ginrummy.tui_sheet import SheetScreen, hand_lines, sheet_lines
from test_tui_layout import KNOCKER
from tui_pilot import make_app, pick, settle


def _plain(card: int) -> str:
    return card_str(card)


def test_after_a_hand_the_sheet_shows_both_hands_laid_out_and_the_totals() -> None:
    async def run() -> None:
        # Two hands: the first from KNOCKER, then any deal.
        app = make_app([KNOCKER, deck_for("As 2s 3s 4s 5s 6s 7s 8s 9s Ts", "Ah 2h 3h 4h 5h 6h 7h 8h 9h Th", "Kc")])
        async with app.run_test(size=(110, 45)) as pilot:
            await settle(pilot, app)
            await pilot.press("p")
            await pick(pilot, app, "Kd")
            await pilot.press("k")
            await settle(pilot, app)
            await pilot.press("a")
            await settle(pilot, app)
            screen = app.screen
            assert isinstance(screen, SheetScreen)
            hand = str(screen.query_one("#sheet-hand").render())
            # Sam's hand laid out: its melds and its deadwood with the count (no layoff fits).
            assert "Sam (defended): melds [T♣ J♣ Q♣]  [9♠ 9♥ 9♦]; deadwood 2♠ 3♠ 5♦ K♥ = 20" in hand
            assert "You (knocked, K♦ face down): melds" in hand and "deadwood A♠ 2♣ 3♦ = 6" in hand
            sheet = str(screen.query_one("#sheet-table").render())
            assert "   1  You: knock +14" in sheet
            rows = sheet.splitlines()
            assert rows[1].split()[-2:] == ["14", "0"]
            assert [r for r in rows if r.strip().startswith("boxes")][0].split()[-2:] == ["1", "0"]
            assert "Each box is worth 20" in sheet
            # The main screen under it shows the same layout.
            assert "Sam (defended)" in str(app.screen_stack[0].query_one("#table").render())
            await pilot.press("escape")
            assert not isinstance(app.screen, SheetScreen)
            await pilot.press("g")
            assert isinstance(app.screen, SheetScreen)
            await pilot.press("n")
            await settle(pilot, app)
            assert not isinstance(app.screen, SheetScreen)
            assert len(app.match.hands) == 2 and not app.match.hand.is_over  # type: ignore[union-attr]

    asyncio.run(run())


def test_the_sheet_keeps_the_ledgers_boxes_and_the_final_breakdown() -> None:
    rules = Rules.preset("classic", oklahoma=True, oklahoma_extra_boxes=True, target=100)
    sheet = ScoreSheet(rules)
    results = [
        HandResult(kind="gin", winner=1, points=45, knocker=1, defender_deadwood=25, extra_boxes=2),
        HandResult(kind="dead", winner=None, points=0),
        HandResult(kind="knock", winner=0, points=12, knocker=0, knocker_deadwood=3, defender_deadwood=15),
        HandResult(kind="undercut", winner=1, points=60, knocker=0, knocker_deadwood=8, defender_deadwood=6, extra_boxes=1),
    ]
    for r in results:
        sheet.add(r)
    lines = sheet_lines(sheet, ("You", "Sam"))
    text = "\n".join(lines)
    assert [line.split()[-2:] for line in lines[1:5]] == [["0", "45"], ["0", "45"], ["12", "45"], ["12", "105"]]
    assert "dead hand" in lines[2] and "Sam: undercut +60" in lines[4]
    boxes = next(line for line in lines if line.strip().startswith("boxes")).split()[-2:]
    final = sheet.final()
    assert [int(b) * rules.box_bonus for b in boxes] == list(final.box_bonus) == [20, 100]
    for line in final.explain(("You", "Sam")):
        assert line in text


def test_a_hollywood_sheet_has_a_column_pair_per_game_and_says_which_are_closed() -> None:
    rules = Rules.preset("online", hollywood=True, target=50)
    sheet = ScoreSheet(rules)
    for _ in range(3):
        sheet.add(HandResult(kind="knock", winner=0, points=30, knocker=0, defender_deadwood=35, knocker_deadwood=5))
    lines = sheet_lines(sheet, ("You", "Sam"))
    assert "Game 1" in lines[0] and "Game 3" in lines[0]
    assert lines[2].split()[-6:] == ["30", "0", "0", "0", "0", "0"]
    # Game 1 closed at 60 in hand 2, so hand 3 is written in games 2 and 3 only.
    assert lines[4].split()[-6:] == ["60", "0", "60", "0", "30", "0"]
    text = "\n".join(lines)
    assert "Game 1 closed in hand 2: won by You." in text and "Game 2 closed in hand 3: won by You." in text
    assert "Game 3 is open." in text


def test_after_a_dead_hand_the_opponents_cards_stay_hidden() -> None:
    rng = random.Random(5)
    found = 0
    for n in range(60):
        h = new_hand(Rules.preset("classic", knock_limit=0), dealer=n % 2, seed=rng.getrandbits(32))
        players = [get_player("random", seed=n), get_player("random", seed=n + 1)]
        while not h.is_over:
            h.apply(players[h.current].decide(h.observation(h.current)))
        if h.result is None or h.result.winner is not None:
            continue
        found += 1
        view = h.observation(0)
        text = "\n".join(hand_lines(view, ("You", "Sam"), _plain))
        assert "stay face down" in text
        assert not any(card_str(c) in text.split() for c in cards_of(h.hands[1]))
        if found >= 3:
            break
    assert found


def test_the_table_keeps_playing_under_the_sheet_and_the_knock_discard_stays_hidden() -> None:
    from test_tui_layout import DEFENDER

    async def run() -> None:
        app = make_app([DEFENDER], moves=["pile", "knock Kd"], delay=0.05)
        async with app.run_test(size=(110, 45)) as pilot:
            await settle(pilot, app)
            await pilot.press("x")
            await pilot.press("g")  # the sheet opens while Sam is still to play: he plays under it
            assert isinstance(app.screen, SheetScreen)
            assert "no hands yet" in str(app.screen.query_one("#sheet-table").render())
            await pilot.pause(0.5)
            await settle(pilot, app)
            await pilot.press("escape")
            assert app.view.phase.value == "defender_layout"
            assert "Sam's melds (the knocker)" in str(app.board.query_one("#table").render())
            await pilot.press("a")
            await settle(pilot, app)
            screen = app.screen
            assert isinstance(screen, SheetScreen)
            hand = str(screen.query_one("#sheet-hand").render())
            assert "Sam (knocked): melds" in hand and "You (defended)" in hand and "laid off" in hand
            assert "K♦" not in hand and "Kd" not in "\n".join(app.lines)  # Sam's face-down discard

    asyncio.run(run())
