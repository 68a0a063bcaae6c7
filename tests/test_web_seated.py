"""The web app's games of three and four players: creating them, playing, reloading, history."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ginrummy.cli import main
from ginrummy.record import game_from_record
from ginrummy.web import autoplay
from ginrummy.web.app import create_app


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(tmp_path / "seated.sqlite3", computer_delay=0, compute="thread")
    with TestClient(app) as c:
        yield c


def new_game(client: TestClient, players: int, seats: list[str], **rules: Any) -> dict[str, Any]:
    r = client.post("/api/games", json={"players": players, "seats": seats, "rules": {"preset": "classic", "overrides": rules}})
    assert r.status_code == 201, r.text
    return r.json()


def headers(token: str) -> dict[str, str]:
    return {"X-Seat-Token": token}


def state(client: TestClient, gid: str, token: str) -> dict[str, Any]:
    r = client.get(f"/api/games/{gid}/state", headers=headers(token))
    assert r.status_code == 200, r.text
    return r.json()


def step(client: TestClient, gid: str, tokens: list[str]) -> bool:
    """One move by the first seat with one to make (over HTTP); False once the game is over."""
    for t in tokens:
        s = state(client, gid, t)
        if s["game"]["status"] == "finished":
            return False
        msg = autoplay.respond(s)
        if msg is None:
            continue
        path = {"action": "actions", "auto": "auto", "next": "next"}[msg["type"]]
        r = client.post(f"/api/games/{gid}/{path}", json=msg, headers=headers(t))
        assert r.status_code == 200, r.text
        return True
    raise AssertionError("nobody has a move")


def test_seat_counts_and_mixes_are_checked(client: TestClient) -> None:
    def refused(body: dict[str, Any], *words: str) -> None:
        r = client.post("/api/games", json=body)
        assert r.status_code == 400, r.text
        for w in words:
            assert w.lower() in r.json()["message"].lower(), r.json()["message"]

    refused({"players": 5, "seats": ["simple"] * 4}, "players must be 2, 3 or 4", "5")
    refused({"players": True}, "players must be 2, 3 or 4")
    refused({"players": "3"}, "players must be 2, 3 or 4")
    refused({"players": 3, "seats": ["simple"]}, "seats must be a list of 2 players", "3-player game")
    refused({"players": 4, "seats": "simple"}, "seats must be a list of 3")
    refused({"players": 3, "seats": ["simple", "exprt"]}, "unknown seat 3 'exprt'", "did you mean 'expert'")
    refused({"players": 3, "seats": ["human", "human"], "opponent": "simple"}, "not both")
    refused({"players": 3, "seats": ["human", "simple"], "names": ["a", "b", "c", "d"]}, "at most three names")
    g = new_game(client, 3, ["human", "expert"])
    assert g["players"] == 3 and [i["seat"] for i in g["invites"]] == [1]
    assert "invite_token" not in g
    pub = client.get(f"/api/games/{g['id']}").json()
    assert pub["names"][:2] == ["Player 1", "Player 2"] and pub["names"][2].startswith("Computer (")
    assert pub["kinds"] == ["human", "human", "expert"]
    # Two computers of one strength get names apart; the creator's seat is a person.
    g4 = new_game(client, 4, ["simple", "simple", "simple"])
    names = client.get(f"/api/games/{g4['id']}").json()["names"]
    assert len(set(names)) == 4 and names[0] == "Player 1"


def test_a_seat_sitting_out_is_told_who_plays_and_cannot_move(client: TestClient) -> None:
    g = new_game(client, 3, ["human", "human"])
    tokens = [g["token"], *(i["token"] for i in g["invites"])]
    states = [state(client, g["id"], t) for t in tokens]
    out = [s for s in states if s["sits_out"]]
    assert len(out) == 1
    s = out[0]
    assert s["view"] is None and s["table"] is None and s["mine"] is None
    playing = s["game"]["pairings"][0]["seats"]
    assert s["seat"] not in playing and s["seat"] == s["game"]["pairings"][0]["dealt_by"]
    r = client.post(f"/api/games/{g['id']}/actions", json={"action": "pass", "seq": s["seq"]}, headers=headers(tokens[s["seat"]]))
    assert r.status_code == 409 and r.json()["error"] == "sits_out"
    assert "sit out this hand" in r.json()["message"]


def test_the_other_tables_moves_do_not_make_a_move_stale(client: TestClient) -> None:
    g = new_game(client, 4, ["human", "human", "human"])
    tokens = [g["token"], *(i["token"] for i in g["invites"])]
    s0 = state(client, g["id"], tokens[0])
    other = next(s for s in range(4) if s not in s0["game"]["pairings"][s0["table"]]["seats"])
    # Play every move at the other table until its hand is over (or 30 moves) ...
    for _ in range(30):
        s = state(client, g["id"], tokens[other])
        opp = s["opponent"]
        mover = other if s["view"]["current"] == s["view"]["seat"] else opp
        msg = autoplay.respond(state(client, g["id"], tokens[mover]))
        if msg is None or msg["type"] == "next":
            break
        path = {"action": "actions", "auto": "auto"}[msg["type"]]
        assert client.post(f"/api/games/{g['id']}/{path}", json=msg, headers=headers(tokens[mover])).status_code == 200
    # ... and seat 0's table is where it was: a move with its old seq still plays.
    assert state(client, g["id"], tokens[0])["seq"] == s0["seq"]
    mover = 0 if s0["view"]["current"] == s0["view"]["seat"] else s0["opponent"]
    msg = autoplay.respond(state(client, g["id"], tokens[mover]))
    assert msg is not None
    assert client.post(f"/api/games/{g['id']}/actions", json=msg, headers=headers(tokens[mover])).status_code == 200


@pytest.mark.parametrize(("players", "rules"), [(3, {"target": 40}), (4, {"team_target": 30})])
def test_a_game_reloads_after_a_restart_and_plays_to_the_end(
    tmp_path: Path, players: int, rules: dict[str, int], capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "restart.sqlite3"
    with TestClient(create_app(db, computer_delay=0, compute="thread")) as client:
        g = new_game(client, players, ["human"] * (players - 1), **rules)
        tokens = [g["token"], *(i["token"] for i in g["invites"])]
        for _ in range(25):
            if not step(client, g["id"], tokens):
                break  # (a game that ended this soon reloads finished)
        before = [state(client, g["id"], t) for t in tokens]
        cookies = dict(client.cookies)  # the same browser after the restart (its identity)
    with TestClient(create_app(db, computer_delay=0, compute="thread"), cookies=cookies) as client:
        after = [state(client, g["id"], t) for t in tokens]
        # Replayed through the engine from the log: every seat where it was, the last move's words
        # too (as with two players, who clicked "Next hand" is not kept over a restart).
        for a, b in zip(after, before, strict=True):
            for m in (a, b):
                m["game"].pop("ready")
            assert a == b
        for _ in range(20000):
            if not step(client, g["id"], tokens):
                break
        final = state(client, g["id"], tokens[0])["game"]
        assert final["status"] == "finished" and final["final"]["winner"] is not None
        # The history lists it, its statistics count every player, its record replays.
        listed = client.get("/api/history").json()["games"]
        assert [x["players"] for x in listed if x["id"] == g["id"]] == [players]
        stats = client.get("/api/stats").json()
        assert stats["players"] and all(p["hands"] > 0 for p in stats["players"] if p["you"])
        record = client.get(f"/api/games/{g['id']}/record").json()
        game = game_from_record(record)
        assert game.seats == players and game.is_over
        replay = client.get(f"/api/games/{g['id']}/replay").json()
        assert len(replay["hands"]) == len(record["hands"])
        assert replay["columns"] == final["columns"]
    # The terminal's history reads the same file: the game's line names every column, its record replays.
    capsys.readouterr()
    assert main(["history", "--db", str(db)]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if g["id"] in x)
    for column in final["columns"]:
        assert column in line
    assert main(["history", g["id"], "--db", str(db)]) == 0
    assert game_from_record(json.loads(capsys.readouterr().out)).seats == players


def test_one_person_and_computers_both_tables_move_at_once(client: TestClient) -> None:
    g = new_game(client, 4, ["simple", "simple", "simple"], team_target=30)
    with client.websocket_connect(f"/api/ws/{g['id']}") as ws:
        ws.send_json({"type": "hello", "token": g["token"]})
        seen_other_over_first = False
        for _ in range(40000):
            msg = ws.receive_json()
            if msg["type"] != "state":
                continue
            if msg["game"]["status"] == "finished":
                break
            mine = next(t for t in msg["tables"] if t["mine"])
            others = [t for t in msg["tables"] if not t["mine"]]
            if others[0]["over"] and not mine["over"]:
                seen_other_over_first = True  # the computers' table finished while the person still played
                assert others[0]["shown"]["hands"] is not None and others[0]["explain"]
            if msg["game"]["deal"] == 1 and not others[0]["over"]:
                continue  # the person thinks: the computers' table plays its hand out meanwhile
            out = autoplay.respond(msg)
            if out is not None:
                ws.send_json(out)
    assert msg["game"]["status"] == "finished"
    assert seen_other_over_first


def test_the_rules_at_the_table_say_what_three_and_four_players_change(client: TestClient) -> None:
    g3 = new_game(client, 3, ["simple", "simple"], three_player_bonuses=False)
    text3 = client.get(f"/api/games/{g3['id']}").json()["rules_text"]
    assert any("the dealer sits out; the loser of each hand deals the next" in line for line in text3)
    assert "No game, box or shutout bonuses with three players." in text3
    g4 = new_game(client, 4, ["simple"] * 3, team_target=90)
    text4 = client.get(f"/api/games/{g4['id']}").json()["rules_text"]
    assert "Game to 90 for a team." in text4 and not any("winner of each hand deals" in line for line in text4)
    two = client.post("/api/games", json={"opponent": "simple"}).json()
    text2 = client.get(f"/api/games/{two['id']}").json()["rules_text"]
    assert any("winner of each hand deals the next" in line for line in text2)


def test_the_replay_of_four_players_shows_each_deal_as_played_at_both_tables(client: TestClient) -> None:
    g = new_game(client, 4, ["human", "human", "human"], team_target=25)
    tokens = [g["token"], *(i["token"] for i in g["invites"])]
    turn = 0
    while step(client, g["id"], tokens[turn % 4 :] + tokens[: turn % 4]):  # each seat in turn asked first
        turn += 1
    replay = client.get(f"/api/games/{g['id']}/replay").json()
    hands = replay["hands"]
    assert [h["table"] for h in hands] == [0, 1] * (len(hands) // 2)
    assert [h["deal"] for h in hands] == [d for d in range(1, len(hands) // 2 + 1) for _ in (0, 1)]
    interleaved = False
    for a, b in zip(hands[::2], hands[1::2], strict=True):
        at = [[f["at"] for f in h["frames"]] for h in (a, b)]
        # Each table's frames in the order played; the deal's moves at both tables counted once each.
        assert all(x[0] == 0 and x == sorted(x) for x in at)
        assert sorted(at[0][1:] + at[1][1:]) == list(range(1, len(at[0]) + len(at[1]) - 1))
        interleaved |= at[1][1] < at[0][-1]  # the second table moved before the first was over
    assert interleaved
