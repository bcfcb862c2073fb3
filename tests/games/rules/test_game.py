"""GameState: history, counters for the progress rules, repetition."""

from __future__ import annotations

import pytest

from games.rules import Color, GameState, IllegalMoveError, Move, Position, RuleSet

KINGS_ONLY = Position.from_fen("B:WK32:BK1")


def test_new_game_starts_from_the_initial_position():
    game = GameState()
    assert game.position == Position.initial() and game.ply == 0 and game.rules is RuleSet.STANDARD
    assert game.positions == [Position.initial()] and game.moves == []
    assert not game.is_over and game.winner is None


def test_push_pdn_plays_and_returns_the_move():
    game = GameState()
    move = game.push_pdn("11-15")
    assert move == Move((11, 15))
    assert game.ply == 1 and game.moves == [move]
    assert game.position.side_to_move is Color.WHITE
    assert game.positions[0] == Position.initial()


def test_push_checks_the_move():
    game = GameState()
    game.push(Move((11, 15)))
    with pytest.raises(IllegalMoveError):
        game.push(Move((11, 16)))
    with pytest.raises(IllegalMoveError):
        game.push(Move((24, 19), (), True))  # right path, wrong crowning flag
    assert game.ply == 1


def test_pop_takes_back_the_move():
    game = GameState()
    game.push_pdn("11-15")
    game.push_pdn("23-19")
    assert game.pop() == Move((23, 19))
    assert game.ply == 1 and game.position.side_to_move is Color.WHITE
    assert game.repetition_count(game.positions[0]) == 1
    game.pop()
    with pytest.raises(IndexError):
        game.pop()


def test_plies_since_capture_and_man_move():
    game = GameState()
    for text in ["11-15", "24-20", "15-19"]:
        game.push_pdn(text)
    assert game.plies_since_capture == 3 and game.plies_since_man_move == 0
    game.push_pdn("23x16")
    assert game.plies_since_capture == 0
    game.push_pdn("12x19")
    assert game.plies_since_capture == 0
    game.pop()
    game.pop()
    assert game.plies_since_capture == 3


def test_king_moves_count_toward_the_progress_rules():
    game = GameState(KINGS_ONLY)
    for text in ["1-5", "32-27", "5-9", "27-23", "9-13"]:
        game.push_pdn(text)
    assert game.plies_since_man_move == 5 and game.plies_since_capture == 5
    assert game.moves_since_man_move(Color.BLACK) == 3
    assert game.moves_since_man_move(Color.WHITE) == 2
    assert game.moves_since_capture("black") == 3 and game.moves_since_capture("white") == 2


def test_man_move_resets_only_the_man_counter():
    game = GameState(Position.from_fen("B:WK32,20:BK1"))
    game.push_pdn("1-5")
    game.push_pdn("20-16")
    assert game.plies_since_man_move == 0 and game.plies_since_capture == 2
    game.push_pdn("5-9")
    assert game.moves_since_man_move(Color.BLACK) == 1 and game.moves_since_man_move(Color.WHITE) == 0


def test_repetition_count_and_would_repeat():
    game = GameState(KINGS_ONLY)
    assert game.repetition_count() == 1
    shuffle = ["1-5", "32-27", "5-1", "27-32"]
    for text in shuffle:
        game.push_pdn(text)
    assert game.repetition_count() == 2
    assert game.repetition_count(KINGS_ONLY.repetition_key()) == 2
    assert game.would_repeat(game.position.parse_move("1-5")) == 2
    for text in shuffle[:3]:
        game.push_pdn(text)
    # The next move 27-32 would show the starting position for the third time.
    assert game.would_repeat(game.position.parse_move("27-32")) == 3
    assert game.would_repeat(game.position.parse_move("27-23")) == 1


def test_same_pieces_other_side_to_move_is_another_position():
    game = GameState(KINGS_ONLY)
    game.push_pdn("1-5")
    assert game.repetition_count(Position.from_fen("B:WK32:BK5")) == 0
    assert game.repetition_count(Position.from_fen("W:WK32:BK5")) == 1


def test_game_ends_when_the_side_to_move_cannot_move():
    game = GameState(Position.from_squares(black=[14], white=[18]))
    game.push_pdn("14x23")
    assert game.is_over and game.winner is Color.BLACK


def test_replaying_a_published_game():
    # Tinsley - Rex, Ohio State 1946 (tinsley.pdn), with the 24x15x6 double jump at the end;
    # the archive writes some plain moves with x (10x14), which the engine refuses.
    text = (
        "11-15 23-18 8-11 27-23 4-8 23-19 10x14 19x10 14x23 26x19 7x14 24-20 6-10 30-26 11-15 "
        "28-24 14-18 20-16 18-23 16-11 23x30 11x4 2-7 4-8 1-6 22-18 15x22 25x18 10x14 18x15 "
        "14-18 29x25 9-13 8-4 13-17 21x14 30x21 15-10 6x15 19x10 21-17 4-8 18-22 24-19 22-25 "
        "32-28 25-30 31-27 30-26 19-16 12x19 27-24 3x12 10x3 17x10 24x15x6"
    )
    game = GameState()
    rewritten = 0
    for move in text.split():
        try:
            game.push_pdn(move)
        except IllegalMoveError:
            game.push_pdn(move.replace("x", "-"))
            rewritten += 1
    assert rewritten == 4
    assert game.ply == 56
    assert game.position.count(Color.BLACK) == 3 and game.position.count(Color.WHITE) == 3
