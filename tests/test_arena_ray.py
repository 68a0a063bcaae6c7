"""``ginrummy arena --backend ray``: the same counts as the local backend, two, three and four
players, on a Ray instance the test starts on this machine (and joined by address from a separate
process)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path

import pytest
import ray

from ginrummy.arena import Config, Progress, Tally, run_arena
from ginrummy.arena_ray import _package_dir
from ginrummy.arena_seated import SeatedConfig, SeatedTally, run_seated
from ginrummy.rules import Rules

SRC = Path(__file__).resolve().parents[1] / "src"


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """A Ray instance for this module (two CPUs, no dashboard), shut down at the end."""
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             runtime_env={"py_modules": [_package_dir()]})
    try:
        yield ray.get_runtime_context().gcs_address
    finally:
        ray.shutdown()


def _counts(t: Tally) -> dict[str, object]:
    d = asdict(t)
    for side in ("p1", "p2"):
        for timing in ("seconds", "slowest"):
            d[side].pop(timing)
    return d


def test_the_ray_backend_gives_the_local_backends_counts(cluster: str) -> None:
    for cfg in (Config("greedy", "simple", Rules.preset("eaai"), "hands", 30, seed=4),
                Config("simple", "easy", Rules(), "games", 3, seed=9)):
        local = run_arena(cfg, workers=1)
        seen: list[int] = []
        bar = Progress(2 * cfg.pairs, cfg.mode, enabled=False)
        bar.update = seen.append  # type: ignore[method-assign]
        on_ray = run_arena(cfg, progress=bar, backend="ray")
        assert _counts(on_ray) == _counts(local)
        assert sum(seen) == 2 * cfg.pairs  # the progress bar is told of every pair
    other = run_arena(Config("greedy", "simple", Rules.preset("eaai"), "hands", 30, seed=5), backend="ray")
    assert _counts(other) != _counts(local)


def test_the_command_joins_a_cluster_by_address(cluster: str) -> None:
    args = ["arena", "--p1", "greedy", "--p2", "simple", "--hands", "20", "--rules", "eaai", "--seed", "7", "--json"]
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    run = subprocess.run([sys.executable, "-m", "ginrummy", *args, "--backend", "ray", "--address", cluster,
                          "--progress"], capture_output=True, text=True, env=env, timeout=600, check=True)
    local = subprocess.run([sys.executable, "-m", "ginrummy", *args], capture_output=True, text=True, env=env,
                           timeout=600, check=True)
    a, b = json.loads(run.stdout), json.loads(local.stdout)
    assert a["backend"] == "ray" and b["backend"] == "local"
    for r in (a, b):
        for key in ("seconds", "workers", "backend"):
            r.pop(key)
        for side in r["players"].values():
            for key in ("seconds", "slowest", "us_per_decision", "slowest_ms"):
                side.pop(key)
    assert a == b
    assert "20/20 hands" in run.stderr  # the progress bar, on Ray too


def test_address_needs_the_ray_backend(capsys: pytest.CaptureFixture[str]) -> None:
    from ginrummy.cli import main

    assert main(["arena", "--p1", "simple", "--p2", "simple", "--hands", "2", "--address", "ray://x:1"]) == 2
    assert "--address is the Ray cluster's: use it with --backend ray" in capsys.readouterr().err


@pytest.mark.parametrize("players", [("greedy", "simple", "easy"), ("simple", "greedy", "easy", "random")])
def test_three_and_four_players_on_ray_give_the_local_counts(cluster: str, players: tuple[str, ...]) -> None:
    def counts(t: SeatedTally) -> dict[str, object]:
        d = asdict(t)
        for side in d["sides"]:
            for timing in ("seconds", "slowest"):
                side.pop(timing)
        return d

    cfg = SeatedConfig(players, Rules.preset("eaai"), 3, seed=6)
    local = run_seated(cfg, workers=1)
    seen: list[int] = []
    bar = Progress(len(players) * cfg.groups, "games", enabled=False)
    bar.update = seen.append  # type: ignore[method-assign]
    on_ray = run_seated(cfg, progress=bar, backend="ray")
    assert counts(on_ray) == counts(local)
    assert local.units == len(players) * cfg.groups and sum(seen) == local.units
    other = run_seated(SeatedConfig(players, Rules.preset("eaai"), 3, seed=7), backend="ray")
    assert counts(other) != counts(local)


def test_the_three_player_command_on_ray_reports_the_local_result(cluster: str, capsys: pytest.CaptureFixture[str]) -> None:
    from ginrummy.cli import main

    args = ["arena", "--players", "3", "--seats", "greedy,simple,easy", "--games", "6", "--seed", "3", "--json"]
    results = []
    for extra in (["--backend", "ray", "--address", cluster], []):
        assert main([*args, *extra]) == 0
        results.append(json.loads(capsys.readouterr().out))
    on_ray, local = results
    assert on_ray["backend"] == "ray" and local["backend"] == "local"
    for r in results:
        for key in ("seconds", "workers", "backend"):
            r.pop(key)
        for p in r["results"].values():
            for key in ("seconds", "slowest", "us_per_decision", "slowest_ms"):
                p.pop(key)
    assert on_ray == local
