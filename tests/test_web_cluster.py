"""Two real app instances (``ginrummy serve``) on one PostgreSQL database: a friend game whose two
players are on different instances, and a computer game held by both, whose computer moves are
decided once, and taken over by the other instance when the holder is killed with SIGKILL; and
games of three and four with people on both instances."""

from __future__ import annotations

import re
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import pytest

from ginrummy.storage import Store
from ginrummy.web.cluster import LEAD_RETRY
from instances import Instance, Seat, finished, my_move, start_pair


def test_a_move_racing_the_other_instances_notice_is_refused_by_the_database(pg_db: str) -> None:
    """Two apps on one database both hold a game; the second hears nothing of the first's move
    (its notice held back) and takes the same move number: the database refuses it, whole."""
    from fastapi.testclient import TestClient

    from ginrummy.web import autoplay
    from ginrummy.web.app import create_app

    one = create_app(pg_db, computer_delay=0, compute="inline")
    two = create_app(pg_db, computer_delay=0, compute="inline")
    with TestClient(one) as c1, TestClient(two) as c2:
        g = c1.post("/api/games", json={"opponent": "human"}).json()
        tokens = [g["token"], g["invite_token"]]
        s = c1.get(f"/api/games/{g['id']}/state", headers={"X-Seat-Token": tokens[0]}).json()
        mover = {"X-Seat-Token": tokens[s["view"]["current"]]}
        s1 = c1.get(f"/api/games/{g['id']}/state", headers=mover).json()
        s2 = c2.get(f"/api/games/{g['id']}/state", headers=mover).json()
        assert s1["seq"] == s2["seq"] and s1["view"] == s2["view"]
        heard: list[Any] = []
        two.state.games.on_message = heard.append  # the notice is late
        move = autoplay.respond(s1)
        assert move is not None and move["type"] == "action"
        assert c1.post(f"/api/games/{g['id']}/actions", json=move, headers=mover).status_code == 200
        other = next(a for a in s2["view"]["legal"] if a != move["action"])
        r = c2.post(f"/api/games/{g['id']}/actions", json={**move, "action": other}, headers=mover)
        assert r.status_code == 409 and r.json()["error"] == "stale", r.text
        after = c2.get(f"/api/games/{g['id']}/state", headers=mover).json()  # two has caught up
        assert after["seq"] == s1["seq"] + 1 and after["log"][-1] == c1.get(
            f"/api/games/{g['id']}/state", headers=mover).json()["log"][-1]
    store = Store(pg_db)
    try:
        assert [a.action for a in store.actions(g["id"])] == [move["action"]]
    finally:
        store.close()


def play_friends(seats: list[Seat], max_rounds: int = 4000) -> dict[str, Any]:
    """Both seats play; after each round of moves, each socket must receive the new state."""
    for _ in range(max_rounds):
        if finished(seats[0].state):
            return seats[0].state
        before = [s.state["seq"] for s in seats]
        ready = [s.state["game"]["ready"] for s in seats]
        sent = [s.move() for s in seats]
        assert any(sent), f"nobody could move at seq {before}"
        for s, seq, was_ready in zip(seats, before, ready, strict=True):
            # A move changes the version; a single "next" only marks that seat ready (on both instances).
            s.until(lambda st, seq=seq, was=was_ready: st["seq"] > seq or st["game"]["ready"] != was)
        top = max(s.state["seq"] for s in seats)  # a layout is several moves: both reach the last
        for s in seats:
            s.until(lambda st, top=top: st["seq"] >= top)
    raise AssertionError("the game did not finish")


def test_a_friend_game_with_its_players_on_two_instances(pair: tuple[Instance, Instance], pg_db: str) -> None:
    a, b = pair
    g = httpx.post(f"{a.base}/api/games", json={"opponent": "human", "names": ["Ann", "Bo"], "rules": {
        "preset": "classic", "overrides": {"target": 25}}}).json()
    ann = Seat(a.ws(g["id"]), g["token"])
    bo = Seat(b.ws(g["id"]), g["invite_token"])
    try:
        # Each sees the other online, though connected to the other instance.
        ann.until(lambda s: s["game"]["connected"] == [True, True])
        bo.until(lambda s: s["game"]["connected"] == [True, True])
        end = play_friends([ann, bo])
        assert bo.state["seq"] == end["seq"] and bo.state["game"]["final"] == end["game"]["final"]
        assert bo.state["game"]["sheet"] == end["game"]["sheet"] and len(end["game"]["sheet"]) >= 1
    finally:
        ann.close()
        bo.close()
    store = Store(pg_db)
    try:
        stored = store.load_match(g["id"])  # the log replays through the engine, every seat checked
        assert stored is not None and stored.match.is_over and stored.row.status == "finished"
        assert [x.seq for x in stored.actions] == list(range(len(stored.actions)))
        assert len(stored.actions) + len(stored.hands) == end["seq"]
    finally:
        store.close()


LEADS = "game {}: this instance decides the computer's moves"


def _decided(instance: Instance, game_id: str) -> list[int]:
    return [int(n) for n in re.findall(rf"game {game_id}: the computer decided move (\d+)", instance.log_text())]


