"""The scorekeeper API: sheets scored with the engine's rules, kept in the database by id.

The app here is built in the test (the router plus the real Store on a temporary file), so these
tests do not depend on the rest of the web app; one test checks the real app includes the router.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

from ginrummy.storage import Store  # noqa: E402
from ginrummy.web import scorekeeper_routes  # noqa: E402

#: 000's worked example: (entry, points, winner seat).
FIVE_HANDS: list[tuple[dict[str, Any], int, int]] = [
    ({"knocker": "You", "deadwood": {"You": 3, "Sam": 25}}, 22, 0),
    ({"knocker": "Sam", "gin": True, "deadwood": {"You": 14}}, 34, 1),
    ({"knocker": "You", "deadwood": {"You": 8, "Sam": 6}}, 12, 1),
    ({"knocker": "You", "gin": True, "deadwood": {"Sam": 31}}, 51, 0),
    ({"knocker": "You", "deadwood": {"You": 5, "Sam": 35}}, 30, 0),
]


def make_app(db: Path) -> FastAPI:
    app = FastAPI()
    app.state.store = Store(db)
    app.include_router(scorekeeper_routes.router)
    return app


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "sk.sqlite3"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    app = make_app(db)
    yield TestClient(app)
    app.state.store.close()


def new_sheet(client: TestClient, names: list[str] | None = None, rules: Any = "classic") -> dict[str, Any]:
    r = client.post("/api/scorekeeper/sheets", json={"names": names or ["You", "Sam"], "rules": rules})
    assert r.status_code == 201, r.text
    return r.json()


def add(client: TestClient, sheet_id: str, entry: dict[str, Any], status: int = 201) -> dict[str, Any]:
    r = client.post(f"/api/scorekeeper/sheets/{sheet_id}/hands", json=entry)
    assert r.status_code == status, r.text
    return r.json()


def five_hand_sheet(client: TestClient) -> dict[str, Any]:
    sheet = new_sheet(client)
    for entry, _, _ in FIVE_HANDS:
        sheet = add(client, sheet["id"], entry)
    return sheet


# -- the worked example ------------------------------------------------------------------------


def test_five_hand_example_scores_263_to_86(client: TestClient) -> None:
    sheet = five_hand_sheet(client)
    assert [h["points"] for h in sheet["hands"]] == [p for _, p, _ in FIVE_HANDS]
    assert [h["winner"] for h in sheet["hands"]] == [w for _, _, w in FIVE_HANDS]
    assert sheet["hands"][2]["kind"] == "undercut"
    assert [h["totals"][0] for h in sheet["hands"]] == [[22, 0], [22, 34], [22, 46], [73, 46], [103, 46]]
    assert sheet["over"] is True
    assert sheet["totals"] == [263, 86]
    assert sheet["margin"] == 177
    assert sheet["winner"] == 0
    final = sheet["final"]
    assert final["winner_name"] == "You"
    assert final["game_bonus"] == [100, 0]
    assert final["box_bonus"] == [60, 40]
    assert final["explain"][-1] == "You win 263 to 86, by 177."


def test_game_bonus_goes_to_the_player_who_undercut_to_win(client: TestClient) -> None:
    """Sam reaches 100 by undercutting You: the game bonus is Sam's, not the knocker's."""
    sheet = new_sheet(client)
    add(client, sheet["id"], {"knocker": "Sam", "gin": True, "deadwood": {"You": 75}})  # Sam 95
    sheet = add(client, sheet["id"], {"knocker": "You", "deadwood": {"You": 9, "Sam": 4}})  # undercut 5 + 10
    last = sheet["hands"][-1]
    assert (last["kind"], last["winner_name"], last["points"]) == ("undercut", "Sam", 15)
    final = sheet["final"]
    assert final["winner_name"] == "Sam"
    assert final["game_bonus"] == [0, 100]
    # You never scored: a shutout, so Sam's game bonus is 200 (100 more).
    assert final["shutout"] is True and final["shutout_bonus"] == [0, 100]
    assert sheet["totals"] == [0, 110 + 200 + 2 * 20]
    assert final["explain"][-1] == "Sam wins 350 to 0, by 350."


# -- Hollywood, Oklahoma, other rule sets ------------------------------------------------------


def test_hollywood_sheet_keeps_three_games(client: TestClient) -> None:
    sheet = new_sheet(client, ["Ann", "Bob"], {"preset": "classic", "overrides": {"hollywood": True}})
    assert sheet["games"] == 3 and sheet["hollywood"] is True
    sid = sheet["id"]
    add(client, sid, {"knocker": "Ann", "deadwood": {"Ann": 2, "Bob": 32}})  # Ann's 1st win: game 1
    s = add(client, sid, {"knocker": "Ann", "gin": True, "deadwood": {"Bob": 30}})  # 2nd: games 1, 2
    assert s["hands"][1]["written"] == [0, 1]
    assert s["scores"] == [[80, 0], [50, 0], [0, 0]]
    s = add(client, sid, {"knocker": "Bob", "gin": True, "deadwood": {"Ann": 40}})  # Bob's 1st: game 1
    assert s["hands"][2]["written"] == [0]
    assert s["over"] is False
    s = add(client, sid, {"knocker": "Ann", "gin": True, "deadwood": {"Bob": 80}})  # 3rd: all three
    assert s["hands"][3]["written"] == [0, 1, 2]
    assert s["hands"][3]["closed"] == [0, 1, 2]
    assert s["over"] is True
    games = s["final"]["games"]
    assert [g["totals"] for g in games] == [
        [180 + 100 + 60, 60 + 20],  # game 1: bonus 100, boxes 3 and 1
        [150 + 200 + 40, 0],  # game 2: Bob scored nothing there, a shutout
        [100 + 200 + 20, 0],  # game 3: a shutout too
    ]
    assert s["totals"] == [340 + 390 + 320, 80]
    assert s["margin"] == 1050 - 80


def test_oklahoma_needs_the_upcard_and_doubles_spades(client: TestClient) -> None:
    rules = {"preset": "classic", "overrides": {"oklahoma": True, "oklahoma_spade_double": True}}
    sid = new_sheet(client, rules=rules)["id"]
    r = client.post(f"/api/scorekeeper/sheets/{sid}/hands", json={"knocker": "You", "deadwood": {"You": 3, "Sam": 20}})
    assert r.status_code == 422 and "upcard" in r.json()["message"]
    r = client.post(
        f"/api/scorekeeper/sheets/{sid}/hands",
        json={"knocker": "You", "upcard": "7h", "deadwood": {"You": 8, "Sam": 20}},
    )
    assert r.status_code == 422
    assert "over the knock limit 7" in r.json()["message"]
    s = add(client, sid, {"knocker": "You", "upcard": "5s", "deadwood": {"You": 3, "Sam": 20}})
    assert s["hands"][0]["points"] == 34 and s["hands"][0]["multiplier"] == 2
    assert s["hands"][0]["entry"]["upcard"] == "5s"


def test_online_preset_figures(client: TestClient) -> None:
    sid = new_sheet(client, rules="online")["id"]
    s = add(client, sid, {"knocker": "You", "deadwood": {"You": 8, "Sam": 6}})
    assert s["hands"][0]["points"] == 2 + 25


def test_big_gin_only_when_played(client: TestClient) -> None:
    sid = new_sheet(client)["id"]
    r = client.post(f"/api/scorekeeper/sheets/{sid}/hands", json={"knocker": "You", "big_gin": True,
                                                                   "deadwood": {"Sam": 20}})
    assert r.status_code == 422 and "big gin is not played" in r.json()["message"]
    sid = new_sheet(client, rules="app")["id"]
    s = add(client, sid, {"knocker": "You", "big_gin": True, "deadwood": {"Sam": 20}})
    assert (s["hands"][0]["kind"], s["hands"][0]["points"]) == ("big_gin", 51)


def test_dead_hand_scores_nothing(client: TestClient) -> None:
    sid = new_sheet(client)["id"]
    s = add(client, sid, {"dead": True})
    assert s["hands"][0]["kind"] == "dead" and s["hands"][0]["winner"] is None
    assert s["scores"] == [[0, 0]] and s["hands_won"] == [0, 0]


def test_entries_may_use_seats_lists_and_any_case(client: TestClient) -> None:
    sid = new_sheet(client)["id"]
    s = add(client, sid, {"knocker": 0, "deadwood": [3, "25"]})
    s = add(client, sid, {"knocker": "sam", "gin": True, "deadwood": {"you": 14}})
    assert [h["points"] for h in s["hands"]] == [22, 34]
    # Stored in the strict form `ginrummy score` reads.
    assert s["hands"][1]["entry"] == {"knocker": "Sam", "gin": True, "deadwood": {"You": 14, "Sam": 0}}


# -- corrections ------------------------------------------------------------------------------


def test_correcting_a_hand_changes_the_totals(client: TestClient) -> None:
    sid = five_hand_sheet(client)["id"]
    # Hand 3 was really a knock that won: 8 against 15.
    r = client.put(f"/api/scorekeeper/sheets/{sid}/hands/3", json={"knocker": "You", "deadwood": {"You": 8, "Sam": 15}})
    assert r.status_code == 200, r.text
    s = r.json()
    assert (s["hands"][2]["kind"], s["hands"][2]["winner"], s["hands"][2]["points"]) == ("knock", 0, 7)
    assert s["hands"][-1]["totals"][0] == [110, 34]
    assert s["totals"] == [110 + 100 + 4 * 20, 34 + 20]
    assert s["margin"] == 290 - 54
    # Kept: a fresh read shows the correction.
    assert client.get(f"/api/scorekeeper/sheets/{sid}").json()["totals"] == [290, 54]


def test_correction_that_would_end_the_game_early_is_refused(client: TestClient) -> None:
    sid = five_hand_sheet(client)["id"]
    r = client.put(f"/api/scorekeeper/sheets/{sid}/hands/1", json={"knocker": "You", "gin": True, "deadwood": {"Sam": 90}})
    assert r.status_code == 422
    assert "delete the later hands first" in r.json()["message"]
    assert client.get(f"/api/scorekeeper/sheets/{sid}").json()["totals"] == [263, 86]


def test_correction_can_reopen_the_game_and_delete_removes_a_hand(client: TestClient) -> None:
    sid = five_hand_sheet(client)["id"]
    r = client.put(f"/api/scorekeeper/sheets/{sid}/hands/1", json={"knocker": "You", "deadwood": {"You": 3, "Sam": 20}})
    s = r.json()
    assert s["over"] is False and s["scores"] == [[98, 46]] and s["final"] is None
    r = client.delete(f"/api/scorekeeper/sheets/{sid}/hands/2")
    s = r.json()
    assert r.status_code == 200 and len(s["hands"]) == 4
    assert s["scores"] == [[98, 12]]
    assert [h["number"] for h in s["hands"]] == [1, 2, 3, 4]


def test_bad_correction_leaves_the_sheet_alone(client: TestClient) -> None:
    sid = five_hand_sheet(client)["id"]
    r = client.put(f"/api/scorekeeper/sheets/{sid}/hands/2", json={"knocker": "You", "deadwood": {"You": 14, "Sam": 3}})
    assert r.status_code == 422
    assert "cannot knock: deadwood 14 is over the knock limit 10" in r.json()["message"]
    assert r.json()["rule"] == "knock_limit"
    assert client.get(f"/api/scorekeeper/sheets/{sid}").json()["totals"] == [263, 86]
    r = client.put(f"/api/scorekeeper/sheets/{sid}/hands/9", json={"dead": True})
    assert r.status_code == 404 and "No hand 9" in r.json()["message"]


# -- kept across reloads, no account ----------------------------------------------------------


def test_reload_with_a_new_client_and_server_returns_the_same_sheet(client: TestClient, db: Path) -> None:
    sheet = five_hand_sheet(client)
    client.app.state.store.close()  # type: ignore[attr-defined]
    app = make_app(db)  # a restarted server on the same database
    try:
        again = TestClient(app).get(f"/api/scorekeeper/sheets/{sheet['id']}")
        assert again.status_code == 200
        assert again.json() == sheet
    finally:
        app.state.store.close()


def test_ids_are_unguessable_and_sheets_separate(client: TestClient) -> None:
    a, b = new_sheet(client), new_sheet(client)
    assert a["id"] != b["id"] and len(a["id"]) >= 22
    add(client, a["id"], {"dead": True})
    assert client.get(f"/api/scorekeeper/sheets/{b['id']}").json()["hands"] == []
    assert client.get("/api/scorekeeper/sheets/nope").status_code == 404


def test_delete_sheet(client: TestClient) -> None:
    sid = new_sheet(client)["id"]
    assert client.delete(f"/api/scorekeeper/sheets/{sid}").status_code == 204
    assert client.get(f"/api/scorekeeper/sheets/{sid}").status_code == 404


# -- bad input -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("entry", "words"),
    [
        ({"knocker": "You", "deadwood": {"You": 14, "Sam": 25}}, "cannot knock: deadwood 14 is over the knock limit 10"),
        ({"knocker": "Bea", "deadwood": {"You": 3, "Sam": 25}}, "'Bea' is not a player here"),
        ({"knocker": "You", "deadwood": {"You": -3, "Sam": 25}}, "cannot be negative"),
        ({"knocker": "You", "deadwood": {"You": 3}}, "missing deadwood count for Sam"),
        ({"knocker": "You", "deadwood": {"You": 3, "Sam": "lots"}}, "must be a whole number"),
        ({"knocker": "You", "gin": True, "deadwood": {"You": 4, "Sam": 25}}, "gin means no deadwood"),
        ({"deadwood": {"You": 3, "Sam": 25}}, "say who knocked"),
        ({"knocker": "You", "deadwood": {"You": 3, "Sam": 25}, "extra": 1}, "unknown key 'extra'"),
        ({"dead": True, "knocker": "You"}, "a dead hand has no knocker"),
        (["not", "an", "object"], "A hand must be an object"),
    ],
)
def test_bad_hand_is_refused_with_a_clear_message(client: TestClient, entry: Any, words: str) -> None:
    sid = new_sheet(client)["id"]
    r = client.post(f"/api/scorekeeper/sheets/{sid}/hands", json=entry)
    assert 400 <= r.status_code < 500, r.text
    assert words in r.json()["message"]
    assert client.get(f"/api/scorekeeper/sheets/{sid}").json()["hands"] == []


def test_no_hand_after_the_game_is_over(client: TestClient) -> None:
    sid = five_hand_sheet(client)["id"]
    r = client.post(f"/api/scorekeeper/sheets/{sid}/hands", json={"dead": True})
    assert r.status_code == 422
    assert r.json()["message"].startswith("The game is over: You win 263 to 86, by 177.")


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"names": ["You", "Sam"], "rules": {"preset": "classic", "overrides": {"knock_limt": 7}}}, 400,
         "Unknown rule 'knock_limt' (did you mean 'knock_limit'?)"),
        ({"names": ["You", "Sam"], "rules": "bridge"}, 400, "Unknown rule preset 'bridge'"),
        ({"names": ["You", "Sam"], "rules": {"preset": "classic", "overrides": {"knock_limit": 12}}}, 400,
         "knock_limit 12 is out of range: a knocker may hold 0..10 points of deadwood"),
        ({"names": ["Sam", "sam"]}, 422, "different names"),
        ({"names": ["Only one"]}, 422, "two player names"),
        ({"names": ["You", "Sam"], "colour": "red"}, 422, "Unknown field: colour"),
    ],
)
def test_bad_sheet_is_refused(client: TestClient, body: Any, status: int, words: str) -> None:
    r = client.post("/api/scorekeeper/sheets", json=body)
    assert r.status_code == status, r.text
    assert words in r.json()["message"]


def test_body_must_be_json(client: TestClient) -> None:
    sid = new_sheet(client)["id"]
    r = client.post(f"/api/scorekeeper/sheets/{sid}/hands", content=b"knock 3",
                    headers={"Content-Type": "application/json"})
    assert r.status_code == 422 and "must be JSON" in r.json()["message"]


# -- the page ---------------------------------------------------------------------------------


def test_page_and_assets(client: TestClient) -> None:
    r = client.get("/scorekeeper")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    # The site's header is the one every page has (common.js draws its links and display options).
    assert '<header class="site"></header>' in r.text and '<script src="/scorekeeper/static/common.js"></script>' in r.text
    assert client.get("/scorekeeper/static/common.js").status_code == 200
    assert client.get("/scorekeeper/static/scorekeeper.js").status_code == 200
    assert client.get("/scorekeeper/static/scorekeeper_hand.js").status_code == 200  # the hand form (any table)
    assert client.get("/scorekeeper/static/scorekeeper.css").status_code == 200
    assert client.get("/scorekeeper/static/secret.py").status_code == 404
    answer = client.get("/api/scorekeeper/presets").json()
    presets = answer["presets"]
    assert presets["online"]["gin_bonus"] == 25 and presets["classic"]["box_bonus"] == 20
    # The players' words, from their one home.
    assert answer["preset_labels"]["classic"] == "Classic (family rules)"
    assert answer["rule_labels"]["shutout"]["choices"]["double_total"] == "The winner's whole score doubled"
    assert answer["rule_labels"]["target"]["label"] == "Game to"


def test_the_web_app_includes_the_scorekeeper(tmp_path: Path) -> None:
    import ginrummy.web.app as app_module
    app = app_module.create_app(tmp_path / "app.sqlite3", compute="inline")
    c = TestClient(app)
    assert c.get("/scorekeeper").status_code == 200
    sid = c.post("/api/scorekeeper/sheets", json={"names": ["You", "Sam"]}).json()["id"]
    r = c.post(f"/api/scorekeeper/sheets/{sid}/hands", json={"knocker": "You", "deadwood": {"You": 14, "Sam": 2}})
    assert 400 <= r.status_code < 500 and "over the knock limit 10" in r.json()["message"]


# -- the same checks as the command line (issue 24) ----------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "entry"),
    [
        ("classic", {"knocker": "You", "deadwood": {"You": 3, "Sam": 99}}),
        ("classic", {"knocker": "Sma", "deadwood": {"You": 3, "Sam": 25}}),
        ({"preset": "classic", "overrides": {"oklahoma": True}}, {"knocker": "You", "deadwood": {"You": 3, "Sam": 25}}),
    ],
)
def test_the_page_and_the_command_line_refuse_an_entry_in_the_same_words(client: TestClient, rules: Any,
                                                                         entry: dict[str, Any]) -> None:
    from ginrummy.rules import Rules
    from ginrummy.scorekeeper import ScoreInputError, Scorekeeper, normalize_entry
    from ginrummy.words import sentence

    sid = new_sheet(client, rules=rules)["id"]
    r = client.post(f"/api/scorekeeper/sheets/{sid}/hands", json=entry)
    assert r.status_code == 422
    keeper = Scorekeeper(Rules.from_json(rules), ("You", "Sam"))
    with pytest.raises(ScoreInputError) as refused:
        keeper.add(normalize_entry(entry, keeper.players))
    assert r.json()["message"] == sentence(str(refused.value))  # the page writes it as a sentence
    assert r.json()["rule"] == refused.value.rule


def test_oklahoma_sheet_plays_to_150(client: TestClient) -> None:
    s = new_sheet(client, rules={"preset": "classic", "overrides": {"oklahoma": True}})
    assert s["target"] == 150
