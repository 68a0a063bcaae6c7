"""Load on several instances: two ``ginrummy serve`` instances on PostgreSQL behind nginx, next to
one instance on SQLite, measured in the same run with the same simulated people (bench/load.py).

Each configuration is ramped through ``--steps`` concurrent games vs the computer, every person
acting every ``--interval`` seconds (2 s), until a step breaks the bounds (p99 action ->
acknowledged state < 100 ms, p99 action -> the computer's reply < 250 ms); the most games that
held is that configuration's figure, and the run prints the ratio (the goal: two instances hold
at least 1.6x the games of one).

Loopback only and bounded (at most 2000 games a step, 300 s a step, 12 steps). The PostgreSQL
server is the tests' (tests/pg_server.py: a fresh data directory, a free port, ``fsync=off``, as
SQLite's WAL ``synchronous=NORMAL`` does not sync each commit either); the proxy is
deploy/nginx-ginrummy.conf run by tests/proxy.py. Computer delay 0, so the figures measure the
servers. On a 2-core machine the load generator, nginx, PostgreSQL, both instances and their
computer workers share the same two cores: read the ratio with that in mind, or give each
instance a budget of its own (``--instance-cpu``). Every core is kept out of its idle states by
an idle-priority spinner while measuring (:class:`Awake`; ``--no-awake`` leaves them be).

    python bench/cluster.py --steps 300,350,400,450,500,550,600,650,700,800 --duration 30 --instance-cpu 0.25
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))

import load  # noqa: E402
import pg_server  # noqa: E402
from instances import Instance, free_port, wait_port  # noqa: E402
from proxy import remove, start_proxy  # noqa: E402

MAX_STEPS = 12
MAX_STEP_SECONDS = 300


class Awake:
    """Keeps every core out of its idle states while measuring: a spinning process pinned to each
    core at ``SCHED_IDLE``, which runs only when nothing else wants the core.

    A core that idles between requests charges each wake-up (leaving the idle state, cold caches)
    to the process that wakes, so a lightly loaded instance (each of two within a quota always is)
    pays more CPU per action than a busy one for the same work. A server near its capacity never
    idles, and with the spinners neither configuration does (figures: bench/README.md, cluster
    section). The spinners' own CPU is left out of every figure."""

    CODE = ("import os, sys\nos.sched_setaffinity(0, {int(sys.argv[1])})\n"
            "os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))\nwhile True:\n    pass\n")

    def __init__(self) -> None:
        import subprocess

        self.procs = [subprocess.Popen([sys.executable, "-c", self.CODE, str(cpu)]) for cpu in sorted(os.sched_getaffinity(0))]

    def cpu(self) -> float:
        return _tree_cpu([p.pid for p in self.procs])

    def stop(self) -> None:
        for p in self.procs:
            p.kill()
            p.wait()


class CpuBudget:
    """A CPU budget for one instance (with its computer workers), as a machine of its own would give
    it: a cgroup with a CFS quota of ``cores`` (cgroup v1's cpu controller, or v2's cpu.max), in
    short periods so a spent budget stalls the instance for milliseconds, not a tenth of a second.
    Needs root; removed by :meth:`remove`."""

    PERIOD_US = 10_000

    def __init__(self, name: str, cores: float) -> None:
        quota = max(1000, int(cores * self.PERIOD_US))
        v1, v2 = Path("/sys/fs/cgroup/cpu"), Path("/sys/fs/cgroup")
        if (v1 / "cpu.cfs_quota_us").exists():
            self.path = v1 / name
            self.path.mkdir(exist_ok=True)
            (self.path / "cpu.cfs_period_us").write_text(str(self.PERIOD_US))
            (self.path / "cpu.cfs_quota_us").write_text(str(quota))
        elif "cpu" in (v2 / "cgroup.controllers").read_text().split():
            (v2 / "cgroup.subtree_control").write_text("+cpu")
            self.path = v2 / name
            self.path.mkdir(exist_ok=True)
            (self.path / "cpu.max").write_text(f"{quota} {self.PERIOD_US}")
        else:
            raise SystemExit("--instance-cpu needs the cgroup cpu controller (v1 or v2), as root")

    def join(self) -> None:
        """Put the calling process (and so everything it starts) in the budget: a ``preexec_fn``."""
        (self.path / "cgroup.procs").write_text(str(os.getpid()))

    def remove(self) -> None:
        try:
            self.path.rmdir()
        except OSError:
            pass


