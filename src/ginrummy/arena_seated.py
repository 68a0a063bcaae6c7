"""``ginrummy arena --players 3|4``: computer players in three-player and four-player team games.

    ginrummy arena --players 3 --seats greedy,simple,easy --games 300 --seed 1
    ginrummy arena --p1 expert --p2 simple --p3 expert --p4 simple --games 200 --json

Why it is built this way (as the two-player arena, :mod:`ginrummy.arena`):

- **Every player in every seat, on identical deals.** A *group* is ``n`` games with the same
  game seed (so the same first dealer and, hand by hand, the same decks), the players moved one
  seat on each time: player ``k`` sits at seat ``(k + r) % n`` in game ``r``. Each player gets
  every seat's cards and the luck of the deal largely cancels. With four players partners stay
  partners (p1 with p3 against p2 with p4); the rotation only swaps which team holds which
  seats. ``--games`` is rounded up to whole groups.
- **Reproducible from the seed.** Deals and every player's RNG come from ``--seed`` and the
  group's index, never from the worker that plays it: the counts are the same on any number of
  workers and on ``--backend ray`` (:mod:`ginrummy.arena_ray`, a local instance or ``--address``).
- **Per player, and per team.** Games won (by the player, or by its team) with Wilson's 95%
  interval, final totals per game, and each player's own hands: how many it played (a
  three-player hand's dealer sits out), won, the points it scored, its knocks, gins and
  undercuts, and its decision times.
- Each hand is the engine's two-player hand played by :func:`ginrummy.players.driver.play_hand`,
  so players only ever see their own :class:`~ginrummy.observation.SeatView`.
"""

from __future__ import annotations

import json
import multiprocessing
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from functools import partial
from typing import Any

from .arena_common import Progress, Side, chunks, count_clock, count_hand, derived, wilson
from .dealing import Pairing
from .game import Game
from .players import get_player
from .players.base import Player
from .players.driver import Clock, play_hand
from .rules import Rules
from .scoring import HandResult

#: Called after each hand with (its pairing, its result in hand seats, the hand's decision clock).
HandHook = Callable[[Pairing, HandResult, Clock], None]


def play_seated_game(game: Game, players: Sequence[Player], on_hand: HandHook, *, max_deals: int = 1000) -> None:
    """Play a :class:`~ginrummy.game.Game` to its end; ``players[seat]`` plays game seat ``seat``.

    Each table's hand is played out in turn (with four players: table 1, then table 2; they are
    independent). ``max_deals`` guards against players that never end a game.
    """
    deals = 0
    while not game.is_over:
        if deals >= max_deals:
            raise RuntimeError(f"the game did not end within {max_deals} deals")
        game.deal()
        for t, (h, p) in enumerate(zip(game.tables, game.current_pairings, strict=True)):
            clock = Clock()
            result = play_hand(
                h, [players[s] for s in p.seats], scores=game.hand_scores(t), apply=partial(game.apply, table=t),
                clock=clock,
            )
            on_hand(p, result, clock)
        deals += 1


# ---------------------------------------------------------------------------------------------
# Tallies
# ---------------------------------------------------------------------------------------------


@dataclass
class SeatedSide(Side):
    """One player's counts over the run: :class:`~ginrummy.arena_common.Side`'s, plus its hands.

    ``wins`` and ``total`` are its column's: its own with three players, its team's with four.
    """

    hands_played: int = 0
    hands_won: int = 0
    sat_out: int = 0

    def add(self, other: Side) -> None:
        super().add(other)
        assert isinstance(other, SeatedSide)
        self.hands_played += other.hands_played
        self.hands_won += other.hands_won
        self.sat_out += other.sat_out


@dataclass
class SeatedTally:
    """Counts of a run, summed over groups (the order workers finish in does not matter)."""

    players: int
    units: int = 0
    hands: int = 0
    dead: int = 0
    ties: int = 0
    sides: list[SeatedSide] = field(default_factory=list)
    #: Four players: games won and final totals of the teams p1+p3 and p2+p4.
    team_wins: list[int] = field(default_factory=lambda: [0, 0])
    team_total: list[int] = field(default_factory=lambda: [0, 0])

    def __post_init__(self) -> None:
        if not self.sides:
            self.sides = [SeatedSide() for _ in range(self.players)]

    def add(self, other: SeatedTally) -> None:
        self.units += other.units
        self.hands += other.hands
        self.dead += other.dead
        self.ties += other.ties
        for mine, theirs in zip(self.sides, other.sides, strict=True):
            mine.add(theirs)
        for i in (0, 1):
            self.team_wins[i] += other.team_wins[i]
            self.team_total[i] += other.team_total[i]


@dataclass(frozen=True)
class SeatedConfig:
    players: tuple[str, ...]  # built-in players, p1 first
    rules: Rules
    groups: int
    seed: int


