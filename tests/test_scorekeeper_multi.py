"""``ginrummy score --players 3|4``: entries for three players and for two teams, the examples."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ginrummy.cli import main
from ginrummy.rules import Rules
from ginrummy.scorekeeper import ScoreInputError
from ginrummy.scorekeeper_multi import TeamScorekeeper, ThreeScorekeeper, keep_score

EXAMPLES = Path(__file__).parent.parent / "examples"


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def write(tmp_path: Path, data: Any) -> str:
    p = tmp_path / "hands.json"
    p.write_text(json.dumps(data), encoding="utf-8")
    return str(p)


def knock(k: str, kd: int, other: str, od: int, **kw: Any) -> dict[str, Any]:
    return {"knocker": k, "deadwood": {k: kd, other: od}, **kw}


# -- three players ---------------------------------------------------------------------------------


def test_three_player_example_json(capsys: pytest.CaptureFixture[str]) -> None:
    """examples/three_players.json, checked by hand: Cy deals first (hand 1 names Ann and Bob);
    Ann reaches 109; Bob never scored, so Ann's game bonus is 200 against him."""
    code, out, _ = run_cli(capsys, "score", str(EXAMPLES / "three_players.json"), "--players", "3", "--json")
    assert code == 0
    rep = json.loads(out)
    hands = rep["hands"]
    assert [h["dealer"] for h in hands] == ["Cy", "Bob", "Ann", "Bob", "Bob", "Cy"]
    assert [h["points"] for h in hands] == [26, 38, 12, 0, 38, 45]
    assert [h["winner"] for h in hands] == ["Ann", "Cy", "Cy", None, "Ann", "Ann"]
    assert hands[-1]["totals"] == {"Ann": 109, "Bob": 0, "Cy": 50}
    f = rep["final"]
    assert f["winner"] == "Ann" and f["margin"] == 369 - 90
    assert f["game_bonus"] == {"Ann": 100, "Bob": 0, "Cy": 0}
    assert f["shutout_bonus"] == {"Ann": 100, "Bob": 0, "Cy": 0}
    assert f["box_bonus"] == {"Ann": 60, "Bob": 0, "Cy": 40}
    assert f["totals"] == {"Ann": 369, "Bob": 0, "Cy": 90}
    assert [ln.get("against") for ln in f["breakdown"] if ln["label"].startswith("shutout")] == ["Bob"]


def test_three_player_example_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "score", str(EXAMPLES / "three_players.json"))
    assert code == 0 and "the dealer sits out" in out
    assert "Ann wins: Ann 369, Cy 90, Bob 0; by 279 over the next best." in out


def test_three_an_entry_naming_the_wrong_two_is_refused_saying_who_plays() -> None:
    k = ThreeScorekeeper(Rules(), ("Ann", "Bob", "Cy"))
    k.add(knock("Ann", 4, "Bob", 30))  # Bob lost: he deals hand 2
    with pytest.raises(ScoreInputError, match=r"hand 2: Bob deals this hand and sits out \(Bob lost hand 1\), "
                                              r"so Cy and Ann play, not Ann and Bob \(rule: rotation\)"):
        k.add(knock("Ann", 4, "Bob", 30))
    k.add({"dead": True})
    with pytest.raises(ScoreInputError, match=r"hand 3: .*\(hand 2 was a dead hand, so Bob deals again\)"):
        k.add(knock("Bob", 4, "Cy", 30))
    assert k.hands == 2 and k.next_hand() == {"dealer": "Bob", "players": ["Cy", "Ann"]}


def test_three_the_first_dealer_is_the_player_hand_1_does_not_name_or_the_one_given() -> None:
    k = keep_score(Rules(), {"players": ["Ann", "Bob", "Cy"], "hands": [knock("Cy", 2, "Bob", 9)]})
    assert k.report()["hands"][0]["dealer"] == "Ann"
    k = keep_score(Rules(), {"players": ["Ann", "Bob", "Cy"], "first_dealer": "Bob", "hands": [{"dead": True}]})
    assert k.report()["hands"][0]["players"] == ["Cy", "Ann"]
    with pytest.raises(ScoreInputError, match="hand 1: name the two who played hand 1"):
        keep_score(Rules(), {"players": ["Ann", "Bob", "Cy"], "hands": [{"dead": True}]})
    k = keep_score(Rules(), {"players": ["Ann", "Bob", "Cy"], "hands": [{"dead": True, "players": ["Ann", "Cy"]}]})
    assert k.report()["next"] == {"dealer": "Bob", "players": ["Cy", "Ann"]}