def start(db: str, workers: int, log_dir: Path, name: str, budget: CpuBudget | None = None) -> Instance:
    """An instance like ``load.py``'s: process workers, computer delay 0, warnings only; within
    ``budget`` when one is given."""
    import subprocess

    port = free_port()
    log = log_dir / f"{name}.log"
    cmd = [sys.executable, "-m", "ginrummy", "serve", "--host", "127.0.0.1", "--port", str(port), "--db", db,
           "--computer-delay", "0", "--compute", "process", "--workers", str(workers)]
    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
                                preexec_fn=budget.join if budget else None)
    wait_port(port, proc)
    return Instance(port, proc, log)


def _tree_cpu(roots: list[int]) -> float:
    """CPU seconds used so far by these processes and every descendant still running (/proc)."""
    tick = os.sysconf("SC_CLK_TCK")
    parent: dict[int, int] = {}
    used: dict[int, float] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            stat = Path(f"/proc/{name}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        parent[int(name)] = int(fields[1])
        used[int(name)] = (int(fields[11]) + int(fields[12]) + int(fields[13]) + int(fields[14])) / tick
    total, todo, seen = 0.0, list(roots), set()
    while todo:
        pid = todo.pop()
        if pid in seen or pid not in used:
            continue
        seen.add(pid)
        total += used[pid]
        todo.extend(c for c, p in parent.items() if p == pid)
    return total


def _machine_busy() -> float:
    """CPU seconds every core of the machine has been busy so far (/proc/stat)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
    idle = fields[3] + fields[4]
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def ramp(label: str, base: str, steps: list[int], args: argparse.Namespace, parts: dict[str, list[int]],
         awake: Awake | None = None) -> int:
    """Run each step until one breaks the bounds; returns the most games that held (0: none).

    Each step also says the CPU each part of the servers used (``parts``: the instances, the proxy,
    the database, each with its children) per person's action, and how busy the whole machine
    was: on a shared machine a step can fail for want of a core, which the CPU figures show."""
    best = 0
    if args.warmup:  # not counted: the first games pay for imports, tables and the database's caches
        asyncio.run(load.run(base, min(steps[0], 100), args.opponent, args.interval, args.warmup, args.seed + 1))
    for n in steps:
        t0, busy0, own0 = time.monotonic(), _machine_busy(), time.process_time()
        spin0 = awake.cpu() if awake else 0.0
        cpu0 = {k: _tree_cpu(pids) for k, pids in parts.items()}
        stats = asyncio.run(load.run(base, n, args.opponent, args.interval, args.duration, args.seed))
        elapsed = time.monotonic() - t0
        busy, own = _machine_busy() - busy0, time.process_time() - own0
        busy -= (awake.cpu() - spin0) if awake else 0.0
        cpu = {k: _tree_cpu(pids) - cpu0[k] for k, pids in parts.items()}
        ack, reply = load.pct(stats.ack, 99) * 1000, load.pct(stats.reply, 99) * 1000
        hold = ack < 100 and reply < 250 and stats.errors == 0 and stats.disconnects == 0
        per = ", ".join(f"{k} {1000 * v / max(stats.actions, 1):.2f}" for k, v in cpu.items())
        print(f"{label:26s} {n:5d} games  {stats.actions / elapsed:5.0f} actions/s  ack p50 "
              f"{load.pct(stats.ack, 50) * 1000:6.1f} p99 {ack:6.1f} ms  reply p50 {load.pct(stats.reply, 50) * 1000:6.1f} "
              f"p99 {reply:6.1f} ms  errors {stats.errors} disconnects {stats.disconnects}  "
              f"servers {sum(cpu.values()) / elapsed:4.2f} cores (ms a person's action: {per}), "
              f"load generator {own / elapsed:4.2f}, machine {busy / elapsed:4.2f} of {os.cpu_count()}  "
              f"{'hold' if hold else 'EXCEEDED'}",
              flush=True)
        if not hold:
            break
        best = n
    return best


def _postmaster(pg: pg_server.PgServer) -> list[int]:
    """The database server's main process (its first line of ``postmaster.pid``)."""
    try:
        return [int((pg.root / "data" / "postmaster.pid").read_text().split()[0])]
    except (OSError, ValueError, IndexError):
        return []


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", default="50,100,150,200,250,300", help="concurrent games to try, rising")
    ap.add_argument("--opponent", default="simple")
    ap.add_argument("--interval", type=float, default=2.0, help="seconds between a person's actions (default 2)")
    ap.add_argument("--duration", type=float, default=30.0, help=f"seconds a step (max {MAX_STEP_SECONDS})")
    ap.add_argument("--workers", type=int, default=1, help="computer worker processes per instance (default 1)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--warmup", type=float, default=10.0, help="seconds of play first, not counted (default 10)")
    ap.add_argument("--instance-cpu", type=float, default=None, metavar="CORES",
                    help="give each instance (with its workers) this many cores at most, as a machine of its own "
                         "would (a cgroup CPU quota; root): the app tier is then what runs out, as when each "
                         "instance has a machine, instead of the cores the load generator and database share")
    ap.add_argument("--awake", action=argparse.BooleanOptionalAction, default=True,
                    help="keep every core out of its idle states with idle-priority spinners, as a busy machine "
                         "is (default; see Awake)")
    ap.add_argument("--only", choices=("sqlite", "postgresql"), default=None,
                    help="measure one configuration only (comparing two versions of the code; no ratio)")
    args = ap.parse_args()
    steps = [int(s) for s in args.steps.split(",")]
    if not 1 <= len(steps) <= MAX_STEPS or not all(1 <= s <= load.MAX_GAMES for s in steps):
        raise SystemExit(f"bounded: 1..{MAX_STEPS} steps of 1..{load.MAX_GAMES} games")
    if not 0 <= args.warmup <= MAX_STEP_SECONDS:
        raise SystemExit(f"bounded: 0..{MAX_STEP_SECONDS} seconds of warm-up")
    if not 1 <= args.duration <= MAX_STEP_SECONDS:
        raise SystemExit(f"bounded: 1..{MAX_STEP_SECONDS} seconds a step")
    tmp = Path(tempfile.mkdtemp(prefix="ginrummy-cluster-bench-"))
    print(f"{os.cpu_count()} CPUs, {args.opponent}, a person acts every {args.interval:g} s, {args.duration:g} s a step, "
          f"{args.workers} computer worker(s) per instance", flush=True)

    cores = args.instance_cpu
    if cores is not None and not 0.05 <= cores <= (os.cpu_count() or 1):
        raise SystemExit(f"--instance-cpu: 0.05..{os.cpu_count()} cores")
    budgets = [CpuBudget(f"ginrummy-bench-{os.getpid()}-{i}", cores) for i in range(2)] if cores else [None, None]
    if cores:
        print(f"each instance within {cores:g} cores (cgroup quota)", flush=True)
    awake = Awake() if args.awake else None
    if awake:
        print("every core kept awake by an idle-priority spinner (its CPU left out)", flush=True)
    best_one = best_two = 0
    try:
        if args.only != "postgresql":
            one = start(str(tmp / "one.sqlite3"), args.workers, tmp, "sqlite", budgets[0])
            try:
                best_one = ramp("1 instance, SQLite", one.base, steps, args, {"instance": [one.proc.pid]}, awake)
            finally:
                one.stop()
        if args.only == "sqlite":
            return
        pg = pg_server.start()
        instances: list[Instance] = []
        proxy = None
        try:
            db = pg.fresh_url()
            instances = [start(db, args.workers, tmp, f"pg{i}", budgets[i]) for i in (0, 1)]
            proxy = start_proxy([i.port for i in instances], tmp / "nginx")
            wait_port(proxy.port)
            parts = {"instances": [i.proc.pid for i in instances], "nginx": [proxy.proc.pid], "postgres": _postmaster(pg)}
            best_two = ramp("2 instances, PG, nginx", proxy.base, steps, args, parts, awake)
        finally:
            if proxy is not None:
                remove(proxy)
            for i in instances:
                i.stop()
            pg.stop()
    finally:
        if awake:
            awake.stop()
        for b in budgets:
            if b is not None:
                b.remove()
    if args.only:
        return
    ratio = best_two / best_one if best_one else float("nan")
    within = f" (each instance within {cores:g} cores)" if cores else ""
    print(f"most games holding the bounds{within}: 1 instance on SQLite {best_one}, 2 instances on PostgreSQL "
          f"behind nginx {best_two}: {ratio:.2f}x (goal 1.6x)")


if __name__ == "__main__":
    main()
