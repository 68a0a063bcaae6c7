"""The engine protocol in process: message handling, the seat's reconstructed knowledge, fuzzing.

The key property: after every event, the engine's view of its seat equals the referee's
``observe(hand, seat)`` (so ``legal`` equals ``Hand.legal_actions()`` of the real hand), across
every rule variant; and no input line can crash the engine or change its state when refused.
"""

from __future__ import annotations

import copy
import io
import json
import random
import string
import zlib
from typing import Any

import pytest

from ginrummy.actions import Kind
from ginrummy.cards import card_str, cards_of
from ginrummy.events import Phase
from ginrummy.hand import Hand
from ginrummy.observation import SeatView, observe
from ginrummy.protocol import Engine, serve
from ginrummy.rules import Rules
from protocol_host import FirstLegal, InProcess, RandomKnocker, event_for, play_hand

SPEC = "protocol_host:RandomKnocker"

RULE_SETS = [
    Rules(),
    Rules.preset("app"),
    Rules.preset("eaai"),
    Rules(last_chance=True),
    Rules(throw_back=True),
    Rules(upcard=False),
    Rules(straight_gin=True),
    Rules(oklahoma=True, oklahoma_ace_gin_only=True, oklahoma_spade_double=True),
    Rules(knock_limit=0),
    Rules(throw_back=True, last_chance=True, big_gin=True),
    Rules(dead_hand_stock=0, big_gin=True, big_gin_bonus=50),
]


def make_engine(seed: int = 0, rules: Rules | None = None) -> Engine:
    e = Engine(player_name=SPEC, seed=seed, extra_players=(SPEC,))
    if rules is not None:
        reply = e.handle_line(json.dumps({"type": "new_game", "rules": rules.to_json(), "seed": seed}))
        assert reply is not None and reply["type"] == "ok", reply
    return e


def ask(e: Engine, msg: dict[str, Any]) -> dict[str, Any]:
    reply = e.handle_line(json.dumps(msg))
    assert reply is not None
    return reply


def comparable(view: SeatView, h: Hand) -> SeatView:
    """While the opponent lays out after a knock, its known cards are provisional (see the doc)."""
    if h.phase is Phase.LAYOUT and h.knocker != view.seat:
        return view._replace(opponent_known=0)
    return view


def state_of(e: Engine) -> object:
    """Everything a refused message must leave alone."""
    st = e.hand
    hand = None
    if st is not None:
        sh = st.shadow
        hand = (
            sh.phase, sh.current, tuple(sh.hands), tuple(sh.pile), len(sh.stock), tuple(sh.history),
            st.pending is not None, st.finished, st.scores, st.seat,
        )
    return (e.rules, e.player_name, e.seed, hand)


# --------------------------------------------------------------------------- whole hands


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: r.name + str(sorted(r.overrides())))
def test_engine_view_equals_referee_view_every_step(rules: Rules) -> None:
    """The engine's reconstruction equals the real seat view after every event, for both seats."""
    rng = random.Random(zlib.crc32(json.dumps(rules.to_json(), sort_keys=True).encode()))
    kinds = set()
    for i in range(5):
        engines = [make_engine(2 * i + s, rules) for s in (0, 1)]

        def check(h: Hand, engines: list[Engine] = engines) -> None:
            for s in (0, 1):
                st = engines[s].hand
                assert st is not None
                assert comparable(st.view(), h) == comparable(observe(h, s), h)

        h = play_hand([InProcess(e.handle_line) for e in engines], rules, i % 2, rng, check_views=False, on_step=check)
        assert h.result is not None
        kinds.add(h.result.kind)
        for s in (0, 1):
            st = engines[s].hand
            assert st is not None and st.finished
            assert st.view() == observe(h, s)


