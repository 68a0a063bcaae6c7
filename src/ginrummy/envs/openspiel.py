"""An OpenSpiel game on the exact engine: ``pyspiel.load_game("python_ginrummy")``.

Importing this module registers the game, so OpenSpiel's algorithms (MCTS, ISMCTS, CFR-family,
evaluators, ``random_sim_test``) play one hand under any of our rule sets:

    import pyspiel, ginrummy.envs.openspiel
    game = pyspiel.load_game("python_ginrummy", {"rules": "eaai"})

Parameters: ``rules`` (a preset name and any ``;key:value`` overrides, such as
``"classic;upcard:false;big_gin:true"``; default ``classic``), ``dealer`` (the
dealing seat, default 1, so player 0 is the non-dealer and acts first as in OpenSpiel's own
``gin_rummy``) and ``max_moves`` (player moves in a hand before it is cut off as a dead hand with
no score, default 300; random play's longest in 20,000 hands was 195).

Chance nodes are explicit: the deal is 21 chance nodes (each a card, uniform over the cards not
yet dealt, in the engine's deal order: the non-dealer's first card, the dealer's, ..., then the
upcard), and every draw from the stock is the player's action ``stock`` followed by a chance
node that picks the card, uniform over the stock. Player actions are the engine's integers
(``NUM_ACTIONS`` = 646, ``Hand.legal_actions()``); chance outcomes are cards 0..51. Returns are
the hand's points, zero-sum.

Observations come from :mod:`ginrummy.envs.encoding`: ``observation_tensor`` is the 747 named
numbers of the seat's view, ``information_state_tensor`` the perfect-recall one (the view and a
row per step seen), and the strings are the same views as text. ``resample_from_infostate`` draws
a world from the player's view alone (:func:`ginrummy.envs.resample.resample`), so it cannot
leak what the view hides.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyspiel

from ..actions import NUM_ACTIONS, STOCK, Action
from ..cards import card_str
from ..hand import Hand
from ..observation import SeatView, observe
from ..rules import Rules, parse_rule_settings
from ..scoring import MAX_DEADWOOD
from .encoding import (
    OBSERVATION_SIZE,
    InfoStateEncoder,
    encode_observation,
    info_state_size,
    pieces,
)
from .game import DEFAULT_MAX_MOVES
from .resample import resample

GAME_NAME = "python_ginrummy"
_STOCK = int(STOCK)
_DEAL_CARDS = 21
_DEFAULTS: dict[str, Any] = {"rules": "classic", "dealer": 1, "max_moves": DEFAULT_MAX_MOVES}

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Gin Rummy (ginrummy's exact engine)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    provides_factored_observation_string=False,
    parameter_specification=_DEFAULTS,
)


def rules_param(text: str) -> Rules:
    """The ``rules`` parameter: a preset name, then any ``;key:value`` overrides.

    OpenSpiel writes a game's parameters in a string such as ``python_ginrummy(rules=eaai)`` and
    reads them back from it, so the value cannot hold ``,``, ``=`` or brackets (nor JSON).

    >>> rules_param("classic;upcard:false;big_gin:yes").overrides()
    {'big_gin': True, 'upcard': False}
    """
    preset, *settings = [part.strip() for part in text.split(";")]
    return Rules.preset(preset or "classic", **parse_rule_settings(s.replace(":", "=", 1) for s in settings if s))


def rules_text(rules: Rules) -> str:
    """The ``rules`` parameter for a rule set (the inverse of :func:`rules_param`).

    >>> rules_text(Rules.preset("eaai", knock_limit=8))
    'eaai;knock_limit:8'
    """
    return ";".join([rules.name, *(f"{k}:{str(v).lower()}" for k, v in rules.overrides().items())])


def max_hand_points(rules: Rules) -> int:
    """A bound on one hand's points under ``rules`` (the utility range)."""
    bonus = max(rules.gin_bonus, rules.big_gin_bonus if rules.big_gin else 0, rules.undercut_bonus)
    return (2 if rules.oklahoma_spade_double else 1) * (bonus + MAX_DEADWOOD)


@dataclass(frozen=True)
class Setup:
    """The game's parameters, read once."""

    rules: Rules
    dealer: int
    max_moves: int

    def __deepcopy__(self, memo: dict[int, Any]) -> Setup:
        return self  # immutable


