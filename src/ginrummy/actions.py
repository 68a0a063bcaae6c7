"""Player actions: typed, with a stable integer encoding and a text notation that round-trips.

=====================  ==================  =====================
action                 integer             text
=====================  ==================  =====================
discard card c         c (0..51)           ``Kd``
draw from the stock    52                  ``stock``
take the top discard   53                  ``pile`` (also ``take``)
pass the upcard        54                  ``pass``
knock, face-down c     55 + c              ``knock Kd``
big gin                107                 ``big gin``
done laying out        108                 ``done``
lay meld m             109 + meld id       ``meld As2s3s``
lay off c on meld t    438 + 4 * c + t     ``layoff 7h 0``
=====================  ==================  =====================

>>> a = Action.parse('knock Kd')
>>> a, int(a), Action.from_int(int(a)) == a
(Action.parse('knock Kd'), 93, True)
>>> str(Action.parse('MELD 2s As 3s'))
'meld As2s3s'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Final

from .cards import card_str, cards_of, mask_of, parse_card, parse_cards
from .errors import NotationError, shown
from .melds import ALL_MELDS, MELD_INDEX, meld_str


class Kind(IntEnum):
    """The kind of an action; the integer encoding of each kind is in the table above."""

    DISCARD = 0
    STOCK = 1
    PILE = 2
    PASS = 3
    KNOCK = 4
    BIG_GIN = 5
    DONE = 6
    MELD = 7
    LAYOFF = 8


STOCK_ID: Final = 52
PILE_ID: Final = 53
PASS_ID: Final = 54
KNOCK_BASE: Final = 55
BIG_GIN_ID: Final = 107
DONE_ID: Final = 108
MELD_BASE: Final = 109
LAYOFF_BASE: Final = MELD_BASE + len(ALL_MELDS)
MAX_LAYOFF_TARGETS: Final = 4
#: Size of the integer action space (for environments).
NUM_ACTIONS: Final = LAYOFF_BASE + 52 * MAX_LAYOFF_TARGETS


@dataclass(frozen=True, slots=True)
class Action:
    """One decision of a player. ``card`` for discard / knock / layoff, ``meld`` a mask, ``target``
    the index of the knocker's meld that a layoff goes on.

    Frozen, so actions compare and hash by value. The constructors and ``from_int`` check
    their arguments and return shared objects from one table (no allocation on hot paths).

    >>> Action.layoff(parse_card('7h'), 0) is Action.from_int(int(Action.parse('layoff 7h 0')))
    True
    """

    kind: Kind
    card: int = -1
    meld: int = 0
    target: int = -1
    #: The integer code of the table's own object for this action; -1 on any other copy.
    code: int = field(default=-1, init=False, compare=False, repr=False)

    # -- constructors ------------------------------------------------------------------

    @staticmethod
    def discard(card: object) -> Action:
        """Discard ``card`` face up (ends the turn).

        >>> Action.discard(51), int(Action.discard(51))
        (Action.parse('Kc'), 51)
        """
        return _FROM_INT[_card_arg(card)]

    @staticmethod
    def knock(card: object) -> Action:
        """Knock, discarding ``card`` face down; with 0 deadwood left this is gin.

        >>> int(Action.knock(0)), str(Action.knock(0))
        (55, 'knock As')
        """
        return _FROM_INT[KNOCK_BASE + _card_arg(card)]

    @staticmethod
    def lay_meld(meld: object) -> Action:
        """Lay one meld (a card mask) face up after a knock.

        >>> Action.lay_meld(0b111)
        Action.parse('meld As2s3s')
        >>> Action.lay_meld(0b11)
        Traceback (most recent call last):
        ...
        ginrummy.errors.NotationError: not a meld: As 2s
        """
        i = MELD_INDEX.get(meld) if isinstance(meld, int) else None
        if i is None:
            cards = " ".join(card_str(c) for c in cards_of(meld)) if isinstance(meld, int) and 0 <= meld < 1 << 52 else meld
            raise NotationError(f"not a meld: {cards}")
        return _FROM_INT[MELD_BASE + i]

    @staticmethod
    def layoff(card: object, target: object) -> Action:
        """Lay off ``card`` on the knocker's meld number ``target`` (0-based, in laying order).

        >>> Action.layoff(parse_card('7h'), 0)
        Action.parse('layoff 7h 0')
        """
        c = _card_arg(card)
        if not isinstance(target, int) or not 0 <= target < MAX_LAYOFF_TARGETS:
            raise NotationError(f"not a meld number: {shown(target)} (0..{MAX_LAYOFF_TARGETS - 1})")
        return _FROM_INT[LAYOFF_BASE + c * MAX_LAYOFF_TARGETS + target]

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        """A copy or pickle of a table action is that same object; of any other, its fields."""
        if self.code >= 0:
            return _action_of_code, (self.code,)
        return Action, (self.kind, self.card, self.meld, self.target)

    # -- integers ------------------------------------------------------------------------

    def __int__(self) -> int:
        return self.code if self.code >= 0 else _encode(self)

    @staticmethod
    def from_int(n: object) -> Action:
        """The action with integer code ``n`` (see the table above); inverse of ``int(action)``.

        >>> Action.from_int(52), Action.from_int(108)
        (Action.parse('stock'), Action.parse('done'))
        """
        if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n < NUM_ACTIONS:
            raise NotationError(f"not an action number: {shown(n)} (0..{NUM_ACTIONS - 1})")
        return _FROM_INT[n]

    # -- text ----------------------------------------------------------------------------

    def __str__(self) -> str:
        k = self.kind
        if k is Kind.DISCARD:
            return card_str(self.card)
        if k is Kind.KNOCK:
            return f"knock {card_str(self.card)}"
        if k is Kind.MELD:
            return f"meld {meld_str(self.meld)}"
        if k is Kind.LAYOFF:
            return f"layoff {card_str(self.card)} {self.target}"
        return _WORDS[k]

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"

    @staticmethod
    def parse(text: str) -> Action:
        """Read an action in text notation (case-insensitive)."""
        t = " ".join(text.strip().split())
        low = t.lower()
        if low in _PARSE_WORDS:
            return _PARSE_WORDS[low]
        head, _, rest = low.partition(" ")
        if head in ("knock", "gin") and rest:
            return Action.knock(parse_card(t.split(" ", 1)[1]))
        if head == "meld" and rest:
            body = t.split(" ", 1)[1]
            cards = parse_cards(_split_cards(body))
            return Action.lay_meld(mask_of(cards))
        if head == "layoff" and rest:
            parts = t.split(" ")
            if len(parts) != 3 or not parts[2].isdigit():
                raise NotationError(f"not an action: {shown(text)} (write 'layoff 7h 0': card, then the meld's number)")
            target = int(parts[2])
            if not 0 <= target < MAX_LAYOFF_TARGETS:
                raise NotationError(f"not an action: {shown(text)} (meld number must be 0..{MAX_LAYOFF_TARGETS - 1})")
            return Action.layoff(parse_card(parts[1]), target)
        if head == "discard" and rest:
            return Action.discard(parse_card(rest))
        try:
            return Action.discard(parse_card(t))
        except NotationError:
            raise NotationError(
                f"not an action: {shown(text)} (expected stock, pile, pass, a card to discard, knock <card>, "
                "big gin, meld <cards>, layoff <card> <n> or done)"
            ) from None


def _encode(a: Action) -> int:
    """The integer code of ``a``'s fields (the table's objects keep theirs in ``code``)."""
    k = a.kind
    if k is Kind.DISCARD:
        return a.card
    if k is Kind.STOCK:
        return STOCK_ID
    if k is Kind.PILE:
        return PILE_ID
    if k is Kind.PASS:
        return PASS_ID
    if k is Kind.KNOCK:
        return KNOCK_BASE + a.card
    if k is Kind.BIG_GIN:
        return BIG_GIN_ID
    if k is Kind.DONE:
        return DONE_ID
    if k is Kind.MELD:
        return MELD_BASE + MELD_INDEX[a.meld]
    return LAYOFF_BASE + a.card * MAX_LAYOFF_TARGETS + a.target


def canonical(action: Action) -> Action:
    """The table's own object equal to ``action`` (the engine checks rules on those only).

    Raises :class:`NotationError` for an action no table entry equals (a card out of range,
    a mask that is not a meld, a stray field).

    >>> canonical(Action(Kind.DISCARD, 5)) is Action.discard(5)
    True
    """
    c = action.code
    if c >= 0 and _FROM_INT[c] is action:
        return action
    k = action.kind
    if k in (Kind.DISCARD, Kind.KNOCK, Kind.LAYOFF):
        _card_arg(action.card)
    if k is Kind.MELD and action.meld not in MELD_INDEX:
        raise NotationError(f"not a meld: {action.meld!r}")
    if k is Kind.LAYOFF and not (isinstance(action.target, int) and 0 <= action.target < MAX_LAYOFF_TARGETS):
        raise NotationError(f"not a meld number: {action.target!r} (0..{MAX_LAYOFF_TARGETS - 1})")
    n = _encode(action)
    table = _FROM_INT[n] if 0 <= n < NUM_ACTIONS else None
    if table is None or table != action:
        raise NotationError(f"not an action: kind {k!r}, card {action.card!r}, meld {action.meld!r}, target {action.target!r}")
    return table


def _action_of_code(n: int) -> Action:
    return _FROM_INT[n]


def _card_arg(card: object) -> int:
    """``card`` if it is a card number 0..51, else NotationError. Arguments that are checked
    here are typed ``object``: the compiled build would otherwise turn ``True`` into 1 or
    refuse a float with a TypeError before the check could name the problem."""
    if not isinstance(card, int) or isinstance(card, bool) or not 0 <= card < 52:
        raise NotationError(f"not a card: {shown(card)} (cards are 0..51)")
    return card


_WORDS: Final = {
    Kind.STOCK: "stock",
    Kind.PILE: "pile",
    Kind.PASS: "pass",
    Kind.BIG_GIN: "big gin",
    Kind.DONE: "done",
}

_CARD_TOKEN = re.compile(r"(10|[2-9atjqk])([shdc♠♥♦♣])", re.IGNORECASE)


def _split_cards(text: str) -> str:
    """Accept ``As2s3s`` as well as ``As 2s 3s``."""
    compact = text.replace(" ", "").replace(",", "")
    tokens = _CARD_TOKEN.findall(compact)
    if "".join(r + s for r, s in tokens).lower() != compact.lower():
        raise NotationError(f"not a list of cards: {shown(text)}")
    return " ".join(r + s for r, s in tokens)


def _build_from_int() -> list[Action]:
    table: list[Action] = [Action(Kind.DONE)] * NUM_ACTIONS
    for c in range(52):
        table[c] = Action(Kind.DISCARD, c)
        table[KNOCK_BASE + c] = Action(Kind.KNOCK, c)
        for t in range(MAX_LAYOFF_TARGETS):
            table[LAYOFF_BASE + c * MAX_LAYOFF_TARGETS + t] = Action(Kind.LAYOFF, c, target=t)
    table[STOCK_ID] = Action(Kind.STOCK)
    table[PILE_ID] = Action(Kind.PILE)
    table[PASS_ID] = Action(Kind.PASS)
    table[BIG_GIN_ID] = Action(Kind.BIG_GIN)
    table[DONE_ID] = Action(Kind.DONE)
    for i, m in enumerate(ALL_MELDS):
        table[MELD_BASE + i] = Action(Kind.MELD, meld=m)
    for n, a in enumerate(table):
        object.__setattr__(a, "code", n)
    return table


_FROM_INT: Final = _build_from_int()
#: Every action, by integer code: the table's own objects (``ACTIONS[int(a)] is a`` for those).
ACTIONS: Final = tuple(_FROM_INT)

# Every named action below is the very object of the table, so each action is one object:
# the engine checks an action it handed out by identity (``a is DONE``) before its rules.
STOCK: Final = _FROM_INT[STOCK_ID]
PILE: Final = _FROM_INT[PILE_ID]
PASS: Final = _FROM_INT[PASS_ID]
BIG_GIN: Final = _FROM_INT[BIG_GIN_ID]
DONE: Final = _FROM_INT[DONE_ID]
DISCARD_ACTIONS: Final = tuple(_FROM_INT[c] for c in range(52))
KNOCK_ACTIONS: Final = tuple(_FROM_INT[KNOCK_BASE + c] for c in range(52))
#: The action laying each meld, by meld mask.
MELD_ACTIONS: Final[dict[int, Action]] = {m: _FROM_INT[MELD_BASE + i] for i, m in enumerate(ALL_MELDS)}
#: The layoff of card c on target t at index ``c * MAX_LAYOFF_TARGETS + t``.
LAYOFF_ACTIONS: Final = tuple(_FROM_INT[LAYOFF_BASE:])

_PARSE_WORDS: Final = {
    "stock": STOCK,
    "draw": STOCK,
    "pile": PILE,
    "take": PILE,
    "pass": PASS,
    "big gin": BIG_GIN,
    "biggin": BIG_GIN,
    "done": DONE,
}
