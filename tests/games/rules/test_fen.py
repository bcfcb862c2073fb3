"""FEN reading, writing and round trips."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from hypothesis import given, settings

from games import rules
from games.rules import Color, FENError, Position
from tests.games.rules.test_reference import random_positions

BALLOTS = Path("/work/shared/data/ballots/acf_3move_ballots.csv")
INITIAL_FEN = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"


def test_initial_position_fen():
    assert Position.initial().fen() == INITIAL_FEN
    assert Position.from_fen(INITIAL_FEN) == Position.initial()
    assert rules.INITIAL_FEN == INITIAL_FEN  # the engine's constant, which games.models and lots use


@pytest.mark.parametrize(
    "text",
    [
        "B:W21-32:B1-12",
        "B:B1-12:W21-32",
        "b:w21-32:b1-12",
        "B:W21-32:B1-12.",
        " B : W21, 22, 23, 24, 25-32 : B1-12 ",
        '"B:W21-32:B1-12"',
        "B:W21-32:B1-12:H0:F1",
    ],
)
def test_lenient_forms_read_the_same_position(text):
    assert Position.from_fen(text) == Position.initial()


def test_kings_are_prefixed_with_k_and_written_in_square_order():
    position = Position.from_fen("W:WK27,K23:BK28,12.")
    assert position.side_to_move is Color.WHITE
    assert position.piece_at(23) == "W" and position.piece_at(28) == "B" and position.piece_at(12) == "b"
    assert position.fen() == "W:WK23,K27:B12,K28"


def test_empty_piece_lists():
    position = Position.from_fen("W:W:B1")
    assert position.count(Color.WHITE) == 0 and position.count(Color.BLACK) == 1
    assert position.fen() == "W:W:B1"
    assert Position.from_fen("B:B5").fen() == "B:W:B5"


@settings(max_examples=300, deadline=None)
@given(random_positions)
def test_fen_round_trips(position):
    assert Position.from_fen(position.fen()) == position
    assert Position.from_fen(position.fen()).fen() == position.fen()


def test_ballot_fens_match_the_ballot_moves():
    with BALLOTS.open() as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) > 100
    for row in rows:
        position = Position.initial()
        for text in row["moves"].split():
            position = position.play(position.parse_move(text))
        assert position == Position.from_fen(row["fen_after_3_moves"]), row["acf_number"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("X:W21:B1", "side to move"),
        ("B", "no piece lists"),
        ("B:W21:W22", "two W piece lists"),
        ("B:Q21:B1", "must start with W or B"),
        ("B:W21,x:B1", "not a square"),
        ("B:W33:B1", "outside 1-32"),
        ("B:W0:B1", "outside 1-32"),
        ("B:W12-10:B1", "outside 1-32"),
        ("B:W21:B21", "two pieces on square 21"),
        ("B:W2:B12", "crowning row"),
        ("B:W21:B30", "crowning row"),
    ],
)
def test_bad_fen_raises_fen_error_with_the_reason(text, message):
    with pytest.raises(FENError, match=message):
        Position.from_fen(text)


def test_fen_error_is_a_value_error():
    with pytest.raises(ValueError):
        Position.from_fen("nonsense")


def test_position_is_immutable_and_hashable():
    position = Position.initial()
    with pytest.raises(AttributeError):
        position._black = 0  # type: ignore[misc]
    assert len({position, Position.from_fen(INITIAL_FEN)}) == 1
    assert position.repetition_key() == Position.from_fen(INITIAL_FEN).repetition_key()


def test_text_board_draws_black_at_the_top():
    lines = str(Position.initial()).splitlines()
    assert lines[0].split() == ["b"] * 4
    assert lines[7].split() == ["w"] * 4
    assert lines[8] == "Black to move"


def test_count_pieces_kings_and_men():
    position = Position.from_fen("W:WK27,K23,18:BK28,12")
    assert position.count(Color.WHITE) == 3
    assert position.count(Color.WHITE, kings=True) == 2
    assert position.count("white", kings=False) == 1
    assert position.count(Color.BLACK, kings=True) == 1
