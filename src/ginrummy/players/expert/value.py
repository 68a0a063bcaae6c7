"""The expert's per-decision caches and its value of a 10-card hand (:class:`Decision`).

A hand is scored by the *expected* shaped deadwood after its next draw from the stock (exact
``min_deadwood_after_discard`` for every unseen card, weighted by the chance it is still in the
stock), with bonuses for being able to knock or go gin then. Loose cards that would lay off on
the opponent's melds are credited; the opponent's next discard counts as one more possible
draw; and the value is mixed, by the chance the opponent knocks on its next turn (and the one
after), with what that knock would cost. Hand results are weighed by the match score
(:meth:`Decision.utility`).
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import TYPE_CHECKING

from ...cards import CARD_VALUES, SUIT_MASK, cards_of
from ...discard_search import min_deadwood_after_discard
from ...melds import best_arrangement, deadwood, deadwood_cards, joins_meld
from ..equity import points_equivalent
from .knock import caught_cost, undercut_weight
from .knowledge import (
    HAZARD_BY_LAST,
    build_knowledge,
    drop_worst,
    layoff_chance,
    meld_join_chance,
    next_discard_chances,
)
from .params import ExpertParams

if TYPE_CHECKING:
    from ...observation import SeatView

#: Hand results are at most this many points either way (gin on 100 points of deadwood, doubled).
_SPAN = 300


@lru_cache(maxsize=64)
def _worth_table(target: int, gin_bonus: int, undercut_bonus: int, me: int, opp: int) -> tuple[float, ...]:
    return tuple(points_equivalent(target, gin_bonus, undercut_bonus, me, opp, _SPAN))


class Decision:
    """Per-decision caches: hand values, stock weights and opponent samples."""

    def __init__(self, view: SeatView, params: ExpertParams, rng: random.Random) -> None:
        self.view = view
        self.params = params
        self.rng = rng
        self.k = build_knowledge(view, params)
        self.limit = view.knock_limit
        self.slope = params.undercut_slope * undercut_weight(view.rules.undercut_bonus)
        # Weight of each unseen card as the next stock card: the chance it is not in the opponent's hand.
        self.stock_w = [(c, 1.0 - self.k.p_opp[c]) for c in self.k.unseen_cards]
        tw = sum(x for _, x in self.stock_w)
        self.stock_total = tw if tw > 0 else 1.0
        #: Per 10-card hand: its value, then (for hints) the expected deadwood after the next
        #: draw and the chances to knock and to go gin then; one pass over the stock gives all four.
        self._val: dict[int, tuple[float, float, float, float]] = {}
        self._layoff_memo: dict[int, float] = {}
        self._caught_val: dict[int, float] = {}
        #: ``caught_cost`` by (deadwood, expected layoff points): hands of one decision share them.
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
                scale = 1.0 + params.hazard_last * (HAZARD_BY_LAST[CARD_VALUES[ds[-1]]] - 1.0)
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
            q = next_discard_chances(k.p_opp, k.opp_known, k.unseen_cards, params.pile_power)
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
                        cd = caught_at[d, lp1] = self.caught_cost(d, d - lp1)
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
            caught = self.caught_cost(dw, dw - lp)
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

    def caught_cost(self, dw: int, d_eff: float) -> float:
        """Expected cost if the opponent knocks now against deadwood ``dw`` (``d_eff`` after
        expected layoffs), weighed by the match equity when it decides (no premium here)."""
        worth = self.utility if self.worth is not None else float
        return caught_cost(self.view.rules, self._knock_counts, worth, dw, d_eff)

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
                x = memo[c] = CARD_VALUES[c] * layoff_chance(k.p_opp, k.opp_known, c)
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
                m = drop_worst(m, extra, k.opp_known)
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
            return meld_join_chance(self.k.p_opp, self.k.opp_known, card)
        ss = self.samples()
        if not ss:
            return 0.0
        hits = 0
        for s in ss:
            if joins_meld(s, card):
                hits += 1
        return hits / len(ss)


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



__all__ = ["Decision"]
