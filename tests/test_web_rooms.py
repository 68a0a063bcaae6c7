"""Games in memory: a game nobody has open leaves the server's memory after ``ROOM_IDLE`` seconds
and is replayed from the store when opened again, with nothing lost; a game in use stays."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ginrummy.web import autoplay, games
from ginrummy.web.app import create_app
from ginrummy.web.games import ROOM_IDLE, GameService


@pytest.fixture
def client(store_target: str) -> Iterator[TestClient]:
    app = create_app(store_target, computer_delay=0, compute="thread")
    with TestClient(app) as c:
        yield c


def service_of(client: TestClient) -> GameService:
    service: GameService = client.app.state.games  # type: ignore[attr-defined]
    return service


def on_loop(client: TestClient, fn: Any, *args: Any) -> Any:
    """Run ``fn`` on the app's event loop (where the service lives), not beside it."""
    return client.portal.call(fn, *args)  # type: ignore[union-attr]


def later() -> float:
    return time.monotonic() + ROOM_IDLE + 1


def play_some(client: TestClient, gid: str, token: str, messages: int = 40) -> dict[str, Any]:
    """Play ``messages`` messages, then leave at a state where it is the person's move."""
    with client.websocket_connect(f"/api/ws/{gid}") as ws:
        ws.send_json({"type": "hello", "token": token})
        msg = ws.receive_json()
        for _ in range(messages):
            out = autoplay.respond(msg) if msg["type"] == "state" else None
            if out is not None:
                ws.send_json(out)
            msg = ws.receive_json()
        while msg["type"] != "state" or autoplay.respond(msg) is None:
            msg = ws.receive_json()
        ws.send_json({"type": "pace", "seconds": 2})  # a choice of the person's, to be kept
        ws.send_json({"type": "ping"})
        assert until_type(ws, "pong")
    return msg


def until_type(ws: Any, kind: str) -> dict[str, Any]:
    for _ in range(100):
        msg = ws.receive_json()
        if msg["type"] == kind:
            return msg  # type: ignore[no-any-return]
    raise AssertionError(f"no {kind} message came")


def wait_unwatched(client: TestClient, gid: str) -> None:
    """Until the server has seen the socket close (it learns of it on its own loop)."""
    service = service_of(client)
    for _ in range(500):
        if not on_loop(client, lambda: any(service.rooms[gid].connections)):
            return
        time.sleep(0.01)
    raise AssertionError("the server never saw the socket close")


def test_a_game_left_alone_leaves_memory_and_resumes_from_the_store(client: TestClient) -> None:
    g = client.post("/api/games", json={"opponent": "simple"}).json()
    gid = g["id"]
    left = play_some(client, gid, g["token"])
    wait_unwatched(client, gid)
    service = service_of(client)
    assert on_loop(client, service.evict_idle) == 0  # just used: it stays a while
    assert on_loop(client, service.evict_idle, later()) == 1
    assert gid not in service.rooms
    with client.websocket_connect(f"/api/ws/{gid}") as ws:
        ws.send_json({"type": "hello", "token": g["token"]})
        again = ws.receive_json()
        # The same game, replayed from the store: the same view, sheet, log and sequence number.
        assert again["seq"] == left["seq"]
        for key in ("view", "mine", "knock", "log"):
            assert again[key] == left[key], key
        assert {k: v for k, v in again["game"].items() if k != "connected"} == {
            k: v for k, v in left["game"].items() if k != "connected"
        }
        # The pace the person chose was stored, so it survives too.
        assert service.rooms[gid].pace == 2.0
        ws.send_json({"type": "pace", "seconds": 0})  # and no pause from here on, to play on quickly
        msg = again
        for _ in range(3000):  # and it plays on to the end
            if msg["type"] == "state" and msg["game"]["status"] == "finished":
                break
            out = autoplay.respond(msg) if msg["type"] == "state" else None
            if out is not None:
                ws.send_json(out)
            msg = ws.receive_json()
            assert msg["type"] != "error" or msg["error"] == "stale", msg
        assert msg["game"]["status"] == "finished"


