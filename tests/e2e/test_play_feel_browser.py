"""Playing feels right, in a real Chromium: the layout shown at once after a knock or gin, a hand
kept grouped, laid-off cards in their run, the counts after layoffs, the knock limit on the
table, motion (and none under reduced motion), the computer's pause, an honest offline state.

The hands are exact: the servers deal fixed decks (``fixed_deck_server.py``, through
``create_app(deck_for=...)``, which no request reaches). Seat 0 is the browser; in friend games
the test plays seat 1 over the JSON API.
"""

from __future__ import annotations

import json
import os
import signal
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from e2e_chromium import MARKS, free_port, launch, start_server, wait_until
from playwright import sync_api

pytestmark = MARKS

#: The browser takes the upcard 7♣ (7-8-9-10♣) and goes gin by discarding K♦; Tc-less junk for the computer.
GIN = {"person": "As 2s 3s 4h 4d 4c 8c 9c Tc Kd", "computer": "2h 5d 8s Jd Kh 3c 6h 9d Qs 5s", "upcard": "7c",
       "stock": "Ks Qh"}
#: Seat 1 takes the upcard A♥ and knocks with 1; the browser (seat 0) lays off 4♥ 8♥ 9♥ on 5-6-7♥.
KNOCK = {"person": "4h 8h 9h Ks Kd 3d 7d Tc 2s 5c", "computer": "5h 6h 7h Js Jd Jc Qs Qd Qc 2c", "upcard": "Ah",
         "stock": "Kc Kh"}
#: The upcard 7♣ makes 7-8-9-10-J♣: all eleven cards in melds, a big gin.
BIG_GIN = {**GIN, "person": "As 2s 3s 4h 4d 4c 8c 9c Tc Jc"}
#: Counts every Web Animation started (the table's go through Element.animate).
COUNT_ANIMATIONS = """window.__anims = 0; const _animate = Element.prototype.animate;
Element.prototype.animate = function (...args) { window.__anims++; return _animate.apply(this, args); };"""


def serve(tmp: Path, deals: list[dict[str, str]]) -> tuple[str, Any]:
    port = free_port()
    proc = start_server(port, tmp / "feel.sqlite3", deals)
    return f"http://127.0.0.1:{port}", proc


def stop(proc: Any) -> None:
    proc.terminate()
    proc.wait(10)


@pytest.fixture(scope="module")
def gin_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    base, proc = serve(tmp_path_factory.mktemp("gin"), [GIN])
    yield base
    stop(proc)


@pytest.fixture(scope="module")
def knock_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    base, proc = serve(tmp_path_factory.mktemp("knock"), [KNOCK])
    yield base
    stop(proc)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch(sync_api)


def call(base: str, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json", **({"X-Seat-Token": token} if token else {})}
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, headers=headers, method=method)
    return json.loads(urllib.request.urlopen(req, timeout=10).read())


def create(base: str, opponent: str = "simple", **overrides: Any) -> dict[str, Any]:
    return dict(call(base, "POST", "/api/games", {"opponent": opponent, "rules": {"preset": "classic", "overrides": overrides}}))


class Table:
    """One browser seat at a table, its page errors collected."""

    def __init__(self, browser: Any, url: str, reduced: bool = False, init: str = "") -> None:
        motion = "reduce" if reduced else "no-preference"
        self.context = browser.new_context(viewport={"width": 1280, "height": 950}, reduced_motion=motion)
        self.context.add_init_script(COUNT_ANIMATIONS + init)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto(url)
        self.page.wait_for_selector("#my-hand .card")

    def js(self, expr: str) -> Any:
        return self.page.evaluate(expr)

    def text(self, sel: str) -> str:
        return str(self.page.inner_text(sel))

    def hand(self) -> list[str]:
        return list(self.page.eval_on_selector_all("#my-hand .card", "els => els.map(e => e.dataset.card)"))

    def wait_turn(self, phase: str) -> None:
        wait_until(self.page, f"state && state.view.current === state.seat && state.view.phase === '{phase}'")

    def click(self, action: str) -> None:
        seq = self.js("state.seq")
        self.page.click(f"#actions button[data-action='{action}']")
        wait_until(self.page, f"state.seq !== {seq}")

    def close(self) -> None:
        assert self.errors == []
        self.context.close()


