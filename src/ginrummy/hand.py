"""One hand of two-player Gin Rummy as a pure state machine.

The phases follow the rules: the deal (chance), the first-turn upcard offer, draw and
discard, the last-chance offer, then after a knock the knocker's layout, the defender's
melds and the defender's layoffs. ``legal_actions()`` is the single source of truth;
``apply()`` raises :class:`IllegalActionError` naming the rule and changes nothing.

Each phase has one handler triple below the class, as OpenSpiel's ``DiscardLegalActions`` /
``ApplyDiscardAction``: ``_x_legal`` lists the legal actions, ``_x_refuse`` checks one action and
gives the refusal's words and numbers in the same check, ``_x_act`` changes the state. They share
this file with ``Hand`` because they change its state directly, which nothing outside may do.

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
from dataclasses import dataclass, field

from .actions import (
    ACTIONS,
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
    canonical,
)
from .cards import FULL_DECK, Card, card_str, cards_of
from .discard_search import discards_within, min_deadwood_after_discard
from .errors import IllegalActionError, NotationError
from .events import CHANCE, LAYOUT_PHASES, STEPS, STOCK_STEPS, Phase, Step
from .layout import knocker_limit, layoff_targets, layout_action
from .melds import arrangements, deadwood, meld_str, melds_in, points
from .observation import InfoState, SeatView, observe, record_step
from .rules import Rules
from .scoring import DEAD_HAND, HandResult, score_hand

_ALL_CARDS = frozenset(range(52))
#: The points of each meld (by mask).
_MELD_POINTS = {m: points(m) for m in MELD_ACTIONS}
#: ``_BITS(c)``: ``1 << c`` by table look-up.
_BITS = tuple(1 << c for c in range(52)).__getitem__

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

#: A refusal: (message in plain words with the numbers, rule name for programs), or None.
Refusal = tuple[str, str] | None


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


_D0, _D1, _D2, _D3 = _build_discard_tables()


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
    #: How often each position (hands, top discard, stock size, player to draw) was reached.
    positions: dict[tuple[int, int, Card, int, int], int] = field(default_factory=dict)
    #: Per seat: cards the other seat saw it take from the discard pile.
    shown: list[int] = field(default_factory=lambda: [0, 0])
    #: Per seat: what that seat has seen of the history, kept step by step (see observation).
    infos: list[InfoState] = field(default_factory=lambda: [InfoState(0), InfoState(1)])
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
        # 52 cards covering all 52: each once (a copy of the full set less the deck's cards
        # costs less than a new set of the deck to compare).
        if len(deck) != 52 or _ALL_CARDS.difference(deck):
            missing = sorted(_ALL_CARDS - set(deck))
            raise IllegalActionError(
                f"cannot deal: a deck must hold each of the 52 cards once (got {len(deck)} cards"
                + (f", missing {' '.join(card_str(c) for c in missing)})" if missing else ")"),
                rule="deal",
            )
        self.deck = deck
        d = self.dealer
        nd = 1 - d
        # The cards are distinct (checked above), so the sum of their bits is their mask.
        self.hands[nd] |= sum(map(_BITS, deck[0:20:2]))
        self.hands[d] |= sum(map(_BITS, deck[1:20:2]))
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
        self.stock = deck[:20:-1]  # deck[51] down to deck[21]: the top of the stock is deck[21]
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

    def _no_discard_mask(self) -> int:
        """Cards that may not be discarded (or knocked with) this turn."""
        if self.taken is None:
            return 0
        if self.rules.throw_back and not self.must_knock:
            return 0
        return 1 << self.taken

    def _layoff_free(self, seat: int) -> int:
        """The defender's cards that may still be laid off: not in its melds, not laid off."""
        rest = self.hands[seat] & ~self._laid_mask(self.defender_melds)
        for c, _ in self.layoffs:
            rest &= ~(1 << c)
        return rest

    def _layout_limit(self) -> int:
        """Deadwood the knocker's layout may keep (:func:`ginrummy.layout.knocker_limit`)."""
        assert self.knocker is not None
        return knocker_limit(self.hands[self.knocker], self.knock_limit)

    def _best_knock_deadwood(self, hand: int, exclude: int) -> int:
        """Least deadwood after one face-down discard not in ``exclude`` (for messages)."""
        return min(deadwood(hand & ~(1 << c)) for c in cards_of(hand & ~exclude))

    def _meld_text(self, t: int) -> str:
        m = self.knocker_melds[t] | self.laid_on[t]
        return " ".join(card_str(c) for c in cards_of(m))

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
        return list(_LEGAL[self.phase](self))

    def legal(self) -> tuple[Action, ...]:
        """``legal_actions()`` as a tuple (what a view holds; made once, not copied)."""
        return _LEGAL[self.phase](self)

    def refusal(self, action: Action) -> Refusal:
        """Why ``action`` is not legal now, as (message, rule), or None if it is.

        The phase's own check answers both questions at once: a legal action costs no
        message, an illegal one gets the rule and its numbers.
        """
        return _REFUSE[self.phase](self, canonical(action))

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` is among ``legal_actions()`` (without listing them)."""
        try:
            return _REFUSE[self.phase](self, canonical(action)) is None
        except NotationError:
            return False

    def verify(self, action: Action, seat: int | None = None) -> None:
        """Raise :class:`IllegalActionError` if ``action`` is not legal now; change nothing.

        The message names the rule and the numbers behind it, and ``.rule`` names the rule
        for programs. ``seat``, when given, must be the seat to act.

        >>> from ginrummy.rules import Rules
        >>> h = new_hand(Rules(), dealer=1, deck=list(range(52)))
        >>> h.verify(Action.parse('stock'))
        Traceback (most recent call last):
        ...
        ginrummy.errors.IllegalActionError: stock is not allowed now: on the first turn you take the upcard (pile) or pass
        """
        self._check(_canonical_or_refuse(action), seat)

    def _check(self, a: Action, seat: int | None) -> None:
        if seat is not None and seat != self.current and self.phase is not _P_OVER:
            who = "nobody" if self.current == CHANCE else f"player {self.current}"
            raise IllegalActionError(f"not your turn: it is {who}'s turn to act, not player {seat}'s", rule="turn")
        why = _REFUSE[self.phase](self, a)
        if why is not None:
            raise IllegalActionError(why[0], rule=why[1])

    # ------------------------------------------------------------------ acting

    def apply(self, action: object, seat: int | None = None, *, _checked: bool = True) -> Step:
        """Check and play one action (typed, text or integer); return the history entry.

        An illegal action raises :class:`IllegalActionError` and changes nothing; bad text or
        an unknown number raises :class:`NotationError`. ``seat``, when given, must be the
        seat to act (servers pass it; the engine itself always knows whose turn it is).
        ``action`` is typed ``object``: anything is accepted, and refused in the engine's own
        words, in the compiled build too. ``_checked=False`` is for the engine's own trusted
        steps (``apply_unchecked``, the default layout played on a copy): no rule checks.

        >>> from ginrummy.rules import Rules
        >>> h = new_hand(Rules(), dealer=1, deck=list(range(52)))
        >>> h.apply('pass').seat, h.current
        (0, 1)
        """
        if action.__class__ is Action:
            code = action.code
            if code < 0 or ACTIONS[code] is not action:
                action = _canonical_or_refuse(action)
        elif isinstance(action, str):
            action = Action.parse(action)
        elif isinstance(action, int) and not isinstance(action, bool):
            action = Action.from_int(action)
        elif isinstance(action, Action):
            action = _canonical_or_refuse(action)
        else:
            raise NotationError(f"not an action: {action!r}")
        if _checked:
            if seat is not None:
                self._check(action, seat)
            else:
                why = _REFUSE[self.phase](self, action)
                if why is not None:
                    raise IllegalActionError(why[0], rule=why[1])
        # The step itself (here, not in a helper: one Python call fewer a step): the phase's
        # handler changes the state, then the history and both seats' information states
        # record it.
        seat = self.current
        pile = self.pile
        top = pile[-1] if pile else -1
        drawn = _ACT[self.phase](self, action, seat)
        step = STEPS[seat][action.code] if drawn < 0 else STOCK_STEPS[seat][drawn]
        self.history.append(step)
        record_step(self.infos, seat, action, drawn, top)
        return step

    def apply_unchecked(self, action: Action) -> Step:
        """Play an action without the rule checks.

        Only for a seat's reconstruction of a hand in which the opponent's cards are
        placeholders (the engine protocol): there a legal opponent action, such as taking the
        last discard to knock, can fail the check on cards the seat cannot see. Everything
        the seat can check is checked later (the knock at its layout).
        """
        return self.apply(canonical(action), _checked=False)

    def _take_pile(self, seat: int) -> None:
        card = self.pile.pop()
        bit = 1 << card
        self.hands[seat] |= bit
        self.shown[seat] |= bit
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
        """The knocker's default layout (:func:`ginrummy.layout.layout_action`): lowest
        deadwood, then fewest possible layoffs among the cards the knocker has not seen.

        Legal actions to apply in order (melds, then ``done``).
        """
        assert self.phase is _P_LAYOUT
        return self._auto_layout()

    def auto_defense(self) -> list[Action]:
        """The defender's lowest count: own melds, done, then layoffs (none against gin), done.

        RULES.md: the lowest count is the defender's to take, offered automatically; by
        hand any legal melds and layoffs are allowed too.
        """
        assert self.phase is _P_DEFENDER_LAYOUT
        return self._auto_layout()

    def default_layout(self) -> list[Action]:
        """The default layout actions of the seat laying out now (any layout phase, layoffs
        included), played on a copy: nothing changes. Empty outside the layout phases."""
        return self._auto_layout() if self.phase in LAYOUT_PHASES else []

    def _auto_layout(self) -> list[Action]:
        """The default layout actions of the seat laying out now, played on a copy."""
        h = self.clone()
        seat = h.current
        out = []
        while h.current == seat and h.phase in LAYOUT_PHASES:
            a = layout_action(observe(h, seat))
            out.append(a)
            h.apply(a, _checked=False)
        return out

    def seen_by(self, seat: int) -> int:
        """Cards whose place ``seat`` knows (:attr:`SeatView.seen`)."""
        return observe(self, seat).seen

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
            if name == "infos":
                v = [info.copy() for info in v]
            elif isinstance(v, list):
                v = list(v)
            elif isinstance(v, dict):
                v = dict(v)
            setattr(h, name, v)
        return h

    def card_count_check(self) -> bool:
        """All 52 cards accounted for: hands, stock, pile, face-down knock discard."""
        seen = self.hands[0] | self.hands[1]
        total = self.hands[0].bit_count() + self.hands[1].bit_count()
        for c in [*self.stock, *self.pile, *([self.knock_discard] if self.knock_discard is not None else [])]:
            seen |= 1 << c
            total += 1
        return (self.phase is _P_DEAL) or (seen == FULL_DECK and total == 52)


def _canonical_or_refuse(action: Action) -> Action:
    """The table's object for a hand-made action; one that names no action is refused."""
    try:
        return canonical(action)
    except NotationError as e:
        raise IllegalActionError(str(e), rule="card" if "card" in str(e) else "action") from None


# ---------------------------------------------------------------------------------------------
# One handler per phase: what is legal (listed, and checked with the refusal's reason in one
# place) and what an action does. ``Hand`` dispatches on its phase through the tables below.
# ---------------------------------------------------------------------------------------------

# -- the first-turn upcard offer


_PILE_PASS = (PILE, PASS)
_STOCK_PILE = (STOCK, PILE)
_STOCK_ONLY = (STOCK,)
_PASS_ONLY = (PASS,)


def _offer_legal(h: Hand) -> tuple[Action, ...]:
    return _PILE_PASS


def _offer_refuse(h: Hand, a: Action) -> Refusal:
    if a is PILE or a is PASS:
        return None
    return f"{a} is not allowed now: on the first turn you take the upcard (pile) or pass", "upcard_offer"


def _offer_act(h: Hand, a: Action, seat: int) -> int:
    if a is PILE:
        h._take_pile(seat)
    else:
        h.offer_passes += 1
        if h.offer_passes == 1:
            h.current = h.dealer
        else:
            # Both passed: the non-dealer draws from the stock.
            h.phase = _P_DRAW
            h.current = h.non_dealer
            h.stock_only = True
    return -1


# -- the draw


def _draw_legal(h: Hand) -> tuple[Action, ...]:
    # The top discard may be drawn unless both players passed the upcard, the pile is empty,
    # or (throw-back) it is one's own card thrown straight back and no knock would follow.
    if h.stock_only:
        return _STOCK_ONLY
    pile = h.pile
    if not pile:
        return _STOCK_ONLY
    if h.rules.throw_back:
        top = pile[-1]
        if h.first_thrower.get(top) == h.current and not h._can_knock_with(h.hands[h.current] | 1 << top, 1 << top):
            return _STOCK_ONLY
    return _STOCK_PILE


def _draw_refuse(h: Hand, a: Action) -> Refusal:
    if a is STOCK:
        return None
    if a is PILE:
        if h.stock_only:
            return "cannot take the upcard: both players passed it, so the non-dealer draws from the stock", "upcard_offer"
        top = h.top_discard
        if top is None:
            return "cannot take from the discard pile: it is empty", "draw"
        # Two legal draws: the pile is one (compared by length, not identity: the compiled
        # build copies fixed-length tuples).
        if len(_draw_legal(h)) == 2:
            return None
        return (
            f"cannot take {card_str(top)} back: you threw it first and it was thrown back, so you may take "
            f"it only to knock on this turn, and no discard then leaves deadwood at or under the knock "
            f"limit {h.knock_limit}",
            "throw_back",
        )
    return f"{a} is not allowed now: draw first, from the stock or the discard pile", "draw_first"


def _draw_act(h: Hand, a: Action, seat: int) -> int:
    drawn = -1
    if a is STOCK:
        drawn = h.stock.pop()
        h.hands[seat] |= 1 << drawn
        h.taken = None
        h.phase = _P_DISCARD
    else:
        h._take_pile(seat)
        top = h.taken
        if h.rules.throw_back and top is not None and h.first_thrower.get(top) == seat:
            h.must_knock = True
    h.stock_only = False
    return drawn


# -- the discard (or knock, or big gin)


def _discard_legal(h: Hand) -> tuple[Action, ...]:
    hand = h.hands[h.current]
    # The hand's suits, split once for the knock search and (usually) the discards.
    s0 = hand & 8191
    s1 = hand >> 13 & 8191
    s2 = hand >> 26 & 8191
    s3 = hand >> 39
    # Knock: deadwood of the 10 cards left after the face-down discard. The table search
    # says at once whether any discard gets there (most turns none does).
    limit = h.knock_limit
    knock = min_deadwood_after_discard(hand, s0, s1, s2, s3) <= limit
    big_gin = h.rules.big_gin and deadwood(hand) == 0
    if h.taken is None:
        free = hand
    else:
        free = hand & ~h._no_discard_mask()
        if free != hand:
            s0 = free & 8191
            s1 = free >> 13 & 8191
            s2 = free >> 26 & 8191
            s3 = free >> 39
    if h.must_knock:
        out: list[Action] = []
    else:
        discards = _D0[s0] + _D1[s1] + _D2[s2] + _D3[s3]
        if not knock and not big_gin:
            return discards
        out = list(discards)
    if knock:
        for c in cards_of(free & discards_within(hand, limit)):
            out.append(KNOCK_ACTIONS[c])
    if big_gin:
        out.append(BIG_GIN)
    return tuple(out)


def _discard_refuse(h: Hand, a: Action) -> Refusal:
    k = a.kind
    hand = h.hands[h.current]
    if k is _K_DISCARD or k is _K_KNOCK:
        c = a.card
        if not hand >> c & 1:
            return f"cannot {_verb(k)} {card_str(c)}: it is not in your hand", "not_in_hand"
        if h.taken is not None and h._no_discard_mask() >> c & 1:
            return (
                f"cannot {_verb(k)} {card_str(c)}: it was just taken from the discard pile, and a card taken "
                "from the discard pile may not be discarded (face up or face down) on the same turn",
                "no_throw_back",
            )
        if k is _K_DISCARD:
            if not h.must_knock:
                return None
            why = "the last discard" if h.stock_size <= h.rules.dead_hand_stock else "your own discard back"
            return f"cannot discard {card_str(c)}: you took {why}, so you must knock (or go gin) on this turn", "must_knock"
        d = deadwood(hand & ~(1 << c))
        if d <= h.knock_limit:
            return None
        if h.knock_limit == 0:
            return (
                f"cannot knock: deadwood {d} after discarding {card_str(c)}, and only gin (deadwood 0) "
                "ends a hand under these rules",
                "knock_limit",
            )
        return (
            f"cannot knock: deadwood {d} is over the knock limit {h.knock_limit} (after discarding {card_str(c)} face down)",
            "knock_limit",
        )
    if k is _K_BIG_GIN:
        if not h.rules.big_gin:
            return "cannot go big gin: big gin is not played under these rules", "big_gin"
        d = deadwood(hand)
        if d == 0:
            return None
        return f"cannot go big gin: deadwood {d}, big gin needs all {hand.bit_count()} cards in melds", "big_gin"
    return f"{a} is not allowed now: discard a card (or knock)", "discard_first"


def _verb(k: Kind) -> str:
    return "knock with" if k is _K_KNOCK else "discard"


def _discard_act(h: Hand, a: Action, seat: int) -> int:
    k = a.kind
    if k is _K_DISCARD:
        c = a.card
        h.hands[seat] &= ~(1 << c)
        h.pile.append(c)
        if c != h.taken:
            # The first thrower of a card that is thrown straight back (throw-back variant)
            # stays on record: they may take it back only to knock.
            h.first_thrower[c] = seat
        h.taken = None
        h.must_knock = False
        rules = h.rules
        if len(h.stock) <= rules.dead_hand_stock:
            # Dead hand: the stock is down to its last cards and nobody knocked.
            if rules.last_chance:
                h.phase = _P_LAST_CHANCE
                h.current = 1 - seat
            else:
                h._end(DEAD_HAND)
        else:
            # Players who only trade discards could go on for ever; the seeds are silent, so
            # (a decision of ours) a position reached for the third time (``repetition_limit``)
            # ends the hand like the stock running down. A position is both hands, the top
            # discard (the card just thrown), the stock size and the player to draw: every
            # turn within one stock size takes the top discard and throws one (a stock draw
            # shrinks the stock), so all positions of one stock size share the pile below
            # its top card, and no pile is copied or hashed.
            limit = rules.repetition_limit
            if limit:
                key = (h.hands[0], h.hands[1], c, len(h.stock), 1 - seat)
                n = h.positions.get(key, 0) + 1
                h.positions[key] = n
                if n >= limit:
                    h._end(DEAD_HAND)
                    return -1
            h.phase = _P_DRAW
            h.current = 1 - seat
    elif k is _K_KNOCK:
        h.hands[seat] &= ~(1 << a.card)
        h.knock_discard = a.card  # face down: the defender never sees it
        h._start_layout(seat)
    else:
        h.big_gin = True
        h._start_layout(seat)
    return -1


# -- the last-chance offer (variant): the last discard may be taken only to knock


def _last_chance_legal(h: Hand) -> tuple[Action, ...]:
    return _PILE_PASS if _last_chance_take(h) is None else _PASS_ONLY


def _last_chance_take(h: Hand) -> Refusal:
    top = h.top_discard
    assert top is not None
    hand = h.hands[h.current] | 1 << top
    if h._can_knock_with(hand, 1 << top):
        return None
    return (
        f"cannot take the last discard {card_str(top)}: it may be taken only to knock, and the best "
        f"knock with it leaves deadwood {h._best_knock_deadwood(hand, 1 << top)}, over the knock limit {h.knock_limit}",
        "last_chance",
    )


def _last_chance_refuse(h: Hand, a: Action) -> Refusal:
    if a is PASS:
        return None
    if a is PILE:
        return _last_chance_take(h)
    return f"{a} is not allowed now: take the last discard to knock with it (pile), or pass", "last_chance"


def _last_chance_act(h: Hand, a: Action, seat: int) -> int:
    if a is PILE:
        h._take_pile(seat)
        h.must_knock = True
    else:
        h._end(DEAD_HAND)
    return -1


# -- the knocker's layout


def _layout_legal(h: Hand) -> tuple[Action, ...]:
    # DONE (108) comes before every meld (109 + id), and melds_in gives melds in id order, so
    # the list is in integer order.
    rest = h.hands[h.current] & ~h._laid_mask(h.knocker_melds)
    limit = h._layout_limit()
    total = points(rest)
    out = [DONE] if total <= limit else []
    for m in melds_in(rest):
        # A meld is offered only if the rest can still get within the limit (at once when
        # the rest's points already are: deadwood is never more than the points).
        if total - _MELD_POINTS[m] <= limit or deadwood(rest & ~m) <= limit:
            out.append(MELD_ACTIONS[m])
    return tuple(out)


def _layout_refuse(h: Hand, a: Action) -> Refusal:
    k = a.kind
    if k is not _K_DONE and k is not _K_MELD:
        return f"{a} is not allowed now: the knocker lays out melds, then done", "layout"
    rest = h.hands[h.current] & ~h._laid_mask(h.knocker_melds)
    limit = h._layout_limit()
    if k is _K_DONE:
        left = points(rest)
        if left <= limit:
            return None
        return f"cannot finish the layout: deadwood {left} is left and {_limit_words(limit)}", "layout"
    missing = a.meld & ~rest
    if missing:
        return f"cannot lay {meld_str(a.meld)}: {_cards_text(missing)} not free in your hand", "layout"
    if points(rest) - _MELD_POINTS[a.meld] <= limit:
        return None
    best = deadwood(rest & ~a.meld)
    if best <= limit:
        return None
    return (
        f"cannot lay {meld_str(a.meld)}: the other cards would keep deadwood {best} at best, and {_limit_words(limit)}",
        "layout",
    )


def _limit_words(limit: int) -> str:
    return "gin needs every card in melds" if limit == 0 else f"the knock limit is {limit}"


def _layout_act(h: Hand, a: Action, seat: int) -> int:
    if a is DONE:
        h.phase = _P_DEFENDER_LAYOUT
        h.current = 1 - seat
    else:
        h.knocker_melds.append(a.meld)
        h.laid_on.append(0)
    return -1


# -- the defender's own melds


def _defender_legal(h: Hand) -> tuple[Action, ...]:
    rest = h.hands[h.current] & ~h._laid_mask(h.defender_melds)
    out = [DONE]
    for m in melds_in(rest):
        out.append(MELD_ACTIONS[m])
    return tuple(out)


def _defender_refuse(h: Hand, a: Action) -> Refusal:
    k = a.kind
    if k is _K_DONE:
        return None
    if k is _K_MELD:
        rest = h.hands[h.current] & ~h._laid_mask(h.defender_melds)
        missing = a.meld & ~rest
        return None if not missing else (f"cannot lay {meld_str(a.meld)}: {_cards_text(missing)} not free in your hand", "layout")
    if k is _K_LAYOFF:
        return "cannot lay off yet: lay out your own melds first, then done, then lay off", "layoff"
    return f"{a} is not allowed now: lay out your melds, then done", "layout"


def _defender_act(h: Hand, a: Action, seat: int) -> int:
    if a is not DONE:
        h.defender_melds.append(a.meld)
    elif h.knocker_deadwood() == 0:
        # Nothing is laid off against gin.
        h._score()
    else:
        h.phase = _P_LAYOFF
    return -1


# -- the defender's layoffs


def _layoff_legal(h: Hand) -> tuple[Action, ...]:
    # DONE (108) comes before every layoff (438 + 4 * card + meld), listed card by card.
    out = [DONE]
    rest = h._layoff_free(h.current)
    targets = []
    reach = 0
    for m, laid in zip(h.knocker_melds, h.laid_on, strict=True):
        x = layoff_targets(m, laid)
        targets.append(x)
        reach |= x
    for c in cards_of(rest & reach):
        for t, x in enumerate(targets):
            if x >> c & 1:
                # Action.layoff also refuses a fifth target (no ten-card layout has one).
                out.append(LAYOFF_ACTIONS[c * MAX_LAYOFF_TARGETS + t] if t < MAX_LAYOFF_TARGETS else Action.layoff(c, t))
    return tuple(out)


def _layoff_refuse(h: Hand, a: Action) -> Refusal:
    k = a.kind
    if k is _K_DONE:
        return None
    if k is _K_MELD:
        return "cannot lay a meld now: your layout is done; lay off cards or say done", "layout"
    if k is not _K_LAYOFF:
        return f"{a} is not allowed now: lay off cards on the knocker's melds, then done", "layoff"
    c, t = a.card, a.target
    n = len(h.knocker_melds)
    if t >= n:
        return f"cannot lay off on meld {t}: the knocker laid out {n} melds (0..{n - 1})", "layoff"
    seat = h.current
    if not h.hands[seat] >> c & 1:
        return f"cannot lay off {card_str(c)}: it is not in your hand", "not_in_hand"
    if h._laid_mask(h.defender_melds) >> c & 1:
        return f"cannot lay off {card_str(c)}: it is in one of your melds, not your deadwood", "layoff"
    for x, _ in h.layoffs:
        if x == c:
            return f"cannot lay off {card_str(c)}: it is already laid off", "layoff"
    if layoff_targets(h.knocker_melds[t], h.laid_on[t]) >> c & 1:
        return None
    return (
        f"cannot lay off {card_str(c)} on {h._meld_text(t)}: it does not extend that meld "
        "(a fourth card on a set, or the next card at either end of a run)",
        "layoff",
    )


def _layoff_act(h: Hand, a: Action, seat: int) -> int:
    if a is DONE:
        h._score()
    else:
        h.layoffs.append((a.card, a.target))
        h.laid_on[a.target] |= 1 << a.card
    return -1


# -- before the deal and after the end nothing is legal


def _none_legal(h: Hand) -> tuple[Action, ...]:
    return ()


def _deal_refuse(h: Hand, a: Action) -> Refusal:
    return f"{a} is not allowed: the hand has not been dealt yet", "deal"


def _over_refuse(h: Hand, a: Action) -> Refusal:
    return f"{a} is not allowed: the hand is over", "hand_over"


def _no_act(h: Hand, a: Action, seat: int) -> int:
    raise IllegalActionError(f"{a} is not allowed in phase {h.phase.value}", rule="phase")


_LEGAL: dict[Phase, Callable[[Hand], tuple[Action, ...]]] = {
    _P_DEAL: _none_legal,
    _P_OFFER: _offer_legal,
    _P_DRAW: _draw_legal,
    _P_DISCARD: _discard_legal,
    _P_LAST_CHANCE: _last_chance_legal,
    _P_LAYOUT: _layout_legal,
    _P_DEFENDER_LAYOUT: _defender_legal,
    _P_LAYOFF: _layoff_legal,
    _P_OVER: _none_legal,
}
_REFUSE: dict[Phase, Callable[[Hand, Action], Refusal]] = {
    _P_DEAL: _deal_refuse,
    _P_OFFER: _offer_refuse,
    _P_DRAW: _draw_refuse,
    _P_DISCARD: _discard_refuse,
    _P_LAST_CHANCE: _last_chance_refuse,
    _P_LAYOUT: _layout_refuse,
    _P_DEFENDER_LAYOUT: _defender_refuse,
    _P_LAYOFF: _layoff_refuse,
    _P_OVER: _over_refuse,
}
_ACT: dict[Phase, Callable[[Hand, Action, int], int]] = {
    _P_DEAL: _no_act,
    _P_OFFER: _offer_act,
    _P_DRAW: _draw_act,
    _P_DISCARD: _discard_act,
    _P_LAST_CHANCE: _last_chance_act,
    _P_LAYOUT: _layout_act,
    _P_DEFENDER_LAYOUT: _defender_act,
    _P_LAYOFF: _layoff_act,
    _P_OVER: _no_act,
}


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


__all__ = ["Hand", "Refusal", "new_hand"]
