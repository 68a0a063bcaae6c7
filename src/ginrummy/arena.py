"""``ginrummy arena``: play two computer players against each other and report who is better.

    ginrummy arena --p1 expert --p2 simple --rules eaai --games 2000 --seed 7 --workers 2
    ginrummy arena --p1 greedy --p2 simple --hands 10000 --json
    ginrummy arena --p1 expert --p2 simple --games 20000 --backend ray --address ray://head:10001
    ginrummy arena --players 3 --seats greedy,simple,easy --games 300   # see ginrummy.arena_seated

Why it is built this way:

- **Seat-swapped pairs of identical deals.** Luck of the deal dominates a few hundred hands of
  Gin Rummy. Each deal is played twice, the second time with the players' seats swapped and
  the same dealer seat, so each player gets the other's cards; the luck cancels and far fewer
  games tell two players apart. In ``--games`` mode the two games of a pair share the match
  seed, so hand ``k`` of both games is dealt from the same deck.
- **Reproducible from the seed.** Every deal and every player's RNG is derived from
  ``--seed`` and the pair's index, never from the worker that plays it, so the counts are the
  same for any ``--workers`` (only the timings change).
- **Wilson interval.** A win rate near 0 or 1, or over few games, is where the usual
  normal-approximation interval fails; Wilson's 95% interval stays inside [0, 1] and is honest
  there. Dead hands are won by nobody, so hand win rates are over decided hands.
- **Ray.** ``--backend ray`` runs the same chunks as Ray tasks (:mod:`ginrummy.arena_ray`), on a
  new local instance or the cluster at ``--address``; by the previous point the counts are the
  local backend's. Three- and four-player games (``--players 3|4``) run on Ray the same way.
- Players only ever see their :class:`~ginrummy.observation.SeatView` (the driver enforces it).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import sys
import time
from dataclasses import asdict, dataclass, field
from typing import Any

from .arena_common import Progress, Side, chunks, wilson
from .arena_common import count_clock as _count_clock
from .arena_common import count_hand as _count_hand
from .arena_common import derived as _derived
from .arena_seated import run_seated_command
from .commands.options import add_rule_options, rules_from_args
from .hand import new_hand
from .match import Match
from .players import PLAYERS, get_player
from .players.driver import Clock, play_game, play_hand
from .rules import Rules

# ---------------------------------------------------------------------------------------------
# Tallies
# ---------------------------------------------------------------------------------------------


@dataclass
class Tally:
    """Counts of a run, summed over pairs (so the order the workers finish in does not matter)."""

    units: int = 0  # games or hands played
    hands: int = 0
    dead: int = 0
    p1: Side = field(default_factory=Side)
    p2: Side = field(default_factory=Side)

    def add(self, other: Tally) -> None:
        self.units += other.units
        self.hands += other.hands
        self.dead += other.dead
        self.p1.add(other.p1)
        self.p2.add(other.p2)


# ---------------------------------------------------------------------------------------------
# Playing one pair
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Config:
    p1: str
    p2: str
    rules: Rules
    mode: str  # "games" or "hands"
    pairs: int
    seed: int


def play_pair(cfg: Config, index: int) -> Tally:
    """Play deal ``index`` twice, seats swapped, and count it."""
    t = Tally()
    for swap in (False, True):
        p1 = get_player(cfg.p1, seed=_derived(cfg.seed, index, "p1"))
        p2 = get_player(cfg.p2, seed=_derived(cfg.seed, index, "p2"))
        players = (p2, p1) if swap else (p1, p2)
        sides = (t.p2, t.p1) if swap else (t.p1, t.p2)
        clock = Clock()
        if cfg.mode == "hands":
            deck = list(range(52))
            random.Random(_derived(cfg.seed, index, "deck")).shuffle(deck)
            hand = new_hand(cfg.rules, index % 2, deck=deck)
            result = play_hand(hand, players, clock=clock)
            _count_hand(t, result, sides)
            if result.winner is not None:
                sides[result.winner].wins += 1
        else:
            match = Match(cfg.rules, seed=_derived(cfg.seed, index, "match"))
            play_game(match, players, clock=clock)
            for result in match.results:
                _count_hand(t, result, sides)
            final = match.final()
            for seat in (0, 1):
                sides[seat].total += final.totals[seat]
            if final.winner is not None:
                sides[final.winner].wins += 1
        t.units += 1
        _count_clock(clock, sides)
    return t


def _play_chunk(task: tuple[Config, list[int]]) -> Tally:
    cfg, indices = task
    t = Tally()
    for i in indices:
        t.add(play_pair(cfg, i))
    return t


def run_arena(cfg: Config, workers: int = 1, progress: Progress | None = None, backend: str = "local",
              address: str | None = None) -> Tally:
    """Play every pair of ``cfg`` on ``workers`` processes (or on Ray: ``backend="ray"``, the
    cluster at ``address`` or a new local one) and return the summed counts."""
    total = Tally()
    if backend == "ray":
        from .arena_ray import ray_session, run_tasks

        with ray_session(address) as cpus:
            size = max(1, min(50, cfg.pairs // (cpus * 8)))
            tasks = [(cfg, chunk) for chunk in chunks(cfg.pairs, size)]
            for part in run_tasks(_play_chunk, tasks, None if progress is None else
                                  lambda i: progress.update(2 * len(tasks[i][1]))):
                total.add(part)
        return total
    size = max(1, min(50, cfg.pairs // max(1, workers * 8)))
    tasks = [(cfg, chunk) for chunk in chunks(cfg.pairs, size)]
    if workers <= 1:
        for task in tasks:
            total.add(_play_chunk(task))
            if progress:
                progress.update(2 * len(task[1]))
        return total
    ctx = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")
    with ctx.Pool(workers) as pool:
        for part, task in zip(pool.imap(_play_chunk, tasks), tasks, strict=True):
            total.add(part)
            if progress:
                progress.update(2 * len(task[1]))
    return total


# ---------------------------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------------------------


def report(cfg: Config, t: Tally, elapsed: float, workers: int, backend: str = "local") -> dict[str, Any]:
    """Plain data of a run: what ``--json`` prints and what the text report reads."""
    decided = t.p1.wins + t.p2.wins
    lo, hi = wilson(t.p1.wins, decided)
    out: dict[str, Any] = {
        "p1": cfg.p1,
        "p2": cfg.p2,
        "rules": cfg.rules.to_json(),
        "mode": cfg.mode,
        "seed": cfg.seed,
        "pairs": cfg.pairs,
        cfg.mode: t.units,
        "hands_played": t.hands,
        "dead_hands": t.dead,
        "p1_wins": t.p1.wins,
        "p2_wins": t.p2.wins,
        "p1_win_rate": t.p1.wins / decided if decided else None,
        "p1_win_rate_ci95": [lo, hi],
        "p1_points_per_hand": (t.p1.points - t.p2.points) / t.hands if t.hands else 0.0,
        "seconds": elapsed,
        "workers": workers,
        "backend": backend,
        "players": {},
    }
    if cfg.mode == "games":
        out["p1_margin_per_game"] = (t.p1.total - t.p2.total) / t.units if t.units else 0.0
    for key, side in (("p1", t.p1), ("p2", t.p2)):
        d = asdict(side)
        d["name"] = cfg.p1 if key == "p1" else cfg.p2
        # Every knock it made short of gin, won or undercut ("knocks" counts only those it won).
        d["knocked"] = side.knocks + side.undercut_against
        d["us_per_decision"] = 1e6 * side.seconds / side.decisions if side.decisions else 0.0
        d["slowest_ms"] = 1e3 * side.slowest
        out["players"][key] = d
    return out


def format_report(r: dict[str, Any]) -> str:
    unit = r["mode"]
    n = r[unit]
    lo, hi = r["p1_win_rate_ci95"]
    rate = r["p1_win_rate"]
    rules = r["rules"]["preset"] + ("" if not r["rules"]["overrides"] else f" {r['rules']['overrides']}")
    lines = [
        f"{r['p1']} (p1) vs {r['p2']} (p2): {n} {unit} ({r['pairs']} seat-swapped pairs), rules {rules}, "
        f"seed {r['seed']}",
        f"p1 wins {r['p1_wins']}, p2 wins {r['p2_wins']}"
        + (f", dead hands {r['dead_hands']}" if unit == "hands" else ""),
        "p1 win rate " + ("-" if rate is None else f"{100 * rate:.1f}%") + f"  (95% Wilson {100 * lo:.1f}% .. {100 * hi:.1f}%)",
        f"p1 points per hand {r['p1_points_per_hand']:+.2f} over {r['hands_played']} hands"
        + (f"; final margin per game {r['p1_margin_per_game']:+.1f}" if unit == "games" else ""),
        "",
        f"{'':8s}{'player':>10s}{'knocked':>8s}{'won':>6s}{'gins':>6s}{'undercuts':>10s}{'undercut':>10s}"
        f"{'points':>9s}{'us/dec':>9s}{'max ms':>8s}",
    ]
    for key in ("p1", "p2"):
        p = r["players"][key]
        lines.append(
            f"{key:8s}{p['name']:>10s}{p['knocked']:8d}{p['knocks']:6d}{p['gins']:6d}{p['undercuts']:10d}"
            f"{p['undercut_against']:10d}"
            f"{p['points']:9d}{p['us_per_decision']:9.1f}{p['slowest_ms']:8.2f}"
        )
    lines.append(
        "knocked: knocks short of gin; won: of those, the ones it won; undercuts: opponent's knocks it "
        "undercut; undercut: its own knocks undercut"
    )
    lines.append(
        f"dead hands {r['dead_hands']} of {r['hands_played']}; {r['seconds']:.1f} s "
        + ("on Ray" if r.get("backend") == "ray" else f"on {r['workers']} worker(s)")
    )
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------------------------


def configure(p: argparse.ArgumentParser) -> None:
    names = ", ".join(PLAYERS)
    p.add_argument("--p1", choices=list(PLAYERS), metavar="P1", help=f"first player ({names})")
    p.add_argument("--p2", choices=list(PLAYERS), metavar="P2", help=f"second player ({names})")
    p.add_argument("--p3", choices=list(PLAYERS), metavar="P3", help="third player (three or four players)")
    p.add_argument("--p4", choices=list(PLAYERS), metavar="P4", help="fourth player (four players: p1 and p3 "
                   "against p2 and p4)")
    p.add_argument("--seats", metavar="A,B[,C[,D]]", help="the players in seat order, comma-separated, "
                   "instead of --p1 .. --p4")
    p.add_argument("--players", type=int, choices=(2, 3, 4), help="how many play (default: as many as are named)")
    unit = p.add_mutually_exclusive_group()
    unit.add_argument("--games", type=int, help="whole games to play (default 200; rounded up to pairs)")
    unit.add_argument("--hands", type=int, help="single hands to play instead of games (rounded up to pairs)")
    add_rule_options(p)
    p.add_argument("--seed", type=int, default=0, help="seed of every deal and player RNG (default 0)")
    p.add_argument("--workers", type=int, default=1, help="worker processes (default 1; the local backend)")
    p.add_argument("--backend", choices=["local", "ray"], default="local",
                   help="where the games run: local processes (default) or a Ray cluster (needs ginrummy[ray])")
    p.add_argument("--address", help="the Ray cluster to join (ray://host:10001 or host:6379; default: start Ray here)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="show a progress bar on stderr (default: when stderr is a terminal)")


def check(args: argparse.Namespace) -> None:
    """The rules as a whole, and the counts (a usage error before any game is played)."""
    rules_from_args(args)
    seats = seat_players(args)
    if len(seats) > 2 and args.hands is not None:
        raise ValueError(f"--hands plays single two-player hands; {len(seats)} players play whole games (--games)")
    if args.address is not None and args.backend != "ray":
        raise ValueError("--address is the Ray cluster's: use it with --backend ray")
    if args.backend == "ray":
        import importlib.util

        if importlib.util.find_spec("ray") is None:
            raise ValueError("--backend ray needs Ray: pip install 'ginrummy[ray]'")
    for option in ("games", "hands", "workers"):
        value = getattr(args, option)
        if value is not None and value < 1:
            raise ValueError(f"--{option} must be at least 1, not {value}")


def seat_players(args: argparse.Namespace) -> list[str]:
    """The players in seat order, from ``--seats`` or ``--p1`` .. ``--p4``, checked against ``--players``."""
    named = [getattr(args, f"p{k}") for k in range(1, 5)]
    if args.seats is not None:
        if any(named):
            raise ValueError("give the players either with --seats or with --p1 .. --p4, not both")
        seats = [s.strip() for s in args.seats.split(",")]
        for s in seats:
            if s not in PLAYERS:
                raise ValueError(f"--seats: unknown player {s[:40]!r}: choose from {', '.join(PLAYERS)}")
    else:
        while named and named[-1] is None:
            named.pop()
        if None in named:
            missing = ", ".join(f"--p{k + 1}" for k, s in enumerate(named) if s is None)
            raise ValueError(f"players are named in seat order: {missing} missing")
        seats = list(named)
    if len(seats) > 4:
        raise ValueError(f"a game has two, three or four players, not {len(seats)}")
    n = args.players if args.players is not None else max(2, len(seats))
    if len(seats) != n:
        raise ValueError(
            f"{n} players play, but {len(seats)} {'is' if len(seats) == 1 else 'are'} named "
            f"(name them with --p1 .. --p{n} or --seats)"
        )
    return seats


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    seats = seat_players(args)
    if len(seats) > 2:
        return run_seated_command(seats, rules, args.games if args.games is not None else 200, args.seed,
                                  args.workers, as_json=args.json, progress=args.progress,
                                  backend=args.backend, address=args.address)
    mode = "hands" if args.hands is not None else "games"
    count = args.hands if args.hands is not None else (args.games if args.games is not None else 200)
    cfg = Config(seats[0], seats[1], rules, mode, (count + 1) // 2, args.seed)
    progress = Progress(2 * cfg.pairs, mode, enabled=args.progress)
    t0 = time.perf_counter()
    tally = run_arena(cfg, args.workers, progress, backend=args.backend, address=args.address)
    progress.close()
    r = report(cfg, tally, time.perf_counter() - t0, args.workers, backend=args.backend)
    print(json.dumps(r) if args.json else format_report(r))
    return 0


__all__ = ["Config", "Progress", "Side", "Tally", "play_pair", "report", "run_arena", "wilson"]
