"""Every page on a phone, in a real Chromium with Playwright's mobile emulation, used by touch only.

Each page (start, table live and at the hand's end and the game's end, history, replay, rule
sheet, score sheet, scorekeeper) is checked at 360x740, 390x844, 430x932 and 844x390 (a phone on
its side): the page never scrolls sideways, no text is cut, every control is hit by a tap at its
centre (nothing covers it) and is at least 40 px each way. Then a hand is played by taps alone
(draw, select, tap again to discard, knock), the hand is reordered by a finger drag, and the
scorekeeper takes a hand at 360 px. ``GINRUMMY_SHOTS=dir`` saves a screenshot of each state.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from e2e_chromium import MARKS, launch, serve, wait_until
from playwright import sync_api

from ginrummy.web import autoplay

pytestmark = MARKS

SHOTS = Path(os.environ["GINRUMMY_SHOTS"]) if os.environ.get("GINRUMMY_SHOTS") else None
VIEWPORTS = [(360, 740), (390, 844), (430, 932), (844, 390)]
MIN_TARGET = 40  # px each way: a fingertip (Apple asks 44 pt, Android 48 dp, WCAG's floor is 24)

#: The layout problems of the page as it is now, as readable strings (empty: none). A control is
#: anything a finger may tap; its size is the part of it not under a neighbour (the hand's cards
#: overlap on one row). Inline links inside a sentence are exempt from the size (WCAG 2.5.8 too).
LAYOUT = r"""
(width) => {
  const problems = [];
  const name = (e) => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "")
    + (e.dataset && e.dataset.card ? `[${e.dataset.card}]` : "")
    + ` "${(e.textContent || e.value || "").trim().replace(/\s+/g, " ").slice(0, 24)}"`;
  const shown = (e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0
    && e.checkVisibility({ visibilityProperty: true, opacityProperty: false }) && !e.closest(".visually-hidden, .skip"); };
  const scroller = (e) => { for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) {
    const x = getComputedStyle(p).overflowX; if (x === "auto" || x === "scroll") return true; } return false; };
  const sw = document.scrollingElement.scrollWidth;
  if (sw > width || innerWidth > width) problems.push(`the page is ${Math.max(sw, innerWidth)} px wide on a ${width} px screen`);
  for (const e of document.querySelectorAll("body *")) {
    if (!shown(e)) continue;
    const cs = getComputedStyle(e);
    const clips = cs.overflowX === "hidden" || cs.overflowX === "clip" || cs.textOverflow === "ellipsis";
    const field = e.matches("input, textarea, select");  // a field's value scrolls inside it by design
    if (clips && !field && e.scrollWidth > e.clientWidth + 1)
      problems.push(`text cut in ${name(e)}: ${e.scrollWidth} px in ${e.clientWidth}`);
    const r = e.getBoundingClientRect();
    if (cs.position !== "fixed" && (r.right > width + 1 || r.left < -1) && !scroller(e))
      problems.push(`${name(e)} sticks out of the screen (${Math.round(r.left)} to ${Math.round(r.right)})`);
  }
  // With a dialog open (the game's end) only its own controls are expected to take a tap.
  const scope = document.querySelector(".overlay:not(.hidden)") || document;
  const targets = scope.querySelectorAll("button, a[href], select, label:has(input), summary, #my-hand .card, "
    + ".pilebox.clickable, input:not([type=checkbox]):not([type=radio]):not([type=hidden])");
  for (const e of targets) {
    if (!shown(e)) continue;
    e.scrollIntoView({ block: "center", inline: "center" });
    const r = e.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const hit = document.elementFromPoint(x, y);
    const mine = hit && (hit === e || e.contains(hit) || (hit.closest("label") && hit.closest("label").contains(e)));
    if (!mine) problems.push(`${name(e)} is covered at its centre by ${hit ? name(hit) : "nothing"}`);
    let w = r.width;
    const next = e.classList.contains("card") && e.nextElementSibling;
    if (next) {
      const n = next.getBoundingClientRect();
      if (Math.abs(n.top - r.top) < r.height / 2 && n.left > r.left) w = Math.min(w, n.left - r.left);
    }
    const inline = e.tagName === "A" && !e.classList.contains("button") && e.closest("p, li, td") && !e.closest("nav");
    if (!inline && (w < MIN || r.height < MIN))
      problems.push(`${name(e)} is ${Math.round(w)}x${Math.round(r.height)} px, under ${MIN}`);
  }
  window.scrollTo(0, 0);
  return problems;
}
""".replace("MIN", str(MIN_TARGET))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from serve(tmp_path_factory, "phone")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch(sync_api)


def phone(browser: Any, width: int, height: int, storage_state: Any = None) -> Any:
    """A touch phone's browser: mobile viewport (the page may not zoom out to fit), touch, 3x pixels;
    with ``storage_state``, holding that browser's identity cookie (and its local storage)."""
    return browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=3,
                               is_mobile=True, has_touch=True, storage_state=storage_state)


