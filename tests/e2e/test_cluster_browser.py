"""End-to-end on several instances: real Chromium pages, two ``ginrummy serve`` instances on one
real PostgreSQL server, and Debian's nginx in front of them with the deployed site
(deploy/nginx-ginrummy.conf): a friend game whose players are on different instances, and an
instance killed with SIGKILL mid-game whose player carries on through nginx on the other. (The
friend game's two instances are the same app dealing the quick deals, ``fixed_deck_server.py``.)"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from e2e_chromium import MARKS, QUICK_DEALS, launch, wait_until
from playwright import sync_api
from test_browser import click_turn, hand_cards, page_seq, play_until_hand_end, start_game, wait_change

from ginrummy.storage import Store
from instances import free_port, start_instance, start_pair
from proxy import remove, start_proxy

pytestmark = MARKS


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    yield from launch(sync_api)


def test_a_friend_game_with_the_players_on_two_instances(pg_server: Any, browser: Any, tmp_path: Path) -> None:
    """Every move of a hand crosses from one instance to the other (the quick deals: a hand of a few
    moves, where a random one took dozens by the two people)."""
    db = pg_server.fresh_url()
    a, b = start_pair(db, tmp_path, delay=0.05, deals=QUICK_DEALS)
    ctx_a, ctx_b = browser.new_context(), browser.new_context()
    try:
        pa = ctx_a.new_page()
        start_game(pa, a.base, "human")
        pa.wait_for_selector("#invite-url")
        link = pa.input_value("#invite-url")
        assert link.startswith(a.base + "/table/")
        pa.click("#go")
        pb = ctx_b.new_page()
        pb.goto(b.base + link[len(a.base):])  # the friend opens the link on the other instance
        for p in (pa, pb):
            p.wait_for_selector("#my-hand .card")
            wait_until(p, "state && state.game.connected[0] && state.game.connected[1]")
        assert set(hand_cards(pa)).isdisjoint(hand_cards(pb))
        play_until_hand_end([pa, pb])
        assert pa.inner_text("#explain") and pa.inner_text("#explain") == pb.inner_text("#explain")
        pa.click("#next")
        pb.wait_for_selector("#next-wait", state="attached")
        pb.click("#next")
        for p in (pa, pb):
            wait_until(p, "state && state.game.hand_no === 2")
        assert page_seq(pa) == page_seq(pb)
    finally:
        ctx_a.close()
        ctx_b.close()
        a.stop()
        b.stop()


def test_through_nginx_a_killed_instance_moves_its_player_to_the_other(
    pg_server: Any, browser: Any, tmp_path: Path
) -> None:
    db = pg_server.fresh_url()
    a = start_instance(db, tmp_path, delay=0.05, name="a")
    b_port = free_port()
    proxy = start_proxy([a.port, b_port], tmp_path / "nginx")  # b is not up yet: the page lands on a
    b = None
    page = browser.new_page()
    try:
        start_game(page, proxy.base, "simple")
        page.wait_for_selector("#my-hand .card")
        game_id = page.evaluate("state.game.id")
        for _ in range(5):
            seen = click_turn(page)
            if seen is not None:
                wait_change(page, seen)
            else:
                page.wait_for_timeout(60)
        b = start_instance(db, tmp_path, delay=0.05, name="b", port=b_port)
        page.wait_for_timeout(300)
        seq, cards = page_seq(page), sorted(hand_cards(page))
        a.kill()  # mid-game, no shutdown: the page's socket drops and it reconnects through nginx
        back = "document.getElementById('turn').textContent.indexOf('reconnecting') < 0"
        wait_until(page, f"state && state.seq >= {seq} && {back}")
        if page_seq(page) == seq:
            assert sorted(hand_cards(page)) == cards
        play_until_hand_end([page])
        assert f"/api/ws/{game_id}" in b.log_text()  # the game went on through b
    finally:
        page.close()
        remove(proxy)
        a.stop()
        if b is not None:
            b.stop()
    store = Store(db)
    try:
        stored = store.load_match(game_id)  # nothing lost: the log replays through the hand's end
        assert stored is not None and stored.match.hands[0].is_over
    finally:
        store.close()
