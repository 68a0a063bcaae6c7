"""``FastHandBatch``: many one-hand self-play episodes played by numpy, all hands at once.

:class:`~ginrummy.envs.vector.HandBatch` plays each hand with the Python engine; this batch
plays the same rules on arrays: hands as 52-bit masks (``int64``, one per seat and hand), the
stock and the discard pile as card arrays, the phase, the seat to act. A step applies one action
per hand with a few whole-array operations, then gives every hand's action mask and observation
(the layouts of :mod:`ginrummy.envs.encoding`) in one go: the deadwood a knock needs comes from
the batched tables of :mod:`ginrummy.batch`. What is rare is left to the engine's own functions,
hand by hand: after a knock, the layouts (:mod:`ginrummy.layout`'s default, as ``auto_layout``)
and the score (:func:`ginrummy.scoring.score_hand`).

The rules are the engine's, exactly (the tests play thousands of hands step by step against
``Hand`` and compare masks, observations and scores): the upcard offer, a taken card not thrown
back on the same turn, knocks within the hand's knock limit (Oklahoma's and straight gin's too),
the dead hand at ``dead_hand_stock`` and the ``repetition_limit`` rule. Rule sets with big gin,
last chance, throw-back or no upcard are refused (use ``HandBatch``). Each episode is one hand
with the engine's default layouts (``episode="hand"``, ``auto_layout=True``): the caller acts
in the offer, draw and discard phases only, and the hand ends at a knock, with the hand's points
as zero-sum rewards, or as a dead hand (0 to both). A new hand (a fresh shuffle, a random
dealer) replaces a finished one at once.

>>> b = FastHandBatch(4, seed=1)
>>> b.obs.shape, b.masks.shape
((4, 747), (4, 646))
>>> rewards, done = b.step(b.masks.argmax(axis=1))
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

from ..actions import NUM_ACTIONS
from ..batch import deadwood_after_discard_batch, deadwood_batch
from ..cards import FULL_DECK
from ..errors import IllegalActionError
from ..events import Phase
from ..layout import best_defense, knocker_choice, knocker_limit
from ..melds import deadwood
from ..rules import Rules
from ..scoring import score_hand
from .encoding import OBSERVATION_SIZE, OBSERVATION_SLICES
from .game import rules_of

I64 = NDArray[np.int64]

_OFFER, _DRAW, _DISCARD = 0, 1, 2
#: Each batch phase's column in the observation's phase piece.
_PHASE_COL: Final = np.array([list(Phase).index(p) for p in (Phase.OFFER, Phase.DRAW, Phase.DISCARD)])
_STOCK, _PILE, _PASS, _KNOCK = 52, 53, 54, 55
_BIT: Final = np.left_shift(np.int64(1), np.arange(64, dtype=np.int64))
_S = OBSERVATION_SLICES
_PILE0: Final = _S["pile"].start
_PHASE0: Final = _S["phase"].start
_T_DEALER, _T_STOCK, _T_OPP, _T_LIMIT = (_S[k].start for k in ("dealer", "stock", "opponent_size", "knock_limit"))
_T_MY_TURN = _S["my_turn"].start
_KNOWN0 = _S["opponent_known"].start
assert _S["upcard"].stop == _PILE0 and _S["taken"].stop == _KNOWN0 + 5 * 52  # the pieces the masks fill
#: Every action of the offer, the draw and the discard is below this (the knocks end at 106).
_PLAY_ACTIONS: Final = _KNOCK + 52


def _bits(masks: I64) -> NDArray[np.uint8]:
    """(..., 52) 0/1 of each mask's cards."""
    b = np.unpackbits(np.ascontiguousarray(masks, dtype="<i8").view(np.uint8).reshape(*masks.shape, 8),
                      axis=-1, bitorder="little")
    return b[..., :52]


def _popcount(masks: I64) -> I64:
    return np.bitwise_count(masks).astype(np.int64)