@pytest.mark.parametrize("seed", range(50, 53))
def test_last_chance_and_throw_back_hands_through_the_protocol(seed: int) -> None:
    """The opponent's last-chance (or throw-back) pile draw depends on cards the seat cannot
    see; the engine accepts it and checks the knock at the layout."""
    rules = Rules(big_gin=True, last_chance=True, throw_back=True)
    rng = random.Random(seed)
    for i in range(5):
        engines = [make_engine(2 * i + s, rules) for s in (0, 1)]
        h = play_hand([InProcess(e.handle_line) for e in engines], rules, i % 2, rng, check_views=False)
        for s in (0, 1):
            st = engines[s].hand
            assert st is not None and st.finished
            assert st.view() == observe(h, s)


def test_every_hand_kind_is_reached() -> None:
    """Knocks, gin and dead hands all go through the protocol (big gin has its own test)."""
    kinds: set[str] = set()
    rng = random.Random(7)
    for i in range(120):
        rules = Rules.preset("app", knock_limit=10) if i % 2 else Rules(last_chance=True)
        engines = [make_engine(1000 + 2 * i + s, rules) for s in (0, 1)]
        h = play_hand([InProcess(e.handle_line) for e in engines], rules, i % 2, rng, check_views=False)
        assert h.result is not None
        kinds.add(h.result.kind)
        if kinds >= {"knock", "gin", "dead"}:
            break
    assert kinds >= {"knock", "gin", "dead"}, kinds


def test_big_gin_both_sides() -> None:
    """Seat 0 takes the upcard and goes big gin; both engines follow, and see what a seat sees."""
    from ginrummy.actions import Action
    from ginrummy.cards import parse_cards

    rules = Rules.preset("app")
    mine = parse_cards("As 2s 3s 4s 5h 6h 7h 8h 9c 9d")
    up = parse_cards("9h")[0]
    rest = [c for c in range(52) if c not in mine and c != up]
    deck: list[int] = []
    for i in range(10):
        deck += [mine[i], rest[i]]
    deck += [up] + rest[10:]
    h = Hand(rules, dealer=1)
    h.deal(deck)
    engines = [make_engine(s, rules) for s in (0, 1)]
    for s in (0, 1):
        ask(engines[s], {"type": "new_hand", "seat": s, "dealer": 1,
                         "hand": [card_str(c) for c in cards_of(h.hands[s])], "upcard": "9h"})
    for text in ["pile", "big gin", "meld As2s3s4s", "meld 5h6h7h8h", "meld 9h9d9c", "done"]:
        if text == "big gin":
            assert ask(engines[0], {"type": "go"})["action"] == "big gin"
        lay = h.phase is Phase.LAYOUT
        step = h.apply(Action.parse(text))
        for s in (0, 1):
            assert ask(engines[s], event_for(h, step, s, lay and text == "done"))["type"] == "ok", (text, s)
            st = engines[s].hand
            assert st is not None and comparable(st.view(), h) == comparable(observe(h, s), h)
    assert h.phase is Phase.DEFENDER_LAYOUT
    while not h.is_over:
        a = Action.parse(ask(engines[1], {"type": "go"})["action"])
        lay = h.phase is Phase.DEFENDER_LAYOUT
        step = h.apply(a)
        for s in (0, 1):
            assert ask(engines[s], event_for(h, step, s, lay and a.kind is Kind.DONE))["type"] == "ok"
    assert h.result is not None and h.result.kind == "big_gin"
    for s in (0, 1):
        assert ask(engines[s], {"type": "hand_over"})["result"] == h.result.to_json()


def test_first_legal_player_plays_through() -> None:
    """The tiniest player (first legal action) plays a whole hand through the protocol."""
    e0 = Engine(player_name="protocol_host:FirstLegal", extra_players=("protocol_host:FirstLegal",))
    e1 = Engine(player_name="protocol_host:FirstLegal", extra_players=("protocol_host:FirstLegal",))
    h = play_hand([InProcess(e0.handle_line), InProcess(e1.handle_line)], Rules(), 0, random.Random(3))
    assert h.is_over and isinstance(e0.player, FirstLegal)


@pytest.mark.parametrize("name", ["random", "simple", "expert"])
def test_registered_players_play_a_hand(name: str) -> None:
    engines = [Engine(player_name=name, seed=s) for s in (0, 1)]
    for e in engines:
        assert ask(e, {"type": "new_game", "rules": "eaai", "player": name, "seed": 1})["type"] == "ok"
    h = play_hand([InProcess(e.handle_line) for e in engines], Rules.preset("eaai"), 1, random.Random(5))
    assert h.is_over