def shot(page: Any, name: str) -> None:
    if SHOTS is not None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{name}.png"))


def start(page: Any) -> None:
    """Tap Start once the page is at rest: the rules preview fills in after the options load and
    moves what is below it, and a tap aimed before the move lands elsewhere."""
    wait_until(page, "!document.getElementById('rules-preview') || document.querySelectorAll('#rules-preview li').length > 0")
    page.wait_for_timeout(100)
    page.tap("#start")


#: Every card that moves has landed (the table animates deals, draws and discards).
AT_REST = "document.getAnimations().every((a) => a.playState !== 'running')"


def check_layout(page: Any, width: int, where: str) -> None:
    """The layout at rest: after the last redraw and once every card that moves has landed."""
    page.wait_for_timeout(100)
    wait_until(page, AT_REST, timeout=10)
    problems = page.evaluate(LAYOUT, width)
    assert problems == [], f"{where} at {width} px:\n  " + "\n  ".join(problems)


class Api:
    """The JSON API through the phone's own context: its identity cookie owns the games made."""

    def __init__(self, context: Any, base: str) -> None:
        self.request, self.base = context.request, base

    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        headers = {"Content-Type": "application/json", **({"X-Seat-Token": token} if token else {})}
        res = self.request.fetch(self.base + path, method=method, headers=headers,
                                 data=json.dumps(body) if body is not None else None)
        assert res.ok, f"{method} {path}: {res.status} {res.text()}"
        return res.json()

    def finished_game(self) -> dict[str, Any]:
        """A game against the computer played to its end (game to 1) by the scripted person, in one
        hand: the replay opens at that hand, and its last step shows the knocker's melds (a dead
        first hand would show none, and the game would go on to a second)."""
        for _ in range(20):
            game = self.play_until({"target": 1}, lambda s: s["game"]["status"] == "finished")
            if self.call("GET", f"/api/games/{game['id']}/state", token=game["token"])["game"]["hand_no"] == 1:
                return game
        raise AssertionError("20 games in a row began with a dead hand")

    def defending(self) -> dict[str, Any]:
        """A game where the computer has knocked and this seat is to lay out and lay off."""
        return self.play_until({}, lambda s: s["view"]["phase"] in ("defender_layout", "layoff")
                               and s["view"]["current"] == s["seat"])

    def play_until(self, overrides: dict[str, Any], done: Any) -> dict[str, Any]:
        game = self.call("POST", "/api/games", {"opponent": "simple", "rules": {"preset": "classic", "overrides": overrides}})
        for _ in range(3000):
            s = self.call("GET", f"/api/games/{game['id']}/state", token=game["token"])
            if done(s):
                return dict(game)
            assert s["game"]["status"] != "finished", "the game ended first"
            msg = autoplay.respond(s)
            if msg is not None:
                path = {"action": "actions", "auto": "auto", "next": "next"}[msg["type"]]
                self.call("POST", f"/api/games/{game['id']}/{path}", msg, game["token"])
        raise AssertionError("the scripted game did not get there")


