"""examples/train_agent.py runs end to end on a tiny budget: it trains, and the arena reports."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "train_agent.py"


def test_the_training_example_trains_and_prints_the_arena_figure(capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("train_agent_example", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
        assert module.main(["--hands", "48", "--eval-hands", "8", "--seed", "3"]) == 0
        weights = module.TrainedPlayer.weights
    finally:
        sys.modules.pop(spec.name, None)
        from ginrummy.players import PLAYERS

        PLAYERS.pop("trained", None)
    out = capsys.readouterr().out
    trained = re.search(r"trained on (\d+) hands against simple", out)
    assert trained is not None and 48 <= int(trained.group(1)) < 48 + 16  # the batch of 16 finishes its step
    assert "trained (p1) vs simple (p2): 8 hands" in out and "random (p1) vs simple (p2): 8 hands" in out
    assert "points per hand against simple: untrained" in out
    assert any(abs(float(w)) > 0 for w in weights)  # the policy gradient moved the weights