# --------------------------------------------------------------------------- messages


def test_hello_ping_quit_and_ids() -> None:
    e = make_engine()
    r = ask(e, {"type": "hello", "id": 7})
    assert r["type"] == "ready" and r["protocol"] == 1 and r["id"] == 7 and "expert" in r["players"]
    assert ask(e, {"type": "ping", "id": "a"}) == {"type": "pong", "id": "a"}
    assert ask(e, {"type": "quit"}) == {"type": "bye"} and e.quit


def test_blank_lines_get_no_reply_and_errors_carry_line_numbers() -> None:
    e = make_engine()
    assert e.handle_line("   ") is None
    r = e.handle_line("{not json")
    assert r is not None and r["type"] == "error" and r["line"] == 2
    r = e.handle_line('{"type": "go"}')
    assert r is not None and r["type"] == "error" and r["line"] == 3 and r["rule"] == "turn"


def test_new_game_validates_rules_and_player() -> None:
    e = make_engine()
    before = state_of(e)
    for bad in (
        {"type": "new_game", "rules": {"preset": "nope"}},
        {"type": "new_game", "rules": {"preset": "classic", "overrides": {"knock_limt": 3}}},
        {"type": "new_game", "rules": {"preset": "classic", "overrides": {"knock_limit": "x"}}},
        {"type": "new_game", "rules": 5},
        {"type": "new_game", "player": "nobody"},
        {"type": "new_game", "player": "os:system"},
        {"type": "new_game", "seed": "x"},
    ):
        r = ask(e, bad)
        assert r["type"] == "error", bad
        assert state_of(e) == before
    r = ask(e, {"type": "new_game", "rules": {"preset": "online", "overrides": {"knock_limit": 8}}, "player": SPEC})
    assert r["rules"] == {"preset": "online", "overrides": {"knock_limit": 8}}
    assert e.rules.knock_limit == 8


def test_new_hand_validation() -> None:
    e = make_engine(rules=Rules())
    hand = ["As", "2s", "3s", "4h", "5h", "6h", "7c", "8c", "9c", "Kd"]
    bad_hands = [
        {"seat": 2, "dealer": 0, "hand": hand, "upcard": "Qd"},
        {"seat": 0, "dealer": True, "hand": hand, "upcard": "Qd"},
        {"seat": 0, "dealer": 1, "hand": hand[:9], "upcard": "Qd"},
        {"seat": 0, "dealer": 1, "hand": hand[:9] + ["As"], "upcard": "Qd"},
        {"seat": 0, "dealer": 1, "hand": hand, "upcard": "As"},
        {"seat": 0, "dealer": 1, "hand": hand, "upcard": None},
        {"seat": 0, "dealer": 1, "hand": hand[:9] + ["Zz"], "upcard": "Qd"},
        {"seat": 0, "dealer": 1, "hand": hand, "upcard": "Qd", "scores": [1]},
    ]
    for msg in bad_hands:
        assert ask(e, {"type": "new_hand", **msg})["type"] == "error", msg
        assert e.hand is None
    assert ask(e, {"type": "new_hand", "seat": 0, "dealer": 1, "hand": hand, "upcard": "Qd"})["type"] == "ok"
    view = ask(e, {"type": "view"})["view"]
    assert view["legal"] == ["pile", "pass"] and view["pile"] == ["Qd"] and view["stock_size"] == 31


def test_no_upcard_non_dealer_gets_eleven() -> None:
    e = make_engine(rules=Rules(upcard=False))
    hand = ["As", "2s", "3s", "4h", "5h", "6h", "7c", "8c", "9c", "Kd", "Qd"]
    assert ask(e, {"type": "new_hand", "seat": 0, "dealer": 1, "hand": hand})["type"] == "ok"
    assert ask(e, {"type": "go"})["type"] == "action"
    assert ask(e, {"type": "event", "seat": 0, "action": "Qd"})["type"] == "ok"
    v = ask(e, {"type": "view"})["view"]
    assert v["pile"] == ["Qd"] and v["phase"] == "draw" and v["current"] == 1


