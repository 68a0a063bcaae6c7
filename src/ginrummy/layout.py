"""Laying out after a knock: layoffs, the knocker's choice of melds, the default layout.

The one place that searches layoffs (:func:`layoff_targets`, :func:`layoff_options`,
:func:`best_defense`, :func:`best_layoffs`) and plans a layout.

The layout phases are decisions too (which melds the knocker shows matters for layoffs), so
players choose them from ``view.legal`` like any other action. :func:`layout_action` is the
default choice, computed from the view alone: the knocker's arrangement with the lowest
deadwood and then the fewest cards the defender could lay off among the cards the knocker has
not seen (:func:`knocker_choice`), and the defender's lowest count
(:func:`best_defense`). The engine's ``Hand.auto_layout``, the computer
players, the terminal and the web app all lay out through it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import product
from typing import TYPE_CHECKING, Final, NamedTuple

from .actions import DONE, Action
from .cards import CARD_VALUES, FULL_DECK, Card, cards_of
from .events import LAYOUT_PHASES, Phase
from .melds import ALL_MELDS, RANK_MASK, best_arrangement, deadwood, is_set, melds_in, points

if TYPE_CHECKING:  # views are only read here, so importing the package for the ledger stays light
    from .observation import SeatView

_P_DEFENDER_LAYOUT = Phase.DEFENDER_LAYOUT
_P_LAYOFF = Phase.LAYOFF
_P_LAYOUT = Phase.LAYOUT


# ---------------------------------------------------------------------------------------------
# Layoffs and the knocker's choice of melds (the one layoff search)


#: Whether each meld of ``ALL_MELDS`` is a set (True) or a run (False).
_MELD_IS_SET: Final[dict[int, bool]] = {m: i < 65 for i, m in enumerate(ALL_MELDS)}


def layoff_targets(meld: int, laid: int = 0) -> int:
    """Cards that could be laid off on a meld now (given cards already laid off on it).

    A set takes its missing fourth card; a run takes the next card at either end.

    >>> from ginrummy.cards import CardSet
    >>> str(CardSet(layoff_targets(CardSet.parse('4h 5h 6h').mask)))
    '3h 7h'
    """
    full = meld | laid
    kind = _MELD_IS_SET.get(meld)
    if kind is not None and full > 0:
        # A meld from the table (the usual case): no card lists, just the end bits.
        if kind:
            return (RANK_MASK << (((meld & -meld).bit_length() - 1) % 13)) & ~full
        lo = (full & -full).bit_length() - 1
        hi = full.bit_length() - 1
        out = 0
        if lo % 13 > 0:
            out |= 1 << (lo - 1)
        if hi % 13 < 12:
            out |= 1 << (hi + 1)
        return out
    if is_set(meld):
        rank = cards_of(meld)[0] % 13
        return (RANK_MASK << rank) & ~full
    cards = cards_of(full)
    lo, hi = cards[0], cards[-1]
    out = 0
    if lo % 13 > 0:
        out |= 1 << (lo - 1)
    if hi % 13 < 12:
        out |= 1 << (hi + 1)
    return out


def layoff_exposure(melds: Sequence[int], hidden: int) -> int:
    """How many cards among ``hidden`` could be laid off directly on these melds."""
    n = 0
    for m in melds:
        n += (layoff_targets(m) & hidden).bit_count()
    return n


def knocker_choice(mask: int, limit: int, hidden: int | None = None) -> tuple[int, list[int]] | None:
    """The arrangement best for the knocker: lowest deadwood, then fewest cards the
    defender could lay off (among ``hidden``, by default every card not in the hand).

    None when no arrangement is at or under the limit.

    The same answer as taking, among ``arrangements(mask, limit)`` with the lowest deadwood,
    the first with the least (exposure, number of melds), but found by the same walk pruned
    to the arrangements that can still reach the lowest deadwood (``deadwood(mask)``): a
    branch whose free cards cannot get there is not entered. Every knock asks this, and the
    full list was most of its cost.
    """
    low = deadwood(mask)
    if low > limit:
        return None
    if hidden is None:
        hidden = ((1 << 52) - 1) & ~mask
    candidates = melds_in(mask)
    total = points(mask)
    best: tuple[int, list[int]] | None = None
    best_key = (0, 0)

    def walk(start: int, used: int, chosen: list[int], melded: int) -> None:
        nonlocal best, best_key
        if total - melded == low:
            key = (layoff_exposure(chosen, hidden), len(chosen))
            if best is None or key < best_key:
                best, best_key = (low, list(chosen)), key
        for i in range(start, len(candidates)):
            m = candidates[i]
            if m & used or deadwood(mask & ~(used | m)) > low:
                continue
            chosen.append(m)
            walk(i + 1, used | m, chosen, melded + points(m))
            chosen.pop()

    walk(0, 0, [], 0)
    return best


class Defense(NamedTuple):
    """A defender's best answer to a knock: deadwood left, own melds, layoffs in order."""

    deadwood: int
    melds: list[int]
    layoffs: list[tuple[Card, int]]  # (card, index of the knocker's meld)


