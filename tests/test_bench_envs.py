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
    args = [sys.executable, str(ROOT / "bench" / "envs.py"), "--seconds", "0.1", "--rounds", "2", "--batch", "8",
            "--numpy-batch", "16"]
    text = subprocess.run(args, capture_output=True, text=True, env=env, timeout=300, check=True).stdout
    for row in ("medians of 2 interleaved rounds", "ours: engine only", "ours: PettingZoo AEC",
                "ours: engine batch of 8", "ours: numpy batch of 16", "OpenSpiel gin_rummy", "OpenSpiel, cloned state",
                "RLCard gin-rummy", "goal: PettingZoo AEC faster", "goal: the numpy batch 10x"):
        assert row in text
    figures = json.loads(subprocess.run([*args, "--json"], capture_output=True, text=True, env=env, timeout=300,
                                        check=True).stdout)
    assert len(figures["rates"]) == 7 and all(v > 0 for v in figures["rates"].values())
    assert len(figures["rounds"]) == 2 and figures["numpy_batch_over_fastest_peer"] > 0