def test_a_game_in_use_stays_in_memory(client: TestClient) -> None:
    g = client.post("/api/games", json={"opponent": "simple"}).json()
    gid = g["id"]
    service = service_of(client)
    with client.websocket_connect(f"/api/ws/{gid}") as ws:
        ws.send_json({"type": "hello", "token": g["token"]})
        ws.receive_json()
        assert on_loop(client, service.evict_idle, later()) == 0  # a connection is open
    wait_unwatched(client, gid)
    room = service.rooms[gid]
    release = on_loop(client, asyncio.Event)

    async def computer_thinking() -> None:  # a computer's turn still under way
        room.computer_tasks[9] = asyncio.create_task(release.wait())

    on_loop(client, computer_thinking)
    assert on_loop(client, service.evict_idle, later()) == 0
    on_loop(client, release.set)
    for _ in range(100):
        if on_loop(client, room.computer_tasks[9].done):
            break
        time.sleep(0.01)

    async def lock_held() -> int:  # a request changing the game holds its lock
        async with room.lock:
            return service.evict_idle(later())

    assert on_loop(client, lock_held) == 0
    assert on_loop(client, service.evict_idle, later()) == 1


def test_the_server_sweeps_idle_games_by_itself(store_target: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(games, "ROOM_IDLE", 0.2)
    monkeypatch.setattr(games, "ROOM_SWEEP_EVERY", 0.1)
    app = create_app(store_target, computer_delay=0, compute="thread")
    with TestClient(app) as client:
        g = client.post("/api/games", json={"opponent": "simple"}).json()  # created, never opened
        service = service_of(client)
        deadline = time.monotonic() + 10
        while g["id"] in service.rooms and time.monotonic() < deadline:
            time.sleep(0.05)
        assert g["id"] not in service.rooms
        # Opened later, it is read back from the store.
        state = client.get(f"/api/games/{g['id']}/state", headers={"X-Seat-Token": g["token"]})
        assert state.status_code == 200, state.text
        assert state.json()["game"]["status"] == "playing"


@pytest.mark.parametrize("players", [2, 3])
def test_score_sheet_rows_are_built_once_and_again_when_a_name_changes(tmp_path: Any, players: int) -> None:
    from test_web_seated import new_game, step

    with TestClient(create_app(tmp_path / "sheet.sqlite3", computer_delay=0, compute="thread")) as client:
        service = service_of(client)
        g = new_game(client, players, ["human"] * (players - 1))
        gid, tokens = g["id"], [g["token"], *(i["token"] for i in g["invites"])]
        room = service.rooms[gid]
        for _ in range(5000):
            if len(room.match.sheet.rows) >= 2 or not step(client, gid, tokens):
                break
        assert len(room.match.sheet.rows) >= 2

        def cached_and_fresh() -> tuple[Any, Any]:
            cached = service.public(room)["sheet"]
            room.sheet_cache.clear()
            return cached, service.public(room)["sheet"]

        cached, fresh = on_loop(client, cached_and_fresh)
        assert cached == fresh
        assert on_loop(client, lambda: service.public(room)["sheet"][0] is room.sheet_cache[0][2])  # built once
        # A seat that played the first hand (with three, one sits each hand out).
        seat = cached[0]["tables"][0]["pairing"]["seats"][0] if players > 2 else 0
        r = client.post(f"/api/games/{gid}/name", json={"name": "Zelda"}, headers={"X-Seat-Token": tokens[seat]})
        assert r.status_code == 200, r.text
        renamed = r.json()["game"]["sheet"]
        cached, fresh = on_loop(client, cached_and_fresh)
        assert renamed == cached == fresh
        if players > 2:  # a row's explanation names the players
            assert "Zelda" in json.dumps(renamed)
