"""The driver: views kept step by step equal to the history's, hidden information never reaches a player,
layouts from the view alone, whole hands and games."""

from __future__ import annotations

from dataclasses import fields

import pytest

from conftest import mask, reference_history
from ginrummy.actions import Action, Kind
from ginrummy.events import Phase
from ginrummy.hand import Hand, new_hand
from ginrummy.layout import best_defense, best_layoffs, layout_action
from ginrummy.match import Match
from ginrummy.melds import deadwood
from ginrummy.observation import Event, SeatView, observe
from ginrummy.players import get_player
from ginrummy.players.base import Player
from ginrummy.players.driver import play_game, play_hand
from ginrummy.rules import Rules
from ginrummy.scoring import HandResult

VARIANTS = [
    Rules.preset("eaai"),
    Rules(last_chance=True, throw_back=True),
    Rules(upcard=False),
    Rules.preset("app"),
    Rules(oklahoma=True, knock_limit=10),
    Rules(knock_limit=0),
]


def test_the_incremental_information_state_equals_one_derived_from_the_whole_history() -> None:
    """Each seat's view is kept step by step; after every action of many hands (and in a clone)
    it is exactly what a from-scratch reading of the history gives."""
    checked = 0
    for rules in VARIANTS:
        for names in (("random", "random"), ("greedy", "simple"), ("easy", "greedy")):
            players = [get_player(n, seed=3) for n in names]
            for i in range(2 if names[0] == "random" else 4):
                h = new_hand(rules, i % 2, seed=100 + i)
                while True:
                    for seat in (0, 1):
                        for v in (observe(h, seat, (7, 11)), observe(h.clone(), seat, (7, 11))):
                            events, discards, taken, declined, draws = reference_history(h, seat)
                            assert list(v.events) == events
                            assert [e.text() for e in v.events] == [e.text() for e in events]
                            assert (list(v.opponent_discards), list(v.opponent_taken), list(v.opponent_declined)) == (
                                discards, taken, declined)
                            assert v.opponent_stock_draws == draws and v.scores == (7, 11)
                        checked += 1
                    if h.is_over:
                        break
                    h.apply(players[h.current].decide(observe(h, h.current)))
    assert checked > 1000


# ---------------------------------------------------------------------------------------------
# Hidden information


#: Every field a SeatView has. A new field must be added here on purpose, after checking it
#: cannot carry the opponent's hidden cards, the stock or the face-down knock discard.
SEATVIEW_FIELDS = {
    "seat", "dealer", "phase", "current", "rules", "knock_limit", "hand", "opponent_size", "opponent_known",
    "pile", "upcard", "stock_size", "taken", "must_knock", "legal", "events", "knocker", "knock_discard",
    "knocker_melds", "laid_on", "defender_melds", "layoffs", "result", "scores",
    # Public history only: face-up discards and pile takes, face-up cards passed over, a count.
    "opponent_discards", "opponent_taken", "opponent_declined", "opponent_stock_draws",
}


def test_seatview_has_no_field_that_could_hold_hidden_cards() -> None:
    assert set(SeatView._fields) == SEATVIEW_FIELDS
    # Immutable and without a __dict__: a player cannot attach or change anything.
    view = new_hand(Rules(), dealer=0, seed=1).observation(1)
    with pytest.raises(AttributeError):
        view.hand = 0  # type: ignore[misc]
    with pytest.raises(AttributeError):
        view.note = "x"  # type: ignore[attr-defined]


def _walk(value: object, seen: set[int]) -> list[object]:
    """Every object reachable from a view's field values (containers, events, actions)."""
    out: list[object] = []
    stack = [value]
    while stack:
        v = stack.pop()
        if id(v) in seen:
            continue
        seen.add(id(v))
        out.append(v)
        if isinstance(v, tuple | list):
            stack.extend(v)
        elif isinstance(v, Event | Action | HandResult):
            stack.extend(getattr(v, f.name) for f in fields(v))
    return out


def _mentioned(view: SeatView) -> int:
    """Every card the view names anywhere, as a mask."""
    m = view.hand | view.opponent_known
    for meld in (*view.knocker_melds, *view.laid_on, *view.defender_melds):
        m |= meld
    for c in view.pile:
        m |= 1 << c
    for c in (view.upcard, view.taken, view.knock_discard):
        if c is not None:
            m |= 1 << c
    for c, _ in view.layoffs:
        m |= 1 << c
    for a in view.legal:
        if a.card >= 0:
            m |= 1 << a.card
        m |= a.meld
    for e in view.events:
        if e.card >= 0:
            m |= 1 << e.card
        m |= e.meld
    return m


