"""Bad input to the web app, case by case: a clear 4xx naming the problem, a bounded echo, nothing changed.

Each test is one case a user found or the limits promise (``ginrummy.web.inputs``); the fuzz in
``test_web_fuzz.py`` covers the rest at random.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from ginrummy.web import inputs
from ginrummy.web.app import create_app

HUGE = 20_000_000


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(tmp_path / "safety.sqlite3", computer_delay=0, compute="thread")
    with TestClient(app) as c:
        yield c


@pytest.fixture
def game(client: TestClient) -> tuple[str, dict[str, str]]:
    """A game between two people (nothing moves unless a seat acts): its id and seat 0's token header."""
    g = client.post("/api/games", json={"opponent": "human"}).json()
    return g["id"], {"X-Seat-Token": g["token"]}


def seat_state(client: TestClient, game: tuple[str, dict[str, str]]) -> dict[str, Any]:
    r = client.get(f"/api/games/{game[0]}/state", headers=game[1])
    assert r.status_code == 200
    s = r.json()
    return {"seq": s["seq"], "view": s["view"], "names": s["game"]["names"]}


def refused(r: Any, status: int, *words: str) -> dict[str, Any]:
    """The answer is ``status`` with a JSON message holding ``words`` and quoting little."""
    assert r.status_code == status, (r.status_code, r.text[:300])
    body = r.json()
    assert isinstance(body["message"], str) and len(r.content) < 600, r.text[:300]
    for w in words:
        assert w in body["message"], body["message"]
    return body


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


# -- the cases a user found -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("overrides", "words"),
    [
        ("{bad", "Overrides must be JSON"),
        ("[1]", "Overrides must be a JSON object of rules"),
        ('{"knock_limt": 7}', "did you mean 'knock_limit'"),
        ('{"target": "x"}', "target must be a whole number"),
        (nested(1200), "nested too deeply"),  # past Python's recursion limit, under the address limit
        ('{"a":' * 40 + "1" + "}" * 40, "nested too deeply"),
        ("9" * 5000, "a number too long to read"),
    ],
)
def test_describe_with_bad_overrides_is_a_400_naming_the_problem(client: TestClient, overrides: str, words: str) -> None:
    refused(client.get("/api/rules/describe", params={"overrides": overrides}), 400, words)


def test_unknown_preset_is_a_400_with_did_you_mean_everywhere(client: TestClient) -> None:
    hint = "Unknown rule preset 'clasic' (did you mean 'classic'?)"
    refused(client.get("/api/rules/describe", params={"preset": "clasic"}), 400, hint)
    refused(client.post("/api/games", json={"rules": "clasic"}), 400, hint)
    refused(client.post("/api/games", json={"rules": {"preset": "clasic", "overrides": {}}}), 400, hint)
    refused(client.post("/api/games", json={"rules": {"preset": ["classic"]}}), 400, "The rule preset must be a name")
    refused(client.post("/api/scorekeeper/sheets", json={"rules": "clasic"}), 400, hint)
    r = client.get("/rules", params={"preset": "clasic"})
    assert r.status_code == 400 and "did you mean &#x27;classic&#x27;" in r.text


def test_a_20_mb_action_is_a_413_that_echoes_nothing(client: TestClient, game: tuple[str, dict[str, str]]) -> None:
    before = seat_state(client, game)
    body = '{"action": "' + "x" * HUGE + f'", "seq": {before["seq"]}}}'
    r = client.post(f"/api/games/{game[0]}/actions", content=body, headers={**game[1], "Content-Type": "application/json"})
    refused(r, 413, "at most 65536 bytes")
    assert "xxxx" not in r.text
    assert seat_state(client, game) == before


def test_a_long_action_under_the_body_limit_is_refused_quoting_40_characters(
    client: TestClient, game: tuple[str, dict[str, str]]
) -> None:
    before = seat_state(client, game)
    r = client.post(f"/api/games/{game[0]}/actions", json={"action": "x" * 60_000, "seq": before["seq"]}, headers=game[1])
    body = refused(r, 400, "Unknown action 'xxxx", "(60000 characters)", f"at most {inputs.MAX_ACTION} characters")
    assert body["message"].count("x") < 45
    assert seat_state(client, game) == before


def test_a_streamed_body_without_length_is_counted(client: TestClient, game: tuple[str, dict[str, str]]) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"name": "'
        for _ in range(100):
            yield b"y" * 1024
        yield b'"}'

    r = client.post(f"/api/games/{game[0]}/name", content=chunks(), headers=game[1])
    assert "content-length" not in {k.lower() for k in r.request.headers}
    refused(r, 413, "A request body can be at most 65536 bytes")