def test_computer_moves_are_decided_once_and_taken_over_when_the_holder_dies(pg_db: str, tmp_path: Path) -> None:
    a, b = start_pair(pg_db, tmp_path, delay=0.6)
    try:
        # A target one hand hardly reaches: the game is still on when an instance is killed.
        g = httpx.post(f"{a.base}/api/games", json={"opponent": "simple", "rules": {
            "preset": "classic", "overrides": {"target": 100}}}).json()
        gid = g["id"]
        here = Seat(a.ws(gid), g["token"])
        here.send({"type": "pace", "seconds": 0})  # the table's pace holds on both instances
        # The person's first move on a: a takes the game's lock (nobody else wants it yet), and keeps
        # it while the person is connected there.
        here.until(my_move)
        seq = here.state["seq"]
        assert here.move()
        here.until(lambda s: s["seq"] > seq)
        assert LEADS.format(gid) in a.log_text()
        there = Seat(b.ws(gid), g["token"])  # the same seat open on both instances (two tabs)
        for _ in range(6):  # both hold the game; each computer move is decided by one of them
            here.until(my_move)
            there.until(lambda s, seq=here.state["seq"]: s["seq"] >= seq)
            if finished(here.state):
                break
            here.move()
            here.until(lambda s, seq=here.state["seq"]: s["seq"] > seq)
        here.until(my_move)
        counts = Counter(_decided(a, gid) + _decided(b, gid))
        assert counts and max(counts.values()) == 1, counts
        # The person moves on instance a, so a decides the computer's answer: kill it meanwhile.
        here.send({"type": "pace", "seconds": 1.0})
        time.sleep(LEAD_RETRY + 0.3)  # b's last try for the lock is over: a, where the person plays, takes it
        here.drain()
        here.until(my_move)
        leads_b = b.log_text().count(LEADS.format(gid))
        while True:  # the person's moves until the turn is the computer's (a draw leaves a discard to make)
            assert here.move(), here.state["view"]
            here.until(lambda s, seq=here.state["seq"]: s["seq"] > seq)
            if not my_move(here.state):
                break
        seq = there.until(lambda s, seq=here.state["seq"]: s["seq"] >= seq)["seq"]
        # a holds the lock (taken once, kept while the person plays there), and waits 1 s.
        assert LEADS.format(gid) in a.log_text() and b.log_text().count(LEADS.format(gid)) == leads_b
        a.kill()
        here.sock.close()
        # b takes the computer's move over (its lock was freed with a's connection) and the game goes on.
        there.until(lambda s: my_move(s) and s["seq"] > seq, timeout=20)
        assert b.log_text().count(LEADS.format(gid)) == leads_b + 1
        there.send({"type": "pace", "seconds": 0})
        for _ in range(3000):
            if finished(there.state):
                break
            if not there.move():
                there.next_state()
                continue
            there.until(lambda s, seq=there.state["seq"]: s["seq"] > seq)
            there.until(my_move)
        assert finished(there.state)
        there.close()
    finally:
        a.stop()
        b.stop()
    store = Store(pg_db)
    try:
        stored = store.load_match(gid)  # nothing lost, nothing twice: the log replays to the end
        assert stored is not None and stored.match.is_over
        assert [x.seq for x in stored.actions] == list(range(len(stored.actions)))
    finally:
        store.close()


@pytest.mark.parametrize("players, others", [(3, ["human", "human"]), (4, ["human", "simple", "human"])])
def test_a_game_of_three_or_four_with_its_players_on_two_instances(
    pair: tuple[Instance, Instance], pg_db: str, players: int, others: list[str]
) -> None:
    """Three or four seats, people on both instances (and a computer at one table of four): each
    sees who is online on the other instance, every deal and move reaches every seat, and the log
    replays through the engine."""
    a, b = pair
    g = httpx.post(f"{a.base}/api/games", json={"players": players, "seats": others, "rules": {
        "preset": "classic", "overrides": {"target": 10, "team_target": 10}}}).json()
    tokens = {0: g["token"], **{i["seat"]: i["token"] for i in g["invites"]}}
    # Seat 1 plays on instance b, the other people on a.
    seats = {s: Seat((b if s == 1 else a).ws(g["id"]), t) for s, t in sorted(tokens.items())}
    try:
        for s in seats.values():
            s.until(lambda st: st["game"]["connected"] == [True] * players)
        for _ in range(6000):
            if all(finished(s.state) for s in seats.values()):
                break
            moved = [(s, s.state["seq"], s.state["game"]["ready"], s.refused) for s in seats.values() if s.move()]
            if not moved:
                # Nobody's last state shows a move of theirs: read what each socket has had since. A
                # quiet socket is given a moment only, so that the next mover, whose new state is
                # already there, reads it at once (a long wait on each quiet seat made most of the
                # test's time).
                for s in seats.values():
                    try:
                        s.next_state(timeout=0.02)
                    except TimeoutError:
                        pass
                continue
            # A move that raced a move at the other table may be refused as stale (after the server's
            # own retries): the person moves again on the next round, as the table page lets them.
            for s, seq, ready, refused in moved:
                s.until(lambda st, s=s, seq=seq, ready=ready, refused=refused: st["seq"] != seq
                        or st["game"]["ready"] != ready or s.refused > refused)
        else:
            raise AssertionError("the game did not finish")
        end = seats[0].state
        for s in seats.values():
            assert s.state["game"]["final"] == end["game"]["final"] and s.state["game"]["final"] is not None
    finally:
        for s in seats.values():
            s.close()
    store = Store(pg_db)
    try:
        stored = store.load_game(g["id"])  # the log replays through the engine, every seat checked
        assert stored is not None and stored.match.is_over and stored.row.status == "finished"
        assert stored.match.seats == players
        assert [x.seq for x in stored.actions] == list(range(len(stored.actions)))
    finally:
        store.close()
