"""Provably fair deals: the commitment shown at the table is the SHA-256 of the documented line, and a
finished game's record lets anyone check every deal offline (``ginrummy verify``)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ginrummy.cli import main
from ginrummy.errors import RecordError
from ginrummy.fairness import verify_record
from ginrummy.web import autoplay
from ginrummy.web.app import create_app
from test_web_api import new_game, wait_my_move


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "games.sqlite3", computer_delay=0, compute="thread")) as c:
        yield c


def play_noting_commitments(client: TestClient) -> tuple[str, dict[int, str], dict[str, Any]]:
    """A whole game over HTTP, keeping the deal commitment the table showed for each hand."""
    gid, headers = new_game(client, rules={"preset": "classic", "overrides": {"target": 30}})
    shown: dict[int, str] = {}
    for _ in range(3000):
        s = wait_my_move(client, gid, headers)
        shown.setdefault(s["game"]["hand_no"], s["game"]["deck_hash"])
        if s["game"]["status"] == "finished":
            break
        msg = autoplay.respond(s)
        assert msg is not None
        path = {"action": "actions", "auto": "auto", "next": "next"}[msg["type"]]
        assert client.post(f"/api/games/{gid}/{path}", json=msg, headers=headers).status_code == 200
    record = client.get(f"/api/games/{gid}/record").json()
    return gid, shown, record


def test_the_commitment_shown_at_the_table_is_the_hash_of_the_documented_line(client: TestClient) -> None:
    gid, shown, record = play_noting_commitments(client)
    assert len(shown) == len(record["hands"]) >= 1
    for n, hd in enumerate(record["hands"], start=1):
        line = f"ginrummy-deal-v2 game {gid} hand {n} nonce {hd['commitment']['nonce']} deck {' '.join(hd['deck'])}"
        assert hashlib.sha256(line.encode()).hexdigest() == shown[n] == hd["commitment"]["sha256"]
    replay = client.get(f"/api/games/{gid}/replay").json()
    assert [h["commitment"] for h in replay["hands"]] == [shown[n] for n in sorted(shown)]


def test_verify_checks_every_deal_offline_and_against_what_the_table_showed(
    client: TestClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, shown, record = play_noting_commitments(client)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    seen = [shown[n][:16] for n in sorted(shown)]
    assert main(["verify", str(path), "--seen", *seen]) == 0
    out = capsys.readouterr().out
    assert "every deal was fixed before its hand began" in out
    assert all(c.matches and c.seen_matches for c in verify_record(record, seen))
    # Someone else's value seen at the table does not match.
    assert main(["verify", str(path), "--seen", "0" * 16]) == 1
    assert "does NOT match" in capsys.readouterr().out
    # A deck changed after the deal no longer matches its commitment.
    deck = record["hands"][0]["deck"]
    deck[0], deck[1] = deck[1], deck[0]
    path.write_text(json.dumps(record))
    assert main(["verify", str(path), "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is False and report["hands"][0]["matches"] is False


def test_verify_refuses_a_record_without_commitments_and_a_too_short_value() -> None:
    with pytest.raises(RecordError, match="game_id"):
        verify_record({"hands": []})
    with pytest.raises(RecordError, match="hand 1 has no deal commitment"):
        verify_record({"game_id": "g", "hands": [{"deck": []}]})
    deal = {"game_id": "g", "hands": [{"deck": ["As"], "commitment": {"scheme": 2, "nonce": "n", "sha256": "ab"}}]}
    with pytest.raises(RecordError, match="16 hex digits"):
        verify_record(deal, ["ab"])
