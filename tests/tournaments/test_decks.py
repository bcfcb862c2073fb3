"""The opening decks: the 2-move and 11-man lists replayed by the rules engine against the data's
positions, the organiser's decks (named subsets, barred and added openings), and the seeded draw."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from games.rules import Position
from tournaments.ballots import (
    ELEVEN_MAN_PDN,
    TWO_MOVE_FILE,
    DeckError,
    all_ballots,
    deck_of,
    draw_openings,
    eleven_man_openings,
    two_move_openings,
)

SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "ballots"
INITIAL_BLACK, INITIAL_WHITE = tuple(range(1, 13)), tuple(range(21, 33))


def _replay(start: Position, moves: tuple[str, ...]) -> Position:
    position = start
    for move in moves:
        position = position.play(position.parse_move(move))
    return position


def test_every_two_move_opening_leads_to_the_position_the_data_gives():
    openings = two_move_openings()
    assert len(openings) == 49
    for b in openings:
        assert _replay(Position.initial(), b.moves) == Position.from_fen(b.fen), b.number


def test_the_two_move_deck_is_the_43_not_listed_as_lost():
    lost = {b.pdn for b in two_move_openings() if b.barred}
    assert lost == {"9-14 21-17", "9-14 23-18", "10-14 21-17", "10-14 23-18", "11-16 23-19", "12-16 23-19"}
    assert len(deck_of("two-move").openings) == 43


def test_every_eleven_man_position_is_the_initial_one_less_two_men_then_its_moves():
    data = re.findall(r'\[FEN "([^"]+)"\]', ELEVEN_MAN_PDN.read_text(encoding="utf-8"))
    openings = eleven_man_openings()
    assert len(openings) == len(data) == 2400
    for b, fen in zip(openings, data, strict=True):
        black_man, white_man = b.removed
        assert black_man in INITIAL_BLACK and white_man in INITIAL_WHITE, b.number
        start = Position.from_squares(black=[s for s in INITIAL_BLACK if s != black_man],
                                      white=[s for s in INITIAL_WHITE if s != white_man])
        assert len(b.moves) == 2
        assert _replay(start, b.moves) == Position.from_fen(fen), b.number
        assert Position.from_fen(b.fen) == Position.from_fen(fen)


@pytest.mark.skipif(not SHARED.exists(), reason="shared data not mounted (a user's clone has the project's copies)")
def test_the_project_copies_are_the_shared_files():
    assert ELEVEN_MAN_PDN.read_bytes() == (SHARED / "11_man_english.pdn").read_bytes()
    assert TWO_MOVE_FILE.read_bytes() == (SHARED / "pydraughts_2move_english.json").read_bytes()


def test_named_decks_hold_their_subsets():
    assert len(deck_of("acf").openings) == 156
    assert len(deck_of("acf-144").openings) == 144
    tough = deck_of("computer-tough").openings
    assert len(tough) == 50 and all(b.computer_tough and not b.barred for b in tough)
    assert {b.number for b in tough} < {b.number for b in deck_of("acf").openings}


def test_an_organisers_deck_bars_and_adds_openings():
    masters = deck_of("computer-tough", barred=[5], added=[3])  # #3 is barred from the ACF deck
    numbers = {b.number for b in masters.openings}
    assert 5 not in numbers and 3 in numbers and len(numbers) == 50
    assert masters.signature == "computer-tough -5 +3"
    with pytest.raises(DeckError, match="175"):
        deck_of("acf", added=[175])
    with pytest.raises(DeckError, match="unknown deck"):
        deck_of("masters")
    with pytest.raises(DeckError, match="no opening"):
        deck_of("two-move", barred=[b.number for b in two_move_openings()])


def test_a_draw_is_reproducible_and_never_repeats_before_the_deck_is_exhausted():
    masters = deck_of("acf", barred=[b.number for b in all_ballots() if b.number > 10]).openings
    assert len(masters) == 9  # 1-10 less the barred #3
    assert draw_openings(masters, [], 11, 4) == draw_openings(masters, [], 11, 4)
    used: list[int] = []
    for seed in range(9):
        [b] = draw_openings(masters, used, seed)
        assert b.number not in used
        used.append(b.number)
    assert sorted(used) == [b.number for b in masters]
    eleven = deck_of("eleven-man").openings
    assert [b.number for b in draw_openings(eleven, [], 5, 3)] == [b.number for b in draw_openings(eleven, [], 5, 3)]
