"""The opening decks (the 3-move ballot, the 2-move restriction, the 11-man ballot) and their
reproducible draw.

A deck is a kind of opening and a set of numbered openings of that kind:

- ``acf``: the ACF 3-move deck of 156 (the 174 numbered openings less the 18 barred ones);
- ``acf-144``: the older 3-move deck, the 144 crossboard openings (the 12 "mail play" ones out);
- ``computer-tough``: the 50 3-move openings CheckerBoard flags as the "computer tough deck";
- ``two-move``: the 43 two-move openings (the 49 less the six listed as lost);
- ``eleven-man``: the 2,400 positions of the 11-man ballot (a man of each side removed, then
  one move each), numbered in CheckerBoard's order.

An organiser's deck is one of these less the openings he bars and with the openings of the
same kind he adds (``deck_of``): a masters' deck is such a named subset. Every draw is
``random.Random(seed)`` over the deck's numbers not yet drawn in the tournament, so the same
deck, the same numbers drawn before and the same seed give the same openings.
"""

from __future__ import annotations

import csv
import json
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

HERE = Path(__file__).resolve().parent
DECK_FILE = HERE / "acf_3move_ballots.csv"
TWO_MOVE_FILE = HERE / "pydraughts_2move_english.json"
ELEVEN_MAN_FILE = HERE / "eleven_man_ballots.csv"
ELEVEN_MAN_PDN = HERE / "11_man_english.pdn"
DECK_SIZE = 156

THREE_MOVE, TWO_MOVE, ELEVEN_MAN = "three-move", "two-move", "eleven-man"


@dataclass(frozen=True, slots=True)
class Ballot:
    """One opening: its number in its list, the moves in PDN, and the position the game starts from.

    ``removed`` (11-man ballot) names the black and the white man taken off the initial
    position before the moves are played.
    """

    number: int
    moves: tuple[str, ...]
    fen: str
    name: str = ""
    barred: bool = False
    kind: str = THREE_MOVE
    removed: tuple[int, ...] = ()
    computer_tough: bool = False
    crossboard: bool = False

    @property
    def pdn(self) -> str:
        return " ".join(self.moves)

    @property
    def label(self) -> str:
        """Returns the opening as a director reads it: "Remove 11 and 28; 8-11 24-19"."""
        if self.removed:
            return f"Remove {self.removed[0]} and {self.removed[1]}; {self.pdn}"
        return self.pdn


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
                moves=moves,
                fen=row["fen_after_3_moves"],
                name=row["name"],
                barred=row["in_current_156_deck"] != "1",
                computer_tough=row["checkerboard_computer_tough_deck"] == "1",
                crossboard=row["checkerboard_deck"] == "crossboard",
            )
        )
    return tuple(sorted(out, key=lambda b: b.number))


@cache
def two_move_openings() -> tuple[Ballot, ...]:
    """Returns the 49 two-move openings by number; the six listed as lost are ``barred``."""
    data = json.loads(TWO_MOVE_FILE.read_text(encoding="utf-8"))
    lost = set(data["lost"])
    out = []
    for key, fen in data["all"].items():
        number, *moves = key.split()
        out.append(Ballot(number=int(number), moves=tuple(moves), fen=_normal_fen(fen), barred=key in lost,
                          kind=TWO_MOVE))
    return tuple(sorted(out, key=lambda b: b.number))


@cache
def eleven_man_openings() -> tuple[Ballot, ...]:
    """Returns the 2,400 positions of the 11-man ballot by number (``build_eleven_man.py`` made the file)."""
    with ELEVEN_MAN_FILE.open(newline="", encoding="utf-8") as fh:
        return tuple(
            Ballot(number=int(row["number"]), moves=tuple(row["moves"].split()), fen=row["fen"], kind=ELEVEN_MAN,
                   removed=(int(row["removed_black"]), int(row["removed_white"])))
            for row in csv.DictReader(fh)
        )


def _normal_fen(fen: str) -> str:
    """Returns a FEN with each side's squares in numeric order (pydraughts sorts them as strings)."""
    side, *parts = fen.split(":")
    lists = {part[0]: sorted(int(s) for s in part[1:].split(",") if s) for part in parts}
    return f"{side}:W{','.join(map(str, lists['W']))}:B{','.join(map(str, lists['B']))}"


#: The named decks: the kind of opening, a description, and which openings of the kind it holds.
BASE_DECKS: dict[str, tuple[str, str]] = {
    "acf": (THREE_MOVE, "ACF 3-move deck (156 openings)"),
    "acf-144": (THREE_MOVE, "ACF 3-move deck of 144 (crossboard openings only)"),
    "computer-tough": (THREE_MOVE, "Computer tough deck (50 3-move openings)"),
    "two-move": (TWO_MOVE, "2-move restriction (43 openings)"),
    "eleven-man": (ELEVEN_MAN, "11-man ballot (2,400 positions)"),
}


