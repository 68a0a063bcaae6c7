"""The ``expert`` player: exact meld analysis, an opponent model, and sampled knock decisions.

Why it is built this way
------------------------
Gin Rummy between decent players is a race to a knockable hand, spiced by two ways to lose
it: feeding the opponent the cards it needs, and knocking into an undercut. So the expert

* keeps a model of the opponent's hidden cards (:class:`Knowledge`): every card it has not
  seen is weighted by what the opponent threw away (it does not want that rank or its
  neighbours), took from the pile (it does) and declined (it did not need it); around a card
  it took and still holds, the chances are then conditioned on a meld with that card being
  in its hand;
* scores a 10-card hand by the *expected* deadwood after its next draw from the stock
  (exact ``min_deadwood_after_discard`` for every unseen card, weighted by the chance the card
  is still in the stock), with bonuses for being able to knock or go gin then; this single
  figure captures both the deadwood now and the chance of improving. Loose cards that would
  lay off on the opponent's melds are credited (``layoff_credit``): when the opponent knocks,
  they cost the defender nothing, and against a player who knocks as soon as it can the count
  after layoffs decides most hands. With an undercut bonus of 25, each point under the knock
  limit counts extra (``undercut_slope``): another chance to undercut such a knock. The
  opponent's next discard counts as one more possible draw (``pile_outs``: a player throws its
  loose cards, the higher ones first; weighted, as tuned, a little more than one draw), and
  the value is mixed, by the chance that the opponent knocks on its next
  turn (growing with its turns, ``hazard_rate``, and higher after it threw a low card, which
  says its other loose cards are low too: ``hazard_last``), with what that knock would cost
  against the cards kept now;
* draws from the pile only when that figure, after the best discard, beats the expectation of
  a stock draw (a two-ply expectation over the unseen cards);
* discards to minimise that figure plus a small *danger* term: the chance the card joins a
  meld of the opponent's hand, in closed form from the per-card chances (weight ``danger``,
  2: measured, a patient expert loses more by keeping its deadwood high than it saves in
  gifts, though a perfect reading of the opponent's hand would make gifts worth avoiding);
* decides knocks by Monte-Carlo: opponent hands are sampled from the model (never from the
  real hand: the player only has its :class:`~ginrummy.observation.SeatView`) and made as good
  as an opponent who has drawn that often would have made them; the defender's best melds and
  layoffs on the expert's arrangement score each sample, and the expectation of knocking now
  is compared with one more turn of waiting (gin chance, the opponent knocking first, the dead
  hand wall). With an undercut bonus of 25, knocking must beat waiting by ``wait_margin``
  points: self-play against players who knock as soon as they can showed that, once its
  deadwood is low, waiting for gin or for the opponent to knock into an undercut is worth far
  more than the sampled figures say. With the classic undercut bonus of 10 the opposite holds
  and the margin is negative (``wait_margin_low``), linear in between (``docs/strength.md``
  has the measurements);
* lays out the arrangement that leaves the fewest likely layoffs, and defends with the exact
  best defence;
* weighs hand results by the match score: in a race to the target (no game bonus) by what
  they do to the chance of winning the game (:mod:`.equity`; near the target a one-point knock
  can be worth a gin, and behind, any hand the opponent wins may end the game), otherwise a
  result that ends the game counts extra.

Every rule variant comes through the view: the hand's knock limit (Oklahoma, straight gin
limit 0; at a limit of 3 or less the hand value is almost only the chance of gin), big gin
(taken whenever it is there), the bonuses and the dead-hand wall.

All randomness comes from a generator seeded by the player's seed and the view itself, so a
decision is a pure function of (seed, view): reproducible, and :mod:`hints` ranks exactly what
``decide`` would play.
"""

from __future__ import annotations

import json
import os
import random
from dataclasses import dataclass, field, replace
from functools import lru_cache
from itertools import combinations
from typing import TYPE_CHECKING

from ..actions import DONE, Action, Kind
from ..cards import CARD_VALUES, FULL_DECK, SUIT_MASK, card_str, cards_of
from ..melds import (
    arrangements,
    best_arrangement,
    best_defense,
    deadwood,
    deadwood_cards,
    joins_meld,
    layoff_targets,
    min_deadwood_after_discard,
)
from .base import Player
from .equity import points_equivalent

if TYPE_CHECKING:
    from ..observation import SeatView

_RANK_MASK = 1 | 1 << 13 | 1 << 26 | 1 << 39
#: The opponent's chance to knock on its next turn by the value of its last discard, relative to
#: its average (``simple`` from its fourth turn on, 5,390 expert discards: 0.42 after a five, 0.35
#: a six, 0.29 a seven, 0.21 an eight, 0.16 a nine or a ten-point card).
_HAZARD_BY_LAST = (1.0, 2.0, 2.0, 2.0, 2.0, 2.0, 1.65, 1.4, 1.0, 0.8, 0.8)