def _dealt(rules: Rules, seat: int, seed: int = 11) -> tuple[Engine, Hand]:
    h = Hand(rules, dealer=1)
    deck = list(range(52))
    random.Random(seed).shuffle(deck)
    h.deal(deck)
    e = make_engine(rules=rules)
    r = ask(
        e,
        {
            "type": "new_hand",
            "seat": seat,
            "dealer": 1,
            "hand": [card_str(c) for c in cards_of(h.hands[seat])],
            "upcard": card_str(h.upcard) if h.upcard is not None else None,
        },
    )
    assert r["type"] == "ok"
    return e, h


def test_contradicting_events_are_refused_and_change_nothing() -> None:
    e, h = _dealt(Rules(), seat=1)
    mine = [card_str(c) for c in cards_of(h.hands[1])]
    upcard = card_str(h.upcard or 0)
    before = state_of(e)
    refused: list[dict[str, Any]] = [
        {"type": "event", "seat": 1, "action": "pile"},  # seat 0 is offered the upcard first
        {"type": "event", "seat": 0, "action": "stock"},  # no stock draw during the offer
        {"type": "event", "seat": 0, "action": mine[0]},  # a discard before drawing
        {"type": "event", "seat": 0, "action": "pile", "card": mine[0]},  # the top is the upcard
        {"type": "event", "seat": 0, "action": "knock"},
        {"type": "event", "seat": 0, "action": "jump"},
        {"type": "event", "seat": 0},
        {"type": "event", "seat": "0", "action": "pass"},
        {"type": "go"},  # seat 0 acts first
        {"type": "hand_over", "result": {"kind": "dead"}},
    ]
    for msg in refused:
        r = ask(e, msg)
        assert r["type"] == "error", msg
        assert state_of(e) == before, msg
    # Now a real sequence: seat 0 passes, we (seat 1) pass, seat 0 draws from the stock.
    assert ask(e, {"type": "event", "seat": 0, "action": "pass", "id": 1}) == {"type": "ok", "id": 1}
    assert ask(e, {"type": "go"})["type"] == "action"
    assert ask(e, {"type": "event", "seat": 1, "action": "pass"})["type"] == "ok"
    assert ask(e, {"type": "event", "seat": 0, "action": "pile"})["type"] == "error"  # stock only now
    before = state_of(e)
    assert ask(e, {"type": "event", "seat": 0, "action": "stock", "card": "As"})["rule"] == "hidden"
    assert state_of(e) == before
    assert ask(e, {"type": "event", "seat": 0, "action": "stock"})["type"] == "ok"
    before = state_of(e)
    for card in (mine[0], upcard):  # the opponent cannot discard our card, or one on the pile
        r = ask(e, {"type": "event", "seat": 0, "action": card})
        assert r["type"] == "error" and "cannot hold" in r["message"], r
        assert state_of(e) == before
    unseen = next(c for c in range(52) if not h.hands[1] >> c & 1 and c != h.upcard)
    assert ask(e, {"type": "event", "seat": 0, "action": card_str(unseen)})["type"] == "ok"
    # Our draw: the card must be unseen, and must be told.
    before = state_of(e)
    for msg in (
        {"type": "event", "seat": 1, "action": "stock"},
        {"type": "event", "seat": 1, "action": "stock", "card": mine[0]},
        {"type": "event", "seat": 1, "action": "stock", "card": card_str(unseen)},
        {"type": "event", "seat": 1, "action": "stock", "card": 3},
    ):
        assert ask(e, msg)["type"] == "error", msg
        assert state_of(e) == before


