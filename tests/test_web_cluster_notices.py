"""Which changes two app instances on one PostgreSQL database tell each other: a game followed by
one instance only costs no notification per move, and an instance that held the game in memory
unheard, or hears of a new follower late, still shows the game as stored."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import httpx
import psycopg

from ginrummy.web.cluster import CHANNEL
from instances import Instance, Seat, finished, my_move


class Notices:
    """Every notification on the instances' channel, heard on a connection of the test's own."""

    def __init__(self, url: str) -> None:
        self.got: list[dict[str, Any]] = []
        self._stop = threading.Event()
        self._conn = psycopg.connect(url, autocommit=True)
        self._conn.execute(f"LISTEN {CHANNEL}")
        self._thread = threading.Thread(target=self._listen, daemon=True)
        self._thread.start()

    def _listen(self) -> None:
        while not self._stop.is_set():
            for n in self._conn.notifies(timeout=0.2):
                self.got.append(json.loads(n.payload))

    def changes(self, game_id: str) -> int:
        """How many "the game changed" notices of this game were heard so far."""
        return sum(1 for m in list(self.got) if m.get("g") == game_id and m.get("s"))

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)
        self._conn.close()


def play_moves(seat: Seat, moves: int) -> None:
    """The person's next ``moves`` moves, each answered (the computer's turn done) before the next."""
    for _ in range(moves):
        seat.until(my_move)
        if finished(seat.state):
            return
        seq = seat.state["seq"]
        assert seat.move()
        seat.until(lambda s, seq=seq: s["seq"] > seq)
    seat.until(my_move)


def test_a_game_followed_by_one_instance_costs_no_notice_and_the_other_reads_it_when_it_follows(
    pair: tuple[Instance, Instance], pg_db: str
) -> None:
    a, b = pair
    notices = Notices(pg_db)
    try:
        # Made on b, so b holds the game in memory with nobody connected there; the person plays on a.
        g = httpx.post(f"{b.base}/api/games", json={"opponent": "simple", "rules": {
            "preset": "classic", "overrides": {"target": 500}}}).json()
        here = Seat(a.ws(g["id"]), g["token"])
        try:
            here.until(my_move)
            time.sleep(0.3)  # the notices of the game's start (made where nobody followed it) are in
            before = notices.changes(g["id"])
            play_moves(here, 5)
            time.sleep(0.3)
            assert notices.changes(g["id"]) == before, "moves of a game only a follows were told to the others"
            # A second tab on b: b reads the game again (it was told nothing) and shows it as a does.
            there = Seat(b.ws(g["id"]), g["token"])
            try:
                assert there.state["seq"] == here.state["seq"]
                assert there.state["view"] == here.state["view"]
                # Now that b follows the game, a tells it every change, and b's page moves along.
                play_moves(here, 3)
                there.until(lambda s: s["seq"] == here.state["seq"])
                assert there.state["view"] == here.state["view"]
                end = time.monotonic() + 5  # the test's own listener may hear it a moment after b
                while notices.changes(g["id"]) == before and time.monotonic() < end:
                    time.sleep(0.05)
                assert notices.changes(g["id"]) > before
            finally:
                there.close()
        finally:
            here.close()
    finally:
        notices.close()