def openings_of_kind(kind: str) -> tuple[Ballot, ...]:
    """Returns every numbered opening of a kind, barred ones included."""
    return {THREE_MOVE: all_ballots, TWO_MOVE: two_move_openings, ELEVEN_MAN: eleven_man_openings}[kind]()


@dataclass(frozen=True, slots=True)
class Deck:
    """A deck: its base, the openings barred from it and added to it, and the openings it holds."""

    base: str
    kind: str
    barred: tuple[int, ...]
    added: tuple[int, ...]
    openings: tuple[Ballot, ...]

    @property
    def signature(self) -> str:
        """Returns the deck as the record writes it: ``acf -9,12 +3`` (its base, barred, added)."""
        out = self.base
        if self.barred:
            out += " -" + ",".join(map(str, self.barred))
        if self.added:
            out += " +" + ",".join(map(str, self.added))
        return out


class DeckError(ValueError):
    """Raised for a deck that cannot be built (an unknown base, a number not of its kind, nothing left)."""


@cache
def _base_openings(base: str) -> tuple[Ballot, ...]:
    if base == "acf":
        return tuple(b for b in all_ballots() if not b.barred)
    if base == "acf-144":
        return tuple(b for b in all_ballots() if b.crossboard)
    if base == "computer-tough":
        return tuple(b for b in all_ballots() if b.computer_tough)
    if base == "two-move":
        return tuple(b for b in two_move_openings() if not b.barred)
    if base == "eleven-man":
        return eleven_man_openings()
    raise DeckError(f"unknown deck {base!r}; one of {', '.join(BASE_DECKS)}")


def deck_of(base: str, barred: Iterable[int] = (), added: Iterable[int] = ()) -> Deck:
    """Returns the deck ``base`` less the ``barred`` numbers and with the ``added`` ones (of its kind).

    Raises ``DeckError`` for an unknown base, a number no opening of the kind has, or a deck
    left empty.
    """
    openings = _base_openings(base)
    kind = BASE_DECKS[base][0]
    every = {b.number: b for b in openings_of_kind(kind)}
    barred_t, added_t = tuple(sorted(set(barred))), tuple(sorted(set(added)))
    unknown = sorted(n for n in (*barred_t, *added_t) if n not in every)
    if unknown:
        raise DeckError(f"no opening numbered {', '.join(map(str, unknown))} in the {kind} list")
    numbers = ({b.number for b in openings} - set(barred_t)) | set(added_t)
    if not numbers:
        raise DeckError("the deck is left with no opening")
    return Deck(base, kind, barred_t, added_t, tuple(every[n] for n in sorted(numbers)))


@cache
def deck() -> tuple[Ballot, ...]:
    """Returns the current ACF deck of 156 openings (the barred ones are left out)."""
    return _base_openings("acf")


def ballot(number: int) -> Ballot:
    """Returns the 3-move opening with ACF ``number``."""
    for b in all_ballots():
        if b.number == number:
            return b
    raise KeyError(number)


def draw_openings(openings: Sequence[Ballot], used: Iterable[int], seed: int, count: int = 1) -> list[Ballot]:
    """Draws ``count`` openings from a deck, none of those already ``used`` since it was last exhausted.

    ``used`` lists the numbers drawn so far in the tournament from this kind of deck, in order;
    numbers not in the deck (a deck changed since) are passed over. The deck is reshuffled only
    when exhausted: the numbers in it are counted modulo its size, so openings repeat only once
    all have been drawn. The draw is ``random.Random(seed)`` over the remaining numbers in
    ascending order: the same deck, ``used`` and ``seed`` give the same openings.
    """
    if count < 0:
        raise ValueError("count must not be negative")
    in_deck = {b.number: b for b in openings}
    size = len(in_deck)
    if not size:
        raise ValueError("the deck is empty")
    used_list = [n for n in used if n in in_deck]
    rng = random.Random(seed)
    cycle_used = used_list[len(used_list) - len(used_list) % size:] if used_list else []
    taken = set(cycle_used)
    if len(taken) != len(cycle_used):
        raise ValueError("an opening was repeated before the deck was exhausted")
    out: list[Ballot] = []
    for _ in range(count):
        if len(taken) == size:
            taken = set()
        pick = rng.choice(sorted(set(in_deck) - taken))
        taken.add(pick)
        out.append(in_deck[pick])
    return out


def draw_ballots(used: Iterable[int], seed: int, count: int = 1) -> list[Ballot]:
    """Draws ``count`` ballots from the ACF deck of 156, none of those already ``used`` in the tournament.

    ``used`` lists the ACF numbers drawn so far, in order; a barred number is refused. Barred
    openings are never drawn (``draw_openings`` says the rest).
    """
    used_list = list(used)
    in_deck = {b.number for b in deck()}
    for n in used_list:
        if n not in in_deck:
            raise ValueError(f"ballot {n} is not in the current deck")
    return draw_openings(deck(), used_list, seed, count)
