"""No message to a seat ever carries a card that seat may not see.

Whole games are played over the WebSockets and every message each seat receives is kept. Once the
game is over its replay (every card face up, rebuilt by the engine from the log) gives, for each
message, the true position; the secret cards of that moment are the opponent's hidden cards, the
whole stock and the opponent's face-down knock discard. None of them may appear anywhere in the
message. Public cards are allowed: the discard pile, cards the opponent took from it, melds laid
on the table, and each hand once its owner has laid it out after a knock.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient  # noqa: E402

from ginrummy.web import autoplay  # noqa: E402
from ginrummy.web.app import create_app  # noqa: E402

CARD_RUN = re.compile(r"\b((?:[A2-9TJQK][shdc])+)\b")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(tmp_path / "hidden.sqlite3", computer_delay=0, compute="thread")
    with TestClient(app) as c:
        yield c


def cards_in(msg: Any) -> set[str]:
    """Every card named anywhere in a message (values and keys, alone or run together as in a meld)."""
    found: set[str] = set()
    for run in CARD_RUN.findall(json.dumps(msg)):
        found.update(run[i : i + 2] for i in range(0, len(run), 2))
    return found


def secrets_for(seat: int, frames: list[dict[str, Any]], k: int) -> set[str]:
    """The cards ``seat`` may not know after the first ``k`` actions of a hand."""
    f = frames[k]
    opp = 1 - seat
    secret = set(f["stock"])
    # Cards the opponent took face up from the pile are public, wherever they go next.
    taken: set[str] = set()
    for j in range(1, k + 1):
        if frames[j]["seat"] == opp and frames[j]["action"] == "pile":
            taken.add(frames[j - 1]["pile"][-1])
    if f["knocker"] == opp and f["knock_discard"] and f["knock_discard"] not in taken:
        secret.add(f["knock_discard"])
    if f["knocker"] is not None:
        # A hand goes face up once its owner has finished laying it out (melds apart from deadwood):
        # the knocker's when the defender starts, the defender's when the layoffs start.
        done = f["phase"] != "layout" if f["knocker"] == opp else f["phase"] in ("layoff", "over")
        if done:
            return secret
    public = set(taken)
    if f["knocker"] is not None:
        laid = f["knocker_melds"] if f["knocker"] == opp else f["defender_melds"]
        for m in laid:
            public.update(m)
        if f["knocker"] != opp:
            public.update(x["card"] for x in f.get("layoffs", []))
    secret.update(set(f["hands"][opp]) - public)
    return secret


def check_messages(client: TestClient, gid: str, seat: int, messages: list[dict[str, Any]]) -> int:
    replay = client.get(f"/api/games/{gid}/replay").json()
    checked = 0
    for msg in messages:
        assert "deck" not in msg and "stock" not in msg.get("view", {})
        if msg.get("type") != "state":
            continue
        hand_no = msg["game"]["hand_no"]
        frames = replay["hands"][hand_no - 1]["frames"]
        k = len(msg["view"]["events"])
        secret = secrets_for(seat, frames, k)
        # Sanity: the frame really is this message's position.
        assert sorted(frames[k]["hands"][seat]) == sorted(msg["view"]["hand"])
        leaked = cards_in(msg) & secret
        assert not leaked, f"seat {seat} was sent hidden cards {leaked} (hand {hand_no}, step {k})"
        checked += 1
    return checked


def test_two_people_never_see_each_others_hidden_cards(client: TestClient) -> None:
    g = client.post("/api/games", json={"opponent": "human", "rules": {"preset": "classic", "overrides": {"target": 80}}}).json()
    gid, tokens = g["id"], [g["token"], g["invite_token"]]
    received: list[list[dict[str, Any]]] = [[], []]
    with client.websocket_connect(f"/api/ws/{gid}") as w0, client.websocket_connect(f"/api/ws/{gid}") as w1:
        ws = [w0, w1]
        w0.send_json({"type": "hello", "token": tokens[0]})
        received[0].append(w0.receive_json())
        w1.send_json({"type": "hello", "token": tokens[1]})
        for s in (0, 1):
            received[s].append(ws[s].receive_json())
        for _ in range(5000):
            last = [received[0][-1], received[1][-1]]
            if last[0]["game"]["status"] == "finished":
                break
            mover = next(s for s in (0, 1) if autoplay.respond(last[s]) is not None)
            out = autoplay.respond(last[mover])
            assert out is not None
            ws[mover].send_json(out)
            for s in (0, 1):
                msg = ws[s].receive_json()
                assert msg["type"] == "state", msg
                received[s].append(msg)
        else:
            raise AssertionError("game did not finish")
    assert check_messages(client, gid, 0, received[0]) > 10
    assert check_messages(client, gid, 1, received[1]) > 10


def test_person_against_computer_sees_only_their_own_cards(client: TestClient) -> None:
    g = client.post("/api/games", json={"opponent": "simple", "rules": {"preset": "app", "overrides": {"target": 80}}}).json()
    received: list[dict[str, Any]] = []
    with client.websocket_connect(f"/api/ws/{g['id']}") as ws:
        ws.send_json({"type": "hello", "token": g["token"]})
        for _ in range(20000):
            msg = ws.receive_json()
            received.append(msg)
            if msg["type"] == "state" and msg["game"]["status"] == "finished":
                break
            out = autoplay.respond(msg)
            if out is not None:
                ws.send_json(out)
    assert received[-1]["game"]["status"] == "finished"
    assert check_messages(client, g["id"], 0, [m for m in received if m["type"] == "state"]) > 5


def test_the_public_game_view_has_no_cards(client: TestClient) -> None:
    g = client.post("/api/games", json={"opponent": "simple"}).json()
    pub = client.get(f"/api/games/{g['id']}").json()
    assert cards_in(pub) <= cards_in({"last": pub["last"]})
