"""Builds ``eleven_man_ballots.csv`` from the shared ballot data (run from the repository root).

Each of the 2,400 positions of CheckerBoard's ``11_man_english.pdn`` (in its order: ballot
number = place in the file) is matched, as sets of pieces, with the one entry of pydraughts'
``11_english.json`` that names it ("Remove 11 and 28; 8-11 24-19"): the black man and the white
man removed, then the two opening moves. The FEN written is the PDN's, as the file gives it.
``pydraughts_lost`` copies pydraughts' flag (an opening it lists as lost); it bars nothing here.

    python tournaments/ballots/build_eleven_man.py ../shared/data/ballots
"""

from __future__ import annotations

import csv
import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
NAME = re.compile(r"^\d+\. Remove (\d+) and (\d+); (\S+ \S+)$")


def pieces(fen: str) -> tuple[str, frozenset[str], frozenset[str]]:
    side, *parts = fen.split(":")
    found = {part[0]: frozenset(s.strip() for s in part[1:].split(",") if s.strip()) for part in parts}
    return side, found["W"], found["B"]


def main(shared: Path) -> None:
    named = json.loads((shared / "pydraughts_11_english.json").read_text(encoding="utf-8"))
    lost = set(named["lost"])
    by_pieces = {pieces(fen): key for key, fen in named["all"].items()}
    fens = re.findall(r'\[FEN "([^"]+)"\]', (shared / "11_man_english.pdn").read_text(encoding="utf-8"))
    with (HERE / "eleven_man_ballots.csv").open("w", newline="", encoding="utf-8") as fh:
        out = csv.writer(fh, lineterminator="\n")
        out.writerow(["number", "removed_black", "removed_white", "moves", "fen", "pydraughts_lost"])
        for number, fen in enumerate(fens, start=1):
            key = by_pieces[pieces(fen)]
            black, white, moves = NAME.match(key).groups()  # type: ignore[union-attr]
            out.writerow([number, black, white, moves, fen, int(key in lost)])


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "../shared/data/ballots"))