@dataclass(frozen=True)
class ExpertParams:
    """The expert's tunable numbers, tuned against the baselines with ``bench/ab_expert.py`` and
    ``ginrummy arena`` (``GINRUMMY_EXPERT_PARAMS`` sets them there); ``docs/strength.md``."""

    #: Deadwood-points bonus for a hand that can knock after its next draw.
    knock_bonus: float = 10.0
    #: Extra bonus for a hand that would be gin after its next draw.
    gin_bonus: float = 8.0
    #: The same when the knock limit is ``gin_only_limit`` or less (straight gin, Oklahoma with
    #: a low upcard): there, the chance of gin is nearly all a hand is worth. Measured
    #: (``docs/strength.md``): in straight gin 8 is 1.2 points per hand worse than 80; under
    #: Oklahoma the gin-only value up to limit 3 gains 0.26-0.31 points per hand.
    gin_only_bonus: float = 80.0
    gin_only_limit: int = 3
    #: Cost, in deadwood points, of a discard that surely joins a meld of the opponent.
    #: Small: a patient expert loses more by keeping its deadwood high than it saves in gifts
    #: (weights 4-14 measured worse, 2 with the closed-form chance better; ``docs/strength.md``).
    danger: float = 2.0
    #: Opponent-model weights: same rank / neighbour / two away of a card it threw away.
    discard_rank: float = 0.55
    discard_adj: float = 0.7
    discard_two: float = 0.85
    #: ... of a card it took from the pile.
    take_rank: float = 2.0
    take_adj: float = 2.0
    take_two: float = 1.4
    #: ... of a card it declined.
    decline_rank: float = 0.75
    decline_adj: float = 0.8
    #: Fraction of the opponent's draws it is assumed to have used to improve its hand (for the
    #: sampled hands of knock decisions). 2 made them far too strong (a next-turn knock chance of
    #: 0.52 where the truth was 0.13, ``bench/hazard_quality.py``); 0.5 is near calibrated and
    #: +0.03 points per hand against ``simple`` (+0.01 .. +0.05, ``docs/strength.md``).
    improve: float = 0.5
    #: Opponent hands sampled for knock decisions and danger.
    samples: int = 24
    #: Stock cards sampled for the expectation of a stock draw (draw decision); 0 takes every
    #: unseen card, exactly. Sampling 14 cost about 0.09 points per hand against ``simple``
    #: (+0.08, +0.09, +0.10 on three seeds of 4,000 paired deals, ``docs/strength.md``): noise in
    #: close decisions costs more than the time saved.
    stock_draws: int = 0
    #: Extra points for a hand result that ends the game (scaled near the target).
    game_end: float = 40.0
    #: Weight of the deadwood held now in a hand's value, beside the expectation after the next
    #: draw. -0.3 (for the same expectation, prefer the hand that improves more on one draw) gains
    #: +0.25 points per hand in paired single hands against ``simple`` (EAAI, three seeds) but won
    #: 0.9 points of win rate fewer whole games (78.8% against 79.7% of 16,000); +0.3 lost
    #: 0.11-0.20 (``docs/strength.md``, sessions 3 and 12).
    hold_weight: float = 0.0
    #: Require this much more expectation from waiting than from knocking before waiting, when
    #: the undercut bonus is 25 (EAAI, online, app): waiting for the undercut pays there.
    wait_margin: float = 12.0
    #: The same when the undercut bonus is 10 or less (classic rules): knocking early pays, so
    #: the margin is negative (knock unless waiting is clearly better); linear in between.
    #: Measured in session 3 (``docs/strength.md``): with 12 under classic rules the expert was
    #: barely better than ``simple``.
    wait_margin_low: float = -8.0
    #: How ``danger`` is estimated: 1 in closed form from the per-card chances (no sampling
    #: noise; measured better, ``docs/strength.md``), 0 over the sampled opponent hands.
    danger_model: int = 1
    #: Deadwood points credited per expected point of the hand's loose cards that would lay off
    #: on the opponent's melds (the cards held independently, by the model's chances). Measured
    #: against ``simple`` (EAAI): 0.5-1 gain 0.3-0.4 points per hand, 2 and 3 less
    #: (``docs/strength.md``).
    layoff_credit: float = 0.75
    #: 1: a card the opponent took from the pile and still holds was taken to meld, so the chances
    #: of the cards around it are conditioned, exactly, on some meld with it being in the
    #: opponent's hand (+0.23 and +0.17 points per hand against ``simple``, ``docs/strength.md``).
    take_melds: int = 1
    #: Extra value per deadwood point below the knock limit when the undercut bonus is 25
    #: (scaled down to nothing at 10). Against a player who knocks as soon as it can, each point
    #: less is another chance to undercut it. Paired against ``simple`` (EAAI): 0.5 gains +0.12
    #: and +0.07 points per hand (seeds 70, 71; ``docs/strength.md``).
    undercut_slope: float = 0.5
    #: The opponent's next discard may be a card the hand wants: a hand's value counts it as
    #: one more draw (taken when it beats the stock's expectation), each unseen card weighted
    #: by its chance to be that discard (held, loose, and high: value ** ``pile_power``).
    #: ``pile_outs`` scales that chance (0: off). Tuned against ``simple`` (EAAI, paired,
    #: ``docs/strength.md``): power 1 beats 2 (+0.23, +0.11 points per hand on two seeds), 0
    #: and 3 lose; with power 1, ``pile_outs`` 1.5 beats 1 (+0.25): a flatter, larger weight
    #: than the opponent's real discards would give (why is not measured).
    pile_outs: float = 1.5
    pile_power: float = 1.0
    #: Chance that the opponent knocks on its next turn, per turn it has had after its first,
    #: capped at ``hazard_cap`` (0: off). With that chance the ten cards kept now are what its
    #: knock catches, so a hand's value is mixed with what that knock would cost. 0.045 is the
    #: rate measured for ``simple``, which knocks as soon as it can (about 0.2 at its sixth
    #: turn, 0.4 from its tenth). With ``pile_outs``, +0.47 points per hand against ``simple``
    #: (8,000 paired deals, +0.19 .. +0.75; ``docs/strength.md``).
    hazard_rate: float = 0.045
    #: 0.6 rather than 0.45 since its knock chance is scaled up after a low discard
    #: (``hazard_last``): +0.05 points per hand (+0.01 .. +0.09, ``docs/strength.md``).
    hazard_cap: float = 0.6
    #: Scale the knock chance by the value of the opponent's last discard (``_HAZARD_BY_LAST``,
    #: measured for ``simple`` by ``bench/hazard_quality.py``), 0: off, 1: as measured. Paired
    #: against ``simple`` (EAAI): +0.11 (1, seed 91) and +0.06 (1.5, seed 96) points per hand.
    hazard_last: float = 1.0
    #: Weight of the cost of feeding the opponent a card it melds and knocks with at once (0:
    #: off). A take raises its knock chance by ``take_knock`` + 0.02 per turn, at most
    #: ``take_knock_cap`` (``simple``, measured by ``bench/hazard_quality.py``: about +0.27 at
    #: its 3rd to 5th turn, +0.35 at its 6th to 8th, +0.46 later). Off: ``gift`` 1 scored
    #: −0.08 points per hand against ``simple`` (−0.30 .. +0.14, ``docs/strength.md``).
    gift: float = 0.0
    take_knock: float = 0.2
    take_knock_cap: float = 0.45
    #: 1: where only winning the game counts (no game bonus, no boxes, no Hollywood), a hand
    #: result is worth the change of the match equity it causes (:mod:`.equity`), in points of the
    #: local exchange rate, in the knock decisions and in what the opponent's knock would cost;
    #: ``game_end`` is then not used. 0: hand points plus ``game_end``. Against ``simple`` (EAAI,
    #: ``bench/score_ab.py``, 15,000 paired hands at the scores games reach): +0.32 points of game
    #: win chance (-0.13 .. +0.77), ``docs/strength.md``.
    met: float = 1.0
    #: Weight of the opponent's chance to knock on the turn after next (its rate one turn on),
    #: against the hand our next draw leaves (0: off): the hand's future value is mixed with what
    #: that knock would cost, as its present value is with ``hazard``. Against ``simple`` (EAAI,
    #: ``bench/score_ab.py``, 24,000 paired hands at the scores games reach, seeds 12-15): +0.57
    #: points of game win chance (+0.15 .. +0.99), +0.09 points per hand; 2 no better (+0.42).
    #: Whole games: 80.36% of 16,000 against 79.7% without (the same deals). It costs time in
    #: the draw decision (p95 9.6 ms against 4-5, ``bench/expert_speed.py``).
    hazard_ahead: float = 1.0


