"""The expert's tunable numbers (:class:`ExpertParams`).

Each field says what it does; how it was tuned, and the measurements, are in
``docs/strength-log.md``. Variants are passed explicitly: ``ExpertPlayer(params=...)``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ExpertParams:
    """The expert's tunable numbers, tuned against the baselines with ``bench/ab_expert.py`` and
    ``bench/score_ab.py`` (``docs/strength-log.md``)."""

    #: Deadwood-points bonus for a hand that can knock after its next draw.
    knock_bonus: float = 10.0
    #: Extra bonus for a hand that would be gin after its next draw.
    gin_bonus: float = 8.0
    #: The gin bonus when the knock limit is ``gin_only_limit`` or less (straight gin, Oklahoma
    #: with a low upcard): there the chance of gin is nearly all a hand is worth.
    gin_only_bonus: float = 80.0
    gin_only_limit: int = 3
    #: Cost, in deadwood points, of a discard that surely joins a meld of the opponent.
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
    #: Fraction of the opponent's stock draws it is assumed to have used to improve its hand
    #: (for the sampled hands of knock decisions).
    improve: float = 0.5
    #: Opponent hands sampled for knock decisions and danger.
    samples: int = 24
    #: Stock cards sampled for the expectation of a stock draw (draw decision); 0 takes every
    #: unseen card, exactly.
    stock_draws: int = 0
    #: Extra points for a hand result that ends the game (scaled near the target), when ``met``
    #: does not apply.
    game_end: float = 40.0
    #: Weight of the deadwood held now in a hand's value, beside the expectation after the next draw.
    hold_weight: float = 0.0
    #: How much more expectation waiting must promise than knocking before the expert waits,
    #: when the undercut bonus is 25 (EAAI, online, app).
    wait_margin: float = 12.0
    #: The same when the undercut bonus is 10 or less (classic): negative, knock unless waiting
    #: is clearly better; linear in between.
    wait_margin_low: float = -8.0
    #: How ``danger`` is estimated: 1 in closed form from the per-card chances, 0 over the
    #: sampled opponent hands.
    danger_model: int = 1
    #: Deadwood points credited per expected point of the hand's loose cards that would lay off
    #: on the opponent's melds.
    layoff_credit: float = 0.75
    #: 1: around a card the opponent took from the pile and still holds, condition the chances
    #: on some meld with it being in its hand.
    take_melds: int = 1
    #: Extra value per deadwood point below the knock limit when the undercut bonus is 25
    #: (scaled down to nothing at 10): each point less is another chance to undercut a knock.
    undercut_slope: float = 0.5
    #: The opponent's next discard counts as one more possible draw: each unseen card weighted
    #: by its chance to be that discard (held, loose, value ** ``pile_power``), times
    #: ``pile_outs`` (0: off).
    pile_outs: float = 1.5
    pile_power: float = 1.0
    #: The opponent's chance to knock on its next turn, per turn it has had after its first,
    #: capped at ``hazard_cap`` (0: off); a hand's value is mixed with what that knock would cost.
    hazard_rate: float = 0.045
    hazard_cap: float = 0.6
    #: Scale that chance by the value of the opponent's last discard (``HAZARD_BY_LAST``):
    #: 0 off, 1 as measured.
    hazard_last: float = 1.0
    #: Weight of the cost of feeding the opponent a card it melds and knocks with at once (0:
    #: off); a take raises its knock chance by ``take_knock`` + 0.02 per turn, at most
    #: ``take_knock_cap``.
    gift: float = 0.0
    take_knock: float = 0.2
    take_knock_cap: float = 0.45
    #: 1: where only winning the game counts (no game bonus, boxes or Hollywood), a hand result
    #: is worth the change of match equity it causes (:mod:`ginrummy.players.equity`);
    #: 0: hand points plus ``game_end``.
    met: float = 1.0
    #: Weight of the opponent's chance to knock on the turn after next, against the hand our
    #: next draw leaves (0: off).
    hazard_ahead: float = 1.0


__all__ = ["ExpertParams"]
