"""The engine protocol in games of three and four players: a seat that sits out is told so and
nothing else; every message of whole games holds no card its seat may not see; engine processes
play a whole three-player game."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from ginrummy.actions import Kind
from ginrummy.game import Game
from ginrummy.hand import Hand
from ginrummy.protocol import Engine
from ginrummy.rules import Rules
from protocol_host import EngineProcess, InProcess, play_seated_game
from seated_games import cards_in, secrets


class Recorded(InProcess):
    """An in-process engine that keeps every message it is sent, with the deal it was sent in."""

    def __init__(self, engine: Engine, game: Game) -> None:
        super().__init__(engine.handle_line)
        self.engine = engine
        self.game = game
        self.sent: list[tuple[int, dict[str, Any]]] = []

    def ask(self, msg: dict[str, Any]) -> dict[str, Any]:
        self.sent.append((self.game.deals, msg))
        return super().ask(msg)


def ask(engine: Engine, msg: dict[str, Any]) -> dict[str, Any]:
    reply = engine.handle_line(json.dumps(msg))
    assert reply is not None
    return reply


def test_sit_out_is_for_the_three_player_game_only() -> None:
    e = Engine(player_name="simple")
    for players in (None, 2, 4):
        game: dict[str, Any] = {"type": "new_game"} if players is None else {"type": "new_game", "players": players}
        assert ask(e, game)["type"] == "ok"
        reply = ask(e, {"type": "sit_out"})
        assert reply["type"] == "error" and reply["rule"] == "sits_out"
        assert "every player plays every hand" in reply["message"]
    assert ask(e, {"type": "new_game", "players": 5})["message"].startswith("'players' must be 2, 3 or 4")
    assert ask(e, {"type": "new_game", "players": 3}) == {
        "type": "ok", "rules": {"preset": "classic", "overrides": {}}, "player": "simple", "players": 3,
    }


def test_a_seat_that_sits_out_is_asked_and_told_nothing_until_its_next_hand() -> None:
    e = Engine(player_name="simple")
    ask(e, {"type": "new_game", "players": 3})
    hand = ["As", "2s", "3s", "4h", "5h", "6h", "7d", "8d", "9d", "Kc"]
    assert ask(e, {"type": "new_hand", "seat": 0, "dealer": 1, "hand": hand, "upcard": "Qc"}) == {"type": "ok"}
    assert ask(e, {"type": "sit_out", "playing": [0, 1], "dealt_by": 2, "scores": [10, 0, 4]}) == {
        "type": "ok", "sits_out": True,
    }
    assert ask(e, {"type": "view"}) == {"type": "view", "view": None, "sits_out": True, "pending_layout": False}
    for msg in ({"type": "go"}, {"type": "event", "seat": 0, "action": "pass"}, {"type": "hand_over"}):
        reply = ask(e, msg)
        assert reply["type"] == "error" and reply["rule"] == "sits_out", reply
        assert "sits out this hand" in reply["message"]
    # Refused details change nothing: still sitting out.
    for bad in ({"playing": [0, 0]}, {"playing": [0, 5]}, {"scores": [1, 2]}, {"dealt_by": "x"}):
        reply = ask(e, {"type": "sit_out", **bad})
        assert reply["type"] == "error" and "rule" not in reply, reply
    assert ask(e, {"type": "view"})["sits_out"] is True
    # The next hand it plays: an ordinary hand again.
    assert ask(e, {"type": "new_hand", "seat": 1, "dealer": 1, "hand": hand, "upcard": "Qc"}) == {"type": "ok"}
    view = ask(e, {"type": "view"})
    assert view["view"]["seat"] == 1 and "sits_out" not in view
    assert ask(e, {"type": "event", "seat": 0, "action": "pass"}) == {"type": "ok"}
    assert ask(e, {"type": "go"})["type"] == "action"


def _check_messages(game: Game, engine: Recorded, seat: int) -> int:
    """Every message ``seat``'s engine was sent, against what the seat may know at that moment."""
    checked = 0
    by_deal: dict[int, list[dict[str, Any]]] = {}
    for deal, msg in engine.sent:
        by_deal.setdefault(deal, []).append(msg)
    per = len(game.tables)
    for deal, msgs in by_deal.items():
        if deal == 0:
            assert [m["type"] for m in msgs] == ["new_game"]
            continue
        pairings = game.pairings[(deal - 1) * per : deal * per]
        tables = [t for t, p in enumerate(pairings) if seat in p.seats]
        if not tables:
            # Sitting out: one message, which names no card.
            assert [m["type"] for m in msgs] == ["sit_out"] and not cards_in(msgs), msgs
            checked += 1
            continue
        (t,) = tables
        hs = pairings[t].seats.index(seat)
        true = game.hands[(deal - 1) * per + t]
        ref = Hand(game.rules, true.dealer)
        ref.deal(true.deck)
        taken: list[set[int]] = [set(), set()]
        steps = iter(true.history)
        for m in msgs:
            if m["type"] == "event":
                step = next(steps)
                top = ref.top_discard
                ref.apply(step.action)
                if step.action.kind is Kind.PILE and top is not None:
                    taken[step.seat].add(top)
            leaked = cards_in(m) & secrets(ref, hs, taken)
            assert not leaked, f"seat {seat} was sent hidden cards {leaked} in {m} (deal {deal})"
            checked += 1
        assert next(steps, None) is None  # one event per action of its own hand, none of the other's
    return checked


