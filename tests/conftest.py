"""Shared helpers for the engine tests: exact decks, hands from card text, random play.

Seat convention in these helpers: the dealer is seat 1 unless a test says otherwise, so the
non-dealer (who is dealt first and acts first) is seat 0.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from ginrummy.actions import Action, Kind
from ginrummy.cards import Card, mask_of, parse_cards
from ginrummy.events import Phase
from ginrummy.hand import Hand, new_hand
from ginrummy.melds import deadwood
from ginrummy.observation import Event, SeatView
from ginrummy.players.base import Player
from ginrummy.rules import Rules

CardsLike = str | Iterable[str] | Sequence[Card]


def cards(text: CardsLike) -> list[Card]:
    """Cards from text (``'As 2s 3s'``) or already as ints."""
    if isinstance(text, str):
        return parse_cards(text)
    items = list(text)
    if items and isinstance(items[0], int):
        return [int(c) for c in items]  # type: ignore[arg-type]
    return parse_cards([str(c) for c in items])


def mask(text: CardsLike) -> int:
    return mask_of(cards(text))


def deck_for(
    nondealer_cards: CardsLike,
    dealer_cards: CardsLike,
    upcard: str | Card | None = None,
    stock: CardsLike = (),
) -> list[Card]:
    """An exact deck order per hand.py's convention.

    Cards are dealt alternately, the non-dealer first: ``deck[0], deck[2], ...`` to the
    non-dealer, ``deck[1], deck[3], ...`` to the dealer. ``deck[20]`` is the upcard, and
    ``deck[21:]`` is the stock from the top, so ``stock[0]`` is drawn first. Cards not named
    fill the bottom of the stock in card order. With no upcard (the variant), give the
    non-dealer 11 cards: the 11th becomes ``deck[20]``.
    """
    nd = cards(nondealer_cards)
    d = cards(dealer_cards)
    st = cards(stock)
    if upcard is None:
        if len(nd) != 11:
            raise ValueError("without an upcard the non-dealer needs 11 cards")
        up = nd[10]
        nd = nd[:10]
    else:
        up = cards([upcard])[0] if isinstance(upcard, str) else upcard
    if len(nd) != 10 or len(d) != 10:
        raise ValueError(f"need 10 cards each, got {len(nd)} and {len(d)}")
    named = [*nd, *d, up, *st]
    if len(set(named)) != len(named):
        raise ValueError("a card is named twice")
    deck: list[Card] = []
    for a, b in zip(nd, d, strict=True):
        deck += [a, b]
    deck.append(up)
    deck += st
    deck += [c for c in range(52) if c not in set(named)]
    assert sorted(deck) == list(range(52))
    return deck


def hand_for(
    nondealer_cards: CardsLike,
    dealer_cards: CardsLike,
    upcard: str | Card | None = None,
    stock: CardsLike = (),
    rules: Rules | None = None,
    dealer: int = 1,
) -> Hand:
    """A dealt hand with exactly these cards; the non-dealer is seat ``1 - dealer``."""
    r = rules or Rules()
    if upcard is None and r.upcard:
        raise ValueError("these rules turn an upcard: give one")
    return new_hand(r, dealer, deck=deck_for(nondealer_cards, dealer_cards, upcard, stock))


def play(h: Hand, *actions: str | int | Action) -> Hand:
    """Apply actions in order (text, int or typed); return the hand for chaining."""
    for a in actions:
        h.apply(a)
    return h


def finish_auto(h: Hand) -> Hand:
    """After a knock: the automatic knocker layout and the automatic best defence."""
    if h.phase is Phase.LAYOUT:
        play(h, *h.auto_layout())
    if h.phase is Phase.DEFENDER_LAYOUT:
        play(h, *h.auto_defense())
    return h


def random_play(h: Hand, rng: random.Random, max_steps: int = 5000) -> list[int]:
    """Play uniformly random legal actions to the end; return the actions as ints."""
    done: list[int] = []
    while not h.is_over:
        legal = h.legal_actions()
        assert legal, f"no legal action in phase {h.phase}"
        a = rng.choice(legal)
        h.apply(a)
        done.append(int(a))
        assert len(done) < max_steps, "the hand did not end"
    return done


def state_key(h: Hand) -> tuple[object, ...]:
    """Everything that makes up a hand's state, for 'nothing changed' checks."""
    return tuple(
        tuple(v) if isinstance(v, list) else (tuple(sorted(v.items())) if isinstance(v, dict) else v)
        for v in (getattr(h, name) for name in h.__dataclass_fields__)
    )