@pytest.fixture(scope="module")
def played(server: str, browser: Any) -> tuple[dict[str, Any], dict[str, Any], Any]:
    """One phone's games, played once for every screen size: a finished game, a game where this seat
    lays off, and the phone's identity (``storage_state``), whose history holds them. Each size's
    phone then opens the pages as that same person (and finds the games the sizes before made)."""
    ctx = phone(browser, 360, 740)
    api = Api(ctx, server)
    done, defend = api.finished_game(), api.defending()
    state = ctx.storage_state()
    ctx.close()
    return done, defend, state


@pytest.mark.parametrize(("width", "height"), VIEWPORTS, ids=[f"{w}x{h}" for w, h in VIEWPORTS])
def test_every_page_fits_the_phone_and_every_control_can_be_tapped(
    server: str, browser: Any, played: tuple[dict[str, Any], dict[str, Any], Any], width: int, height: int
) -> None:
    done, defend, identity = played
    ctx = phone(browser, width, height, identity)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    tag = f"{width}x{height}"

    page.goto(server + "/")
    page.wait_for_selector("#opponent option[value='simple']", state="attached")
    check_layout(page, width, "the start page")
    page.tap("#custom summary")  # every rule's field
    check_layout(page, width, "the start page's rule fields")
    shot(page, f"start-{tag}")
    page.tap(".prefs-toggle")  # the display preferences, folded away on a small screen
    page.wait_for_selector("#pref-theme", state="visible")
    check_layout(page, width, "the start page with its options open")

    # A friend's game: the invite link on the start page, then on the table until the friend comes.
    page.select_option("#opponent", "human")
    start(page)
    page.wait_for_selector("#invite:not(.hidden)")
    check_layout(page, width, "the start page's invite link")
    page.tap("#go")
    page.wait_for_selector("#invite-note:not(.hidden)")
    check_layout(page, width, "the table waiting for a friend")

    page.goto(server + "/")
    page.wait_for_selector("#opponent option[value='simple']", state="attached")
    page.select_option("#opponent", "simple")
    start(page)
    page.wait_for_selector("#my-hand .card")
    wait_until(page, "document.querySelectorAll('#actions button').length > 0")
    check_layout(page, width, "the table")
    shot(page, f"table-{tag}")
    page.tap("#hint")
    page.wait_for_selector("#hints:not(.hidden)")
    page.tap(".prefs-toggle")
    page.tap("label:has(#pref-big)")  # large cards, the whole hand still on the screen
    wait_until(page, "document.documentElement.dataset.big === '1'")
    check_layout(page, width, "the table with large cards and the hints")
    shot(page, f"table-big-{tag}")
    page.tap("label:has(#pref-big)")

    page.goto(server + defend["url"])
    page.wait_for_selector("#laid .meldgroup")
    wait_until(page, "document.querySelectorAll('#actions button').length > 0")
    check_layout(page, width, "the table while laying off on the knocker's melds")
    shot(page, f"layoff-{tag}")

    page.goto(server + done["url"])
    page.wait_for_selector("#final:not(.hidden)")
    check_layout(page, width, "the game's end")
    shot(page, f"final-{tag}")
    page.tap("#final-close")
    page.wait_for_selector("#handend:not(.hidden)")
    check_layout(page, width, "the table at the hand's end")
    shot(page, f"handend-{tag}")

    page.goto(server + f"/replay/{done['id']}")
    page.wait_for_selector("#h0 .card")
    page.tap("#last")
    page.wait_for_selector("#laid .meldgroup", state="attached")
    check_layout(page, width, "the replay")
    shot(page, f"replay-{tag}")

    page.goto(server + "/history")
    page.wait_for_selector("#players td")
    check_layout(page, width, "the history")
    # The charts are drawn as wide as they show, so their labels stay readable on a phone.
    page.wait_for_selector("#chart-kinds text")
    sizes = page.eval_on_selector_all(
        ".chart text", "els => els.filter(e => e.textContent).map(e => e.getBoundingClientRect().height)"
    )
    assert sizes and min(sizes) >= 10, f"history chart labels render {min(sizes or [0]):.1f} px high at {width} px"
    shot(page, f"history-{tag}")

    for path, what in (("/rules", "the rule sheet"), ("/scoresheet?names=You,Sam", "the score sheet")):
        page.goto(server + path)
        check_layout(page, width, what)
        page.tap("details summary")
        check_layout(page, width, what + " with its rule fields")
        shot(page, f"{path.strip('/').split('?')[0]}-{tag}")

    page.goto(server + "/scorekeeper")
    page.wait_for_selector("#setup:not([hidden])")
    page.tap("#rule-details summary")
    check_layout(page, width, "the scorekeeper's new game")
    page.fill("#name-0", "Ann")
    page.fill("#name-1", "Sam")
    start(page)
    page.wait_for_selector("#game:not([hidden])")
    enter_hand_by_taps(page, "knock", 0, 3, 25)
    enter_hand_by_taps(page, "gin", 1, None, 14)
    check_layout(page, width, "the scorekeeper's sheet")
    shot(page, f"scorekeeper-{tag}")
    assert errors == []
    ctx.close()


