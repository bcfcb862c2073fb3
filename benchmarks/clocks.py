"""Measures the clocks' enforcement: 1,000 live games, two workers, one killed with SIGKILL halfway.

Usage (from the project root, PostgreSQL on 127.0.0.1:5432 and Redis on 127.0.0.1:6379)::

    .venv/bin/python benchmarks/clocks.py [--games 1000] [--spread 60] [--lead 30] [--grace 5]

It creates a scratch database ``draughts_bench_clocks`` (dropped and made anew), migrates it,
and starts two real Celery worker processes on it (the real Redis as the broker), each running
its clock sweeper. It then creates the games through the services and starts each game's
per-move clock with the ``clock_start`` ruling, the limits chosen so that the time calls fall
evenly over ``--spread`` seconds after a ``--lead`` (and each loss by delay ``--grace`` seconds
after its time call). When half the time calls are due, one worker is killed with SIGKILL.

Every time call and every loss is written by a worker with the database's time and its
lateness (``late_ms``: the database's clock when the worker acted, less the deadline). The
script prints the lateness p50/p95/p99/max of all of them, and counts the games lost (not
adjudicated, or without their time call) and doubled (two time calls or two ends).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from _scratch import scratch_django  # noqa: E402

BENCH_DB = "draughts_bench_clocks"



def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--spread", type=float, default=60.0, help="seconds over which the time calls fall")
    parser.add_argument("--lead", type=float, default=30.0, help="seconds before the first time call")
    parser.add_argument("--grace", type=float, default=5.0, help="seconds from a time call to the loss")
    parser.add_argument("--admin-url", default="postgresql://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--broker", default="redis://127.0.0.1:6379/14")
    args = parser.parse_args()

    env = scratch_django(BENCH_DB, admin_url=args.admin_url, broker=args.broker, CLOCK_SWEEPER_ENABLED="true")

    from accounts.services import user_create_with_role
    from arbitration.models import LogEntry
    from arbitration.services import game_create, ruling_issue
    from games.models import Game
    from players.models import Player
    from tests.support.celery_worker import WorkerProcess

    logs = ROOT / "var" / "bench"
    logs.mkdir(parents=True, exist_ok=True)
    workers = [WorkerProcess(env=env, log_path=logs / f"clocks-worker{n}.log").start() for n in (1, 2)]
    try:
        director = user_create_with_role(username="bench-director", password="bench-only-password-x1",
                                         role="director")
        players = Player.objects.bulk_create(Player(name=f"Clock bench {i:04d}") for i in range(2 * args.games))
        t0 = time.time()
        game_ids = []
        for i in range(args.games):
            limit = args.lead + args.spread * i / args.games
            clock = {"control": "per-move", "move_seconds": limit, "sole_capture_seconds": limit,
                     "grace_seconds": args.grace}
            game = game_create(acting_user=director, black=players[2 * i], white=players[2 * i + 1], clock=clock)
            ruling_issue(acting_user=director, game_id=game.pk, kind="clock_start")
            game_ids.append(game.pk)
        setup = time.time() - t0
        if setup > args.lead:
            print(f"warning: setting up took {setup:.1f} s, more than the lead of {args.lead} s")
        halfway = t0 + args.lead + args.spread / 2
        time.sleep(max(0.0, halfway - time.time()))
        workers[0].kill()
        killed_at = time.time() - t0
        end_by = t0 + setup + args.lead + args.spread + args.grace + 30
        while time.time() < end_by:
            if Game.objects.filter(pk__in=game_ids, status="finished").count() == len(game_ids):
                break
            time.sleep(0.5)
        done = time.time() - t0
    finally:
        for worker in workers:
            worker.stop(timeout=10)

    rows = list(LogEntry.objects.filter(game_id__in=game_ids, kind__in=["time_call", "game_end"])
                .values_list("game_id", "kind", "data"))
    calls: dict[int, int] = {}
    ends: dict[int, int] = {}
    lateness = {"time_call": [], "game_end": []}
    for game_id, kind, data in rows:
        (calls if kind == "time_call" else ends)[game_id] = (calls if kind == "time_call" else ends).get(game_id, 0) + 1
        lateness[kind].append(float(data["late_ms"]))
    finished = set(Game.objects.filter(pk__in=game_ids, status="finished", termination="loss_by_delay")
                   .values_list("pk", flat=True))
    lost = sum(1 for g in game_ids if g not in finished or calls.get(g, 0) == 0 or ends.get(g, 0) == 0)
    doubled = sum(1 for g in game_ids if calls.get(g, 0) > 1 or ends.get(g, 0) > 1)

    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"PostgreSQL and Redis on 127.0.0.1")
    print(f"{args.games} games, time calls over {args.spread:g} s after a {args.lead:g} s lead, loss {args.grace:g} s "
          f"later; set up in {setup:.1f} s; worker 1 killed with SIGKILL at {killed_at:.1f} s; all done at "
          f"{done:.1f} s")
    print(f"{'adjudication':<12} {'count':>6} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    everything = lateness["time_call"] + lateness["game_end"]
    for name, values in (("time call", lateness["time_call"]), ("loss", lateness["game_end"]), ("all", everything)):
        if values:
            print(f"{name:<12} {len(values):>6} {statistics.median(values):>8.1f} {percentile(values, 0.95):>8.1f} "
                  f"{percentile(values, 0.99):>8.1f} {max(values):>8.1f}")
    print(f"lost: {lost}, doubled: {doubled}")


if __name__ == "__main__":
    main()
