"""Measures perft from the start position: our engine to depth 10 and pydraughts on a small depth.

Usage (from the project root)::

    .venv/bin/python benchmarks/perft.py [--depth 10] [--repeat 1] [--pydraughts-depth 4] [--no-pydraughts] [--hashed]

Our figure is plain perft with bulk counting at the last ply (``games.rules.perft``, standard
rules): the moves of each node one ply above the leaves are counted, not made. nodes/s is leaf
nodes (the perft count) per second. pydraughts is walked with ``Board(variant="english")``,
``legal_moves()``, ``push``/``pop``, and also bulk-counted at the last ply, so the two figures
measure the same thing; the ratio compares leaf nodes per second. ``--hashed`` adds, on a
separate line, perft with a transposition table (subtree counts of repeated positions reused).
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

from games.rules import Position, perft  # noqa: E402
from games.rules.counting import perft_hashed  # noqa: E402

PUBLISHED = [7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564, 85242128, 388623673]


def pydraughts_perft(board: object, depth: int) -> int:
    """Counts leaf nodes with pydraughts, counting the last ply's moves without making them."""
    moves = board.legal_moves()
    if depth == 1:
        return len(moves)
    nodes = 0
    for move in moves:
        board.push(move)
        nodes += pydraughts_perft(board, depth - 1)
        board.pop()
    return nodes


def machine_line() -> str:
    """Describes the machine and interpreter the figures were measured on."""
    return (
        f"machine: {os.cpu_count()} cores, {platform.processor() or platform.machine()}, "
        f"Python {platform.python_version()} ({platform.python_implementation()}), {platform.system()}"
    )


def main() -> int:
    """Runs both perfts and prints the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=10, help="our perft depth (default 10)")
    parser.add_argument("--pydraughts-depth", type=int, default=4, help="pydraughts perft depth (default 4)")
    parser.add_argument(
        "--repeat", type=int, default=1, help="runs per depth; the best time is kept (default 1)"
    )
    parser.add_argument("--no-pydraughts", action="store_true", help="skip the pydraughts run")
    parser.add_argument(
        "--hashed", action="store_true", help="also time perft with a transposition table (reported apart)"
    )
    args = parser.parse_args()

    print(machine_line())
    print(
        f"our perft (games.rules.perft, bulk counting), start position, depth 1..{args.depth}, "
        f"best of {max(1, args.repeat)}"
    )
    start = Position.initial()
    total_nodes = 0
    total_seconds = 0.0
    ours_rate = 0.0
    ok = True
    for depth in range(1, args.depth + 1):
        seconds = float("inf")
        for _ in range(max(1, args.repeat)):
            began = time.perf_counter()
            nodes = perft(start, depth)
            seconds = min(seconds, time.perf_counter() - began)
        total_nodes += nodes
        total_seconds += seconds
        expected = PUBLISHED[depth - 1] if depth <= len(PUBLISHED) else None
        verdict = "" if expected is None else ("ok" if nodes == expected else f"WRONG, expected {expected}")
        ok = ok and (expected is None or nodes == expected)
        rate = nodes / seconds if seconds else float("inf")
        print(f"  perft {depth:2d} = {nodes:>11,}  {seconds:8.3f} s  {rate:>12,.0f} nodes/s  {verdict}")
        if depth == args.depth:
            ours_rate = rate
    print(
        f"  total: {total_nodes:,} nodes in {total_seconds:.2f} s, {total_nodes / total_seconds:,.0f} nodes/s"
    )

    if args.hashed:
        began = time.perf_counter()
        nodes = perft_hashed(start, args.depth)
        seconds = time.perf_counter() - began
        print(
            f"HASHED perft {args.depth} (transposition table; not the headline figure) = {nodes:,}  "
            f"{seconds:.3f} s  {nodes / seconds:,.0f} nodes/s"
        )

    if not args.no_pydraughts:
        try:
            from draughts import Board
        except ImportError:
            print("pydraughts is not installed; no comparison")
            return 0 if ok else 1
        import draughts

        depth = args.pydraughts_depth
        board = Board(variant="english")
        began = time.perf_counter()
        nodes = pydraughts_perft(board, depth)
        seconds = time.perf_counter() - began
        theirs_rate = nodes / seconds
        print(
            f"pydraughts {getattr(draughts, '__version__', '?')} perft {depth} = {nodes:,}  {seconds:.2f} s  {theirs_rate:,.0f} nodes/s"
        )
        began = time.perf_counter()
        same = perft(start, depth)
        ours_same_seconds = time.perf_counter() - began
        print(
            f"ours at the same depth: {same:,} in {ours_same_seconds:.4f} s, "
            f"{same / ours_same_seconds:,.0f} nodes/s, {theirs_rate and (same / ours_same_seconds) / theirs_rate:,.0f}x"
        )
        print(
            f"ratio (our perft {args.depth} rate / pydraughts perft {depth} rate): {ours_rate / theirs_rate:,.0f}x"
        )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