# ---------------------------------------------------------------- playing by touch

def tap_turn(page: Any, by_button: bool, end_ok: bool = True) -> tuple[int, str] | None:
    """Make one move by tapping, as a person with a phone would; returns (seq answered, what was
    done). ``end_ok`` False: discard rather than knock or go gin (so both ways of discarding are
    tapped before a deal that allows an early knock ends the hand)."""
    seen, actions, discarding, legal, after = page.evaluate(
        """() => [state ? state.seq : -1,
            [...document.querySelectorAll('#actions button')].map(e => e.dataset.action),
            !!state && state.view.current === state.seat && state.view.phase === 'discard',
            state ? state.view.legal : [], state ? state.mine.after : null]""")
    if page.is_visible("#handend") or (not actions and not discarding):
        return None
    for name in ("gin", "big-gin", "knock", "auto", "done", "pass"):
        if name in actions and (end_ok or name not in ("gin", "big-gin", "knock") or not discarding):
            page.tap(f"#actions button[data-action='{name}']")
            return int(seen), name
    if "stock" in actions:
        page.tap("#stock-box .card")  # the stock itself, not the button
        return int(seen), "stock"
    if not discarding:  # a step this script does not know by name: its first button
        page.tap("#actions button >> nth=0")
        return int(seen), str(actions[0])
    # Discard the card that leaves the least deadwood: tap it (it rises), then tap it again, or
    # every other time tap the Discard button.
    card = min((c for c in legal if re.fullmatch(r"[A2-9TJQK][shdc]", c)), key=lambda c: (after or {}).get(c, 99))
    page.tap(f"#my-hand .card[data-card='{card}']")
    assert page.is_visible(f"#my-hand .card.selected[data-card='{card}']"), f"a tap on {card} did not select it"
    assert page.is_visible("#actions button[data-action='discard']")
    page.tap("#actions button[data-action='discard']" if by_button else f"#my-hand .card[data-card='{card}']")
    return int(seen), "discard"


def wait_change(page: Any, before: int) -> None:
    wait_until(page, f"document.getElementById('handend').offsetParent !== null || (state && state.seq !== {before})", timeout=15)


TAP_VIEWPORTS = [(390, 844), (844, 390)]


@pytest.mark.parametrize(("width", "height"), TAP_VIEWPORTS, ids=[f"{w}x{h}" for w, h in TAP_VIEWPORTS])
def test_a_hand_played_by_taps_alone_with_a_knock(server: str, browser: Any, width: int, height: int) -> None:
    ctx = phone(browser, width, height)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + "/")
    page.wait_for_selector("#opponent option[value='random']", state="attached")
    page.select_option("#opponent", "random")
    start(page)
    page.wait_for_selector("#my-hand .card")
    done: list[str] = []
    phases: set[str] = set()
    for hand in range(1, 6):  # the random player rarely knocks first; a deal may still go to the stock's end
        for _ in range(300):
            if page.is_visible("#handend"):
                break
            phase = page.evaluate("state && state.view.current === state.seat ? state.view.phase : null")
            if phase and phase not in phases:  # each step of a hand as it first shows: all of it fits
                phases.add(phase)
                check_layout(page, width, f"the table at the {phase} step")
            move = tap_turn(page, by_button=done.count("discard") % 2 == 1, end_ok=done.count("discard") >= 2)
            if move is None:
                page.wait_for_timeout(30)
                continue
            done.append(move[1])
            wait_change(page, move[0])
        else:
            raise AssertionError(f"hand {hand} did not end: {done[-10:]}")
        if "knock" in done or "gin" in done:
            break
        page.tap("#next")
        wait_until(page, f"state && state.game.hand_no === {hand + 1}")
    assert done.count("discard") >= 2 and "stock" in done
    assert "knock" in done or "gin" in done, f"no knock in five hands: {done}"
    check_layout(page, width, "the table after the knock")
    shot(page, f"knocked-{width}x{height}")
    text = page.inner_text("#explain")
    assert text and page.evaluate("state.view.result.kind") in ("knock", "gin", "undercut", "big_gin"), text
    assert errors == []
    ctx.close()