def layoff_options(meld: int, hand: int) -> list[tuple[int, list[Card]]]:
    """Each way to lay off cards of ``hand`` on one meld (as extended so far): (mask, cards in
    an order the engine accepts, each extending the meld as it then stands)."""
    if is_set(meld):
        extra = layoff_targets(meld) & hand
        return [(0, [])] + ([(extra, [cards_of(extra)[0]])] if extra else [])
    cards = cards_of(meld)
    lo, hi = cards[0], cards[-1]
    down: list[Card] = []
    c = lo - 1
    while c >= 0 and c // 13 == lo // 13 and hand >> c & 1:
        down.append(c)
        c -= 1
    up: list[Card] = []
    c = hi + 1
    while c < 52 and c // 13 == hi // 13 and hand >> c & 1:
        up.append(c)
        c += 1
    out = []
    for i in range(len(down) + 1):
        for j in range(len(up) + 1):
            seq = down[:i] + up[:j]
            m = 0
            for x in seq:
                m |= 1 << x
            out.append((m, seq))
    return out


def best_defense(hand: int, knocker_melds: Sequence[int]) -> Defense:
    """The defender's lowest count: own melds plus chained layoffs on the knocker's melds.

    The knocker's layout in 000's example: 4-5-6♥, three 9s, T-J-Q♣; Sam lays off 7♥ and 9♥.

    >>> from ginrummy.cards import CardSet, card_str
    >>> knocker = [CardSet.parse(m).mask for m in ('4h 5h 6h', '9s 9d 9c', 'Tc Jc Qc')]
    >>> sam = CardSet.parse('Ks Kh Kd 5s 6s 7s 7h 9h 3c Ad').mask
    >>> d = best_defense(sam, knocker)
    >>> d.deadwood, [(card_str(c), i) for c, i in d.layoffs]
    (4, [('7h', 0), ('9h', 1)])
    """
    per_meld = [layoff_options(m, hand) for m in knocker_melds]
    best: Defense | None = None
    for combo in product(*per_meld) if per_meld else [()]:
        laid = 0
        ok = True
        for m, _ in combo:
            if laid & m:
                ok = False
                break
            laid |= m
        if not ok:
            continue
        rest = hand & ~laid
        d = deadwood(rest)
        if best is None or d < best.deadwood or (d == best.deadwood and laid.bit_count() < _laid_count(best)):
            _, melds = best_arrangement(rest)
            layoffs = [(c, i) for i, (_, seq) in enumerate(combo) for c in seq]
            best = Defense(d, melds, layoffs)
    assert best is not None
    return best


def _laid_count(d: Defense) -> int:
    return len(d.layoffs)



# ---------------------------------------------------------------------------------------------
# The default layout, from a seat's view


@lru_cache(maxsize=8192)
def _knocker_plan(hand: int, limit: int, hidden: int) -> tuple[int, ...]:
    choice = knocker_choice(hand, limit, hidden)
    return () if choice is None else tuple(choice[1])


