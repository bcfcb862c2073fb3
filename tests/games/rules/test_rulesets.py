"""The three rule sets differ exactly where RULES.md says."""

from __future__ import annotations

import pytest

from games.rules import GameState, IllegalMoveError, Position, RuleSet

CAPTURE_AVAILABLE = Position.from_squares(black=[14, 1], white=[18])  # 14x23 or plain moves
DOUBLE_JUMP = Position.from_squares(black=[6], white=[10, 19, 32])  # 6x15x24


def paths(position: Position, rules: RuleSet) -> set[str]:
    return {move.pdn() for move in position.legal_moves(rules)}


def test_rule_set_values_are_the_tournament_names():
    assert [r.value for r in RuleSet] == ["standard", "standard-huff", "customary"]
    assert RuleSet("standard-huff") is RuleSet.STANDARD_HUFF


def test_capture_is_compulsory_under_standard_and_standard_huff():
    assert paths(CAPTURE_AVAILABLE, RuleSet.STANDARD) == {"14x23"}
    assert paths(CAPTURE_AVAILABLE, RuleSet.STANDARD_HUFF) == {"14x23"}


def test_capture_is_optional_under_customary():
    assert paths(CAPTURE_AVAILABLE, RuleSet.CUSTOMARY) == {"14x23", "14-17", "1-5", "1-6"}


def test_partial_multi_jump_only_under_customary():
    assert paths(DOUBLE_JUMP, RuleSet.STANDARD) == {"6x15x24"}
    assert paths(DOUBLE_JUMP, RuleSet.STANDARD_HUFF) == {"6x15x24"}
    assert {"6x15", "6x15x24"} <= paths(DOUBLE_JUMP, RuleSet.CUSTOMARY)
    assert DOUBLE_JUMP.parse_move("6x15", RuleSet.CUSTOMARY).captures == (10,)
    for rules in (RuleSet.STANDARD, RuleSet.STANDARD_HUFF):
        with pytest.raises(IllegalMoveError):
            DOUBLE_JUMP.parse_move("6x15", rules)


def test_customary_still_stops_a_crowned_man():
    position = Position.from_squares(black=[22], white=[26, 27])
    assert "22x31x24" not in paths(position, RuleSet.CUSTOMARY)


def test_standard_refuses_a_non_capture_when_a_capture_exists():
    with pytest.raises(IllegalMoveError) as caught:
        CAPTURE_AVAILABLE.parse_move("1-5", RuleSet.STANDARD)
    assert caught.value.reason == "a capture is compulsory: 14x23"
    assert caught.value.legal_moves == ["14x23"]


def test_standard_huff_records_a_non_capture_as_a_huffable_infraction():
    move = CAPTURE_AVAILABLE.parse_move("1-5", RuleSet.STANDARD_HUFF)
    assert move.path == (1, 5) and not move.is_capture
    assert move not in CAPTURE_AVAILABLE.legal_moves(RuleSet.STANDARD_HUFF)
    assert CAPTURE_AVAILABLE.failed_capture(move) == frozenset({14})


def test_failed_capture_names_every_piece_that_could_have_captured():
    position = Position.from_squares(black=[14, 15, 1], white=[18, 19])
    move = position.parse_move("1-5", RuleSet.STANDARD_HUFF)
    assert position.failed_capture(move) == frozenset({14, 15})


def test_failed_capture_is_empty_when_there_is_no_infraction():
    capture = CAPTURE_AVAILABLE.parse_move("14x23")
    assert CAPTURE_AVAILABLE.failed_capture(capture) == frozenset()
    quiet = Position.initial().parse_move("11-15")
    assert Position.initial().failed_capture(quiet) == frozenset()
    plain = CAPTURE_AVAILABLE.parse_move("1-5", RuleSet.CUSTOMARY)
    assert CAPTURE_AVAILABLE.failed_capture(plain, RuleSet.CUSTOMARY) == frozenset()


def test_customary_accepts_a_non_capture_silently():
    assert CAPTURE_AVAILABLE.parse_move("1-5", RuleSet.CUSTOMARY).path == (1, 5)


def test_game_state_accepts_a_huffable_move_only_under_standard_huff():
    GameState(CAPTURE_AVAILABLE, RuleSet.STANDARD_HUFF).push_pdn("1-5")
    GameState(CAPTURE_AVAILABLE, RuleSet.CUSTOMARY).push_pdn("1-5")
    with pytest.raises(IllegalMoveError):
        GameState(CAPTURE_AVAILABLE, RuleSet.STANDARD).push_pdn("1-5")


def test_sole_capture_means_one_legal_move_and_it_is_a_capture():
    assert CAPTURE_AVAILABLE.sole_capture()
    assert DOUBLE_JUMP.sole_capture()
    assert not Position.initial().sole_capture()
    two_ways = Position.from_squares(black=[14, 15], white=[18, 19])
    assert not two_ways.sole_capture()
    circuit = Position.from_fen("B:W9,10,17,18,29:BK15")  # one piece, two paths
    assert not circuit.sole_capture()


def test_sole_capture_counts_complete_paths_under_customary():
    assert DOUBLE_JUMP.sole_capture(RuleSet.CUSTOMARY)
    assert len([m for m in DOUBLE_JUMP.legal_moves(RuleSet.CUSTOMARY) if m.is_capture]) == 2


def test_no_legal_move_is_the_same_under_every_rule_set():
    blocked = Position.from_squares(black=[28], white=[32])
    assert all(blocked.is_game_over(rules) and not blocked.legal_moves(rules) for rules in RuleSet)
