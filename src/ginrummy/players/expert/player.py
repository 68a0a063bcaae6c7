"""The ``expert`` player: what to draw, what to throw, when to knock, how to lay out.

* Draws from the pile only when the hand's value (:mod:`.value`), after the best discard,
  beats the expectation of a stock draw (a two-ply expectation over the unseen cards).
* Discards to minimise that value plus a small *danger* term: the chance the card joins a meld
  of the opponent's hand (:mod:`.knowledge`).
* Knocks when the sampled expectation of knocking beats one more turn of waiting by a margin
  that depends on the undercut bonus (:mod:`.knock`).
* Lays out the arrangement that leaves the fewest likely layoffs, and defends and lays off
  with the table's planner (:mod:`ginrummy.layout`).

Every rule variant comes through the view. All randomness comes from a generator seeded by
the player's seed and the view, so a decision is a pure function of (seed, view), and
:mod:`ginrummy.players.hints` ranks exactly what ``decide`` would play.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import TYPE_CHECKING

from ...actions import DONE, Action, Kind
from ...cards import CARD_VALUES, card_str, cards_of
from ...discard_search import min_deadwood_after_discard
from ...events import Phase
from ...layout import layoff_targets, layout_action, layout_limit
from ...melds import deadwood
from ..base import Player
from .knock import arrangement, knock_ev, wait_ev, wait_margin
from .params import ExpertParams
from .value import Decision

if TYPE_CHECKING:
    from ...observation import SeatView

RANK_MASK = 1 | 1 << 13 | 1 << 26 | 1 << 39


def _outlook_words(dec: Decision, hand10: int) -> str:
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



class ExpertPlayer(Player):
    """The strongest built-in player. See the module docstring for how it decides; ``params``
    (default :class:`ExpertParams`) sets its tunable numbers."""

    name = "expert"

    def __init__(self, seed: int | None = None, params: ExpertParams | None = None) -> None:
        super().__init__(seed)
        self.seed = 0 if seed is None else seed
        self.params = params or ExpertParams()

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
        dec = Decision(view, self.params, rng)
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

    def _draw(self, view: SeatView, dec: Decision, legal: list[Action]) -> list[tuple[Action, float, str]]:
        """Pile or stock (or pass the upcard): compare the hand values the two lead to."""
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
        related = bool(hand & (RANK_MASK << r) & ~(1 << top))
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

    def _last_chance(self, view: SeatView, dec: Decision, legal: list[Action]) -> list[tuple[Action, float, str]]:
        """Take the last discard only to knock with a positive expectation; passing is a dead hand (0)."""
        out: list[tuple[Action, float, str]] = []
        for a in legal:
            if a.kind is Kind.PILE:
                top = view.pile[-1]
                h11 = view.hand | 1 << top
                ev = max(
                    (knock_ev(view, dec, h11 & ~(1 << d))[0] for d in cards_of(view.hand)
                     if deadwood(h11 & ~(1 << d)) <= dec.limit),
                    default=-100.0,
                )
                out.append((a, ev, f"take {card_str(top)} and knock: expected {ev:+.1f} points"))
            else:
                out.append((a, 0.0, "pass: the hand ends dead, nobody scores"))
        return out

    # -- discarding and knocking -------------------------------------------------------------

    def _discard(self, view: SeatView, dec: Decision, legal: list[Action]) -> list[tuple[Action, float, str]]:
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
            ev, _melds = knock_ev(view, dec, hand & ~(1 << c))
            evs.append((ev, c))
        ev_knock, knock_card = max(evs)
        wait = wait_ev(view, dec, hand & ~(1 << knock_card))
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
        """The knock-or-wait margin for these rules (:func:`.knock.wait_margin`)."""
        return wait_margin(self.params, view)

    # -- laying out ----------------------------------------------------------------------------

    def _layout(self, view: SeatView, dec: Decision, legal: list[Action]) -> list[tuple[Action, float, str]]:
        """The knocker lays out its own arrangement with the fewest likely layoffs (by the
        opponent model); the defender's melds are the table's plan (:func:`ginrummy.layout.layout_action`).

        Layoffs keep their own search: for a card that extends two melds it lays on the first,
        where :func:`ginrummy.layout.best_layoffs` may pick another (same points, other record)."""
        choice: Action | None = None
        reason = ""
        if view.phase is Phase.LAYOUT:
            rest = view.hand
            for m in view.knocker_melds:
                rest &= ~m
            _, melds = arrangement(dec, rest, layout_limit(view))
            for m in melds:
                a = Action.lay_meld(m)
                if a in legal:
                    choice, reason = a, "lay out the arrangement that leaves the fewest layoffs"
                    break
        elif view.phase is Phase.DEFENDER_LAYOUT:
            a = layout_action(view)
            if a != DONE:
                choice, reason = a, "your melds for the lowest count after layoffs"
        else:
            for c, t in _best_layoffs(view):
                a = Action.layoff(c, t)
                if a in legal:
                    choice, reason = a, "the most deadwood laid off"
                    break
        if choice is None:
            choice = DONE if DONE in legal else legal[0]
            reason = "done" if choice == DONE else "the only way on"
        return [(a, 1.0 if a == choice else 0.0, reason if a == choice else "not the best layout") for a in legal]


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


__all__ = ["ExpertPlayer"]