def test_opponent_knock_is_checked_at_done() -> None:
    """A knock whose layout does not fit the rules is refused at the knocker's done."""
    rules = Rules()
    for seed in range(300):
        rng = random.Random(seed)
        engines = [make_engine(2 * seed + s, rules) for s in (0, 1)]
        h = Hand(rules, dealer=0)
        deck = list(range(52))
        rng.shuffle(deck)
        h.deal(deck)
        for s in (0, 1):
            ask(engines[s], {"type": "new_hand", "seat": s, "dealer": 0,
                             "hand": [card_str(c) for c in cards_of(h.hands[s])], "upcard": card_str(h.upcard or 0)})
        while not h.is_over:
            seat = h.current
            reply = ask(engines[seat], {"type": "go"})
            from ginrummy.actions import Action

            a = Action.parse(reply["action"])
            was_layout = h.phase is Phase.LAYOUT
            lay = h.phase in (Phase.LAYOUT, Phase.DEFENDER_LAYOUT)
            step = h.apply(a)
            done = lay and a.kind is Kind.DONE
            if done and was_layout:
                other = engines[1 - seat]
                msg = event_for(h, step, 1 - seat, True)
                before = state_of(other)
                wrong = dict(msg, deadwood=msg["deadwood"][:-1] if msg["deadwood"] else ["Kc", "Kh"])
                assert ask(other, wrong)["type"] == "error"
                assert ask(other, {k: v for k, v in msg.items() if k != "deadwood"})["type"] == "error"
                assert state_of(other) == before
                assert ask(other, {"type": "go"})["rule"] == "turn"
            for s in (0, 1):
                assert ask(engines[s], event_for(h, step, s, done))["type"] == "ok"
        if h.knocker is not None:
            return
    raise AssertionError("no knock in 300 hands")


def test_hand_over_checks_the_result() -> None:
    rules = Rules()
    rng = random.Random(2)
    for i in range(100):
        engines = [make_engine(3 * i + s, rules) for s in (0, 1)]
        got: list[Hand] = []

        def stop(h: Hand, got: list[Hand] = got) -> None:
            got.append(h)

        ins = [InProcess(e.handle_line) for e in engines]
        # Play to the end without hand_over: the host below sends it by hand.
        h = Hand(rules, dealer=0)
        deck = list(range(52))
        rng.shuffle(deck)
        h.deal(deck)
        for s in (0, 1):
            ins[s].ask({"type": "new_hand", "seat": s, "dealer": 0,
                        "hand": [card_str(c) for c in cards_of(h.hands[s])], "upcard": card_str(h.upcard or 0)})
        from ginrummy.actions import Action

        while not h.is_over:
            seat = h.current
            a = Action.parse(ins[seat].ask({"type": "go"})["action"])
            lay = h.phase in (Phase.LAYOUT, Phase.DEFENDER_LAYOUT)
            step = h.apply(a)
            for s in (0, 1):
                assert ins[s].ask(event_for(h, step, s, lay and a.kind is Kind.DONE))["type"] == "ok"
        assert h.result is not None
        if h.knocker is None:
            continue
        e = engines[0]
        before = state_of(e)
        wrong = dict(h.result.to_json(), points=h.result.points + 1)
        assert ask(e, {"type": "hand_over", "result": wrong})["rule"] == "score"
        assert ask(e, {"type": "hand_over", "opponent_hand": ["As"]})["type"] == "error"
        assert state_of(e) == before
        r = ask(e, {"type": "hand_over", "result": h.result.to_json(), "scores": [5, 0]})
        assert r["type"] == "ok" and r["result"] == h.result.to_json()
        assert ask(e, {"type": "hand_over"})["type"] == "error"
        assert ask(e, {"type": "event", "seat": 0, "action": "stock"})["type"] == "error"
        assert ask(e, {"type": "view"})["view"]["scores"] == [5, 0]
        return
    raise AssertionError("no knock in 100 hands")


# --------------------------------------------------------------------------- fuzzing


