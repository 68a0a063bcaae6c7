"""Records of three- and four-player games: exact replay, who played each hand, the first wrong
entry, and ``ginrummy replay`` (text and JSON)."""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from ginrummy.cli import main
from ginrummy.errors import RecordError
from ginrummy.game import Game
from ginrummy.players import get_player
from ginrummy.record import (
    ReplayError,
    dumps,
    game_from_record,
    loads,
    match_from_record,
    match_to_record,
    replay_report,
)
from ginrummy.rules import Rules

GOLDEN = Path(__file__).parent / "golden"
sys.path.insert(0, str(GOLDEN))
from golden_policy import choose  # noqa: E402


def golden(name: str) -> dict[str, Any]:
    return loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))


def test_seated_record_shape_names_who_played_each_hand() -> None:
    rec = golden("three_player_game")
    assert list(rec) == ["format", "kind", "rules", "first_dealer", "seed", "players", "hands", "result"]
    assert len(rec["players"]) == 3
    assert list(rec["hands"][0]) == ["seats", "dealer", "dealt_by", "deck", "actions", "result"]
    assert list(rec["result"]) == ["over", "scores", "next", "final"]
    assert rec["result"]["next"] is None and len(rec["result"]["scores"]) == 3
    four = golden("four_player_game")
    assert len(four["result"]["scores"]) == 2 and len(four["players"]) == 4


def test_an_unfinished_four_player_deal_round_trips() -> None:
    g = Game(Rules(), players=["A", "B", "C", "D"], first_dealer=3, seed=5)
    g.deal()
    for t in (1, 0, 1, 0, 0):  # both tables part-played, in any order
        h = g.tables[t]
        g.apply(choose(h)[0], t)
    text = dumps(match_to_record(g))
    again = game_from_record(loads(text))
    assert dumps(match_to_record(again)) == text
    assert again.in_progress and [len(h.history) for h in again.tables] == [3, 2]
    rec = loads(text)
    assert rec["result"]["next"] == [p.to_json() for p in g.current_pairings]


def test_a_one_deal_hand_record_of_four_players() -> None:
    g = Game(Rules(), players=["A", "B", "C", "D"], seed=8)
    g.deal()
    for t, h in enumerate(g.tables):
        while not h.is_over:
            for a in choose(h):
                g.apply(a, t)
    rec = match_to_record(g, kind="hand")
    assert rec["kind"] == "hand" and len(rec["hands"]) == 2
    assert match_to_record(game_from_record(rec)) == rec
    g.deal()
    with pytest.raises(RecordError, match="exactly one deal"):
        match_to_record(g, kind="hand")


def _swap_seats(r: dict[str, Any]) -> None:
    r["hands"][1]["seats"].reverse()


@pytest.mark.parametrize(
    ("name", "change", "message", "rule"),
    [
        ("three_player_game", lambda r: r["hands"][1].__setitem__("dealt_by", r["hands"][1]["seats"][0]),
         r"hand 2: South and North play this hand .* and East deals \(seat 1\)", "rotation"),
        ("three_player_game", _swap_seats, r"hand 2: .* play this hand", "rotation"),
        ("three_player_game", lambda r: r["hands"][0]["actions"].__setitem__(0, "stock"),
         r"hand 1, action 1 \(index 0\) 'stock', by North: .*upcard", "upcard_offer"),
        ("three_player_game", lambda r: r["hands"][2]["result"].__setitem__("points", 1),
         r"hand 3: the record's result disagrees", "result"),
        ("three_player_game", lambda r: r.__setitem__("first_dealer", 3), r"first_dealer must be 0 to 2", "record"),
        ("three_player_game", lambda r: r["result"]["final"].__setitem__("totals", [0, 0, 0]),
         r"game result disagrees", "result"),
        ("four_player_game", lambda r: r["hands"].pop(), r"a deal of the four-player game is two hands", "record"),
        ("four_player_game", lambda r: r["hands"][3]["seats"].__setitem__(1, 3), r"hand 4: South and East", "rotation"),
        ("four_player_game", lambda r: r["hands"][0]["actions"].pop(),
         r"hand 1 is not finished, but another hand follows", "record"),
        ("four_player_game", lambda r: r["hands"].extend(copy.deepcopy(r["hands"][-2:])),
         r"the game was already over", "game_over"),
        ("four_player_game", lambda r: r.__setitem__("players", ["A", "B", "C", "D", "E"]),
         r"players must be a list of two, three or four names", "record"),
    ],
)
def test_bad_seated_records_name_the_hand_and_the_rule(name: str, change: Any, message: str, rule: str) -> None:
    rec = golden(name)
    change(rec)
    with pytest.raises(ReplayError, match=message) as e:
        game_from_record(rec)
    assert e.value.rule == rule
    report = replay_report(rec)
    assert report["ok"] is False and report["rule"] == rule


def test_the_two_player_reader_refuses_a_bigger_game() -> None:
    with pytest.raises(ReplayError, match="3-player game, not a two-player match"):
        match_from_record(golden("three_player_game"))


def test_hands_without_decks_are_shuffled_from_the_game_seed() -> None:
    for name in ("three_player_game", "four_player_game"):
        rec = golden(name)
        stripped = copy.deepcopy(rec)
        for h in stripped["hands"]:
            del h["deck"]
        assert match_to_record(game_from_record(stripped)) == rec


def test_replay_command_prints_each_deal_and_the_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(GOLDEN / "three_player_game.json")]) == 0
    out = capsys.readouterr().out.splitlines()
    rec = golden("three_player_game")
    lines = [ln for ln in out if ln.startswith("Hand ")]
    assert len(lines) == len(rec["hands"])
    assert lines[0].startswith("Hand 1 (South deals and sits out; North against East): North knocked with 7")
    assert lines[0].endswith("[8-0-0]")
    assert out[-1] == "South wins: South 335, East 62, North 28; by 273 over the next best."

    assert main(["replay", str(GOLDEN / "four_player_game.json")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Hand 1 (North against East, North deals; South against West, South deals): Table 1:")
    assert out[0].endswith("East & West won both hands and score both results added: 8 + 34 = 42. [0-42]")
    assert out[-1] == "North & South win 372 to 92, by 280."


def test_replay_json_of_a_four_player_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(GOLDEN / "four_player_game.json"), "--json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert rep["ok"] and rep["teams"] == {"North & South": ["North", "South"], "East & West": ["East", "West"]}
    assert len(rep["hands"]) == 2 * len(rep["deals"])
    assert [h["table"] for h in rep["hands"][:4]] == [1, 2, 1, 2]
    d2 = rep["deals"][1]  # a dead hand at table 1: the other table's result is all that counts
    assert d2["hands"] == [3, 4] and d2["winner"] == 1 and d2["points"] == 10 and d2["totals"] == [[0, 52]]
    assert rep["hands"][2]["result"]["kind"] == "dead" and rep["hands"][2]["winner"] is None
    assert rep["game"]["final"]["totals"] == [372, 92] and rep["game"]["final"]["winner"] == 0


def test_a_game_played_at_the_table_replays_from_its_record() -> None:
    from ginrummy.table import Seat, Table

    g = Game(Rules.preset("online", target=80), players=["A", "B", "C"], seed=17)
    t = Table(g, [Seat(n, get_player("simple", seed=i)) for i, n in enumerate("ABC")])
    while not g.is_over:
        t.deal()
        t.play_computers()
    rec = match_to_record(g)
    again = game_from_record(rec)
    assert [h.history for h in again.hands] == [h.history for h in g.hands]
    assert again.final() == g.final()