def test_three_unknown_names_and_a_player_who_sat_out() -> None:
    k = ThreeScorekeeper(Rules(), ("Ann", "Bob", "Cy"), first_dealer="Cy")
    with pytest.raises(ScoreInputError, match=r"the knocker 'Dee' is not a player here \(the players are Ann, "
                                              r"Bob and Cy\)"):
        k.add(knock("Dee", 4, "Bob", 30))
    with pytest.raises(ScoreInputError, match=r"Cy deals this hand and sits out \(Cy deals first\)"):
        k.add(knock("Cy", 4, "Bob", 30))
    with pytest.raises(ScoreInputError, match="the first dealer 'Zed' is not a player here"):
        ThreeScorekeeper(Rules(), ("Ann", "Bob", "Cy"), first_dealer="Zed")


def test_three_corrections_that_change_who_deals_are_refused() -> None:
    k = keep_score(Rules(), {"players": ["Ann", "Bob", "Cy"], "hands": [knock("Ann", 4, "Bob", 30),
                                                                          knock("Cy", 4, "Ann", 30)]})
    with pytest.raises(ScoreInputError, match="hand 1: that correction is refused: hand 2: Ann deals"):
        k.replace(1, knock("Bob", 4, "Ann", 30))  # Ann would have lost hand 1 and dealt hand 2
    assert k.report()["scores"] == {"Ann": 26, "Bob": 0, "Cy": 26}
    k.replace(1, knock("Ann", 2, "Bob", 30))
    assert k.report()["scores"]["Ann"] == 28
    k.remove(2)
    assert k.hands == 1 and k.report()["next"]["dealer"] == "Bob"