def test_a_target_of_10_to_the_30_is_a_400_naming_the_range(client: TestClient) -> None:
    words = "Rule target 10^30 is out of range: a game goes to 1..10000 points"
    refused(client.post("/api/games", json={"rules": {"preset": "classic", "overrides": {"target": 10**30}}}), 400, words)
    refused(client.get("/api/rules/describe", params={"overrides": f'{{"target": {10**30}}}'}), 400, words)
    refused(client.post("/api/scorekeeper/sheets", json={"rules": {"preset": "classic", "overrides": {"target": 10**30}}}),
            400, words)
    r = client.get("/rules", params={"target": str(10**30)})
    assert r.status_code == 400 and "a game goes to 1..10000 points" in r.text
    assert client.get("/api/games").json()["games"] == []


@pytest.mark.parametrize("path", ["/api/games", "/api/scorekeeper/sheets"])
def test_deep_json_bodies_are_a_400_nested_too_deeply(client: TestClient, path: str) -> None:
    for depth in (inputs.MAX_DEPTH + 1, 20_000):
        body = '{"names": ' + nested(depth) + "}"
        r = client.post(path, content=body, headers={"Content-Type": "application/json"})
        assert r.status_code in (400, 422) and "nested too deeply" in r.json()["message"], r.text[:200]
    ok = {"names": ["A", "B"], "rules": {"preset": "classic", "overrides": {}}}
    assert client.post(path, json=ok).status_code == 201


def test_a_deep_action_body_changes_nothing(client: TestClient, game: tuple[str, dict[str, str]]) -> None:
    before = seat_state(client, game)
    r = client.post(f"/api/games/{game[0]}/actions", content=nested(20_000), headers=game[1])
    refused(r, 400, "nested too deeply")
    assert seat_state(client, game) == before


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("x" * 25, "at most 24 characters"),
        ("x" * 50_000, "at most 24 characters"),
        ("   ", "cannot be empty"),
        ("Ann\x00", "control characters such as U+0000"),
        ("Ann\u202eevil", "control characters such as U+202E"),
        (["Ann"], "must be text"),
    ],
)
def test_a_bad_name_is_a_400(client: TestClient, game: tuple[str, dict[str, str]], name: Any, words: str) -> None:
    before = seat_state(client, game)
    refused(client.post(f"/api/games/{game[0]}/name", json={"name": name}, headers=game[1]), 400, words)
    assert seat_state(client, game) == before
    if name != "   ":  # an empty name at creation takes the default
        refused(client.post("/api/games", json={"opponent": "human", "names": [name]}), 400, words)
        r = client.post("/api/scorekeeper/sheets", json={"names": [name, "Sam"]})
        assert r.status_code == 422 and words in r.json()["message"]


def test_names_are_trimmed_and_24_characters_is_fine(client: TestClient) -> None:
    g = client.post("/api/games", json={"opponent": "human", "names": ["  Ann   Lee ", "z" * 24]}).json()
    assert client.get(f"/api/games/{g['id']}").json()["names"] == ["Ann Lee", "z" * 24]
    refused(client.post("/api/games", json={"opponent": "human", "names": ["a", "b", "c"]}), 400, "at most two names")


def test_opponent_and_status_are_checked_with_did_you_mean(client: TestClient) -> None:
    refused(client.post("/api/games", json={"opponent": "exprt"}), 400, "Unknown opponent 'exprt' (did you mean 'expert'?)")
    refused(client.post("/api/games", json={"opponent": 5}), 400, "Unknown opponent 5")
    refused(client.post("/api/games", json={"oponent": "simple"}), 400, "Unknown field 'oponent'")
    refused(client.get("/api/games", params={"status": "finshed"}), 400, "(did you mean 'finished'?)")
    assert client.get("/api/games").json()["games"] == []


@pytest.mark.parametrize(("seq", "words"), [(-1, "Seq -1 is out of range"), (10**30, "Seq 10^30 is out of range"),
                                             ("3", "must carry 'seq'"), (True, "must carry 'seq'")])
def test_seq_is_a_whole_number_in_range(client: TestClient, game: tuple[str, dict[str, str]], seq: Any, words: str) -> None:
    before = seat_state(client, game)
    refused(client.post(f"/api/games/{game[0]}/actions", json={"action": "pass", "seq": seq}, headers=game[1]), 400, words)
    assert seat_state(client, game) == before


def test_parameters_fastapi_checks_are_a_400_quoting_little(client: TestClient) -> None:
    sheet = client.post("/api/scorekeeper/sheets", json={"names": ["A", "B"]}).json()["id"]
    r = client.delete(f"/api/scorekeeper/sheets/{sheet}/hands/" + "x" * 3000)
    refused(r, 400, "Path parameter number", "(3000 characters)")
    refused(client.delete(f"/api/scorekeeper/sheets/{sheet}/hands/{10**30}"), 404, "No hand 10^30")