@dataclass
class Knowledge:
    """What the seat knows about the cards, built once per decision from the view."""

    me: int
    unseen: int
    opp_known: int
    opp_hidden: int  # number of the opponent's cards we have not seen
    #: Per card: probability it is in the opponent's hidden hand (0 for seen cards).
    p_opp: list[float]
    opp_stock_draws: int
    opp_discards: list[int] = field(default_factory=list)
    opp_taken: list[int] = field(default_factory=list)
    opp_declined: list[int] = field(default_factory=list)

    @property
    def unseen_cards(self) -> list[int]:
        return cards_of(self.unseen)


def _pile_history(view: SeatView) -> tuple[list[int], list[int], list[int], int]:
    """Replay the events to learn the opponent's discards, pile takes, declines and stock draws.

    A pile draw's event carries no card, so the pile is rebuilt from the upcard and the
    discards to know which card was taken (or passed over).
    """
    opp = 1 - view.seat
    pile: list[int] = [] if view.upcard is None else [view.upcard]
    discards: list[int] = []
    taken: list[int] = []
    declined: list[int] = []
    stock_draws = 0
    for e in view.events:
        k = e.kind
        if k is Kind.DISCARD:
            pile.append(e.card)
            if e.seat == opp:
                discards.append(e.card)
        elif k is Kind.PILE:
            card = pile.pop() if pile else -1
            if e.seat == opp and card >= 0:
                taken.append(card)
        elif k is Kind.STOCK:
            if e.seat == opp:
                stock_draws += 1
                if pile:
                    declined.append(pile[-1])
        elif k is Kind.PASS:
            if e.seat == opp and pile:
                declined.append(pile[-1])
    return discards, taken, declined, stock_draws


def build_knowledge(view: SeatView, params: ExpertParams) -> Knowledge:
    """The unseen cards and the probability that each is in the opponent's hand."""
    me = view.hand
    pile = 0
    for c in view.pile:
        pile |= 1 << c
    seen = me | pile | view.opponent_known
    if view.knock_discard is not None:
        seen |= 1 << view.knock_discard
    unseen = FULL_DECK & ~seen
    opp_hidden = max(0, view.opponent_size - view.opponent_known.bit_count())
    discards, taken, declined, draws = _pile_history(view)
    w = [0.0] * 52
    ucards = cards_of(unseen)
    for c in ucards:
        w[c] = 1.0

    def push(card: int, rank_f: float, adj_f: float, two_f: float) -> None:
        r, s = card % 13, card // 13
        for t in range(4):
            x = t * 13 + r
            if x != card and unseen >> x & 1:
                w[x] *= rank_f
        for d, f in ((1, adj_f), (2, two_f)):
            for rr in (r - d, r + d):
                if 0 <= rr < 13:
                    x = s * 13 + rr
                    if unseen >> x & 1:
                        w[x] *= f

    p = params
    # Each card counts once as evidence: a card passed back and forth must not compound.
    for c in dict.fromkeys(discards):
        push(c, p.discard_rank, p.discard_adj, p.discard_two)
    for c in dict.fromkeys(taken):
        push(c, p.take_rank, p.take_adj, p.take_two)
    for c in dict.fromkeys(declined):
        push(c, p.decline_rank, p.decline_adj, 1.0)
    for c in ucards:
        w[c] = min(max(w[c], 1e-4), 1e4)
    total = sum(w[c] for c in ucards)
    p_opp = [0.0] * 52
    if total > 0 and opp_hidden:
        scale = opp_hidden / total
        # Cap at 0.95 and spread the excess, a few passes are plenty.
        for c in ucards:
            p_opp[c] = w[c] * scale
        for _ in range(3):
            over = 0.0
            free = 0.0
            for c in ucards:
                if p_opp[c] > 0.95:
                    over += p_opp[c] - 0.95
                    p_opp[c] = 0.95
                elif p_opp[c] < 0.95:
                    free += p_opp[c]
            if over <= 1e-9 or free <= 0:
                break
            f = 1 + over / free
            for c in ucards:
                if p_opp[c] < 0.95:
                    p_opp[c] *= f
    if params.take_melds and total > 0 and opp_hidden:
        for t in dict.fromkeys(taken):
            if view.opponent_known >> t & 1:
                _condition_on_meld(p_opp, view.opponent_known, unseen, t)
    return Knowledge(
        me=me,
        unseen=unseen,
        opp_known=view.opponent_known,
        opp_hidden=opp_hidden,
        p_opp=p_opp,
        opp_stock_draws=draws,
        opp_discards=discards,
        opp_taken=taken,
        opp_declined=declined,
    )


