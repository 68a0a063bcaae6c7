"""The terminal app on a game kept in the store: ``u`` takes back your last move (and the
computer's replies) by replay, the store staying append-only; it is refused in the saved game's
own words; ``q`` asks whether to keep the game; a kept game resumes where it was; the command
line checks its options before the app starts."""

from __future__ import annotations

import asyncio
from pathlib import Path

from ginrummy.cards import parse_card
from ginrummy.cli import main
from ginrummy.events import Phase
from ginrummy.saved import SavedGame, save_game
from ginrummy.storage import Store
from ginrummy.tui import GinRummyApp
from ginrummy.tui_cli import farewell
from ginrummy.tui_keep import KeepScreen
from test_tui import LOOSE
from tui_pilot import Scripted, footer_line, make_app, notice, pick, screen_text, settle

SIZE = (100, 40)


def saved_app(db: Path, moves: list[str] | None = None, undo: bool = True) -> GinRummyApp:
    """An app dealt ``LOOSE`` (you hold no meld, the upcard is Qd) against a scripted Sam, its
    game saved in the store at ``db``."""
    app = make_app([LOOSE], moves=moves or [])
    app.keep(save_game(app.table, db, client="tui", undo=undo))
    return app


def test_u_takes_back_your_discard_and_the_computers_replies_and_the_log_stays_append_only(tmp_path) -> None:
    db = tmp_path / "g.sqlite3"

    async def run() -> None:
        app = saved_app(db)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            assert "u Undo" not in footer_line(app)  # nothing of yours to take back yet
            await pilot.press("p")  # take the upcard Qd
            await settle(pilot, app)
            taken = app.view
            assert "u Undo" in footer_line(app)
            await pick(pilot, app, "Kc")
            await pilot.press("d")  # Sam draws from the stock and discards (scripted default)
            await settle(pilot, app)
            assert app.view.phase is Phase.DRAW and app.view.my_turn
            store = Store(db)
            (old,) = store.list_games()
            old_actions = [(a.seat, a.action) for a in store.actions(old.id)]
            assert old_actions[-2:][0][0] == 1 and old_actions[-1][0] == 1  # Sam's two moves

            await pilot.press("u")
            await settle(pilot, app)
            view = app.view
            # The position before your discard: the same hand, pile, turn and phase.
            assert (view.hand, view.pile, view.phase, view.stock_size) == (
                taken.hand, taken.pile, Phase.DISCARD, taken.stock_size,
            )
            assert "Undone: your move discard K♣ and Sam's 2 moves after it." in screen_text(app)
            assert notice(app) == ""
            # Append-only: the old game's moves are all still there; the game goes on as a new
            # row holding the moves kept, and the old row is marked replaced.
            assert [(a.seat, a.action) for a in store.actions(old.id)] == old_actions
            games = {g.id: g for g in store.list_games()}
            assert games[old.id].status == "replaced"
            (new,) = [g for g in games.values() if g.id != old.id]
            assert new.status == "playing" and store.terminal(new.id) == ("tui", True, old.id)
            assert [(a.seat, a.action) for a in store.actions(new.id)] == old_actions[:1]  # the take of Qd

            # Playing on is saved on the new row; a second u takes back the take of Qd.
            await pilot.press("u")
            await settle(pilot, app)
            assert app.view.phase is Phase.OFFER and app.view.pile[-1] == parse_card("Qd")
            await pilot.press("u")
            assert "Nothing to undo: you have not moved yet in this hand." in notice(app)
            await pilot.press("x")
            await settle(pilot, app)
            latest = store.last_unfinished()
            assert latest is not None and [a.action for a in store.actions(latest.id)][0] == "pass"

    asyncio.run(run())


def test_a_card_drawn_from_the_stock_cannot_be_taken_back(tmp_path) -> None:
    db = tmp_path / "g.sqlite3"

    async def run() -> None:
        app = saved_app(db, moves=["pass"])
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("x")  # you pass, Sam passes: you draw
            await settle(pilot, app)
            await pilot.press("s")
            await settle(pilot, app)
            hand, drawn = app.view.hand, app.match.hand.history[-1].drawn  # type: ignore[union-attr]
            assert "u Undo" not in footer_line(app)
            await pilot.press("u")
            words = notice(app)
            assert "Your last move drew" in words and "from the stock cannot go back, you have seen it" in words
            assert app.style.text(drawn) in words
            assert app.view.hand == hand and len(Store(db).list_games()) == 1  # nothing replayed

    asyncio.run(run())


def test_undo_is_refused_in_a_game_started_with_no_undo(tmp_path) -> None:
    async def run() -> None:
        app = saved_app(tmp_path / "g.sqlite3", undo=False)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("p")
            await settle(pilot, app)
            assert "u Undo" not in footer_line(app)
            await pilot.press("u")
            assert "Undo is off in this game (it was started with --no-undo)." in notice(app)
            assert app.view.phase is Phase.DISCARD  # the upcard is still yours

    asyncio.run(run())


