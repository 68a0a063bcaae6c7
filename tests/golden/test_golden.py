"""Golden game records replay exactly: every action legal, every stored result re-derived,
and record -> replay -> record gives the same bytes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ginrummy.record import dumps, loads, match_from_record, match_to_record, replay_report

HERE = Path(__file__).parent
RECORDS = sorted(HERE.glob("*.json"))


def test_there_are_golden_records() -> None:
    names = {p.stem for p in RECORDS}
    assert {"classic_game", "online_game", "app_game", "oklahoma_game", "hollywood_game"} <= names


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_golden_record_round_trips_byte_identically(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    match = match_from_record(loads(text))
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
        assert final["totals"][w] - final["totals"][1 - w] == final["margin"]
        # Totals toward the target: hand points; the game ended at the first hand reaching it.
        target = match_from_record(data).rules.target
        if not data["result"]["final"]["games"]:
            running = [0, 0]
            for i, h in enumerate(data["hands"]):
                r = h["result"]
                if r["winner"] is not None:
                    running[r["winner"]] += r["points"]
                reached = max(running) >= target
                assert reached == (i == len(data["hands"]) - 1)
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