def _hand_counter(t: SeatedTally, who: Sequence[int]) -> HandHook:
    """Count each hand for the players who played it (``who[seat]``: the player at that seat)."""

    def on_hand(p: Pairing, result: HandResult, clock: Clock) -> None:
        sides = [t.sides[who[p.seats[0]]], t.sides[who[p.seats[1]]]]
        count_hand(t, result, sides)
        count_clock(clock, sides)
        for s in sides:
            s.hands_played += 1
        if result.winner is not None:
            sides[result.winner].hands_won += 1
        if p.sits_out is not None:
            t.sides[who[p.sits_out]].sat_out += 1

    return on_hand


def seating(n: int, r: int) -> list[int]:
    """Game ``r`` of a group: the seat of each player (player ``k`` at seat ``(k + r) % n``).

    >>> [seating(3, r) for r in range(3)]
    [[0, 1, 2], [1, 2, 0], [2, 0, 1]]
    """
    return [(k + r) % n for k in range(n)]


def play_group(cfg: SeatedConfig, index: int) -> SeatedTally:
    """Play group ``index``: one game per rotation of the players through the seats."""
    n = len(cfg.players)
    t = SeatedTally(n)
    for r in range(n):
        players = [get_player(name, seed=derived(cfg.seed, index, f"p{k + 1}")) for k, name in enumerate(cfg.players)]
        seat_of = seating(n, r)
        who = [0] * n  # who[seat]: the player index at that seat
        for k, s in enumerate(seat_of):
            who[s] = k
        game = Game(cfg.rules, players=[f"p{who[s] + 1}" for s in range(n)], seed=derived(cfg.seed, index, "match"))

        play_seated_game(game, [players[who[s]] for s in range(n)], _hand_counter(t, who))
        final = game.final()
        t.units += 1
        if final.winner is None:
            t.ties += 1
        for k in range(n):
            column = game.column(seat_of[k])
            t.sides[k].total += final.totals[column]
            if final.winner == column:
                t.sides[k].wins += 1
        if n == 4:
            for team in (0, 1):  # the team of players p1+p3 (0) or p2+p4 (1)
                column = game.column(seat_of[team])
                t.team_total[team] += final.totals[column]
                t.team_wins[team] += int(final.winner == column)
    return t


def _play_chunk(task: tuple[SeatedConfig, list[int]]) -> SeatedTally:
    cfg, indices = task
    t = SeatedTally(len(cfg.players))
    for i in indices:
        t.add(play_group(cfg, i))
    return t