def test_three_players_cli_option_and_names_must_agree(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = write(tmp_path, {"players": ["A", "B"], "hands": []})
    code, _, err = run_cli(capsys, "score", path, "--players", "3")
    assert code == 2 and "3 players play, but the input names 2" in err
    path = write(tmp_path, [knock("A", 3, "B", 20), knock("A", 3, "C", 20)])
    code, out, _ = run_cli(capsys, "score", path, "--players", "3", "--json")
    assert code == 0 and json.loads(out)["players"] == ["A", "B", "C"]


def test_three_oklahoma_and_bonuses_off(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = write(tmp_path, [knock("A", 3, "B", 20, upcard="4s"), knock("A", 0, "C", 60, gin=True, upcard="Kh")])
    code, out, _ = run_cli(capsys, "score", path, "--players", "3", "--rule", "oklahoma=yes", "--rule",
                           "oklahoma_spade_double=yes", "--rule", "target=100", "--rule", "three_player_bonuses=no",
                           "--json")
    rep = json.loads(out)
    assert code == 0 and [h["points"] for h in rep["hands"]] == [34, 80]
    assert rep["final"]["totals"] == {"A": 114, "B": 0, "C": 0}


# -- four players ----------------------------------------------------------------------------------


def test_four_player_example_json(capsys: pytest.CaptureFixture[str]) -> None:
    """examples/four_players.json, checked by hand: AC against BD; one hand each (12 to BD), both
    (65 to AC), a dead table (10 to AC), one each (33 to BD), both (50 to AC): AC reach 125."""
    code, out, _ = run_cli(capsys, "score", str(EXAMPLES / "four_players.json"), "--players", "4", "--json")
    assert code == 0
    rep = json.loads(out)
    assert rep["teams"] == {"AC": ["A", "C"], "BD": ["B", "D"]}
    hands = rep["hands"]
    assert [h["kind"] for h in hands] == ["difference", "both", "one_table", "difference", "both"]
    assert [(h["winner"], h["points"]) for h in hands] == [("BD", 12), ("AC", 65), ("AC", 10), ("BD", 33), ("AC", 50)]
    assert hands[0]["team_points"] == {"AC": 22, "BD": 34}
    assert [[t["players"] for t in h["tables"]] for h in hands[:2]] == [[["A", "B"], ["C", "D"]],
                                                                        [["A", "D"], ["C", "B"]]]
    assert [h["totals"] for h in hands][-1] == {"AC": 125, "BD": 45}
    f = rep["final"]
    assert f["winner"] == "AC" and f["game_bonus"] == {"AC": 100, "BD": 0}
    assert f["box_bonus"] == {"AC": 60, "BD": 40} and f["totals"] == {"AC": 285, "BD": 85} and f["margin"] == 200
    assert {ln["team"] for ln in f["breakdown"]} == {"AC", "BD"}


def test_four_the_issues_entry_as_given(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    entry = {"tables": [{"knocker": "A", "deadwood": {"A": 3, "B": 25}},
                        {"knocker": "D", "gin": True, "deadwood": {"C": 14, "D": 0}}]}
    code, out, _ = run_cli(capsys, "score", write(tmp_path, [entry]), "--players", "4", "--json")
    rep = json.loads(out)
    assert code == 0 and rep["scores"] == {"AC": 0, "BD": 12} and rep["over"] is False
    assert rep["next"]["tables"] == [{"players": ["A", "D"], "dealer": "D"}, {"players": ["C", "B"], "dealer": "B"}]


def test_four_tables_in_either_order_and_a_dead_table_without_names() -> None:
    k = TeamScorekeeper(Rules(), ("A", "B", "C", "D"))
    r = k.add({"tables": [knock("D", 2, "C", 12), {"dead": True}]})
    assert (r.kind, r.winner, r.points) == ("one_table", 1, 10)
    assert [t.pairing.seats for t in r.tables] == [(0, 1), (2, 3)]  # kept in table order


def test_four_partners_never_meet_and_opponents_switch() -> None:
    k = TeamScorekeeper(Rules(), ("A", "B", "C", "D"))
    with pytest.raises(ScoreInputError, match=r"hand 1, table 1: A and C are partners; partners switch opponents "
                                              r"every hand: this hand A plays B and C plays D"):
        k.add({"tables": [knock("A", 2, "C", 12), knock("B", 2, "D", 12)]})
    k.add({"tables": [knock("A", 2, "B", 12), knock("C", 2, "D", 12)]})
    with pytest.raises(ScoreInputError, match=r"hand 2, table 1: partners switch opponents every hand: this hand "
                                              r"A plays D and C plays B, not A and B"):
        k.add({"tables": [knock("A", 2, "B", 12), knock("C", 2, "D", 12)]})
    with pytest.raises(ScoreInputError, match="hand 2, table 2: both tables are A against D"):
        k.add({"tables": [knock("A", 2, "D", 12), knock("D", 2, "A", 12)]})
    with pytest.raises(ScoreInputError, match=r"hand 2, table 1 \(A against D\): cannot knock: deadwood 12"):
        k.add({"tables": [knock("A", 12, "D", 12), {"dead": True}]})
    with pytest.raises(ScoreInputError, match="hand 2: a hand of the team game gives both tables"):
        k.add(knock("A", 2, "D", 12))
    assert k.hands == 1


def test_four_teams_are_read_from_the_first_two_hands() -> None:
    """Hand 1 pairs A with B and D with C (deadwood written D first); in hand 2 A meets D, so A's
    partner is C, whatever order the names were written in."""
    hands = [{"tables": [knock("A", 2, "B", 12), knock("D", 2, "C", 12)]},
             {"tables": [knock("A", 2, "D", 12), knock("C", 2, "B", 12)]}]
    k = keep_score(Rules(), hands, players=4)
    assert isinstance(k, TeamScorekeeper) and k.teams == ("AC", "BD")
    assert k.report()["scores"] == {"AC": 20, "BD": 0}  # 10 - 10, then 10 + 10


def test_four_the_team_target_and_bonuses_are_rules(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = write(tmp_path, [{"tables": [knock("A", 2, "B", 32), knock("C", 2, "D", 32)]}])
    code, out, _ = run_cli(capsys, "score", path, "--players", "4", "--rule", "team_target=60", "--json")
    rep = json.loads(out)
    assert code == 0 and rep["final"]["totals"] == {"AC": 60 + 100 + 20 + 100, "BD": 0}  # and a shutout
    code, out, _ = run_cli(capsys, "score", path, "--players", "4", "--rule", "team_target=60",
                           "--rule", "team_bonuses=no", "--json")
    assert json.loads(out)["final"]["totals"] == {"AC": 60, "BD": 0}


def test_four_player_table_output(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "score", str(EXAMPLES / "four_players.json"))
    assert code == 0 and "AC against BD, first team to 125" in out
    assert "One hand each: BD have more points and score the difference, 34 - 22 = 12." in out
    assert "AC wins 285 to 85, by 200." in out


def test_four_hollywood_and_oklahoma_per_table(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    hands = [{"tables": [knock("A", 0, "B", 10, gin=True, upcard="2s"), knock("C", 3, "D", 2, upcard="9h")]}]
    code, out, _ = run_cli(capsys, "score", write(tmp_path, hands), "--players", "4", "--rule", "oklahoma=yes",
                           "--rule", "oklahoma_spade_double=yes", "--rule", "hollywood=yes", "--json")
    rep = json.loads(out)
    assert code == 0
    assert [t["points"] for t in rep["hands"][0]["tables"]] == [60, 11]  # gin doubled; D undercut C
    assert rep["hands"][0]["points"] == 49 and rep["hands"][0]["written_in_games"] == [1]
