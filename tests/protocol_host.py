"""A host for the engine protocol, written against ``docs/protocol.md`` alone.

It referees whole hands with a core :class:`~ginrummy.hand.Hand` and lets one engine process per
seat play them, sending each engine only what its seat may see, in the document's messages. It
checks that every answer is a legal action and that each engine's ``view`` equals the referee's
own view of that seat (so the engine knows exactly what the seat knows: no less, and no more).

It also writes the example session of the document: ``python tests/protocol_host.py --update``
(``--transcript`` prints a transcript of any player and seed).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ginrummy.actions import Action, Kind
from ginrummy.cards import card_str, cards_of
from ginrummy.events import Phase, Step
from ginrummy.game import Game
from ginrummy.hand import Hand
from ginrummy.observation import SeatView, observe
from ginrummy.players.base import Player
from ginrummy.rules import Rules

Message = dict[str, Any]
HERE = Path(__file__).resolve().parent


class RandomKnocker(Player):
    """A test player that reaches every phase: random draws and discards, but it always knocks or
    goes big gin when it may, lays out melds and lays off while it can. Only the first legal
    action would never knock, so it would only ever play dead hands."""

    name = "random-knocker"

    def decide(self, view: SeatView) -> Action:
        legal = list(view.legal)
        for kinds in ((Kind.BIG_GIN,), (Kind.KNOCK,), (Kind.MELD, Kind.LAYOFF)):
            best = [a for a in legal if a.kind in kinds]
            if best and (kinds != (Kind.KNOCK,) or self.rng.random() < 0.9):
                return self.rng.choice(best)
        if view.phase is Phase.OFFER and self.rng.random() < 0.7:
            return legal[-1]  # mostly pass the upcard, so both offer paths are played
        return self.rng.choice(legal)


class FirstLegal(Player):
    """The tiniest player: the first legal action."""

    name = "first-legal"

    def decide(self, view: SeatView) -> Action:
        return view.legal[0]


class EngineProcess:
    """One engine process: one JSON line out, exactly one JSON line back (docs/protocol.md)."""

    def __init__(self, player: str = "protocol_host:RandomKnocker", seed: int | None = None) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([str(HERE), env.get("PYTHONPATH", "")])
        cmd = [sys.executable, "-m", "ginrummy.cli", "engine", "--player", player]
        if seed is not None:
            cmd += ["--seed", str(seed)]
        self.proc = subprocess.Popen(
            cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, text=True, encoding="utf-8", bufsize=1
        )
        self.log: list[tuple[str, str]] = []

    def send_raw(self, line: str) -> Message | None:
        """Send any text as one line (it may be garbage); read the reply unless the line is blank."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        self.log.append((">", line))
        if not line.strip():
            return None
        answer = self.proc.stdout.readline()
        if not answer:
            raise RuntimeError(f"the engine closed its output after {line!r}")
        self.log.append(("<", answer.rstrip("\n")))
        reply: Message = json.loads(answer)
        return reply

    def ask(self, msg: Message) -> Message:
        reply = self.send_raw(json.dumps(msg))
        assert reply is not None
        return reply

    def close(self) -> int:
        try:
            self.ask({"type": "quit"})
        except (RuntimeError, BrokenPipeError, OSError):
            pass
        return self.proc.wait(timeout=10)


class InProcess:
    """The same conversation with an engine object in this process (for fast fuzz tests)."""

    def __init__(self, handle_line: Callable[[str], Message | None]) -> None:
        self.handle_line = handle_line
        self.log: list[tuple[str, str]] = []

    def send_raw(self, line: str) -> Message | None:
        return self.handle_line(line)

    def ask(self, msg: Message) -> Message:
        reply = self.handle_line(json.dumps(msg))
        assert reply is not None
        return reply


def expect_ok(reply: Message, what: str) -> Message:
    if reply.get("type") == "error":
        raise AssertionError(f"engine refused {what}: {reply['message']}")
    return reply


