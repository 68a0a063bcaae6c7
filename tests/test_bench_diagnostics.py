"""The strength diagnostics in ``bench/`` still run and say what docs/strength.md quotes.

They are research tools, not unit tests of strength: these runs are tiny, and check only that
each script works end to end and that its report has the shape the docs rely on.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench"


def _run(*args: str) -> str:
    out = subprocess.run(
        [sys.executable, *args], cwd=BENCH, capture_output=True, text=True, timeout=300, check=False
    )
    assert out.returncode == 0, out.stderr
    return out.stdout


def _report(text: str) -> dict:
    return {k: json.loads(v) for k, _, v in (line.partition(": ") for line in text.splitlines())}


def test_knock_analysis_finds_knock_decisions_and_searches_with_the_exact_posterior() -> None:
    rep = _report(_run("rollout_regret.py", "--decision", "knock", "--hands", "12", "--rollouts", "2",
                       "--belief-rollouts", "2", "--belief", "exact", "--seed", "2"))
    assert rep["decision"] == "knock"
    assert rep["states"] > 0
    assert rep["belief_rollout_gain"]["n"] == rep["states"]
    # A bias of 0 reproduces the expert's own choices, so its gain is exactly zero.
    assert rep["knock_bias"]["0"]["mean"] == 0.0


def test_a_later_knock_chance_is_studied_only_in_hands_that_reach_it(tmp_path: Path) -> None:
    first, second = tmp_path / "k1.jsonl", tmp_path / "k2.jsonl"
    common = ("--decision", "knock", "--hands", "20", "--rollouts", "2", "--seed", "2")
    _run("rollout_regret.py", *common, "--out", str(first))
    _run("rollout_regret.py", *common, "--knock-chance", "2", "--out", str(second))
    hands1 = [json.loads(line)["hand"] for line in first.read_text().splitlines()]
    hands2 = [json.loads(line)["hand"] for line in second.read_text().splitlines()]
    # The expert lets most first chances pass, so some hands reach a second; none skips the first.
    assert hands2 and set(hands2) < set(hands1)


def test_fitted_hand_value_reads_the_features_the_rollouts_store(tmp_path: Path) -> None:
    out = tmp_path / "states.jsonl"
    _run("rollout_regret.py", "--decision", "discard", "--hands", "24", "--rollouts", "2", "--features",
         "--out", str(out), "--seed", "4")
    states = [json.loads(line) for line in out.read_text().splitlines()]
    assert states
    feats = states[0]["candidates"][0]["features"]
    # The features are what the seat can know: nothing about the opponent's real cards.
    assert {"dw", "e1", "e2", "pk1", "pk2", "danger", "stock", "opp_dw"} <= feats.keys()
    assert feats["e1"] <= feats["dw"]  # a draw never makes the best deadwood worse
    text = _run("fit_discard_value.py", str(out), "--features", "e1,dw,danger", "--times-stock", "dw",
                "--folds", "3")
    assert "cross-validated gain" in text
    assert "dw*stock" in text


def test_match_equity_table_is_exact_on_a_coin_toss_race() -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("match_equity", BENCH / "match_equity.py")
    assert spec and spec.loader
    me = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(me)
    # Each hand: one point to either side, evens, whoever starts. First to 2 wins.
    coin = {0: [(-1, 0.5), (1, 0.5)], 1: [(-1, 0.5), (1, 0.5)]}
    w = me.equity(coin, 2)
    assert w[(0, 0, 0)] == 0.5 and w[(1, 0, 1)] == 0.75 and w[(0, 1, 0)] == 0.25
    # Only the starter scores, 2 at a time: whoever starts the first hand wins the race to 2.
    lopsided = {1: [(2, 1.0)], 0: [(-2, 1.0)]}
    w = me.equity(lopsided, 2)
    assert w[(0, 0, 1)] == 1.0 and w[(0, 0, 0)] == 0.0
    freq = me.visits(coin, 2)
    assert abs(sum(freq.values()) - 2.5) < 1e-9  # games last 2 hands, or 3 after a 1-1


def test_match_equity_reads_the_knock_states(tmp_path: Path) -> None:
    states = tmp_path / "k.jsonl"
    _run("rollout_regret.py", "--decision", "knock", "--hands", "20", "--rollouts", "2", "--seed", "2",
         "--out", str(states))
    out = _run("match_equity.py", "--hands", "30", "--knock-states", str(states), "--knock-hands", "20")
    assert "game win chance from 0-0" in out
    assert "knock states" in out and "would add at most" in out


def test_outcomes_break_every_hand_down_by_result() -> None:
    text = _run("outcomes.py", "--deals", "6", "--seed", "3", "--opponent", "greedy")
    rows = [line.split() for line in text.splitlines() if line.startswith("  ") and " won by " in line]
    assert rows
    hands = sum(int(r[r.index("hands") - 1]) for r in rows)
    assert hands == 12 and text.startswith("12 hands")
    points = sum(int(r[r.index("points") - 1]) for r in rows)
    total = float(next(line for line in text.splitlines() if "all:" in line).split()[1])
    assert abs(points / hands - total) < 1e-3


def test_the_knock_chance_diagnostic_scores_every_estimate_and_dumps_what_it_read(tmp_path: Path) -> None:
    dump = tmp_path / "hz.jsonl"
    text = _run("hazard_quality.py", "--hands", "3", "--improve", "0.25", "--dump", str(dump))
    assert "discards, the opponent ended the hand" in text
    names = [line.split(" Brier")[0].strip() for line in text.splitlines()[1:]]
    assert names == ["base", "rate", "oracle", "filtered", "samples, improve 0.25"]
    rows = [json.loads(line) for line in dump.read_text().splitlines()]
    assert rows and all(r["y"] in (0, 1) and r["took"] in (0, 1) for r in rows)
    assert all(0 <= r["kept"] <= 100 and 0.0 <= r["filtered"] <= 1.0 for r in rows)
    # A knock count is recorded exactly for the discards after which the opponent ended the hand.
    assert all((r["k"] >= 0) == bool(r["y"]) for r in rows)
    # The turn-based rate is what the expert itself uses: none before the opponent's second turn.
    assert all(r["rate"] == 0.0 for r in rows if r["turns"] <= 1)


def test_score_ab_reports_no_change_for_identical_variants_and_keeps_its_table(tmp_path: Path) -> None:
    """Two identical variants play every state alike, so the estimated change is exactly zero."""
    dist = tmp_path / "dist.json"
    args = ("--b", '{}', "--states", "6", "--dist-hands", "20", "--seed", "2", "--dist", str(dist))
    out = json.loads(_run("score_ab.py", *args))
    assert out["states"] == 6 and out["results_changed"] == 0
    assert out["b_minus_a_game_win"] == 0.0 and out["b_minus_a_points_per_hand"] == 0.0
    assert 0.0 < out["a_game_win_chance"] < 1.0 and out["hands_per_game"] > 1
    assert len(json.loads(dist.read_text())) == 20
    again = json.loads(_run("score_ab.py", *args))  # the table is read back, not replayed
    assert again["a_game_win_chance"] == out["a_game_win_chance"]
