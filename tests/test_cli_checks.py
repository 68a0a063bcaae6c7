"""The command line checks its options at start: a bad value is a usage error (exit 2) naming the
option and what it accepts, never a traceback or a failure in the middle of a game."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ginrummy import __version__
from ginrummy.cli import main

SRC = Path(__file__).resolve().parents[1] / "src"


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["play", "--watch", "expert", "nobody"], "argument --watch: unknown player 'nobody': choose one of random"),
        (["play", "--opponent", "nobody"], "argument --opponent: unknown player 'nobody'"),
        (["play", "--record", "/nonexistent/dir/r.json"], "the folder /nonexistent/dir does not exist"),
        (["play", "--rule", "foo=1"], "unknown rule 'foo': the rules are gin_bonus, undercut_bonus"),
        (["play", "--rules", "bridge"], "unknown rule preset 'bridge': choose one of classic, online, app, eaai"),
        (["play", "--rule", "oklahoma_spade_double=yes"], "needs oklahoma = true"),
        (["play", "--delay", "1"], "--delay paces --watch"),
        (["play", "--watch", "simple", "simple", "--delay", "-1"], "a pause is a number of seconds from 0 to 60"),
        (["play", "--name", ""], "a name is 1 to 40 characters"),
        (["engine", "--player", "nomod:X"], "cannot load player 'nomod:X': No module named 'nomod'"),
        (["engine", "--player", "ginrummy.cards:Nope"], "has no player class 'Nope'"),
        (["engine", "--player", "nobody"], "unknown player 'nobody'"),
        (["serve", "--port", "99999"], "a port is a whole number from 1 to 65535, not 99999"),
        (["serve", "--port", "0"], "not 0"),
        (["arena", "--p1", "nobody", "--p2", "simple"], "argument --p1: invalid choice: 'nobody'"),
        (["arena", "--p1", "simple", "--p2", "simple", "--games", "0"], "--games must be at least 1"),
        (["rules", "--rule", "knock_limt=7"], "did you mean 'knock_limit'?"),
    ],
)
def test_a_bad_option_is_a_usage_error_before_anything_starts(argv, words, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: ginrummy " + argv[0])
    assert words in err
    assert "Traceback" not in err


def test_a_rule_preset_is_read_in_any_case(capsys):
    assert main(["rules", "--rules", "CLASSIC"]) == 0
    assert main(["play", "--watch", "simple", "simple", "--rules", "Eaai", "--rule", "target=10", "--seed", "1"]) == 0
    assert "Rules: Computer challenge rules (EAAI)" in capsys.readouterr().out


def test_python_dash_m_ginrummy_and_version():
    env = {"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-m", "ginrummy", "--version"], capture_output=True, text=True, env=env, timeout=60)
    assert out.returncode == 0 and out.stdout.strip() == f"ginrummy {__version__}"
    out = subprocess.run([sys.executable, "-m", "ginrummy", "deadwood", "As", "2s", "3s"], capture_output=True, text=True,
                         env=env, timeout=60)
    assert out.returncode == 0 and "meld:     As 2s 3s" in out.stdout


def test_records_from_play_keep_the_player_names(tmp_path, capsys):
    path = tmp_path / "r.json"
    assert main(["play", "--watch", "simple", "greedy", "--seed", "2", "--rule", "target=10", "--record", str(path)]) == 0
    record = json.loads(path.read_text())
    assert record["players"] == ["simple", "greedy"]
    assert record["result"]["over"] is True
    assert main(["replay", str(path)]) == 0


def test_play_says_who_deals_each_hand(capsys):
    assert main(["play", "--watch", "simple", "greedy", "--seed", "2", "--rule", "target=30"]) == 0
    out = capsys.readouterr().out
    hands = [line for line in out.splitlines() if line.startswith("hand ")]
    deals = [line for line in out.splitlines() if "Hand " in line and line.rstrip(" ═").endswith("deals")]
    assert len(deals) == len(hands) >= 2
    assert deals[0].startswith("══ Hand 1: ")


def test_watch_with_a_delay_shows_every_move_and_pauses_after_each(monkeypatch, capsys):
    pauses: list[float] = []
    monkeypatch.setattr("time.sleep", pauses.append)
    assert main(["play", "--watch", "simple", "greedy", "--seed", "2", "--rule", "target=10", "--delay", "0.25"]) == 0
    out = capsys.readouterr().out
    moves = [line for line in out.splitlines() if line.startswith("  ") and (" discards " in line or " passes" in line)]
    assert moves and len(pauses) >= len(moves)
    assert set(pauses) == {0.25}