def event_for(h: Hand, step: Step, to: int, layout_done: bool) -> Message:
    """The event message for ``step`` as seat ``to`` may see it (docs/protocol.md, "Events")."""
    a = step.action
    msg: Message = {"type": "event", "seat": step.seat, "action": str(a)}
    if a.kind is Kind.STOCK and to == step.seat:
        msg["card"] = card_str(step.drawn)
    if a.kind is Kind.KNOCK and to != step.seat:
        msg["action"] = "knock"
    if layout_done:
        # A done that ends a layout lays the player's deadwood face up.
        laid = 0
        for m in h.knocker_melds if step.seat == h.knocker else h.defender_melds:
            laid |= m
        msg["deadwood"] = [card_str(c) for c in cards_of(h.hands[step.seat] & ~laid)]
    return msg


def play_hand(
    engines: Sequence[Any],
    rules: Rules,
    dealer: int,
    rng: random.Random,
    scores: tuple[int, int] = (0, 0),
    check_views: bool = True,
    deck: list[int] | None = None,
    on_step: Callable[[Hand], None] | None = None,
) -> Hand:
    """Referee one hand between two engines; returns the finished referee hand.

    ``check_views`` asks the acting engine for its ``view`` before each ``go`` and both engines
    at the end; ``on_step`` is called with the referee hand after each event (for tests that
    look inside an in-process engine).
    """
    h = Hand(rules, dealer)
    if deck is None:
        deck = list(range(52))
        rng.shuffle(deck)
    h.deal(deck)
    for seat in (0, 1):
        expect_ok(
            engines[seat].ask(
                {
                    "type": "new_hand",
                    "seat": seat,
                    "dealer": dealer,
                    "hand": [card_str(c) for c in cards_of(h.hands[seat])],
                    "upcard": None if h.upcard is None else card_str(h.upcard),
                    "scores": list(scores),
                }
            ),
            "new_hand",
        )
    while not h.is_over:
        seat = h.current
        if check_views:
            check_view(engines[seat], h, seat, scores)
        reply = expect_ok(engines[seat].ask({"type": "go"}), "go")
        assert reply["type"] == "action", reply
        action = Action.parse(reply["action"])
        assert action in h.legal_actions(), f"illegal answer {reply['action']} in {h.phase.value}"
        was_layout = h.phase in (Phase.LAYOUT, Phase.DEFENDER_LAYOUT)
        step = h.apply(action)
        layout_done = was_layout and action.kind is Kind.DONE
        for s in (0, 1):
            expect_ok(engines[s].ask(event_for(h, step, s, layout_done)), f"event {step.action}")
        if on_step is not None:
            on_step(h)
    assert h.result is not None
    for s in (0, 1):
        msg: Message = {"type": "hand_over", "result": h.result.to_json()}
        if h.knocker is not None:
            msg["opponent_hand"] = [card_str(c) for c in cards_of(h.hands[1 - s])]
        reply = expect_ok(engines[s].ask(msg), "hand_over")
        assert reply["result"] == h.result.to_json()
        if check_views:
            check_view(engines[s], h, s, scores)
    return h


def play_seated_game(engines: Sequence[Any], game: Game, rng: random.Random, check_views: bool = True) -> None:
    """Referee a whole game of three or four players, ``engines[seat]`` playing each game seat.

    Each engine is told the game (``new_game`` with ``players``); in each deal a seat that sits
    out is sent ``sit_out`` and nothing else, and each table's hand is played as any hand is,
    between the two engines at it (in their hand seats, with their two scores). The referee is
    ``game``: each table's hand is played on it too and must end the same way.
    """
    n = game.seats
    for e in engines:
        expect_ok(e.ask({"type": "new_game", "rules": game.rules.to_json(), "players": n}), "new_game")
    while not game.is_over:
        game.deal()
        for seat in range(n):
            if game.where(seat) is None:
                p = game.current_pairings[0]
                msg = {"type": "sit_out", "playing": list(p.seats), "dealt_by": p.dealt_by, "scores": list(game.scores)}
                assert expect_ok(engines[seat].ask(msg), "sit_out") == {"type": "ok", "sits_out": True}
        for t, p in enumerate(game.current_pairings):
            h = game.tables[t]
            ref = play_hand([engines[s] for s in p.seats], game.hand_rules, p.dealer, rng, scores=game.hand_scores(t),
                            check_views=check_views, deck=list(h.deck))
            for step in ref.history:
                game.apply(step.action, t)
            assert h.result == ref.result


def check_view(engine: Any, h: Hand, seat: int, scores: tuple[int, int]) -> None:
    got = expect_ok(engine.ask({"type": "view"}), "view")["view"]
    want = observe(h, seat, scores).to_json()
    assert got == want, _diff(got, want)


