"""``bench/instructions.py``: the measured child run plays real hands, and a callgrind run of it
is read back as a count (the full comparison takes minutes under valgrind: run it by hand)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench"
sys.path.insert(0, str(BENCH))

import instructions  # noqa: E402


def test_the_child_run_plays_each_contender_of_ours() -> None:
    for name in ("greedy", "random"):
        out = subprocess.run([sys.executable, "instructions.py", "--child", name, "--hands", "3"], cwd=BENCH,
                             capture_output=True, text=True, timeout=120, check=False)
        assert out.returncode == 0, out.stderr


def test_every_contender_of_ours_is_compared_with_an_openspiel_one() -> None:
    assert set(instructions.COMPARE) == {k for k, (kind, _) in instructions.CONTENDERS.items() if kind == "ours"}
    assert all(instructions.CONTENDERS[v][0] == "openspiel" for v in instructions.COMPARE.values())
