"""No observation of the environments depends on what the seat cannot see, and the information
state remembers everything the seat has seen."""

from __future__ import annotations

import random

import numpy as np

from ginrummy.envs.encoding import (
    EVENT_SIZE,
    OBSERVATION_SLICES,
    InfoStateEncoder,
    action_mask,
    encode_info_state,
    encode_observation,
    event_rows,
)
from ginrummy.errors import IllegalActionError
from ginrummy.hand import Hand, new_hand
from ginrummy.observation import observe
from ginrummy.players import get_player
from ginrummy.rules import Rules

MAX_MOVES = 300
#: The observation's card pieces (52 numbers each) come first: hand .. defender_melds.
CARD_PIECES = OBSERVATION_SLICES["defender_melds"].stop // 52


def _seen(h: Hand, seat: int) -> int:
    """Every card whose place ``seat`` has learnt so far: its view's ``seen`` and the face-up
    cards of its events (a card once seen stays revealed)."""
    v = observe(h, seat)
    m = v.seen
    for e in v.events:
        if e.card >= 0:
            m |= 1 << e.card
        m |= e.meld
    return m


def _everything(h: Hand, seat: int, enc: InfoStateEncoder) -> tuple[np.ndarray, ...]:
    view = observe(h, seat, (3, 5))
    return encode_observation(view), action_mask(view), enc.encode(view)


def _played(rules: Rules, deck: list[int], dealer: int, seed: int) -> list[int]:
    """The actions of a hand played from ``deck`` by two computer players."""
    h = new_hand(rules, dealer, deck=deck)
    players = [get_player("simple", seed=seed), get_player("random", seed=seed + 1)]
    out = []
    while not h.is_over:
        a = players[h.current].decide(observe(h, h.current))
        out.append(int(a))
        h.apply(a)
    return out


def _swap_hidden(deck: list[int], dealer: int, seat: int, rng: random.Random) -> tuple[list[int], int, int]:
    """``deck`` with one of the opponent's dealt cards and one stock card swapped."""
    opp_slots = [i for i in range(20) if (i % 2 == 0) == (1 - seat == 1 - dealer)]
    i = rng.choice(opp_slots)
    j = rng.randrange(21, 52)
    other = list(deck)
    other[i], other[j] = other[j], other[i]
    return other, deck[i], deck[j]


