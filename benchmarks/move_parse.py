"""Measures reading and checking one move (``Position.parse_move``) on positions from real games.

Usage (from the project root)::

    .venv/bin/python benchmarks/move_parse.py [PDN_DIR_OR_FILE] [--games N] [--repeat R]

The default input is ``../shared/data/pdn/tinsley.pdn``. Games are read with a tiny ad-hoc reader
(tags, comments and move numbers stripped; a plain move written with ``x``, a habit of that file,
is read as written with ``-``; games the engine refuses are skipped), so the benchmark does not
depend on ``games.rules.pdn``. Every (position, move text) pair is then parsed and checked R
times; the figure is µs per move. Also measured: ``GameState.push_pdn`` (parse, check, play and
update the counters) per ply, and pydraughts reading the same moves on a sample.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import platform
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.rules import GameState, Position, RulesError  # noqa: E402

DEFAULT_INPUT = ROOT / ".." / "shared" / "data" / "pdn" / "tinsley.pdn"
_NOISE = re.compile(r"\[[^\]]*\]|\{[^}]*\}|\([^)]*\)|\d+\.(?:\.\.)?|1-0|0-1|1/2-1/2|\*")
_MOVE = re.compile(r"\d{1,2}(?:[-x]\d{1,2})+")


def read_games(path: Path, limit: int) -> list[list[str]]:
    """Returns the move texts of up to ``limit`` games of a PDN file (ad-hoc reader)."""
    text = path.read_text(encoding="utf-8", errors="replace")
    games = []
    for chunk in re.split(r"(?=\[Event )", text):
        moves = _MOVE.findall(_NOISE.sub(" ", chunk))
        if moves:
            games.append(moves)
        if len(games) >= limit:
            break
    return games


def game_positions(games: list[list[str]]) -> list[tuple[Position, str]]:
    """Replays the games and returns each (position, move text) pair the engine accepts."""
    pairs = []
    for moves in games:
        position = Position.initial()
        for text in moves:
            try:
                move = position.parse_move(text)
            except RulesError:
                try:
                    text = text.replace("x", "-")
                    move = position.parse_move(text)
                except RulesError:
                    break
            pairs.append((position, text))
            position = position.play(move)
    return pairs


def main() -> int:
    """Runs the measurements and prints the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("input", nargs="?", default=str(DEFAULT_INPUT), help="PDN file or folder")
    parser.add_argument("--games", type=int, default=300, help="games to read (default 300)")
    parser.add_argument("--repeat", type=int, default=5, help="passes over the moves (default 5)")
    parser.add_argument("--pydraughts-moves", type=int, default=400, help="moves for pydraughts (0: skip)")
    args = parser.parse_args()

    print(
        f"machine: {os.cpu_count()} cores, {platform.machine()}, Python {platform.python_version()} "
        f"({platform.python_implementation()}), {platform.system()}"
    )
    path = Path(args.input)
    if path.is_dir():
        path = path / "tinsley.pdn"
    games = read_games(path, args.games)
    pairs = game_positions(games)
    captures = sum("x" in text for _position, text in pairs)
    print(f"input: {path.name}, {len(games)} games, {len(pairs)} moves ({captures} captures)")

    for label, subset in (
        ("all moves", pairs),
        ("plain moves", [p for p in pairs if "x" not in p[1]]),
        ("captures", [p for p in pairs if "x" in p[1]]),
    ):
        began = time.perf_counter()
        for _ in range(args.repeat):
            for position, text in subset:
                position.parse_move(text)
        seconds = time.perf_counter() - began
        count = len(subset) * args.repeat
        print(
            f"  parse_move + check, {label:11s}: {seconds / count * 1e6:6.2f} µs per move ({count:,} moves)"
        )

    short = []
    for position, text in pairs:
        if text.count("x") > 1:
            parts = text.split("x")
            short.append((position, f"{parts[0]}x{parts[-1]}"))
    if short:
        began = time.perf_counter()
        for _ in range(args.repeat):
            for position, text in short:
                with contextlib.suppress(RulesError):
                    position.parse_move(text)
        seconds = time.perf_counter() - began
        count = len(short) * args.repeat
        print(
            f"  parse_move, short form of multi-jumps: {seconds / count * 1e6:6.2f} µs per move ({count:,} moves)"
        )

    plies = 0
    began = time.perf_counter()
    for _ in range(args.repeat):
        for moves in games:
            state = GameState()
            for text in moves:
                try:
                    state.push_pdn(text)
                except RulesError:
                    try:
                        state.push_pdn(text.replace("x", "-"))
                    except RulesError:
                        break
                plies += 1
    seconds = time.perf_counter() - began
    print(
        f"  GameState.push_pdn (parse, check, play, counters): {seconds / plies * 1e6:6.2f} µs per ply ({plies:,} plies)"
    )

    if args.pydraughts_moves:
        try:
            from draughts import Board, Move
        except ImportError:
            print("pydraughts is not installed; no comparison")
            return 0
        sample = pairs[: args.pydraughts_moves]
        boards = [(Board(variant="english", fen=position.fen()), text) for position, text in sample]
        began = time.perf_counter()
        for board, text in boards:
            Move(board, pdn_move=text)
        seconds = time.perf_counter() - began
        began = time.perf_counter()
        for position, text in sample:
            position.parse_move(text)
        ours = time.perf_counter() - began
        print(
            f"pydraughts Move(board, pdn_move=...): {seconds / len(sample) * 1e6:,.0f} µs per move "
            f"({len(sample)} moves); ours on the same: {ours / len(sample) * 1e6:.2f} µs, {seconds / ours:,.0f}x"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