@lru_cache(maxsize=8192)
def _gin_defense(hand: int) -> tuple[int, ...]:
    return tuple(best_arrangement(hand)[1])


@lru_cache(maxsize=8192)
def _defense_plan(hand: int, knocker_melds: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[tuple[int, int], ...]]:
    d = best_defense(hand, knocker_melds)
    return tuple(d.melds), tuple(d.layoffs)


def knocker_layout(view: SeatView) -> list[int]:
    """The knocker's default melds: lowest deadwood, then fewest cards the defender could lay
    off among the cards this seat has not seen. Computed from the whole ten (or eleven) cards,
    so it stays the same plan while the melds are laid one by one."""
    return list(_knocker_plan(view.hand, layout_limit(view), FULL_DECK & ~view.seen))


def knocker_limit(cards: int, knock_limit: int) -> int:
    """The most deadwood a knocker's layout of ``cards`` may leave: the rule, written once.

    A knocker whose cards all fit in melds lays them out as gin (0), big gin included;
    otherwise the hand's knock limit.
    """
    return 0 if deadwood(cards) == 0 else knock_limit


def layout_limit(view: SeatView) -> int:
    """:func:`knocker_limit` for the knocker's own view."""
    return knocker_limit(view.hand, view.knock_limit)


def knocker_is_gin(view: SeatView) -> bool:
    """Whether the knocker's laid-out melds hold all their cards (nothing to lay off on gin).

    Public once the knocker is done: the defender sees the melds and the knocker's card count.
    """
    laid = 0
    for m in view.knocker_melds:
        laid |= m
    size = view.opponent_size if view.knocker != view.seat else view.hand.bit_count()
    return laid.bit_count() == size


def best_layoffs(rest: int, melds: Sequence[int]) -> list[tuple[int, int]]:
    """The layoffs of ``rest`` onto ``melds`` (as extended so far) that remove the most points,
    in an order the engine accepts (each card extends its meld as it stands)."""
    options: list[list[tuple[int, list[int]]]] = []
    for meld in melds:
        options.append(layoff_options(meld, rest))
    best: list[tuple[int, int]] = []
    best_value = 0
    for combo in product(*options):
        used = 0
        value = 0
        ok = True
        for mask, _ in combo:
            if used & mask:
                ok = False
                break
            used |= mask
        if not ok:
            continue
        for c in cards_of(used):
            value += CARD_VALUES[c]
        if value > best_value:
            best_value = value
            best = [(c, t) for t, (_, seq) in enumerate(combo) for c in seq]
    return best


def defender_plan(view: SeatView) -> tuple[list[int], list[tuple[int, int]]]:
    """The defender's lowest count from its whole hand: its melds, then its layoffs (none
    against gin)."""
    if knocker_is_gin(view):
        return list(_gin_defense(view.hand)), []
    melds, layoffs = _defense_plan(view.hand, tuple(view.knocker_melds))
    return list(melds), list(layoffs)


def layout_action(view: SeatView, knocker_plan: Callable[[SeatView], list[int]] = knocker_layout) -> Action:
    """The default action in a layout phase (knocker's layout, defender's melds, layoffs).

    Follows the plan of ``knocker_plan`` (by default :func:`knocker_layout`) / :func:`defender_plan`;
    if the melds already on the table are not the plan's (someone chose others), it re-plans
    from the cards still free. Always returns one of ``view.legal``.
    """
    legal = view.legal
    p = view.phase
    if p is _P_LAYOUT:
        return _next_meld(view, knocker_plan(view), view.knocker_melds,
                          lambda free: list(_knocker_plan(free, layout_limit(view), FULL_DECK & ~view.seen)))
    if p is _P_DEFENDER_LAYOUT:
        gin = knocker_is_gin(view)
        return _next_meld(view, defender_plan(view)[0], view.defender_melds,
                          lambda free: list(_gin_defense(free) if gin else _defense_plan(free, view.knocker_melds)[0]))
    if p is _P_LAYOFF:
        melds, layoffs = defender_plan(view)
        done = view.layoffs
        if list(view.defender_melds) == melds and list(done) == layoffs[: len(done)]:
            todo = layoffs[len(done) :]
        else:
            rest = view.hand
            for m in view.defender_melds:
                rest &= ~m
            for c, _ in done:
                rest &= ~(1 << c)
            extended = [m | x for m, x in zip(view.knocker_melds, view.laid_on, strict=True)]
            todo = best_layoffs(rest, extended)
        if todo:
            c, t = todo[0]
            return _pick(Action.layoff(c, t), legal)
        return _pick(DONE, legal)
    raise ValueError(f"not a layout phase: {p.value}")