class _Held:
    """The engine's hand of a state. OpenSpiel clones a Python state with ``copy.deepcopy``;
    this copies the hand with ``Hand.clone`` (which shares the immutable steps and events), a
    tenth of the time of copying it field by field."""

    __slots__ = ("hand",)

    def __init__(self, hand: Hand | None = None) -> None:
        self.hand = hand

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        return _Held(None if self.hand is None else self.hand.clone())


class GinRummyGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel is untyped
    """One hand of two-player Gin Rummy (see the module docstring)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**_DEFAULTS, **(params or {})}
        rules = rules_param(str(p["rules"]))
        dealer = int(p["dealer"])
        max_moves = int(p["max_moves"])
        if dealer not in (0, 1):
            raise ValueError(f"dealer must be 0 or 1, not {dealer}")
        if not 1 <= max_moves <= 10_000:
            raise ValueError(f"max_moves must be from 1 to 10000, not {max_moves}")
        top = float(max_hand_points(rules))
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=52,
            num_players=2,
            min_utility=-top,
            max_utility=top,
            utility_sum=0.0,
            max_game_length=max_moves,
        )
        super().__init__(_GAME_TYPE, info, p)
        self.setup = Setup(rules, dealer, max_moves)

    def new_initial_state(self) -> GinRummyState:
        return GinRummyState(self, self.setup)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> GinRummyObserver:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        if iig_obs_type is not None and (
            iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not iig_obs_type.public_info
        ):
            raise ValueError("only the player's own observation is provided (private: single player, public: on)")
        return GinRummyObserver(self.setup.max_moves, perfect_recall)


class GinRummyState(pyspiel.State):  # type: ignore[misc]
    """A state: the cards dealt so far, then the engine's hand (and a pending stock draw)."""

    def __init__(self, game: Any, setup: Setup) -> None:
        super().__init__(game)
        # The game's parameters live on the state: OpenSpiel copies states without their game.
        self.setup = setup
        self.dealt: list[int] = []
        self._held = _Held()
        #: A player chose ``stock``; the chance node picks the card.
        self.drawing = False
        self.cut_off = False

    @property
    def hand(self) -> Hand | None:
        """The engine's hand (None during the deal)."""
        return self._held.hand

    # -- the PySpiel API ------------------------------------------------------------------

    def current_player(self) -> int:
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        if self.hand is None or self.drawing:
            return int(pyspiel.PlayerId.CHANCE)
        return int(self.hand.current)

    def _legal_actions(self, player: int) -> list[int]:
        assert self.hand is not None and player == self.hand.current
        return [int(a) for a in self.hand.legal_actions()]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.hand is None:
            left = sorted(set(range(52)) - set(self.dealt))
        else:
            left = sorted(self.hand.stock)
        p = 1.0 / len(left)
        return [(c, p) for c in left]

    def _apply_action(self, action: int) -> None:
        if self.hand is None:
            self.dealt.append(action)
            if len(self.dealt) == _DEAL_CARDS:
                h = Hand(self.setup.rules, self.setup.dealer)
                h.deal(self.dealt + sorted(set(range(52)) - set(self.dealt)))
                self._held.hand = h
            return
        h = self.hand
        if self.drawing:
            stock = h.stock
            i = stock.index(action)
            stock[i], stock[-1] = stock[-1], stock[i]
            self.drawing = False
            h.apply(STOCK)
        elif action == _STOCK:
            h.verify(STOCK)
            self.drawing = True
            return
        else:
            h.apply(action)
        if not h.is_over and len(h.history) >= self.setup.max_moves:
            self.cut_off = True

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"{'draw' if self.hand is not None else 'deal'} {card_str(action)}"
        return str(Action.from_int(action))

    def is_terminal(self) -> bool:
        return self.cut_off or (self.hand is not None and self.hand.is_over)

    def returns(self) -> list[float]:
        h = self.hand
        if h is None or h.result is None or h.result.winner is None:
            return [0.0, 0.0]
        w, pts = h.result.winner, float(h.result.points)
        return [pts, -pts] if w == 0 else [-pts, pts]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> GinRummyState:
        """A state ``player_id`` cannot tell from this one, drawn from its view alone."""
        game = self.setup
        rng = random.Random(int(probability_sampler() * 2**53))
        state = GinRummyState(self.get_game(), game)
        if self.hand is None:
            mine = _dealt_to(game, player_id, len(self.dealt))
            known = {self.dealt[i] for i in mine} | ({self.dealt[20]} if len(self.dealt) > 20 and game.rules.upcard else set())
            others = [c for c in range(52) if c not in known]
            rng.shuffle(others)
            it = iter(others)
            for i in range(len(self.dealt)):
                public = i == 20 and game.rules.upcard
                state.apply_action(self.dealt[i] if i in mine or public else next(it))
            return state
        world = resample(observe(self.hand, player_id), rng)
        for c in world.deck[:_DEAL_CARDS]:
            state.apply_action(c)
        draws = iter(world.deck[_DEAL_CARDS:])
        for a in world.actions:
            state.apply_action(a)
            if a == _STOCK:
                state.apply_action(next(draws))
        if self.drawing:
            state.apply_action(_STOCK)
        return state

    def view(self, player: int) -> SeatView | None:
        """``player``'s view of the hand (None during the deal)."""
        return None if self.hand is None else observe(self.hand, player)

    def __str__(self) -> str:
        """The whole state, hidden cards included (for debugging, as OpenSpiel's states do)."""
        if self.hand is None:
            return "dealing: " + " ".join(card_str(c) for c in self.dealt)
        h = self.hand
        hands = " / ".join(" ".join(card_str(c) for c in range(52) if m >> c & 1) for m in h.hands)
        steps = ", ".join(f"{s.seat}:{s.action}" + (f" ({card_str(s.drawn)})" if s.drawn >= 0 else "") for s in h.history)
        return f"dealer {h.dealer}; hands {hands}; stock {len(h.stock)}; steps {steps}" + ("; drawing" if self.drawing else "")


