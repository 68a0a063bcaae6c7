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

from .actions import DONE, MELD_ACTIONS, Action
from .cards import CARD_VALUES, FULL_DECK, SUIT_MASK, Card, cards_of
from .events import LAYOUT_PHASES, Phase
from .melds import (
    ALL_MELDS,
    MELD_INDEX,
    RANK_MASK,
    RUN_DEAD,
    RUNS_IN,
    SUIT_POINTS,
    best_arrangement,
    deadwood,
    is_set,
    points,
)

if TYPE_CHECKING:  # views are only read here, so importing the package for the ledger stays light
    from .observation import SeatView

_P_DEFENDER_LAYOUT = Phase.DEFENDER_LAYOUT
_P_LAYOFF = Phase.LAYOFF
_P_LAYOUT = Phase.LAYOUT


# ---------------------------------------------------------------------------------------------
# Layoffs and the knocker's choice of melds (the one layoff search)


#: Whether each meld of ``ALL_MELDS`` is a set (True) or a run (False).
_MELD_IS_SET: Final[dict[int, bool]] = {m: i < 65 for i, m in enumerate(ALL_MELDS)}


#: ``layoff_targets(m)`` of every table meld ``m`` (nothing laid off on it yet), filled below.
_TARGETS: Final[dict[int, int]] = {}