def touch_drag(page: Any, points: list[tuple[float, float]]) -> None:
    """A finger on the first point, moved through the others, held still, lifted: real touch events (CDP).

    The finger rests on the last point before it lifts: lifted while moving, Chrome reads a fling,
    and the fling swallows the next tap (as on a phone)."""
    cdp = page.context.new_cdp_session(page)
    points = points + [points[-1]] * 4
    kinds = ["touchStart"] + ["touchMove"] * (len(points) - 2) + ["touchEnd"]
    for kind, (x, y) in zip(kinds, points, strict=True):
        touch = [] if kind == "touchEnd" else [{"x": x, "y": y, "id": 1}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": touch})
        page.wait_for_timeout(16 if kind == "touchMove" and (x, y) != points[-1] else 40)
    cdp.detach()


BOXES = "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })"


def test_the_hand_is_reordered_by_a_finger_drag(server: str, browser: Any) -> None:
    ctx = phone(browser, 360, 740)
    page = ctx.new_page()
    page.goto(server + "/")
    page.wait_for_selector("#opponent option[value='simple']", state="attached")
    start(page)
    page.wait_for_selector("#my-hand .card")
    wait_until(page, "state && state.view.current === state.seat")
    page.wait_for_timeout(300)
    wait_until(page, AT_REST, timeout=10)  # the deal has landed
    cards = page.eval_on_selector_all("#my-hand .card", "els => els.map(e => e.dataset.card)")
    boxes = page.eval_on_selector_all("#my-hand .card", BOXES)
    assert len({round(b[1]) for b in boxes}) == 2, "at 360 px the hand is two rows of whole cards"
    seq = page.evaluate("state.seq")

    # The first card (top row) dragged past the right half of the last one (bottom row): it goes last.
    x0, y0 = boxes[0][0] + boxes[0][2] / 2, boxes[0][1] + boxes[0][3] / 2
    lx, ly, lw, lh = boxes[-1]
    tx, ty = lx + lw - 6, ly + lh / 2
    path = [(x0, y0), (x0 + 4, y0 + 6), (x0 + 20, y0 + 30)]
    path += [(x0 + (tx - x0) * t / 5, y0 + (ty - y0) * t / 5) for t in range(1, 6)]
    touch_drag(page, path + [path[-1]])
    page.wait_for_timeout(100)
    wait_until(page, AT_REST, timeout=10)
    after = page.eval_on_selector_all("#my-hand .card", "els => els.map(e => e.dataset.card)")
    assert after == cards[1:] + cards[:1], (cards, after)
    # A drag is not a tap: nothing was selected, no move was sent, and the order is kept on reload.
    assert page.locator("#my-hand .card.selected").count() == 0 and page.evaluate("state.seq") == seq
    page.reload()
    page.wait_for_selector("#my-hand .card")
    page.wait_for_timeout(300)
    wait_until(page, AT_REST, timeout=10)  # a page opened before the first move deals out again
    assert page.eval_on_selector_all("#my-hand .card", "els => els.map(e => e.dataset.card)") == after

    # Within the top row: the new first card dropped before the third.
    boxes = page.eval_on_selector_all("#my-hand .card", BOXES)
    x0, y0 = boxes[0][0] + boxes[0][2] / 2, boxes[0][1] + boxes[0][3] / 2
    tx = boxes[2][0] + boxes[2][2] * 0.25
    touch_drag(page, [(x0, y0), (x0 + 10, y0), (x0 + (tx - x0) / 2, y0 + 3), (tx, y0), (tx, y0)])
    page.wait_for_timeout(100)
    wait_until(page, AT_REST, timeout=10)
    moved = page.eval_on_selector_all("#my-hand .card", "els => els.map(e => e.dataset.card)")
    assert moved == [after[1], after[0]] + after[2:]
    # A tap still selects; the keyboard still moves the selected card (Shift+arrow).
    page.tap(f"#my-hand .card[data-card='{moved[0]}']")
    assert page.locator(f"#my-hand .card.selected[data-card='{moved[0]}']").count() == 1
    page.keyboard.press("Shift+ArrowRight")
    assert page.eval_on_selector_all("#my-hand .card", "els => els.map(e => e.dataset.card)")[:2] == [moved[1], moved[0]]
    ctx.close()


# ---------------------------------------------------------------- the scorekeeper by touch

def enter_hand_by_taps(page: Any, kind: str, knocker: int, knocker_count: int | None, other_count: int) -> None:
    """Tap the radios, tap each count field and type on the phone's keyboard, tap Score hand."""
    page.tap(f"#kind-{kind}")
    page.tap(f"#knocker-{knocker}")
    fields = ([(knocker, knocker_count)] if knocker_count is not None else []) + [(1 - knocker, other_count)]
    for seat, count in fields:
        page.tap(f"#dw-{seat}")
        page.keyboard.press("Control+A")
        page.keyboard.type(str(count))
    before = page.locator("#sheet-body tr").count()
    page.tap("#score-hand")
    wait_until(page, f"document.querySelectorAll('#sheet-body tr').length > {before}", timeout=5)


def test_the_scorekeeper_takes_hands_by_taps_at_360_px(server: str, browser: Any) -> None:
    ctx = phone(browser, 360, 740)
    page = ctx.new_page()
    page.goto(server + "/scorekeeper")
    page.wait_for_selector("#setup:not([hidden])")
    page.tap("#name-0")
    page.keyboard.type("Ann")
    page.tap("#name-1")
    page.keyboard.type("Sam")
    start(page)
    page.wait_for_selector("#game:not([hidden])")
    enter_hand_by_taps(page, "knock", 0, 3, 25)
    assert "Ann knocked with 3" in page.inner_text("#last-hand")
    enter_hand_by_taps(page, "knock", 0, 8, 6)
    assert "Sam undercut" in page.inner_text("#last-hand")
    # A correction by tap: the form takes the hand back, and the sheet follows.
    page.tap("button[aria-label='Correct hand 1']")
    assert page.inner_text("#hand-legend") == "Correct hand 1"
    page.tap("#dw-1")
    page.keyboard.press("Control+A")
    page.keyboard.type("30")
    page.tap("#score-hand")
    wait_until(page, "document.getElementById('last-hand').textContent.includes('Hand 1 corrected')", timeout=5)
    check_layout(page, 360, "the scorekeeper after a correction")
    ctx.close()


def tap_type(page: Any, selector: str, text: str) -> None:
    page.tap(selector)
    page.keyboard.press("Control+A")
    page.keyboard.type(text)


def test_the_scorekeeper_for_three_and_for_two_teams_by_taps_at_360_px(server: str, browser: Any) -> None:
    ctx = phone(browser, 360, 740)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + "/scorekeeper")
    page.wait_for_selector("#setup:not([hidden])")
    # Four players: four names, the teams, who deals first, the team game's rules.
    page.tap("#count-4")
    for i, name in enumerate(["Annabelle", "Bartholomew", "Cy", "Dee"]):
        tap_type(page, f"#name-{i}", name)
    page.tap("#rule-details summary")
    assert page.is_visible("#rule-team_target") and page.is_hidden("#rule-target")
    check_layout(page, 360, "the scorekeeper's new game for four")
    shot(page, "scorekeeper-four-setup")
    start(page)
    page.wait_for_selector("#part-t2:not([hidden])")
    check_layout(page, 360, "the scorekeeper's form with two tables")
    page.tap("#knocker-0")
    tap_type(page, "#dw-0", "3")
    tap_type(page, "#dw-1", "25")
    page.tap("#kind-gin-t2")
    page.tap("#knocker-1-t2")
    tap_type(page, "#dw-0-t2", "14")
    page.tap("#score-hand")
    wait_until(page, "document.querySelectorAll('#sheet-body tr').length === 1", timeout=5)
    assert "Bartholomew & Dee have more points and score the difference" in page.inner_text("#last-hand")
    check_layout(page, 360, "the team sheet after a hand")
    shot(page, "scorekeeper-four")
    # Three players: the dealer sits out; the form names the two who play.
    page.tap("#new-game")
    page.tap("#count-3")
    start(page)
    page.wait_for_selector("#next-hand:not([hidden])")
    assert page.inner_text("#next-hand") == "Cy deals and sits out: Annabelle plays Bartholomew."
    page.tap("#kind-gin")
    page.tap("#knocker-1")
    tap_type(page, "#dw-0", "18")
    page.tap("#score-hand")
    wait_until(page, "document.querySelectorAll('#sheet-body tr').length === 1", timeout=5)
    assert page.inner_text("#next-hand") == "Annabelle deals and sits out: Bartholomew plays Cy."
    check_layout(page, 360, "the three-player sheet after a hand")
    shot(page, "scorekeeper-three")
    assert errors == []


