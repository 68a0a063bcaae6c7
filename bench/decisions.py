"""What one computer decision costs, per player, over the positions of random hands.

    .venv/bin/python bench/decisions.py            # 60 seeds x 4 presets, every position

The web server decides the quick players on its event loop (``ginrummy.web.computer.QUICK``)
and sends the others to worker processes; this is the figure that split rests on.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from ginrummy.match import Match  # noqa: E402
from ginrummy.rules import Rules  # noqa: E402
from ginrummy.web.computer import QUICK, decide  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=60)
    ap.add_argument("--players", default=",".join(sorted(QUICK)) + ",expert")
    args = ap.parse_args()
    names = args.players.split(",")
    times: dict[str, list[float]] = {n: [] for n in names}
    for seed in range(args.seeds):
        for preset in ("app", "classic", "online", "eaai"):
            m = Match(Rules.preset(preset), seed=seed)
            m.start_hand()
            h, rng = m.hand, random.Random(seed)
            assert h is not None
            while not h.is_over:
                view = m.view(h.current)
                for n in names:
                    if n == "expert" and seed >= max(1, args.seeds // 10):
                        continue  # a tenth of the seeds: the expert is slow
                    t0 = time.perf_counter()
                    decide(n, view)
                    times[n].append(time.perf_counter() - t0)
                h.apply(rng.choice(h.legal_actions()))
    for n, xs in times.items():
        xs.sort()
        print(f"{n:8s} {len(xs):6d} positions  p50 {1e6 * xs[len(xs) // 2]:7.0f} µs  "
              f"p99 {1e6 * xs[int(len(xs) * 0.99)]:7.0f} µs  max {1e6 * xs[-1]:7.0f} µs  "
              f"{'event loop' if n in QUICK else 'worker'}")


if __name__ == "__main__":
    main()
