"""The per-seat WebSocket: hello with the token, whole games, errors, two tabs, replays, reconnection."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from ginrummy.web import autoplay
from ginrummy.web.app import create_app


@pytest.fixture
def client(store_target: str) -> Iterator[TestClient]:
    """The app on each database (conftest.py's ``store_target``)."""
    app = create_app(store_target, computer_delay=0, compute="thread")
    with TestClient(app) as c:
        yield c


def hello(ws: WebSocketTestSession, token: str) -> dict[str, Any]:
    ws.send_json({"type": "hello", "token": token})
    msg = ws.receive_json()
    assert msg["type"] == "state", msg
    return msg


def until(ws: WebSocketTestSession, pred: Any, limit: int = 500) -> dict[str, Any]:
    for _ in range(limit):
        msg = ws.receive_json()
        if pred(msg):
            return msg
    raise AssertionError("expected message never came")


def play_vs_computer(ws: WebSocketTestSession, first: dict[str, Any], max_messages: int = 20000) -> dict[str, Any]:
    msg = first
    for _ in range(max_messages):
        if msg["type"] == "state" and msg["game"]["status"] == "finished":
            return msg
        out = autoplay.respond(msg)
        if out is not None:
            ws.send_json(out)
        msg = ws.receive_json()
        assert msg["type"] != "error" or msg["error"] == "stale", msg
    raise AssertionError("game did not finish")


def test_bad_hello_is_refused(client: TestClient) -> None:
    g = client.post("/api/games", json={"opponent": "simple"}).json()
    with client.websocket_connect(f"/api/ws/{g['id']}") as ws:
        ws.send_json({"type": "hello", "token": "wrong"})
        msg = ws.receive_json()
        assert msg["type"] == "error" and msg["error"] == "forbidden"
    with client.websocket_connect(f"/api/ws/{g['id']}") as ws:
        ws.send_json({"type": "action", "action": "pass"})
        assert ws.receive_json()["error"] == "malformed"
    with client.websocket_connect("/api/ws/nosuchgame") as ws:
        ws.send_json({"type": "hello", "token": g["token"]})
        assert ws.receive_json()["error"] == "not_found"


def test_whole_game_against_the_computer(client: TestClient) -> None:
    g = client.post("/api/games", json={"opponent": "simple", "rules": {"preset": "online", "overrides": {"target": 60}}}).json()
    with client.websocket_connect(f"/api/ws/{g['id']}") as ws:
        end = play_vs_computer(ws, hello(ws, g["token"]))
    final = end["game"]["final"]
    assert final["winner"] in (0, 1) and final["margin"] > 0 and end["game"]["status"] == "finished"
    assert len(end["game"]["sheet"]) >= 1


def test_malformed_messages_keep_the_socket(client: TestClient) -> None:
    g = client.post("/api/games", json={"opponent": "simple"}).json()
    with client.websocket_connect(f"/api/ws/{g['id']}") as ws:
        s = hello(ws, g["token"])

        def answer() -> dict[str, Any]:  # the computer's first move may come in between: a state
            return until(ws, lambda m: m["type"] != "state")

        ws.send_text("{oops")
        assert answer()["error"] == "malformed"
        ws.send_json({"type": "fly"})
        assert answer()["error"] == "malformed"
        ws.send_json(["action"])
        assert answer()["error"] == "malformed"
        ws.send_json({"type": "action", "action": "meld Ks", "seq": s["seq"], "ref": 7})
        err = answer()
        assert err["type"] == "error" and err["ref"] == 7 and err["error"] in ("notation", "illegal", "not_your_turn", "stale")
        ws.send_json({"type": "ping", "ref": 1})
        assert answer() == {"type": "pong", "ref": 1}


def test_two_tabs_and_replayed_messages(client: TestClient) -> None:
    g = client.post("/api/games", json={"opponent": "human"}).json()
    gid, tokens = g["id"], [g["token"], g["invite_token"]]
    with (
        client.websocket_connect(f"/api/ws/{gid}") as a0,
        client.websocket_connect(f"/api/ws/{gid}") as b0,
        client.websocket_connect(f"/api/ws/{gid}") as a1,
    ):
        hello(a0, tokens[0])
        hello(b0, tokens[0])
        hello(a1, tokens[1])
        # Presence broadcasts may be queued: ask each tab for a fresh state and read up to it.
        for ws in (a0, b0, a1):
            ws.send_json({"type": "state"})
        s = until(a0, lambda m: m["type"] == "state" and all(m["game"]["connected"]))
        first = s["view"]["current"]
        tabs = {0: (a0, b0), 1: (a1,)}
        mover = tabs[first][0]
        msg = {"type": "action", "action": "pass", "seq": s["seq"]}
        mover.send_json(msg)
        after = until(mover, lambda m: m["type"] == "state" and m["seq"] == s["seq"] + 1)
        # Every tab of both seats sees the new state.
        for ws in (a0, b0, a1):
            if ws is not mover:
                until(ws, lambda m: m["type"] == "state" and m["seq"] == s["seq"] + 1)
        # The same message again (a replay, or the other tab's late click) is stale and changes nothing.
        mover.send_json(msg)
        err = until(mover, lambda m: m["type"] == "error")
        assert err["error"] in ("stale", "not_your_turn")
        fresh = until(mover, lambda m: m["type"] == "state") if err["error"] == "stale" else after
        assert fresh["seq"] == after["seq"]


def test_reconnect_resumes_the_same_state(client: TestClient) -> None:
    g = client.post("/api/games", json={"opponent": "simple"}).json()
    with client.websocket_connect(f"/api/ws/{g['id']}") as ws:
        msg = hello(ws, g["token"])
        for _ in range(40):
            out = autoplay.respond(msg)
            if out is not None:
                ws.send_json(out)
            msg = ws.receive_json()
        while autoplay.respond(msg) is None:
            msg = ws.receive_json()
    with client.websocket_connect(f"/api/ws/{g['id']}") as ws:
        again = hello(ws, g["token"])
    assert again["view"] == msg["view"] and again["seq"] == msg["seq"]


def test_hint_answers_from_the_seats_view(client: TestClient) -> None:
    g = client.post("/api/games", json={"opponent": "simple"}).json()
    with client.websocket_connect(f"/api/ws/{g['id']}") as ws:
        msg = hello(ws, g["token"])
        while autoplay.respond(msg) is None or msg["view"]["phase"] == "over":
            msg = ws.receive_json()
        ws.send_json({"type": "hint", "ref": 3})
        h = until(ws, lambda m: m["type"] == "hint")
        assert h["ref"] == 3 and h["hints"]
        assert all(x["action"] in msg["view"]["legal"] for x in h["hints"])


def _hollywood_columns(rules: Any, results: list[dict[str, Any]]) -> list[list[int]]:
    from ginrummy.scoresheet import ScoreSheet
    from ginrummy.scoring import HandResult

    sheet = ScoreSheet(rules, [HandResult(**r) for r in results])
    return [list(sheet.game_scores(g)) for g in range(sheet.games)]


def test_hollywood_sheet_carries_three_games(client: TestClient) -> None:
    from ginrummy.rules import Rules

    overrides = {"target": 30, "hollywood": True}
    g = client.post("/api/games", json={"opponent": "simple", "rules": {"preset": "classic", "overrides": overrides}}).json()
    rules = Rules.preset("classic", **overrides)
    seen_hand_ends = 0
    with client.websocket_connect(f"/api/ws/{g['id']}") as ws:
        msg = hello(ws, g["token"])
        assert msg["game"]["hollywood"] is True and len(msg["game"]["game_columns"]) == 3
        for _ in range(20000):
            if msg["type"] == "state":
                game = msg["game"]
                cols = game["game_columns"]
                # Every state's three games equal a ScoreSheet rebuilt from the hands it lists.
                expect = _hollywood_columns(rules, [row["result"] for row in game["sheet"]])
                assert [c["scores"] for c in cols] == expect
                assert [c["game"] for c in cols] == [1, 2, 3]
                for c in cols:
                    assert c["open"] == (c["winner"] is None) == (c["closed_by"] is None)
                if game["sheet"]:
                    last = game["sheet"][-1]
                    assert last["totals"] == expect
                if msg["view"]["phase"] == "over":
                    seen_hand_ends += 1
                if game["status"] == "finished":
                    break
            out = autoplay.respond(msg)
            if out is not None:
                ws.send_json(out)
            msg = ws.receive_json()
            assert msg["type"] != "error" or msg["error"] == "stale", msg
        else:
            raise AssertionError("game did not finish")
    end = msg["game"]
    assert seen_hand_ends >= 1 and end["status"] == "finished"
    # The engine's own sheet, in the server's memory, agrees with what the seat was told.
    room = client.app.state.games.rooms.get(g["id"])  # type: ignore[attr-defined]
    if room is None:
        room = client.app.state.games.load(g["id"])  # type: ignore[attr-defined]
    sheet = room.match.sheet
    assert sheet.games == 3
    assert [c["scores"] for c in end["game_columns"]] == [list(sheet.game_scores(i)) for i in range(3)]
    assert all(not c["open"] for c in end["game_columns"]) and all(not sheet.game_open(i) for i in range(3))
    for i, c in enumerate(end["game_columns"]):
        assert c["winner"] is not None and c["scores"][c["winner"]] >= 30
        closing = end["sheet"][c["closed_by"] - 1]
        assert i in closing["closed"] and i in closing["written"]
    assert len(end["final"]["games"]) == 3


def test_friend_names_themself_on_joining(client: TestClient) -> None:
    g = client.post("/api/games", json={"opponent": "human", "names": ["Ann"]}).json()
    gid, tokens = g["id"], [g["token"], g["invite_token"]]
    with client.websocket_connect(f"/api/ws/{gid}") as a, client.websocket_connect(f"/api/ws/{gid}") as b:
        hello(a, tokens[0])
        s = hello(b, tokens[1])
        assert s["game"]["names"] == ["Ann", "Player 2"]
        b.send_json({"type": "name", "name": "x" * 41, "ref": 1})
        err = until(b, lambda m: m["type"] == "error")
        assert err["error"] == "malformed" and "at most 24 characters" in err["message"] and "(41 characters)" in err["message"]
        b.send_json({"type": "name", "name": "  <b>Bo</b> \n Smith ", "ref": 2})
        seen = until(a, lambda m: m["type"] == "state" and m["game"]["names"][1] != "Player 2")
        assert seen["game"]["names"] == ["Ann", "<b>Bo</b> Smith"]
        until(b, lambda m: m["type"] == "state" and m["game"]["names"][1] == "<b>Bo</b> Smith")
    # Stored with the seat: it survives a reload from the store and shows on the public page.
    client.app.state.games.rooms.pop(gid)  # type: ignore[attr-defined]
    assert client.get(f"/api/games/{gid}").json()["names"] == ["Ann", "<b>Bo</b> Smith"]
