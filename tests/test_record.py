"""Game records: writing, exact replay, the first illegal action, and ``ginrummy replay``."""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from ginrummy.actions import Action, Kind
from ginrummy.cards import card_str, cards_of, parse_card
from ginrummy.cli import main
from ginrummy.errors import RecordError
from ginrummy.match import Match
from ginrummy.record import (
    FORMAT,
    ReplayError,
    dumps,
    load,
    loads,
    match_from_record,
    match_to_record,
    replay_report,
    save,
)
from ginrummy.rules import Rules

GOLDEN = Path(__file__).parent / "golden"
sys.path.insert(0, str(GOLDEN))
from golden_policy import choose, play_game  # noqa: E402


def golden(name: str = "classic_game") -> dict[str, Any]:
    return loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))


def test_record_shape_and_key_order() -> None:
    rec = match_to_record(play_game(Rules.preset("online", knock_limit=8), 3, players=("You", "Sam")))
    assert list(rec) == ["format", "kind", "rules", "first_dealer", "seed", "players", "hands", "result"]
    assert rec["format"] == FORMAT and rec["kind"] == "game"
    assert rec["rules"] == {"preset": "online", "overrides": {"knock_limit": 8}}
    assert rec["players"] == ["You", "Sam"]
    h0 = rec["hands"][0]
    assert list(h0) == ["dealer", "deck", "actions", "result"]
    assert len(h0["deck"]) == 52 and len(set(h0["deck"])) == 52
    text = dumps(rec)
    assert text.endswith("}\n") and text.startswith('{\n  "format"')


def test_deck_order_convention() -> None:
    m = Match(Rules(), first_dealer=0, seed=1)
    deck = list(range(51, -1, -1))
    h = m.start_hand(deck)
    assert h.hands[1] >> deck[0] & 1 and h.hands[0] >> deck[1] & 1  # non-dealer (1) gets deck[0]
    assert h.upcard == deck[20]
    assert h.stock[-1] == deck[21]  # the top of the stock
    rec = match_to_record(m)
    assert rec["hands"][0]["deck"] == [card_str(c) for c in deck]


def test_round_trip_with_an_unfinished_hand(tmp_path: Path) -> None:
    m = play_game(Rules(), 4)
    m2 = Match(Rules(), first_dealer=1, seed=8)
    h = m2.start_hand()
    for _ in range(7):
        for a in choose(h):
            m2.apply(a)
    rec = match_to_record(m2)
    assert rec["hands"][0]["result"] is None and rec["result"]["over"] is False
    path = tmp_path / "r.json"
    save(rec, path)
    back = match_from_record(load(path))
    assert back.in_progress and len(back.hand.history) == len(h.history)  # type: ignore[union-attr]
    assert dumps(match_to_record(back)) == path.read_text(encoding="utf-8")
    assert dumps(match_to_record(match_from_record(match_to_record(m)))) == dumps(match_to_record(m))


def _first(rec: dict[str, Any], kind: Kind, hand: int = 1) -> int:
    for j, text in enumerate(rec["hands"][hand]["actions"]):
        if Action.parse(text).kind is kind:
            return j
    raise AssertionError("no such action")


