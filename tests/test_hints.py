"""The hint API ranks every legal action, best first, and agrees with the expert."""

from __future__ import annotations

import random

from ginrummy.hand import new_hand
from ginrummy.players.expert import ExpertPlayer
from ginrummy.players.hints import best_hint, rank_actions
from ginrummy.rules import Rules


def test_ranks_every_legal_action_and_top_is_the_experts_choice() -> None:
    rng = random.Random(3)
    checked = 0
    for rules in (Rules.preset("eaai"), Rules.preset("classic", oklahoma=True), Rules.preset("app")):
        for i in range(2):
            h = new_hand(rules, dealer=i, seed=rng.getrandbits(32))
            players = [ExpertPlayer(seed=0), ExpertPlayer(seed=0)]
            while not h.is_over:
                seat = h.current
                view = h.observation(seat)
                ranked = rank_actions(view)
                assert sorted(int(a) for a, _, _ in ranked) == sorted(int(a) for a in view.legal)
                values = [v for _, v, _ in ranked]
                assert values == sorted(values, reverse=True)
                assert all(isinstance(r, str) for _, _, r in ranked)
                choice = players[seat].decide(view)
                assert ranked[0][0] == choice
                checked += 1
                h.apply(choice)
    assert checked > 50


def test_not_my_turn_gives_nothing() -> None:
    h = new_hand(Rules(), dealer=0, seed=1)
    other = 1 - h.current
    view = h.observation(other)
    assert rank_actions(view) == []
    assert best_hint(view) is None


def test_works_with_any_player() -> None:
    from ginrummy.players.base import Player

    class First(Player):
        def decide(self, view):  # type: ignore[no-untyped-def]
            return view.legal[-1]

    h = new_hand(Rules(), dealer=0, seed=2)
    view = h.observation(h.current)
    ranked = rank_actions(view, First())
    assert ranked[0][0] == view.legal[-1]
    assert len(ranked) == len(view.legal)


def test_draw_and_discard_reasons_speak_in_deadwood_and_chances() -> None:
    """A hint reads "deadwood 8, 5.9 expected after the next draw; 5% chance of gin": real
    deadwood figures (never the expert's internal score with its bonuses) and chances."""
    import re

    from ginrummy.actions import Kind
    from ginrummy.melds import deadwood

    pattern = re.compile(
        r"discard (\w\w): deadwood (\d+)(?:, (\d+\.\d) expected after the next draw)?"
        r"(?:; (\d+)% chance to knock)?(?:; (\d+)% chance of gin)?(?:; (\d+)% chance it gives the opponent a meld)?$"
    )
    seen_expect = seen_gin = seen_draw = 0
    for rules in (Rules.preset("classic", straight_gin=True), Rules.preset("eaai")):
        for seed in range(3):
            h = new_hand(rules, dealer=seed % 2, seed=seed)
            players = [ExpertPlayer(seed=0), ExpertPlayer(seed=1)]
            while not h.is_over:
                view = h.observation(h.current)
                for a, _, why in rank_actions(view):
                    if a.kind in (Kind.STOCK, Kind.PILE, Kind.PASS):
                        # Draws speak in deadwood too, never in the internal score.
                        assert "hand value" not in why, why
                        assert not re.search(r"deadwood -|-\d+\.\d expected", why), why
                        seen_draw += "deadwood" in why and "expected" in why
                    if a.kind is not Kind.DISCARD or "was just taken" in why:
                        continue
                    m = pattern.match(why)
                    assert m, why
                    assert int(m.group(2)) == deadwood(view.hand & ~(1 << a.card))
                    if m.group(3):
                        seen_expect += 1
                        assert float(m.group(3)) < int(m.group(2))
                    seen_gin += m.group(5) is not None
                h.apply(players[h.current].decide(view))
    assert seen_expect and seen_gin and seen_draw


def test_layout_hints_rank_every_choice_by_the_count_it_still_reaches() -> None:
    """In the layout phases every option gets its own figure (not "not the best layout"): the
    knocker's deadwood or the defender's count after layoffs that the option still reaches.
    Checked against playing the option and then the default layout to the end."""
    from ginrummy.events import LAYOUT_PHASES, Phase
    from ginrummy.layout import layout_action, layout_outcomes
    from ginrummy.players import get_player

    rng = random.Random(11)
    checked = {Phase.LAYOUT: 0, Phase.DEFENDER_LAYOUT: 0, Phase.LAYOFF: 0}
    several = 0
    for n in range(40):
        rules = Rules.preset("classic") if n % 2 else Rules.preset("online")
        h = new_hand(rules, dealer=n % 2, seed=rng.getrandbits(32))
        players = [get_player("greedy", seed=n), get_player("greedy", seed=n + 1)]
        while not h.is_over:
            view = h.observation(h.current)
            if view.phase in LAYOUT_PHASES:
                ranked = rank_actions(view)
                values = [v for _, v, _ in ranked]
                assert values == sorted(values, reverse=True)
                assert ranked[0][0] == ExpertPlayer(seed=0).decide(view)
                figures = dict(layout_outcomes(view))
                several += len({v for v in values}) > 1
                for a, v, why in ranked:
                    assert v == -figures[a] and str(figures[a]) in why, (str(a), v, why)
                    trial = h.clone()
                    seat = trial.current
                    trial.apply(a)
                    while not trial.is_over and trial.current == seat and trial.phase in LAYOUT_PHASES:
                        trial.apply(layout_action(trial.observation(seat)))
                    if view.phase is Phase.LAYOUT:
                        assert trial.knocker_deadwood() == figures[a]
                    else:
                        assert trial.defender_deadwood() == figures[a], (str(a), trial.defender_deadwood(), figures[a])
                checked[view.phase] += 1
            h.apply(players[h.current].decide(view))
    assert all(checked.values()), checked
    assert several  # some choices are worse than others, and say so