class _Decision:
    """Per-decision caches: hand values, stock weights and opponent samples."""

    def __init__(self, view: SeatView, params: ExpertParams, rng: random.Random) -> None:
        self.view = view
        self.params = params
        self.rng = rng
        self.k = build_knowledge(view, params)
        self.limit = view.knock_limit
        self.slope = params.undercut_slope * _undercut_weight(view.rules.undercut_bonus)
        # Weight of each unseen card as the next stock card: the chance it is not in the opponent's hand.
        self.stock_w = [(c, 1.0 - self.k.p_opp[c]) for c in self.k.unseen_cards]
        tw = sum(x for _, x in self.stock_w)
        self.stock_total = tw if tw > 0 else 1.0
        #: Per 10-card hand: its value, then (for hints) the expected deadwood after the next
        #: draw and the chances to knock and to go gin then; one pass over the stock gives all four.
        self._val: dict[int, tuple[float, float, float, float]] = {}
        self._layoff_memo: dict[int, float] = {}
        self._caught_val: dict[int, float] = {}
        #: ``_caught`` by (deadwood, expected layoff points): hands of one decision share them.
        self._caught_memo: dict[tuple[int, float], float] = {}
        #: How much a pile take raises the opponent's chance to knock at once, times ``gift``.
        self.take_knock = 0.0
        if params.gift and self.limit > params.gin_only_limit:
            turns = len(self.k.opp_discards)
            self.take_knock = params.gift * min(params.take_knock_cap, params.take_knock + 0.02 * turns)
        #: Worth of each hand result (index ``points + _SPAN``) when the match equity decides.
        self.worth: tuple[float, ...] | None = None
        rules = view.rules
        if params.met and not (rules.game_bonus or rules.box_bonus or rules.hollywood):
            me, opp = view.scores[view.seat], view.scores[1 - view.seat]
            self.worth = _worth_table(rules.target, rules.gin_bonus, rules.undercut_bonus, me, opp)
        self._phis = [self.phi(d) for d in range(101)]  # 10 cards hold at most 100 points
        self._samples: list[int] | None = None
        self._sample_dw: list[int] | None = None
        #: Chance that the opponent knocks on its next turn (see ``hazard_rate``).
        self.hazard = 0.0
        #: The same one turn later, times ``hazard_ahead``: against the hand after our next draw.
        self.hazard_next = 0.0
        if params.hazard_rate and self.limit > params.gin_only_limit:
            ds = self.k.opp_discards
            self.hazard = min(params.hazard_cap, params.hazard_rate * max(0, len(ds) - 1))
            if params.hazard_ahead:
                self.hazard_next = min(params.hazard_cap, params.hazard_rate * len(ds))
            if params.hazard_last and ds:
                # A player who throws its highest loose card and has thrown a low one holds
                # only low loose cards: it is close to knocking.
                scale = 1.0 + params.hazard_last * (_HAZARD_BY_LAST[CARD_VALUES[ds[-1]]] - 1.0)
                self.hazard = min(params.hazard_cap, self.hazard * scale)
                self.hazard_next = min(params.hazard_cap, self.hazard_next * scale)
            self.hazard_next *= params.hazard_ahead
        #: The opponent's knock count if it knocks, with its chance: 1 to the limit, the upper
        #: part twice as likely (as measured for a player who knocks at once).
        ks = [(k, 1.0 if k <= 0.6 * self.limit else 2.0) for k in range(1, self.limit + 1)]
        tot = sum(w for _, w in ks) or 1.0
        self._knock_counts = [(k, w / tot) for k, w in ks]
        #: Per unseen card: the chance it is the opponent's next discard, times ``pile_outs``.
        self.pile_q: dict[int, float] = {}
        if params.pile_outs:
            k = self.k
            q = _next_discard_chances(k.p_opp, k.opp_known, k.unseen_cards, params.pile_power)
            self.pile_q = {c: params.pile_outs * x for c, x in q.items()}

    # -- hand values ------------------------------------------------------------------

    def phi(self, d: int) -> float:
        p = self.params
        v = float(d)
        if d <= self.limit:
            v -= p.knock_bonus + self.slope * (self.limit - d)
        if d == 0:
            v -= p.gin_bonus if self.limit > p.gin_only_limit else p.gin_only_bonus
        return v

    def value(self, hand10: int) -> float:
        """Expected shaped deadwood after the next stock draw and best discard (lower is better)."""
        got = self._val.get(hand10)
        return (got or self._evaluate(hand10))[0]

    def outlook(self, hand10: int) -> tuple[float, float, float]:
        """Expected deadwood after the next draw (and best discard), chance to knock, chance of gin."""
        got = self._val.get(hand10) or self._evaluate(hand10)
        return got[1], got[2], got[3]

    def _evaluate(self, hand10: int) -> tuple[float, float, float, float]:
        limit = self.limit
        credit = self.params.layoff_credit if limit > 0 else 0.0
        if credit:
            dw, melds = best_arrangement(hand10)
        else:
            dw, melds = deadwood(hand10), []
        if not self.stock_w or self.view.stock_size <= self.view.rules.dead_hand_stock:
            got = (self.phi(dw), float(dw), float(dw <= limit), float(dw == 0))
        else:
            acc = e_dw = p_knock = p_gin = 0.0
            h1 = self.hazard_next
            lp1 = self._layoff_points(deadwood_cards(hand10, melds)) if credit and h1 else 0.0
            e_caught = 0.0
            caught_at = self._caught_memo
            phis = self._phis
            cur = phis[dw]
            pq = self.pile_q
            outs: list[tuple[float, float]] = []
            # A card that shares no rank and touches no suit neighbour of the hand melds with
            # none of it, so after it the best is to keep the best nine and it: no search.
            related = _related(hand10)
            best9 = -1
            for c, wt in self.stock_w:
                if related >> c & 1:
                    d = min_deadwood_after_discard(hand10 | 1 << c)
                else:
                    if best9 < 0:
                        best9 = min_deadwood_after_discard(hand10)
                    d = best9 + CARD_VALUES[c]
                if d >= dw:
                    acc += wt * cur
                    e_dw += wt * dw
                    d = dw
                else:
                    ph = phis[d]
                    acc += wt * ph
                    e_dw += wt * d
                    if c in pq:
                        outs.append((pq[c], ph))
                if d <= limit:
                    p_knock += wt
                    if d == 0:
                        p_gin += wt
                if h1:
                    cd = caught_at.get((d, lp1))
                    if cd is None:
                        cd = caught_at[d, lp1] = self._caught(d, d - lp1)
                    e_caught += wt * cd
            tw = self.stock_total
            v = acc / tw
            # The opponent may throw a card that improves the hand: take it then, if it beats
            # the stock's expectation.
            v += sum(q * (ph - v) for q, ph in outs if ph < v)
            if self.params.hold_weight:
                v += self.params.hold_weight * dw
            if h1:
                # The opponent may knock after our next draw, against the hand that draw leaves
                # (its layoffs taken as the hand's now). That cost already counts the layoffs,
                # so the credit taken off the value below is added back to it here.
                v = (1.0 - h1) * v + h1 * (e_caught / tw + credit * lp1)
            got = (v, e_dw / tw, p_knock / tw, p_gin / tw)
        if credit:
            # Cards that would lay off on the opponent's melds cost nothing when the opponent
            # knocks (no layoffs on gin, so none when only gin ends the hand).
            lp = self._layoff_points(deadwood_cards(hand10, melds))
            got = (got[0] - credit * lp,) + got[1:]
        else:
            lp = 0.0
        if self.hazard or self.take_knock:
            caught = self._caught(dw, dw - lp)
            if self.take_knock:
                self._caught_val[hand10] = caught - got[0]
            hz = self.hazard
            if hz:
                got = ((1.0 - hz) * got[0] + hz * caught,) + got[1:]
        self._val[hand10] = got
        return got

    def gift(self, hand10: int, meld_chance: float) -> float:
        """Expected cost of the opponent taking the discard (which joins a meld of its hand
        with ``meld_chance``) and knocking at once against ``hand10``: that chance, times the
        extra knock chance a take gives (``take_knock``), times what its knock would cost over
        the hand's own prospects."""
        if not self.take_knock:
            return 0.0
        self.value(hand10)
        return self.take_knock * meld_chance * self._caught_val[hand10]

    def _caught(self, dw: int, d_eff: float) -> float:
        """Expected cost (points, lower is better) if the opponent knocks now against deadwood
        ``dw`` (``d_eff`` after expected layoffs): its count from ``_knock_counts``, with a 5%
        chance of gin."""
        rules = self.view.rules
        # Points from our side, weighed by the match equity when it decides (no premium here).
        worth = self.utility if self.worth is not None else float
        cost = -0.05 * worth(-(rules.gin_bonus + dw))
        for k, pk in self._knock_counts:
            pts = rules.undercut_bonus + k - d_eff if d_eff <= k else k - d_eff
            cost -= 0.95 * pk * worth(pts)
        return cost

    def utility(self, points: float) -> float:
        """A hand result from our side as the match score weighs it: its points plus a premium
        if it ends the game, or (``met``) the change of the match equity it causes."""
        worth = self.worth
        if worth is not None:
            x = min(max(points, -_SPAN), _SPAN) + _SPAN
            i = int(x)
            if i >= 2 * _SPAN:
                return worth[-1]
            f = x - i
            return worth[i] + f * (worth[i + 1] - worth[i]) if f else worth[i]
        view = self.view
        target = view.rules.target
        me, opp = view.scores[view.seat], view.scores[1 - view.seat]
        u = points
        if points > 0 and me + points >= target:
            u += self.params.game_end
        elif points < 0 and opp - points >= target:
            u -= self.params.game_end
        return u

    def _layoff_points(self, loose: int) -> float:
        """Expected deadwood points of the ``loose`` cards that would lay off on the opponent's melds."""
        k = self.k
        memo = self._layoff_memo
        tot = 0.0
        for c in cards_of(loose):
            x = memo.get(c)
            if x is None:
                x = memo[c] = CARD_VALUES[c] * _layoff_chance(k.p_opp, k.opp_known, c)
            tot += x
        return tot

    # -- the opponent -------------------------------------------------------------------

    def samples(self) -> list[int]:
        """Opponent hands consistent with the view, improved as the opponent would have."""
        if self._samples is not None:
            return self._samples
        k = self.k
        n = k.opp_hidden
        ucards = k.unseen_cards
        extra = min(int(round(self.params.improve * k.opp_stock_draws)), 8, max(0, len(ucards) - n))
        need = n + extra
        out: list[int] = []
        rng = self.rng
        if need <= 0 or len(ucards) < n:
            self._samples = [k.opp_known] if k.opp_known else []
            return self._samples
        # Weighted sampling without replacement (Efraimidis-Spirakis keys).
        weights = [max(k.p_opp[c], 1e-3) for c in ucards]
        for _ in range(self.params.samples):
            keyed = sorted(
                ((rng.random() ** (1.0 / w), c) for c, w in zip(ucards, weights, strict=True)), reverse=True
            )
            m = 0
            for _, c in keyed[:need]:
                m |= 1 << c
            if extra:
                m = _drop_worst(m, extra, k.opp_known)
            out.append(m | k.opp_known)
        self._samples = out
        return out

    def sample_deadwoods(self) -> list[int]:
        if self._sample_dw is None:
            self._sample_dw = [deadwood(s) for s in self.samples()]
        return self._sample_dw

    def danger(self, card: int) -> float:
        """Probability that ``card`` joins a meld in the opponent's hand.

        A card that melds is what a pile-taking opponent wants; a card that only lowers its
        deadwood a little is no gift, so only melds count.
        """
        if self.params.danger_model == 1:
            return _meld_chance(self.k.p_opp, self.k.opp_known, card)
        ss = self.samples()
        if not ss:
            return 0.0
        hits = 0
        for s in ss:
            if joins_meld(s, card):
                hits += 1
        return hits / len(ss)


