"""Environment steps per second: ours against OpenSpiel's and RLCard's gin rummy, in one run.

    .venv/bin/python bench/envs.py                 # about a minute: --seconds 4 for each row
    .venv/bin/python bench/envs.py --seconds 10 --rounds 5 --numpy-batch 4096 --json

A step is one player decision: the acting player's observation and legal actions are produced,
a legal action is drawn uniformly at random and applied; chance (the deal, OpenSpiel's stock
draws) and resets are timed but not counted. Rows:

===========================  =========================================================================
row                          what one step does
===========================  =========================================================================
ours: engine only            ``Hand.legal_actions()`` and ``Hand.apply`` (no observation)
ours: PettingZoo AEC         ``gin_rummy_v0.raw_env``: ``observe`` (747 numbers + mask) and ``step``
ours: engine batch of N      ``HandBatch`` of N self-play hands, each played by the engine
ours: numpy batch of N       ``FastHandBatch`` of N self-play hands played by numpy: one ``step`` of N
                             actions gives every hand's next mask and observation; N steps counted
OpenSpiel gin_rummy          C++ via pyspiel: ``observation_tensor``, ``legal_actions``, ``apply_action``
OpenSpiel, cloned state      the same with ``state = state.clone()`` before each action, as a search
                             or an environment that keeps its states does
RLCard gin-rummy             ``env.step`` (it returns the next state's observation and legal actions)
===========================  =========================================================================

The rules differ (OpenSpiel: one hand, gin 25, undercut 25, the wall; RLCard: no upcard offer,
no layoffs; ours: the classic rules here), so a step is not the same work everywhere: the
figures compare what each environment costs a learner per decision. The machine is shared, so
the rows are run in ``--rounds`` interleaved rounds (every row once per round, ``--seconds``
split between the rounds); a row's figure is its median over the rounds and each ratio the
median of the ratios measured within a round. Timing is CPU time of the process (``--wall``
switches to the wall clock). The goals of issue #22 are printed as met or MISSED: the PettingZoo
environment faster than every peer row (one Python environment against one peer environment,
per decision), and the numpy batch's steps per second (all N hands together) 10x the fastest
peer row's (one peer environment).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from ginrummy.envs import gin_rummy_v0
from ginrummy.envs.fast import FastHandBatch
from ginrummy.envs.vector import HandBatch
from ginrummy.hand import new_hand
from ginrummy.rules import Rules

Clock = Callable[[], float]


def _run(step: Callable[[], int], seconds: float, clock: Clock) -> float:
    """Call ``step`` (it returns how many decisions it made) for ``seconds``: decisions per second."""
    n = 0
    t0 = clock()
    while clock() - t0 < seconds:
        for _ in range(10):
            n += step()
    return n / (clock() - t0)


def ours_engine(rng: random.Random) -> Callable[[], int]:
    state = {"h": new_hand(Rules(), 0, seed=0), "i": 0}

    def step() -> int:
        h = state["h"]
        if h.is_over:  # type: ignore[union-attr]
            state["i"] += 1  # type: ignore[operator]
            h = state["h"] = new_hand(Rules(), state["i"] % 2, seed=state["i"])  # type: ignore[operator]
        h.apply(rng.choice(h.legal_actions()))  # type: ignore[union-attr]
        return 1

    return step


def ours_aec(rng: random.Random) -> Callable[[], int]:
    env = gin_rummy_v0.raw_env()
    env.reset(seed=0)

    def step() -> int:
        if env.episode.over:
            env.reset()
        obs = env.observe(env.agent_selection)
        env.step(rng.choice(obs["action_mask"].nonzero()[0].tolist()))
        return 1

    return step


def ours_batch(n: int) -> Callable[[], int]:
    batch = HandBatch(n, seed=0)
    gen = np.random.default_rng(0)

    def step() -> int:
        # A uniform legal action per hand, drawn for the whole batch at once.
        pick = (gen.random(batch.masks.shape) * batch.masks).argmax(axis=1)
        batch.step(pick)
        return n

    return step


def ours_numpy(n: int) -> Callable[[], int]:
    batch = FastHandBatch(n, seed=0)
    gen = np.random.default_rng(0)

    def step() -> int:
        batch.step(batch.random_actions(gen))  # a uniform legal action per hand, drawn at once
        return n

    return step


def openspiel(rng: random.Random, clone: bool) -> Callable[[], int] | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("gin_rummy")
    holder = {"s": game.new_initial_state()}

    def step() -> int:
        s = holder["s"]
        while s.is_chance_node() or s.is_terminal():
            if s.is_terminal():
                s = game.new_initial_state()
            else:
                s.apply_action(rng.choice(s.chance_outcomes())[0])
        s.observation_tensor(s.current_player())
        legal = s.legal_actions()
        if clone:
            s = s.clone()
        s.apply_action(rng.choice(legal))
        holder["s"] = s
        return 1

    return step


def rlcard(rng: random.Random) -> Callable[[], int] | None:
    try:
        import rlcard as rl
    except ImportError:
        return None
    env = rl.make("gin-rummy", config={"seed": 0})
    holder: dict[str, Any] = {"state": env.reset()[0]}

    def step() -> int:
        state = holder["state"]
        state, _ = env.step(rng.choice(list(state["legal_actions"])))
        if env.is_over():
            state, _ = env.reset()
        holder["state"] = state
        return 1

    return step


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=4.0, help="time for each row, all rounds together (default 4)")
    p.add_argument("--rounds", type=int, default=5, help="rounds: every row once per round, interleaved (default 5)")
    p.add_argument("--batch", type=int, default=256, help="hands in the engine batch row (default 256)")
    p.add_argument("--numpy-batch", type=int, default=1024, help="hands in the numpy batch row (default 1024)")
    p.add_argument("--wall", action="store_true", help="wall-clock time instead of CPU time")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = p.parse_args(argv)
    clock: Clock = time.perf_counter if args.wall else time.process_time
    rng = random.Random(0)
    aec, nb = "ours: PettingZoo AEC", f"ours: numpy batch of {args.numpy_batch}"
    rows: list[tuple[str, Callable[[], int] | None]] = [
        ("ours: engine only", ours_engine(rng)),
        (aec, ours_aec(rng)),
        (f"ours: engine batch of {args.batch}", ours_batch(args.batch)),
        (nb, ours_numpy(args.numpy_batch)),
        ("OpenSpiel gin_rummy", openspiel(rng, clone=False)),
        ("OpenSpiel, cloned state", openspiel(rng, clone=True)),
        ("RLCard gin-rummy", rlcard(rng)),
    ]
    for name, step in rows:
        if step is None:
            print(f"{name}: not installed (pip install 'ginrummy[peers]'), skipped", file=sys.stderr)
    live = [(name, step) for name, step in rows if step is not None]
    per_round: list[dict[str, float]] = []
    for _ in range(max(1, args.rounds)):  # interleaved: a load that comes and goes hits every row
        per_round.append({name: _run(step, args.seconds / max(1, args.rounds), clock) for name, step in live})
    rates = {name: statistics.median(r[name] for r in per_round) for name, _ in live}
    peers = [k for k in rates if not k.startswith("ours")]

    def ratio(a: str, b: str) -> float:
        """The median over the rounds of a / b measured in the same round."""
        return statistics.median(r[a] / r[b] for r in per_round)

    def ratio_best(a: str) -> float:
        return statistics.median(r[a] / max(r[k] for k in peers) for r in per_round)

    if args.json:
        out: dict[str, Any] = {"rates": rates, "rounds": per_round}
        if peers:
            out["aec_over_fastest_peer"] = ratio_best(aec)
            out["numpy_batch_over_fastest_peer"] = ratio_best(nb)
        print(json.dumps(out))
        return 0
    against = [k for k in ("OpenSpiel gin_rummy", "OpenSpiel, cloned state", "RLCard gin-rummy") if k in rates]
    heads = {"OpenSpiel gin_rummy": "x OpenSpiel", "OpenSpiel, cloned state": "x OS cloned", "RLCard gin-rummy": "x RLCard"}
    print(f"medians of {len(per_round)} interleaved rounds, {'wall' if args.wall else 'CPU'} time")
    print(f"{'environment':32s}{'steps/s':>11s}" + "".join(f"{heads[k]:>13s}" for k in against))
    for name, rate in rates.items():
        print(f"{name:32s}{rate:11.0f}" + "".join(f"{ratio(name, k):13.2f}" for k in against))
    if peers:
        a, b = ratio_best(aec), ratio_best(nb)
        print(f"\ngoal: PettingZoo AEC faster than every peer row: {'met' if a > 1 else 'MISSED'} "
              f"({a:.2f}x the fastest peer row)")
        print(f"goal: the numpy batch 10x every peer row: {'met' if b > 10 else 'MISSED'} "
              f"({b:.2f}x the fastest peer row)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
