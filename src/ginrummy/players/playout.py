"""Fast playouts of the rest of a hand on bitmasks, for the expert's Monte-Carlo decisions.

A playout takes one *determinization* (an opponent hand and a stock order sampled from what
the seat may know, never the real ones) and plays the hand to its end with a fixed, cheap
policy for both seats:

* draw: take the pile's top card when it lowers the deadwood (after the best discard,
  which may not be the card taken), else draw from the stock;
* discard: the card leaving the least deadwood, the highest-valued among ties;
* knock: the opponent as soon as it may (what most players and bots do); the expert's seat
  only at or under ``self_knock`` (its own rule is to wait for gin or an undercut);
* the dead-hand wall ends the hand with no score.

The expert compares its legal actions by the mean result of playouts that share their
determinizations (common random numbers), which is a policy improvement over the playout
policy; the expert's own heuristics choose which actions are worth a playout.

Everything here is plain ints and lists; one playout of a typical hand takes about 0.1 ms.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import CARD_VALUES
from ..melds import best_arrangement, best_defense, best_discards, deadwood, min_deadwood_after_discard


def knock_points(gin: int, under: int, knocker_dw: int, defender_dw: int) -> int:
    """Points of a knock from the knocker's side (negative when undercut; an equal count is one).

    >>> knock_points(25, 25, 4, 9), knock_points(25, 25, 6, 6), knock_points(25, 25, 0, 30)
    (5, -25, 55)
    """
    if knocker_dw == 0:
        return gin + defender_dw
    if knocker_dw < defender_dw:
        return defender_dw - knocker_dw
    return -(knocker_dw - defender_dw + under)


def score_knock(knocker: int, defender: int, gin: int, under: int, melds: Sequence[int] | None = None) -> int:
    """Points from the knocker's side of knocking with ``knocker`` (10 cards) against ``defender``.

    The defender lays off on the knocker's melds except after gin; ``melds`` is the knocker's
    layout (its best arrangement when not given).
    """
    if melds is None:
        kd, melds = best_arrangement(knocker)
    else:
        kd = deadwood(knocker)
    if kd == 0:
        return gin + deadwood(defender)
    return knock_points(gin, under, kd, best_defense(defender, melds).deadwood)


def _choose(cards: list[int]) -> int:
    """The highest-valued card of tied best discards (the last one on equal value)."""
    best = cards[0]
    bv = CARD_VALUES[best]
    for c in cards[1:]:
        v = CARD_VALUES[c]
        if v >= bv:
            best, bv = c, v
    return best


def playout(
    me: int,
    opp: int,
    stock: Sequence[int],
    top: int,
    opp_to_move: bool,
    *,
    force: int = 0,
    limit: int,
    self_knock: int,
    dead: int,
    gin: int,
    under: int,
) -> int:
    """Play the hand out; points from ``me``'s side (0 for a dead hand).

    ``me`` and ``opp`` are 10-card masks, ``stock`` the stock in drawing order, ``top`` the
    discard pile's top card (-1 for none; only the top may be taken, and after it is taken
    the playout never offers the card beneath). The seat to move is about to draw; ``force``
    fixes that first draw (1: the pile's top, 2: the stock) instead of the policy's choice.

    >>> from ginrummy.cards import CardSet
    >>> m = lambda s: CardSet.parse(s).mask
    >>> me = m('As 2s 3s 4h 5h 6h 7c 7d 7s Kd')      # deadwood 10
    >>> opp = m('2c 4c 6c 8c Tc 3d 5d 9d Jd Qh')     # nothing melded
    >>> stock = [m('8s').bit_length() - 1, m('Kh').bit_length() - 1]
    >>> playout(me, opp, stock, -1, False, limit=10, self_knock=10, dead=0, gin=25, under=25)
    59
    >>> playout(me, opp, stock, -1, False, limit=10, self_knock=0, dead=0, gin=25, under=25)
    0
    """
    hands = [me, opp]
    dws = [deadwood(me), deadwood(opp)]
    knock_at = (self_knock, limit)
    turn = 1 if opp_to_move else 0
    i = 0
    n = len(stock)
    while True:
        h = hands[turn]
        took = False
        if force:
            if force == 1:
                bit = 1 << top
                d11, cards = best_discards(h | bit, bit)
                h |= bit
                took = True
            force = 0
        elif top >= 0:
            bit = 1 << top
            # Below the current deadwood, the best discard is not the card taken itself.
            if min_deadwood_after_discard(h | bit) < dws[turn]:
                d11, cards = best_discards(h | bit, bit)
                h |= bit
                took = True
        if not took:
            c = stock[i]
            i += 1
            h |= 1 << c
            d11, cards = best_discards(h)
        card = _choose(cards)
        h &= ~(1 << card)
        if d11 == 0 or d11 <= knock_at[turn]:
            pts = score_knock(h, hands[1 - turn], gin, under)
            return pts if turn == 0 else -pts
        if n - i <= dead:
            return 0
        hands[turn] = h
        dws[turn] = d11
        top = card
        turn ^= 1
