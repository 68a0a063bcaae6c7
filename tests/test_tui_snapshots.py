"""Snapshots of the terminal app's main screens at 80 x 24, compared as text with the golden
files in ``tests/golden/tui/``. Every game is dealt from known decks against a scripted player,
so the screens are the same on every run.

After a deliberate change of a screen, regenerate the files and read the diff before committing::

    GINRUMMY_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/test_tui_snapshots.py
"""

from __future__ import annotations

import asyncio
import difflib
import os
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from ginrummy.rules import Rules
from ginrummy.saved import save_game
from ginrummy.tui import GinRummyApp
from ginrummy.tui_sheet import SheetScreen
from ginrummy.tui_text import CardStyle
from test_tui_layout import DEFENDER, KNOCKER
from tui_pilot import make_app, pick, screen_text, settle

GOLDEN = Path(__file__).parent / "golden" / "tui"
UPDATE = os.environ.get("GINRUMMY_UPDATE_GOLDEN") == "1"
SIZE = (80, 24)

Steps = Callable[[GinRummyApp, object], Awaitable[None]]


def check_golden(name: str, text: str, update: bool = UPDATE) -> None:
    """``text`` must equal the golden file ``name``; with ``update`` the file is rewritten."""
    path = GOLDEN / f"{name}.txt"
    if update:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    assert path.exists(), f"no golden file {path}: run with GINRUMMY_UPDATE_GOLDEN=1 and check it"
    expected = path.read_text(encoding="utf-8")
    if text != expected:
        diff = "\n".join(difflib.unified_diff(expected.splitlines(), text.splitlines(), "golden", "now", lineterm=""))
        pytest.fail(f"screen {name} differs from {path} (GINRUMMY_UPDATE_GOLDEN=1 rewrites it):\n{diff}")


def _snap(app: GinRummyApp, steps: Steps) -> str:
    async def run() -> str:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await steps(app, pilot)
            await settle(pilot, app)
            text = screen_text(app)
            if not isinstance(app.screen, SheetScreen):
                # Whatever is on show above it, the log box keeps its place, whole, over the footer.
                assert text.splitlines()[-2].startswith(("╰", "+")), text
            return text + "\n"

    return asyncio.run(run())


async def _nothing(app, pilot) -> None:  # type: ignore[no-untyped-def]
    return None


async def _take_pick_hint(app, pilot) -> None:  # type: ignore[no-untyped-def]
    await pilot.press("p")
    await pick(pilot, app, "Kd")
    await pilot.press("h")


async def _knock(app, pilot) -> None:  # type: ignore[no-untyped-def]
    await pilot.press("p")
    await pick(pilot, app, "Kd")
    await pilot.press("k")


async def _knock_and_lay_out(app, pilot) -> None:  # type: ignore[no-untyped-def]
    await _knock(app, pilot)
    await settle(pilot, app)
    await pilot.press("a")


async def _defend_to_layoffs(app, pilot) -> None:  # type: ignore[no-untyped-def]
    await pilot.press("x")
    await settle(pilot, app)
    await pilot.press("enter")  # three 2s
    await pilot.press("enter")  # done
    await pilot.press("h")


def _saved(app: GinRummyApp) -> GinRummyApp:
    """The app on a game saved in a store in memory (undo, the question on quitting)."""
    app.keep(save_game(app.table, ":memory:"))
    return app


async def _take_and_quit(app, pilot) -> None:  # type: ignore[no-untyped-def]
    await pilot.press("p")
    await settle(pilot, app)
    await pilot.press("q")


async def _refused(app, pilot) -> None:  # type: ignore[no-untyped-def]
    await pilot.press("s")


CASES: dict[str, tuple[Callable[[], GinRummyApp], Steps]] = {
    "offer": (lambda: make_app([KNOCKER]), _nothing),
    "discard_with_hints": (lambda: make_app([KNOCKER]), _take_pick_hint),
    "knocker_layout_choices": (lambda: make_app([KNOCKER]), _knock),
    "sheet_after_a_knock": (lambda: make_app([KNOCKER]), _knock_and_lay_out),
    "defender_layoff_choices": (lambda: make_app([DEFENDER], moves=["pile", "knock Kd"]), _defend_to_layoffs),
    "refusal_notice": (lambda: make_app([DEFENDER]), _refused),
    "quit_question": (lambda: _saved(make_app([KNOCKER])), _take_and_quit),
    "ascii_offer": (lambda: make_app([KNOCKER], style=CardStyle(ascii=True)), _nothing),
    "game_over_sheet": (lambda: make_app([KNOCKER], rules=Rules.preset("online", target=10)), _knock_and_lay_out),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_screen_matches_its_golden_snapshot(name: str) -> None:
    make, steps = CASES[name]
    check_golden(name, _snap(make(), steps))


def test_the_same_game_draws_the_same_screen_twice() -> None:
    make, steps = CASES["discard_with_hints"]
    assert _snap(make(), steps) == _snap(make(), steps)


def test_a_changed_screen_fails_against_its_golden_file() -> None:
    golden = (GOLDEN / "offer.txt").read_text(encoding="utf-8")
    with pytest.raises(pytest.fail.Exception, match="differs"):
        check_golden("offer", golden.replace("Take", "Tkae"), update=False)
