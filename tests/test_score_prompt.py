"""``ginrummy score`` with no file: keeping score at the terminal, question by question."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from ginrummy.cli import main
from ginrummy.commands.score import Session
from ginrummy.rules import Rules
from ginrummy.scorekeeper_multi import AnyKeeper, keep_score

EXAMPLES = Path(__file__).parent.parent / "examples"

#: 000's five hands as a person answers them: who knocked, how, the counts.
FIVE = ["You", "", "3", "25",
        "Sam", "gin", "14",
        "You", "knock", "8", "6",
        "you", "gin", "31",
        "YOU", "", "5", "35"]


class Script:
    """Answers questions from a list; records every question and everything said."""

    def __init__(self, answers: list[str]) -> None:
        self.answers = list(answers)
        self.log: list[str] = []

    def ask(self, prompt: str) -> str:
        self.log.append("? " + prompt)
        if not self.answers:
            raise EOFError
        return self.answers.pop(0)

    def say(self, text: str) -> None:
        self.log.append(text)


def session(answers: list[str], rules: Rules | None = None, players: int = 2) -> tuple[AnyKeeper | None, Script]:
    s = Script(answers)
    k = Session(rules or Rules(), players, ask=s.ask, say=s.say).run()
    return k, s


def test_a_whole_game_at_the_prompt_scores_as_the_file_does() -> None:
    k, s = session(["You, Sam", *FIVE])
    assert k is not None and k.is_over
    from_file = keep_score(Rules(), json.loads((EXAMPLES / "five_hands.json").read_text(encoding="utf-8")))
    assert k.report()["final"] == from_file.report()["final"]
    assert k.report()["final"]["totals"] == {"You": 263, "Sam": 86}
    assert "Sam undercut you: You knocked with 8, Sam had 6 after layoffs; 8 - 6 = 2 plus the undercut bonus 10 " \
           "= 12. Scores: You 22, Sam 46." in s.log


def _asked_again(log: list[str], reason: str) -> bool:
    """The line after ``reason`` asks the same question as the line before it."""
    i = next(i for i, line in enumerate(log) if reason in line)
    return log[i - 1].startswith("? ") and log[i + 1] == log[i - 1]


@pytest.mark.parametrize(
    ("answers", "reason"),
    [
        (["Ann, ann", "You, Sam"], "the 2 players need different names, not Ann and ann"),
        (["You, Sam", "xyz"], "player 'xyz' is not a player here (the players are You and Sam)."),
        (["You, Sam", "You", "maybe"], "Answer 'knock' or 'gin', not 'maybe'."),
        (["You, Sam", "You", "", "lots"], "Your deadwood is a whole number of points, such as 12; not 'lots'."),
        (["You, Sam", "You", "", "3", "99"], "Sam's deadwood 99 is more than ten cards can hold: at most 98"),
        (["You, Sam", "You", "", "3", "-4"], "Sam's deadwood is a whole number of points"),
    ],
)
def test_every_prompt_answers_garbage_with_the_reason_and_asks_again(answers: list[str], reason: str) -> None:
    k, s = session(answers)
    assert any(reason in line for line in s.log), s.log
    if answers[0] != "Ann, ann":
        assert _asked_again(s.log, reason)
    assert k is not None and k.hands == 0  # nothing written from garbage


def test_oklahoma_asks_for_the_upcard_and_refuses_a_bad_one() -> None:
    rules = Rules.preset("classic", oklahoma=True, oklahoma_spade_double=True)
    k, s = session(["A, B", "A", "", "zz", "7s", "6", "20"], rules)
    assert k is not None and k.report()["hands"][0]["points"] == 28  # limit 7, doubled for the spade
    assert _asked_again(s.log, "zz")
    assert "? Oklahoma: the first upcard of this hand (e.g. 7s; its value is the knock limit): " in s.log


def test_a_refused_hand_gives_the_reason_and_asks_for_the_hand_again() -> None:
    k, s = session(["You, Sam", "You", "", "12", "30", "Sam", "gin", "14"])
    i = s.log.index("Refused: hand 1: cannot knock: deadwood 12 is over the knock limit 10 (rule: knock_limit). "
                    "Enter hand 1 again.")
    assert s.log[i + 1] == "Hand 1:"
    assert k is not None and k.hands == 1 and k.report()["hands"][0]["winner"] == "Sam"


def test_undo_takes_the_last_hand_back() -> None:
    k, s = session(["You, Sam", "You", "", "3", "25", "undo", "Sam", "gin", "14"])
    assert "Hand 1 taken back. Scores: You 0, Sam 0." in s.log
    assert k is not None and k.report()["scores"] == {"You": 0, "Sam": 34}


@pytest.mark.parametrize("stop", ["quit", "q", None])  # None: the input ends (Ctrl-D)
def test_quit_or_the_end_of_input_stops_and_keeps_the_hands(stop: str | None) -> None:
    k, _ = session(["You, Sam", "You", "", "3", "25", *([stop] if stop else [])])
    assert k is not None and k.hands == 1 and not k.is_over


def test_three_players_at_the_prompt_follow_the_rotation() -> None:
    k, s = session(["Ann, Bob, Cy", "Cy", "Ann", "", "4", "30", "bob", "Cy", "gin", "18"], players=3)
    assert "Hand 1: Cy deals and sits out; Ann and Bob play." in s.log
    assert "Hand 2: Bob deals and sits out; Cy and Ann play." in s.log
    assert "bob does not play this hand (Cy and Ann do)." in s.log
    assert k is not None and k.report()["scores"] == {"Ann": 26, "Bob": 0, "Cy": 38}


def test_four_players_at_the_prompt_enter_both_tables() -> None:
    k, s = session(["A, B, C, D", "", "A", "", "3", "25", "D", "gin", "14", "dead", "C", "", "5", "30"], players=4)
    assert "Hand 1: table 1 A against B (A deals); table 2 C against D (C deals)." in s.log
    assert "Hand 2: table 1 A against D (D deals); table 2 C against B (B deals)." in s.log
    assert k is not None and k.report()["scores"] == {"AC": 25, "BD": 12}


def test_the_command_saves_each_hand_in_the_files_form(monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    saved = tmp_path / "game.json"
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(["You, Sam", *FIVE[:8]]) + "\n"))
    assert main(["score", "--save", str(saved)]) == 0
    out = capsys.readouterr().out
    assert "Not over yet: You 22, Sam 34 (target 100)." in out
    assert json.loads(saved.read_text(encoding="utf-8"))["players"] == ["You", "Sam"]
    assert main(["score", str(saved), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["scores"] == {"You": 22, "Sam": 34}


def test_an_unwritable_save_file_is_found_out_before_the_first_hand(capsys: pytest.CaptureFixture[str],
                                                                    tmp_path: Path) -> None:
    assert main(["score", "--save", str(tmp_path / "no" / "such" / "dir.json")]) == 2
    assert "cannot write" in capsys.readouterr().err
