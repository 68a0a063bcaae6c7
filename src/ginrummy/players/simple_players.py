"""The built-in rule-of-thumb players: ``random``, ``easy``, ``simple`` and ``greedy``.

They are baselines and sparring partners for the ``expert`` player, so each one is a short,
documented rule that can be checked by a test, and each decision takes a few microseconds
(the arena plays hundreds of thousands of them). All of them decide from the seat's
:class:`~ginrummy.observation.SeatView` alone, pick only from ``view.legal`` (so the engine's
rules, such as "a card taken from the discard pile may not be discarded on the same turn",
are never re-implemented here), and use the driver's :func:`~ginrummy.players.driver.layout_action`
after a knock: the lowest count is a mechanical choice the apps also offer automatically.

============  =========================================================================
player        rule
============  =========================================================================
``random``    any legal action, uniformly (layout: the default best one)
``easy``      a beginner: chases pairs, throws its highest unmelded card but now and then
              a careless one, misses some knocks and waits for 5 or less (always gins)
``simple``    the 2021 EAAI challenge baseline (SimpleGinRummyPlayer): takes the upcard
              only if it joins a meld, discards the highest-value unmelded card that was
              not just picked up (a tie at random), knocks as soon as it can
``greedy``    knocks as soon as it can, takes the upcard when it lowers its deadwood,
              discards to the lowest deadwood
============  =========================================================================
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from random import Random as _Random

from ..actions import BIG_GIN, DISCARD_ACTIONS, PASS, PILE, STOCK, Action, Kind
from ..cards import CARD_VALUES, mask_value
from ..discard_search import best_discards, min_deadwood_after_discard
from ..events import Phase
from ..layout import LAYOUT_PHASES, knocker_layout, layout_action, layout_limit
from ..melds import arrangements, deadwood, joins_meld
from ..observation import SeatView
from .base import Player

RANK_MASK = 1 | 1 << 13 | 1 << 26 | 1 << 39

# Enum members as module constants: on Python 3.11 each ``Phase.X`` / ``Kind.X`` goes through
# ``EnumType.__getattr__`` (about 0.1 us), a visible cost at a few per decision.
_P_DISCARD = Phase.DISCARD
_P_DRAW = Phase.DRAW
_P_LAST_CHANCE = Phase.LAST_CHANCE
_P_OFFER = Phase.OFFER
_K_BIG_GIN = Kind.BIG_GIN
_K_DISCARD = Kind.DISCARD
_K_KNOCK = Kind.KNOCK
_K_PILE = Kind.PILE



#: Bits where a run of three may start: ranks ace..jack of each suit.
_RUN_STARTS = sum(((1 << 11) - 1) << (13 * suit) for suit in range(4))
_SUIT = (1 << 13) - 1


def melded_cards(hand: int) -> int:
    """The cards in melds of one best arrangement of ``hand`` (a mask).

    Without sets, a best arrangement melds exactly the cards that lie in a run of three or
    more in a row (a whole row is one run), found with a few shifts. A rank with three or four
    cards may instead go into a set: each way of using such ranks is tried, the runs found
    the same way in the rest, and the arrangement with the least deadwood kept.

    >>> from ginrummy.cards import CardSet
    >>> str(CardSet(melded_cards(CardSet.parse('As 2s 3s 4s 9h Th Jh Kd 5c 7c').mask)))
    'As 2s 3s 4s 9h Th Jh'
    >>> str(CardSet(melded_cards(CardSet.parse('7s 7h 7d 8d 9d 5c Kc').mask)))  # the run beats the set
    '7d 8d 9d'
    >>> str(CardSet(melded_cards(CardSet.parse('7s 7h 7d 7c 8d 9d 5c Kc').mask)))  # both, from four 7s
    '7s 7h 7d 8d 9d 7c'
    """
    s0 = hand & _SUIT
    s1 = hand >> 13 & _SUIT
    s2 = hand >> 26 & _SUIT
    s3 = hand >> 39
    trips = (s0 & s1 & (s2 | s3)) | ((s0 | s1) & s2 & s3)
    if not trips:
        return _runs_of(hand)
    unions = [0]
    while trips:
        low = trips & -trips
        trips ^= low
        full = hand & (RANK_MASK << (low.bit_length() - 1))
        options = [0, full]
        if full.bit_count() == 4:
            x = full
            while x:
                b = x & -x
                x ^= b
                options.append(full ^ b)
        unions = [u | o for u in unions for o in options]
    best = -1
    best_melded = 0
    for u in unions:
        melded = u | _runs_of(hand & ~u)
        v = mask_value(melded)  # the most points melded = the least deadwood
        if v > best:
            best, best_melded = v, melded
    return best_melded


def _runs_of(hand: int) -> int:
    starts = hand & hand >> 1 & hand >> 2 & _RUN_STARTS
    return starts | starts << 1 | starts << 2


def pairs_with(hand: int, card: int) -> bool:
    """Whether ``card`` has the rank of a card in ``hand`` (a beginner's "it makes a pair")."""
    return bool(hand & ~(1 << card) & (RANK_MASK << (card % 13)))


def _options(view: SeatView) -> tuple[list[int], dict[int, Action], bool]:
    """The cards this seat may discard now, the knock action of each card it may knock with,
    and whether big gin is allowed. One pass over ``view.legal`` by kind: comparing actions
    with ``==`` (a dataclass comparison each) cost more than the rest of a decision."""
    legal = view.legal
    discards = [a.card for a in legal if a.kind is _K_DISCARD]
    if len(discards) == len(legal):
        # Most turns: nothing but discards (one comprehension, no loop of appends).
        return discards, {}, False
    discards = []
    knocks: dict[int, Action] = {}
    big_gin = False
    for a in legal:
        k = a.kind
        if k is _K_DISCARD:
            discards.append(a.card)
        elif k is _K_KNOCK:
            knocks[a.card] = a
        elif k is _K_BIG_GIN:
            big_gin = True
    return discards, knocks, big_gin


def _allowed(view: SeatView) -> tuple[int, dict[int, Action], bool]:
    """``_options`` as a mask: the cards this seat may discard now (or, when it may only knock,
    knock with), the knock action of each card it may knock with, and whether big gin is allowed.

    Most turns offer nothing but discards (the list is in integer order, so its last action
    says so), and then every card of the hand unless one may not be thrown: no list is built.
    """
    legal = view.legal
    hand = view.hand
    n = hand.bit_count()
    if legal[-1].kind is _K_DISCARD:
        if len(legal) == n:
            return hand, {}, False
        allowed = 0
        for a in legal:
            allowed |= 1 << a.card
        return allowed, {}, False
    if len(legal) > n and legal[n - 1].kind is _K_DISCARD:
        # A knock turn on which every card may be thrown: the hand's n discards come first,
        # then the knocks and big gin (integer order), so only those are read.
        knocks: dict[int, Action] = {}
        big_gin = False
        for a in legal[n:]:
            if a.kind is _K_KNOCK:
                knocks[a.card] = a
            elif a.kind is _K_BIG_GIN:
                big_gin = True
        return hand, knocks, big_gin
    discards, knocks, big_gin = _options(view)
    allowed = 0
    for c in discards or knocks:
        allowed |= 1 << c
    return allowed, knocks, big_gin


class _RulePlayer(Player):
    """Shared dispatch: layout phases go to the default layout, the rest to three rules."""

    def decide(self, view: SeatView) -> Action:
        p = view.phase
        if p is _P_DISCARD:
            return self.discard(view)
        if p is _P_DRAW or p is _P_OFFER or p is _P_LAST_CHANCE:
            # Whether the top discard may be taken: a pile take among the legal actions (read
            # here, not through a helper: a call per draw). In the last chance PILE is legal
            # only when the card lets this seat knock or go gin.
            can_take = False
            for a in view.legal:
                if a.kind is _K_PILE:
                    can_take = True
                    break
            if p is _P_LAST_CHANCE:
                return PILE if can_take and self.takes_last_chance(view) else PASS
            # Take it if allowed and wanted (asked only when it may be taken: the rules'
            # ``wants`` have no side effects), else this phase's refusal.
            pile = view.pile
            if pile and can_take and self.wants(view, pile[-1]):
                return PILE
            return PASS if p is _P_OFFER else STOCK
        if p in LAYOUT_PHASES:
            return layout_action(view, self.knocker_plan)
        raise ValueError(f"{self.name} cannot act in phase {p.value}")

    def knocker_plan(self, view: SeatView) -> list[int]:
        """The melds to lay out after this player's knock (the driver lays them one by one)."""
        return knocker_layout(view)

    def wants(self, view: SeatView, card: int) -> bool:
        """Whether to take ``card``, the top of the discard pile. Asked only when it may be
        taken, so it must not change the player's state nor draw from its generator."""
        raise NotImplementedError

    def discard(self, view: SeatView) -> Action:
        raise NotImplementedError

    def takes_last_chance(self, view: SeatView) -> bool:
        return True

    def _highest(self, cards: Sequence[int]) -> int:
        """The highest-value card of ``cards``; a tie is broken by this player's seeded RNG."""
        if len(cards) == 1:
            return cards[0]
        # One pass (no max over a map, no comprehension: both cost more on two or three cards).
        values = CARD_VALUES
        top = -1
        ties: list[int] = []
        for c in cards:
            v = values[c]
            if v > top:
                top = v
                ties = [c]
            elif v == top:
                ties.append(c)
        return ties[0] if len(ties) == 1 else self.rng.choice(ties)

    def _pick(self, cards: Sequence[int], key: Mapping[int, tuple[int, ...]]) -> int:
        """The card with the smallest key; a tie is broken by this player's seeded RNG."""
        best = min(key[c] for c in cards)
        ties = [c for c in cards if key[c] == best]
        return ties[0] if len(ties) == 1 else self.rng.choice(ties)


class RandomPlayer(Player):
    """Any legal action, uniformly at random (layout phases: the default layout).

    The floor of every comparison. It knocks only when a random pick lands on a knock.
    """

    name = "random"

    def decide(self, view: SeatView) -> Action:
        if view.phase in LAYOUT_PHASES:
            return layout_action(view)
        legal = view.legal
        rng = self.rng
        n = len(legal)
        if rng.__class__ is not _Random or not n:
            return rng.choice(legal)
        # ``rng.choice(legal)`` written out (the same draws from the same generator: what
        # ``Random._randbelow_with_getrandbits`` does), two Python calls fewer a decision.
        getrandbits = rng.getrandbits
        k = n.bit_length()
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        return legal[r]


class GreedyPlayer(_RulePlayer):
    """Lowest deadwood now, every time.

    - Takes the top discard when, after its best discard, its deadwood would be lower than it
      is now (so never just to throw the same card back).
    - Discards the card that leaves the lowest deadwood; among those, the highest-value card
      (low cards are kept, they count little if caught); a last tie is broken at random.
    - Goes big gin when it can, else knocks as soon as it can, with the discard that leaves
      the lowest deadwood.
    """

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        #: (hand, its deadwood) left by this player's last discard: the hand it draws to next.
        self._left: tuple[int, int] = (-1, 0)

    def wants(self, view: SeatView, card: int) -> bool:
        hand = view.hand
        left, dead = self._left
        m = hand | 1 << card
        # The suits split here: the same split the function would make, passed in.
        after = min_deadwood_after_discard(m, m & _SUIT, m >> 13 & _SUIT, m >> 26 & _SUIT, m >> 39)
        return after < (dead if left == hand else deadwood(hand))

    def discard(self, view: SeatView) -> Action:
        allowed, knocks, big_gin = _allowed(view)
        if big_gin:
            return BIG_GIN
        hand = view.hand
        # If any knock is legal, the lowest-deadwood discard is one of them.
        dead, cards = best_discards(hand, hand & ~allowed)
        c = cards[0] if len(cards) == 1 else self._highest(cards)
        if knocks:
            knock = knocks.get(c)
            if knock is not None:
                return knock
        self._left = (hand & ~(1 << c), dead)
        return DISCARD_ACTIONS[c]


class SimplePlayer(_RulePlayer):
    """The baseline of the 2021 EAAI Gin Rummy challenge (SimpleGinRummyPlayer), written from its
    public description and checked, rule by rule, against its published source.

    - Takes the face-up card only if it would be part of a meld with its hand.
    - Discards a card that leaves the least deadwood, never the card just picked up; among
      equal cards it picks at random. That is the highest-value unmelded card, and a tie
      between, say, a loose ten and a loose king is a coin toss, as in the challenge's source
      ("discard a random card (not just drawn face up) leaving minimal deadwood points").
      Our first version broke such ties toward the higher rank, a stronger rule than the
      baseline's: it beat this one in 53.8% of 10,000 EAAI games.
    - Goes big gin when it can, else knocks as soon as it can, with the card it would have
      discarded.
    - After its knock it lays out one of its lowest-deadwood arrangements, at random (the
      source's ``getFinalMelds``), not the one that leaves the defender the fewest layoffs.

    The source also never repeats a (card drawn, card discarded) pair within a hand; that can
    only matter when the same card comes back to it from the pile, and is not copied. As the
    defender it plays the default best defence; the source melds first and lets the referee
    lay off greedily, which can only leave it more deadwood.
    """

    name = "simple"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self._plan: tuple[int, list[int]] = (0, [])  # (hand, melds): one random pick per layout

    def knocker_plan(self, view: SeatView) -> list[int]:
        hand = view.hand
        if self._plan[0] != hand:
            options = arrangements(hand, layout_limit(view))
            if not options:
                return knocker_layout(view)
            best = [melds for d, melds in options if d == options[0][0]]
            self._plan = (hand, best[0] if len(best) == 1 else self.rng.choice(best))
        return self._plan[1]

    def wants(self, view: SeatView, card: int) -> bool:
        return joins_meld(view.hand, card)

    def discard(self, view: SeatView) -> Action:
        allowed, knocks, big_gin = _allowed(view)
        if big_gin:
            return BIG_GIN
        hand = view.hand
        choice = self.choose_discard(hand, allowed)
        # The choice leaves the least deadwood, so if any knock is legal, knocking with it is.
        knock = knocks.get(choice)
        return knock if knock is not None else DISCARD_ACTIONS[choice]

    def choose_discard(self, hand: int, allowed: int) -> int:
        """The rule's discard among the cards of the mask ``allowed``: one that leaves the least deadwood."""
        ties = _least_deadwood_discards(hand, allowed)
        return ties[0] if len(ties) == 1 else self.rng.choice(ties)


def simple_discard_choices(hand: int, allowed: Sequence[int]) -> list[int]:
    """The cards ``simple`` may throw from ``hand`` (it picks one of them at random): the
    allowed cards whose discard leaves the least deadwood.

    Public so a model of the opponent (``bench/exact_posterior.py``) uses the rule itself.

    >>> from ginrummy.cards import CardSet, card_str
    >>> h = CardSet.parse('As 2s 3s 9h Th Jh Kd Qc 5c 7c 4d').mask
    >>> [card_str(c) for c in simple_discard_choices(h, list(CardSet(h)))]
    ['Kd', 'Qc']
    """
    allowed_mask = 0
    for c in allowed:
        allowed_mask |= 1 << c
    return _least_deadwood_discards(hand, allowed_mask)


def _least_deadwood_discards(hand: int, allowed: int) -> list[int]:
    """The cards of the mask ``allowed`` whose discard leaves the least deadwood, lowest first."""
    return sorted(best_discards(hand, hand & ~allowed)[1])


class EasyPlayer(_RulePlayer):
    """A beginner, with a beginner's mistakes (each one on purpose, and seeded):

    - chases pairs: takes the top discard if it pairs a card in hand or joins a meld, even a
      king it will never meld;
    - throws its highest-value unmelded card, but one time in four a careless card: any
      unmelded card (it does not weigh which low cards or near-runs to keep);
    - plays for gin too long: always goes gin, but knocks only with 5 or less, and even then
      misses the chance one time in four;
    - never watches what the opponent picks up or throws.
    """

    name = "easy"
    careless = 0.25
    misses_knock = 0.25
    knocks_at = 5

    def wants(self, view: SeatView, card: int) -> bool:
        return pairs_with(view.hand, card) or joins_meld(view.hand, card)

    def takes_last_chance(self, view: SeatView) -> bool:
        return self.rng.random() >= self.misses_knock

    def discard(self, view: SeatView) -> Action:
        discards, knocks, big_gin = _options(view)
        if big_gin:
            return BIG_GIN
        hand = view.hand
        if knocks:
            key = {c: (deadwood(hand & ~(1 << c)), -CARD_VALUES[c]) for c in knocks}
            best = self._pick(list(knocks), key)
            left = key[best][0]
            if left == 0 or not discards:
                return knocks[best]
            if left <= self.knocks_at and self.rng.random() >= self.misses_knock:
                return knocks[best]
        melded = melded_cards(hand)
        loose = [c for c in discards if not melded >> c & 1] or discards
        if self.rng.random() < self.careless:
            return Action.discard(self.rng.choice(loose))
        return Action.discard(self._pick(loose, {c: (-CARD_VALUES[c],) for c in loose}))


__all__ = [
    "EasyPlayer", "GreedyPlayer", "RandomPlayer", "SimplePlayer", "joins_meld", "melded_cards", "pairs_with",
    "simple_discard_choices",
]
