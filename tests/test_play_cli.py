"""The terminal game: watching two computer players, and a scripted person playing a whole game."""

from __future__ import annotations

import io
import random
import re

import pytest

from ginrummy.actions import Action
from ginrummy.cards import CardSet
from ginrummy.cli import build_parser, main
from ginrummy.commands.display import Style
from ginrummy.commands.play import Session, play, show_hand
from ginrummy.commands.prompt import Console, Leave
from ginrummy.events import LAYOUT_PHASES
from ginrummy.layout import layout_action
from ginrummy.match import Match
from ginrummy.players import get_player
from ginrummy.rules import Rules
from ginrummy.table import Seat, Table

#: Parseable actions; at any prompt at least one of them is not legal.
CANDIDATES = ["stock", "pile", "pass", "done", "big gin", "knock As", "As", "meld As2s3s", "layoff As 0"]


def args_of(*argv: str):
    return build_parser().parse_args(["play", *argv])


def test_watch_prints_every_hand_and_the_final_result(capsys):
    assert main(["play", "--watch", "simple", "greedy", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "hand 1:" in out
    assert " wins " in out and ", by " in out


def test_show_hand_arranges_melds_and_counts_deadwood():
    text = show_hand(CardSet.parse("As 2s 3s 7h 7d 7c 9h Th Jh Kd").mask)
    assert text.endswith("deadwood 10")
    assert "[A♠ 2♠ 3♠]" in text and "K♦" in text


class GarbageFirst:
    """Answers every new prompt with garbage first, checking that each draws a reason and plays
    nothing, then with a legal action (a seeded random one; the best layout step after a knock)."""

    def __init__(self, table: Table, out: io.StringIO, seed: int = 0) -> None:
        self.table, self.out, self.rng = table, out, random.Random(seed)
        self.queue: list[str] = []
        self.last_out = 0
        self.state: tuple[int, int] | None = None
        self.garbage_answered = 0
        self.prompts = 0
        self.layout_prompts = 0

    def moves(self) -> tuple[int, int]:
        return len(self.table.match.hands), len(self.table.hand.history) if self.table.hand else 0

    def __call__(self, prompt: str) -> str:
        printed = self.out.getvalue()[self.last_out :]
        if self.state is not None:
            # the answer before this one was garbage: nothing moved and a reason was printed
            assert self.moves() == self.state, f"garbage {self.sent!r} played a move"
            assert printed.strip(), f"no reason given for {self.sent!r}"
            self.garbage_answered += 1
        self.state = None
        if not self.queue:
            view = self.table.view(0)
            self.prompts += 1
            illegal = next(t for t in CANDIDATES if Action.parse(t) not in view.legal)
            self.queue = ["xyz", "knock 2x", "hint", "help", illegal, "meld Kd", "undo"]
            if view.phase in LAYOUT_PHASES:
                self.layout_prompts += 1
                self.queue.append(str(layout_action(view)))
            else:
                self.queue += ["", str(self.rng.choice(view.legal))]
        self.sent = self.queue.pop(0)
        if self.queue:
            self.state = self.moves()
        self.last_out = len(self.out.getvalue()) + len(prompt)
        self.out.write(prompt)
        return self.sent


#: A card (or a meld's cards) in the typed notation, outside a word.
ASCII_CARD = re.compile(r"(?<![A-Za-z0-9])(?:[A2-9TJQK][shdc])+(?![A-Za-z0-9])")


@pytest.mark.parametrize("style", ["symbols", "ascii", "plain"])
def test_every_prompt_answers_garbage_with_a_reason_and_plays_no_move(style):
    out = io.StringIO()
    match = Match(Rules.preset("classic", target=40), seed=11, players=("You", "simple"))
    table = Table(match, [Seat("You"), Seat("simple", get_player("simple", seed=1))])
    script = GarbageFirst(table, out)
    Session(table, Console(inp=script, out=out, style=Style(style)), person=0).play()
    assert match.is_over
    assert script.layout_prompts > 0  # the layout prompts were fed garbage too
    assert script.garbage_answered >= 6 * script.prompts
    text = out.getvalue()
    assert "not an action: 'xyz'" in text and "not a card: '2x'" in text
    assert "Best:" in text  # hint answered at the prompts
    assert "cannot lay" in text or "is not allowed now" in text  # an illegal meld or action explained
    # cards are written one way everywhere: the hand, the prompts, the news, every message
    shown = re.sub(r"`[^`]*`", "", text)  # what to type, quoted in the help
    if style == "symbols":
        assert "♠" in text and not ASCII_CARD.search(shown), ASCII_CARD.search(shown)
    else:
        assert not set("♠♥♦♣") & set(text) and ASCII_CARD.search(text)
    if style == "plain":
        assert text.isascii() and "\x1b" not in text
        assert not any(" | " in line or line.startswith("  ") for line in text.splitlines())


def test_colour_only_on_a_terminal_and_never_in_plain(monkeypatch):
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    assert "\x1b[1;31m" in Style.for_output("symbols", Tty()).card(CardSet.parse("Kh").mask.bit_length() - 1)
    assert "\x1b[1;34m" in Style.for_output("ascii", Tty()).cards(CardSet.parse("Kd").mask)
    assert "\x1b" not in Style.for_output("plain", Tty()).cards(CardSet.parse("Kd Kh").mask)
    assert "\x1b" not in Style.for_output("symbols", io.StringIO()).cards(CardSet.parse("Kd Kh").mask)
    monkeypatch.setenv("NO_COLOR", "1")
    assert "\x1b" not in Style.for_output("symbols", Tty()).cards(CardSet.parse("Kd Kh").mask)


def test_plain_and_ascii_options_reach_the_game(capsys, monkeypatch):
    answers = iter(["pass", "q"])
    monkeypatch.setattr("builtins.input", lambda prompt: next(answers))
    assert main(["play", "--seed", "3", "--plain", "--no-save"]) == 1
    out = capsys.readouterr().out
    assert "Your hand: 10 cards." in out and out.isascii()
    answers = iter(["pass", "q"])
    assert main(["play", "--seed", "3", "--ascii", "--no-save"]) == 1
    out = capsys.readouterr().out
    assert "[5s 6s 7s]" in out and "══ Hand 1" in out


def test_quit_leaves_the_game_unfinished():
    out = io.StringIO()
    answers = iter(["hint", "q"])
    assert play(args_of("--seed", "3", "--no-save"), Console(inp=lambda p: next(answers), out=out)) == 1
    assert "Game left (not saved)." in out.getvalue()


def test_end_of_input_leaves_like_quit(tmp_path):
    out = io.StringIO()

    def eof(prompt: str) -> str:
        raise EOFError

    assert play(args_of("--seed", "3", "--db", str(tmp_path / "g.sqlite3")), Console(inp=eof, out=out)) == 1
    assert "Game saved: ginrummy play --resume --db" in out.getvalue()


def test_an_illegal_move_is_explained_with_the_engines_reason():
    out = io.StringIO()
    match = Match(Rules(), first_dealer=1, seed=1, players=("You", "simple"))
    table = Table(match, [Seat("You"), Seat("simple", get_player("simple", seed=1))])
    table.start_hand(list(range(52)))  # the upcard, deck[20], is 8h; the person is offered it first
    answers = iter(["stock", "pile", "8h", "knock 8h", "q"])
    with pytest.raises(Leave):
        Session(table, Console(inp=lambda p: next(answers), out=out, style=Style("ascii")), person=0).play()
    text = out.getvalue()
    assert "stock is not allowed now: on the first turn you take the upcard (pile) or pass" in text
    assert "cannot discard 8h: it was just taken from the discard pile" in text
    assert "cannot knock with 8h: it was just taken from the discard pile" in text
    assert "is not allowed now; choose one of" not in text


def test_play_keeps_its_game_in_the_store_given_a_sqlite_file_or_a_postgresql_url(store_target, capsys, monkeypatch):
    """``--db`` takes a PostgreSQL URL as ``ginrummy serve`` does: the game is saved there and resumed."""
    answers = iter(["pass", "q", "y"])  # the upcard passed, then quit, keeping the game
    monkeypatch.setattr("builtins.input", lambda prompt: next(answers))
    assert main(["play", "--seed", "3", "--plain", "--db", store_target]) == 1
    assert "Game saved: ginrummy play --resume --db" in capsys.readouterr().out
    answers = iter(["q", "y"])
    assert main(["play", "--resume", "--plain", "--db", store_target]) == 1
    assert "Resuming the game" in capsys.readouterr().out


def test_a_database_out_of_reach_is_said_plainly_without_its_password(capsys):
    import socket

    with socket.socket() as s:  # a free port: nothing listens there
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"postgresql://someone:s3cret@127.0.0.1:{port}/games"
    for command in (["play", "--plain"], ["tui"], ["serve"]):
        assert main([*command, "--db", url]) == 2
        err = capsys.readouterr().err
        assert "cannot reach the database server" in err and "Connection refused" in err, err
        assert "s3cret" not in err
