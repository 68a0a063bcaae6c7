"""What an environment shows a seat: named pieces of its :class:`~ginrummy.observation.SeatView`.

Every number here is read from the seat's view (``observe(hand, seat)``), which cannot hold the
opponent's hidden cards, the stock or a face-down knock discard, so no observation can leak them:
the hiding is done once, in :mod:`ginrummy.observation`. Card pieces have 52 entries, one per card
``suit * 13 + rank`` (suits s h d c, ace low), 1.0 where the card is in the piece. Values are
plain counts and points (not scaled); every piece is float32.

The observation (``OBSERVATION_SIZE`` = 747 numbers), in this order:

=====================  =====  ====================================================================
piece                  size   what
=====================  =====  ====================================================================
``hand``               52     the seat's own cards
``upcard``             52     the hand's upcard, dealt face up (none without the upcard rule)
``pile``               52     the discard pile in order: each card's place from the top (1 = the
                              top card, 2 the one below, ...), 0 for a card not on the pile
``opponent_known``     52     the opponent's cards this seat knows it holds (taken face up from
                              the pile, or its whole hand once laid out after a knock)
``opponent_taken``     52     every card the opponent took from the pile this hand (held or not)
``opponent_discards``  52     every card the opponent threw away face up this hand
``opponent_declined``  52     face-up cards the opponent passed over (an upcard passed, a top
                              discard left for the stock)
``taken``              52     the card this seat just took from the pile (it may not be discarded
                              this turn)
``knock_discard``      52     this seat's own face-down knock discard
``knocker_melds``      208    after a knock: the knocker's melds, 52 per meld number 0..3 (the
                              numbers a layoff names), with the cards laid off on them
``defender_melds``     52     the defender's own melds after a knock
``phase``              9      one-hot, in :class:`~ginrummy.events.Phase` order: deal, offer, draw,
                              discard, last_chance, layout, defender_layout, layoff, over
``my_turn``            1      1 when this seat acts now
``dealer``             1      1 when this seat dealt the hand
``knocked``            2      who knocked: [this seat, the opponent]
``must_knock``         1      1 when this seat took the discard under a rule that makes it knock
``stock``              1      cards left in the stock
``opponent_size``      1      cards in the opponent's hand
``knock_limit``        1      the most deadwood a knock may keep in this hand (Oklahoma: the upcard)
``scores``             2      game scores toward the target: [this seat, the opponent] (0 in
                              one-hand episodes)
=====================  =====  ====================================================================

The perfect-recall information state (``info_state_size(max_moves)`` numbers) is the observation
followed by one row of 67 numbers per step of the hand the seat has seen, oldest first, and rows
of zeros after the last step. With the seat's current hand the rows determine everything it has
seen (its dealt cards, its draws, every face-up card), so two histories the seat can tell apart
never give the same tensor. A row:

=========  ====  ====================================================================================
part       size  what
=========  ====  ====================================================================================
``mine``   1     1 when this seat took the step
``theirs`` 1     1 when the opponent took it (both 0: no step, padding)
``kind``   9     one-hot: discard, stock, pile, pass, knock, big gin, done, meld, layoff
``cards``  52    the step's cards as the seat saw them: the card discarded, drawn (its own draws
                 only), taken from the pile, knocked with (its own knock only) or laid off; every
                 card of a meld laid; none for pass, done, big gin, the opponent's stock draw and
                 the opponent's face-down knock discard
``target`` 4     one-hot: the meld number a layoff goes on
=========  ====  ====================================================================================

Actions are the engine's integers (``ginrummy.actions``, ``NUM_ACTIONS`` = 646): a card 0..51
discards it, 52 stock, 53 pile, 54 pass, 55 + c knocks with c face down, 107 big gin, 108 done,
109 + i lays meld number i of ``melds.ALL_MELDS``, 438 + 4 * c + t lays card c off on meld t.
The action mask has 1 exactly at ``Hand.legal_actions()`` (the view's ``legal``), 0 elsewhere.

>>> from ginrummy.hand import new_hand
>>> from ginrummy.rules import Rules
>>> from ginrummy.observation import observe
>>> view = observe(new_hand(Rules(), dealer=1, deck=list(range(52))), 0)
>>> obs = encode_observation(view)
>>> p = pieces(obs)
>>> int(p["hand"].sum()), float(p["pile"][20]), float(p["stock"][0]), [int(a) for a in legal_of(action_mask(view))]
(10, 1.0, 31.0, [53, 54])
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import Final

import numpy as np
from numpy.typing import NDArray

from ..actions import MAX_LAYOFF_TARGETS, NUM_ACTIONS, Kind
from ..events import Event, Phase
from ..observation import SeatView

F32 = NDArray[np.float32]
I8 = NDArray[np.int8]

_PHASES: Final = tuple(Phase)
_PHASE_INDEX: Final = {p: i for i, p in enumerate(_PHASES)}

#: (name, size) of each piece of the observation, in order.
OBSERVATION_PIECES: Final[tuple[tuple[str, int], ...]] = (
    ("hand", 52),
    ("upcard", 52),
    ("pile", 52),
    ("opponent_known", 52),
    ("opponent_taken", 52),
    ("opponent_discards", 52),
    ("opponent_declined", 52),
    ("taken", 52),
    ("knock_discard", 52),
    ("knocker_melds", 52 * MAX_LAYOFF_TARGETS),
    ("defender_melds", 52),
    ("phase", len(_PHASES)),
    ("my_turn", 1),
    ("dealer", 1),
    ("knocked", 2),
    ("must_knock", 1),
    ("stock", 1),
    ("opponent_size", 1),
    ("knock_limit", 1),
    ("scores", 2),
)


def _offsets(pieces: tuple[tuple[str, int], ...]) -> dict[str, slice]:
    out: dict[str, slice] = {}
    i = 0
    for name, size in pieces:
        out[name] = slice(i, i + size)
        i += size
    return out


#: Where each piece lies in the flat observation.
OBSERVATION_SLICES: Final = _offsets(OBSERVATION_PIECES)
OBSERVATION_SIZE: Final = sum(size for _, size in OBSERVATION_PIECES)

#: (name, size) of each part of one step row of the information state.
EVENT_PARTS: Final[tuple[tuple[str, int], ...]] = (
    ("mine", 1),
    ("theirs", 1),
    ("kind", len(Kind)),
    ("cards", 52),
    ("target", MAX_LAYOFF_TARGETS),
)
EVENT_SLICES: Final = _offsets(EVENT_PARTS)
EVENT_SIZE: Final = sum(size for _, size in EVENT_PARTS)

#: Upper bounds of each observation number (lower bounds are all 0), for the spaces.
_HIGH: Final = {
    "pile": 52.0,
    "stock": 52.0,
    "opponent_size": 52.0,
    "knock_limit": 98.0,
    # Scores toward the target: at most the target plus the last hand's points (and a box count
    # may make a Hollywood column larger); a generous bound, never reached in play.
    "scores": 100_000.0,
}

# Card pieces filled from one array of masks: hand and upcard, then (after the pile) every piece
# from opponent_known to defender_melds, which lie one after the other.
_DM_START: Final = OBSERVATION_SLICES["defender_melds"].start
_PILE_START: Final = OBSERVATION_SLICES["pile"].start
_PHASE_START: Final = OBSERVATION_SLICES["phase"].start
_TAIL_START: Final = OBSERVATION_SLICES["my_turn"].start


def observation_high() -> F32:
    """The upper bound of every observation number (for a ``Box`` space)."""
    high = np.ones(OBSERVATION_SIZE, dtype=np.float32)
    for name, value in _HIGH.items():
        high[OBSERVATION_SLICES[name]] = value
    return high


def info_state_size(max_moves: int) -> int:
    """Numbers in the information state of a hand of at most ``max_moves`` steps."""
    return OBSERVATION_SIZE + max_moves * EVENT_SIZE


def info_state_high(max_moves: int) -> F32:
    high = np.ones(info_state_size(max_moves), dtype=np.float32)
    high[:OBSERVATION_SIZE] = observation_high()
    return high


def _mask_of(cards: tuple[int, ...]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def _card_bits(view: SeatView) -> bytes:
    """The 14 card pieces of a view (the pile's place left empty) as 728 bits, little-endian:
    one Python integer of 14 masks of 52 bits, so numpy unpacks them in one call."""
    km = view.knocker_melds
    if km:
        laid = view.laid_on
        km = tuple(m | laid[t] if t < len(laid) else m for t, m in enumerate(km))
    dm = 0
    for m in view.defender_melds:
        dm |= m
    kd = view.knock_discard
    up = view.upcard
    taken = view.taken
    x = (
        view.hand
        | (0 if up is None else 1 << (52 + up))
        | view.opponent_known << 156
        | _mask_of(view.opponent_taken) << 208
        | _mask_of(view.opponent_discards) << 260
        | _mask_of(view.opponent_declined) << 312
        | (0 if taken is None else 1 << (364 + taken))
        | (0 if kd is None else 1 << (416 + kd))
        | dm << 676
    )
    for t, m in enumerate(km):
        x |= m << (468 + 52 * t)
    return x.to_bytes(91, "little")


def _tail(view: SeatView) -> tuple[float | bool | int, ...]:
    seat = view.seat
    knocker = view.knocker
    return (
        view.current == seat,
        view.dealer == seat,
        knocker == seat,
        knocker is not None and knocker != seat,
        view.must_knock,
        view.stock_size,
        view.opponent_size,
        view.knock_limit,
        view.scores[seat],
        view.scores[1 - seat],
    )


_CARD_SIZE: Final = _DM_START + 52
#: The phase piece of each phase, as a list (the phase and the tail are written in one go).
_PHASE_ROWS: Final = tuple(tuple(float(i == j) for j in range(len(_PHASES))) for i in range(len(_PHASES)))


def encode_observations(views: Sequence[SeatView], out: F32 | None = None) -> F32:
    """The observations of many views at once, shape (len(views), OBSERVATION_SIZE).

    The numpy work is done once for the whole batch (one bit unpacking for every card piece of
    every view, one scatter for the piles): per view only the Python reading of its fields is
    left. Row ``i`` equals ``encode_observation(views[i])``.
    """
    n = len(views)
    o = np.zeros((n, OBSERVATION_SIZE), dtype=np.float32) if out is None else out
    if out is not None:
        o.fill(0.0)
    if not n:
        return o
    packed: list[bytes] = []
    tails = []
    cols = []
    rows: list[int] = []
    cards: list[int] = []
    depths: list[int] = []
    for i, v in enumerate(views):
        packed.append(_card_bits(v))
        tails.append(_tail(v))
        cols.append(_PHASE_START + _PHASE_INDEX[v.phase])
        pile = v.pile
        if pile:
            k = len(pile)
            rows += [i] * k
            cards += pile  # bottom first: the bottom card's place from the top is k
            depths += range(k, 0, -1)
    bits = np.unpackbits(np.frombuffer(b"".join(packed), dtype=np.uint8), bitorder="little")
    o[:, :_CARD_SIZE] = bits.reshape(n, _CARD_SIZE)
    if rows:
        o[rows, np.array(cards) + _PILE_START] = depths
    o[np.arange(n), cols] = 1.0
    o[:, _TAIL_START : _TAIL_START + 10] = tails
    return o


def encode_observation(view: SeatView, out: F32 | None = None) -> F32:
    """The seat's observation as a flat float32 array (layout in the module docstring).

    The same numbers as :func:`encode_observations` of one view, with scalar writes where a batch
    of one would pay numpy's per-call cost for nothing.
    """
    o = np.empty(OBSERVATION_SIZE, dtype=np.float32) if out is None else out
    o[:_CARD_SIZE] = np.unpackbits(np.frombuffer(_card_bits(view), dtype=np.uint8), bitorder="little")
    pile = view.pile
    if pile:
        column = bytearray(52)
        for depth, c in enumerate(reversed(pile), 1):
            column[c] = depth
        o[_PILE_START : _PILE_START + 52] = np.frombuffer(column, dtype=np.uint8)
    o[_PHASE_START:] = [*_PHASE_ROWS[_PHASE_INDEX[view.phase]], *_tail(view)]
    return o


_pack_tail: Final = struct.Struct(f"<{OBSERVATION_SIZE - _PHASE_START}f").pack_into
_TAIL_BYTE: Final = 4 * _PHASE_START
#: Where each card piece of ``ObservationEncoder`` starts (the 14 card pieces, the pile apart).
_CARD_OFFSETS: Final = (0, 52, *range(156, _DM_START + 1, 52))


class ObservationEncoder:
    """One seat's observation kept from step to step: each call writes only the numbers that
    changed since the last (a step changes a few cards, the pile, a few counts), so an
    environment pays for the step's news, not for 747 numbers. The array returned is a fresh
    copy, equal to :func:`encode_observation` of the same view (the tests check it on every step
    of many hands). Works across hands, and for views of any seat.
    """

    __slots__ = ("_buf", "_o", "_cards", "_pile", "_cache")

    def __init__(self) -> None:
        # The numbers live in a bytearray written through a float view (a write costs a tenth of
        # a numpy item assignment); each call hands out a numpy copy of it.
        self._buf = bytearray(4 * OBSERVATION_SIZE)
        self._o = memoryview(self._buf).cast("f")
        self._cards = [0] * len(_CARD_OFFSETS)
        self._pile: tuple[int, ...] = ()
        #: The opponent's history tuples and their masks: a view's are the engine's own, replaced
        #: when they grow, so the same object means the same mask.
        self._cache: list[tuple[int, ...] | None] = [None, None, None]

    def _masks(self, view: SeatView) -> list[int]:
        cache = self._cache
        ot, od, ol = view.opponent_taken, view.opponent_discards, view.opponent_declined
        old = self._cards
        mt = old[3] if ot is cache[0] else _mask_of(ot)
        md = old[4] if od is cache[1] else _mask_of(od)
        ml = old[5] if ol is cache[2] else _mask_of(ol)
        cache[0], cache[1], cache[2] = ot, od, ol
        up, taken = view.upcard, view.taken
        out = [view.hand, 0 if up is None else 1 << up, view.opponent_known, mt, md, ml,
               0 if taken is None else 1 << taken, 0, 0, 0, 0, 0, 0]
        if view.knocker is not None:
            kd = view.knock_discard
            if kd is not None:
                out[7] = 1 << kd
            laid = view.laid_on
            for t, m in enumerate(view.knocker_melds):
                out[8 + t] = m | laid[t] if t < len(laid) else m
            dm = 0
            for m in view.defender_melds:
                dm |= m
            out[12] = dm
        return out

    def observation(self, view: SeatView) -> F32:
        o = self._o
        new = self._masks(view)
        old = self._cards
        for k, x in enumerate(new):
            d = x ^ old[k]
            if d:
                base = _CARD_OFFSETS[k]
                while d:
                    low = d & -d
                    o[base + low.bit_length() - 1] = 1.0 if x & low else 0.0
                    d ^= low
        self._cards = new
        pile = view.pile
        old_pile = self._pile
        if pile != old_pile:
            # Every depth moves when a card is thrown or taken; cards leave only on a take (the
            # old top) or with a new hand.
            if len(pile) < len(old_pile) or (pile and old_pile and pile[0] != old_pile[0]):
                for c in old_pile:
                    o[_PILE_START + c] = 0.0
            self._pile = pile
            depth = len(pile)
            for c in pile:
                o[_PILE_START + c] = depth
                depth -= 1
        seat = view.seat
        knocker = view.knocker
        scores = view.scores
        _pack_tail(self._buf, _TAIL_BYTE, *_PHASE_ROWS[_PHASE_INDEX[view.phase]],
                   view.current == seat, view.dealer == seat, knocker == seat,
                   knocker is not None and knocker != seat, view.must_knock, view.stock_size,
                   view.opponent_size, view.knock_limit, scores[seat], scores[1 - seat])
        return np.frombuffer(bytearray(self._buf), dtype=np.float32)


def pieces(obs: F32) -> dict[str, F32]:
    """The named pieces of a flat observation (or of an information state's first part), as views."""
    out: dict[str, F32] = {name: obs[sl] for name, sl in OBSERVATION_SLICES.items()}
    out["knocker_melds"] = out["knocker_melds"].reshape(MAX_LAYOFF_TARGETS, 52)
    return out


def action_masks(views: Sequence[SeatView]) -> I8:
    """The action masks of many views at once, shape (len(views), NUM_ACTIONS)."""
    m = np.zeros((len(views), NUM_ACTIONS), dtype=np.int8)
    rows: list[int] = []
    cols: list[int] = []
    for i, v in enumerate(views):
        legal = v.legal
        if legal:
            rows += [i] * len(legal)
            cols += [a.code for a in legal]
    if rows:
        m[rows, cols] = 1
    return m


def action_mask(view: SeatView, out: I8 | None = None) -> I8:
    """1 at each legal action's integer (``view.legal``, from ``Hand.legal_actions()``), else 0."""
    flags = bytearray(NUM_ACTIONS)
    for a in view.legal:
        flags[a.code] = 1
    if out is None:
        return np.frombuffer(flags, dtype=np.int8)
    out[:] = np.frombuffer(flags, dtype=np.int8)
    return out


def legal_of(mask: I8) -> list[int]:
    """The action integers a mask allows, in order."""
    return [int(i) for i in np.flatnonzero(mask)]


_KIND_START: Final = EVENT_SLICES["kind"].start
_CARDS_START: Final = EVENT_SLICES["cards"].start
_TARGET_START: Final = EVENT_SLICES["target"].start
_K_MELD: Final = Kind.MELD
_K_LAYOFF: Final = Kind.LAYOFF


def _event_row(row: F32, event: Event, seat: int) -> None:
    row[0 if event.seat == seat else 1] = 1.0
    k = event.kind
    row[_KIND_START + int(k)] = 1.0
    if k is _K_MELD:
        m = event.meld
        while m:
            low = m & -m
            row[_CARDS_START + low.bit_length() - 1] = 1.0
            m ^= low
    elif event.card >= 0:
        row[_CARDS_START + event.card] = 1.0
    if k is _K_LAYOFF:
        row[_TARGET_START + event.target] = 1.0


class TooLong(Exception):
    """A hand has more steps than the information state holds (``max_moves``)."""


class InfoStateEncoder:
    """One seat's information-state tensor, kept row by row as its view's events grow.

    ``encode(view)`` gives the same array as encoding every event afresh, at the cost of the new
    events only (a view's events only ever grow within a hand; a new hand starts over).
    """

    def __init__(self, max_moves: int) -> None:
        self.max_moves = max_moves
        self.size = info_state_size(max_moves)
        self._events = np.zeros((max_moves, EVENT_SIZE), dtype=np.float32)
        self._done = 0
        self._first: Event | None = None

    def reset(self) -> None:
        self._events.fill(0.0)
        self._done = 0
        self._first = None

    def encode(self, view: SeatView, observation: F32 | None = None) -> F32:
        """A new array: ``encode_observation(view)`` (or ``observation``, that view's observation
        already made) followed by the step rows."""
        events = view.events
        if self._done and (len(events) < self._done or events[0] is not self._first):
            self.reset()
        n = len(events)
        if n > self.max_moves:
            raise TooLong(f"the hand has {n} steps, more than max_moves = {self.max_moves}")
        rows = self._events
        for i in range(self._done, n):
            _event_row(rows[i], events[i], view.seat)
        self._done = n
        self._first = events[0] if events else None
        out = np.empty(self.size, dtype=np.float32)
        if observation is None:
            encode_observation(view, out[:OBSERVATION_SIZE])
        else:
            out[:OBSERVATION_SIZE] = observation
        out[OBSERVATION_SIZE:] = rows.ravel()
        return out


def encode_info_state(view: SeatView, max_moves: int) -> F32:
    """The seat's perfect-recall information state (layout in the module docstring)."""
    return InfoStateEncoder(max_moves).encode(view)


def event_rows(info_state: F32, max_moves: int) -> F32:
    """The step rows of an information state, shaped (max_moves, EVENT_SIZE)."""
    return info_state[OBSERVATION_SIZE:].reshape(max_moves, EVENT_SIZE)
