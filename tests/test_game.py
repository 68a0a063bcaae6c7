"""The game layer for two, three and four seats (ginrummy.game): who plays each hand, hand seats
mapped to game seats, the ledger written and the game ended by it, the table session running it,
and a seat that does not play a hand seeing nothing of it."""

from __future__ import annotations

import pytest

from ginrummy.actions import Kind
from ginrummy.dealing import team_round, three_pairing
from ginrummy.errors import IllegalActionError
from ginrummy.game import Game
from ginrummy.match import Match
from ginrummy.multisheet import TeamSheet, ThreeSheet
from ginrummy.players import get_player
from ginrummy.players.base import Player
from ginrummy.players.driver import play_game
from ginrummy.rules import Rules
from ginrummy.scoresheet import ScoreSheet
from ginrummy.table import Seat, Table
from seated_games import cards_in, new_game, play_watched, secrets

NAMES4 = ["Ann", "Bob", "Cy", "Di"]


def play_out(game: Game, table: int = 0) -> None:
    """Play the hand at ``table`` to its end by the greedy player (both seats)."""
    p = get_player("greedy", seed=1)
    h = game.tables[table]
    while not h.is_over:
        game.apply(p.decide(h.observation(h.current)), table)


def play_dead(game: Game, table: int = 0) -> None:
    """Play the hand at ``table`` to a dead hand: nobody takes a discard or knocks."""
    h = game.tables[table]
    while not h.is_over:
        legal = h.legal_actions()
        game.apply(next(a for a in legal if a.kind in (Kind.PASS, Kind.STOCK, Kind.DISCARD, Kind.DONE)), table)
    assert h.result is not None and h.result.dead


# -- the game's shape ------------------------------------------------------------------------------


def test_the_ledger_is_the_one_for_the_number_of_players() -> None:
    assert isinstance(Game(Rules(), players=["A", "B"], seed=1).sheet, ScoreSheet)
    assert isinstance(Game(Rules(), players=["A", "B", "C"], seed=1).sheet, ThreeSheet)
    assert isinstance(Game(Rules(), players=NAMES4, seed=1).sheet, TeamSheet)
    for bad in (["A"], ["A", "B", "C", "D", "E"]):
        with pytest.raises(ValueError, match="two, three or four players"):
            Game(Rules(), players=bad)
    with pytest.raises(ValueError, match="0 to 2"):
        Game(Rules(), players=["A", "B", "C"], first_dealer=3)


def test_the_first_dealer_is_cut_for_among_all_the_players() -> None:
    for n in (3, 4):
        g = Game(Rules(first_dealer="high_cut"), players=NAMES4[:n], seed=5)
        assert g.cuts and all(len(c.cards) == n for c in g.cuts)
        assert not g.cuts[-1].tie and g.first_dealer in range(n)


def test_two_seats_play_exactly_the_match() -> None:
    rules = Rules.preset("classic", target=60)
    a = Match(rules, seed=8)
    play_game(a, [get_player("simple", seed=1), get_player("greedy", seed=2)])
    b = Game(rules, players=["Player 1", "Player 2"], seed=8)
    t = Table(b, [Seat("S", get_player("simple", seed=1)), Seat("G", get_player("greedy", seed=2))])
    while not b.is_over:
        t.deal()
        t.play_computers()
    assert [h.deck for h in b.hands] == [h.deck for h in a.hands]
    assert [h.history for h in b.hands] == [h.history for h in a.hands]
    assert b.final() == a.final() and b.first_dealer == a.first_dealer


# -- three players ---------------------------------------------------------------------------------


def test_three_the_dealer_sits_out_and_the_hand_seats_are_its_left_then_right() -> None:
    g = Game(Rules(), players=["Ann", "Bob", "Cy"], first_dealer=1, seed=2)
    (p,) = g.deal()
    assert p == three_pairing(1) and p.seats == (2, 0) and p.sits_out == 1
    h = g.tables[0]
    assert h.dealer == 1  # the player on the dealer's right has the dealer's part
    assert g.where(2) == (0, 0) and g.where(0) == (0, 1) and g.where(1) is None
    assert g.to_act == (2,)  # the player on the dealer's left is offered the upcard first