def _outlook_words(dec: _Decision, hand10: int) -> str:
    """What a kept hand promises, in a player's words: deadwood now and after the next draw."""
    dw = deadwood(hand10)
    e_dw, p_knock, p_gin = dec.outlook(hand10)
    words = f"deadwood {dw}"
    if e_dw < dw - 0.05:
        words += f", {e_dw:.1f} expected after the next draw"
    if dw > dec.limit and p_knock >= 0.005 and p_knock > p_gin:
        words += f"; {p_knock:.0%} chance to knock"
    if dw > 0 and p_gin >= 0.005:
        words += f"; {p_gin:.0%} chance of gin"
    return words


def _related(hand: int) -> int:
    """The cards that could meld with some card of ``hand``: its ranks in every suit, and the
    suit neighbours of its cards (every run holds a neighbour of each of its cards).

    >>> from ginrummy.cards import CardSet
    >>> str(CardSet(_related(CardSet.parse("5h").mask)))
    '5s 4h 5h 6h 5d 5c'
    """
    s0 = hand & SUIT_MASK
    s1 = hand >> 13 & SUIT_MASK
    s2 = hand >> 26 & SUIT_MASK
    s3 = hand >> 39
    ranks = s0 | s1 | s2 | s3
    out = ranks | ranks << 13 | ranks << 26 | ranks << 39
    for i, s in enumerate((s0, s1, s2, s3)):
        out |= ((s << 1 | s >> 1) & SUIT_MASK) << (13 * i)
    return out


def _meld_chance(p_opp: list[float], known: int, x: int) -> float:
    """Chance that card ``x`` joins a meld of the opponent's hand, the cards held independently.

    A set needs two of the other three cards of the rank; a run needs both neighbours on one
    side or one on each side (inclusion-exclusion of the three pairs).
    """

    def q(c: int) -> float:
        return 1.0 if known >> c & 1 else p_opp[c]

    r = x % 13
    a, b, c = (q(t * 13 + r) for t in range(4) if t * 13 + r != x)
    p_set = a * b + a * c + b * c - 2 * a * b * c
    m2 = q(x - 2) if r >= 2 else 0.0
    m1 = q(x - 1) if r >= 1 else 0.0
    p1 = q(x + 1) if r <= 11 else 0.0
    p2 = q(x + 2) if r <= 10 else 0.0
    p_run = m2 * m1 + m1 * p1 + p1 * p2 - m2 * m1 * p1 - m1 * p1 * p2
    return 1.0 - (1.0 - p_set) * (1.0 - p_run)


def _next_discard_chances(p_opp: list[float], known: int, cards: list[int], power: float) -> dict[int, float]:
    """Chance that each of ``cards`` is the opponent's next discard: it must hold the card, the
    card must be loose (not in one of its melds), and a player throws its high loose cards
    first, so the weight grows with the card's value to ``power``.

    >>> from ginrummy.cards import parse_card
    >>> p = [0.0] * 52
    >>> p[parse_card("Kc")] = p[parse_card("2d")] = 0.5
    >>> q = _next_discard_chances(p, 0, [parse_card("Kc"), parse_card("2d")], 2.0)
    >>> round(q[parse_card("Kc")], 3), round(q[parse_card("2d")], 3)
    (0.962, 0.038)
    """
    wts = {}
    for c in cards:
        pc = p_opp[c]
        if pc > 0:
            wts[c] = pc * (1.0 - _meld_chance(p_opp, known, c)) * CARD_VALUES[c] ** power
    tot = sum(wts.values())
    return {c: x / tot for c, x in wts.items()} if tot > 0 else {}


