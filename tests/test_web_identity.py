"""Each browser is a player (an identity cookie, no account): it sees its own games, history and
statistics; a game is open to others only once one of its players shares it."""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from ginrummy.storage import SCHEMA_VERSION
from ginrummy.web.app import create_app
from ginrummy.web.identity import COOKIE
from test_web_api import new_game, play_rest, state


class Browser:
    """One browser: its own cookie jar on the test's one client (whose event loop runs the
    computer players between requests), so a new identity on its first request."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.cookies = httpx.Cookies()

    def request(self, method: str, url: str, **kw: Any) -> httpx.Response:
        self.client.cookies = self.cookies
        try:
            return self.client.request(method, url, **kw)
        finally:
            self.cookies = self.client.cookies

    def get(self, url: str, **kw: Any) -> httpx.Response:
        return self.request("GET", url, **kw)

    def post(self, url: str, **kw: Any) -> httpx.Response:
        return self.request("POST", url, **kw)


@pytest.fixture
def app(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "games.sqlite3", computer_delay=0, compute="thread")) as c:
        yield c


def browser(client: TestClient) -> Browser:
    b = Browser(client)
    b.get("/api/options")
    assert b.cookies.get(COOKIE)
    return b


def finished_game(c: Any, **body: object) -> str:
    gid, headers = new_game(c, rules={"preset": "classic", "overrides": {"target": 30}}, **body)
    play_rest(c, gid, headers)
    return gid


def test_the_identity_cookie_is_http_only_same_site_and_lasts() -> None:
    c = TestClient(create_app(":memory:", computer_delay=0, compute="thread"))
    header = c.get("/api/options").headers["set-cookie"]
    assert header.startswith(COOKIE + "=")
    assert "HttpOnly" in header and "SameSite=Lax" in header and "Path=/" in header and "Max-Age=" in header
    # A browser that has one keeps it; a malformed one is replaced.
    assert "set-cookie" not in c.get("/api/options").headers
    c.cookies.set(COOKIE, "<script>")
    assert c.get("/api/options").headers["set-cookie"] != header


def test_history_statistics_and_replays_are_the_players_own(app: TestClient) -> None:
    ann, bo = browser(app), browser(app)
    gid = finished_game(ann)
    assert [g["id"] for g in ann.get("/api/history").json()["games"]] == [gid]
    assert bo.get("/api/history").json()["games"] == []
    assert bo.get("/api/stats").json() == {"players": [], "games": []}
    assert bo.get("/api/games").json()["games"] == []
    for path in (f"/api/games/{gid}/replay", f"/api/games/{gid}/record", f"/api/games/{gid}"):
        assert ann.get(path).status_code == 200, path
        r = bo.get(path)
        assert r.status_code == 403 and r.json()["error"] == "private", path
        assert "share" in r.json()["message"]


def test_a_shared_game_is_open_to_everyone_until_unshared(app: TestClient) -> None:
    ann, bo = browser(app), browser(app)
    gid = finished_game(ann)
    assert bo.post(f"/api/games/{gid}/share", json={"shared": True}).status_code == 403  # not a player of it
    assert ann.post(f"/api/games/{gid}/share", json={"shared": True}).json() == {"id": gid, "shared": True}
    assert bo.get(f"/api/games/{gid}/replay").status_code == 200
    assert bo.get(f"/api/games/{gid}/record").status_code == 200
    assert bo.get("/api/history").json()["games"] == []  # shared is not "mine"
    ann.post(f"/api/games/{gid}/share", json={"shared": False})
    assert bo.get(f"/api/games/{gid}/replay").status_code == 403
    r = ann.post(f"/api/games/{gid}/share", json={"shared": "yes"})
    assert r.status_code == 400 and "true or false" in r.json()["message"]


def test_a_friend_who_joins_by_link_plays_the_seat_from_then_on(app: TestClient) -> None:
    ann, bo, eve = browser(app), browser(app), browser(app)
    g = ann.post("/api/games", json={"opponent": "human"}).json()
    invite = {"X-Seat-Token": g["invite_token"]}
    state(bo, g["id"], invite)  # Bo opens the invite link
    assert [x["id"] for x in bo.get("/api/games?status=playing").json()["games"]] == [g["id"]]
    state(eve, g["id"], invite)  # the token still lets its holder act, but the seat stays Bo's
    assert eve.get("/api/games").json()["games"] == []
    assert eve.get(f"/api/games/{g['id']}", headers=invite).status_code == 200
    assert eve.get(f"/api/games/{g['id']}").status_code == 403


def test_games_in_progress_lists_only_unfinished_games(app: TestClient) -> None:
    ann = browser(app)
    done = finished_game(ann)
    playing, _ = new_game(ann)
    assert [g["id"] for g in ann.get("/api/games?status=playing").json()["games"]] == [playing]
    assert [g["id"] for g in ann.get("/api/games?status=finished").json()["games"]] == [done]
    r = ann.get("/api/games?status=everything")
    assert r.status_code == 400 and "playing" in r.json()["message"]


def test_statistics_tell_players_apart_by_identity_not_by_name(app: TestClient) -> None:
    """Everyone who plays the computer is 'Player 1' by default: two people, one name, two records."""
    ann, bo = browser(app), browser(app)
    finished_game(ann)
    finished_game(ann)
    finished_game(bo)
    a = ann.get("/api/stats").json()["players"]
    assert a[0]["you"] and a[0]["name"] == "Player 1" and a[0]["games"] == 2
    assert [p["computer"] for p in a[1:]] == [True]
    b = bo.get("/api/stats").json()["players"]
    assert b[0]["you"] and b[0]["games"] == 1


def as_schema_1(db: Path, *first: str) -> None:
    """Make a file look as schema 1 wrote it (no identities, shared flag or stored commitments),
    after running ``first`` (SQL) on it."""
    conn = sqlite3.connect(db)
    for sql in (*first, "DROP INDEX seats_player", "ALTER TABLE seats DROP COLUMN player_hash",
                "ALTER TABLE games DROP COLUMN shared", "ALTER TABLE hands DROP COLUMN commitment",
                "ALTER TABLE hands DROP COLUMN scheme", "PRAGMA user_version = 1"):
        conn.execute(sql)
    conn.commit()
    conn.close()


def test_games_stored_before_identities_stay_open_after_the_migration(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite3"
    with TestClient(create_app(db, computer_delay=0, compute="thread")) as c:
        gid = finished_game(c)
    as_schema_1(db)
    with TestClient(create_app(db, computer_delay=0, compute="thread")) as stranger:
        r = stranger.get(f"/api/games/{gid}/replay")
        assert r.status_code == 200
        stranger_replay = r.json()
    assert sqlite3.connect(db).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    # Its hands keep the commitments they were published with, under the old scheme (numbers, hand from 0).
    hands = stranger_replay["hands"]
    assert {h["scheme"] for h in hands} == {1}
    for h in hands:
        ids = ",".join(str("A23456789TJQK".index(c[0]) + 13 * "shdc".index(c[1])) for c in h["deck"])
        old = hashlib.sha256(f"{gid}:{h['hand'] - 1}:{h['nonce']}:{ids}".encode()).hexdigest()
        assert h["commitment"] == old


def test_an_oklahoma_game_stored_before_the_150_default_keeps_its_target(tmp_path: Path) -> None:
    """Oklahoma from a preset now goes to 150; a game stored earlier with no target went to 100."""
    from ginrummy.rules import Rules
    from ginrummy.storage import Store

    db = tmp_path / "old.sqlite3"
    with TestClient(create_app(db, computer_delay=0, compute="thread")) as c:
        gid, _ = new_game(c, rules={"preset": "classic", "overrides": {"oklahoma": True, "target": 100}})
    as_schema_1(db, "UPDATE games SET rules = '{\"preset\": \"classic\", \"overrides\": {\"oklahoma\": true}}'")
    row = Store(db).get_game(gid)
    assert row is not None and Rules.from_json(row.rules).target == 100
    assert Rules.preset("classic", oklahoma=True).target == 150
