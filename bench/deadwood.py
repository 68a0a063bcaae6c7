"""Deadwood speed: ginrummy against OpenSpiel and RLCard, on the same seeded hands.

Prints µs per hand for three tasks and checks that every engine gives the same answer
on every hand (exit status 1 if not):

* 10 cards: minimum deadwood;
* 10 cards: the melds of a best arrangement (``melds.best_arrangement``; OpenSpiel's
  ``best_meld_group``; the arrangements may differ, their deadwood must not);
* 11 cards: deadwood after the best discard (the number a knock decision needs);
* 11 cards: every best discard (the exact set of cards; OpenSpiel's equivalent is
  ``min_deadwood`` for the value then ``legal_discards(hand, value)``; RLCard's is the
  deadwood of each of the 11 ten-card hands, as its novice agent does).

The peers are optional (``pip install -e '.[peers]'``); a missing one is skipped with a
message. Card numbering differs between the three (ours: suits s h d c; OpenSpiel:
s c d h; RLCard: S H D C), so hands are converted card by card through card names.

Timings are the best of ``--repeat`` passes over the whole list of hands, with each
engine given its own ready-made input (an int mask, a list of ints, a list of Card
objects). They are CPU time of this process (``time.process_time``), so time spent
waiting for a busy machine's cores is left out; ``--wall`` uses wall-clock time instead.
On a busy machine, trust the ratios more than the absolute figures.

    .venv/bin/python bench/deadwood.py [--hands 20000] [--seed 1] [--repeat 5]
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ginrummy import batch, discard_search, melds
from ginrummy.cards import card_str, cards_of, mask_of

Row = dict[str, float | None]


def random_hands(rng: random.Random, n: int) -> list[list[int]]:
    """Uniform 11-card hands (the first 10 cards make the 10-card hand)."""
    return [rng.sample(range(52), 11) for _ in range(n)]


def rich_hands(rng: random.Random, n: int) -> list[list[int]]:
    """Meld-rich 11-card hands: a run of four, a set of four (different ranks), then
    random cards; the slow case for enumerating engines."""
    out = []
    for _ in range(n):
        suit, start = rng.randrange(4), rng.randrange(10)
        run = [suit * 13 + r for r in range(start, start + 4)]
        rank = rng.choice([r for r in range(13) if not start <= r < start + 4])
        cards = run + [s * 13 + rank for s in range(4)]
        rest = [c for c in range(52) if c not in cards]
        cards += rng.sample(rest, 3)
        rng.shuffle(cards)
        out.append(cards)
    return out


CLOCK: Callable[[], float] = time.process_time


def best_time(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """Best time of ``repeat`` calls, and the result of the last one."""
    best = float("inf")
    result = None
    for _ in range(repeat):
        t0 = CLOCK()
        result = fn()
        best = min(best, CLOCK() - t0)
    return best, result


class Mismatch(Exception):
    pass


def check(what: str, engine: str, ours: Sequence[Any], theirs: Sequence[Any], hands: list[list[int]]) -> None:
    for i, (a, b) in enumerate(zip(ours, theirs, strict=True)):
        if a != b:
            text = " ".join(card_str(c) for c in hands[i])
            raise Mismatch(f"{what}: {engine} gives {b!r}, ginrummy {a!r} on hand {i}: {text}")


def load_openspiel() -> Any:
    try:
        import pyspiel
    except ImportError:
        return None
    return pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)


def load_rlcard() -> Any:
    try:
        from rlcard.games.gin_rummy.utils import melding, utils
    except ImportError:
        return None
    return melding, utils


def suite(name: str, hands: list[list[int]], rl_count: int, repeat: int, batch_size: int) -> list[str]:
    """Measure and cross-check one list of hands; return the table lines."""
    masks10 = [mask_of(h[:10]) for h in hands]
    masks11 = [mask_of(h) for h in hands]
    rows: dict[str, Row] = {}
    lines: list[str] = []
    n = len(hands)

    # --- ours, one hand per call
    t, ours10 = best_time(lambda: [melds.deadwood(m) for m in masks10], repeat)
    rows["10 cards: min deadwood"] = {"ours": t / n}
    t, ours_arr = best_time(lambda: [melds.best_arrangement(m) for m in masks10], repeat)
    rows["10 cards: best arrangement"] = {"ours": t / n}
    check("best arrangement value", "best_arrangement", ours10, [d for d, _ in ours_arr], hands)
    t, ours11 = best_time(lambda: [discard_search.min_deadwood_after_discard(m) for m in masks11], repeat)
    rows["11 cards: deadwood after best discard"] = {"ours": t / n}
    t, ours_bd = best_time(lambda: [discard_search.best_discards(m) for m in masks11], repeat)
    rows["11 cards: all best discards"] = {"ours": t / n}
    best_sets = [frozenset(cards) for _, cards in ours_bd]
    check("best discard value", "best_discards", ours11, [v for v, _ in ours_bd], hands)

    # --- ours, numpy batch (the same hands, tiled up to batch_size for a stable figure)
    reps = max(1, batch_size // n)
    a10 = np.array(masks10 * reps, dtype=np.uint64)
    a11 = np.array(masks11 * reps, dtype=np.uint64)
    t, b10 = best_time(lambda: batch.deadwood_batch(a10), repeat)
    rows["10 cards: min deadwood"]["batch"] = t / a10.size
    t, b11 = best_time(lambda: batch.deadwood_after_discard_batch(a11), repeat)
    rows["11 cards: deadwood after best discard"]["batch"] = t / a11.size
    t, (bv, bf) = best_time(lambda: batch.best_discard_batch(a11), repeat)
    rows["11 cards: all best discards"]["batch"] = t / a11.size
    check("deadwood_batch", "batch", ours10, b10[:n].tolist(), hands)
    check("deadwood_after_discard_batch", "batch", ours11, b11[:n].tolist(), hands)
    check("best_discard_batch value", "batch", ours11, bv[:n].tolist(), hands)
    check("best_discard_batch cards", "batch", best_sets, [frozenset(cards_of(f)) for f in bf[:n].tolist()], hands)

    # --- OpenSpiel (C++ through pybind11)
    os_utils = load_openspiel()
    if os_utils is None:
        lines.append("  OpenSpiel: not installed, skipped (pip install -e '.[peers]')")
    else:
        to_os = [os_utils.card_int(card_str(c)) for c in range(52)]
        assert sorted(to_os) == list(range(52))
        assert all(os_utils.card_string(to_os[c]) == card_str(c) for c in range(52))
        from_os = {o: c for c, o in enumerate(to_os)}
        os10 = [[to_os[c] for c in h[:10]] for h in hands]
        os11 = [[to_os[c] for c in h] for h in hands]
        md = os_utils.min_deadwood
        legal = os_utils.legal_discards
        t, r10 = best_time(lambda: [md(h) for h in os10], repeat)
        rows["10 cards: min deadwood"]["OpenSpiel"] = t / n
        check("10-card deadwood", "OpenSpiel min_deadwood", ours10, r10, hands)
        group = os_utils.best_meld_group
        t, rgroups = best_time(lambda: [group(h) for h in os10], repeat)
        rows["10 cards: best arrangement"]["OpenSpiel"] = t / n
        left = [m & ~sum(1 << from_os[c] for g in gs for c in g) for m, gs in zip(masks10, rgroups, strict=True)]
        left_points = [melds.points(x) for x in left]
        check("deadwood left by the best arrangement", "OpenSpiel best_meld_group", ours10, left_points, hands)
        t, r11 = best_time(lambda: [md(h) for h in os11], repeat)
        rows["11 cards: deadwood after best discard"]["OpenSpiel"] = t / n
        check("11-card deadwood after discard", "OpenSpiel min_deadwood", ours11, r11, hands)

        def os_best() -> list[tuple[int, list[int]]]:
            out = []
            for h in os11:
                v = md(h)
                out.append((v, legal(h, v)))
            return out

        t, rbd = best_time(os_best, repeat)
        rows["11 cards: all best discards"]["OpenSpiel"] = t / n
        check(
            "best discards",
            "OpenSpiel legal_discards",
            best_sets,
            [frozenset(from_os[c] for c in cards) for _, cards in rbd],
            hands,
        )

    # --- RLCard (pure Python); slow, so timed and checked on the first rl_count hands
    rl = load_rlcard()
    if rl is None:
        lines.append("  RLCard: not installed, skipped (pip install -e '.[peers]')")
    elif rl_count > 0:
        melding, utils = rl
        to_rl = [utils.card_from_text(card_str(c).upper()) for c in range(52)]
        assert all(str(to_rl[c]) == card_str(c).upper() for c in range(52))
        from_rl = {str(to_rl[c]): c for c in range(52)}
        m = min(rl_count, n)
        rl10 = [[to_rl[c] for c in h[:10]] for h in hands[:m]]
        rl11 = [[to_rl[c] for c in h] for h in hands[:m]]

        def rl_dead10(hand: list[Any]) -> int:
            clusters = melding.get_best_meld_clusters(hand)
            return int(utils.get_deadwood_count(hand, clusters[0] if clusters else []))

        def rl_best(hand: list[Any]) -> tuple[int, frozenset[int]]:
            values = [rl_dead10([c for c in hand if c is not d]) for d in hand]
            low = min(values)
            return low, frozenset(from_rl[str(d)] for d, v in zip(hand, values, strict=True) if v == low)

        rl_repeat = 1
        t, r10 = best_time(lambda: [rl_dead10(h) for h in rl10], rl_repeat)
        rows["10 cards: min deadwood"]["RLCard"] = t / m
        check("10-card deadwood", "RLCard", ours10[:m], r10, hands)
        t, rbd = best_time(lambda: [rl_best(h) for h in rl11], rl_repeat)
        # The brute force yields the value and the discards at once: same cost for both rows.
        rows["11 cards: deadwood after best discard"]["RLCard"] = t / m
        rows["11 cards: all best discards"]["RLCard"] = t / m
        check("11-card deadwood after discard", "RLCard", ours11[:m], [v for v, _ in rbd], hands)
        check("best discards", "RLCard", best_sets[:m], [cards for _, cards in rbd], hands)
        if m < n:
            lines.append(f"  RLCard: timed and checked on the first {m} hands")

    cols = ["ours", "batch", "OpenSpiel", "RLCard"]
    head = f"  {'µs per hand':40}" + "".join(f"{c:>11}" for c in cols) + f"{'OpenSpiel/ours':>16}"
    body = []
    for task, row in rows.items():
        cells = "".join(f"{row[c] * 1e6:>11.3f}" if row.get(c) is not None else f"{'-':>11}" for c in cols)
        ratio = ""
        if row.get("OpenSpiel") is not None:
            ratio = f"{row['OpenSpiel'] / row['ours']:>9.1f}x"
            if row.get("batch") is not None:
                ratio += f" /{row['OpenSpiel'] / row['batch']:>5.0f}x"
        body.append(f"  {task:40}{cells}  {ratio}")
    sets = sum(1 for m in masks11 if melds.triple_ranks(m))
    title = f"{name}: {n} hands ({sets} with a rank of 3+ among 11 cards); batch on {a10.size} hands"
    return [title, head, *body, *lines, *targets(rows, name)]


def targets(rows: dict[str, Row], name: str) -> list[str]:
    """The goals of issues #2 and #19, as measured in this run (informational)."""
    d10 = rows["10 cards: min deadwood"]
    arr = rows["10 cards: best arrangement"]
    d11 = rows["11 cards: deadwood after best discard"]
    bd = rows["11 cards: all best discards"]
    out = []

    def goal(text: str, ok: bool) -> None:
        out.append(f"  goal: {text}: {'met' if ok else 'MISSED'}")

    ours10, ours_arr, ours11 = d10["ours"] or 0, arr["ours"] or 0, d11["ours"] or 0
    if name == "random hands" and d10.get("OpenSpiel") is not None:
        o, b = d10["OpenSpiel"], d10["batch"]
        assert o is not None and b is not None
        goal("10-card deadwood at least as fast as OpenSpiel", ours10 <= o)
        goal(f"batch at least 10x faster per hand than OpenSpiel ({o / b:.0f}x)", b * 10 <= o)
    if arr.get("OpenSpiel") is not None:
        goal("best arrangement at least as fast as OpenSpiel's best_meld_group", ours_arr <= (arr["OpenSpiel"] or 0))
    goal(f"best arrangement at most 3x our 10-card deadwood ({ours_arr / ours10:.1f}x)", ours_arr <= 3 * ours10)
    if name == "random hands":
        goal("exact best discards of 11 cards under 5 µs", (bd["ours"] or 0) < 5e-6)
    else:
        goal("11-card deadwood after the best discard under 1 µs", ours11 < 1e-6)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--hands", type=int, default=20000, help="random hands (default 20000)")
    p.add_argument("--rich", type=int, default=2000, help="meld-rich hands (default 2000, 0 to skip)")
    p.add_argument("--rl-hands", type=int, default=2000, help="hands given to RLCard (default 2000)")
    p.add_argument("--batch", type=int, default=200000, help="hands per batch call (default 200000)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--wall", action="store_true", help="time with the wall clock, not CPU time")
    args = p.parse_args(argv)
    global CLOCK
    if args.wall:
        CLOCK = time.perf_counter

    versions = [f"python {platform.python_version()}", f"numpy {np.__version__}"]
    for dist in ("open_spiel", "rlcard"):
        try:
            from importlib.metadata import version

            versions.append(f"{dist} {version(dist)}")
        except Exception:
            versions.append(f"{dist} (not installed)")
    clock = "wall-clock" if args.wall else "CPU"
    print(f"deadwood benchmark, seed {args.seed}, {clock} time: " + ", ".join(versions))
    rng = random.Random(args.seed)
    try:
        for line in suite("random hands", random_hands(rng, args.hands), args.rl_hands, args.repeat, args.batch):
            print(line)
        if args.rich:
            rich = rich_hands(rng, args.rich)
            for line in suite("meld-rich hands", rich, min(args.rl_hands, 500), args.repeat, args.batch):
                print(line)
    except Mismatch as e:
        print(f"DISAGREEMENT: {e}")
        return 1
    print("all engines agree on every hand")
    return 0


if __name__ == "__main__":
    sys.exit(main())