def run_seated(cfg: SeatedConfig, workers: int = 1, progress: Progress | None = None, backend: str = "local",
               address: str | None = None) -> SeatedTally:
    """Play every group of ``cfg`` on ``workers`` processes (or on Ray: ``backend="ray"``, the
    cluster at ``address`` or a new local one) and return the summed counts.

    The counts are the same on every backend and worker count: each group is played from the
    seed and its index alone, and the chunks' tallies are summed (a sum of whole numbers, in any
    order; the decision timings aside)."""
    n = len(cfg.players)
    total = SeatedTally(n)
    if backend == "ray":
        from .arena_ray import ray_session, run_tasks

        with ray_session(address) as cpus:
            size = max(1, min(20, cfg.groups // (cpus * 8)))
            tasks = [(cfg, chunk) for chunk in chunks(cfg.groups, size)]
            for part in run_tasks(_play_chunk, tasks, None if progress is None else
                                  lambda i: progress.update(n * len(tasks[i][1]))):
                total.add(part)
        return total
    size = max(1, min(20, cfg.groups // max(1, workers * 8)))
    tasks = [(cfg, chunk) for chunk in chunks(cfg.groups, size)]
    if workers <= 1:
        parts: Iterator[SeatedTally] = map(_play_chunk, tasks)
        for part, task in zip(parts, tasks, strict=True):
            total.add(part)
            if progress:
                progress.update(n * len(task[1]))
        return total
    ctx = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")
    with ctx.Pool(workers) as pool:
        for part, task in zip(pool.imap(_play_chunk, tasks), tasks, strict=True):
            total.add(part)
            if progress:
                progress.update(n * len(task[1]))
    return total


# ---------------------------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------------------------


def _rate(wins: int, n: int) -> dict[str, Any]:
    lo, hi = wilson(wins, n)
    return {"win_rate": wins / n if n else None, "win_rate_ci95": [lo, hi]}


def seated_report(cfg: SeatedConfig, t: SeatedTally, elapsed: float, workers: int,
                  backend: str = "local") -> dict[str, Any]:
    """Plain data of a run: what ``--json`` prints and what the text report reads."""
    n = len(cfg.players)
    out: dict[str, Any] = {
        "players": n,
        "seats": {f"p{k + 1}": name for k, name in enumerate(cfg.players)},
        "rules": cfg.rules.to_json(),
        "mode": "games",
        "seed": cfg.seed,
        "groups": cfg.groups,
        "games": t.units,
        "hands_played": t.hands,
        "dead_hands": t.dead,
        "ties": t.ties,
        "seconds": elapsed,
        "workers": workers,
        "backend": backend,
        "results": {},
    }
    for k, side in enumerate(t.sides):
        d: dict[str, Any] = {"name": cfg.players[k], **asdict(side), **_rate(side.wins, t.units)}
        d["total_per_game"] = side.total / t.units if t.units else 0.0
        d["points_per_hand"] = side.points / side.hands_played if side.hands_played else 0.0
        d["knocked"] = side.knocks + side.undercut_against
        d["us_per_decision"] = 1e6 * side.seconds / side.decisions if side.decisions else 0.0
        d["slowest_ms"] = 1e3 * side.slowest
        out["results"][f"p{k + 1}"] = d
    if n == 4:
        teams = {}
        for team, (a, b) in enumerate(((0, 2), (1, 3))):
            teams[f"p{a + 1}+p{b + 1}"] = {
                "players": [f"p{a + 1}", f"p{b + 1}"],
                "names": [cfg.players[a], cfg.players[b]],
                "wins": t.team_wins[team],
                **_rate(t.team_wins[team], t.units),
                "total": t.team_total[team],
                "total_per_game": t.team_total[team] / t.units if t.units else 0.0,
                "points": t.sides[a].points + t.sides[b].points,
            }
        out["teams"] = teams
        out["p1p3_margin_per_game"] = (t.team_total[0] - t.team_total[1]) / t.units if t.units else 0.0
    return out


def _pct(rate: float | None) -> str:
    return "-" if rate is None else f"{100 * rate:5.1f}%"


def format_seated_report(r: dict[str, Any]) -> str:
    rules = r["rules"]["preset"] + ("" if not r["rules"]["overrides"] else f" {r['rules']['overrides']}")
    who = ", ".join(f"{name} ({key})" for key, name in r["seats"].items())
    kind = "three-player games" if r["players"] == 3 else "four-player team games"
    lines = [
        f"{who}: {r['games']} {kind} ({r['groups']} groups, each player in each seat), rules {rules}, "
        f"seed {r['seed']}",
    ]
    for key, team in r.get("teams", {}).items():
        lo, hi = team["win_rate_ci95"]
        lines.append(
            f"team {key} ({' and '.join(team['names'])}): wins {team['wins']} of {r['games']}, "
            f"{_pct(team['win_rate']).strip()} (95% Wilson {100 * lo:.1f}% .. {100 * hi:.1f}%), "
            f"final total per game {team['total_per_game']:.1f}"
        )
    three = r["players"] == 3
    lines += [
        "",
        f"{'':4s}{'player':>8s}{'wins':>6s}{'rate':>8s}{'95% Wilson':>16s}{'total/g':>9s}{'hands':>7s}"
        + (f"{'out':>6s}" if three else "")
        + f"{'won':>6s}{'pts/hand':>9s}{'knocked':>8s}{'gins':>6s}{'undercuts':>10s}{'us/dec':>9s}",
    ]
    for key, p in r["results"].items():
        lo, hi = p["win_rate_ci95"]
        lines.append(
            f"{key:4s}{p['name']:>8s}{p['wins']:6d}{_pct(p['win_rate']):>8s}{f'{100 * lo:.1f}..{100 * hi:.1f}%':>16s}"
            f"{p['total_per_game']:9.1f}{p['hands_played']:7d}" + (f"{p['sat_out']:6d}" if three else "")
            + f"{p['hands_won']:6d}{p['points_per_hand']:9.2f}{p['knocked']:8d}{p['gins']:6d}{p['undercuts']:10d}"
            f"{p['us_per_decision']:9.1f}"
        )
    lines.append(
        ("wins: games won; hands: hands it played; out: hands it sat out as dealer" if three
         else "wins: games won by the player's team; hands: hands it played")
        + "; won: hands it won; pts/hand: points it scored per hand played"
    )
    lines.append(
        f"dead hands {r['dead_hands']} of {r['hands_played']}"
        + (f"; tied games {r['ties']}" if r["ties"] else "")
        + f"; {r['seconds']:.1f} s "
        + ("on Ray" if r.get("backend") == "ray" else f"on {r['workers']} worker(s)")
    )
    return "\n".join(lines)


def run_seated_command(
    players: Sequence[str], rules: Rules, games: int, seed: int, workers: int, *, as_json: bool,
    progress: bool | None, backend: str = "local", address: str | None = None,
) -> int:
    """What ``ginrummy arena`` does with three or four players."""
    n = len(players)
    cfg = SeatedConfig(tuple(players), rules, (games + n - 1) // n, seed)
    bar = Progress(n * cfg.groups, "games", enabled=progress)
    t0 = time.perf_counter()
    tally = run_seated(cfg, workers, bar, backend=backend, address=address)
    bar.close()
    r = seated_report(cfg, tally, time.perf_counter() - t0, workers, backend=backend)
    print(json.dumps(r) if as_json else format_seated_report(r))
    return 0


__all__ = [
    "SeatedConfig",
    "SeatedSide",
    "SeatedTally",
    "format_seated_report",
    "play_group",
    "play_seated_game",
    "run_seated",
    "run_seated_command",
    "seated_report",
    "seating",
]
