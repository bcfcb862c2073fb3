"""Measures what the clock sweeper costs while nothing is due: CPU per hour with 1,000 idle running clocks.

Usage (from the project root, PostgreSQL on 127.0.0.1:5432 and Redis on 127.0.0.1:6379)::

    .venv/bin/python benchmarks/clock_idle_cpu.py [--games 1000] [--seconds 60] [--before DIR]

It creates a scratch database ``draughts_bench_clock_idle`` (dropped and made anew), migrates
it, and creates the games through the services, each with a per-move clock of an hour started
with the ``clock_start`` ruling (so 1,000 clocks run and none falls due). Then, one after the
other, it starts one real Celery worker process (prefork, concurrency 1, as in the tests) and
reads from /proc the CPU time (user + system) used over ``--seconds`` by the worker's processes
and by the PostgreSQL backends serving it, after 5 s of warm-up:

- this checkout's worker with its sweeper;
- the same worker with its sweeper off (``CLOCK_SWEEPER_ENABLED=false``): the rest of an idle
  worker (its heartbeat, the broker's polling), so that the sweeper's own share is the difference;
- with ``--before DIR``, the worker of another checkout (e.g. ``git archive main``) on the same
  database, with its sweeper.

Figures are CPU seconds per hour of wall time.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from _scratch import processes, scratch_django  # noqa: E402

BENCH_DB = "draughts_bench_clock_idle"


def cpu_of(worker_pgid: int, exclude_pid: int) -> tuple[float, float]:
    """Returns the CPU seconds used so far by the worker's process group and by the database's
    backends on the scratch database (all but the benchmark's own)."""
    worker = database = 0.0
    for pid, comm, pgid, cpu, title in processes():
        if pgid == worker_pgid:
            worker += cpu
        elif comm.startswith("postgres") and f" {BENCH_DB} " in title and pid != exclude_pid:
            database += cpu
    return worker, database


def measure(label: str, env: dict[str, str], cwd: Path, seconds: float, own_backend: int) -> None:
    from tests.support.celery_worker import WorkerProcess

    logs = ROOT / "var" / "bench"
    logs.mkdir(parents=True, exist_ok=True)
    worker = WorkerProcess(env=env, cwd=cwd, log_path=logs / "clock-idle-worker.log").start()
    try:
        time.sleep(5)
        pgid = worker.process.pid
        w0, d0 = cpu_of(pgid, own_backend)
        t0 = time.monotonic()
        time.sleep(seconds)
        w1, d1 = cpu_of(pgid, own_backend)
        wall = time.monotonic() - t0
    finally:
        worker.stop(timeout=10)
    per_hour = 3600 / wall
    print(f"{label:<34} {(w1 - w0) * per_hour:>10.1f} {(d1 - d0) * per_hour:>10.1f} "
          f"{(w1 - w0 + d1 - d0) * per_hour:>10.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--before", type=Path, help="another checkout whose worker to measure on the same database")
    parser.add_argument("--admin-url", default="postgresql://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--broker", default="redis://127.0.0.1:6379/14")
    args = parser.parse_args()

    env = scratch_django(BENCH_DB, admin_url=args.admin_url, broker=args.broker, CLOCK_SWEEPER_ENABLED="true")

    from django.db import connection

    from accounts.services import user_create_with_role
    from arbitration.models import GameClock
    from arbitration.services import game_create, ruling_issue
    from players.models import Player

    director = user_create_with_role(username="bench-director", password="bench-only-password-x1", role="director")
    players = Player.objects.bulk_create(Player(name=f"Idle clock {i:04d}") for i in range(2 * args.games))
    clock = {"control": "per-move", "move_seconds": 3600, "sole_capture_seconds": 3600, "grace_seconds": 60}
    t0 = time.time()
    for i in range(args.games):
        game = game_create(acting_user=director, black=players[2 * i], white=players[2 * i + 1], clock=clock)
        ruling_issue(acting_user=director, game_id=game.pk, kind="clock_start")
    setup = time.time() - t0
    running = GameClock.objects.filter(deadline__isnull=False).count()
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")  # as autovacuum would have by now on a live database
        cursor.execute("SELECT pg_backend_pid()")
        own_backend = cursor.fetchone()[0]

    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"PostgreSQL and Redis on 127.0.0.1")
    print(f"{running} running clocks, none due for an hour (set up in {setup:.1f} s); one worker "
          f"(prefork, concurrency 1) at a time, {args.seconds:g} s each")
    print(f"{'CPU seconds per hour':<34} {'worker':>10} {'database':>10} {'total':>10}")
    measure("this checkout, sweeper on", env, ROOT, args.seconds, own_backend)
    measure("this checkout, sweeper off", {**env, "CLOCK_SWEEPER_ENABLED": "false"}, ROOT, args.seconds,
            own_backend)
    if args.before:
        measure(f"{args.before}, sweeper on", env, args.before.resolve(), args.seconds, own_backend)


if __name__ == "__main__":
    main()
