"""Play hands and games between two :class:`~ginrummy.players.base.Player` objects.

The driver is the only code that holds both a player and the engine's full state, so it is
where "a player decides from its seat's view only" is enforced: each player is handed its
seat's :class:`~ginrummy.observation.SeatView` and nothing else, and every action it returns
goes through the engine's rule checks (``Hand.apply`` / ``Match.apply``).

Why a view builder of our own (:class:`ViewBuilder`): ``Hand.observation`` rebuilds the
seat's event list from the whole history at each call, which makes a hand quadratic in its
length and was most of the time of a fast player's game. ``ViewBuilder`` keeps each seat's
events and extends them with the new steps only, and fills the frozen ``SeatView`` through its
slots. It hides exactly what :func:`ginrummy.observation.observe` hides and returns an equal
``SeatView`` (the tests compare the two after every action of many hands), so a player cannot
tell them apart. ``fast=False`` uses the engine's ``observe`` instead.

The layout phases are decisions too (which melds the knocker shows matters for layoffs), so
players choose them from ``view.legal`` like any other action. :func:`layout_action` is the
default choice, computed from the view alone: the knocker's arrangement with the lowest
deadwood and then the fewest cards the defender could lay off
(:func:`ginrummy.melds.knocker_choice`), and the defender's lowest count
(:func:`ginrummy.melds.best_defense`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from functools import lru_cache
from itertools import product
from typing import Any

from ..actions import DONE, Action, Kind
from ..cards import CARD_VALUES, FULL_DECK, cards_of
from ..hand import Hand, Phase, Step
from ..match import Match
from ..melds import best_arrangement, best_defense, deadwood, knocker_choice, layoff_options
from ..observation import Event, SeatView, observe
from ..scoring import HandResult
from .base import Player

# ---------------------------------------------------------------------------------------------
# Views

# Enum members as module constants: on Python 3.11 each ``Phase.X`` / ``Kind.X`` goes through
# ``EnumType.__getattr__`` (about 0.1 us), a visible cost at a few per decision.
_P_DEAL = Phase.DEAL
_P_DEFENDER_LAYOUT = Phase.DEFENDER_LAYOUT
_P_LAYOFF = Phase.LAYOFF
_P_LAYOUT = Phase.LAYOUT
_P_OVER = Phase.OVER
_K_KNOCK = Kind.KNOCK
_K_STOCK = Kind.STOCK

# ---------------------------------------------------------------------------------------------


#: The SeatView fields in the order the fast builder fills them. If SeatView changes shape, the
#: builder falls back to the engine's ``observe`` (and the equality tests say so).
_FIELDS: tuple[str, ...] = (
    "seat", "dealer", "phase", "current", "rules", "knock_limit", "hand", "opponent_size",
    "opponent_known", "pile", "upcard", "stock_size", "taken", "must_knock", "legal", "events",
    "knocker", "knock_discard", "knocker_melds", "laid_on", "defender_melds", "layoffs", "result",
    "scores",
)
_FAST_OK = tuple(f.name for f in fields(SeatView)) == _FIELDS and hasattr(SeatView, "__slots__")
_SETTERS = tuple(SeatView.__dict__[name].__set__ for name in _FIELDS) if _FAST_OK else ()


def _build_maker() -> Callable[..., SeatView]:
    """A function ``make(seat, dealer, ...)`` that fills a new SeatView's slots in ``_FIELDS`` order.

    Why not ``SeatView(...)``: a frozen dataclass's ``__init__`` sets each of its 24 fields
    through ``object.__setattr__`` by name, which cost about a third of a fast player's whole
    decision. Calling each slot's descriptor directly makes the same object in a third of the
    time; the calls are written out (generated once here) because a loop over them costs half
    again as much.
    """
    if not _FAST_OK:
        return SeatView
    args = ", ".join(f"a{i}" for i in range(len(_FIELDS)))
    body = "".join(f"    s{i}(v, a{i})\n" for i in range(len(_FIELDS)))
    src = f"def make({args}):\n    v = new(SeatView)\n{body}    return v\n"
    namespace: dict[str, Any] = {"new": object.__new__, "SeatView": SeatView}
    namespace.update({f"s{i}": setter for i, setter in enumerate(_SETTERS)})
    exec(src, namespace)  # noqa: S102 - code built above from our own field list only
    maker: Callable[..., SeatView] = namespace["make"]
    return maker


_make_view = _build_maker()

_EVENT_FIELDS = ("seat", "kind", "card", "meld", "target")


def _build_event_maker() -> Callable[[int, Kind, int, int, int], Event]:
    """``make(seat, kind, card, meld, target)``: a new Event through its slot descriptors.

    Why: the view builder makes an event per step, and a frozen dataclass's ``__init__``
    (``object.__setattr__`` by name) costs about twice as much. Falls back to ``Event`` if
    its fields change.
    """
    if tuple(f.name for f in fields(Event)) != _EVENT_FIELDS or not hasattr(Event, "__slots__"):
        return Event
    new = object.__new__
    s0, s1, s2, s3, s4 = (Event.__dict__[name].__set__ for name in _EVENT_FIELDS)

    def make(seat: int, kind: Kind, card: int, meld: int, target: int) -> Event:
        e: Event = new(Event)
        s0(e, seat)
        s1(e, kind)
        s2(e, card)
        s3(e, meld)
        s4(e, target)
        return e

    return make


_make_event = _build_event_maker()
#: Per seat, what the other seat sees of its stock draw and of its knock: no card.
_HIDDEN = tuple((Event(seat, Kind.STOCK, -1), Event(seat, Kind.KNOCK, -1)) for seat in (0, 1))


class ViewBuilder:
    """Each seat's view of one hand, built incrementally; equal to ``observe(hand, seat)``.

    Only the event list is incremental (it is the part that grows with the hand); every other
    field is read from the hand at each call, with the same hiding rules as ``observe``. The
    tests compare the two after every action of many hands under many rule sets, so if
    ``observe`` changes what it reveals, they say so; ``fast=False`` in :func:`play_hand`
    uses ``observe`` itself.
    """

    __slots__ = ("hand", "scores", "_events", "_done", "_tuples")

    def __init__(self, hand: Hand, scores: tuple[int, int] = (0, 0)) -> None:
        self.hand = hand
        self.scores = scores
        self._events: tuple[list[Event], list[Event]] = ([], [])
        self._done = 0
        self._tuples: list[tuple[Event, ...] | None] = [(), ()]

    def _sync(self, seat: int) -> tuple[Event, ...]:
        """The seat's events as a tuple, extended with the steps played since the last call.

        Both seats are brought up to date at once: a public step gives one event that both
        lists share (events are immutable), and only a stock draw or a knock, whose card one
        seat may not see, gives each seat its own. The tuple is kept until the next step.
        """
        history = self.hand.history
        n = len(history)
        if self._done < n:
            mine0, mine1 = self._events
            make = _make_event
            for step in history[self._done :]:
                a = step.action
                k = a.kind
                s = step.seat
                if k is _K_STOCK:
                    # The card drawn from the stock is seen by the drawer only.
                    own = make(s, k, step.drawn, 0, -1)
                    other = _HIDDEN[s][0]
                elif k is _K_KNOCK:
                    # The knocker's discard is face down.
                    own = make(s, k, a.card, 0, -1)
                    other = _HIDDEN[s][1]
                else:
                    ev = make(s, k, a.card, a.meld, a.target)
                    mine0.append(ev)
                    mine1.append(ev)
                    continue
                if s == 0:
                    mine0.append(own)
                    mine1.append(other)
                else:
                    mine0.append(other)
                    mine1.append(own)
            self._done = n
            self._tuples = [None, None]
        events = self._tuples[seat]
        if events is None:
            events = self._tuples[seat] = tuple(self._events[seat])
        return events

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may see now (the same fields and values as ``observe``)."""
        h = self.hand
        if not _FAST_OK:
            return observe(h, seat, self.scores)
        phase = h.phase
        opp = 1 - seat
        opp_hand = h.hands[opp]
        known = h.shown[opp] & opp_hand
        knocker = h.knocker
        if knocker == opp and h.knock_discard is not None:
            known |= h.shown[opp] & 1 << h.knock_discard  # face down: still known (see observe)
        if knocker is not None:
            # Each hand goes face up once its owner has finished laying it out: the knocker's
            # when the defender starts, the defender's when layoffs start. Melds on the table
            # are public before that.
            if opp == knocker:
                revealed = phase is not _P_LAYOUT
                melds = h.knocker_melds
            else:
                revealed = phase is _P_LAYOFF or phase is _P_OVER
                melds = h.defender_melds
            if revealed:
                known = opp_hand
            else:
                for m in melds:
                    known |= m & opp_hand
        current = h.current
        mine = current == seat
        return _make_view(
            seat,
            h.dealer,
            phase,
            current,
            h.rules,
            h.knock_limit,
            h.hands[seat],
            opp_hand.bit_count(),
            known,
            tuple(h.pile),
            h.upcard,
            len(h.stock),
            h.taken if mine else None,
            h.must_knock if mine else False,
            tuple(h.legal_actions()) if mine else (),
            self._sync(seat),
            knocker,
            h.knock_discard if knocker == seat else None,
            # Empty until a knock: skip the tuple() calls then (most of a hand).
            tuple(h.knocker_melds) if h.knocker_melds else (),
            tuple(h.laid_on) if h.laid_on else (),
            tuple(h.defender_melds) if h.defender_melds else (),
            tuple(h.layoffs) if h.layoffs else (),
            h.result,
            self.scores,
        )


