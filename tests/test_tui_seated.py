"""``ginrummy tui --players 3|4``: the terminal app at a table of three or four, driven by the
Textual pilot: the sitting-out screen, the other table's end after yours, the score sheet of
three players and of two teams (text snapshots in ``tests/golden/tui``), whole games to the end,
and nothing on the screen before a hand you do not play is over depends on its cards."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable

import pytest
from textual.widgets import Static

import ginrummy.game
from ginrummy.cli import main
from ginrummy.events import Phase
from ginrummy.players import get_player
from ginrummy.rules import Rules
from ginrummy.saved import resume_game, save_game
from ginrummy.seated_play import OTHER_TABLE_BACK
from ginrummy.tui_seated import SeatedApp
from ginrummy.tui_sheet import SheetScreen
from test_tui_snapshots import check_golden
from test_undo_seated import state
from tui_pilot import notice, screen_text

SIZE = (80, 24)
SUITS = "♠♥♦♣"


def make(players: int, seed: int = 2, delay: float = 0.0, first_dealer: int | None = 0, **rules: object) -> SeatedApp:
    opponents = ["simple", "greedy", "easy"][: players - 1]
    return SeatedApp(Rules.preset("classic", **rules), opponents, seed=seed, delay=delay, first_dealer=first_dealer)


async def _stable(pilot, app: SeatedApp) -> None:  # type: ignore[no-untyped-def]
    """Wait until nothing is due from the computers (your turn, a sheet, or the game's end)."""
    for _ in range(500):
        await pilot.pause()
        if app._computer_at_mine() is None:
            return


def drive(app: SeatedApp, *, until: Callable[[SeatedApp], bool] | None = None, person_seed: int = 9) -> list[str]:
    """Play the game with a computer player deciding for you (through ``app.apply``, as the keys
    do), ``n`` on every sheet; returns what was shown at every moment you could act or read a sheet."""
    return [screen for _, screen in drive_told(app, until=until, person_seed=person_seed)]


def shown_text(app: SeatedApp) -> str:
    """Every text the app shows now, read from its widgets (not from a drawing of the screen, whose
    timing varies on a busy machine): the title, the status, prompt, table, hand, notice and hint
    lines, the whole log; on the score sheet screen, its title, the hands laid out and the sheet.
    (The buttons, the layout choices and the footer's keys come from your own view's legal moves.)"""
    screen = app.screen
    if isinstance(screen, SheetScreen):
        return "\n".join([screen.heading, *screen.hand, *screen.sheet])
    board = app.board
    parts = [app.title, app.sub_title]
    names = ("status", "prompt", "table", "hand", "notice", "hints")
    parts += [str(board.query_one(f"#{name}", Static).render()) for name in names]
    return "\n".join([*parts, *app.lines])


def drive_told(
    app: SeatedApp, *, until: Callable[[SeatedApp], bool] | None = None, person_seed: int = 9, whole_last: bool = False,
    read: Callable[[SeatedApp], str] | None = None,
) -> list[tuple[int, str]]:
    """:func:`drive`, each screen with the number of deals whose end had been told then;
    ``whole_last``: the screen ``until`` stops at is drawn whole (footer included), once settled;
    ``read``: how a screen is read (default: :func:`shown_text`)."""
    bot = get_player("simple", seed=person_seed)
    seen: list[tuple[int, str]] = []

    def snap() -> None:  # the footer's keys are drawn a moment later, or not yet: left out
        seen.append((app._told, (read or shown_text)(app)))

    # A hand you sit out waits for the driver: its screen is read first, then it is played.
    sit_out_play = app.sit_out_play
    due: list[bool] = []
    app.sit_out_play = lambda: due.append(True)  # type: ignore[method-assign]

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            for _ in range(5000):
                await _stable(pilot, app)
                if due:
                    due.clear()
                    for _ in range(3):
                        await pilot.pause()
                    snap()
                    sit_out_play()
                    continue
                if until is not None and until(app):
                    if whole_last:
                        for _ in range(5):
                            await pilot.pause()
                        seen.append((app._told, screen_text(app)))
                    else:
                        snap()
                    return
                if isinstance(app.screen, SheetScreen):
                    snap()
                    if app.match.is_over:
                        return
                    await pilot.press("n")
                elif app.table.can_deal:
                    await pilot.press("n")
                elif app.mine is not None and app.view.my_turn:
                    snap()
                    app.apply(bot.decide(app.view))
                elif app.match.is_over:
                    return
            raise AssertionError("the game did not end")

    asyncio.run(go())
    return seen


def test_the_hand_you_deal_you_sit_out_and_see_only_its_end():
    app = make(3, delay=30)  # the sat-out hand waits on a timer: the screen while it is played

    async def go() -> tuple[str, str, str]:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            during = screen_text(app)
            await pilot.press("s")
            refused = notice(app)
            app.sit_out_play()
            await pilot.pause()
            return during, refused, screen_text(app)

    during, refused, after = asyncio.run(go())
    assert "you sit out" in during and "simple plays greedy; you dealt and sit this hand out." in during
    assert "You see nothing of their hand while it is played." in during
    assert not any(s in during for s in SUITS), during
    assert refused == "You sit out this hand: wait for its end."
    assert "Hand 1 is over: the score sheet" in after and "The hand you sat out:" in after
    assert any(s in after for s in SUITS)  # its end is shown, as any hand's end


@pytest.mark.parametrize(("players", "target"), [(3, 10), (4, 20)])
def test_a_whole_game_of_three_or_four_to_its_end(players, target):
    app = make(players, seed=5, target=target, team_target=target)  # short games: the pilot is slow
    screens = drive(app)
    assert app.match.is_over
    log = "\n".join(app.lines)
    if players == 3:
        assert "you deal and sit out" in log and "The hand you sat out:" in log
        assert "wins:" in log and "over the next best." in log
        assert "You simple greedy" in " ".join(screens[-1].split())
    else:
        assert "at the other table your partner greedy plays" in log and "The other table's hand:" in log
        assert "You & greedy" in screens[-1] and "simple & easy" in screens[-1]
        assert " win " in log
    assert "Game over. Press q to quit." in log


def test_undo_says_why_not_and_quit_leaves_at_once():
    app = make(4, delay=0)

    async def go() -> tuple[str, int | None]:
        async with app.run_test(size=SIZE) as pilot:
            await _stable(pilot, app)
            await pilot.press("u")
            said = notice(app)
            await pilot.press("q")
            await pilot.pause()
            return said, app.return_value

    said, code = asyncio.run(go())
    assert said == "Undo needs a saved game, and this one is played in memory only."
    assert code == 1  # left unfinished at once: there is nothing to keep


def test_u_takes_back_your_discard_and_the_replies_at_both_tables_of_four(tmp_path):
    db = str(tmp_path / "games.sqlite3")
    app = make(4, seed=2)
    app.keep(save_game(app.table, db, client="tui"), "ginrummy tui --resume")
    bot = get_player("simple", seed=9)

    async def go() -> tuple[str, str, list[int]]:
        async with app.run_test(size=SIZE) as pilot:
            for _ in range(400):
                await _stable(pilot, app)
                if isinstance(app.screen, SheetScreen) or app.table.can_deal:
                    await pilot.press("n")
                    continue
                assert app.mine is not None and app.view.my_turn
                view = app.view
                before = state(app.match)
                app.apply(bot.decide(view))
                await _stable(pilot, app)
                if view.phase is Phase.DISCARD and app.mine is not None and app.view.my_turn and app.game.undo_refusal() is None:
                    played = [len(h.history) for h in app.match.tables]
                    await pilot.press("u")
                    await _stable(pilot, app)
                    return before, notice(app), played
            raise AssertionError("no discard of yours could be taken back")

    before, said, played = asyncio.run(go())
    assert said == ""
    assert state(app.match) == before and app.view.my_turn and app.view.phase is Phase.DISCARD
    assert all(len(h.history) < n for h, n in zip(app.match.tables, played, strict=True))  # both tables went back
    undone = [line for line in app.lines if line.startswith("Undone: your move discard ")]
    assert len(undone) == 1 and undone[0].endswith("'s 2 moves after it.") and app.lines[-1] == OTHER_TABLE_BACK
    assert state(resume_game(db).match) == state(app.match)


def _other_hand_changed(monkeypatch, index: int) -> None:
    real = ginrummy.game.hand_rng

    def rng(seed: int, i: int) -> random.Random:
        return random.Random(f"another deck {seed}") if i == index else real(seed, i)

    monkeypatch.setattr(ginrummy.game, "hand_rng", rng)


@pytest.mark.parametrize(("players", "seed"), [(3, 3), (4, 2)])
def test_nothing_on_screen_before_a_hand_you_do_not_play_is_over_depends_on_its_cards(players, seed, monkeypatch):
    """A whole fixed-seed game, then again with another deck for each hand you do not play
    (three: hands you sit out; four: the other table), up to that hand's end: everything shown up
    to its end (every widget's text, the log, the sheets) is the same, so nothing of its cards was
    shown before. (Short games: the pilot is slow.)"""
    first_app = make(players, seed=seed, target=15, team_target=15)
    first = drive_told(first_app)
    game = first_app.match
    unseen = [i for i, p in enumerate(game.pairings) if 0 not in p.seats]
    assert len(unseen) >= 1
    per_deal = 1 if players == 3 else 2
    for index in unseen:
        deal = index // per_deal  # its end is told when the count of deals told passes it
        before = [screen for told, screen in first if told <= deal]
        assert before and any(told > deal for told, _ in first)
        with monkeypatch.context() as m:
            _other_hand_changed(m, index)
            again = make(players, seed=seed, target=15, team_target=15)
            second = drive_told(again, until=lambda a, d=deal: a._told > d)
        assert [screen for told, screen in second if told <= deal] == before, f"hand {index + 1}"
        assert second[-1] != next(screen for told, screen in first if told > deal)  # its end did change


def _sit_out_screen() -> str:
    app = make(3, delay=30)

    async def go() -> str:
        async with app.run_test(size=SIZE) as pilot:
            for _ in range(5):
                await pilot.pause()
            return screen_text(app) + "\n"

    return asyncio.run(go())


def _team_sheet_screen() -> str:
    app = make(4, seed=2)
    return drive_told(app, until=lambda a: isinstance(a.screen, SheetScreen), whole_last=True)[-1][1] + "\n"


def test_the_sit_out_screen_matches_its_golden_snapshot():
    check_golden("seated_sit_out", _sit_out_screen())


def test_the_team_score_sheet_matches_its_golden_snapshot():
    text = _team_sheet_screen()
    assert "You & greedy" in text and "table 2: greedy v easy" in text
    check_golden("team_sheet", text)


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--players", "4", "--opponents", "simple,simple"], "--players 4 needs 3 opponents, got 2"),
        (["--opponents", "expret,simple"], "unknown player 'expret' (did you mean 'expert'?)"),
        (["--opponent", "easy", "--opponents", "easy,easy"], "not both"),
    ],
)
def test_tui_seat_options_are_checked_at_start(argv, words, capsys):
    assert main(["tui", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: ginrummy tui") and words in err, err


def test_a_game_of_four_is_kept_on_quitting_and_resumed_to_its_end(tmp_path):
    from ginrummy.tui_keep import KeepScreen

    db = str(tmp_path / "games.sqlite3")
    app = make(4, seed=2, team_target=30)  # a short game: the pilot is slow
    app.keep(save_game(app.table, db, client="tui", undo=False), "ginrummy tui --resume")
    bot = get_player("simple", seed=9)

    async def leave() -> bool:
        async with app.run_test(size=SIZE) as pilot:
            await _stable(pilot, app)
            app.apply(bot.decide(app.view))
            await _stable(pilot, app)
            await pilot.press("q")
            await pilot.pause()
            asked = isinstance(app.screen, KeepScreen)
            await pilot.press("y")
            await pilot.pause()
            return asked

    assert asyncio.run(leave())
    played = [len(h.history) for h in app.match.tables]
    assert played[0] >= 1 and not app.abandoned
    game = resume_game(db)
    assert game.match.seats == 4 and [len(h.history) for h in game.match.tables] == played
    again = SeatedApp(game.match.rules, [s.player for s in game.row.seats if s.computer], delay=0)
    again.keep(game)
    drive(again)
    assert any("(resumed) --" in line for line in again.lines)
    assert again.match.is_over and game.store.get_game(game.row.id).status == "finished"
