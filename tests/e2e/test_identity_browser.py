"""In Chromium: each browser is its own player. Its games in progress and its history are its own,
a finished game opens to others only when shared, and the replay checks each deal against the
commitment this browser was shown at the table (with or without ``crypto.subtle``)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from e2e_chromium import MARKS, launch, serve, wait_until
from playwright import sync_api

from ginrummy.web import autoplay

pytestmark = MARKS


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from serve(tmp_path_factory, "ident")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch(sync_api)


def play_out(context: Any, base: str, game: dict[str, Any], timeout: float = 60) -> None:
    """Play the person's seat to the end through the API, as this browser (its identity cookie)."""
    headers = {"X-Seat-Token": game["token"]}
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        s = context.request.get(f"{base}/api/games/{game['id']}/state", headers=headers).json()
        if s["game"]["status"] == "finished":
            return
        msg = autoplay.respond(s)
        if msg is None:
            time.sleep(0.02)
            continue
        path = {"action": "actions", "auto": "auto", "next": "next"}[msg["type"]]
        r = context.request.post(f"{base}/api/games/{game['id']}/{path}", data=msg, headers=headers)
        assert r.ok, r.text()
    raise AssertionError("the game did not finish")


def new_game(context: Any, base: str, target: int = 1) -> dict[str, Any]:
    """A game against the computer, as this browser; to 1 point, so that ``play_out`` ends it with the
    first hand anybody wins (what these tests check needs a finished game, not a long one)."""
    body = {"opponent": "simple", "names": ["Ann"], "rules": {"preset": "classic", "overrides": {"target": target}}}
    r = context.request.post(base + "/api/games", data=body)
    assert r.status == 201, r.text()
    return dict(r.json())


def remember(page: Any, game: dict[str, Any]) -> None:
    """Open the game's table, as the start page does: it joins the browser's list and notes the deal."""
    page.goto(game["url"])
    page.wait_for_selector("#my-hand .card")
    wait_until(page, "document.getElementById('deckhash').textContent.length === 64")


def test_games_in_progress_and_history_are_this_browsers_own(server: str, browser: Any) -> None:
    ann, bo = browser.new_context(base_url=server), browser.new_context(base_url=server)
    page = ann.new_page()
    page.goto("/")
    done, playing = new_game(ann, server), new_game(ann, server)
    remember(page, done)
    remember(page, playing)
    play_out(ann, server, done)
    page.goto("/")
    page.wait_for_selector("#resume-list li")
    links = page.eval_on_selector_all("#resume-list a", "els => els.map(e => e.getAttribute('href'))")
    assert links == [playing["url"]]  # the finished game left the list
    page.goto("/history")
    page.wait_for_selector("#games td")
    assert "Ann (you)" in page.inner_text("#players")
    assert page.eval_on_selector_all("#games a[href^='/replay/']", "els => els.length") == 1
    other = bo.new_page()
    other.goto("/history")
    wait_until(other, "!document.getElementById('empty').classList.contains('hidden')")
    assert other.eval_on_selector_all("#games a", "els => els.length") == 0
    other.goto("/")
    other.wait_for_selector("#opponent option[value='simple']", state="attached")
    assert other.is_hidden("#resume")
    ann.close()
    bo.close()


def test_a_finished_game_opens_to_others_only_when_shared(server: str, browser: Any) -> None:
    ann, bo = browser.new_context(base_url=server), browser.new_context(base_url=server)
    game = new_game(ann, server)
    play_out(ann, server, game)
    stranger = bo.new_page()
    stranger.goto(f"/replay/{game['id']}")
    wait_until(stranger, "document.getElementById('error').textContent.length > 0")
    assert "private" in stranger.inner_text("#error")
    page = ann.new_page()
    page.goto("/history")
    page.wait_for_selector(f"span.share[data-game='{game['id']}'] input")
    page.check(f"span.share[data-game='{game['id']}'] input")
    wait_until(page, "document.querySelector('span.share .muted').textContent.includes('anyone')")
    stranger.goto(f"/replay/{game['id']}")
    stranger.wait_for_selector("#h0 .card")
    wait_until(stranger, "document.getElementById('commit').textContent.length > 0")
    assert "did not see this hand" in stranger.inner_text("#commit")
    ann.close()
    bo.close()


@pytest.mark.parametrize("subtle", [True, False], ids=["crypto.subtle", "js-sha256"])
def test_the_replay_checks_each_deal_against_what_this_browser_saw(server: str, browser: Any, subtle: bool) -> None:
    ann = browser.new_context(base_url=server)
    if not subtle:  # as on a plain-HTTP address other than localhost, where browsers offer no crypto.subtle
        ann.add_init_script("Object.defineProperty(crypto, 'subtle', { get: () => undefined });")
    page = ann.new_page()
    page.goto("/")
    game = new_game(ann, server)
    remember(page, game)
    seen = page.inner_text("#deckhash")
    play_out(ann, server, game)
    page.goto(f"/replay/{game['id']}")
    wait_until(page, "document.getElementById('commit').textContent.length > 0")
    text = page.inner_text("#commit")
    assert text.startswith("Deal checked") and seen[:16] in text
    # Were the value this browser noted another, the replay would say so.
    page.evaluate(f"""() => {{
        const key = "gr.deals.{game['id']}";
        localStorage.setItem(key, JSON.stringify({{1: "0".repeat(64)}}));
    }}""")
    page.reload()
    wait_until(page, "document.getElementById('commit').textContent.length > 0")
    assert page.inner_text("#commit").startswith("Deal does NOT match")
    ann.close()
