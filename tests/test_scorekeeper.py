"""The scorekeeper: hand entries in, the same scoring as played games out; ``ginrummy score``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ginrummy.cli import main
from ginrummy.rules import Rules
from ginrummy.scorekeeper import ScoreInputError, Scorekeeper, players_of
from ginrummy.scorekeeper_multi import keep_score

EXAMPLE = Path(__file__).parent.parent / "examples" / "five_hands.json"

FIVE = [
    {"knocker": "A", "deadwood": {"A": 3, "B": 25}},
    {"knocker": "B", "gin": True, "deadwood": {"A": 14, "B": 0}},
    {"knocker": "A", "deadwood": {"A": 8, "B": 6}},
    {"knocker": "A", "gin": True, "deadwood": {"A": 0, "B": 31}},
    {"knocker": "A", "deadwood": {"A": 5, "B": 35}},
]


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def write(tmp_path: Path, data: Any, name: str = "hands.json") -> str:
    p = tmp_path / name
    p.write_text(json.dumps(data), encoding="utf-8")
    return str(p)


def test_five_hand_example_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "score", str(EXAMPLE), "--rules", "classic", "--json")
    assert code == 0
    rep = json.loads(out)
    assert rep["players"] == ["You", "Sam"]
    assert [h["points"] for h in rep["hands"]] == [22, 34, 12, 51, 30]
    assert [h["kind"] for h in rep["hands"]] == ["knock", "gin", "undercut", "gin", "knock"]
    assert [h["winner"] for h in rep["hands"]] == ["You", "Sam", "Sam", "You", "You"]
    assert [h["totals"] for h in rep["hands"]][-1] == {"You": 103, "Sam": 46}
    f = rep["final"]
    assert f["winner"] == "You" and f["margin"] == 177
    assert f["totals"] == {"You": 263, "Sam": 86}
    assert f["game_bonus"] == {"You": 100, "Sam": 0}
    assert f["box_bonus"] == {"You": 60, "Sam": 40}


def test_five_hand_example_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "score", str(EXAMPLE))
    assert code == 0
    assert "You win 263 to 86, by 177." in out
    assert "undercut" in out and "   103      46" in out


def test_scorekeeper_gives_game_bonus_to_the_undercutter_not_the_knocker() -> None:
    """The known bug elsewhere: an undercut that ends the game must award the game bonus (and the
    box) to the defender who undercut, not to the player who knocked."""
    k = Scorekeeper(Rules(), ("A", "B"))
    k.add({"knocker": "A", "deadwood": {"A": 2, "B": 60}})  # A 58
    k.add({"knocker": "B", "gin": True, "deadwood": {"A": 70, "B": 0}})  # B 90
    k.add({"knocker": "A", "deadwood": {"A": 9, "B": 4}})  # B undercuts: 5 + 10 -> B 105
    rep = k.report()
    assert rep["hands"][-1]["kind"] == "undercut" and rep["hands"][-1]["winner"] == "B"
    f = rep["final"]
    assert f["winner"] == "B"
    assert f["game_bonus"] == {"A": 0, "B": 100}
    assert f["box_bonus"] == {"A": 20, "B": 40}
    assert f["totals"] == {"A": 58 + 20, "B": 105 + 100 + 40}


def test_equal_counts_are_an_undercut_and_gin_is_never_undercut() -> None:
    k = Scorekeeper(Rules(), ("A", "B"))
    r = k.add({"knocker": "A", "deadwood": {"A": 5, "B": 5}})
    assert (r.kind, r.winner, r.points) == ("undercut", 1, 10)
    r = k.add({"knocker": "A", "deadwood": {"A": 0, "B": 0}})
    assert (r.kind, r.winner, r.points) == ("gin", 0, 20)


def test_big_gin_and_dead_hands() -> None:
    k = Scorekeeper(Rules.preset("app"), ("A", "B"))
    assert k.add({"dead": True}).kind == "dead"
    r = k.add({"knocker": "B", "big_gin": True, "deadwood": {"A": 12, "B": 0}})
    assert (r.kind, r.winner, r.points) == ("big_gin", 1, 31 + 12)
    assert k.report()["scores"] == {"A": 0, "B": 43}


def test_oklahoma_upcard_limit_and_spade_doubling() -> None:
    rules = Rules.preset("classic", oklahoma=True, oklahoma_spade_double=True, oklahoma_extra_boxes=True)
    k = Scorekeeper(rules, ("A", "B"))
    with pytest.raises(ScoreInputError, match=r"hand 1: .*over the knock limit 4 \(rule: knock_limit\)"):
        k.add({"knocker": "A", "upcard": "4h", "deadwood": {"A": 6, "B": 20}})
    r = k.add({"knocker": "A", "upcard": "7s", "deadwood": {"A": 6, "B": 20}})
    assert (r.points, r.multiplier) == (28, 2)
    r = k.add({"knocker": "B", "gin": True, "upcard": "Ks", "deadwood": {"A": 10, "B": 0}})
    assert (r.points, r.extra_boxes) == (60, 4)


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({"knocker": "C", "deadwood": {"A": 3, "B": 25}},
         r"hand 2: the knocker 'C' is not a player here \(the players are A and B\) \(rule: players\)"),
        ({"knocker": "A", "deadwood": {"A": 3, "C": 25}}, r"hand 2: player 'C' is not a player here"),
        ({"knocker": "A", "deadwood": {"A": 3}}, r"hand 2: missing deadwood count for B \(rule: deadwood\)"),
        ({"knocker": "A", "deadwood": {"A": -1, "B": 3}}, r"hand 2: A's deadwood cannot be negative"),
        ({"knocker": "A", "deadwood": {"A": 11, "B": 30}}, r"hand 2: cannot knock: deadwood 11 is over the knock "
                                                           r"limit 10 \(rule: knock_limit\)"),
        ({"knocker": "A", "gin": True, "deadwood": {"A": 3, "B": 30}}, r"hand 2: gin means no deadwood, but A has 3"),
        ({"knocker": "A", "big_gin": True, "deadwood": {"A": 0, "B": 30}}, r"hand 2: .*big gin is not played"),
        ({"deadwood": {"A": 3, "B": 30}}, r"hand 2: say who knocked"),
        ({"dead": True, "knocker": "A"}, r"hand 2: a dead hand has no knocker"),
        ({"knocker": "A", "deadwood": {"A": "3", "B": 30}}, r"hand 2: A's deadwood must be a whole number"),
        ({"knocker": "A", "deadwod": {"A": 3, "B": 30}}, r"hand 2: unknown key 'deadwod'"),
        ("knock", r"hand 2: each hand must be an object"),
    ],
)
def test_bad_entries_name_the_hand_and_the_rule(entry: Any, message: str) -> None:
    k = Scorekeeper(Rules(), ("A", "B"))
    k.add({"knocker": "A", "deadwood": {"A": 3, "B": 25}})
    with pytest.raises(ScoreInputError, match=message):
        k.add(entry)
    assert len(k.sheet.results) == 1  # nothing written


def test_hands_after_the_game_ended_are_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = write(tmp_path, [*FIVE, {"knocker": "B", "deadwood": {"A": 20, "B": 2}}])
    code, out, err = run_cli(capsys, "score", path)
    assert code == 2
    assert "hand 6: the game was already over after hand 5 (A won)" in err
    assert "rule: game_over" in err


def test_rule_overrides_and_rules_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = write(tmp_path, FIVE)
    code, out, _ = run_cli(capsys, "score", path, "--rules", "online", "--rule", "target=150", "--json")
    rep = json.loads(out)
    assert code == 0 and rep["over"] is False and rep["rules"]["overrides"] == {"target": 150}
    assert [h["points"] for h in rep["hands"]] == [22, 39, 27, 56, 30]
    rules_file = tmp_path / "house.toml"
    rules_file.write_text('preset = "classic"\ngin_bonus = 25\nundercut_bonus = 20\n', encoding="utf-8")
    code, out, _ = run_cli(capsys, "score", path, "--rules-file", str(rules_file), "--json")
    rep = json.loads(out)
    assert [h["points"] for h in rep["hands"]] == [22, 39, 22, 56, 30]
    assert rep["final"]["totals"]["A"] == 108 + 100 + 60
    code, _, err = run_cli(capsys, "score", path, "--rule", "knock_limt=3")
    assert code == 2 and "did you mean 'knock_limit'" in err


def test_hollywood_scorekeeping() -> None:
    k = keep_score(Rules(hollywood=True), {"players": ["You", "Sam"], "hands": [
        {"knocker": "You", "deadwood": {"You": 0, "Sam": 90}}] * 3})
    rep = k.report()
    assert rep["over"] and rep["hands"][1]["written_in_games"] == [2]
    assert [g["winner"] for g in rep["final"]["games"]] == ["You"] * 3
    assert "/" in k.table()


def test_corrections() -> None:
    k = keep_score(Rules(), FIVE)
    with pytest.raises(ScoreInputError, match="hand 1: that correction is refused"):
        k.replace(1, {"knocker": "A", "gin": True, "deadwood": {"A": 0, "B": 90}})
    k.replace(5, {"knocker": "A", "deadwood": {"A": 5, "B": 10}})
    assert not k.sheet.is_over and k.report()["scores"] == {"A": 78, "B": 46}
    k.remove(5)
    assert len(k.sheet.results) == 4


def test_players_named_by_keys() -> None:
    assert players_of(FIVE) == ("A", "B")
    assert players_of([{"dead": True}]) == ("A", "B")
    with pytest.raises(ScoreInputError, match="'C' is not a player here"):
        keep_score(Rules(), [{"knocker": "A", "deadwood": {"A": 1, "B": 5}},
                             {"knocker": "C", "deadwood": {"A": 1, "C": 5}}])


def test_bad_files(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    p = tmp_path / "bad.json"
    p.write_text("[{", encoding="utf-8")
    code, _, err = run_cli(capsys, "score", str(p))
    assert code == 2 and "not valid JSON" in err
    code, _, err = run_cli(capsys, "score", write(tmp_path, {"x": 1}))
    assert code == 2 and "unknown key 'x' in the input" in err
    code, _, err = run_cli(capsys, "score", write(tmp_path, {"hands": 1}))
    assert code == 2 and "list of hands" in err


def test_oklahoma_example_file(capsys: pytest.CaptureFixture[str]) -> None:
    """examples/oklahoma_hands.json, checked by hand: spade upcards double (hands 1 and 7), the 4h
    upcard makes the limit 4, extra boxes 2 for gin and 1 for an undercut; Ann reaches 150."""
    path = EXAMPLE.parent / "oklahoma_hands.json"
    code, out, _ = run_cli(capsys, "score", str(path), "--rule", "oklahoma=yes", "--rule", "oklahoma_spade_double=yes",
                           "--rule", "oklahoma_extra_boxes=yes", "--rule", "target=150", "--json")
    rep = json.loads(out)
    assert code == 0
    assert [h["points"] for h in rep["hands"]] == [50, 42, 0, 11, 60, 42, 40]
    f = rep["final"]
    assert f["extra_boxes"] == {"Ann": 2, "Bob": 3}
    assert f["totals"] == {"Ann": 150 + 100 + 5 * 20, "Bob": 95 + 6 * 20}
    assert f["margin"] == 135


# -- issue 24's fixes --------------------------------------------------------------------------------


def test_an_oklahoma_hand_without_its_upcard_is_refused() -> None:
    rules = Rules.preset("classic", oklahoma=True)
    k = Scorekeeper(rules, ("A", "B"))
    with pytest.raises(ScoreInputError, match=r"hand 1: Oklahoma: enter the first upcard .*knock limit "
                                              r"\(rule: upcard\)"):
        k.add({"knocker": "A", "deadwood": {"A": 3, "B": 25}})
    assert k.add({"dead": True}).kind == "dead"  # a dead hand needs none
    # With no upcard dealt, Oklahoma's limit is 10 and there is nothing to enter.
    k = Scorekeeper(Rules.preset("classic", oklahoma=True, upcard=False), ("A", "B"))
    assert k.add({"knocker": "A", "deadwood": {"A": 10, "B": 25}}).points == 15


@pytest.mark.parametrize("count", [99, 100, 150])
def test_deadwood_ten_cards_cannot_hold_is_refused(count: int) -> None:
    k = Scorekeeper(Rules(), ("A", "B"))
    with pytest.raises(ScoreInputError, match=rf"hand 1: B's deadwood {count} is more than ten cards can hold: "
                                              r"at most 98 \(two each of T J Q K and two 9s\) \(rule: deadwood\)"):
        k.add({"knocker": "A", "deadwood": {"A": 3, "B": count}})
    assert k.add({"knocker": "A", "deadwood": {"A": 3, "B": 98}}).points == 95


def test_the_most_deadwood_ten_cards_hold_is_98() -> None:
    """Two each of T J Q K and two 9s, suited so no three make a run: no meld, 98."""
    from ginrummy.cards import mask_of, parse_cards
    from ginrummy.melds import best_arrangement
    from ginrummy.scoring import MAX_DEADWOOD, score_hand

    hand = parse_cards("9h 9s Tc Td Jh Js Qc Qd Kh Ks")
    assert best_arrangement(mask_of(hand))[0] == 98 == MAX_DEADWOOD
    with pytest.raises(Exception, match="more than ten cards can hold"):
        score_hand(Rules(), knocker=0, knocker_deadwood=3, defender_deadwood=99)


def test_an_unknown_knocker_is_named_as_the_unknown_one(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = write(tmp_path, [{"knocker": "Sma", "deadwood": {"You": 3, "Sam": 25}}])
    code, _, err = run_cli(capsys, "score", path)
    assert code == 2
    assert "hand 1: the knocker 'Sma' is not a player here (the players are You and Sam)" in err


def test_an_unfinished_hollywood_game_says_which_games_closed_and_how(capsys: pytest.CaptureFixture[str],
                                                                      tmp_path: Path) -> None:
    hands = [{"knocker": "You", "gin": True, "deadwood": {"You": 0, "Sam": 90}},
             {"knocker": "You", "deadwood": {"You": 2, "Sam": 40}}]  # You's 2nd win: games 1 (closed) and 2
    path = write(tmp_path, hands)
    code, out, _ = run_cli(capsys, "score", path, "--rule", "hollywood=yes")
    assert code == 0
    assert "Game 1 closed: You reached 110 in hand 1 (You 110, Sam 0)." in out
    assert "Game 2 open: You 38, Sam 0." in out and "Game 3 open: You 0, Sam 0." in out
    code, out, _ = run_cli(capsys, "score", path, "--rule", "hollywood=yes", "--json")
    games = json.loads(out)["games"]
    assert [(g["open"], g["winner"], g["closed_by_hand"]) for g in games] == [(False, "You", 1), (True, None, None),
                                                                             (True, None, None)]


def test_oklahoma_from_a_preset_plays_to_150_unless_a_target_is_given(capsys: pytest.CaptureFixture[str],
                                                                      tmp_path: Path) -> None:
    assert Rules.preset("classic", oklahoma=True).target == 150
    assert Rules.preset("online", oklahoma=True, target=125).target == 125
    explicit = Rules.preset("classic", oklahoma=True, target=100)
    assert Rules.from_json(explicit.to_json()) == explicit  # kept: 100 is not Oklahoma's default
    path = write(tmp_path, [{"knocker": "A", "upcard": "Kd", "gin": True, "deadwood": {"A": 0, "B": 90}}])
    code, out, _ = run_cli(capsys, "score", path, "--rule", "oklahoma=yes", "--json")
    rep = json.loads(out)
    assert code == 0 and rep["over"] is False and rep["scores"] == {"A": 110, "B": 0}
    code, out, _ = run_cli(capsys, "score", path, "--rule", "oklahoma=yes", "--rule", "target=100", "--json")
    assert json.loads(out)["over"] is True
