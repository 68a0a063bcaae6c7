"""One hand of two-player Gin Rummy as a pure state machine.

The phases follow the rules: the deal (chance), the first-turn upcard offer, draw and
discard, the last-chance offer, then after a knock the knocker's layout, the defender's
melds and the defender's layoffs. ``legal_actions()`` is the single source of truth;
``apply()`` raises :class:`IllegalActionError` naming the rule and changes nothing.

Readings where RULES.md leaves a detail open (a careful referee's, each tested):

- No upcard: the non-dealer's dealt 11th card counts as the first draw, so that first
  turn may knock (RULES.md: a knock is allowed on any turn, the first included).
- Throw-back: "the player who threw it first" is the player whose discard was taken and
  thrown straight back; a card kept for a turn and discarded later is its new owner's.
- A knocker whose ten cards make gin lays them out as gin (no layoffs against it).
- The card just taken from the discard pile may not be the face-down knock discard either.

Deck order: cards are dealt one at a time starting with the non-dealer (``deck[0]`` to the
non-dealer, ``deck[1]`` to the dealer, ...), ``deck[20]`` is the upcard and ``deck[21:]`` is
the stock from the top. Without an upcard the non-dealer's 11th card is ``deck[20]``.

>>> from ginrummy.rules import Rules
>>> h = Hand(Rules(), dealer=1)
>>> h.deal(list(range(52)))
>>> h.phase, h.current, [str(a) for a in h.legal_actions()]
(<Phase.OFFER: 'offer'>, 0, ['pile', 'pass'])
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, fields
from enum import Enum

from .actions import (
    BIG_GIN,
    DISCARD_ACTIONS,
    DONE,
    KNOCK_ACTIONS,
    LAYOFF_ACTIONS,
    MAX_LAYOFF_TARGETS,
    MELD_ACTIONS,
    PASS,
    PILE,
    STOCK,
    Action,
    Kind,
)
from .cards import FULL_DECK, Card, card_str, cards_of
from .errors import IllegalActionError, NotationError
from .melds import (
    arrangements,
    best_arrangement,
    best_defense,
    deadwood,
    knocker_choice,
    layoff_targets,
    meld_str,
    melds_in,
    min_deadwood_after_discard,
    points,
)
from .observation import SeatView, observe
from .rules import Rules
from .scoring import DEAD_HAND, HandResult, score_hand

#: ``Hand.current`` while nobody acts: before the deal (the chance step) and after the end.
CHANCE = -1
_ALL_CARDS = frozenset(range(52))


class Phase(Enum):
    """Where a hand is. The phase alone says what kind of action comes next, so interfaces
    can render a prompt without re-deriving any rule.

    >>> [p.value for p in Phase][:4]
    ['deal', 'offer', 'draw', 'discard']
    """

    DEAL = "deal"
    OFFER = "offer"
    DRAW = "draw"
    DISCARD = "discard"
    LAST_CHANCE = "last_chance"
    LAYOUT = "layout"
    DEFENDER_LAYOUT = "defender_layout"
    LAYOFF = "layoff"
    OVER = "over"


# Enum members as module constants for the hot paths. On Python 3.11 ``EnumType`` has a
# ``__getattr__``, so every ``Phase.DRAW`` or ``Kind.STOCK`` costs about 0.1 us, and the
# engine read them a few dozen times per action: a tenth of a whole hand's time.
_P_DEAL = Phase.DEAL
_P_DEFENDER_LAYOUT = Phase.DEFENDER_LAYOUT
_P_DISCARD = Phase.DISCARD
_P_DRAW = Phase.DRAW
_P_LAST_CHANCE = Phase.LAST_CHANCE
_P_LAYOFF = Phase.LAYOFF
_P_LAYOUT = Phase.LAYOUT
_P_OFFER = Phase.OFFER
_P_OVER = Phase.OVER
_K_BIG_GIN = Kind.BIG_GIN
_K_DISCARD = Kind.DISCARD
_K_DONE = Kind.DONE
_K_KNOCK = Kind.KNOCK
_K_LAYOFF = Kind.LAYOFF
_K_MELD = Kind.MELD
_K_PASS = Kind.PASS
_K_PILE = Kind.PILE
_K_STOCK = Kind.STOCK


@dataclass(frozen=True, slots=True)
class Step:
    """One entry of the hand's history: who acted, and what.

    ``drawn`` records the stock card so a record can replay the hand from its deck and a
    referee can audit it; seat views hide it from the other seat.

    >>> from ginrummy.rules import Rules
    >>> h = new_hand(Rules(), dealer=1, deck=list(range(52)))
    >>> _ = h.apply('pass'), h.apply('pass')
    >>> h.apply('stock')
    Step(seat=0, action=Action.parse('stock'), drawn=21)
    """

    seat: int
    action: Action
    #: The card drawn from the stock (hidden from the other seat), or -1.
    drawn: int = -1


def _build_step_maker() -> Callable[[int, Action, int], Step]:
    """``make(seat, action, drawn)``: a new Step through its slot descriptors.

    Why: one Step per action, and a frozen dataclass's ``__init__`` (``object.__setattr__``
    by name) costs about twice as much as calling the three descriptors directly.
    """
    names = ("seat", "action", "drawn")
    if tuple(f.name for f in fields(Step)) != names:
        return Step
    new = object.__new__
    s0, s1, s2 = (Step.__dict__[name].__set__ for name in names)

    def make(seat: int, action: Action, drawn: int) -> Step:
        step: Step = new(Step)
        s0(step, seat)
        s1(step, action)
        s2(step, drawn)
        return step

    return make


_make_step = _build_step_maker()


def _build_discard_tables() -> list[list[tuple[Action, ...]]]:
    """Per suit, the discard actions of each 13-bit suit mask, lowest card first.

    Why: a discard turn lists about eleven discards, and four look-ups and one list are
    an order of magnitude cheaper than turning the hand into cards and cards into actions.
    """
    tables = []
    for suit in range(4):
        row: list[tuple[Action, ...]] = [()] * (1 << 13)
        for m in range(1, 1 << 13):
            low = m & -m
            row[m] = (DISCARD_ACTIONS[suit * 13 + low.bit_length() - 1], *row[m ^ low])
        tables.append(row)
    return tables


_DISCARDS_IN_SUIT = _build_discard_tables()


@dataclass
class Hand:
    """The state of one hand. Seats are 0 and 1; the dealer is given.

    A plain mutable record (so ``clone`` is cheap and search can copy it); change it only
    through ``deal`` and ``apply``, which check every rule first. Masks are 52-bit ints.

    >>> from ginrummy.rules import Rules
    >>> h = Hand(Rules(), dealer=0)
    >>> h.phase, h.current
    (<Phase.DEAL: 'deal'>, -1)
    """

    rules: Rules
    dealer: int = 0
    phase: Phase = Phase.DEAL
    current: int = CHANCE
    hands: list[int] = field(default_factory=lambda: [0, 0])
    deck: list[Card] = field(default_factory=list)
    stock: list[Card] = field(default_factory=list)  # top of the stock is stock[-1]
    pile: list[Card] = field(default_factory=list)  # top of the discard pile is pile[-1]
    upcard: Card | None = None
    knock_limit: int = 10
    history: list[Step] = field(default_factory=list)
    # Turn state.
    offer_passes: int = 0
    stock_only: bool = False
    taken: Card | None = None
    must_knock: bool = False
    first_thrower: dict[Card, int] = field(default_factory=dict)
    #: How often each position (hands, pile, stock size, player to draw) was reached.
    positions: dict[tuple[int, int, tuple[Card, ...], int, int], int] = field(default_factory=dict)
    #: Per seat: cards the other seat saw it take from the discard pile.
    shown: list[int] = field(default_factory=lambda: [0, 0])
    # After a knock.
    knocker: int | None = None
    knock_discard: Card | None = None
    big_gin: bool = False
    knocker_melds: list[int] = field(default_factory=list)
    defender_melds: list[int] = field(default_factory=list)
    layoffs: list[tuple[Card, int]] = field(default_factory=list)
    laid_on: list[int] = field(default_factory=list)
    result: HandResult | None = None

    # ------------------------------------------------------------------ the deal (chance)

    @property
    def non_dealer(self) -> int:
        return 1 - self.dealer

    def deal(self, deck: Sequence[Card] | None = None, rng: random.Random | None = None) -> None:
        """The chance step: deal a given deck order, or a shuffled one from ``rng``.

        Chance is an explicit step so tests and records can deal an exact deck (see the
        module docstring for the order). A bad deck is refused before anything changes.

        >>> from ginrummy.rules import Rules
        >>> h = Hand(Rules(), dealer=1)
        >>> h.deal(list(range(52)))
        >>> h.upcard, len(h.stock), h.current
        (20, 31, 0)
        """
        if self.phase is not _P_DEAL:
            raise IllegalActionError("cannot deal: the hand has already been dealt", rule="deal")
        if self.dealer not in (0, 1):
            raise IllegalActionError(f"cannot deal: the dealer must be player 0 or 1, not {self.dealer!r}", rule="deal")
        if deck is None:
            cards = list(range(52))
            (rng or random.Random()).shuffle(cards)
            deck = cards
        deck = list(deck)
        if len(deck) != 52 or set(deck) != _ALL_CARDS:
            missing = sorted(_ALL_CARDS - set(deck))
            raise IllegalActionError(
                f"cannot deal: a deck must hold each of the 52 cards once (got {len(deck)} cards"
                + (f", missing {' '.join(card_str(c) for c in missing)})" if missing else ")"),
                rule="deal",
            )
        self.deck = deck
        nd, d = self.non_dealer, self.dealer
        for seat, first in ((nd, 0), (d, 1)):
            m = 0
            for c in deck[first:20:2]:
                m |= 1 << c
            self.hands[seat] |= m
        if self.rules.upcard:
            self.upcard = deck[20]
            self.pile = [deck[20]]
            self.phase = _P_OFFER
            self.current = nd
        else:
            # No upcard: the non-dealer takes an 11th card and starts by discarding.
            self.hands[nd] |= 1 << deck[20]
            self.phase = _P_DISCARD
            self.current = nd
        self.stock = list(reversed(deck[21:]))
        self.knock_limit = self.rules.hand_knock_limit(self.upcard)

    # ------------------------------------------------------------------ queries

    @property
    def stock_size(self) -> int:
        return len(self.stock)

    @property
    def top_discard(self) -> Card | None:
        return self.pile[-1] if self.pile else None

    @property
    def defender(self) -> int | None:
        return None if self.knocker is None else 1 - self.knocker

    @property
    def is_over(self) -> bool:
        return self.phase is _P_OVER

    def hand_of(self, seat: int) -> int:
        return self.hands[seat]

    def _laid_mask(self, melds: Iterable[int]) -> int:
        m = 0
        for x in melds:
            m |= x
        return m

    def knocker_deadwood(self) -> int:
        assert self.knocker is not None
        return points(self.hands[self.knocker] & ~self._laid_mask(self.knocker_melds))

    def defender_deadwood(self) -> int:
        d = self.defender
        assert d is not None
        laid = self._laid_mask(self.defender_melds)
        for c, _ in self.layoffs:
            laid |= 1 << c
        return points(self.hands[d] & ~laid)

    def _can_knock_with(self, hand: int, exclude: int) -> bool:
        """Some discard (not in ``exclude``) leaves deadwood within the limit, or big gin."""
        if self.rules.big_gin and deadwood(hand) == 0:
            return True
        for c in cards_of(hand & ~exclude):
            if deadwood(hand & ~(1 << c)) <= self.knock_limit:
                return True
        return False

    def _may_take_pile(self) -> bool:
        """Whether the top discard may be drawn now (throw-back: not one's own unless knocking)."""
        top = self.top_discard
        if top is None:
            return False
        if self.rules.throw_back and self.first_thrower.get(top) == self.current:
            return self._can_knock_with(self.hands[self.current] | 1 << top, 1 << top)
        return True

    def _no_discard_mask(self) -> int:
        """Cards that may not be discarded (or knocked with) this turn."""
        if self.taken is None:
            return 0
        if self.rules.throw_back and not self.must_knock:
            return 0
        return 1 << self.taken

    def legal_actions(self) -> list[Action]:
        """Every action the player to act may take now, in integer order.

        The single source of truth: ``apply`` accepts exactly these, players choose among
        them, interfaces show them. Empty before the deal and after the end.

        >>> from ginrummy.rules import Rules
        >>> h = new_hand(Rules(), dealer=1, deck=list(range(52)))
        >>> _ = h.apply('pass'), h.apply('pass')
        >>> [str(a) for a in h.legal_actions()]
        ['stock']
        """
        p = self.phase
        seat = self.current
        # The phases in the order of how often they come up in a hand.
        if p is _P_DISCARD:
            hand = self.hands[seat]
            taken = self.taken
            free = hand if taken is None or (self.rules.throw_back and not self.must_knock) else hand & ~(1 << taken)
            if self.must_knock:
                out = []
            else:
                d = _DISCARDS_IN_SUIT
                out = [*d[0][free & 8191], *d[1][free >> 13 & 8191], *d[2][free >> 26 & 8191], *d[3][free >> 39]]
            # Knock: deadwood of the 10 cards left after the face-down discard. The table
            # search says at once whether any discard gets there (most turns none does).
            limit = self.knock_limit
            if min_deadwood_after_discard(hand) <= limit:
                for c in cards_of(free):
                    if deadwood(hand & ~(1 << c)) <= limit:
                        out.append(KNOCK_ACTIONS[c])
            if self.rules.big_gin and deadwood(hand) == 0:
                out.append(BIG_GIN)
            return out
        if p is _P_DRAW:
            if not self.stock_only and self._may_take_pile():
                return [STOCK, PILE]
            return [STOCK]
        if p is _P_DEAL or p is _P_OVER:
            return []
        if p is _P_OFFER:
            return [PILE, PASS]
        if p is _P_LAST_CHANCE:
            top = self.top_discard
            assert top is not None
            if self._can_knock_with(self.hands[seat] | 1 << top, 1 << top):
                return [PILE, PASS]
            return [PASS]
        # After a knock: DONE (108) comes before every meld (109 + id) and layoff (438 + ...),
        # and melds_in gives melds in id order, so each list is built in integer order.
        if p is _P_LAYOUT:
            rest = self.hands[seat] & ~self._laid_mask(self.knocker_melds)
            limit = self._layout_limit()
            out = [DONE] if points(rest) <= limit else []
            for m in melds_in(rest):
                # A meld is offered only if the rest can still get within the limit.
                if deadwood(rest & ~m) <= limit:
                    out.append(MELD_ACTIONS[m])
            return out
        if p is _P_DEFENDER_LAYOUT:
            rest = self.hands[seat] & ~self._laid_mask(self.defender_melds)
            return [DONE, *[MELD_ACTIONS[m] for m in melds_in(rest)]]
        if p is _P_LAYOFF:
            out = [DONE]
            rest = self._layoff_free(seat)
            targets = [layoff_targets(m, laid) for m, laid in zip(self.knocker_melds, self.laid_on, strict=True)]
            reach = 0
            for x in targets:
                reach |= x
            for c in cards_of(rest & reach):
                for t, x in enumerate(targets):
                    if x >> c & 1:
                        # Action.layoff also refuses a fifth target (no ten-card layout has one).
                        out.append(LAYOFF_ACTIONS[c * MAX_LAYOFF_TARGETS + t] if t < MAX_LAYOFF_TARGETS else Action.layoff(c, t))
            return out
        raise AssertionError(p)

    def _layoff_free(self, seat: int) -> int:
        """The defender's cards that may still be laid off: not in its melds, not laid off."""
        rest = self.hands[seat] & ~self._laid_mask(self.defender_melds)
        for c, _ in self.layoffs:
            rest &= ~(1 << c)
        return rest

    def _layout_limit(self) -> int:
        """Deadwood the knocker's layout may keep: 0 for gin or big gin, else the knock limit."""
        return 0 if (self.big_gin or self._must_gin) else self.knock_limit

    @property
    def _must_gin(self) -> bool:
        """A knocker whose ten cards make gin lays them out as gin."""
        assert self.knocker is not None
        return deadwood(self.hands[self.knocker]) == 0

    def legal_action_ints(self) -> list[int]:
        return [int(a) for a in self.legal_actions()]

    def is_legal(self, action: Action) -> bool:
        try:
            self.verify(action)
        except IllegalActionError:
            return False
        return True

    # ------------------------------------------------------------------ verification

    def verify(self, action: Action, seat: int | None = None) -> None:
        """Raise :class:`IllegalActionError` if ``action`` is not legal now; change nothing.

        The message names the rule and the numbers behind it, and ``.rule`` names the rule
        for programs. ``seat``, when given, must be the seat to act.

        >>> from ginrummy.rules import Rules
        >>> h = new_hand(Rules(), dealer=1, deck=list(range(52)))
        >>> h.verify(Action.parse('stock'))
        Traceback (most recent call last):
        ...
        ginrummy.errors.IllegalActionError: stock is not allowed now: first turn: player 0 takes the upcard (pile) or passes
        """
        if seat is not None and seat != self.current and self.phase is not _P_OVER:
            who = "nobody" if self.current == CHANCE else f"player {self.current}"
            raise IllegalActionError(f"not your turn: it is {who}'s turn to act, not player {seat}'s", rule="turn")
        if self._legal_fast(action):
            return
        message, rule = self._why_illegal(action)
        raise IllegalActionError(message, rule=rule)

    def _legal_fast(self, a: Action) -> bool:
        """The same answer as ``a in legal_actions()``, without listing them all.

        Why: ``apply`` checks every action, and building the whole list again for that
        doubled the engine's cost after a knock. Each kind is checked directly here. An
        action of a kind the phase never offers cannot equal any legal action, so it is
        refused at once; an action of the right kind is checked directly only if it is the
        engine's own object for it (every constructor, ``from_int`` and ``parse`` return
        those), and any other equal-valued copy takes the list, so the answer is exactly
        that of ``a in legal_actions()`` for every ``Action``.
        """
        p = self.phase
        k = a.kind
        if p is _P_DISCARD:
            if k is _K_DISCARD or k is _K_KNOCK:
                c = a.card
                if not (0 <= c < 52 and a is (DISCARD_ACTIONS if k is _K_DISCARD else KNOCK_ACTIONS)[c]):
                    return a in self.legal_actions()
                hand = self.hands[self.current]
                if not hand >> c & 1 or (c == self.taken and self._no_discard_mask()):
                    return False
                if k is _K_DISCARD:
                    return not self.must_knock
                return deadwood(hand & ~(1 << c)) <= self.knock_limit
            if k is _K_BIG_GIN:
                if a is not BIG_GIN:
                    return a in self.legal_actions()
                return self.rules.big_gin and deadwood(self.hands[self.current]) == 0
            return False
        if p is _P_DRAW:
            if k is _K_STOCK:
                return a is STOCK or a in self.legal_actions()
            if k is _K_PILE:
                if a is not PILE:
                    return a in self.legal_actions()
                return not self.stock_only and self._may_take_pile()
            return False
        if p is _P_OFFER:
            if k is _K_PILE or k is _K_PASS:
                return a is PILE or a is PASS or a in self.legal_actions()
            return False
        if p is _P_LAST_CHANCE:
            if k is _K_PASS:
                return a is PASS or a in self.legal_actions()
            if k is _K_PILE:
                if a is not PILE:
                    return a in self.legal_actions()
                top = self.top_discard
                assert top is not None
                return self._can_knock_with(self.hands[self.current] | 1 << top, 1 << top)
            return False
        if p is _P_LAYOUT or p is _P_DEFENDER_LAYOUT:
            if k is not _K_DONE and k is not _K_MELD:
                return False
            if a is not DONE and a is not MELD_ACTIONS.get(a.meld):
                return a in self.legal_actions()
            knocker = p is _P_LAYOUT
            rest = self.hands[self.current] & ~self._laid_mask(self.knocker_melds if knocker else self.defender_melds)
            if k is _K_DONE:
                return not knocker or points(rest) <= self._layout_limit()
            m = a.meld
            if m & rest != m:
                return False
            return not knocker or deadwood(rest & ~m) <= self._layout_limit()
        if p is _P_LAYOFF:
            if k is _K_DONE:
                return a is DONE or a in self.legal_actions()
            if k is not _K_LAYOFF:
                return False
            c = a.card
            t = a.target
            if not (0 <= c < 52 and 0 <= t < MAX_LAYOFF_TARGETS and a is LAYOFF_ACTIONS[c * MAX_LAYOFF_TARGETS + t]):
                return a in self.legal_actions()
            if t >= len(self.knocker_melds) or not self._layoff_free(self.current) >> c & 1:
                return False
            return bool(layoff_targets(self.knocker_melds[t], self.laid_on[t]) >> c & 1)
        return False

    def _why_illegal(self, a: Action) -> tuple[str, str]:
        """(message, rule) for an action that ``_legal_fast`` refused. Off the hot path."""
        p = self.phase
        k = a.kind
        seat = self.current
        if p is _P_OVER:
            return f"{a} is not allowed: the hand is over", "hand_over"
        if p is _P_DEAL:
            return f"{a} is not allowed: the hand has not been dealt yet", "deal"
        if k in (_K_DISCARD, _K_KNOCK, _K_LAYOFF) and not 0 <= a.card < 52:
            return f"not a card: {a.card} (cards are 0..51)", "card"
        if p is _P_OFFER:
            return (
                f"{a} is not allowed now: first turn: player {seat} takes the upcard (pile) or passes",
                "upcard_offer",
            )
        if p is _P_DRAW:
            if k is _K_PILE:
                if self.stock_only:
                    return (
                        "cannot take the upcard: both players passed it, so the non-dealer draws from the stock",
                        "upcard_offer",
                    )
                top = self.top_discard
                if top is None:
                    return "cannot take from the discard pile: it is empty", "draw"
                return (
                    f"cannot take {card_str(top)} back: you threw it first and it was thrown back, so you may take "
                    f"it only to knock on this turn, and no discard then leaves deadwood at or under the knock "
                    f"limit {self.knock_limit}",
                    "throw_back",
                )
            return f"{a} is not allowed now: draw first, from the stock or the discard pile", "draw_first"
        if p is _P_LAST_CHANCE:
            if k is _K_PILE:
                top = self.top_discard
                assert top is not None
                best = self._best_knock_deadwood(self.hands[seat] | 1 << top, 1 << top)
                return (
                    f"cannot take the last discard {card_str(top)}: it may be taken only to knock, and the best "
                    f"knock with it leaves deadwood {best}, over the knock limit {self.knock_limit}",
                    "last_chance",
                )
            return f"{a} is not allowed now: take the last discard to knock with it (pile), or pass", "last_chance"
        if p is _P_DISCARD:
            hand = self.hands[seat]
            if k in (_K_DISCARD, _K_KNOCK):
                c = a.card
                verb = "knock with" if k is _K_KNOCK else "discard"
                if not hand >> c & 1:
                    return f"cannot {verb} {card_str(c)}: it is not in your hand", "not_in_hand"
                if self._no_discard_mask() >> c & 1:
                    return (
                        f"cannot {verb} {card_str(c)}: it was just taken from the discard pile, and a card taken "
                        "from the discard pile may not be discarded (face up or face down) on the same turn",
                        "no_throw_back",
                    )
                if k is _K_DISCARD and self.must_knock:
                    why = "the last discard" if self.stock_size <= self.rules.dead_hand_stock else "your own discard back"
                    return (
                        f"cannot discard {card_str(c)}: you took {why}, so you must knock (or go gin) on this turn",
                        "must_knock",
                    )
                d = deadwood(hand & ~(1 << c))
                if self.knock_limit == 0:
                    return (
                        f"cannot knock: deadwood {d} after discarding {card_str(c)}, and only gin (deadwood 0) "
                        "ends a hand under these rules",
                        "knock_limit",
                    )
                return (
                    f"cannot knock: deadwood {d} is over the knock limit {self.knock_limit}"
                    f" (after discarding {card_str(c)} face down)",
                    "knock_limit",
                )
            if k is _K_BIG_GIN:
                if not self.rules.big_gin:
                    return "cannot go big gin: big gin is not played under these rules", "big_gin"
                return (
                    f"cannot go big gin: deadwood {deadwood(hand)}, big gin needs all {hand.bit_count()} cards in melds",
                    "big_gin",
                )
            return f"{a} is not allowed now: discard a card (or knock)", "discard_first"
        if p is _P_LAYOUT:
            rest = self.hands[seat] & ~self._laid_mask(self.knocker_melds)
            limit = self._layout_limit()
            what = "gin needs every card in melds" if limit == 0 else f"the knock limit is {limit}"
            if k is _K_DONE:
                return f"cannot finish the layout: deadwood {points(rest)} is left and {what}", "layout"
            if k is _K_MELD:
                missing = a.meld & ~rest
                if missing:
                    return (
                        f"cannot lay {meld_str(a.meld)}: {_cards_text(missing)} not free in your hand",
                        "layout",
                    )
                return (
                    f"cannot lay {meld_str(a.meld)}: the other cards would keep deadwood {deadwood(rest & ~a.meld)} "
                    f"at best, and {what}",
                    "layout",
                )
            return f"{a} is not allowed now: the knocker lays out melds, then done", "layout"
        if p is _P_DEFENDER_LAYOUT:
            if k is _K_MELD:
                rest = self.hands[seat] & ~self._laid_mask(self.defender_melds)
                return f"cannot lay {meld_str(a.meld)}: {_cards_text(a.meld & ~rest)} not free in your hand", "layout"
            if k is _K_LAYOFF:
                return "cannot lay off yet: lay out your own melds first, then done, then lay off", "layoff"
            return f"{a} is not allowed now: lay out your melds, then done", "layout"
        if p is _P_LAYOFF:
            if k is _K_LAYOFF:
                n = len(self.knocker_melds)
                if a.target >= n:
                    return f"cannot lay off on meld {a.target}: the knocker laid out {n} melds (0..{n - 1})", "layoff"
                c = a.card
                rest = self.hands[seat] & ~self._laid_mask(self.defender_melds)
                if not self.hands[seat] >> c & 1:
                    return f"cannot lay off {card_str(c)}: it is not in your hand", "not_in_hand"
                if not rest >> c & 1:
                    return f"cannot lay off {card_str(c)}: it is in one of your melds, not your deadwood", "layoff"
                if any(x == c for x, _ in self.layoffs):
                    return f"cannot lay off {card_str(c)}: it is already laid off", "layoff"
                return (
                    f"cannot lay off {card_str(c)} on {self._meld_text(a.target)}: it does not extend that meld "
                    "(a fourth card on a set, or the next card at either end of a run)",
                    "layoff",
                )
            if k is _K_MELD:
                return "cannot lay a meld now: your layout is done; lay off cards or say done", "layout"
            return f"{a} is not allowed now: lay off cards on the knocker's melds, then done", "layoff"
        return f"{a} is not allowed in phase {p.value}", "phase"

    def _best_knock_deadwood(self, hand: int, exclude: int) -> int:
        """Least deadwood after one face-down discard not in ``exclude`` (for messages)."""
        return min(deadwood(hand & ~(1 << c)) for c in cards_of(hand & ~exclude))

    def _meld_text(self, t: int) -> str:
        m = self.knocker_melds[t] | self.laid_on[t]
        return " ".join(card_str(c) for c in cards_of(m))

    # ------------------------------------------------------------------ acting

    def apply(self, action: Action | str | int, seat: int | None = None) -> Step:
        """Check and play one action (typed, text or integer); return the history entry.

        An illegal action raises :class:`IllegalActionError` and changes nothing; bad text or
        an unknown number raises :class:`NotationError`. ``seat``, when given, must be the
        seat to act (servers pass it; the engine itself always knows whose turn it is).

        >>> from ginrummy.rules import Rules
        >>> h = new_hand(Rules(), dealer=1, deck=list(range(52)))
        >>> h.apply('pass').seat, h.current
        (0, 1)
        """
        if not isinstance(action, Action):
            if isinstance(action, str):
                action = Action.parse(action)
            elif isinstance(action, int) and not isinstance(action, bool):
                action = Action.from_int(action)
            else:
                raise NotationError(f"not an action: {action!r}")
        if seat is not None and seat != self.current and self.phase is not _P_OVER:
            self.verify(action, seat)  # raises the turn error
        if not self._legal_fast(action):
            self.verify(action)  # raises with the rule and its numbers
        return self._do(action)

    def apply_unchecked(self, action: Action) -> Step:
        """Play an action without the rule checks.

        Only for a seat's reconstruction of a hand in which the opponent's cards are
        placeholders (the engine protocol): there a legal opponent action, such as taking the
        last discard to knock, can fail the check on cards the seat cannot see. Everything
        the seat can check is checked later (the knock at its layout).
        """
        return self._do(action)

    def _do(self, a: Action) -> Step:
        seat = self.current
        k = a.kind
        drawn = -1
        p = self.phase
        # The phases in the order of how often they come up.
        if p is _P_DISCARD:
            if k is _K_DISCARD:
                self.hands[seat] &= ~(1 << a.card)
                self.pile.append(a.card)
                if a.card != self.taken:
                    # The first thrower of a card that is thrown straight back (throw-back
                    # variant) stays on record: they may take it back only to knock.
                    self.first_thrower[a.card] = seat
                self.taken = None
                self.must_knock = False
                if len(self.stock) <= self.rules.dead_hand_stock:
                    # Dead hand: the stock is down to its last cards and nobody knocked.
                    if self.rules.last_chance:
                        self.phase = _P_LAST_CHANCE
                        self.current = 1 - seat
                    else:
                        self._end(DEAD_HAND)
                elif self._repeated(1 - seat):
                    # Players who only trade discards could go on for ever; the seeds are
                    # silent, so (a decision of ours) a position reached for the third time
                    # ends the hand like the stock running down.
                    self._end(DEAD_HAND)
                else:
                    self.phase = _P_DRAW
                    self.current = 1 - seat
            elif k is _K_KNOCK:
                self.hands[seat] &= ~(1 << a.card)
                self.knock_discard = a.card  # face down: the defender never sees it
                self._start_layout(seat)
            else:
                self.big_gin = True
                self._start_layout(seat)
        elif p is _P_DRAW:
            if k is _K_STOCK:
                drawn = self.stock.pop()
                self.hands[seat] |= 1 << drawn
                self.taken = None
                self.phase = _P_DISCARD
            else:
                self._take_pile(seat)
                top = self.taken
                if self.rules.throw_back and top is not None and self.first_thrower.get(top) == seat:
                    self.must_knock = True
            self.stock_only = False
        elif p is _P_OFFER:
            if k is _K_PILE:
                self._take_pile(seat)
            else:
                self.offer_passes += 1
                if self.offer_passes == 1:
                    self.current = self.dealer
                else:
                    # Both passed: the non-dealer draws from the stock.
                    self.phase = _P_DRAW
                    self.current = self.non_dealer
                    self.stock_only = True
        elif p is _P_LAST_CHANCE:
            if k is _K_PILE:
                self._take_pile(seat)
                self.must_knock = True
            else:
                self._end(DEAD_HAND)
        elif p is _P_LAYOUT:
            if k is _K_MELD:
                self.knocker_melds.append(a.meld)
                self.laid_on.append(0)
            else:
                self.phase = _P_DEFENDER_LAYOUT
                self.current = 1 - seat
        elif p is _P_DEFENDER_LAYOUT:
            if k is _K_MELD:
                self.defender_melds.append(a.meld)
            elif self.knocker_deadwood() == 0:
                # Nothing is laid off against gin.
                self._score()
            else:
                self.phase = _P_LAYOFF
        elif p is _P_LAYOFF:
            if k is _K_LAYOFF:
                self.layoffs.append((a.card, a.target))
                self.laid_on[a.target] |= 1 << a.card
            else:
                self._score()
        step = _make_step(seat, a, drawn)
        self.history.append(step)
        return step

    def _repeated(self, to_draw: int) -> bool:
        """Count this position; True when it has now been reached ``repetition_limit`` times."""
        limit = self.rules.repetition_limit
        if not limit:
            return False
        key = (self.hands[0], self.hands[1], tuple(self.pile), len(self.stock), to_draw)
        n = self.positions.get(key, 0) + 1
        self.positions[key] = n
        return n >= limit

    def _take_pile(self, seat: int) -> None:
        card = self.pile.pop()
        self.hands[seat] |= 1 << card
        self.shown[seat] |= 1 << card
        self.taken = card
        self.phase = _P_DISCARD

    def _start_layout(self, seat: int) -> None:
        self.knocker = seat
        self.phase = _P_LAYOUT
        self.taken = None
        self.must_knock = False

    def _score(self) -> None:
        assert self.knocker is not None
        result = score_hand(
            self.rules,
            knocker=self.knocker,
            knocker_deadwood=self.knocker_deadwood(),
            defender_deadwood=self.defender_deadwood(),
            big_gin=self.big_gin,
            upcard=self.upcard,
            knock_limit=self.knock_limit,
        )
        self._end(result)

    def _end(self, result: HandResult) -> None:
        self.result = result
        self.phase = _P_OVER
        self.current = CHANCE

    # ------------------------------------------------------------------ automatic play

    def auto_layout(self) -> list[Action]:
        """The knocker's default layout: lowest deadwood, then fewest possible layoffs.

        Legal actions to apply in order (melds, then ``done``). Layoff exposure is judged
        only on cards the knocker has not seen, so it uses no hidden information.
        """
        assert self.phase is _P_LAYOUT and self.knocker is not None
        hand = self.hands[self.knocker] & ~self._laid_mask(self.knocker_melds)
        limit = self._layout_limit()
        seen = self.seen_by(self.knocker)
        choice = knocker_choice(hand, limit, hidden=FULL_DECK & ~seen)
        assert choice is not None
        return [Action.lay_meld(m) for m in choice[1]] + [DONE]

    def auto_defense(self) -> list[Action]:
        """The defender's lowest count: own melds, done, then layoffs (none against gin), done.

        RULES.md: the lowest count is the defender's to take, offered automatically; by
        hand any legal melds and layoffs are allowed too.
        """
        assert self.phase is _P_DEFENDER_LAYOUT and self.knocker is not None
        d = 1 - self.knocker
        hand = self.hands[d] & ~self._laid_mask(self.defender_melds)
        if self.knocker_deadwood() == 0:
            _, melds = best_arrangement(hand)
            return [Action.lay_meld(m) for m in melds] + [DONE]
        defense = best_defense(hand, self.knocker_melds)
        return (
            [Action.lay_meld(m) for m in defense.melds]
            + [DONE]
            + [Action.layoff(c, t) for c, t in defense.layoffs]
            + [DONE]
        )

    def seen_by(self, seat: int) -> int:
        """Cards a seat has seen: its hand, the discard pile, the opponent's shown cards."""
        m = self.hands[seat] | self.shown[1 - seat] & self.hands[1 - seat]
        for c in self.pile:
            m |= 1 << c
        if self.knock_discard is not None and self.knocker == seat:
            m |= 1 << self.knock_discard
        return m

    def knock_arrangements(self) -> list[tuple[int, list[int]]]:
        """Every layout the knocker may choose now (deadwood, melds)."""
        assert self.knocker is not None
        limit = self._layout_limit()
        return arrangements(self.hands[self.knocker], limit)

    # ------------------------------------------------------------------ views

    def observation(self, seat: int, scores: tuple[int, int] = (0, 0)) -> SeatView:
        """What ``seat`` may see, and nothing else (see :mod:`ginrummy.observation`).

        >>> from ginrummy.rules import Rules
        >>> v = new_hand(Rules(), dealer=1, deck=list(range(52))).observation(1)
        >>> v.opponent_known, v.stock_size, v.legal
        (0, 31, ())
        """
        return observe(self, seat, scores)

    def clone(self) -> Hand:
        """An independent copy (for search and for what-if checks); shares only immutables.

        >>> from ginrummy.rules import Rules
        >>> h = new_hand(Rules(), dealer=1, seed=3)
        >>> c = h.clone(); _ = c.apply('pass')
        >>> len(h.history), len(c.history)
        (0, 1)
        """
        h = Hand(self.rules, self.dealer)
        for name in self.__dataclass_fields__:
            v = getattr(self, name)
            if isinstance(v, list):
                v = list(v)
            elif isinstance(v, dict):
                v = dict(v)
            setattr(h, name, v)
        return h

    def play_out(self, actions: Iterable[Action | str | int]) -> None:
        for a in actions:
            self.apply(a)

    def card_count_check(self) -> bool:
        """All 52 cards accounted for: hands, stock, pile, face-down knock discard."""
        seen = self.hands[0] | self.hands[1]
        total = self.hands[0].bit_count() + self.hands[1].bit_count()
        for c in [*self.stock, *self.pile, *([self.knock_discard] if self.knock_discard is not None else [])]:
            seen |= 1 << c
            total += 1
        return (self.phase is _P_DEAL) or (seen == FULL_DECK and total == 52)


def _cards_text(mask: int) -> str:
    cards = cards_of(mask)
    return " ".join(card_str(c) for c in cards) + (" is" if len(cards) == 1 else " are")


def new_hand(rules: Rules, dealer: int, deck: Sequence[Card] | None = None, seed: int | None = None) -> Hand:
    """A dealt hand: from an exact deck order, or shuffled from a seed.

    >>> from ginrummy.rules import Rules
    >>> new_hand(Rules(), dealer=0, seed=1).deck == new_hand(Rules(), dealer=0, seed=1).deck
    True
    """
    h = Hand(rules, dealer)
    h.deal(deck, random.Random(seed) if deck is None else None)
    return h