def _diff(got: Message, want: Message) -> str:
    return "view differs: " + ", ".join(
        f"{k}: engine {got.get(k)!r} referee {want.get(k)!r}" for k in want if got.get(k) != want.get(k)
    )


# --------------------------------------------------------------------------- the transcript

#: The document whose example session this host writes, and the markers around that section.
DOC = HERE.parent / "docs" / "protocol.md"
BEGIN = "<!-- example session: written by `python tests/protocol_host.py --update`; do not edit by hand -->"
END = "<!-- end of the example session -->"
#: The example's settings: the player, the seed of the deal and of the engines, the rules.
EXAMPLE = {"player": "expert", "seed": 4, "preset": "classic"}


def transcript(player: str, seed: int, preset: str) -> tuple[str, Hand]:
    """One real hand between two engine processes: seat 0's side of the conversation, and the
    referee's hand."""
    rules = Rules.preset(preset)
    engines = [EngineProcess(player, seed), EngineProcess(player, seed + 1)]
    try:
        for e in engines:
            e.ask({"type": "hello"})
            e.ask({"type": "new_game", "rules": rules.to_json(), "player": player, "seed": seed})
        rng = random.Random(seed)
        hand = play_hand(engines, rules, dealer=1, rng=rng, check_views=False)
    finally:
        for e in engines:
            e.close()
    return "\n".join(f"{d} {line}" for d, line in engines[0].log), hand


def story(hand: Hand) -> str:
    """What seat 0 did in the hand and how it ended, in a few words (from the referee's history)."""
    mine = [s.action.kind for s in hand.history if s.seat == 0]
    parts = []
    if Kind.PASS in mine:
        parts.append("passes the upcard")
    stock, pile = mine.count(Kind.STOCK), mine.count(Kind.PILE)
    parts.append(f"draws {stock} time{'s' * (stock != 1)} from the stock")
    if pile:
        parts.append(f"takes {pile} card{'s' * (pile != 1)} from the discard pile")
    assert hand.result is not None
    result = hand.result.explain(("Seat 0", "Seat 1"))
    did = ", ".join(parts[:-1]) + (" and " if len(parts) > 1 else "") + parts[-1]
    then = "" if hand.knocker is None else f"; then Seat {hand.knocker} knocks"
    return f"Seat 0 {did}{then}. {result}"


def example_section(player: str = EXAMPLE["player"], seed: int = EXAMPLE["seed"], preset: str = EXAMPLE["preset"]) -> str:
    """The document's example session, markers included, as the current engine plays it."""
    text, hand = transcript(str(player), int(seed), str(preset))
    return (
        f"{BEGIN}\n"
        f"One real hand, seat 0's side of the conversation (`>` host to engine, `<` engine to host), under the\n"
        f"{preset} rules, two `{player}` engines (seeds {seed} and {int(seed) + 1}), seat 1 dealing. {story(hand)}\n"
        f"`tests/test_protocol_doc.py` plays it again and fails when the engine no longer says exactly this.\n\n"
        f"```\n{text}\n```\n{END}"
    )


def with_example(doc: str, section: str) -> str:
    """``doc`` with its example section (between the markers) replaced by ``section``."""
    if doc.count(BEGIN) != 1 or doc.count(END) != 1:
        raise ValueError(f"{DOC.name} must hold the example markers once each: {BEGIN!r} ... {END!r}")
    head, rest = doc.split(BEGIN)
    _, tail = rest.split(END)
    return head + section + tail


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--transcript", action="store_true", help="print seat 0's side of one real hand")
    p.add_argument("--update", action="store_true", help=f"rewrite the example session of {DOC.name}")
    p.add_argument("--player", default=EXAMPLE["player"])
    p.add_argument("--seed", type=int, default=EXAMPLE["seed"])
    p.add_argument("--preset", default=EXAMPLE["preset"])
    args = p.parse_args(argv)
    if args.update:
        doc = DOC.read_text(encoding="utf-8")
        new = with_example(doc, example_section())
        DOC.write_text(new, encoding="utf-8")
        print(f"{DOC}: {'rewritten' if new != doc else 'already up to date'}")
    elif args.transcript:
        print(transcript(args.player, args.seed, args.preset)[0])
    return 0


if __name__ == "__main__":
    sys.exit(main())
