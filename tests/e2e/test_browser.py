"""End-to-end: a real Chromium plays through the pages by clicking, against a real server.

Debian's ``/usr/bin/chromium`` is driven by Playwright (it cannot download its own browser here).
The server is ``ginrummy serve`` on a free loopback port with its own database file.
"""

from __future__ import annotations

import os
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from e2e_chromium import MARKS, QUICK_DEALS, free_port, launch, serve, start_server, wait_until
from playwright import sync_api

SHOTS = Path(os.environ["GINRUMMY_SHOTS"]) if os.environ.get("GINRUMMY_SHOTS") else None

pytestmark = MARKS


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from serve(tmp_path_factory, "e2e")


@pytest.fixture(scope="module")
def quick_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from serve(tmp_path_factory, "e2e-quick", deals=QUICK_DEALS)


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    yield from launch(sync_api)


def shot(page: object, name: str) -> None:
    if SHOTS is not None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)  # type: ignore[attr-defined]


def start_game(page: object, base: str, opponent: str = "simple") -> None:
    page.goto(base + "/")  # type: ignore[attr-defined]
    page.wait_for_selector("#opponent option[value='simple']", state="attached")  # type: ignore[attr-defined]
    page.select_option("#opponent", opponent)  # type: ignore[attr-defined]
    page.click("#start")  # type: ignore[attr-defined]


def hand_cards(page: object) -> list[str]:
    return page.eval_on_selector_all("#my-hand .card", "els => els.map(e => e.dataset.card)")  # type: ignore[attr-defined,no-any-return]


def click_turn(page: object) -> int | None:
    """Make one move by clicking, as a person would.

    Returns the ``seq`` of the state the move answered (wait for a newer one before the next
    move: until then the page still shows the buttons it acted on), or None when there is
    nothing to do now.
    """
    # One evaluation reads the state and what it shows at the same moment.
    seen, actions, discarding, legal, cards = page.evaluate(  # type: ignore[attr-defined]
        """() => [
            state ? state.seq : -1,
            [...document.querySelectorAll('#actions button')].map(e => e.dataset.action),
            !!state && state.view.current === state.seat && state.view.phase === 'discard',
            state ? state.view.legal : [],
            [...document.querySelectorAll('#my-hand .card')].map(e => [e.dataset.card, !!e.querySelector('.meldbar')]),
        ]"""
    )
    if page.is_visible("#handend") or (not actions and not discarding):  # type: ignore[attr-defined]
        return None
    for name in ("gin", "big-gin", "knock", "auto", "pass"):
        if name in actions:
            page.click(f"#actions button[data-action='{name}']")  # type: ignore[attr-defined]
            return int(seen)
    if "stock" in actions:
        page.keyboard.press("s")  # type: ignore[attr-defined]  # the keyboard shortcut
        return int(seen)
    # Discard: select a legal card outside the melds (no meld bar), the highest first, then Discard.
    order = "A23456789TJQK"
    loose = sorted((c for c, melded in cards if not melded), key=lambda c: -order.index(c[0]))
    card = next((c for c in loose + [c for c, _ in cards] if c in legal), None)
    if card is None:
        raise AssertionError(f"no card shown is a legal discard at seq {seen}: shown {cards}, legal {sorted(legal)}")
    page.click(f"#my-hand .card[data-card='{card}']")  # type: ignore[attr-defined]
    if not page.is_visible(f"#my-hand .card.selected[data-card='{card}']"):  # type: ignore[attr-defined]
        raise AssertionError(f"clicking {card} at seq {seen} did not select it")
    page.click("#actions button[data-action='discard']")  # type: ignore[attr-defined]
    return int(seen)


