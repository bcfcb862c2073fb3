"""Replays a PDN archive through our PDN reader and rules engine, and a sample through pydraughts.

Usage (from the project root)::

    .venv/bin/python benchmarks/pdn_replay.py [PDN_FILE] [--pydraughts-sample N] [--others]

PDN_FILE defaults to ``../shared/data/pdn/OCA_2.0.pdn`` (the Open Checkers Archive 2.0; see
``../shared/data/pdn/SOURCES.md``). Prints the reading and replay time, games/s and plies/s, the
valid/invalid counts and every invalid game with its reason; then the same first N games
replayed by pydraughts 0.6.7 (games split on ``[Event``, each read by its ``PDNReader`` and played
on ``Board(variant="english")``) and by us, with the speed ratio. ``--others`` also replays the
other archives of the same folder (tinsley.pdn, the wiegerw/pdn collections).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.rules.pdn import PDNGame, UnreadableGame, _decode, replay, scan_games  # noqa: E402

DEFAULT_FILE = ROOT / ".." / "shared" / "data" / "pdn" / "OCA_2.0.pdn"
OTHER_FILES = ("tinsley.pdn", "Principles_of_Strategy.pdn", "Tricks_traps_and_shots.pdn", "goulds.pdn")


def replay_file(path: Path, show_warnings: bool = False) -> dict[str, float]:
    """Reads and replays every game of a file, prints the figures and invalid games; returns them."""
    started = time.perf_counter()
    text = _decode(path.read_bytes())
    records = list(scan_games(text))
    read_seconds = time.perf_counter() - started
    valid = invalid = plies = warned = 0
    lines: list[str] = []
    started = time.perf_counter()
    for number, record in enumerate(records, start=1):
        if isinstance(record, UnreadableGame):
            invalid += 1
            lines.append(f"  {path.name}:{record.error.line}:{record.error.column}: game {number} "
                         f"({record.tags.get('Event', '?')}): PDN syntax error: {record.error.message}")
            continue
        outcome = replay(record)
        plies += outcome.state.ply if outcome.state is not None else 0
        if outcome.warnings:
            warned += 1
            if show_warnings:
                lines.extend(f"  warning: game {number}: {warning}" for warning in outcome.warnings)
        if outcome.ok:
            valid += 1
        else:
            invalid += 1
            lines.append(f"  {path.name}:{outcome.line}:{outcome.column}: game {number} "
                         f"({record.tags.get('Event', '?')}): {outcome.reason}")
    replay_seconds = time.perf_counter() - started
    total = read_seconds + replay_seconds
    games = len(records)
    print(f"{path.name}: {games} games, {plies} plies; read {read_seconds:.2f} s, replay {replay_seconds:.2f} s, "
          f"total {total:.2f} s; {games / total:,.0f} games/s, {plies / total:,.0f} plies/s; "
          f"{valid} valid, {invalid} invalid, {warned} with warnings")
    for line in lines:
        print(line)
    return {"games": games, "plies": plies, "seconds": total, "valid": valid, "invalid": invalid}


def compare_with_pydraughts(path: Path, sample: int) -> None:
    """Replays the first ``sample`` games with pydraughts and with us, and prints the speed ratio."""
    try:
        from draughts import Board, Move
        from draughts.PDN import PDNReader
    except ImportError:
        print("pydraughts is not installed: comparison skipped")
        return
    text = _decode(path.read_bytes())
    pieces = ["[Event" + piece for piece in text.split("[Event")[1:]][:sample]
    started = time.perf_counter()
    accepted = plies = 0
    for piece in pieces:
        try:
            moves = PDNReader(pdn_text=piece).games[0].moves
            board = Board(variant="english")
            for move in moves:
                board.push(Move(board, pdn_move=move))
                plies += 1
        except Exception:  # noqa: BLE001 - pydraughts raises many kinds of errors on bad games
            continue
        accepted += 1
    theirs = time.perf_counter() - started
    started = time.perf_counter()
    ours_valid = 0
    for piece in pieces:
        for record in scan_games(piece):
            if isinstance(record, PDNGame) and replay(record).ok:
                ours_valid += 1
    ours = time.perf_counter() - started
    print(f"pydraughts on the first {len(pieces)} games: {accepted} accepted, {plies} plies, {theirs:.2f} s, "
          f"{len(pieces) / theirs:,.1f} games/s")
    print(f"ours on the same games: {ours_valid} valid, {ours:.3f} s, {len(pieces) / ours:,.0f} games/s; "
          f"ours is {theirs / ours:,.0f}x faster")


def main(argv: list[str] | None = None) -> int:
    """Runs the benchmark and returns 0."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("file", nargs="?", type=Path, default=DEFAULT_FILE)
    parser.add_argument("--pydraughts-sample", type=int, default=200, metavar="N")
    parser.add_argument("--others", action="store_true", help="also replay the other archives of the folder")
    parser.add_argument("--warnings", action="store_true", help="print every warning")
    args = parser.parse_args(argv)
    print(f"Python {sys.version.split()[0]}; file {args.file.resolve()}")
    replay_file(args.file, args.warnings)
    if args.pydraughts_sample > 0:
        compare_with_pydraughts(args.file, args.pydraughts_sample)
    if args.others:
        for name in OTHER_FILES:
            other = args.file.parent / name
            if other.exists():
                replay_file(other, args.warnings)
    return 0


if __name__ == "__main__":
    sys.exit(main())
