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
WRITES = {"--record", "--db"}
#: Quick commands run here for real (the others start servers, apps, games or long matches).
QUICK = {"deadwood", "score", "replay", "rules", "history"}


@pytest.mark.parametrize("argv", commands(), ids=lambda a: " ".join(a)[:60])
def test_a_readme_command_parses_and_names_files_that_exist(argv, tmp_path, monkeypatch):
    build_parser().parse_args(argv)  # a usage error would raise SystemExit
    for before, word in zip(["", *argv], argv, strict=False):
        if before not in WRITES and ("/" in word or word.endswith(".json")):
            assert (ROOT / word).is_file(), f"{' '.join(argv)}: {word} does not exist"
    if argv[0] in QUICK:
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