def _junk(rng: random.Random) -> str:
    kinds = ["hello", "new_game", "new_hand", "event", "go", "view", "hand_over", "ping", "quitx", "", None, 3]
    cards = [card_str(c) for c in range(52)] + ["10h", "K♦", "Zz", "", "A", None, 7]
    actions = ["stock", "pile", "pass", "knock", "gin", "big gin", "done", "meld As2s3s", "layoff 7h 0",
               "layoff 7h 9", "knock", "meld", "Kd", "10s", "discard 3c", "", None, 1, "take", "draw"]
    r = rng.random()
    if r < 0.15:
        return "".join(rng.choice(string.printable) for _ in range(rng.randrange(40)))
    if r < 0.25:
        return json.dumps(rng.choice([[], [1, 2], "x", 3.5, None, True, {"type": ["go"]}]))
    if r < 0.3:
        return "[" * rng.randrange(1, 3000)
    msg: dict[str, Any] = {"type": rng.choice(kinds)}
    for key in rng.sample(["seat", "dealer", "hand", "upcard", "action", "card", "deadwood", "rules", "player",
                           "seed", "result", "opponent_hand", "scores", "id"], rng.randrange(6)):
        msg[key] = rng.choice(
            [0, 1, 2, -1, True, None, "x", 1.0, rng.choice(cards), rng.choice(actions),
             [rng.choice(cards) for _ in range(rng.randrange(12))], {"preset": rng.choice(["eaai", "x", 3])},
             {"kind": "knock", "winner": 0, "points": 3}]
        )
    return json.dumps(msg)


def test_fuzz_random_lines_never_crash_and_refusals_change_nothing() -> None:
    rng = random.Random(1234)
    e = make_engine(rules=Rules())
    for _ in range(3000):
        line = _junk(rng)
        before = state_of(e)
        reply = e.handle_line(line)
        assert reply is None or reply["type"] in ("ok", "ready", "pong", "bye", "action", "view", "error")
        if reply is not None and reply["type"] == "error":
            assert state_of(e) == before, line
            assert reply["message"] and isinstance(reply["line"], int)
            assert reply.get("rule") != "internal", (line, reply)
        e.quit = False


def test_fuzz_junk_interleaved_with_real_hands() -> None:
    """Junk between the real messages of whole hands: refused, harmless, and the hands go on."""
    rng = random.Random(99)
    for i in range(5):
        rules = RULE_SETS[i % len(RULE_SETS)]
        engines = [make_engine(5 * i + s, rules) for s in (0, 1)]

        class Noisy(InProcess):
            refused = 0

            def ask(self, msg: dict[str, Any], e: Engine = engines[0]) -> dict[str, Any]:
                for _ in range(rng.randrange(3)):
                    line = _junk(rng)
                    # Junk may happen to be a legal message: try it on a copy first, and send
                    # it to the real engine only if the copy refused it.
                    trial = copy.deepcopy(e)
                    reply = trial.handle_line(line)
                    if trial.quit or (reply is not None and reply["type"] in ("ok", "bye")):
                        continue
                    before = state_of(e)
                    reply = e.handle_line(line)
                    if reply is not None and reply["type"] == "error":
                        assert state_of(e) == before
                        assert reply.get("rule") != "internal", (line, reply)
                        self.refused += 1
                return super().ask(msg)

        noisy = Noisy(engines[0].handle_line)
        noisy.refused = 0
        play_hand([noisy, InProcess(engines[1].handle_line)], rules, i % 2, rng, check_views=False)
        assert noisy.refused > 5


def test_serve_survives_bytes_that_are_not_utf8() -> None:
    e = make_engine()
    inp = io.BytesIO(b'\xff\xfe{"type":"ping"}\n{"type": "ping"}\n\n{"type":"quit"}\n{"type":"ping"}\n')
    out = io.StringIO()
    serve(inp, out, e)
    lines = [json.loads(x) for x in out.getvalue().splitlines()]
    assert [x["type"] for x in lines] == ["error", "pong", "bye"]


def test_player_failures_fall_back_to_a_legal_action() -> None:
    class Broken(RandomKnocker):
        def decide(self, view: SeatView):  # type: ignore[no-untyped-def]
            raise RuntimeError("boom")

    log = io.StringIO()
    e, h = _dealt(Rules(), seat=0)
    e.player = Broken()
    e.log = log
    r = ask(e, {"type": "go"})
    assert r == {"type": "action", "action": "stock"} or r["action"] in ("pile", "pass")
    assert "boom" in log.getvalue()
