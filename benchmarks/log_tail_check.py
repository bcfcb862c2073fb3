"""Measures what checking a log's tail before each append costs a move: the game's lock with the last
entry read in it, against the lock without it, and the check's own code (content, HMAC, compare).

Usage (from the project root, PostgreSQL on 127.0.0.1:5432)::

    .venv/bin/python benchmarks/log_tail_check.py [--plies 8] [--repeat 2000]

A scratch database (``draughts_bench_tail``) gets one game with ``--plies`` moves recorded by the
services. Then, in turn (A B B A ..., 10 blocks), the lock statement of ``arbitration.persistence``
as it is (with the tail subquery) and as it was (the same statement less it) is run ``--repeat``
times, each in its own transaction: µs per lock, wall time on the client (the database's time and
the round trip included). Last, ``arbitration.log.tail_check`` on the locked game, its cache
cleared each time: µs per check (Python only, the entry already read with the lock).
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

MOVES = ["11-15", "23-19", "8-11", "22-17", "4-8", "17-13", "15-18", "24-20"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=2000)
    args = parser.parse_args()
    scratch_django("draughts_bench_tail")

    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group
    from django.db import connection, transaction

    from arbitration import log, persistence
    from arbitration.services import game_create, game_move_record
    from core import sqlrows
    from players.models import Player

    director = get_user_model().objects.create_user("bench-director", password="x")
    director.groups.add(Group.objects.get_or_create(name="director")[0])
    game = game_create(acting_user=director, black=Player.objects.create(name="B"),
                       white=Player.objects.create(name="W"))
    for text in MOVES[:args.plies]:
        game_move_record(acting_user=director, game_id=game.pk, move=text)

    with_tail, *_ = persistence._game_lock_sql(connection.alias, connection.vendor)
    subquery = persistence._log_tail_sql(connection, connection.vendor)
    without_tail = with_tail.replace(f", {subquery} ", " ")
    assert without_tail != with_tail

    def lock_us(sql: str) -> float:
        started = time.perf_counter()
        for _ in range(args.repeat):
            with transaction.atomic():
                sqlrows.fetch(sql, [game.pk], connection)
        return (time.perf_counter() - started) / args.repeat * 1e6

    samples: dict[str, list[float]] = {"with": [], "without": []}
    for block in range(10):
        order = ("without", "with") if block % 4 in (0, 3) else ("with", "without")
        for name in order:
            samples[name].append(lock_us(with_tail if name == "with" else without_tail))

    with transaction.atomic():
        locked = persistence.game_lock(game.pk)
        started = time.perf_counter()
        for _ in range(args.repeat):
            locked._log_tail_checked = None
            log.tail_check(locked)
        check_us = (time.perf_counter() - started) / args.repeat * 1e6

    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}, load {os.getloadavg()[0]:.1f}")
    print(f"game of {args.plies} plies, {args.repeat} locks a block, 10 blocks A B B A")
    for name in ("without", "with"):
        print(f"lock {name:>7} the tail: median {statistics.median(samples[name]):7.1f} µs "
              f"(blocks {min(samples[name]):.1f}-{max(samples[name]):.1f})")
    diffs = [w - o for w, o in zip(samples["with"], samples["without"], strict=True)]
    print(f"with - without, per block: median {statistics.median(diffs):+.1f} µs "
          f"(from {min(diffs):+.1f} to {max(diffs):+.1f})")
    print(f"tail_check's own code (entry read with the lock): {check_us:.1f} µs")


if __name__ == "__main__":
    main()
