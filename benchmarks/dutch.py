"""Measures the Dutch system's pairing time per round on a large Swiss.

Usage (from the project root)::

    .venv/bin/python benchmarks/dutch.py [--players 1000] [--rounds 9] [--seed 1] [--draws 0.35] [--hash] [--trf out.trf]

Builds a tournament of ``--players`` players (ratings spread from 2600 down), pairs round after
round with ``tournaments.pairing.dutch`` and random results (the higher-rated player wins more
often; ``--draws`` of the games are drawn), and prints the seconds each round took to pair: CPU time (the figure to compare on a busy
machine) and elapsed time; with ``--hash``, a digest of every round's pairs and colours, to tell that a change
of the code pairs the same tournament identically (run old and new with the same arguments); with ``--trf``,
the whole tournament written as a TRF file, for the reference's checker to pair every round again
and compare (``bbpPairings --dutch out.trf -c``: docs/benchmarks.md). The
reference's figure on this machine, for comparison, is in docs/benchmarks.md. The issue's target
is 2 s a round for 1,000 players.
"""

from __future__ import annotations

import argparse
import hashlib
import platform
import random
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tournaments.pairing.dutch import pair_next_round  # noqa: E402
from tournaments.pairing.trf import BLACK, WHITE, TrfPlayer, TrfRound, TrfTournament, write_trf  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--draws", type=float, default=0.35)
    parser.add_argument("--hash", action="store_true", help="print a digest of every round's pairs and colours")
    parser.add_argument("--trf", type=Path, help="write the tournament, all its rounds, to this TRF file")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    n = args.players
    players = [TrfPlayer(i, rating=2600 - (1600 * (i - 1)) // max(n - 1, 1)) for i in range(1, n + 1)]
    t = TrfTournament(players=tuple(players), rounds_total=args.rounds, initial_colour=WHITE)
    print(
        f"{platform.python_implementation()} {platform.python_version()} on {platform.machine()}, {n} players"
    )
    times = []
    digest = hashlib.sha256()
    for k in range(1, args.rounds + 1):
        start, cpu = time.perf_counter(), time.process_time()
        pairs = pair_next_round(t)
        elapsed, used = time.perf_counter() - start, time.process_time() - cpu
        times.append(used)
        print(f"round {k}: {used:.2f} s CPU, {elapsed:.2f} s elapsed ({len(pairs)} pairs)", flush=True)
        digest.update(repr(sorted((pair.white, pair.black) for pair in pairs)).encode())
        by = {p.number: p for p in t.players}
        new: dict[int, TrfRound] = {}
        for pair in pairs:
            if pair.black is None:
                new[pair.white] = TrfRound(None, None, "U")
                continue
            w, b = by[pair.white], by[pair.black]
            roll = rng.random()
            favourite = 0.5 + (w.rating - b.rating) / 4000
            if roll < args.draws:
                rw, rb = "=", "="
            elif rng.random() < favourite:
                rw, rb = "1", "0"
            else:
                rw, rb = "0", "1"
            new[pair.white] = TrfRound(pair.black, WHITE, rw)
            new[pair.black] = TrfRound(pair.white, BLACK, rb)
        t = replace(t, players=tuple(p.with_rounds((*p.rounds, new[p.number]), t.points) for p in t.players))
    print(f"CPU: mean {sum(times) / len(times):.2f} s a round, max {max(times):.2f} s")
    if args.hash:
        print(f"pairs of rounds 1-{args.rounds}: sha256 {digest.hexdigest()[:16]}")
    if args.trf:
        args.trf.write_text(write_trf(t, line_end="\n"))
        print(f"written to {args.trf}")


if __name__ == "__main__":
    main()
