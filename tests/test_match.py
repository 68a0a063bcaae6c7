"""The game layer: ScoreSheet (totals, bonuses, shutouts, Oklahoma boxes, Hollywood) and Match."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ginrummy.cards import rank_of
from ginrummy.dealing import cut_for_deal, next_dealer
from ginrummy.errors import IllegalActionError
from ginrummy.match import Match
from ginrummy.rules import Rules
from ginrummy.scoresheet import ScoreSheet
from ginrummy.scoring import DEAD_HAND, HandResult, score_hand

sys.path.insert(0, str(Path(__file__).parent / "golden"))
from golden_policy import play_game, play_hand  # noqa: E402


def won(seat: int, points: int, kind: str = "knock", extra_boxes: int = 0) -> HandResult:
    return HandResult(kind=kind, winner=seat, points=points, knocker=seat, extra_boxes=extra_boxes)  # type: ignore[arg-type]


FIVE_HANDS = [(0, 3, 25), (1, 0, 14), (0, 8, 6), (0, 0, 31), (0, 5, 35)]


# ------------------------------------------------------------------ 000's worked example


def test_five_hand_example_of_000_exactly() -> None:
    rules = Rules.preset("classic")
    sheet = ScoreSheet(rules)
    for k, kd, dd in FIVE_HANDS:
        sheet.add(score_hand(rules, knocker=k, knocker_deadwood=kd, defender_deadwood=dd))
    assert [r.points for r in sheet.results] == [22, 34, 12, 51, 30]
    assert [r.winner for r in sheet.results] == [0, 1, 1, 0, 0]
    assert [row.totals[0] for row in sheet.rows] == [(22, 0), (22, 34), (22, 46), (73, 46), (103, 46)]
    assert sheet.is_over and sheet.winner == 0
    f = sheet.final()
    assert f.points == (103, 46)
    assert f.game_bonus == (100, 0)
    assert f.box_bonus == (60, 40)
    assert f.shutout is False and f.shutout_bonus == (0, 0)
    assert f.totals == (263, 86)
    assert f.margin == 177
    assert [(ln.seat, ln.points) for ln in f.breakdown] == [(0, 100), (0, 60), (1, 40)]
    assert f.explain(("You", "Sam"))[-1] == "You win 263 to 86, by 177."


def test_game_ends_at_the_first_hand_reaching_the_target() -> None:
    sheet = ScoreSheet(Rules())
    sheet.add(won(0, 99))
    assert not sheet.is_over
    with pytest.raises(IllegalActionError, match="not over"):
        sheet.final()
    sheet.add(won(1, 100))
    assert sheet.is_over and sheet.winner == 1
    with pytest.raises(IllegalActionError, match="hand 3: the game is already over"):
        sheet.add(won(0, 5))


# ------------------------------------------------------------------ bonuses


def test_box_bonuses_do_not_count_toward_the_target() -> None:
    sheet = ScoreSheet(Rules())
    for _ in range(10):
        sheet.add(won(0, 9))  # 90 points, 10 boxes worth 200: still not 100
    assert sheet.scores == (90, 0) and not sheet.is_over
    sheet.add(won(0, 10))
    assert sheet.is_over
    f = sheet.final()
    assert f.box_bonus == (220, 0) and f.points == (100, 0)


def test_oklahoma_extra_boxes_do_not_count_toward_the_target() -> None:
    rules = Rules.preset("classic", oklahoma=True, oklahoma_spade_double=True, oklahoma_extra_boxes=True, target=150)
    sheet = ScoreSheet(rules)
    gin_spade = score_hand(rules, knocker=0, knocker_deadwood=0, defender_deadwood=30, upcard=0)  # As upcard
    assert (gin_spade.points, gin_spade.extra_boxes, gin_spade.multiplier) == ((20 + 30) * 2, 4, 2)
    sheet.add(gin_spade)
    under = score_hand(rules, knocker=0, knocker_deadwood=5, defender_deadwood=2, upcard=18)  # 6h: limit 6
    assert (under.winner, under.points, under.extra_boxes) == (1, 13, 1)
    sheet.add(under)
    assert sheet.scores == (100, 13) and not sheet.is_over
    sheet.add(score_hand(rules, knocker=0, knocker_deadwood=2, defender_deadwood=52, upcard=22))
    assert sheet.is_over and sheet.scores == (150, 13)
    f = sheet.final()
    assert f.hands_won == (2, 1) and f.extra_boxes == (4, 1)
    assert f.box_bonus == ((2 + 4) * 20, (1 + 1) * 20)
    assert f.totals == (150 + 100 + 120, 13 + 40)


def _two_hand_shutout(mode: str, **kw: object) -> ScoreSheet:
    sheet = ScoreSheet(Rules.preset("classic", shutout=mode, **kw))  # type: ignore[arg-type]
    sheet.add(won(0, 60))
    sheet.add(DEAD_HAND)
    sheet.add(won(0, 50))
    return sheet


def test_shutout_bonus_mode_game_bonus_200() -> None:
    f = _two_hand_shutout("bonus").final()
    assert f.shutout and f.game_bonus == (100, 0) and f.shutout_bonus == (100, 0)
    assert f.totals == (110 + 200 + 40, 0) and f.margin == 350


def test_shutout_double_total_doubles_the_whole_score() -> None:
    f = _two_hand_shutout("double_total").final()
    assert f.shutout and f.totals == (2 * (110 + 100 + 40), 0)


def test_shutout_double_hands_doubles_each_hand_before_boxes() -> None:
    f = _two_hand_shutout("double_hands").final()
    assert f.shutout and f.totals == (2 * 110 + 100 + 40, 0)


def test_shutout_none() -> None:
    f = _two_hand_shutout("none").final()
    assert not f.shutout and f.totals == (110 + 100 + 40, 0)


def test_no_shutout_when_the_loser_scored() -> None:
    for mode in ("bonus", "double_total", "double_hands"):
        sheet = ScoreSheet(Rules.preset("classic", shutout=mode))  # type: ignore[arg-type]
        sheet.add(won(1, 5))
        sheet.add(won(0, 100))
        f = sheet.final()
        assert not f.shutout, mode
        assert f.totals == (100 + 100 + 20, 5 + 20)


def test_online_and_app_presets_figures() -> None:
    online = _two_hand_shutout("bonus", box_bonus=25).final()
    assert online.totals == (110 + 200 + 50, 0)
    app = ScoreSheet(Rules.preset("app"))
    app.add(won(0, 100))
    assert app.final().totals == (100, 0)  # no game bonus, no boxes, no shutout


# ------------------------------------------------------------------ Hollywood


def test_hollywood_hand_checked_example() -> None:
    """Worked by hand (target 100, classic bonuses):

    H1 A40 (A's 1st: g1)  H2 A30 (2nd: g1 g2)  H3 B20 (B's 1st: g1)  H4 A35 (3rd: g1 g2 g3; g1 closes A105)
    H5 B50 (2nd: g2)  H6 B60 (3rd: g2 g3; g2 closes B110)  H7 A70 (4th: g3; closes A105).
    g1 A 105+100+3*20=265, B 20+20=40; g2 A 65+2*20=105, B 110+100+2*20=250;
    g3 A 105+100+2*20=245, B 60+20=80. Sum 615 to 370.
    """
    sheet = ScoreSheet(Rules.preset("classic", hollywood=True))
    seq = [(0, 40), (0, 30), (1, 20), (0, 35), (1, 50), (1, 60), (0, 70)]
    written = [(0,), (0, 1), (0,), (0, 1, 2), (1,), (1, 2), (2,)]
    for i, (seat, pts) in enumerate(seq):
        assert not sheet.is_over
        sheet.add(won(seat, pts))
        assert sheet.rows[-1].written == written[i]
    assert sheet.is_over
    assert [sheet.game_scores(g) for g in range(3)] == [(105, 20), (65, 110), (105, 60)]
    f = sheet.final()
    assert [g.totals for g in f.games] == [(265, 40), (105, 250), (245, 80)]
    assert [g.winner for g in f.games] == [0, 1, 0]
    assert [g.closed_by for g in f.games] == [3, 5, 6]
    assert f.totals == (615, 370) and f.winner == 0 and f.margin == 245
    assert f.to_json()["games"][1]["winner"] == 1


def test_hollywood_win_for_a_closed_game_is_written_nowhere() -> None:
    sheet = ScoreSheet(Rules.preset("classic", hollywood=True, target=50))
    sheet.add(won(0, 60))  # A's 1st win: game 1 only, which closes
    sheet.add(won(1, 10))  # B's 1st win belongs in game 1 only, which is closed
    assert sheet.rows[-1].written == ()
    assert sheet.scores == (0, 0)  # the first open game is game 2
    sheet.add(won(1, 10))  # B's 2nd: games 1 and 2; only 2 is open
    assert sheet.rows[-1].written == (1,)


def test_hollywood_shutout_per_game() -> None:
    sheet = ScoreSheet(Rules.preset("classic", hollywood=True))
    for _ in range(3):
        sheet.add(won(0, 100))
    f = sheet.final()
    assert [g.shutout for g in f.games] == [True, True, True]
    # Each win closes a game: the 1st is written in game 1, the 2nd in game 2 (1 is closed), ...
    assert [g.hands_won for g in f.games] == [(1, 0)] * 3
    assert f.totals == (3 * 100 + 3 * 200 + 3 * 20, 0)


# ------------------------------------------------------------------ corrections


def test_replace_and_remove_recompute() -> None:
    sheet = ScoreSheet(Rules())
    sheet.add(won(0, 60))
    sheet.add(won(0, 30))
    sheet.replace(1, won(1, 30))
    assert sheet.scores == (60, 30)
    with pytest.raises(IllegalActionError, match="already over"):
        sheet.replace(0, won(0, 100))  # would end the game before hand 2
    assert sheet.scores == (60, 30)  # unchanged
    sheet.remove(0)
    assert sheet.scores == (0, 30) and len(sheet.results) == 1


def test_invalid_results_are_refused() -> None:
    sheet = ScoreSheet(Rules())
    with pytest.raises(IllegalActionError):
        sheet.add(HandResult(kind="dead", winner=0, points=0))
    with pytest.raises(IllegalActionError):
        sheet.add(HandResult(kind="knock", winner=2, points=3))
    with pytest.raises(IllegalActionError):
        sheet.add(HandResult(kind="knock", winner=0, points=-3))


# ------------------------------------------------------------------ property


@st.composite
def results(draw: st.DrawFn) -> list[HandResult]:
    n = draw(st.integers(1, 60))
    out = []
    for _ in range(n):
        if draw(st.booleans()) and draw(st.booleans()):
            out.append(DEAD_HAND)
        else:
            out.append(won(draw(st.integers(0, 1)), draw(st.integers(0, 80)), extra_boxes=draw(st.integers(0, 2))))
    return out


@settings(max_examples=150, deadline=None)
@given(results(), st.sampled_from(["bonus", "double_total", "double_hands", "none"]), st.booleans(),
       st.integers(1, 200))
def test_sheet_properties(seq: list[HandResult], mode: str, hollywood: bool, target: int) -> None:
    rules = Rules.preset("classic", shutout=mode, hollywood=hollywood, target=target)  # type: ignore[arg-type]
    sheet = ScoreSheet(rules)
    played: list[HandResult] = []
    for r in seq:
        if sheet.is_over:
            with pytest.raises(IllegalActionError):
                sheet.add(r)
            break
        sheet.add(r)
        played.append(r)
    if not hollywood:
        sums = [sum(r.points for r in played if r.winner == s) for s in (0, 1)]
        assert list(sheet.scores) == sums
        reached = [i for i, row in enumerate(sheet.rows) if max(row.totals[0]) >= target]
        assert sheet.is_over == bool(reached)
        if reached:
            assert reached[0] == len(played) - 1  # ends at the first hand reaching the target
    if sheet.is_over:
        f = sheet.final()
        winners = [s for s in (0, 1) if max(g.points[s] for g in f.games) >= target]
        assert winners
        for g in f.games:
            assert g.points[g.winner] >= target > g.points[1 - g.winner]
            assert sum(g.totals) == sum(g.points) + sum(g.game_bonus) + sum(g.box_bonus) + sum(g.shutout_bonus)
        if not hollywood:
            assert f.winner == f.games[0].winner
            assert f.margin == f.totals[f.winner] - f.totals[1 - f.winner]
            assert f.hands_won == tuple(sum(1 for r in played if r.winner == s) for s in (0, 1))
    else:
        assert sheet.winner is None


# ------------------------------------------------------------------ dealers


@pytest.mark.parametrize("rule", ["winner", "loser", "alternate"])
def test_next_dealer_rules_with_dead_hands(rule: str) -> None:
    rules = Rules.preset("classic", straight_gin=True, target=60, next_dealer=rule)  # type: ignore[arg-type]
    m = play_game(rules, 5)
    kinds = [r.kind for r in m.results]
    assert "dead" in kinds
    dealers = [h.dealer for h in m.hands]
    assert dealers[0] == m.first_dealer
    for prev, r, nxt in zip(dealers, m.results, dealers[1:], strict=False):
        if r.dead:
            assert nxt == prev
        elif rule == "winner":
            assert nxt == r.winner
        elif rule == "loser":
            assert nxt == 1 - (r.winner or 0)
        else:
            assert nxt == 1 - prev


def test_next_dealer_function() -> None:
    r = won(1, 5)
    assert next_dealer(Rules(), 0, r) == 1
    assert next_dealer(Rules(next_dealer="loser"), 1, r) == 0
    assert next_dealer(Rules(next_dealer="alternate"), 1, r) == 0
    for rule in ("winner", "loser", "alternate"):
        assert next_dealer(Rules(next_dealer=rule), 1, DEAD_HAND) == 1  # type: ignore[arg-type]


@pytest.mark.parametrize("how", ["high_cut", "low_cut"])
def test_first_dealer_by_cut(how: str) -> None:
    rules = Rules(first_dealer=how)  # type: ignore[arg-type]
    ties = 0
    dealers = set()
    for seed in range(200):
        m = Match(rules, seed=seed)
        assert m.cuts, "a cut was made"
        *tied, last = m.cuts
        ties += len(tied)
        assert all(c.tie for c in tied) and not last.tie
        ranks = [rank_of(c) for c in last.cards]
        pick = max(ranks) if how == "high_cut" else min(ranks)
        assert m.first_dealer == ranks.index(pick)
        dealers.add(m.first_dealer)
        assert Match(rules, seed=seed).first_dealer == m.first_dealer  # reproducible
    assert ties > 0 and dealers == {0, 1}


def test_first_dealer_random_and_given() -> None:
    firsts = {Match(Rules(first_dealer="random"), seed=s).first_dealer for s in range(30)}
    assert firsts == {0, 1}
    assert Match(Rules(first_dealer="random"), seed=3).cuts == []
    assert Match(Rules(), first_dealer=1, seed=3).first_dealer == 1
    d, cuts = cut_for_deal(Rules(), random.Random(1))
    assert d in (0, 1) and cuts


# ------------------------------------------------------------------ Match


def test_match_flow_and_errors() -> None:
    m = Match(Rules(), first_dealer=0, seed=42, players=("You", "Sam"))
    with pytest.raises(IllegalActionError):
        m.apply("pass")
    with pytest.raises(IllegalActionError):
        m.view(0)
    h = m.start_hand()
    assert m.hand is h and m.in_progress and m.next_dealer == 0
    with pytest.raises(IllegalActionError, match="in progress"):
        m.start_hand()
    view = m.view(h.current)
    assert view.scores == (0, 0) and view.legal
    while not h.is_over:
        from golden_policy import choose

        for a in choose(h):
            m.apply(a)
    assert m.results == [h.result] and not m.in_progress
    assert m.view(0).scores == m.scores
    while not m.is_over:
        play_hand(m)
    assert m.winner is not None and m.final().winner == m.winner
    with pytest.raises(IllegalActionError, match="game is over"):
        m.start_hand()


def test_match_decks_reproducible_from_seed() -> None:
    a = play_game(Rules(), 9)
    b = play_game(Rules(), 9)
    assert [h.deck for h in a.hands] == [h.deck for h in b.hands]
    assert a.results == b.results
    c = Match(Rules(), seed=10)
    c.start_hand()
    assert c.hands[0].deck != a.hands[0].deck


def test_match_with_explicit_deck_and_hollywood_scores() -> None:
    m = Match(Rules(hollywood=True), first_dealer=1, seed=1)
    h = m.start_hand(list(range(52)))
    assert h.deck == list(range(52)) and h.dealer == 1
    assert h.upcard == 20
    play = play_game(Rules(hollywood=True), 5)
    f = play.final()
    assert len(f.games) == 3 and f.totals == tuple(sum(g.totals[s] for g in f.games) for s in (0, 1))


@pytest.mark.parametrize(
    ("module", "forbidden"),
    [
        # The ledger stands alone: the scorekeeper scores real-card games without the card engine.
        ("ginrummy.scoresheet", {"ginrummy.hand", "ginrummy.observation", "ginrummy.match", "ginrummy.record"}),
        ("ginrummy.scorekeeper", {"ginrummy.hand", "ginrummy.observation", "ginrummy.match", "ginrummy.record"}),
        ("ginrummy.scorekeeper_multi", {"ginrummy.hand", "ginrummy.observation", "ginrummy.match", "ginrummy.record"}),
        ("ginrummy.multisheet", {"ginrummy.hand", "ginrummy.observation", "ginrummy.match", "ginrummy.record"}),
        # Records depend on matches, never the reverse.
        ("ginrummy.match", {"ginrummy.record"}),
    ],
)
def test_module_imports_point_one_way(module: str, forbidden: set[str]) -> None:
    import subprocess

    code = f"import sys, {module}; print(' '.join(sorted(m for m in sys.modules if m.startswith('ginrummy'))))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert module in out and not forbidden & set(out), sorted(forbidden & set(out))


def test_score_sheet_keeps_a_column_per_seat() -> None:
    s = ScoreSheet(Rules(target=50), seats=3)
    s.add(HandResult(kind="knock", winner=2, points=30, knocker=2))
    s.add(HandResult(kind="gin", winner=1, points=45, knocker=1))
    assert s.scores == (0, 45, 30) and s.hands_won == (0, 1, 1)
    with pytest.raises(IllegalActionError, match="no player 3 in a 3-player game"):
        s.add(HandResult(kind="knock", winner=3, points=5, knocker=3))
    s.add(HandResult(kind="knock", winner=2, points=25, knocker=2))
    f = s.final()
    # Seat 2 reached 55; boxes for every seat that won a hand; the shutout counts against each
    # player who scored nothing: seat 0 (game bonus 200 instead of 100), not seat 1.
    assert s.winner == 2 and f.totals == (0, 45 + 20, 55 + 100 + 40 + 100) and f.margin == 295 - 65
    assert f.games[0].shut_out == (0,) and [ln.against for ln in f.breakdown if "shutout" in ln.label] == [0]