@pytest.mark.parametrize(
    ("n", "rules", "seed"),
    [
        (3, Rules.preset("classic", target=60), 1),
        (3, Rules.preset("online", oklahoma=True, upcard=True), 2),
        (4, Rules.preset("classic", team_target=60), 3),
        (4, Rules.preset("app", upcard=False, big_gin=True), 4),
    ],
)
def test_every_message_of_whole_games_hides_what_each_seat_may_not_see(n: int, rules: Rules, seed: int) -> None:
    game = Game(rules, players=["A", "B", "C", "D"][:n], seed=seed)
    engines = [Recorded(Engine(player_name="protocol_host:RandomKnocker", seed=seed * 10 + s,
                               extra_players=("protocol_host:RandomKnocker",)), game) for s in range(n)]
    play_seated_game(engines, game, random.Random(seed))
    assert game.is_over
    counts = [_check_messages(game, e, s) for s, e in enumerate(engines)]
    assert all(c > 10 for c in counts)
    if n == 3:
        assert sum(any(m["type"] == "sit_out" for _, m in e.sent) for e in engines) >= 2


def test_engine_processes_play_a_whole_three_player_game() -> None:
    game = Game(Rules.preset("classic", target=40), players=["A", "B", "C"], seed=5)
    engines = [EngineProcess("simple", seed=s) for s in range(3)]
    try:
        play_seated_game(engines, game, random.Random(5))
    finally:
        codes = [e.close() for e in engines]
    assert codes == [0, 0, 0] and game.is_over
    assert any(">" == d and '"sit_out"' in line for e in engines for d, line in e.log)


def test_a_four_player_engine_weighs_the_score_against_the_team_target() -> None:
    e = Engine(player_name="simple")
    reply = ask(e, {"type": "new_game", "rules": {"preset": "classic", "overrides": {"team_target": 90}}, "players": 4})
    assert reply["rules"] == {"preset": "classic", "overrides": {"team_target": 90}}  # the game's rules, as sent
    hand = ["As", "2s", "3s", "4h", "5h", "6h", "7d", "8d", "9d", "Kc"]
    ask(e, {"type": "new_hand", "seat": 0, "dealer": 1, "hand": hand, "upcard": "Qc", "scores": [40, 70]})
    view = ask(e, {"type": "view"})["view"]
    assert view["rules"]["overrides"]["target"] == 90 and view["scores"] == [40, 70]