def test_three_the_loser_deals_next_and_a_dead_hand_is_dealt_again() -> None:
    for seed in range(10):
        g = Game(Rules.preset("classic", target=1000), players=["Ann", "Bob", "Cy"], first_dealer=0, seed=seed)
        for k in range(6):
            (p,) = g.deal()
            if k == seed % 6:
                play_dead(g)
            else:
                play_out(g)
            r = g.tables[0].result
            assert r is not None
            nxt = g.next_pairings[0]
            if r.winner is None:
                assert nxt == p  # the same dealer again, the same two play again
            else:
                loser = p.seats[1 - r.winner]
                assert nxt.dealt_by == loser and nxt.sits_out == loser
                assert p.seats[r.winner] in nxt.seats and p.dealt_by in nxt.seats
        if any(h.result is not None and h.result.winner is None for h in g.hands):
            return
    raise AssertionError("no dead hand in 40 games")


def test_three_the_sheet_scores_the_game_seat_that_won() -> None:
    g = Game(Rules(), players=["Ann", "Bob", "Cy"], first_dealer=0, seed=3)
    for _ in range(5):
        (p,) = g.deal()
        play_out(g)
        r = g.tables[0].result
        assert r is not None
        row = g.sheet.rows[-1]
        assert row.result.pairing == p and row.result.result == r
        if r.winner is not None:
            assert row.result.winner == p.seats[r.winner]
    assert sum(g.scores) == sum(h.result.points for h in g.hands if h.result is not None)


def test_three_hand_views_carry_the_two_players_scores_in_hand_seats() -> None:
    g = Game(Rules(), players=["Ann", "Bob", "Cy"], first_dealer=2, seed=4)
    while not g.scores[0] and not g.scores[1] or g.scores[2] == g.scores[0]:
        g.deal()
        play_out(g)
    g.deal()
    p = g.current_pairings[0]
    for hs, seat in enumerate(p.seats):
        assert g.view(seat).seat == hs
        assert g.view(seat).scores == (g.scores[p.seats[0]], g.scores[p.seats[1]])


def test_three_the_seat_that_sits_out_cannot_act_or_look_at_the_hand() -> None:
    g = Game(Rules(), players=["Ann", "Bob", "Cy"], first_dealer=2, seed=1)
    g.deal()
    with pytest.raises(IllegalActionError, match="Cy sits out this hand: Ann against Bob play it") as e:
        g.act(2, "pass")
    assert e.value.rule == "sits_out"
    with pytest.raises(IllegalActionError, match="sits out"):
        g.view(2)
    with pytest.raises(IllegalActionError, match="not your turn: it is player 0's turn") as e:
        g.act(1, "pass")
    assert e.value.rule == "turn"
    with pytest.raises(IllegalActionError, match="no seat 3"):
        g.act(3, "pass")
    assert not g.tables[0].history  # refusals change nothing
    g.act(0, "pass")
    assert g.to_act == (1,)


def test_three_the_game_ends_when_a_player_reaches_the_target() -> None:
    g = Game(Rules.preset("classic", target=40), players=["Ann", "Bob", "Cy"], seed=6)
    while not g.is_over:
        g.deal()
        play_out(g)
    assert max(g.scores) >= 40 and g.winner == g.scores.index(max(g.scores))
    assert g.final().winner == g.winner
    with pytest.raises(IllegalActionError, match="the game is over") as e:
        g.deal()
    assert e.value.rule == "game_over"


# -- four players ----------------------------------------------------------------------------------


