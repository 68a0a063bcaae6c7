"""Three and four players: no message to any seat carries a card that seat may not see.

Whole games are played over the WebSockets, every seat a person (so every seat gets every
message: the seat sitting a hand out and, with four players, the partner at the other table),
and again with one person and computer players. Once the game is over, its replay (every card
face up, rebuilt by the engine from the log) gives the true position of each table.

Each message is split in two. Its own-table part (``view``, ``mine``, ``knock``, ``log``,
``explain``, ``last``) is checked exactly as a two-player message is
(:func:`test_web_hidden_info.secrets_for`, in the hand's seats). Everything else (the game, the
tables of the deal) may name only cards the end of a hand shows everyone: those of a table this
seat does not play, once that table's hand is over and only if it was laid out after a knock.
While another table plays, nothing of it is sent: not a card.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ginrummy.web import autoplay
from ginrummy.web.app import create_app
from test_web_hidden_info import cards_in, secrets_for

OWN = ("view", "mine", "knock", "log", "explain", "last")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(tmp_path / "hidden3.sqlite3", computer_delay=0, compute="thread")
    with TestClient(app) as c:
        yield c


def shown_at_end(frames: list[dict[str, Any]]) -> set[str]:
    """The cards a finished hand shows everyone: laid out after a knock; none of a dead hand."""
    f = frames[-1]
    if f["knocker"] is None:
        return set()
    out = set(f["hands"][0]) | set(f["hands"][1])
    for key in ("knocker_melds", "laid_on", "defender_melds"):
        for m in f[key]:
            out.update(m)
    out.update(x["card"] for x in f["layoffs"])
    return out


def check_seat(replay: dict[str, Any], seat: int, messages: list[dict[str, Any]]) -> dict[str, int]:
    """Check every state message one seat received; count what was checked."""
    players = replay["players"]
    per_deal = 2 if players == 4 else 1
    counts = {"messages": 0, "playing": 0, "sitting_out": 0, "other_table_over": 0, "hints": 0}
    secret: set[str] = set()  # what this seat may not know at its latest state
    # A state is sent only when it changed: a seat sitting out, or at the other table, is not
    # told each move made elsewhere (that would tell it the pace of that table's play). Only an
    # answer (to a move that came too late, say) repeats the state it follows.
    repeated = sum(a["type"] == "state" and a == b for a, b in zip(messages, messages[1:], strict=False))
    assert repeated == 0, f"seat {seat} was sent the same state again {repeated} times"
    for msg in messages:
        assert '"deck":' not in json.dumps(msg) and '"stock":' not in json.dumps(msg)
        if msg["type"] == "hint":
            # The computer's suggestions come from this seat's own view only.
            leaked = cards_in(msg) & secret
            assert not leaked, f"a hint to seat {seat} named hidden cards {leaked}"
            counts["hints"] += bool(msg["hints"])
            continue
        if msg["type"] != "state":
            assert not cards_in(msg), msg
            continue
        counts["messages"] += 1
        deal = msg["game"]["deal"]
        hands = replay["hands"][per_deal * (deal - 1) : per_deal * deal]
        rest = {k: v for k, v in msg.items() if k not in OWN}
        allowed: set[str] = set()
        for t, entry in enumerate(msg["tables"]):
            hand = hands[t]
            assert entry["pairing"]["seats"] == hand["seats"]
            if entry["mine"]:
                continue
            assert seat not in hand["seats"]
            if entry["over"]:
                allowed |= shown_at_end(hand["frames"])
                counts["other_table_over"] += 1
                shown = entry["shown"]
                # What the other table shows is exactly its end: the laid-out hands, nothing face down.
                for s in (0, 1):
                    if shown["hands"][s] is not None:
                        assert sorted(shown["hands"][s]) == sorted(hand["frames"][-1]["hands"][s])
            else:
                assert "shown" not in entry and "result" not in entry
        leaked = cards_in(rest) - allowed
        assert not leaked, f"seat {seat} was sent cards {leaked} of a table it does not play (deal {deal})"
        secret = {f"{r}{x}" for r in "A23456789TJQK" for x in "shdc"}  # sitting out: every card
        if msg["view"] is None:
            assert msg["sits_out"] and not any(e["mine"] for e in msg["tables"])
            assert not cards_in({k: msg[k] for k in OWN})
            counts["sitting_out"] += 1
            continue
        t, hs = msg["table"], msg["hand_seat"]
        hand = hands[t]
        assert hand["seats"][hs] == seat
        frames = hand["frames"]
        k = len(msg["view"]["events"])
        assert sorted(frames[k]["hands"][hs]) == sorted(msg["view"]["hand"])  # the message is this position
        own = {key: msg[key] for key in OWN}
        secret = secrets_for(hs, frames, k)
        leaked = cards_in(own) & secret
        assert not leaked, f"seat {seat} was sent hidden cards {leaked} (deal {deal}, table {t + 1}, step {k})"
        counts["playing"] += 1
    return counts


def drain(ws: Any, into: list[dict[str, Any]], ref: int) -> None:
    """Everything queued to one socket up to now: a ping's pong comes after it (one writer per socket)."""
    ws.send_json({"type": "ping", "ref": ref})
    while True:
        msg = ws.receive_json()
        if msg["type"] == "pong":
            assert msg["ref"] == ref
            return
        into.append(msg)


