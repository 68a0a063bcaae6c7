"""The episode every environment runs: one hand or a whole game, its rewards, its options.

An :class:`Episode` plays a :class:`~ginrummy.match.Match` (so dealing, scoring and the dealer
rotation are the core's own) and turns what happens into zero-sum rewards in game points:

- ``episode="hand"``: the episode is one hand; the winner gets the hand's points and the loser
  loses them, a dead hand gives 0 to both.
- ``episode="game"``: the episode is a whole game to the rule set's target. With
  ``reward="hand"`` each hand's points are paid as it ends and the game's bonuses (game, box,
  shutout) when the game ends, so an episode's rewards add up to the final margin between the
  two totals; with ``reward="game"`` that margin is paid only at the end.
- ``shaping`` (off by default, 0.0): each step of a seat also pays it ``shaping`` times the fall
  in its own deadwood over the step (potential-based, so it sums to the change from the deal to
  the end and does not change which policies are best). With shaping on, rewards are no longer
  zero-sum.
- ``auto_layout``: after a knock, every seat's melds and layoffs are the engine's default
  (:func:`ginrummy.layout.layout_action`, its lowest count) instead of being asked for.
- ``max_moves``: a hand with more steps than this is cut off: the episode ends as truncated (no
  reward for the hand). Random play, the longest there is, ran to 195 steps in 20,000 hands; the
  default 300 is beyond that.

The same seed gives the same deals: each episode's match seed is drawn from the environment's
random generator, and the core shuffles every hand from it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from ..actions import Action
from ..errors import IllegalActionError
from ..events import LAYOUT_PHASES, Phase
from ..hand import Hand
from ..layout import layout_action
from ..match import Match
from ..melds import deadwood
from ..observation import SeatView, observe
from ..rules import Rules

EpisodeKind = Literal["hand", "game"]
RewardKind = Literal["hand", "game"]

_P_OVER = Phase.OVER
DEFAULT_MAX_MOVES = 300


def rules_of(rules: Rules | str | Mapping[str, Any] | None) -> Rules:
    """A rule set from a Rules object, a preset name (``"eaai"``) or its JSON form."""
    if rules is None:
        return Rules()
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, str):
        return Rules.preset(rules)
    return Rules.from_json(rules)


@dataclass(frozen=True)
class EnvConfig:
    """An environment's options; they survive every ``reset``."""

    rules: Rules = field(default_factory=Rules)
    episode: EpisodeKind = "hand"
    reward: RewardKind = "hand"
    shaping: float = 0.0
    auto_layout: bool = False
    info_state: bool = False
    max_moves: int = DEFAULT_MAX_MOVES

    def __post_init__(self) -> None:
        if self.episode not in ("hand", "game"):
            raise ValueError(f"episode must be 'hand' or 'game', not {self.episode!r}")
        if self.reward not in ("hand", "game"):
            raise ValueError(f"reward must be 'hand' or 'game', not {self.reward!r}")
        if not isinstance(self.max_moves, int) or not 1 <= self.max_moves <= 10_000:
            raise ValueError(f"max_moves must be a whole number from 1 to 10000, not {self.max_moves!r}")

    @staticmethod
    def make(rules: Rules | str | Mapping[str, Any] | None = None, **options: Any) -> EnvConfig:
        return replace(EnvConfig(rules=rules_of(rules)), **options)


class Episode:
    """One episode: the match being played, whose turn it is, and the rewards of each step."""

    def __init__(self, config: EnvConfig, seed: int) -> None:
        self.config = config
        self.match = Match(config.rules, seed=seed)
        self.hand: Hand = self.match.start_hand()
        self.terminated = False
        self.truncated = False
        #: Hand rewards paid so far, by seat (the game's bonuses are what is left at the end).
        self._paid = [0, 0]
        #: The game scores (they change only when a hand ends).
        self._scores = self.match.scores
        self._auto()

    @property
    def over(self) -> bool:
        return self.terminated or self.truncated

    @property
    def current(self) -> int:
        """The seat to act (only while the episode is not over)."""
        return self.hand.current

    def view(self, seat: int) -> SeatView:
        return observe(self.hand, seat, self._scores)

    def is_legal(self, action: int) -> bool:
        return not self.over and self.hand.is_legal(Action.from_int(action))

    def step(self, action: int) -> tuple[float, float]:
        """Play ``action`` (an integer) for the seat to act; the rewards of both seats.

        An illegal action raises :class:`IllegalActionError` (the engine's, naming the rule)
        and changes nothing.
        """
        if self.over:
            raise IllegalActionError("the episode is over: reset the environment", rule="hand_over")
        rewards = [0.0, 0.0]
        self._play(Action.from_int(int(action)), rewards)
        self._auto(rewards)
        return rewards[0], rewards[1]

    # -- internals ----------------------------------------------------------------------------

    def _play(self, action: Action, rewards: list[float]) -> None:
        h = self.hand
        seat = h.current
        shaping = self.config.shaping
        before = deadwood(h.hands[seat]) if shaping else 0
        self.match.apply(action)
        if shaping:
            rewards[seat] += shaping * (before - deadwood(h.hands[seat]))
        if h.phase is _P_OVER:
            self._scores = self.match.scores
            self._hand_over(rewards)
        elif len(h.history) >= self.config.max_moves:
            self.truncated = True

    def _auto(self, rewards: list[float] | None = None) -> None:
        """Play the default layouts when ``auto_layout`` is on."""
        if not self.config.auto_layout:
            return
        r = rewards if rewards is not None else [0.0, 0.0]
        h = self.hand
        while not self.over and h.phase in LAYOUT_PHASES:
            self._play(layout_action(observe(h, h.current)), r)
            h = self.hand

    def _hand_over(self, rewards: list[float]) -> None:
        result = self.hand.result
        assert result is not None
        cfg = self.config
        hand_pay = [0, 0]
        if result.winner is not None:
            hand_pay[result.winner] = result.points
            hand_pay[1 - result.winner] = -result.points
        if cfg.episode == "hand":
            for s in (0, 1):
                rewards[s] += hand_pay[s]
            self.terminated = True
            return
        if cfg.reward == "hand":
            for s in (0, 1):
                rewards[s] += hand_pay[s]
                self._paid[s] += hand_pay[s]
        if self.match.is_over:
            totals = self.match.final().totals
            for s in (0, 1):
                margin = totals[s] - totals[1 - s]
                rewards[s] += margin - self._paid[s]
            self.terminated = True
            return
        self.hand = self.match.start_hand()


__all__ = ["DEFAULT_MAX_MOVES", "EnvConfig", "Episode", "rules_of"]
