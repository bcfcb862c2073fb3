"""Measures Swiss pairing of a 1,000-player round: round 1, and a middle round after random results.

Usage (from the project root)::

    .venv/bin/python benchmarks/swiss_pairing.py [--players 1000] [--rounds 5] [--repeat 5] [--seed 1]

Round 1 pairs everybody on 0 points (one score group of 1,000). The middle round is the
round after ``--rounds`` rounds paired by ``pair_swiss`` itself with random match results
(win 2 / draw 1 / loss 0, bye 2), so it has score groups, floaters, colour histories and
rematches to avoid. Each figure is the median of ``--repeat`` runs of ``pair_swiss``.
The target is 2 s per pairing.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tournaments.pairing import SwissPlayer, pair_swiss  # noqa: E402


def _simulate(players: list[SwissPlayer], rounds: int, rng: random.Random) -> list[SwissPlayer]:
    by_id = {p.id: p for p in players}
    for _ in range(rounds):
        for pairing in pair_swiss(list(by_id.values())):
            if pairing.white is None:
                p = by_id[pairing.black]
                by_id[p.id] = replace(p, score=p.score + 2, had_bye=True)
                continue
            black, white = by_id[pairing.black], by_id[pairing.white]
            points = rng.choice([2, 1, 0])
            by_id[black.id] = replace(
                black,
                score=black.score + points,
                colours=(*black.colours, "B"),
                opponents=black.opponents | {white.id},
            )
            by_id[white.id] = replace(
                white,
                score=white.score + 2 - points,
                colours=(*white.colours, "W"),
                opponents=white.opponents | {black.id},
            )
    return list(by_id.values())


def _time(players: list[SwissPlayer], repeat: int) -> tuple[float, int]:
    times = []
    boards = 0
    for _ in range(repeat):
        start = time.perf_counter()
        boards = len(pair_swiss(players))
        times.append(time.perf_counter() - start)
    return statistics.median(times), boards


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    players = [SwissPlayer(i, rating=rng.randint(1000, 2600)) for i in range(1, args.players + 1)]
    print(f"python {platform.python_version()}, {os.cpu_count()} cores, {args.players} players")
    seconds, boards = _time(players, args.repeat)
    print(f"round 1: {seconds:.3f} s per pairing ({boards} boards)")
    middle = _simulate(players, args.rounds, rng)
    groups = len({p.score for p in middle})
    seconds, boards = _time(middle, args.repeat)
    print(
        f"round {args.rounds + 1} (after {args.rounds} random rounds, {groups} score groups): "
        f"{seconds:.3f} s per pairing ({boards} boards)"
    )
    odd = middle + [SwissPlayer(args.players + 1, rating=1500)]  # a late entry makes the field odd
    seconds, boards = _time(odd, args.repeat)
    print(
        f"round {args.rounds + 1} with a late entry (odd field, bye): {seconds:.3f} s per pairing ({boards} boards)"
    )


if __name__ == "__main__":
    main()