def layoff_targets(meld: int, laid: int = 0) -> int:
    """Cards that could be laid off on a meld now (given cards already laid off on it).

    A set takes its missing fourth card; a run takes the next card at either end.

    >>> from ginrummy.cards import CardSet
    >>> str(CardSet(layoff_targets(CardSet.parse('4h 5h 6h').mask)))
    '3h 7h'
    """
    if not laid:
        # A table meld as laid out (each layoff step asks of every meld): from the table.
        got = _TARGETS.get(meld)
        if got is not None:
            return got
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
    the first with the least (exposure, number of melds). Those arrangements are found
    without a search over melds: once the sets are chosen (one way per rank of three or
    four, usually none or one rank), the rest of each suit must be one of that suit's
    best run layouts (:func:`_suit_layouts`, a table filled as suits come up), because runs
    lie within a suit. "First" is the order ``arrangements`` lists them in: by meld ids.

    >>> from ginrummy.cards import CardSet
    >>> d, melds = knocker_choice(CardSet.parse('4h 5h 6h 7h 8h 9h 9s 9d 9c Kc').mask, 10)
    >>> d, [str(CardSet(m)) for m in melds]  # the four 9s: nothing to lay off on them
    (10, ['9s 9h 9d 9c', '4h 5h 6h 7h 8h'])
    """
    s0 = mask & SUIT_MASK
    s1 = mask >> 13 & SUIT_MASK
    s2 = mask >> 26 & SUIT_MASK
    s3 = mask >> 39 & SUIT_MASK
    t = (s0 & s1 & (s2 | s3)) | ((s0 | s1) & s2 & s3)
    dead = RUN_DEAD
    # Each way to use the set ranks (per rank none, the whole rank, or of four any three)
    # with the runs deadwood of the suits it leaves: the least of them is the deadwood.
    low = dead[s0] + dead[s1] + dead[s2] + dead[s3]
    ways: list[tuple[int, tuple[int, ...], int, int, int, int]] = [(low, (), s0, s1, s2, s3)]
    if t:
        # The sets' cards are taken out of the four suit masks by 13-bit operations: per
        # rank its set's mask and its bit in each suit (0 for a suit's card left out).
        while t:
            b = t & -t
            t ^= b
            r0 = s0 & b
            r1 = s1 & b
            r2 = s2 & b
            r3 = s3 & b
            full = mask & RANK_MASK * b
            opts = [(full, r0, r1, r2, r3)]
            if r0 and r1 and r2 and r3:
                opts += [(full ^ b, 0, r1, r2, r3), (full ^ b << 13, r0, 0, r2, r3),
                         (full ^ b << 26, r0, r1, 0, r3), (full ^ b << 39, r0, r1, r2, 0)]
            grown = []
            for _, sets, q0, q1, q2, q3 in ways:
                for x, x0, x1, x2, x3 in opts:
                    grown.append((0, (*sets, x), q0 ^ x0, q1 ^ x1, q2 ^ x2, q3 ^ x3))
            ways += grown
        for i in range(1, len(ways)):
            _, sets, q0, q1, q2, q3 = ways[i]
            d = dead[q0] + dead[q1] + dead[q2] + dead[q3]
            if d < low:
                low = d
            ways[i] = (d, sets, q0, q1, q2, q3)
    if low > limit:
        return None
    if hidden is None:
        hidden = ((1 << 52) - 1) & ~mask
    found: list[list[int]] = []
    g0, g1, g2, g3 = _SUIT_LAYOUTS
    for d, sets, q0, q1, q2, q3 in ways:
        if d != low:
            continue
        # Sets by rank, then runs by suit: meld-id order.
        base = []
        for x in sets:
            if x:
                base.append(x)
        l0 = g0.get(q0) or _suit_layouts(0, q0)
        l1 = g1.get(q1) or _suit_layouts(1, q1)
        l2 = g2.get(q2) or _suit_layouts(2, q2)
        l3 = g3.get(q3) or _suit_layouts(3, q3)
        if len(l0) == len(l1) == len(l2) == len(l3) == 1:
            base += l0[0]
            base += l1[0]
            base += l2[0]
            base += l3[0]
            found.append(base)
            continue
        for combo in product(l0, l1, l2, l3):
            melds = list(base)
            for part in combo:
                melds += part
            found.append(melds)
    if len(found) == 1:
        return low, found[0]
    # The least (exposure, number of melds, meld ids); the ids are listed only on a tie.
    best: tuple[int, int] | None = None
    best_melds: list[int] = []
    best_ids: list[int] | None = None
    for melds in found:
        exposure = 0
        for m in melds:
            exposure += (_TARGETS[m] & hidden).bit_count()
        key = (exposure, len(melds))
        if best is None or key < best:
            best, best_melds, best_ids = key, melds, None
        elif key == best:
            if best_ids is None:
                best_ids = [MELD_INDEX[m] for m in best_melds]
            ids = [MELD_INDEX[m] for m in melds]
            if ids < best_ids:
                best_melds, best_ids = melds, ids
    return low, best_melds


#: Per suit and 13-bit suit mask, its best run layouts (see :func:`_suit_layouts`), filled as asked.
_SUIT_LAYOUTS: tuple[dict[int, tuple[tuple[int, ...], ...]], ...] = ({}, {}, {}, {})


def _suit_layouts(suit: int, s: int) -> tuple[tuple[int, ...], ...]:
    """Every set of disjoint runs in the 13-bit suit mask ``s`` that leaves its least runs
    deadwood (``RUN_DEAD[s]``), each in meld-id order (start, then end) and as card masks of
    ``suit``: usually one (none at all, or the suit's runs), more for a row of six or more
    (one run, or two)."""
    got = _SUIT_LAYOUTS[suit].get(s)
    if got is not None:
        return got
    runs = RUNS_IN[s]
    pts = SUIT_POINTS
    target = pts[s] - RUN_DEAD[s]
    out: list[tuple[int, ...]] = []
    shift = 13 * suit

    def walk(start: int, used: int, chosen: list[int], value: int) -> None:
        if value == target:
            laid = []
            for run in chosen:
                laid.append(run << shift)
            out.append(tuple(laid))
            return
        for i in range(start, len(runs)):
            run = runs[i]
            if run & used:
                continue
            rest = s & ~(used | run)
            if value + pts[run] + pts[rest] - RUN_DEAD[rest] < target:
                continue
            chosen.append(run)
            walk(i + 1, used | run, chosen, value + pts[run])
            chosen.pop()

    walk(0, 0, [], 0)
    got = _SUIT_LAYOUTS[suit][s] = tuple(out)
    return got


_TARGETS.update({m: layoff_targets(m) for m in ALL_MELDS})


#: The one way to lay off nothing on a meld (read only).
_NOTHING: Final[list[tuple[int, list[Card]]]] = [(0, [])]


class Defense(NamedTuple):
    """A defender's best answer to a knock: deadwood left, own melds, layoffs in order."""

    deadwood: int
    melds: list[int]
    layoffs: list[tuple[Card, int]]  # (card, index of the knocker's meld)


def layoff_options(meld: int, hand: int) -> list[tuple[int, list[Card]]]:
    """Each way to lay off cards of ``hand`` on one meld (as extended so far): (mask, cards in
    an order the engine accepts, each extending the meld as it then stands)."""
    kind = _MELD_IS_SET.get(meld)
    if kind is not None:
        # A meld from the table (the usual case): bit arithmetic, no card lists.
        if kind:
            extra = (RANK_MASK << (((meld & -meld).bit_length() - 1) % 13)) & ~meld & hand
            return [(0, []), (extra, [extra.bit_length() - 1])] if extra else [(0, [])]
        lo = (meld & -meld).bit_length() - 1
        hi = meld.bit_length() - 1
        base = lo - lo % 13
        below: list[Card] = []
        c = lo - 1
        while c >= base and hand >> c & 1:
            below.append(c)
            c -= 1
        above: list[Card] = []
        c = hi + 1
        top = base + 12
        while c <= top and hand >> c & 1:
            above.append(c)
            c += 1
        if not below and not above:
            return [(0, [])]
        result = []
        for i in range(len(below) + 1):
            for j in range(len(above) + 1):
                seq = below[:i] + above[:j]
                m = 0
                for x in seq:
                    m |= 1 << x
                result.append((m, seq))
        return result
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
    reach = 0
    for m in knocker_melds:
        reach |= _TARGETS.get(m, -1)
    if reach < 0:
        # Some meld is not a table meld (as extended, say): ask each one.
        reach = 0
        for m in knocker_melds:
            reach |= layoff_targets(m)
    if not reach & hand:
        # Nothing of the hand extends any meld (most knocks): the hand's best arrangement.
        d, melds = best_arrangement(hand)
        return Defense(d, melds, [])
    per_meld = []
    for m in knocker_melds:
        # A meld none of the hand's cards extends has one option, nothing (a shared list).
        per_meld.append(layoff_options(m, hand) if _TARGETS.get(m, -1) & hand else _NOTHING)
    # The first combination with the least deadwood, then the fewest cards laid off; its
    # arrangement is looked up once, at the end.
    best_d = best_n = -1
    best_laid = 0
    best_combo: tuple[tuple[int, list[Card]], ...] = ()
    for combo in product(*per_meld):
        laid = 0
        ok = True
        for m, _ in combo:
            if laid & m:
                ok = False
                break
            laid |= m
        if not ok:
            continue
        d = deadwood(hand & ~laid)
        if best_n < 0 or d < best_d or (d == best_d and laid.bit_count() < best_n):
            best_d, best_n, best_laid, best_combo = d, laid.bit_count(), laid, combo
    _, melds = best_arrangement(hand & ~best_laid)
    layoffs = []
    for i, (_, seq) in enumerate(best_combo):
        for c in seq:
            layoffs.append((c, i))
    return Defense(best_d, melds, layoffs)


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


@lru_cache(maxsize=1024)
def knocker_limit(cards: int, knock_limit: int) -> int:
    """The most deadwood a knocker's layout of ``cards`` may leave: the rule, written once.

    A knocker whose cards all fit in melds lays them out as gin (0), big gin included;
    otherwise the hand's knock limit. Memoized: every step of a layout asks it of the same
    cards (the legal melds, the check of the one played, the player's plan).
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
        if laid and not _all_in(laid, plan):
            plan = list(_knocker_plan(_free(view.hand, laid), layout_limit(view), FULL_DECK & ~view.seen))
        return _next_meld(plan, laid, legal)
    if p is _P_DEFENDER_LAYOUT:
        gin = knocker_is_gin(view)
        plan = list(_gin_defense(view.hand) if gin else _defense_plan(view.hand, tuple(view.knocker_melds))[0])
        laid = view.defender_melds
        if laid and not _all_in(laid, plan):
            free = _free(view.hand, laid)
            plan = list(_gin_defense(free) if gin else _defense_plan(free, view.knocker_melds)[0])
        return _next_meld(plan, laid, legal)
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


def _all_in(laid: Sequence[int], plan: Sequence[int]) -> bool:
    for m in laid:
        if m not in plan:
            return False
    return True


def _free(hand: int, laid: Sequence[int]) -> int:
    for m in laid:
        hand &= ~m
    return hand


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


def _next_meld(plan: list[int], laid: Sequence[int], legal: Sequence[Action]) -> Action:
    """The plan's next meld not yet laid, then done (the plan already re-made from the free
    cards if the melds on the table were not its own)."""
    for m in plan:
        if m not in laid:
            return _pick(MELD_ACTIONS.get(m) or Action.lay_meld(m), legal)
    return _pick(DONE, legal)


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