def _dealt_to(game: Setup, player: int, n: int) -> set[int]:
    """Deal positions (of the first ``n``) that went to ``player``."""
    non_dealer = 1 - game.dealer
    out = {i for i in range(min(n, 20)) if (i % 2 == 0) == (player == non_dealer)}
    if n > 20 and not game.rules.upcard and player == non_dealer:
        out.add(20)
    return out


class GinRummyObserver:
    """The player's observation or perfect-recall information state, as a tensor and a string."""

    def __init__(self, max_moves: int, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.max_moves = max_moves
        size = info_state_size(max_moves) if perfect_recall else OBSERVATION_SIZE
        self.tensor = np.zeros(size, np.float32)
        self.dict = pieces(self.tensor)
        if perfect_recall:
            self.dict["steps"] = self.tensor[OBSERVATION_SIZE:].reshape(max_moves, -1)

    def set_from(self, state: GinRummyState, player: int) -> None:
        view = state.view(player)
        if view is None:
            self.tensor.fill(0.0)
            d = self.dict
            d["phase"][0] = 1.0
            d["dealer"][0] = float(state.setup.dealer == player)
            for i in _dealt_to(state.setup, player, len(state.dealt)):
                d["hand"][state.dealt[i]] = 1.0
            if len(state.dealt) > 20 and state.setup.rules.upcard:
                d["upcard"][state.dealt[20]] = 1.0
            return
        if self.perfect_recall:
            self.tensor[:] = InfoStateEncoder(self.max_moves).encode(view)
        else:
            encode_observation(view, self.tensor)

    def string_from(self, state: GinRummyState, player: int) -> str:
        view = state.view(player)
        if view is None:
            mine = sorted(state.dealt[i] for i in _dealt_to(state.setup, player, len(state.dealt)))
            up = state.dealt[20] if len(state.dealt) > 20 and state.setup.rules.upcard else None
            return (f"p{player} dealing {len(state.dealt)}: " + " ".join(card_str(c) for c in mine)
                    + ("" if up is None else f"; upcard {card_str(up)}"))
        parts = [
            f"p{player}",
            f"hand {' '.join(card_str(c) for c in range(52) if view.hand >> c & 1)}",
            f"pile {' '.join(card_str(c) for c in view.pile)}",
            f"stock {view.stock_size}",
            f"phase {view.phase.value}",
            f"to act {view.current}",
            f"opponent known {' '.join(card_str(c) for c in range(52) if view.opponent_known >> c & 1)}",
        ]
        if self.perfect_recall:
            parts.append("steps " + ", ".join(f"{e.seat}:{e.text()}" for e in view.events))
        if state.drawing:
            parts.append(f"{view.current}: stock chosen")
        return "; ".join(parts)


pyspiel.register_game(_GAME_TYPE, GinRummyGame)

__all__ = ["GAME_NAME", "GinRummyGame", "rules_param", "rules_text", "GinRummyObserver", "GinRummyState", "max_hand_points"]