def test_q_asks_to_keep_the_game_escape_goes_back_and_no_leaves_it(tmp_path) -> None:
    db = tmp_path / "g.sqlite3"

    async def run(answer: str) -> GinRummyApp:
        app = saved_app(db)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("p")
            await settle(pilot, app)
            await pilot.press("q")
            await pilot.pause()
            assert isinstance(app.screen, KeepScreen)
            assert "Keep this game to continue it later?" in screen_text(app)
            assert "ginrummy tui --resume" in screen_text(app)
            await pilot.press("escape")
            await pilot.pause()
            assert not isinstance(app.screen, KeepScreen) and app.is_running
            await pilot.press("p" if answer == "ctrl+c" else "q")
            await pilot.press(answer)
            await pilot.pause()
            if answer == "ctrl+c":  # Ctrl-C leaves too, after the same question
                assert isinstance(app.screen, KeepScreen)
                await pilot.press("y")
                await pilot.pause()
        assert not app.is_running
        return app

    app = asyncio.run(run("n"))
    assert app.abandoned and [g.status for g in Store(db).list_games()] == ["abandoned"]
    assert farewell(app) == (1, "Game left; it will not be offered to --resume.")
    assert Store(db).last_unfinished() is None
    app = asyncio.run(run("ctrl+c"))
    assert not app.abandoned and farewell(app, " --db x") == (1, "Game saved: ginrummy tui --resume --db x continues it.")
    assert Store(db).last_unfinished() is not None


def test_q_quits_at_once_when_nothing_is_kept(tmp_path) -> None:
    async def run() -> GinRummyApp:
        app = make_app([LOOSE])  # played in memory only
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("u")
            assert "undo needs a saved game" in notice(app).lower()
            await pilot.press("q")
            await pilot.pause()
            assert not app.is_running
        return app

    asyncio.run(run())


def test_a_kept_game_resumes_in_the_app_where_it_was_and_undo_still_works(tmp_path) -> None:
    db = tmp_path / "g.sqlite3"

    async def first() -> list[str]:
        app = saved_app(db)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("p")
            await pick(pilot, app, "Kc")
            await pilot.press("d")
            await settle(pilot, app)
            seen = screen_text(app).splitlines()[1:7]  # the status, prompt, table and hand
            await pilot.press("q", "y")
            await pilot.pause()
        return seen

    async def second(seen: list[str]) -> None:
        game = SavedGame.resume(Store(db), make_player=lambda name: Scripted())
        app = make_app([])
        app.keep(game)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            assert "-- hand 1 (resumed): the computer deals --" in app.lines
            assert screen_text(app).splitlines()[1:7] == seen
            assert app.view.phase is Phase.DRAW and app.view.my_turn
            await pilot.press("u")
            await settle(pilot, app)
            assert app.view.phase is Phase.DISCARD and app.lines[-1].startswith("Undone: your move discard")

    seen = asyncio.run(first())
    asyncio.run(second(seen))


def test_the_tui_command_checks_its_options_before_starting(tmp_path, capsys) -> None:
    assert main(["tui", "--db", str(tmp_path / "missing" / "g.sqlite3")]) == 2
    assert "the folder" in capsys.readouterr().err
    assert main(["tui", "--rules", "nope"]) == 2
    assert "choose one of classic, online, app, eaai" in capsys.readouterr().err
    assert main(["tui", "--rule", "knock_limit=x"]) == 2
    assert main(["tui", "--help"]) == 0
    out = capsys.readouterr().out
    for flag in ("--four-colour", "--ascii", "--light", "--resume", "--db", "--no-undo"):
        assert flag in out
    assert "u undo" in out and "q quit (asks whether to keep the game" in " ".join(out.split())


def test_at_the_games_end_q_leaves_without_asking_and_the_game_is_in_the_history(tmp_path) -> None:
    from ginrummy.rules import Rules
    from test_tui_layout import KNOCKER

    db = tmp_path / "g.sqlite3"

    async def run() -> GinRummyApp:
        app = make_app([KNOCKER], rules=Rules.preset("online", target=10))
        app.keep(save_game(app.table, db))
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("p")  # take 3d, knock with Kd, lay out the best: the game is won
            await pick(pilot, app, "Kd")
            await pilot.press("k")
            await settle(pilot, app)
            await pilot.press("a")
            await settle(pilot, app)
            assert app.match.is_over
            await pilot.press("escape")  # from the score sheet to the table
            await pilot.pause()
            assert "The game is over: g for the score sheet, q to quit." in screen_text(app)
            assert "n Next hand" not in footer_line(app) and "u Undo" not in footer_line(app)
            await pilot.press("q")
            await pilot.pause()
            assert not app.is_running  # no question: the game is finished and kept
        return app

    app = asyncio.run(run())
    assert [g.status for g in Store(db).list_games()] == ["finished"]
    assert farewell(app) == (0, "The game is in the history: ginrummy history")


def test_a_move_the_computer_answered_with_a_knock_cannot_be_taken_back(tmp_path) -> None:
    """Sam's knock lays its cards open: undoing your move before it would let you play on
    knowing them. Your own layout steps after the knock can still be taken back."""
    from test_tui_layout import DEFENDER

    db = tmp_path / "g.sqlite3"

    async def run() -> None:
        app = make_app([DEFENDER], moves=["pile", "knock Kd"])
        app.keep(save_game(app.table, db))
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("x")  # you pass; Sam takes the upcard and knocks
            await settle(pilot, app)
            view = app.view
            assert view.phase is Phase.DEFENDER_LAYOUT and view.knocker == 1 and view.knocker_melds
            assert "u Undo" not in footer_line(app)
            await pilot.press("u")
            assert "Sam knocked after your last move and laid its melds open: a knock cannot go back" in notice(app)
            assert app.view.phase is Phase.DEFENDER_LAYOUT and len(Store(db).list_games()) == 1
            await pilot.press("enter")  # meld your three 2s
            await settle(pilot, app)
            melded = app.view.defender_melds
            assert melded
            await pilot.press("u")  # your own meld goes back
            await settle(pilot, app)
            assert app.view.phase is Phase.DEFENDER_LAYOUT and not app.view.defender_melds
            assert app.lines[-1].startswith("Undone: your move meld")

    asyncio.run(run())
