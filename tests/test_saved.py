"""Terminal games are saved as they are played, resume after the terminal is closed (or the
process killed), take back a move by replay without rewriting the log, and reach the history."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from ginrummy.cli import build_parser, main
from ginrummy.commands.display import Style
from ginrummy.commands.play import play
from ginrummy.commands.prompt import Console
from ginrummy.match import Match
from ginrummy.players import get_player
from ginrummy.record import match_from_record, match_to_record
from ginrummy.rules import Rules
from ginrummy.saved import NothingToResume, SavedTable, resume_game, save_game
from ginrummy.storage import Store
from ginrummy.table import Seat, Table

SRC = Path(__file__).resolve().parents[1] / "src"


def args_of(*argv: str):
    return build_parser().parse_args(["play", *argv])


def choices(prompt: str) -> list[str]:
    """The legal actions a (non-plain) prompt lists."""
    return prompt.strip().split(" (or hint")[0].split(", ")


def status(text: str) -> tuple[str, str]:
    """The last table line and hand line printed (what the person last saw)."""
    lines = text.splitlines()
    table = [line for line in lines if line.startswith("Score: ")][-1]
    hand = [line for line in lines if line.startswith("  Your hand: ")][-1]
    return table, hand


class Script:
    """A person answering from the prompt's list: ``pass`` to the upcard, ``stock`` to draw, the
    first card to discard, Enter in a layout; ``plan`` gives answers to use first; after
    ``stop_after`` moves the input ends (Ctrl-D)."""

    def __init__(self, plan: list[str] | None = None, stop_after: int | None = None, out: list[str] | None = None):
        self.plan = list(plan or [])
        self.stop_after = stop_after
        self.moves = 0
        self.prompts: list[str] = []
        self.out = out

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if self.out is not None:
            self.out.append(prompt)
        if self.plan:
            return self.plan.pop(0)
        if "[Y/n]" in prompt:
            return "y"
        if self.stop_after is not None and self.moves >= self.stop_after:
            raise EOFError
        self.moves += 1
        if "[Enter =" in prompt:
            return ""
        legal = choices(prompt)
        for word in ("pass", "stock"):
            if word in legal:
                return word
        discards = [c for c in legal if len(c) == 2]  # the highest card: melds are mostly kept
        return max(discards, key=lambda c: "A23456789TJQK".index(c[0])) if discards else legal[0]


class Out:
    """A console output that keeps what was written, prompts included (as a terminal shows them)."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def write(self, text: str) -> int:
        self.parts.append(text)
        return len(text)

    def flush(self) -> None:
        pass

    def text(self) -> str:
        return "".join(self.parts)


def run_play(argv: list[str], script: Script) -> tuple[int, str]:
    out = Out()
    script.out = out.parts
    rc = play(args_of(*argv), Console(inp=script, out=out, style=Style("ascii")))  # type: ignore[arg-type]
    return rc, out.text()


def test_every_action_is_committed_before_it_is_applied(tmp_path, monkeypatch):
    db = tmp_path / "g.sqlite3"
    applied = []
    original = Match.apply

    def checked(self: Match, action):  # type: ignore[no-untyped-def]
        before = sum(len(h.history) for h in self.hands)
        # a second connection sees only what is committed
        with sqlite3.connect(db) as c:
            stored = c.execute("SELECT count(*) FROM actions").fetchone()[0]
        assert stored == before + 1, f"{action} applied before it was stored"
        applied.append(action)
        return original(self, action)

    monkeypatch.setattr(Match, "apply", checked)
    rc, _ = run_play(["--seed", "4", "--db", str(db), "--rule", "target=15"], Script())
    assert rc == 0 and len(applied) > 30
    row = Store(db).list_games()[0]
    assert row.status == "finished" and row.names == ["You", "simple"]


