"""The table session every front end runs: seats as a list, turns, computer moves, layouts."""

from __future__ import annotations

import pytest

from ginrummy.errors import IllegalActionError
from ginrummy.events import LAYOUT_PHASES, Phase
from ginrummy.match import Match
from ginrummy.players import get_player
from ginrummy.players.base import Player
from ginrummy.players.driver import play_game
from ginrummy.rules import Rules
from ginrummy.table import Seat, Table


def test_two_computer_seats_play_the_same_game_as_the_driver() -> None:
    rules = Rules.preset("classic", target=60)
    a = Match(rules, seed=21)
    play_game(a, [get_player("simple", seed=1), get_player("greedy", seed=2)])
    b = Match(rules, seed=21)
    t = Table(b, [Seat("S", get_player("simple", seed=1)), Seat("G", get_player("greedy", seed=2))])
    while not b.is_over:
        t.start_hand()
        t.play_computers()
        assert t.to_act is None
    assert b.results == a.results and b.final() == a.final()


def test_a_person_seat_waits_and_the_wrong_seat_is_refused() -> None:
    t = Table(Match(Rules(), seed=3, first_dealer=1), [Seat("Ann"), Seat("Bot", get_player("simple", seed=1))])
    t.start_hand()
    assert t.waiting_for == 0 and not t.computer_to_act
    with pytest.raises(IllegalActionError, match="not your turn") as e:
        t.act(1, "pass")
    assert e.value.rule == "turn"
    with pytest.raises(IllegalActionError, match="no computer player"):
        t.computer_move()
    t.act(0, "pass")
    t.play_computers()
    assert t.waiting_for == 0 or t.to_act is None


def test_the_person_lays_out_by_the_default_plan_and_computers_hear_the_hand_end() -> None:
    ends: list[int] = []

    class Ears(Player):
        name = "ears"

        def __init__(self) -> None:
            super().__init__(seed=0)
            self.inner = get_player("greedy", seed=5)

        def decide(self, view):  # type: ignore[no-untyped-def]
            return self.inner.decide(view)

        def hand_over(self, view) -> None:  # type: ignore[no-untyped-def]
            ends.append(view.seat)

    rules = Rules.preset("classic")
    person = get_player("greedy", seed=9)  # stands in for the person's choices outside layouts
    for seed in range(30):
        t = Table(Match(rules, seed=seed), [Seat("Ann"), Seat("Bot", Ears())])
        t.start_hand()
        laid = False
        while t.to_act is not None:
            t.play_computers()
            if t.waiting_for == 0:
                view = t.view(0)
                if view.phase in LAYOUT_PHASES:
                    steps = t.lay_out(0)
                    laid = laid or bool(steps)
                    assert t.to_act != 0 or t.view(0).phase not in LAYOUT_PHASES
                else:
                    t.act(0, person.decide(view))
        assert t.view(0).phase is Phase.OVER
        if laid:
            break
    assert laid and ends and set(ends) == {1}


def test_the_layout_plan_is_what_lay_out_plays_and_changes_nothing() -> None:
    rules = Rules.preset("classic")
    person = get_player("greedy", seed=9)
    checked = 0
    for seed in range(40):
        t = Table(Match(rules, seed=seed), [Seat("Ann"), Seat("Bot", get_player("greedy", seed=5))])
        t.start_hand()
        while t.to_act is not None:
            t.play_computers()
            if t.waiting_for != 0:
                continue
            view = t.view(0)
            assert (t.layout_plan(0) == []) == (view.phase not in LAYOUT_PHASES)
            if view.phase in LAYOUT_PHASES:
                plan = t.layout_plan(0)
                assert t.layout_plan(1) == [] and t.view(0) == view  # only the seat laying out; nothing moved
                assert [s.action for s in t.lay_out(0)] == plan
                checked += 1
            else:
                t.act(0, person.decide(view))
    assert checked >= 3
