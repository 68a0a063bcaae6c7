"""The arena for three and four players: every player in every seat on identical deals, counts
that add up, reproducible from the seed on any number of workers, and the command."""

from __future__ import annotations

import json

import pytest

from ginrummy import arena_seated
from ginrummy.arena_seated import SeatedConfig, play_group, run_seated, seating
from ginrummy.cli import main
from ginrummy.game import Game
from ginrummy.rules import Rules

RULES = Rules.preset("classic", target=50, team_target=50)


@pytest.mark.parametrize("n", [3, 4])
def test_a_group_puts_every_player_in_every_seat_and_partners_stay_partners(n: int) -> None:
    seats = [seating(n, r) for r in range(n)]
    for k in range(n):
        assert sorted(s[k] for s in seats) == list(range(n))
    if n == 4:
        for s in seats:
            assert s[0] % 2 == s[2] % 2 and s[1] % 2 == s[3] % 2 and s[0] % 2 != s[1] % 2


def test_the_games_of_a_group_are_dealt_the_same_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    decks: list[tuple[int, list[int], str]] = []
    real = arena_seated.play_seated_game

    def spy(game: Game, players, on_hand, **kw):  # type: ignore[no-untyped-def]
        real(game, players, on_hand, **kw)
        decks.append((game.first_dealer, game.hands[0].deck, game.players[game.first_dealer]))

    monkeypatch.setattr(arena_seated, "play_seated_game", spy)
    play_group(SeatedConfig(("greedy", "simple", "easy"), RULES, 1, seed=4), 0)
    assert len(decks) == 3
    assert len({(d, tuple(deck)) for d, deck, _ in decks}) == 1  # the same first dealer seat and deck
    assert sorted(name for _, _, name in decks) == ["p1", "p2", "p3"]  # a different player deals it each time


@pytest.mark.parametrize("players", [("greedy", "simple", "random"), ("greedy", "simple", "easy", "greedy")])
def test_the_counts_add_up(players: tuple[str, ...]) -> None:
    n = len(players)
    t = run_seated(SeatedConfig(players, RULES, 2, seed=9))
    assert t.units == 2 * n
    assert sum(s.hands_played for s in t.sides) == 2 * t.hands  # two players a hand
    assert sum(s.hands_won for s in t.sides) == t.hands - t.dead
    assert all(s.decisions > 0 for s in t.sides)
    if n == 3:
        assert sum(s.sat_out for s in t.sides) == t.hands  # the dealer sits out every hand
        assert sum(s.wins for s in t.sides) + t.ties == t.units
    else:
        assert sum(s.sat_out for s in t.sides) == 0
        assert sum(t.team_wins) + t.ties == t.units
        assert t.sides[0].wins == t.sides[2].wins == t.team_wins[0]
        assert t.sides[1].total == t.sides[3].total == t.team_total[1]
        assert t.sides[0].hands_played == t.sides[1].hands_played == t.hands // 2


def test_reproducible_on_any_number_of_workers() -> None:
    cfg = SeatedConfig(("simple", "greedy", "easy", "random"), RULES, 4, seed=2)
    one, two = run_seated(cfg, workers=1), run_seated(cfg, workers=2)
    strip = [(s.wins, s.points, s.total, s.hands_played, s.knocks, s.gins) for s in one.sides]
    assert strip == [(s.wins, s.points, s.total, s.hands_played, s.knocks, s.gins) for s in two.sides]
    assert (one.hands, one.team_wins) == (two.hands, two.team_wins)
    other = run_seated(SeatedConfig(cfg.players, RULES, 4, seed=3))
    assert (other.hands, [s.points for s in other.sides]) != (one.hands, [s.points for s in one.sides])


def test_command_three_players_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--players", "3", "--seats", "greedy,simple,easy", "--games", "5", "--seed", "1",
                 "--rule", "target=40", "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert r["players"] == 3 and r["seats"] == {"p1": "greedy", "p2": "simple", "p3": "easy"}
    assert r["games"] == 6 and r["groups"] == 2  # rounded up to whole groups
    assert set(r["results"]) == {"p1", "p2", "p3"} and "teams" not in r
    p1 = r["results"]["p1"]
    assert p1["name"] == "greedy" and 0 <= p1["win_rate"] <= 1 and p1["hands_played"] > 0
    assert sum(p["wins"] for p in r["results"].values()) + r["ties"] == 6


def test_command_four_players_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["arena", "--p1", "greedy", "--p2", "simple", "--p3", "greedy", "--p4", "random", "--games", "4",
            "--rule", "team_target=40"]
    assert main(args) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("greedy (p1), simple (p2), greedy (p3), random (p4): 4 four-player team games")
    assert out[1].startswith("team p1+p3 (greedy and greedy): wins ") and out[2].startswith("team p2+p4 (simple and random)")
    assert any(line.split()[:2] == ["p4", "random"] for line in out)
    assert main([*args, "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert set(r["teams"]) == {"p1+p3", "p2+p4"}
    assert r["teams"]["p1+p3"]["wins"] + r["teams"]["p2+p4"]["wins"] + r["ties"] == 4
    assert r["results"]["p1"]["wins"] == r["teams"]["p1+p3"]["wins"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--players", "3", "--p1", "greedy", "--p2", "simple"], "3 players play, but 2 are named"),
        (["--seats", "greedy,nobody"], "--seats: unknown player 'nobody'"),
        (["--p1", "greedy", "--p3", "simple"], "players are named in seat order: --p2 missing"),
        (["--p1", "greedy", "--seats", "greedy,simple"], "either with --seats or with --p1"),
        (["--seats", "greedy,simple,easy", "--hands", "4"], "--hands plays single two-player hands"),
        (["--p1", "greedy"], "2 players play, but 1 is named"),
        (["--seats", "greedy,simple,easy,easy,easy"], "two, three or four players, not 5"),
    ],
)
def test_bad_player_lists_are_usage_errors(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err, err