def _condition_on_meld(p_opp: list[float], known: int, unseen: int, t: int) -> None:
    """Sharpen the chances of the cards around ``t``, a card the opponent took and holds:
    it took it to meld, so some 3-card meld with ``t`` is (most likely) in its hand.

    The other cards are not lowered in turn, so the chances may now add up to a little more
    than the opponent's hidden cards (as measured; renormalising is untried)."""
    r, s = t % 13, t // 13
    rel = [x * 13 + r for x in range(4) if x != s]
    rel += [s * 13 + r + d for d in (-2, -1, 1, 2) if 0 <= r + d < 13]
    rel = [c for c in rel if (unseen | known) >> c & 1]
    if not rel:
        return
    q = [1.0 if known >> c & 1 else p_opp[c] for c in rel]
    idx = {c: i for i, c in enumerate(rel)}
    cands = [(idx[a], idx[b]) for a, b in combinations([c for c in rel if c % 13 == r], 2)]
    for a, b in ((-2, -1), (-1, 1), (1, 2)):
        ca, cb = t + a, t + b
        if 0 <= r + a < 13 and 0 <= r + b < 13 and ca in idx and cb in idx:
            cands.append((idx[ca], idx[cb]))
    if not cands:
        return
    n = len(rel)
    z = 0.0
    marg = [0.0] * n
    for bits in range(1 << n):
        if not any(bits >> i & 1 and bits >> j & 1 for i, j in cands):
            continue
        pr = 1.0
        for i in range(n):
            pr *= q[i] if bits >> i & 1 else 1.0 - q[i]
        if pr == 0.0:
            continue
        z += pr
        for i in range(n):
            if bits >> i & 1:
                marg[i] += pr
    if z <= 0.0:
        return
    for i, c in enumerate(rel):
        if not known >> c & 1:
            p_opp[c] = min(0.98, marg[i] / z)


def _layoff_chance(p_opp: list[float], known: int, x: int) -> float:
    """Chance that card ``x`` extends a meld of the opponent's hand (a layoff)."""

    def q(c: int) -> float:
        return 1.0 if known >> c & 1 else p_opp[c]

    r = x % 13
    a, b, c = (q(t * 13 + r) for t in range(4) if t * 13 + r != x)
    p_set = a * b * c
    up = q(x + 1) * q(x + 2) * q(x + 3) if r <= 9 else 0.0
    down = q(x - 1) * q(x - 2) * q(x - 3) if r >= 3 else 0.0
    p_run = up + down - up * down
    return 1.0 - (1.0 - p_set) * (1.0 - p_run)


def _drop_worst(mask: int, n: int, keep: int) -> int:
    """Drop ``n`` cards a sensible player would have thrown: highest deadwood outside melds."""
    _, melds = best_arrangement(mask)
    used = 0
    for m in melds:
        used |= m
    loose = sorted(cards_of(mask & ~used & ~keep), key=lambda c: -CARD_VALUES[c])
    for c in loose[:n]:
        mask &= ~(1 << c)
    left = n - min(n, len(loose))
    while left > 0:
        best_c, best_v = -1, 1 << 30
        for c in cards_of(mask & ~keep):
            v = deadwood(mask & ~(1 << c))
            if v < best_v:
                best_c, best_v = c, v
        if best_c < 0:
            break
        mask &= ~(1 << best_c)
        left -= 1
    return mask


def _undercut_weight(bonus: int) -> float:
    """How much the undercut is worth waiting for: 0 at a bonus of 10 or less, 1 at 25 or more.

    >>> _undercut_weight(10), _undercut_weight(25), _undercut_weight(20)
    (0.0, 1.0, 0.6666666666666666)
    """
    return min(1.0, max(0.0, (bonus - 10) / 15))


def _knock_points(rules_gin: int, rules_under: int, k_dw: int, d_dw: int) -> int:
    """Points of a knock from the knocker's side (negative for an undercut)."""
    if k_dw == 0:
        return rules_gin + d_dw
    if k_dw < d_dw:
        return d_dw - k_dw
    return -(k_dw - d_dw + rules_under)


def _env_params() -> ExpertParams:
    """Defaults, or overrides from ``GINRUMMY_EXPERT_PARAMS`` (JSON), which self-play tuning sets
    so the arena's worker processes play the variant under test."""
    text = os.environ.get("GINRUMMY_EXPERT_PARAMS")
    if not text:
        return ExpertParams()
    data = json.loads(text)
    return replace(ExpertParams(), **{k: type(getattr(ExpertParams, k))(v) for k, v in data.items()})