def test_first_illegal_action_is_reported_with_hand_and_index(capsys: pytest.CaptureFixture[str],
                                                              tmp_path: Path) -> None:
    rec = golden()
    j = _first(rec, Kind.DISCARD)
    # Replay up to that action to find a card the player does not hold.
    m = match_from_record({**rec, "hands": [rec["hands"][0], {**rec["hands"][1], "actions":
                           rec["hands"][1]["actions"][:j], "result": None}], "result": None})
    assert m.hand is not None
    other = cards_of(m.hand.hands[1 - m.hand.current])[0]
    bad = copy.deepcopy(rec)
    bad["hands"][1]["actions"][j] = card_str(other)
    # A later mistake must not be reported first.
    bad["hands"][2]["actions"][0] = "done"
    with pytest.raises(ReplayError) as e:
        match_from_record(bad)
    assert (e.value.hand, e.value.index) == (1, j) and e.value.rule
    assert f"hand 2, action {j + 1} (index {j})" in str(e.value) and "not in your hand" in str(e.value)
    assert isinstance(e.value, RecordError)

    path = tmp_path / "bad.json"
    save(bad, path)
    code = main(["replay", str(path), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 1
    assert out["ok"] is False and out["hand"] == 1 and out["index"] == j and out["action"] == card_str(other)
    code = main(["replay", str(path)])
    text = capsys.readouterr().out
    assert code == 1 and text.startswith("illegal record: hand 2, action")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r["hands"][0]["actions"].__setitem__(0, "stock"), r"hand 1, action 1 \(index 0\) 'stock'.*upcard"),
        (lambda r: r["hands"][0]["actions"].__setitem__(0, "blah"), r"hand 1, action 1 .*not an action"),
        (lambda r: r["hands"][0]["actions"].append("stock"), r"hand 1, action .*the hand is already over"),
        (lambda r: r["hands"][0]["result"].__setitem__("points", 99), r"hand 1: the record's result disagrees.*points"),
        (lambda r: r["result"]["final"].__setitem__("margin", 1), r"game result disagrees"),
        (lambda r: r["hands"][1].__setitem__("dealer", 1 - r["hands"][1]["dealer"]), r"hand 2: the dealer must be"),
        (lambda r: r["hands"][0]["deck"].__setitem__(0, r["hands"][0]["deck"][1]), r"hand 1: the deck must hold"),
        (lambda r: r["hands"].append(copy.deepcopy(r["hands"][-1])), r"the game was already over"),
        (lambda r: r.__setitem__("format", "other/1"), r"not a game record"),
        (lambda r: r.__setitem__("kind", "hand"), r"exactly one hand"),
        (lambda r: r.__setitem__("first_dealer", 2), r"first_dealer must be 0 or 1"),
        (lambda r: r["rules"].__setitem__("preset", "nope"), r"unknown rule preset"),
        (lambda r: r["hands"][0]["actions"].pop(), r"hand 1 is not finished, but another hand follows"),
    ],
)
def test_bad_records(change: Any, message: str) -> None:
    rec = golden()
    change(rec)
    with pytest.raises(ReplayError, match=message):
        match_from_record(rec)
    assert replay_report(rec)["ok"] is False


def test_hands_without_deck_use_the_match_seed() -> None:
    rec = golden("online_game")
    stripped = copy.deepcopy(rec)
    for h in stripped["hands"]:
        del h["deck"]
    assert match_to_record(match_from_record(stripped)) == rec


def test_integer_and_loose_action_notation_replays_to_canonical_text() -> None:
    rec = golden("single_hand")
    loose = copy.deepcopy(rec)
    acts = loose["hands"][0]["actions"]
    loose["hands"][0]["actions"] = [int(Action.parse(a)) if i % 2 else a.upper() for i, a in enumerate(acts)]
    assert match_to_record(match_from_record(loose)) == rec


def test_replay_command_prints_each_hand_and_the_game(capsys: pytest.CaptureFixture[str]) -> None:
    path = GOLDEN / "classic_game.json"
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    data = golden()
    assert len([ln for ln in out if ln.startswith("Hand ")]) == len(data["hands"])
    assert out[-1] == "North wins 320 to 105, by 215."
    assert main(["replay", str(path), "--json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert rep["ok"] and rep["game"]["final"]["totals"] == [320, 105]
    assert rep["hands"][0]["explain"]


def test_single_hand_record() -> None:
    rec = golden("single_hand")
    assert rec["kind"] == "hand" and len(rec["hands"]) == 1
    m = match_from_record(rec)
    assert m.players == ("You", "Sam") and len(m.results) == 1
    with pytest.raises(RecordError):
        match_to_record(play_game(Rules(), 2), kind="hand")


def test_unreadable_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "x.json"
    p.write_text("{", encoding="utf-8")
    assert main(["replay", str(p)]) == 2
    assert "not valid JSON" in capsys.readouterr().err
    assert main(["replay", str(tmp_path / "missing.json")]) == 2
    assert parse_card("As") == 0


def test_hand_without_deck_needs_a_seed() -> None:
    rec = golden()
    rec["seed"] = None
    rec["result"] = None
    del rec["hands"][0]["deck"]
    with pytest.raises(ReplayError, match="hand 1 has no deck, and the record has no seed"):
        match_from_record(rec)
