"""End-to-end: whole games of three and four players in a real Chromium, by clicking.

One person with computer players at three and at four (the four-player deal's two tables play at
once), and two people at a three- and at a four-player table, each in a browser context of their
own with their own link. Short targets keep each game to a few hands; the games with computers
alone deal at random, the two people's and the Hollywood sheet's the quick deals (``QUICK_DEALS``).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from e2e_chromium import MARKS, QUICK_DEALS, launch, serve, wait_until
from playwright import sync_api

pytestmark = MARKS


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from serve(tmp_path_factory, "seated")


@pytest.fixture(scope="module")
def quick_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from serve(tmp_path_factory, "quick", deals=QUICK_DEALS)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch(sync_api)


def start(page: Any, base: str, players: int, seats: list[str], rules: dict[str, int]) -> None:
    """The start page: the seat count, who plays each other seat, a short target; Start."""
    page.goto(base + "/")
    page.wait_for_selector("#opponent option[value='simple']", state="attached")
    page.select_option("#players", str(players))
    assert not page.is_visible("#opponent") and page.is_visible("#seats")
    for i, who in enumerate(seats):
        page.select_option(f"#seat-{i + 2}", who)
    page.click("#custom summary")
    for name, value in rules.items():
        page.fill(f"#rule-{name}", str(value))
    # The three-player and team rules are offered for their own game only.
    assert page.is_visible("#rule-team_target") == (players == 4)
    assert page.is_visible("#rule-three_player_bonuses") == (players == 3)
    wait_until(page, "document.querySelector('#rules-preview li') !== null")
    page.wait_for_timeout(300)  # the preview of the rules has settled
    page.click("#start")


def click_turn(page: Any) -> int | None:
    """One move by clicking, as a person would; the seq it answered, or None (nothing to do)."""
    seen, actions, discarding, legal, cards = page.evaluate(
        """() => [
            state ? state.seq : -1,
            [...document.querySelectorAll('#actions button')].map(e => e.dataset.action),
            !!state && !!state.view && state.view.current === state.seat && state.view.phase === 'discard',
            state && state.view ? state.view.legal : [],
            [...document.querySelectorAll('#my-hand .card')].map(e => [e.dataset.card, !!e.querySelector('.meldbar')]),
        ]"""
    )
    if page.is_visible("#handend") or (not actions and not discarding):
        return None
    for name in ("gin", "big-gin", "knock", "auto", "pass"):
        if name in actions:
            page.click(f"#actions button[data-action='{name}']")
            return int(seen)
    if "stock" in actions:
        page.click("#actions button[data-action='stock']")
        return int(seen)
    order = "A23456789TJQK"
    loose = sorted((c for c, melded in cards if not melded), key=lambda c: -order.index(c[0]))
    card = next((c for c in loose + [c for c, _ in cards] if c in legal), None)
    if card is None:
        return None  # the page is between two states
    page.click(f"#my-hand .card[data-card='{card}']")
    try:
        page.click("#actions button[data-action='discard']", timeout=5000)
    except sync_api.TimeoutError:
        return None  # a new state redrew the hand between the two clicks: look again
    return int(seen)


def wait_change(page: Any, before: int, timeout: float = 30) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if page.is_visible("#handend") or page.evaluate("state ? state.seq : -1") != before:
            return
        page.wait_for_timeout(20)
    raise AssertionError(f"no new state after the move at seq {before} (page error: {page.text_content('#error')!r})")


def play_to_the_end(pages: list[Any], seen: dict[str, int], limit: float = 150) -> None:
    """Every person clicks their moves (and Next hand) until the game's end shows on every page.

    ``seen`` counts what the pages showed on the way: a seat sitting a hand out, the other table's
    finished hand (its result, and the cards its end shows).
    """
    end = time.monotonic() + limit
    while time.monotonic() < end:
        if all(p.is_visible("#final") for p in pages):
            # The last deal's tables stay listed under the end screen, the other table's end shown.
            seen["other_table"] += sum(p.locator("#seated-tables .seated-result").count() > 0 for p in pages)
            return
        acted = False
        for p in pages:
            # Read in one go: the page may redraw between two separate queries.
            out = p.evaluate(
                """() => {
                  const shown = (id) => { const e = document.getElementById(id); return !!e && !!e.offsetParent; };
                  if (!shown("seated-out")) return null;
                  return {felt: shown("felt"), text: document.getElementById("seated-out").innerText};
                }"""
            )
            if out is not None:
                seen["sat_out"] += 1
                assert not out["felt"] and "You sit out this hand" in out["text"], out
            if p.locator("#seated-tables .seated-result").count():
                seen["other_table"] += 1
            if p.is_visible("#next") and p.is_enabled("#next"):
                try:
                    p.click("#next", timeout=2000)
                except sync_api.TimeoutError:
                    pass  # the other person's click dealt the next hand first: the button went away
                acted = True
                continue
            s = click_turn(p)
            if s is not None:
                acted = True
                wait_change(p, s)
        if not acted:
            pages[0].wait_for_timeout(30)
    raise AssertionError(f"the game did not end within {limit} s")


def check_end(page: Any, columns: list[str]) -> None:
    title = page.inner_text("#final-title")
    assert (" wins " in title or " win " in title) and ", by " in title, title
    head = page.locator("#final-table tr").first.inner_text()
    for c in columns:
        assert c in head, (c, head)
    assert page.locator("#final-explain li").count() >= 2
    assert page.locator("#final-hands tr").count() >= 2  # a heading and a row per hand


def test_three_players_one_person_and_two_computers(server: str, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    start(page, server, 3, ["simple", "easy"], {"target": 15})
    page.wait_for_url("**/table/**")
    wait_until(page, "state !== null && state.players === 3")
    seen = {"sat_out": 0, "other_table": 0}
    play_to_the_end([page], seen)
    # The score sheet has one column per player; the end screen the rule set's bonuses.
    head = page.locator("#sheet thead").inner_text()
    assert "Player 1 (you)" in head and "Computer (Medium)" in head and "Computer (Easy)" in head
    check_end(page, ["Player 1 (you)", "Computer (Medium)", "Computer (Easy)"])
    assert "Game bonus" in page.inner_text("#final-table")
    # The replay names each hand's two players; the history lists the game with its three players.
    page.click("#final-replay")
    page.wait_for_url("**/replay/**")
    wait_until(page, "document.getElementById('n0').textContent !== ''")
    names = ["Player 1", "Computer (Medium)", "Computer (Easy)"]
    assert " vs ".join(names) in page.inner_text("#title")
    two = [next(n for n in names if page.inner_text(f"#n{s}").startswith(n)) for s in (0, 1)]
    assert two[0] != two[1]
    page.goto(server + "/history")
    page.wait_for_selector("#games tr >> text=Computer (Easy)")
    assert not errors, errors
    page.close()


def test_four_players_one_person_and_three_computers(server: str, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    start(page, server, 4, ["simple", "simple", "simple"], {"team_target": 10})
    page.wait_for_url("**/table/**")
    wait_until(page, "state !== null && state.players === 4")
    # Two tables play at once: this seat's own, and its partner's, seen only once its hand is over.
    assert page.locator("#seated-tables li").count() == 2
    text = page.inner_text("#seated-tables")
    assert "Table 1" in text and "Table 2" in text
    seen = {"sat_out": 0, "other_table": 0}
    play_to_the_end([page], seen)
    assert seen["sat_out"] == 0 and seen["other_table"] > 0
    head = page.locator("#sheet thead").inner_text()
    assert "(your team)" in head
    check_end(page, ["(your team)"])
    # The replay shows a deal's two tables side by side, one move of either per step, as played.
    page.click("#final-replay")
    page.wait_for_url("**/replay/**")
    wait_until(page, "document.getElementById('t2-n0') !== null && document.getElementById('t2-n0').textContent !== ''")
    assert page.inner_text("#board").startswith("Table 1:") and page.inner_text("#t2-board").startswith("Table 2:")
    assert page.inner_text("#hand-label").startswith("Deal")
    moves = page.evaluate("data.hands[0].frames.length + data.hands[1].frames.length - 2")
    assert page.get_attribute("#step", "max") == str(moves)
    for at in range(1, moves + 1):
        page.keyboard.press("ArrowRight")
        # The step's words, and the boards marked as moved with their turn lines, read in one go.
        words, turns = page.evaluate(f"""() => [
            data.hands.slice(0, 2).flatMap((h) => h.frames).find((f) => f.at === {at}).words,
            [...document.querySelectorAll('#boards .felt.moved')].map((e) => e.querySelector('.turn').innerText)]""")
        assert turns == [words], (at, turns, words)
    explain = page.inner_text("#explain")
    assert all(page.evaluate(f"data.hands[{i}].explain") in explain for i in (0, 1))
    assert page.inner_text("#commit").count("Table ") == 2
    assert not errors, errors
    page.close()


@pytest.mark.parametrize(("players", "seats", "rules"), [
    (3, ["human", "simple"], {"target": 15}),
    (4, ["human", "simple", "simple"], {"team_target": 10}),  # the friend plays for the other team
], ids=["three", "four"])
def test_two_people_each_by_their_own_link(
    quick_server: str, browser: Any, players: int, seats: list[str], rules: dict[str, int]
) -> None:
    """The friend's link, their name, and both people playing to the game's end (on the quick deals:
    the two games with computers above play random ones)."""
    server = quick_server
    ctx_a, ctx_b = browser.new_context(), browser.new_context()
    a = ctx_a.new_page()
    errors: list[str] = []
    a.on("pageerror", lambda e: errors.append(str(e)))
    start(a, server, players, seats, rules)
    a.wait_for_selector("#invite-list input")
    link = a.input_value("#invite-list input")
    assert "/table/" in link and "#t=" in link and a.inner_text("#invite-list").startswith("Seat 2")
    a.click("#go")
    # The table keeps the friend's link at hand until they join.
    a.wait_for_selector("#invite-note:not(.hidden) input")
    assert a.input_value("#invite-note input") == link
    b = ctx_b.new_page()
    b.on("pageerror", lambda e: errors.append(str(e)))
    b.goto(link)
    for p in (a, b):
        wait_until(p, f"state !== null && state.players === {players} && state.game.connected.every((x) => x)")
    assert not a.is_visible("#invite-note")
    # The friend names themself; both pages show the name.
    b.wait_for_selector("#join-name:not(.hidden)")
    b.fill("#name-input", "Bea")
    # A state message arriving while the friend types keeps what they typed (it once cleared the box).
    b.evaluate("window.before = seatedMsg; ws.send(JSON.stringify({type: 'state'}))")
    wait_until(b, "seatedMsg !== window.before")
    assert b.input_value("#name-input") == "Bea"
    b.click("#name-save")
    for p in (a, b):
        wait_until(p, "seatedMsg && seatedMsg.game.names[1] === 'Bea'")
    assert a.evaluate("seatedMsg.seat") == 0 and b.evaluate("seatedMsg.seat") == 1
    seen = {"sat_out": 0, "other_table": 0}
    play_to_the_end([a, b], seen)
    assert a.evaluate("seatedMsg.game.sheet.length") >= 2  # a second deal: both people's Next hand
    for p in (a, b):
        check_end(p, ["Bea"])
    assert not errors, errors
    ctx_a.close()
    ctx_b.close()


@pytest.mark.parametrize(("players", "rules"), [(3, {"target": 5}), (4, {"team_target": 5})], ids=["three", "four"])
def test_hollywood_sheet_at_three_and_four(quick_server: str, browser: Any, players: int, rules: dict[str, int]) -> None:
    """Hollywood with three players or two teams: three games side by side, a column per player or
    team. The quick deals score every hand in a few moves: the sheet is the point, not the play."""
    import json
    import urllib.request

    server = quick_server

    body = {"players": players, "seats": ["simple"] * (players - 1),
            "rules": {"preset": "classic", "overrides": {"hollywood": True, **rules}}}
    req = urllib.request.Request(
        server + "/api/games", data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    g = json.loads(urllib.request.urlopen(req, timeout=10).read())
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + g["url"])
    wait_until(page, f"state !== null && state.players === {players}")
    assert page.locator("#sheet th.game-head").count() == 3
    play_to_the_end([page], {"sat_out": 0, "other_table": 0}, limit=240)
    page.click("#final-close")
    heads = page.eval_on_selector_all("#sheet th.game-head", "els => els.map(e => e.textContent)")
    assert [h.split(" ")[0] + " " + h.split(" ")[1] for h in heads] == ["Game 1", "Game 2", "Game 3"]
    assert all("✓" in h for h in heads), heads  # the game ends when all three games have closed
    columns = page.evaluate("seatedMsg.game.columns")
    assert len(columns) == (3 if players == 3 else 2)
    # The sheet is the whole game's (the page's `state` is the seat's own table as two players).
    # One total cell per column and game, each the server's figure; a row per scored hand.
    totals = page.eval_on_selector_all("#sheet tfoot tr:first-child th.num", "els => els.map(e => +e.textContent)")
    cols = page.evaluate("seatedMsg.game.game_columns")
    assert totals == [s for c in cols for s in c["scores"]]
    assert page.locator("#sheet tbody tr").count() == len(page.evaluate("seatedMsg.game.sheet"))
    assert "Hollywood: three games at once" in page.inner_text("#sheet-note")
    assert not errors, errors
    page.close()