# ---------------------------------------------------------------------------------------------
# Layout helpers (from the view alone)
# ---------------------------------------------------------------------------------------------


def seen_mask(view: SeatView) -> int:
    """Cards this seat has seen: its hand, the discard pile, the opponent's known cards and its
    own face-down knock discard. Everything else may still be in the opponent's hand."""
    m = view.hand | view.opponent_known
    for c in view.pile:
        m |= 1 << c
    if view.knock_discard is not None:
        m |= 1 << view.knock_discard
    return m


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
    return list(_knocker_plan(view.hand, layout_limit(view), FULL_DECK & ~seen_mask(view)))


def layout_limit(view: SeatView) -> int:
    """The most deadwood the knocker's layout may leave: 0 for a gin hand, else the knock limit."""
    return 0 if _is_gin_hand(view.hand) else view.knock_limit


def _is_gin_hand(hand: int) -> bool:
    return deadwood(hand) == 0


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
            plan = list(_knocker_plan(free, layout_limit(view), FULL_DECK & ~seen_mask(view)))
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


LAYOUT_PHASES = frozenset({Phase.LAYOUT, Phase.DEFENDER_LAYOUT, Phase.LAYOFF})


# ---------------------------------------------------------------------------------------------
# Playing
# ---------------------------------------------------------------------------------------------


