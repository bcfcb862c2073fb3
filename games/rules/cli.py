"""The rules engine's command line: ``python -m games.rules perft|moves|check``."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

from games.rules.counting import perft, perft_divide
from games.rules.errors import FENError
from games.rules.position import Position
from games.rules.rulesets import RuleSet


def _build_parser() -> argparse.ArgumentParser:
    """Builds the argument parser with the ``perft``, ``moves`` and ``check`` subcommands."""
    parser = argparse.ArgumentParser(prog="python -m games.rules", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    rule_names = [r.value for r in RuleSet]

    perft_parser = commands.add_parser("perft", help="count move paths to a depth")
    perft_parser.add_argument("depth", type=int, help="plies to search (counts every depth 1..DEPTH)")
    perft_parser.add_argument("--fen", help="start position (default: the initial position)")
    perft_parser.add_argument("--rules", choices=rule_names, default=RuleSet.STANDARD.value)
    perft_parser.add_argument("--divide", action="store_true", help="count under each root move")

    moves_parser = commands.add_parser("moves", help="list the legal moves, full path, sorted")
    moves_parser.add_argument("--fen", help="position (default: the initial position)")
    moves_parser.add_argument("--rules", choices=rule_names, default=RuleSet.STANDARD.value)

    check_parser = commands.add_parser("check", help="check PDN files game by game")
    check_parser.add_argument("files", nargs="+", help="PDN files")
    check_parser.add_argument("--rules", choices=rule_names, default=RuleSet.STANDARD.value)
    return parser


def _position(fen: str | None) -> Position:
    """Returns the position named by ``--fen``, or the initial position."""
    return Position.initial() if fen is None else Position.from_fen(fen)


def _run_perft(args: argparse.Namespace) -> int:
    """Prints perft counts for depths 1..DEPTH, and the divide at the last depth if asked."""
    if args.depth < 1:
        print("error: DEPTH must be at least 1", file=sys.stderr)
        return 2
    position = _position(args.fen)
    rules = RuleSet(args.rules)
    for depth in range(1, args.depth + 1):
        started = time.perf_counter()
        count = perft(position, depth, rules)
        elapsed = time.perf_counter() - started
        rate = count / max(elapsed, 1e-9)
        print(f"perft {depth} = {count}  ({elapsed:.2f}s, {rate:.0f} nodes/s)", flush=True)
    if args.divide:
        for move, count in perft_divide(position, args.depth, rules).items():
            print(f"{move}: {count}")
    return 0


def _run_moves(args: argparse.Namespace) -> int:
    """Prints the legal moves, one per line."""
    position = _position(args.fen)
    for move in position.legal_moves(RuleSet(args.rules)):
        print(move.pdn())
    return 0


def _run_check(args: argparse.Namespace) -> int:
    """Replays every game of the PDN files and reports the invalid ones (``games.rules.cli_check``)."""
    from games.rules.cli_check import main as check_main

    return int(check_main(args.files, rules=args.rules) or 0)


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the command line and returns the exit status (2 for bad input)."""
    args = _build_parser().parse_args(argv)
    try:
        if args.command == "perft":
            return _run_perft(args)
        if args.command == "moves":
            return _run_moves(args)
        return _run_check(args)
    except FENError as error:
        print(f"error: bad FEN: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
