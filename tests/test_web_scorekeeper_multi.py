"""The scorekeeper API for three players and for two teams of two, against ``ginrummy score``.

Each clause of RULES.md "Three and four players" is checked on a sheet kept through the API, and
the examples' sheets are compared, hand by hand, with the JSON the command line prints for the
same file (same points, totals, bonuses and final totals).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from ginrummy.cli import main
from ginrummy.storage import Store
from ginrummy.web import scorekeeper_routes

EXAMPLES = Path(__file__).parent.parent / "examples"
API = "/api/scorekeeper/sheets"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "sk.sqlite3"


def make_app(db: Path) -> FastAPI:
    app = FastAPI()
    app.state.store = Store(db)
    app.include_router(scorekeeper_routes.router)
    return app


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    app = make_app(db)
    yield TestClient(app)
    app.state.store.close()


def new_sheet(client: TestClient, names: list[str], rules: Any = "classic", **extra: Any) -> dict[str, Any]:
    r = client.post(API, json={"names": names, "rules": rules, **extra})
    assert r.status_code == 201, r.text
    return r.json()


def add(client: TestClient, sid: str, entry: Any, status: int = 201) -> dict[str, Any]:
    r = client.post(f"{API}/{sid}/hands", json=entry)
    assert r.status_code == status, r.text
    return r.json()


def cli_json(capsys: pytest.CaptureFixture[str], path: Path, players: int, *rules: str) -> dict[str, Any]:
    code = main(["score", str(path), "--players", str(players), "--json", *rules])
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out)


def knock(k: str, kd: int, other: str, od: int, **kw: Any) -> dict[str, Any]:
    return {"knocker": k, "deadwood": {k: kd, other: od}, **kw}


def by_column(sheet: dict[str, Any], values: list[int]) -> dict[str, int]:
    return dict(zip(sheet["columns"], values, strict=True))


# -- three players -------------------------------------------------------------------------------


def test_three_player_example_gives_the_command_lines_json(client: TestClient, capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads((EXAMPLES / "three_players.json").read_text())
    cli = cli_json(capsys, EXAMPLES / "three_players.json", 3)
    sheet = new_sheet(client, data["players"])
    # Before hand 1 the page can say who deals and who plays: the third player named deals.
    assert sheet["next"] == {"dealer": "Cy", "players": ["Ann", "Bob"]}
    assert sheet["columns"] == ["Ann", "Bob", "Cy"] and sheet["title"] == "Ann, Bob and Cy"
    for i, entry in enumerate(data["hands"]):
        sheet = add(client, sheet["id"], entry)
        after = cli["hands"][i + 1] if i + 1 < len(cli["hands"]) else None  # who the command line says played next
        assert sheet["next"] == (after and {"dealer": after["dealer"], "players": after["players"]})
    assert len(sheet["hands"]) == len(cli["hands"]) == 6
    for web, line in zip(sheet["hands"], cli["hands"], strict=True):
        assert web["points"] == line["points"]
        assert web["winner_name"] == line["winner"]
        assert web["dealer"] == line["dealer"] and web["players"] == line["players"]
        assert by_column(sheet, web["totals"][0]) == line["totals"]
        assert web["explain"] == line["explain"]
    final = cli["final"]
    assert sheet["over"] and cli["over"]
    assert by_column(sheet, sheet["totals"]) == final["totals"] == {"Ann": 369, "Bob": 0, "Cy": 90}
    for key in ("points", "game_bonus", "box_bonus", "shutout_bonus", "hands_won"):
        assert by_column(sheet, sheet["final"][key]) == final[key], key
    assert sheet["final"]["explain"] == final["explain"]
    assert sheet["margin"] == final["margin"] == 279


def test_three_rotation_is_shown_and_a_hand_by_the_wrong_two_is_refused(client: TestClient) -> None:
    sid = new_sheet(client, ["Ann", "Bob", "Cy"])["id"]
    s = add(client, sid, knock("Ann", 4, "Bob", 30))  # Bob lost: Bob deals and sits out
    assert s["next"] == {"dealer": "Bob", "players": ["Cy", "Ann"]}
    r = client.post(f"{API}/{sid}/hands", json=knock("Bob", 3, "Cy", 20))
    assert r.status_code == 422 and r.json()["rule"] == "rotation"
    assert r.json()["message"] == ("Hand 2: Bob deals this hand and sits out (Bob lost hand 1), so Cy and Ann play, "
                                   "not Bob and Cy (rule: rotation).")
    s = add(client, sid, {"dead": True})  # a dead hand: the same dealer deals again
    assert s["next"] == {"dealer": "Bob", "players": ["Cy", "Ann"]}
    assert s["hands"][1]["dealer"] == "Bob" and s["hands"][1]["points"] == 0


def test_three_the_first_dealer_may_be_chosen(client: TestClient) -> None:
    s = new_sheet(client, ["Ann", "Bob", "Cy"], first_dealer="ann")
    assert s["first_dealer"] == "Ann" and s["next"] == {"dealer": "Ann", "players": ["Bob", "Cy"]}
    assert new_sheet(client, ["Ann", "Bob", "Cy"], first_dealer=1)["next"]["dealer"] == "Bob"


def test_three_corrections_and_deletions(client: TestClient) -> None:
    data = json.loads((EXAMPLES / "three_players.json").read_text())
    sid = new_sheet(client, data["players"])["id"]
    for e in data["hands"][:5]:
        add(client, sid, e)
    # The same loser, other counts: every total after it changes.
    r = client.put(f"{API}/{sid}/hands/1", json=knock("Ann", 4, "Bob", 20))
    assert r.status_code == 200, r.text
    assert [h["totals"][0][0] for h in r.json()["hands"]] == [16, 16, 16, 16, 54]
    # Another loser deals hand 2, which Cy and Ann then could not have played.
    r = client.put(f"{API}/{sid}/hands/1", json=knock("Bob", 4, "Ann", 30))
    assert r.status_code == 422 and r.json()["rule"] == "rotation"
    assert "Cannot correct hand 1: it changes who deals and plays the hands after it, and hand 2 no longer fits" \
        in r.json()["message"]
    assert client.get(f"{API}/{sid}").json()["hands"][0]["points"] == 16  # nothing stored
    # Hand 4 was dead (Bob dealt again): deleting it leaves the rotation as it was.
    r = client.delete(f"{API}/{sid}/hands/4")
    assert r.status_code == 200, r.text
    assert [h["dealer"] for h in r.json()["hands"]] == ["Cy", "Bob", "Ann", "Bob"]
    r = client.delete(f"{API}/{sid}/hands/1")
    assert r.status_code == 422 and r.json()["message"].startswith(
        "Cannot delete hand 1: it changes who deals and plays the hands after it, and hand 2 (now hand 1) no longer "
        "fits (hand 1: Cy deals this hand and sits out (Cy deals first), so Ann and Bob play, not Ann and Cy")


def test_three_bonuses_off_and_the_shutout_choice(client: TestClient, capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads((EXAMPLES / "three_players.json").read_text())
    for overrides, cli_rules, ann in (
        ({"three_player_bonuses": False}, ["--rule", "three_player_bonuses=no"], 109),
        ({"shutout": "none"}, ["--rule", "shutout=none"], 269),
        ({}, [], 369),
    ):
        sheet = new_sheet(client, data["players"], rules={"preset": "classic", "overrides": overrides})
        for e in data["hands"]:
            sheet = add(client, sheet["id"], e)
        cli = cli_json(capsys, EXAMPLES / "three_players.json", 3, *cli_rules)
        assert by_column(sheet, sheet["totals"]) == cli["final"]["totals"]
        assert sheet["totals"][0] == ann
        assert sheet["bonuses"] is ("three_player_bonuses" not in overrides)


# -- four players, two teams ---------------------------------------------------------------------


def test_four_player_example_gives_the_command_lines_json(client: TestClient, capsys: pytest.CaptureFixture[str]) -> None:
    hands = json.loads((EXAMPLES / "four_players.json").read_text())
    cli = cli_json(capsys, EXAMPLES / "four_players.json", 4)
    sheet = new_sheet(client, cli["players"])
    assert sheet["columns"] == ["AC", "BD"] and sheet["teams"] == [["A", "C"], ["B", "D"]]
    assert sheet["next"] == {"tables": [{"players": ["A", "B"], "dealer": "A"}, {"players": ["C", "D"], "dealer": "C"}]}
    for e in hands:
        sheet = add(client, sheet["id"], e)
    for web, line in zip(sheet["hands"], cli["hands"], strict=True):
        assert web["points"] == line["points"] and web["winner_name"] == line["winner"]
        assert web["kind"] == line["kind"] and web["tables"] == line["tables"]
        assert web["team_points"] == line["team_points"]
        assert by_column(sheet, web["totals"][0]) == line["totals"]
    assert by_column(sheet, sheet["totals"]) == cli["final"]["totals"] == {"AC": 285, "BD": 85}
    for key in ("points", "game_bonus", "box_bonus", "hands_won"):
        assert by_column(sheet, sheet["final"][key]) == cli["final"][key], key
    assert sheet["final"]["explain"] == cli["final"]["explain"]
    assert sheet["target"] == 125


def test_four_each_clause_of_team_scoring(client: TestClient, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    s = new_sheet(client, ["Ann", "Bob", "Cy", "Dee"])
    assert s["title"] == "Ann & Cy v Bob & Dee" and s["columns"] == ["Ann & Cy", "Bob & Dee"]
    sid = s["id"]
    # One table each: the team with more points scores the difference.
    s = add(client, sid, {"tables": [knock("Ann", 3, "Bob", 25), knock("Dee", 0, "Cy", 14, gin=True)]})
    h = s["hands"][0]
    assert (h["kind"], h["winner_name"], h["points"], h["team_points"]) == (
        "difference", "Bob & Dee", 12, {"Ann & Cy": 22, "Bob & Dee": 34})
    # Partners switched opponents: Ann plays Dee, Cy plays Bob. Equal points: nobody scores.
    assert [t["players"] for t in s["next"]["tables"]] == [["Ann", "Dee"], ["Cy", "Bob"]]
    s = add(client, sid, {"tables": [knock("Ann", 3, "Dee", 25), knock("Bob", 3, "Cy", 25)]})
    h = s["hands"][1]
    assert (h["kind"], h["winner"], h["points"], h["totals"][0]) == ("even", None, 0, [0, 12])
    # A dead hand at one table scores 0 there; the other table's result is the team's.
    s = add(client, sid, {"tables": [{"dead": True}, knock("Cy", 2, "Dee", 30)]})
    h = s["hands"][2]
    assert (h["kind"], h["winner_name"], h["points"], h["totals"][0]) == ("one_table", "Ann & Cy", 28, [28, 12])
    # Both tables won: both results added.
    s = add(client, sid, {"tables": [knock("Ann", 1, "Dee", 21), knock("Cy", 0, "Bob", 10, gin=True)]})
    h = s["hands"][3]
    assert (h["kind"], h["points"], h["totals"][0]) == ("both", 20 + 30, [78, 12])
    # The tables may come in either order.
    s = add(client, sid, {"tables": [knock("Cy", 2, "Dee", 12), knock("Ann", 2, "Bob", 12)]})
    assert s["hands"][4]["points"] == 20 and s["hands"][4]["tables"][0]["players"] == ["Ann", "Bob"]
    # The command line, given the same hands, writes the same sheet.
    path = tmp_path / "hands.json"
    path.write_text(json.dumps({"players": ["Ann", "Bob", "Cy", "Dee"], "hands": [h["entry"] for h in s["hands"]]}))
    cli = cli_json(capsys, path, 4)
    assert [by_column(s, h["totals"][0]) for h in s["hands"]] == [h["totals"] for h in cli["hands"]]
    assert [h["kind"] for h in cli["hands"]] == ["difference", "even", "one_table", "both", "both"]


def test_four_team_target_and_bonuses_are_options(client: TestClient, capsys: pytest.CaptureFixture[str],
                                                 tmp_path: Path) -> None:
    hands = json.loads((EXAMPLES / "four_players.json").read_text())
    for overrides, flags, played in (({"team_bonuses": False}, ["--rule", "team_bonuses=no"], 5),
                                     ({"team_target": 60}, ["--rule", "team_target=60"], 2)):
        path = tmp_path / "hands.json"
        path.write_text(json.dumps(hands[:played]))
        cli = cli_json(capsys, path, 4, *flags)
        sheet = new_sheet(client, ["A", "B", "C", "D"], rules={"preset": "classic", "overrides": overrides})
        for e in hands[:played]:
            sheet = add(client, sheet["id"], e)
        assert sheet["over"] and by_column(sheet, sheet["totals"]) == cli["final"]["totals"]
        assert sheet["bonuses"] is ("team_bonuses" not in overrides)
        # The game is over: a sixth (or third) hand is refused, naming the result.
        r = client.post(f"{API}/{sheet['id']}/hands", json=hands[0])
        assert r.status_code == 422 and r.json()["message"].startswith("The game is over: AC win")
    assert sheet["target"] == 60 and sheet["totals"] == [65 + 100 + 20, 12 + 20]  # hand points, game bonus, one box each


def test_four_mistakes_are_named(client: TestClient) -> None:
    sid = new_sheet(client, ["Ann", "Bob", "Cy", "Dee"])["id"]
    cases = [
        (knock("Ann", 3, "Bob", 25), "a hand of the team game gives both tables"),
        ({"tables": [knock("Ann", 3, "Bob", 25)]}, '"tables" holds the two tables\' hands'),
        ({"tables": [knock("Ann", 3, "Cy", 25), {"dead": True}]}, "Ann and Cy are partners"),
        ({"tables": [knock("Ann", 3, "Dee", 25), {"dead": True}]},
         "partners switch opponents every hand: this hand Ann plays Bob and Cy plays Dee"),
        ({"tables": [knock("Ann", 3, "Bob", 25), knock("Bob", 3, "Ann", 25)]}, "both tables are Ann against Bob"),
        ({"tables": [knock("Ann", 14, "Bob", 25), {"dead": True}]},
         "table 1 (Ann against Bob): cannot knock: deadwood 14 is over the knock limit 10"),
        ({"tables": [{"dead": True}, "knock"]}, "a hand must be an object"),
    ]
    for entry, words in cases:
        r = client.post(f"{API}/{sid}/hands", json=entry)
        assert r.status_code == 422, r.text
        assert words.casefold() in r.json()["message"].casefold(), (entry, r.json())
    assert client.get(f"{API}/{sid}").json()["hands"] == []


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"names": ["A", "B", "C", "D", "E"]}, "two player names, or three, or four (two teams), not 5 of them"),
        ({"names": ["Ann", "Bob", "ann"]}, "the first and third players need different names"),
        ({"names": ["Ann", "Bob", "Cy"], "first_dealer": "Dee"},
         "the first dealer (first_dealer) must be one of the players (Ann, Bob, Cy), not 'Dee'"),
        ({"names": ["Ann", "Bob", "Cy"], "first_dealer": 3}, "not 3"),
        ({"names": ["Ann", "Bob"], "first_dealer": "Ann"}, "the two-player scorekeeper does not track the dealer"),
        ({"names": ["Ann", "Bob", "C" * 25]}, "at most 24 characters"),
    ],
)
def test_bad_group_sheets_are_refused(client: TestClient, body: dict[str, Any], words: str) -> None:
    r = client.post(API, json=body)
    assert r.status_code == 422, r.text
    assert words.casefold() in r.json()["message"].casefold()
    assert r.json()["rule"] == "players"


# -- storage ---------------------------------------------------------------------------------


def test_sheets_of_three_and_four_survive_a_restart_and_old_two_player_rows_still_load(db: Path) -> None:
    app = make_app(db)
    c = TestClient(app)
    three = new_sheet(c, ["Ann", "Bob", "Cy"], first_dealer="Bob")["id"]
    add(c, three, knock("Cy", 2, "Ann", 30))
    four = new_sheet(c, ["Ann", "Bob", "Cy", "Dee"], first_dealer="Dee")["id"]
    with app.state.store.connection() as conn:
        stored = conn.execute("SELECT names FROM scorekeeper_sheets WHERE id = ?", (three,)).fetchone()[0]
        assert json.loads(stored) == {"players": ["Ann", "Bob", "Cy"], "first_dealer": "Bob"}
        # A sheet as the two-player scorekeeper stored it before there were three or four.
        conn.execute("INSERT INTO scorekeeper_sheets (id, names, rules, entries, created, updated) VALUES (?, ?, ?, ?, ?, ?)",
                     ("old" + "x" * 20, '["You", "Sam"]', '{"preset": "classic", "overrides": {}}',
                      json.dumps([knock("You", 3, "Sam", 25)]), 1.0, 1.0))
    app.state.store.close()
    app = make_app(db)
    c = TestClient(app)
    s = c.get(f"{API}/{three}").json()
    assert s["next"] == {"dealer": "Ann", "players": ["Bob", "Cy"]} and s["scores"] == [[0, 0, 28]]
    s = c.get(f"{API}/{four}").json()
    assert s["next"]["tables"][0] == {"players": ["Ann", "Bob"], "dealer": "Bob"}
    old = c.get(f"{API}/old" + "x" * 20).json()
    assert old["players"] == 2 and old["names"] == ["You", "Sam"] and old["totals"] is None
    assert old["hands"][0]["points"] == 22 and old["next"] is None
    app.state.store.close()
