"""The 3-move ballot deck (ACF, 156 openings in play) and its reproducible draw."""

from __future__ import annotations

import csv
import random
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

DECK_FILE = Path(__file__).with_name("acf_3move_ballots.csv")
DECK_SIZE = 156


@dataclass(frozen=True, slots=True)
class Ballot:
    """One 3-move opening: its ACF number, the moves in PDN, and the position after them."""

    number: int
    moves: tuple[str, str, str]
    fen: str
    name: str = ""
    barred: bool = False

    @property
    def pdn(self) -> str:
        return " ".join(self.moves)


@cache
def all_ballots() -> tuple[Ballot, ...]:
    """Returns all 174 ACF 3-move openings, barred ones included, by ACF number."""
    with DECK_FILE.open(newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    out = []
    for row in rows:
        moves = tuple(row["moves"].split())
        if len(moves) != 3:
            raise ValueError(f"ballot {row['acf_number']}: expected three moves, got {row['moves']!r}")
        out.append(
            Ballot(
                number=int(row["acf_number"]),
                moves=(moves[0], moves[1], moves[2]),
                fen=row["fen_after_3_moves"],
                name=row["name"],
                barred=row["in_current_156_deck"] != "1",
            )
        )
    return tuple(sorted(out, key=lambda b: b.number))


@cache
def deck() -> tuple[Ballot, ...]:
    """Returns the current deck of 156 openings (the barred ones are left out)."""
    return tuple(b for b in all_ballots() if not b.barred)


def ballot(number: int) -> Ballot:
    """Returns the opening with ACF ``number``."""
    for b in all_ballots():
        if b.number == number:
            return b
    raise KeyError(number)


def draw_ballots(used: Iterable[int], seed: int, count: int = 1) -> list[Ballot]:
    """Draws ``count`` ballots from the deck, none of those already ``used`` in the tournament.

    ``used`` lists the ACF numbers drawn so far in the tournament, in order. The deck is
    reshuffled only when exhausted: used numbers are counted modulo the deck, so ballots repeat
    only once all 156 have been drawn. The draw is ``random.Random(seed)`` over the remaining
    numbers in ascending order: the same ``used`` and ``seed`` give the same ballots. Barred
    openings are never drawn.
    """
    if count < 0:
        raise ValueError("count must not be negative")
    in_deck = {b.number: b for b in deck()}
    used_list = list(used)
    for n in used_list:
        if n not in in_deck:
            raise ValueError(f"ballot {n} is not in the current deck")
    rng = random.Random(seed)
    cycle_used = used_list[len(used_list) - len(used_list) % DECK_SIZE :] if used_list else []
    taken = set(cycle_used)
    if len(taken) != len(cycle_used):
        raise ValueError("a ballot was repeated before the deck was exhausted")
    out: list[Ballot] = []
    for _ in range(count):
        if len(taken) == DECK_SIZE:
            taken = set()
        remaining = sorted(set(in_deck) - taken)
        pick = rng.choice(remaining)
        taken.add(pick)
        out.append(in_deck[pick])
    return out
