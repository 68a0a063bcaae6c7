"""bench/envs.py runs end to end and prints every row with its ratios (no speed is asserted)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_environment_benchmark_runs_every_row() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    text = subprocess.run([sys.executable, str(ROOT / "bench" / "envs.py"), "--seconds", "0.05", "--batch", "8"],
                          capture_output=True, text=True, env=env, timeout=300, check=True).stdout
    for row in ("ours: engine only", "ours: PettingZoo AEC", "ours: batch of 8", "OpenSpiel gin_rummy",
                "OpenSpiel, cloned state", "RLCard gin-rummy", "goal: the batch 10x"):
        assert row in text
    figures = json.loads(subprocess.run(
        [sys.executable, str(ROOT / "bench" / "envs.py"), "--seconds", "0.05", "--batch", "8", "--json"],
        capture_output=True, text=True, env=env, timeout=300, check=True).stdout)
    assert len(figures) == 6 and all(v > 0 for v in figures.values())