def take_upcard(t: Table) -> None:
    """Take the upcard when it is offered (the computer, if it deals second... first, passes it)."""
    t.wait_turn("offer")
    t.click("pile")
    t.wait_turn("discard")


def melded(t: Table) -> list[bool]:
    return list(t.page.eval_on_selector_all("#my-hand .card", "els => els.map(e => !!e.querySelector('.meldbar'))"))


def test_gin_lays_out_the_best_melds_at_once_and_is_announced_as_gin(gin_server: str, browser: Any) -> None:
    t = Table(browser, gin_server + create(gin_server)["url"])
    # The hand is grouped: melds together, each in order, deadwood after.
    assert t.hand() == "As 2s 3s 4h 4d 4c 8c 9c Tc Kd".split()
    take_upcard(t)
    # The drawn 7♣ goes where it belongs, at the head of its run; the deadwood stays last.
    assert t.hand() == "As 2s 3s 4h 4d 4c 7c 8c 9c Tc Kd".split()
    assert t.js("document.querySelector(\"#my-hand .card[data-card='7c']\").classList.contains('new')")
    t.click("gin")
    # No "Best layout" to press first: the engine's melds are shown at once, as a proposal.
    assert t.js("state.view.phase") == "layout" and t.js("state.view.knocker_melds.length") == 0
    laid = t.text("#laid")
    assert "Gin!" in laid and "knocked" not in laid and "knocked" not in t.text("#turn")
    assert t.page.locator("#laid .meldgroup").count() == 3 and t.page.locator("#laid .deadwoodgroup").count() == 0
    assert t.page.locator("#laid .card.proposed").count() == 10
    assert all(melded(t)) and t.text("#deadwood").startswith("Deadwood 0")
    assert "Gin!" in t.text("#turn") and "Lay out the gin" in t.text("#actions button[data-action='auto']")
    # The player may lay it out another way: every legal meld is at hand.
    t.page.click("details.byhand summary")
    assert t.page.locator("details.byhand button[data-action='meld']").count() >= 3
    # A short celebration, gone by itself.
    assert t.js("!!document.querySelector('.celebrate')")
    wait_until(t.page, "!document.querySelector('.celebrate')", 5)
    t.click("auto")
    t.page.wait_for_selector("#handend:not(.hidden)")
    assert "Gin!" in t.text("#handend-title")
    t.close()


def test_big_gin_is_announced_as_big_gin(tmp_path: Path, browser: Any) -> None:
    base, proc = serve(tmp_path, [BIG_GIN])
    try:
        t = Table(browser, base + create(base, big_gin=True)["url"])
        take_upcard(t)
        t.click("big-gin")
        assert "Big gin!" in t.text("#laid") and "Big gin!" in t.text("#turn") and "knocked" not in t.text("#laid")
        assert t.page.locator("#laid .card.proposed").count() == 11 and all(melded(t))
        assert "Lay out the big gin" in t.text("#actions button[data-action='auto']")
        assert t.text(".celebrate-word") == "Big gin!"
        t.click("auto")
        t.page.wait_for_selector("#handend:not(.hidden)")
        assert "Big gin!" in t.text("#handend-title")
        t.close()
    finally:
        stop(proc)


def test_own_order_is_kept_and_a_new_card_goes_beside_its_meld(gin_server: str, browser: Any) -> None:
    t = Table(browser, gin_server + create(gin_server)["url"], init="localStorage.setItem('gr.handorder', 'own');")
    assert t.page.input_value("#pref-handorder") == "own"
    first, kd = t.page.locator("#my-hand .card").first, t.page.locator("#my-hand .card[data-card='Kd']")
    kd.drag_to(first, target_position={"x": 3, "y": 40})
    t.page.wait_for_timeout(50)
    assert t.hand()[0] == "Kd"
    take_upcard(t)
    hand = t.hand()
    assert hand[0] == "Kd" and hand[hand.index("4c") + 1:hand.index("4c") + 5] == "8c 9c Tc 7c".split()
    # Back to grouped: regrouped at once.
    t.page.click("#table-settings summary")
    t.page.select_option("#pref-handorder", "melds")
    t.page.wait_for_timeout(50)
    assert t.hand() == "As 2s 3s 4h 4d 4c 7c 8c 9c Tc Kd".split()
    t.close()


