"""The terminal game: watching two computer players, and a scripted person playing a whole game."""

from __future__ import annotations

import io

from ginrummy.cards import CardSet
from ginrummy.cli import main
from ginrummy.commands.play import TerminalPlayer, show_hand
from ginrummy.match import Match
from ginrummy.players import get_player
from ginrummy.players.driver import play_game
from ginrummy.rules import Rules


def test_watch_prints_every_hand_and_the_final_result(capsys):
    assert main(["play", "--watch", "simple", "greedy", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "hand 1:" in out
    assert " wins " in out and ", by " in out


def test_show_hand_arranges_melds_and_counts_deadwood():
    text = show_hand(CardSet.parse("As 2s 3s 7h 7d 7c 9h Th Jh Kd").mask)
    assert text.endswith("deadwood 10")
    assert "[A♠ 2♠ 3♠]" in text and "K♦" in text


def test_a_scripted_person_plays_a_whole_game_and_bad_input_is_refused():
    asked = []

    def person(prompt: str) -> str:
        asked.append(prompt)
        if "[Enter =" in prompt:
            return ""  # layout phases: take the best layout
        if len(asked) % 7 == 0:
            return "knock 2x"  # not a card: refused, asked again
        first = prompt.strip().split(" (or hint)")[0].split(", ")[-1]
        return first

    out = io.StringIO()
    match = Match(Rules.preset("classic", target=30), seed=11)
    play_game(match, [TerminalPlayer(names=("You", "simple"), inp=person, out=out), get_player("simple", seed=1)])
    assert match.is_over
    assert "not a card" in out.getvalue() or "not an action" in out.getvalue()