def play_people(client: TestClient, body: dict[str, Any]) -> tuple[str, list[list[dict[str, Any]]]]:
    """A whole game of people only, every seat on its own WebSocket; every message kept."""
    g = client.post("/api/games", json=body).json()
    n = g["players"]
    tokens = [g["token"], *(i["token"] for i in g["invites"])]
    assert [i["seat"] for i in g["invites"]] == list(range(1, n))
    received: list[list[dict[str, Any]]] = [[] for _ in range(n)]
    sockets = [client.websocket_connect(f"/api/ws/{g['id']}") for _ in range(n)]
    ws = [s.__enter__() for s in sockets]

    def settle(first: int, ref: int, joined: int = n) -> None:
        # The seat that spoke first: once its pong is back its message was handled and every
        # seat's state queued; then the queue up to now of each other seat that said hello.
        drain(ws[first], received[first], ref)
        for s in range(joined):
            if s != first:
                drain(ws[s], received[s], ref)

    try:
        for s in range(n):
            ws[s].send_json({"type": "hello", "token": tokens[s]})
            settle(s, -1 - s, s + 1)
        for step in range(20000):
            last = [next(m for m in reversed(r) if m["type"] == "state") for r in received]
            if last[0]["game"]["status"] == "finished":
                break
            mover = next(s for s in range(n) if autoplay.respond(last[s]) is not None)
            out = autoplay.respond(last[mover])
            assert out is not None
            if step % 5 == 0:
                # Now and then a seat asks for the computer's hint first (the one with the move, or
                # one sitting out): answered to that seat only.
                asker = mover if step % 10 == 0 else (mover + 1) % n
                ws[asker].send_json({"type": "hint"})
                reply = ws[asker].receive_json()
                assert reply["type"] == "hint", reply
                received[asker].append(reply)
            ws[mover].send_json(out)
            settle(mover, step)
            assert received[mover][-1]["type"] == "state", received[mover][-1]  # the mover's move was answered
        else:
            raise AssertionError("game did not finish")
    finally:
        for s in sockets:
            s.__exit__(None, None, None)
    return g["id"], received


def test_three_people_never_see_a_card_they_may_not(client: TestClient) -> None:
    gid, received = play_people(
        client, {"players": 3, "seats": ["human", "human"], "rules": {"preset": "classic", "overrides": {"target": 60}}}
    )
    replay = client.get(f"/api/games/{gid}/replay").json()
    assert replay["players"] == 3 and replay["hands"]
    totals = [check_seat(replay, s, received[s]) for s in range(3)]
    assert sum(c["hints"] for c in totals) > 3
    for s, c in enumerate(totals):
        played = sum(s in h["seats"] for h in replay["hands"])
        # A seat was sent every move of the hands it played, and a message for each move of the
        # hands it sat out (the dealer sits out), each holding nothing of that hand but its end.
        assert (c["playing"] > 3) == (played > 0)
        assert (c["sitting_out"] > 0) == (played < len(replay["hands"]))
    assert sum(c["other_table_over"] for c in totals) >= len(replay["hands"])
    final = received[0][-1]["game"]["final"]
    assert final is not None and final["winner"] in (0, 1, 2) and len(final["totals"]) == 3


def test_four_people_never_see_a_card_they_may_not(client: TestClient) -> None:
    gid, received = play_people(
        client,
        {"players": 4, "seats": ["human", "human", "human"], "rules": {"preset": "classic", "overrides": {"team_target": 40}}},
    )
    replay = client.get(f"/api/games/{gid}/replay").json()
    assert replay["players"] == 4 and len(replay["hands"]) % 2 == 0
    totals = [check_seat(replay, s, received[s]) for s in range(4)]
    for c in totals:
        assert c["playing"] > 10 and c["sitting_out"] == 0
        # The partner's table, once its hand is over, while this seat's table still played or after.
        assert c["other_table_over"] >= 1
    last = received[1][-1]
    assert last["game"]["columns"] == ["Player 1 & Player 3", "Player 2 & Player 4"]
    assert last["game"]["final"]["winner"] in (0, 1)


@pytest.mark.parametrize(("players", "rules"), [(3, {"target": 60}), (4, {"team_target": 25})])
def test_one_person_with_computers(client: TestClient, players: int, rules: dict[str, int]) -> None:
    g = client.post(
        "/api/games",
        json={"players": players, "seats": ["simple"] * (players - 1), "rules": {"preset": "app", "overrides": rules}},
    ).json()
    assert g["invites"] == []
    received: list[dict[str, Any]] = []
    with client.websocket_connect(f"/api/ws/{g['id']}") as ws:
        ws.send_json({"type": "hello", "token": g["token"]})
        for _ in range(40000):
            msg = ws.receive_json()
            received.append(msg)
            if msg["type"] == "state" and msg["game"]["status"] == "finished":
                break
            out = autoplay.respond(msg)
            if out is not None:
                ws.send_json(out)
    assert received[-1]["game"]["status"] == "finished"
    replay = client.get(f"/api/games/{g['id']}/replay").json()
    counts = check_seat(replay, 0, received)
    # Each hand the person played was played message by message; each they sat out, watched.
    played = [h for h in replay["hands"] if 0 in h["seats"]]
    assert counts["playing"] >= sum(len(h["frames"]) - 1 for h in played) // 2
    assert (counts["sitting_out"] > 0) == (len(played) < len(replay["hands"]) // (players - 2))
    pub = client.get(f"/api/games/{g['id']}").json()
    assert pub["players"] == players and not cards_in(pub)
