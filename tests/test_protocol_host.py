"""End to end: real ``ginrummy engine`` processes play whole hands against each other.

The host (``protocol_host.py``) is written against ``docs/protocol.md`` alone; the referee is a
core ``Hand``. Every answer must be a legal action, and every ``view`` must equal the referee's
view of that seat.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys

from ginrummy.rules import Rules
from protocol_host import EngineProcess, play_hand

SPEC = "protocol_host:RandomKnocker"


def test_engine_processes_play_hands_over_many_rule_sets() -> None:
    rule_sets = [
        Rules(),
        Rules.preset("app"),
        Rules(last_chance=True, throw_back=True),
        Rules(upcard=False),
        Rules(oklahoma=True, oklahoma_spade_double=True),
        Rules(straight_gin=True, big_gin=True),
    ]
    engines = [EngineProcess(SPEC, seed=s) for s in (0, 1)]
    try:
        for e in engines:
            ready = e.ask({"type": "hello", "id": 1})
            assert ready["type"] == "ready" and ready["protocol"] == 1 and ready["id"] == 1
        kinds = set()
        rng = random.Random(42)
        scores = [0, 0]
        for i in range(14):
            rules = rule_sets[i % len(rule_sets)]
            for s, e in enumerate(engines):
                ok = e.ask({"type": "new_game", "rules": rules.to_json(), "player": SPEC, "seed": 10 * i + s})
                assert ok["type"] == "ok"
            h = play_hand(engines, rules, i % 2, rng, (scores[0], scores[1]))
            assert h.result is not None
            kinds.add(h.result.kind)
        assert "knock" in kinds or "gin" in kinds
        # Garbage in the middle of a session: an error line each, and the engine lives on.
        for junk in ["", "nonsense", "{}", '{"type": "go"}', "[1, 2]", '{"type": "event", "seat": 5}', "\t"]:
            reply = engines[0].send_raw(junk)
            assert reply is None if not junk.strip() else reply is not None and reply["type"] == "error"
        assert engines[0].ask({"type": "ping"}) == {"type": "pong"}
    finally:
        codes = [e.close() for e in engines]
    assert codes == [0, 0]


def test_registered_player_over_a_process() -> None:
    """The default registry players answer too (here ``simple``, which is fast)."""
    engines = [EngineProcess("simple", seed=s) for s in (0, 1)]
    try:
        for e in engines:
            assert e.ask({"type": "new_game", "rules": {"preset": "eaai", "overrides": {}}, "player": "simple"})[
                "type"
            ] == "ok"
        h = play_hand(engines, Rules.preset("eaai"), 0, random.Random(8))
        assert h.is_over
    finally:
        for e in engines:
            e.close()


def test_invalid_bytes_and_end_of_input() -> None:
    """Bytes that are not UTF-8, then end of input: error lines, then a clean exit."""
    proc = subprocess.run(
        [sys.executable, "-m", "ginrummy.cli", "engine", "--player", "simple"],
        input=b'\xff\xfe\n{"type":"hello"}\n{"type":"nope"}\n',
        capture_output=True,
        timeout=30,
    )
    assert proc.returncode == 0
    replies = [json.loads(x) for x in proc.stdout.decode().splitlines()]
    assert [r["type"] for r in replies] == ["error", "ready", "error"]
    assert [r["line"] for r in replies if r["type"] == "error"] == [1, 3]