class ExpertPlayer(Player):
    """The strongest built-in player. See the module docstring for how it decides."""

    name = "expert"

    def __init__(self, seed: int | None = None, params: ExpertParams | None = None) -> None:
        super().__init__(seed)
        self.seed = 0 if seed is None else seed
        self.params = params or _env_params()

    def with_params(self, **changes: float) -> ExpertPlayer:
        return ExpertPlayer(self.seed, replace(self.params, **changes))  # type: ignore[arg-type]

    # -- the interface ------------------------------------------------------------------

    def decide(self, view: SeatView) -> Action:
        ranked = self.evaluate(view)
        best = max(ranked, key=lambda t: t[1])
        return best[0]

    def evaluate(self, view: SeatView) -> list[tuple[Action, float, str]]:
        """Every legal action with a value (higher is better) and a short reason."""
        legal = list(view.legal)
        if not legal:
            return []
        if len(legal) == 1:
            return [(legal[0], 0.0, "the only legal action")]
        rng = random.Random(hash((self.seed, view.hand, view.pile, view.stock_size, len(view.events))))
        dec = _Decision(view, self.params, rng)
        kinds = {a.kind for a in legal}
        if Kind.BIG_GIN in kinds:
            return [
                (a, 1000.0, "big gin: all 11 cards in melds")
                if a.kind is Kind.BIG_GIN
                else (a, 0.0, "big gin scores more")
                for a in legal
            ]
        if Kind.MELD in kinds or Kind.LAYOFF in kinds or Kind.DONE in kinds:
            return self._layout(view, dec, legal)
        if Kind.STOCK in kinds or Kind.PASS in kinds or Kind.PILE in kinds:
            return self._draw(view, dec, legal)
        return self._discard(view, dec, legal)

    # -- drawing ---------------------------------------------------------------------------

    def _draw(self, view: SeatView, dec: _Decision, legal: list[Action]) -> list[tuple[Action, float, str]]:
        """Pile or stock (or pass the upcard): compare the hand values the two lead to."""
        from ..hand import Phase

        pile_a = next((a for a in legal if a.kind is Kind.PILE), None)
        others = [a for a in legal if a.kind is not Kind.PILE]
        if view.phase is Phase.LAST_CHANCE:
            return self._last_chance(view, dec, legal)
        if pile_a is None or not view.pile:
            return [(a, 0.0, "draw from the stock") for a in legal]
        top = view.pile[-1]
        hand = view.hand
        h11 = hand | 1 << top
        cur_dw = deadwood(hand)
        after = min_deadwood_after_discard(h11)
        r, s = top % 13, top // 13
        related = bool(hand & (_RANK_MASK << r) & ~(1 << top))
        for d in (-2, -1, 1, 2):
            if 0 <= r + d < 13 and hand >> (s * 13 + r + d) & 1:
                related = True
        other_word = "pass" if any(a.kind is Kind.PASS for a in others) else "draw from the stock"
        mine = any(e.seat == view.seat and e.kind is Kind.DISCARD and e.card == top for e in view.events)
        if mine and after > dec.limit:
            # Taking back a card we threw away (unless to knock) can cycle forever between two
            # players who both take from the pile: the stock never shrinks and the hand never ends.
            out = [(a, 0.0, f"{other_word}: {card_str(top)} is a card you threw away") for a in others]
            out.append((pile_a, -1.0, f"you discarded {card_str(top)} earlier; taking it back wastes a turn"))
            return out
        if not related and after >= cur_dw:
            out = [(a, 0.0, f"{other_word}: {card_str(top)} does not help your hand") for a in others]
            out.append((pile_a, -1.0, f"{card_str(top)} neither joins a meld nor lowers your deadwood"))
            return out
        # Taking the pile: best discard (not the card taken) by hand value.
        v_pile = float("inf")
        for d in cards_of(hand):
            v = dec.value(h11 & ~(1 << d))
            if v < v_pile:
                v_pile = v
        # The stock: expectation over unseen cards of the best of the two lowest-deadwood discards.
        pool = dec.stock_w
        if 0 < self.params.stock_draws < len(pool):
            pool = dec.rng.sample(pool, self.params.stock_draws)
        acc = e_dw = 0.0
        tw = 0.0
        for c, wt in pool:
            h = hand | 1 << c
            cand = sorted((deadwood(h & ~(1 << d)), d) for d in cards_of(h))[:2]
            e_dw += wt * cand[0][0]
            if cand[1][0] > cand[0][0] + 2:
                cand = cand[:1]
            best = min(dec.value(h & ~(1 << d)) for _, d in cand)
            acc += wt * best
            tw += wt
        v_stock = acc / tw if tw > 0 else dec.value(hand)
        e_dw = e_dw / tw if tw > 0 else float(cur_dw)
        pile_reason = f"take {card_str(top)}: deadwood {after} after the best discard"
        if after < cur_dw:
            pile_reason += f" (now {cur_dw})"
        if v_pile < v_stock:
            pile_reason += f", better chances overall than the stock ({e_dw:.1f} expected)"
        stock_reason = f"{other_word}: deadwood {e_dw:.1f} expected after it"
        if v_stock < v_pile:
            stock_reason += f", better chances overall than taking {card_str(top)} (deadwood {after})"
        out = [(a, -v_stock, stock_reason) for a in others]
        out.append((pile_a, -v_pile, pile_reason))
        return out

    def _last_chance(self, view: SeatView, dec: _Decision, legal: list[Action]) -> list[tuple[Action, float, str]]:
        """Take the last discard only to knock with a positive expectation; passing is a dead hand (0)."""
        out: list[tuple[Action, float, str]] = []
        for a in legal:
            if a.kind is Kind.PILE:
                top = view.pile[-1]
                h11 = view.hand | 1 << top
                ev = max(
                    (self._knock_ev(view, dec, h11 & ~(1 << d))[0] for d in cards_of(view.hand)
                     if deadwood(h11 & ~(1 << d)) <= dec.limit),
                    default=-100.0,
                )
                out.append((a, ev, f"take {card_str(top)} and knock: expected {ev:+.1f} points"))
            else:
                out.append((a, 0.0, "pass: the hand ends dead, nobody scores"))
        return out

    # -- discarding and knocking -------------------------------------------------------------

    def _discard(self, view: SeatView, dec: _Decision, legal: list[Action]) -> list[tuple[Action, float, str]]:
        hand = view.hand
        taken = view.taken
        p = self.params
        discards = [a for a in legal if a.kind is Kind.DISCARD]
        knocks = [a for a in legal if a.kind is Kind.KNOCK]
        out: list[tuple[Action, float, str]] = []
        costs: dict[int, float] = {}
        for a in discards:
            d = a.card
            rest = hand & ~(1 << d)
            v = dec.value(rest)
            dz = dec.danger(d) if p.danger or dec.take_knock else 0.0
            cost = v + p.danger * dz + dec.gift(rest, dz)
            reason = f"discard {card_str(d)}: {_outlook_words(dec, rest)}"
            if dz >= 0.25:
                reason += f"; {dz:.0%} chance it gives the opponent a meld"
            if taken is not None and d == taken:
                cost += 1000.0
                reason = f"{card_str(d)} was just taken: throwing it back wastes the turn"
            costs[d] = cost
            out.append((a, -cost, reason))
        if not knocks:
            return out
        # Knocks: gin at once; otherwise weigh knocking now against one more turn.
        by_dw = sorted((deadwood(hand & ~(1 << a.card)), a.card, a) for a in knocks)
        best_dw = by_dw[0][0]
        if best_dw == 0:
            for dw, _, a in by_dw:
                out.append((a, 1000.0 - dw, "gin: every card in melds" if dw == 0 else f"knock with {dw}"))
            return out
        # The knock discard: lowest deadwood, then the one whose arrangement leaves the fewest layoffs.
        cands = [t for t in by_dw if t[0] == best_dw]
        evs = []
        for _dw, c, _a in cands[:3]:
            ev, _melds = self._knock_ev(view, dec, hand & ~(1 << c))
            evs.append((ev, c))
        ev_knock, knock_card = max(evs)
        wait = self._wait_ev(view, dec, hand & ~(1 << knock_card))
        base_cost = min(costs.values()) if costs else 0.0
        knock_wins = ev_knock >= wait + self._wait_margin(view) or not discards
        for dw, c, a in by_dw:
            if c == knock_card:
                val = ev_knock if knock_wins else min(ev_knock, wait - 1e-6)
                out.append((a, val, f"knock with {dw}: expected {ev_knock:+.1f} points (waiting {wait:+.1f})"))
            else:
                out.append((a, ev_knock - (dw - best_dw) - 0.5 - (0 if knock_wins else 1e6),
                            f"knock with {dw}: more deadwood than needed"))
        # Put the discards on the points scale so a knock compares with them.
        if knock_wins:
            shift = min(ev_knock, wait) - 1.0
        else:
            shift = wait + 1.0
        out = [
            (a, shift + (v + base_cost) if a.kind is Kind.DISCARD else v, r) for a, v, r in out
        ]
        return out

    def _wait_margin(self, view: SeatView) -> float:
        """The knock-or-wait margin for these rules: the undercut bonus decides what waiting is worth."""
        p = self.params
        return p.wait_margin_low + (p.wait_margin - p.wait_margin_low) * _undercut_weight(view.rules.undercut_bonus)

    def _hand_mult(self, view: SeatView) -> int:
        return view.rules.hand_multiplier(view.upcard)

    def _arrangement(self, dec: _Decision, hand10: int, limit: int) -> tuple[int, list[int]]:
        """The lowest-deadwood arrangement with the fewest likely layoffs."""
        options = arrangements(hand10, limit)
        if not options:
            d, melds = best_arrangement(hand10)
            return d, melds
        low = options[0][0]
        best: tuple[float, int, list[int]] | None = None
        p_opp = dec.k.p_opp
        known = dec.k.opp_known
        for d, melds in options:
            if d != low:
                break
            exp = 0.0
            for m in melds:
                t = layoff_targets(m)
                exp += (t & known).bit_count()
                for c in cards_of(t & dec.k.unseen):
                    exp += p_opp[c]
            if best is None or exp < best[0]:
                best = (exp, d, melds)
        assert best is not None
        return best[1], best[2]

    def _knock_ev(self, view: SeatView, dec: _Decision, hand10: int) -> tuple[float, list[int]]:
        """Expected utility of knocking with these ten cards, over sampled opponent hands."""
        rules = view.rules
        k, melds = self._arrangement(dec, hand10, dec.limit)
        mult = self._hand_mult(view)
        ss = dec.samples()
        if not ss:
            return float(_knock_points(rules.gin_bonus, rules.undercut_bonus, k, 25)), melds
        total = 0.0
        for s in ss:
            if k == 0:
                pts = rules.gin_bonus + deadwood(s)
            else:
                dd = best_defense(s, melds).deadwood
                pts = _knock_points(rules.gin_bonus, rules.undercut_bonus, k, dd)
            total += dec.utility(pts * mult)
        return total / len(ss), melds

    def _wait_ev(self, view: SeatView, dec: _Decision, hand10: int) -> float:
        """Expected utility of discarding instead of knocking and knocking (or gin) next turn.

        One simulated round per sample: the opponent draws from the stock and knocks if it
        can (else discards its worst card); then we draw and knock with what we have.
        """
        rules = view.rules
        stock = view.stock_size
        if stock <= rules.dead_hand_stock:
            return 0.0  # discarding now ends the hand dead
        ss = dec.samples()
        if not ss or not dec.stock_w:
            return 0.0
        mult = self._hand_mult(view)
        rng = dec.rng
        pool = [c for c, _ in dec.stock_w]
        weights = [w for _, w in dec.stock_w]
        limit = dec.limit
        k_now = deadwood(hand10)
        opp_last = stock - 1 <= rules.dead_hand_stock  # the opponent's turn is the last one
        total = 0.0
        for s in ss:
            u = rng.choices(pool, weights)[0]
            s2 = s | 1 << u
            kd, drops = _best_discards(s2)
            if kd <= limit:
                # The opponent knocks; we defend with our ten cards (layoffs ignored: a safe estimate).
                if kd == 0:
                    pts = -(rules.gin_bonus + k_now)
                elif k_now <= kd:
                    pts = kd - k_now + rules.undercut_bonus
                else:
                    pts = -(k_now - kd)
                total += dec.utility(pts * mult)
                continue
            if opp_last:
                continue  # dead hand: 0
            s10 = s2 & ~(1 << drops)
            c = u
            while c == u:
                c = rng.choices(pool, weights)[0]
            h = hand10 | 1 << c
            k2, drop = _best_discards(h)
            h10 = h & ~(1 << drop)
            if k2 == 0:
                pts = rules.gin_bonus + deadwood(s10)
            elif k2 <= limit:
                _, melds = best_arrangement(h10)
                pts = _knock_points(rules.gin_bonus, rules.undercut_bonus, k2, best_defense(s10, melds).deadwood)
            else:
                pts = 0  # cannot happen often: we keep the knocking hand
            total += dec.utility(pts * mult)
        return total / len(ss)

    # -- laying out ----------------------------------------------------------------------------

    def _layout(self, view: SeatView, dec: _Decision, legal: list[Action]) -> list[tuple[Action, float, str]]:
        from ..hand import Phase

        legal_set = set(legal)
        choice: Action | None = None
        reason = ""
        if view.phase is Phase.LAYOUT:
            laid = 0
            for m in view.knocker_melds:
                laid |= m
            rest = view.hand & ~laid
            gin = deadwood(view.hand) == 0
            limit = 0 if gin else view.knock_limit
            if view.hand.bit_count() == 11:
                limit = 0
            _, melds = self._arrangement(dec, rest, limit)
            for m in melds:
                a = Action.lay_meld(m)
                if a in legal_set:
                    choice, reason = a, "lay out the arrangement that leaves the fewest layoffs"
                    break
        elif view.phase is Phase.DEFENDER_LAYOUT:
            laid = 0
            for m in view.defender_melds:
                laid |= m
            rest = view.hand & ~laid
            knocker_cards = sum(m.bit_count() for m in view.knocker_melds)
            if knocker_cards >= view.opponent_size:
                _, melds = best_arrangement(rest)
            else:
                melds = best_defense(rest, list(view.knocker_melds)).melds
            for m in melds:
                a = Action.lay_meld(m)
                if a in legal_set:
                    choice, reason = a, "your melds for the lowest count after layoffs"
                    break
        else:
            seq = _best_layoffs(view)
            for c, t in seq:
                a = Action.layoff(c, t)
                if a in legal_set:
                    choice, reason = a, f"lay off {card_str(c)}"
                    break
        if choice is None:
            choice = DONE if DONE in legal_set else legal[0]
            reason = "done" if choice == DONE else "the only way on"
        return [(a, 1.0 if a == choice else 0.0, reason if a == choice else "not the best layout") for a in legal]


