"""The one layout planner: the default melds and layoffs after a knock, from a seat's view.

The layout phases are decisions too (which melds the knocker shows matters for layoffs), so
players choose them from ``view.legal`` like any other action. :func:`layout_action` is the
default choice, computed from the view alone: the knocker's arrangement with the lowest
deadwood and then the fewest cards the defender could lay off among the cards the knocker has
not seen (:func:`ginrummy.melds.knocker_choice`), and the defender's lowest count
(:func:`ginrummy.melds.best_defense`). The engine's ``Hand.auto_layout``, the computer
players, the terminal and the web app all lay out through it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import product

from .actions import DONE, Action
from .cards import CARD_VALUES, FULL_DECK, cards_of
from .events import LAYOUT_PHASES, Phase
from .melds import best_arrangement, best_defense, deadwood, knocker_choice, layoff_options
from .observation import SeatView

_P_DEFENDER_LAYOUT = Phase.DEFENDER_LAYOUT
_P_LAYOFF = Phase.LAYOFF
_P_LAYOUT = Phase.LAYOUT


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
        plan = knocker_plan(view)
        laid = view.knocker_melds
        if not all(m in plan for m in laid):
            free = view.hand
            for m in laid:
                free &= ~m
            plan = list(_knocker_plan(free, layout_limit(view), FULL_DECK & ~view.seen))
        for m in plan:
            if m not in laid:
                return _pick(Action.lay_meld(m), legal)
        return _pick(DONE, legal)
    if p is _P_DEFENDER_LAYOUT:
        melds, _ = defender_plan(view)
        laid = view.defender_melds
        if not all(m in melds for m in laid):
            free = view.hand
            for m in laid:
                free &= ~m
            melds = list(_gin_defense(free)) if knocker_is_gin(view) else list(_defense_plan(free, view.knocker_melds)[0])
        for m in melds:
            if m not in laid:
                return _pick(Action.lay_meld(m), legal)
        return _pick(DONE, legal)
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
    "best_layoffs",
    "defender_plan",
    "knocker_is_gin",
    "knocker_layout",
    "layout_action",
    "knocker_limit",
    "layout_limit",
]
