"""One test per rule of RULES.md, section "Moves (all rule sets)"."""

from __future__ import annotations

import pytest

from games.rules import AmbiguousMoveError, Color, GameState, IllegalMoveError, Position, RuleSet


def paths(position: Position, rules: RuleSet = RuleSet.STANDARD) -> set[str]:
    return {move.pdn() for move in position.legal_moves(rules)}


def test_board_numbering_puts_black_on_1_to_12_and_white_on_21_to_32():
    position = Position.initial()
    assert position.squares(Color.BLACK) == list(range(1, 13))
    assert position.squares(Color.WHITE) == list(range(21, 33))
    assert all(position.piece_at(s) is None for s in range(13, 21))
    assert position.side_to_move is Color.BLACK


def test_black_moves_first_with_the_seven_published_openings():
    assert paths(Position.initial()) == {"9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"}


def test_white_replies_on_the_published_squares():
    after = Position.initial().play(Position.initial().parse_move("11-15"))
    assert paths(after) == {"21-17", "22-17", "22-18", "23-18", "23-19", "24-19", "24-20"}


def test_man_moves_diagonally_forward_only():
    assert paths(Position.from_squares(black=[14], white=[32])) == {"14-17", "14-18"}
    assert paths(Position.from_squares(black=[1], white=[14], side_to_move="white")) == {"14-9", "14-10"}


def test_man_on_the_side_edge_has_one_forward_square():
    assert paths(Position.from_squares(black=[5], white=[32])) == {"5-9"}
    assert paths(Position.from_squares(black=[12], white=[32])) == {"12-16"}


def test_man_jumps_forward_only():
    # White men on 10 and 18 are both adjacent to the black man on 14; only 18 is ahead of it.
    assert paths(Position.from_squares(black=[14], white=[10, 18])) == {"14x23"}


def test_king_moves_both_ways():
    assert paths(Position.from_squares(black=[14], white=[32], kings=[14])) == {
        "14-9",
        "14-10",
        "14-17",
        "14-18",
    }
    assert paths(Position.from_squares(black=[1], white=[14], kings=[14], side_to_move="white")) == {
        "14-9",
        "14-10",
        "14-17",
        "14-18",
    }


def test_king_jumps_backward():
    assert paths(Position.from_squares(black=[19], white=[15, 32], kings=[19])) == {"19x10"}


def test_jump_goes_over_an_adjacent_opposing_piece_to_the_empty_square_beyond():
    position = Position.from_squares(black=[14], white=[18])
    move = position.parse_move("14x23")
    assert move.captures == (18,)
    after = position.play(move)
    assert after.piece_at(23) == "b" and after.piece_at(18) is None and after.piece_at(14) is None


def test_no_jump_when_the_square_beyond_is_occupied():
    assert paths(Position.from_squares(black=[14], white=[18, 23])) == {"14-17"}


def test_king_does_not_jump_a_distant_piece():
    # No flying kings: 1, 6, 10, 15 lie on one diagonal, but 10 is not adjacent to 1.
    assert paths(Position.from_squares(black=[1], white=[10], kings=[1])) == {"1-5", "1-6"}


def test_no_jump_over_own_piece():
    assert paths(Position.from_squares(black=[14, 18], white=[32])) == {"14-17", "18-22", "18-23"}


def test_capture_is_compulsory_under_standard_rules():
    position = Position.from_squares(black=[14, 1], white=[18])
    assert paths(position) == {"14x23"}


def test_free_choice_between_captures_not_the_longest():
    # 6x15x24 takes two pieces, 4x11 one; both are legal.
    position = Position.from_squares(black=[6, 4], white=[10, 19, 8])
    assert paths(position) == {"6x15x24", "4x11"}


def test_multi_jump_must_be_completed_under_standard_rules():
    position = Position.from_squares(black=[6], white=[10, 19])
    assert paths(position) == {"6x15x24"}
    with pytest.raises(IllegalMoveError):
        position.parse_move("6x15")


def test_no_piece_is_jumped_twice():
    # The king on 10 jumps 15 to 19; jumping 15 again back to 10 is not allowed.
    assert paths(Position.from_squares(black=[10], white=[15], kings=[10])) == {"10x19"}


def test_jumped_pieces_stay_on_the_board_until_the_move_ends():
    # A king's circuit: it may land again on the square it started from (left empty),
    # and the pieces it jumped are removed only after the whole move.
    position = Position.from_fen("B:W9,10,17,18,29:BK15")
    assert paths(position) == {"15x6x13x22x15", "15x22x13x6x15"}
    after = position.play(position.parse_move("15x6x13x22x15"))
    assert after.fen() == "W:W29:BK15"


def test_man_crowned_by_a_move_becomes_a_king():
    position = Position.from_squares(black=[27], white=[5])
    move = position.parse_move("27-32")
    assert move.crowns
    assert position.play(move).piece_at(32) == "B"


def test_man_crowned_by_a_jump_stops_jumping():
    # After 22x31 the new king could jump 27 to 24, but the crowning ends the move (Law 13).
    position = Position.from_squares(black=[22], white=[26, 27])
    moves = position.legal_moves()
    assert [m.pdn() for m in moves] == ["22x31"]
    assert moves[0].crowns
    assert position.play(moves[0]).piece_at(31) == "B"


def test_king_reaching_the_far_row_jumps_on():
    position = Position.from_squares(black=[22], white=[26, 27], kings=[22])
    assert "22x31x24" in paths(position)


def test_player_who_cannot_move_has_lost():
    blocked = Position.from_squares(black=[28], white=[32])
    assert blocked.legal_moves() == []
    assert blocked.is_game_over(RuleSet.STANDARD)
    game = GameState(blocked)
    assert game.is_over and game.winner is Color.WHITE


def test_player_without_pieces_has_lost():
    position = Position.from_squares(black=[14], white=[18], side_to_move="black")
    after = position.play(position.parse_move("14x23"))
    assert after.count(Color.WHITE) == 0
    assert all(after.is_game_over(rules) for rules in RuleSet)


def test_notation_writes_moves_jumps_and_full_paths():
    position = Position.from_fen("B:W18,19,26,27,K30:BK10,14,15,K22")
    assert [m.pdn() for m in position.legal_moves()] == ["14x23x32", "15x24x31", "22x31x24"]
    assert [str(m) for m in Position.initial().legal_moves()][:2] == ["9-13", "9-14"]


def test_short_form_is_accepted_when_unambiguous():
    position = Position.from_fen("B:W18,19,26,27,K30:BK10,14,15,K22")
    assert position.parse_move("15x31").path == (15, 24, 31)
    assert position.parse_move("15x24x31").path == (15, 24, 31)


def test_short_form_that_matches_two_paths_is_ambiguous():
    position = Position.from_fen("B:W9,10,17,18,29:BK15")
    with pytest.raises(AmbiguousMoveError) as caught:
        position.parse_move("15x15")
    assert caught.value.candidates == ["15x6x13x22x15", "15x22x13x6x15"]
    assert position.parse_move("15x6x13x15").path == (15, 6, 13, 22, 15)
