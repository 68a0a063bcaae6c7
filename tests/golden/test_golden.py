"""Golden game records replay exactly: every action legal, every stored result re-derived,
and record -> replay -> record gives the same bytes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ginrummy.record import dumps, game_from_record, loads, match_to_record, replay_report

HERE = Path(__file__).parent
RECORDS = sorted(HERE.glob("*.json"))


def test_there_are_golden_records() -> None:
    names = {p.stem for p in RECORDS}
    assert {"classic_game", "online_game", "app_game", "oklahoma_game", "hollywood_game"} <= names
    assert {"three_player_game", "four_player_game"} <= names


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_golden_record_round_trips_byte_identically(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    match = game_from_record(loads(text))
    assert dumps(match_to_record(match)) == text


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_golden_record_outcomes(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    report = replay_report(data)
    assert report["ok"], report
    assert [h["result"] for h in report["hands"]] == [h["result"] for h in data["hands"]]
    assert report["game"] == data["result"]
    if data["kind"] == "game":
        final = data["result"]["final"]
        assert data["result"]["over"] and final is not None
        w = final["winner"]
        others = [t for s, t in enumerate(final["totals"]) if s != w]
        assert final["totals"][w] - max(others) == final["margin"]
        # Totals toward the target, worked out here from the hands' results: the game ended at
        # the first hand (deal) reaching it.
        rules = game_from_record(data).rules
        players = len(data["players"])
        target = rules.team_target if players == 4 else rules.target
        if not data["result"]["final"]["games"]:
            running = [0] * len(final["points"])
            per = 2 if players == 4 else 1
            deals = [data["hands"][i : i + per] for i in range(0, len(data["hands"]), per)]
            for i, deal in enumerate(deals):
                won = [0] * len(running)
                for h in deal:
                    r = h["result"]
                    if r["winner"] is not None:
                        seat = h["seats"][r["winner"]] if players > 2 else r["winner"]
                        won[seat % 2 if players == 4 else seat] += r["points"]
                if players == 4:  # the team with more points at the tables scores the difference
                    won = [max(0, won[0] - won[1]), max(0, won[1] - won[0])]
                running = [a + b for a, b in zip(running, won, strict=True)]
                reached = max(running) >= target
                assert reached == (i == len(deals) - 1)
            assert running == final["points"]


def test_classic_golden_story() -> None:
    """The classic game, checked by hand against its record: who won, and by how much."""
    data = json.loads((HERE / "classic_game.json").read_text(encoding="utf-8"))
    final = data["result"]["final"]
    kinds = [h["result"]["kind"] for h in data["hands"]]
    assert "undercut" in kinds
    assert final["totals"] == [320, 105] and final["winner"] == 0 and final["margin"] == 215
    # Winner deals the next hand (classic), so each dealer is the previous hand's winner.
    for prev, nxt in zip(data["hands"], data["hands"][1:], strict=False):
        assert nxt["dealer"] == prev["result"]["winner"]


def test_oklahoma_golden_extra_boxes_do_not_count_toward_target() -> None:
    data = json.loads((HERE / "oklahoma_game.json").read_text(encoding="utf-8"))
    final = data["result"]["final"]
    assert sum(final["extra_boxes"]) > 0
    assert final["box_bonus"] == [(w + e) * 20 for w, e in zip(final["hands_won"], final["extra_boxes"], strict=True)]
    assert max(final["points"]) >= 150 > min(final["points"])


def test_three_player_golden_rotation() -> None:
    """Each hand the dealer sits out and the other two play; the loser of each hand deals the next."""
    data = json.loads((HERE / "three_player_game.json").read_text(encoding="utf-8"))
    hands = data["hands"]
    assert hands[0]["dealt_by"] == data["first_dealer"] and len(hands) > 5
    for h in hands:
        assert h["dealt_by"] not in h["seats"] and sorted([*h["seats"], h["dealt_by"]]) == [0, 1, 2]
    for prev, nxt in zip(hands, hands[1:], strict=False):
        r = prev["result"]
        loser = prev["dealt_by"] if r["winner"] is None else prev["seats"][1 - r["winner"]]
        assert nxt["dealt_by"] == loser
    assert len({h["result"]["winner"] is not None and h["seats"][h["result"]["winner"]] for h in hands}) == 3


def test_four_player_golden_tables() -> None:
    """Two tables a deal, one player of each team at each; partners switch opponents every deal."""
    data = json.loads((HERE / "four_player_game.json").read_text(encoding="utf-8"))
    hands = data["hands"]
    assert len(hands) % 2 == 0
    for k in range(0, len(hands), 2):
        a, b = hands[k]["seats"], hands[k + 1]["seats"]
        assert (a[0], b[0]) == (0, 2) and {a[1], b[1]} == {1, 3}
        assert a[1] == (1 if k % 4 == 0 else 3)
    kinds = {h["result"]["kind"] for h in hands}
    assert {"dead", "gin", "undercut"} <= kinds
    assert data["result"]["final"]["totals"] == [372, 92]
