"""The games store on both databases (a SQLite file and a real PostgreSQL server): the same calls
give the same rows, one writer per action and per deal, migrations from schema 2, a newer schema
refused, and the scorekeeper's own table through ``Store.connection``."""

from __future__ import annotations

import threading

import pytest
from fastapi.testclient import TestClient

from ginrummy.storage import SCHEMA_VERSION, SeatRow, Store, StoreError, Taken, hash_token
from ginrummy.web.app import create_app


def _game(store: Store, game_id: str = "g1", computer: bool = True) -> None:
    store.create_game(
        game_id=game_id,
        rules={"preset": "classic", "overrides": {}},
        seed=2**62 + 7,
        first_dealer=0,
        seats=[
            SeatRow(0, hash_token("t0"), "Ann", "human", "me"),
            SeatRow(1, hash_token("t1"), "Bo", "simple" if computer else "human"),
        ],
    )


def test_the_same_calls_give_the_same_rows(store_target: str) -> None:
    store = Store(store_target)
    try:
        _game(store)
        row = store.get_game("g1")
        assert row is not None and row.seed == 2**62 + 7 and row.names == ["Ann", "Bo"] and row.computer_seat == 1
        assert row.status == "playing" and not row.shared and row.pace is None and isinstance(row.created, float)
        store.add_hand("g1", 0, 0, list(range(52)), "n0")
        # Seat 0 deals the first hand, so seat 1 takes or passes the upcard first.
        store.append_action("g1", 0, 0, 1, "pass")
        stored = store.load_match("g1")
        assert stored is not None and [a.action for a in stored.actions] == ["pass"]
        assert stored.match.hand is not None and stored.match.hand.current == 0
        assert store.set_ready("g1", 0, 0) == [0] and store.set_ready("g1", 0, 0) == [0]
        assert store.set_ready("g1", 0, 1) == [0, 1] and store.ready("g1", 1) == []
        store.set_pace("g1", 1.25)
        assert store.get_game("g1").pace == 1.25  # type: ignore[union-attr]
        assert store.claim_seat("g1", 1, "you") and not store.claim_seat("g1", 1, "other")
        assert [g.id for g in store.list_games(player="you")] == ["g1"]
        hands, actions = store.actions_since("g1", 1, 0)
        assert [h.hand_no for h in hands] == [0] and actions == []
        store.finish_game("g1", {"totals": [0, 0]})
        assert [g.id for g, _ in store.finished_hands()] == ["g1"]
        # A float survives as a float (a 4-byte REAL would round today's time to minutes).
        assert abs(store.get_game("g1").created - row.created) < 1e-6  # type: ignore[union-attr]
    finally:
        store.close()


def test_one_writer_per_action_and_per_deal(store_target: str) -> None:
    """Two stores on one database (two app instances): the second writer of a step is refused, whole."""
    a, b = Store(store_target), Store(store_target)
    try:
        _game(a)
        a.add_hand("g1", 0, 0, list(range(52)), "n0")
        with pytest.raises(Taken, match="hand 1 is already dealt"):
            b.add_hand("g1", 0, 0, list(reversed(range(52))), "other")
        a.append_action("g1", 0, 0, 1, "pass")
        with pytest.raises(Taken, match="action 0 is already stored"):
            b.append_action("g1", 0, 0, 1, "take")
        assert [x.action for x in b.actions("g1")] == ["pass"] and b.hands("g1")[0].nonce == "n0"
        # Many threads racing for the same step: exactly one wins.
        wins: list[int] = []

        def race(i: int) -> None:
            try:
                (a if i % 2 else b).append_action("g1", 1, 0, 0, "pass")
                wins.append(i)
            except Taken:
                pass

        threads = [threading.Thread(target=race, args=(i,)) for i in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(wins) == 1 and len(a.actions("g1")) == 2
    finally:
        a.close()
        b.close()


def test_a_schema_2_database_is_migrated_and_a_newer_one_refused(store_target: str) -> None:
    store = Store(store_target)
    _game(store)
    store.add_hand("g1", 0, 0, list(range(52)), "n0")
    with store.connection() as c:  # back to schema 2: no pace, no ready
        c.execute("DROP TABLE ready")
        c.execute("ALTER TABLE games DROP COLUMN pace")
        store.database.set_version(c, 2)
    store.close()
    store = Store(store_target)
    try:
        with store.connection() as c:
            assert store.database.version(c) == SCHEMA_VERSION == 3
            assert "pace" in store.database.columns(c, "games")
        assert store.get_game("g1").names == ["Ann", "Bo"]  # type: ignore[union-attr]
        assert store.set_ready("g1", 0, 0) == [0] and store.load_match("g1") is not None
        with store.connection() as c:
            store.database.set_version(c, 99)
    finally:
        store.close()
    with pytest.raises(StoreError, match="schema version 99, newer"):
        Store(store_target)


def test_the_app_and_its_scorekeeper_on_each_database(store_target: str) -> None:
    with TestClient(create_app(store_target, computer_delay=0, compute="inline")) as c:
        r = c.post("/api/scorekeeper/sheets", json={"names": ["Ann", "Bo"], "rules": {"preset": "classic"}})
        assert r.status_code == 201, r.text
        sheet = r.json()["id"]
        r = c.post(f"/api/scorekeeper/sheets/{sheet}/hands", json={"knocker": "Ann", "deadwood": {"Ann": 3, "Bo": 20}})
        assert r.status_code == 201, r.text
        assert c.get(f"/api/scorekeeper/sheets/{sheet}").json()["hands"][0]["points"] == 17
        assert c.delete(f"/api/scorekeeper/sheets/{sheet}").status_code == 204
        assert c.get(f"/api/scorekeeper/sheets/{sheet}").status_code == 404