def friend_knock(base: str, browser: Any, **overrides: Any) -> tuple[Table, dict[str, Any]]:
    """A friend game where seat 1 (the API) takes the upcard A♥ and knocks with 1, then lays out."""
    g = create(base, "human", **overrides)
    t = Table(browser, base + g["url"])
    tok = g["invite_token"]

    def seat1() -> dict[str, Any]:
        return dict(call(base, "GET", f"/api/games/{g['id']}/state", token=tok))

    if seat1()["view"]["current"] == 0:
        t.wait_turn("offer")
        t.click("pass")
    for action in ("pile", "knock 2c"):
        call(base, "POST", f"/api/games/{g['id']}/actions", {"action": action, "seq": seat1()["seq"]}, tok)
    return t, {"game": g, "seat1": seat1, "token": tok}


def test_the_defender_sees_the_knockers_count_and_lays_off_in_order(knock_server: str, browser: Any) -> None:
    t, other = friend_knock(knock_server, browser)
    g, tok = other["game"], other["token"]
    # While the knocker lays out, nothing is claimed about it yet.
    wait_until(t.page, "state.view.knocker === 1")
    assert "laying out" in t.text("#laid")
    call(knock_server, "POST", f"/api/games/{g['id']}/auto", {"seq": other["seat1"]()["seq"]}, tok)
    t.wait_turn("defender_layout")
    laid = t.text("#laid")
    assert "knocked · deadwood 1" in laid  # the knocker's count, face up while the defender lays off
    assert t.page.locator("#laid .deadwoodgroup .card[data-card='Ah']").count() == 1
    run = "#laid .meldgroup:has(.card[data-card='7h']) .card"

    def run_cards() -> list[str]:
        return list(t.page.eval_on_selector_all(run, "els => els.map(e => e.dataset.card)"))

    # The layoffs shown at once, each in its place in the run, and the deadwood after them.
    assert run_cards() == "4h 5h 6h 7h 8h 9h".split()
    assert t.page.locator(f"{run}.proposed").count() == 3
    assert t.text("#deadwood") == "Deadwood 47 with the layout shown (after layoffs)"
    assert t.hand() == "4h 8h 9h 2s Ks 3d 7d Kd 5c Tc".split()  # to lay off first, then deadwood by suit
    # Lay off by hand: 8♥ then 9♥ (done first: the defender has no melds of its own).
    t.page.click("details.byhand summary")
    t.click("done")
    t.wait_turn("layoff")
    for card in ("8h", "9h"):
        seq = t.js("state.seq")
        t.page.click(f"details.byhand button[data-action='layoff']:has-text('Lay off {card[0]}♥')")
        wait_until(t.page, f"state.seq !== {seq}")
    assert run_cards() == "4h 5h 6h 7h 8h 9h".split()  # 4♥ still shown, as the rest of the plan
    assert t.page.locator(f"{run}.laid").count() == 2 and t.page.locator(f"{run}.proposed").count() == 1
    t.click("auto")
    t.page.wait_for_selector("#handend:not(.hidden)")
    assert t.text("#deadwood") == "Deadwood 47 after layoffs"
    end_run = "#handend-layout .meldgroup:has(.card[data-card='7h']) .card"
    assert t.page.eval_on_selector_all(end_run, "els => els.map(e => e.dataset.card)") == "4h 5h 6h 7h 8h 9h".split()
    assert "deadwood 47 after layoffs" in t.text("#handend-layout")
    t.close()