def test_huge_numbers_and_addresses(client: TestClient, game: tuple[str, dict[str, str]]) -> None:
    r = client.post(f"/api/games/{game[0]}/actions", content='{"seq": ' + "9" * 5000 + "}", headers=game[1])
    refused(r, 400, "a number too long to read")
    refused(client.get("/api/games/" + "a" * 10_000), 414, "The address can be at most 8192 bytes")
    refused(client.get("/api/games/" + "a" * 100), 404, "No game 'aaaa")
    refused(client.get("/api/games/nosuchgame/replay"), 404, "No game 'nosuchgame'")


# -- the WebSocket ----------------------------------------------------------------------------


def test_websocket_messages_over_the_limit_get_an_error_and_the_socket_stays(
    client: TestClient, game: tuple[str, dict[str, str]]
) -> None:
    before = seat_state(client, game)
    with client.websocket_connect(f"/api/ws/{game[0]}") as ws:
        ws.send_json({"type": "hello", "token": game[1]["X-Seat-Token"]})
        assert ws.receive_json()["type"] == "state"
        ws.send_text('{"type": "action", "action": "' + "x" * inputs.MAX_MESSAGE + '"}')
        err = ws.receive_json()
        assert err["type"] == "error" and err["error"] == "too_large" and "at most 16384 bytes" in err["message"]
        ws.send_bytes(b"{\xc3\x28}")
        assert "UTF-8" in ws.receive_json()["message"]
        ws.send_text(nested(100_000)[: inputs.MAX_MESSAGE])  # not even JSON: an unclosed nest
        assert ws.receive_json()["error"] == "malformed"
        ws.send_text(nested(5000))
        assert "nested too deeply" in ws.receive_json()["message"]
        ws.send_json({"type": "action", "action": "x" * 5000, "seq": before["seq"], "ref": "r" * 5000})
        err = ws.receive_json()
        assert err["ref"] is None and "(5000 characters)" in err["message"] and len(str(err)) < 400
        ws.send_json({"type": "x" * 5000})
        assert "(5000 characters)" in ws.receive_json()["message"]
        ws.send_json({"type": "ping", "ref": 9})
        assert ws.receive_json() == {"type": "pong", "ref": 9}
    assert seat_state(client, game) == before


def test_a_hello_over_the_limit_closes_with_1009(client: TestClient, game: tuple[str, dict[str, str]]) -> None:
    with client.websocket_connect(f"/api/ws/{game[0]}") as ws:
        ws.send_json({"type": "hello", "token": "t" * inputs.MAX_MESSAGE})
        assert ws.receive_json()["error"] == "too_large"
        with pytest.raises(WebSocketDisconnect) as e:
            ws.receive_json()
        assert e.value.code == 1009
    with client.websocket_connect(f"/api/ws/{game[0]}") as ws:
        ws.send_json({"type": "hello", "token": ["not", "text"]})
        assert ws.receive_json()["error"] == "forbidden"
        with pytest.raises(WebSocketDisconnect) as e:
            ws.receive_json()
        assert e.value.code == 4403


def test_body_limit_checks_the_declared_length_and_the_bytes_read_outside_routes() -> None:
    """The middleware alone: a bad or too large Content-Length never reaches the app, nor does a long read."""
    import asyncio

    async def app(scope: Any, receive: Any, send: Any) -> None:  # reads everything, then answers 200
        while (await receive()).get("more_body"):
            pass
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    def call(headers: list[tuple[bytes, bytes]], chunks: list[bytes]) -> tuple[int, bytes]:
        sent: list[Any] = []
        queue = [{"type": "http.request", "body": c, "more_body": i < len(chunks) - 1} for i, c in enumerate(chunks)]

        async def receive() -> Any:
            return queue.pop(0)

        async def send(message: Any) -> None:
            sent.append(message)

        scope = {"type": "http", "method": "POST", "path": "/x", "raw_path": b"/x", "query_string": b"", "headers": headers}
        asyncio.run(inputs.BodyLimit(app, max_body=10)(scope, receive, send))
        return sent[0]["status"], b"".join(m.get("body", b"") for m in sent[1:])

    assert call([(b"content-length", b"abc")], [b""])[0] == 400
    status, body = call([(b"content-length", b"11")], [b"x" * 11])
    assert status == 413 and b"at most 10 bytes; this one has 11" in body
    status, body = call([], [b"x" * 6, b"x" * 6])
    assert status == 413 and b"at most 10 bytes" in body
    assert call([], [b"x" * 5, b"x" * 5]) == (200, b"ok")