class Spy(Player):
    """Plays like ``inner`` but checks every view it is given against the true hand."""

    name = "spy"

    def __init__(self, inner: Player, hand_ref: list[Hand]) -> None:
        super().__init__(0)
        self.inner = inner
        self.hand_ref = hand_ref
        self.views = 0

    def check(self, view: SeatView) -> None:
        assert type(view) is SeatView
        h = self.hand_ref[0]
        seat, opp = view.seat, 1 - view.seat
        assert view.hand == h.hands[seat]
        # Nothing reachable from the view is engine state (no Hand, no mutable list to alias).
        for obj in _walk(tuple(view), set()):
            assert not isinstance(obj, Hand | Match | list | dict | set), type(obj)
        secret = 0
        for c in h.stock:
            secret |= 1 << c
        kd = h.knock_discard
        if kd is not None and h.knocker == opp and not h.shown[opp] >> kd & 1 and kd != h.upcard:
            # The face-down discard, unless this seat saw the knocker take that card face up.
            secret |= 1 << kd
        if h.knocker is None:
            # Before a knock only the cards the opponent took face up from the pile are known.
            secret |= h.hands[opp] & ~h.shown[opp]
        assert _mentioned(view) & secret == 0
        for e in view.events:
            if e.seat == opp and e.kind in (Kind.STOCK, Kind.KNOCK):
                assert e.card == -1, "the opponent's stock card or face-down discard leaked"
        self.views += 1

    def decide(self, view: SeatView) -> Action:
        self.check(view)
        return self.inner.decide(view)

    def new_hand(self, seat: int) -> None:
        self.inner.new_hand(seat)

    def hand_over(self, view: SeatView) -> None:
        self.check(view)


def test_hidden_information_never_reaches_a_player() -> None:
    total = 0
    for rules in VARIANTS[:4]:
        for i in range(25):
            h = new_hand(rules, i % 2, seed=500 + i)
            ref = [h]
            spies = [Spy(get_player("greedy" if i % 3 else "random", seed=i), ref),
                     Spy(get_player("simple" if i % 2 else "easy", seed=i), ref)]
            play_hand(h, spies)
            total += spies[0].views + spies[1].views
    assert total > 1500


# ---------------------------------------------------------------------------------------------
# Layout helpers


def test_best_layoffs_chain_on_a_run_and_fill_a_set() -> None:
    run = mask("4h 5h 6h")
    three = mask("9s 9d 9c")
    got = best_layoffs(mask("7h 8h 9h Kd"), [run, three])
    # 7h, 8h (and maybe 9h) chain onto the run in order; 9h goes on the run or the set, once.
    assert {c for c, _ in got} == {card("7h"), card("8h"), card("9h")}
    assert got.index((card("7h"), 0)) < got.index((card("8h"), 0))
    # A set takes its fourth card only.
    assert best_layoffs(mask("9h Kd"), [three]) == [(card("9h"), 0)]
    assert best_layoffs(mask("Kd 2c"), [run, three]) == []


def card(text: str) -> int:
    return mask(text).bit_length() - 1


def test_default_layout_reaches_the_defenders_lowest_count() -> None:
    """After any knock, the view-only layout gives the defender the count ``best_defense`` finds."""
    knocks = 0
    for i in range(120):
        h = new_hand(Rules.preset("eaai"), i % 2, seed=900 + i)
        players = [get_player("greedy", seed=i), get_player("simple", seed=i)]
        defender_hand = 0
        while not h.is_over:
            seat = h.current
            view = observe(h, seat)
            if h.phase is Phase.DEFENDER_LAYOUT and not defender_hand:
                defender_hand = h.hands[seat]
            action = layout_action(view) if view.phase in (
                Phase.LAYOUT, Phase.DEFENDER_LAYOUT, Phase.LAYOFF) else players[seat].decide(view)
            assert action in view.legal
            h.apply(action)
        r = h.result
        assert r is not None
        if r.knocker is not None and r.kind in ("knock", "undercut"):
            knocks += 1
            assert r.defender_deadwood == best_defense(defender_hand, h.knocker_melds).deadwood
            # The knocker laid out its lowest deadwood.
            assert r.knocker_deadwood == deadwood(h.hands[r.knocker])
    assert knocks > 50


# ---------------------------------------------------------------------------------------------
# Whole hands and games


def test_play_hand_calls_the_hooks_and_returns_the_result() -> None:
    calls: list[tuple[str, int]] = []

    class Hooked(Player):
        def __init__(self) -> None:
            super().__init__(1)
            self.inner = get_player("greedy", seed=1)

        def decide(self, view: SeatView) -> Action:
            return self.inner.decide(view)

        def new_hand(self, seat: int) -> None:
            calls.append(("new", seat))

        def hand_over(self, view: SeatView) -> None:
            assert view.phase is Phase.OVER
            calls.append(("over", view.seat))

    h = new_hand(Rules(), 0, seed=5)
    result = play_hand(h, [Hooked(), Hooked()])
    assert result is h.result
    assert calls == [("new", 0), ("new", 1), ("over", 0), ("over", 1)]


def test_play_hand_refuses_an_undealt_hand() -> None:
    with pytest.raises(ValueError):
        play_hand(Hand(Rules()), [get_player("random"), get_player("random")])


def test_play_game_to_the_target_with_scores_in_the_views() -> None:
    seen_scores: set[tuple[int, int]] = set()

    class Watcher(Player):
        def __init__(self) -> None:
            super().__init__(2)
            self.inner = get_player("simple", seed=2)

        def decide(self, view: SeatView) -> Action:
            seen_scores.add(view.scores)
            return self.inner.decide(view)

    m = Match(Rules.preset("eaai"), seed=3)
    play_game(m, [Watcher(), get_player("greedy", seed=4)])
    assert m.is_over and m.winner in (0, 1)
    assert max(m.scores) >= 100
    assert len(seen_scores) > 1  # the running score reaches the players