def test_the_hands_knock_limit_is_on_the_table(gin_server: str, knock_server: str, browser: Any) -> None:
    for base, overrides, text in (
        (gin_server, {}, "Knock limit 10"),
        (gin_server, {"oklahoma": True}, "Knock limit 7 (Oklahoma: the upcard 7♣)"),
        (knock_server, {"oklahoma": True, "oklahoma_ace_gin_only": True}, "Gin only (Oklahoma: the upcard A♥ is an ace)"),
    ):
        t = Table(browser, base + create(base, **overrides)["url"])
        assert t.text("#knock-limit") == text
        t.close()


def test_cards_move_and_reduced_motion_stops_every_animation(gin_server: str, browser: Any) -> None:
    counts = {}
    for reduced in (False, True):
        t = Table(browser, gin_server + create(gin_server)["url"], reduced=reduced)
        seen = [t.js("document.getAnimations().length")]  # the deal, when nobody has moved yet
        take_upcard(t)
        seen.append(t.js("document.getAnimations().length"))
        t.page.click("#my-hand .card[data-card='Kd']")  # selecting lifts the card (a CSS transition)
        seen.append(t.js("document.getAnimations().length"))
        t.click("gin")
        seen.append(t.js("document.getAnimations().length"))
        t.click("auto")
        counts[reduced] = (t.js("window.__anims"), max(seen))
        t.close()
    assert counts[False][0] > 10 and counts[False][1] > 0  # the deal, the draw, the celebration
    assert counts[True] == (0, 0)


def test_the_computers_pause_is_a_table_setting(gin_server: str, browser: Any) -> None:
    t = Table(browser, gin_server + create(gin_server)["url"], init="localStorage.setItem('gr.pace', '1.2');")
    assert t.page.input_value("#pref-pace") == "1.2"
    t.wait_turn("offer")
    start = time.monotonic()
    t.click("pass")  # the computer is offered the upcard next (or draws, if it passed first)
    wait_until(t.page, "state.game.last && state.game.last.seat === 1")
    assert time.monotonic() - start >= 1.1
    t.page.click("#table-settings summary")
    t.page.select_option("#pref-pace", "")  # back to the server's own (0.05 s on this test server)
    t.close()


def test_offline_the_table_says_so_refuses_moves_and_resends_one_in_flight(browser: Any, tmp_path: Path) -> None:
    port = free_port()
    db = tmp_path / "offline.sqlite3"
    proc = start_server(port, db, [GIN])
    base = f"http://127.0.0.1:{port}"
    t = Table(browser, base + create(base)["url"])
    try:
        t.wait_turn("offer")
        proc.kill()
        proc.wait(10)
        wait_until(t.page, "document.getElementById('turn').textContent.includes('Connection lost')")
        assert t.text("#turn") == "Connection lost — reconnecting…" and "Your turn" not in t.text("#felt")
        assert t.page.locator("#actions button").count() == 0 and t.js("document.body.classList.contains('offline')")
        # A move tried offline is refused in words, not dropped in silence: a click, a key.
        t.page.click("#pile-box", force=True)  # it says it cannot be used now (aria-disabled); a tap still answers
        assert "Not sent" in t.text("#error")
        t.js("document.getElementById('error').textContent = ''")
        t.page.keyboard.press("p")
        assert "Not sent" in t.text("#error")
        proc = start_server(port, db, [GIN])
        wait_until(t.page, "document.getElementById('turn').textContent.startsWith('Your turn')")
        assert t.js("state.view.phase") == "offer" and t.page.locator("#actions button[data-action='pile']").count() == 1
        # A move in flight when the server dies: frozen, sent, killed, restarted: it is sent again (same seq).
        seq = t.js("state.seq")
        os.kill(proc.pid, signal.SIGSTOP)
        t.page.click("#actions button[data-action='pile']")
        t.page.wait_for_timeout(100)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
        wait_until(t.page, "document.getElementById('turn').textContent.includes('Connection lost')")
        proc = start_server(port, db, [GIN])
        wait_until(t.page, f"state.seq > {seq} && state.view.phase === 'discard'")
        assert "7c" in t.hand() and "sent again" in t.text("#last")
        t.close()
    finally:
        proc.terminate()
        proc.wait(10)
