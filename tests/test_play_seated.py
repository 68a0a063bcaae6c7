"""``ginrummy play --players 3|4``: whole games at the prompt with a scripted person who reads only
what is printed, watching three or four computer players, records that replay exactly, the
options checked at start, and nothing printed of a hand the person does not play until it ends."""

from __future__ import annotations

import io
import json
import random
import re

import pytest

import ginrummy.game
from ginrummy.cli import build_parser, main
from ginrummy.commands.display import Style
from ginrummy.commands.play import play
from ginrummy.commands.prompt import Console
from ginrummy.record import dumps, game_from_record, load, match_to_record
from ginrummy.seated_play import OTHER_TABLE_BACK
from ginrummy.storage import Store

CARD = re.compile(r"(?<![A-Za-z0-9])[A2-9TJQK][shdc](?![A-Za-z0-9])")


class Reader:
    """A person who plays from the printed text only: Enter at a layout (the best step), a knock
    when one is offered, else the stock (or a pass), else the highest loose card of the hand as
    last shown. ``script`` answers the first prompts with words of its own (``undo``, ``quit``;
    None: as above)."""

    def __init__(self, out: io.StringIO, script: list[str] | None = None) -> None:
        self.out = out
        self.script = list(script or [])
        self.prompts = 0

    def __call__(self, prompt: str) -> str:
        self.out.write(prompt + "\n")
        self.prompts += 1
        if self.script and (word := self.script.pop(0)) is not None:
            return word
        if "[Enter = " in prompt:
            return ""
        choices = prompt.split(" (or hint")[0].strip().split(", ")
        knocks = [c for c in choices if c.startswith("knock ")]
        if knocks:
            return knocks[0]
        for word in ("stock", "pass"):
            if word in choices:
                return word
        hand = [line for line in self.out.getvalue().splitlines() if "Your hand:" in line][-1]
        after = hand.split("]")[-1] if "]" in hand else hand.split(":", 1)[1]
        loose = after.split("deadwood")[0].split()
        for card in reversed(loose):
            if card in choices:
                return card
        return choices[-1]


def run_play(*argv: str, script: list[str] | None = None) -> tuple[int, str]:
    """``ginrummy play ARGV`` with the :class:`Reader` at the prompt (kept in memory unless ``--db`` is given)."""
    out = io.StringIO()
    keep = [] if "--db" in argv or "--resume" in argv else ["--no-save"]
    args = build_parser().parse_args(["play", *argv, *keep])
    rc = play(args, Console(inp=Reader(out, script), out=out, style=Style("ascii")))
    return rc, out.getvalue()


def test_three_players_you_sit_out_the_hands_you_deal_and_learn_only_their_result():
    rc, out = run_play("--players", "3", "--opponents", "simple,greedy", "--seed", "4", "--rule", "target=60")
    assert rc == 0
    assert "Three players: You, simple, greedy." in out
    sat = [i for i, line in enumerate(out.splitlines()) if "you deal and sit out" in line]
    assert sat, "the person never dealt (and sat out) in a whole game"
    lines = out.splitlines()
    for i in sat:
        assert lines[i + 1].strip() == "You sit out this hand: you see nothing of it until it ends."
        assert lines[i + 2].strip() == "The hand you sat out is over:"
        assert re.search(r"(simple|greedy) .*(knocked|went gin|undercut|Dead hand)", lines[i + 3])
    assert "you play simple" in out or "you play greedy" in out
    assert re.search(r"Score: You \d+, simple \d+, greedy \d+ \(target 60\)", out)
    assert re.search(r"(You win|simple wins|greedy wins): .* by \d+ over the next best\.", out)


def test_four_players_your_partner_plays_the_other_table_and_the_team_scores():
    rc, out = run_play("--players", "4", "--opponents", "simple,greedy,easy", "--seed", "2", "--rule", "team_target=60")
    assert rc == 0
    assert "you and your partner greedy against simple and easy" in out
    assert "at the other table your partner greedy plays " in out
    assert out.count("The other table's hand is over:") >= 1
    assert re.search(r"(won both hands and score both results added|One hand each|dead|equal)", out)
    assert re.search(r"Score: You & greedy \d+, simple & easy \d+ \(first team to 60\)", out)
    assert re.search(r"(You & greedy|simple & easy) win \d+ to \d+, by -?\d+\.", out)


