"""``ginrummy engine``: our computer players behind a line-based JSON protocol, like UCI for chess.

Why a process protocol: a GUI, a tournament manager or a program written in another language can
use our players without linking Python. The *host* referees the hand and tells the engine only what
its seat may see; the engine answers ``go`` with an action in text notation. The specification is
``docs/protocol.md``; this module is its reference implementation.

How the engine knows the seat's position without ever holding hidden information: it runs a
*shadow* :class:`~ginrummy.hand.Hand` of the core engine. The seat's own cards, the discard pile,
every face-up action and all turn state are exact; the cards the seat cannot see (the opponent's
hidden cards, the stock, a face-down knock discard) are *placeholders*: unseen cards placed anywhere
consistent with what the seat knows. Unseen cards are interchangeable from the seat's point of
view, so when the host reveals one (the seat draws it, the opponent discards or melds it) the
shadow swaps it into place first. Every event is then played through ``Hand.apply`` on a copy, so
the core's rules check both players' actions, and a message that contradicts the seat's knowledge
is refused with the state unchanged. The player is given ``observe(shadow, seat)``, which hides the
placeholders exactly as it hides the real cards of a real hand: the view equals the one a real
hand would give (the tests check this on thousands of positions), and ``view.legal`` comes from
``Hand.legal_actions()``, the single source of truth.

One case needs more than a swap: the opponent's knock. Its discard is face down and its remaining
cards are shown only as it lays them out, so the knock cannot be checked when it is announced. The
engine keeps the state from just before the knock, shows a provisional layout meanwhile, and when
the knocker's ``done`` arrives (with its deadwood cards, which are laid face up) it rebuilds the
knock with the knocker's real ten cards and checks the knock, every meld and ``done`` by the rules.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import IO, Any

from .actions import Action, Kind
from .cards import Card, card_str
from .commands import options
from .errors import GinRummyError, IllegalActionError
from .events import Phase
from .game import hand_rules
from .hand import Hand
from .players import PLAYERS, get_player
from .players.base import Player
from .protocol_shadow import (
    Message,
    PendingKnock,
    ProtocolError,
    SeatHand,
    card_field,
    card_names,
    cards_field,
    hold,
    provisional_layout,
    put_on_stock_top,
    replay_knock,
    seat_field,
    shadow_deal,
    taken_only_to_knock,
)
from .rules import Rules
from .scoring import HandResult

PROTOCOL_VERSION = 1
ENGINE_NAME = "ginrummy"
DEFAULT_PLAYER = "expert"

# --------------------------------------------------------------------------- the engine


@dataclass
class Engine:
    """The protocol's state machine: one instance per engine process.

    ``handle_line`` takes one line from the host and returns the reply (or None for a blank
    line); it never raises, so a host cannot crash the engine with any input.
    """

    player_name: str = DEFAULT_PLAYER
    seed: int | None = None
    rules: Rules = field(default_factory=Rules)
    line: int = 0
    quit: bool = False
    player: Player | None = None
    hand: SeatHand | None = None
    #: Extra player specs allowed in ``new_game`` (``module:Class`` given on the command line).
    extra_players: tuple[str, ...] = ()
    log: IO[str] | None = None
    #: How many play the game (``new_game``'s ``players``): 2, 3 (the dealer sits out) or 4 (teams).
    players: int = 2
    #: What the host said in ``sit_out`` while the seat sits the hand out, else None.
    sitting_out: Message | None = None

    # -- lines ------------------------------------------------------------------------------

    def handle_line(self, text: str) -> Message | None:
        self.line += 1
        if not text.strip():
            return None
        msg_id: Any = None
        reply: Message
        try:
            try:
                msg = json.loads(text)
            except ValueError as e:
                raise ProtocolError(f"not a JSON object: {e}") from None
            except RecursionError:
                raise ProtocolError("not a JSON object: nested too deeply") from None
            if not isinstance(msg, dict):
                raise ProtocolError("a message must be a JSON object such as {\"type\": \"hello\"}")
            raw_id = msg.get("id")
            if isinstance(raw_id, str) or (isinstance(raw_id, int) and not isinstance(raw_id, bool)):
                msg_id = raw_id
            kind = msg.get("type")
            handler = _HANDLERS.get(kind) if isinstance(kind, str) else None
            if handler is None:
                raise ProtocolError(
                    f"unknown message type {json.dumps(kind)}: expected one of {', '.join(_HANDLERS)}"
                )
            reply = handler(self, msg)
        except ProtocolError as e:
            reply = self._error(str(e), e.rule)
        except IllegalActionError as e:
            reply = self._error(str(e), e.rule or "illegal")
        except GinRummyError as e:
            reply = self._error(str(e), "")
        except Exception as e:  # noqa: BLE001 - the engine must survive any input, even a bug
            reply = self._error(f"internal error: {type(e).__name__}: {e}", "internal")
        if msg_id is not None:
            reply["id"] = msg_id
        return reply

    def _error(self, message: str, rule: str) -> Message:
        out: Message = {"type": "error", "message": message, "line": self.line}
        if rule:
            out["rule"] = rule
        return out

    # -- messages ---------------------------------------------------------------------------

    def on_hello(self, msg: Message) -> Message:
        from . import __version__

        return {
            "type": "ready",
            "name": ENGINE_NAME,
            "version": __version__,
            "protocol": PROTOCOL_VERSION,
            "players": available_players() + [p for p in self.extra_players if p not in PLAYERS],
            "player": self.player_name,
        }

    def on_ping(self, msg: Message) -> Message:
        return {"type": "pong"}

    def on_quit(self, msg: Message) -> Message:
        self.quit = True
        return {"type": "bye"}

    def on_new_game(self, msg: Message) -> Message:
        rules = Rules.from_json(msg.get("rules", "classic"))
        name = msg.get("player", self.player_name)
        if not isinstance(name, str):
            raise ProtocolError("'player' must be a player name such as \"expert\"")
        seed = msg.get("seed", self.seed)
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise ProtocolError("'seed' must be a whole number or null")
        players = msg.get("players", 2)
        if type(players) is not int or players not in (2, 3, 4):
            raise ProtocolError(f"'players' must be 2, 3 or 4 (how many play the game), not {json.dumps(players)}")
        player = self._load_player(name, seed)
        self.rules, self.player, self.player_name, self.seed, self.hand = hand_rules(rules, players), player, name, seed, None
        self.players, self.sitting_out = players, None
        reply: Message = {"type": "ok", "rules": rules.to_json(), "player": name}
        if players != 2:
            reply["players"] = players
        return reply

    def on_sit_out(self, msg: Message) -> Message:
        """The seat sits this hand out (three players: the dealer); it is told nothing of it."""
        if self.players != 3:
            raise ProtocolError(
                f"in a {self.players}-player game every player plays every hand: no seat sits out "
                "(send new_game with \"players\": 3 for the three-player game)",
                rule="sits_out",
            )
        told: Message = {}
        for key, size in (("playing", 2), ("scores", 3)):
            if key in msg:
                raw = msg[key]
                if not (isinstance(raw, list) and len(raw) == size and all(type(v) is int for v in raw)):
                    raise ProtocolError(f"'{key}' must be a list of {size} whole numbers")
                told[key] = raw
        if "playing" in told and (len(set(told["playing"])) != 2 or not set(told["playing"]) <= {0, 1, 2}):
            raise ProtocolError("'playing' must name two different seats of 0, 1 and 2")
        if "dealt_by" in msg:
            if type(msg["dealt_by"]) is not int or msg["dealt_by"] not in (0, 1, 2):
                raise ProtocolError("'dealt_by' must be the dealer's seat, 0, 1 or 2")
            told["dealt_by"] = msg["dealt_by"]
        self.hand, self.sitting_out = None, told
        return {"type": "ok", "sits_out": True}

    def on_new_hand(self, msg: Message) -> Message:
        seat = seat_field(msg, "seat")
        dealer = seat_field(msg, "dealer")
        own = cards_field(msg.get("hand"), "'hand'")
        rules = self.rules
        size = 11 if (not rules.upcard and seat != dealer) else 10
        if own.bit_count() != size:
            raise ProtocolError(f"'hand' must hold {size} cards for this seat, not {own.bit_count()}")
        raw_up = msg.get("upcard")
        upcard: Card | None = None
        if rules.upcard:
            upcard = card_field(raw_up, "'upcard'")
            if own >> upcard & 1:
                raise ProtocolError(f"the upcard {card_str(upcard)} is also in 'hand'")
        elif raw_up is not None:
            raise ProtocolError("these rules turn no upcard: send \"upcard\": null or leave it out")
        scores = msg.get("scores", [0, 0])
        if (
            not isinstance(scores, list)
            or len(scores) != 2
            or not all(isinstance(s, int) and not isinstance(s, bool) for s in scores)
        ):
            raise ProtocolError("'scores' must be a list of two whole numbers (the game score by seat)")
        shadow = shadow_deal(rules, seat, dealer, own, upcard)
        player = self.player or self._load_player(self.player_name, self.seed)
        player.new_hand(seat)
        self.player = player
        self.hand = SeatHand(seat, shadow, (scores[0], scores[1]))
        self.sitting_out = None
        return {"type": "ok"}

    def on_event(self, msg: Message) -> Message:
        st = self._hand()
        if st.finished:
            raise ProtocolError("the hand is over: send new_hand to start the next one")
        seat = seat_field(msg, "seat")
        text = msg.get("action")
        if not isinstance(text, str):
            raise ProtocolError("'action' must be an action in text notation such as \"stock\" or \"Kd\"")
        words = " ".join(text.lower().split())
        if st.pending is not None:
            self._pending_event(st, st.pending, seat, words, text, msg)
            return {"type": "ok"}
        h = st.shadow
        if h.phase is Phase.OVER:
            raise ProtocolError("the hand is over: send hand_over, then new_hand")
        if seat != h.current:
            raise ProtocolError(f"it is seat {h.current}'s turn ({h.phase.value}), not seat {seat}'s", rule="turn")
        if seat == st.opp:
            self._opponent_event(st, words, text, msg)
        else:
            self._own_event(st, text, msg)
        return {"type": "ok"}

    def _own_event(self, st: SeatHand, text: str, msg: Message) -> None:
        action = Action.parse(text)
        h = st.shadow.clone()
        if action.kind is Kind.STOCK:
            if "card" not in msg:
                raise ProtocolError("your own stock draw must tell the card: {\"action\": \"stock\", \"card\": \"7h\"}")
            if h.phase is Phase.DRAW:
                put_on_stock_top(h, st.seat, card_field(msg["card"], "'card'"))
        elif action.kind is Kind.PILE and "card" in msg:
            self._check_top(h, msg["card"])
        h.apply(action)
        st.shadow = h

    def _opponent_event(self, st: SeatHand, words: str, text: str, msg: Message) -> None:
        h = st.shadow.clone()
        if words in ("knock", "gin", "big gin", "biggin"):
            big = words in ("big gin", "biggin")
            if h.phase is not Phase.DISCARD:
                raise ProtocolError(f"the opponent cannot {words} now: it is the {h.phase.value} phase", rule="knock")
            if big and not self.rules.big_gin:
                raise ProtocolError("big gin is not played under these rules", rule="big_gin")
            pending = PendingKnock(h, big)
            st.shadow, st.pending = provisional_layout(st.seat, pending), pending
            return
        action = Action.parse(text)
        if action.kind is Kind.KNOCK:
            raise ProtocolError(
                "the opponent's knock discard is face down: send {\"action\": \"knock\"} without the card",
                rule="hidden",
            )
        if action.kind is Kind.STOCK and "card" in msg:
            raise ProtocolError("the opponent's stock card is hidden: send {\"action\": \"stock\"} without a card",
                                rule="hidden")
        if action.kind is Kind.PILE and "card" in msg:
            self._check_top(h, msg["card"])
        if action.kind is Kind.PILE and taken_only_to_knock(h):
            # Whether the opponent can knock with that card depends on cards this seat
            # cannot see; its knock is checked at its layout.
            h.apply_unchecked(action)
            st.shadow = h
            return
        if action.kind is Kind.DONE and h.phase is Phase.DEFENDER_LAYOUT:
            self._reveal_defender(h, st.seat, msg)
        if action.kind in (Kind.DISCARD, Kind.LAYOFF):
            hold(h, st.seat, 1 << action.card)
        elif action.kind is Kind.MELD:
            hold(h, st.seat, action.meld)
        h.apply(action)
        st.shadow = h

    def _pending_event(
        self, st: SeatHand, pending: PendingKnock, seat: int, words: str, text: str, msg: Message
    ) -> None:
        if seat != st.opp:
            raise ProtocolError(
                "the opponent is laying out after its knock: expected its melds, then done",
                rule="turn",
            )
        if words == "done":
            if "deadwood" not in msg:
                raise ProtocolError(
                    "the knocker's done must list its deadwood cards (laid face up): "
                    "{\"action\": \"done\", \"deadwood\": [\"5c\"]}",
                    rule="layout",
                )
            dead = cards_field(msg["deadwood"], "'deadwood'")
            st.shadow = replay_knock(st.seat, pending, dead)
            st.pending = None
            return
        action = Action.parse(text)
        if action.kind is not Kind.MELD:
            raise ProtocolError(
                f"{text!r} is not allowed now: the opponent lays out melds after its knock, then done",
                rule="layout",
            )
        laid = 0
        for m in pending.melds:
            laid |= m
        if laid & action.meld:
            raise ProtocolError(f"{card_names(laid & action.meld)} already laid in another meld", rule="meld")
        if len(pending.melds) >= (4 if pending.big_gin else 3):
            raise ProtocolError("the knocker has no cards left for another meld", rule="meld")
        trial = PendingKnock(pending.before, pending.big_gin, [*pending.melds, action.meld])
        shadow = provisional_layout(st.seat, trial)
        st.pending, st.shadow = trial, shadow

    def _reveal_defender(self, h: Hand, seat: int, msg: Message) -> None:
        """The opponent's defender layout is done: its deadwood goes face up, so its hand is known."""
        if "deadwood" not in msg:
            raise ProtocolError(
                "the defender's done must list its deadwood cards (laid face up): "
                "{\"action\": \"done\", \"deadwood\": [\"5c\"]}",
                rule="layout",
            )
        dead = cards_field(msg["deadwood"], "'deadwood'")
        opp = 1 - seat
        laid = 0
        for m in h.defender_melds:
            laid |= m
        if laid & dead:
            raise ProtocolError(f"{card_names(laid & dead)} both laid in a meld and listed as deadwood", rule="layout")
        size = h.hands[opp].bit_count()
        if (laid | dead).bit_count() != size:
            raise ProtocolError(
                f"the defender holds {size} cards; its melds and deadwood list {(laid | dead).bit_count()}",
                rule="layout",
            )
        hold(h, seat, laid | dead)

    def _check_top(self, h: Hand, raw: Any) -> None:
        card = card_field(raw, "'card'")
        if h.top_discard != card:
            top = "empty" if h.top_discard is None else card_str(h.top_discard)
            raise ProtocolError(f"the top of the discard pile is {top}, not {card_str(card)}", rule="draw")

    def on_go(self, msg: Message) -> Message:
        st = self._hand()
        h = st.shadow
        if st.pending is not None or h.current != st.seat or h.phase is Phase.OVER:
            who = "nobody (the hand is over)" if h.phase is Phase.OVER else f"seat {h.current}"
            if st.pending is not None:
                who = f"seat {st.opp} (laying out after its knock)"
            raise ProtocolError(f"not this seat's turn: it is {who}'s turn", rule="turn")
        view = st.view()
        player = self.player
        assert player is not None
        action: Action | None = None
        try:
            action = player.decide(view)
        except Exception as e:  # noqa: BLE001 - a player bug must not stop a tournament
            self._log(f"player {self.player_name} failed: {type(e).__name__}: {e}; playing the first legal action")
        if action not in view.legal:
            if action is not None:
                self._log(f"player {self.player_name} chose illegal {action}; playing the first legal action")
            action = view.legal[0]
        return {"type": "action", "action": str(action)}

    def on_view(self, msg: Message) -> Message:
        if self.sitting_out is not None:
            return {"type": "view", "view": None, "sits_out": True, "pending_layout": False}
        st = self._hand()
        return {"type": "view", "view": st.view().to_json(), "pending_layout": st.pending is not None}

    def on_hand_over(self, msg: Message) -> Message:
        st = self._hand()
        if st.finished:
            raise ProtocolError("hand_over was already received for this hand")
        if st.pending is not None or st.shadow.phase is not Phase.OVER:
            raise ProtocolError(
                f"the hand is not over: it is seat {st.shadow.current}'s turn ({st.shadow.phase.value})",
                rule="turn",
            )
        h = st.shadow.clone()
        if h.knocker is not None and "opponent_hand" in msg:
            opp_cards = cards_field(msg["opponent_hand"], "'opponent_hand'")
            if opp_cards.bit_count() != h.hands[st.opp].bit_count():
                raise ProtocolError(
                    f"the opponent holds {h.hands[st.opp].bit_count()} cards, "
                    f"'opponent_hand' lists {opp_cards.bit_count()}"
                )
            hold(h, st.seat, opp_cards)
            if h.hands[st.opp] != opp_cards:
                raise ProtocolError(f"'opponent_hand' contradicts the layout: {card_names(h.hands[st.opp])}")
        result = h.result
        assert result is not None
        if "result" in msg:
            _check_result(msg["result"], result)
        scores = st.scores
        if "scores" in msg:
            raw = msg["scores"]
            if not (isinstance(raw, list) and len(raw) == 2 and all(type(s) is int for s in raw)):
                raise ProtocolError("'scores' must be a list of two whole numbers")
            scores = (raw[0], raw[1])
        st.shadow, st.scores, st.finished = h, scores, True
        if self.player is not None:
            try:
                self.player.hand_over(st.view())
            except Exception as e:  # noqa: BLE001 - a player bug must not stop the engine
                self._log(f"player {self.player_name} failed at hand_over: {type(e).__name__}: {e}")
        return {"type": "ok", "result": result.to_json()}

    # -- helpers ----------------------------------------------------------------------------

    def _hand(self) -> SeatHand:
        if self.sitting_out is not None:
            raise ProtocolError(
                "this seat sits out this hand: it holds no cards and is told nothing of the hand "
                "until the next new_hand",
                rule="sits_out",
            )
        if self.hand is None:
            raise ProtocolError("no hand in play: send new_hand first", rule="turn")
        return self.hand

    def _load_player(self, name: str, seed: int | None) -> Player:
        if name in PLAYERS:
            try:
                return get_player(name, seed)
            except ImportError as e:
                raise ProtocolError(f"player {name!r} is not available in this build: {e}") from None
        if name in self.extra_players and ":" in name:
            module, _, cls = name.partition(":")
            player: Player = getattr(importlib.import_module(module), cls)(seed=seed)
            return player
        raise ProtocolError(f"unknown player {name!r}: choose one of {', '.join(available_players())}")

    def _log(self, text: str) -> None:
        if self.log is not None:
            print(f"ginrummy engine: {text}", file=self.log, flush=True)