#: Hand results are at most this many points either way (gin on 100 points of deadwood, doubled).
_SPAN = 300


@lru_cache(maxsize=64)
def _worth_table(target: int, gin_bonus: int, undercut_bonus: int, me: int, opp: int) -> tuple[float, ...]:
    return tuple(points_equivalent(target, gin_bonus, undercut_bonus, me, opp, _SPAN))


def _best_discards(mask: int) -> tuple[int, int]:
    """Lowest deadwood after one discard and that discard."""
    best, card = 1 << 30, -1
    for c in cards_of(mask):
        v = deadwood(mask & ~(1 << c))
        if v < best:
            best, card = v, c
    return best, card


def _best_layoffs(view: SeatView) -> list[tuple[int, int]]:
    """Layoffs that shed the most deadwood points (a short exact search; chains included)."""
    laid = 0
    for m in view.defender_melds:
        laid |= m
    for c, _ in view.layoffs:
        laid |= 1 << c
    rest = view.hand & ~laid
    melds = [m | view.laid_on[i] if i < len(view.laid_on) else m for i, m in enumerate(view.knocker_melds)]

    best_val = 0
    best_seq: list[tuple[int, int]] = []

    seen: set[tuple[int, tuple[int, ...]]] = set()

    def walk(rest: int, melds: list[int], val: int, seq: list[tuple[int, int]]) -> None:
        nonlocal best_val, best_seq
        key = (rest, tuple(melds))
        if key in seen:
            return
        seen.add(key)
        if val > best_val:
            best_val, best_seq = val, list(seq)
        for t, m in enumerate(melds):
            for c in cards_of(layoff_targets(m) & rest):
                melds2 = list(melds)
                melds2[t] = m | 1 << c
                seq.append((c, t))
                walk(rest & ~(1 << c), melds2, val + CARD_VALUES[c], seq)
                seq.pop()

    walk(rest, melds, 0, [])
    return best_seq


__all__ = ["ExpertParams", "ExpertPlayer", "Knowledge", "build_knowledge"]