@dataclass
class Clock:
    """Time spent in ``decide`` per seat: total seconds, number of decisions, the slowest one."""

    seconds: list[float] = field(default_factory=lambda: [0.0, 0.0])
    decisions: list[int] = field(default_factory=lambda: [0, 0])
    slowest: list[float] = field(default_factory=lambda: [0.0, 0.0])


Applier = Callable[[Action], Step]


def play_hand(
    hand: Hand,
    players: Sequence[Player],
    *,
    scores: tuple[int, int] = (0, 0),
    apply: Applier | None = None,
    clock: Clock | None = None,
    fast: bool = True,
) -> HandResult:
    """Play a dealt hand to its end; ``players[seat]`` plays seat ``seat``.

    Each player is told ``new_hand(seat)`` first and shown its final view (``hand_over``) at the
    end. ``apply`` plays an action on the engine (``Match.apply`` inside a game; by default
    ``hand.apply``), so every action is checked by the rules. ``clock`` accumulates decision
    times per seat.
    """
    if hand.phase is _P_DEAL:
        raise ValueError("deal the hand before playing it")
    do = apply if apply is not None else hand.apply
    vb = ViewBuilder(hand, scores)
    for seat in (0, 1):
        players[seat].new_hand(seat)
    if clock is None:
        while hand.phase is not _P_OVER:
            seat = hand.current
            view = vb.view(seat) if fast else observe(hand, seat, scores)
            do(players[seat].decide(view))
    else:
        perf = time.perf_counter
        while hand.phase is not _P_OVER:
            seat = hand.current
            view = vb.view(seat) if fast else observe(hand, seat, scores)
            t0 = perf()
            action = players[seat].decide(view)
            dt = perf() - t0
            clock.seconds[seat] += dt
            clock.decisions[seat] += 1
            if dt > clock.slowest[seat]:
                clock.slowest[seat] = dt
            do(action)
    for seat in (0, 1):
        player = players[seat]
        # Most players keep the base class's empty hook: then no final view is built.
        if getattr(player.hand_over, "__func__", None) is not Player.hand_over:
            player.hand_over(vb.view(seat) if fast else observe(hand, seat, scores))
    assert hand.result is not None
    return hand.result


def play_game(
    match: Match,
    players: Sequence[Player],
    *,
    clock: Clock | None = None,
    deck_for: Callable[[int], Sequence[int]] | None = None,
    max_hands: int = 1000,
    fast: bool = True,
) -> None:
    """Play a :class:`~ginrummy.match.Match` to its end; ``players[seat]`` plays seat ``seat``.

    ``deck_for(i)`` gives hand ``i``'s deck order (default: the match's own, from its seed).
    ``max_hands`` guards against a pair of players that never end a game (e.g. gin-only rules
    and dead hand after dead hand).
    """
    n = 0
    while not match.is_over:
        if n >= max_hands:
            raise RuntimeError(f"the game did not end within {max_hands} hands")
        hand = match.start_hand(None if deck_for is None else deck_for(n))
        play_hand(hand, players, scores=match.scores, apply=match.apply, clock=clock, fast=fast)
        n += 1


__all__ = [
    "LAYOUT_PHASES",
    "Clock",
    "ViewBuilder",
    "best_layoffs",
    "defender_plan",
    "knocker_is_gin",
    "knocker_layout",
    "layout_action",
    "play_game",
    "play_hand",
    "seen_mask",
]
