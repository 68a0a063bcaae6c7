"""Knock or wait: the expected utility of knocking now against one more turn, over sampled
opponent hands, and what the opponent's knock would cost.

Opponent hands come from the model (never from the real hand); the defender's best melds and
layoffs on the expert's arrangement score each sample. Waiting is one simulated round: the
opponent draws and knocks if it can (else throws its worst card), then the expert draws and
knocks with what it has. Hand points come from :func:`ginrummy.scoring.score_hand`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from ...cards import cards_of
from ...discard_search import best_discards
from ...layout import best_defense, layoff_targets
from ...melds import arrangements, best_arrangement, deadwood
from ...rules import Rules
from ...scoring import score_hand

if TYPE_CHECKING:
    from ...observation import SeatView
    from .params import ExpertParams
    from .value import Decision


def undercut_weight(bonus: int) -> float:
    """How much the undercut is worth waiting for: 0 at a bonus of 10 or less, 1 at 25 or more.

    >>> undercut_weight(10), undercut_weight(25), undercut_weight(20)
    (0.0, 1.0, 0.6666666666666666)
    """
    return min(1.0, max(0.0, (bonus - 10) / 15))


@lru_cache(maxsize=64)
def _bonus_rules(gin_bonus: int, undercut_bonus: int) -> Rules:
    return Rules(gin_bonus=gin_bonus, undercut_bonus=undercut_bonus)


@lru_cache(maxsize=8192)
def knock_points(gin_bonus: int, undercut_bonus: int, knocker_dw: int, defender_dw: int) -> int:
    """Points of a knock (0: gin) from the knocker's side, negative for an undercut, before the
    hand's multiplier: :func:`~ginrummy.scoring.score_hand`, memoised on its int inputs.

    >>> knock_points(25, 25, 3, 10), knock_points(25, 25, 5, 5), knock_points(25, 25, 0, 7)
    (7, -25, 32)
    """
    r = score_hand(_bonus_rules(gin_bonus, undercut_bonus), knocker=0, knocker_deadwood=knocker_dw,
                   defender_deadwood=defender_dw, knock_limit=knocker_dw)
    return r.points if r.winner == 0 else -r.points


def caught_cost(rules: Rules, knock_counts: Sequence[tuple[int, float]], worth: Callable[[float], float],
                dw: int, d_eff: float) -> float:
    """Expected cost (points, lower is better) if the opponent knocks now against deadwood
    ``dw`` (``d_eff`` after expected layoffs): its count from ``knock_counts``, with a 5% chance
    of gin. ``d_eff`` is fractional, so the knock part is the scoring rule written for real
    counts (it equals :func:`knock_points` at whole ones)."""
    cost = -0.05 * worth(-knock_points(rules.gin_bonus, rules.undercut_bonus, 0, dw))
    under = rules.undercut_bonus
    for k, pk in knock_counts:
        pts = under + k - d_eff if d_eff <= k else k - d_eff
        cost -= 0.95 * pk * worth(pts)
    return cost


def wait_margin(params: ExpertParams, view: SeatView) -> float:
    """The knock-or-wait margin for these rules: the undercut bonus decides what waiting is worth."""
    p = params
    return p.wait_margin_low + (p.wait_margin - p.wait_margin_low) * undercut_weight(view.rules.undercut_bonus)


def _best_discards(mask: int) -> tuple[int, int]:
    """Lowest deadwood after one discard and that discard (the lowest card of those tied)."""
    best, cards = best_discards(mask)
    return best, min(cards)


def arrangement(dec: Decision, hand10: int, limit: int) -> tuple[int, list[int]]:
    """The lowest-deadwood arrangement with the fewest likely layoffs (by the opponent model)."""
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


def knock_ev(view: SeatView, dec: Decision, hand10: int) -> tuple[float, list[int]]:
    """Expected utility of knocking with these ten cards, over sampled opponent hands."""
    rules = view.rules
    gin, under = rules.gin_bonus, rules.undercut_bonus
    k, melds = arrangement(dec, hand10, dec.limit)
    mult = view.rules.hand_multiplier(view.upcard)
    ss = dec.samples()
    if not ss:
        return float(knock_points(gin, under, k, 25)), melds
    total = 0.0
    for s in ss:
        dd = deadwood(s) if k == 0 else best_defense(s, melds).deadwood
        total += dec.utility(knock_points(gin, under, k, dd) * mult)
    return total / len(ss), melds


def wait_ev(view: SeatView, dec: Decision, hand10: int) -> float:
    """Expected utility of discarding instead of knocking and knocking (or gin) next turn.

    One simulated round per sample: the opponent draws from the stock and knocks if it
    can (else discards its worst card); then we draw and knock with what we have.
    """
    rules = view.rules
    gin, under = rules.gin_bonus, rules.undercut_bonus
    stock = view.stock_size
    if stock <= rules.dead_hand_stock:
        return 0.0  # discarding now ends the hand dead
    ss = dec.samples()
    if not ss or not dec.stock_w:
        return 0.0
    mult = rules.hand_multiplier(view.upcard)
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
            total += dec.utility(-knock_points(gin, under, kd, k_now) * mult)
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
            pts = knock_points(gin, under, 0, deadwood(s10))
        elif k2 <= limit:
            _, melds = best_arrangement(h10)
            pts = knock_points(gin, under, k2, best_defense(s10, melds).deadwood)
        else:
            pts = 0  # cannot happen often: we keep the knocking hand
        total += dec.utility(pts * mult)
    return total / len(ss)


__all__ = ["arrangement", "caught_cost", "knock_ev", "knock_points", "undercut_weight", "wait_ev", "wait_margin"]
