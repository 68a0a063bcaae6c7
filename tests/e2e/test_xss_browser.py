"""Player names that are markup, in a real Chromium: every page shows them as text and runs nothing.

Games are created and played to the end over the JSON API with names that are the classic
payloads, then every page that shows a name is opened: the table (live and finished), the replay,
the history, the start page's list of games, the scorekeeper and the printable sheets. On each,
``window.__xss`` stays unset, no element a payload would create exists, the name reads literally,
and the page's Content-Security-Policy reported no violation (so nothing even tried to run inline).
"""

from __future__ import annotations

import http.cookiejar
import json
import time
import urllib.request
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
from e2e_chromium import MARKS, launch, serve, wait_until
from playwright import sync_api

from ginrummy.web import autoplay

pytestmark = MARKS

#: Names are at most 24 characters (the server refuses longer ones), so the payloads fit in 24.
P_IMG = "<img src=x onerror=_x=1>"
P_SVG = '"><svg onload=__xss=1>'
P_SCRIPT = "</script><script>__xss=1"
S_SVG = "<svg onload=__xss=1>"
S_SCRIPT = "<script>__xss=1</script>"

#: Runs before the page's own scripts (injected by the browser, outside the page's policy).
GUARD = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
"""
#: What a payload would have created had it been parsed as markup.
INJECTED = "img[src='x'], img[onerror], svg[onload], script:not([src]), [onload], [onerror]"


#: One player identity (the web app's cookie) for the API calls and every page of this module: the
#: games made over the API are the browser's own, so its history lists them.
JAR = http.cookiejar.CookieJar()
#: The friend's browser, who plays the invited seat.
FRIEND_JAR = http.cookiejar.CookieJar()


class Api:
    def __init__(self, base: str, jar: http.cookiejar.CookieJar = JAR) -> None:
        self.base = base
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))

    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["X-Seat-Token"] = token
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.base + path, data=data, headers=headers, method=method)
        return json.loads(self.opener.open(req, timeout=10).read())

    def create(self, names: list[str], opponent: str = "human", **overrides: Any) -> dict[str, Any]:
        body = {"opponent": opponent, "names": names, "rules": {"preset": "classic", "overrides": overrides}}
        return dict(self.call("POST", "/api/games", body))

    def play(self, game: dict[str, Any], moves: int | None = None, timeout: float = 60) -> None:
        """Play every human seat as the scripted person: to the end, or for ``moves`` moves."""
        seats = [(self, game["token"])]
        if "invite_token" in game:
            seats.append((Api(self.base, FRIEND_JAR), game["invite_token"]))
        end, made = time.monotonic() + timeout, 0
        while time.monotonic() < end:
            for api, token in seats:
                s = api.call("GET", f"/api/games/{game['id']}/state", token=token)
                if s["game"]["status"] == "finished" or (moves is not None and made >= moves):
                    return
                msg = autoplay.respond(s)
                if msg is not None:
                    path = {"action": "actions", "auto": "auto", "next": "next"}[msg["type"]]
                    api.call("POST", f"/api/games/{game['id']}/{path}", msg, token)
                    made += 1
            time.sleep(0.01)
        raise AssertionError("the game did not get there in time")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from serve(tmp_path_factory, "xss")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch(sync_api)


@pytest.fixture(scope="module")
def games(server: str) -> dict[str, dict[str, Any]]:
    """A finished friend game (two payload names), a finished game against the computer, one in play."""
    api = Api(server)
    friends = api.create([P_IMG, P_SVG], target=25)
    api.play(friends)
    computer = api.create([P_SCRIPT], opponent="simple", target=1)
    api.play(computer)
    live = api.create([P_SCRIPT, P_IMG])
    api.play(live, moves=6)
    return {"friends": friends, "computer": computer, "live": live}


class Watched:
    """A page with the violation listener installed and its errors collected."""

    def __init__(self, browser: Any) -> None:
        self.context = browser.new_context(viewport={"width": 1300, "height": 900})
        self.context.add_cookies([{"name": c.name, "value": c.value or "", "domain": c.domain, "path": c.path} for c in JAR])
        self.context.add_init_script(GUARD)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        self.page.on("console", lambda m: self.errors.append(f"console: {m.text}") if m.type == "error" else None)

    def check(self, where: str, *texts: str) -> None:
        page = self.page
        page.wait_for_timeout(150)  # let a late violation report arrive
        assert page.evaluate("typeof window.__xss + typeof window._x") == "undefinedundefined", f"{where}: a payload ran"
        assert page.evaluate(f"document.querySelectorAll({json.dumps(INJECTED)}).length") == 0, f"{where}: markup made"
        assert page.evaluate("window.__csp") == [], f"{where}: policy violations"
        assert self.errors == [], f"{where}: {self.errors}"
        shown = page.inner_text("body")
        for text in texts:
            assert text in shown, f"{where}: {text!r} is not shown as text"

    def close(self) -> None:
        self.context.close()


def test_tables_show_markup_names_as_text(server: str, browser: Any, games: dict[str, dict[str, Any]]) -> None:
    live = games["live"]
    for url, mine, theirs in ((live["url"], P_SCRIPT, P_IMG), (live["invite_url"], P_IMG, P_SCRIPT)):
        w = Watched(browser)  # one browser per seat, as two players have
        w.page.goto(server + url)
        w.page.wait_for_selector("#my-hand .card")
        assert w.page.inner_text("#opp-name") == theirs and w.page.inner_text("#my-name").startswith(mine)
        w.check("live table", mine, theirs)
        w.close()
    w = Watched(browser)
    friends = games["friends"]
    w.page.goto(server + friends["url"])
    w.page.wait_for_selector("#final:not(.hidden)")
    assert P_IMG in w.page.inner_text("#final-table") and P_SVG in w.page.inner_text("#final-table")
    w.check("finished table with the final result", P_IMG, P_SVG)
    w.page.click("#final-close")
    assert P_IMG in w.page.inner_text("#sheet") and P_SVG in w.page.inner_text("#sheet")
    w.check("finished table's sheet", P_IMG, P_SVG)
    w.close()


def test_replay_and_history_show_markup_names_as_text(server: str, browser: Any, games: dict[str, dict[str, Any]]) -> None:
    w = Watched(browser)
    for key, names in (("friends", (P_IMG, P_SVG)), ("computer", (P_SCRIPT,))):
        w.page.goto(server + "/replay/" + games[key]["id"])
        w.page.wait_for_selector("#h0 .card")
        # The game's last hand, which someone won (the first may be a dead hand: no layout to show).
        last = ("() => { const s = document.getElementById('hand'); s.value = s.options.length - 1;"
                " s.dispatchEvent(new Event('change')); }")
        w.page.evaluate(last)
        w.page.keyboard.press("End")  # the last move: the layout and the hand's explanation
        w.page.wait_for_selector("#laid .meldgroup", state="attached")
        assert all(n in w.page.inner_text("#title") for n in names)
        w.check(f"replay of the {key} game", *names)
    w.page.goto(server + "/history")
    w.page.wait_for_selector("#players td")
    w.check("history", P_IMG, P_SVG, P_SCRIPT)
    chart = w.page.eval_on_selector_all("#chart-kinds text", "els => els.map(e => e.textContent)")
    # The chart's labels are SVG text too: this browser's player under its latest name, and the friend.
    assert P_SCRIPT[:22] in chart and P_SVG[:22] in chart
    options = w.page.eval_on_selector_all("#who option", "els => els.map(e => e.textContent)")
    assert {P_SVG, P_SCRIPT} <= set(options)
    w.close()


def test_replay_hand_selector_shows_each_explanation_as_text(server: str, browser: Any, games: dict[str, dict[str, Any]]) -> None:
    game = games["friends"]
    replay = Api(server).call("GET", f"/api/games/{game['id']}/replay")
    w = Watched(browser)
    w.page.goto(server + "/replay/" + game["id"])
    w.page.wait_for_selector("#hand option", state="attached")
    # The selector holds one option per hand and nothing else (a parsed name would add elements).
    assert w.page.evaluate("document.querySelectorAll('#hand *').length") == len(replay["hands"])
    shown = w.page.eval_on_selector_all("#hand option", "els => els.map(e => e.textContent)")
    expected = [f"{h['hand']}: {h['explain'].split(':')[0][:40] if h['explain'] else ''}" for h in replay["hands"]]
    assert shown == expected
    assert any(P_IMG[:30] in t or P_SVG[:30] in t for t in shown), shown  # a name-bearing explanation
    w.check("replay hand selector")
    w.close()


def test_start_page_lists_games_as_text(server: str, browser: Any) -> None:
    w = Watched(browser)
    w.page.goto(server + "/")
    w.page.wait_for_selector("#opponent option[value='simple']", state="attached")
    # A game started from the page with a markup name joins the list; so does a tampered entry.
    w.page.fill("#name", P_SVG)
    w.page.select_option("#opponent", "simple")
    w.page.click("#start")
    w.page.wait_for_selector("#my-hand .card")
    assert w.page.inner_text("#my-name").startswith(P_SVG)
    table_url = w.page.evaluate("() => location.pathname + location.hash")
    tampered = [{"url": "javascript:window.__xss=1", "label": P_IMG, "at": 0}, {"url": table_url, "label": P_IMG, "at": 1}]
    w.page.evaluate(f"""() => {{
        const games = JSON.parse(localStorage.getItem("gr.games") || "[]");
        games.push(...{json.dumps(tampered)});
        localStorage.setItem("gr.games", JSON.stringify(games));
    }}""")
    w.page.goto(server + "/")
    w.page.wait_for_selector("#resume-list li")
    links = w.page.eval_on_selector_all("#resume-list a", "els => els.map(e => [e.textContent, e.getAttribute('href')])")
    assert [P_IMG, table_url] in links  # the label as text
    assert not any(h.startswith("javascript") for _, h in links)  # an address that is not a game in progress is left out
    assert any(t == "vs Computer (Medium)" and h.startswith("/table/") for t, h in links)
    w.check("start page", P_IMG)
    w.close()


def test_scorekeeper_shows_markup_names_as_text(server: str, browser: Any) -> None:
    w = Watched(browser)
    page = w.page
    page.goto(server + "/scorekeeper")
    page.wait_for_selector("#setup:not([hidden])")
    page.fill("#name-0", S_SVG)
    page.fill("#name-1", S_SCRIPT)
    page.click("#start")
    page.wait_for_selector("#game:not([hidden])")
    assert page.inner_text("#game-title") == f"{S_SVG} v {S_SCRIPT}"
    page.click("#knocker-0")
    page.fill("#dw-0", "3")
    page.fill("#dw-1", "25")
    page.press("#dw-1", "Enter")
    page.wait_for_selector("#sheet-body tr")
    assert S_SVG in page.inner_text("#last-hand")
    w.check("scorekeeper sheet", S_SVG, S_SCRIPT)
    # A second game, then the setup lists the first among the recent games.
    page.click("#new-game")
    page.fill("#name-0", "Ann")
    page.fill("#name-1", "Bob")
    page.click("#start")
    wait_until(page, "document.querySelector('#game-title').textContent === 'Ann v Bob'", timeout=5)
    page.click("#new-game")
    page.wait_for_selector("#recent:not([hidden])")
    assert f"{S_SVG} v {S_SCRIPT}" in page.eval_on_selector_all("#recent-list button", "els => els.map(e => e.textContent)")
    w.check("scorekeeper recent games", f"{S_SVG} v {S_SCRIPT}")
    w.close()


def test_printable_sheets_show_markup_as_text_and_their_controls_work(server: str, browser: Any) -> None:
    w = Watched(browser)
    page = w.page
    page.goto(server + "/scoresheet?names=" + quote(f"{S_SVG},{S_SCRIPT}"))
    w.check("score sheet", S_SVG, S_SCRIPT)
    # A rule named like markup is refused in words, shown as text.
    page.goto(server + "/rules?" + quote(P_IMG) + "=1")
    w.errors.clear()  # the 400 status of the page itself is logged as a console error
    w.check("rule sheet error", P_IMG)
    # The controls' script (a file now) runs under the policy: only the changed rule is sent.
    page.goto(server + "/rules")
    page.click("details summary")
    page.fill("#rule-knock_limit", "7")
    page.click("button[type=submit]")
    page.wait_for_url("**/rules?preset=classic&knock_limit=7")
    assert "Knock with at most 7" in page.inner_text(".changes")
    with page.expect_navigation():
        page.select_option("#preset", "online")
    assert page.url.endswith("/rules?preset=online")
    w.check("rule sheet controls")
    w.close()