def test_resume_after_end_of_input_continues_the_same_state(tmp_path):
    db = str(tmp_path / "g.sqlite3")
    rc, first = run_play(["--seed", "8", "--db", db], Script(stop_after=9))
    assert rc == 1 and "Game saved: ginrummy play --resume --db" in first
    stored = Store(db).list_games()
    assert [g.status for g in stored] == ["playing"]
    resumed = Script(stop_after=0)
    rc, second = run_play(["--resume", "--db", db], resumed)
    assert rc == 1 and "(resumed)" in second
    assert status(second) == status(first)
    assert choices(resumed.prompts[0]) == choices([p for p in first.splitlines() if p.endswith("> ")][-1])


def _reader(stream, sink: list[str]) -> None:
    for chunk in iter(lambda: stream.read1(4096), b""):
        sink.append(chunk.decode())


def test_resume_after_the_process_is_killed_continues_the_same_state(tmp_path):
    db = str(tmp_path / "g.sqlite3")
    env = {**os.environ, "PYTHONPATH": str(SRC), "NO_COLOR": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-u", "-m", "ginrummy", "play", "--seed", "12", "--db", db, "--ascii"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env,
    )
    out: list[str] = []
    threading.Thread(target=_reader, args=(proc.stdout, out), daemon=True).start()
    # Answers that need no knowledge of the table: whatever is not legal is refused and asked again.
    cards = [r + s for r in "A23456789TJQK" for s in "shdc"]
    assert proc.stdin is not None
    for _ in range(3):
        proc.stdin.write(("\n".join(["pass", "stock", *cards]) + "\n").encode())
    proc.stdin.flush()
    last, quiet_since, deadline = "", time.monotonic(), time.monotonic() + 120
    # until it waits at a prompt with every line read (quiet for a while, a prompt last)
    while not last.endswith("> ") or time.monotonic() - quiet_since < 1.5:
        assert time.monotonic() < deadline, "the game did not start"
        time.sleep(0.1)
        now = "".join(out)
        if now != last:
            last, quiet_since = now, time.monotonic()
    assert proc.poll() is None and last.endswith("> ")
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    assert last.count("You draw from the stock") >= 2  # a few turns were played
    rc, second = run_play(["--resume", "--db", db], Script(stop_after=0))
    assert rc == 1
    assert status(second) == status(last)


def test_undo_takes_back_the_last_move_by_replay_and_keeps_the_log(tmp_path):
    db = str(tmp_path / "g.sqlite3")
    script = Script(stop_after=3)  # pass, stock, a discard; the computer moves; Ctrl-D at the draw
    rc, first = run_play(["--seed", "8", "--db", db], script)
    store = Store(db)
    (old,) = store.list_games()
    old_actions = store.actions(old.id)
    last_move = old_actions[-1]
    assert last_move.seat == 1  # the computer moved after the person's last discard
    before_discard = [p for p in first.splitlines() if p.startswith("  Your hand: ")]
    rc, second = run_play(["--resume", "--db", db], Script(plan=["undo", "undo"], stop_after=0))
    assert "Undone: your move discard" in second and "moves after it" in second
    assert "a card drawn from the stock cannot go back" in second
    assert [line for line in second.splitlines() if line.startswith("  Your hand: ")][-1] in before_discard
    # the log is append-only: the old game's actions are untouched, the undone game is a new row
    assert [a.action for a in store.actions(old.id)] == [a.action for a in old_actions]
    games = {g.id: g for g in store.list_games()}
    assert games[old.id].status == "replaced"
    (new,) = [g for g in games.values() if g.id != old.id]
    assert new.status == "playing" and store.terminal(new.id) == ("play", True, old.id)
    kept = store.actions(new.id)
    assert [a.action for a in kept] == [a.action for a in old_actions[: len(kept)]]
    assert old_actions[len(kept)].seat == 0 and all(a.seat == 1 for a in old_actions[len(kept) + 1 :])


def test_no_undo_refuses_undo_and_a_resumed_game_keeps_it(tmp_path):
    db = str(tmp_path / "g.sqlite3")
    rc, first = run_play(["--seed", "8", "--db", db, "--no-undo"], Script(stop_after=6))
    rc, second = run_play(["--resume", "--db", db], Script(plan=["undo"], stop_after=0))
    assert "undo is off in this game" in second and "Undone" not in second


