"""After a knock the table shows the engine's layout at once: the plan in the state message, the
knock's kind and the knocker's count as each seat may know them; and a table's computer pace.

Decks are fixed through ``create_app(deck_for=...)`` (a test-only argument), so each hand is exact.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from conftest import deck_for as fixed_deck
from ginrummy.web.app import create_app

ANN = "As 2s 3s 4h 4d 4c 7c 8c 9c Kd"
BEA = "6c Tc Qh Qd Js 9h 5s 8d 3d Kh"


def deals(ann: str, bea: str, upcard: str) -> Any:
    """Ann (seat 0) and Bea (seat 1) get these cards whoever deals."""
    return lambda hand_no, dealer: fixed_deck(bea, ann, upcard) if dealer == 0 else fixed_deck(ann, bea, upcard)


def client_for(tmp_path: Path, ann: str, bea: str, upcard: str) -> Iterator[TestClient]:
    app = create_app(tmp_path / "plan.sqlite3", computer_delay=0, compute="thread", deck_for=deals(ann, bea, upcard))
    with TestClient(app) as c:
        yield c


@pytest.fixture
def knock_client(tmp_path: Path) -> Iterator[TestClient]:
    yield from client_for(tmp_path, ANN, BEA, "2h")


@pytest.fixture
def gin_client(tmp_path: Path) -> Iterator[TestClient]:
    yield from client_for(tmp_path, ANN, BEA.replace("Tc", "Th"), "Tc")


class Friends:
    """A friend game driven over HTTP: Ann is seat 0, Bea seat 1."""

    def __init__(self, c: TestClient) -> None:
        self.c = c
        g = c.post("/api/games", json={"opponent": "human"}).json()
        self.id, self.tokens = g["id"], [g["token"], g["invite_token"]]

    def state(self, seat: int) -> dict[str, Any]:
        return dict(self.c.get(f"/api/games/{self.id}/state", headers={"X-Seat-Token": self.tokens[seat]}).json())

    def send(self, seat: int, path: str, body: dict[str, Any]) -> dict[str, Any]:
        body = {**body, "seq": self.state(seat)["seq"]}
        r = self.c.post(f"/api/games/{self.id}/{path}", json=body, headers={"X-Seat-Token": self.tokens[seat]})
        assert r.status_code == 200, r.text
        return dict(r.json())

    def act(self, seat: int, action: str) -> dict[str, Any]:
        return self.send(seat, "actions", {"action": action})

    def ann_takes_the_upcard(self) -> None:
        if self.state(0)["view"]["current"] == 1:
            self.act(1, "pass")  # Ann dealt: Bea is offered the upcard first
        self.act(0, "pile")


def test_a_knock_shows_the_engines_layout_at_once_and_accepting_lays_exactly_it(knock_client: TestClient) -> None:
    f = Friends(knock_client)
    f.ann_takes_the_upcard()
    s = f.act(0, "knock Kd")
    assert s["view"]["phase"] == "layout" and s["view"]["knocker_melds"] == []
    plan = s["mine"]["plan"]
    assert sorted(map(sorted, plan["melds"])) == sorted(map(sorted, [["As", "2s", "3s"], ["4h", "4d", "4c"], ["7c", "8c", "9c"]]))
    assert plan["deadwood"] == 2 and plan["deadwood_cards"] == ["2h"] and plan["layoffs"] == []
    assert plan["actions"][-1] == "done" and all(a in s["view"]["legal"] for a in plan["actions"][:1])
    assert s["knock"] == {"kind": "knock", "deadwood": 2}
    # Bea knows a knock came, not yet what it is, and has no plan (it is not her layout).
    b = f.state(1)
    assert b["knock"] == {"kind": None, "deadwood": None} and b["mine"]["plan"] is None
    # Accepting plays the plan: the melds on the table are the ones shown.
    s = f.send(0, "auto", {})
    assert sorted(map(sorted, s["view"]["knocker_melds"])) == sorted(map(sorted, plan["melds"]))
    b = f.state(1)
    assert b["knock"] == {"kind": "knock", "deadwood": 2}  # face up now: Bea sees the count while she lays off
    bp = b["mine"]["plan"]
    run = next(i for i, m in enumerate(b["view"]["knocker_melds"]) if "8c" in m)
    assert sorted((x["card"], x["meld"]) for x in bp["layoffs"]) == [("6c", run), ("Tc", run)]
    assert bp["deadwood"] == 81 - 16 and "6c" not in bp["deadwood_cards"]  # the count after layoffs
    end = f.send(1, "auto", {})
    assert end["view"]["result"]["defender_deadwood"] == bp["deadwood"]
    assert end["knock"] == {"kind": "knock", "deadwood": 2} and end["mine"]["plan"] is None


def test_gin_is_known_as_gin_by_the_knocker_at_once_and_by_the_defender_once_laid_out(gin_client: TestClient) -> None:
    f = Friends(gin_client)
    f.ann_takes_the_upcard()
    s = f.act(0, "knock Kd")
    assert s["knock"] == {"kind": "gin", "deadwood": 0}
    assert s["mine"]["plan"]["deadwood"] == 0 and len(s["mine"]["plan"]["melds"]) == 3
    assert f.state(1)["knock"]["kind"] is None
    f.send(0, "auto", {})
    b = f.state(1)
    assert b["knock"] == {"kind": "gin", "deadwood": 0}
    assert b["mine"]["plan"]["layoffs"] == []  # nothing is laid off against gin


def test_the_pause_before_computer_moves_is_set_per_table_and_bounded(tmp_path: Path) -> None:
    app = create_app(tmp_path / "pace.sqlite3", computer_delay=0, compute="thread")
    with TestClient(app) as c:
        g = c.post("/api/games", json={"opponent": "simple"}).json()
        room = app.state.games.rooms[g["id"]]
        with c.websocket_connect(f"/api/ws/{g['id']}") as ws:
            ws.send_json({"type": "hello", "token": g["token"]})
            assert ws.receive_json()["type"] == "state"
            for bad in (-1, 6, "slow", True, [1]):
                ws.send_json({"type": "pace", "seconds": bad, "ref": 1})
                while (m := ws.receive_json())["type"] == "state":
                    pass
                assert m["type"] == "error" and "pause" in m["message"], m
            assert room.pace is None
            ws.send_json({"type": "pace", "seconds": 1.5})
            ws.send_json({"type": "ping", "ref": 2})
            while ws.receive_json() != {"type": "pong", "ref": 2}:
                pass
            assert room.pace == 1.5
            ws.send_json({"type": "pace", "seconds": None})
            ws.send_json({"type": "ping", "ref": 3})
            while ws.receive_json() != {"type": "pong", "ref": 3}:
                pass
            assert room.pace is None