def _check_result(raw: Any, result: HandResult) -> None:
    """The host's result must agree with the engine's own scoring of what the seat saw."""
    if not isinstance(raw, dict):
        raise ProtocolError("'result' must be an object such as {\"kind\": \"knock\", \"winner\": 0, \"points\": 12}")
    mine = result.to_json()
    for key in ("kind", "winner", "points"):
        if key in raw and raw[key] != mine[key]:
            raise ProtocolError(
                f"the result's {key} {json.dumps(raw[key])} contradicts the hand as seen: {json.dumps(mine[key])}",
                rule="score",
            )


_HANDLERS: dict[str, Callable[[Engine, Message], Message]] = {
    "hello": Engine.on_hello,
    "new_game": Engine.on_new_game,
    "new_hand": Engine.on_new_hand,
    "sit_out": Engine.on_sit_out,
    "event": Engine.on_event,
    "go": Engine.on_go,
    "view": Engine.on_view,
    "hand_over": Engine.on_hand_over,
    "ping": Engine.on_ping,
    "quit": Engine.on_quit,
}


def available_players() -> list[str]:
    """Registered players whose module exists in this build (teammates add them over time)."""
    out = []
    for name, spec in PLAYERS.items():
        module = spec.split(":")[0]
        try:
            found = importlib.util.find_spec(module) is not None
        except (ImportError, ValueError):
            found = False
        if found:
            out.append(name)
    return out


# --------------------------------------------------------------------------- the command


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--player",
        default=DEFAULT_PLAYER,
        type=options.player,
        help=f"player to answer 'go' ({', '.join(PLAYERS)}, or module:Class for your own); default {DEFAULT_PLAYER}",
    )
    p.add_argument("--seed", type=int, default=None, help="seed of the player's random choices")
    p.add_argument("--quiet", action="store_true", help="do not report player failures on stderr")


def serve(inp: IO[bytes], out: IO[str], engine: Engine) -> None:
    """Answer each line of ``inp`` on ``out`` until ``quit`` or end of input.

    Lines are read as bytes and decoded leniently, so no input bytes can crash the engine.
    """
    for raw in inp:
        reply = engine.handle_line(raw.decode("utf-8", errors="replace"))
        if reply is not None:
            out.write(json.dumps(reply) + "\n")
            out.flush()
        if engine.quit:
            break


def run(args: argparse.Namespace) -> int:
    name = str(args.player)
    extra = (name,) if ":" in name else ()
    engine = Engine(player_name=name, seed=args.seed, extra_players=extra, log=None if args.quiet else sys.stderr)
    serve(sys.stdin.buffer, sys.stdout, engine)
    return 0
