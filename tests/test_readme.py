"""The README's command lines run: every option parses, every file they read exists, the quick
ones succeed, and the example record is exactly what the command it names writes."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from ginrummy.cli import build_parser, main

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def commands() -> list[list[str]]:
    block = README.split("## Command line", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    out = []
    for line in block.splitlines():
        words = shlex.split(line, comments=True)
        if words:
            assert words[0] == "ginrummy", line
            out.append(words[1:])
    return out


#: Files the commands write (after these options), not read.
WRITES = {"--record", "--db", "--save"}
#: Quick commands run here for real (the others start servers, apps, games or long matches).
QUICK = {"deadwood", "score", "replay", "rules", "history"}


@pytest.mark.parametrize("argv", commands(), ids=lambda a: " ".join(a)[:60])
def test_a_readme_command_parses_and_names_files_that_exist(argv, tmp_path, monkeypatch):
    build_parser().parse_args(argv)  # a usage error would raise SystemExit
    for before, word in zip(["", *argv], argv, strict=False):
        if before not in WRITES and ("/" in word or word.endswith(".json")):
            assert (ROOT / word).is_file(), f"{' '.join(argv)}: {word} does not exist"
    if argv[0] in QUICK and not WRITES & set(argv):  # a command that writes a file is run by its own tests
        monkeypatch.chdir(ROOT)
        assert main(argv) == 0


def test_the_example_record_is_what_play_record_writes(tmp_path, capsys):
    (argv,) = [a for a in commands() if a[0] == "play" and "--record" in a]
    i = argv.index("--record")
    target = argv[i + 1]
    assert (ROOT / target).is_file()
    argv = [*argv[: i + 1], str(tmp_path / "r.json"), *argv[i + 2 :]]
    assert main(argv) == 0
    assert (tmp_path / "r.json").read_text(encoding="utf-8") == (ROOT / target).read_text(encoding="utf-8"), (
        f"{target} is not what `ginrummy {' '.join(argv)}` writes: run it again to remake the file"
    )


def test_the_readme_shows_the_terminal_apps_options():
    shown = {a[0]: set() for a in commands()}
    for argv in commands():
        shown[argv[0]].update(w for w in argv[1:] if w.startswith("--"))
    assert {"--four-colour", "--ascii", "--light", "--resume", "--db", "--no-undo"} <= shown["tui"]
    assert {"--ascii", "--plain", "--resume", "--no-undo", "--players", "--opponents"} <= shown["play"] and "history" in shown
    assert {"--players", "--opponents"} <= shown["tui"]


def test_the_readme_terminal_games_start_and_are_kept_for_resume(tmp_path, monkeypatch, capsys):
    """Each ``tui`` and ``play`` line of the README run for real, in order, in an empty folder:
    the app is left at once (q, then y: keep it), the prompt at the end of input; each game is
    kept, so the ``--resume`` lines find one to continue."""
    import asyncio
    import io

    from ginrummy.tui import GinRummyApp

    def leave(app: GinRummyApp) -> None:
        async def go() -> None:
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause()
                await pilot.press("q", "y")
                await pilot.pause()

        asyncio.run(go())

    monkeypatch.setattr(GinRummyApp, "run", leave)
    monkeypatch.chdir(tmp_path)
    lines = [a for a in commands() if a[0] in ("tui", "play") and "--watch" not in a]
    assert any("--resume" in a for a in lines)
    for argv in lines:
        monkeypatch.setattr("sys.stdin", io.StringIO(""))
        assert main(argv) == 1, argv  # left unfinished
        out = capsys.readouterr().out
        assert "continues it." in out, (argv, out)