class FastHandBatch:
    """``n`` one-hand self-play episodes stepped together by numpy (see the module docstring).

    After construction and after each :meth:`step`: ``masks`` (n, 646) int8 and ``obs``
    (n, 747) float32 are those of the seat to act in each hand (``seats``), as
    :func:`~ginrummy.envs.encoding.action_mask` and ``encode_observation`` of its view would
    give; ``returns`` collects the rewards of finished hands.
    """

    def __init__(self, n: int, rules: Rules | str | dict[str, Any] | None = None, seed: int | None = None) -> None:
        if not isinstance(n, int) or n < 1:
            raise ValueError(f"n must be a whole number of at least 1, not {n!r}")
        r = rules_of(rules)
        for flag in ("big_gin", "last_chance", "throw_back"):
            if getattr(r, flag):
                raise ValueError(f"FastHandBatch does not play {flag}: use HandBatch for this rule set")
        if not r.upcard:
            raise ValueError("FastHandBatch plays the upcard deal only: use HandBatch for no upcard")
        self.rules = r
        self.n = n
        self._gen = np.random.default_rng(seed)
        self._limit_of = np.array([r.hand_knock_limit(c) for c in range(52)], dtype=np.int64)
        self.deck = np.zeros((n, 52), dtype=np.int64)
        self.hands = np.zeros((n, 2), dtype=np.int64)
        self.shown = np.zeros((n, 2), dtype=np.int64)  # cards each seat took from the pile
        self.thrown = np.zeros((n, 2), dtype=np.int64)  # cards each seat discarded face up
        self.declined = np.zeros((n, 2), dtype=np.int64)  # face-up cards each seat passed over
        self.pile = np.zeros((n, 52), dtype=np.int64)
        self.plen = np.zeros(n, dtype=np.int64)
        self.stock = np.zeros(n, dtype=np.int64)  # cards left; the top is deck[52 - stock]
        self.phase = np.zeros(n, dtype=np.int64)
        self.seats = np.zeros(n, dtype=np.int64)
        self.dealer = np.zeros(n, dtype=np.int64)
        self.upcard = np.zeros(n, dtype=np.int64)
        self.limit = np.zeros(n, dtype=np.int64)
        self.passes = np.zeros(n, dtype=np.int64)
        self.stock_only = np.zeros(n, dtype=np.bool_)
        self.taken = np.full(n, -1, dtype=np.int64)
        # Positions since the last stock draw (the repetition rule's; its key holds the stock
        # size, so older ones cannot repeat): both hands, the top discard, the seat to draw.
        self._rk = np.zeros((n, 16, 3), dtype=np.int64)
        self._rn = np.zeros(n, dtype=np.int64)
        self.returns: list[tuple[float, float]] = []
        self.episodes_done = 0
        self._rows = np.arange(n)
        self._deal(self._rows)
        self.masks = np.zeros((n, NUM_ACTIONS), dtype=np.int8)
        self.obs = np.zeros((n, OBSERVATION_SIZE), dtype=np.float32)
        self._refresh()

    # -- dealing --------------------------------------------------------------------------------

    def _deal(self, rows: I64) -> None:
        m = len(rows)
        if not m:
            return
        deck = np.argsort(self._gen.random((m, 52)), axis=1).astype(np.int64)
        dealer = self._gen.integers(0, 2, m)
        self.deck[rows] = deck
        first = np.bitwise_or.reduce(_BIT[deck[:, 0:20:2]], axis=1)  # the non-dealer's
        second = np.bitwise_or.reduce(_BIT[deck[:, 1:20:2]], axis=1)
        nd = 1 - dealer
        self.hands[rows, nd] = first
        self.hands[rows, dealer] = second
        for a in (self.shown, self.thrown, self.declined):
            a[rows] = 0
        self.pile[rows, 0] = deck[:, 20]
        self.plen[rows] = 1
        self.upcard[rows] = deck[:, 20]
        self.limit[rows] = self._limit_of[deck[:, 20]]
        self.stock[rows] = 31
        self.phase[rows] = _OFFER
        self.seats[rows] = nd
        self.dealer[rows] = dealer
        self.passes[rows] = 0
        self.stock_only[rows] = False
        self.taken[rows] = -1
        self._rn[rows] = 0

    # -- one step -------------------------------------------------------------------------------

    def step(self, actions: NDArray[np.int64] | list[int]) -> tuple[NDArray[np.float64], NDArray[np.bool_]]:
        """Play one action in every hand (for its seat to act): the rewards (n, 2) and which
        hands ended (each replaced by a new deal). An action not in ``masks`` raises
        :class:`IllegalActionError` and changes nothing."""
        a = np.asarray(actions, dtype=np.int64).reshape(self.n)
        rows = self._rows
        if ((a < 0) | (a >= NUM_ACTIONS)).any() or not self.masks[rows, np.clip(a, 0, NUM_ACTIONS - 1)].all():
            bad = int(np.flatnonzero((a < 0) | (a >= NUM_ACTIONS) | (self.masks[rows, np.clip(a, 0, NUM_ACTIONS - 1)] == 0))[0])
            raise IllegalActionError(f"hand {bad}: action {int(a[bad])} is not legal now (see masks[{bad}])",
                                     rule="illegal_action")
        rewards = np.zeros((self.n, 2), dtype=np.float64)
        done = np.zeros(self.n, dtype=np.bool_)
        seat = self.seats
        hands = self.hands

        # Passing the upcard (the offer phase).
        i = np.flatnonzero(a == _PASS)
        if len(i):
            s = seat[i]
            self.declined[i, s] |= _BIT[self.pile[i, self.plen[i] - 1]]
            self.passes[i] += 1
            first = self.passes[i] == 1
            j, k = i[first], i[~first]
            seat[j] = self.dealer[j]
            self.phase[k] = _DRAW
            seat[k] = 1 - self.dealer[k]
            self.stock_only[k] = True

        # Taking the top discard (the offer or the draw).
        i = np.flatnonzero(a == _PILE)
        if len(i):
            s = seat[i]
            self.plen[i] -= 1
            card = self.pile[i, self.plen[i]]
            hands[i, s] |= _BIT[card]
            self.shown[i, s] |= _BIT[card]
            self.taken[i] = card
            self.phase[i] = _DISCARD
            self.stock_only[i] = False

        # Drawing from the stock: a top discard left there is declined.
        i = np.flatnonzero(a == _STOCK)
        if len(i):
            s = seat[i]
            has_pile = self.plen[i] > 0
            j = i[has_pile]
            self.declined[j, seat[j]] |= _BIT[self.pile[j, self.plen[j] - 1]]
            card = self.deck[i, 52 - self.stock[i]]
            self.stock[i] -= 1
            hands[i, s] |= _BIT[card]
            self.taken[i] = -1
            self.phase[i] = _DISCARD
            self.stock_only[i] = False
            self._rn[i] = 0

        # Discarding face up: then a dead hand, a repeated position, or the other seat draws.
        i = np.flatnonzero(a < 52)
        if len(i):
            s = seat[i]
            bit = _BIT[a[i]]
            hands[i, s] &= ~bit
            self.thrown[i, s] |= bit
            self.pile[i, self.plen[i]] = a[i]
            self.plen[i] += 1
            self.taken[i] = -1
            dead = self.stock[i] <= self.rules.dead_hand_stock
            live = i[~dead]
            if len(live) and self.rules.repetition_limit:
                dead[~dead] = self._repeated(live)
            done[i[dead]] = True
            go = i[~dead]
            self.phase[go] = _DRAW
            seat[go] = 1 - seat[go]

        # Knocking: the layouts and the score, hand by hand, by the engine's own functions.
        i = np.flatnonzero((a >= _KNOCK) & (a < _KNOCK + 52))
        for h in i.tolist():
            knocker = int(seat[h])
            c = int(a[h]) - _KNOCK
            hands[h, knocker] &= ~(1 << c)
            rewards[h] = self._knock(h, knocker, c)
            done[h] = True

        finished = np.flatnonzero(done)
        if len(finished):
            self.returns += [(float(x), float(y)) for x, y in rewards[finished].tolist()]
            self.episodes_done += len(finished)
            self._deal(finished)
        self._refresh()
        return rewards, done

    def _repeated(self, i: I64) -> NDArray[np.bool_]:
        """Count the positions of hands ``i`` (just after a discard); True where one is now
        reached ``repetition_limit`` times (the hand ends dead, as in ``Hand``'s discard)."""
        key = np.stack([self.hands[i, 0], self.hands[i, 1],
                        self.pile[i, self.plen[i] - 1] | (1 - self.seats[i]) << 8], axis=1)
        n = self._rn[i]
        if n.max() >= self._rk.shape[1]:
            self._rk = np.concatenate([self._rk, np.zeros_like(self._rk)], axis=1)
        k = self._rk.shape[1]
        same = (self._rk[i] == key[:, None, :]).all(axis=2) & (np.arange(k) < n[:, None])
        self._rk[i, n] = key
        self._rn[i] = n + 1
        out: NDArray[np.bool_] = same.sum(axis=1) + 1 >= self.rules.repetition_limit
        return out

    def _knock(self, h: int, knocker: int, discard: int) -> tuple[float, float]:
        """The hand's rewards after ``knocker`` knocked with ``discard`` face down: the engine's
        default layouts (:func:`ginrummy.layout.layout_action`'s plans) and its score."""
        mine = int(self.hands[h, knocker])
        theirs = int(self.hands[h, 1 - knocker])
        pile = 0
        for c in self.pile[h, : self.plen[h]].tolist():
            pile |= 1 << c
        seen = mine | pile | 1 << discard | (int(self.shown[h, 1 - knocker]) & theirs)
        limit = int(self.limit[h])
        choice = knocker_choice(mine, knocker_limit(mine, limit), FULL_DECK & ~seen)
        assert choice is not None  # the mask offered this knock only within the limit
        k_dead, melds = choice
        # Gin: nothing is laid off, the defender's count is its own deadwood; else its best
        # melds and layoffs (the default layouts: ``layout.knocker_layout``, ``defender_plan``).
        d_dead = deadwood(theirs) if k_dead == 0 else best_defense(theirs, melds).deadwood
        result = score_hand(self.rules, knocker=knocker, knocker_deadwood=k_dead, defender_deadwood=d_dead,
                            upcard=int(self.upcard[h]), knock_limit=limit)
        out = [0.0, 0.0]
        if result.winner is not None:
            out[result.winner] = float(result.points)
            out[1 - result.winner] = -float(result.points)
        return out[0], out[1]

    def random_actions(self, gen: np.random.Generator) -> I64:
        """A uniformly random legal action for every hand (the rows of ``masks`` at once)."""
        w = gen.random((self.n, _PLAY_ACTIONS), dtype=np.float32) * self.masks[:, :_PLAY_ACTIONS]
        out: I64 = w.argmax(axis=1)
        return out

    # -- what the seats to act see ----------------------------------------------------------------

    def _refresh(self) -> None:
        rows = self._rows
        seat = self.seats
        opp = 1 - seat
        hand = self.hands[rows, seat]
        phase = self.phase
        m = self.masks
        m[:, :_PLAY_ACTIONS] = 0  # nothing past the knocks is ever legal here
        offer = phase == _OFFER
        draw = phase == _DRAW
        disc = phase == _DISCARD
        m[offer, _PILE] = 1
        m[offer, _PASS] = 1
        m[draw, _STOCK] = 1
        m[draw, _PILE] = (~self.stock_only[draw] & (self.plen[draw] > 0)).astype(np.int8)
        taken_bit = np.where(self.taken >= 0, _BIT[np.maximum(self.taken, 0)], 0)
        i = np.flatnonzero(disc)
        if len(i):
            free = hand[i] & ~taken_bit[i]
            fb = _bits(free)
            m[i, :52] = fb
            # Knocks: only where some discard gets within the limit, each card checked then.
            lim = self.limit[i]
            near = deadwood_after_discard_batch(hand[i]) <= lim
            j = np.flatnonzero(near)
            if len(j):
                hj = hand[i[j]]
                after = deadwood_batch(hj[:, None] & ~_BIT[:52][None, :])
                ok = (after <= lim[j][:, None]) & (fb[j] == 1)
                m[i[j], _KNOCK : _KNOCK + 52] = ok.astype(np.int8)
        # The observation: card pieces by bit unpacking, the pile by depth, the counts.
        o = self.obs  # pieces never written here (the knock's, the scores) stay 0
        o[:, _PILE0 : _PILE0 + 52] = 0.0
        o[:, _PHASE0 : _PHASE0 + 9] = 0.0
        opp_hand = self.hands[rows, opp]
        shown_opp = self.shown[rows, opp]
        masks = np.stack([hand, _BIT[self.upcard], shown_opp & opp_hand, shown_opp, self.thrown[rows, opp],
                          self.declined[rows, opp], taken_bit], axis=1)
        bits = _bits(masks)
        o[:, : _PILE0] = bits[:, :2].reshape(len(rows), 2 * 52)  # hand, upcard
        o[:, _KNOWN0 : _KNOWN0 + 5 * 52] = bits[:, 2:].reshape(len(rows), 5 * 52)  # known .. taken
        depth = self.plen[:, None] - np.arange(52)[None, :]
        r, j = np.nonzero(depth > 0)
        o[r, _PILE0 + self.pile[r, j]] = depth[r, j]
        o[rows, _PHASE0 + _PHASE_COL[phase]] = 1.0
        o[:, _T_MY_TURN] = 1.0
        o[:, _T_DEALER] = self.dealer == seat
        o[:, _T_STOCK] = self.stock
        o[:, _T_OPP] = _popcount(opp_hand)
        o[:, _T_LIMIT] = self.limit


__all__ = ["FastHandBatch"]
