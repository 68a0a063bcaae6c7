"""The web app's HTTP API: creating games, tokens, errors that change nothing, history, replay, resume."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient  # noqa: E402

from ginrummy.rules import GROUP_RULES, RULE_NAMES  # noqa: E402
from ginrummy.web import autoplay  # noqa: E402
from ginrummy.web.app import create_app  # noqa: E402


@pytest.fixture
def db(store_target: str) -> str:
    """The games store, on each database (conftest.py's ``store_target``)."""
    return store_target


@pytest.fixture
def sqlite_db(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    app = create_app(db, computer_delay=0, compute="thread")
    with TestClient(app) as c:
        yield c


def new_game(client: TestClient, **body: Any) -> tuple[str, dict[str, str]]:
    r = client.post("/api/games", json={"opponent": "simple", **body})
    assert r.status_code == 201, r.text
    g = r.json()
    return g["id"], {"X-Seat-Token": g["token"]}


def state(client: TestClient, gid: str, headers: dict[str, str]) -> dict[str, Any]:
    r = client.get(f"/api/games/{gid}/state", headers=headers)
    assert r.status_code == 200, r.text
    return r.json()


def wait_my_move(client: TestClient, gid: str, headers: dict[str, str], timeout: float = 10) -> dict[str, Any]:
    """Poll until it is this seat's move (the computer plays in the background)."""
    end = time.monotonic() + timeout
    while True:
        s = state(client, gid, headers)
        if autoplay.respond(s) is not None or s["game"]["status"] == "finished":
            return s
        assert time.monotonic() < end, "the computer never answered"
        time.sleep(0.01)


def play_rest(client: TestClient, gid: str, headers: dict[str, str], max_steps: int = 3000) -> dict[str, Any]:
    """Play the seat with the scripted person over plain HTTP until the game is over."""
    for _ in range(max_steps):
        s = wait_my_move(client, gid, headers)
        if s["game"]["status"] == "finished":
            return s
        msg = autoplay.respond(s)
        assert msg is not None
        path = {"action": "actions", "auto": "auto", "next": "next"}[msg["type"]]
        r = client.post(f"/api/games/{gid}/{path}", json=msg, headers=headers)
        assert r.status_code == 200, r.text
    raise AssertionError("game did not finish")


def test_options_list_every_rule_and_strength(client: TestClient) -> None:
    o = client.get("/api/options").json()
    assert {r["name"] for r in o["rules"]} == set(RULE_NAMES)
    # The three- and four-player rules say which game they belong to (the start page shows them there only).
    assert {r["name"]: r.get("players") for r in o["rules"] if r["name"] in GROUP_RULES} == {
        "three_player_bonuses": 3, "team_target": 4, "team_bonuses": 4
    }
    assert all("players" not in r for r in o["rules"] if r["name"] not in GROUP_RULES)
    assert {"classic", "online", "app"} <= set(o["presets"])
    assert "simple" in o["strengths"] and "expert" in o["strengths"]


def test_pages_are_served(client: TestClient) -> None:
    for path in ("/", "/table/abc", "/history", "/replay/abc", "/rules", "/static/table.js", "/static/common.js"):
        assert client.get(path).status_code == 200, path


def test_state_needs_the_seat_token(client: TestClient) -> None:
    gid, headers = new_game(client)
    assert client.get(f"/api/games/{gid}/state").status_code == 403
    assert client.get(f"/api/games/{gid}/state", headers={"X-Seat-Token": "nope"}).status_code == 403
    bearer = {"Authorization": "Bearer " + headers["X-Seat-Token"]}
    assert client.get(f"/api/games/{gid}/state", headers=bearer).status_code == 200
    # The public view names the players and the score but holds no cards.
    pub = client.get(f"/api/games/{gid}").json()
    assert "view" not in pub and pub["names"] == ["Player 1", "Computer (Medium)"]
    s = state(client, gid, headers)
    assert len(s["view"]["hand"]) == 10 and s["seat"] == 0
    assert client.get("/api/games/doesnotexist/state", headers=headers).status_code == 404


def test_errors_are_clear_and_change_nothing(client: TestClient) -> None:
    gid, headers = new_game(client, rules={"preset": "classic", "overrides": {"first_dealer": "random"}})
    s = wait_my_move(client, gid, headers)
    seq = s["seq"]

    def post(body: Any, path: str = "actions") -> Any:
        return client.post(f"/api/games/{gid}/{path}", json=body, headers=headers)

    r = post({"action": "knock Zz", "seq": seq})
    assert r.status_code == 400 and r.json()["error"] == "notation"
    r = post({"action": "done", "seq": seq})
    assert r.status_code == 409 and r.json()["error"] == "illegal" and r.json()["rule"]
    r = post({"action": s["view"]["legal"][0]})
    assert r.status_code == 400 and "seq" in r.json()["message"]
    r = post({"action": s["view"]["legal"][0], "seq": seq - 1})
    assert r.status_code == 409 and r.json()["error"] == "stale"
    r = post([1, 2])
    assert r.status_code == 400 and r.json()["error"] == "malformed"
    r = post({"action": 7, "seq": seq})
    assert r.status_code == 400
    r = client.post(f"/api/games/{gid}/actions", content=b"{not json", headers=headers)
    assert r.status_code == 400
    r = post({"seq": seq}, "auto")
    assert r.status_code == 409 and r.json()["error"] == "not_layout"
    after = state(client, gid, headers)
    assert after["seq"] == seq and after["view"] == s["view"]


def test_out_of_turn_is_refused(client: TestClient) -> None:
    r = client.post("/api/games", json={"opponent": "human"})
    g = r.json()
    gid = g["id"]
    seats = [{"X-Seat-Token": g["token"]}, {"X-Seat-Token": g["invite_token"]}]
    s0 = state(client, gid, seats[0])
    waiting = 1 - s0["view"]["current"]
    s = state(client, gid, seats[waiting])
    r = client.post(f"/api/games/{gid}/actions", json={"action": "pass", "seq": s["seq"]}, headers=seats[waiting])
    assert r.status_code == 409 and r.json()["error"] == "not_your_turn"
    assert state(client, gid, seats[waiting])["seq"] == s["seq"]


def test_bad_rules_and_opponents(client: TestClient) -> None:
    r = client.post("/api/games", json={"opponent": "simple", "rules": {"preset": "classic", "overrides": {"knock_limt": 5}}})
    assert r.status_code == 400 and r.json()["error"] == "rules" and "knock_limit" in r.json()["message"]
    r = client.post("/api/games", json={"opponent": "grandmaster"})
    assert r.status_code == 400
    r = client.post("/api/games", json={"opponent": "simple", "rules": "nosuch"})
    assert r.status_code == 400


def test_whole_game_history_stats_replay_record(client: TestClient) -> None:
    gid, headers = new_game(client, names=["Ann"], rules={"preset": "classic", "overrides": {"target": 40}})
    assert client.get(f"/api/games/{gid}/record").status_code == 403  # secret while playing
    assert client.get(f"/api/games/{gid}/replay").status_code == 403
    end = play_rest(client, gid, headers)
    final = end["game"]["final"]
    assert final is not None and max(final["totals"]) >= 40 and final["explain"]
    hist = client.get("/api/history").json()["games"]
    assert [g["id"] for g in hist] == [gid]
    stats = client.get("/api/stats").json()
    ann = next(p for p in stats["players"] if p["name"] == "Ann")
    comp = next(p for p in stats["players"] if p["computer"])
    assert ann["games"] == 1 and ann["hands"] == comp["hands"] == hist[0]["hands"] >= 1
    assert ann["hands_won"] + comp["hands_won"] + ann["dead_hands"] == ann["hands"]
    assert ann["average_deadwood"] is not None
    replay = client.get(f"/api/games/{gid}/replay").json()
    assert len(replay["hands"]) == hist[0]["hands"]
    first = replay["hands"][0]
    assert first["frames"][0]["action"] == "deal" and len(first["deck"]) == 52
    assert first["frames"][-1]["result"] is not None
    rec = client.get(f"/api/games/{gid}/record")
    assert rec.status_code == 200 and "attachment" in rec.headers["content-disposition"]
    # It is the engine's record format: the engine replays it to the same final score.
    from ginrummy.record import match_from_record

    again = match_from_record(rec.json())
    assert again.is_over and list(again.final().totals) == final["totals"]


def test_resume_after_restart_replays_without_asking_the_computer(db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    app = create_app(db, computer_delay=0, compute="thread")
    with TestClient(app) as c:
        gid, headers = new_game(c)
        for _ in range(6):
            s = wait_my_move(c, gid, headers)
            msg = autoplay.respond(s)
            assert msg is not None
            path = {"action": "actions", "auto": "auto", "next": "next"}[msg["type"]]
            assert c.post(f"/api/games/{gid}/{path}", json=msg, headers=headers).status_code == 200
        before = wait_my_move(c, gid, headers)

    import ginrummy.web.computer as computer

    def refuse(*args: Any) -> int:
        raise AssertionError("the computer was asked to decide while resuming")

    monkeypatch.setattr(computer, "decide", refuse)
    app2 = create_app(db, computer_delay=0, compute="inline")
    with TestClient(app2) as c2:
        after = state(c2, gid, headers)
    assert after["view"] == before["view"] and after["seq"] == before["seq"]
    assert after["game"]["sheet"] == before["game"]["sheet"]


@pytest.mark.parametrize(
    "rules",
    [
        {"preset": "online"},
        {"preset": "app"},
        {"preset": "classic", "overrides": {"upcard": False, "target": 30}},
        {"preset": "classic", "overrides": {"straight_gin": True, "target": 10}},
        {"preset": "classic", "overrides": {"oklahoma": True, "oklahoma_spade_double": True, "target": 30}},
        {"preset": "classic", "overrides": {"last_chance": True, "throw_back": True, "target": 30}},
        {"preset": "classic", "overrides": {"hollywood": True, "target": 25}},
        {"preset": "classic", "overrides": {"next_dealer": "alternate", "knock_limit": 5, "target": 30}},
    ],
)
def test_variants_play_to_the_end(sqlite_db: Path, rules: dict[str, Any]) -> None:
    """The rules, not the database, vary here: one database is enough."""
    with TestClient(create_app(sqlite_db, computer_delay=0, compute="thread")) as client:
        _play_variant(client, rules)


def _play_variant(client: TestClient, rules: dict[str, Any]) -> None:
    if rules["preset"] != "classic":
        rules = {**rules, "overrides": {"target": 30}}
    gid, headers = new_game(client, rules=rules, opponent="random")
    end = play_rest(client, gid, headers)
    assert end["game"]["status"] == "finished"
    assert end["game"]["rules"]["preset"] == rules["preset"]


def test_set_name_over_http(client: TestClient) -> None:
    g = client.post("/api/games", json={"opponent": "human"}).json()
    url = f"/api/games/{g['id']}/name"
    assert client.post(url, json={"name": "Zed"}).status_code == 403
    h = {"X-Seat-Token": g["invite_token"]}
    assert client.post(url, json={"name": "y" * 25}, headers=h).status_code == 400
    assert client.post(url, json={"name": "   "}, headers=h).status_code == 400
    assert client.post(url, json={"name": 5}, headers=h).status_code == 400
    r = client.post(url, json={"name": "z" * 24}, headers=h)
    assert r.status_code == 200 and r.json()["game"]["names"][1] == "z" * 24
    assert client.get(f"/api/games/{g['id']}").json()["names"] == ["Player 1", "z" * 24]


#: The store's schema before seats became rows (files made then report ``PRAGMA user_version`` 0).
OLD_SCHEMA = [
    """CREATE TABLE games (id TEXT PRIMARY KEY, rules TEXT NOT NULL, names TEXT NOT NULL, opponent TEXT NOT NULL,
        computer_seat INTEGER, seed TEXT NOT NULL, first_dealer INTEGER NOT NULL, token0 TEXT NOT NULL,
        token1 TEXT NOT NULL, created REAL NOT NULL, finished REAL, status TEXT NOT NULL, final TEXT)""",
    """CREATE TABLE hands (game_id TEXT NOT NULL, hand_no INTEGER NOT NULL, dealer INTEGER NOT NULL, deck TEXT NOT NULL,
        nonce TEXT NOT NULL, result TEXT, deadwood TEXT, PRIMARY KEY (game_id, hand_no))""",
    """CREATE TABLE actions (game_id TEXT NOT NULL, seq INTEGER NOT NULL, hand_no INTEGER NOT NULL, seat INTEGER NOT NULL,
        action TEXT NOT NULL, created REAL NOT NULL, PRIMARY KEY (game_id, seq))""",
    "CREATE INDEX games_status ON games (status, finished)",
]


def _old_schema_db(path: Path) -> list[tuple[str, int]]:
    """An old-schema file holding two games in progress, each with a few actions of hand 1 played;
    returns each game's (id, actions stored)."""
    import json
    import sqlite3

    from ginrummy.hand import Hand
    from ginrummy.rules import Rules
    from ginrummy.storage import hash_token

    conn = sqlite3.connect(path)
    for stmt in OLD_SCHEMA:
        conn.execute(stmt)
    out = []
    for gid, opponent, computer_seat, names, plies in [
        ("oldcomputer", "simple", 1, ["Ann", "Computer (simple)"], 4),
        ("oldfriends", "human", None, ["Ann", "Bo"], 4),
    ]:
        conn.execute(
            "INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, 'playing', NULL)",
            (gid, json.dumps(Rules.preset("classic", target=30).to_json()), json.dumps(names), opponent, computer_seat,
             "12345", 0, hash_token(f"{gid}-0"), hash_token(f"{gid}-1"), 1.0),
        )
        deck = list(range(51, -1, -1))
        conn.execute("INSERT INTO hands VALUES (?, 0, 0, ?, 'nonce', NULL, NULL)", (gid, json.dumps(deck)))
        hand = Hand(Rules.preset("classic", target=30), 0)
        hand.deal(deck)
        for seq in range(plies):  # pass, pass, stock, a discard: seat 0 (the person) is to move
            seat = hand.current
            legal = hand.legal_actions()
            action = next((a for a in legal if str(a) in ("pass", "stock")), legal[0])
            hand.apply(action)
            conn.execute("INSERT INTO actions VALUES (?, ?, 0, ?, ?, 2.0)", (gid, seq, seat, str(action)))
        out.append((gid, plies))
    conn.commit()
    conn.close()
    return out


def test_old_schema_file_is_migrated_and_its_games_play_on(sqlite_db: Path) -> None:
    db = sqlite_db
    import sqlite3

    from ginrummy.storage import SCHEMA_VERSION, Store

    games = _old_schema_db(db)
    app = create_app(db, computer_delay=0, compute="thread")
    with TestClient(app) as c:
        for gid, plies in games:
            s = state(c, gid, {"X-Seat-Token": f"{gid}-0"})
            assert s["seq"] == plies + 1 and s["view"]["current"] == 0 and s["view"]["phase"] == "draw"
            assert s["game"]["names"][0] == "Ann" and s["game"]["rules"]["overrides"] == {"target": 30}
        assert state(c, "oldfriends", {"X-Seat-Token": "oldfriends-1"})["seat"] == 1
        assert c.get("/api/games/oldfriends/state", headers={"X-Seat-Token": "oldcomputer-1"}).status_code == 403
        pub = c.get("/api/games/oldcomputer").json()
        assert pub["opponent"] == "simple" and pub["computer_seat"] == 1
        friends = c.get("/api/games/oldfriends").json()
        assert friends["opponent"] == "human" and friends["computer_seat"] is None and friends["names"] == ["Ann", "Bo"]
        end = play_rest(c, "oldcomputer", {"X-Seat-Token": "oldcomputer-0"})
        assert end["game"]["status"] == "finished"
        assert c.get("/api/games/oldcomputer/replay").status_code == 200
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert "token0" not in [r[1] for r in conn.execute("PRAGMA table_info(games)")]
    assert conn.execute("SELECT game_id, seat, name, player FROM seats ORDER BY game_id, seat").fetchall() == [
        ("oldcomputer", 0, "Ann", "human"), ("oldcomputer", 1, "Computer (simple)", "simple"),
        ("oldfriends", 0, "Ann", "human"), ("oldfriends", 1, "Bo", "human"),
    ]
    conn.close()
    Store(db).close()  # opening a migrated file again changes nothing
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT count(*) FROM seats").fetchone()[0] == 4
    conn.execute("PRAGMA user_version = 99")
    conn.commit()
    conn.close()
    from ginrummy.storage import StoreError

    with pytest.raises(StoreError, match="newer"):
        Store(db)


def test_store_keeps_seats_as_rows_and_checks_them_on_replay(client: TestClient, db: str) -> None:
    from ginrummy.storage import Store, StoreError

    g = client.post("/api/games", json={"opponent": "human", "names": ["Ann", "Bo"]}).json()
    gid = g["id"]
    s = state(client, gid, {"X-Seat-Token": g["token"]})
    mover = s["view"]["current"]
    token = [g["token"], g["invite_token"]][mover]
    s = state(client, gid, {"X-Seat-Token": token})
    r = client.post(f"/api/games/{gid}/actions", json=autoplay.respond(s), headers={"X-Seat-Token": token})
    assert r.status_code == 200
    store = Store(db)
    stored = store.load_match(gid)
    assert stored is not None and [a.seat for a in stored.actions] == [mover]
    assert [seat.name for seat in stored.row.seats] == ["Ann", "Bo"] and stored.row.computer_seat is None
    assert store.load_match("nosuchgame") is None
    with store.connection() as conn:
        conn.execute("UPDATE actions SET seat = ? WHERE game_id = ?", (1 - mover, gid))
    with pytest.raises(StoreError, match="stored for seat"):
        store.load_match(gid)
    store.close()


def test_a_terminal_game_of_four_is_kept_as_the_web_keeps_one(client: TestClient, db: Path) -> None:
    """A game of four kept by the terminal apps in the same store is stored by the web's rule (a
    deal's hands store the game seat that deals): the store replays it, its tables are the
    rotation's, the web app knows the game (a wrong seat token is a 403, not a 404), and the
    store's two-player loader refuses it by its count."""
    from ginrummy.dealing import team_round
    from ginrummy.game import Game
    from ginrummy.players import get_player
    from ginrummy.rules import Rules
    from ginrummy.saved import SavedGame
    from ginrummy.storage import Store, StoreError, stored_pairing
    from ginrummy.table import Seat, Table

    store = Store(db)
    names = ["You", "a", "b", "c"]
    table = Table(Game(Rules(), players=names, seed=3), [Seat("You"), *(Seat(n, get_player("simple")) for n in names[1:])])
    saved = SavedGame.start(store, table, client="play", undo=False)
    table.deal()
    table.play_computers()
    stored = store.load_game(saved.row.id)
    assert stored is not None
    assert [stored_pairing(stored.row, h)["seats"] for h in stored.hands] == [
        list(p.seats) for p in team_round(0, stored.row.first_dealer)
    ]
    with pytest.raises(StoreError, match="has 4 players, not two"):
        store.load_match(saved.row.id)
    r = client.get(f"/api/games/{saved.row.id}/state", headers={"X-Seat-Token": "x"})
    assert r.status_code == 403, r.text
    store.close()
