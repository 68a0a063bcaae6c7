"""Match equity: the even race to the target that weighs hand results by the match score."""

from __future__ import annotations

import pytest

from ginrummy.players.equity import hand_points, match_equity, points_equivalent


def test_the_even_race_is_fair_and_rises_with_ones_own_score() -> None:
    w = match_equity(100, 25, 25)
    assert w[0][0] == pytest.approx(0.5)
    for a, b in ((0, 30), (40, 70), (95, 10), (99, 99)):
        assert w[a][b] + w[b][a] == pytest.approx(1.0)  # the same race seen from the other side
    for b in (0, 50, 90):
        col = [w[a][b] for a in range(100)]
        assert all(x <= y + 1e-12 for x, y in zip(col, col[1:], strict=False))
    assert w[99][0] > 0.95 and w[0][99] < 0.05


def test_bonuses_shape_the_typical_hand() -> None:
    """A larger gin or undercut bonus makes those hands score more, nothing else."""
    lo = dict(hand_points(20, 10))
    hi = dict(hand_points(25, 25))
    assert sum(lo.values()) == pytest.approx(1.0)
    assert sum(p * q for p, q in hi.items()) > sum(p * q for p, q in lo.items())
    assert {p for p in lo if p < 10} == {p for p in hi if p < 10}  # the knocks are the same


def test_early_in_a_game_a_result_is_worth_about_its_points() -> None:
    u = points_equivalent(100, 25, 25, 0, 0, 40)
    for x in (-20, -10, -5, 5, 10, 20):
        assert u[40 + x] == pytest.approx(x, rel=0.25)
    assert u[40] == 0.0


def test_near_the_target_only_winning_or_losing_the_game_counts() -> None:
    """At 95 to 95 a one-point knock wins the game as surely as a gin; behind 40 to 96, any
    hand the opponent wins ends the game, whatever its points."""
    u = points_equivalent(100, 25, 25, 95, 95, 60)
    assert u[60 + 5] == pytest.approx(u[60 + 55])
    assert u[60 - 5] == pytest.approx(u[60 - 55])
    u = points_equivalent(100, 25, 25, 40, 96, 60)
    assert u[60 - 4] == pytest.approx(u[60 - 50])
    assert u[60 + 50] > u[60 + 10] > 0
