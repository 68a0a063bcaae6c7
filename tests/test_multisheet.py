"""Three and four players (RULES.md, "Three and four players"; seed 000, "Other ways to play"):
the rotation and every scoring clause, one test each, then properties over random games."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ginrummy.dealing import TEAMS, cut_for_deal, team_of, team_round, three_pairing
from ginrummy.errors import IllegalActionError
from ginrummy.multisheet import RoundResult, SeatedResult, TeamSheet, ThreeSheet
from ginrummy.rules import Rules
from ginrummy.scoring import DEAD_HAND, HandResult, score_hand


def won(hand_seat: int, points: int, kind: str = "knock", extra_boxes: int = 0) -> HandResult:
    """A hand won by ``hand_seat`` (0 or 1 of the two who played it)."""
    return HandResult(kind=kind, winner=hand_seat, points=points, knocker=hand_seat,  # type: ignore[arg-type]
                      extra_boxes=extra_boxes)


def win_for(sheet: ThreeSheet, seat: int, points: int) -> SeatedResult:
    """Write the next three-player hand as won by game seat ``seat`` (who must be playing)."""
    return sheet.add_hand(won(sheet.next_pairing.hand_seat(seat), points))


# -- three players: the rotation -----------------------------------------------------------------


def test_three_the_dealer_sits_out_and_the_other_two_play() -> None:
    for dealer in range(3):
        p = ThreeSheet(Rules(), first_dealer=dealer).next_pairing
        assert p.sits_out == dealer and p.dealt_by == dealer
        assert sorted(p.seats) == sorted({0, 1, 2} - {dealer})
        # The player on the dealer's left plays first, as a non-dealer (hand seat 0).
        assert p.seats[0] == (dealer + 1) % 3 and p.dealer == 1


def test_three_the_loser_of_each_hand_deals_the_next() -> None:
    sheet = ThreeSheet(Rules(), first_dealer=0)  # seats 1 and 2 play
    win_for(sheet, 1, 10)
    assert sheet.next_pairing.dealt_by == 2  # seat 2 lost
    win_for(sheet, 1, 10)  # seat 1 beats seat 0
    assert sheet.next_pairing.dealt_by == 0


def test_three_the_winner_stays_and_meets_the_player_who_just_dealt() -> None:
    sheet = ThreeSheet(Rules(), first_dealer=2)  # seats 0 and 1 play, seat 2 deals
    win_for(sheet, 0, 5)
    assert set(sheet.next_pairing.seats) == {0, 2}  # the winner 0 against the last dealer 2
    win_for(sheet, 2, 5)
    assert set(sheet.next_pairing.seats) == {2, 1} and sheet.next_pairing.sits_out == 0


def test_three_after_a_dead_hand_the_same_dealer_deals_again() -> None:
    sheet = ThreeSheet(Rules(), first_dealer=1)
    before = sheet.next_pairing
    sheet.add_hand(DEAD_HAND)
    assert sheet.next_pairing == before  # the same two play again
    assert sheet.scores == (0, 0, 0) and sheet.hands_won == (0, 0, 0)


@pytest.mark.parametrize("rule", ["high_cut", "low_cut"])
def test_three_first_dealer_by_cut(rule: str) -> None:
    rules = Rules(first_dealer=rule)  # type: ignore[arg-type]
    for seed in range(30):
        dealer, cuts = cut_for_deal(rules, random.Random(seed), seats=3)
        ranks = [c % 13 for c in cuts[-1].cards]
        assert len(ranks) == 3 and len(set(ranks)) == 3  # equal ranks cut again
        assert ranks[dealer] == (max(ranks) if rule == "high_cut" else min(ranks))


def test_three_first_dealer_at_random() -> None:
    dealers = {cut_for_deal(Rules(first_dealer="random"), random.Random(s), seats=3)[0] for s in range(40)}
    assert dealers == {0, 1, 2}


def test_three_a_hand_played_by_the_wrong_two_is_refused() -> None:
    sheet = ThreeSheet(Rules(), first_dealer=0)
    wrong = SeatedResult(three_pairing(1), won(0, 10))  # seat 1 dealt, but seat 0 deals this hand
    with pytest.raises(IllegalActionError, match=r"hand 1: seats 1 and 2 play this hand \(seat 0 deals\)"):
        sheet.add(wrong)
    assert sheet.results == []


def test_three_a_correction_that_changes_who_deals_is_refused_when_later_hands_disagree() -> None:
    sheet = ThreeSheet(Rules(), first_dealer=0)
    win_for(sheet, 1, 10)  # seat 2 lost and deals: seats 0 and 1 play hand 2
    win_for(sheet, 0, 10)
    with pytest.raises(IllegalActionError, match=r"hand 2: seats 2 and 0 play this hand \(seat 1 deals\)"):
        sheet.replace_hand(0, won(1, 10))  # seat 2 won hand 1: seat 1 would deal hand 2, not seat 2
    assert sheet.scores == (10, 10, 0)  # unchanged
    sheet.replace_hand(0, won(0, 30))  # the same winner, more points: fine
    assert sheet.scores == (10, 30, 0)
    sheet.remove(1)
    assert sheet.next_pairing.dealt_by == 2


# -- three players: scoring ----------------------------------------------------------------------


def test_three_individual_scores() -> None:
    sheet = ThreeSheet(Rules(), first_dealer=0)
    win_for(sheet, 2, 12)
    win_for(sheet, 0, 7)  # seat 1 dealt (it lost): seats 2 and 0 play
    win_for(sheet, 1, 20)  # seat 2 lost and dealt: 0 and 1
    assert sheet.scores == (7, 20, 12) and sheet.hands_won == (1, 1, 1)


def test_three_the_game_ends_when_one_reaches_the_target() -> None:
    sheet = ThreeSheet(Rules(target=50), first_dealer=0)
    win_for(sheet, 1, 49)
    assert not sheet.is_over
    win_for(sheet, 1, 1)
    assert sheet.is_over and sheet.winner == 1
    with pytest.raises(IllegalActionError, match="the game is already over"):
        sheet.add_hand(won(0, 5))


def test_three_game_and_box_bonuses_of_the_rule_set() -> None:
    sheet = ThreeSheet(Rules(target=50), first_dealer=0)
    win_for(sheet, 1, 20)  # seats 1 and 2 play; seat 2 lost and deals
    win_for(sheet, 0, 15)  # seats 0 and 1; seat 1 lost and deals
    win_for(sheet, 2, 10)  # seats 2 and 0; seat 0 lost and deals
    win_for(sheet, 2, 45)  # seats 1 and 2: seat 2 reaches 55
    f = sheet.final()
    assert f.winner == 2 and f.points == (15, 20, 55)
    assert f.game_bonus == (0, 0, 100) and f.box_bonus == (20, 20, 40)
    assert f.shutout is False and f.totals == (35, 40, 195) and f.margin == 155


def test_three_the_shutout_counts_against_each_player_who_scored_nothing() -> None:
    # Seat 1 wins every hand: both others scored nothing, so two shutouts of 100 more each.
    sheet = ThreeSheet(Rules(target=50), first_dealer=0)
    win_for(sheet, 1, 30)
    win_for(sheet, 1, 30)
    f = sheet.final()
    assert f.games[0].shut_out == (0, 2)
    assert f.game_bonus == (0, 100, 0) and f.shutout_bonus == (0, 200, 0)
    assert f.totals == (0, 60 + 100 + 200 + 40, 0)
    assert [ln.against for ln in f.breakdown if ln.label.startswith("shutout")] == [0, 2]
    # Seat 1 scored: the shutout counts against seat 0 only.
    sheet = ThreeSheet(Rules(target=50), first_dealer=0)
    win_for(sheet, 1, 10)  # seats 1 and 2; seat 2 deals next
    win_for(sheet, 1, 10)  # seats 0 and 1; seat 0 deals next
    win_for(sheet, 2, 10)  # seats 1 and 2; seat 1 deals next
    win_for(sheet, 2, 45)  # seats 2 and 0: seat 2 reaches 55
    f = sheet.final()
    assert f.games[0].shut_out == (0,) and f.shutout_bonus == (0, 0, 100)
    assert f.totals == (0, 20 + 40, 55 + 200 + 40)
    # Everybody scored: no shutout.
    sheet = ThreeSheet(Rules(target=50), first_dealer=0)
    win_for(sheet, 1, 10)  # seats 1 and 2 play; seat 2 loses and deals
    win_for(sheet, 0, 10)  # seats 0 and 1: seat 0 wins, seat 1 deals
    win_for(sheet, 2, 50)  # seats 2 and 0: seat 2 wins
    f = sheet.final()
    assert f.games[0].shut_out == () and f.shutout_bonus == (0, 0, 0)


@pytest.mark.parametrize(("mode", "extra"), [("double_total", 2 * (50 + 100 + 20)), ("double_hands", 2 * 50)])
def test_three_every_shutout_mode_counts_once_per_player_shut_out(mode: str, extra: int) -> None:
    sheet = ThreeSheet(Rules(target=50, shutout=mode), first_dealer=0)  # type: ignore[arg-type]
    win_for(sheet, 1, 50)
    assert sheet.final().shutout_bonus == (0, extra, 0)


def test_three_bonuses_off_leaves_hand_points_only() -> None:
    sheet = ThreeSheet(Rules(target=50, three_player_bonuses=False), first_dealer=0)
    win_for(sheet, 1, 30)
    win_for(sheet, 1, 30)
    f = sheet.final()
    assert f.totals == (0, 60, 0) and f.game_bonus == (0, 0, 0) and f.box_bonus == (0, 0, 0)
    assert f.shutout_bonus == (0, 0, 0) and f.breakdown == []


def test_three_oklahoma_and_hollywood_combine() -> None:
    rules = Rules(target=50, hollywood=True, oklahoma=True, oklahoma_spade_double=True, oklahoma_extra_boxes=True)
    sheet = ThreeSheet(rules, first_dealer=0)
    for _ in range(3):  # seat 1 goes gin every hand, upcard 6s: doubled, 4 extra boxes
        gin = score_hand(rules, knocker=sheet.next_pairing.hand_seat(1), knocker_deadwood=0, defender_deadwood=10,
                         upcard=5)
        assert (gin.points, gin.extra_boxes) == (60, 4)
        sheet.add_hand(gin)
    assert sheet.is_over and sheet.winner == 1
    assert [row.written for row in sheet.rows] == [(0,), (1,), (2,)]
    f = sheet.final()
    assert f.extra_boxes == (0, 12, 0) and f.box_bonus == (0, 3 * (1 + 4) * 20, 0)


# -- four players: the rotation ------------------------------------------------------------------


def test_four_each_hand_two_tables_one_player_of_each_team() -> None:
    for i in range(6):
        tables = team_round(i, 0)
        assert sorted(s for t in tables for s in t.seats) == [0, 1, 2, 3]
        for t in tables:
            assert [team_of(s) for s in t.seats] == [0, 1]
    assert TEAMS == ((0, 2), (1, 3))


def test_four_partners_switch_opponents_every_hand() -> None:
    sheet = TeamSheet(Rules())
    seen = []
    for _ in range(4):
        seen.append([t.seats for t in sheet.next_round])
        sheet.add_round([won(0, 1), won(0, 1)])
    # A-B and C-D, then A-D and C-B, and so on.
    assert seen == [[(0, 1), (2, 3)], [(0, 3), (2, 1)], [(0, 1), (2, 3)], [(0, 3), (2, 1)]]


def test_four_the_teams_take_turns_to_deal_the_first_dealers_team_first() -> None:
    dealers = [[t.dealt_by for t in team_round(i, 3)] for i in range(4)]
    assert dealers == [[1, 3], [0, 2], [1, 3], [0, 2]]
    for i in range(4):  # the dealer plays at its table
        assert all(t.dealt_by in t.seats and t.sits_out is None for t in team_round(i, 3))


def test_four_a_table_of_the_wrong_pairing_is_refused() -> None:
    sheet = TeamSheet(Rules())
    a, b = team_round(1, 0)  # hand 2's tables, entered as hand 1
    with pytest.raises(IllegalActionError, match="rule|seats 0 and 1 play this hand"):
        sheet.add(RoundResult((SeatedResult(a, won(0, 5)), SeatedResult(b, won(0, 5)))))
    assert sheet.results == []


# -- four players: scoring -----------------------------------------------------------------------


def test_four_both_partners_win_the_team_scores_both_results_added() -> None:
    sheet = TeamSheet(Rules())
    r = sheet.add_round([won(1, 22), won(1, 34)])  # B beats A, D beats C
    assert (r.winner, r.points, r.kind) == (1, 56, "both")
    assert sheet.scores == (0, 56) and sheet.hands_won == (0, 1)


def test_four_one_hand_each_the_team_with_more_points_scores_the_difference() -> None:
    sheet = TeamSheet(Rules())
    r = sheet.add_round([won(0, 22), won(1, 34)])  # A beats B by 22, D beats C by 34
    assert (r.winner, r.points, r.kind) == (1, 12, "difference")
    assert sheet.scores == (0, 12)


def test_four_equal_points_nobody_scores() -> None:
    sheet = TeamSheet(Rules())
    r = sheet.add_round([won(0, 25), won(1, 25)])
    assert (r.winner, r.points, r.kind) == (None, 0, "even")
    assert sheet.scores == (0, 0) and sheet.hands_won == (0, 0)


def test_four_a_dead_hand_at_one_table_scores_0_there() -> None:
    sheet = TeamSheet(Rules())
    r = sheet.add_round([DEAD_HAND, won(1, 30)])
    assert (r.winner, r.points, r.kind) == (1, 30, "one_table")
    r = sheet.add_round([DEAD_HAND, DEAD_HAND])
    assert (r.winner, r.points, r.kind) == (None, 0, "dead")
    assert sheet.scores == (0, 30)
    assert [t.seats for t in sheet.next_round] == [(0, 1), (2, 3)]  # not replayed: the round moves on


def test_four_the_first_team_to_125_wins_by_default() -> None:
    sheet = TeamSheet(Rules())
    sheet.add_round([won(0, 100), won(0, 24)])
    assert not sheet.is_over and sheet.scores == (124, 0)
    sheet.add_round([won(0, 1), DEAD_HAND])
    assert sheet.is_over and sheet.winner == 0


def test_four_the_team_target_is_configurable() -> None:
    sheet = TeamSheet(Rules(team_target=60))
    sheet.add_round([won(0, 30), won(0, 30)])
    assert sheet.is_over and sheet.target == 60


def test_four_game_bonus_to_the_winning_team_and_a_box_for_each_hand_pair_it_scored() -> None:
    sheet = TeamSheet(Rules())
    sheet.add_round([won(0, 40), won(1, 10)])  # team 0 scores 30
    sheet.add_round([won(1, 10), DEAD_HAND])  # team 1 scores 10
    sheet.add_round([won(0, 5), won(1, 5)])  # even: no box for anyone
    sheet.add_round([won(0, 50), won(0, 50)])  # team 0 130
    f = sheet.final()
    assert f.points == (130, 10) and f.hands_won == (2, 1)
    assert f.game_bonus == (100, 0) and f.box_bonus == (40, 20) and f.shutout is False
    assert f.totals == (270, 30)


def test_four_the_shutout_of_the_rule_set_when_the_other_team_scored_nothing() -> None:
    sheet = TeamSheet(Rules())
    sheet.add_round([won(0, 70), won(0, 70)])
    f = sheet.final()
    assert f.shutout and f.shutout_bonus == (100, 0) and f.totals == (140 + 200 + 20, 0)


def test_four_bonuses_off_leaves_hand_points_only() -> None:
    sheet = TeamSheet(Rules(team_bonuses=False))
    sheet.add_round([won(0, 70), won(0, 70)])
    f = sheet.final()
    assert f.totals == (140, 0) and f.breakdown == []


def test_four_oklahoma_doubles_a_spade_table_and_the_scoring_team_takes_its_tables_extra_boxes() -> None:
    rules = Rules(oklahoma=True, oklahoma_spade_double=True, oklahoma_extra_boxes=True)
    gin_spade = score_hand(rules, knocker=0, knocker_deadwood=0, defender_deadwood=10, upcard=5)  # 6s
    undercut = score_hand(rules, knocker=0, knocker_deadwood=4, defender_deadwood=3, upcard=17)  # 5h
    assert (gin_spade.points, gin_spade.extra_boxes) == (60, 4) and (undercut.winner, undercut.points) == (1, 11)
    sheet = TeamSheet(rules)
    r = sheet.add_round([gin_spade, undercut])  # team 0 wins table 1 by 60, team 1 table 2 by 11
    assert (r.winner, r.points, r.extra_boxes) == (0, 49, 4)
    assert sheet.scores == (49, 0)
    sheet.replace_round(0, [undercut, DEAD_HAND])  # a correction: table 1 was the undercut
    assert sheet.scores == (0, 11) and sheet.rows[0].result.kind == "one_table"


def test_four_hollywood_writes_a_teams_kth_scoring_hand_in_the_first_k_games() -> None:
    sheet = TeamSheet(Rules(hollywood=True, team_target=50))
    for _ in range(4):
        sheet.add_round([won(1, 10), won(1, 10)])  # team 1 scores 20 a hand
    assert [row.written for row in sheet.rows] == [(0,), (0, 1), (0, 1, 2), (1, 2)]
    assert not sheet.is_over and [sheet.game_open(g) for g in range(3)] == [False, False, True]
    sheet.add_round([won(1, 10), won(1, 10)])
    assert sheet.is_over and sheet.winner == 1 and sheet.final().totals[1] == 3 * (60 + 200 + 3 * 20)


# -- properties over random games ------------------------------------------------------------------

hand_outcome = st.one_of(
    st.just(None),  # a dead hand
    st.tuples(st.integers(0, 1), st.integers(0, 60)),  # (hand seat that won, points)
)


def result_of(outcome: tuple[int, int] | None) -> HandResult:
    return DEAD_HAND if outcome is None else won(outcome[0], outcome[1])


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2), st.lists(hand_outcome, max_size=40), st.booleans(), st.integers(10, 150))
def test_three_player_random_games(first: int, outcomes: list[tuple[int, int] | None], hollywood: bool,
                                   target: int) -> None:
    sheet = ThreeSheet(Rules(target=target, hollywood=hollywood), first_dealer=first)
    dealer = first
    played = []
    for o in outcomes:
        if sheet.is_over:
            with pytest.raises(IllegalActionError, match="already over"):
                sheet.add_hand(result_of(o))
            break
        p = sheet.next_pairing
        # The rotation: the dealer sits out, the others play; the next dealer is the loser.
        assert p.dealt_by == dealer and dealer not in p.seats and len(set(p.seats)) == 2
        seated = sheet.add_hand(result_of(o))
        played.append(seated)
        dealer = dealer if seated.loser is None else seated.loser
    # Scores add up: game 1 holds the points of every hand won until a player reached the target.
    sums = [0, 0, 0]
    for s in played:
        if s.winner is not None and max(sums) < target:
            sums[s.winner] += s.points
    assert tuple(sums) == sheet.game_scores(0)
    assert sum(sheet.hands_won) == sum(1 for s in played if s.winner is not None)
    # Games end: over exactly when every game has a player at the target.
    reached = [max(sheet.game_scores(g)) >= target for g in range(sheet.games)]
    assert sheet.is_over == all(reached)
    if sheet.is_over:
        f = sheet.final()
        assert all(t == p + g + b + x for t, p, g, b, x in
                   zip(f.totals, f.points, f.game_bonus, f.box_bonus, f.shutout_bonus, strict=True))


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 3), st.lists(st.tuples(hand_outcome, hand_outcome), max_size=30), st.integers(20, 200))
def test_four_player_random_games(first: int, rounds: list[tuple[tuple[int, int] | None, tuple[int, int] | None]],
                                  target: int) -> None:
    sheet = TeamSheet(Rules(team_target=target), first_dealer=first)
    totals = [0, 0]
    for i, (o1, o2) in enumerate(rounds):
        if sheet.is_over:
            break
        tables = sheet.next_round
        # The rotation: A-B and C-D on even hands, A-D and C-B on odd; one team deals both tables.
        assert [t.seats for t in tables] == ([(0, 1), (2, 3)] if i % 2 == 0 else [(0, 3), (2, 1)])
        assert len({team_of(t.dealt_by) for t in tables}) == 1
        assert team_of(tables[0].dealt_by) == (team_of(first) + i) % 2
        r = sheet.add_round([result_of(o1), result_of(o2)])
        # Scores add up: the team with more points at the tables scores the difference.
        pts = [0, 0]
        for t in r.tables:
            if t.winner is not None:
                pts[team_of(t.winner)] += t.points
        if pts[0] != pts[1]:
            totals[0 if pts[0] > pts[1] else 1] += abs(pts[0] - pts[1])
        assert tuple(totals) == sheet.scores
    assert sheet.is_over == (max(totals) >= target)
    if sheet.is_over:
        f = sheet.final()
        assert f.winner == (0 if totals[0] >= target else 1)
        assert f.totals[f.winner] >= totals[f.winner] + 100


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2), st.integers(0, 2**32))
def test_three_player_games_end(first: int, seed: int) -> None:
    """Random hands (some dead, every win worth at least 1): the game always ends, within target
    wins of one player, and no hand is accepted after it."""
    rng = random.Random(seed)
    sheet = ThreeSheet(Rules(target=60), first_dealer=first)
    for _ in range(3 * 60 * 2):
        if sheet.is_over:
            break
        sheet.add_hand(DEAD_HAND if rng.random() < 0.2 else won(rng.randrange(2), rng.randint(1, 40)))
    assert sheet.is_over and max(sheet.scores) >= 60


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 3), st.integers(0, 2**32))
def test_four_player_games_end(first: int, seed: int) -> None:
    """Random hand-pairs (some tables dead, some pairs even): the game ends, and nothing after it."""
    rng = random.Random(seed)
    sheet = TeamSheet(Rules(), first_dealer=first)
    for _ in range(2000):
        if sheet.is_over:
            break
        sheet.add_round([DEAD_HAND if rng.random() < 0.2 else won(rng.randrange(2), rng.randint(1, 40))
                         for _ in range(2)])
    assert sheet.is_over and max(sheet.scores) >= 125
    with pytest.raises(IllegalActionError, match="already over"):
        sheet.add_round([DEAD_HAND, DEAD_HAND])