def layout_outcomes(view: SeatView) -> list[tuple[Action, int]]:
    """Each legal action of a layout phase with the lowest count this seat can still reach
    after it: the knocker's deadwood, or the defender's deadwood after the best layoffs.

    The figure a person choosing a layout by hand compares options by (the default,
    :func:`layout_action`, reaches the lowest); legal order is kept.
    """
    p = view.phase
    if p not in LAYOUT_PHASES:
        raise ValueError(f"not a layout phase: {p.value}")
    extended = [m | x for m, x in zip(view.knocker_melds, view.laid_on, strict=True)]
    out: list[tuple[Action, int]] = []
    if p is _P_LAYOUT:
        rest = view.hand
        for m in view.knocker_melds:
            rest &= ~m
        for a in view.legal:
            out.append((a, points(rest) if a is DONE else deadwood(rest & ~a.meld)))
        return out
    if p is _P_DEFENDER_LAYOUT:
        rest = view.hand
        for m in view.defender_melds:
            rest &= ~m
        gin = knocker_is_gin(view)
        for a in view.legal:
            if a is DONE:
                out.append((a, points(rest) if gin else _after_layoffs(rest, extended)))
            else:
                free = rest & ~a.meld
                out.append((a, deadwood(free) if gin else best_defense(free, extended).deadwood))
        return out
    rest = view.hand
    for m in view.defender_melds:
        rest &= ~m
    for c, _ in view.layoffs:
        rest &= ~(1 << c)
    for a in view.legal:
        if a is DONE:
            out.append((a, points(rest)))
        else:
            grown = list(extended)
            grown[a.target] |= 1 << a.card
            out.append((a, _after_layoffs(rest & ~(1 << a.card), grown)))
    return out


def _after_layoffs(rest: int, melds: Sequence[int]) -> int:
    """The points of ``rest`` left after its best layoffs on ``melds``."""
    left = points(rest)
    for c, _ in best_layoffs(rest, melds):
        left -= CARD_VALUES[c]
    return left


def _next_meld(view: SeatView, plan: list[int], laid: Sequence[int], replan: Callable[[int], list[int]]) -> Action:
    """The plan's next meld not yet laid, then done; re-planned from the free cards if the melds
    on the table are not the plan's (someone chose others)."""
    if not all(m in plan for m in laid):
        free = view.hand
        for m in laid:
            free &= ~m
        plan = replan(free)
    for m in plan:
        if m not in laid:
            return _pick(Action.lay_meld(m), view.legal)
    return _pick(DONE, view.legal)


def _pick(action: Action, legal: Sequence[Action]) -> Action:
    """``action`` if legal; else the safest legal fallback (done, then the first offered).

    The engine hands out one object per action, so an identity scan finds it without a
    dataclass comparison per entry; ``in`` (equality) still decides for any other object.
    """
    for a in legal:
        if a is action:
            return action
    if action in legal:
        return action
    if DONE in legal:
        return DONE
    return legal[0]



__all__ = [
    "LAYOUT_PHASES",
    "Defense",
    "best_defense",
    "knocker_choice",
    "layoff_exposure",
    "layoff_options",
    "layoff_targets",
    "best_layoffs",
    "defender_plan",
    "knocker_is_gin",
    "knocker_layout",
    "layout_action",
    "layout_outcomes",
    "knocker_limit",
    "layout_limit",
]