def test_four_a_deal_is_two_tables_with_partners_at_different_tables() -> None:
    g = Game(Rules(), players=NAMES4, first_dealer=1, seed=2)
    assert g.deal() == team_round(0, 1)
    assert len(g.tables) == 2 and g.tables[0] is not g.tables[1]
    assert g.tables[0].deck != g.tables[1].deck
    assert [g.where(s) for s in range(4)] == [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert g.to_act == (0, 2) and g.in_progress
    with pytest.raises(IllegalActionError, match="two tables"):
        g.start_hand()


def test_four_partners_switch_opponents_every_deal() -> None:
    g = Game(Rules.preset("classic", team_target=10000), players=NAMES4, first_dealer=0, seed=9)
    for k in range(4):
        pairings = g.deal()
        assert pairings == team_round(k, 0)
        assert [p.seats for p in pairings] == ([(0, 1), (2, 3)] if k % 2 == 0 else [(0, 3), (2, 1)])
        play_out(g, 0)
        play_out(g, 1)


def test_four_the_round_is_written_only_when_both_tables_are_over() -> None:
    g = Game(Rules(), players=NAMES4, first_dealer=0, seed=3)
    ended: list[int] = []
    g.on_hand_end = lambda game, hand: ended.append(len(game.sheet.results))
    g.deal()
    play_out(g, 1)
    assert g.in_progress and not g.sheet.results and ended == [0]
    with pytest.raises(IllegalActionError, match="a hand is in progress"):
        g.deal()
    with pytest.raises(IllegalActionError, match="no hand in progress at table 2"):
        g.apply("pass", 1)
    play_out(g, 0)
    assert not g.in_progress and ended == [0, 1]
    r0, r1 = (h.result for h in g.tables)
    entry = g.sheet.results[0]
    assert (entry.tables[0].result, entry.tables[1].result) == (r0, r1)
    assert g.scores[entry.winner] == entry.points if entry.winner is not None else g.scores == (0, 0)


def test_four_a_dead_hand_at_one_table_scores_nothing_there() -> None:
    g = Game(Rules(), players=NAMES4, first_dealer=0, seed=4)
    g.deal()
    play_dead(g, 0)
    play_out(g, 1)
    entry = g.sheet.results[0]
    r1 = g.tables[1].result
    assert r1 is not None and entry.kind == "one_table"
    assert entry.points == r1.points and g.scores[entry.winner] == r1.points
    # Not played again: the next deal is the next pairing of partners.
    assert g.next_pairings == team_round(1, 0)


def test_four_hand_views_carry_the_team_scores_and_the_game_ends_at_the_team_target() -> None:
    g = Game(Rules.preset("classic", team_target=60), players=NAMES4, seed=12)
    while not g.is_over:
        g.deal()
        for s in range(4):
            t, hs = g.where(s) or (0, 0)
            mine, theirs = g.scores[s % 2], g.scores[1 - s % 2]
            assert g.view(s).scores[hs] == mine and g.view(s).scores[1 - hs] == theirs
            assert g.view(s).rules.target == 60  # the team target: the end of the seat's own game
        play_out(g, 0)
        play_out(g, 1)
    assert max(g.scores) >= 60 and g.winner in (0, 1) and g.rules.target == 100


# -- the table session -----------------------------------------------------------------------------


class Ears(Player):
    """Plays greedy; notes which hand seat it is given, when it sits out and each hand's end."""

    name = "ears"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.inner = get_player("greedy", seed=seed)
        self.log: list[str] = []

    def decide(self, view):  # type: ignore[no-untyped-def]
        return self.inner.decide(view)

    def new_hand(self, seat: int) -> None:
        self.log.append(f"new {seat}")

    def sit_out(self, view) -> None:  # type: ignore[no-untyped-def]
        assert view.sits_out and view.hand is None
        self.log.append("out")

    def hand_over(self, view) -> None:  # type: ignore[no-untyped-def]
        self.log.append(f"over {view.seat}")


@pytest.mark.parametrize("n", [3, 4])
def test_the_table_runs_whole_games_and_tells_each_seat_its_part(n: int) -> None:
    ears = [Ears(seed=i) for i in range(n)]
    g = Game(Rules.preset("classic", target=60, team_target=60), players=NAMES4[:n], seed=7)
    t = Table(g, [Seat(NAMES4[i], ears[i]) for i in range(n)])
    deals = 0
    while not g.is_over:
        t.deal()
        for s in range(n):
            at = g.where(s)
            assert ears[s].log[-1] == ("out" if at is None else f"new {at[1]}")
        t.play_computers()
        assert t.to_act is None and not t.acting
        for s in range(n):
            at = g.where(s)
            assert ears[s].log[-1] == ("out" if at is None else f"over {at[1]}")
        deals += 1
    assert deals == len(g.sheet.results) and deals > 1


def test_a_four_player_table_waits_for_a_person_while_the_other_table_plays() -> None:
    g = Game(Rules(), players=NAMES4, first_dealer=0, seed=5)
    seats = [Seat("Ann")] + [Seat(n, get_player("greedy", seed=i)) for i, n in enumerate(NAMES4[1:])]
    t = Table(g, seats)
    t.deal()
    t.play_computers()
    # Table 2 (Cy against Di, computers) is played out; table 1 waits for Ann.
    assert g.tables[1].is_over and not g.tables[0].is_over
    assert t.acting == (0,) and t.waiting_for == 0 and not t.computer_to_act
    with pytest.raises(IllegalActionError, match="no computer player"):
        t.computer_move()
    person = get_player("greedy", seed=9)
    while 0 in t.acting:
        t.act(0, person.decide(t.view(0)))
        t.play_computers()
    assert not g.in_progress and len(g.sheet.results) == 1


def test_a_table_needs_one_seat_per_player() -> None:
    with pytest.raises(ValueError, match="this table seats 3 players, not 2"):
        Table(Game(Rules(), players=["A", "B", "C"]), [Seat("A"), Seat("B")])


# -- nothing hidden leaks, to any seat -------------------------------------------------------------


def _check_every_seat(game: Game, taken: list[list[set[int]]]) -> None:
    for seat in range(game.seats):
        view = game.game_view(seat)
        data = view.to_json()
        at = game.where(seat)
        if at is None:
            # Sitting out: nothing of the hand, not one card.
            assert view.sits_out and view.hand is None and view.table is None
            assert not cards_in(data), (seat, cards_in(data))
            with pytest.raises(IllegalActionError, match="sits out"):
                game.view(seat)
            continue
        t, hs = at
        h = game.tables[t]
        assert view.hand is not None and view.hand.hand == h.hands[hs]  # its own hand, at its own table
        outside = {k: v for k, v in data.items() if k != "hand"}
        assert not cards_in(outside), (seat, cards_in(outside))  # nothing of the other table
        leaked = cards_in(data["hand"]) & secrets(h, hs, taken[t])
        assert not leaked, f"seat {seat} was shown hidden cards {leaked} (deal {game.deals}, step {len(h.history)})"


@pytest.mark.parametrize(
    ("players", "rules", "seed"),
    [
        (["greedy", "simple", "easy"], Rules.preset("classic"), 1),
        (["random", "greedy", "simple"], Rules.preset("online", oklahoma=True), 2),
        (["simple", "greedy", "easy", "greedy"], Rules.preset("classic"), 3),
        (["greedy", "random", "simple", "easy"], Rules.preset("app", big_gin=True, upcard=False), 4),
    ],
)
def test_every_observation_of_whole_games_hides_what_each_seat_may_not_see(
    players: list[str], rules: Rules, seed: int
) -> None:
    game, table = new_game(players, rules, seed)
    actions = sum(play_watched(table, _check_every_seat))
    assert game.is_over and actions > 20
    if len(players) == 3:
        assert len({p.sits_out for p in game.pairings}) > 1  # more than one seat sat out
