"""Train a small agent on ``GinRummy-v0`` against the ``simple`` player, then measure it in the arena.

    .venv/bin/python examples/train_agent.py                      # about 3 minutes on one CPU core
    .venv/bin/python examples/train_agent.py --minutes 1 --eval-hands 400 --seed 2

The agent is a linear softmax policy over a few numbers describing each legal action (what the
deadwood would be after it, the value of the card it throws, which kind of action it is, how much
stock is left), trained by REINFORCE with a running baseline on the hand's points, in a batch of
16 environments (``ginrummy.envs.vector.GinRummyVectorEnv``) with the engine's default layouts
(``auto_layout``). numpy only: no deep-learning library is needed. The features are read from the
observation's named pieces (``ginrummy.envs.encoding``) and scored with the engine's exact
deadwood (``ginrummy.melds``), so the agent sees only what its seat may see.

At the end the trained policy plays seat-swapped deals against ``simple`` in the arena
(``ginrummy.arena``) and the report is printed, after the ``random`` player's (what a uniform,
untrained policy gets) for comparison.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from ginrummy.actions import BIG_GIN_ID, KNOCK_BASE, PASS_ID, PILE_ID, STOCK_ID, Action  # noqa: E402
from ginrummy.arena import Config, format_report, report, run_arena  # noqa: E402
from ginrummy.cards import CARD_VALUES  # noqa: E402
from ginrummy.discard_search import min_deadwood_after_discard  # noqa: E402
from ginrummy.envs.encoding import action_mask, encode_observation, pieces  # noqa: E402
from ginrummy.envs.vector import GinRummyVectorEnv  # noqa: E402
from ginrummy.layout import LAYOUT_PHASES, layout_action  # noqa: E402
from ginrummy.melds import deadwood  # noqa: E402
from ginrummy.observation import SeatView  # noqa: E402
from ginrummy.players import PLAYERS  # noqa: E402
from ginrummy.players.base import Player  # noqa: E402
from ginrummy.rules import Rules  # noqa: E402

FEATURES = ("discard", "knock", "take", "draw or pass", "deadwood after / 10", "card value / 10",
            "knock: deadwood / 10", "knock: stock / 31")
N_ENVS = 16


def action_features(obs: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """One row of FEATURES per legal action, from the observation alone."""
    p = pieces(obs)
    hand = 0
    for c in np.flatnonzero(p["hand"]).tolist():
        hand |= 1 << c
    top = np.flatnonzero(p["pile"] == 1.0)
    stock = float(p["stock"][0]) / 31
    out = np.zeros((len(legal), len(FEATURES)))
    for i, a in enumerate(legal.tolist()):
        if a < 52 or KNOCK_BASE <= a < KNOCK_BASE + 52 or a == BIG_GIN_ID:
            c = a % KNOCK_BASE if a != BIG_GIN_ID else -1
            after = deadwood(hand & ~(1 << c)) if c >= 0 else 0
            knock = a >= KNOCK_BASE
            out[i, 1 if knock else 0] = 1
            out[i, 4] = after / 10
            out[i, 5] = (CARD_VALUES[c] if c >= 0 else 0) / 10
            if knock:
                out[i, 6] = after / 10
                out[i, 7] = stock
        elif a == PILE_ID and top.size:
            out[i, 2] = 1
            out[i, 4] = min_deadwood_after_discard(hand | 1 << int(top[0])) / 10
        elif a in (STOCK_ID, PASS_ID):
            out[i, 3] = 1
            out[i, 4] = deadwood(hand) / 10 if hand.bit_count() == 10 else min_deadwood_after_discard(hand) / 10
    return out


def choose(w: np.ndarray, obs: np.ndarray, mask: np.ndarray, rng: np.random.Generator | None) -> tuple[int, np.ndarray, int]:
    """An action (sampled, or the best with ``rng`` None), its features and its row."""
    legal = np.flatnonzero(mask)
    f = action_features(obs, legal)
    logits = f @ w
    if rng is None:
        i = int(np.argmax(logits))
    else:
        prob = np.exp(logits - logits.max())
        prob /= prob.sum()
        i = int(rng.choice(len(legal), p=prob))
    return int(legal[i]), f, i


def train(minutes: float, hands: int | None, seed: int, rules: Rules) -> tuple[np.ndarray, int]:
    """REINFORCE until the time (or the number of hands) is used up; the weights and hands played."""
    rng = np.random.default_rng(seed)
    w = np.zeros(len(FEATURES))
    lr, baseline = 0.05, 0.0
    env = GinRummyVectorEnv(N_ENVS, opponent="simple", rules=rules, auto_layout=True)
    obs, _ = env.reset(seed=seed)
    trails: list[list[tuple[np.ndarray, int]]] = [[] for _ in range(N_ENVS)]
    returns = np.zeros(N_ENVS)
    done_hands = 0
    stop = time.monotonic() + 60 * minutes
    while (hands is None and time.monotonic() < stop) or (hands is not None and done_hands < hands):
        actions = np.zeros(N_ENVS, dtype=np.int64)
        for i in range(N_ENVS):
            if obs["action_mask"][i].any():
                actions[i], f, row = choose(w, obs["observation"][i], obs["action_mask"][i], rng)
                trails[i].append((f, row))
        obs, rewards, terminated, truncated, _ = env.step(actions)
        returns += rewards
        for i in np.flatnonzero(terminated | truncated).tolist():
            g = returns[i] / 25  # about one hand's points
            grad = np.zeros_like(w)
            for f, row in trails[i]:
                logits = f @ w
                prob = np.exp(logits - logits.max())
                prob /= prob.sum()
                grad += f[row] - prob @ f
            w += lr * (g - baseline) * grad / max(1, len(trails[i]))
            baseline += 0.02 * (g - baseline)
            trails[i], returns[i] = [], 0.0
            done_hands += 1
    return w, done_hands


class TrainedPlayer(Player):
    """The trained policy as an arena player: its best action, the default layout after a knock."""

    name = "trained"
    weights = np.zeros(len(FEATURES))

    def decide(self, view: SeatView) -> Action:
        if view.phase in LAYOUT_PHASES:
            return layout_action(view)
        a, _, _ = choose(type(self).weights, encode_observation(view), action_mask(view), None)
        return Action.from_int(a)


def evaluate(player: str, hands: int, seed: int, rules: Rules) -> dict[str, object]:
    """``player`` against simple in the arena: seat-swapped pairs of the same deals."""
    PLAYERS["trained"] = f"{__name__}:TrainedPlayer"
    cfg = Config(player, "simple", rules, "hands", (hands + 1) // 2, seed)
    t0 = time.perf_counter()
    tally = run_arena(cfg, workers=1)
    return report(cfg, tally, time.perf_counter() - t0, 1)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--minutes", type=float, default=3.0, help="training time (default 3)")
    p.add_argument("--hands", type=int, help="train for this many hands instead of a time")
    p.add_argument("--eval-hands", type=int, default=2000, help="arena hands against simple (default 2000)")
    p.add_argument("--rules", default="classic", help="rule preset (default classic)")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    rules = Rules.preset(args.rules)
    t0 = time.perf_counter()
    w, n = train(args.minutes, args.hands, args.seed, rules)
    print(f"trained on {n} hands against simple in {time.perf_counter() - t0:.0f} s; weights:")
    for name, value in zip(FEATURES, w, strict=True):
        print(f"  {name:22s} {value:+.3f}")
    TrainedPlayer.weights = w
    before = evaluate("random", args.eval_hands, args.seed + 1, rules)
    after = evaluate("trained", args.eval_hands, args.seed + 1, rules)
    print("\nbefore training, a uniform choice among the legal actions (the random player) vs simple:")
    print(format_report(before).split("\n\n")[0])
    print("\ntrained vs simple:")
    print(format_report(after))
    print(f"\npoints per hand against simple: untrained {before['p1_points_per_hand']:+.2f}, "
          f"trained {after['p1_points_per_hand']:+.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