def test_the_three_and_four_player_tables_fit_the_phone(server: str, browser: Any) -> None:
    """At 360 px: a seat sitting a three-player hand out, a seat playing one, and the end of a
    four-player game (the team sheet and the final screen with the bonuses)."""
    ctx = phone(browser, 360, 740)
    api = Api(ctx, server)
    page = ctx.new_page()
    page.goto(server + "/")
    page.wait_for_selector("#opponent option[value='simple']", state="attached")
    page.select_option("#players", "4")
    page.select_option("#seat-3", "human")
    check_layout(page, 360, "the start page of a four-player game")
    g = api.call("POST", "/api/games", {"players": 3, "seats": ["human", "human"]})
    tokens = [g["token"], *(i["token"] for i in g["invites"])]
    states = [api.call("GET", f"/api/games/{g['id']}/state", token=t) for t in tokens]
    out = next(s["seat"] for s in states if s["sits_out"])
    playing = next(s["seat"] for s in states if not s["sits_out"])
    for seat, where in ((out, "a seat sitting the hand out"), (playing, "a seat of the three-player hand")):
        page.close()  # a new page: a link that differs only after its '#' would not load again
        page = ctx.new_page()
        page.goto(f"{server}/table/{g['id']}#t={tokens[seat]}")
        wait_until(page, f"seatedMsg !== null && seatedMsg.seat === {seat}")
        assert page.is_visible("#seated-out") == (seat == out)
        check_layout(page, 360, where)
        shot(page, f"phone-three-{'out' if seat == out else 'in'}")
    g4 = api.call("POST", "/api/games", {"players": 4, "seats": ["simple"] * 3,
                                         "rules": {"preset": "classic", "overrides": {"team_target": 1}}})
    for _ in range(3000):
        s = api.call("GET", f"/api/games/{g4['id']}/state", token=g4["token"])
        if s["game"]["status"] == "finished":
            break
        msg = autoplay.respond(s)
        if msg is None:
            page.wait_for_timeout(20)  # the computers play
            continue
        path = {"action": "actions", "auto": "auto", "next": "next"}[msg["type"]]
        api.call("POST", f"/api/games/{g4['id']}/{path}", msg, g4["token"])
    page.goto(f"{server}/table/{g4['id']}#t={g4['token']}")
    page.wait_for_selector("#final:not(.hidden)")
    check_layout(page, 360, "the end of a four-player game")
    shot(page, "phone-four-final")
    page.tap("#final-close")
    check_layout(page, 360, "a four-player table after its game")
    ctx.close()