@pytest.mark.parametrize("players", [3, 4])
def test_watching_three_or_four_computer_players(players, capsys):
    names = ["simple", "greedy", "easy", "random"][:players]
    assert main(["play", "--watch", *names, "--seed", "3", "--rule", "target=40", "--rule", "team_target=40"]) == 0
    out = capsys.readouterr().out
    assert "hand 1: " in out and ("Table 2: " in out) == (players == 4)
    assert re.search(r" wins?\b.* by \d+", out)


def test_watching_with_a_delay_prints_every_move_of_both_tables(capsys):
    assert main(["play", "--watch", "simple", "greedy", "easy", "simple", "--seed", "1", "--delay", "0",
                 "--rule", "team_target=20"]) == 0
    out = capsys.readouterr().out
    assert "Table 1: simple 1: " in out and "Table 2: easy: " in out
    assert "Table 2: greedy discards " in out or "Table 2: easy discards " in out


@pytest.mark.parametrize("players", [3, 4])
def test_a_record_of_a_three_or_four_player_game_replays_exactly(players, tmp_path, capsys):
    path = tmp_path / "g.json"
    opponents = "simple,greedy,easy".split(",")[: players - 1]
    rc, out = run_play("--players", str(players), "--opponents", ",".join(opponents), "--seed", "6",
                       "--rule", "target=40", "--rule", "team_target=40", "--record", str(path))
    assert rc == 0
    record = load(path)
    assert record["players"] == ["You", *opponents] and record["result"]["over"] is True
    assert all("seats" in h for h in record["hands"])
    replayed = game_from_record(record)
    assert dumps(match_to_record(replayed)) == path.read_text(encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    capsys.readouterr()
    assert main(["replay", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["players"] == ["You", *opponents]


def test_undo_is_refused_with_the_reason_and_quit_leaves_with_the_record(tmp_path):
    path = tmp_path / "left.json"
    rc, out = run_play("--players", "4", "--seed", "1", "--record", str(path), script=["undo", "quit"])
    assert rc == 1
    assert "nothing to undo: you have not moved yet in this hand" in out
    assert "Game left (not saved)." in out
    assert load(path)["result"]["over"] is False
    rc, out = run_play("--players", "3", "--seed", "1", "--no-undo", script=[None] * 3 + ["undo", "quit"])
    assert "undo is off in this game (it was started with --no-undo)" in out and "Undone" not in out


@pytest.mark.parametrize(("players", "undone"), [
    (3, "Undone: your move discard Kh and simple 2's 2 moves after it."),
    (4, "Undone: your move discard Jc and simple 1's 2 moves after it."),
])
def test_undo_at_the_prompt_takes_back_your_move_and_the_game_plays_on_to_its_end(players, undone, tmp_path, capsys):
    """Your discard and your opponent's two replies go back (with four players, the other table
    goes back to that moment too); the game plays on to its end, kept in the store."""
    db = str(tmp_path / "games.sqlite3")
    path = tmp_path / "g.json"
    argv = ["--players", str(players), "--seed", "1", "--rule", "target=40", "--rule", "team_target=40"]
    rc, out = run_play(*argv, "--db", db, "--record", str(path), script=[None] * 3 + ["undo"])
    assert rc == 0, out
    assert undone in out
    assert (OTHER_TABLE_BACK in out) == (players == 4)
    before, after = out.split(undone)
    shown = [chunk.splitlines()[0] for chunk in [*before.split("Your hand:")[-2:], after.split("Your hand:")[1]]]
    assert shown[0] == shown[2] != shown[1]  # your hand before that discard, again
    statuses = sorted(g.status for g in Store(db).list_games())
    assert statuses == ["finished", "replaced"]
    record = load(path)
    assert record["result"]["over"] is True
    assert dumps(match_to_record(game_from_record(record))) == path.read_text(encoding="utf-8")


def _other_hand_changed(monkeypatch, index: int) -> None:
    """Hand ``index`` of the game (counted over every table) is dealt from another shuffle."""
    real = ginrummy.game.hand_rng

    def rng(seed: int, i: int) -> random.Random:
        return random.Random(f"another deck {seed}") if i == index else real(seed, i)

    monkeypatch.setattr(ginrummy.game, "hand_rng", rng)


@pytest.mark.parametrize(("players", "seed"), [(3, 4), (3, 9), (4, 2), (4, 5)])
def test_nothing_printed_before_a_hand_you_do_not_play_is_over_depends_on_its_cards(players, seed, monkeypatch, tmp_path):
    """A whole fixed-seed game, then once more for each hand the person does not play (three
    players: each hand they sit out; four: the other table of each hand) with that hand dealt
    from another deck: everything printed up to that hand's end is the same, byte for byte, so
    nothing of its cards reached the person before its end. After its end the runs differ (the
    deck did change). And while the person sits out, not a card is printed at all."""
    argv = ["--players", str(players), "--seed", str(seed)]
    path = tmp_path / "first.json"
    rc, first = run_play(*argv, "--record", str(path))
    assert rc == 0
    lines = first.splitlines()
    marker = "The hand you sat out is over:" if players == 3 else "The other table's hand is over:"
    ends = [i for i, line in enumerate(lines) if marker in line]
    unseen = [i for i, h in enumerate(load(path)["hands"]) if 0 not in h["seats"]]
    assert len(unseen) == len(ends) >= 2
    for index, end in zip(unseen, ends, strict=True):
        with monkeypatch.context() as m:
            _other_hand_changed(m, index)
            rc, second = run_play(*argv)
        assert second.splitlines()[:end] == lines[:end], f"hand {index + 1}"
        assert second != first
    if players == 3:
        for block in first.split("You sit out this hand")[1:]:
            assert not CARD.findall(block.split(marker)[0]), block


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--players", "4", "--opponents", "simple,simple"], "--players 4 needs 3 opponents, got 2"),
        (["--players", "3", "--opponents", "simple"], "--players 3 needs 2 opponents, got 1"),
        (["--opponents", "simple,exprt"], "unknown player 'exprt' (did you mean 'expert'?)"),
        (["--opponent", "simpel"], "unknown player 'simpel' (did you mean 'simple'?)"),
        (["--opponents", "simple,,easy"], "give one to three players, comma-separated"),
        (["--watch", "simple", "greedy", "easy", "--players", "4"], "--players 4 --watch needs 4 players, got 3"),
        (["--watch", "simple"], "--watch takes two, three or four computer players, not 1"),
        (["--watch", "simple", "simple", "simple", "--opponents", "easy,easy"], "--watch names every player"),
        (["--opponent", "easy", "--opponents", "easy,easy"], "with --opponent or with --opponents, not both"),
        (["--players", "5"], "argument --players: invalid choice: 5"),
    ],
)
def test_a_bad_seat_option_is_a_usage_error_before_anything_starts(argv, words, capsys):
    assert main(["play", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: ginrummy play") and words in err, err


def test_sheet_at_the_prompt_prints_the_score_sheet_with_a_column_per_team():
    rc, out = run_play("--players", "4", "--seed", "3", script=["sheet", "quit"])
    assert rc == 1
    head = next(line for line in out.splitlines() if line.startswith("Hand  What happened"))
    assert head.split("What happened")[1].split() == ["You", "&", "simple", "2", "simple", "1", "&", "simple", "3"]
    assert "no hands yet" in out and "toward 125" in out


def test_a_whole_game_ends_with_the_sheet_and_the_bonuses():
    rc, out = run_play("--players", "3", "--seed", "8", "--rule", "target=40")
    assert rc == 0
    tail = out.split("Hand  What happened")[-1]
    assert re.search(r"^   1  .+ v .+: ", tail, re.M) and "toward 40" in tail
    assert "game bonus for reaching 40 first +100." in tail


@pytest.mark.parametrize("players", [3, 4])
def test_a_game_of_three_or_four_is_kept_resumed_to_its_end_and_in_the_history(players, tmp_path, capsys):
    """Left after a few moves (kept), continued with --resume to the end: the store replays every
    table's moves (the other table's included), the record replays exactly, the history lists it."""
    db = str(tmp_path / "games.sqlite3")
    rc, out = run_play("--players", str(players), "--seed", "7", "--db", db, script=["pass", "stock", "quit", "y"])
    assert rc == 1 and "Game saved: ginrummy play --resume --db " in out
    path = tmp_path / "g.json"
    rc, out = run_play("--resume", "--db", db, "--record", str(path))
    assert rc == 0, out
    assert "Resuming the game of You, simple" in out and "(resumed) ══" in out
    assert "The game is in the history" in out
    record = load(path)
    assert len(record["players"]) == players and record["result"]["over"] is True
    assert dumps(match_to_record(game_from_record(record))) == path.read_text(encoding="utf-8")
    capsys.readouterr()
    assert main(["history", "--db", db]) == 0
    listed = capsys.readouterr().out.splitlines()[0]
    assert ("You & simple 2 " if players == 4 else "You ") in listed and " won by " in listed
    assert main(["history", "--db", db, "--json"]) == 0
    (game,) = json.loads(capsys.readouterr().out)["games"]
    assert game["record"]["hands"] == record["hands"]
    assert main(["play", "--resume", "--db", db]) == 2  # nothing left to resume