def test_quit_asks_to_keep_the_game_and_no_means_not_resumed(tmp_path, capsys):
    db = str(tmp_path / "g.sqlite3")
    rc, text = run_play(["--seed", "2", "--db", db], Script(plan=["q", "n"]))
    assert rc == 1 and "Keep this game to continue it later? [Y/n]" in text
    assert [g.status for g in Store(db).list_games()] == ["abandoned"]
    assert main(["play", "--resume", "--db", db]) == 2
    assert "no unfinished game to resume" in capsys.readouterr().err
    rc, text = run_play(["--seed", "2", "--db", db], Script(plan=["quit", ""]))
    assert "Game saved" in text and Store(db).last_unfinished() is not None


def test_history_lists_finished_games_with_their_records(tmp_path, capsys):
    db = str(tmp_path / "g.sqlite3")
    rc, _ = run_play(["--seed", "5", "--db", db, "--rule", "target=10", "--name", "Ann"], Script())
    assert rc == 0
    run_play(["--seed", "6", "--db", db], Script(stop_after=3))  # unfinished: not in the history
    capsys.readouterr()
    assert main(["history", "--db", db]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and " Ann " in lines[0] and " simple " in lines[0] and " won by " in lines[0]
    assert main(["history", "--db", db, "--json"]) == 0
    (game,) = json.loads(capsys.readouterr().out)["games"]
    assert game["names"] == ["Ann", "simple"] and game["record"]["players"] == ["Ann", "simple"]
    match = match_from_record(game["record"])
    assert match.is_over and list(match.final().totals) == game["totals"]
    assert main(["history", game["id"], "--db", db]) == 0
    assert json.loads(capsys.readouterr().out) == match_to_record(match)
    unfinished = Store(db).last_unfinished()
    assert unfinished is not None and main(["history", unfinished.id, "--db", db]) == 2
    assert "it is not finished" in capsys.readouterr().err


def test_the_tui_hook_saves_and_resumes_a_game_on_its_own_table(tmp_path):
    db = tmp_path / "g.sqlite3"
    match = Match(Rules(), seed=3, players=("You", "simple"))
    table = Table(match, [Seat("You"), Seat("simple", get_player("simple", seed=1))])
    save_game(table, db, client="tui")
    table.start_hand()
    table.play_computers()
    for _ in range(3):  # the person's moves, then the computer's
        view = table.view(0)
        table.act(0, view.legal[0])
        table.play_computers()
    played = [str(s.action) for s in match.hand.history]  # type: ignore[union-attr]
    game = resume_game(db)
    assert isinstance(game.table, SavedTable) and game.table.names == ("You", "simple")
    hand = game.table.start_hand()  # as the app's own first deal: continues the hand in progress
    assert [str(s.action) for s in hand.history] == played and game.match.hand is hand
    game.table.act(0, game.table.view(0).legal[0])  # saved as it is played
    assert len(Store(db).actions(game.row.id)) == len(played) + 1


def test_tui_resume_with_nothing_to_resume_is_a_clear_error(tmp_path, capsys):
    assert main(["tui", "--resume", "--db", str(tmp_path / "none.sqlite3")]) == 2
    assert "no unfinished game to resume" in capsys.readouterr().err
    with pytest.raises(NothingToResume):
        resume_game(tmp_path / "none.sqlite3")


def test_the_store_and_the_terminal_apps_need_no_web_extra():
    code = (
        "import sys; sys.modules['fastapi'] = None; sys.modules['uvicorn'] = None\n"
        "import ginrummy.storage, ginrummy.saved, ginrummy.commands.play, ginrummy.commands.history\n"
        "from ginrummy.cli import build_parser; build_parser()\n"
        "print('ok')"
    )
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr
    toml = (SRC.parent / "pyproject.toml").read_text()
    core = toml.split("dependencies = [", 1)[1].split("]", 1)[0]
    assert "fastapi" not in core and "uvicorn" not in core