def lively_step(h: Hand, rng: random.Random) -> Action:
    """One random but purposeful action: knocks often and mostly keeps deadwood low, so that
    random games reach the knock, layout and layoff phases; any legal action otherwise."""
    legal = h.legal_actions()
    if h.phase is Phase.DISCARD:
        knocks = [a for a in legal if a.kind in (Kind.KNOCK, Kind.BIG_GIN)]
        if knocks and rng.random() < 0.8:
            return rng.choice(knocks)
        discards = [a for a in legal if a.kind is Kind.DISCARD]
        if discards and rng.random() < 0.8:
            hand = h.hands[h.current]
            return min(discards, key=lambda a: (deadwood(hand & ~(1 << a.card)), rng.random()))
    return rng.choice(legal)


def lively_play(h: Hand, rng: random.Random, max_steps: int = 5000) -> list[int]:
    """Play ``lively_step`` to the end; return the actions as ints."""
    done: list[int] = []
    while not h.is_over:
        a = lively_step(h, rng)
        h.apply(a)
        done.append(int(a))
        assert len(done) < max_steps, "the hand did not end"
    return done


class Referee(Player):
    """Wraps a player and checks each of its decisions against the view it was given."""

    def __init__(self, inner: Player) -> None:
        super().__init__(0)
        self.inner = inner
        self.decisions = 0

    def new_hand(self, seat: int) -> None:
        self.inner.new_hand(seat)

    def decide(self, view: SeatView) -> Action:
        a = self.inner.decide(view)
        assert a in view.legal, (view.phase, a, view.legal)
        if view.taken is not None and a.kind in (Kind.DISCARD, Kind.KNOCK) and not view.rules.throw_back:
            assert a.card != view.taken, "threw back the card just taken from the discard pile"
        self.decisions += 1
        return a


def reference_history(h: Hand, seat: int) -> tuple[list[Event], list[int], list[int], list[int], int]:
    """What ``seat`` saw of the history, derived from scratch: its events, and the opponent's
    discards, pile takes, declined face-up cards and stock draws (the pile rebuilt step by step)."""
    opp = 1 - seat
    events: list[Event] = []
    pile: list[int] = [] if h.upcard is None else [h.upcard]
    discards: list[int] = []
    taken: list[int] = []
    declined: list[int] = []
    draws = 0
    for step in h.history:
        a = step.action
        k = a.kind
        if k is Kind.STOCK:
            events.append(Event(step.seat, k, step.drawn if step.seat == seat else -1))
            if step.seat == opp:
                draws += 1
                if pile:
                    declined.append(pile[-1])
        elif k is Kind.KNOCK:
            events.append(Event(step.seat, k, a.card if step.seat == seat else -1))
        elif k is Kind.PILE:
            card = pile.pop()
            events.append(Event(step.seat, k, card))
            if step.seat == opp:
                taken.append(card)
        else:
            events.append(Event(step.seat, k, a.card, a.meld, a.target))
            if k is Kind.DISCARD:
                pile.append(a.card)
                if step.seat == opp:
                    discards.append(a.card)
            elif k is Kind.PASS and step.seat == opp and pile:
                declined.append(pile[-1])
    return events, discards, taken, declined, draws


# -- the games store on both databases ---------------------------------------------------------

import pytest  # noqa: E402

#: The databases the storage and web tests run on (``store_target``): every one, never skipped.
BACKENDS = ("sqlite", "postgresql")


@pytest.fixture(scope="session")
def pg_server():  # type: ignore[no-untyped-def]
    """One real PostgreSQL server for the whole session (tests/pg_server.py); fails, never skips, when missing."""
    import pg_server as pg

    try:
        server = pg.start()
    except RuntimeError as e:
        pytest.fail(str(e), pytrace=False)
    yield server
    server.stop()


@pytest.fixture(params=BACKENDS)
def store_target(request, tmp_path):  # type: ignore[no-untyped-def]
    """What ``Store``/``create_app`` open: a SQLite file, or an empty schema of the session's PostgreSQL."""
    if request.param == "sqlite":
        return str(tmp_path / "games.sqlite3")
    return request.getfixturevalue("pg_server").fresh_url()


@pytest.fixture
def pg_db(pg_server):  # type: ignore[no-untyped-def]
    """An empty schema of the session's PostgreSQL server, by URL."""
    return pg_server.fresh_url()


@pytest.fixture
def pair(pg_db, tmp_path):  # type: ignore[no-untyped-def]
    """Two real app instances (``ginrummy serve``, computer delay 0) on one PostgreSQL database."""
    from instances import start_pair

    a, b = start_pair(pg_db, tmp_path, delay=0)
    yield a, b
    a.stop()
    b.stop()