def wait_change(page: object, before: int, timeout: float = 15) -> None:
    """Wait until the page shows a newer state than ``before`` (the state a move answered)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if page.is_visible("#handend") or page_seq(page) != before:  # type: ignore[attr-defined]
            return
        page.wait_for_timeout(20)  # type: ignore[attr-defined]
    error = page.text_content("#error")  # type: ignore[attr-defined]
    raise AssertionError(f"no new state {timeout} s after an action at seq {before} (page error: {error!r})")


def page_seq(page: object) -> int:
    return int(page.evaluate("state ? state.seq : -1"))  # type: ignore[attr-defined]


def play_until_hand_end(pages: list[object], max_moves: int = 400) -> None:
    for _ in range(max_moves):
        if all(p.is_visible("#handend") for p in pages):  # type: ignore[attr-defined]
            return
        acted = False
        for p in pages:
            seen = click_turn(p)
            if seen is not None:
                acted = True
                wait_change(p, seen)
        if not acted:
            pages[0].wait_for_timeout(30)  # type: ignore[attr-defined]
    raise AssertionError("the hand did not end")


def test_play_a_whole_hand_by_clicking(server: str, browser: object) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})  # type: ignore[attr-defined]
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    start_game(page, server)
    page.wait_for_selector("#my-hand .card")
    assert len(hand_cards(page)) == 10
    shot(page, "table-start")
    page.click("#arrange")
    page.wait_for_timeout(50)
    assert page.inner_text("#deadwood").startswith("Deadwood")
    # Drag the first card past the last one: the hand's order follows (and is kept across reloads).
    before = hand_cards(page)
    first = page.locator(f"#my-hand .card[data-card='{before[0]}']")
    last = page.locator(f"#my-hand .card[data-card='{before[-1]}']")
    box = last.bounding_box()
    assert box is not None
    first.drag_to(last, target_position={"x": box["width"] - 4, "y": box["height"] / 2})
    page.wait_for_timeout(50)
    after = hand_cards(page)
    assert sorted(after) == sorted(before) and after[-1] == before[0]
    play_until_hand_end([page])
    text = page.inner_text("#explain")
    assert any(w in text for w in ("knocked", "gin", "undercut", "Dead hand")), text
    shot(page, "hand-end")
    assert "Hand" in page.inner_text("#sheet") and not errors
    # The next hand is dealt by clicking Next hand.
    page.click("#next")
    wait_until(page, "state && state.game.hand_no === 2")
    assert len(hand_cards(page)) in (10, 11)
    page.close()


def test_reload_mid_hand_and_continue(server: str, browser: object) -> None:
    page = browser.new_page()  # type: ignore[attr-defined]
    start_game(page, server, "random")
    page.wait_for_selector("#my-hand .card")
    for _ in range(6):
        seen = click_turn(page)
        if seen is not None:
            wait_change(page, seen)
        else:
            page.wait_for_timeout(60)
    page.wait_for_timeout(300)  # let the computer finish its turn
    seq, cards, turn = page_seq(page), sorted(hand_cards(page)), page.inner_text("#turn")
    page.reload()
    wait_until(page, f"state && state.seq === {seq}")
    assert sorted(hand_cards(page)) == cards
    assert page.inner_text("#turn") == turn
    play_until_hand_end([page])
    page.close()


def test_two_browsers_play_a_friend_game(quick_server: str, browser: object) -> None:
    """A friend's link, names, hidden hands, and a hand played to its end by both (a quick deal: the
    games against the computer above and below deal at random)."""
    server = quick_server
    ctx_a = browser.new_context()  # type: ignore[attr-defined]
    ctx_b = browser.new_context()  # type: ignore[attr-defined]
    a = ctx_a.new_page()
    start_game(a, server, "human")
    a.wait_for_selector("#invite-url")
    link = a.input_value("#invite-url")
    assert "/table/" in link and "#t=" in link
    a.click("#go")
    b = ctx_b.new_page()
    b.goto(link)
    for p in (a, b):
        p.wait_for_selector("#my-hand .card")
        wait_until(p, "state && state.game.connected[0] && state.game.connected[1]")
    # The friend names themself on joining; both see the name, as text (escaped), never as markup.
    b.wait_for_selector("#join-name:not(.hidden)")
    b.fill("#name-input", "<i>Bea</i> & co")
    b.click("#name-save")
    for p in (a, b):
        wait_until(p, "state && state.game.names[1] === '<i>Bea</i> & co'")
    assert a.inner_text("#opp-name") == "<i>Bea</i> & co" and b.inner_text("#my-name").startswith("<i>Bea</i> & co")
    assert "<i>Bea</i> & co" in a.inner_text("#sheet") and a.locator("#sheet i, #opp-name i").count() == 0
    assert not b.is_visible("#join-name") and not a.is_visible("#join-name")
    # The game's creator renames their own seat later; the name survives the next broadcasts.
    a.click("#rename")
    a.wait_for_selector("#join-name:not(.hidden)")
    assert a.input_value("#name-input") == "Player 1"
    a.fill("#name-input", "Ann")
    a.click("#name-save")
    for p in (a, b):
        wait_until(p, "state && state.game.names[0] === 'Ann'")
    assert b.inner_text("#opp-name") == "Ann" and a.inner_text("#my-name").startswith("Ann")
    assert not a.is_visible("#join-name")
    # Each sees only their own ten cards, and the other's as backs.
    assert set(hand_cards(a)).isdisjoint(hand_cards(b))
    assert a.eval_on_selector_all("#opp-hand .card[data-card]", "els => els.length") == 0
    play_until_hand_end([a, b])
    shot(b, "friend-hand-end")
    assert a.inner_text("#explain") and a.inner_text("#explain") == b.inner_text("#explain")
    a.click("#next")
    b.wait_for_selector("#next-wait", state="attached")
    b.click("#next")
    for p in (a, b):
        wait_until(p, "state && state.game.hand_no === 2")
    ctx_a.close()
    ctx_b.close()


def test_hollywood_sheet_shows_three_games(quick_server: str, browser: object) -> None:
    """Three hands on the quick deals (two close knocks, then a gin) fill the three games' columns."""
    import json

    server = quick_server

    body = {"opponent": "simple", "rules": {"preset": "classic", "overrides": {"hollywood": True, "target": 15}}}
    req = urllib.request.Request(
        server + "/api/games", data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    g = json.loads(urllib.request.urlopen(req, timeout=10).read())
    page = browser.new_page(viewport={"width": 1400, "height": 900})  # type: ignore[attr-defined]
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + g["url"])
    page.wait_for_selector("#my-hand .card")
    assert page.locator("#sheet th.game-head").count() == 3
    for hand in range(3):
        play_until_hand_end([page])
        if page.evaluate("state.game.status === 'finished'") or hand == 2:
            break
        page.click("#next")
        wait_until(page, f"state && state.game.hand_no === {hand + 2}")
    wait_until(page, "state && state.game.sheet.length >= 1")
    finished = page.evaluate("state.game.status === 'finished'")
    if finished:
        page.click("#final-close")
    shot(page, "hollywood-sheet")
    heads = page.eval_on_selector_all("#sheet th.game-head", "els => els.map(e => e.textContent)")
    assert [h.split(" ")[0] + " " + h.split(" ")[1] for h in heads] == ["Game 1", "Game 2", "Game 3"]
    # Six total cells (two players x three games) read the server's three games.
    totals = page.eval_on_selector_all("#sheet tfoot tr:first-child th.num", "els => els.map(e => +e.textContent)")
    cols = page.evaluate("state.game.game_columns")
    assert totals == [s for c in cols for s in c["scores"]]
    assert len(page.eval_on_selector_all("#sheet tbody tr", "els => els")) == len(page.evaluate("state.game.sheet"))
    assert not errors
    page.close()


def test_server_killed_and_restarted_mid_hand(browser: object, tmp_path: Path) -> None:
    port = free_port()
    db = tmp_path / "restart.sqlite3"
    proc = start_server(port, db)
    base = f"http://127.0.0.1:{port}"
    page = browser.new_page()  # type: ignore[attr-defined]
    try:
        start_game(page, base, "simple")
        page.wait_for_selector("#my-hand .card")
        for _ in range(5):
            seen = click_turn(page)
            if seen is not None:
                wait_change(page, seen)
            else:
                page.wait_for_timeout(60)
        page.wait_for_timeout(300)
        seq, cards = page_seq(page), sorted(hand_cards(page))
        proc.kill()  # no clean shutdown: the log must already hold every acknowledged action
        proc.wait(10)
        wait_until(page, "document.getElementById('turn').textContent.includes('reconnecting')")
        proc = start_server(port, db)
        back = "document.getElementById('turn').textContent.indexOf('reconnecting') < 0"
        wait_until(page, f"state && state.seq >= {seq} && {back}")
        if page_seq(page) == seq:
            assert sorted(hand_cards(page)) == cards
        play_until_hand_end([page])
    finally:
        page.close()  # type: ignore[attr-defined]
        proc.terminate()
        proc.wait(10)
