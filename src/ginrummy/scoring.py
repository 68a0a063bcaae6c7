"""Scoring one hand: knock, undercut, gin, big gin, dead hand.

The same function scores hands played in the engine and hands entered in the scorekeeper,
so the two can never disagree.

000's five-hand example, hand 3: you knock with 8, Sam has 6: an undercut, 2 + 10.

>>> r = score_hand(Rules(), knocker=0, knocker_deadwood=8, defender_deadwood=6)
>>> r.kind, r.winner, r.points
('undercut', 1, 12)
>>> score_hand(Rules(), knocker=0, knocker_deadwood=5, defender_deadwood=5).points
10
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from .errors import IllegalActionError
from .rules import Rules

HandKind = Literal["knock", "undercut", "gin", "big_gin", "dead"]


@dataclass(frozen=True, slots=True, kw_only=True)
class HandResult:
    """The outcome of one hand. ``winner`` is None for a dead hand."""

    kind: HandKind
    winner: int | None
    points: int
    knocker: int | None = None
    knocker_deadwood: int = 0
    defender_deadwood: int = 0
    multiplier: int = 1
    extra_boxes: int = 0

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # copy and pickle by fields (frozen classes compiled by mypyc cannot be rebuilt by setattr)
        return _hand_result, (self.kind, self.winner, self.points, self.knocker, self.knocker_deadwood,
                              self.defender_deadwood, self.multiplier, self.extra_boxes)

    @property
    def dead(self) -> bool:
        return self.kind == "dead"

    def explain(self, names: tuple[str, str] = ("Player 1", "Player 2")) -> str:
        """One plain sentence saying what happened and why it scored what it did.

        >>> HandResult(kind='undercut', winner=1, points=12, knocker=0, knocker_deadwood=8,
        ...            defender_deadwood=6).explain(('You', 'Sam'))
        'Sam undercut you: You knocked with 8, Sam had 6 after layoffs; 8 - 6 = 2 plus the undercut bonus 10 = 12.'
        >>> HandResult(kind='knock', winner=0, points=22, knocker=0, knocker_deadwood=3,
        ...            defender_deadwood=25).explain(('You', 'Sam')).split('. ')[1]
        'You score 25 - 3 = 22.'
        """
        if self.kind == "dead":
            return "Dead hand: the stock ran down to its last cards with no knock. Nobody scores."
        assert self.knocker is not None and self.winner is not None
        k, d = names[self.knocker], names[1 - self.knocker]
        times = f", doubled for the spade upcard = {self.points}" if self.multiplier == 2 else ""
        base = self.points // self.multiplier
        if self.kind == "knock":
            text = (
                f"{k} knocked with {self.knocker_deadwood}; {d} had {self.defender_deadwood} after layoffs. "
                f"{k} {_verb(k, 'scores')} {self.defender_deadwood} - {self.knocker_deadwood} = {base}{times}."
            )
        elif self.kind == "undercut":
            diff = self.knocker_deadwood - self.defender_deadwood
            bonus = base - diff
            text = (
                f"{d} undercut {_object(k)}: {k} knocked with {self.knocker_deadwood}, {d} had "
                f"{self.defender_deadwood} after layoffs; {self.knocker_deadwood} - {self.defender_deadwood} = {diff} "
                f"plus the undercut bonus {bonus} = {base}{times}."
            )
        else:
            label = "big gin" if self.kind == "big_gin" else "gin"
            bonus = base - self.defender_deadwood
            text = (
                f"{k} went {label}: the {label} bonus {bonus} plus {_possessive(d)} deadwood {self.defender_deadwood} "
                f"= {base}{times}. No layoffs against {label}."
            )
        if self.extra_boxes:
            w = names[self.winner]
            text += f" {w} also {_verb(w, 'gets')} {self.extra_boxes} extra box{'es' if self.extra_boxes > 1 else ''}."
        return text

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "winner": self.winner,
            "points": self.points,
            "knocker": self.knocker,
            "knocker_deadwood": self.knocker_deadwood,
            "defender_deadwood": self.defender_deadwood,
            "multiplier": self.multiplier,
            "extra_boxes": self.extra_boxes,
        }



def _hand_result(kind: HandKind, winner: int | None, points: int, knocker: int | None, knocker_deadwood: int,
                 defender_deadwood: int, multiplier: int, extra_boxes: int) -> HandResult:
    return HandResult(kind=kind, winner=winner, points=points, knocker=knocker, knocker_deadwood=knocker_deadwood,
                      defender_deadwood=defender_deadwood, multiplier=multiplier, extra_boxes=extra_boxes)

def _is_you(name: str) -> bool:
    return name.strip().lower() == "you"


def _verb(name: str, verb: str) -> str:
    """'Sam scores' but 'You score': player screens call the person "You"."""
    return verb[:-1] if _is_you(name) else verb


def _object(name: str) -> str:
    return "you" if _is_you(name) else name


def _possessive(name: str) -> str:
    return "your" if _is_you(name) else f"{name}'s"


DEAD_HAND = HandResult(kind="dead", winner=None, points=0)

#: The most deadwood ten cards can hold: with no meld at all, two each of T J Q K and two 9s
#: (suits chosen so no three make a run) count 98; any more cards of 10 would make a set.
MAX_DEADWOOD = 98


def check_deadwood(count: int, whose: str = "deadwood") -> None:
    """Refuse a deadwood count ten cards cannot have (below 0 or above 98).

    >>> try:
    ...     check_deadwood(99, "Sam's deadwood")
    ... except IllegalActionError as e:
    ...     print(e)
    Sam's deadwood 99 is more than ten cards can hold: at most 98 (two each of T J Q K and two 9s)
    """
    if count < 0:
        raise IllegalActionError(f"{whose} cannot be negative ({count})", rule="deadwood")
    if count > MAX_DEADWOOD:
        raise IllegalActionError(
            f"{whose} {count} is more than ten cards can hold: at most {MAX_DEADWOOD} (two each of T J Q K and two 9s)",
            rule="deadwood",
        )


def score_hand(
    rules: Rules,
    *,
    knocker: int,
    knocker_deadwood: int,
    defender_deadwood: int,
    big_gin: bool = False,
    upcard: int | None = None,
    knock_limit: int | None = None,
) -> HandResult:
    """Score a knock. ``knocker_deadwood`` 0 is gin; the defender's count is after layoffs.

    ``upcard`` is the hand's first upcard (Oklahoma uses it for the knock limit and the spade
    doubling); ``knock_limit`` overrides the limit when it is known some other way.

    >>> score_hand(Rules(), knocker=1, knocker_deadwood=0, defender_deadwood=14).points
    34
    >>> score_hand(Rules(), knocker=0, knocker_deadwood=12, defender_deadwood=30)
    Traceback (most recent call last):
    ...
    ginrummy.errors.IllegalActionError: cannot knock: deadwood 12 is over the knock limit 10
    """
    if knocker not in (0, 1):
        raise IllegalActionError(f"the knocker must be player 0 or 1, not {knocker!r}", rule="players")
    check_deadwood(knocker_deadwood, "the knocker's deadwood")
    check_deadwood(defender_deadwood, "the defender's deadwood")
    limit = rules.hand_knock_limit(upcard) if knock_limit is None else knock_limit
    if big_gin:
        if not rules.big_gin:
            raise IllegalActionError("cannot go big gin: big gin is not played under these rules", rule="big_gin")
        if knocker_deadwood:
            raise IllegalActionError(
                f"cannot go big gin: deadwood {knocker_deadwood}, big gin needs all 11 cards in melds",
                rule="big_gin",
            )
    elif knocker_deadwood > limit:
        if limit == 0:
            raise IllegalActionError(
                f"cannot knock: deadwood {knocker_deadwood}, only gin ends a hand under these rules",
                rule="knock_limit",
            )
        raise IllegalActionError(
            f"cannot knock: deadwood {knocker_deadwood} is over the knock limit {limit}", rule="knock_limit"
        )
    mult = rules.hand_multiplier(upcard)
    spade = rules.oklahoma and upcard is not None and upcard // 13 == 0
    box_scale = 2 if spade else 1
    if big_gin:
        points = rules.big_gin_bonus + defender_deadwood
        boxes = 2 * box_scale if rules.oklahoma_extra_boxes else 0
        return HandResult(
            kind="big_gin", winner=knocker, points=points * mult, knocker=knocker, knocker_deadwood=0,
            defender_deadwood=defender_deadwood, multiplier=mult, extra_boxes=boxes,
        )
    if knocker_deadwood == 0:
        # Gin is never undercut, even by a defender with 0.
        points = rules.gin_bonus + defender_deadwood
        boxes = 2 * box_scale if rules.oklahoma_extra_boxes else 0
        return HandResult(
            kind="gin", winner=knocker, points=points * mult, knocker=knocker, knocker_deadwood=0,
            defender_deadwood=defender_deadwood, multiplier=mult, extra_boxes=boxes,
        )
    if knocker_deadwood < defender_deadwood:
        return HandResult(
            kind="knock", winner=knocker, points=(defender_deadwood - knocker_deadwood) * mult,
            knocker=knocker, knocker_deadwood=knocker_deadwood, defender_deadwood=defender_deadwood,
            multiplier=mult,
        )
    # An equal count is an undercut: the defender scores 0 plus the bonus.
    points = knocker_deadwood - defender_deadwood + rules.undercut_bonus
    boxes = box_scale if rules.oklahoma_extra_boxes else 0
    return HandResult(
        kind="undercut", winner=1 - knocker, points=points * mult, knocker=knocker,
        knocker_deadwood=knocker_deadwood, defender_deadwood=defender_deadwood, multiplier=mult,
        extra_boxes=boxes,
    )