def test_deals_differing_only_in_hidden_cards_look_the_same_until_one_is_revealed() -> None:
    rng = random.Random(20240)
    compared = reveals = differed_at_reveal = 0
    for n in range(100):
        rules = Rules.preset(("classic", "eaai", "online")[n % 3])
        deck = list(range(52))
        rng.shuffle(deck)
        dealer, seat = n % 2, (n // 2) % 2
        actions = _played(rules, deck, dealer, seed=n)
        other, x, y = _swap_hidden(deck, dealer, seat, rng)
        a, b = new_hand(rules, dealer, deck=deck), new_hand(rules, dealer, deck=other)
        ea, eb = InfoStateEncoder(MAX_MOVES), InfoStateEncoder(MAX_MOVES)
        for action in actions:
            pair = 1 << x | 1 << y
            if (_seen(a, seat) | _seen(b, seat)) & pair:
                # Revealed (drawn, discarded, laid out): from here the deals may look different.
                oa, ob = _everything(a, seat, ea), _everything(b, seat, eb)
                reveals += 1
                differed_at_reveal += any(not np.array_equal(p, q) for p, q in zip(oa, ob, strict=True))
                break
            for p, q in zip(_everything(a, seat, ea), _everything(b, seat, eb), strict=True):
                np.testing.assert_array_equal(p, q)
            compared += 1
            a.apply(action)
            try:
                b.apply(action)
            except IllegalActionError:
                break  # a knock the other deal's hidden cards do not allow: not the same game any more
    assert compared > 2000
    # The comparison does see the difference once there is one (the seat drew the swapped card, or
    # the opponent's hand was laid out); it may also vanish (the opponent drew the other card).
    assert differed_at_reveal >= 15 and reveals >= differed_at_reveal


def test_the_observation_never_holds_the_opponents_hidden_cards() -> None:
    rng = random.Random(5)
    for n in range(40):
        h = new_hand(Rules(), n % 2, seed=n)
        while not h.is_over:
            for seat in (0, 1):
                view = observe(h, seat)
                obs = encode_observation(view)
                hidden = h.hands[1 - seat] & ~view.opponent_known
                cards = [c for c in range(52) if hidden >> c & 1]
                # A hidden card of the opponent's appears in no card piece of this seat's observation
                # except where the seat saw it face up earlier (taken, discarded, declined).
                public = set(view.opponent_taken) | set(view.opponent_discards) | set(view.opponent_declined)
                card_pieces = obs[:CARD_PIECES * 52].reshape(CARD_PIECES, 52)
                for c in cards:
                    if c not in public:
                        assert not card_pieces[:, c].any(), (n, c)
            h.apply(rng.choice(h.legal_actions()))


def test_the_info_state_encoder_step_by_step_equals_a_fresh_encoding() -> None:
    rng = random.Random(8)
    enc = [InfoStateEncoder(MAX_MOVES), InfoStateEncoder(MAX_MOVES)]
    for n in range(6):
        h = new_hand(Rules.preset("eaai"), n % 2, seed=n)
        while True:
            for seat in (0, 1):
                view = observe(h, seat)
                np.testing.assert_array_equal(enc[seat].encode(view), encode_info_state(view, MAX_MOVES))
            if h.is_over:
                break
            h.apply(rng.choice(h.legal_actions()))


def test_the_info_state_rows_are_the_seats_events_and_hide_the_opponents_draws() -> None:
    h = new_hand(Rules(), dealer=1, deck=list(range(52)))
    for a in ("pass", "pass", "stock", "Ks", "stock"):
        h.apply(a)
    # Seat 1 drew from the stock last: seat 0 sees a draw without a card, seat 1 sees its card.
    rows0 = event_rows(encode_info_state(observe(h, 0), MAX_MOVES), MAX_MOVES)
    rows1 = event_rows(encode_info_state(observe(h, 1), MAX_MOVES), MAX_MOVES)
    assert rows0.shape == (MAX_MOVES, EVENT_SIZE)
    assert rows0[:5, :2].tolist() == [[1, 0], [0, 1], [1, 0], [1, 0], [0, 1]]
    assert rows1[:5, :2].tolist() == [[0, 1], [1, 0], [0, 1], [0, 1], [1, 0]]
    assert not rows0[5:].any() and not rows1[5:].any()
    cards = slice(11, 63)
    assert rows0[4, cards].sum() == 0 and rows1[4, cards].sum() == 1
    assert int(np.flatnonzero(rows1[4, cards])[0]) == h.history[-1].drawn
    assert int(np.flatnonzero(rows0[3, cards])[0]) == 12  # the Ks discarded, face up to both


def test_the_info_state_gives_one_tensor_per_history_the_seat_saw() -> None:
    """Over many plays of one deal, each information state belongs to one history of the seat's."""
    deck = list(range(52))
    random.Random(1).shuffle(deck)
    rng = random.Random(2)
    histories: dict[bytes, tuple[str, ...]] = {}
    for _ in range(150):
        h = new_hand(Rules(), dealer=1, deck=deck)
        for _step in range(rng.randrange(4, 30)):
            if h.is_over:
                break
            h.apply(rng.choice(h.legal_actions()))
        view = observe(h, 0)
        info = encode_info_state(view, MAX_MOVES).tobytes()
        seen = (str(view.hand), *(f"{e.seat}:{e.text()}" for e in view.events))
        assert histories.setdefault(info, seen) == seen
    assert len(histories) > 100


def test_the_info_state_remembers_what_the_observation_forgets() -> None:
    """Seat 0 drew the 9h and threw it away, or (another deal) drew the As and threw away the 9h
    it was dealt: the same present, two pasts."""
    deck = list(range(52))
    other = list(deck)
    other[0], other[21] = other[21], other[0]  # seat 0's As dealt <-> the top stock card 9h
    one, two = new_hand(Rules(), dealer=1, deck=deck), new_hand(Rules(), dealer=1, deck=other)
    for h in (one, two):
        for a in ("pass", "pass", "stock", "9h"):
            h.apply(a)
    v1, v2 = observe(one, 0), observe(two, 0)
    np.testing.assert_array_equal(encode_observation(v1), encode_observation(v2))
    assert not np.array_equal(encode_info_state(v1, MAX_MOVES), encode_info_state(v2, MAX_MOVES))
