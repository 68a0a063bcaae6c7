"""Properties of random three- and four-player games played by the built-in players: they end,
the scores add up (worked out here from the hands' results), the rotation is the rules' (who
deals, who sits out, who plays whom), and the record replays to the same bytes."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ginrummy.game import Game
from ginrummy.players import get_player
from ginrummy.record import dumps, game_from_record, match_to_record
from ginrummy.rules import Rules
from ginrummy.table import Seat, Table

PLAYERS = ["random", "easy", "simple", "greedy"]
MAX_DEALS = 2000  # random players play mostly dead hands: a Hollywood game of theirs runs long


@st.composite
def rule_sets(draw: st.DrawFn) -> Rules:
    """A rule set of a bigger game: variants of RULES.md, small targets so games stay short."""
    preset = draw(st.sampled_from(["classic", "online", "app"]))
    oklahoma = draw(st.booleans())
    return Rules.preset(
        preset,
        target=draw(st.integers(10, 50)),
        team_target=draw(st.integers(10, 50)),
        oklahoma=oklahoma,
        oklahoma_spade_double=oklahoma and draw(st.booleans()),
        oklahoma_extra_boxes=oklahoma and draw(st.booleans()),
        hollywood=draw(st.booleans()),
        upcard=draw(st.booleans()),
        big_gin=draw(st.booleans()),
        last_chance=draw(st.booleans()),
        shutout=draw(st.sampled_from(["bonus", "double_total", "double_hands", "none"])),
        three_player_bonuses=draw(st.booleans()),
        team_bonuses=draw(st.booleans()),
        first_dealer=draw(st.sampled_from(["high_cut", "low_cut", "random"])),
    )


def play(n: int, rules: Rules, seed: int, who: list[str]) -> Game:
    game = Game(rules, players=["A", "B", "C", "D"][:n], seed=seed)
    table = Table(game, [Seat(x, get_player(p, seed=seed + i)) for i, (x, p) in enumerate(zip("ABCD", who, strict=False))])
    deals = 0
    while not game.is_over:
        assert deals < MAX_DEALS, "the game did not end"
        table.deal()
        table.play_computers()
        assert not game.in_progress
        deals += 1
    return game


def check_common(game: Game) -> None:
    """Ends, scores add up (game 1's columns, from the results), record round trip."""
    rules = game.rules
    target = rules.team_target if game.seats == 4 else rules.target
    per = len(game.tables)
    cols = 2 if game.seats == 4 else game.seats
    running = [0] * cols
    closed = game.sheet.game_closed_by(0)
    assert closed is not None
    for k in range(closed[1] + 1):
        won = [0] * cols
        for t in range(per):
            h, p = game.hands[k * per + t], game.pairings[k * per + t]
            assert h.result is not None
            if h.result.winner is not None:
                won[game.column(p.seats[h.result.winner])] += h.result.points
        if game.seats == 4:  # the team with more points at the tables scores the difference
            won = [max(0, won[0] - won[1]), max(0, won[1] - won[0])]
        running = [a + b for a, b in zip(running, won, strict=True)]
        assert (max(running) >= target) == (k == closed[1])  # game 1 closes at the first deal reaching it
    assert running == list(game.sheet.game_scores(0))
    assert running[closed[0]] == max(running)
    final = game.final()
    for c in range(cols):
        assert final.totals[c] == (
            final.points[c] + final.game_bonus[c] + final.box_bonus[c] + final.shutout_bonus[c]
        )
    if not rules.hollywood:
        assert final.winner == closed[0] and len(game.sheet.results) == closed[1] + 1
    text = dumps(match_to_record(game))
    assert dumps(match_to_record(game_from_record(match_to_record(game)))) == text


FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(rule_sets(), st.integers(0, 2**32), st.lists(st.sampled_from(PLAYERS), min_size=3, max_size=3))
def test_random_three_player_games(rules: Rules, seed: int, who: list[str]) -> None:
    game = play(3, rules, seed, who)
    check_common(game)
    dealer = game.first_dealer
    for h, p in zip(game.hands, game.pairings, strict=True):
        # The dealer deals to the other two and sits out; its left plays first (hand seat 0).
        assert p.dealt_by == dealer and p.sits_out == dealer
        assert p.seats == ((dealer + 1) % 3, (dealer + 2) % 3) and h.dealer == 1
        r = h.result
        assert r is not None
        # The loser deals next; after a dead hand the same dealer again.
        dealer = dealer if r.winner is None else p.seats[1 - r.winner]
    if not rules.three_player_bonuses:
        f = game.final()
        assert f.totals == f.points


@FAST
@given(rule_sets(), st.integers(0, 2**32), st.lists(st.sampled_from(PLAYERS), min_size=4, max_size=4))
def test_random_four_player_games(rules: Rules, seed: int, who: list[str]) -> None:
    game = play(4, rules, seed, who)
    check_common(game)
    first_team = game.first_dealer % 2
    for k in range(game.deals):
        a, b = game.pairings[2 * k], game.pairings[2 * k + 1]
        # Partners at different tables, switching opponents every deal.
        assert (a.seats, b.seats) == (((0, 1), (2, 3)) if k % 2 == 0 else ((0, 3), (2, 1)))
        # The teams take turns to deal at both tables, the first dealer's team first.
        team = (first_team + k) % 2
        assert a.dealt_by % 2 == team and b.dealt_by % 2 == team
        assert game.hands[2 * k].dealer == team and game.hands[2 * k + 1].dealer == team
    if not rules.team_bonuses:
        f = game.final()
        assert f.totals == f.points
